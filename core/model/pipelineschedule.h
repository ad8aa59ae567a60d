// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelconfig.h"

#include <cstdint>
#include <vector>

namespace flint::core::model {

/// One unit of a pipeline rank's work: the forward or backward pass of one microbatch through one
/// of the rank's model chunks (chunk 0 unless the schedule is interleaved).
struct PipelineStep {
    bool backward = false;
    std::int64_t microbatch = 0;
    std::int64_t chunk = 0;

    friend bool operator==(const PipelineStep&, const PipelineStep&) = default;
};

/// The order in which pipeline stage `stage` (0-based, of `stages`) runs its steps:
/// - GPipe: every forward, then every backward (Huang et al. 2019);
/// - 1F1B: `stages - stage - 1` warm-up forwards, then one forward and one backward in turn, then
///   the remaining backwards (PipeDream-Flush; Narayanan et al. 2021, Sec. 2.2.1);
/// - interleaved 1F1B: the rank holds `virtualStages` chunks; forwards visit microbatches in groups
///   of `stages` per chunk, with (stages - stage - 1) * 2 + (virtualStages - 1) * stages warm-up
///   forwards (Narayanan et al. 2021, Sec. 2.2.2, as Megatron-LM schedules it). Needs
///   microbatches % stages == 0.
/// Without `training` only the forwards are listed (inference: prefill or decode).
std::vector<PipelineStep> pipelineOrder(PipelineSchedule schedule, std::int64_t stages, std::int64_t virtualStages,
                                        std::int64_t microbatches, std::int64_t stage, bool training = true);

/// The most chunk-forwards whose activations are held at once (forwards done, backwards not yet)
/// over `order`.
std::int64_t peakChunksInFlight(const std::vector<PipelineStep>& order);

} // namespace flint::core::model
