// SPDX-License-Identifier: MIT
#include "core/hlo/devicegroups.h"

#include <stdexcept>
#include <string>

namespace flint::core::hlo {
namespace {

std::string_view baseOpcode(std::string_view opcode)
{
    if (opcode.ends_with("-start"))
        opcode.remove_suffix(6);
    return opcode;
}

void checkRange(std::int64_t id, std::int64_t limit, const char* what)
{
    if (id < 0 || id >= limit)
        throw std::invalid_argument(std::string(what) + " " + std::to_string(id) + " is out of range (0.." +
                                    std::to_string(limit - 1) + ")");
}

} // namespace

std::string_view displayName(GroupMode mode)
{
    switch (mode) {
    case GroupMode::CrossReplica:
        return "cross-replica";
    case GroupMode::CrossPartition:
        return "cross-partition";
    case GroupMode::CrossReplicaAndPartition:
        return "cross-replica-and-partition";
    case GroupMode::FlattenedIds:
        return "flattened-ids";
    }
    return "unknown";
}

GroupMode groupMode(const Instruction& collective)
{
    const std::string_view op = baseOpcode(collective.opcode);
    const bool hasGlobalIdsAttribute = op == "all-reduce" || op == "all-gather" || op == "reduce-scatter";
    const bool useGlobalIds = collective.useGlobalDeviceIds.value_or(false);
    if (!collective.channelId) {
        if (useGlobalIds)
            throw std::invalid_argument("use_global_device_ids=true needs a channel_id");
        return GroupMode::CrossReplica;
    }
    if (!hasGlobalIdsAttribute)
        return GroupMode::CrossPartition;
    return useGlobalIds ? GroupMode::FlattenedIds : GroupMode::CrossReplicaAndPartition;
}

std::vector<std::vector<std::int64_t>> participatingGroups(GroupMode mode,
                                                           const std::vector<std::vector<std::int64_t>>& replicaGroups,
                                                           const DeviceSpace& space)
{
    const std::int64_t replicas = space.replicas;
    const std::int64_t partitions = space.partitions;
    const auto everything = [](std::int64_t n) {
        std::vector<std::int64_t> all(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            all[static_cast<std::size_t>(i)] = i;
        return std::vector<std::vector<std::int64_t>>{all};
    };
    std::vector<std::vector<std::int64_t>> groups;
    switch (mode) {
    case GroupMode::CrossReplica: {
        const auto byReplica = replicaGroups.empty() ? everything(replicas) : replicaGroups;
        for (std::int64_t p = 0; p < partitions; ++p)
            for (const auto& group : byReplica) {
                auto& devices = groups.emplace_back();
                for (std::int64_t r : group) {
                    checkRange(r, replicas, "replica id");
                    devices.push_back(r * partitions + p);
                }
            }
        break;
    }
    case GroupMode::CrossPartition: {
        const auto byPartition = replicaGroups.empty() ? everything(partitions) : replicaGroups;
        for (std::int64_t r = 0; r < replicas; ++r)
            for (const auto& group : byPartition) {
                auto& devices = groups.emplace_back();
                for (std::int64_t p : group) {
                    checkRange(p, partitions, "partition id");
                    devices.push_back(r * partitions + p);
                }
            }
        break;
    }
    case GroupMode::CrossReplicaAndPartition: {
        const auto byReplica = replicaGroups.empty() ? everything(replicas) : replicaGroups;
        for (const auto& group : byReplica) {
            auto& devices = groups.emplace_back();
            for (std::int64_t r : group) {
                checkRange(r, replicas, "replica id");
                for (std::int64_t p = 0; p < partitions; ++p)
                    devices.push_back(r * partitions + p);
            }
        }
        break;
    }
    case GroupMode::FlattenedIds: {
        if (replicaGroups.empty())
            throw std::invalid_argument("use_global_device_ids=true needs explicit replica_groups");
        for (const auto& group : replicaGroups) {
            for (std::int64_t id : group)
                checkRange(id, space.devices(), "device id");
            groups.push_back(group);
        }
        break;
    }
    }
    std::vector<bool> seen(static_cast<std::size_t>(space.devices()), false);
    for (const auto& group : groups)
        for (std::int64_t id : group) {
            if (seen[static_cast<std::size_t>(id)])
                throw std::invalid_argument("device " + std::to_string(id) + " appears in more than one group");
            seen[static_cast<std::size_t>(id)] = true;
        }
    return groups;
}

std::vector<std::pair<std::int64_t, std::int64_t>>
globalSourceTargetPairs(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs, bool crossPartition,
                        const DeviceSpace& space)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> global;
    const std::int64_t outer = crossPartition ? space.replicas : space.partitions;
    const std::int64_t limit = crossPartition ? space.partitions : space.replicas;
    for (std::int64_t o = 0; o < outer; ++o)
        for (const auto& [source, target] : pairs) {
            checkRange(source, limit, crossPartition ? "partition id" : "replica id");
            checkRange(target, limit, crossPartition ? "partition id" : "replica id");
            if (crossPartition)
                global.emplace_back(o * space.partitions + source, o * space.partitions + target);
            else
                global.emplace_back(source * space.partitions + o, target * space.partitions + o);
        }
    return global;
}

} // namespace flint::core::hlo
