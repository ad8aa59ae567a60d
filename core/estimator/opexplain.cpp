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
Message sharedLinks()
{
    return Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                        "plus, where transfers of this rank overlap it on a link and together ask for "
                                        "more than the link carries, the excess of that demand over its interval "
                                        "(links shared by overlapping transfers; the slowest participant's)"),
                   {});
}

/// Seconds in the unit that fits; "us" for microseconds (the explorer shows µs).
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
/// per rank entering the phase per chunk). Formulas read the same in every language.
Message phaseFormula(CollectiveAlgorithm algorithm, CollectiveKind kind)
{
    const bool allReduce = kind == CollectiveKind::AllReduce;
    const bool gather = kind == CollectiveKind::AllGather;
    const bool scatter = kind == CollectiveKind::ReduceScatter || kind == CollectiveKind::ReduceScatterBlock;
    const bool allToAll = kind == CollectiveKind::AllToAll;
    const auto math = [](const char* formula) { return Message::verbatim(formula); };
    switch (algorithm) {
    case CollectiveAlgorithm::Ring:
        if (allReduce)
            return math("2(n-1) T_msg(c/n, h_nb) + (2(n-1)+1) ED + (n-1) T_red(c/n)");
        if (scatter)
            return math("(n-1) T_msg(c/n, h_nb) + n ED + (n-1) T_red(c/n)");
        if (gather)
            return math("(n-1) T_msg(c, h_nb) + n ED");
        if (allToAll)
            return math("n(n-1)/2 T_msg(c/n, h_nb) + (n(n-1)/2+1) ED");
        break;
    case CollectiveAlgorithm::Direct:
        if (allReduce)
            return math("2 ED + R(c/n) + T_red((n-1) c/n) + ED + R(c/n)");
        if (scatter)
            return math("2 ED + R(c/n) + T_red((n-1) c/n)");
        if (gather)
            return math("2 ED + R(c)");
        if (allToAll)
            return math("2 ED + R(c/n)");
        break;
    case CollectiveAlgorithm::HalvingDoubling:
        if (allReduce)
            return Message(FLINT_TRANSLATE_NOOP("Diagnostics", "reduce-scatter %1, then its mirror all-gather, %2"),
                           {"sum_s [T_msg(c/2^s, h(2^(s-1))) + T_red(c/2^s)]", "+ (2 log2 n + 1) ED"});
        if (scatter)
            return math("sum_s=1..log2 n [T_msg(c/2^s, h(2^(s-1))) + T_red(c/2^s)] + (log2 n + 1) ED");
        if (gather)
            return math("sum_s=1..log2 n T_msg(2^(s-1) c, h(2^(s-1))) + (log2 n + 1) ED");
        break;
    case CollectiveAlgorithm::DoubleBinaryTree:
        if (allReduce)
            return math("2 D (T_msg(c/2, h_max) + ED) + D T_red(c/2) + ED, D = ceil(log2(n+1)) - 1");
        break;
    }
    return Message(FLINT_TRANSLATE_NOOP("Diagnostics", "see docs/estimator.md, rooted and other collectives"), {});
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
        e.lines.emplace_back(
            FLINT_TRANSLATE_NOOP("Diagnostics", "%1 of %2 bytes per rank over %3 members, %4 cost model"),
            std::vector<std::string>{std::string(chakraName(op.collective)), std::to_string(op.commBytes),
                                     std::to_string(members.size()), std::string(displayName(cluster.model))});
        const std::vector<std::string> chunking{std::to_string(cost.chunks), format("%.0f", cost.chunkBytes),
                                                std::to_string(cost.phases.size())};
        e.lines.emplace_back(
            cost.staged ? FLINT_TRANSLATE_NOOP("Diagnostics", "%1 chunk(s) of %2 bytes, pipelined through %3 "
                                                              "phase(s), staged per topology dimension")
                        : FLINT_TRANSLATE_NOOP("Diagnostics", "%1 chunk(s) of %2 bytes, pipelined through %3 phase(s)"),
            chunking);
        for (std::size_t i = 0; i < cost.phases.size(); ++i) {
            const CollectivePhase& p = cost.phases[i];
            const std::string algorithm(displayName(p.algorithm)), kind(chakraName(p.kind));
            Message phase;
            if (p.dim >= 0 && static_cast<std::size_t>(p.dim) < cluster.topology.dims.size()) {
                const TopologyDim& dim = cluster.topology.dims[static_cast<std::size_t>(p.dim)];
                // Decimal GB/s, as the network table and presets show it (bandwidthGBps is GiB/s).
                phase = Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                     "phase %1: %2 %3 on dimension %4 (%5, %6 GB/s, %7 ns), n = "
                                                     "%8, c = %9 bytes: t = "),
                                // Dimensions counted from 1, innermost first, as the views name them.
                                {std::to_string(i + 1), algorithm, kind, std::to_string(p.dim + 1),
                                 std::string(displayName(dim.kind)), format("%.1f", dim.decimalGBps()),
                                 format("%.0f", dim.latencyNs), std::to_string(p.npus), format("%.0f", p.bytesIn)});
            } else {
                phase = Message(
                    FLINT_TRANSLATE_NOOP("Diagnostics",
                                         "phase %1: %2 %3 on a flat logical ring, n = %4, c = %5 bytes: t = "),
                    {std::to_string(i + 1), algorithm, kind, std::to_string(p.npus), format("%.0f", p.bytesIn)});
            }
            e.lines.push_back(
                phase.followedBy(phaseFormula(p.algorithm, p.kind))
                    .followedBy(Message(FLINT_TRANSLATE_NOOP("Diagnostics", " = %1 per chunk"), {seconds(p.time)})));
        }
        if (!cost.protocol.empty())
            e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                      "NCCL's %1 protocol, the fastest of LL, LL128 and Simple: its "
                                                      "ring latency %2 once (a base and a latency per ring step), the "
                                                      "phases above at its share of the bandwidth and without per-hop "
                                                      "latency"),
                                 std::vector<std::string>{cost.protocol, seconds(cost.protocolLatency)});
        if (*cost.note != '\0')
            e.lines.emplace_back(cost.note, std::vector<std::string>{});
        // Our model fuses a reduction into the transfer (NCCL's kernels reduce while they stream): only
        // its excess counts, which on NVLink and InfiniBand with HBM is none. ASTRA-sim's adds it all.
        if (cluster.model == CostModel::Flint)
            e.lines.emplace_back(
                FLINT_TRANSLATE_NOOP("Diagnostics", "%1; %2: the reduction's excess over its transfer, as NCCL's "
                                                    "kernels reduce while they stream; ED endpoint delay "
                                                    "(docs/estimator.md)"),
                std::vector<std::string>{"T_msg(m, h) = h L + m / B", "T_red(m) = max(0, 3 m / BW_red - m / B)"});
        else
            e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "%1; %2; ED endpoint delay (docs/estimator.md)"),
                                 std::vector<std::string>{"T_msg(m, h) = h L + m / B", "T_red(m) = 3 m / BW_red"});
        e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "duration = %1"),
                             std::vector<std::string>{seconds(cost.duration)});
        if (cluster.sharesLinks())
            e.lines.push_back(sharedLinks());
        return e;
    }
    if (op.kind == OpKind::Send || op.kind == OpKind::Recv) {
        const CollectiveModel model(cluster);
        const std::int32_t self = static_cast<std::int32_t>(rank);
        const std::int32_t peer = workload.peerOf(rank, op);
        e.seconds = op.kind == OpKind::Send ? model.sendRecv(self, peer, op.commBytes)
                                            : model.sendRecv(peer, self, op.commBytes);
        e.lines.emplace_back(
            op.kind == OpKind::Send ? FLINT_TRANSLATE_NOOP("Diagnostics", "send of %1 bytes between ranks %2 and %3")
                                    : FLINT_TRANSLATE_NOOP("Diagnostics", "recv of %1 bytes between ranks %2 and %3"),
            std::vector<std::string>{std::to_string(op.commBytes), std::to_string(self), std::to_string(peer)});
        e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "t = %1 = %2"),
                             std::vector<std::string>{"T_msg(m, h) + 2 ED = h L + m / B + 2 ED", seconds(e.seconds)});
        if (cluster.sharesLinks())
            e.lines.push_back(sharedLinks());
        return e;
    }
    const std::uint64_t duration = workload.durationOf(rank, opIndex); // the rank's own when it has them
    e.seconds = computeTime(op, duration, cluster, options);
    const ComputeModel& m = cluster.compute;
    if (usesRecordedTime(op, duration, options)) {
        e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "recorded duration: %1"),
                             std::vector<std::string>{seconds(static_cast<double>(duration) * 1e-6)});
        return e;
    }
    const ComputeRate rate = computeRate(op, cluster);
    const Precision precision = rate.precision;
    const double peak = rate.peak;
    const double arithmetic = peak > 0 ? static_cast<double>(op.flops) / (peak * rate.efficiency) : 0.0;
    const double memory = cluster.device.memoryBandwidth > 0 ? static_cast<double>(op.memoryBytes()) /
                                                                   (cluster.device.memoryBandwidth * m.memoryEfficiency)
                                                             : 0.0;
    e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "roofline: %1"),
                         std::vector<std::string>{"t = max(F / (peak x eff_flop), B / (HBM x eff_mem)) + launch"});
    if (rate.kernelClass != KernelClass::Generic)
        e.lines.emplace_back(
            rate.kernelClass == KernelClass::AttentionBackward
                ? FLINT_TRANSLATE_NOOP(
                      "Diagnostics", "fused attention, backward pass: eff_flop is the measured throughput of %1 on %2")
                : FLINT_TRANSLATE_NOOP(
                      "Diagnostics", "fused attention, forward pass: eff_flop is the measured throughput of %1 on %2"),
            std::vector<std::string>{std::string(displayName(m.attentionKernelOn(cluster.device))),
                                     cluster.device.name});
    if (rate.gemm.valid())
        e.lines.emplace_back(
            FLINT_TRANSLATE_NOOP("Diagnostics", "GEMM of M %1 x N %2 x K %3: eff_flop is %4's measured "
                                                "throughput at that shape (%5 TFLOP/s)"),
            std::vector<std::string>{std::to_string(rate.gemm.m), std::to_string(rate.gemm.n),
                                     std::to_string(rate.gemm.k), cluster.device.name,
                                     format("%.1f", rate.peak * rate.efficiency / rate.sustained / 1e12)});
    if (rate.sustained < 1)
        e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                  "eff_flop includes x %1: the throughput %2 sustains power-saturated, "
                                                  "against the burst figure of short benchmarks at the boost clock"),
                             std::vector<std::string>{format("%.3f", rate.sustained), cluster.device.name});
    e.lines.push_back(Message::verbatim(
        format("t = max(%.4g FLOP / (%.4g TFLOP/s %s x %.2f), %.4g bytes / (%.4g TB/s x %.2f)) + %s",
               static_cast<double>(op.flops), peak / 1e12, std::string(displayName(precision)).c_str(), rate.efficiency,
               static_cast<double>(op.memoryBytes()), cluster.device.memoryBandwidth / 1e12, m.memoryEfficiency,
               seconds(m.launchOverhead).c_str())));
    if (op.flops == 0 && op.memoryBytes() == 0)
        e.lines.emplace_back(
            FLINT_TRANSLATE_NOOP("Diagnostics", "no FLOPs and no memory traffic: the op takes no time"),
            std::vector<std::string>{});
    else
        e.lines.emplace_back(arithmetic >= memory
                                 ? FLINT_TRANSLATE_NOOP("Diagnostics", "= max(%1, %2) + %3 = %4 (compute-bound)")
                                 : FLINT_TRANSLATE_NOOP("Diagnostics", "= max(%1, %2) + %3 = %4 (memory-bound)"),
                             std::vector<std::string>{seconds(arithmetic), seconds(memory), seconds(m.launchOverhead),
                                                      seconds(e.seconds)});
    if (const double slowdown = cluster.overlapSlowdown(); slowdown > 0 && e.seconds > 0)
        e.lines.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                  "plus %1% of the time communication of this rank runs beside it "
                                                  "(SMs and memory bandwidth shared with the communication kernels)"),
                             std::vector<std::string>{format("%.1f", 100 * slowdown)});
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
