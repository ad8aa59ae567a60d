// SPDX-License-Identifier: MIT
#include "chakra_et.pb.h"
#include "core/chakra.h"
#include "core/detail/chakraattributes.h"
#include "core/error.h"
#include "core/fileio.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

using ChakraProtoMsg::AttributeProto;
using ChakraProtoMsg::Node;

void appendDelimited(const google::protobuf::MessageLite& message, std::string& out)
{
    const std::size_t size = message.ByteSizeLong();
    std::uint64_t length = size;
    do {
        auto byte = static_cast<char>(length & 0x7f);
        length >>= 7;
        if (length)
            byte = static_cast<char>(byte | 0x80);
        out.push_back(byte);
    } while (length);
    const std::size_t at = out.size();
    out.resize(at + size);
    message.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data() + at));
}

AttributeProto* addAttr(Node& node, const char* name)
{
    AttributeProto* attr = node.add_attr();
    attr->set_name(name);
    return attr;
}

std::uint16_t bit(ChakraAttr attr)
{
    return static_cast<std::uint16_t>(attr);
}

/// The attributes ASTRA-sim reads that an op made by a frontend carries, by kind.
std::uint16_t standardAttributes(const Op& op)
{
    switch (op.kind) {
    case OpKind::Compute:
        return bit(ChakraAttr::IsCpuOp) | bit(ChakraAttr::NumOps) | bit(ChakraAttr::TensorSize);
    case OpKind::MemLoad:
    case OpKind::MemStore:
        return bit(ChakraAttr::IsCpuOp) | bit(ChakraAttr::TensorSize);
    case OpKind::Collective:
        // A reduction's arithmetic and memory traffic ride along (ASTRA-sim ignores them on
        // communication nodes), so that our own round trip keeps them.
        return bit(ChakraAttr::IsCpuOp) | bit(ChakraAttr::CommType) | bit(ChakraAttr::CommSize) |
               (op.commSlot >= 0 ? bit(ChakraAttr::PgName) : 0) |
               (op.extras.get().involvedDims.empty() ? 0 : bit(ChakraAttr::InvolvedDim)) |
               (op.flops ? bit(ChakraAttr::NumOps) : 0) | (op.memoryBytes() ? bit(ChakraAttr::TensorSize) : 0);
    case OpKind::Send:
    case OpKind::Recv:
        return bit(ChakraAttr::IsCpuOp) | bit(ChakraAttr::CommSrc) | bit(ChakraAttr::CommDst) |
               bit(ChakraAttr::CommTag) | bit(ChakraAttr::CommSize) | (op.flops ? bit(ChakraAttr::NumOps) : 0) |
               (op.memoryBytes() ? bit(ChakraAttr::TensorSize) : 0);
    case OpKind::Invalid:
    case OpKind::Metadata:
        return 0;
    }
    return 0;
}

void fillIo(const IoInfo& io, ChakraProtoMsg::IOInfo* out)
{
    out->set_values(io.values);
    out->set_shapes(io.shapes);
    out->set_types(io.types);
}

/// Fills `node` from `op` as rank `rank` runs it; `pgName` is the group name its slot is bound to.
void writeNode(const Op& op, const std::string* pgName, Node& node)
{
    node.Clear();
    node.set_id(op.id);
    node.set_name(op.name);
    node.set_type(static_cast<ChakraProtoMsg::NodeType>(op.kind));
    for (auto dep : op.ctrlDeps)
        node.add_ctrl_deps(dep);
    for (auto dep : op.dataDeps)
        node.add_data_deps(dep);
    node.set_start_time_micros(op.startTimeMicros);
    node.set_duration_micros(op.durationMicros);
    const OpExtras& extras = op.extras.get();
    if (extras.inputs)
        fillIo(*extras.inputs, node.mutable_inputs());
    if (extras.outputs)
        fillIo(*extras.outputs, node.mutable_outputs());

    const std::uint16_t known =
        op.hasChakraAttribute(ChakraAttr::FromChakra) ? op.chakraAttributes : standardAttributes(op);
    const auto has = [known](ChakraAttr attr) { return (known & bit(attr)) != 0; };
    // Value kinds are the ones ASTRA-sim's feeder reads (docs/chakra-format.md).
    if (has(ChakraAttr::IsCpuOp))
        addAttr(node, "is_cpu_op")->set_bool_val(op.isCpuOp);
    if (has(ChakraAttr::NumOps))
        addAttr(node, "num_ops")->set_int64_val(static_cast<std::int64_t>(op.flops));
    if (has(ChakraAttr::TensorSize))
        addAttr(node, "tensor_size")->set_uint64_val(op.memoryBytes());
    if (has(ChakraAttr::CommType))
        addAttr(node, "comm_type")->set_int64_val(chakraCommType(op.collective));
    if (has(ChakraAttr::CommPriority))
        addAttr(node, "comm_priority")->set_int32_val(op.commPriority);
    if (has(ChakraAttr::CommSize))
        addAttr(node, "comm_size")->set_int64_val(static_cast<std::int64_t>(op.commBytes));
    if (has(ChakraAttr::CommSrc))
        addAttr(node, "comm_src")->set_int32_val(op.commSrc);
    if (has(ChakraAttr::CommDst))
        addAttr(node, "comm_dst")->set_int32_val(op.commDst);
    if (has(ChakraAttr::CommTag))
        addAttr(node, "comm_tag")->set_int32_val(op.commTag);
    if (has(ChakraAttr::PgName) && pgName)
        addAttr(node, "pg_name")->set_string_val(*pgName);
    if (has(ChakraAttr::InvolvedDim)) {
        auto* list = addAttr(node, "involved_dim")->mutable_bool_list();
        for (bool used : extras.involvedDims)
            list->add_values(used);
    }
    // Our own facts that Chakra has no field for; other tools ignore unknown attributes.
    if (!op.scope.empty())
        addAttr(node, "flint.scope")->set_string_val(op.scope);
    if (op.bytesWritten != 0)
        addAttr(node, "flint.bytes_written")->set_uint64_val(op.bytesWritten);
    if (op.dtype != DType::Unknown)
        addAttr(node, "flint.dtype")->set_string_val(std::string(displayName(op.dtype)));
    if (!op.shape.empty()) {
        auto* list = addAttr(node, "flint.shape")->mutable_int64_list();
        for (auto d : op.shape)
            list->add_values(d);
    }
    for (const Attribute& extra : extras.attributes)
        detail::toProto(extra, *node.add_attr());
}

/// A collective-permute as rank `rank` runs it: a recv from each source and a send to each target.
/// The first node keeps the op's id so that its dependents stay connected; the others get fresh ids.
void writePermute(const Op& op, std::int32_t rank, std::uint64_t& nextId, Node& node, std::string& out)
{
    std::vector<std::int32_t> sources;
    std::vector<std::int32_t> targets;
    for (const auto& [source, target] : op.extras.get().sourceTargetPairs) {
        if (target == rank)
            sources.push_back(source);
        if (source == rank)
            targets.push_back(target);
    }
    bool first = true;
    const auto emit = [&](OpKind kind, std::int32_t src, std::int32_t dst) {
        Op p2p = op;
        p2p.kind = kind;
        p2p.commSrc = src;
        p2p.commDst = dst;
        p2p.commSlot = -1;
        p2p.extras.mutate().sourceTargetPairs.clear();
        p2p.chakraAttributes = 0;
        if (!first) {
            // The op's own arithmetic and memory traffic are counted once, on its first node.
            p2p.id = nextId++;
            p2p.flops = p2p.bytesRead = p2p.bytesWritten = 0;
        }
        first = false;
        writeNode(p2p, nullptr, node);
        appendDelimited(node, out);
    };
    for (std::int32_t source : sources)
        emit(OpKind::Recv, source, rank);
    for (std::int32_t target : targets)
        emit(OpKind::Send, rank, target);
    if (first) {
        // This rank neither sends nor receives: a compute node keeps the dependencies intact and
        // the op's local work (XLA still writes the output buffer).
        Op idle = op;
        idle.kind = OpKind::Compute;
        idle.commBytes = 0;
        idle.extras.mutate().sourceTargetPairs.clear();
        idle.commSlot = -1;
        idle.chakraAttributes = 0;
        writeNode(idle, nullptr, node);
        appendDelimited(node, out);
    }
}

bool isDecimal(const std::string& name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::string serializeChakraRank(const Workload& workload, std::size_t rank)
{
    const Program& program = workload.programOf(rank);
    const RankBinding& binding = workload.ranks[rank];
    std::string out;
    out.reserve(program.ops.size() * 96 + 64);

    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version(program.schemaVersion);
    for (const Attribute& attr : program.metadataAttributes)
        detail::toProto(attr, *metadata.add_attr());
    appendDelimited(metadata, out);

    std::uint64_t nextId = 0;
    for (const Op& op : program.ops)
        nextId = std::max(nextId, op.id + 1);

    // The rank's own recorded times, when it runs a shared program at its own speed.
    const auto applyTimes = [&](const Op& op, Node& node) {
        if (!binding.times)
            return;
        const auto index = static_cast<std::size_t>(&op - program.ops.data());
        node.set_start_time_micros(binding.times->startMicros[index]);
        node.set_duration_micros(binding.times->durationMicros[index]);
    };
    Node node;
    for (const Op& op : program.ops) {
        if (op.kind == OpKind::Collective && op.collective == CollectiveKind::CollectivePermute) {
            writePermute(op, static_cast<std::int32_t>(rank), nextId, node, out);
            continue;
        }
        if ((op.kind == OpKind::Send || op.kind == OpKind::Recv) && op.commSlot >= 0) {
            // Chakra names peers by global rank.
            Op p2p = op;
            std::tie(p2p.commSrc, p2p.commDst) = workload.endpointsOf(rank, op);
            p2p.commSlot = -1;
            writeNode(p2p, nullptr, node);
            applyTimes(op, node);
            appendDelimited(node, out);
            continue;
        }
        const std::string* pgName = nullptr;
        if (op.commSlot >= 0)
            pgName = &workload.groups.at(binding.slotGroups.at(static_cast<std::size_t>(op.commSlot))).name;
        writeNode(op, pgName, node);
        applyTimes(op, node);
        appendDelimited(node, out);
    }
    return out;
}

std::string commGroupsJson(const Workload& workload)
{
    std::set<std::uint32_t> used;
    for (const RankBinding& binding : workload.ranks)
        used.insert(binding.slotGroups.begin(), binding.slotGroups.end());
    // Keys in numeric order when they are numbers, as ASTRA-sim's examples write them.
    std::vector<std::uint32_t> order(used.begin(), used.end());
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::string& x = workload.groups[a].name;
        const std::string& y = workload.groups[b].name;
        if (isDecimal(x) && isDecimal(y) && x.size() != y.size())
            return x.size() < y.size();
        return x < y;
    });
    // One group per line: readable, and small for thousands of ranks.
    std::string text = "{";
    for (std::size_t i = 0; i < order.size(); ++i) {
        const CommGroup& group = workload.groups[order[i]];
        text += i ? ",\n  " : "\n  ";
        text += nlohmann::json(group.name).dump() + ": " + nlohmann::json(group.ranks).dump();
    }
    return text + "\n}\n";
}

std::vector<std::string> writeChakraWorkload(const Workload& workload, const std::string& prefix,
                                             OutputTransaction& output, const JobControl& control)
{
    // The prefix names files beside it; a prefix that is itself a device ("-o /dev/full") means the
    // user meant that device, not PREFIX.0.et files in /dev.
    {
        std::error_code ec;
        const auto existing = std::filesystem::status(prefix, ec);
        if (!ec && std::filesystem::exists(existing) && !std::filesystem::is_regular_file(existing) &&
            !std::filesystem::is_directory(existing))
            throw OutputError("refusing to write " + prefix + ".RANK.et: " + prefix +
                              " exists and is not a regular file or folder");
    }
    if (const std::string problem = workload.validate(); !problem.empty())
        throw OutputError("cannot write an inconsistent workload: " + problem);
    std::vector<std::string> written;
    const std::size_t rankCount = workload.rankCount();
    for (std::size_t rank = 0; rank < rankCount; ++rank) {
        control.check();
        const std::string path = prefix + "." + std::to_string(rank) + ".et";
        output.write(path, serializeChakraRank(workload, rank));
        written.push_back(path);
        control.report(static_cast<double>(rank + 1) / static_cast<double>(rankCount));
    }
    const bool anyGroup = std::any_of(workload.ranks.begin(), workload.ranks.end(),
                                      [](const RankBinding& b) { return !b.slotGroups.empty(); });
    if (anyGroup) {
        const std::string path = prefix + std::string(kCommGroupsSuffix);
        output.write(path, commGroupsJson(workload));
        written.push_back(path);
    }
    return written;
}

std::vector<std::string> writeChakraWorkload(const Workload& workload, const std::string& prefix,
                                             const JobControl& control)
{
    OutputTransaction output;
    std::vector<std::string> written = writeChakraWorkload(workload, prefix, output, control);
    output.commit();
    return written;
}

} // namespace flint::core
