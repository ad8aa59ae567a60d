// SPDX-License-Identifier: MIT
#include "core/workloadsummary.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

std::string withSeparators(std::uint64_t value)
{
    std::string digits = std::to_string(value);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

std::string describeRanks(const std::vector<std::int32_t>& ranks)
{
    std::string text;
    std::size_t i = 0;
    while (i < ranks.size()) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!text.empty())
            text += ",";
        text += j - i >= 2 ? std::to_string(ranks[i]) + "-" + std::to_string(ranks[j]) : std::to_string(ranks[i]);
        if (j - i == 1)
            text += "," + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

} // namespace

WorkloadSummary summarize(const Workload& workload, const JobControl& control)
{
    WorkloadSummary summary;
    summary.ranks = workload.rankCount();
    summary.distinctPrograms = workload.programs.size();

    std::vector<std::uint64_t> ranksPerProgram(workload.programs.size(), 0);
    for (const RankBinding& binding : workload.ranks)
        ++ranksPerProgram[binding.program];

    std::vector<std::uint64_t> chainOfProgram(workload.programs.size(), 0);
    for (std::size_t p = 0; p < workload.programs.size(); ++p) {
        control.check();
        const std::uint64_t weight = ranksPerProgram[p];
        if (weight == 0)
            continue;
        const Program& program = *workload.programs[p];
        if (summary.schemaVersion.empty())
            summary.schemaVersion = program.schemaVersion;
        // PyTorch-converted traces leave the version field empty and carry a "schema" attribute.
        for (const Attribute& attr : program.metadataAttributes)
            if (summary.schemaVersion.empty() && attr.name == "schema")
                summary.schemaVersion = attr.asString();
        summary.ops += weight * program.ops.size();
        for (const Op& op : program.ops) {
            summary.opsByKind[op.kind] += weight;
            summary.flops += weight * op.flops;
            summary.memoryBytes += weight * op.memoryBytes();
            summary.cpuOps += op.isCpuOp ? weight : 0;
            if (op.kind == OpKind::Collective) {
                auto& totals = summary.collectives[op.collective];
                totals.count += weight;
                totals.bytes += weight * op.commBytes;
            } else if (op.kind == OpKind::Send) {
                summary.sends.count += weight;
                summary.sends.bytes += weight * op.commBytes;
            } else if (op.kind == OpKind::Recv) {
                summary.recvs.count += weight;
                summary.recvs.bytes += weight * op.commBytes;
            }
        }
        const auto chain = program.longestDependencyChain();
        chainOfProgram[p] = chain.length;
        summary.opsOnCycles += weight * chain.opsOnCycles;
        control.report(static_cast<double>(p + 1) / static_cast<double>(workload.programs.size()));
    }
    for (std::size_t rank = 0; rank < workload.rankCount(); ++rank) {
        const std::uint64_t chain = chainOfProgram[workload.ranks[rank].program];
        if (chain > summary.longestChain) {
            summary.longestChain = chain;
            summary.longestChainRank = rank;
        }
    }
    std::set<std::uint32_t> used;
    for (const RankBinding& binding : workload.ranks)
        used.insert(binding.slotGroups.begin(), binding.slotGroups.end());
    for (std::uint32_t g : used)
        summary.groups.push_back(workload.groups[g]);
    return summary;
}

WorkloadSummary summarizePerRank(const Workload& workload, const JobControl& control)
{
    if (workload.programs.size() != 1)
        throw std::invalid_argument("a per-rank summary needs every rank to run one program");
    WorkloadSummary s = summarize(workload, control);
    const std::uint64_t n = std::max<std::uint64_t>(1, s.ranks);
    s.scope = SummaryScope::PerRank;
    s.ops /= n;
    for (auto& [kind, count] : s.opsByKind)
        count /= n;
    for (auto& [kind, totals] : s.collectives) {
        totals.count /= n;
        totals.bytes /= n;
    }
    for (CollectiveTotals* t : {&s.sends, &s.recvs}) {
        t->count /= n;
        t->bytes /= n;
    }
    s.flops /= n;
    s.memoryBytes /= n;
    s.cpuOps /= n;
    s.opsOnCycles /= n;
    return s;
}

std::string toJson(const WorkloadSummary& s)
{
    nlohmann::ordered_json json;
    json["ranks"] = s.ranks;
    json["scope"] = s.scope == SummaryScope::PerRank ? "per_rank" : "all_ranks";
    json["distinct_programs"] = s.distinctPrograms;
    json["schema_version"] = s.schemaVersion;
    json["total_nodes"] = s.ops;
    auto& nodes = json["nodes"] = nlohmann::ordered_json::object();
    for (const auto& [kind, count] : s.opsByKind)
        nodes[std::string(chakraName(kind))] = count;
    auto& collectives = json["collectives"] = nlohmann::ordered_json::object();
    for (const auto& [kind, totals] : s.collectives)
        collectives[std::string(chakraName(kind))] = {{"count", totals.count}, {"bytes", totals.bytes}};
    json["send"] = {{"count", s.sends.count}, {"bytes", s.sends.bytes}};
    json["recv"] = {{"count", s.recvs.count}, {"bytes", s.recvs.bytes}};
    json["cpu_nodes"] = s.cpuOps;
    json["flops"] = s.flops;
    if (s.scope == SummaryScope::PerRank)
        json["flops_per_rank"] = s.flops;
    json["memory_bytes"] = s.memoryBytes;
    auto& groups = json["groups"] = nlohmann::ordered_json::object();
    for (const CommGroup& g : s.groups)
        groups[g.name] = g.ranks;
    json["longest_dependency_chain"] = {{"nodes", s.longestChain}, {"rank", s.longestChainRank}};
    json["nodes_on_dependency_cycles"] = s.opsOnCycles;
    return json.dump(2) + "\n";
}

std::string toText(const WorkloadSummary& s)
{
    std::ostringstream out;
    out << "ranks:                    " << s.ranks << " (" << s.distinctPrograms << " distinct program"
        << (s.distinctPrograms == 1 ? "" : "s") << ")\n";
    out << "schema version:           " << (s.schemaVersion.empty() ? "(none)" : s.schemaVersion) << "\n";
    const char* scope = s.scope == SummaryScope::PerRank ? " per rank" : " in all ranks";
    out << "nodes:                    " << withSeparators(s.ops) << scope << "\n";
    for (const auto& [kind, count] : s.opsByKind)
        out << "  " << chakraName(kind) << std::string(24 - chakraName(kind).size(), ' ') << withSeparators(count)
            << "\n";
    if (s.cpuOps)
        out << "  of which CPU ops        " << withSeparators(s.cpuOps) << "\n";
    out << "collectives:";
    if (s.collectives.empty())
        out << "              none";
    out << "\n";
    for (const auto& [kind, totals] : s.collectives)
        out << "  " << chakraName(kind) << std::string(24 - chakraName(kind).size(), ' ')
            << withSeparators(totals.count) << " ops, " << withSeparators(totals.bytes) << " bytes\n";
    if (s.sends.count || s.recvs.count)
        out << "point-to-point:           " << withSeparators(s.sends.count) << " sends ("
            << withSeparators(s.sends.bytes) << " bytes), " << withSeparators(s.recvs.count) << " recvs\n";
    out << "compute:                  " << withSeparators(s.flops) << " FLOPs, " << withSeparators(s.memoryBytes)
        << " bytes of memory traffic" << scope << "\n";
    out << "groups:";
    if (s.groups.empty())
        out << "                   none (collectives span all ranks)";
    out << "\n";
    constexpr std::size_t kGroupsShown = 16;
    for (std::size_t i = 0; i < s.groups.size() && i < kGroupsShown; ++i)
        out << "  " << s.groups[i].name << ": [" << describeRanks(s.groups[i].ranks) << "]\n";
    if (s.groups.size() > kGroupsShown)
        out << "  ... and " << s.groups.size() - kGroupsShown << " more (--json lists them all)\n";
    out << "longest dependency chain: " << withSeparators(s.longestChain) << (s.longestChain == 1 ? " node" : " nodes")
        << " (rank " << s.longestChainRank << ")\n";
    if (s.opsOnCycles)
        out << "warning: " << withSeparators(s.opsOnCycles)
            << " nodes sit on or behind a dependency cycle and are not in any chain\n";
    return out.str();
}

} // namespace flint::core
