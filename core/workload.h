// SPDX-License-Identifier: MIT
#pragma once

#include "core/program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace flint::core {

/// A communicator: the global ranks that take part in a collective, in group-rank order.
struct CommGroup {
    /// The group's key in a Chakra comm-group JSON (a decimal number for groups we create).
    std::string name;
    std::vector<std::int32_t> ranks;

    friend bool operator==(const CommGroup&, const CommGroup&) = default;
};

/// How one comm slot of an SPMD program binds its ranks: the slot's distinct groups (global ranks,
/// in group-rank order) and each rank's group among them, -1 for a rank that runs the slot's
/// collectives alone.
struct SlotBinding {
    std::vector<std::vector<std::int32_t>> groups;
    std::vector<std::int32_t> groupOf; ///< per rank

    friend bool operator==(const SlotBinding&, const SlotBinding&) = default;
};

/// A rank's own recorded times for the ops of a program it shares with other ranks: the same ops
/// run at its own speed (measured traces). Indexed like Program::ops.
struct RecordedTimes {
    std::vector<std::uint64_t> startMicros;
    std::vector<std::uint64_t> durationMicros;

    friend bool operator==(const RecordedTimes&, const RecordedTimes&) = default;
};

/// What one rank runs: an index into Workload::programs, for each of that program's comm slots the
/// index of its group in Workload::groups, and the rank's own recorded times when they are not the
/// program's.
struct RankBinding {
    std::uint32_t program = 0;
    std::vector<std::uint32_t> slotGroups;
    /// Null: the program's ops' own startTimeMicros and durationMicros. Ranks may share one.
    std::shared_ptr<const RecordedTimes> times = nullptr;

    friend bool operator==(const RankBinding& a, const RankBinding& b)
    {
        return a.program == b.program && a.slotGroups == b.slotGroups &&
               (a.times == b.times || (a.times && b.times && *a.times == *b.times));
    }
};

/// N ranks, each bound to a Program and to its communicator groups.
///
/// Ranks that run the same program share one immutable Program: an SPMD workload of 4,096 ranks holds
/// one program and 4,096 small bindings. Readable from many threads once built.
struct Workload {
    std::vector<std::shared_ptr<const Program>> programs;
    std::vector<RankBinding> ranks;
    std::vector<CommGroup> groups;
    /// The logical mesh the ranks form, where its producer knows it: axes major to minor, rank r at
    /// row-major position r (built-in models: "PP", "DP", "EP", "CP", "TP"; an MLIR module's one
    /// mesh over all its ranks). Axes of size 1 are left out. For naming what the views group ranks
    /// by (rankPartitions), never for what the workload does; empty when unknown.
    std::vector<std::pair<std::string, std::int64_t>> meshAxes;

    std::size_t rankCount() const { return ranks.size(); }
    const Program& programOf(std::size_t rank) const { return *programs.at(ranks.at(rank).program); }
    /// Recorded duration of op `index` of `rank`'s program as that rank ran it (its own times applied).
    std::uint64_t durationOf(std::size_t rank, std::size_t index) const
    {
        const RankBinding& b = ranks[rank];
        return b.times ? b.times->durationMicros[index] : programs[b.program]->ops[index].durationMicros;
    }
    std::uint64_t startOf(std::size_t rank, std::size_t index) const
    {
        const RankBinding& b = ranks[rank];
        return b.times ? b.times->startMicros[index] : programs[b.program]->ops[index].startTimeMicros;
    }
    /// The group of `op` on `rank`, or nullptr when the op spans all ranks (commSlot -1).
    const CommGroup* groupOf(std::size_t rank, const Op& op) const;
    /// Global ranks of the group of `op` on `rank` (every rank when it spans all).
    std::vector<std::int32_t> membersOf(std::size_t rank, const Op& op) const;

    /// The global rank a Send (its destination) or Recv (its source) on `rank` exchanges with, by
    /// the rule of Op::commSrc; -1 when a group position is out of range.
    std::int32_t peerOf(std::size_t rank, const Op& op) const;
    /// A Send's or Recv's source and destination as global ranks, as `rank` runs it (for a
    /// slot-relative op, `rank` itself is one end).
    std::pair<std::int32_t, std::int32_t> endpointsOf(std::size_t rank, const Op& op) const;

    /// Index of the group with exactly these ranks, adding it (named by the next free decimal id,
    /// starting at 1) when new.
    std::uint32_t groupFor(const std::vector<std::int32_t>& members);
    /// Index of the group called `name`, or -1.
    std::int64_t findGroup(const std::string& name) const;

    /// A workload of `rankCount` ranks that all run `program`, slot s binding rank r to
    /// `slots[s].groups[slots[s].groupOf[r]]` (alone when -1). Linear in ranks x slots plus the
    /// members of the distinct groups, so a group of all 100,000 ranks is hashed once, not per rank.
    static Workload spmdFromSlots(std::shared_ptr<const Program> program, std::size_t rankCount,
                                  const std::vector<SlotBinding>& slots);

    /// A workload of `rankCount` ranks that all run `program`, with every slot bound by `slotMembers`
    /// (called once per rank and slot; returns that slot's member ranks). Equal member lists share one
    /// group, found by hash, so building stays linear in ranks x slots.
    template <typename SlotMembers>
    static Workload spmd(std::shared_ptr<const Program> program, std::size_t rankCount, SlotMembers slotMembers)
    {
        Workload w;
        const std::size_t slots = program->commSlots.size();
        w.programs.push_back(std::move(program));
        w.ranks.resize(rankCount);
        GroupIndex index;
        for (std::size_t r = 0; r < rankCount; ++r) {
            w.ranks[r].slotGroups.reserve(slots);
            for (std::size_t s = 0; s < slots; ++s)
                w.ranks[r].slotGroups.push_back(index.groupFor(w, slotMembers(r, s)));
        }
        return w;
    }

    /// Finds or adds groups by member list in O(1); for building a workload's groups in bulk.
    class GroupIndex {
    public:
        /// Like Workload::groupFor. Only valid while every group of `w` was added through this index.
        std::uint32_t groupFor(Workload& w, std::vector<std::int32_t> members);

    private:
        struct Hash {
            std::size_t operator()(const std::vector<std::int32_t>& v) const noexcept;
        };
        std::unordered_map<std::vector<std::int32_t>, std::uint32_t, Hash> m_byMembers;
    };

    /// Checks the invariants (program indices, one binding per slot, groups' ranks in range, each rank
    /// a member of the groups it is bound to); returns a description of the first violation, or "".
    std::string validate() const;
};

} // namespace flint::core
