// SPDX-License-Identifier: MIT
#include "core/mlir/readerdialects.h"

#include <string>

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSwitch.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/DialectImplementation.h>
#include <mlir/IR/OpImplementation.h>
#include <mlir/IR/OperationSupport.h>

MLIR_DEFINE_EXPLICIT_TYPE_ID(flint::frontend::detail::StableHloReaderDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(flint::frontend::detail::MhloReaderDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(flint::frontend::detail::ChloReaderDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(flint::frontend::detail::ShardyReaderDialect)

// The grammar below follows the pretty forms that the StableHLO specification (spec.md, each op's
// "Examples") and the op definitions' assembly formats print, and Shardy's dialect documentation
// (sdy.mesh, #sdy.sharding, sdy.manual_computation, sdy.named_computation, ...). Parsers never throw: they report
// through the parser's diagnostics, which carry file, line and column.
namespace flint::frontend::detail {
namespace {

using ::llvm::SmallVector;
using ::llvm::StringRef;
using mlir::ArrayAttr;
using mlir::AsmParser;
using mlir::Attribute;
using mlir::failure;
using mlir::NamedAttribute;
using mlir::OpAsmParser;
using mlir::OperationState;
using mlir::ParseResult;
using mlir::success;
using mlir::Type;

using Operands = SmallVector<OpAsmParser::UnresolvedOperand>;

// ---------------------------------------------------------------------------------------------
// Shardy attributes

/// `<["x"=2, "y"=4], device_ids=[...]>` (the `<...>` of sdy.mesh and #sdy.mesh) as a dictionary
/// {axes = ["x", "y"], sizes = [2, 4], device_ids = [...]}.
ParseResult parseMeshBody(AsmParser& parser, Attribute& result)
{
    mlir::Builder builder(parser.getContext());
    SmallVector<Attribute> axes;
    SmallVector<Attribute> sizes;
    SmallVector<Attribute> deviceIds;
    if (parser.parseLess())
        return failure();
    if (succeeded(parser.parseOptionalLSquare()) && failed(parser.parseOptionalRSquare())) {
        do {
            std::string axis;
            std::int64_t size = 0;
            if (parser.parseString(&axis) || parser.parseEqual() || parser.parseInteger(size))
                return failure();
            axes.push_back(builder.getStringAttr(axis));
            sizes.push_back(builder.getI64IntegerAttr(size));
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRSquare())
            return failure();
        (void)parser.parseOptionalComma();
    }
    if (succeeded(parser.parseOptionalKeyword("device_ids"))) {
        if (parser.parseEqual() || parser.parseLSquare())
            return failure();
        if (failed(parser.parseOptionalRSquare())) {
            do {
                std::int64_t id = 0;
                if (parser.parseInteger(id))
                    return failure();
                deviceIds.push_back(builder.getI64IntegerAttr(id));
            } while (succeeded(parser.parseOptionalComma()));
            if (parser.parseRSquare())
                return failure();
        }
    }
    if (parser.parseGreater())
        return failure();
    SmallVector<NamedAttribute> entries{builder.getNamedAttr("axes", builder.getArrayAttr(axes)),
                                        builder.getNamedAttr("sizes", builder.getArrayAttr(sizes))};
    if (!deviceIds.empty())
        entries.push_back(builder.getNamedAttr("device_ids", builder.getArrayAttr(deviceIds)));
    result = builder.getDictionaryAttr(entries);
    return success();
}

/// One axis reference: "x" or a sub-axis "x":(1)2 (kept as the text x:(1)2).
ParseResult parseAxisRef(AsmParser& parser, std::string& axis)
{
    if (parser.parseString(&axis))
        return failure();
    if (succeeded(parser.parseOptionalColon())) {
        std::int64_t preSize = 0;
        std::int64_t size = 0;
        if (parser.parseLParen() || parser.parseInteger(preSize) || parser.parseRParen() || parser.parseInteger(size))
            return failure();
        axis += ":(" + std::to_string(preSize) + ")" + std::to_string(size);
    }
    return success();
}

/// `{"x", "y"}` with an optional `?` (open dimension) and priority suffix `p<N>`.
ParseResult parseAxisList(AsmParser& parser, SmallVector<Attribute>& axes, bool& open)
{
    mlir::Builder builder(parser.getContext());
    open = false;
    if (parser.parseLBrace())
        return failure();
    if (failed(parser.parseOptionalRBrace())) {
        do {
            if (succeeded(parser.parseOptionalQuestion())) {
                open = true;
                continue;
            }
            std::string axis;
            if (parseAxisRef(parser, axis))
                return failure();
            axes.push_back(builder.getStringAttr(axis));
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRBrace())
            return failure();
    }
    StringRef priority;
    (void)parser.parseOptionalKeyword(&priority); // p0, p1, ...: propagation priority, not needed here
    return success();
}

/// A tensor sharding `<@mesh, [{"x"}, {}], replicated={"y"}>` as a dictionary
/// {mesh = @mesh (or mesh_inline = {...}), dims = [["x"], []], open = [false, false], replicated = ["y"]}.
ParseResult parseTensorSharding(AsmParser& parser, Attribute& result)
{
    mlir::Builder builder(parser.getContext());
    SmallVector<NamedAttribute> entries;
    if (parser.parseLess())
        return failure();
    mlir::StringAttr meshName;
    if (succeeded(parser.parseOptionalSymbolName(meshName))) {
        entries.push_back(builder.getNamedAttr("mesh", mlir::FlatSymbolRefAttr::get(meshName)));
    } else {
        Attribute inlineMesh;
        if (parser.parseKeyword("mesh") || parseMeshBody(parser, inlineMesh))
            return failure();
        entries.push_back(builder.getNamedAttr("mesh_inline", inlineMesh));
    }
    SmallVector<Attribute> dims;
    SmallVector<Attribute> openDims;
    if (parser.parseComma() || parser.parseLSquare())
        return failure();
    if (failed(parser.parseOptionalRSquare())) {
        do {
            SmallVector<Attribute> axes;
            bool open = false;
            if (parseAxisList(parser, axes, open))
                return failure();
            dims.push_back(builder.getArrayAttr(axes));
            openDims.push_back(builder.getBoolAttr(open));
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRSquare())
            return failure();
    }
    entries.push_back(builder.getNamedAttr("dims", builder.getArrayAttr(dims)));
    entries.push_back(builder.getNamedAttr("open", builder.getArrayAttr(openDims)));
    // Trailing `, replicated={...}` / `, unreduced={...}`.
    while (succeeded(parser.parseOptionalComma())) {
        StringRef key;
        SmallVector<Attribute> axes;
        bool open = false;
        if (parser.parseKeyword(&key) || parser.parseEqual() || parseAxisList(parser, axes, open))
            return failure();
        entries.push_back(builder.getNamedAttr(key, builder.getArrayAttr(axes)));
    }
    if (parser.parseGreater())
        return failure();
    result = builder.getDictionaryAttr(entries);
    return success();
}

/// `[<@mesh, ...>, <@mesh, ...>]` as an array of tensor-sharding dictionaries.
ParseResult parseShardingList(AsmParser& parser, Attribute& result)
{
    SmallVector<Attribute> shardings;
    if (parser.parseLSquare())
        return failure();
    if (failed(parser.parseOptionalRSquare())) {
        do {
            Attribute sharding;
            if (parseTensorSharding(parser, sharding))
                return failure();
            shardings.push_back(sharding);
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRSquare())
            return failure();
    }
    result = ArrayAttr::get(parser.getContext(), shardings);
    return success();
}

// ---------------------------------------------------------------------------------------------
// Values of pretty-form keyword attributes: `dims = [1, 0]`, `contracting_dims = [1] x [0]`,
// `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, `window = {stride = [2, 2], ...}`,
// `slice [0:1, 0:64:2]`, `precision = [DEFAULT, DEFAULT]`, `distribution = UNIFORM`.

ParseResult parseValue(OpAsmParser& parser, Attribute& result);

/// One element of a bracketed list: an integer (or a start:limit[:stride] slice), a word, a nested
/// list, a string, or any MLIR attribute.
ParseResult parseListElement(OpAsmParser& parser, Attribute& result)
{
    mlir::Builder builder(parser.getContext());
    std::int64_t value = 0;
    const mlir::OptionalParseResult integer = parser.parseOptionalInteger(value);
    if (integer.has_value()) {
        if (failed(*integer))
            return failure();
        if (failed(parser.parseOptionalColon())) {
            result = builder.getI64IntegerAttr(value);
            return success();
        }
        SmallVector<Attribute> parts{builder.getI64IntegerAttr(value)};
        do {
            std::int64_t part = 0;
            if (parser.parseInteger(part))
                return failure();
            parts.push_back(builder.getI64IntegerAttr(part));
        } while (succeeded(parser.parseOptionalColon()));
        result = builder.getArrayAttr(parts);
        return success();
    }
    return parseValue(parser, result);
}

ParseResult parseBracketList(OpAsmParser& parser, Attribute& result)
{
    SmallVector<Attribute> elements;
    if (failed(parser.parseOptionalRSquare())) {
        do {
            Attribute element;
            if (parseListElement(parser, element))
                return failure();
            elements.push_back(element);
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRSquare())
            return failure();
    }
    result = ArrayAttr::get(parser.getContext(), elements);
    return success();
}

ParseResult parseValue(OpAsmParser& parser, Attribute& result)
{
    mlir::Builder builder(parser.getContext());
    if (succeeded(parser.parseOptionalLSquare())) {
        Attribute first;
        if (parseBracketList(parser, first))
            return failure();
        // `[1] x [0]` (dot dimensions) and `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (convolution).
        SmallVector<Attribute> parts{first};
        if (succeeded(parser.parseOptionalKeyword("x"))) {
            Attribute second;
            if (parser.parseLSquare() || parseBracketList(parser, second))
                return failure();
            parts.push_back(second);
            if (succeeded(parser.parseOptionalArrow())) {
                Attribute third;
                if (parser.parseLSquare() || parseBracketList(parser, third))
                    return failure();
                parts.push_back(third);
            }
            result = builder.getArrayAttr(parts);
            return success();
        }
        result = first;
        return success();
    }
    if (succeeded(parser.parseOptionalLBrace())) {
        SmallVector<NamedAttribute> entries;
        if (failed(parser.parseOptionalRBrace())) {
            do {
                StringRef key;
                Attribute value;
                if (parser.parseKeyword(&key) || parser.parseEqual() || parseValue(parser, value))
                    return failure();
                entries.push_back(builder.getNamedAttr(key, value));
            } while (succeeded(parser.parseOptionalComma()));
            if (parser.parseRBrace())
                return failure();
        }
        result = builder.getDictionaryAttr(entries);
        return success();
    }
    std::int64_t integer = 0;
    const mlir::OptionalParseResult parsedInteger = parser.parseOptionalInteger(integer);
    if (parsedInteger.has_value()) {
        if (failed(*parsedInteger))
            return failure();
        result = builder.getI64IntegerAttr(integer);
        return success();
    }
    StringRef word;
    if (succeeded(parser.parseOptionalKeyword(&word))) {
        if (word == "true" || word == "false")
            result = builder.getBoolAttr(word == "true");
        else
            result = builder.getStringAttr(word);
        return success();
    }
    std::string text;
    if (succeeded(parser.parseOptionalString(&text))) {
        result = builder.getStringAttr(text);
        return success();
    }
    mlir::StringAttr symbol;
    if (succeeded(parser.parseOptionalSymbolName(symbol))) {
        result = mlir::FlatSymbolRefAttr::get(symbol);
        return success();
    }
    return parser.parseAttribute(result);
}

// ---------------------------------------------------------------------------------------------
// Type signatures and operand resolution.

/// `: T`, `: T1, T2`, `: (T1, T2) -> R` or `: T -> R` (CHLO) after an op's operands.
struct Signature {
    SmallVector<Type> types;   ///< a plain type list
    SmallVector<Type> inputs;  ///< function form
    SmallVector<Type> results; ///< function form
    bool functional = false;
};

ParseResult parseSignature(OpAsmParser& parser, Signature& signature)
{
    if (parser.parseColon())
        return failure();
    Type first;
    if (parser.parseType(first))
        return failure();
    if (auto function = mlir::dyn_cast<mlir::FunctionType>(first)) {
        signature.functional = true;
        signature.inputs.assign(function.getInputs().begin(), function.getInputs().end());
        signature.results.assign(function.getResults().begin(), function.getResults().end());
        return success();
    }
    signature.types.push_back(first);
    while (succeeded(parser.parseOptionalComma())) {
        Type next;
        if (parser.parseType(next))
            return failure();
        signature.types.push_back(next);
    }
    if (succeeded(parser.parseOptionalArrow())) {
        signature.functional = true;
        signature.inputs = signature.types;
        signature.types.clear();
        if (parser.parseTypeList(signature.results))
            return failure();
    }
    return success();
}

/// Operand and result types from a signature, by the conventions of the ops' assembly formats:
/// one type for every operand and the result (SameOperandsAndResultType), `select`'s pred type and
/// value type, a list of one type per operand for terminators and optimization_barrier, or a
/// function type.
ParseResult resolveWithSignature(OpAsmParser& parser, OperationState& state, const Operands& operands,
                                 const Signature& signature, ::llvm::SMLoc location, StringRef name, bool noResults)
{
    SmallVector<Type> operandTypes;
    SmallVector<Type> resultTypes;
    if (signature.functional) {
        operandTypes = signature.inputs;
        resultTypes = signature.results;
    } else if (signature.types.size() == 1 && operands.size() != 1 && (name == "tuple")) {
        if (auto tuple = mlir::dyn_cast<mlir::TupleType>(signature.types.front()))
            operandTypes.assign(tuple.getTypes().begin(), tuple.getTypes().end());
        resultTypes.push_back(signature.types.front());
    } else if (signature.types.size() == 1) {
        operandTypes.assign(operands.size(), signature.types.front());
        resultTypes.push_back(signature.types.front());
    } else if (name == "select" && signature.types.size() == 2 && operands.size() == 3) {
        operandTypes = {signature.types[0], signature.types[1], signature.types[1]};
        resultTypes.push_back(signature.types[1]);
    } else if (signature.types.size() == operands.size()) {
        operandTypes = signature.types;
        resultTypes = signature.types;
    } else {
        return parser.emitError(location) << "'" << name << "' has " << operands.size() << " operands but "
                                          << signature.types.size() << " types in its signature";
    }
    if (noResults)
        resultTypes.clear();
    if (operandTypes.size() != operands.size())
        return parser.emitError(location) << "'" << name << "' has " << operands.size() << " operands but its type "
                                          << "signature names " << operandTypes.size();
    if (parser.resolveOperands(operands, operandTypes, location, state.operands))
        return failure();
    state.addTypes(resultTypes);
    return success();
}

bool isTerminatorName(StringRef name)
{
    return name == "return";
}

// ---------------------------------------------------------------------------------------------
// Operation parsers.

/// The common pretty grammar of StableHLO/MHLO/CHLO ops: an optional callee or name
/// (`custom_call @target`, `composite "name"`), operands either bare or in parentheses (with
/// `init:` for reduce), interleaved keyword attributes (`dims = [..]`, `applies stablehlo.add`,
/// `across dimensions = [..]`, positional words such as compare's `EQ` and `FLOAT`), a bracket
/// after an operand (slice bounds, tuple index), an optional attribute dictionary, the type
/// signature, and (reduce) a `reducer(...) {...}` region.
ParseResult parsePrettyOp(OpAsmParser& parser, OperationState& state)
{
    mlir::Builder builder(parser.getContext());
    const StringRef fullName = state.name.getStringRef();
    const StringRef name = fullName.substr(fullName.find('.') + 1);
    const ::llvm::SMLoc location = parser.getCurrentLocation();
    Operands operands;
    Operands initOperands;
    int positional = 0;

    const auto addPositional = [&](Attribute value) {
        static const char* const compareNames[] = {"comparison_direction", "compare_type"};
        const std::string key =
            name == "compare" && positional < 2 ? compareNames[positional] : "word" + std::to_string(positional);
        state.addAttribute(key, value);
        ++positional;
    };

    if (name == "custom_call") {
        mlir::StringAttr target;
        if (parser.parseSymbolName(target))
            return failure();
        state.addAttribute("call_target_name", target);
    } else if (name == "composite") {
        std::string compositeName;
        if (parser.parseString(&compositeName))
            return failure();
        state.addAttribute("name", builder.getStringAttr(compositeName));
    }

    if (succeeded(parser.parseOptionalLParen())) {
        // Parenthesized operands: `(%a, %b)` or reduce's `(%x init: %y), (%z init: %w)`.
        bool more = true;
        while (more) {
            if (failed(parser.parseOptionalRParen())) {
                do {
                    OpAsmParser::UnresolvedOperand operand;
                    if (parser.parseOperand(operand))
                        return failure();
                    if (succeeded(parser.parseOptionalKeyword("init"))) {
                        OpAsmParser::UnresolvedOperand init;
                        if (parser.parseColon() || parser.parseOperand(init))
                            return failure();
                        initOperands.push_back(init);
                    }
                    operands.push_back(operand);
                } while (succeeded(parser.parseOptionalComma()));
                if (parser.parseRParen())
                    return failure();
            }
            more = !initOperands.empty() && succeeded(parser.parseOptionalComma()) && succeeded(parser.parseLParen());
        }
        operands.append(initOperands.begin(), initOperands.end());
    }

    // Items: operands and keyword attributes, separated by commas or spaces.
    while (true) {
        OpAsmParser::UnresolvedOperand operand;
        const mlir::OptionalParseResult parsedOperand = parser.parseOptionalOperand(operand);
        if (parsedOperand.has_value()) {
            if (failed(*parsedOperand))
                return failure();
            operands.push_back(operand);
            if (succeeded(parser.parseOptionalLSquare())) {
                Attribute bounds;
                if (parseBracketList(parser, bounds))
                    return failure();
                state.addAttribute(name == "get_tuple_element" ? "index" : "bounds", bounds);
            }
        } else {
            StringRef keyword;
            if (failed(parser.parseOptionalKeyword(&keyword)))
                break;
            if (keyword == "applies") {
                StringRef body;
                if (parser.parseKeyword(&body))
                    return failure();
                state.addAttribute("applies", builder.getStringAttr(body));
            } else if (keyword == "across") {
                // `across dimensions = [...]`: the next item is the attribute.
            } else if (succeeded(parser.parseOptionalEqual())) {
                Attribute value;
                if (parseValue(parser, value))
                    return failure();
                state.addAttribute(keyword, value);
            } else {
                addPositional(builder.getStringAttr(keyword));
            }
        }
        (void)parser.parseOptionalComma();
    }

    if (parser.parseOptionalAttrDict(state.attributes))
        return failure();
    if (name == "replica_id" || name == "partition_id" || name == "iota" || name == "create_token" ||
        name == "after_all") {
        if (operands.empty()) {
            Type type;
            if (parser.parseColonType(type))
                return failure();
            state.addTypes(type);
            return success();
        }
    }
    if (operands.empty() && isTerminatorName(name)) {
        // `stablehlo.return` with no values has no signature.
        return success();
    }
    Signature signature;
    if (parseSignature(parser, signature))
        return failure();

    // Non-compact reduce: `reducer(%a: T, %b: T) (%c: U, %d: U) { ... }`, one group per input, the
    // block taking all first elements then all second elements.
    if (succeeded(parser.parseOptionalKeyword("reducer"))) {
        SmallVector<OpAsmParser::Argument> firsts;
        SmallVector<OpAsmParser::Argument> seconds;
        while (succeeded(parser.parseOptionalLParen())) {
            OpAsmParser::Argument a;
            OpAsmParser::Argument b;
            if (parser.parseArgument(a, /*allowType=*/true) || parser.parseComma() ||
                parser.parseArgument(b, /*allowType=*/true) || parser.parseRParen())
                return failure();
            firsts.push_back(a);
            seconds.push_back(b);
        }
        firsts.append(seconds.begin(), seconds.end());
        if (parser.parseRegion(*state.addRegion(), firsts))
            return failure();
    }
    // Resolved after the region, as in parseWhile.
    return resolveWithSignature(parser, state, operands, signature, location, name, isTerminatorName(name));
}

/// `stablehlo.constant [attr-dict] dense<...> : tensor<...>`.
ParseResult parseConstant(OpAsmParser& parser, OperationState& state)
{
    if (parser.parseOptionalAttrDict(state.attributes))
        return failure();
    Attribute value;
    if (parser.parseAttribute(value))
        return failure();
    auto typed = mlir::dyn_cast<mlir::TypedAttr>(value);
    if (!typed)
        return parser.emitError(parser.getCurrentLocation(), "constant value needs a type");
    state.addAttribute("value", value);
    state.addTypes(typed.getType());
    return success();
}

/// `stablehlo.while(%iterArg = %init, ...) : T1, T2 [attributes {...}] cond { ... } do { ... }`.
ParseResult parseWhile(OpAsmParser& parser, OperationState& state)
{
    SmallVector<OpAsmParser::Argument> iterArgs;
    Operands inits;
    const ::llvm::SMLoc location = parser.getCurrentLocation();
    if (parser.parseLParen())
        return failure();
    if (failed(parser.parseOptionalRParen())) {
        do {
            OpAsmParser::Argument iterArg;
            OpAsmParser::UnresolvedOperand init;
            if (parser.parseArgument(iterArg) || parser.parseEqual() || parser.parseOperand(init))
                return failure();
            iterArgs.push_back(iterArg);
            inits.push_back(init);
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRParen())
            return failure();
    }
    SmallVector<Type> types;
    if (!inits.empty() && parser.parseColonTypeList(types))
        return failure();
    if (types.size() != inits.size())
        return parser.emitError(location)
               << "while has " << inits.size() << " operands but " << types.size() << " types";
    for (std::size_t i = 0; i < types.size(); ++i)
        iterArgs[i].type = types[i];
    state.addTypes(types);
    if (parser.parseOptionalAttrDictWithKeyword(state.attributes))
        return failure();
    if (parser.parseKeyword("cond") || parser.parseRegion(*state.addRegion(), iterArgs) || parser.parseKeyword("do") ||
        parser.parseRegion(*state.addRegion(), iterArgs))
        return failure();
    // Operands are resolved after the regions: a forward reference resolved before them would be
    // a placeholder that a definition inside a region could replace and free under our feet.
    return parser.resolveOperands(inits, types, location, state.operands);
}

/// `sdy.mesh @name = <["x"=2, "y"=4]>`.
ParseResult parseSdyMesh(OpAsmParser& parser, OperationState& state)
{
    mlir::StringAttr name;
    Attribute mesh;
    if (parser.parseSymbolName(name) || parser.parseEqual() || parseMeshBody(parser, mesh) ||
        parser.parseOptionalAttrDict(state.attributes))
        return failure();
    state.addAttribute("sym_name", name);
    state.addAttribute("mesh", mesh);
    return success();
}

/// `sdy.sharding_constraint %x <@mesh, [...]> : T` (also sdy.reshard).
ParseResult parseSdyShardingConstraint(OpAsmParser& parser, OperationState& state)
{
    OpAsmParser::UnresolvedOperand operand;
    Attribute sharding;
    Type type;
    if (parser.parseOperand(operand) || parseTensorSharding(parser, sharding) ||
        parser.parseOptionalAttrDict(state.attributes) || parser.parseColonType(type) ||
        parser.resolveOperand(operand, type, state.operands))
        return failure();
    state.addAttribute("sharding", sharding);
    state.addTypes(type);
    return success();
}

/// `sdy.propagation_barrier %x allowed_direction=NONE : T` and, without a result,
/// `sdy.sharding_group %x group_id=3 : T`: an operand, `key=value` words (integers or bare words),
/// an attr-dict and the operand's type.
ParseResult parseSdyOperandOp(OpAsmParser& parser, OperationState& state, bool hasResult)
{
    mlir::Builder builder(parser.getContext());
    OpAsmParser::UnresolvedOperand operand;
    if (parser.parseOperand(operand))
        return failure();
    StringRef keyword;
    while (succeeded(parser.parseOptionalKeyword(&keyword))) {
        if (parser.parseEqual())
            return failure();
        std::int64_t number = 0;
        const mlir::OptionalParseResult integer = parser.parseOptionalInteger(number);
        Attribute value;
        if (integer.has_value()) {
            if (failed(*integer))
                return failure();
            value = builder.getI64IntegerAttr(number);
        } else {
            StringRef word;
            if (parser.parseKeyword(&word))
                return failure();
            value = builder.getStringAttr(word);
        }
        state.addAttribute(keyword, value);
    }
    Type type;
    if (parser.parseOptionalAttrDict(state.attributes) || parser.parseColonType(type) ||
        parser.resolveOperand(operand, type, state.operands))
        return failure();
    if (hasResult)
        state.addTypes(type);
    return success();
}

ParseResult parseSdyPropagationBarrier(OpAsmParser& parser, OperationState& state)
{
    return parseSdyOperandOp(parser, state, true);
}

ParseResult parseSdyShardingGroup(OpAsmParser& parser, OperationState& state)
{
    return parseSdyOperandOp(parser, state, false);
}

ParseResult parseSdyRegionOp(OpAsmParser& parser, OperationState& state, const char* what);

/// `sdy.manual_computation(%a, ...) in_shardings=[...] out_shardings=[...] manual_axes={"x", ...}
/// (%local: T, ...) { body } : (T...) -> R`.
ParseResult parseSdyManualComputation(OpAsmParser& parser, OperationState& state)
{
    return parseSdyRegionOp(parser, state, "sdy.manual_computation");
}

/// `sdy.named_computation<"name">(%a, ...) [in_shardings=[...]] [out_shardings=[...]] (%x: T, ...)
/// { body } : (T...) -> R`.
ParseResult parseSdyNamedComputation(OpAsmParser& parser, OperationState& state)
{
    std::string name;
    if (parser.parseLess() || parser.parseString(&name) || parser.parseGreater())
        return failure();
    state.addAttribute("name", mlir::Builder(parser.getContext()).getStringAttr(name));
    return parseSdyRegionOp(parser, state, "sdy.named_computation");
}

/// The operands, keyword attributes, region and signature shared by the manual and named
/// computations.
ParseResult parseSdyRegionOp(OpAsmParser& parser, OperationState& state, const char* what)
{
    mlir::Builder builder(parser.getContext());
    Operands operands;
    const ::llvm::SMLoc location = parser.getCurrentLocation();
    if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren))
        return failure();
    StringRef keyword;
    while (succeeded(parser.parseOptionalKeyword(&keyword))) {
        if (parser.parseEqual())
            return failure();
        Attribute value;
        if (keyword == "manual_axes") {
            SmallVector<Attribute> axes;
            bool open = false;
            if (parseAxisList(parser, axes, open))
                return failure();
            value = builder.getArrayAttr(axes);
        } else if (parseShardingList(parser, value)) {
            return failure();
        }
        state.addAttribute(keyword, value);
    }
    SmallVector<OpAsmParser::Argument> arguments;
    if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren, /*allowType=*/true) ||
        parser.parseRegion(*state.addRegion(), arguments) || parser.parseOptionalAttrDict(state.attributes))
        return failure();
    Signature signature;
    if (parseSignature(parser, signature))
        return failure();
    if (!signature.functional)
        return parser.emitError(location, std::string(what) + " needs a function type");
    if (parser.resolveOperands(operands, signature.inputs, location, state.operands))
        return failure();
    state.addTypes(signature.results);
    return success();
}

/// `sdy.return %a, %b : T1, T2` (and `sdy.return` without values).
ParseResult parseTerminator(OpAsmParser& parser, OperationState& state)
{
    Operands operands;
    SmallVector<Type> types;
    const ::llvm::SMLoc location = parser.getCurrentLocation();
    if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(state.attributes))
        return failure();
    if (!operands.empty() && parser.parseColonTypeList(types))
        return failure();
    return parser.resolveOperands(operands, types, location, state.operands);
}

} // namespace

ReaderDialect::ReaderDialect(StringRef dialectNamespace, mlir::MLIRContext* owner, mlir::TypeID id)
    : Dialect(dialectNamespace, owner, id)
{
    allowUnknownOperations();
    allowUnknownTypes();
}

Attribute ReaderDialect::parseAttribute(mlir::DialectAsmParser& parser, Type type) const
{
    const StringRef spec = parser.getFullSymbolSpec();
    if (getNamespace() == "sdy") {
        Attribute result;
        if (spec.starts_with("sharding<")) {
            if (parser.parseKeyword("sharding") || parseTensorSharding(parser, result))
                return {};
            return result;
        }
        if (spec.starts_with("sharding_per_value<")) {
            if (parser.parseKeyword("sharding_per_value") || parser.parseLess() || parseShardingList(parser, result) ||
                parser.parseGreater())
                return {};
            return result;
        }
        if (spec.starts_with("mesh<")) {
            if (parser.parseKeyword("mesh") || parseMeshBody(parser, result))
                return {};
            return result;
        }
    }
    // Everything else keeps its text: the lowering reads the few it needs (#stablehlo.dot<...>,
    // #stablehlo.conv<...>, #stablehlo.channel_handle<...>, comparison directions) from it.
    return mlir::OpaqueAttr::get(mlir::StringAttr::get(getContext(), getNamespace()), spec,
                                 type ? type : mlir::NoneType::get(getContext()));
}

Type ReaderDialect::parseType(mlir::DialectAsmParser& parser) const
{
    return mlir::OpaqueType::get(mlir::StringAttr::get(getContext(), getNamespace()), parser.getFullSymbolSpec());
}

std::optional<mlir::Dialect::ParseOpHook> ReaderDialect::getParseOperationHook(StringRef opName) const
{
    const StringRef shortName = opName.substr(opName.find('.') + 1);
    if (getNamespace() == "sdy") {
        if (shortName == "mesh")
            return ParseOpHook(parseSdyMesh);
        if (shortName == "sharding_constraint" || shortName == "reshard")
            return ParseOpHook(parseSdyShardingConstraint);
        if (shortName == "manual_computation")
            return ParseOpHook(parseSdyManualComputation);
        if (shortName == "named_computation")
            return ParseOpHook(parseSdyNamedComputation);
        if (shortName == "propagation_barrier")
            return ParseOpHook(parseSdyPropagationBarrier);
        if (shortName == "sharding_group")
            return ParseOpHook(parseSdyShardingGroup);
        if (shortName == "return")
            return ParseOpHook(parseTerminator);
        if (shortName == "constant") // Shardy's constant, kept apart from stablehlo.constant during propagation
            return ParseOpHook(parseConstant);
        return std::nullopt;
    }
    if (shortName == "constant")
        return ParseOpHook(parseConstant);
    if (shortName == "while")
        return ParseOpHook(parseWhile);
    return ParseOpHook(parsePrettyOp);
}

StableHloReaderDialect::StableHloReaderDialect(mlir::MLIRContext* owner)
    : ReaderDialect(getDialectNamespace(), owner, mlir::TypeID::get<StableHloReaderDialect>())
{}

MhloReaderDialect::MhloReaderDialect(mlir::MLIRContext* owner)
    : ReaderDialect(getDialectNamespace(), owner, mlir::TypeID::get<MhloReaderDialect>())
{}

ChloReaderDialect::ChloReaderDialect(mlir::MLIRContext* owner)
    : ReaderDialect(getDialectNamespace(), owner, mlir::TypeID::get<ChloReaderDialect>())
{}

ShardyReaderDialect::ShardyReaderDialect(mlir::MLIRContext* owner)
    : ReaderDialect(getDialectNamespace(), owner, mlir::TypeID::get<ShardyReaderDialect>())
{}

void registerReaderDialects(mlir::DialectRegistry& registry)
{
    registry.insert<StableHloReaderDialect, MhloReaderDialect, ChloReaderDialect, ShardyReaderDialect>();
}

} // namespace flint::frontend::detail
