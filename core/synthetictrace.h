// SPDX-License-Identifier: MIT
#pragma once

#include "core/program.h"

#include <cstdint>

namespace flint::core {

/// A transformer-like device program of `opCount` ops for benchmarks and scale tests: per layer, a
/// chain of GEMMs and elementwise ops with a residual edge and a control edge, and a tensor-parallel
/// all-reduce in comm slot "tp" after attention and after the MLP. Deterministic for a given count.
Program makeSyntheticProgram(std::uint64_t opCount);

} // namespace flint::core
