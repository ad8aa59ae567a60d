// SPDX-License-Identifier: MIT
#include "core/estimator/linktraffic.h"

#include <algorithm>
#include <numeric>

namespace flint::core {

LinkTraffic::LinkTraffic(const Workload& workload, const Cluster& cluster)
    : m_workload(workload)
    , m_cluster(cluster)
    , m_model(cluster)
    , m_dims(cluster.topology.dims.size())
    , m_scratch(m_dims, 0.0)
{}

std::span<const double> LinkTraffic::carried(std::size_t rank, const Op& op, OpKind transfer)
{
    if (op.kind == OpKind::Collective)
        return collective(rank, Key{m_workload.groupOf(rank, op), op.collective, op.commBytes,
                                    op.collective == CollectiveKind::CollectivePermute ? &op : nullptr});
    if (op.kind == transfer)
        return onPeerDim(rank, op);
    return {};
}

int LinkTraffic::peerDim(std::size_t rank, const Op& op) const
{
    const std::int32_t peer = m_workload.peerOf(rank, op);
    if (peer < 0 || static_cast<std::size_t>(peer) >= m_workload.rankCount())
        return -1;
    return m_cluster.topology.firstDifferingDim(static_cast<std::int64_t>(rank), peer);
}

std::span<const double> LinkTraffic::onPeerDim(std::size_t rank, const Op& op)
{
    const int d = peerDim(rank, op);
    if (d < 0 || op.commBytes == 0)
        return {};
    std::fill(m_scratch.begin(), m_scratch.end(), 0.0);
    m_scratch[static_cast<std::size_t>(d)] = static_cast<double>(op.commBytes);
    return m_scratch;
}

std::span<const double> LinkTraffic::collective(std::size_t rank, const Key& key)
{
    auto it = m_instances.find(key);
    if (it == m_instances.end()) {
        Instance t;
        if (key.group) {
            t.members = key.group->ranks;
        } else {
            t.members.resize(m_workload.rankCount());
            std::iota(t.members.begin(), t.members.end(), 0);
        }
        std::sort(t.members.begin(), t.members.end());
        t.bytes.assign(t.members.size() * m_dims, 0.0);
        const std::span<const std::pair<std::int32_t, std::int32_t>> pairs =
            key.permute
                ? std::span<const std::pair<std::int32_t, std::int32_t>>(key.permute->extras.get().sourceTargetPairs)
                : std::span<const std::pair<std::int32_t, std::int32_t>>();
        m_model.forEachFlow(key.kind, key.bytes, t.members, pairs,
                            [&](std::int32_t src, std::int32_t dst, double bytes) {
                                const int d = m_cluster.topology.firstDifferingDim(src, dst);
                                const auto at = std::lower_bound(t.members.begin(), t.members.end(), src);
                                if (d < 0 || at == t.members.end() || *at != src)
                                    return;
                                const auto position = static_cast<std::size_t>(at - t.members.begin());
                                t.bytes[position * m_dims + static_cast<std::size_t>(d)] += bytes;
                            });
        it = m_instances.emplace(key, std::move(t)).first;
    }
    const Instance& instance = it->second;
    const auto at = std::lower_bound(instance.members.begin(), instance.members.end(), static_cast<std::int32_t>(rank));
    if (at == instance.members.end() || *at != static_cast<std::int32_t>(rank))
        return {};
    return {instance.bytes.data() + static_cast<std::size_t>(at - instance.members.begin()) * m_dims, m_dims};
}

} // namespace flint::core
