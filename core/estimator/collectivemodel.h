// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/types.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace flint::core {

/// One step of a collective's schedule for one chunk: an algorithm run over the members that share
/// every coordinate but one topology dimension (or over the whole group as one logical ring).
struct CollectivePhase {
    CollectiveKind kind = CollectiveKind::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    int dim = -1;           ///< topology dimension; -1 for a flat logical ring over the group
    std::int32_t npus = 1;  ///< members taking part in each instance of the phase
    double bytesIn = 0;     ///< bytes per rank entering the phase, per chunk
    double bytesOut = 0;    ///< bytes per rank leaving the phase, per chunk
    double sentPerRank = 0; ///< bytes each rank sends during the phase, per chunk
    std::int32_t steps = 0; ///< messages each rank sends in sequence
    double time = 0;        ///< seconds for one chunk
};

/// The cost of one collective on one group (see docs/estimator.md for every formula).
struct CollectiveCost {
    double duration = 0; ///< seconds from the common start to the last member's end
    /// Seconds from the common start to each member's end, by position in ascending rank order; empty
    /// when every member ends at `duration` (only ASTRA-sim's rings over uneven links differ).
    std::vector<double> memberDuration;
    std::uint64_t chunks = 1;            ///< chunks the data is split into (pipelined through the phases)
    double chunkBytes = 0;               ///< bytes per chunk, per rank
    std::vector<CollectivePhase> phases; ///< one chunk's phases, in order
    /// Bytes sent over each topology dimension by all members together for the whole collective.
    std::vector<double> bytesPerDim;
    bool staged = false; ///< true when staged per dimension, false for a flat logical ring
    /// The NCCL protocol that prices it (LL, LL128, Simple; Cluster::nccl), empty when the collective
    /// pays per-chunk latencies. The phases' times are then the protocol's, without the latency.
    std::string protocol;
    double protocolLatency = 0; ///< seconds of the protocol's ring latency, included in `duration`
    /// Why a fallback was taken, empty otherwise: a template marked for translation
    /// (FLINT_TRANSLATE_NOOP(Message::context, ...)), so the explorer shows it in the user's language.
    const char* note = "";
};

/// Collective and point-to-point cost models for a cluster. Stateless apart from the cluster it
/// holds by reference; safe to call from many threads.
class CollectiveModel {
public:
    explicit CollectiveModel(const Cluster& cluster);

    /// Cost of collective `kind` where each member contributes `bytes` (Chakra comm_size: for an
    /// all-gather the input per rank, for the others the buffer per rank). `members` are global ranks
    /// in ascending order, all inside the topology. `pairs` are a collective-permute's (source, target).
    CollectiveCost collective(CollectiveKind kind, std::uint64_t bytes, std::span<const std::int32_t> members,
                              std::span<const std::pair<std::int32_t, std::int32_t>> pairs = {}) const;

    /// Seconds to move `bytes` from `src` to `dst` (one message plus endpoint delays); 0 when equal.
    double sendRecv(std::int32_t src, std::int32_t dst, std::uint64_t bytes) const;

    /// Calls `flow(src, dst, bytes)` for every transfer the collective's algorithms make, summed per
    /// (src, dst) pair within each phase, over all chunks.
    void forEachFlow(CollectiveKind kind, std::uint64_t bytes, std::span<const std::int32_t> members,
                     std::span<const std::pair<std::int32_t, std::int32_t>> pairs,
                     const std::function<void(std::int32_t, std::int32_t, double)>& flow) const;

    const Cluster& cluster() const { return m_cluster; }

private:
    const Cluster& m_cluster;
};

} // namespace flint::core
