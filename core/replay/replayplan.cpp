// SPDX-License-Identifier: MIT
#include "core/replay/replayplan.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

namespace flint::core::replay {
namespace {

constexpr double kNotRun = -1.0;

std::string programName(const Workload& workload, std::size_t rank)
{
    const std::string& name = workload.programOf(rank).name;
    return name.empty() ? "workload" : name;
}

std::uint64_t scaled(std::uint64_t bytes, double scale)
{
    if (scale == 1.0)
        return bytes;
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * scale));
}

/// The group index an op of `rank` runs on (-1: all ranks).
std::int32_t groupIndexOf(const Workload& workload, std::size_t rank, const Op& op)
{
    if (op.commSlot < 0)
        return -1;
    return static_cast<std::int32_t>(workload.ranks[rank].slotGroups.at(static_cast<std::size_t>(op.commSlot)));
}

/// Per group a rank's collectives run on, their op indices in program order.
std::map<std::int32_t, std::vector<std::uint32_t>> collectivesByGroup(const Workload& workload, std::size_t rank)
{
    std::map<std::int32_t, std::vector<std::uint32_t>> byGroup;
    const Program& program = workload.programOf(rank);
    for (std::uint32_t i = 0; i < program.ops.size(); ++i)
        if (program.ops[i].kind == OpKind::Collective)
            byGroup[groupIndexOf(workload, rank, program.ops[i])].push_back(i);
    return byGroup;
}

std::vector<std::int32_t> membersOfGroup(const Workload& workload, std::int32_t group)
{
    if (group >= 0)
        return workload.groups[static_cast<std::size_t>(group)].ranks;
    std::vector<std::int32_t> all(workload.rankCount());
    std::iota(all.begin(), all.end(), 0);
    return all;
}

/// Each rank's collectives by group, worked out once per rank and kept for the plans of the others:
/// an all-to-all or a collective-permute needs what its peers send.
class CollectiveIndex {
public:
    explicit CollectiveIndex(const Workload& workload)
        : m_workload(workload)
        , m_byRank(workload.rankCount())
    {}

    /// The bytes of `member`'s `ordinal`-th collective on `group` (scaled), or 0 when it has none.
    std::uint64_t bytes(std::int32_t member, std::int32_t group, std::uint32_t ordinal, double byteScale)
    {
        const auto r = static_cast<std::size_t>(member);
        auto& byGroup = m_byRank.at(r);
        if (!byGroup)
            byGroup = collectivesByGroup(m_workload, r);
        const auto it = byGroup->find(group);
        if (it == byGroup->end() || ordinal >= it->second.size())
            return 0;
        return scaled(m_workload.programOf(r).ops[it->second[ordinal]].commBytes, byteScale);
    }

private:
    const Workload& m_workload;
    std::vector<std::optional<std::map<std::int32_t, std::vector<std::uint32_t>>>> m_byRank;
};

RankPlan planRankWith(CollectiveIndex& index, const Workload& workload, std::size_t rank, const Cluster& cluster,
                      const ReplayOptions& options);

} // namespace

RankPlan planRank(const Workload& workload, std::size_t rank, const Cluster& cluster, const ReplayOptions& options)
{
    CollectiveIndex index(workload);
    return planRankWith(index, workload, rank, cluster, options);
}

namespace {

RankPlan planRankWith(CollectiveIndex& index, const Workload& workload, std::size_t rank, const Cluster& cluster,
                      const ReplayOptions& options)
{
    const Program& program = workload.programOf(rank);
    const auto self = static_cast<std::int32_t>(rank);
    RankPlan plan;
    plan.rank = self;
    plan.commStreams = std::max(1, cluster.commStreams);
    plan.graph = dependencyGraph(program, true);
    plan.ops.resize(program.ops.size());
    EstimateOptions timing;
    timing.timing = options.timing;

    std::map<std::int32_t, std::uint32_t> nextOrdinal;
    // Messages from the sender to the receiver keyed (tag, ordinal within the tag), numbered in key
    // order once every op of the rank is known.
    std::map<std::tuple<int, std::int32_t, std::int32_t>, std::uint32_t> perTag; // (kind, peer, tag)
    std::map<std::pair<int, std::int32_t>,
             std::vector<std::pair<std::pair<std::int32_t, std::uint32_t>, std::uint32_t>>>
        messages; // (kind, peer) -> ((tag, ordinal), op)
    for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
        const Op& op = program.ops[i];
        PlannedOp& p = plan.ops[i];
        switch (op.kind) {
        case OpKind::Collective: {
            p.action = Action::Collective;
            p.collective = op.collective;
            p.bytes = scaled(op.commBytes, options.byteScale);
            p.group = groupIndexOf(workload, rank, op);
            p.ordinal = nextOrdinal[p.group]++;
            const std::vector<std::int32_t> members = membersOfGroup(workload, p.group);
            if (op.collective == CollectiveKind::AllToAll) {
                p.memberBytes.reserve(members.size());
                for (std::int32_t m : members)
                    p.memberBytes.push_back(m == self ? p.bytes
                                                      : index.bytes(m, p.group, p.ordinal, options.byteScale));
            }
            if (op.collective == CollectiveKind::CollectivePermute) {
                for (const auto& [src, dst] : op.extras.get().sourceTargetPairs) {
                    const bool srcIn = std::find(members.begin(), members.end(), src) != members.end();
                    const bool dstIn = std::find(members.begin(), members.end(), dst) != members.end();
                    if ((src == self || dst == self) && (!srcIn || !dstIn))
                        throw InputError(programName(workload, rank),
                                         "collective-permute '" + op.name + "' on rank " + std::to_string(self) +
                                             " pairs " + std::to_string(src) + " -> " + std::to_string(dst) +
                                             ", outside its group: it cannot be replayed");
                    if (src == self && dst != self)
                        p.sendTo = dst;
                    if (dst == self && src != self)
                        p.recvFrom = src;
                }
                if (p.recvFrom >= 0)
                    p.memberBytes = {index.bytes(p.recvFrom, p.group, p.ordinal, options.byteScale)};
            }
            break;
        }
        case OpKind::Send:
        case OpKind::Recv: {
            p.action = op.kind == OpKind::Send ? Action::Send : Action::Recv;
            p.bytes = scaled(op.commBytes, options.byteScale);
            p.peer = workload.peerOf(rank, op);
            if (p.peer < 0 || static_cast<std::size_t>(p.peer) >= workload.rankCount() || p.peer == self)
                throw InputError(programName(workload, rank),
                                 std::string(op.kind == OpKind::Send ? "send" : "recv") + " '" + op.name +
                                     "' on rank " + std::to_string(self) + " names peer " + std::to_string(p.peer) +
                                     ", not another rank of the workload: it cannot be replayed");
            const int kind = static_cast<int>(op.kind);
            const std::uint32_t ordinal = perTag[{kind, p.peer, op.commTag}]++;
            messages[{kind, p.peer}].push_back({{op.commTag, ordinal}, i});
            break;
        }
        default:
            p.action = Action::Wait;
            p.seconds = computeTime(op, workload.durationOf(rank, i), cluster, timing) * options.computeScale;
            break;
        }
    }
    for (auto& [key, list] : messages) {
        std::sort(list.begin(), list.end());
        for (std::size_t k = 0; k < list.size(); ++k) {
            if (k > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
                throw InputError(programName(workload, rank), "more than 2^31 messages between two ranks");
            plan.ops[list[k].second].tag = static_cast<std::int32_t>(k);
        }
    }
    for (const auto& [group, next] : nextOrdinal)
        plan.groups.push_back(group);
    return plan;
}

} // namespace

Workload plannedWorkload(const Workload& workload, const Cluster& cluster, const ReplayOptions& options)
{
    Workload out = workload;
    if (options.byteScale != 1.0)
        for (auto& program : out.programs) {
            auto copy = std::make_shared<Program>(*program);
            for (Op& op : copy->ops)
                if (op.isCommunication())
                    op.commBytes = scaled(op.commBytes, options.byteScale);
            program = std::move(copy);
        }
    // Ranks that share a program and its times share the planned times too.
    CollectiveIndex index(workload);
    std::map<std::pair<std::uint32_t, const RecordedTimes*>, std::shared_ptr<const RecordedTimes>> shared;
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const RankBinding& binding = workload.ranks[r];
        auto& times = shared[{binding.program, binding.times.get()}];
        if (!times) {
            const RankPlan plan = planRankWith(index, workload, r, cluster, options);
            auto planned = std::make_shared<RecordedTimes>();
            planned->startMicros.assign(plan.ops.size(), 0);
            planned->durationMicros.resize(plan.ops.size());
            for (std::size_t i = 0; i < plan.ops.size(); ++i)
                planned->durationMicros[i] = plan.ops[i].action == Action::Wait
                                                 ? static_cast<std::uint64_t>(std::llround(plan.ops[i].seconds * 1e6))
                                                 : workload.durationOf(r, i);
            times = std::move(planned);
        }
        out.ranks[r].times = times;
    }
    return out;
}

BufferBytes bufferBytes(const PlannedOp& op, std::size_t members)
{
    const std::uint64_t s = op.bytes;
    const auto n = static_cast<std::uint64_t>(std::max<std::size_t>(1, members));
    switch (op.action) {
    case Action::Wait:
        return {};
    case Action::Send:
        return {s, 0};
    case Action::Recv:
        return {0, s};
    case Action::Collective:
        break;
    }
    switch (op.collective) {
    case CollectiveKind::AllReduce:
    case CollectiveKind::Reduce:
    case CollectiveKind::Broadcast:
    case CollectiveKind::CollectiveBroadcast:
        return {s, s};
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::ReduceScatterBlock:
        return {s, (s + n - 1) / n};
    case CollectiveKind::AllGather:
    case CollectiveKind::Gather:
        return {s, s * n};
    case CollectiveKind::Scatter:
        return {s * n, s};
    case CollectiveKind::AllToAll: {
        std::uint64_t receive = 0;
        for (std::uint64_t b : op.memberBytes)
            receive = std::max(receive, b);
        return {s, receive};
    }
    case CollectiveKind::CollectivePermute:
        return {op.sendTo >= 0 ? s : 0, op.recvFrom >= 0 && !op.memberBytes.empty() ? op.memberBytes[0] : 0};
    case CollectiveKind::Barrier:
        return {};
    }
    return {};
}

LargestBuffer largestBuffer(const Workload& workload, const Cluster& cluster, const ReplayOptions& options)
{
    LargestBuffer largest;
    CollectiveIndex index(workload);
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const RankPlan plan = planRankWith(index, workload, r, cluster, options);
        const Program& program = workload.programOf(r);
        for (std::size_t i = 0; i < plan.ops.size(); ++i) {
            const PlannedOp& p = plan.ops[i];
            const std::size_t members = p.action == Action::Collective ? membersOfGroup(workload, p.group).size() : 1;
            const BufferBytes b = bufferBytes(p, members);
            const std::uint64_t bytes = std::max(b.send, b.receive);
            if (bytes > largest.bytes)
                largest = {bytes, static_cast<std::int32_t>(r), program.ops[i].name};
        }
    }
    return largest;
}

namespace {

/// Per op of every rank: the transfer time of each communication op, the shortest of its members'
/// (collectives: by group and ordinal; transfers: the send with its receive).
std::vector<std::vector<double>> transferTimes(const std::vector<RankPlan>& plans,
                                               const std::vector<std::vector<MeasuredOp>>& measured)
{
    std::vector<std::vector<double>> transfer(plans.size());
    std::map<std::pair<std::int32_t, std::uint32_t>, double> collective;            // (group, ordinal) -> shortest
    std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t>, double> message; // (src, dst, tag)
    const auto duration = [&](std::size_t r, std::size_t i) { return measured[r][i].end - measured[r][i].start; };
    for (std::size_t r = 0; r < plans.size(); ++r) {
        for (std::size_t i = 0; i < plans[r].ops.size(); ++i) {
            const PlannedOp& p = plans[r].ops[i];
            const auto self = static_cast<std::int32_t>(r);
            if (p.action == Action::Collective) {
                auto [it, inserted] = collective.try_emplace({p.group, p.ordinal}, duration(r, i));
                if (!inserted)
                    it->second = std::min(it->second, duration(r, i));
            } else if (p.action == Action::Send || p.action == Action::Recv) {
                const auto key =
                    p.action == Action::Send ? std::tuple{self, p.peer, p.tag} : std::tuple{p.peer, self, p.tag};
                auto [it, inserted] = message.try_emplace(key, duration(r, i));
                if (!inserted)
                    it->second = std::min(it->second, duration(r, i));
            }
        }
    }
    for (std::size_t r = 0; r < plans.size(); ++r) {
        transfer[r].assign(plans[r].ops.size(), 0.0);
        const auto self = static_cast<std::int32_t>(r);
        for (std::size_t i = 0; i < plans[r].ops.size(); ++i) {
            const PlannedOp& p = plans[r].ops[i];
            if (p.action == Action::Collective)
                transfer[r][i] = collective.at({p.group, p.ordinal});
            else if (p.action == Action::Send)
                transfer[r][i] = message.at({self, p.peer, p.tag});
            else if (p.action == Action::Recv)
                transfer[r][i] = message.at({p.peer, self, p.tag});
        }
    }
    return transfer;
}

std::vector<RankPlan> allPlans(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                               const std::vector<std::vector<MeasuredOp>>& measured)
{
    if (measured.size() != workload.rankCount())
        throw InputError("replay", "measured timelines for " + std::to_string(measured.size()) +
                                       " ranks, the workload has " + std::to_string(workload.rankCount()));
    std::vector<RankPlan> plans;
    plans.reserve(workload.rankCount());
    CollectiveIndex index(workload);
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        plans.push_back(planRankWith(index, workload, r, cluster, options));
        if (measured[r].size() != plans.back().ops.size())
            throw InputError("replay", "rank " + std::to_string(r) + " reported " + std::to_string(measured[r].size()) +
                                           " ops of " + std::to_string(plans.back().ops.size()));
        for (const MeasuredOp& m : measured[r])
            if (m.end == kNotRun || m.end < m.start)
                throw InputError("replay", "rank " + std::to_string(r) + " did not run every op");
    }
    return plans;
}

std::uint64_t micros(double seconds)
{
    return static_cast<std::uint64_t>(std::max<long long>(0, std::llround(seconds * 1e6)));
}

/// What both views of a replayed run need, worked out once: every rank's plan, and every
/// communication op's transfer time.
struct Analysis {
    std::vector<RankPlan> plans;
    std::vector<std::vector<double>> transfer;
};

Analysis analyse(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                 const std::vector<std::vector<MeasuredOp>>& measured)
{
    Analysis a;
    a.plans = allPlans(workload, cluster, options, measured);
    a.transfer = transferTimes(a.plans, measured);
    return a;
}

Workload workloadOf(const Workload& workload, const Analysis& analysis,
                    const std::vector<std::vector<MeasuredOp>>& measured)
{
    const std::vector<RankPlan>& plans = analysis.plans;
    const std::vector<std::vector<double>>& transfer = analysis.transfer;
    Workload out = workload;
    // Every rank keeps its program's ops; the bytes moved replace comm_size where the replay scaled
    // them, so such a program is copied per rank that moved other bytes (rare: --byte-scale).
    std::map<std::pair<std::uint32_t, std::vector<std::uint64_t>>, std::uint32_t> scaledPrograms;
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const Program& program = workload.programOf(r);
        auto times = std::make_shared<RecordedTimes>();
        times->startMicros.resize(program.ops.size());
        times->durationMicros.resize(program.ops.size());
        std::vector<std::uint64_t> moved(program.ops.size(), 0);
        bool changed = false;
        for (std::size_t i = 0; i < program.ops.size(); ++i) {
            const MeasuredOp& m = measured[r][i];
            const bool comm = plans[r].ops[i].action != Action::Wait;
            const double start = comm ? std::max(m.start, m.end - transfer[r][i]) : m.start;
            times->startMicros[i] = micros(start);
            times->durationMicros[i] = micros(m.end) - std::min(micros(m.end), micros(start));
            if (comm) {
                moved[i] = m.bytes;
                changed = changed || m.bytes != program.ops[i].commBytes;
            }
        }
        out.ranks[r].times = std::move(times);
        if (!changed)
            continue;
        const auto [it, inserted] = scaledPrograms.try_emplace({workload.ranks[r].program, moved}, 0);
        if (inserted) {
            auto copy = std::make_shared<Program>(program);
            for (std::size_t i = 0; i < copy->ops.size(); ++i)
                if (plans[r].ops[i].action != Action::Wait)
                    copy->ops[i].commBytes = moved[i];
            out.programs.push_back(std::move(copy));
            it->second = static_cast<std::uint32_t>(out.programs.size() - 1);
        }
        out.ranks[r].program = it->second;
    }
    return out;
}

std::shared_ptr<const EstimateResult> timelinesOf(const Cluster& cluster, const Analysis& analysis,
                                                  const std::vector<std::vector<MeasuredOp>>& measured)
{
    const std::vector<RankPlan>& plans = analysis.plans;
    const std::vector<std::vector<double>>& transfer = analysis.transfer;
    auto result = std::make_shared<EstimateResult>();
    result->costModel = "replay";
    std::size_t total = 0;
    for (const auto& rank : measured)
        total += rank.size();
    auto storage = std::make_shared<LargeBuffer>(std::max<std::size_t>(1, total) * sizeof(OpEvent));
    auto* events = storage->as<OpEvent>();
    std::size_t at = 0;
    const std::int32_t streams = std::max(1, cluster.commStreams);
    for (std::size_t r = 0; r < measured.size(); ++r) {
        const RankPlan& plan = plans[r];
        // Collectives take the communication streams in the order they were handed to MPI, each the
        // lowest stream free at that moment; transfers run on a stream of their own after them.
        std::vector<std::uint32_t> comm;
        for (std::uint32_t i = 0; i < plan.ops.size(); ++i)
            if (plan.ops[i].action == Action::Collective)
                comm.push_back(i);
        std::sort(comm.begin(), comm.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return measured[r][a].start < measured[r][b].start; });
        std::vector<double> streamFree(static_cast<std::size_t>(streams), 0.0);
        std::vector<std::uint16_t> stream(plan.ops.size(), 0);
        for (std::uint32_t i : comm) {
            // The lowest stream free when it started, else the one that frees first.
            std::size_t s = 0;
            while (s < streamFree.size() && streamFree[s] > measured[r][i].start)
                ++s;
            if (s == streamFree.size())
                s = static_cast<std::size_t>(std::min_element(streamFree.begin(), streamFree.end()) -
                                             streamFree.begin());
            streamFree[s] = measured[r][i].end;
            stream[i] = static_cast<std::uint16_t>(s + 1);
        }
        RankBreakdown b;
        std::vector<std::pair<double, double>> computeSpans, commSpans;
        OpEvent* first = events + at;
        for (std::uint32_t i = 0; i < plan.ops.size(); ++i) {
            const MeasuredOp& m = measured[r][i];
            OpEvent e;
            e.op = i;
            const PlannedOp& p = plan.ops[i];
            if (p.action == Action::Wait) {
                e.stream = 0;
                e.ready = e.start = m.start;
                if (m.end > m.start)
                    computeSpans.emplace_back(m.start, m.end);
            } else {
                e.stream = p.action == Action::Collective ? stream[i] : static_cast<std::uint16_t>(streams + 1);
                e.ready = m.start;
                e.start = std::max(m.start, m.end - transfer[r][i]);
                commSpans.emplace_back(e.start, m.end);
            }
            e.end = m.end;
            b.finish = std::max(b.finish, m.end);
            events[at++] = e;
        }
        std::sort(first, events + at, [](const OpEvent& x, const OpEvent& y) {
            return x.start != y.start ? x.start < y.start : x.op < y.op;
        });
        // Union lengths: compute is one stream, communication may overlap itself.
        const auto merged = [](std::vector<std::pair<double, double>> spans) {
            std::sort(spans.begin(), spans.end());
            std::vector<std::pair<double, double>> out;
            for (const auto& s : spans) {
                if (!out.empty() && s.first <= out.back().second)
                    out.back().second = std::max(out.back().second, s.second);
                else
                    out.push_back(s);
            }
            return out;
        };
        const auto computeUnion = merged(computeSpans);
        const auto commUnion = merged(commSpans);
        for (const auto& [s, e] : computeUnion)
            b.compute += e - s;
        for (const auto& [s, e] : commUnion) {
            b.comm += e - s;
            double covered = 0;
            for (const auto& [cs, ce] : computeUnion)
                covered += std::max(0.0, std::min(e, ce) - std::max(s, cs));
            b.exposedComm += (e - s) - covered;
        }
        b.idle = std::max(0.0, b.finish - b.compute - b.exposedComm);
        result->ranks.push_back(b);
        result->stepTime = std::max(result->stepTime, b.finish);
        result->timelines.emplace_back(first, events + at);
        result->rankTimeline.push_back(static_cast<std::uint32_t>(r));
        result->timelineRank.push_back(static_cast<std::int32_t>(r));
        result->simulatedOps += plan.ops.size();
    }
    result->eventStorage = std::move(storage);
    return result;
}

} // namespace

Workload replayedWorkload(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                          const std::vector<std::vector<MeasuredOp>>& measured)
{
    return workloadOf(workload, analyse(workload, cluster, options, measured), measured);
}

std::shared_ptr<const EstimateResult> replayTimelines(const Workload& workload, const Cluster& cluster,
                                                      const ReplayOptions& options,
                                                      const std::vector<std::vector<MeasuredOp>>& measured)
{
    return timelinesOf(cluster, analyse(workload, cluster, options, measured), measured);
}

ReplayedRun replayedRun(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                        const std::vector<std::vector<MeasuredOp>>& measured)
{
    const Analysis analysis = analyse(workload, cluster, options, measured);
    return {workloadOf(workload, analysis, measured), timelinesOf(cluster, analysis, measured)};
}

} // namespace flint::core::replay
