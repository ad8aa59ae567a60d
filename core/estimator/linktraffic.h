// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/collectivemodel.h"
#include "core/workload.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

namespace flint::core {

/// What a rank's transfers put on its links, per topology dimension: a rank's link in dimension d
/// carries what it exchanges with ranks whose first differing coordinate is d, as
/// EstimateResult::bytesPerDim counts it. Shared by the link-utilisation view (linkUtilisation) and
/// the simulator's sharing of links between overlapping transfers (docs/estimator.md, "Links
/// shared by overlapping transfers"), so both read one account of the traffic.
///
/// A collective's instances are worked out once per (group, kind, size) and kept: the bytes every
/// member sends per dimension, from its algorithm's flows (CollectiveModel::forEachFlow).
class LinkTraffic {
public:
    LinkTraffic(const Workload& workload, const Cluster& cluster);

    std::size_t dims() const { return m_dims; }
    /// Bytes `op` of `rank` sends on each dimension (dims() values), or empty when it sends nothing
    /// there: a collective's flows from the rank, a send's size on the dimension of its peer. A
    /// receive sends nothing (its bytes are its sender's). Valid until the next call.
    std::span<const double> sent(std::size_t rank, const Op& op) { return carried(rank, op, OpKind::Send); }
    /// Bytes arriving at `rank` per dimension for `op`: a receive's size on the dimension of its
    /// peer; a collective's are taken to equal what it sends (its algorithms move as much into each
    /// member as out of it); a send receives nothing. Valid until the next call.
    std::span<const double> received(std::size_t rank, const Op& op) { return carried(rank, op, OpKind::Recv); }

    /// What sent() gives for a collective of `kind` moving `bytes` over `group` (null: every rank),
    /// other than a collective-permute (whose pairs are its op's), without reading its op.
    std::span<const double> collectiveSent(std::size_t rank, const CommGroup* group, CollectiveKind kind,
                                           std::uint64_t bytes)
    {
        return collective(rank, Key{group, kind, bytes, nullptr});
    }

private:
    struct Key {
        const CommGroup* group;
        CollectiveKind kind;
        std::uint64_t bytes;
        const Op* permute; ///< a collective-permute's op (its pairs), else null
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const
        {
            std::size_t h = std::hash<const void*>()(k.group) ^ (std::hash<std::uint64_t>()(k.bytes) * 31);
            return h ^ (std::hash<const void*>()(k.permute) * 131) ^ static_cast<std::size_t>(k.kind);
        }
    };
    struct Instance {
        std::vector<std::int32_t> members; ///< ascending
        std::vector<double> bytes;         ///< bytes[position * dims + d]
    };
    /// sent() (`transfer` Send) or received() (Recv): a collective's flows either way, the size of a
    /// send or receive of kind `transfer` on its peer's dimension, nothing else.
    std::span<const double> carried(std::size_t rank, const Op& op, OpKind transfer);
    /// The dimension between `rank` and the peer of send/recv `op`, or -1.
    int peerDim(std::size_t rank, const Op& op) const;
    std::span<const double> collective(std::size_t rank, const Key& key);
    std::span<const double> onPeerDim(std::size_t rank, const Op& op);

    const Workload& m_workload;
    const Cluster& m_cluster;
    CollectiveModel m_model;
    std::size_t m_dims;
    /// Per collective instance: its traffic, shared by every rank using it.
    std::unordered_map<Key, Instance, KeyHash> m_instances;
    std::vector<double> m_scratch;
};

} // namespace flint::core
