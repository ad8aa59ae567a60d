// SPDX-License-Identifier: MIT
#include "core/partition/logicalprogram.h"

#include <map>
#include <set>
#include <stdexcept>

namespace flint::core::partition {

std::int64_t MeshShape::devices() const
{
    std::int64_t count = 1;
    for (const auto& [name, size] : axes)
        count *= size;
    return count;
}

std::int64_t MeshShape::sizeOf(const std::string& name) const
{
    for (const auto& [axis, size] : axes)
        if (axis == name)
            return size;
    return 0;
}

MeshShape MeshShape::parse(const std::string& text)
{
    MeshShape mesh;
    std::set<std::string> seen;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const std::size_t equal = item.find('=');
        if (equal == std::string::npos || equal == 0)
            throw std::invalid_argument("mesh axis '" + item + "' is not NAME=SIZE");
        const std::string name = item.substr(0, equal);
        std::size_t used = 0;
        std::int64_t size = 0;
        try {
            size = std::stoll(item.substr(equal + 1), &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != item.size() - equal - 1 || size < 1 || size > (1 << 20))
            throw std::invalid_argument("mesh axis '" + item + "' needs a size between 1 and 2^20");
        if (!seen.insert(name).second)
            throw std::invalid_argument("mesh axis '" + name + "' is given twice");
        mesh.axes.emplace_back(name, size);
        at = comma + 1;
    }
    if (mesh.devices() > (1 << 20))
        throw std::invalid_argument("the mesh has more than 2^20 devices");
    return mesh;
}

std::string MeshShape::toString() const
{
    std::string text;
    for (const auto& [name, size] : axes)
        text += (text.empty() ? "" : ",") + name + "=" + std::to_string(size);
    return text;
}

bool TensorSharding::isReplicated() const
{
    if (!partial.empty())
        return false;
    for (const auto& axes : dims)
        if (!axes.empty())
            return false;
    return true;
}

std::string shardingText(const TensorSharding& sharding)
{
    std::string text;
    for (const auto& axes : sharding.dims) {
        text += '[';
        for (std::size_t i = 0; i < axes.size(); ++i)
            text += (i ? "," : "") + axes[i];
        text += ']';
    }
    if (!sharding.partial.empty()) {
        text += '|';
        for (std::size_t i = 0; i < sharding.partial.size(); ++i)
            text += (i ? "," : "") + sharding.partial[i];
    }
    return text;
}

TensorSharding parseShardingText(const std::string& text, std::size_t rank)
{
    TensorSharding sharding;
    const std::size_t bar = text.find('|');
    const std::string dims = text.substr(0, bar);
    std::size_t at = 0;
    while ((at = dims.find('[', at)) != std::string::npos) {
        const std::size_t close = dims.find(']', at);
        if (close == std::string::npos)
            break;
        std::vector<std::string> axes;
        std::size_t start = at + 1;
        while (start < close) {
            const std::size_t comma = std::min(dims.find(',', start), close);
            if (comma > start)
                axes.push_back(dims.substr(start, comma - start));
            start = comma + 1;
        }
        sharding.dims.push_back(std::move(axes));
        at = close + 1;
    }
    sharding.dims.resize(rank);
    if (bar != std::string::npos) {
        std::size_t start = bar + 1;
        while (start < text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            if (comma > start)
                sharding.partial.push_back(text.substr(start, comma - start));
            start = comma + 1;
        }
    }
    return sharding;
}

namespace {

/// The annotations of a value of `shape` from its "sharding" text: one per tuple element (or one for
/// an array); nullopt where an element has none.
std::vector<std::optional<TensorSharding>> annotationsOf(const hlo::Instruction& instruction)
{
    std::vector<std::optional<TensorSharding>> specs;
    const std::string* text = instruction.attribute("sharding");
    if (text == nullptr)
        return specs;
    std::size_t start = 0;
    for (std::size_t k = 0;; ++k) {
        const std::size_t end = std::min(text->find(';', start), text->size());
        const std::string element = text->substr(start, end - start);
        const hlo::Shape* shape = &instruction.shape;
        if (instruction.shape.isTuple)
            shape = k < instruction.shape.tupleElements.size() ? &instruction.shape.tupleElements[k] : nullptr;
        if (element == "-" || shape == nullptr)
            specs.emplace_back();
        else
            specs.emplace_back(parseShardingText(element, shape->dims.size()));
        if (end == text->size())
            break;
        start = end + 1;
    }
    return specs;
}

class Flattener {
public:
    explicit Flattener(const hlo::Module& module)
        : m_module(module)
    {}

    LogicalProgram run()
    {
        m_program.name = m_module.name;
        const hlo::Computation& entry = m_module.entryComputation();
        std::vector<std::uint32_t> arguments;
        const std::uint32_t root = inlineComputation(m_module.entry, arguments, true);
        const hlo::Instruction& rootInstruction = entry.instructions[entry.root];
        if (const auto it = m_tupleElements.find(root); it != m_tupleElements.end())
            m_program.results = it->second;
        else
            m_program.results = {root};
        m_program.resultShardings = annotationsOf(rootInstruction);
        if (m_program.resultShardings.size() != m_program.results.size())
            m_program.resultShardings.clear();
        return std::move(m_program);
    }

private:
    std::uint32_t add(LogicalOp op)
    {
        m_program.ops.push_back(std::move(op));
        return static_cast<std::uint32_t>(m_program.ops.size() - 1);
    }

    /// Appends computation `index`'s ops; returns the op of its root.
    std::uint32_t inlineComputation(std::uint32_t index, const std::vector<std::uint32_t>& arguments, bool entry)
    {
        if (++m_depth > 100)
            throw std::invalid_argument("calls nest more than 100 deep");
        const hlo::Computation& computation = m_module.computations.at(index);
        std::vector<std::uint32_t> values(computation.instructions.size());
        for (std::uint32_t i = 0; i < computation.instructions.size(); ++i) {
            const hlo::Instruction& instruction = computation.instructions[i];
            std::vector<std::uint32_t> operands;
            for (std::uint32_t operand : instruction.operands)
                operands.push_back(values.at(operand));
            if (instruction.opcode == "parameter" && !entry) {
                const auto number = static_cast<std::size_t>(instruction.parameterNumber.value_or(0));
                if (number < arguments.size()) {
                    values[i] = arguments[number];
                    continue;
                }
            }
            if (instruction.opcode == "call" && instruction.toApply) {
                // A callee returning a tuple returns its tuple op, whose elements are recorded.
                values[i] = inlineComputation(*instruction.toApply, operands, false);
                continue;
            }
            if (instruction.opcode == "parameter" && entry && instruction.shape.isTuple) {
                values[i] = splitValues(instruction, {}, "parameter", "");
                continue;
            }
            if (instruction.opcode == "custom-call" && instruction.shape.isTuple &&
                instruction.customCallTarget == "xla.sdy.GlobalToLocalShape") {
                values[i] = splitValues(instruction, operands, "custom-call", "SPMDFullToShardShape");
                continue;
            }
            if (instruction.opcode == "custom-call" && instruction.customCallTarget == "xla.sdy.LocalToGlobalShape") {
                values[i] = splitValues(instruction, operands, "custom-call", "SPMDShardToFullShape");
                continue;
            }
            if (instruction.opcode == "while" && instruction.body && instruction.condition && operands.size() == 1 &&
                instruction.shape.isTuple) {
                if (const auto state = m_tupleElements.find(operands[0]);
                    state != m_tupleElements.end() && state->second.size() == instruction.shape.tupleElements.size()) {
                    values[i] = addWhile(instruction, state->second);
                    continue;
                }
            }
            if (instruction.opcode == "opt-barrier") {
                // jax.checkpoint's barrier keeps XLA from moving recomputation across it; it moves no
                // data and changes no layout: its values pass through (HLO: one tuple operand;
                // StableHLO: one operand per value, a tuple of results).
                if (operands.size() == 1 && (m_tupleElements.count(operands[0]) || !instruction.shape.isTuple)) {
                    values[i] = operands[0];
                    continue;
                }
                if (instruction.shape.isTuple && operands.size() == instruction.shape.tupleElements.size()) {
                    values[i] = addTuple(instruction, operands);
                    continue;
                }
            }
            if (instruction.opcode == "tuple") {
                values[i] = addTuple(instruction, operands);
                continue;
            }
            if (instruction.opcode == "get-tuple-element") {
                const auto it = m_tupleElements.find(operands.at(0));
                const auto element = static_cast<std::size_t>(instruction.tupleIndex.value_or(0));
                if (it != m_tupleElements.end() && element < it->second.size()) {
                    values[i] = it->second[element];
                    continue;
                }
            }
            LogicalOp op;
            op.instruction = instruction;
            op.instruction.operands.clear();
            op.operands = std::move(operands);
            if (auto specs = annotationsOf(instruction); specs.size() == 1)
                op.sharding = std::move(specs[0]);
            values[i] = add(std::move(op));
        }
        --m_depth;
        return values[computation.root];
    }

    /// A while loop over the state `elements`: the loop op with its regions, then one
    /// get-tuple-element op per state element, gathered in a tuple op that is returned.
    std::uint32_t addWhile(const hlo::Instruction& instruction, const std::vector<std::uint32_t>& elements)
    {
        LogicalOp loop;
        loop.instruction = instruction;
        loop.instruction.operands.clear();
        loop.operands = elements;
        loop.regions.push_back(region(*instruction.condition, instruction.shape.tupleElements, false));
        loop.regions.push_back(region(*instruction.body, instruction.shape.tupleElements, true));
        const std::uint32_t index = add(std::move(loop));
        std::vector<std::uint32_t> results;
        for (std::size_t k = 0; k < elements.size(); ++k) {
            LogicalOp element;
            element.instruction.name = instruction.name + "." + std::to_string(k);
            element.instruction.opcode = "get-tuple-element";
            element.instruction.tupleIndex = static_cast<std::int64_t>(k);
            element.instruction.shape = instruction.shape.tupleElements[k];
            element.instruction.line = instruction.line;
            element.instruction.metadata = instruction.metadata;
            element.operands = {index};
            results.push_back(add(std::move(element)));
        }
        hlo::Instruction state;
        state.name = instruction.name + ".state";
        state.shape = instruction.shape;
        return addTuple(std::move(state), std::move(results));
    }

    /// The program of a loop's condition or body: one parameter op per state element, then the
    /// computation inlined on them; results are the root tuple's elements (body) or the root.
    std::shared_ptr<const LogicalProgram> region(std::uint32_t computation, const std::vector<hlo::Shape>& state,
                                                 bool body)
    {
        Flattener inner(m_module);
        inner.m_depth = m_depth;
        std::vector<std::uint32_t> parameters;
        for (std::size_t k = 0; k < state.size(); ++k) {
            LogicalOp parameter;
            parameter.instruction.name = "state." + std::to_string(k);
            parameter.instruction.opcode = "parameter";
            parameter.instruction.parameterNumber = static_cast<std::int64_t>(k);
            parameter.instruction.shape = state[k];
            parameters.push_back(inner.add(std::move(parameter)));
        }
        hlo::Instruction tuple;
        tuple.name = "state";
        tuple.shape.isTuple = true;
        tuple.shape.tupleElements = state;
        const std::uint32_t whole = inner.addTuple(std::move(tuple), parameters);
        const std::uint32_t root = inner.inlineComputation(computation, {whole}, false);
        auto program = std::make_shared<LogicalProgram>(std::move(inner.m_program));
        program->name = m_module.computations.at(computation).name;
        const auto elements = inner.m_tupleElements.find(root);
        if (body && elements != inner.m_tupleElements.end())
            program->results = elements->second;
        else
            program->results = {root};
        return program;
    }

    /// One op per value of a tuple-shaped `instruction` (element k: `opcode`/`target` with operand k
    /// when there are operands, its shape and annotation), and a tuple op of them, returned, whose
    /// elements get-tuple-element resolves. An array-shaped instruction gives one op.
    std::uint32_t splitValues(const hlo::Instruction& instruction, const std::vector<std::uint32_t>& operands,
                              const std::string& opcode, const std::string& target)
    {
        const std::vector<std::optional<TensorSharding>> specs = annotationsOf(instruction);
        const std::size_t count = instruction.shape.isTuple ? instruction.shape.tupleElements.size() : 1;
        std::vector<std::uint32_t> elements;
        for (std::size_t k = 0; k < count; ++k) {
            LogicalOp op;
            op.instruction = instruction;
            op.instruction.operands.clear();
            std::erase_if(op.instruction.attributes, [](const auto& a) { return a.first == "sharding"; });
            op.instruction.opcode = opcode;
            op.instruction.customCallTarget = target;
            if (instruction.shape.isTuple) {
                op.instruction.shape = instruction.shape.tupleElements[k];
                op.instruction.name = instruction.name + "." + std::to_string(k);
            }
            if (!operands.empty())
                op.operands = {operands.at(std::min(k, operands.size() - 1))};
            if (k < specs.size())
                op.sharding = specs[k];
            elements.push_back(add(std::move(op)));
        }
        if (!instruction.shape.isTuple)
            return elements.front();
        return addTuple(instruction, std::move(elements));
    }

    /// A tuple op of `elements` (`instruction` made a tuple, without its annotation), whose
    /// elements get-tuple-element resolves to.
    std::uint32_t addTuple(hlo::Instruction instruction, std::vector<std::uint32_t> elements)
    {
        instruction.opcode = "tuple";
        instruction.operands.clear();
        instruction.customCallTarget.clear();
        std::erase_if(instruction.attributes, [](const auto& a) { return a.first == "sharding"; });
        LogicalOp tuple;
        tuple.instruction = std::move(instruction);
        tuple.operands = elements;
        const std::uint32_t index = add(std::move(tuple));
        m_tupleElements[index] = std::move(elements);
        return index;
    }

    const hlo::Module& m_module;
    LogicalProgram m_program;
    std::map<std::uint32_t, std::vector<std::uint32_t>> m_tupleElements;
    int m_depth = 0;
};

} // namespace

LogicalProgram logicalProgramOf(const hlo::Module& module)
{
    return Flattener(module).run();
}

} // namespace flint::core::partition
