// SPDX-License-Identifier: MIT
#include "core/estimator/opexplain.h"

#include "core/estimator/collectivemodel.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace flint::core {
namespace {

std::string format(const char* pattern, auto... values)
{
    char text[512];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

/// The line that ends a transfer's explanation where links are shared (Cluster::linkSharing).
constexpr const char* kSharedLinks =
    "plus, where transfers of this rank overlap it on a link and together ask for more than the link carries, the "
    "excess of that demand over its interval (links shared by overlapping transfers; the slowest participant's)";

std::string seconds(double s)
{
    if (s >= 1)
        return format("%.3f s", s);
    if (s >= 1e-3)
        return format("%.3f ms", s * 1e3);
    if (s >= 1e-6)
        return format("%.2f us", s * 1e6);
    return format("%.0f ns", s * 1e9);
}

/// The per-chunk time of one phase, as the table of docs/estimator.md gives it (n members, c bytes
/// per rank entering the phase per chunk).
std::string phaseFormula(CollectiveAlgorithm algorithm, CollectiveKind kind)
{
    const bool allReduce = kind == CollectiveKind::AllReduce;
    const bool gather = kind == CollectiveKind::AllGather;
    const bool scatter = kind == CollectiveKind::ReduceScatter || kind == CollectiveKind::ReduceScatterBlock;
    const bool allToAll = kind == CollectiveKind::AllToAll;
    switch (algorithm) {
    case CollectiveAlgorithm::Ring:
        if (allReduce)
            return "2(n-1) T_msg(c/n, h_nb) + (2(n-1)+1) ED + (n-1) T_red(c/n)";
        if (scatter)
            return "(n-1) T_msg(c/n, h_nb) + n ED + (n-1) T_red(c/n)";
        if (gather)
            return "(n-1) T_msg(c, h_nb) + n ED";
        if (allToAll)
            return "n(n-1)/2 T_msg(c/n, h_nb) + (n(n-1)/2+1) ED";
        break;
    case CollectiveAlgorithm::Direct:
        if (allReduce)
            return "2 ED + R(c/n) + T_red((n-1) c/n) + ED + R(c/n)";
        if (scatter)
            return "2 ED + R(c/n) + T_red((n-1) c/n)";
        if (gather)
            return "2 ED + R(c)";
        if (allToAll)
            return "2 ED + R(c/n)";
        break;
    case CollectiveAlgorithm::HalvingDoubling:
        if (allReduce)
            return "reduce-scatter sum_s [T_msg(c/2^s, h(2^(s-1))) + T_red(c/2^s)], then its mirror all-gather, "
                   "+ (2 log2 n + 1) ED";
        if (scatter)
            return "sum_s=1..log2 n [T_msg(c/2^s, h(2^(s-1))) + T_red(c/2^s)] + (log2 n + 1) ED";
        if (gather)
            return "sum_s=1..log2 n T_msg(2^(s-1) c, h(2^(s-1))) + (log2 n + 1) ED";
        break;
    case CollectiveAlgorithm::DoubleBinaryTree:
        if (allReduce)
            return "2 D (T_msg(c/2, h_max) + ED) + D T_red(c/2) + ED, D = ceil(log2(n+1)) - 1";
        break;
    }
    return "see docs/estimator.md, rooted and other collectives";
}

} // namespace

OpExplanation explainOp(const Workload& workload, const Cluster& cluster, std::size_t rank, std::uint32_t opIndex,
                        const EstimateOptions& options)
{
    const Program& program = workload.programOf(rank);
    const Op& op = program.ops.at(opIndex);
    OpExplanation e;
    if (op.kind == OpKind::Collective) {
        std::vector<std::int32_t> members = workload.membersOf(rank, op);
        std::sort(members.begin(), members.end());
        const CollectiveModel model(cluster);
        const CollectiveCost cost =
            model.collective(op.collective, op.commBytes, members, op.extras.get().sourceTargetPairs);
        e.seconds = cost.duration;
        e.lines.push_back(format("%s of %llu bytes per rank over %zu members, %s cost model",
                                 std::string(chakraName(op.collective)).c_str(),
                                 static_cast<unsigned long long>(op.commBytes), members.size(),
                                 std::string(displayName(cluster.model)).c_str()));
        e.lines.push_back(format("%llu chunk(s) of %.0f bytes, pipelined through %zu phase(s)%s",
                                 static_cast<unsigned long long>(cost.chunks), cost.chunkBytes, cost.phases.size(),
                                 cost.staged ? ", staged per topology dimension" : ""));
        for (std::size_t i = 0; i < cost.phases.size(); ++i) {
            const CollectivePhase& p = cost.phases[i];
            const std::string where =
                p.dim >= 0 && static_cast<std::size_t>(p.dim) < cluster.topology.dims.size()
                    ? format(
                          "dim %d (%s, %.1f GB/s, %.0f ns)", p.dim,
                          std::string(displayName(cluster.topology.dims[static_cast<std::size_t>(p.dim)].kind)).c_str(),
                          // Decimal GB/s, as the network table and presets show it (bandwidthGBps is GiB/s).
                          cluster.topology.dims[static_cast<std::size_t>(p.dim)].decimalGBps(),
                          cluster.topology.dims[static_cast<std::size_t>(p.dim)].latencyNs)
                    : std::string("a flat logical ring");
            e.lines.push_back(format("phase %zu: %s %s on %s, n = %d, c = %.0f bytes: t = %s = %s per chunk", i + 1,
                                     std::string(displayName(p.algorithm)).c_str(),
                                     std::string(chakraName(p.kind)).c_str(), where.c_str(), p.npus, p.bytesIn,
                                     phaseFormula(p.algorithm, p.kind).c_str(), seconds(p.time).c_str()));
        }
        if (!cost.protocol.empty())
            e.lines.push_back(format("NCCL's %s protocol, the fastest of LL, LL128 and Simple: its ring latency %s "
                                     "once (a base and a latency per ring step), the phases above at its share of "
                                     "the bandwidth and without per-hop latency",
                                     cost.protocol.c_str(), seconds(cost.protocolLatency).c_str()));
        if (!cost.note.empty())
            e.lines.push_back(cost.note);
        e.lines.push_back("T_msg(m, h) = h L + m / B; T_red(m) = 3 m / BW_red; ED endpoint delay (docs/estimator.md)");
        e.lines.push_back("duration = " + seconds(cost.duration));
        if (cluster.sharesLinks())
            e.lines.push_back(kSharedLinks);
        return e;
    }
    if (op.kind == OpKind::Send || op.kind == OpKind::Recv) {
        const CollectiveModel model(cluster);
        const std::int32_t self = static_cast<std::int32_t>(rank);
        const std::int32_t peer = workload.peerOf(rank, op);
        e.seconds = op.kind == OpKind::Send ? model.sendRecv(self, peer, op.commBytes)
                                            : model.sendRecv(peer, self, op.commBytes);
        e.lines.push_back(format("%s of %llu bytes between ranks %d and %d", op.kind == OpKind::Send ? "send" : "recv",
                                 static_cast<unsigned long long>(op.commBytes), self, peer));
        e.lines.push_back("t = T_msg(m, h) + 2 ED = h L + m / B + 2 ED = " + seconds(e.seconds));
        if (cluster.sharesLinks())
            e.lines.push_back(kSharedLinks);
        return e;
    }
    const std::uint64_t duration = workload.durationOf(rank, opIndex); // the rank's own when it has them
    e.seconds = computeTime(op, duration, cluster, options);
    const ComputeModel& m = cluster.compute;
    if (usesRecordedTime(op, duration, options)) {
        e.lines.push_back(format("recorded duration: %llu us", static_cast<unsigned long long>(duration)));
        return e;
    }
    const ComputeRate rate = computeRate(op, cluster);
    const Precision precision = rate.precision;
    const double peak = rate.peak;
    const double arithmetic = peak > 0 ? static_cast<double>(op.flops) / (peak * rate.efficiency) : 0.0;
    const double memory = cluster.device.memoryBandwidth > 0 ? static_cast<double>(op.memoryBytes()) /
                                                                   (cluster.device.memoryBandwidth * m.memoryEfficiency)
                                                             : 0.0;
    e.lines.push_back("roofline: t = max(F / (peak x eff_flop), B / (HBM x eff_mem)) + launch");
    if (rate.kernelClass != KernelClass::Generic)
        e.lines.push_back(format("fused attention, %s pass: eff_flop is the measured throughput of %s on %s",
                                 rate.kernelClass == KernelClass::AttentionBackward ? "backward" : "forward",
                                 std::string(displayName(m.attentionKernelOn(cluster.device))).c_str(),
                                 cluster.device.name.c_str()));
    if (rate.gemm.valid())
        e.lines.push_back(format("GEMM of M %lld x N %lld x K %lld: eff_flop is %s's measured throughput at that shape "
                                 "(%.4g TFLOP/s)",
                                 static_cast<long long>(rate.gemm.m), static_cast<long long>(rate.gemm.n),
                                 static_cast<long long>(rate.gemm.k), cluster.device.name.c_str(),
                                 rate.peak * rate.efficiency / rate.sustained / 1e12));
    if (rate.sustained < 1)
        e.lines.push_back(format("eff_flop includes x %.3f: the throughput %s sustains power-saturated, against "
                                 "the burst figure of short benchmarks at the boost clock",
                                 rate.sustained, cluster.device.name.c_str()));
    e.lines.push_back(format("t = max(%.4g FLOP / (%.4g TFLOP/s %s x %.2f), %.4g bytes / (%.4g TB/s x %.2f)) + %s",
                             static_cast<double>(op.flops), peak / 1e12, std::string(displayName(precision)).c_str(),
                             rate.efficiency, static_cast<double>(op.memoryBytes()),
                             cluster.device.memoryBandwidth / 1e12, m.memoryEfficiency,
                             seconds(m.launchOverhead).c_str()));
    if (op.flops == 0 && op.memoryBytes() == 0)
        e.lines.push_back("no FLOPs and no memory traffic: the op takes no time");
    else
        e.lines.push_back(format("= max(%s, %s) + %s = %s (%s-bound)", seconds(arithmetic).c_str(),
                                 seconds(memory).c_str(), seconds(m.launchOverhead).c_str(), seconds(e.seconds).c_str(),
                                 arithmetic >= memory ? "compute" : "memory"));
    if (const double slowdown = cluster.overlapSlowdown(); slowdown > 0 && e.seconds > 0)
        e.lines.push_back(format("plus %.1f%% of the time communication of this rank runs beside it (SMs and memory "
                                 "bandwidth shared with the communication kernels)",
                                 100 * slowdown));
    return e;
}

void forEachOpFlow(const Workload& workload, const Cluster& cluster, std::size_t rank, std::uint32_t opIndex,
                   const std::function<void(std::int32_t, std::int32_t, double)>& flow)
{
    const std::uint32_t programIndex = workload.ranks.at(rank).program;
    const Op& op = workload.programOf(rank).ops.at(opIndex);
    const auto ranks = static_cast<std::int32_t>(workload.rankCount());
    if (op.kind == OpKind::Send) {
        for (std::int32_t r = 0; r < ranks; ++r) {
            if (workload.ranks[static_cast<std::size_t>(r)].program != programIndex)
                continue;
            const std::int32_t dst = workload.peerOf(static_cast<std::size_t>(r), op);
            if (dst >= 0 && dst < ranks && dst != r)
                flow(r, dst, static_cast<double>(op.commBytes));
        }
        return;
    }
    if (op.kind != OpKind::Collective)
        return;
    const CollectiveModel model(cluster);
    std::set<std::int64_t> seen; // group indices; -1 for all ranks
    for (std::int32_t r = 0; r < ranks; ++r) {
        const RankBinding& binding = workload.ranks[static_cast<std::size_t>(r)];
        if (binding.program != programIndex)
            continue;
        const std::int64_t group = op.commSlot < 0 || static_cast<std::size_t>(op.commSlot) >= binding.slotGroups.size()
                                       ? -1
                                       : binding.slotGroups[static_cast<std::size_t>(op.commSlot)];
        if (!seen.insert(group).second)
            continue;
        std::vector<std::int32_t> members = workload.membersOf(static_cast<std::size_t>(r), op);
        std::sort(members.begin(), members.end());
        model.forEachFlow(op.collective, op.commBytes, members, op.extras.get().sourceTargetPairs, flow);
    }
}

OpOnRank heaviestOpBetween(const Workload& workload, const Cluster& cluster, std::int32_t srcFirst,
                           std::int32_t srcCount, std::int32_t dstFirst, std::int32_t dstCount)
{
    const auto ranks = static_cast<std::int32_t>(workload.rankCount());
    const auto inDst = [&](std::int32_t r) { return r >= dstFirst && r < dstFirst + dstCount; };
    const CollectiveModel model(cluster);
    OpOnRank best;
    const std::int32_t last = std::min({ranks, srcFirst + srcCount, srcFirst + 64});
    for (std::int32_t src = std::max(0, srcFirst); src < last; ++src) {
        const Program& program = workload.programOf(static_cast<std::size_t>(src));
        // (group, kind, bytes, permute op) -> first op and executions.
        std::map<std::tuple<std::int64_t, int, std::uint64_t, const Op*>, std::pair<std::uint32_t, std::uint64_t>> keys;
        for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
            const Op& op = program.ops[i];
            if (op.kind == OpKind::Send && inDst(workload.peerOf(static_cast<std::size_t>(src), op)) &&
                workload.peerOf(static_cast<std::size_t>(src), op) != src) {
                if (static_cast<double>(op.commBytes) > best.bytes)
                    best = {src, i, static_cast<double>(op.commBytes)};
                continue;
            }
            if (op.kind != OpKind::Collective)
                continue;
            const auto& slots = workload.ranks[static_cast<std::size_t>(src)].slotGroups;
            const std::int64_t group = op.commSlot < 0 || static_cast<std::size_t>(op.commSlot) >= slots.size()
                                           ? -1
                                           : slots[static_cast<std::size_t>(op.commSlot)];
            const bool permute = op.collective == CollectiveKind::CollectivePermute;
            auto [entry, added] =
                keys.try_emplace({group, static_cast<int>(op.collective), op.commBytes, permute ? &op : nullptr}, i, 0);
            ++entry->second.second;
        }
        for (const auto& [key, first] : keys) {
            const Op& op = program.ops[first.first];
            std::vector<std::int32_t> members = workload.membersOf(static_cast<std::size_t>(src), op);
            std::sort(members.begin(), members.end());
            double bytes = 0;
            model.forEachFlow(op.collective, op.commBytes, members, op.extras.get().sourceTargetPairs,
                              [&](std::int32_t s, std::int32_t d, double b) {
                                  if (s == src && inDst(d))
                                      bytes += b;
                              });
            bytes *= static_cast<double>(first.second);
            if (bytes > best.bytes)
                best = {src, first.first, bytes};
        }
    }
    return best;
}

} // namespace flint::core
