// SPDX-License-Identifier: MIT
#include "core/workload.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace flint::core {

const CommGroup* Workload::groupOf(std::size_t rank, const Op& op) const
{
    if (op.commSlot < 0)
        return nullptr;
    return &groups.at(ranks.at(rank).slotGroups.at(static_cast<std::size_t>(op.commSlot)));
}

std::vector<std::int32_t> Workload::membersOf(std::size_t rank, const Op& op) const
{
    if (const CommGroup* group = groupOf(rank, op))
        return group->ranks;
    std::vector<std::int32_t> all(ranks.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
}

std::int32_t Workload::peerOf(std::size_t rank, const Op& op) const
{
    const std::int32_t peer = op.kind == OpKind::Send ? op.commDst : op.commSrc;
    if (op.commSlot < 0)
        return peer;
    const CommGroup* group = groupOf(rank, op);
    if (peer < 0 || static_cast<std::size_t>(peer) >= group->ranks.size())
        return -1;
    return group->ranks[static_cast<std::size_t>(peer)];
}

std::pair<std::int32_t, std::int32_t> Workload::endpointsOf(std::size_t rank, const Op& op) const
{
    if (op.commSlot < 0)
        return {op.commSrc, op.commDst};
    // The executing rank is one end by definition, whatever its own position field holds.
    const std::int32_t self = static_cast<std::int32_t>(rank);
    const std::int32_t peer = peerOf(rank, op);
    return op.kind == OpKind::Send ? std::pair{self, peer} : std::pair{peer, self};
}

std::uint32_t Workload::groupFor(const std::vector<std::int32_t>& members)
{
    std::uint64_t nextId = 1;
    for (std::uint32_t g = 0; g < groups.size(); ++g) {
        if (groups[g].ranks == members)
            return g;
        const std::string& name = groups[g].name;
        if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
            name.size() < 19)
            nextId = std::max<std::uint64_t>(nextId, std::stoull(name) + 1);
    }
    groups.push_back(CommGroup{std::to_string(nextId), members});
    return static_cast<std::uint32_t>(groups.size() - 1);
}

Workload Workload::spmdFromSlots(std::shared_ptr<const Program> program, std::size_t rankCount,
                                 const std::vector<SlotBinding>& slots)
{
    Workload w;
    w.programs.push_back(std::move(program));
    w.ranks.resize(rankCount);
    GroupIndex index;
    std::vector<std::vector<std::uint32_t>> global(slots.size());
    for (std::size_t s = 0; s < slots.size(); ++s)
        for (const std::vector<std::int32_t>& members : slots[s].groups)
            global[s].push_back(index.groupFor(w, members));
    for (std::size_t r = 0; r < rankCount; ++r) {
        std::vector<std::uint32_t>& bound = w.ranks[r].slotGroups;
        bound.reserve(slots.size());
        for (std::size_t s = 0; s < slots.size(); ++s) {
            const std::int32_t g = r < slots[s].groupOf.size() ? slots[s].groupOf[r] : -1;
            bound.push_back(g >= 0 ? global[s][static_cast<std::size_t>(g)]
                                   : index.groupFor(w, {static_cast<std::int32_t>(r)}));
        }
    }
    return w;
}

std::uint32_t Workload::GroupIndex::groupFor(Workload& w, std::vector<std::int32_t> members)
{
    const auto it = m_byMembers.find(members);
    if (it != m_byMembers.end())
        return it->second;
    const auto group = static_cast<std::uint32_t>(w.groups.size());
    w.groups.push_back(CommGroup{std::to_string(group + 1), members});
    m_byMembers.emplace(std::move(members), group);
    return group;
}

std::size_t Workload::GroupIndex::Hash::operator()(const std::vector<std::int32_t>& v) const noexcept
{
    // FNV-1a over the rank numbers.
    std::size_t h = 1469598103934665603ull;
    for (std::int32_t r : v) {
        h ^= static_cast<std::uint32_t>(r);
        h *= 1099511628211ull;
    }
    return h;
}

std::int64_t Workload::findGroup(const std::string& name) const
{
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g].name == name)
            return static_cast<std::int64_t>(g);
    return -1;
}

std::string Workload::validate() const
{
    const auto n = static_cast<std::int32_t>(ranks.size());
    // (group, member) pairs, so that checking each rank's membership stays linear in the members of
    // all groups rather than ranks times group size.
    std::unordered_set<std::uint64_t> membership;
    const auto pair = [](std::uint64_t g, std::int32_t r) { return g << 32 | static_cast<std::uint32_t>(r); };
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::int32_t r : groups[g].ranks) {
            if (r < 0 || r >= n)
                return "group " + groups[g].name + " names rank " + std::to_string(r) + " of " + std::to_string(n);
            membership.insert(pair(g, r));
        }
    // Per program and slot: the largest group position a slot-relative send/recv names. The peer's
    // position (destination of a send, source of a recv) is required; the rank's own may be -1.
    std::vector<std::vector<std::int32_t>> maxPosition(programs.size());
    for (std::size_t p = 0; p < programs.size(); ++p) {
        if (!programs[p])
            continue;
        const Program& program = *programs[p];
        maxPosition[p].assign(program.commSlots.size(), -1);
        for (const Op& op : program.ops) {
            if ((op.kind != OpKind::Send && op.kind != OpKind::Recv) || op.commSlot < 0)
                continue;
            // Named only when something is wrong: a pipeline stage holds thousands of send/recv.
            const auto where = [&] {
                return "program " + (program.name.empty() ? std::to_string(p) : program.name) + ": " +
                       std::string(op.kind == OpKind::Send ? "send" : "recv") + " '" + op.name + "' (id " +
                       std::to_string(op.id) + ")";
            };
            if (static_cast<std::size_t>(op.commSlot) >= program.commSlots.size())
                return where() + " uses comm slot " + std::to_string(op.commSlot) + " but the program has " +
                       std::to_string(program.commSlots.size());
            const std::int32_t peer = op.kind == OpKind::Send ? op.commDst : op.commSrc;
            const std::int32_t self = op.kind == OpKind::Send ? op.commSrc : op.commDst;
            if (peer < 0)
                return where() + " names group position " + std::to_string(peer) + " as its peer";
            auto& m = maxPosition[p][static_cast<std::size_t>(op.commSlot)];
            m = std::max({m, peer, self});
        }
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const RankBinding& binding = ranks[r];
        if (binding.program >= programs.size() || !programs[binding.program])
            return "rank " + std::to_string(r) + " is bound to missing program " + std::to_string(binding.program);
        const Program& program = *programs[binding.program];
        if (binding.slotGroups.size() != program.commSlots.size())
            return "rank " + std::to_string(r) + " binds " + std::to_string(binding.slotGroups.size()) +
                   " comm slots but its program has " + std::to_string(program.commSlots.size());
        if (binding.times && (binding.times->startMicros.size() != program.ops.size() ||
                              binding.times->durationMicros.size() != program.ops.size()))
            return "rank " + std::to_string(r) + " has recorded times for " +
                   std::to_string(binding.times->durationMicros.size()) + " ops but its program has " +
                   std::to_string(program.ops.size());
        for (std::uint32_t g : binding.slotGroups) {
            if (g >= groups.size())
                return "rank " + std::to_string(r) + " is bound to missing group " + std::to_string(g);
            if (membership.count(pair(g, static_cast<std::int32_t>(r))) == 0)
                return "rank " + std::to_string(r) + " is bound to group " + groups[g].name +
                       " but is not one of its members";
        }
        const auto& positions = maxPosition[binding.program];
        for (std::size_t s = 0; s < positions.size(); ++s)
            if (positions[s] >= 0 &&
                static_cast<std::size_t>(positions[s]) >= groups[binding.slotGroups[s]].ranks.size())
                return "rank " + std::to_string(r) + ": a send/recv on comm slot " + program.commSlots[s] +
                       " names position " + std::to_string(positions[s]) + " of group " +
                       groups[binding.slotGroups[s]].name + ", which has " +
                       std::to_string(groups[binding.slotGroups[s]].ranks.size()) + " ranks";
    }
    return {};
}

} // namespace flint::core
