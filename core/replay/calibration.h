// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/topology.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// Fitting a network description to measured messages (`flint calibrate`, docs/replay.md): the
// estimator prices a message between ranks that differ in dimension d as
//   t = hops x latency + bytes / bandwidth + 2 x endpoint delay      (core/estimator/collectivemodel)
// so one-way times of messages between two such ranks, measured over a range of sizes, give the
// dimension's latency and bandwidth. No MPI here: engine/mpicalibrate measures.
namespace flint::core::replay {

/// One-way times of messages of one size, in seconds, between rank 0 and `peer`.
struct MessageSample {
    std::uint64_t bytes = 0;
    double seconds = 0; ///< the median of the repetitions
};

/// Hockney's model t(s) = alpha + s / beta, fitted as usual: alpha from the smallest message (where
/// bandwidth does not count), beta by least squares of relative errors over messages of at least
/// `bandwidthFrom` bytes (where latency does not count).
struct HockneyFit {
    double alphaSeconds = 0;
    double bytesPerSecond = 0;
    double rmsRelativeError = 0; ///< of the fitted line over every sample
};
/// Throws InputError when fewer than two samples reach `bandwidthFrom` or times do not grow with size.
HockneyFit fitHockney(const std::vector<MessageSample>& samples, std::uint64_t bandwidthFrom = 65536);

/// What was measured across one dimension of the topology.
struct DimensionMeasurement {
    std::size_t dim = 0;
    std::int32_t peer = 0; ///< the rank that differs from rank 0 in this dimension alone, by one coordinate
    std::vector<MessageSample> samples;
};

/// The rank that sits one coordinate away from rank 0 in dimension `dim` and nowhere else, or -1 when
/// that rank is not below `ranks` (or the dimension has one NPU).
std::int32_t peerAcross(const Topology& topology, std::size_t dim, std::int64_t ranks);

/// `topology` with the measured dimensions' latency and bandwidth replaced by what their messages
/// fit, inverting the estimator's message time (hops between coordinates 0 and 1 of the dimension,
/// `endpointDelayNs` at each end). `report` gets one line per dimension.
Topology calibratedTopology(const Topology& topology, const std::vector<DimensionMeasurement>& measured,
                            double endpointDelayNs, std::vector<std::string>* report = nullptr);

} // namespace flint::core::replay
