// SPDX-License-Identifier: MIT
#include "core/estimator/commtraffic.h"

#include "core/types.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace flint::core {
namespace {

/// Layers per collective kind and point-to-point last, as in CommMatrix::layers.
constexpr std::size_t kPointToPoint = static_cast<std::size_t>(CollectiveKind::CollectiveBroadcast) + 1;

/// One program's communication, found once however many ranks run it: per comm slot (slot 0 for
/// the ops that span all ranks, slot s + 1 for Program::commSlots[s]) the number of collectives of
/// each (kind, bytes, permute op), and the program's sends.
struct ProgramTraffic {
    using Key = std::tuple<int, std::uint64_t, const Op*>;
    std::vector<std::map<Key, std::uint64_t>> perSlot;
    std::vector<const Op*> sends;
};

ProgramTraffic trafficOf(const Program& program)
{
    ProgramTraffic t;
    t.perSlot.resize(program.commSlots.size() + 1);
    for (const Op& op : program.ops) {
        if (op.kind == OpKind::Send) {
            t.sends.push_back(&op);
        } else if (op.kind == OpKind::Collective && op.collective != CollectiveKind::Barrier) {
            const bool permute = op.collective == CollectiveKind::CollectivePermute;
            const std::size_t slot = op.commSlot < 0 ? 0 : static_cast<std::size_t>(op.commSlot) + 1;
            if (slot < t.perSlot.size())
                ++t.perSlot[slot][{static_cast<int>(op.collective), op.commBytes, permute ? &op : nullptr}];
        }
    }
    return t;
}

/// Accumulates bytes per layer in dense blocks x blocks arrays, allocated for the kinds that occur.
class Accumulator {
public:
    explicit Accumulator(const CommMatrix& m)
        : m_matrix(m)
        , m_layers(kPointToPoint + 1)
    {}

    /// The dense blocks x blocks array of `layer`, allocated on first use.
    std::vector<double>& layer(std::size_t index)
    {
        std::vector<double>& dense = m_layers[index];
        if (dense.empty())
            dense.assign(m_matrix.bytes.size(), 0.0);
        return dense;
    }
    void add(std::size_t index, std::int32_t srcBlock, std::int32_t dstBlock, double bytes)
    {
        layer(index)[m_matrix.index(srcBlock, dstBlock)] += bytes;
    }
    void addRanks(std::size_t layer, std::int32_t src, std::int32_t dst, double bytes)
    {
        if (src != dst && src >= 0 && dst >= 0 && src < m_matrix.ranks && dst < m_matrix.ranks)
            add(layer, src / m_matrix.blockSize, dst / m_matrix.blockSize, bytes);
    }

    /// Sums the layers into `m`'s totals and keeps the non-empty ones, sparse.
    void finish(CommMatrix& m)
    {
        for (std::size_t k = 0; k < m_layers.size(); ++k) {
            const std::vector<double>& dense = m_layers[k];
            if (dense.empty())
                continue;
            CommMatrix::Layer layer;
            layer.kind = k == kPointToPoint ? "SEND_RECV" : std::string(chakraName(static_cast<CollectiveKind>(k)));
            for (std::size_t i = 0; i < dense.size(); ++i)
                if (dense[i] > 0) {
                    m.bytes[i] += dense[i];
                    layer.cells.push_back(static_cast<std::uint32_t>(i));
                    layer.bytes.push_back(dense[i]);
                }
            if (!layer.cells.empty())
                m.layers.push_back(std::move(layer));
        }
    }

private:
    const CommMatrix& m_matrix;
    std::vector<std::vector<double>> m_layers;
};

/// Bytes per ordered pair of distinct members for the kinds in which every member sends to every
/// other one; 0 for the rooted kinds.
double perPairBytes(CollectiveKind kind, double bytes, double n)
{
    switch (kind) {
    case CollectiveKind::AllGather:
        return bytes;
    case CollectiveKind::AllToAll:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::ReduceScatterBlock:
        return bytes / n;
    case CollectiveKind::AllReduce:
        return 2 * bytes / n;
    default:
        return 0;
    }
}

} // namespace

CommMatrix logicalCommMatrix(const Workload& workload)
{
    CommMatrix m;
    m.reset(static_cast<std::int32_t>(workload.rankCount()), false);
    if (m.blocks == 0)
        return m;
    std::vector<ProgramTraffic> programs;
    programs.reserve(workload.programs.size());
    for (const auto& program : workload.programs)
        programs.push_back(trafficOf(*program));
    Accumulator acc(m);

    // Each collective instance counted once, on the lowest member of its group: per (group, kind,
    // bytes, permute op) the number of instances. Group index workload.groups.size() = all ranks.
    const auto world = static_cast<std::uint32_t>(workload.groups.size());
    std::vector<std::int32_t> lowest(workload.groups.size() + 1, 0);
    for (std::size_t g = 0; g < workload.groups.size(); ++g) {
        const auto& ranks = workload.groups[g].ranks;
        lowest[g] = ranks.empty() ? -1 : *std::min_element(ranks.begin(), ranks.end());
    }
    std::map<std::tuple<std::uint32_t, int, std::uint64_t, const Op*>, std::uint64_t> instances;
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const RankBinding& b = workload.ranks[r];
        const ProgramTraffic& t = programs[b.program];
        for (std::size_t s = 0; s < t.perSlot.size(); ++s) {
            if (t.perSlot[s].empty())
                continue;
            const std::uint32_t g = s == 0 ? world : (s - 1 < b.slotGroups.size() ? b.slotGroups[s - 1] : world);
            if (lowest[g] != static_cast<std::int32_t>(r))
                continue;
            for (const auto& [key, count] : t.perSlot[s])
                instances[{g, std::get<0>(key), std::get<1>(key), std::get<2>(key)}] += count;
        }
        for (const Op* send : t.sends)
            acc.addRanks(kPointToPoint, static_cast<std::int32_t>(r), workload.peerOf(r, *send),
                         static_cast<double>(send->commBytes));
    }

    std::vector<std::int32_t> everyone;
    for (const auto& [key, count] : instances) {
        const auto [g, kindIndex, commBytes, permute] = key;
        const auto kind = static_cast<CollectiveKind>(kindIndex);
        const auto layer = static_cast<std::size_t>(kindIndex);
        const double bytes = static_cast<double>(commBytes) * static_cast<double>(count);
        if (kind == CollectiveKind::CollectivePermute) {
            for (const auto& [src, dst] : permute->extras.get().sourceTargetPairs)
                acc.addRanks(layer, src, dst, bytes);
            continue;
        }
        const std::vector<std::int32_t>* members = nullptr;
        if (g == world) {
            if (everyone.empty()) {
                everyone.resize(workload.rankCount());
                std::iota(everyone.begin(), everyone.end(), 0);
            }
            members = &everyone;
        } else {
            members = &workload.groups[g].ranks;
        }
        const auto n = static_cast<double>(members->size());
        if (members->size() <= 1)
            continue;
        if (const double pair = perPairBytes(kind, bytes, n); pair > 0) {
            // Every ordered pair of distinct members: per pair of blocks, the product of their
            // member counts (less the diagonal within a block), so a group of all 16,384 ranks
            // costs blocks^2, not ranks^2.
            std::vector<std::int32_t> blocks;
            blocks.reserve(members->size());
            for (std::int32_t r : *members)
                if (r >= 0 && r < m.ranks)
                    blocks.push_back(r / m.blockSize);
            std::sort(blocks.begin(), blocks.end());
            std::vector<std::pair<std::int32_t, double>> perBlock; // (block, members in it)
            for (std::int32_t b : blocks) {
                if (perBlock.empty() || perBlock.back().first != b)
                    perBlock.emplace_back(b, 0.0);
                perBlock.back().second += 1;
            }
            std::vector<double>& dense = acc.layer(layer);
            for (const auto& [a, ca] : perBlock) {
                double* row = dense.data() + m.index(a, 0);
                for (const auto& [b, cb] : perBlock)
                    row[b] += pair * (a == b ? ca * (ca - 1) : ca * cb);
            }
            continue;
        }
        const std::int32_t root = g == world ? 0 : lowest[g];
        for (std::int32_t other : *members) {
            if (kind == CollectiveKind::Broadcast || kind == CollectiveKind::CollectiveBroadcast ||
                kind == CollectiveKind::Scatter)
                acc.addRanks(layer, root, other, bytes);
            else if (kind == CollectiveKind::Reduce || kind == CollectiveKind::Gather)
                acc.addRanks(layer, other, root, bytes);
        }
    }
    acc.finish(m);
    return m;
}

} // namespace flint::core
