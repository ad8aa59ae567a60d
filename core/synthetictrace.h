// SPDX-License-Identifier: MIT
#pragma once

#include "core/program.h"
#include "core/workload.h"

#include <cstdint>

namespace flint::core {

/// A transformer-like device program of `opCount` ops for benchmarks and scale tests: per layer, a
/// chain of GEMMs and elementwise ops with a residual edge and a control edge, and a tensor-parallel
/// all-reduce in comm slot "tp" after attention and after the MLP. Deterministic for a given count.
Program makeSyntheticProgram(std::uint64_t opCount);

/// `ranks` ranks that all run makeSyntheticProgram(opCount - 1) followed by a data-parallel
/// gradient all-reduce of `gradientBytes` (comm slot "dp"): the "tp" slot binds groups of `tp`
/// consecutive ranks, the "dp" slot the ranks with the same index within their group.
Workload makeSyntheticSpmdWorkload(std::uint64_t opCount, std::int32_t ranks, std::int32_t tp,
                                   std::uint64_t gradientBytes);

/// Gives every rank of `workload` its own recorded compute durations (RankBinding::times, varied by
/// rank and op), as a measured trace has them: the ranks share their program, each with a times
/// object of its own, so the estimator takes no two ranks for alike.
void giveEveryRankItsOwnTimes(Workload& workload);

} // namespace flint::core
