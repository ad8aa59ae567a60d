// SPDX-License-Identifier: MIT
#include "core/estimator/collectivesteps.h"

#include <bit>
#include <cmath>
#include <map>

namespace flint::core {
namespace {

bool reduces(CollectiveKind kind)
{
    return kind == CollectiveKind::AllReduce || kind == CollectiveKind::ReduceScatter ||
           kind == CollectiveKind::ReduceScatterBlock;
}

/// The phase's instances: members that share every coordinate but `dim` (all of them for -1), each
/// in ascending rank order, the instances in order of their first member.
std::vector<std::vector<std::int32_t>> instancesOf(const CollectivePhase& p, const Topology& topology,
                                                   std::span<const std::int32_t> members)
{
    std::map<std::int64_t, std::vector<std::int32_t>> byKey;
    if (p.dim < 0) {
        byKey[0].assign(members.begin(), members.end());
    } else {
        const auto du = static_cast<std::size_t>(p.dim);
        const std::int64_t stride = topology.stride(du);
        for (std::int32_t r : members)
            byKey[r - topology.coordinate(r, du) * stride].push_back(r);
    }
    std::vector<std::vector<std::int32_t>> out;
    for (auto& [key, ranks] : byKey)
        if (ranks.size() > 1)
            out.push_back(std::move(ranks));
    return out;
}

/// A step's transfers: `partner(i, m)` is the position member i sends to in an instance of m (or
/// -1 for none), each carrying `bytes`.
template <class Partner>
std::vector<CollectiveTransfer> transfers(const std::vector<std::vector<std::int32_t>>& instances, double bytes,
                                          Partner partner)
{
    std::vector<CollectiveTransfer> out;
    for (const auto& ranks : instances) {
        const auto m = static_cast<std::int64_t>(ranks.size());
        for (std::int64_t i = 0; i < m; ++i) {
            const std::int64_t j = partner(i, m);
            if (j >= 0 && j < m && j != i)
                out.push_back({ranks[static_cast<std::size_t>(i)], ranks[static_cast<std::size_t>(j)], bytes});
        }
    }
    return out;
}

/// Every member to every other at once.
std::vector<CollectiveTransfer> allPairs(const std::vector<std::vector<std::int32_t>>& instances, double bytes)
{
    std::vector<CollectiveTransfer> out;
    for (const auto& ranks : instances)
        for (std::int32_t a : ranks)
            for (std::int32_t b : ranks)
                if (a != b)
                    out.push_back({a, b, bytes});
    return out;
}

/// Level of position j in a heap-ordered binary tree (the root is level 0).
std::int32_t level(std::int64_t j)
{
    return static_cast<std::int32_t>(std::bit_width(static_cast<std::uint64_t>(j + 1))) - 1;
}

} // namespace

std::vector<CollectiveStep> collectiveSteps(const CollectiveCost& cost, const Topology& topology,
                                            std::span<const std::int32_t> members, std::size_t maxTransfers,
                                            bool* truncated)
{
    std::vector<CollectiveStep> steps;
    std::size_t held = 0; // messages in `steps`
    if (truncated)
        *truncated = false;
    // Whether the steps are full; the loops that can run long ask before building a step.
    const auto full = [&] {
        if (held < maxTransfers)
            return false;
        if (truncated)
            *truncated = true;
        return true;
    };
    for (std::size_t pi = 0; pi < cost.phases.size(); ++pi) {
        const CollectivePhase& p = cost.phases[pi];
        const auto instances = instancesOf(p, topology, members);
        if (instances.empty() || p.steps <= 0)
            continue;
        const auto m = static_cast<std::int64_t>(instances.front().size());
        const double c = p.bytesIn;
        const std::size_t first = steps.size();
        const auto add = [&](StepAction action, std::vector<CollectiveTransfer> t, std::int64_t distance = 1) {
            CollectiveStep s;
            s.phase = pi;
            s.step = static_cast<std::int32_t>(steps.size() - first) + 1;
            s.action = action;
            s.distance = static_cast<std::int32_t>(distance);
            s.transfers = std::move(t);
            held += s.transfers.size();
            steps.push_back(std::move(s));
        };
        switch (p.algorithm) {
        case CollectiveAlgorithm::Ring: {
            const double bytes = p.sentPerRank / p.steps;
            for (std::int32_t s = 1; s <= p.steps && !full(); ++s) {
                StepAction action = StepAction::Copy;
                if (p.kind == CollectiveKind::AllToAll)
                    action = StepAction::Exchange;
                else if (reduces(p.kind) && (p.kind != CollectiveKind::AllReduce || s < m))
                    action = StepAction::Reduce;
                add(action, transfers(instances, bytes, [](std::int64_t i, std::int64_t n) { return (i + 1) % n; }));
            }
            break;
        }
        case CollectiveAlgorithm::Direct: {
            const double bytes = p.sentPerRank / p.steps / static_cast<double>(m - 1);
            if (p.kind == CollectiveKind::AllReduce) {
                add(StepAction::Reduce, allPairs(instances, bytes));
                add(StepAction::Copy, allPairs(instances, bytes));
            } else {
                add(p.kind == CollectiveKind::AllToAll ? StepAction::Exchange
                    : reduces(p.kind)                  ? StepAction::Reduce
                                                       : StepAction::Copy,
                    allPairs(instances, bytes));
            }
            break;
        }
        case CollectiveAlgorithm::HalvingDoubling: {
            const std::int32_t k =
                std::max(1, static_cast<std::int32_t>(std::bit_width(static_cast<std::uint64_t>(m))) - 1);
            const auto xorPartner = [](std::int64_t distance) {
                return [distance](std::int64_t i, std::int64_t) { return i ^ distance; };
            };
            if (p.kind == CollectiveKind::AllToAll) {
                for (std::int64_t x = 1; x < m && !full(); ++x)
                    add(StepAction::Exchange, transfers(instances, c / static_cast<double>(m), xorPartner(x)), x);
                break;
            }
            if (reduces(p.kind))
                for (std::int32_t s = 1; s <= k; ++s)
                    add(StepAction::Reduce,
                        transfers(instances, c / std::ldexp(1.0, s), xorPartner(std::int64_t{1} << (s - 1))),
                        std::int64_t{1} << (s - 1));
            if (p.kind == CollectiveKind::AllReduce)
                for (std::int32_t s = k; s >= 1; --s)
                    add(StepAction::Copy,
                        transfers(instances, c / std::ldexp(1.0, s), xorPartner(std::int64_t{1} << (s - 1))),
                        std::int64_t{1} << (s - 1));
            else if (p.kind == CollectiveKind::AllGather)
                for (std::int32_t s = 1; s <= k; ++s)
                    add(StepAction::Copy,
                        transfers(instances, c * std::ldexp(1.0, s - 1), xorPartner(std::int64_t{1} << (s - 1))),
                        std::int64_t{1} << (s - 1));
            break;
        }
        case CollectiveAlgorithm::DoubleBinaryTree: {
            // Two heap-ordered trees over the positions, the second mirrored (position m - 1 - j), each
            // carrying half the chunk: up level by level from the deepest (reduce), then back down.
            const std::int32_t depth = std::max(1, p.steps / 2);
            const auto treeStep = [&](std::int32_t childLevel, bool up) {
                std::vector<CollectiveTransfer> out;
                for (const auto& ranks : instances) {
                    const auto n = static_cast<std::int64_t>(ranks.size());
                    for (int mirrored = 0; mirrored < 2; ++mirrored)
                        for (std::int64_t j = 1; j < n; ++j) {
                            if (level(j) != childLevel)
                                continue;
                            const std::int64_t parent = (j - 1) / 2;
                            const std::int32_t child = ranks[static_cast<std::size_t>(mirrored ? n - 1 - j : j)];
                            const std::int32_t top =
                                ranks[static_cast<std::size_t>(mirrored ? n - 1 - parent : parent)];
                            out.push_back(up ? CollectiveTransfer{child, top, c / 2}
                                             : CollectiveTransfer{top, child, c / 2});
                        }
                }
                return out;
            };
            for (std::int32_t l = depth; l >= 1; --l)
                add(StepAction::Reduce, treeStep(l, true));
            for (std::int32_t l = 1; l <= depth; ++l)
                add(StepAction::Copy, treeStep(l, false));
            break;
        }
        }
        // The phase's time shared by the steps' bytes (per member: a step's largest message).
        double total = 0;
        std::vector<double> weight(steps.size() - first, 0.0);
        for (std::size_t s = first; s < steps.size(); ++s) {
            for (const CollectiveTransfer& t : steps[s].transfers)
                weight[s - first] = std::max(weight[s - first], t.bytes);
            total += weight[s - first];
        }
        // A phase cut short (a ring all-to-all past maxTransfers) shows its first steps at their share
        // of the whole phase: its steps are alike.
        const double made = static_cast<double>(steps.size() - first);
        const double shown = made < p.steps ? made / p.steps : 1.0;
        for (std::size_t s = first; s < steps.size(); ++s)
            steps[s].seconds = shown * (total > 0 ? p.time * weight[s - first] / total : p.time / made);
    }
    return steps;
}

} // namespace flint::core
