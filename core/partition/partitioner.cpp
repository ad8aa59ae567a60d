// SPDX-License-Identifier: MIT
#include "core/partition/partitioner.h"

#include "core/hlo/hlocost.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace flint::core::partition {
namespace {

using hlo::Instruction;
using hlo::Shape;
using Axes = std::vector<std::string>;

bool isElementwise(const std::string& opcode)
{
    // copy and bitcast keep the operand's shape and are partitioned like elementwise ops.
    return hlo::isElementwiseOpcode(opcode) || opcode == "copy" || opcode == "bitcast";
}

/// What the partitioners of one module's computations (the entry and the loop regions) share: the
/// module being built, the replica-group lists, the warnings and the names handed out.
struct SharedState {
    PartitionedModule out;
    std::map<std::string, std::shared_ptr<const hlo::ReplicaGroupList>> groups;
    std::set<std::string> warningSet;
    std::int64_t collectives = 0;
    std::int64_t slices = 0;
    int depth = 0;
};

class Partitioner {
public:
    /// Partitions `program` into a computation of its own. For a loop region, `parameterSpecs`
    /// gives the layout of each element of the loop state: the computation then takes one tuple
    /// parameter, and returns its results laid out the same way.
    Partitioner(const LogicalProgram& program, const MeshShape& mesh, SharedState& shared,
                const std::vector<TensorSharding>* parameterSpecs = nullptr)
        : m_program(program)
        , m_mesh(mesh)
        , m_shared(shared)
        , m_parameterSpecs(parameterSpecs)
    {}

    /// Partitions every op and appends the computation to the module; returns its index.
    std::uint32_t run(const std::string& name)
    {
        partitionAll();
        --m_shared.depth;
        return m_parameterSpecs != nullptr ? finishRegion(name) : finishEntry(name);
    }

    /// A loop body's results as it lays them out, before they are resharded to the carried layout.
    std::vector<TensorSharding> runForLayouts()
    {
        partitionAll();
        --m_shared.depth;
        std::vector<TensorSharding> layouts;
        for (std::uint32_t result : m_program.results)
            layouts.push_back(m_spec[result]);
        return layouts;
    }

private:
    void partitionAll()
    {
        if (++m_shared.depth > 64)
            throw std::invalid_argument("while loops nest more than 64 deep");
        if (m_parameterSpecs != nullptr)
            emitRegionParameter();
        computeHints();
        m_value.resize(m_program.ops.size());
        m_spec.resize(m_program.ops.size());
        for (std::uint32_t i = 0; i < m_program.ops.size(); ++i) {
            // Dimension numbers come from the input and index shardings with at(): one out of range
            // that no explicit check caught is still the input's fault, named with its op.
            try {
                partitionOp(i);
                applyAnnotation(i);
            } catch (const std::out_of_range&) {
                throw std::invalid_argument(where(i) + m_program.ops[i].instruction.opcode +
                                            ": a dimension number is outside its operand's dimensions");
            }
        }
    }

    /// The entry computation's root: the results, completed or laid out as the caller asked.
    std::uint32_t finishEntry(const std::string& name)
    {
        Instruction root;
        root.name = "results";
        root.opcode = "tuple";
        root.shape.isTuple = true;
        for (std::size_t k = 0; k < m_program.results.size(); ++k) {
            const std::uint32_t result = m_program.results[k];
            if (k < m_program.resultShardings.size() && m_program.resultShardings[k] && globalShape(result).isArray()) {
                // The caller's output sharding (jax's out_shardings): gradients a train step returns
                // sharded as their parameters are reduce-scattered, not all-reduced.
                TensorSharding target = fitToMesh(*m_program.resultShardings[k], "result " + std::to_string(k));
                target.dims.resize(globalShape(result).dims.size());
                m_value[result] = reshardKeepingPartial(result, target);
                m_spec[result] = std::move(target);
                if (!m_spec[result].partial.empty())
                    m_keepPartial.insert(result);
            }
            const std::uint32_t complete = m_keepPartial.count(result) ? m_value[result] : resolvePartial(result);
            root.operands.push_back(complete);
            root.shape.tupleElements.push_back(m_computation.instructions[complete].shape);
        }
        m_computation.root = emit(std::move(root));
        m_computation.name = name;
        m_computation.isEntry = true;
        m_shared.out.module.computations.push_back(std::move(m_computation));
        return static_cast<std::uint32_t>(m_shared.out.module.computations.size() - 1);
    }

    /// Layouts the users of a value would like it in, for values without one of their own: the
    /// annotations of the results and of ops (a manual region's entry included), carried back
    /// through elementwise ops of equal shape and from a loop's results to its initial state. Only
    /// used where a layout is free to choose: an unannotated argument, and the carried layout of a
    /// loop state initialised replicated.
    void computeHints()
    {
        const auto setHint = [&](std::uint32_t op, const TensorSharding& spec) {
            if (!globalShape(op).isArray() || spec.dims.size() > globalShape(op).dims.size() || m_hints.count(op) != 0)
                return;
            TensorSharding hint = spec;
            hint.partial.clear();
            hint.dims.resize(globalShape(op).dims.size());
            if (!hint.isReplicated())
                m_hints.emplace(op, std::move(hint));
        };
        for (std::size_t k = 0; k < m_program.results.size() && k < m_program.resultShardings.size(); ++k)
            if (m_program.resultShardings[k])
                setHint(m_program.results[k], *m_program.resultShardings[k]);
        for (std::uint32_t i = static_cast<std::uint32_t>(m_program.ops.size()); i-- > 0;) {
            const LogicalOp& logical = m_program.ops[i];
            const auto own = m_hints.find(i);
            const TensorSharding* hint = logical.sharding       ? &*logical.sharding
                                         : own != m_hints.end() ? &own->second
                                                                : nullptr;
            if (hint == nullptr)
                continue;
            const std::string& opcode = logical.instruction.opcode;
            if (isElementwise(opcode)) {
                for (std::uint32_t operand : logical.operands)
                    if (globalShape(operand).dims == logical.instruction.shape.dims)
                        setHint(operand, *hint);
            } else if (opcode == "custom-call" && logical.instruction.customCallTarget == "SPMDFullToShardShape" &&
                       logical.operands.size() == 1 && logical.sharding) {
                setHint(logical.operands[0], *logical.sharding);
            } else if (opcode == "get-tuple-element" && logical.operands.size() == 1) {
                const LogicalOp& source = m_program.ops[logical.operands[0]];
                const auto k = static_cast<std::size_t>(logical.instruction.tupleIndex.value_or(0));
                if (source.instruction.opcode == "while" && k < source.operands.size())
                    setHint(source.operands[k], *hint);
            }
        }
    }

    /// A loop region takes the loop state as one tuple parameter.
    void emitRegionParameter()
    {
        Instruction parameter;
        parameter.name = "state";
        parameter.opcode = "parameter";
        parameter.parameterNumber = 0;
        parameter.shape.isTuple = true;
        m_regionParameter = emit(std::move(parameter));
    }

    /// The region's root: its single result (a loop condition's predicate), or the tuple of its
    /// results, each laid out as the loop state is.
    std::uint32_t finishRegion(const std::string& name)
    {
        // The parameter's shape is the tuple of the state's local shapes.
        Shape state;
        state.isTuple = true;
        for (std::size_t k = 0; k < m_parameterSpecs->size(); ++k)
            state.tupleElements.push_back(m_regionElementShapes.at(k));
        m_computation.instructions[m_regionParameter].shape = state;
        if (m_program.results.size() == 1 && m_program.ops[m_program.results[0]].instruction.shape.isArray() &&
            m_program.ops[m_program.results[0]].instruction.shape.elementType == DType::Pred) {
            m_computation.root = resolvePartial(m_program.results[0]);
        } else {
            Instruction root;
            root.name = "next_state";
            root.opcode = "tuple";
            root.shape.isTuple = true;
            for (std::size_t k = 0; k < m_program.results.size(); ++k) {
                const std::uint32_t result = m_program.results[k];
                const std::uint32_t local = k < m_parameterSpecs->size() && globalShape(result).isArray()
                                                ? reshard(result, (*m_parameterSpecs)[k])
                                                : resolvePartial(result);
                root.operands.push_back(local);
                root.shape.tupleElements.push_back(m_computation.instructions[local].shape);
            }
            m_computation.root = emit(std::move(root));
        }
        m_computation.name = name;
        m_shared.out.module.computations.push_back(std::move(m_computation));
        return static_cast<std::uint32_t>(m_shared.out.module.computations.size() - 1);
    }

public:
private:
    const Shape& globalShape(std::uint32_t op) const { return m_program.ops[op].instruction.shape; }

    std::int64_t axesProduct(const Axes& axes) const
    {
        std::int64_t product = 1;
        for (const std::string& axis : axes)
            product *= std::max<std::int64_t>(1, m_mesh.sizeOf(axis));
        return product;
    }

    /// `global` as each device holds it under `sharding`. An argument of the program must split
    /// evenly (JAX refuses uneven argument shardings: std::invalid_argument); other values are
    /// padded, as XLA pads them.
    Shape localShape(const Shape& global, const TensorSharding& sharding, const std::string& what,
                     bool argument = false) const
    {
        Shape local = global;
        if (!local.isArray())
            return local;
        for (std::size_t d = 0; d < local.dims.size() && d < sharding.dims.size(); ++d) {
            const std::int64_t parts = axesProduct(sharding.dims[d]);
            if (local.dims[d] % parts != 0 && argument)
                throw std::invalid_argument(what + ": dimension " + std::to_string(d) + " of size " +
                                            std::to_string(local.dims[d]) + " does not split into " +
                                            std::to_string(parts) + " shards on mesh " + m_mesh.toString() +
                                            " (arguments must split evenly)");
            if (local.dims[d] % parts != 0) {
                // Uneven shards are padded to the next multiple, as XLA's SPMD partitioner does
                // (GSPMD, Xu et al. 2021, section 3.4): every device holds ceil(size / parts).
                const std::vector<std::string> arguments{what,
                                                         std::to_string(d),
                                                         std::to_string(local.dims[d]),
                                                         std::to_string((local.dims[d] + parts - 1) / parts * parts),
                                                         std::to_string(parts),
                                                         m_mesh.toString()};
                Message message =
                    what.empty() ? Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                                "a resharded value: dimension %2 of size %3 is padded "
                                                                "to %4 to split into %5 shards on mesh %6"),
                                           arguments)
                                 : Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                                "%1: dimension %2 of size %3 is padded to %4 to split "
                                                                "into %5 shards on mesh %6"),
                                           arguments);
                if (m_shared.warningSet.insert(message.text()).second)
                    m_shared.out.warnings.push_back(std::move(message));
            }
            local.dims[d] = (local.dims[d] + parts - 1) / parts;
        }
        return local;
    }

    std::uint32_t emit(Instruction instruction)
    {
        m_computation.instructions.push_back(std::move(instruction));
        return static_cast<std::uint32_t>(m_computation.instructions.size() - 1);
    }

    /// Groups of global device ids that differ only in their coordinates on `axes`.
    std::shared_ptr<const hlo::ReplicaGroupList> groupsOver(const Axes& axes)
    {
        std::string key;
        for (const std::string& axis : axes)
            key += axis + ",";
        if (const auto it = m_shared.groups.find(key); it != m_shared.groups.end())
            return it->second;
        std::map<std::vector<std::int64_t>, std::vector<std::int64_t>> byRest;
        const std::int64_t devices = m_mesh.devices();
        for (std::int64_t device = 0; device < devices; ++device) {
            std::vector<std::int64_t> rest;
            std::int64_t remaining = device;
            std::vector<std::int64_t> coordinates(m_mesh.axes.size());
            for (std::size_t a = m_mesh.axes.size(); a-- > 0;) {
                coordinates[a] = remaining % m_mesh.axes[a].second;
                remaining /= m_mesh.axes[a].second;
            }
            for (std::size_t a = 0; a < m_mesh.axes.size(); ++a)
                if (std::find(axes.begin(), axes.end(), m_mesh.axes[a].first) == axes.end())
                    rest.push_back(coordinates[a]);
            byRest[rest].push_back(m_mesh.deviceIds.empty() ? device
                                                            : m_mesh.deviceIds.at(static_cast<std::size_t>(device)));
        }
        auto groups = std::make_shared<hlo::ReplicaGroupList>();
        for (auto& [rest, members] : byRest) {
            std::sort(members.begin(), members.end());
            groups->push_back(std::move(members));
        }
        std::sort(groups->begin(), groups->end());
        m_shared.groups.emplace(key, groups);
        return groups;
    }

    std::uint32_t collective(const std::string& opcode, std::uint32_t operand, Shape shape, const Axes& axes,
                             std::vector<std::int64_t> dimensions, const std::string& scope)
    {
        Instruction op;
        op.opcode = opcode;
        op.name = opcode + "." + std::to_string(++m_shared.collectives);
        op.operands = {operand};
        op.shape = std::move(shape);
        op.channelId = m_shared.collectives;
        if (opcode != "all-to-all")
            op.useGlobalDeviceIds = true;
        op.replicaGroups = groupsOver(axes);
        op.dimensions = std::move(dimensions);
        op.metadata.opName = scope.empty() ? "partitioner/" + opcode : scope + "/" + opcode;
        ++m_shared.out.collectivesInserted;
        return emit(std::move(op));
    }

    std::string scopeOf(std::uint32_t op) const { return m_program.ops[op].instruction.metadata.opName; }
    /// The scope of the collectives that reshard `op`: its own, or for an op without one (a parameter)
    /// the scope of the sharding constraint being applied, so that a gather of a parameter is named
    /// after the constraint that asked for it.
    std::string reshardScope(std::uint32_t op) const
    {
        std::string scope = scopeOf(op);
        return scope.empty() ? m_constraintScope : scope;
    }

    /// Completes a pending partial sum of `op`'s value with an all-reduce over its partial axes.
    std::uint32_t resolvePartial(std::uint32_t op)
    {
        TensorSharding& spec = m_spec[op];
        if (spec.partial.empty())
            return m_value[op];
        const Shape shape = m_computation.instructions[m_value[op]].shape;
        m_value[op] = collective("all-reduce", m_value[op], shape, spec.partial, {}, scopeOf(op));
        spec.partial.clear();
        return m_value[op];
    }

    /// Completes the partial sums over `axes` of `value` (laid out as `current`) by a reduce-scatter onto
    /// the dimension that `target` shards over that dimension's axes followed by `axes` (the minor end);
    /// `remaining` partial axes stay pending. False, changing nothing, when no dimension matches.
    bool reduceScatter(std::uint32_t& value, TensorSharding& current, const TensorSharding& target, const Axes& axes,
                       const Axes& remaining, const Shape& global, const std::string& scope)
    {
        for (std::size_t d = 0; d < current.dims.size() && d < target.dims.size(); ++d) {
            Axes scattered = current.dims[d];
            scattered.insert(scattered.end(), axes.begin(), axes.end());
            if (target.dims[d] != scattered)
                continue;
            TensorSharding next = current;
            next.dims[d] = std::move(scattered);
            next.partial = remaining;
            value = collective("reduce-scatter", value, localShape(global, next, scope), axes,
                               {static_cast<std::int64_t>(d)}, scope);
            current = std::move(next);
            return true;
        }
        return false;
    }

    /// The local value of `op` laid out as `target` (no partial axes), inserting the collectives it
    /// takes; the result is cached only when `target` equals the op's own spec.
    std::uint32_t reshard(std::uint32_t op, const TensorSharding& target)
    {
        TensorSharding current = m_spec[op];
        std::uint32_t value = m_value[op];
        const Shape& global = globalShape(op);
        const std::string scope = reshardScope(op);
        const std::size_t rank = global.dims.size();
        current.dims.resize(rank);
        // Partial -> sharded on the partial axes along a dimension, after the axes that dimension
        // already has (the minor end, as sequence parallelism inside context parallelism splits the
        // sequence): reduce-scatter.
        if (!current.partial.empty()) {
            const Axes partial = current.partial;
            const bool scattered = reduceScatter(value, current, target, partial, {}, global, scope);
            if (!scattered) {
                value = collective("all-reduce", value, m_computation.instructions[value].shape, current.partial, {},
                                   scope);
                current.partial.clear();
                if (m_spec[op].dims == current.dims) {
                    m_spec[op] = current;
                    m_value[op] = value;
                }
            }
        }
        return reshardDims(value, current, target, global, scope);
    }

    /// `value`, laid out as `current` (dimensions only; pending partial axes are carried along, as
    /// gathering, exchanging or slicing addends is linear), laid out as `target`'s dimensions.
    std::uint32_t reshardDims(std::uint32_t value, TensorSharding current, const TensorSharding& target,
                              const Shape& global, const std::string& scope)
    {
        const std::size_t rank = global.dims.size();
        current.dims.resize(rank);
        // Axes moving from one dimension to another: all-to-all. The moving axes are the whole list
        // of the source dimension, or its minor (trailing) axes when the rest stays.
        for (std::size_t from = 0; from < rank; ++from) {
            if (current.dims[from].empty() || (from < target.dims.size() && current.dims[from] == target.dims[from]))
                continue;
            const Axes stay = from < target.dims.size() ? target.dims[from] : Axes{};
            if (stay.size() >= current.dims[from].size() ||
                !std::equal(stay.begin(), stay.end(), current.dims[from].begin()))
                continue;
            const Axes moving(current.dims[from].begin() + static_cast<std::ptrdiff_t>(stay.size()),
                              current.dims[from].end());
            for (std::size_t to = 0; to < rank && to < target.dims.size(); ++to) {
                if (to == from)
                    continue;
                Axes joined = current.dims[to];
                joined.insert(joined.end(), moving.begin(), moving.end());
                if (target.dims[to] != joined)
                    continue;
                TensorSharding next = current;
                next.dims[to] = joined;
                next.dims[from] = stay;
                value = collective("all-to-all", value, localShape(global, next, scope), moving,
                                   {static_cast<std::int64_t>(from), static_cast<std::int64_t>(to)}, scope);
                current = next;
                break;
            }
        }
        // Sharded -> less sharded: all-gather the axes the target does not keep (only the minor ones
        // when the target keeps the major axes of the dimension).
        for (std::size_t d = 0; d < rank; ++d) {
            const Axes want = d < target.dims.size() ? target.dims[d] : Axes{};
            if (current.dims[d].empty() || current.dims[d] == want)
                continue;
            const bool keepsPrefix =
                want.size() < current.dims[d].size() && std::equal(want.begin(), want.end(), current.dims[d].begin());
            const Axes kept = keepsPrefix ? want : Axes{};
            const Axes gathered(current.dims[d].begin() + static_cast<std::ptrdiff_t>(kept.size()),
                                current.dims[d].end());
            TensorSharding next = current;
            next.dims[d] = kept;
            value = collective("all-gather", value, localShape(global, next, scope), gathered,
                               {static_cast<std::int64_t>(d)}, scope);
            current = next;
        }
        // Replicated -> sharded: each device slices its shard locally (no communication).
        for (std::size_t d = 0; d < rank && d < target.dims.size(); ++d) {
            if (current.dims[d] == target.dims[d])
                continue;
            TensorSharding next = current;
            next.dims[d] = target.dims[d];
            Instruction slice;
            slice.opcode = "slice";
            slice.name = "reshard.slice." + std::to_string(++m_shared.slices);
            slice.operands = {value};
            slice.shape = localShape(global, next, scope);
            slice.metadata.opName = scope.empty() ? "partitioner/slice" : scope + "/slice";
            value = emit(std::move(slice));
            current = next;
        }
        return value;
    }

    /// The value of `op` laid out as `target`, which may keep partial axes (Shardy's unreduced):
    /// partial axes the target does not keep are reduced, axes it adds are free (the value is
    /// already complete along them), and dimensions are resharded with the addends.
    std::uint32_t reshardKeepingPartial(std::uint32_t op, const TensorSharding& target)
    {
        if (target.partial.empty())
            return reshard(op, target);
        TensorSharding current = m_spec[op];
        std::uint32_t value = m_value[op];
        const Shape& global = globalShape(op);
        const std::string scope = reshardScope(op);
        Axes extra;
        for (const std::string& axis : current.partial)
            if (std::find(target.partial.begin(), target.partial.end(), axis) == target.partial.end())
                extra.push_back(axis);
        if (!extra.empty()) {
            // Completing some partial axes onto a dimension sharded over them is a reduce-scatter over
            // those axes (the rest stay pending: hybrid sharding reduce-scatters inside a shard group,
            // then all-reduces across the groups); otherwise an all-reduce over them.
            current.dims.resize(global.dims.size());
            if (!reduceScatter(value, current, target, extra, target.partial, global, scope))
                value = collective("all-reduce", value, m_computation.instructions[value].shape, extra, {}, scope);
        }
        current.partial = target.partial;
        return reshardDims(value, current, target, global, scope);
    }

    TensorSharding replicated(std::uint32_t op) const
    {
        TensorSharding spec;
        spec.dims.resize(globalShape(op).dims.size());
        return spec;
    }

    /// Drops axes the mesh does not have, and axes used twice.
    TensorSharding fitToMesh(TensorSharding spec, const std::string& what)
    {
        std::set<std::string> used;
        for (Axes& axes : spec.dims) {
            Axes kept;
            for (const std::string& axis : axes) {
                if (m_mesh.sizeOf(axis) == 0) {
                    warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics", "%1: mesh axis '%2' is not in mesh %3; ignored"),
                                 {what, axis, m_mesh.toString()}));
                    continue;
                }
                // An axis of size 1 splits nothing: the dimension is whole on every device.
                if (used.insert(axis).second && m_mesh.sizeOf(axis) > 1)
                    kept.push_back(axis);
            }
            axes = std::move(kept);
        }
        Axes partial;
        for (const std::string& axis : spec.partial)
            if (m_mesh.sizeOf(axis) > 1 && used.insert(axis).second)
                partial.push_back(axis);
        spec.partial = std::move(partial);
        return spec;
    }

    void warn(Message message)
    {
        if (m_shared.warningSet.insert(message.text()).second)
            m_shared.out.warnings.push_back(std::move(message));
    }

    /// Emits `op` with local operands `operands`, result spec `spec`.
    void emitOp(std::uint32_t op, std::vector<std::uint32_t> operands, TensorSharding spec)
    {
        const LogicalOp& logical = m_program.ops[op];
        Instruction instruction = logical.instruction;
        instruction.operands = std::move(operands);
        if (instruction.shape.isArray())
            instruction.shape = localShape(instruction.shape, spec, instruction.name);
        instruction.attributes.erase(
            std::remove_if(instruction.attributes.begin(), instruction.attributes.end(),
                           [](const auto& attribute) { return attribute.first == "sharding"; }),
            instruction.attributes.end());
        // The partitioned module holds one computation: a combiner (reduce, scatter) is costed by
        // the op's opcode, not by a computation the new module does not have.
        instruction.toApply.reset();
        instruction.calls.clear();
        m_value[op] = emit(std::move(instruction));
        m_spec[op] = std::move(spec);
    }

    /// An op whose result carries an annotation that no rule below consumed (GSPMD and Shardy
    /// shardings on ordinary ops bind their result): its value is resharded to it.
    void applyAnnotation(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        if (!logical.sharding || !instruction.shape.isArray() || instruction.opcode == "parameter" ||
            instruction.opcode == "custom-call" ||
            (logical.operands.size() == 1 && (instruction.opcode == "bitcast" || instruction.opcode == "copy")))
            return;
        TensorSharding target = fitToMesh(*logical.sharding, instruction.name);
        target.dims.resize(instruction.shape.dims.size());
        if (target == m_spec[op])
            return;
        m_value[op] = reshardKeepingPartial(op, target);
        if (!target.partial.empty())
            m_keepPartial.insert(op);
        m_spec[op] = std::move(target);
    }

    /// The entry and exit of a manual region (shard_map, sdy.manual_computation as HLO prints them):
    /// SPMDFullToShardShape hands each device its shard of a global value (resharded to the
    /// annotation, or to the operand's own sharding) as a value of the local shape, on which the
    /// region's ops, collectives included, run as written; SPMDShardToFullShape takes each device's
    /// local value as its shard of a global value laid out as annotated.
    bool partitionManualBoundary(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        if (instruction.opcode != "custom-call" || logical.operands.size() != 1 || !instruction.shape.isArray())
            return false;
        const std::uint32_t operand = logical.operands[0];
        if (instruction.customCallTarget == "SPMDFullToShardShape") {
            TensorSharding target = logical.sharding ? fitToMesh(*logical.sharding, instruction.name) : m_spec[operand];
            target.partial.clear();
            target.dims.resize(globalShape(operand).dims.size());
            m_value[op] = reshard(operand, target);
            if (m_computation.instructions[m_value[op]].shape.dims != instruction.shape.dims)
                warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                  "the manual region's local shape %1 is not the shard %2 of the "
                                                  "global value on mesh %3; the region runs as written"),
                             {dimsText(instruction.shape.dims),
                              dimsText(m_computation.instructions[m_value[op]].shape.dims), m_mesh.toString()})
                         .prefixed(where(op)));
            m_spec[op] = replicated(op);
            return true;
        }
        if (instruction.customCallTarget == "SPMDShardToFullShape") {
            TensorSharding spec = logical.sharding ? fitToMesh(*logical.sharding, instruction.name) : replicated(op);
            spec.partial.clear();
            spec.dims.resize(instruction.shape.dims.size());
            const std::uint32_t local = resolvePartial(operand);
            const Shape expected = localShape(instruction.shape, spec, instruction.name);
            if (m_computation.instructions[local].shape.dims != expected.dims)
                warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                  "the manual region returns %1 per device, not the shard %2 of %3 "
                                                  "on mesh %4"),
                             {dimsText(m_computation.instructions[local].shape.dims), dimsText(expected.dims),
                              dimsText(instruction.shape.dims), m_mesh.toString()})
                         .prefixed(where(op)));
            m_value[op] = local;
            m_spec[op] = std::move(spec);
            return true;
        }
        return false;
    }

    void partitionOp(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const std::string& opcode = instruction.opcode;
        const std::size_t rank = instruction.shape.dims.size();
        const auto& operands = logical.operands;

        if (opcode == "parameter" && m_parameterSpecs != nullptr) {
            // An element of a loop's state: laid out as the loop carries it.
            const auto k = static_cast<std::size_t>(instruction.parameterNumber.value_or(0));
            if (k >= m_parameterSpecs->size())
                throw std::invalid_argument(where(op) + "loop state element " + std::to_string(k) + " out of range");
            TensorSharding spec = (*m_parameterSpecs)[k];
            spec.dims.resize(rank);
            Instruction element;
            element.name = instruction.name;
            element.opcode = "get-tuple-element";
            element.tupleIndex = static_cast<std::int64_t>(k);
            element.operands = {m_regionParameter};
            element.shape =
                instruction.shape.isArray() ? localShape(instruction.shape, spec, instruction.name) : instruction.shape;
            m_regionElementShapes[k] = element.shape;
            m_value[op] = emit(std::move(element));
            m_spec[op] = std::move(spec);
            return;
        }
        if (opcode == "while" && logical.regions.size() == 2) {
            partitionWhile(op);
            return;
        }
        if (opcode == "get-tuple-element" && operands.size() == 1 && m_tupleSpecs.count(operands[0]) != 0) {
            const auto k = static_cast<std::size_t>(instruction.tupleIndex.value_or(0));
            const std::vector<TensorSharding>& state = m_tupleSpecs.at(operands[0]);
            if (k >= state.size())
                throw std::invalid_argument(where(op) + "loop state element " + std::to_string(k) + " out of range");
            Instruction element = instruction;
            element.operands = {m_value[operands[0]]};
            element.shape = m_computation.instructions[m_value[operands[0]]].shape.tupleElements.at(k);
            m_value[op] = emit(std::move(element));
            m_spec[op] = state[k];
            return;
        }
        if (opcode == "bitcast-convert" && operands.size() == 1 &&
            globalShape(operands[0]).dims == instruction.shape.dims) {
            // Same shape, another element type: the layout carries over (a partial sum does not).
            TensorSharding spec = m_spec[operands[0]];
            spec.partial.clear();
            spec.dims.resize(rank);
            const std::uint32_t local = reshard(operands[0], spec);
            emitOp(op, {local}, std::move(spec));
            return;
        }
        if (opcode == "reverse" && operands.size() == 1) {
            // Reversed dimensions are gathered (XLA exchanges halves instead); the others keep their axes.
            TensorSharding spec = m_spec[operands[0]];
            spec.partial.clear();
            spec.dims.resize(rank);
            for (std::int64_t d : instruction.dimensions)
                if (d >= 0 && static_cast<std::size_t>(d) < rank)
                    spec.dims[static_cast<std::size_t>(d)].clear();
            const std::uint32_t local = reshard(operands[0], spec);
            emitOp(op, {local}, std::move(spec));
            return;
        }
        if ((opcode == "slice" || opcode == "dynamic-slice" || opcode == "pad") && !operands.empty() &&
            globalShape(operands[0]).isArray()) {
            partitionSlice(op);
            return;
        }
        if (opcode == "dynamic-update-slice" && operands.size() >= 2) {
            partitionUpdateSlice(op);
            return;
        }
        if (opcode == "concatenate" && !operands.empty() && instruction.dimensions.size() == 1) {
            partitionConcatenate(op);
            return;
        }
        if (opcode == "parameter") {
            // An argument without a sharding takes the layout its users ask for, as XLA's
            // propagation sets the layout of unannotated arguments (JAX's default in_shardings).
            const auto hint = m_hints.find(op);
            TensorSharding spec = logical.sharding        ? fitToMesh(*logical.sharding, instruction.name)
                                  : hint != m_hints.end() ? fitToMesh(hint->second, instruction.name)
                                                          : replicated(op);
            spec.dims.resize(rank);
            if (!spec.partial.empty())
                m_keepPartial.insert(op);
            (void)localShape(instruction.shape, spec, instruction.name, true);
            emitOp(op, {}, std::move(spec));
            return;
        }
        if (logical.sharding && operands.size() == 1 && (opcode == "bitcast" || opcode == "copy")) {
            // A sharding constraint: reshard the operand to it.
            TensorSharding target = fitToMesh(*logical.sharding, instruction.name);
            target.dims.resize(rank);
            m_constraintScope = instruction.metadata.opName;
            m_value[op] = reshardKeepingPartial(operands[0], target);
            m_constraintScope.clear();
            if (!target.partial.empty())
                m_keepPartial.insert(op);
            m_spec[op] = std::move(target);
            return;
        }
        if (partitionManualBoundary(op))
            return;
        if (opcode == "constant" || opcode == "iota" || opcode == "replica-id" || opcode == "partition-id") {
            emitOp(op, {}, replicated(op));
            return;
        }
        if (isElementwise(opcode) && !operands.empty() && partitionLinear(op))
            return;
        if (isElementwise(opcode) && !operands.empty()) {
            // Follow the operand (of full rank) with the most sharded dimensions.
            std::optional<std::uint32_t> leader;
            std::size_t best = 0;
            for (std::uint32_t operand : operands) {
                if (globalShape(operand).dims != instruction.shape.dims)
                    continue;
                std::size_t sharded = 0;
                for (const Axes& axes : m_spec[operand].dims)
                    sharded += axes.size();
                if (!leader || sharded > best) {
                    leader = operand;
                    best = sharded;
                }
            }
            TensorSharding target = leader ? m_spec[*leader] : replicated(op);
            target.partial.clear();
            target.dims.resize(rank);
            std::vector<std::uint32_t> locals;
            for (std::uint32_t operand : operands)
                locals.push_back(globalShape(operand).dims == instruction.shape.dims
                                     ? reshard(operand, target)
                                     : reshard(operand, replicated(operand)));
            emitOp(op, std::move(locals), std::move(target));
            return;
        }
        if (opcode == "broadcast" && operands.size() == 1) {
            TensorSharding source = m_spec[operands[0]];
            source.partial.clear();
            TensorSharding target = replicated(op);
            for (std::size_t i = 0; i < instruction.dimensions.size() && i < source.dims.size(); ++i) {
                const auto d = static_cast<std::size_t>(instruction.dimensions[i]);
                // A size-1 operand dimension broadcast to a larger one cannot stay sharded.
                if (d < rank && globalShape(operands[0]).dims[i] == instruction.shape.dims[d])
                    target.dims[d] = source.dims[i];
                else
                    source.dims[i].clear();
            }
            emitOp(op, {reshard(operands[0], source)}, std::move(target));
            return;
        }
        if (opcode == "transpose" && operands.size() == 1) {
            // A transpose moves addends as it moves values: a pending partial sum stays pending.
            TensorSharding source = m_spec[operands[0]];
            source.dims.resize(globalShape(operands[0]).dims.size());
            TensorSharding target = replicated(op);
            std::vector<bool> seen(source.dims.size(), false);
            for (std::int64_t d : instruction.dimensions) {
                if (d < 0 || static_cast<std::size_t>(d) >= seen.size() || seen[static_cast<std::size_t>(d)])
                    throw std::invalid_argument(where(op) +
                                                "transpose: dimensions are no permutation of the operand's " +
                                                std::to_string(seen.size()) + " dimensions");
                seen[static_cast<std::size_t>(d)] = true;
            }
            for (std::size_t i = 0; i < instruction.dimensions.size() && i < rank; ++i)
                target.dims[i] = source.dims.at(static_cast<std::size_t>(instruction.dimensions[i]));
            target.partial = source.partial;
            emitOp(op, {m_value[operands[0]]}, std::move(target));
            return;
        }
        if (opcode == "reshape" && operands.size() == 1) {
            partitionReshape(op);
            return;
        }
        if (opcode == "dot" && operands.size() == 2) {
            partitionDot(op);
            return;
        }
        if (opcode == "convolution" && operands.size() == 2) {
            partitionConvolution(op);
            return;
        }
        if (opcode == "gather" && operands.size() == 2 && instruction.attribute("offset_dims")) {
            partitionGather(op);
            return;
        }
        if (opcode == "scatter" && operands.size() == 3 && instruction.attribute("update_window_dims")) {
            partitionScatter(op);
            return;
        }
        if (opcode == "custom-call" && instruction.customCallTarget == "CustomSPMDPartitioning") {
            partitionCustomPartitioned(op);
            return;
        }
        if ((opcode == "sort" || opcode == "topk" ||
             (opcode == "custom-call" && instruction.customCallTarget == "TopK")) &&
            !operands.empty()) {
            partitionAlongDimension(op);
            return;
        }
        if ((opcode == "reduce" && operands.size() > 2 && operands.size() % 2 == 0) ||
            (opcode == "reduce-window" && operands.size() >= 2 && operands.size() % 2 == 0)) {
            partitionVariadicReduce(op);
            return;
        }
        if (opcode == "reduce" && operands.size() == 2) {
            TensorSharding source = m_spec[operands[0]];
            source.partial.clear();
            TensorSharding target;
            for (std::size_t d = 0; d < source.dims.size(); ++d) {
                const bool reduced = std::find(instruction.dimensions.begin(), instruction.dimensions.end(),
                                               static_cast<std::int64_t>(d)) != instruction.dimensions.end();
                if (reduced)
                    target.partial.insert(target.partial.end(), source.dims[d].begin(), source.dims[d].end());
                else
                    target.dims.push_back(source.dims[d]);
            }
            target.dims.resize(rank);
            emitOp(op, {reshard(operands[0], source), reshard(operands[1], replicated(operands[1]))},
                   std::move(target));
            return;
        }
        if (opcode == "tuple") {
            std::vector<std::uint32_t> locals;
            for (std::uint32_t operand : operands)
                locals.push_back(m_keepPartial.count(operand) ? m_value[operand] : resolvePartial(operand));
            Instruction tuple = instruction;
            tuple.operands = locals;
            tuple.shape.tupleElements.clear();
            for (std::uint32_t local : locals)
                tuple.shape.tupleElements.push_back(m_computation.instructions[local].shape);
            m_value[op] = emit(std::move(tuple));
            m_spec[op] = {};
            return;
        }
        // Anything else runs on replicated operands and gives a replicated result.
        if (opcode == "while" || opcode == "conditional" || opcode == "call")
            warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "'%1' is not partitioned (its operands are gathered and it runs "
                                              "as one opaque op)"),
                         {opcode}));
        std::vector<std::uint32_t> locals;
        for (std::uint32_t operand : operands)
            locals.push_back(reshard(operand, replicated(operand)));
        if (opcode == "while" || opcode == "conditional" || opcode == "call") {
            Instruction opaque = instruction;
            opaque.opcode = "custom-call";
            opaque.customCallTarget = "flint.unpartitioned." + instruction.opcode;
            opaque.condition.reset();
            opaque.body.reset();
            opaque.toApply.reset();
            opaque.branchComputations.clear();
            opaque.operands = std::move(locals);
            m_value[op] = emit(std::move(opaque));
            m_spec[op] = replicated(op);
            return;
        }
        emitOp(op, std::move(locals), replicated(op));
    }

    /// A while loop: the state is carried laid out as its initial elements are (partial sums
    /// completed), except that an element initialised replicated takes the layout the body gives it
    /// (or, failing that, the one the loop's result is wanted in), since slicing a replicated value
    /// is free. The body and the condition become computations of their own, partitioned with that
    /// layout; the body's results are resharded to it inside the loop.
    void partitionWhile(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const auto& operands = logical.operands;
        std::vector<TensorSharding> specs;
        for (std::uint32_t operand : operands) {
            TensorSharding spec = m_spec[operand];
            spec.partial.clear();
            spec.dims.resize(globalShape(operand).isArray() ? globalShape(operand).dims.size() : 0);
            if (const auto hint = m_hints.find(operand); hint != m_hints.end() && spec.isReplicated())
                spec = hint->second;
            specs.push_back(std::move(spec));
        }
        // Settle the carried layout: a replicated element the body returns sharded is carried sharded.
        for (int round = 0; round < 3; ++round) {
            SharedState scratch;
            scratch.depth = m_shared.depth;
            Partitioner trial(*logical.regions[1], m_mesh, scratch, &specs);
            const std::vector<TensorSharding> returned = trial.runForLayouts();
            bool changed = false;
            for (std::size_t k = 0; k < specs.size() && k < returned.size(); ++k) {
                TensorSharding next = returned[k];
                next.partial.clear();
                next.dims.resize(specs[k].dims.size());
                if (specs[k].isReplicated() && !next.isReplicated()) {
                    specs[k] = std::move(next);
                    changed = true;
                }
            }
            if (!changed)
                break;
        }
        Instruction init;
        init.name = instruction.name + ".init";
        init.opcode = "tuple";
        init.shape.isTuple = true;
        for (std::size_t k = 0; k < operands.size(); ++k) {
            const std::uint32_t local =
                globalShape(operands[k]).isArray() ? reshard(operands[k], specs[k]) : resolvePartial(operands[k]);
            init.operands.push_back(local);
            init.shape.tupleElements.push_back(m_computation.instructions[local].shape);
        }
        const std::uint32_t body =
            Partitioner(*logical.regions[1], m_mesh, m_shared, &specs).run(instruction.name + ".body");
        const std::uint32_t condition =
            Partitioner(*logical.regions[0], m_mesh, m_shared, &specs).run(instruction.name + ".condition");
        Instruction loop = instruction;
        loop.shape = init.shape;
        loop.operands = {emit(std::move(init))};
        loop.body = body;
        loop.condition = condition;
        std::erase_if(loop.attributes, [](const auto& attribute) { return attribute.first == "sharding"; });
        m_value[op] = emit(std::move(loop));
        m_spec[op] = {};
        m_tupleSpecs[op] = std::move(specs);
    }

    /// Emits a tuple-valued op on `locals` whose element k is laid out as `specs[k]`; get-tuple-element
    /// reads the elements' layouts back.
    void emitTupleOp(std::uint32_t op, std::vector<std::uint32_t> locals, std::vector<TensorSharding> specs)
    {
        Instruction instruction = m_program.ops[op].instruction;
        instruction.operands = std::move(locals);
        for (std::size_t k = 0; k < instruction.shape.tupleElements.size() && k < specs.size(); ++k)
            if (instruction.shape.tupleElements[k].isArray())
                instruction.shape.tupleElements[k] =
                    localShape(instruction.shape.tupleElements[k], specs[k], instruction.name);
        std::erase_if(instruction.attributes, [](const auto& attribute) { return attribute.first == "sharding"; });
        instruction.toApply.reset();
        instruction.calls.clear();
        m_value[op] = emit(std::move(instruction));
        m_spec[op] = {};
        m_tupleSpecs[op] = std::move(specs);
    }

    /// The result layouts of an op whose results have the operands' rank: `spec` per array result,
    /// or per element of a tuple result; the local operands are resharded to it.
    void emitWithLayout(std::uint32_t op, const TensorSharding& spec, std::size_t inputs)
    {
        const LogicalOp& logical = m_program.ops[op];
        std::vector<std::uint32_t> locals;
        for (std::size_t k = 0; k < logical.operands.size(); ++k) {
            const std::uint32_t operand = logical.operands[k];
            const bool sameRank = k < inputs && globalShape(operand).dims.size() == spec.dims.size();
            locals.push_back(sameRank ? reshard(operand, spec) : reshard(operand, replicated(operand)));
        }
        emitLaidOut(op, std::move(locals), spec);
    }

    /// Emits `op` on `locals` with its result, or each element of its tuple result, laid out as
    /// `spec` (an element of another rank: replicated).
    void emitLaidOut(std::uint32_t op, std::vector<std::uint32_t> locals, TensorSharding spec)
    {
        const Shape& shape = m_program.ops[op].instruction.shape;
        if (!shape.isTuple) {
            spec.dims.resize(shape.dims.size());
            emitOp(op, std::move(locals), std::move(spec));
            return;
        }
        std::vector<TensorSharding> specs;
        for (const Shape& element : shape.tupleElements) {
            TensorSharding each = element.dims.size() == spec.dims.size() ? spec : TensorSharding{};
            each.dims.resize(element.dims.size());
            specs.push_back(std::move(each));
        }
        emitTupleOp(op, std::move(locals), std::move(specs));
    }

    /// sort and top-k work along one dimension (sort's `dimensions={d}`, top-k's last): every other
    /// dimension keeps the first operand's axes, the sorted one is gathered.
    void partitionAlongDimension(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const std::size_t rank = globalShape(logical.operands[0]).dims.size();
        TensorSharding spec = m_spec[logical.operands[0]];
        spec.partial.clear();
        spec.dims.resize(rank);
        const std::size_t along = logical.instruction.opcode == "sort" && !logical.instruction.dimensions.empty()
                                      ? static_cast<std::size_t>(logical.instruction.dimensions[0])
                                      : rank - 1;
        if (along < rank)
            spec.dims[along].clear();
        emitWithLayout(op, spec, logical.operands.size());
    }

    /// A reduce of several inputs at once (argmax: values and indices), and reduce-window: the
    /// inputs share the first one's layout; a reduce leaves partial results over the axes of the
    /// reduced dimensions (completed like sums); a window of size 1 and stride 1 keeps a dimension's
    /// axes, any other window gathers it.
    void partitionVariadicReduce(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const std::size_t inputs = logical.operands.size() / 2;
        const std::size_t rank = globalShape(logical.operands[0]).dims.size();
        TensorSharding source = m_spec[logical.operands[0]];
        source.partial.clear();
        source.dims.resize(rank);
        TensorSharding result;
        if (instruction.opcode == "reduce-window") {
            for (std::size_t d = 0; d < rank; ++d) {
                const bool whole = d < instruction.window.size() && instruction.window[d].size == 1 &&
                                   instruction.window[d].stride == 1 && instruction.window[d].paddingLow == 0 &&
                                   instruction.window[d].paddingHigh == 0;
                if (!whole)
                    source.dims[d].clear();
            }
            result = source;
        } else {
            for (std::size_t d = 0; d < rank; ++d) {
                const bool reduced = std::find(instruction.dimensions.begin(), instruction.dimensions.end(),
                                               static_cast<std::int64_t>(d)) != instruction.dimensions.end();
                if (reduced)
                    result.partial.insert(result.partial.end(), source.dims[d].begin(), source.dims[d].end());
                else
                    result.dims.push_back(source.dims[d]);
            }
        }
        std::vector<std::uint32_t> locals;
        for (std::size_t k = 0; k < logical.operands.size(); ++k) {
            const std::uint32_t operand = logical.operands[k];
            locals.push_back(k < inputs && globalShape(operand).dims.size() == rank
                                 ? reshard(operand, source)
                                 : reshard(operand, replicated(operand)));
        }
        emitLaidOut(op, std::move(locals), std::move(result));
    }

    /// A custom call with its own SPMD partitioner (jax's custom_partitioning, Pallas kernels): it runs
    /// on each device's shards of its operands as they are laid out (partial sums completed), and its
    /// result takes its annotation, else the first operand's layout when it has the operand's shape.
    void partitionCustomPartitioned(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        warn((logical.sharding
                  ? Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                 "CustomSPMDPartitioning: the custom partitioner is not run; the "
                                                 "call takes its operands' shards as laid out and its result as "
                                                 "annotated"),
                            {})
                  : Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                 "CustomSPMDPartitioning: the custom partitioner is not run; the "
                                                 "call takes its operands' shards as laid out and its result "
                                                 "laid out as its first operand"),
                            {}))
                 .prefixed(where(op)));
        std::vector<std::uint32_t> locals;
        for (std::uint32_t operand : logical.operands)
            locals.push_back(resolvePartial(operand));
        TensorSharding spec = replicated(op);
        if (logical.sharding)
            spec = fitToMesh(*logical.sharding, instruction.name);
        else if (!logical.operands.empty() && globalShape(logical.operands[0]).dims == instruction.shape.dims)
            spec = m_spec[logical.operands[0]];
        spec.partial.clear();
        spec.dims.resize(instruction.shape.dims.size());
        emitLaidOut(op, std::move(locals), std::move(spec));
    }

    /// Slices keep the layout of the dimensions they take whole and gather the ones they cut (the
    /// start indices of a dynamic slice are replicated scalars); a pending partial sum stays pending.
    void partitionSlice(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const std::uint32_t operand = logical.operands[0];
        const auto& in = globalShape(operand).dims;
        const auto& out = logical.instruction.shape.dims;
        TensorSharding source = m_spec[operand];
        source.dims.resize(in.size());
        for (std::size_t d = 0; d < in.size(); ++d)
            if (d >= out.size() || in[d] != out[d])
                source.dims[d].clear();
        std::vector<std::uint32_t> locals{
            reshardDims(m_value[operand], m_spec[operand], source, globalShape(operand), reshardScope(operand))};
        for (std::size_t k = 1; k < logical.operands.size(); ++k)
            locals.push_back(reshard(logical.operands[k], replicated(logical.operands[k])));
        TensorSharding target = source;
        target.dims.resize(out.size());
        emitOp(op, std::move(locals), std::move(target));
    }

    /// dynamic-update-slice: the result keeps the operand's layout on the dimensions the update
    /// covers whole (a replicated operand takes the update's there); the update is resharded to it
    /// (a pending partial sum is completed onto it, a reduce-scatter when the layout shards a
    /// dimension over its axes).
    void partitionUpdateSlice(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const std::uint32_t operandOp = logical.operands[0];
        const std::uint32_t updateOp = logical.operands[1];
        const auto& in = globalShape(operandOp).dims;
        const auto& update = globalShape(updateOp).dims;
        if (update.size() != in.size()) {
            std::vector<std::uint32_t> locals;
            for (std::uint32_t operand : logical.operands)
                locals.push_back(reshard(operand, replicated(operand)));
            emitOp(op, std::move(locals), replicated(op));
            return;
        }
        TensorSharding target = m_spec[operandOp];
        target.partial.clear();
        target.dims.resize(in.size());
        for (std::size_t d = 0; d < in.size(); ++d)
            if (update[d] != in[d])
                target.dims[d].clear();
        if (target.isReplicated()) {
            // A replicated buffer (a scan's stacked activations, zeros to start with) takes the
            // update's layout on the dimensions the update covers whole: slicing the buffer is free,
            // gathering every update is not.
            TensorSharding fromUpdate = m_spec[updateOp];
            fromUpdate.partial.clear();
            fromUpdate.dims.resize(in.size());
            for (std::size_t d = 0; d < in.size(); ++d)
                if (update[d] == in[d])
                    target.dims[d] = fromUpdate.dims[d];
        }
        std::vector<std::uint32_t> locals{reshard(operandOp, target), reshard(updateOp, target)};
        for (std::size_t k = 2; k < logical.operands.size(); ++k)
            locals.push_back(reshard(logical.operands[k], replicated(logical.operands[k])));
        emitOp(op, std::move(locals), std::move(target));
    }

    /// concatenate: the layout of the first operand on every dimension but the concatenated one
    /// (gathered); the other operands are resharded to it.
    void partitionConcatenate(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const auto dimension = static_cast<std::size_t>(logical.instruction.dimensions[0]);
        TensorSharding target = m_spec[logical.operands[0]];
        target.partial.clear();
        target.dims.resize(logical.instruction.shape.dims.size());
        if (dimension < target.dims.size())
            target.dims[dimension].clear();
        std::vector<std::uint32_t> locals;
        for (std::uint32_t operand : logical.operands)
            locals.push_back(globalShape(operand).dims.size() == target.dims.size()
                                 ? reshard(operand, target)
                                 : reshard(operand, replicated(operand)));
        emitOp(op, std::move(locals), std::move(target));
    }

    /// Linear elementwise ops keep pending partial sums pending (no collective): add and subtract of
    /// addends over the same axes, negate, convert, copy and bitcast of one, and multiply or divide
    /// of one by complete values. False when `op` is not such a case (it is then partitioned as
    /// any elementwise op, which completes its operands).
    bool partitionLinear(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const std::string& opcode = logical.instruction.opcode;
        const auto& operands = logical.operands;
        const std::size_t rank = logical.instruction.shape.dims.size();
        std::vector<std::uint32_t> partial;
        for (std::uint32_t operand : operands)
            if (!m_spec[operand].partial.empty())
                partial.push_back(operand);
        if (partial.empty())
            return false;
        const auto sameShape = [&](std::uint32_t operand) {
            return globalShape(operand).dims == logical.instruction.shape.dims;
        };
        bool linear = false;
        // A convert to another element type completes the sum first: XLA completes a partial sum
        // at the op that makes it, in that op's type (a bf16 gradient is all-reduced in bf16, not
        // after its convert to f32), and the bytes on the wire follow that type.
        const bool sameType =
            operands.size() == 1 && globalShape(operands[0]).elementType == logical.instruction.shape.elementType;
        if (opcode == "negate" || opcode == "copy" || opcode == "bitcast" || opcode == "reduce-precision" ||
            (opcode == "convert" && sameType))
            linear = operands.size() == 1 && sameShape(operands[0]);
        else if (opcode == "add" || opcode == "subtract")
            linear = partial.size() == operands.size() &&
                     std::all_of(operands.begin(), operands.end(), [&](std::uint32_t operand) {
                         return sameShape(operand) && m_spec[operand].partial == m_spec[operands[0]].partial;
                     });
        else if (opcode == "multiply")
            linear = partial.size() == 1 && sameShape(partial[0]);
        else if (opcode == "divide")
            linear = partial.size() == 1 && partial[0] == operands[0] && sameShape(operands[0]);
        if (!linear)
            return false;
        TensorSharding target = m_spec[partial[0]];
        target.dims.resize(rank);
        std::vector<std::uint32_t> locals;
        for (std::uint32_t operand : operands) {
            if (!m_spec[operand].partial.empty()) {
                locals.push_back(
                    reshardDims(m_value[operand], m_spec[operand], target, globalShape(operand), scopeOf(operand)));
            } else {
                TensorSharding complete;
                complete.dims = sameShape(operand) ? target.dims : replicated(operand).dims;
                locals.push_back(reshard(operand, complete));
            }
        }
        emitOp(op, std::move(locals), std::move(target));
        return true;
    }

    static std::string dimsText(const std::vector<std::int64_t>& dims)
    {
        std::string text = "[";
        for (std::size_t d = 0; d < dims.size(); ++d)
            text += (d ? "x" : "") + std::to_string(dims[d]);
        return text + "]";
    }

    std::string axesText(const Axes& axes) const
    {
        std::string text;
        for (const std::string& axis : axes)
            text += (text.empty() ? "" : ",") + axis + "=" + std::to_string(m_mesh.sizeOf(axis));
        return "{" + text + "}";
    }

    /// "line N: " (or the op's scope) for warnings about `op`.
    std::string where(std::uint32_t op) const
    {
        const Instruction& instruction = m_program.ops[op].instruction;
        if (instruction.line > 0)
            return "line " + std::to_string(instruction.line) + ": ";
        if (!instruction.metadata.opName.empty())
            return instruction.metadata.opName + ": ";
        return instruction.name + ": ";
    }

    /// Convolution (dim_labels "b01f_01io->b01f"): the input's batch dimension and the kernel's
    /// output-feature dimension keep their axes on the result's batch and feature dimensions; the
    /// contracted input features sharded on both sides (or sliced to match, as for dot) give a
    /// partial sum. Spatial dimensions are gathered: halo exchange is not modelled. Grouped
    /// convolutions keep only the batch rule.
    void partitionConvolution(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const std::uint32_t lhsOp = logical.operands[0];
        const std::uint32_t rhsOp = logical.operands[1];
        const std::string& labels = instruction.dimLabels;
        const std::size_t underscore = labels.find('_');
        const std::size_t arrow = labels.find("->");
        const std::size_t rank = instruction.shape.dims.size();
        TensorSharding lhs = replicated(lhsOp);
        TensorSharding rhs = replicated(rhsOp);
        TensorSharding target = replicated(op);
        if (underscore == std::string::npos || arrow == std::string::npos) {
            emitOp(op, {reshard(lhsOp, lhs), reshard(rhsOp, rhs)}, std::move(target));
            return;
        }
        const std::string lhsLabels = labels.substr(0, underscore);
        const std::string rhsLabels = labels.substr(underscore + 1, arrow - underscore - 1);
        const std::string outLabels = labels.substr(arrow + 2);
        const auto position = [](const std::string& text, char label) { return text.find(label); };
        const std::size_t lb = position(lhsLabels, 'b');
        const std::size_t lf = position(lhsLabels, 'f');
        const std::size_t ri = position(rhsLabels, 'i');
        const std::size_t ro = position(rhsLabels, 'o');
        const std::size_t ob = position(outLabels, 'b');
        const std::size_t of = position(outLabels, 'f');
        const TensorSharding& lhsSpec = m_spec[lhsOp];
        const TensorSharding& rhsSpec = m_spec[rhsOp];
        const auto axesAt = [](const TensorSharding& spec, std::size_t d) {
            return d < spec.dims.size() ? spec.dims[d] : Axes{};
        };
        std::set<std::string> used;
        if (lb < lhs.dims.size() && ob < rank && instruction.batchGroupCount == 1) {
            lhs.dims[lb] = axesAt(lhsSpec, lb);
            target.dims[ob] = lhs.dims[lb];
            used.insert(lhs.dims[lb].begin(), lhs.dims[lb].end());
        }
        const bool ungrouped = instruction.featureGroupCount == 1 && instruction.batchGroupCount == 1;
        if (ungrouped && lf < lhs.dims.size() && ri < rhs.dims.size()) {
            Axes l = axesAt(lhsSpec, lf);
            Axes r = axesAt(rhsSpec, ri);
            if (l.empty())
                l = r;
            else if (r.empty())
                r = l;
            else if (l != r)
                l = r = {};
            if (std::any_of(l.begin(), l.end(), [&](const std::string& axis) { return used.count(axis) != 0; }))
                l = r = {};
            lhs.dims[lf] = l;
            rhs.dims[ri] = r;
            target.partial = l;
            used.insert(l.begin(), l.end());
        }
        if (ungrouped && ro < rhs.dims.size() && of < rank) {
            Axes kept;
            for (const std::string& axis : axesAt(rhsSpec, ro))
                if (used.insert(axis).second)
                    kept.push_back(axis);
            rhs.dims[ro] = kept;
            target.dims[of] = kept;
        }
        const std::uint32_t lhsLocal = reshard(lhsOp, lhs);
        const std::uint32_t rhsLocal = reshard(rhsOp, rhs);
        emitOp(op, {lhsLocal, rhsLocal}, std::move(target));
    }

    static std::vector<std::int64_t> intListAttribute(const Instruction& instruction, std::string_view key)
    {
        std::vector<std::int64_t> values;
        if (const std::string* text = instruction.attribute(key)) {
            std::int64_t value = 0;
            bool inNumber = false;
            bool negative = false;
            for (const char c : *text + ",") {
                if (c >= '0' && c <= '9') {
                    // Saturates: a dimension number of 20 digits is out of range, not undefined.
                    value =
                        value > (std::numeric_limits<std::int64_t>::max() - 9) / 10 ? value : value * 10 + (c - '0');
                    inNumber = true;
                } else if (c == '-') {
                    negative = true;
                } else {
                    if (inNumber)
                        values.push_back(negative ? -value : value);
                    value = 0;
                    inNumber = false;
                    negative = false;
                }
            }
        }
        return values;
    }

    /// Gather (attributes offset_dims, collapsed_slice_dims, start_index_map, index_vector_dim,
    /// slice_sizes as the translation writes them): the indices' batch dimensions keep their axes on
    /// the result's batch dimensions; an operand dimension taken whole keeps its axes on its offset
    /// dimension; an operand dimension the indices select from (a vocabulary, say) stays sharded and
    /// gives a partial sum: each device gathers the rows it holds, zeros elsewhere (Megatron's
    /// vocabulary-parallel embedding). Anything else is gathered first.
    void partitionGather(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const std::uint32_t operandOp = logical.operands[0];
        const std::uint32_t indicesOp = logical.operands[1];
        const auto offsetDims = intListAttribute(instruction, "offset_dims");
        const auto collapsed = intListAttribute(instruction, "collapsed_slice_dims");
        const auto startIndexMap = intListAttribute(instruction, "start_index_map");
        const auto indexVector = intListAttribute(instruction, "index_vector_dim");
        const auto sliceSizes = intListAttribute(instruction, "slice_sizes");
        const auto& operandShape = globalShape(operandOp).dims;
        const auto& indicesShape = globalShape(indicesOp).dims;
        const std::size_t rank = instruction.shape.dims.size();
        const auto contains = [](const std::vector<std::int64_t>& list, std::size_t d) {
            return std::find(list.begin(), list.end(), static_cast<std::int64_t>(d)) != list.end();
        };
        const std::size_t indexVectorDim =
            indexVector.empty() ? indicesShape.size() : static_cast<std::size_t>(indexVector.front());
        TensorSharding operand = replicated(operandOp);
        TensorSharding indices = replicated(indicesOp);
        TensorSharding target = replicated(op);
        std::set<std::string> used;
        const TensorSharding& operandSpec = m_spec[operandOp];
        const TensorSharding& indicesSpec = m_spec[indicesOp];
        // Result batch dimensions, in order, are the indices' dimensions other than index_vector_dim.
        std::vector<std::size_t> batchDims;
        for (std::size_t d = 0; d < rank; ++d)
            if (!contains(offsetDims, d))
                batchDims.push_back(d);
        std::size_t batch = 0;
        for (std::size_t d = 0; d < indicesShape.size() && batch < batchDims.size(); ++d) {
            if (d == indexVectorDim)
                continue;
            if (d < indicesSpec.dims.size()) {
                indices.dims[d] = indicesSpec.dims[d];
                target.dims[batchDims[batch]] = indicesSpec.dims[d];
                used.insert(indicesSpec.dims[d].begin(), indicesSpec.dims[d].end());
            }
            ++batch;
        }
        std::size_t offset = 0;
        for (std::size_t d = 0; d < operandShape.size(); ++d) {
            const Axes axes = d < operandSpec.dims.size() ? operandSpec.dims[d] : Axes{};
            const bool isCollapsed = contains(collapsed, d);
            const bool whole = d < sliceSizes.size() && sliceSizes[d] == operandShape[d];
            const bool free =
                std::all_of(axes.begin(), axes.end(), [&](const std::string& axis) { return used.count(axis) == 0; });
            if (!axes.empty() && free && isCollapsed && contains(startIndexMap, d) && d < sliceSizes.size() &&
                sliceSizes[d] == 1) {
                operand.dims[d] = axes;
                target.partial.insert(target.partial.end(), axes.begin(), axes.end());
                used.insert(axes.begin(), axes.end());
            } else if (!axes.empty() && free && !isCollapsed && whole && !contains(startIndexMap, d) &&
                       offset < offsetDims.size()) {
                operand.dims[d] = axes;
                target.dims[static_cast<std::size_t>(offsetDims[offset])] = axes;
                used.insert(axes.begin(), axes.end());
            }
            if (!isCollapsed)
                ++offset;
        }
        const std::uint32_t operandLocal = reshard(operandOp, operand);
        const std::uint32_t indicesLocal = reshard(indicesOp, indices);
        emitOp(op, {operandLocal, indicesLocal}, std::move(target));
    }

    /// Scatter (attributes update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims,
    /// index_vector_dim as the translation writes them), as an embedding's backward pass uses it:
    /// the updates' scatter dimensions keep their axes (the indices follow them) and the result is a
    /// partial sum over those axes, each device adding its own updates; an operand dimension the
    /// indices select rows of keeps its axes (a device applies the updates that fall in its shard,
    /// so the updates are gathered along those axes first); window dimensions keep the operand's
    /// axes where the updates' window dimension has them. The operand is taken as the additive
    /// identity (zeros), as for a gradient.
    void partitionScatter(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const Instruction& instruction = logical.instruction;
        const std::uint32_t operandOp = logical.operands[0];
        const std::uint32_t indicesOp = logical.operands[1];
        const std::uint32_t updatesOp = logical.operands[2];
        const auto windowDims = intListAttribute(instruction, "update_window_dims");
        const auto inserted = intListAttribute(instruction, "inserted_window_dims");
        const auto toOperand = intListAttribute(instruction, "scatter_dims_to_operand_dims");
        const auto indexVector = intListAttribute(instruction, "index_vector_dim");
        const auto& operandShape = globalShape(operandOp).dims;
        const auto& indicesShape = globalShape(indicesOp).dims;
        const auto& updatesShape = globalShape(updatesOp).dims;
        const auto contains = [](const std::vector<std::int64_t>& list, std::size_t d) {
            return std::find(list.begin(), list.end(), static_cast<std::int64_t>(d)) != list.end();
        };
        const std::size_t indexVectorDim =
            indexVector.empty() ? indicesShape.size() : static_cast<std::size_t>(indexVector.front());
        const TensorSharding& operandSpec = m_spec[operandOp];
        const TensorSharding& updatesSpec = m_spec[updatesOp];
        TensorSharding operand = replicated(operandOp);
        TensorSharding indices = replicated(indicesOp);
        TensorSharding updates = replicated(updatesOp);
        TensorSharding target = replicated(op);
        std::set<std::string> used;
        // Operand dimensions the indices select rows of keep their axes.
        for (std::size_t d = 0; d < operandShape.size() && d < operandSpec.dims.size(); ++d)
            if (contains(inserted, d) && contains(toOperand, d) && !operandSpec.dims[d].empty()) {
                operand.dims[d] = operandSpec.dims[d];
                target.dims[d] = operandSpec.dims[d];
                used.insert(operandSpec.dims[d].begin(), operandSpec.dims[d].end());
            }
        // Window dimensions: the k-th update window dimension is the k-th operand dimension not inserted.
        std::size_t window = 0;
        for (std::size_t d = 0; d < operandShape.size() && window < windowDims.size(); ++d) {
            if (contains(inserted, d))
                continue;
            const auto u = static_cast<std::size_t>(windowDims[window++]);
            const Axes axes = d < operandSpec.dims.size() ? operandSpec.dims[d] : Axes{};
            if (!axes.empty() && u < updatesSpec.dims.size() && updatesSpec.dims[u] == axes &&
                std::none_of(axes.begin(), axes.end(), [&](const std::string& a) { return used.count(a) != 0; })) {
                operand.dims[d] = axes;
                updates.dims[u] = axes;
                target.dims[d] = axes;
                used.insert(axes.begin(), axes.end());
            }
        }
        // Scatter dimensions of the updates, in order, are the indices' dimensions but index_vector_dim.
        std::size_t indexDim = 0;
        for (std::size_t u = 0; u < updatesShape.size(); ++u) {
            if (contains(windowDims, u))
                continue;
            if (indexDim == indexVectorDim)
                ++indexDim;
            const Axes axes = u < updatesSpec.dims.size() ? updatesSpec.dims[u] : Axes{};
            if (!axes.empty() &&
                std::none_of(axes.begin(), axes.end(), [&](const std::string& a) { return used.count(a) != 0; })) {
                updates.dims[u] = axes;
                if (indexDim < indices.dims.size())
                    indices.dims[indexDim] = axes;
                target.partial.insert(target.partial.end(), axes.begin(), axes.end());
                used.insert(axes.begin(), axes.end());
            }
            ++indexDim;
        }
        const std::uint32_t operandLocal = reshard(operandOp, operand);
        const std::uint32_t indicesLocal = reshard(indicesOp, indices);
        const std::uint32_t updatesLocal = reshard(updatesOp, updates);
        emitOp(op, {operandLocal, indicesLocal, updatesLocal}, std::move(target));
    }

    void partitionReshape(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const std::uint32_t operand = logical.operands[0];
        const auto& in = globalShape(operand).dims;
        const auto& out = logical.instruction.shape.dims;
        TensorSharding source = m_spec[operand];
        source.partial.clear();
        source.dims.resize(in.size());
        TensorSharding target = replicated(op);
        // A sharded dimension keeps its axes when a result dimension starts at the same element
        // offset (equal product of the dimensions before it) and still divides by the axes.
        const auto prefixes = [](const std::vector<std::int64_t>& dims) {
            std::vector<std::int64_t> prefix(dims.size() + 1, 1);
            for (std::size_t d = 0; d < dims.size(); ++d)
                prefix[d + 1] = prefix[d] * dims[d];
            return prefix;
        };
        const auto inPrefix = prefixes(in);
        const auto outPrefix = prefixes(out);
        for (std::size_t d = 0; d < in.size(); ++d) {
            if (source.dims[d].empty())
                continue;
            bool kept = false;
            for (std::size_t e = 0; e < out.size(); ++e)
                if (outPrefix[e] == inPrefix[d] && out[e] % axesProduct(source.dims[d]) == 0 &&
                    (out[e] % in[d] == 0 || in[d] % out[e] == 0) && target.dims[e].empty()) {
                    target.dims[e] = source.dims[d];
                    kept = true;
                    break;
                }
            if (!kept) {
                warn(Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                  "reshape %1 -> %2: dimension %3 sharded over %4 does not map onto "
                                                  "a result dimension that splits as evenly; it is all-gathered "
                                                  "first"),
                             {dimsText(in), dimsText(out), std::to_string(d), axesText(source.dims[d])})
                         .prefixed(where(op)));
                source.dims[d].clear();
            }
        }
        emitOp(op, {reshard(operand, source)}, std::move(target));
    }

    void partitionDot(std::uint32_t op)
    {
        const LogicalOp& logical = m_program.ops[op];
        const hlo::DotDimensions& dot = logical.instruction.dot;
        const std::uint32_t lhsOp = logical.operands[0];
        const std::uint32_t rhsOp = logical.operands[1];
        TensorSharding lhs = m_spec[lhsOp];
        TensorSharding rhs = m_spec[rhsOp];
        lhs.partial.clear();
        rhs.partial.clear();
        const std::size_t lhsRank = globalShape(lhsOp).dims.size();
        const std::size_t rhsRank = globalShape(rhsOp).dims.size();
        lhs.dims.resize(lhsRank);
        rhs.dims.resize(rhsRank);
        // Dimension numbers come from the input: each within its operand's rank, batch and contracting
        // lists paired one to one.
        const auto check = [&](const std::vector<std::int64_t>& dims, std::size_t rank, const char* what) {
            for (std::int64_t d : dims)
                if (d < 0 || static_cast<std::size_t>(d) >= rank)
                    throw std::invalid_argument(where(op) + "dot: " + what + " dimension " + std::to_string(d) +
                                                " is outside the operand's " + std::to_string(rank) + " dimensions");
        };
        check(dot.lhsBatch, lhsRank, "lhs batching");
        check(dot.rhsBatch, rhsRank, "rhs batching");
        check(dot.lhsContracting, lhsRank, "lhs contracting");
        check(dot.rhsContracting, rhsRank, "rhs contracting");
        if (dot.lhsBatch.size() != dot.rhsBatch.size() || dot.lhsContracting.size() != dot.rhsContracting.size())
            throw std::invalid_argument(where(op) + "dot: the lhs and rhs name different numbers of batching or "
                                                    "contracting dimensions");
        const auto contains = [](const std::vector<std::int64_t>& dims, std::size_t d) {
            return std::find(dims.begin(), dims.end(), static_cast<std::int64_t>(d)) != dims.end();
        };
        TensorSharding target;
        std::set<std::string> used;
        // Batch dimensions follow the lhs; the rhs is resharded to match.
        for (std::size_t k = 0; k < dot.lhsBatch.size() && k < dot.rhsBatch.size(); ++k) {
            const Axes& axes = lhs.dims[static_cast<std::size_t>(dot.lhsBatch[k])];
            rhs.dims[static_cast<std::size_t>(dot.rhsBatch[k])] = axes;
            target.dims.push_back(axes);
            used.insert(axes.begin(), axes.end());
        }
        // Axes each side uses on its free dimensions.
        const auto freeAxes = [&](const TensorSharding& side, const std::vector<std::int64_t>& batch,
                                  const std::vector<std::int64_t>& contracting) {
            std::set<std::string> axes;
            for (std::size_t d = 0; d < side.dims.size(); ++d)
                if (!contains(batch, d) && !contains(contracting, d))
                    axes.insert(side.dims[d].begin(), side.dims[d].end());
            return axes;
        };
        const std::set<std::string> lhsFree = freeAxes(lhs, dot.lhsBatch, dot.lhsContracting);
        const std::set<std::string> rhsFree = freeAxes(rhs, dot.rhsBatch, dot.rhsContracting);
        const auto clashes = [&](const Axes& axes, const std::set<std::string>& otherFree) {
            return std::any_of(axes.begin(), axes.end(),
                               [&](const std::string& axis) { return used.count(axis) || otherFree.count(axis); });
        };
        // Contracting dimensions: matching axes give a partial sum; one-sided axes slice the other
        // operand (free) when its dimension is unsharded and it does not already use those axes
        // elsewhere, and are gathered otherwise. The second case is FSDP/ZeRO-3: a weight sharded
        // over the data-parallel axis on its contracting dimension meets activations sharded over
        // that axis on their batch dimension, and the weight is all-gathered (as XLA's and PyTorch's
        // FSDP do), instead of reducing activation-sized partial sums.
        for (std::size_t k = 0; k < dot.lhsContracting.size() && k < dot.rhsContracting.size(); ++k) {
            Axes& l = lhs.dims[static_cast<std::size_t>(dot.lhsContracting[k])];
            Axes& r = rhs.dims[static_cast<std::size_t>(dot.rhsContracting[k])];
            if (l.empty() && !r.empty() && clashes(r, lhsFree))
                r.clear();
            else if (r.empty() && !l.empty() && clashes(l, rhsFree))
                l.clear();
            else if (l.empty() && !r.empty())
                l = r;
            else if (r.empty() && !l.empty())
                r = l;
            else if (l != r) {
                l.clear();
                r.clear();
            }
            target.partial.insert(target.partial.end(), l.begin(), l.end());
            used.insert(l.begin(), l.end());
        }
        // Free dimensions: lhs then rhs; an axis already used elsewhere is gathered.
        const auto freeDims = [&](TensorSharding& side, const std::vector<std::int64_t>& batch,
                                  const std::vector<std::int64_t>& contracting) {
            for (std::size_t d = 0; d < side.dims.size(); ++d) {
                if (contains(batch, d) || contains(contracting, d))
                    continue;
                Axes kept;
                for (const std::string& axis : side.dims[d])
                    if (used.insert(axis).second)
                        kept.push_back(axis);
                side.dims[d] = kept;
                target.dims.push_back(kept);
            }
        };
        freeDims(lhs, dot.lhsBatch, dot.lhsContracting);
        freeDims(rhs, dot.rhsBatch, dot.rhsContracting);
        target.dims.resize(logical.instruction.shape.dims.size());
        const std::uint32_t lhsLocal = reshard(lhsOp, lhs);
        const std::uint32_t rhsLocal = reshard(rhsOp, rhs);
        emitOp(op, {lhsLocal, rhsLocal}, std::move(target));
    }

    const LogicalProgram& m_program;
    const MeshShape& m_mesh;
    SharedState& m_shared;
    const std::vector<TensorSharding>* m_parameterSpecs = nullptr;
    std::uint32_t m_regionParameter = 0;
    std::map<std::size_t, Shape> m_regionElementShapes; ///< loop state element -> its local shape
    hlo::Computation m_computation;
    std::map<std::uint32_t, std::vector<TensorSharding>> m_tupleSpecs; ///< tuple-valued op -> its elements' layouts
    std::map<std::uint32_t, TensorSharding> m_hints;                   ///< see computeHints
    std::vector<std::uint32_t> m_value; ///< logical op -> local instruction holding its value
    std::vector<TensorSharding> m_spec; ///< logical op -> how that value is laid out
    /// Ops whose pending partial sum was asked for (Shardy unreduced) and stays when returned.
    std::set<std::uint32_t> m_keepPartial;
    std::string m_constraintScope; ///< while a sharding constraint reshards its operand: its scope
};

} // namespace

PartitionedModule partitionForMesh(const LogicalProgram& program, const MeshShape& mesh, const std::string& file)
{
    if (!mesh.deviceIds.empty()) {
        std::vector<std::int64_t> sorted = mesh.deviceIds;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t k = 0; k < sorted.size(); ++k)
            if (sorted[k] != static_cast<std::int64_t>(k) || sorted.size() != static_cast<std::size_t>(mesh.devices()))
                throw std::invalid_argument("the mesh's device_ids are no permutation of its " +
                                            std::to_string(mesh.devices()) + " devices");
    }
    SharedState shared;
    shared.out.module.name = program.name;
    shared.out.module.file = file;
    shared.out.module.replicaCount = 1;
    shared.out.module.numPartitions = mesh.devices();
    shared.out.module.hasReplicaCount = true;
    shared.out.module.hasNumPartitions = true;
    shared.out.module.entry = Partitioner(program, mesh, shared).run("partitioned");
    return std::move(shared.out);
}

} // namespace flint::core::partition
