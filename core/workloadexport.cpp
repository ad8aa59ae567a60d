// SPDX-License-Identifier: MIT
#include "core/workloadexport.h"

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

using Json = nlohmann::ordered_json;

Json attributeJson(const Attribute& a)
{
    Json json{{"name", a.name}, {"kind", static_cast<int>(a.kind)}};
    if (!a.docString.empty())
        json["doc_string"] = a.docString;
    if (!a.ints.empty())
        json["ints"] = a.ints;
    if (!a.uints.empty())
        json["uints"] = a.uints;
    if (!a.reals.empty())
        json["reals"] = a.reals;
    if (!a.strings.empty()) {
        // Bytes may hold anything; JSON strings must be UTF-8, so keep them as byte arrays.
        const bool binary = a.kind == AttributeKind::Bytes || a.kind == AttributeKind::BytesList;
        if (binary) {
            Json lists = Json::array();
            for (const std::string& s : a.strings)
                lists.push_back(std::vector<unsigned char>(s.begin(), s.end()));
            json["bytes"] = lists;
        } else {
            json["strings"] = a.strings;
        }
    }
    return json;
}

Json opJson(const Op& op)
{
    Json json{{"id", op.id}, {"name", op.name}, {"kind", std::string(chakraName(op.kind))}};
    if (!op.scope.empty())
        json["scope"] = op.scope;
    if (op.kind == OpKind::Collective)
        json["collective"] = std::string(chakraName(op.collective));
    if (op.isCpuOp)
        json["is_cpu_op"] = true;
    if (op.flops)
        json["flops"] = op.flops;
    if (op.bytesRead)
        json["bytes_read"] = op.bytesRead;
    if (op.bytesWritten)
        json["bytes_written"] = op.bytesWritten;
    if (op.commBytes)
        json["comm_bytes"] = op.commBytes;
    if (op.commSlot >= 0)
        json["comm_slot"] = op.commSlot;
    if (op.kind == OpKind::Send || op.kind == OpKind::Recv)
        json["peer"] = {
            {"src", op.commSrc}, {"dst", op.commDst}, {"tag", op.commTag}, {"relative_to_slot", op.commSlot >= 0}};
    const OpExtras& extras = op.extras.get();
    if (!extras.sourceTargetPairs.empty())
        json["source_target_pairs"] = extras.sourceTargetPairs;
    if (!extras.involvedDims.empty())
        json["involved_dims"] = extras.involvedDims;
    if (op.startTimeMicros)
        json["start_time_micros"] = op.startTimeMicros;
    if (op.durationMicros)
        json["duration_micros"] = op.durationMicros;
    if (!op.dataDeps.empty())
        json["data_deps"] = op.dataDeps;
    if (!op.ctrlDeps.empty())
        json["ctrl_deps"] = op.ctrlDeps;
    if (op.dtype != DType::Unknown)
        json["dtype"] = std::string(displayName(op.dtype));
    if (!op.shape.empty())
        json["shape"] = op.shape;
    for (const auto& [key, io] : {std::pair{"inputs", &extras.inputs}, std::pair{"outputs", &extras.outputs}})
        if (*io)
            json[key] = {{"values", (*io)->values}, {"shapes", (*io)->shapes}, {"types", (*io)->types}};
    if (!extras.attributes.empty()) {
        Json attrs = Json::array();
        for (const Attribute& a : extras.attributes)
            attrs.push_back(attributeJson(a));
        json["attributes"] = attrs;
    }
    return json;
}

std::string dotEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '"' || c == '\\')
            out.push_back('\\');
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out.push_back(c);
    }
    return out;
}

const char* fillColour(const Op& op)
{
    switch (op.kind) {
    case OpKind::Compute:
        return op.isCpuOp ? "#d9d9d9" : "#9ecae1";
    case OpKind::MemLoad:
    case OpKind::MemStore:
        return "#c7e9c0";
    case OpKind::Send:
    case OpKind::Recv:
        return "#fdd0a2";
    case OpKind::Collective:
        return "#fc9272";
    case OpKind::Invalid:
    case OpKind::Metadata:
        return "#ffffff";
    }
    return "#ffffff";
}

} // namespace

std::string workloadToJson(const Workload& workload)
{
    Json json;
    Json programs = Json::array();
    for (const auto& program : workload.programs) {
        Json p{{"name", program->name}, {"schema_version", program->schemaVersion}};
        if (!program->metadataAttributes.empty()) {
            Json attrs = Json::array();
            for (const Attribute& a : program->metadataAttributes)
                attrs.push_back(attributeJson(a));
            p["metadata_attributes"] = attrs;
        }
        p["comm_slots"] = program->commSlots;
        Json ops = Json::array();
        for (const Op& op : program->ops)
            ops.push_back(opJson(op));
        p["ops"] = std::move(ops);
        programs.push_back(std::move(p));
    }
    json["programs"] = std::move(programs);
    Json ranks = Json::array();
    for (const RankBinding& binding : workload.ranks) {
        Json slots = Json::array();
        for (std::uint32_t g : binding.slotGroups)
            slots.push_back(workload.groups[g].name);
        Json rank{{"program", binding.program}, {"groups", slots}};
        if (binding.times) { // the rank's own recorded times for its program's ops
            rank["start_time_micros"] = binding.times->startMicros;
            rank["duration_micros"] = binding.times->durationMicros;
        }
        ranks.push_back(std::move(rank));
    }
    json["ranks"] = std::move(ranks);
    Json groups = Json::object();
    for (const CommGroup& group : workload.groups)
        groups[group.name] = group.ranks;
    json["groups"] = std::move(groups);
    return json.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string rankToDot(const Workload& workload, std::size_t rank)
{
    const Program& program = workload.programOf(rank);
    const auto index = program.indexById();
    std::ostringstream out;
    out << "digraph \"" << dotEscape(program.name) << " rank " << rank << "\" {\n";
    out << "  graph [rankdir=TB, fontname=\"Helvetica\"];\n";
    out << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n";

    std::map<std::string, std::vector<std::uint32_t>> byScope;
    for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
        const std::string& scope = program.ops[i].scope;
        byScope[scope.substr(0, scope.find('/'))].push_back(i);
    }
    std::size_t cluster = 0;
    for (const auto& [scope, members] : byScope) {
        const std::string indent = scope.empty() ? "  " : "    ";
        if (!scope.empty())
            out << "  subgraph cluster_" << cluster++ << " {\n    label=\"" << dotEscape(scope) << "\";\n";
        for (std::uint32_t i : members) {
            const Op& op = program.ops[i];
            std::string label = dotEscape(op.name.empty() ? std::string(displayName(op.kind)) : op.name);
            if (op.kind == OpKind::Collective) {
                label += "\\n" + std::string(displayName(op.collective)) + " " + std::to_string(op.commBytes) + " B";
                if (const CommGroup* group = workload.groupOf(rank, op))
                    label += " group " + dotEscape(group->name);
            } else if (op.kind == OpKind::Send || op.kind == OpKind::Recv) {
                const auto [src, dst] = workload.endpointsOf(rank, op);
                label += "\\n" + std::string(displayName(op.kind)) + " " + std::to_string(src) + "->" +
                         std::to_string(dst) + " " + std::to_string(op.commBytes) + " B";
            }
            out << indent << "n" << i << " [label=\"" << label << "\", fillcolor=\"" << fillColour(op) << "\"];\n";
        }
        if (!scope.empty())
            out << "  }\n";
    }
    for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
        const Op& op = program.ops[i];
        for (auto dep : op.dataDeps)
            if (auto it = index.find(dep); it != index.end())
                out << "  n" << it->second << " -> n" << i << ";\n";
        for (auto dep : op.ctrlDeps)
            if (auto it = index.find(dep); it != index.end())
                out << "  n" << it->second << " -> n" << i << " [style=dashed];\n";
    }
    out << "}\n";
    return out.str();
}

} // namespace flint::core
