// SPDX-License-Identifier: MIT
#include "core/estimator/estimateexport.h"

#include "core/estimator/collectivemodel.h"
#include "core/estimator/linkutilisation.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

/// Ranks per timeline, so that totals over ranks cost one pass over each timeline.
std::vector<std::uint64_t> ranksPerTimeline(const EstimateResult& result)
{
    std::vector<std::uint64_t> count(result.timelines.size(), 0);
    for (std::uint32_t t : result.rankTimeline)
        ++count[t];
    return count;
}

std::string opLabel(const Op& op)
{
    if (op.kind == OpKind::Collective)
        return std::string(chakraName(op.collective));
    return std::string(chakraName(op.kind));
}

} // namespace

MeanBreakdown meanBreakdown(const EstimateResult& result)
{
    MeanBreakdown m;
    for (const RankBreakdown& r : result.ranks) {
        const double afterLastOp = std::max(0.0, result.stepTime - r.finish);
        m.compute += r.compute;
        m.exposedComm += r.exposedComm;
        m.idle += r.idle + afterLastOp;
        m.afterLastOp += afterLastOp;
        m.contention += r.contention;
        m.linkSharing += r.linkSharing;
        m.host += r.host;
    }
    const double n = static_cast<double>(std::max<std::size_t>(1, result.ranks.size()));
    m.compute /= n;
    m.exposedComm /= n;
    m.idle /= n;
    m.afterLastOp /= n;
    m.contention /= n;
    m.linkSharing /= n;
    m.host /= n;
    return m;
}

std::vector<OpTotal> topOps(const EstimateResult& result, const Workload& workload, std::size_t limit)
{
    // Sum per op of each program first (timelines of ranks that share a program add into one
    // array), then per name: one name lookup per distinct op instead of one per event.
    const std::vector<std::uint64_t> weight = ranksPerTimeline(result);
    std::vector<std::vector<double>> seconds(workload.programs.size());
    std::vector<std::vector<std::uint64_t>> count(workload.programs.size());
    for (std::size_t t = 0; t < result.timelines.size(); ++t) {
        const std::size_t p = workload.ranks[static_cast<std::size_t>(result.timelineRank[t])].program;
        if (seconds[p].empty()) {
            seconds[p].assign(workload.programs[p]->ops.size(), 0.0);
            count[p].assign(workload.programs[p]->ops.size(), 0);
        }
        const double w = static_cast<double>(weight[t]);
        for (const OpEvent& e : result.timelines[t]) {
            seconds[p][e.op] += (e.end - e.start) * w;
            count[p][e.op] += weight[t];
        }
    }
    std::unordered_map<std::string_view, OpTotal> totals;
    for (std::size_t p = 0; p < seconds.size(); ++p) {
        const Program& program = *workload.programs[p];
        for (std::size_t i = 0; i < seconds[p].size(); ++i) {
            if (count[p][i] == 0)
                continue;
            const Op& op = program.ops[i];
            OpTotal& total = totals[op.name];
            total.kind = op.kind;
            total.collective = op.collective;
            total.count += count[p][i];
            total.seconds += seconds[p][i];
        }
    }
    std::vector<OpTotal> out;
    out.reserve(totals.size());
    for (auto& [name, total] : totals) {
        total.name = std::string(name);
        out.push_back(std::move(total));
    }
    std::sort(out.begin(), out.end(), [](const OpTotal& a, const OpTotal& b) {
        return a.seconds != b.seconds ? a.seconds > b.seconds : a.name < b.name;
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::string chromeTraceJson(const EstimateResult& result, const Workload& workload, std::size_t maxRanks,
                            const Cluster* cluster)
{
    // The protocol of each distinct collective (group, kind, bytes), found once.
    std::map<std::tuple<const CommGroup*, CollectiveKind, std::uint64_t>, std::string> protocols;
    const auto protocolOf = [&](std::size_t rank, const Op& op) -> const std::string& {
        const CommGroup* group = workload.groupOf(rank, op);
        auto [it, added] = protocols.try_emplace({group, op.collective, op.commBytes});
        if (added && op.collective != CollectiveKind::CollectivePermute) {
            std::vector<std::int32_t> members = workload.membersOf(rank, op);
            std::sort(members.begin(), members.end());
            it->second = CollectiveModel(*cluster).collective(op.collective, op.commBytes, members).protocol;
        }
        return it->second;
    };
    const std::size_t ranks = std::min(result.ranks.size(), maxRanks);
    std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    const auto emit = [&](const nlohmann::json& event) {
        if (!first)
            out += ",\n";
        first = false;
        out += event.dump();
    };
    // Flow ids: one per collective instance (group, ordinal within the rank's sequence of that group)
    // and per send/recv pair, so that Perfetto draws arrows between the members.
    std::map<std::tuple<std::int64_t, std::uint64_t, std::int32_t>, std::uint64_t> flowIds;
    std::map<std::uint64_t, std::vector<std::tuple<std::size_t, double, std::uint16_t>>>
        flowMembers; // id -> (rank, ts, tid)
    for (std::size_t r = 0; r < ranks; ++r) {
        const Program& program = workload.programOf(r);
        const auto pid = static_cast<std::int64_t>(r);
        emit({{"ph", "M"}, {"pid", pid}, {"name", "process_name"}, {"args", {{"name", "rank " + std::to_string(r)}}}});
        emit({{"ph", "M"}, {"pid", pid}, {"name", "process_sort_index"}, {"args", {{"sort_index", pid}}}});
        std::uint16_t streams = 0;
        for (const OpEvent& e : result.eventsOf(r))
            streams = std::max<std::uint16_t>(streams, e.stream);
        for (std::uint16_t s = 0; s <= streams; ++s)
            emit({{"ph", "M"},
                  {"pid", pid},
                  {"tid", s},
                  {"name", "thread_name"},
                  {"args", {{"name", s == 0 ? std::string("compute") : "comm " + std::to_string(s)}}}});
        std::map<std::int64_t, std::uint64_t> ordinalPerGroup;
        std::map<std::tuple<int, std::int32_t, std::int32_t>, std::uint64_t> ordinalPerPeer;
        // Events are in start order; ordinals must follow program order, as the simulator matches them.
        std::vector<const OpEvent*> byOp;
        for (const OpEvent& e : result.eventsOf(r))
            byOp.push_back(&e);
        std::sort(byOp.begin(), byOp.end(), [](const OpEvent* a, const OpEvent* b) { return a->op < b->op; });
        for (const OpEvent* e : byOp) {
            const Op& op = program.ops[e->op];
            nlohmann::json slice{{"ph", "X"},
                                 {"pid", pid},
                                 {"tid", e->stream},
                                 {"name", op.name},
                                 {"cat", opLabel(op)},
                                 {"ts", e->start * 1e6},
                                 {"dur", (e->end - e->start) * 1e6}};
            nlohmann::json args{{"op_id", op.id}};
            if (op.isCommunication()) {
                args["comm_bytes"] = op.commBytes;
                if (cluster && op.kind == OpKind::Collective)
                    if (const std::string& protocol = protocolOf(r, op); !protocol.empty())
                        args["protocol"] = protocol;
                if (e->start > e->ready)
                    args["waited_us"] = (e->start - e->ready) * 1e6;
            } else {
                args["flops"] = op.flops;
                args["bytes"] = op.memoryBytes();
            }
            slice["args"] = std::move(args);
            emit(slice);
            std::tuple<std::int64_t, std::uint64_t, std::int32_t> key;
            if (op.kind == OpKind::Collective) {
                const CommGroup* group = workload.groupOf(r, op);
                const std::int64_t g = group ? static_cast<std::int64_t>(group - workload.groups.data()) : -1;
                key = {g, ordinalPerGroup[g]++, -1};
            } else if (op.kind == OpKind::Send || op.kind == OpKind::Recv) {
                const bool send = op.kind == OpKind::Send;
                const std::int32_t peer = workload.peerOf(r, op);
                const std::int32_t src = send ? static_cast<std::int32_t>(r) : peer;
                const std::int32_t dst = send ? peer : static_cast<std::int32_t>(r);
                const std::uint64_t n = ordinalPerPeer[{static_cast<int>(op.kind), send ? dst : src, op.commTag}]++;
                key = {-2 - (static_cast<std::int64_t>(src) << 24 | dst), n, op.commTag};
            } else {
                continue;
            }
            const auto [it, inserted] = flowIds.try_emplace(key, flowIds.size() + 1);
            flowMembers[it->second].emplace_back(r, e->start * 1e6, e->stream);
        }
    }
    for (const auto& [id, members] : flowMembers) {
        if (members.size() < 2)
            continue;
        for (std::size_t i = 0; i < members.size(); ++i) {
            const char* ph = i == 0 ? "s" : (i + 1 == members.size() ? "f" : "t");
            const auto& [rank, ts, tid] = members[i];
            nlohmann::json flow{{"ph", ph},     {"id", id}, {"pid", rank},
                                {"tid", tid},   {"ts", ts}, {"name", "collective"},
                                {"cat", "flow"}};
            if (i > 0)
                flow["bp"] = "e";
            emit(flow);
        }
    }
    out += "\n]}\n";
    return out;
}

std::string breakdownCsv(const EstimateResult& result)
{
    std::string out = "rank,finish_s,compute_s,exposed_comm_s,idle_s,comm_s,contention_s,link_sharing_s,host_s\n";
    char line[256];
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        const RankBreakdown& b = result.ranks[r];
        std::snprintf(line, sizeof line, "%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", r, b.finish, b.compute,
                      b.exposedComm, b.idle, b.comm, b.contention, b.linkSharing, b.host);
        out += line;
    }
    return out;
}

std::string commMatrixCsv(const CommMatrix& m)
{
    const bool seconds = m.seconds.size() == m.bytes.size();
    std::string out = seconds ? "src,dst,bytes,seconds\n" : "src,dst,bytes\n";
    char line[160];
    for (std::int32_t i = 0; i < m.blocks; ++i)
        for (std::int32_t j = 0; j < m.blocks; ++j)
            if (const double b = m.at(i, j); b > 0) {
                if (seconds)
                    std::snprintf(line, sizeof line, "%d,%d,%.17g,%.17g\n", i * m.blockSize, j * m.blockSize, b,
                                  m.seconds[m.index(i, j)]);
                else
                    std::snprintf(line, sizeof line, "%d,%d,%.17g\n", i * m.blockSize, j * m.blockSize, b);
                out += line;
            }
    return out;
}

std::string estimateJson(const EstimateResult& result, const Workload& workload, const Cluster& cluster,
                         std::size_t topLimit)
{
    nlohmann::ordered_json json;
    json["step_time_s"] = result.stepTime;
    json["cost_model"] = result.costModel;
    auto& c = json["cluster"];
    c["name"] = cluster.name;
    c["device"] = cluster.device.name;
    c["topology"] = cluster.topology.describe();
    c["npus"] = cluster.topology.npuCount();
    json["rank_count"] = result.ranks.size();
    json["distinct_timelines"] = result.timelines.size();
    auto& ranks = json["ranks"] = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        const RankBreakdown& b = result.ranks[r];
        ranks.push_back({{"rank", r},
                         {"finish_s", b.finish},
                         {"compute_s", b.compute},
                         {"exposed_comm_s", b.exposedComm},
                         {"idle_s", b.idle},
                         {"comm_s", b.comm},
                         {"contention_s", b.contention},
                         {"link_sharing_s", b.linkSharing},
                         {"host_s", b.host}});
    }
    auto& top = json["top_ops"] = nlohmann::ordered_json::array();
    for (const OpTotal& t : topOps(result, workload, topLimit))
        top.push_back({{"name", t.name},
                       {"kind", t.kind == OpKind::Collective ? std::string(chakraName(t.collective))
                                                             : std::string(chakraName(t.kind))},
                       {"count", t.count},
                       {"total_s", t.seconds}});
    auto& path = json["critical_path"] = nlohmann::ordered_json::array();
    static const char* const kReasons[] = {"start", "dependency", "stream", "peer"};
    for (const CriticalStep& s : result.criticalPath) {
        const Op& op = workload.programOf(static_cast<std::size_t>(s.rank)).ops[s.op];
        path.push_back({{"rank", s.rank},
                        {"op", op.name},
                        {"op_id", op.id},
                        {"start_s", s.start},
                        {"end_s", s.end},
                        {"reason", kReasons[static_cast<int>(s.reason)]}});
    }
    json["traffic_per_dim_bytes"] = result.bytesPerDim;
    if (const LinkUtilisation links = linkUtilisation(workload, cluster, result); !links.dims.empty()) {
        auto& out = json["link_utilisation"] = nlohmann::ordered_json::array();
        for (std::size_t d = 0; d < links.dims.size(); ++d)
            out.push_back({{"dim", d}, {"average", links.dims[d].average}, {"busiest", links.dims[d].peak}});
    }
    return json.dump(2) + "\n";
}

} // namespace flint::core
