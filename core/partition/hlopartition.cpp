// SPDX-License-Identifier: MIT
#include "core/partition/hlopartition.h"

#include "core/partition/gspmdsharding.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <stdexcept>

namespace flint::core::partition {
namespace {

bool isCollectiveOpcode(std::string_view opcode)
{
    for (std::string_view name : {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
                                  "collective-broadcast", "ragged-all-to-all"})
        if (opcode == name || (opcode.starts_with(name) && opcode.substr(name.size()) == "-start"))
            return true;
    return false;
}

bool isPartitionerCall(const hlo::Instruction& instruction)
{
    if (instruction.opcode != "custom-call")
        return false;
    const std::string& target = instruction.customCallTarget;
    return target == "Sharding" || target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape" ||
           target.starts_with("xla.sdy.");
}

const std::string* frontendAttributes(const hlo::Instruction& instruction)
{
    return instruction.attribute("frontend_attributes");
}

/// The Shardy sharding text an instruction carries for its results (xla.sdy.sharding; the custom
/// calls of a manual computation name theirs differently).
std::string sdyShardingOf(const hlo::Instruction& instruction)
{
    const std::string* attributes = frontendAttributes(instruction);
    if (attributes == nullptr)
        return {};
    if (instruction.customCallTarget == "xla.sdy.GlobalToLocalShape")
        return frontendAttribute(*attributes, "xla.sdy.in_shardings");
    if (instruction.customCallTarget == "xla.sdy.LocalToGlobalShape")
        return frontendAttribute(*attributes, "xla.sdy.out_shardings");
    return frontendAttribute(*attributes, "xla.sdy.sharding");
}

/// Mesh axis names end up in the partitioner's "[x,y]|z" text: characters of that syntax are
/// replaced.
std::string axisName(std::string name)
{
    for (char& c : name)
        if (c == ',' || c == '[' || c == ']' || c == '|' || c == ';')
            c = '_';
    return name;
}

std::string_view skipSpaces(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\t'))
        text.remove_prefix(1);
    return text;
}

/// Reads a "quoted" name at the start of `text` (after spaces); advances `text` past it.
std::optional<std::string> quoted(std::string_view& text)
{
    text = skipSpaces(text);
    if (text.empty() || text.front() != '"')
        return std::nullopt;
    const std::size_t close = text.find('"', 1);
    if (close == std::string_view::npos)
        return std::nullopt;
    std::string name(text.substr(1, close - 1));
    text.remove_prefix(close + 1);
    return name;
}

/// Axis names in a braced list `{"x", "y":(1)2, ?}`; advances `text` past the closing brace.
std::vector<std::string> axisList(std::string_view& text, std::string* dropped)
{
    std::vector<std::string> axes;
    text = skipSpaces(text);
    if (text.empty() || text.front() != '{')
        return axes;
    text.remove_prefix(1);
    while (true) {
        text = skipSpaces(text);
        if (text.empty())
            return axes;
        if (text.front() == '}') {
            text.remove_prefix(1);
            return axes;
        }
        if (text.front() == ',' || text.front() == '?') {
            text.remove_prefix(1);
            continue;
        }
        std::optional<std::string> name = quoted(text);
        if (!name) {
            text.remove_prefix(1);
            continue;
        }
        if (!text.empty() && text.front() == ':') {
            // A sub-axis "x":(pre)size: a part of the axis the partitioner's mesh cannot name.
            const std::size_t end = text.find_first_of(",}");
            if (dropped != nullptr && dropped->empty())
                *dropped = "sub-axis \"" + *name + "\"" + std::string(text.substr(0, end));
            text.remove_prefix(std::min(end, text.size()));
            continue;
        }
        axes.push_back(axisName(*name));
    }
}

std::optional<std::int64_t> integerAt(std::string_view& text)
{
    text = skipSpaces(text);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc())
        return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return value;
}

/// Rewrites the annotations of a module (see PreparedHlo).
class Preparer {
public:
    Preparer(const hlo::Module& module, std::int64_t devices)
        : m_source(module)
        , m_devices(devices)
    {}

    PreparedHlo run()
    {
        PreparedHlo prepared;
        prepared.module = m_source;
        chooseMesh();
        prepared.mesh = m_mesh;
        for (hlo::Computation& computation : prepared.module.computations)
            for (hlo::Instruction& instruction : computation.instructions)
                rewrite(instruction);
        prepared.warnings = std::move(m_warnings);
        return prepared;
    }

private:
    void warn(Message message)
    {
        if (m_warningSet.insert(message.text()).second)
            m_warnings.push_back(std::move(message));
    }

    static std::string lineOf(const hlo::Instruction& instruction)
    {
        return "line " + std::to_string(instruction.line) + ": ";
    }

    void chooseMesh()
    {
        for (const auto& [key, value] : m_source.attributes)
            if (key == "frontend_attributes")
                for (auto& [name, mesh] : parseSdyMeshes(frontendAttribute(value, "xla.sdy.meshes")))
                    if (mesh.devices() == m_devices && m_mesh.axes.empty()) {
                        m_mesh = std::move(mesh);
                        m_sdyMesh = true;
                    }
        if (m_sdyMesh)
            return;
        std::vector<GspmdSharding> tilings;
        for (const hlo::Computation& computation : m_source.computations)
            for (const hlo::Instruction& instruction : computation.instructions)
                if (const std::string* text = instruction.attribute("sharding"))
                    for (std::string_view element : gspmdTupleElements(*text))
                        if (auto sharding = parseGspmdSharding(element);
                            sharding && sharding->kind == GspmdSharding::Kind::Tiled)
                            tilings.push_back(*sharding);
        const auto mesh = meshForTilings(tilings, m_devices);
        if (!mesh)
            throw std::invalid_argument("the tilings of the module's shardings do not fit one mesh of " +
                                        std::to_string(m_devices) + " devices");
        m_mesh = *mesh;
    }

    /// The mesh-axis form of an instruction's annotation for a value of `shape`; nullopt for none
    /// (no annotation, or manual).
    std::optional<TensorSharding> fromGspmd(std::string_view text, const hlo::Shape& shape,
                                            const hlo::Instruction& instruction)
    {
        const auto sharding = parseGspmdSharding(text);
        const std::size_t rank = shape.dims.size();
        if (!sharding) {
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "sharding %1 is not understood; the value is taken as unannotated"),
                         {std::string(text)})
                     .prefixed(lineOf(instruction)));
            return std::nullopt;
        }
        if (sharding->kind == GspmdSharding::Kind::Manual)
            return std::nullopt;
        if (sharding->manualSubgroup) {
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "a partially manual sharding (last_tile_dims with manual) is taken "
                                              "as manual on every axis"),
                         {})
                     .prefixed(lineOf(instruction)));
            return std::nullopt;
        }
        if (sharding->kind == GspmdSharding::Kind::Maximal)
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "a maximal sharding (one device computes the value) is taken as "
                                              "replicated"),
                         {})
                     .prefixed(lineOf(instruction)));
        if (sharding->kind == GspmdSharding::Kind::Tiled && !m_mesh.deviceIds.empty()) {
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics", "a GSPMD tiling without a Shardy sharding on a mesh with "
                                                             "device_ids is taken as unannotated"),
                         {})
                     .prefixed(lineOf(instruction)));
            return std::nullopt;
        }
        auto spec = toTensorSharding(*sharding, rank, m_mesh);
        if (!spec) {
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "sharding %1 cannot be expressed on mesh %2; the value is taken as "
                                              "unannotated"),
                         {std::string(text), m_mesh.toString()})
                     .prefixed(lineOf(instruction)));
            return std::nullopt;
        }
        return spec;
    }

    /// One spec text per value the instruction returns (one for an array, one per element for a
    /// tuple); empty texts for values without an annotation; empty list for no annotation at all.
    std::vector<std::optional<TensorSharding>> annotations(const hlo::Instruction& instruction)
    {
        std::vector<const hlo::Shape*> shapes;
        if (instruction.shape.isTuple)
            for (const hlo::Shape& element : instruction.shape.tupleElements)
                shapes.push_back(&element);
        else
            shapes.push_back(&instruction.shape);
        std::vector<std::optional<TensorSharding>> specs;
        if (m_sdyMesh) {
            const std::string text = sdyShardingOf(instruction);
            if (!text.empty()) {
                std::string dropped;
                std::vector<TensorSharding> parsed = parseSdyShardings(text, &dropped);
                if (!dropped.empty())
                    warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                      "%1 cannot be named on the mesh; that dimension is taken as "
                                                      "replicated"),
                                 {dropped})
                             .prefixed(lineOf(instruction)));
                if (parsed.size() == shapes.size()) {
                    for (std::size_t k = 0; k < parsed.size(); ++k) {
                        parsed[k].dims.resize(shapes[k]->dims.size());
                        specs.emplace_back(std::move(parsed[k]));
                    }
                    return specs;
                }
            }
        }
        const std::string* text = instruction.attribute("sharding");
        if (text == nullptr)
            return specs;
        const std::vector<std::string_view> elements = gspmdTupleElements(*text);
        if (elements.size() == shapes.size()) {
            for (std::size_t k = 0; k < elements.size(); ++k)
                specs.push_back(fromGspmd(elements[k], *shapes[k], instruction));
        } else if (elements.size() == 1) {
            // One sharding for every element (GSPMD prints a tuple of equal shardings so).
            for (const hlo::Shape* shape : shapes)
                specs.push_back(fromGspmd(elements[0], *shape, instruction));
        } else {
            warn(
                Message(FLINT_TRANSLATE_NOOP("Diagnostics", "a tuple sharding of %1 elements for %2 values is ignored"),
                        {std::to_string(elements.size()), std::to_string(shapes.size())})
                    .prefixed(lineOf(instruction)));
        }
        return specs;
    }

    void rewrite(hlo::Instruction& instruction)
    {
        const std::vector<std::optional<TensorSharding>> specs = annotations(instruction);
        std::erase_if(instruction.attributes, [](const auto& attribute) { return attribute.first == "sharding"; });
        std::string text;
        bool any = false;
        for (std::size_t k = 0; k < specs.size(); ++k) {
            text += (k ? ";" : "") + (specs[k] ? shardingText(*specs[k]) : std::string("-"));
            any = any || specs[k].has_value();
        }
        const std::string& target = instruction.customCallTarget;
        if (instruction.opcode == "custom-call" &&
            (target == "Sharding" || target == "xla.sdy.FuncResultSharding" || target == "xla.sdy.ShardingGroup")) {
            // A constraint (or a manual value passing through, or a sharding group, which only ties
            // shardings together during propagation): free, as a bitcast is.
            instruction.opcode = "bitcast";
            instruction.customCallTarget.clear();
            if (target == "xla.sdy.ShardingGroup")
                any = false;
        }
        if (any)
            instruction.attributes.emplace_back("sharding", text);
    }

    const hlo::Module& m_source;
    std::int64_t m_devices;
    MeshShape m_mesh;
    bool m_sdyMesh = false;
    std::vector<Message> m_warnings;
    std::set<std::string> m_warningSet;
};

} // namespace

SpmdEvidence spmdEvidenceOf(const hlo::Module& module)
{
    SpmdEvidence evidence;
    for (const hlo::Computation& computation : module.computations)
        for (const hlo::Instruction& instruction : computation.instructions) {
            if (isCollectiveOpcode(instruction.opcode))
                ++evidence.collectives;
            if (isPartitionerCall(instruction))
                ++evidence.partitionerCalls;
            bool tiled = false;
            if (const std::string* text = instruction.attribute("sharding"))
                for (std::string_view element : gspmdTupleElements(*text))
                    if (auto sharding = parseGspmdSharding(element);
                        sharding && sharding->kind == GspmdSharding::Kind::Tiled) {
                        tiled = true;
                        std::int64_t devices = 1;
                        for (std::int64_t tile : sharding->tiles)
                            devices *= tile;
                        evidence.tilingDevices = std::max(evidence.tilingDevices, devices);
                    }
            if (!tiled)
                for (const TensorSharding& spec : parseSdyShardings(sdyShardingOf(instruction)))
                    tiled = tiled || !spec.isReplicated();
            evidence.tiledShardings += tiled ? 1 : 0;
        }
    return evidence;
}

std::string frontendAttribute(std::string_view attributes, std::string_view key)
{
    std::size_t at = 0;
    while ((at = attributes.find(key, at)) != std::string_view::npos) {
        const bool starts =
            at == 0 || attributes[at - 1] == '{' || attributes[at - 1] == ',' || attributes[at - 1] == ' ';
        const std::size_t equal = at + key.size();
        if (!starts || equal >= attributes.size() || attributes[equal] != '=') {
            at = equal;
            continue;
        }
        std::string value;
        std::size_t i = equal + 1;
        if (i < attributes.size() && attributes[i] == '"') {
            for (++i; i < attributes.size() && attributes[i] != '"'; ++i) {
                if (attributes[i] == '\\' && i + 1 < attributes.size())
                    ++i;
                value += attributes[i];
            }
            return value;
        }
        int depth = 0;
        for (; i < attributes.size(); ++i) {
            const char c = attributes[i];
            if (c == '\\' && i + 1 < attributes.size()) {
                value += attributes[++i];
                continue;
            }
            if (c == '{')
                ++depth;
            else if (c == '}' && depth-- == 0)
                break;
            else if (c == ',' && depth == 0)
                break;
            value += c;
        }
        return value;
    }
    return {};
}

std::vector<TensorSharding> parseSdyShardings(std::string_view text, std::string* dropped)
{
    std::vector<TensorSharding> shardings;
    std::size_t at = 0;
    // Each value's sharding is "<@mesh, [dims], replicated={...}, unreduced={...}>"; the single form
    // "#sdy.sharding<@mesh, [...]>" has the same body.
    while ((at = text.find('@', at)) != std::string_view::npos) {
        std::string_view rest = text.substr(at);
        const std::size_t open = rest.find('[');
        const std::size_t close = rest.find('>');
        if (open == std::string_view::npos || (close != std::string_view::npos && close < open))
            break;
        rest.remove_prefix(open + 1);
        TensorSharding sharding;
        while (true) {
            rest = skipSpaces(rest);
            if (rest.empty() || rest.front() == ']')
                break;
            if (rest.front() == ',') {
                rest.remove_prefix(1);
                continue;
            }
            if (rest.front() != '{')
                break;
            sharding.dims.push_back(axisList(rest, dropped));
        }
        // Attributes after the dimensions, up to this value's closing '>'.
        const std::size_t end = rest.find('>');
        const std::string_view tail = rest.substr(0, end);
        if (const std::size_t unreduced = tail.find("unreduced="); unreduced != std::string_view::npos) {
            std::string_view list = tail.substr(unreduced + 10);
            sharding.partial = axisList(list, dropped);
        }
        shardings.push_back(std::move(sharding));
        at = text.size() - rest.size() + (end == std::string_view::npos ? rest.size() : end);
    }
    return shardings;
}

std::vector<std::pair<std::string, MeshShape>> parseSdyMeshes(std::string_view text)
{
    std::vector<std::pair<std::string, MeshShape>> meshes;
    std::size_t at = 0;
    while ((at = text.find("#sdy.mesh<", at)) != std::string_view::npos) {
        // The name is the word before " = #sdy.mesh<".
        std::string name;
        if (const std::size_t equal = text.rfind('=', at); equal != std::string_view::npos) {
            std::size_t end = equal;
            while (end > 0 && text[end - 1] == ' ')
                --end;
            std::size_t start = end;
            while (start > 0 && text[start - 1] != '{' && text[start - 1] != ',' && text[start - 1] != ' ')
                --start;
            name = std::string(text.substr(start, end - start));
        }
        std::string_view rest = text.substr(at + 10);
        const std::size_t close = rest.find('>');
        const std::string_view body = rest.substr(0, close);
        at += 10;
        MeshShape mesh;
        if (const std::size_t ids = body.find("device_ids"); ids != std::string_view::npos) {
            std::string_view list = body.substr(ids);
            list.remove_prefix(std::min(list.find('[') + 1, list.size()));
            while (!list.empty() && list.front() != ']') {
                if (list.front() == ',' || list.front() == ' ') {
                    list.remove_prefix(1);
                    continue;
                }
                const std::optional<std::int64_t> id = integerAt(list);
                if (!id)
                    break;
                mesh.deviceIds.push_back(*id);
            }
        }
        std::string_view axes = body;
        const std::size_t open = axes.find('[');
        if (open == std::string_view::npos)
            continue;
        axes.remove_prefix(open + 1);
        bool valid = true;
        while (true) {
            axes = skipSpaces(axes);
            if (axes.empty() || axes.front() == ']')
                break;
            if (axes.front() == ',') {
                axes.remove_prefix(1);
                continue;
            }
            const std::optional<std::string> axis = quoted(axes);
            axes = skipSpaces(axes);
            if (!axis || axes.empty() || axes.front() != '=') {
                valid = false;
                break;
            }
            axes.remove_prefix(1);
            const std::optional<std::int64_t> size = integerAt(axes);
            if (!size || *size < 1 || *size > (1 << 20)) {
                valid = false;
                break;
            }
            mesh.axes.emplace_back(axisName(*axis), *size);
        }
        // Device ids must name each device of the mesh once (partitionForMesh checks the permutation).
        if (!mesh.deviceIds.empty() && static_cast<std::int64_t>(mesh.deviceIds.size()) != mesh.devices())
            valid = false;
        if (valid && !mesh.axes.empty() && mesh.devices() <= (1 << 20))
            meshes.emplace_back(std::move(name), std::move(mesh));
    }
    return meshes;
}

PreparedHlo prepareUnpartitionedHlo(const hlo::Module& module, std::int64_t devices)
{
    return Preparer(module, devices).run();
}

} // namespace flint::core::partition
