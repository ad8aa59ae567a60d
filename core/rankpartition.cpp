// SPDX-License-Identifier: MIT
#include "core/rankpartition.h"

#include "core/types.h"

#include <algorithm>
#include <map>
#include <set>

namespace flint::core {

std::vector<std::int32_t> RankPartition::order() const
{
    std::vector<std::int32_t> ranks;
    for (const auto& part : parts)
        ranks.insert(ranks.end(), part.begin(), part.end());
    return ranks;
}

namespace {

/// Completes `parts` with singletons for the ranks they miss, sorts them, and checks that they are
/// disjoint. Returns false when a rank is in two parts.
bool complete(std::vector<std::vector<std::int32_t>>& parts, std::size_t rankCount)
{
    std::vector<bool> seen(rankCount, false);
    for (auto& part : parts) {
        std::sort(part.begin(), part.end());
        for (std::int32_t r : part) {
            if (r < 0 || static_cast<std::size_t>(r) >= rankCount || seen[static_cast<std::size_t>(r)])
                return false;
            seen[static_cast<std::size_t>(r)] = true;
        }
    }
    for (std::size_t r = 0; r < rankCount; ++r)
        if (!seen[r])
            parts.push_back({static_cast<std::int32_t>(r)});
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
    return true;
}

std::string sizeLabel(const std::vector<std::vector<std::int32_t>>& parts)
{
    std::size_t smallest = parts.front().size(), largest = smallest;
    for (const auto& part : parts) {
        smallest = std::min(smallest, part.size());
        largest = std::max(largest, part.size());
    }
    return smallest == largest ? std::to_string(largest) : std::to_string(smallest) + "-" + std::to_string(largest);
}

} // namespace

std::vector<RankPartition> rankPartitions(const Workload& workload)
{
    const std::size_t ranks = workload.rankCount();
    std::vector<RankPartition> result;
    if (ranks < 3)
        return result;

    // By program: pipeline stages and other roles.
    std::map<std::uint32_t, std::vector<std::int32_t>> byProgram;
    for (std::size_t r = 0; r < ranks; ++r)
        byProgram[workload.ranks[r].program].push_back(static_cast<std::int32_t>(r));
    if (byProgram.size() > 1 && byProgram.size() < ranks) {
        RankPartition p;
        p.basis = RankPartition::Basis::Program;
        for (const auto& [program, members] : byProgram)
            p.parts.push_back(members);
        complete(p.parts, ranks);
        p.label = std::to_string(p.parts.size()) + " programs of " + sizeLabel(p.parts) + " ranks";
        result.push_back(std::move(p));
    }

    // By communicator pattern: per slot name (the same name in several programs is one communicator
    // pattern, e.g. the tensor-parallel groups of every pipeline stage), the groups its ranks bind.
    struct Pattern {
        std::set<std::uint32_t> groups;
        std::set<std::string> kinds;
    };
    std::map<std::string, Pattern> patterns;
    for (const auto& [programIndex, members] : byProgram) {
        const Program& program = *workload.programs[programIndex];
        std::vector<std::set<std::string>> kinds(program.commSlots.size());
        for (const Op& op : program.ops)
            if (op.kind == OpKind::Collective && op.commSlot >= 0 &&
                static_cast<std::size_t>(op.commSlot) < kinds.size())
                kinds[static_cast<std::size_t>(op.commSlot)].insert(std::string(chakraName(op.collective)));
        for (std::size_t slot = 0; slot < program.commSlots.size(); ++slot) {
            if (kinds[slot].empty())
                continue; // a slot no collective uses
            Pattern& pattern = patterns[program.commSlots[slot]];
            for (std::int32_t r : members) {
                const auto& binding = workload.ranks[static_cast<std::size_t>(r)].slotGroups;
                if (slot < binding.size())
                    pattern.groups.insert(binding[slot]);
            }
            pattern.kinds.insert(kinds[slot].begin(), kinds[slot].end());
        }
    }
    std::vector<RankPartition> communicators;
    for (const auto& [name, pattern] : patterns) {
        RankPartition p;
        p.basis = RankPartition::Basis::Communicator;
        for (std::uint32_t g : pattern.groups)
            if (g < workload.groups.size())
                p.parts.push_back(workload.groups[g].ranks);
        if (p.parts.empty() || !complete(p.parts, ranks))
            continue; // overlapping groups cannot lay ranks out side by side
        if (p.parts.size() == 1 || p.parts.size() == ranks)
            continue; // all ranks in one part, or every rank alone: nothing to group
        p.kinds.assign(pattern.kinds.begin(), pattern.kinds.end());
        std::string kindList;
        for (const auto& kind : pattern.kinds)
            kindList += (kindList.empty() ? "" : ", ") + kind;
        p.label = std::to_string(p.parts.size()) + " groups of " + sizeLabel(p.parts) + " ranks (" + kindList + ")";
        const bool duplicate = std::any_of(communicators.begin(), communicators.end(),
                                           [&](const RankPartition& other) { return other.parts == p.parts; });
        if (!duplicate)
            communicators.push_back(std::move(p));
    }
    std::stable_sort(communicators.begin(), communicators.end(), [](const RankPartition& a, const RankPartition& b) {
        return a.parts.size() > b.parts.size(); // small groups (inner mesh axes) first
    });
    result.insert(result.end(), std::make_move_iterator(communicators.begin()),
                  std::make_move_iterator(communicators.end()));
    return result;
}

} // namespace flint::core
