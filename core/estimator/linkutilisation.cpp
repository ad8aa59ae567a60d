// SPDX-License-Identifier: MIT
#include "core/estimator/linkutilisation.h"

#include "core/estimator/linktraffic.h"

#include <algorithm>

namespace flint::core {

LinkUtilisation linkUtilisation(const Workload& workload, const Cluster& cluster, const EstimateResult& result,
                                std::size_t bins)
{
    LinkUtilisation out;
    const std::size_t dims = cluster.topology.dims.size();
    const std::size_t ranks = workload.rankCount();
    const bool noEvents = std::all_of(result.timelines.begin(), result.timelines.end(),
                                      [](std::span<const OpEvent> events) { return events.empty(); });
    if (bins == 0 || dims == 0 || ranks == 0 || noEvents || result.stepTime <= 0 || result.rankTimeline.size() != ranks)
        return out;
    out.stepTime = result.stepTime;
    out.binSeconds = result.stepTime / static_cast<double>(bins);
    out.dims.resize(dims);
    for (auto& d : out.dims) {
        d.mean.assign(bins, 0.0);
        d.busiest.assign(bins, 0.0);
    }
    std::vector<double> classSize(result.timelines.size(), 0.0);
    for (std::uint32_t t : result.rankTimeline)
        ++classSize[t];

    LinkTraffic traffic(workload, cluster);

    // One class at a time: its representative's bytes per dimension and bin.
    std::vector<double> sent(dims * bins);
    const double lastBin = static_cast<double>(bins) - 1;
    const auto spread = [&](std::size_t d, double bytes, double start, double end) {
        double* row = &sent[d * bins];
        const double from = std::clamp(start / out.binSeconds, 0.0, static_cast<double>(bins));
        const double to = std::clamp(end / out.binSeconds, 0.0, static_cast<double>(bins));
        if (to - from <= 1e-12) {
            row[static_cast<std::size_t>(std::min(from, lastBin))] += bytes;
            return;
        }
        const double perBin = bytes / (to - from);
        for (auto k = static_cast<std::size_t>(std::min(from, lastBin)); static_cast<double>(k) < to; ++k) {
            const double overlap = std::min(to, static_cast<double>(k + 1)) - std::max(from, static_cast<double>(k));
            if (overlap > 0)
                row[k] += perBin * overlap;
        }
    };
    for (std::size_t t = 0; t < result.timelines.size(); ++t) {
        if (classSize[t] == 0)
            continue;
        const auto rank = static_cast<std::size_t>(result.timelineRank[t]);
        const Program& program = workload.programOf(rank);
        std::fill(sent.begin(), sent.end(), 0.0);
        for (const OpEvent& event : result.timelines[t]) {
            const std::span<const double> bytes = traffic.sent(rank, program.ops[event.op]);
            for (std::size_t d = 0; d < bytes.size(); ++d)
                if (bytes[d] > 0)
                    spread(d, bytes[d], event.start, event.end);
        }
        for (std::size_t d = 0; d < dims; ++d) {
            const double capacity = cluster.topology.dims[d].bandwidthBytesPerSecond() * out.binSeconds;
            LinkUtilisation::Dimension& dim = out.dims[d];
            for (std::size_t k = 0; k < bins; ++k) {
                const double bytes = sent[d * bins + k];
                dim.bytes += bytes * classSize[t];
                dim.mean[k] += bytes * classSize[t];
                if (capacity > 0)
                    dim.busiest[k] = std::max(dim.busiest[k], bytes / capacity);
            }
        }
    }
    for (std::size_t d = 0; d < dims; ++d) {
        LinkUtilisation::Dimension& dim = out.dims[d];
        const double capacity =
            cluster.topology.dims[d].bandwidthBytesPerSecond() * out.binSeconds * static_cast<double>(ranks);
        for (double& value : dim.mean)
            value = capacity > 0 ? value / capacity : 0.0;
        dim.average = capacity > 0 ? dim.bytes / (capacity * static_cast<double>(bins)) : 0.0;
        dim.peak = *std::max_element(dim.busiest.begin(), dim.busiest.end());
    }
    return out;
}

} // namespace flint::core
