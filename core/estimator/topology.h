// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core {

/// How the NPUs of one topology dimension are wired (ASTRA-sim's analytical basic topologies).
enum class TopologyKind : std::uint8_t {
    Ring,           ///< bidirectional ring: a message takes the shorter way, one hop per neighbour
    Switch,         ///< every NPU on one switch: two hops (up and down)
    FullyConnected, ///< a direct link between every pair: one hop
};

std::string_view displayName(TopologyKind kind);
std::optional<TopologyKind> topologyKindFromName(std::string_view name);

/// Bytes per second of one "GB/s" in a network description. ASTRA-sim's analytical backend reads
/// its bandwidth figures as GiB/s (GB = 2^30 bytes), and so do we, so that the same YAML gives the
/// same times in both tools. Vendor figures (decimal) are converted with fromDecimalGBps().
inline constexpr double kNetworkGB = 1073741824.0;

/// A vendor's decimal GB/s (10^9 bytes/s) in the network unit above.
constexpr double fromDecimalGBps(double decimalGBps)
{
    return decimalGBps * 1e9 / kNetworkGB;
}

/// One dimension of a multi-dimensional topology.
struct TopologyDim {
    TopologyKind kind = TopologyKind::Switch;
    std::int32_t npus = 1;    ///< NPUs along this dimension
    double bandwidthGBps = 0; ///< per-NPU link bandwidth in this dimension, GB/s with GB = 2^30 bytes
    double latencyNs = 0;     ///< latency per hop, ns

    /// Bandwidth in bytes per second.
    double bandwidthBytesPerSecond() const { return bandwidthGBps * kNetworkGB; }
    /// Bandwidth in the decimal GB/s (10^9 bytes/s) of data sheets, presets and the command line,
    /// as every view and printout shows it (the inverse of fromDecimalGBps).
    double decimalGBps() const { return bandwidthBytesPerSecond() / 1e9; }
    /// Hops between two coordinates of this dimension (0 when equal).
    std::int32_t hops(std::int32_t a, std::int32_t b) const;
    /// The largest hop count between two distinct NPUs of this dimension.
    std::int32_t maxHops() const;

    friend bool operator==(const TopologyDim&, const TopologyDim&) = default;
};

/// A multi-dimensional network as ASTRA-sim's analytical backend describes it: dimension 0 is the
/// innermost (fastest-varying rank coordinate). Rank r has coordinate (r / prod(npus[0..d-1])) % npus[d]
/// in dimension d. A message between two ranks is charged to the first dimension in which their
/// coordinates differ, as in ASTRA-sim.
struct Topology {
    std::vector<TopologyDim> dims;

    /// Product of npus over all dimensions.
    std::int64_t npuCount() const;
    /// Coordinates of `rank`, dimension 0 first.
    std::vector<std::int32_t> coordinates(std::int64_t rank) const;
    /// Coordinate of `rank` in dimension `dim`.
    std::int32_t coordinate(std::int64_t rank, std::size_t dim) const;
    /// Rank product of NPUs of dimensions below `dim` (the rank stride of dimension `dim`).
    std::int64_t stride(std::size_t dim) const;
    /// The first dimension where `a` and `b` differ, or -1 when a == b.
    int firstDifferingDim(std::int64_t a, std::int64_t b) const;
    /// Checks sizes, bandwidths and latencies; returns the first problem or "".
    std::string validate() const;
    /// "Switch(8, 400 GB/s, 936.25 ns) x Ring(4, ...)"
    std::string describe() const;

    friend bool operator==(const Topology&, const Topology&) = default;
};

/// Parses an ASTRA-sim analytical network YAML (`topology: [ Ring, Switch ]`, `npus_count: [ 8, 4 ]`,
/// `bandwidth: [ 50.0, 25.0 ]` in GB/s, `latency: [ 500.0, 2000.0 ]` in ns; flow or block lists,
/// `#` comments). Throws InputError with the file, line and reason.
Topology parseNetworkYaml(std::string_view text, const std::string& file);
/// Reads and parses a network YAML file. Throws InputError.
Topology readNetworkYaml(const std::string& path);
/// The YAML ASTRA-sim reads for `topology`; parseNetworkYaml() reads it back unchanged.
std::string toNetworkYaml(const Topology& topology);

} // namespace flint::core
