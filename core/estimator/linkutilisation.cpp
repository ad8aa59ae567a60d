// SPDX-License-Identifier: MIT
#include "core/estimator/linkutilisation.h"

#include "core/estimator/collectivemodel.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

namespace flint::core {
namespace {

/// What one collective instance sends per member and dimension: members ascending, and
/// bytes[position * dims + d].
struct MemberTraffic {
    std::vector<std::int32_t> members;
    std::vector<double> bytes;
};

} // namespace

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

    const CollectiveModel model(cluster);
    // Per (group, kind, bytes, permute op): the instance's traffic, shared by every class using it.
    std::map<std::tuple<const CommGroup*, int, std::uint64_t, const Op*>, MemberTraffic> traffic;
    const auto trafficOf = [&](std::size_t rank, const Op& op) -> const MemberTraffic& {
        const bool permute = op.collective == CollectiveKind::CollectivePermute;
        const auto key = std::make_tuple(workload.groupOf(rank, op), static_cast<int>(op.collective), op.commBytes,
                                         permute ? &op : nullptr);
        auto it = traffic.find(key);
        if (it != traffic.end())
            return it->second;
        MemberTraffic t;
        t.members = workload.membersOf(rank, op);
        std::sort(t.members.begin(), t.members.end());
        t.bytes.assign(t.members.size() * dims, 0.0);
        model.forEachFlow(op.collective, op.commBytes, t.members, op.extras.get().sourceTargetPairs,
                          [&](std::int32_t src, std::int32_t dst, double bytes) {
                              const int d = cluster.topology.firstDifferingDim(src, dst);
                              const auto at = std::lower_bound(t.members.begin(), t.members.end(), src);
                              if (d < 0 || at == t.members.end() || *at != src)
                                  return;
                              const auto position = static_cast<std::size_t>(at - t.members.begin());
                              t.bytes[position * dims + static_cast<std::size_t>(d)] += bytes;
                          });
        return traffic.emplace(key, std::move(t)).first->second;
    };

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
            const Op& op = program.ops[event.op];
            if (op.kind == OpKind::Send) {
                const std::int32_t peer = workload.peerOf(rank, op);
                const int d = peer >= 0 && static_cast<std::size_t>(peer) < ranks
                                  ? cluster.topology.firstDifferingDim(static_cast<std::int64_t>(rank), peer)
                                  : -1;
                if (d >= 0)
                    spread(static_cast<std::size_t>(d), static_cast<double>(op.commBytes), event.start, event.end);
            } else if (op.kind == OpKind::Collective) {
                const MemberTraffic& instance = trafficOf(rank, op);
                const auto& members = instance.members;
                const auto at = std::lower_bound(members.begin(), members.end(), static_cast<std::int32_t>(rank));
                if (at == members.end() || *at != static_cast<std::int32_t>(rank))
                    continue;
                const double* bytes = &instance.bytes[static_cast<std::size_t>(at - members.begin()) * dims];
                for (std::size_t d = 0; d < dims; ++d)
                    if (bytes[d] > 0)
                        spread(d, bytes[d], event.start, event.end);
            }
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
