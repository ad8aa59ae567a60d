// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace flint::core::hlo {

/// How a collective's replica_groups name devices (XLA's CollectiveOpGroupMode; StableHLO spec,
/// "Parallel execution": cross_replica, cross_partition, cross_replica_and_partition, flattened_ids).
enum class GroupMode {
    CrossReplica,   ///< no channel_id: groups of replica ids, within each partition
    CrossPartition, ///< channel_id, op without use_global_device_ids: groups of partition ids, within each replica
    CrossReplicaAndPartition, ///< channel_id, use_global_device_ids=false: groups of replica ids, all partitions of
                              ///< each
    FlattenedIds,             ///< channel_id, use_global_device_ids=true: groups of global device ids
};

std::string_view displayName(GroupMode mode);

/// The mode of a collective instruction. `opcode` without its -start suffix decides whether the op
/// has a use_global_device_ids attribute (all-reduce, all-gather, reduce-scatter do).
/// Throws std::invalid_argument for use_global_device_ids=true without channel_id.
GroupMode groupMode(const Instruction& collective);

/// The device topology of a module: global device id = replica * numPartitions + partition.
struct DeviceSpace {
    std::int64_t replicas = 1;
    std::int64_t partitions = 1;
    std::int64_t devices() const { return replicas * partitions; }
};

/// The exact groups of global device ids that take part in a collective with `replicaGroups`
/// (empty: all replicas or all partitions, as the mode defines) under `mode`. Every device appears
/// at most once. Throws std::invalid_argument when an id is out of range or repeated.
std::vector<std::vector<std::int64_t>> participatingGroups(GroupMode mode,
                                                           const std::vector<std::vector<std::int64_t>>& replicaGroups,
                                                           const DeviceSpace& space);

/// Source-target pairs of a collective-permute in global device ids: the pairs name replicas (no
/// channel_id: applied within every partition) or partitions (channel_id: within every replica).
std::vector<std::pair<std::int64_t, std::int64_t>>
globalSourceTargetPairs(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs, bool crossPartition,
                        const DeviceSpace& space);

} // namespace flint::core::hlo
