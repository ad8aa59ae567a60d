// SPDX-License-Identifier: MIT
#include "core/replay/calibration.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace flint::core::replay {

HockneyFit fitHockney(const std::vector<MessageSample>& samples, std::uint64_t bandwidthFrom)
{
    if (samples.empty())
        throw InputError("calibration", "no messages were measured");
    std::vector<MessageSample> sorted = samples;
    std::sort(sorted.begin(), sorted.end(),
              [](const MessageSample& a, const MessageSample& b) { return a.bytes < b.bytes; });
    HockneyFit fit;
    fit.alphaSeconds = sorted.front().seconds;
    // Weighted by 1 / t^2, i.e. relative errors count: sizes that span three decades would otherwise
    // leave the line to the largest message alone.
    double n = 0, w = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const MessageSample& s : sorted) {
        if (s.bytes < bandwidthFrom || !(s.seconds > 0))
            continue;
        const auto x = static_cast<double>(s.bytes);
        const double weight = 1.0 / (s.seconds * s.seconds);
        n += 1;
        w += weight;
        sx += weight * x;
        sy += weight * s.seconds;
        sxx += weight * x * x;
        sxy += weight * x * s.seconds;
    }
    const double denominator = w * sxx - sx * sx;
    if (n < 2 || denominator <= 0)
        throw InputError("calibration", "fewer than two message sizes of at least " + std::to_string(bandwidthFrom) +
                                            " bytes: the bandwidth cannot be fitted");
    const double slope = (w * sxy - sx * sy) / denominator;
    if (!(slope > 0))
        throw InputError("calibration", "message times do not grow with size: the bandwidth cannot be fitted");
    fit.bytesPerSecond = 1.0 / slope;
    double squares = 0;
    for (const MessageSample& s : sorted) {
        const double predicted = fit.alphaSeconds + static_cast<double>(s.bytes) * slope;
        const double relative = s.seconds > 0 ? (predicted - s.seconds) / s.seconds : 0.0;
        squares += relative * relative;
    }
    fit.rmsRelativeError = std::sqrt(squares / static_cast<double>(sorted.size()));
    return fit;
}

std::int32_t peerAcross(const Topology& topology, std::size_t dim, std::int64_t ranks)
{
    if (dim >= topology.dims.size() || topology.dims[dim].npus < 2)
        return -1;
    std::int64_t stride = 1;
    for (std::size_t d = 0; d < dim; ++d)
        stride *= topology.dims[d].npus;
    return stride < ranks ? static_cast<std::int32_t>(stride) : -1;
}

Topology calibratedTopology(const Topology& topology, const std::vector<DimensionMeasurement>& measured,
                            double endpointDelayNs, std::vector<std::string>* report)
{
    Topology out = topology;
    for (const DimensionMeasurement& m : measured) {
        TopologyDim& dim = out.dims.at(m.dim);
        const HockneyFit fit = fitHockney(m.samples);
        const std::int32_t hops = std::max(1, topology.dims[m.dim].hops(0, 1));
        const double latencyNs = std::max(0.0, (fit.alphaSeconds * 1e9 - 2 * endpointDelayNs) / hops);
        const double bandwidthGBps = fit.bytesPerSecond / kNetworkGB;
        if (report) {
            char line[256];
            std::snprintf(line, sizeof line,
                          "dimension %zu (rank 0 <-> %d, %d hop%s): latency %.1f ns (was %.1f), bandwidth %.3f GB/s "
                          "(was %.3f); fit within %.1f%% rms",
                          m.dim + 1, m.peer, hops, hops == 1 ? "" : "s", latencyNs, dim.latencyNs, bandwidthGBps,
                          dim.bandwidthGBps, 100 * fit.rmsRelativeError);
            report->push_back(line);
        }
        dim.latencyNs = latencyNs;
        dim.bandwidthGBps = bandwidthGBps;
    }
    return out;
}

} // namespace flint::core::replay
