// SPDX-License-Identifier: MIT
#pragma once

#include "core/progress.h"
#include "core/workload.h"

#include <cstdint>
#include <map>
#include <string>

namespace flint::core {

/// Count and total bytes of one collective kind, summed over all ranks (bytes: Op::commBytes).
struct CollectiveTotals {
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
};

/// Whether a summary's counts are summed over every rank or are those of one rank.
enum class SummaryScope { AllRanks, PerRank };

/// What `flint inspect` reports about a workload. Counts, bytes, FLOPs and memory traffic are summed
/// over every rank (SummaryScope::AllRanks), or are one rank's (PerRank, for SPMD workloads).
struct WorkloadSummary {
    SummaryScope scope = SummaryScope::AllRanks;
    std::size_t ranks = 0;
    std::size_t distinctPrograms = 0;
    std::uint64_t ops = 0;
    std::map<OpKind, std::uint64_t> opsByKind;
    std::map<CollectiveKind, CollectiveTotals> collectives;
    CollectiveTotals sends;
    CollectiveTotals recvs;
    std::uint64_t flops = 0;
    std::uint64_t memoryBytes = 0;
    std::uint64_t cpuOps = 0;
    /// Groups that some rank is bound to.
    std::vector<CommGroup> groups;
    /// Ops on the longest dependency chain of any rank, and the first rank that has it.
    std::uint64_t longestChain = 0;
    std::size_t longestChainRank = 0;
    /// Ops, summed over ranks, that sit on or behind a dependency cycle and so are not in any chain.
    std::uint64_t opsOnCycles = 0;
    std::string schemaVersion;
};

/// Summarizes `workload`; each distinct program is analysed once.
WorkloadSummary summarize(const Workload& workload, const JobControl& control = {});

/// The summary of an SPMD workload (every rank runs one program) for one rank: counts, bytes and
/// FLOPs of one execution on one rank. Throws std::invalid_argument when ranks run different programs.
WorkloadSummary summarizePerRank(const Workload& workload, const JobControl& control = {});

/// The summary as JSON: {"ranks": N, "nodes": {"COMP_NODE": n, ...}, "collectives": {"ALL_REDUCE":
/// {"count": n, "bytes": b}, ...}, ...}.
std::string toJson(const WorkloadSummary& summary);

/// The summary as human-readable text.
std::string toText(const WorkloadSummary& summary);

} // namespace flint::core
