// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/measured/measuredworkload.h"
#include "core/message.h"
#include "core/workload.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace flint::core::measured {

/// One category of operations (device kernels, copies, each collective kind, ...) on the validated
/// rank: how many ops each side has and how long they took as measured and as estimated.
struct CategoryRow {
    std::string category;
    std::uint64_t measuredCount = 0;
    std::uint64_t workloadCount = 0;
    double measuredSeconds = 0;  ///< summed measured durations (collectives: their transfer times)
    double estimatedSeconds = 0; ///< summed durations in the workload's estimate
};

/// One rank's step: as measured and as estimated three ways.
struct RankRow {
    std::int32_t rank = 0;
    bool recorded = true;       ///< false: no profile of this rank; it mirrors a recorded one
    double measured = 0;        ///< the profile's step time, seconds
    double estimated = 0;       ///< the workload's estimate on the cluster
    double replayed = 0;        ///< the measured workload replayed with its measured compute and communication
    double measuredCompute = 0; ///< the measured workload with measured compute and modelled communication
};

/// The k-th collective of one kind on the validated rank, on both sides.
struct CollectiveRow {
    std::string category;
    std::uint64_t index = 0; ///< k: the k-th of its kind on the rank, in program order
    std::uint64_t measuredBytes = 0;
    std::uint64_t workloadBytes = 0;
    double measuredSeconds = 0;   ///< measured transfer time
    double estimatedSeconds = 0;  ///< its time in the workload's estimate
    std::int64_t measuredOp = -1; ///< index into the measured program of the rank, -1 when only estimated
    std::int64_t workloadOp = -1; ///< index into the workload's program of the rank, -1 when only measured
};

/// The ops of one name on the validated rank, on both sides: an XLA trace names its ops by HLO
/// instruction as the HLO module does, a workload exported from a run keeps the run's names.
struct OpRow {
    std::string name;
    std::uint64_t measuredCount = 0;
    std::uint64_t workloadCount = 0;
    double measuredSeconds = 0;   ///< summed measured durations
    double estimatedSeconds = 0;  ///< summed durations in the workload's estimate
    std::int64_t workloadOp = -1; ///< the first op of this name in the workload's program of the rank, or -1
    bool matched() const { return measuredCount > 0 && workloadCount > 0; }
};

/// A workload held against a measured run of it (docs/validation.md).
struct Validation {
    std::int32_t rank = 0; ///< the rank the category and collective tables describe
    std::vector<CategoryRow> categories;
    std::vector<RankRow> ranks;
    std::vector<CollectiveRow> collectives;
    /// Every op name of the rank on either side, names found on both sides first, then by measured
    /// time, longest first.
    std::vector<OpRow> ops;
    double measuredStep = 0, estimatedStep = 0, replayedStep = 0, measuredComputeStep = 0; ///< slowest rank, s
    double hostGapSeconds = 0; ///< on the validated rank: time its device waited for the host
};

/// Orders collective or op rows largest time difference (estimated - measured, either sign) first.
template <class Row>
bool largerDifferenceFirst(const Row& a, const Row& b)
{
    return std::abs(a.estimatedSeconds - a.measuredSeconds) > std::abs(b.estimatedSeconds - b.measuredSeconds);
}

/// Throws InputError naming `measured` when it and `workload` differ in rank count.
void requireSameRanks(const Workload& workload, const MeasuredWorkload& measured);

/// Compares `workload` and its estimate with the measured workload `measured` (what
/// readMeasuredWorkload gives), replayed (`replay`: EstimateOptions::timing Recorded and
/// recordedCommunication) and re-estimated with measured compute (`measuredCompute`). Categories are
/// counted on `rank`; collectives are matched by kind and order there, ops by name. Throws InputError when the
/// rank counts differ.
Validation validate(const Workload& workload, const EstimateResult& estimate, const MeasuredWorkload& measured,
                    const EstimateResult& replay, const EstimateResult& measuredCompute, std::int32_t rank = 0);

/// Why a comparison of `measured` with an estimate on `cluster` compares two different machines:
/// the run was measured on TPUs and the cluster is not, or the profile names a GPU (Kineto's
/// deviceProperties) that is one of the device presets and not the cluster's device. Empty (text "")
/// when they agree or the profile does not say. The text names what to choose instead; a Message, so
/// that the explorer shows it in the user's language.
Message deviceMismatch(const MeasuredWorkload& measured, const Cluster& cluster);
/// The same for a run known only by its device kind ("TPU", "GPU") and the device name its profile
/// records (a measured profile opened as a workload: core::LoadedWorkload).
Message deviceMismatch(std::string_view deviceKind, std::string_view deviceName, const Cluster& cluster);

/// The category an op counts in: its measured kind, else its op kind ("kernel" for device compute,
/// "host op" for a CPU op, "memcpy" for a memory load or store, the collective's name).
std::string categoryOf(const Op& op);

/// Seconds as a validation prints them: "1.234 s", "222.442 ms", "37.2 us".
std::string formatSeconds(double seconds);

std::string validationText(const Validation& v, std::size_t collectiveRows = 10);
std::string validationJson(const Validation& v);
/// The category table as CSV (category,measured_count,workload_count,measured_s,estimated_s,error_pct).
std::string validationCsv(const Validation& v);
/// The ops by name as CSV (name,measured_count,workload_count,measured_s,estimated_s,error_pct), every
/// name of either side.
std::string validationOpsCsv(const Validation& v);

} // namespace flint::core::measured
