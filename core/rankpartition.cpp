// SPDX-License-Identifier: MIT
#include "core/rankpartition.h"

#include "core/types.h"

#include <algorithm>
#include <bit>
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

/// "ALL_GATHER, REDUCE_SCATTER".
std::string joined(const std::vector<std::string>& kinds)
{
    std::string out;
    for (const auto& kind : kinds)
        out += (out.empty() ? "" : ", ") + kind;
    return out;
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

/// A workload's mesh (Workload::meshAxes) over its ranks: rank r at row-major position r.
class Mesh {
public:
    /// Empty (covers() false) unless the axes' sizes multiply to `rankCount`.
    Mesh(const std::vector<std::pair<std::string, std::int64_t>>& axes, std::size_t rankCount)
        : m_axes(axes)
        , m_ranks(rankCount)
    {
        std::int64_t devices = 1;
        for (const auto& [name, size] : axes) {
            if (size < 1 || devices > static_cast<std::int64_t>(rankCount))
                break; // devices is then no longer rankCount
            devices *= size;
        }
        if (axes.size() > 8 || devices != static_cast<std::int64_t>(rankCount)) {
            m_axes.clear();
            return;
        }
        m_stride.assign(m_axes.size(), 1);
        for (std::size_t a = m_axes.size(); a > 1; --a)
            m_stride[a - 2] = m_stride[a - 1] * m_axes[a - 1].second;
    }

    bool covers() const { return !m_axes.empty(); }
    std::size_t axisCount() const { return m_axes.size(); }
    const std::string& name(std::size_t axis) const { return m_axes[axis].first; }

    /// Rank `r` with its coordinates on the axes of bit set `axes` zeroed: ranks with equal keys
    /// differ only on those axes (one group of those axes).
    std::size_t keyWithout(std::size_t r, std::uint32_t axes) const
    {
        auto key = static_cast<std::int64_t>(r);
        for (std::size_t a = 0; a < m_axes.size(); ++a)
            if (axes & (1u << a))
                key -= (static_cast<std::int64_t>(r) / m_stride[a] % m_axes[a].second) * m_stride[a];
        return static_cast<std::size_t>(key);
    }

    /// The names of the axes in bit set `axes`, major first, joined by " x ".
    std::string names(std::uint32_t axes) const
    {
        std::string out;
        for (std::size_t a = 0; a < m_axes.size(); ++a)
            if (axes & (1u << a))
                out += (out.empty() ? "" : " x ") + m_axes[a].first;
        return out;
    }

    /// The smallest set of axes whose groups are exactly the parts of `p` (ranks share a part if and
    /// only if they differ only on those axes), named; "" when none. With axes of size 1 left out,
    /// at most one set of each size can match.
    std::string axesOf(const RankPartition& p) const
    {
        if (!covers())
            return {};
        std::vector<std::int64_t> partOf(m_ranks, -1);
        for (std::size_t i = 0; i < p.parts.size(); ++i)
            for (std::int32_t r : p.parts[i])
                partOf[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(i);
        const std::uint32_t subsets = 1u << m_axes.size();
        for (std::size_t want = 1; want <= m_axes.size(); ++want)
            for (std::uint32_t set = 1; set < subsets; ++set) {
                if (static_cast<std::size_t>(std::popcount(set)) != want)
                    continue;
                // Key -> part and part -> key must both be functions.
                std::vector<std::int64_t> partOfKey(m_ranks, -1), keyOfPart(p.parts.size(), -1);
                bool match = true;
                for (std::size_t r = 0; r < m_ranks && match; ++r) {
                    const auto key = static_cast<std::int64_t>(keyWithout(r, set));
                    std::int64_t& part = partOfKey[static_cast<std::size_t>(key)];
                    std::int64_t& k = keyOfPart[static_cast<std::size_t>(partOf[r])];
                    if (part < 0)
                        part = partOf[r];
                    if (k < 0)
                        k = key;
                    match = part == partOf[r] && k == key;
                }
                if (match)
                    return names(set);
            }
        return {};
    }

    /// Whether every part of `p` lies inside one group of axis `axis`.
    bool within(const RankPartition& p, std::size_t axis) const
    {
        for (const auto& part : p.parts)
            for (std::int32_t r : part)
                if (keyWithout(static_cast<std::size_t>(r), 1u << axis) !=
                    keyWithout(static_cast<std::size_t>(part.front()), 1u << axis))
                    return false;
        return true;
    }

    /// The groups of axis `axis`: ranks that differ only on it, ordered by their lowest rank.
    std::vector<std::vector<std::int32_t>> groups(std::size_t axis) const
    {
        std::map<std::size_t, std::vector<std::int32_t>> byKey;
        for (std::size_t r = 0; r < m_ranks; ++r)
            byKey[keyWithout(r, 1u << axis)].push_back(static_cast<std::int32_t>(r));
        std::vector<std::vector<std::int32_t>> out;
        for (auto& [key, members] : byKey)
            out.push_back(std::move(members));
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
        return out;
    }

private:
    std::vector<std::pair<std::string, std::int64_t>> m_axes;
    std::vector<std::int64_t> m_stride;
    std::size_t m_ranks = 0;
};

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
        p.stages = std::any_of(byProgram.begin(), byProgram.end(), [&](const auto& entry) {
            const std::vector<Op>& ops = workload.programs[entry.first]->ops;
            return std::any_of(ops.begin(), ops.end(),
                               [](const Op& op) { return op.kind == OpKind::Send || op.kind == OpKind::Recv; });
        });
        p.label = std::to_string(p.parts.size()) + (p.stages ? " pipeline stages of " : " programs of ") +
                  sizeLabel(p.parts) + " ranks";
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
        // Per slot, the collective kinds that use it as a bit set: a pipeline stage holds some 100,000
        // collectives, and naming each costs more than the rest of this function.
        std::vector<std::uint32_t> kinds(program.commSlots.size(), 0);
        static_assert(static_cast<int>(CollectiveKind::CollectiveBroadcast) < 32);
        for (const Op& op : program.ops)
            if (op.kind == OpKind::Collective && op.commSlot >= 0 &&
                static_cast<std::size_t>(op.commSlot) < kinds.size())
                kinds[static_cast<std::size_t>(op.commSlot)] |= 1u << static_cast<int>(op.collective);
        for (std::size_t slot = 0; slot < program.commSlots.size(); ++slot) {
            if (kinds[slot] == 0)
                continue; // a slot no collective uses
            Pattern& pattern = patterns[program.commSlots[slot]];
            for (std::int32_t r : members) {
                const auto& binding = workload.ranks[static_cast<std::size_t>(r)].slotGroups;
                if (slot < binding.size())
                    pattern.groups.insert(binding[slot]);
            }
            for (int k = 0; k <= static_cast<int>(CollectiveKind::CollectiveBroadcast); ++k)
                if (kinds[slot] & (1u << k))
                    pattern.kinds.insert(std::string(chakraName(static_cast<CollectiveKind>(k))));
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
        p.label =
            std::to_string(p.parts.size()) + " groups of " + sizeLabel(p.parts) + " ranks (" + joined(p.kinds) + ")";
        const bool duplicate = std::any_of(communicators.begin(), communicators.end(),
                                           [&](const RankPartition& other) { return other.parts == p.parts; });
        if (!duplicate)
            communicators.push_back(std::move(p));
    }
    // Named by the mesh where the workload has one; every mesh axis is a partition of its own even
    // where no one communicator spans it (the data-parallel groups of a pipelined model are a slot
    // per stage; the pipeline axis carries sends only), with the kinds of the communicators whose
    // groups lie inside its groups.
    const Mesh mesh(workload.meshAxes, ranks);
    for (RankPartition& p : communicators)
        p.axes = mesh.axesOf(p);
    for (std::size_t a = 0; a < mesh.axisCount(); ++a) {
        if (std::any_of(communicators.begin(), communicators.end(),
                        [&](const RankPartition& p) { return p.axes == mesh.name(a); }))
            continue;
        RankPartition p;
        p.basis = RankPartition::Basis::Communicator;
        p.axes = mesh.name(a);
        p.parts = mesh.groups(a);
        std::set<std::string> kinds;
        for (const RankPartition& c : communicators)
            if (c.axes.empty() && mesh.within(c, a))
                kinds.insert(c.kinds.begin(), c.kinds.end());
        p.kinds.assign(kinds.begin(), kinds.end());
        p.label = std::to_string(p.parts.size()) + " groups of " + sizeLabel(p.parts) + " ranks (mesh axis " + p.axes +
                  (p.kinds.empty() ? "" : ": " + joined(p.kinds)) + ")";
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
