// SPDX-License-Identifier: MIT
#include "core/mlir/hlotranslation.h"

#include "core/error.h"
#include "core/partition/gspmdsharding.h"
#include "core/partition/logicalprogram.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/Mesh/IR/MeshOps.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Operation.h>
#include <mlir/IR/SymbolTable.h>

namespace flint::frontend::detail {
namespace {

using core::DType;
using core::InputError;
using core::hlo::Computation;
using core::hlo::Instruction;
using core::hlo::Shape;
using core::hlo::WindowDimension;
using ::llvm::StringRef;

// ---------------------------------------------------------------------------------------------
// Types

DType dtypeOf(mlir::Type type)
{
    if (auto integer = mlir::dyn_cast<mlir::IntegerType>(type)) {
        const unsigned width = integer.getWidth();
        if (width == 1)
            return DType::Pred;
        const std::string name = (integer.isUnsigned() ? "u" : "s") + std::to_string(width);
        return core::dtypeFromString(name).value_or(DType::Unknown);
    }
    if (mlir::isa<mlir::IndexType>(type))
        return DType::S64;
    if (auto complex = mlir::dyn_cast<mlir::ComplexType>(type)) {
        if (complex.getElementType().isF32())
            return DType::C64;
        if (complex.getElementType().isF64())
            return DType::C128;
        return DType::Unknown;
    }
    if (mlir::isa<mlir::FloatType>(type)) {
        std::string name;
        ::llvm::raw_string_ostream stream(name);
        type.print(stream);
        stream.flush();
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        return core::dtypeFromString(name).value_or(DType::Unknown);
    }
    return DType::Unknown;
}

Shape shapeOf(mlir::Type type)
{
    Shape shape;
    if (auto tuple = mlir::dyn_cast<mlir::TupleType>(type)) {
        shape.isTuple = true;
        for (mlir::Type element : tuple.getTypes())
            shape.tupleElements.push_back(shapeOf(element));
        return shape;
    }
    if (auto opaque = mlir::dyn_cast<mlir::OpaqueType>(type)) {
        if (opaque.getTypeData() == "token")
            shape.elementType = DType::Token;
        return shape;
    }
    if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type)) {
        shape.elementType = dtypeOf(tensor.getElementType());
        bool dynamic = false;
        for (std::int64_t dim : tensor.getShape()) {
            dynamic = dynamic || mlir::ShapedType::isDynamic(dim);
            shape.dims.push_back(mlir::ShapedType::isDynamic(dim) ? 1 : dim);
        }
        if (dynamic)
            for (std::int64_t dim : tensor.getShape())
                shape.dynamicDims.push_back(mlir::ShapedType::isDynamic(dim));
        return shape;
    }
    if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(type)) {
        shape.elementType = dtypeOf(shaped.getElementType());
        if (shaped.hasRank())
            for (std::int64_t dim : shaped.getShape())
                shape.dims.push_back(mlir::ShapedType::isDynamic(dim) ? 1 : dim);
        return shape;
    }
    shape.elementType = dtypeOf(type);
    return shape;
}

Shape resultShape(mlir::Operation& op)
{
    if (op.getNumResults() == 1)
        return shapeOf(op.getResult(0).getType());
    Shape tuple;
    tuple.isTuple = true;
    for (mlir::Value result : op.getResults())
        tuple.tupleElements.push_back(shapeOf(result.getType()));
    return tuple;
}

// ---------------------------------------------------------------------------------------------
// Attributes

/// Integers of an attribute in any of the forms the generic and pretty syntax give: array<i64: ...>,
/// dense<...>, [1, 2] (flattened when nested), or one integer.
std::vector<std::int64_t> intList(mlir::Attribute attribute)
{
    std::vector<std::int64_t> values;
    if (!attribute)
        return values;
    if (auto array = mlir::dyn_cast<mlir::DenseI64ArrayAttr>(attribute))
        return {array.asArrayRef().begin(), array.asArrayRef().end()};
    if (auto array = mlir::dyn_cast<mlir::DenseI32ArrayAttr>(attribute)) {
        for (std::int32_t v : array.asArrayRef())
            values.push_back(v);
        return values;
    }
    if (auto dense = mlir::dyn_cast<mlir::DenseIntElementsAttr>(attribute)) {
        for (const ::llvm::APInt& v : dense)
            values.push_back(v.getSExtValue());
        return values;
    }
    if (auto array = mlir::dyn_cast<mlir::ArrayAttr>(attribute)) {
        for (mlir::Attribute element : array) {
            const auto inner = intList(element);
            values.insert(values.end(), inner.begin(), inner.end());
        }
        return values;
    }
    if (auto integer = mlir::dyn_cast<mlir::IntegerAttr>(attribute))
        values.push_back(integer.getInt());
    if (auto boolean = mlir::dyn_cast<mlir::BoolAttr>(attribute))
        values.push_back(boolean.getValue() ? 1 : 0);
    return values;
}

/// Element `k` of a pretty-form list of lists (`[1] x [0]`, `[[3, 3], [3, 3]]`).
mlir::Attribute element(mlir::Attribute attribute, std::size_t k)
{
    if (auto array = mlir::dyn_cast_or_null<mlir::ArrayAttr>(attribute))
        if (k < array.size())
            return array[k];
    return {};
}

/// The text of a dialect attribute kept opaque by the reader (`channel_handle<handle = 1, type = 1>`).
std::string opaqueText(mlir::Attribute attribute)
{
    if (auto opaque = mlir::dyn_cast_or_null<mlir::OpaqueAttr>(attribute))
        return opaque.getAttrData().str();
    if (auto text = mlir::dyn_cast_or_null<mlir::StringAttr>(attribute))
        return text.getValue().str();
    return {};
}

/// `key = [1, 2]` or `key = 3` inside an opaque attribute's text.
std::vector<std::int64_t> intsAfterKey(std::string_view text, std::string_view key)
{
    std::vector<std::int64_t> values;
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        const bool wordStart =
            at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
        const std::size_t after = at + key.size();
        at = after;
        if (!wordStart || after >= text.size() || (text[after] != ' ' && text[after] != '='))
            continue;
        std::size_t pos = text.find_first_not_of(" =", after);
        if (pos == std::string_view::npos)
            return values;
        const bool list = text[pos] == '[';
        const std::size_t end = list ? text.find(']', pos) : text.find_first_of(",>", pos);
        std::string_view body = text.substr(list ? pos + 1 : pos, (end == std::string_view::npos ? text.size() : end) -
                                                                      (list ? pos + 1 : pos));
        while (!body.empty()) {
            const std::size_t digit = body.find_first_of("-0123456789");
            if (digit == std::string_view::npos)
                break;
            body.remove_prefix(digit);
            std::int64_t value = 0;
            const auto [stop, error] = std::from_chars(body.data(), body.data() + body.size(), value);
            const auto used = static_cast<std::size_t>(stop - body.data());
            if (error == std::errc::result_out_of_range) { // saturated: later checks name it as out of range
                values.push_back(body.front() == '-' ? std::numeric_limits<std::int64_t>::min()
                                                     : std::numeric_limits<std::int64_t>::max());
                body.remove_prefix(used);
                continue;
            }
            if (error != std::errc()) { // a lone '-'
                body.remove_prefix(1);
                continue;
            }
            values.push_back(value);
            body.remove_prefix(used);
        }
        return values;
    }
    return values;
}

/// Convolution dimension labels in HLO's spelling ("b01f_01io->b01f") from the pretty lists
/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` or the generic `#stablehlo.conv<[b, 0, 1, f]x...>`.
std::string dimLabelsOf(mlir::Attribute attribute)
{
    std::string labels;
    if (auto parts = mlir::dyn_cast_or_null<mlir::ArrayAttr>(attribute)) {
        for (std::size_t k = 0; k < parts.size(); ++k) {
            if (k == 1)
                labels += '_';
            if (k == 2)
                labels += "->";
            if (auto list = mlir::dyn_cast<mlir::ArrayAttr>(parts[k]))
                for (mlir::Attribute label : list) {
                    if (auto integer = mlir::dyn_cast<mlir::IntegerAttr>(label))
                        labels += std::to_string(integer.getInt());
                    else if (auto word = mlir::dyn_cast<mlir::StringAttr>(label))
                        labels += word.getValue().str();
                }
        }
        return labels;
    }
    const std::string text = opaqueText(attribute);
    const std::size_t open = text.find('[');
    if (open == std::string::npos)
        return {};
    int group = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[') {
            if (group == 1)
                labels += '_';
            if (group == 2)
                labels += "->";
            ++group;
        } else if (std::isalnum(static_cast<unsigned char>(c))) {
            if (c == 'x' && i > 0 && text[i - 1] == ']')
                continue;
            labels += c;
        }
    }
    return labels;
}

/// The partitioner's text for a Shardy tensor sharding dictionary ({dims = [["x"], []], ...}), or
/// "" when `attribute` is not one.
std::string shardingTextOf(mlir::Attribute attribute)
{
    auto sharding = mlir::dyn_cast_or_null<mlir::DictionaryAttr>(attribute);
    if (!sharding)
        return {};
    auto dims = sharding.getAs<mlir::ArrayAttr>("dims");
    if (!dims)
        return {};
    core::partition::TensorSharding spec;
    for (mlir::Attribute dim : dims) {
        std::vector<std::string> axes;
        if (auto list = mlir::dyn_cast<mlir::ArrayAttr>(dim))
            for (mlir::Attribute axis : list)
                if (auto name = mlir::dyn_cast<mlir::StringAttr>(axis))
                    axes.push_back(name.getValue().str());
        spec.dims.push_back(std::move(axes));
    }
    // Shardy's `unreduced={"x"}`: the value is a pending partial sum over those axes.
    if (auto unreduced = sharding.getAs<mlir::ArrayAttr>("unreduced"))
        for (mlir::Attribute axis : unreduced)
            if (auto name = mlir::dyn_cast<mlir::StringAttr>(axis))
                spec.partial.push_back(name.getValue().str());
    return core::partition::shardingText(spec);
}

std::string printed(mlir::Attribute attribute)
{
    if (auto text = mlir::dyn_cast<mlir::StringAttr>(attribute))
        return text.getValue().str();
    std::string out;
    ::llvm::raw_string_ostream stream(out);
    attribute.print(stream);
    stream.flush();
    return out;
}

// ---------------------------------------------------------------------------------------------
// Operation names

/// HLO opcode of a StableHLO/MHLO op name (without dialect), or nothing when the cost model has no
/// counterpart (the op then keeps its full MLIR name and the cost model names it in a warning).
std::optional<std::string> hloOpcodeOf(StringRef name)
{
    static const std::map<std::string, std::string, std::less<>> renamed{
        {"broadcast_in_dim", "broadcast"},
        {"dot_general", "dot"},
        {"count_leading_zeros", "clz"},
        {"optimization_barrier", "opt-barrier"},
        {"if", "conditional"},
        {"case", "conditional"},
        {"top_k", "topk"},
        {"uniform_quantize", "convert"},
        {"uniform_dequantize", "convert"},
    };
    static const std::set<std::string, std::less<>> same{
        "abs",
        "add",
        "after_all",
        "all_gather",
        "all_reduce",
        "all_to_all",
        "and",
        "atan2",
        "batch_norm_grad",
        "batch_norm_inference",
        "batch_norm_training",
        "bitcast_convert",
        "broadcast",
        "cbrt",
        "ceil",
        "cholesky",
        "clamp",
        "collective_broadcast",
        "collective_permute",
        "compare",
        "complex",
        "concatenate",
        "constant",
        "convert",
        "convolution",
        "cosine",
        "create_token",
        "custom_call",
        "divide",
        "dot",
        "erf",
        "dynamic_reshape",
        "dynamic_slice",
        "dynamic_update_slice",
        "exponential",
        "exponential_minus_one",
        "fft",
        "floor",
        "gather",
        "get_dimension_size",
        "get_tuple_element",
        "imag",
        "iota",
        "is_finite",
        "log",
        "log_plus_one",
        "logistic",
        "map",
        "maximum",
        "minimum",
        "multiply",
        "negate",
        "not",
        "or",
        "pad",
        "partition_id",
        "popcnt",
        "power",
        "real",
        "reduce",
        "reduce_precision",
        "reduce_scatter",
        "reduce_window",
        "remainder",
        "replica_id",
        "reshape",
        "reverse",
        "rng",
        "rng_bit_generator",
        "round_nearest_afz",
        "round_nearest_even",
        "rsqrt",
        "scatter",
        "select",
        "select_and_scatter",
        "shift_left",
        "shift_right_arithmetic",
        "shift_right_logical",
        "sign",
        "sine",
        "slice",
        "sort",
        "sqrt",
        "subtract",
        "tan",
        "tanh",
        "transpose",
        "triangular_solve",
        "tuple",
        "while",
        "xor",
    };
    if (const auto it = renamed.find(name); it != renamed.end())
        return it->second;
    if (same.count(name) != 0) {
        std::string opcode = name.str();
        std::replace(opcode.begin(), opcode.end(), '_', '-');
        return opcode;
    }
    return std::nullopt;
}

/// HLO opcodes of the upstream arith/math ops that StableHLO-adjacent modules use.
std::optional<std::string> upstreamOpcodeOf(StringRef fullName)
{
    static const std::map<std::string, std::string, std::less<>> table{
        {"arith.addf", "add"},
        {"arith.addi", "add"},
        {"arith.subf", "subtract"},
        {"arith.subi", "subtract"},
        {"arith.mulf", "multiply"},
        {"arith.muli", "multiply"},
        {"arith.divf", "divide"},
        {"arith.divsi", "divide"},
        {"arith.maximumf", "maximum"},
        {"arith.minimumf", "minimum"},
        {"arith.negf", "negate"},
        {"arith.cmpf", "compare"},
        {"arith.cmpi", "compare"},
        {"arith.select", "select"},
        {"arith.constant", "constant"},
        {"math.exp", "exponential"},
        {"math.log", "log"},
        {"math.tanh", "tanh"},
        {"math.rsqrt", "rsqrt"},
        {"math.sqrt", "sqrt"},
        {"tensor.empty", "constant"},
        {"tensor.splat", "broadcast"},
        {"arith.extf", "convert"},
        {"arith.truncf", "convert"},
        {"math.erf", "erf"},
        {"arith.maxnumf", "maximum"},
        {"arith.minnumf", "minimum"},
        // linalg and tosa on tensors (what torch-mlir and IREE's input dialects carry): named
        // matmuls as dots, elementwise ops as their HLO counterparts, all-parallel linalg.generic as
        // a map of its body (linalg.generic below).
        {"linalg.matmul", "dot"},
        {"linalg.batch_matmul", "dot"},
        {"linalg.fill", "broadcast"},
        {"linalg.transpose", "transpose"},
        {"linalg.copy", "copy"},
        {"linalg.add", "add"},
        {"linalg.sub", "subtract"},
        {"linalg.mul", "multiply"},
        {"linalg.div", "divide"},
        {"linalg.exp", "exponential"},
        {"linalg.max", "maximum"},
        {"tosa.matmul", "dot"},
        {"tosa.add", "add"},
        {"tosa.sub", "subtract"},
        {"tosa.mul", "multiply"},
        {"tosa.exp", "exponential"},
        {"tosa.tanh", "tanh"},
        {"tosa.sigmoid", "logistic"},
        {"tosa.reciprocal", "divide"},
        {"tosa.rsqrt", "rsqrt"},
        {"tosa.maximum", "maximum"},
        {"tosa.minimum", "minimum"},
        {"tosa.transpose", "transpose"},
        {"tosa.reshape", "reshape"},
        {"tosa.const", "constant"},
        {"tosa.cast", "convert"},
        {"tosa.clamp", "clamp"},
        {"tosa.reduce_sum", "reduce"},
        {"tosa.reduce_max", "reduce"},
        {"tensor.collapse_shape", "reshape"},
        {"tensor.expand_shape", "reshape"},
    };
    if (const auto it = table.find(fullName); it != table.end())
        return it->second;
    return std::nullopt;
}

bool isCollectiveName(StringRef name)
{
    return name == "all_reduce" || name == "all_gather" || name == "reduce_scatter" || name == "all_to_all" ||
           name == "collective_permute" || name == "collective_broadcast";
}

// ---------------------------------------------------------------------------------------------

class Translator {
public:
    Translator(mlir::ModuleOp module, const std::string& file, const SourcePositions& positions)
        : m_root(module)
        , m_file(file)
        , m_positions(positions)
        , m_symbols(module)
    {}

    TranslatedModule run()
    {
        core::hlo::Module& out = m_result.module;
        out.file = m_file;
        if (auto name = m_root.getSymName())
            out.name = name->str();
        if (auto replicas = m_root->getAttrOfType<mlir::IntegerAttr>("mhlo.num_replicas")) {
            out.replicaCount = replicas.getInt();
            out.hasReplicaCount = true;
        }
        if (auto partitions = m_root->getAttrOfType<mlir::IntegerAttr>("mhlo.num_partitions")) {
            out.numPartitions = partitions.getInt();
            out.hasNumPartitions = true;
        }
        mlir::func::FuncOp entry;
        for (mlir::Operation& op : m_root.getBody()->getOperations()) {
            if (op.getName().getStringRef() == "sdy.mesh")
                recordMesh(op);
            if (auto mesh = mlir::dyn_cast<mlir::mesh::MeshOp>(op))
                recordMeshDialectMesh(mesh);
            if (auto function = mlir::dyn_cast<mlir::func::FuncOp>(op)) {
                if (function.isDeclaration())
                    continue;
                if (function.getSymName() == "main" || (!entry && function.isPublic()))
                    entry = function;
            }
        }
        if (!entry)
            for (mlir::Operation& op : m_root.getBody()->getOperations())
                if (auto function = mlir::dyn_cast<mlir::func::FuncOp>(op); function && !function.isDeclaration()) {
                    entry = function;
                    break;
                }
        if (!entry)
            throw InputError(m_file, "the module has no function with a body (no func.func to lower)");
        if (out.name.empty())
            out.name = entry.getSymName().str();
        for (unsigned i = 0; i < entry.getNumArguments(); ++i)
            if (entry.getArgAttr(i, "sdy.sharding") || entry.getArgAttr(i, "mhlo.sharding"))
                ++m_result.shardedValues;
        if (m_result.meshes.empty())
            declareGspmdMesh(out);
        out.entry = translateFunction(entry);
        out.computations[out.entry].isEntry = true;
        return std::move(m_result);
    }

private:
    /// A computation being built, with the instruction index of every MLIR value it defines.
    struct Builder {
        Computation computation;
        ::llvm::DenseMap<mlir::Value, std::uint32_t> values;
        std::uint32_t captured = 0;
        /// Instructions of this computation that a region of the op being translated here reads
        /// (StableHLO regions may use enclosing values): the op depends on them.
        std::vector<std::uint32_t> capturedByRegions;

        /// Moves capturedByRegions into `instruction`'s control predecessors.
        void dependOnCaptures(Instruction& instruction)
        {
            for (std::uint32_t index : capturedByRegions)
                if (std::find(instruction.controlPredecessors.begin(), instruction.controlPredecessors.end(), index) ==
                        instruction.controlPredecessors.end() &&
                    std::find(instruction.operands.begin(), instruction.operands.end(), index) ==
                        instruction.operands.end())
                    instruction.controlPredecessors.push_back(index);
            capturedByRegions.clear();
        }

        std::uint32_t add(Instruction instruction)
        {
            computation.instructions.push_back(std::move(instruction));
            return static_cast<std::uint32_t>(computation.instructions.size() - 1);
        }
    };

    enum class Parameters {
        PerArgument, ///< one parameter per block argument (functions, reducers, branches)
        Tuple,       ///< one tuple parameter whose elements are the block arguments (while cond/body)
    };

    void warn(core::Message message)
    {
        if (m_warningSet.insert(message.text()).second)
            m_result.warnings.push_back(std::move(message));
    }

    /// A module sharded with GSPMD strings (`mhlo.sharding = "{devices=[2,1]<=[2]}"`) names no mesh:
    /// declare one ("gspmd", axes d0, d1, ...) that refines every tiling the module uses, so that
    /// its shardings become partitioner annotations like Shardy's.
    void declareGspmdMesh(const core::hlo::Module& module)
    {
        std::vector<core::partition::GspmdSharding> tilings;
        // A tiling no device count allows is an error here, before it reaches the mesh arithmetic.
        const auto collect = [&](mlir::Operation* op, mlir::Attribute attribute) {
            auto text = mlir::dyn_cast_or_null<mlir::StringAttr>(attribute);
            if (!text)
                return;
            std::string invalid;
            if (auto sharding = core::partition::parseGspmdSharding(text.getValue().str(), &invalid))
                tilings.push_back(*sharding);
            else if (!invalid.empty())
                fail(*op, "mhlo.sharding \"" + text.getValue().str() + "\" is not a valid sharding: " + invalid);
        };
        m_root.walk([&](mlir::Operation* op) {
            collect(op, op->getAttr("mhlo.sharding"));
            if (auto function = mlir::dyn_cast<mlir::func::FuncOp>(op)) {
                for (unsigned i = 0; i < function.getNumArguments(); ++i)
                    collect(op, function.getArgAttr(i, "mhlo.sharding"));
                for (unsigned i = 0; i < function.getNumResults(); ++i)
                    collect(op, function.getResultAttr(i, "mhlo.sharding"));
            }
        });
        const bool tiled = std::any_of(tilings.begin(), tilings.end(), [](const auto& sharding) {
            return sharding.kind == core::partition::GspmdSharding::Kind::Tiled;
        });
        if (!tiled)
            return;
        std::int64_t devices = module.hasNumPartitions ? module.numPartitions : 1;
        for (const auto& sharding : tilings) {
            std::int64_t product = 1;
            for (std::int64_t tile : sharding.tiles)
                product *= tile;
            devices = std::max(devices, product);
        }
        std::optional<core::partition::MeshShape> mesh = core::partition::meshForTilings(tilings, devices);
        if (!mesh) {
            warn(core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                    "the module's mhlo.sharding tilings do not nest into one device "
                                                    "mesh; they are ignored"),
                               {}));
            return;
        }
        m_gspmdMesh = *mesh;
        MeshDeclaration declaration;
        declaration.name = "gspmd";
        declaration.axes = mesh->axes;
        m_result.meshes.push_back(std::move(declaration));
    }

    /// The partitioner's text for a GSPMD sharding string on a value of type `type`; "" when the
    /// module has no GSPMD mesh or the sharding cannot be expressed on it (with a warning).
    std::string gspmdShardingText(mlir::Attribute attribute, mlir::Type type, int line)
    {
        auto text = mlir::dyn_cast_or_null<mlir::StringAttr>(attribute);
        const auto shaped = mlir::dyn_cast<mlir::ShapedType>(type);
        if (!text || !m_gspmdMesh || !shaped || !shaped.hasRank())
            return {};
        const auto sharding = core::partition::parseGspmdSharding(text.getValue().str());
        const auto spec =
            sharding
                ? core::partition::toTensorSharding(*sharding, static_cast<std::size_t>(shaped.getRank()), *m_gspmdMesh)
                : std::nullopt;
        if (!spec) {
            const std::vector<std::string> arguments{text.getValue().str(), std::to_string(line),
                                                     m_gspmdMesh->toString()};
            warn(line > 0
                     ? core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                          "mhlo.sharding \"%1\" (line %2) cannot be expressed on mesh "
                                                          "%3; the value is taken as replicated"),
                                     arguments)
                     : core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                          "mhlo.sharding \"%1\" cannot be expressed on mesh %3; the "
                                                          "value is taken as replicated"),
                                     arguments));
            return {};
        }
        return core::partition::shardingText(*spec);
    }

    /// An upstream `mesh.mesh @name(shape = 2x4)`: its axes have no names, only positions; they
    /// are named d0, d1, ... (as an implicit GSPMD mesh is), so that `--mesh d0=8,d1=16` re-shapes
    /// it. The module's device count is the mesh's unless it states its own.
    void recordMeshDialectMesh(mlir::mesh::MeshOp mesh)
    {
        MeshDeclaration declaration;
        declaration.name = mesh.getSymName().str();
        std::int64_t devices = 1;
        for (std::size_t k = 0; k < mesh.getShape().size(); ++k) {
            const std::int64_t size = mesh.getShape()[k];
            if (size <= 0)
                fail(*mesh, "mesh @" + declaration.name + " has a dynamic axis " + std::to_string(k) +
                                "; give every axis a size");
            declaration.axes.emplace_back("d" + std::to_string(k), size);
            devices *= size;
        }
        m_meshShapes[declaration.name] = mesh.getShape().vec();
        core::hlo::Module& out = m_result.module;
        if (!out.hasNumPartitions && !out.hasReplicaCount && m_meshShapes.size() == 1) {
            out.numPartitions = devices;
            out.hasNumPartitions = true;
        }
        m_result.meshes.push_back(std::move(declaration));
    }

    /// The sharding text of a `#mesh.shard<@mesh, [[0], [1]], partial = sum[2]>`: axis k is "dk".
    static std::string meshShardingText(mlir::Attribute attribute)
    {
        auto sharding = mlir::dyn_cast_or_null<mlir::mesh::MeshShardingAttr>(attribute);
        if (!sharding)
            return {};
        core::partition::TensorSharding spec;
        for (mlir::mesh::MeshAxesAttr axes : sharding.getSplitAxes()) {
            std::vector<std::string> names;
            for (mlir::mesh::MeshAxis axis : axes.asArrayRef())
                names.push_back("d" + std::to_string(axis));
            spec.dims.push_back(std::move(names));
        }
        for (mlir::mesh::MeshAxis axis : sharding.getPartialAxes())
            spec.partial.push_back("d" + std::to_string(axis));
        return core::partition::shardingText(spec);
    }

    /// Device groups of a mesh collective over `axes` of mesh `name` (row-major device ids): the
    /// devices that differ only along those axes, the first axis major. No axes: one device each
    /// (MLIR folds such collectives away).
    std::shared_ptr<const core::hlo::ReplicaGroupList> meshGroups(mlir::Operation& op, const std::string& name,
                                                                  ::llvm::ArrayRef<mlir::mesh::MeshAxis> axes)
    {
        const auto it = m_meshShapes.find(name);
        if (it == m_meshShapes.end())
            fail(op, "names mesh @" + name + ", which the module does not declare");
        const std::vector<std::int64_t>& shape = it->second;
        std::int64_t devices = 1;
        for (std::int64_t size : shape)
            devices *= size;
        std::vector<std::int64_t> stride(shape.size(), 1);
        for (std::size_t k = shape.size(); k-- > 1;)
            stride[k - 1] = stride[k] * shape[k];
        std::vector<bool> inGroup(shape.size(), false);
        for (mlir::mesh::MeshAxis axis : axes) {
            if (axis < 0 || static_cast<std::size_t>(axis) >= shape.size())
                fail(op, "mesh axis " + std::to_string(axis) + " is not an axis of @" + name);
            inGroup[static_cast<std::size_t>(axis)] = true;
        }
        auto groups = std::make_shared<core::hlo::ReplicaGroupList>();
        for (std::int64_t device = 0; device < devices; ++device) {
            // The group's first member: this device with the group axes at 0.
            bool first = true;
            for (std::size_t k = 0; k < shape.size(); ++k)
                if (inGroup[k] && (device / stride[k]) % shape[k] != 0)
                    first = false;
            if (!first)
                continue;
            std::vector<std::int64_t> members{device};
            for (mlir::mesh::MeshAxis axis : llvm::reverse(axes)) {
                std::vector<std::int64_t> next;
                const auto k = static_cast<std::size_t>(axis);
                for (std::int64_t i = 0; i < shape[k]; ++i)
                    for (std::int64_t m : members)
                        next.push_back(m + i * stride[k]);
                members = std::move(next);
            }
            // Order members with the first listed axis major.
            std::sort(members.begin(), members.end(), [&](std::int64_t a, std::int64_t b) {
                for (mlir::mesh::MeshAxis axis : axes) {
                    const auto k = static_cast<std::size_t>(axis);
                    const std::int64_t ca = (a / stride[k]) % shape[k], cb = (b / stride[k]) % shape[k];
                    if (ca != cb)
                        return ca < cb;
                }
                return a < b;
            });
            groups->push_back(std::move(members));
        }
        return groups;
    }

    /// An upstream mesh-dialect op: mesh.shard as a sharding annotation (free), collectives as HLO
    /// collectives over the mesh-axis groups, process indices as partition-id. Returns the opcode.
    std::optional<std::string> translateMeshOp(mlir::Operation& op, StringRef name, Instruction& instruction)
    {
        if (auto shard = mlir::dyn_cast<mlir::mesh::ShardOp>(op)) {
            const std::string sharding = meshShardingText(shard.getShardAttr());
            if (!sharding.empty())
                instruction.attributes.emplace_back("sharding", sharding);
            ++m_result.shardedValues;
            return std::string("bitcast");
        }
        if (name == "process_linear_index" || name == "process_multi_index")
            return std::string("partition-id");
        if (name == "mesh_shape")
            return std::string("constant");
        auto meshAttr = op.getAttrOfType<mlir::FlatSymbolRefAttr>("mesh");
        auto axesAttr = op.getAttrOfType<mlir::DenseI16ArrayAttr>("mesh_axes");
        if (!meshAttr)
            return std::nullopt;
        const std::vector<mlir::mesh::MeshAxis> axes =
            axesAttr ? std::vector<mlir::mesh::MeshAxis>(axesAttr.asArrayRef().begin(), axesAttr.asArrayRef().end())
                     : std::vector<mlir::mesh::MeshAxis>{};
        const auto index = [&op](StringRef key) -> std::int64_t {
            if (auto value = op.getAttrOfType<mlir::IntegerAttr>(key))
                return value.getInt();
            return 0;
        };
        std::optional<std::string> opcode;
        if (name == "all_reduce")
            opcode = "all-reduce";
        else if (name == "all_gather") {
            opcode = "all-gather";
            instruction.dimensions = {index("gather_axis")};
        } else if (name == "reduce_scatter") {
            opcode = "reduce-scatter";
            instruction.dimensions = {index("scatter_axis")};
        } else if (name == "all_to_all") {
            opcode = "all-to-all";
            instruction.dimensions = {index("split_axis")};
        } else if (name == "broadcast" || name == "scatter") {
            opcode = "collective-broadcast";
        } else if (name == "all_slice") {
            return std::string("slice"); // each device keeps its slice: no communication
        } else if (name == "shift") {
            opcode = "collective-permute";
            const auto groups = meshGroups(op, meshAttr.getValue().str(), axes);
            const std::int64_t offset = index("offset");
            const bool rotate = op.hasAttr("rotate");
            // The shift moves along one axis; with several group axes, the group's members along it
            // are those with stride equal to that axis's position in the group's order.
            const std::int64_t shiftAxis = index("shift_axis");
            const std::vector<std::int64_t>& shape = m_meshShapes[meshAttr.getValue().str()];
            std::int64_t stride = 1;
            for (std::size_t k = static_cast<std::size_t>(shiftAxis) + 1; k < shape.size(); ++k)
                stride *= shape[k];
            const std::int64_t size = shape.at(static_cast<std::size_t>(shiftAxis));
            for (const auto& group : *groups)
                for (std::int64_t device : group) {
                    const std::int64_t position = (device / stride) % size;
                    std::int64_t target = position + offset;
                    if (rotate)
                        target = ((target % size) + size) % size;
                    else if (target < 0 || target >= size)
                        continue;
                    instruction.sourceTargetPairs.emplace_back(device, device + (target - position) * stride);
                }
        } else if (name == "send" || name == "recv") {
            return std::nullopt; // point-to-point between mesh positions: costed by bytes, with a warning
        }
        if (!opcode)
            return std::nullopt;
        if (*opcode != "collective-permute")
            instruction.replicaGroups = meshGroups(op, meshAttr.getValue().str(), axes);
        instruction.channelId = 1;
        instruction.useGlobalDeviceIds = true;
        ++m_result.collectives;
        return opcode;
    }

    void recordMesh(mlir::Operation& op)
    {
        MeshDeclaration mesh;
        if (auto name = op.getAttrOfType<mlir::StringAttr>("sym_name"))
            mesh.name = name.getValue().str();
        auto body = mlir::dyn_cast_or_null<mlir::DictionaryAttr>(op.getAttr("mesh"));
        if (body) {
            auto axes = body.getAs<mlir::ArrayAttr>("axes");
            auto sizes = body.getAs<mlir::ArrayAttr>("sizes");
            for (std::size_t k = 0; axes && sizes && k < axes.size() && k < sizes.size(); ++k)
                mesh.axes.emplace_back(mlir::cast<mlir::StringAttr>(axes[k]).getValue().str(),
                                       mlir::cast<mlir::IntegerAttr>(sizes[k]).getInt());
            if (auto ids = body.getAs<mlir::ArrayAttr>("device_ids"))
                for (mlir::Attribute id : ids)
                    if (auto value = mlir::dyn_cast<mlir::IntegerAttr>(id))
                        mesh.deviceIds.push_back(value.getInt());
        }
        m_result.meshes.push_back(std::move(mesh));
    }

    /// Line and column of `op` in the file: where the parser read it, else its own file location.
    std::pair<int, int> position(mlir::Operation* op) const
    {
        const auto read = m_positions.of(op);
        return read.first > 0 ? read : position(op->getLoc());
    }

    std::pair<int, int> position(mlir::Location location) const
    {
        if (auto file = location->findInstanceOf<mlir::FileLineColLoc>())
            if (file.getFilename().getValue() == m_file)
                return {static_cast<int>(file.getLine()), static_cast<int>(file.getColumn())};
        return {0, 0};
    }

    [[noreturn]] void fail(mlir::Operation& op, const std::string& reason) const
    {
        const auto [line, column] = position(&op);
        throw InputError(m_file, std::nullopt, line > 0 ? std::optional<int>(line) : std::nullopt,
                         (line > 0 ? "column " + std::to_string(column) + ": " : std::string()) + "'" +
                             op.getName().getStringRef().str() + "': " + reason);
    }

    /// The op name path of a location: the name of a NameLoc (`loc("jit(f)/dot_general")`), looked
    /// for through fused and call-site locations.
    static std::string locationName(mlir::Location location)
    {
        if (auto name = mlir::dyn_cast<mlir::NameLoc>(location))
            return name.getName().str();
        if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(location)) {
            for (mlir::Location inner : fused.getLocations()) {
                std::string name = locationName(inner);
                if (!name.empty())
                    return name;
            }
        }
        if (auto call = mlir::dyn_cast<mlir::CallSiteLoc>(location))
            return locationName(call.getCallee());
        return {};
    }

    std::uint32_t translateFunction(mlir::func::FuncOp function)
    {
        mlir::Operation* key = function.getOperation();
        if (const auto it = m_functions.find(key); it != m_functions.end()) {
            if (it->second == kInProgress)
                throw InputError(m_file, "function @" + function.getSymName().str() +
                                             " calls itself; recursive functions cannot be inlined");
            return it->second;
        }
        m_functions[key] = kInProgress;
        const std::uint32_t index =
            translateRegion(function.getBody(), function.getSymName().str(), Parameters::PerArgument, false, function);
        m_functions[key] = index;
        return index;
    }

    /// Translates the single-block region `region` into a new computation; returns its index.
    std::uint32_t translateRegion(mlir::Region& region, const std::string& name, Parameters parameters, bool tupleRoot,
                                  mlir::func::FuncOp function = {})
    {
        Builder builder;
        m_builders.push_back(&builder);
        struct Pop {
            std::vector<Builder*>& stack;
            ~Pop() { stack.pop_back(); }
        } pop{m_builders};
        builder.computation.name = name + "." + std::to_string(m_nextComputation++);
        if (region.empty()) {
            Instruction root;
            root.name = "empty.tuple";
            root.opcode = "tuple";
            root.shape.isTuple = true;
            builder.computation.root = builder.add(std::move(root));
            return push(std::move(builder.computation));
        }
        if (!region.hasOneBlock())
            fail(*region.getParentOp(), "regions with more than one block are not supported");
        mlir::Block& block = region.front();
        if (parameters == Parameters::Tuple) {
            Instruction parameter;
            parameter.name = "param.tuple";
            parameter.opcode = "parameter";
            parameter.parameterNumber = 0;
            parameter.shape.isTuple = true;
            for (mlir::BlockArgument argument : block.getArguments())
                parameter.shape.tupleElements.push_back(shapeOf(argument.getType()));
            const std::uint32_t tuple = builder.add(std::move(parameter));
            builder.computation.parameters.push_back(tuple);
            for (mlir::BlockArgument argument : block.getArguments()) {
                Instruction element;
                element.name = "param." + std::to_string(argument.getArgNumber());
                element.opcode = "get-tuple-element";
                element.tupleIndex = argument.getArgNumber();
                element.operands = {tuple};
                element.shape = shapeOf(argument.getType());
                builder.values[argument] = builder.add(std::move(element));
            }
        } else {
            for (mlir::BlockArgument argument : block.getArguments()) {
                Instruction parameter;
                parameter.name = "param." + std::to_string(argument.getArgNumber());
                parameter.opcode = "parameter";
                parameter.parameterNumber = argument.getArgNumber();
                parameter.shape = shapeOf(argument.getType());
                if (function) {
                    std::string sharding = shardingTextOf(function.getArgAttr(argument.getArgNumber(), "sdy.sharding"));
                    if (sharding.empty())
                        sharding = gspmdShardingText(function.getArgAttr(argument.getArgNumber(), "mhlo.sharding"),
                                                     argument.getType(), position(function.getOperation()).first);
                    if (!sharding.empty())
                        parameter.attributes.emplace_back("sharding", sharding);
                }
                const std::uint32_t index = builder.add(std::move(parameter));
                builder.values[argument] = index;
                builder.computation.parameters.push_back(index);
            }
        }
        bool rooted = false;
        for (mlir::Operation& op : block.getOperations()) {
            const StringRef opName = op.getName().getStringRef();
            if (opName == "func.return" || opName == "stablehlo.return" || opName == "mhlo.return" ||
                opName == "sdy.return" || opName == "tensor.yield" || opName == "linalg.yield") {
                builder.computation.root =
                    rootOf(builder, op, tupleRoot, function ? constrainResults(builder, op, function) : Overrides{});
                rooted = true;
                continue;
            }
            translateOperation(builder, op);
        }
        if (!rooted) {
            Instruction root;
            root.name = "empty.tuple";
            root.opcode = "tuple";
            root.shape.isTuple = true;
            builder.computation.root = builder.add(std::move(root));
        }
        return push(std::move(builder.computation));
    }

    /// A function's result shardings (`-> (tensor<..> {sdy.sharding = ...})`, jax's out_shardings)
    /// become sharding constraints on the returned values, so the partitioner lays them out so.
    using Overrides = std::vector<std::optional<std::uint32_t>>;

    Overrides constrainResults(Builder& builder, mlir::Operation& terminator, mlir::func::FuncOp function)
    {
        Overrides overrides(terminator.getNumOperands());
        for (unsigned k = 0; k < terminator.getNumOperands() && k < function.getNumResults(); ++k) {
            const mlir::Value value = terminator.getOperand(k);
            std::string sharding = shardingTextOf(function.getResultAttr(k, "sdy.sharding"));
            if (sharding.empty())
                sharding = gspmdShardingText(function.getResultAttr(k, "mhlo.sharding"), value.getType(),
                                             position(&terminator).first);
            if (sharding.empty())
                continue;
            Instruction constraint;
            constraint.name = "result_sharding." + std::to_string(m_nextInstruction++);
            constraint.opcode = "bitcast";
            constraint.operands = {lookup(builder, value)};
            constraint.shape = shapeOf(value.getType());
            constraint.attributes.emplace_back("sharding", sharding);
            const auto [line, column] = position(&terminator);
            constraint.line = line;
            constraint.column = column;
            overrides[k] = builder.add(std::move(constraint));
            ++m_result.shardedValues;
        }
        return overrides;
    }

    std::uint32_t push(Computation computation)
    {
        m_result.module.computations.push_back(std::move(computation));
        return static_cast<std::uint32_t>(m_result.module.computations.size() - 1);
    }

    /// The root of a region: its terminator's operands (replaced by `overrides` where set).
    std::uint32_t rootOf(Builder& builder, mlir::Operation& terminator, bool tupleRoot, const Overrides& overrides = {})
    {
        std::vector<std::uint32_t> operands;
        for (unsigned k = 0; k < terminator.getNumOperands(); ++k)
            operands.push_back(k < overrides.size() && overrides[k] ? *overrides[k]
                                                                    : lookup(builder, terminator.getOperand(k)));
        if (operands.size() == 1 && !tupleRoot)
            return operands.front();
        Instruction tuple;
        tuple.name = "return.tuple";
        tuple.opcode = "tuple";
        tuple.shape.isTuple = true;
        for (std::uint32_t operand : operands)
            tuple.shape.tupleElements.push_back(builder.computation.instructions[operand].shape);
        tuple.operands = std::move(operands);
        tuple.isRoot = true;
        return builder.add(std::move(tuple));
    }

    /// The instruction of `value`; a value of an enclosing region (StableHLO regions may use them)
    /// becomes a free placeholder parameter outside the computation's parameter list.
    std::uint32_t lookup(Builder& builder, mlir::Value value)
    {
        if (const auto it = builder.values.find(value); it != builder.values.end())
            return it->second;
        // The op whose region this is (in the nearest enclosing computation that defines the value)
        // must run after the value's producer.
        for (std::size_t k = m_builders.size(); k-- > 0;) {
            if (m_builders[k] == &builder)
                continue;
            if (const auto it = m_builders[k]->values.find(value); it != m_builders[k]->values.end()) {
                m_builders[k]->capturedByRegions.push_back(it->second);
                break;
            }
        }
        Instruction placeholder;
        placeholder.name = "captured." + std::to_string(builder.captured);
        placeholder.opcode = "parameter";
        placeholder.parameterNumber = 1'000'000 + builder.captured++;
        placeholder.shape = shapeOf(value.getType());
        const std::uint32_t index = builder.add(std::move(placeholder));
        builder.values[value] = index;
        return index;
    }

    /// A get-tuple-element of element `k` (of `shape`) of the tuple instruction `index`.
    static std::uint32_t addElement(Builder& builder, std::uint32_t index, unsigned k, Shape shape)
    {
        Instruction element;
        element.name = builder.computation.instructions[index].name + "." + std::to_string(k);
        element.opcode = "get-tuple-element";
        element.tupleIndex = k;
        element.operands = {index};
        element.shape = std::move(shape);
        element.line = builder.computation.instructions[index].line;
        element.column = builder.computation.instructions[index].column;
        return builder.add(std::move(element));
    }

    void mapResults(Builder& builder, mlir::Operation& op, std::uint32_t index)
    {
        if (op.getNumResults() == 1) {
            builder.values[op.getResult(0)] = index;
            return;
        }
        for (mlir::OpResult result : op.getResults())
            builder.values[result] = addElement(builder, index, result.getResultNumber(), shapeOf(result.getType()));
    }

    std::uint32_t regionComputation(mlir::Operation& op, unsigned k, const std::string& what)
    {
        if (k >= op.getNumRegions())
            return 0;
        return translateRegion(op.getRegion(k), what, Parameters::PerArgument, false);
    }

    void translateOperation(Builder& builder, mlir::Operation& op)
    {
        const StringRef fullName = op.getName().getStringRef();
        const StringRef dialect = op.getName().getDialectNamespace();
        const StringRef name = fullName.substr(dialect.size() + 1);
        if (fullName == "sdy.mesh" || fullName == "mesh.mesh")
            return;

        Instruction instruction;
        const auto [line, column] = position(&op);
        instruction.line = line;
        instruction.column = column;
        instruction.metadata.opName = locationName(op.getLoc());
        instruction.shape = resultShape(op);
        for (mlir::Value operand : op.getOperands())
            instruction.operands.push_back(lookup(builder, operand));

        std::optional<std::string> opcode;
        bool meshOp = false;
        if (dialect == "stablehlo" || dialect == "mhlo")
            opcode = hloOpcodeOf(name);
        else if (dialect == "mesh") {
            opcode = translateMeshOp(op, name, instruction);
            meshOp = true;
        } else if (dialect == "chlo")
            opcode = hloOpcodeOf(name.starts_with("broadcast_") ? name.substr(10) : name);
        else
            opcode = upstreamOpcodeOf(fullName);

        if (fullName == "func.call" || fullName == "func.call_indirect") {
            auto callee = op.getAttrOfType<mlir::FlatSymbolRefAttr>("callee");
            auto function = callee ? m_symbols.lookup<mlir::func::FuncOp>(callee.getValue()) : nullptr;
            if (!function || function.isDeclaration())
                fail(op, "calls @" + (callee ? callee.getValue().str() : std::string("?")) +
                             ", which has no body in the module");
            opcode = "call";
            instruction.toApply = translateFunction(function);
        } else if (fullName == "sdy.manual_computation" || fullName == "sdy.named_computation") {
            translateShardyComputation(builder, op, std::move(instruction), fullName == "sdy.manual_computation");
            return;
        } else if (fullName == "sdy.sharding_group") {
            return; // ties shardings together during propagation; no value, no work
        } else if (fullName == "sdy.propagation_barrier") {
            opcode = "bitcast"; // stops propagation only; the value passes unchanged
        } else if (fullName == "stablehlo.composite" || fullName == "mhlo.composite") {
            auto decomposition = op.getAttrOfType<mlir::FlatSymbolRefAttr>("decomposition");
            auto function = decomposition ? m_symbols.lookup<mlir::func::FuncOp>(decomposition.getValue()) : nullptr;
            if (!function)
                fail(op, "composite without a decomposition function in the module");
            opcode = "call";
            instruction.toApply = translateFunction(function);
        } else if (fullName == "sdy.constant") {
            opcode = "constant"; // the same value as stablehlo.constant; Shardy only keeps it from being deduplicated
        } else if (fullName == "sdy.sharding_constraint" || fullName == "sdy.reshard") {
            opcode = "bitcast"; // free: sharding annotations move no data in a per-device program
            const std::string sharding = shardingTextOf(op.getAttr("sharding"));
            if (!sharding.empty())
                instruction.attributes.emplace_back("sharding", sharding);
        } else if (name == "while" && opcode) {
            translateWhile(builder, op, std::move(instruction));
            return;
        } else if (opcode == "conditional") {
            for (unsigned k = 0; k < op.getNumRegions(); ++k)
                instruction.branchComputations.push_back(regionComputation(op, k, name.str() + "_branch"));
        } else if (fullName == "linalg.generic" || fullName == "linalg.map") {
            // Elementwise (every iterator parallel, one result the shape of the loop nest): a map of
            // its body over the result's elements. Reductions keep the unknown-op fallback.
            bool parallel = true;
            if (auto iterators = op.getAttrOfType<mlir::ArrayAttr>("iterator_types"))
                for (mlir::Attribute iterator : iterators)
                    parallel = parallel && printed(iterator).find("parallel") != std::string::npos;
            if (parallel && op.getNumResults() == 1 && op.getNumRegions() == 1) {
                opcode = "map";
                instruction.toApply = regionComputation(op, 0, "generic_body");
                // The outs operand only gives the result's shape (a tensor.empty): a map reads its ins.
                if (fullName == "linalg.generic" && instruction.operands.size() > 1)
                    instruction.operands.pop_back();
            }
        }
        if (!opcode) {
            opcode = fullName.str();
            if (dialect == "stablehlo" || dialect == "mhlo" || dialect == "chlo" || dialect == "sdy")
                warn(line > 0 ? core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                                   "'%1' is not supported by the MLIR frontend; costed "
                                                                   "by its bytes only (first at line %2)"),
                                              {fullName.str(), std::to_string(line)})
                              : core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                                   "'%1' is not supported by the MLIR frontend; costed "
                                                                   "by its bytes only"),
                                              {fullName.str()}));
        }
        instruction.opcode = *opcode;
        instruction.name = instruction.opcode + "." + std::to_string(m_nextInstruction++);

        if (meshOp) {
            // Attributes are set by translateMeshOp.
        } else if (fullName == "linalg.matmul" || fullName == "linalg.batch_matmul" || fullName == "tosa.matmul") {
            // C += A B over ins(A, B) outs(C); the batched forms batch dimension 0. The accumulator
            // C (a linalg.fill of zeros, as frontends emit) is dropped: a dot has two operands.
            if (fullName != "tosa.matmul" && instruction.operands.size() == 3)
                instruction.operands.pop_back();
            const bool batched = fullName != "linalg.matmul";
            instruction.dot.lhsContracting = {batched ? 2 : 1};
            instruction.dot.rhsContracting = {batched ? 1 : 0};
            if (batched) {
                instruction.dot.lhsBatch = {0};
                instruction.dot.rhsBatch = {0};
            }
        } else if (fullName == "linalg.transpose" || fullName == "tosa.transpose") {
            instruction.dimensions = intList(op.getAttr("permutation"));
        } else if (fullName == "tosa.reduce_sum" || fullName == "tosa.reduce_max") {
            if (auto axis = op.getAttrOfType<mlir::IntegerAttr>("axis"))
                instruction.dimensions = {axis.getInt()};
        } else if (dialect == "linalg" || dialect == "tosa") {
            // Shapes say everything the cost model needs.
        } else {
            fillAttributes(op, name, instruction);
        }
        if (instruction.opcode == "custom-call" && instruction.customCallTarget == "Sharding" &&
            op.getNumOperands() == 1 && op.getNumResults() == 1) {
            // GSPMD's sharding annotation (what jax and torch_xla print for with_sharding_constraint).
            instruction.opcode = "bitcast";
            instruction.customCallTarget.clear();
            const std::string sharding =
                gspmdShardingText(op.getAttr("mhlo.sharding"), op.getResult(0).getType(), line);
            if (!sharding.empty())
                instruction.attributes.emplace_back("sharding", sharding);
        }
        if (isCollectiveName(name) && (dialect == "stablehlo" || dialect == "mhlo") && m_manualDepth == 0)
            ++m_result.collectives;
        if (op.getAttr("mhlo.sharding") || op.getAttr("sdy.sharding") || fullName == "sdy.sharding_constraint")
            ++m_result.shardedValues;

        // Reducer-like regions.
        const std::string& hlo = instruction.opcode;
        if ((hlo == "reduce" || hlo == "all-reduce" || hlo == "reduce-scatter" || hlo == "reduce-window" ||
             hlo == "scatter" || hlo == "sort" || hlo == "map") &&
            op.getNumRegions() > 0 && !op.getRegion(0).empty())
            instruction.toApply = regionComputation(op, 0, name.str() + "_body");
        if (hlo == "select-and-scatter" && op.getNumRegions() == 2) {
            const std::uint32_t select = regionComputation(op, 0, "select");
            const std::uint32_t scatter = regionComputation(op, 1, "scatter");
            instruction.attributes.emplace_back("select", m_result.module.computations[select].name);
            instruction.attributes.emplace_back("scatter", m_result.module.computations[scatter].name);
        }
        builder.dependOnCaptures(instruction);
        const std::uint32_t index = builder.add(std::move(instruction));
        mapResults(builder, op, index);
    }

    /// `sdy.manual_computation`: each operand enters as an SPMDFullToShardShape custom call (its
    /// in_sharding as annotation, the body argument's local type as shape), the body is called on
    /// them as written, and each result leaves through an SPMDShardToFullShape (its out_sharding),
    /// as XLA's HLO round trip writes a shard_map; the partitioner hands each device its shard.
    /// Collectives inside the body are the program's own, not a sign the module is partitioned.
    /// `sdy.named_computation`: a call of its body on global values; its in_ and out_shardings,
    /// where given, are sharding constraints on its operands and results.
    void translateShardyComputation(Builder& builder, mlir::Operation& op, Instruction call, bool manual)
    {
        const std::string what = op.getName().getStringRef().str();
        if (op.getNumRegions() != 1 || op.getRegion(0).empty())
            fail(op, what + " needs a body");
        mlir::Block& body = op.getRegion(0).front();
        if (body.getNumArguments() != op.getNumOperands())
            fail(op, what + ": " + std::to_string(op.getNumOperands()) + " operands but " +
                         std::to_string(body.getNumArguments()) + " body arguments");
        auto inShardings = op.getAttrOfType<mlir::ArrayAttr>("in_shardings");
        auto outShardings = op.getAttrOfType<mlir::ArrayAttr>("out_shardings");
        const auto edge = [&](std::uint32_t operand, const Shape& shape, const char* target, mlir::ArrayAttr shardings,
                              unsigned k) {
            if (!manual && !(shardings && k < shardings.size()))
                return operand;
            Instruction custom;
            custom.name = std::string(manual ? target : "named_computation.constraint") + "." +
                          std::to_string(m_nextInstruction++);
            custom.opcode = manual ? "custom-call" : "bitcast";
            if (manual)
                custom.customCallTarget = target;
            custom.operands = {operand};
            custom.shape = shape;
            custom.line = call.line;
            custom.column = call.column;
            custom.metadata = call.metadata;
            if (shardings && k < shardings.size()) {
                const std::string sharding = shardingTextOf(shardings[k]);
                if (!sharding.empty())
                    custom.attributes.emplace_back("sharding", sharding);
                m_result.shardedValues += manual || sharding.empty() ? 0 : 1;
            }
            return builder.add(std::move(custom));
        };
        std::vector<std::uint32_t> locals;
        for (unsigned k = 0; k < op.getNumOperands(); ++k)
            locals.push_back(
                edge(call.operands[k], shapeOf(body.getArgument(k).getType()), "SPMDFullToShardShape", inShardings, k));
        call.opcode = "call";
        const std::string kind = manual ? "manual_computation" : "named_computation";
        call.name = kind + "." + std::to_string(m_nextInstruction++);
        call.operands = locals;
        m_manualDepth += manual ? 1 : 0;
        call.toApply = regionComputation(op, 0, kind);
        m_manualDepth -= manual ? 1 : 0;
        // The body returns its local values: the call's shape is theirs.
        const Computation& callee = m_result.module.computations[*call.toApply];
        call.shape = callee.instructions[callee.root].shape;
        builder.dependOnCaptures(call);
        const std::uint32_t index = builder.add(std::move(call));
        m_result.manualComputations += manual ? 1 : 0;
        for (mlir::OpResult result : op.getResults()) {
            std::uint32_t local = index;
            if (op.getNumResults() > 1) {
                const Shape& whole = builder.computation.instructions[index].shape;
                local = addElement(builder, index, result.getResultNumber(),
                                   result.getResultNumber() < whole.tupleElements.size()
                                       ? whole.tupleElements[result.getResultNumber()]
                                       : shapeOf(result.getType()));
            }
            builder.values[result] =
                edge(local, shapeOf(result.getType()), "SPMDShardToFullShape", outShardings, result.getResultNumber());
        }
    }

    void translateWhile(Builder& builder, mlir::Operation& op, Instruction loop)
    {
        // HLO's while takes one tuple: build it from the operands, run the loop on it, and give each
        // result its get-tuple-element.
        Instruction tuple;
        tuple.name = "while.init." + std::to_string(m_nextInstruction);
        tuple.opcode = "tuple";
        tuple.operands = loop.operands;
        tuple.shape.isTuple = true;
        for (mlir::Value operand : op.getOperands())
            tuple.shape.tupleElements.push_back(shapeOf(operand.getType()));
        tuple.line = loop.line;
        tuple.column = loop.column;
        loop.operands = {builder.add(std::move(tuple))};
        loop.opcode = "while";
        loop.name = "while." + std::to_string(m_nextInstruction++);
        loop.shape.isTuple = true;
        loop.shape.tupleElements.clear();
        for (mlir::Value result : op.getResults())
            loop.shape.tupleElements.push_back(shapeOf(result.getType()));
        if (op.getNumRegions() != 2)
            fail(op, "a while needs a cond and a body region");
        loop.condition = translateRegion(op.getRegion(0), "while_cond", Parameters::Tuple, false);
        loop.body = translateRegion(op.getRegion(1), "while_body", Parameters::Tuple, true);
        builder.dependOnCaptures(loop);
        const std::uint32_t index = builder.add(std::move(loop));
        for (mlir::OpResult result : op.getResults())
            builder.values[result] = addElement(builder, index, result.getResultNumber(), shapeOf(result.getType()));
    }

    std::shared_ptr<const core::hlo::ReplicaGroupList> replicaGroups(mlir::Attribute attribute)
    {
        auto dense = mlir::dyn_cast_or_null<mlir::DenseIntElementsAttr>(attribute);
        if (!dense)
            return nullptr;
        if (const auto it = m_groups.find(attribute); it != m_groups.end())
            return it->second;
        auto groups = std::make_shared<core::hlo::ReplicaGroupList>();
        const auto shape = dense.getType().getShape();
        const std::int64_t width = shape.size() == 2 ? shape[1] : dense.getNumElements();
        // -1 pads groups of uneven size (StableHLO spec, all_reduce); split rows, drop padding.
        std::int64_t column = 0;
        std::vector<std::int64_t> row;
        for (const ::llvm::APInt& id : dense) {
            if (id.getSExtValue() >= 0)
                row.push_back(id.getSExtValue());
            if (++column == width) {
                if (!row.empty())
                    groups->push_back(std::move(row));
                row = {};
                column = 0;
            }
        }
        m_groups.try_emplace(attribute, groups);
        return groups;
    }

    void fillAttributes(mlir::Operation& op, StringRef name, Instruction& instruction)
    {
        const auto get = [&op](StringRef key) { return op.getAttr(key); };
        const auto firstOf = [&op](std::initializer_list<StringRef> keys) -> mlir::Attribute {
            for (StringRef key : keys)
                if (mlir::Attribute value = op.getAttr(key))
                    return value;
            return {};
        };
        const std::string& opcode = instruction.opcode;

        if (opcode == "constant") {
            if (auto dense = mlir::dyn_cast_or_null<mlir::DenseElementsAttr>(get("value"))) {
                if (dense.isSplat() && dense.getNumElements() == 1 &&
                    mlir::isa<mlir::IntegerType>(dense.getElementType()))
                    instruction.literal = std::to_string(dense.getSplatValue<::llvm::APInt>().getSExtValue());
            }
            if (auto integer = mlir::dyn_cast_or_null<mlir::IntegerAttr>(get("value")))
                instruction.literal = std::to_string(integer.getInt());
        } else if (opcode == "broadcast") {
            instruction.dimensions = intList(firstOf({"dims", "broadcast_dimensions"}));
        } else if (opcode == "transpose") {
            instruction.dimensions = intList(firstOf({"dims", "permutation"}));
        } else if (opcode == "reduce" || opcode == "reverse") {
            instruction.dimensions = intList(firstOf({"dimensions", "dims"}));
        } else if (opcode == "concatenate") {
            instruction.dimensions = intList(firstOf({"dim", "dimension"}));
        } else if (opcode == "iota") {
            instruction.dimensions = intList(firstOf({"dim", "iota_dimension"}));
        } else if (opcode == "sort") {
            instruction.dimensions = intList(firstOf({"dimension"}));
        } else if (opcode == "compare") {
            std::string direction = printed(firstOf({"comparison_direction"}));
            // Generic form: #stablehlo<comparison_direction LT> keeps "comparison_direction LT".
            if (const auto space = direction.rfind(' '); space != std::string::npos)
                direction = direction.substr(space + 1);
            while (!direction.empty() && !std::isalpha(static_cast<unsigned char>(direction.back())))
                direction.pop_back();
            if (!direction.empty())
                instruction.attributes.emplace_back("direction", direction);
        } else if (opcode == "get-tuple-element") {
            const auto index = intList(firstOf({"index"}));
            if (!index.empty())
                instruction.tupleIndex = index.front();
        } else if (opcode == "dot") {
            fillDot(op, name, instruction);
        } else if (opcode == "convolution") {
            fillConvolution(op, instruction);
        } else if (opcode == "reduce-window" || opcode == "select-and-scatter") {
            const auto sizes = intList(get("window_dimensions"));
            const auto strides = intList(get("window_strides"));
            const auto base = intList(get("base_dilations"));
            const auto windowDilations = intList(get("window_dilations"));
            const auto padding = intList(get("padding"));
            for (std::size_t d = 0; d < sizes.size(); ++d) {
                WindowDimension dimension;
                dimension.size = sizes[d];
                dimension.stride = d < strides.size() ? strides[d] : 1;
                dimension.lhsDilation = d < base.size() ? base[d] : 1;
                dimension.rhsDilation = d < windowDilations.size() ? windowDilations[d] : 1;
                if (2 * d + 1 < padding.size()) {
                    dimension.paddingLow = padding[2 * d];
                    dimension.paddingHigh = padding[2 * d + 1];
                }
                instruction.window.push_back(dimension);
            }
        } else if (opcode == "gather" || opcode == "scatter") {
            // Generic: dimension_numbers = #stablehlo.gather<offset_dims = [1], ...>, slice_sizes =
            // array<i64: 1, 128> (scatter: #stablehlo.scatter<update_window_dims = [1], ...>); pretty
            // (rare): the same keys as attributes. Written as "1,128" lists.
            const std::string text =
                opaqueText(get(opcode == "gather" ? "dimension_numbers" : "scatter_dimension_numbers"));
            const auto list = [&](std::string_view key) {
                std::vector<std::int64_t> values = intsAfterKey(text, key);
                if (values.empty())
                    values = intList(op.getAttr(key));
                std::string joined;
                for (std::size_t k = 0; k < values.size(); ++k)
                    joined += (k ? "," : "") + std::to_string(values[k]);
                return joined;
            };
            if (opcode == "gather" && (!text.empty() || op.getAttr("offset_dims"))) {
                for (std::string_view key :
                     {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim"})
                    instruction.attributes.emplace_back(std::string(key), list(key));
                instruction.attributes.emplace_back("slice_sizes", list("slice_sizes"));
            }
            if (opcode == "scatter" && (!text.empty() || op.getAttr("update_window_dims")))
                for (std::string_view key :
                     {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims", "index_vector_dim"})
                    instruction.attributes.emplace_back(std::string(key), list(key));
        } else if (opcode == "custom-call") {
            if (auto target = mlir::dyn_cast_or_null<mlir::StringAttr>(get("call_target_name")))
                instruction.customCallTarget = target.getValue().str();
            else if (auto symbol = mlir::dyn_cast_or_null<mlir::FlatSymbolRefAttr>(get("call_target_name")))
                instruction.customCallTarget = symbol.getValue().str();
            if (auto config = mlir::dyn_cast_or_null<mlir::StringAttr>(get("backend_config")))
                instruction.backendConfig = config.getValue().str();
        }

        if (isCollectiveName(name)) {
            instruction.replicaGroups = replicaGroups(get("replica_groups"));
            if (mlir::Attribute channel = get("channel_handle")) {
                // #stablehlo.channel_handle<handle = N, type = T>: channel ids start at 1; 0 is none.
                const auto handle = intsAfterKey(opaqueText(channel), "handle");
                if (!handle.empty() && handle.front() > 0)
                    instruction.channelId = handle.front();
            } else if (auto channelId = mlir::dyn_cast_or_null<mlir::IntegerAttr>(get("channel_id"))) {
                if (channelId.getInt() > 0)
                    instruction.channelId = channelId.getInt();
            }
            if (mlir::Attribute global = get("use_global_device_ids"))
                instruction.useGlobalDeviceIds =
                    !mlir::isa<mlir::BoolAttr>(global) || mlir::cast<mlir::BoolAttr>(global).getValue();
            if (name == "collective_permute") {
                const auto pairs = intList(get("source_target_pairs"));
                for (std::size_t k = 0; k + 1 < pairs.size(); k += 2)
                    instruction.sourceTargetPairs.emplace_back(pairs[k], pairs[k + 1]);
            }
            if (name == "all_gather")
                instruction.dimensions = intList(get("all_gather_dim"));
            if (name == "reduce_scatter")
                instruction.dimensions = intList(get("scatter_dimension"));
            if (name == "all_to_all") {
                instruction.dimensions = intList(get("split_dimension"));
                if (instruction.replicaGroups == nullptr)
                    instruction.replicaGroups = std::make_shared<core::hlo::ReplicaGroupList>();
            }
        }
    }

    void fillDot(mlir::Operation& op, StringRef name, Instruction& instruction)
    {
        core::hlo::DotDimensions& dot = instruction.dot;
        if (name == "dot") {
            // stablehlo.dot: contracts lhs's last dimension with rhs's first (rank-1 rhs: its only).
            const auto lhs = mlir::dyn_cast<mlir::ShapedType>(op.getOperand(0).getType());
            if (lhs && lhs.hasRank() && lhs.getRank() > 0)
                dot.lhsContracting = {lhs.getRank() - 1};
            dot.rhsContracting = {0};
            return;
        }
        if (mlir::Attribute contracting = op.getAttr("contracting_dims")) {
            dot.lhsContracting = intList(element(contracting, 0));
            dot.rhsContracting = intList(element(contracting, 1));
            mlir::Attribute batching = op.getAttr("batching_dims");
            dot.lhsBatch = intList(element(batching, 0));
            dot.rhsBatch = intList(element(batching, 1));
            return;
        }
        const std::string text = opaqueText(op.getAttr("dot_dimension_numbers"));
        if (text.empty())
            fail(op, "dot_general without dot_dimension_numbers or contracting_dims");
        dot.lhsBatch = intsAfterKey(text, "lhs_batching_dimensions");
        dot.rhsBatch = intsAfterKey(text, "rhs_batching_dimensions");
        dot.lhsContracting = intsAfterKey(text, "lhs_contracting_dimensions");
        dot.rhsContracting = intsAfterKey(text, "rhs_contracting_dimensions");
    }

    void fillConvolution(mlir::Operation& op, Instruction& instruction)
    {
        mlir::Attribute numbers = op.getAttr("dim_numbers");
        instruction.dimLabels = dimLabelsOf(numbers ? numbers : op.getAttr("dimension_numbers"));
        if (auto groups = mlir::dyn_cast_or_null<mlir::IntegerAttr>(op.getAttr("feature_group_count")))
            instruction.featureGroupCount = groups.getInt();
        if (auto groups = mlir::dyn_cast_or_null<mlir::IntegerAttr>(op.getAttr("batch_group_count")))
            instruction.batchGroupCount = groups.getInt();
        std::vector<std::int64_t> strides;
        std::vector<std::int64_t> padding;
        std::vector<std::int64_t> lhsDilation;
        std::vector<std::int64_t> rhsDilation;
        if (auto window = mlir::dyn_cast_or_null<mlir::DictionaryAttr>(op.getAttr("window"))) {
            strides = intList(window.get("stride"));
            padding = intList(window.get("pad"));
            lhsDilation = intList(window.get("lhs_dilate"));
            rhsDilation = intList(window.get("rhs_dilate"));
        } else {
            strides = intList(op.getAttr("window_strides"));
            padding = intList(op.getAttr("padding"));
            lhsDilation = intList(op.getAttr("lhs_dilation"));
            rhsDilation = intList(op.getAttr("rhs_dilation"));
        }
        // Kernel spatial sizes, in the order of the kernel's spatial labels (0, 1, ...).
        std::vector<std::int64_t> kernelSpatial;
        const auto arrow = instruction.dimLabels.find('_');
        const auto kernelType = mlir::dyn_cast<mlir::ShapedType>(op.getOperand(1).getType());
        if (arrow != std::string::npos && kernelType && kernelType.hasRank()) {
            const std::string kernel =
                instruction.dimLabels.substr(arrow + 1, instruction.dimLabels.find("->") - arrow - 1);
            for (char digit = '0'; digit <= '9'; ++digit) {
                const auto at = kernel.find(digit);
                if (at == std::string::npos || static_cast<std::int64_t>(at) >= kernelType.getRank())
                    break;
                kernelSpatial.push_back(kernelType.getShape()[at]);
            }
        }
        const std::size_t spatial = std::max({kernelSpatial.size(), strides.size(), padding.size() / 2});
        for (std::size_t d = 0; d < spatial; ++d) {
            WindowDimension dimension;
            dimension.size = d < kernelSpatial.size() ? kernelSpatial[d] : 1;
            dimension.stride = d < strides.size() ? strides[d] : 1;
            dimension.lhsDilation = d < lhsDilation.size() ? lhsDilation[d] : 1;
            dimension.rhsDilation = d < rhsDilation.size() ? rhsDilation[d] : 1;
            if (2 * d + 1 < padding.size()) {
                dimension.paddingLow = padding[2 * d];
                dimension.paddingHigh = padding[2 * d + 1];
            }
            instruction.window.push_back(dimension);
        }
    }

    static constexpr std::uint32_t kInProgress = 0xffffffffu;

    mlir::ModuleOp m_root;
    std::string m_file;
    const SourcePositions& m_positions;
    mlir::SymbolTable m_symbols;
    TranslatedModule m_result;
    std::map<std::string, std::vector<std::int64_t>> m_meshShapes; ///< upstream mesh.mesh shapes by name
    std::unordered_map<mlir::Operation*, std::uint32_t> m_functions;
    ::llvm::DenseMap<mlir::Attribute, std::shared_ptr<const core::hlo::ReplicaGroupList>> m_groups;
    std::set<std::string> m_warningSet;
    std::optional<core::partition::MeshShape> m_gspmdMesh;
    std::vector<Builder*> m_builders; ///< computations being built, outermost first
    std::uint64_t m_nextInstruction = 0;
    int m_manualDepth = 0; ///< > 0 while translating the body of an sdy.manual_computation
    std::uint64_t m_nextComputation = 0;
};

} // namespace

TranslatedModule translateToHlo(mlir::ModuleOp module, const std::string& file, const SourcePositions& positions)
{
    return Translator(module, file, positions).run();
}

} // namespace flint::frontend::detail
