// SPDX-License-Identifier: MIT
#pragma once

// What every libFuzzer harness shares: input as text, and the one rule of what counts as a finding.
// A reader may refuse any input with InputError (or MlirParseError, MLIR's located form); anything
// else that leaves a reader (std::bad_alloc, std::out_of_range, a crash, a sanitizer report, a run
// past the time limit) is a defect. Estimates run only on workloads small enough to keep thousands
// of executions per second possible.
#include "core/error.h"
#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace flint::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

/// At most this many ranks and ops per program are estimated after a successful read.
inline constexpr std::size_t kMaxEstimatedRanks = 64;
inline constexpr std::size_t kMaxEstimatedOps = 20'000;

/// Estimates `workload` on the default cluster when it is small; InputError (a deadlock, sizes that
/// disagree) is a legitimate answer.
inline void estimateIfSmall(const core::Workload& workload)
{
    if (workload.rankCount() == 0 || workload.rankCount() > kMaxEstimatedRanks)
        return;
    for (const auto& program : workload.programs)
        if (!program || program->ops.size() > kMaxEstimatedOps)
            return;
    const auto cluster = core::clusterPreset("dgx-h100-ib", static_cast<std::int64_t>(workload.rankCount()));
    if (!cluster)
        return;
    try {
        (void)core::estimate(workload, *cluster);
    } catch (const core::InputError&) {
    }
}

} // namespace flint::fuzz
