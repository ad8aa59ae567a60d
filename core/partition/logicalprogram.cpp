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
        if (rootInstruction.opcode == "tuple")
            m_program.results = m_tupleElements.at(root);
        else
            m_program.results = {root};
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
            if (instruction.opcode == "tuple") {
                LogicalOp op;
                op.instruction = instruction;
                op.operands = operands;
                values[i] = add(std::move(op));
                m_tupleElements[values[i]] = operands;
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
            if (const std::string* text = instruction.attribute("sharding"))
                op.sharding = parseShardingText(*text, instruction.shape.dims.size());
            values[i] = add(std::move(op));
        }
        --m_depth;
        return values[computation.root];
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
