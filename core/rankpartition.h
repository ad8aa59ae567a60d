// SPDX-License-Identifier: MIT
#pragma once

#include "core/workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flint::core {

/// A division of a workload's ranks into disjoint parts, for grouping lanes and ordering matrices:
/// the groups of one communicator pattern (a mesh axis: the tensor-parallel groups, the data-parallel
/// groups, ...), or the ranks that run the same program (pipeline stages and other roles).
struct RankPartition {
    enum class Basis : std::uint8_t {
        Communicator, ///< the groups one comm slot binds across the ranks (a mesh axis)
        Program,      ///< ranks that run the same Program (a pipeline stage or role)
    };
    Basis basis = Basis::Communicator;
    /// What the parts are, for a menu: "32 groups of 4 ranks (ALL_REDUCE, ALL_GATHER)".
    std::string label;
    /// Communicator partitions: the collective kinds that use these groups (Chakra spelling).
    std::vector<std::string> kinds;
    /// The parts, each sorted; ordered by their lowest rank. Every rank is in exactly one part.
    std::vector<std::vector<std::int32_t>> parts;
    /// Communicator partitions whose parts are exactly the groups of some axes of
    /// Workload::meshAxes (ranks that differ only in those axes' coordinates): those axes' names,
    /// major first, joined by "x" ("TP", "DP x CP"); empty when no set of axes gives these parts.
    std::string axes;
    /// Program partitions: the programs are pipeline stages (they send to each other: some program
    /// has a Send or Recv op), not roles or recorded ranks that others mirror.
    bool stages = false;

    /// The ranks part by part: an order of all ranks that keeps each part together.
    std::vector<std::int32_t> order() const;
};

/// The partitions worth grouping by: one per distinct communicator pattern whose groups are disjoint
/// and have between 2 and rankCount-1 members (ranks outside every group form singleton parts), and
/// one by program when the ranks run 2 to rankCount-1 distinct programs. Ordered: programs first,
/// then communicators by group size. Communicator partitions are named by the workload's mesh axes
/// where it has them (RankPartition::axes). Linear in ranks x comm slots (and 2^axes per partition).
std::vector<RankPartition> rankPartitions(const Workload& workload);

} // namespace flint::core
