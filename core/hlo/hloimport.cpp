// SPDX-License-Identifier: MIT
#include "core/hlo/hloimport.h"

#include "core/error.h"
#include "core/hlo/devicegroups.h"
#include "core/hlo/hlocost.h"
#include "core/hlo/hloparser.h"
#include "core/partition/hlopartition.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace flint::core::hlo {
namespace {

/// Devices of the largest workload an HLO module is lowered for (replicas x partitions).
constexpr std::int64_t kMaxDevices = std::int64_t{1} << 20;

/// Op ids a value depends on, sorted and unique.
using Deps = std::vector<std::uint64_t>;

void mergeInto(Deps& into, const Deps& from)
{
    if (from.empty())
        return;
    if (into.empty()) {
        into = from;
        return;
    }
    Deps merged;
    merged.reserve(into.size() + from.size());
    std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged));
    into.swap(merged);
}

/// The ops an HLO value comes from, tracked per top-level tuple element so that a loop's state
/// elements keep their own dependencies.
struct Value {
    std::vector<Deps> parts;
    /// Integer (or predicate) scalars whose value is known while lowering, one per part: a loop's
    /// counter, bound and step as constants, folded arithmetic and loop-invariant state carry them,
    /// so that a loop whose bound an enclosing loop set still counts its iterations.
    std::vector<std::optional<std::int64_t>> known;

    std::optional<std::int64_t> knownAt(std::size_t k) const { return k < known.size() ? known[k] : std::nullopt; }
    std::optional<std::int64_t> scalar() const
    {
        return parts.size() <= 1 && known.size() == 1 ? known[0] : std::nullopt;
    }

    Deps all() const
    {
        Deps deps;
        for (const Deps& part : parts)
            mergeInto(deps, part);
        return deps;
    }
    static Value of(Deps deps)
    {
        Value value;
        value.parts.push_back(std::move(deps));
        return value;
    }
};

std::string_view baseOpcode(std::string_view opcode)
{
    for (std::string_view suffix : {"-start", "-done", "-update"})
        if (opcode.ends_with(suffix)) {
            opcode.remove_suffix(suffix.size());
            break;
        }
    return opcode;
}

std::optional<CollectiveKind> collectiveKind(std::string_view op)
{
    if (op == "all-reduce")
        return CollectiveKind::AllReduce;
    if (op == "all-gather")
        return CollectiveKind::AllGather;
    if (op == "reduce-scatter")
        return CollectiveKind::ReduceScatter;
    if (op == "all-to-all" || op == "ragged-all-to-all")
        return CollectiveKind::AllToAll;
    if (op == "collective-permute")
        return CollectiveKind::CollectivePermute;
    if (op == "collective-broadcast")
        return CollectiveKind::CollectiveBroadcast;
    return std::nullopt;
}

std::optional<std::int64_t> scalarLiteral(const Instruction& instruction)
{
    if (instruction.opcode != "constant")
        return std::nullopt;
    std::string_view text = instruction.literal;
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data())
        return std::nullopt;
    return value;
}

/// Known scalars per value: one per tuple element, or one for an array.
using Known = std::vector<std::optional<std::int64_t>>;

bool isIntegral(DType type)
{
    switch (type) {
    case DType::Pred:
    case DType::S8:
    case DType::S16:
    case DType::S32:
    case DType::S64:
    case DType::U8:
    case DType::U16:
    case DType::U32:
    case DType::U64:
        return true;
    default:
        return false;
    }
}

/// The literal of an integer or predicate scalar constant.
std::optional<std::int64_t> knownLiteral(const Instruction& instruction)
{
    if (!instruction.shape.isArray() || !instruction.shape.dims.empty() || !isIntegral(instruction.shape.elementType))
        return std::nullopt;
    if (instruction.literal == "true")
        return 1;
    if (instruction.literal == "false")
        return 0;
    return scalarLiteral(instruction);
}

/// The value of an integer or predicate scalar op whose operands are all known (nullopt on
/// overflow, division by zero, or an op this does not evaluate).
std::optional<std::int64_t> foldScalar(const Instruction& instruction,
                                       const std::vector<std::optional<std::int64_t>>& in)
{
    const Shape& shape = instruction.shape;
    if (!shape.isArray() || !shape.dims.empty() || !isIntegral(shape.elementType) || in.empty())
        return std::nullopt;
    for (const auto& value : in)
        if (!value)
            return std::nullopt;
    const std::string& op = instruction.opcode;
    const std::int64_t a = *in[0];
    const std::int64_t b = in.size() > 1 ? *in[1] : 0;
    std::int64_t r = 0;
    if (op == "copy" || op == "bitcast" || op == "reshape" || op == "convert")
        return in.size() == 1 ? std::optional<std::int64_t>(a) : std::nullopt;
    if (in.size() == 2 && op == "add")
        return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
    if (in.size() == 2 && op == "subtract")
        return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
    if (in.size() == 2 && op == "multiply")
        return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
    if (in.size() == 2 && (op == "divide" || op == "remainder")) {
        if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1))
            return std::nullopt;
        return op == "divide" ? a / b : a % b;
    }
    if (in.size() == 2 && op == "maximum")
        return std::max(a, b);
    if (in.size() == 2 && op == "minimum")
        return std::min(a, b);
    if (in.size() == 1 && op == "negate" && a != std::numeric_limits<std::int64_t>::min())
        return -a;
    if (in.size() == 1 && op == "not")
        return shape.elementType == DType::Pred ? std::int64_t(a == 0) : ~a;
    if (in.size() == 2 && op == "and")
        return a & b;
    if (in.size() == 2 && op == "or")
        return a | b;
    if (in.size() == 3 && op == "select")
        return a != 0 ? b : *in[2];
    if (in.size() == 2 && op == "compare") {
        const std::string* direction = instruction.attribute("direction");
        if (direction == nullptr)
            return std::nullopt;
        if (*direction == "LT")
            return std::int64_t(a < b);
        if (*direction == "LE")
            return std::int64_t(a <= b);
        if (*direction == "GT")
            return std::int64_t(a > b);
        if (*direction == "GE")
            return std::int64_t(a >= b);
        if (*direction == "EQ")
            return std::int64_t(a == b);
        if (*direction == "NE")
            return std::int64_t(a != b);
    }
    return std::nullopt;
}

/// The scope path of an instruction from its metadata op_name, without the op's own last element.
std::string metadataScope(const Instruction& instruction)
{
    const std::string& opName = instruction.metadata.opName;
    // Cut at the last '/' outside brackets ("transpose[ permutation=(1, 0) ]" holds none at depth 0).
    int depth = 0;
    std::size_t cut = std::string::npos;
    for (std::size_t i = 0; i < opName.size(); ++i) {
        const char c = opName[i];
        if (c == '[' || c == '(')
            ++depth;
        else if ((c == ']' || c == ')') && depth > 0)
            --depth;
        else if (c == '/' && depth == 0)
            cut = i;
    }
    return cut == std::string::npos ? std::string() : opName.substr(0, cut);
}

class Lowering {
public:
    Lowering(const Module& module, const HloImportOptions& options, const JobControl& control)
        : m_module(module)
        , m_options(options)
        , m_control(control)
        , m_costs(module)
    {}

    HloImport run()
    {
        HloImport result;
        result.moduleName = m_module.name;
        resolveDeviceSpace();
        result.replicaCount = m_space.replicas;
        result.numPartitions = m_space.partitions;

        m_program = std::make_shared<Program>();
        m_program->name = m_module.name;
        const Computation& entry = m_module.entryComputation();
        std::vector<Value> arguments(entry.parameters.size());
        lowerComputation(m_module.entry, arguments, "");

        const auto devices = static_cast<std::size_t>(m_space.devices());
        result.workload = Workload::spmdFromSlots(m_program, devices, m_slots);
        for (Message& w : m_costs.warnings())
            warn(std::move(w));
        result.warnings = std::move(m_warnings);
        return result;
    }

private:
    [[noreturn]] void fail(const Instruction& instruction, const std::string& reason) const
    {
        throw InputError(m_module.file, std::nullopt, instruction.line,
                         "column " + std::to_string(instruction.column) + ": " + instruction.name + ": " + reason);
    }

    void warn(Message message)
    {
        if (m_warningSet.insert(message.text()).second)
            m_warnings.push_back(std::move(message));
    }

    std::string where(const Instruction& instruction) const
    {
        return "line " + std::to_string(instruction.line) + ": " + instruction.name;
    }

    /// replica_count and num_partitions: options, header, or inferred from the ids collectives use.
    void resolveDeviceSpace()
    {
        std::int64_t maxReplica = -1;
        std::int64_t maxPartition = -1;
        std::int64_t maxFlat = -1;
        const Instruction* widest = nullptr; // the collective naming the highest global device id
        for (const Computation& computation : m_module.computations)
            for (const Instruction& instruction : computation.instructions) {
                const std::string_view base = baseOpcode(instruction.opcode);
                if (!collectiveKind(base) || instruction.opcode.ends_with("-done"))
                    continue;
                GroupMode mode;
                try {
                    mode = groupMode(instruction);
                } catch (const std::invalid_argument& e) {
                    fail(instruction, e.what());
                }
                std::int64_t& bound = mode == GroupMode::FlattenedIds     ? maxFlat
                                      : mode == GroupMode::CrossPartition ? maxPartition
                                                                          : maxReplica;
                if (instruction.replicaGroups)
                    for (const auto& group : *instruction.replicaGroups)
                        for (std::int64_t id : group) {
                            // Device ids size the workload: one beyond 2^20 devices (the largest
                            // mesh we lower) would allocate for a billion ranks.
                            if (id < 0 || id >= kMaxDevices)
                                fail(instruction, "replica group names device " + std::to_string(id) +
                                                      " (ids must be between 0 and 2^20 - 1)");
                            if (mode == GroupMode::FlattenedIds && id > maxFlat)
                                widest = &instruction;
                            bound = std::max(bound, id);
                        }
                for (const auto& [source, target] : instruction.sourceTargetPairs)
                    bound = std::max({bound, source, target});
            }
        m_space.replicas = m_options.replicaCount.value_or(m_module.replicaCount);
        m_space.partitions = m_options.numPartitions.value_or(m_module.numPartitions);
        const bool replicasGiven = m_options.replicaCount || m_module.hasReplicaCount;
        const bool partitionsGiven = m_options.numPartitions || m_module.hasNumPartitions;
        // Before any inference divides by them (num_partitions = 0 divided by zero).
        if (m_space.replicas < 1 || m_space.partitions < 1)
            throw InputError(m_module.file, "replica_count and num_partitions must be positive (" +
                                                std::to_string(m_space.replicas) + " and " +
                                                std::to_string(m_space.partitions) + " given)");
        if (!replicasGiven && maxReplica + 1 > m_space.replicas) {
            m_space.replicas = maxReplica + 1;
            warn({FLINT_TRANSLATE_NOOP(
                      "Diagnostics",
                      "the module declares no replica_count; %1 replicas inferred from its replica groups"),
                  {std::to_string(m_space.replicas)}});
        }
        if (!partitionsGiven && maxPartition + 1 > m_space.partitions) {
            m_space.partitions = maxPartition + 1;
            warn({FLINT_TRANSLATE_NOOP(
                      "Diagnostics",
                      "the module declares no num_partitions; %1 partitions inferred from its replica groups"),
                  {std::to_string(m_space.partitions)}});
        }
        if (maxFlat + 1 > m_space.devices()) {
            if (partitionsGiven && replicasGiven)
                fail(*widest, "names device " + std::to_string(maxFlat) + " but the module has " +
                                  std::to_string(m_space.devices()) + " devices (" + std::to_string(m_space.replicas) +
                                  " replicas x " + std::to_string(m_space.partitions) + " partitions)");
            if (!partitionsGiven) {
                m_space.partitions = (maxFlat + m_space.replicas) / m_space.replicas;
                warn(
                    {FLINT_TRANSLATE_NOOP(
                         "Diagnostics", "the module declares no num_partitions; %1 partitions inferred from the global "
                                        "device ids of its collectives"),
                     {std::to_string(m_space.partitions)}});
            } else {
                m_space.replicas = (maxFlat + m_space.partitions) / m_space.partitions;
                warn({FLINT_TRANSLATE_NOOP("Diagnostics",
                                           "the module declares no replica_count; %1 replicas inferred from the global "
                                           "device ids of its collectives"),
                      {std::to_string(m_space.replicas)}});
            }
        }
        if (m_space.replicas < 1 || m_space.partitions < 1)
            throw InputError(m_module.file, "replica_count and num_partitions must be positive");
        if (m_space.replicas > kMaxDevices || m_space.partitions > kMaxDevices ||
            m_space.replicas * m_space.partitions > kMaxDevices)
            throw InputError(m_module.file, "replica_count x num_partitions = " + std::to_string(m_space.replicas) +
                                                " x " + std::to_string(m_space.partitions) +
                                                " exceeds 2^20 devices (the largest workload lowered)");
    }

    /// The comm slot for a collective instruction; slots are shared by equal group lists.
    std::int32_t slotFor(const Instruction& instruction, GroupMode mode)
    {
        // Instructions that share a replica-group list and a mode share a slot: look that up first.
        const std::pair<const ReplicaGroupList*, GroupMode> shared{instruction.replicaGroups.get(), mode};
        if (const auto it = m_slotByList.find(shared); it != m_slotByList.end())
            return it->second;
        std::vector<std::vector<std::int64_t>> groups;
        try {
            groups = participatingGroups(
                mode, instruction.replicaGroups ? *instruction.replicaGroups : ReplicaGroupList{}, m_space);
        } catch (const std::invalid_argument& e) {
            fail(instruction, std::string(displayName(mode)) + " replica groups: " + e.what());
        }
        std::string key;
        for (const auto& group : groups) {
            key += '{';
            for (std::int64_t id : group)
                key += std::to_string(id) + ',';
            key += '}';
        }
        const auto it = m_slotByKey.find(key);
        if (it != m_slotByKey.end()) {
            m_slotByList.emplace(shared, it->second);
            return it->second;
        }
        SlotBinding slot;
        slot.groupOf.assign(static_cast<std::size_t>(m_space.devices()), -1);
        bool partial = false;
        for (const auto& group : groups) {
            std::vector<std::int32_t> members(group.begin(), group.end());
            for (std::int32_t d : members)
                slot.groupOf[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(slot.groups.size());
            slot.groups.push_back(std::move(members));
        }
        for (std::int32_t g : slot.groupOf)
            partial = partial || g < 0;
        if (partial)
            warn({FLINT_TRANSLATE_NOOP("Diagnostics",
                                       "%1: its replica groups leave some devices out; each runs it alone"),
                  {where(instruction)}});
        const auto index = m_program->commSlotFor(std::string(displayName(mode)) + ":" + key);
        m_slots.push_back(std::move(slot));
        m_slotByKey.emplace(std::move(key), index);
        m_slotByList.emplace(shared, index);
        return index;
    }

    std::optional<std::int64_t> tripCount(const Computation& computation, const Instruction& loop)
    {
        // 1. known_trip_count in backend_config: {"known_trip_count":{"n":"4"}}
        if (!loop.backendConfig.empty()) {
            // Read defensively: the config is the module's text, any shape of JSON can be there.
            const auto json = nlohmann::json::parse(loop.backendConfig, nullptr, false);
            const auto known = json.is_object() ? json.find("known_trip_count") : json.end();
            if (known != json.end() && known->is_object()) {
                const auto n = known->find("n");
                if (n != known->end() && n->is_string()) {
                    const std::string text = n->get<std::string>();
                    std::int64_t count = 0;
                    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
                    if (error != std::errc() || end != text.data() + text.size())
                        fail(loop, "known_trip_count \"" + text + "\" is not an integer");
                    return count;
                }
                if (n != known->end() && n->is_number_integer())
                    return n->get<std::int64_t>();
            }
        }
        // 2. The canonical counted loop: condition compare(gte(param, k), constant C) direction=LT,
        //    init tuple element k a constant K, body root element k = add(gte(param, k), constant S).
        if (!loop.condition || !loop.body || loop.operands.size() != 1)
            return std::nullopt;
        const Computation& condition = m_module.computations[*loop.condition];
        const Instruction& compare = condition.instructions[condition.root];
        const std::string* direction = compare.attribute("direction");
        if (compare.opcode != "compare" || !direction || compare.operands.size() != 2)
            return std::nullopt;
        const Instruction& lhs = condition.instructions[compare.operands[0]];
        const Instruction& rhs = condition.instructions[compare.operands[1]];
        const bool counterLeft = lhs.opcode == "get-tuple-element";
        const Instruction& counter = counterLeft ? lhs : rhs;
        const auto limit = scalarLiteral(counterLeft ? rhs : lhs);
        if (counter.opcode != "get-tuple-element" || !counter.tupleIndex || !limit)
            return std::nullopt;
        const auto element = static_cast<std::size_t>(*counter.tupleIndex);
        const Instruction* init = &computation.instructions[loop.operands[0]];
        if (init->opcode != "tuple" || element >= init->operands.size())
            return std::nullopt;
        init = &computation.instructions[init->operands[element]];
        while (init->opcode == "copy" && !init->operands.empty())
            init = &computation.instructions[init->operands[0]];
        const auto start = scalarLiteral(*init);
        const Computation& body = m_module.computations[*loop.body];
        const Instruction& next = body.instructions[body.root];
        if (!start || next.opcode != "tuple" || element >= next.operands.size())
            return std::nullopt;
        const Instruction& step = body.instructions[next.operands[element]];
        if (step.opcode != "add" || step.operands.size() != 2)
            return std::nullopt;
        std::optional<std::int64_t> stride;
        for (int side = 0; side < 2; ++side) {
            const Instruction& a = body.instructions[step.operands[static_cast<std::size_t>(side)]];
            const Instruction& b = body.instructions[step.operands[static_cast<std::size_t>(1 - side)]];
            if (a.opcode == "get-tuple-element" && a.tupleIndex == counter.tupleIndex)
                stride = scalarLiteral(b);
        }
        if (!stride || *stride == 0)
            return std::nullopt;
        // With the counter on the right the comparison reads the other way.
        std::string dir = *direction;
        if (!counterLeft)
            dir = dir == "LT" ? "GT" : dir == "GT" ? "LT" : dir == "LE" ? "GE" : dir == "GE" ? "LE" : dir;
        // Bounds anywhere in int64 (a fuzzer's 2^63): the span and every step below without overflow;
        // a count that does not fit is unknown.
        constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
        const std::int64_t s = *stride;
        std::int64_t span = 0;
        if (s == lowest || __builtin_sub_overflow(*limit, *start, &span) || span == lowest)
            return std::nullopt;
        std::int64_t count = 0;
        if (dir == "LT" && s > 0)
            count = span > 0 ? (span - 1) / s + 1 : 0;
        else if (dir == "LE" && s > 0) {
            if (span >= 0 && __builtin_add_overflow(span / s, 1, &count))
                return std::nullopt;
        } else if (dir == "GT" && s < 0)
            count = span < 0 ? (-span - 1) / -s + 1 : 0;
        else if (dir == "GE" && s < 0) {
            if (span <= 0 && __builtin_add_overflow(-span / -s, 1, &count))
                return std::nullopt;
        } else if (dir == "NE" && span % s == 0 && span / s >= 0)
            count = span / s;
        else
            return std::nullopt;
        return count;
    }

    Op& newOp(const Instruction& instruction, const std::string& prefix, Deps data, Deps control)
    {
        if (m_program->ops.size() >= m_options.maxOps)
            fail(instruction, "unrolling gives more than " + std::to_string(m_options.maxOps) +
                                  " ops; give a smaller while trip count");
        Op& op = m_program->ops.emplace_back();
        op.id = m_program->ops.size() - 1;
        op.name = instruction.name;
        std::string scope = metadataScope(instruction);
        op.scope = prefix.empty()  ? std::move(scope)
                   : scope.empty() ? prefix.substr(0, prefix.size() - 1)
                                   : prefix + scope;
        op.dataDeps = std::move(data);
        op.ctrlDeps = std::move(control);
        if (instruction.shape.isArray()) {
            op.dtype = instruction.shape.elementType;
            op.shape = instruction.shape.dims;
        }
        return op;
    }

    void costInto(Op& op, std::uint32_t computation, std::uint32_t instruction)
    {
        // Transcendentals (exp, tanh, rsqrt, ...) keep XLA's separate count in the cost model; a
        // device spends time on them too, so the op counts each as one operation.
        const InstructionCost cost = m_costs.cost(computation, instruction);
        op.flops = cost.flops + cost.transcendentals;
        op.bytesRead = cost.bytesRead;
        op.bytesWritten = cost.bytesWritten;
        // A matmul or convolution on 8-bit floats runs at the FP8 peak whatever type it writes
        // (FP8 GEMMs output bf16 or f32): its op takes the operands' type, which sets its precision.
        const Computation& comp = m_module.computations[computation];
        const Instruction& inst = comp.instructions[instruction];
        if ((inst.opcode == "dot" || inst.opcode == "convolution") && !inst.operands.empty()) {
            const Shape& lhs = comp.instructions[inst.operands.front()].shape;
            if (lhs.isArray() && lhs.elementType >= DType::F8E4M3FN && lhs.elementType <= DType::F8E3M4)
                op.dtype = lhs.elementType;
        }
    }

    /// Lowers computation `index` with parameter values `arguments`; returns its root's value.
    Value lowerComputation(std::uint32_t index, const std::vector<Value>& arguments, const std::string& prefix)
    {
        m_control.check();
        if (++m_depth > 200)
            throw InputError(m_module.file, "computations nest more than 200 deep (a recursive call?)");
        const Computation& computation = m_module.computations[index];
        std::vector<Value> values(computation.instructions.size());
        for (std::uint32_t i = 0; i < computation.instructions.size(); ++i) {
            const Instruction& instruction = computation.instructions[i];
            for (std::uint32_t operand : instruction.operands)
                if (operand >= i)
                    fail(instruction, "uses " + computation.instructions[operand].name +
                                          " before it is defined (instructions must be in def-before-use order)");
            values[i] = lowerInstruction(index, i, values, arguments, prefix);
        }
        --m_depth;
        return values[computation.root];
    }

    Deps operandDeps(const Instruction& instruction, const std::vector<Value>& values, std::size_t first = 0) const
    {
        Deps deps;
        for (std::size_t k = first; k < instruction.operands.size(); ++k)
            for (const Deps& part : values[instruction.operands[k]].parts)
                mergeInto(deps, part);
        return deps;
    }

    Deps controlDeps(const Instruction& instruction, const std::vector<Value>& values) const
    {
        Deps deps;
        for (std::uint32_t p : instruction.controlPredecessors)
            for (const Deps& part : values[p].parts)
                mergeInto(deps, part);
        return deps;
    }

    Value lowerInstruction(std::uint32_t computationIndex, std::uint32_t index, const std::vector<Value>& values,
                           const std::vector<Value>& arguments, const std::string& prefix)
    {
        const Computation& computation = m_module.computations[computationIndex];
        const Instruction& instruction = computation.instructions[index];
        const std::string& opcode = instruction.opcode;
        const std::string_view base = baseOpcode(opcode);

        if (opcode == "parameter") {
            const auto number = static_cast<std::size_t>(*instruction.parameterNumber);
            return number < arguments.size() ? arguments[number] : Value{};
        }
        if (opcode == "tuple") {
            Value tuple;
            for (std::uint32_t operand : instruction.operands) {
                tuple.parts.push_back(values[operand].all());
                tuple.known.push_back(values[operand].scalar());
            }
            return tuple;
        }
        if (opcode == "get-tuple-element") {
            const Value& tuple = values[instruction.operands.at(0)];
            const auto element = static_cast<std::size_t>(instruction.tupleIndex.value_or(0));
            Value result = tuple.parts.size() > 1 && element < tuple.parts.size() ? Value::of(tuple.parts[element])
                                                                                  : Value::of(tuple.all());
            result.known = {tuple.knownAt(element)};
            return result;
        }
        if (isFreeOpcode(opcode)) {
            Deps deps = operandDeps(instruction, values);
            mergeInto(deps, controlDeps(instruction, values));
            Value result = Value::of(std::move(deps));
            if (opcode == "constant")
                result.known = {knownLiteral(instruction)};
            else
                result.known = {foldScalar(instruction, operandKnowns(instruction, values))};
            return result;
        }
        if (opcode == "while")
            return lowerWhile(computation, instruction, values, prefix);
        if (opcode == "call" && instruction.toApply)
            return inlineCall(*instruction.toApply, instruction, values, prefix, 0);
        if (opcode == "async-start" && !instruction.calls.empty())
            return Value::of(inlineCall(instruction.calls.front(), instruction, values, prefix, 0).all());
        if (opcode == "conditional")
            return lowerConditional(instruction, values, prefix);

        if (const auto kind = collectiveKind(base))
            return lowerCollective(computationIndex, index, *kind, values, prefix);
        if (opcode == "send" || opcode == "recv")
            return lowerPointToPoint(computationIndex, index, values, prefix);

        Op& op = newOp(instruction, prefix, operandDeps(instruction, values), controlDeps(instruction, values));
        op.kind = OpKind::Compute;
        costInto(op, computationIndex, index);
        Value result = Value::of({op.id});
        result.known = {foldScalar(instruction, operandKnowns(instruction, values))};
        return result;
    }

    static std::vector<std::optional<std::int64_t>> operandKnowns(const Instruction& instruction,
                                                                  const std::vector<Value>& values)
    {
        std::vector<std::optional<std::int64_t>> known;
        for (std::uint32_t operand : instruction.operands)
            known.push_back(values[operand].scalar());
        return known;
    }

    /// The known scalars of computation `index`'s root given its arguments', computed without
    /// lowering anything: constants, parameters, tuples, calls and integer arithmetic; a while loop
    /// passes through the state elements its body returns unchanged.
    Known evaluate(std::uint32_t index, const std::vector<Known>& arguments, int depth = 0) const
    {
        const Computation& computation = m_module.computations.at(index);
        if (depth > 64)
            return Known(1);
        std::vector<Known> known(computation.instructions.size());
        const auto scalarOf = [&](std::uint32_t operand) {
            return known[operand].size() == 1 ? known[operand][0] : std::nullopt;
        };
        for (std::uint32_t i = 0; i < computation.instructions.size(); ++i) {
            const Instruction& instruction = computation.instructions[i];
            const std::string& opcode = instruction.opcode;
            Known& out = known[i];
            const std::size_t width = instruction.shape.isTuple ? instruction.shape.tupleElements.size() : 1;
            if (opcode == "parameter") {
                const auto n = static_cast<std::size_t>(instruction.parameterNumber.value_or(0));
                out = n < arguments.size() ? arguments[n] : Known(width);
            } else if (opcode == "constant") {
                out = {knownLiteral(instruction)};
            } else if (opcode == "tuple") {
                for (std::uint32_t operand : instruction.operands)
                    out.push_back(scalarOf(operand));
            } else if (opcode == "get-tuple-element" && !instruction.operands.empty()) {
                const Known& tuple = known[instruction.operands[0]];
                const auto k = static_cast<std::size_t>(instruction.tupleIndex.value_or(0));
                out = {k < tuple.size() ? tuple[k] : std::nullopt};
            } else if (opcode == "call" && instruction.toApply) {
                std::vector<Known> inner;
                for (std::uint32_t operand : instruction.operands)
                    inner.push_back(known[operand]);
                out = evaluate(*instruction.toApply, inner, depth + 1);
            } else if (opcode == "while" && instruction.body && instruction.operands.size() == 1) {
                out = Known(width);
                const Computation& body = m_module.computations.at(*instruction.body);
                const Instruction& next = body.instructions[body.root];
                const Known& init = known[instruction.operands[0]];
                for (std::size_t k = 0; next.opcode == "tuple" && k < next.operands.size() && k < width; ++k) {
                    const Instruction& element = body.instructions[next.operands[k]];
                    const Instruction& source = body.instructions[element.operands.empty() ? 0 : element.operands[0]];
                    if (element.opcode == "get-tuple-element" && element.tupleIndex == static_cast<std::int64_t>(k) &&
                        source.opcode == "parameter" && k < init.size())
                        out[k] = init[k];
                }
            } else {
                std::vector<std::optional<std::int64_t>> in;
                for (std::uint32_t operand : instruction.operands)
                    in.push_back(scalarOf(operand));
                out = {foldScalar(instruction, in)};
            }
            out.resize(std::max<std::size_t>(width, 1));
        }
        return known[computation.root];
    }

    /// The trip count of `loop` from the known scalars of its initial state: the condition is
    /// evaluated on the state after n iterations, each element advancing by the constant step the
    /// body gives it (checked over two iterations); the first n for which it is false. nullopt when
    /// the condition depends on anything unknown or the count passes 2^40.
    std::optional<std::int64_t> tripCountByEvaluation(const Instruction& loop, const Value& state) const
    {
        if (!loop.condition || !loop.body || !loop.shape.isTuple)
            return std::nullopt;
        const std::size_t width = loop.shape.tupleElements.size();
        Known s0 = state.known;
        s0.resize(width);
        const Known s1 = evaluate(*loop.body, {s0});
        const Known s2 = evaluate(*loop.body, {s1});
        Known step(width);
        for (std::size_t k = 0; k < width && k < s1.size() && k < s2.size(); ++k) {
            std::int64_t d1 = 0;
            std::int64_t d2 = 0;
            if (s0[k] && s1[k] && s2[k] && !__builtin_sub_overflow(*s1[k], *s0[k], &d1) &&
                !__builtin_sub_overflow(*s2[k], *s1[k], &d2) && d1 == d2)
                step[k] = d1;
        }
        const auto condition = [&](std::int64_t n) -> std::optional<std::int64_t> {
            Known at(width);
            for (std::size_t k = 0; k < width; ++k) {
                std::int64_t advance = 0;
                std::int64_t value = 0;
                if (step[k] && !__builtin_mul_overflow(n, *step[k], &advance) &&
                    !__builtin_add_overflow(*s0[k], advance, &value))
                    at[k] = value;
            }
            const Known result = evaluate(*loop.condition, {at});
            return result.empty() ? std::nullopt : result[0];
        };
        std::int64_t high = 1;
        std::optional<std::int64_t> value = condition(0);
        if (!value)
            return std::nullopt;
        if (*value == 0)
            return 0;
        while (true) {
            value = condition(high);
            if (!value)
                return std::nullopt;
            if (*value == 0)
                break;
            if (high > (std::int64_t{1} << 40))
                return std::nullopt;
            high *= 2;
        }
        std::int64_t low = high / 2; // condition(low) is true
        while (high - low > 1) {
            const std::int64_t middle = low + (high - low) / 2;
            value = condition(middle);
            if (!value)
                return std::nullopt;
            (*value != 0 ? low : high) = middle;
        }
        // A condition that is not monotone in n (a counter tested with NE that steps over its
        // bound) has no count this search can trust.
        if (condition(high - 1) != std::optional<std::int64_t>(1))
            return std::nullopt;
        return high;
    }

    Value inlineCall(std::uint32_t callee, const Instruction& instruction, const std::vector<Value>& values,
                     const std::string& prefix, std::size_t firstArgument)
    {
        std::vector<Value> arguments;
        for (std::size_t k = firstArgument; k < instruction.operands.size(); ++k)
            arguments.push_back(values[instruction.operands[k]]);
        // Control predecessors of the call order its first ops: add them to every argument.
        const Deps control = controlDeps(instruction, values);
        if (!control.empty()) {
            if (arguments.empty())
                arguments.push_back(Value{});
            for (Value& argument : arguments) {
                if (argument.parts.empty())
                    argument.parts.emplace_back();
                for (Deps& part : argument.parts)
                    mergeInto(part, control);
            }
        }
        return lowerComputation(callee, arguments, prefix);
    }

    Value lowerWhile(const Computation& computation, const Instruction& loop, const std::vector<Value>& values,
                     const std::string& prefix)
    {
        if (!loop.body || !loop.condition)
            fail(loop, "a while needs condition= and body=");
        std::optional<std::int64_t> trips = tripCount(computation, loop);
        if (!trips)
            trips = tripCountByEvaluation(loop, values[loop.operands.at(0)]);
        const bool givenTrips = !trips && m_options.whileTripCount;
        if (!trips) {
            if (m_options.whileTripCount) {
                trips = m_options.whileTripCount;
                warn({FLINT_TRANSLATE_NOOP("Diagnostics", "%1: trip count unknown; %2 iterations as given"),
                      {where(loop), std::to_string(*trips)}});
            } else {
                trips = 1;
                warn({FLINT_TRANSLATE_NOOP("Diagnostics",
                                           "%1: trip count unknown (no known_trip_count, and its condition "
                                           "depends on values only known at run time); ran once. Give "
                                           "--while-trip-count N"),
                      {where(loop)}});
            }
        }
        if (*trips < 0)
            fail(loop, "negative trip count " + std::to_string(*trips));
        const bool capped = m_options.maxTripCount && *trips > *m_options.maxTripCount;
        if (capped) {
            warn({FLINT_TRANSLATE_NOOP("Diagnostics",
                                       "%1: %2 iterations, %3 lowered (--max-trip-count); the estimate covers "
                                       "those only"),
                  {where(loop), std::to_string(*trips), std::to_string(*m_options.maxTripCount)}});
            trips = m_options.maxTripCount;
        }
        Value state = values[loop.operands.at(0)];
        // Everything the loop computes waits for its control predecessors (in MLIR: values its regions
        // read from outside), whichever element of the state it starts from.
        const Deps control = controlDeps(loop, values);
        if (state.parts.empty())
            state.parts.emplace_back();
        for (Deps& part : state.parts)
            mergeInto(part, control);
        for (std::int64_t k = 0; k < *trips; ++k) {
            m_control.check();
            const std::string iteration = prefix + loop.name + "/iteration_" + std::to_string(k) + "/";
            const std::size_t before = m_program->ops.size();
            state = lowerComputation(*loop.body, {state}, iteration);
            // After the first iteration the cost of the rest is known: refuse now rather than after
            // filling memory with ops that would be refused anyway.
            const auto perIteration = static_cast<double>(m_program->ops.size() - before);
            if (k == 0 && static_cast<double>(m_program->ops.size()) + perIteration * static_cast<double>(*trips - 1) >
                              static_cast<double>(m_options.maxOps))
                fail(loop, std::to_string(*trips) + " iterations of " +
                               std::to_string(static_cast<std::uint64_t>(perIteration)) + " ops would exceed " +
                               std::to_string(m_options.maxOps) +
                               " ops per rank; raise --max-ops if the step really unrolls so far" +
                               (givenTrips ? std::string(", or give a smaller --while-trip-count")
                                           : std::string(", or lower fewer iterations with --max-trip-count")));
        }
        return state;
    }

    Value lowerConditional(const Instruction& instruction, const std::vector<Value>& values, const std::string& prefix)
    {
        if (instruction.branchComputations.empty())
            fail(instruction, "a conditional needs branch_computations= (or true_computation=/false_computation=)");
        // The most expensive branch by FLOPs of its instructions: an upper bound for the step.
        std::size_t chosen = 0;
        std::uint64_t most = 0;
        for (std::size_t b = 0; b < instruction.branchComputations.size(); ++b) {
            const std::uint64_t flops = m_costs.computationCost(instruction.branchComputations[b]).flops;
            if (flops > most) {
                most = flops;
                chosen = b;
            }
        }
        if (instruction.branchComputations.size() > 1)
            warn({FLINT_TRANSLATE_NOOP("Diagnostics", "%1: conditional lowered with branch %2 of %3 (the most FLOPs)"),
                  {where(instruction), std::to_string(chosen), std::to_string(instruction.branchComputations.size())}});
        std::vector<Value> arguments;
        if (chosen + 1 < instruction.operands.size())
            arguments.push_back(values[instruction.operands[chosen + 1]]);
        // The branch waits for the predicate.
        Deps predicate = values[instruction.operands.at(0)].all();
        mergeInto(predicate, controlDeps(instruction, values));
        if (arguments.empty())
            arguments.push_back(Value::of(predicate));
        else
            for (Deps& part : arguments.front().parts)
                mergeInto(part, predicate);
        return lowerComputation(instruction.branchComputations[chosen], arguments, prefix);
    }

    Value lowerCollective(std::uint32_t computationIndex, std::uint32_t index, CollectiveKind kind,
                          const std::vector<Value>& values, const std::string& prefix)
    {
        const Computation& computation = m_module.computations[computationIndex];
        const Instruction& instruction = computation.instructions[index];
        GroupMode mode;
        try {
            mode = groupMode(instruction);
        } catch (const std::invalid_argument& e) {
            fail(instruction, e.what());
        }
        // Chakra's comm_size: the bytes this rank contributes, i.e. its input buffer(s).
        std::uint64_t bytes = 0;
        const std::size_t inputs = kind == CollectiveKind::CollectivePermute
                                       ? std::min<std::size_t>(1, instruction.operands.size())
                                       : instruction.operands.size();
        for (std::size_t k = 0; k < inputs; ++k)
            bytes += computation.instructions[instruction.operands[k]].shape.byteSize();

        std::int32_t slot = -1;
        std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
        if (kind == CollectiveKind::CollectivePermute) {
            try {
                for (const auto& [s, t] :
                     globalSourceTargetPairs(instruction.sourceTargetPairs, mode != GroupMode::CrossReplica, m_space))
                    pairs.emplace_back(static_cast<std::int32_t>(s), static_cast<std::int32_t>(t));
            } catch (const std::invalid_argument& e) {
                fail(instruction, std::string("source_target_pairs: ") + e.what());
            }
        } else {
            slot = slotFor(instruction, mode);
        }
        Op& op = newOp(instruction, prefix, operandDeps(instruction, values), controlDeps(instruction, values));
        op.kind = OpKind::Collective;
        op.collective = kind;
        op.commBytes = bytes;
        op.commSlot = slot;
        if (instruction.channelId)
            op.commTag = static_cast<std::int32_t>(*instruction.channelId);
        if (!pairs.empty())
            op.extras.mutate().sourceTargetPairs = std::move(pairs);
        costInto(op, computationIndex, index);
        return Value::of({op.id});
    }

    /// HLO send/recv pair up by channel; the pairs come from frontend attribute
    /// _xla_send_recv_source_target_pairs. The send is lowered as a collective-permute over those
    /// pairs; the recv waits for it.
    Value lowerPointToPoint(std::uint32_t computationIndex, std::uint32_t index, const std::vector<Value>& values,
                            const std::string& prefix)
    {
        const Computation& computation = m_module.computations[computationIndex];
        const Instruction& instruction = computation.instructions[index];
        if (instruction.opcode == "recv") {
            Deps deps = operandDeps(instruction, values);
            mergeInto(deps, controlDeps(instruction, values));
            if (instruction.channelId)
                if (const auto it = m_sendByChannel.find(*instruction.channelId); it != m_sendByChannel.end())
                    mergeInto(deps, Deps{it->second});
            return Value::of(std::move(deps));
        }
        std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
        const std::string* attributes = instruction.attribute("frontend_attributes");
        const auto at = attributes ? attributes->find("_xla_send_recv_source_target_pairs") : std::string::npos;
        if (at != std::string::npos) {
            const auto open = attributes->find('{', at);
            const auto close = attributes->find("}}", open);
            if (open != std::string::npos && close != std::string::npos) {
                const auto groups = parseReplicaGroups(std::string_view(*attributes).substr(open, close + 2 - open));
                for (const auto& pair : groups)
                    if (pair.size() == 2)
                        pairs.emplace_back(static_cast<std::int32_t>(pair[0]), static_cast<std::int32_t>(pair[1]));
            }
        }
        if (pairs.empty())
            warn({FLINT_TRANSLATE_NOOP("Diagnostics",
                                       "%1: send without _xla_send_recv_source_target_pairs; its peers are unknown"),
                  {where(instruction)}});
        Op& op = newOp(instruction, prefix, operandDeps(instruction, values), controlDeps(instruction, values));
        op.kind = OpKind::Collective;
        op.collective = CollectiveKind::CollectivePermute;
        op.commBytes =
            instruction.operands.empty() ? 0 : computation.instructions[instruction.operands[0]].shape.byteSize();
        if (instruction.channelId) {
            op.commTag = static_cast<std::int32_t>(*instruction.channelId);
            m_sendByChannel[*instruction.channelId] = op.id;
        }
        op.extras.mutate().sourceTargetPairs = std::move(pairs);
        return Value::of({op.id});
    }

    const Module& m_module;
    const HloImportOptions& m_options;
    const JobControl& m_control;
    CostModel m_costs;
    DeviceSpace m_space;
    std::shared_ptr<Program> m_program;
    std::vector<SlotBinding> m_slots;
    std::unordered_map<std::string, std::int32_t> m_slotByKey;
    std::map<std::pair<const ReplicaGroupList*, GroupMode>, std::int32_t> m_slotByList;
    std::unordered_map<std::int64_t, std::uint64_t> m_sendByChannel;
    std::vector<Message> m_warnings;
    std::set<std::string> m_warningSet;
    int m_depth = 0;
};

} // namespace

HloImport lowerHlo(const Module& module, const HloImportOptions& options, const JobControl& control)
{
    return Lowering(module, options, control).run();
}

HloImport importHloModule(const Module& module, const HloImportOptions& options, const JobControl& control)
{
    const partition::SpmdEvidence evidence = partition::spmdEvidenceOf(module);
    if (!evidence.unpartitioned()) {
        HloImport imported = lowerHlo(module, options, control);
        const bool perDevice = evidence.collectives > 0 || imported.replicaCount * imported.numPartitions > 1;
        imported.partitioning = perDevice ? Partitioning::ByCompiler : Partitioning::None;
        if (!options.mesh.empty())
            imported.warnings.insert(
                imported.warnings.begin(),
                Message(FLINT_TRANSLATE_NOOP("Diagnostics", "the module is already partitioned (%1 collectives, no "
                                                            "partitioner annotations); the mesh %2 is not used"),
                        {std::to_string(evidence.collectives), options.mesh}));
        return imported;
    }
    // Devices: as given, else the header's partitions, else what the tilings name.
    const std::int64_t devices =
        options.numPartitions.value_or(module.hasNumPartitions ? module.numPartitions : evidence.tilingDevices);
    const auto cannot = [&](const char* reason) {
        return Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                            "the module is not SPMD-partitioned (%1 sharding annotations and %2 "
                                            "partitioner calls) and could not be partitioned (%3): every rank "
                                            "is estimated running the whole global program"),
                       {std::to_string(evidence.tiledShardings), std::to_string(evidence.partitionerCalls), reason});
    };
    std::vector<Message> warnings;
    if (module.replicaCount > 1 || options.replicaCount.value_or(1) > 1)
        warnings.emplace_back(
            FLINT_TRANSLATE_NOOP("Diagnostics", "replica_count %1 is not modelled when partitioning; one replica of "
                                                "%2 partitions is estimated"),
            std::vector<std::string>{std::to_string(options.replicaCount.value_or(module.replicaCount)),
                                     std::to_string(devices)});
    std::optional<partition::PreparedHlo> prepared;
    try {
        prepared = partition::prepareUnpartitionedHlo(module, devices);
    } catch (const std::invalid_argument& e) {
        warnings.push_back(cannot(e.what()));
    }
    if (prepared) {
        partition::MeshShape mesh = prepared->mesh;
        if (!options.mesh.empty()) {
            // A mesh the user typed is checked as input, not taken as a reason the module cannot be
            // partitioned.
            try {
                mesh = partition::MeshShape::parse(options.mesh);
            } catch (const std::invalid_argument& e) {
                throw InputError(module.file, std::string("--mesh: ") + e.what());
            }
            for (const auto& [axis, size] : mesh.axes)
                if (prepared->mesh.sizeOf(axis) == 0)
                    throw InputError(module.file, "--mesh: axis '" + axis + "' is not an axis of the module's mesh " +
                                                      prepared->mesh.toString());
        }
        try {
            const partition::PartitionedModule partitioned =
                partition::partitionForMesh(partition::logicalProgramOf(prepared->module), mesh, module.file);
            HloImportOptions lowering = options;
            lowering.numPartitions.reset();
            lowering.replicaCount.reset();
            HloImport imported = lowerHlo(partitioned.module, lowering, control);
            imported.moduleName = module.name;
            imported.partitioning = Partitioning::ByFlint;
            imported.partitionedFor = mesh.toString();
            imported.insertedCollectives = partitioned.collectivesInserted;
            warnings.insert(warnings.end(), prepared->warnings.begin(), prepared->warnings.end());
            warnings.insert(warnings.end(), partitioned.warnings.begin(), partitioned.warnings.end());
            imported.warnings.insert(imported.warnings.begin(), warnings.begin(), warnings.end());
            return imported;
        } catch (const std::invalid_argument& e) {
            warnings.push_back(cannot(e.what()));
        }
    }
    HloImport imported = lowerHlo(module, options, control);
    imported.partitioning = Partitioning::Failed;
    imported.warnings.insert(imported.warnings.begin(), warnings.begin(), warnings.end());
    return imported;
}

HloImport importHloFile(const std::string& path, const HloImportOptions& options, const JobControl& control)
{
    return importHloModule(readHloFile(path), options, control);
}

} // namespace flint::core::hlo
