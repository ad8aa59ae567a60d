// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flint::core {

/// A collective algorithm for one topology dimension (ASTRA-sim's native collective implementations).
enum class CollectiveAlgorithm : std::uint8_t {
    Ring,             ///< logical ring: n-1 (or 2(n-1)) neighbour steps
    Direct,           ///< every peer at once
    HalvingDoubling,  ///< recursive halving/doubling: log2 n steps (n a power of two)
    DoubleBinaryTree, ///< two complementary binary trees (all-reduce only; others use Ring)
};

std::string_view displayName(CollectiveAlgorithm algorithm);
/// Reads ASTRA-sim's spelling ("ring", "direct", "halvingDoubling", "doubleBinaryTree", and the
/// "oneRing"/"oneDirect"/"oneHalvingDoubling" variants), case-insensitively.
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromName(std::string_view name);

/// The system-layer settings of ASTRA-sim's system JSON that the estimate uses: the collective
/// algorithm per dimension for each collective kind, chunking, and the per-message overheads.
struct SystemConfig {
    /// Algorithms per topology dimension. A list shorter than the topology repeats its last entry.
    std::vector<CollectiveAlgorithm> allReduce{CollectiveAlgorithm::Ring};
    std::vector<CollectiveAlgorithm> allGather{CollectiveAlgorithm::Ring};
    std::vector<CollectiveAlgorithm> reduceScatter{CollectiveAlgorithm::Ring};
    std::vector<CollectiveAlgorithm> allToAll{CollectiveAlgorithm::Ring};

    std::string schedulingPolicy = "LIFO";               ///< LIFO or FIFO order of a dimension's chunks
    std::string collectiveOptimization = "localBWAware"; ///< localBWAware or baseline all-reduce staging
    double endpointDelayNs = 10;                         ///< per message send/receive overhead, ns
    std::int32_t activeChunksPerDimension = 1;           ///< chunks a dimension works on at once
    std::int32_t preferredDatasetSplits = 1;             ///< chunks a collective is split into
    /// Local memory bandwidth for reductions, GB/s (10^9 bytes/s); 0 = not given.
    double localMemBandwidthGBps = 0;
    /// Other keys of the JSON file, kept verbatim (key, JSON text) so that writing loses nothing.
    std::vector<std::pair<std::string, std::string>> otherKeys;

    /// The algorithm for `kind` on dimension `dim` (AllReduce, AllGather, ReduceScatter, AllToAll;
    /// other kinds use the all-reduce list).
    CollectiveAlgorithm algorithmFor(CollectiveKind kind, std::size_t dim) const;

    friend bool operator==(const SystemConfig&, const SystemConfig&) = default;
};

/// Parses an ASTRA-sim system JSON. Throws InputError with the file, byte offset and reason.
SystemConfig parseSystemJson(std::string_view text, const std::string& file);
/// Reads a system JSON file. Throws InputError.
SystemConfig readSystemJson(const std::string& path);
/// The system JSON ASTRA-sim reads for `config` (with its other keys).
std::string toSystemJson(const SystemConfig& config);

} // namespace flint::core
