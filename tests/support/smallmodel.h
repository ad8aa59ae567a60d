// SPDX-License-Identifier: MIT
#pragma once

// The built-in model the explorer tests open: Llama 3 8B, data-parallel over `gpus`, one sequence
// of 1,024 tokens per GPU per step. It compiles and estimates in well under a second.
#include "core/model/modelconfig.h"

namespace flint::tests {

inline const core::model::TransformerConfig& smallModel()
{
    return *core::model::findModel("llama3-8b");
}

inline core::model::ParallelConfig smallModelStrategy(std::int64_t gpus)
{
    core::model::ParallelConfig p;
    p.dp = gpus;
    p.globalBatch = gpus;
    p.seqLen = 1024;
    return p;
}

} // namespace flint::tests
