// SPDX-License-Identifier: MIT
//
// Sources for the rules below (read, not copied):
// - XLA's HloCostAnalysis (xla/service/hlo_cost_analysis.cc): elementwise, dot, convolution, reduce,
//   reduce-window, select-and-scatter, gather, scatter, slices, dynamic-update-slice, all-reduce, rng,
//   cholesky, fusion operand/output bytes. Where this file departs from it, the comment says so.
// - XLA's operation semantics (openxla.org/xla/operation_semantics): shapes, dimension numbers,
//   window semantics, variadic reduce and scatter operand order, async and collective -start shapes.
// - XLA's GPU custom calls: the cuBLAS GEMM backend config (gemm_backend_config.dot_dimension_numbers,
//   beta, epilogue), cuDNN convolutions (window and dim_labels of the forward convolution on every
//   kind), cuDNN fused attention (cudnn_fmha_backend_config with bmm1/bmm2 dimension numbers and
//   intermediate_tensor_shape [B,H,Sq,Skv]); Transformer Engine's NVTE_Mask_Type for its FFI calls.
#include "core/hlo/hlocost.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace flint::core::hlo {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t addSat(std::uint64_t a, std::uint64_t b)
{
    return a > kSaturated - b ? kSaturated : a + b;
}

std::uint64_t mulSat(std::uint64_t a, std::uint64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > kSaturated / b ? kSaturated : a * b;
}

std::uint64_t mulSat(std::initializer_list<std::uint64_t> factors)
{
    std::uint64_t product = 1;
    for (std::uint64_t factor : factors)
        product = mulSat(product, factor);
    return product;
}

std::uint64_t extent(std::int64_t dimension)
{
    return dimension > 0 ? static_cast<std::uint64_t>(dimension) : 0;
}

/// Elements of an array; summed over the leaves of a tuple; 0 for tokens.
std::uint64_t elements(const Shape& shape)
{
    if (shape.isTuple) {
        std::uint64_t total = 0;
        for (const Shape& element : shape.tupleElements)
            total = addSat(total, elements(element));
        return total;
    }
    if (!shape.isArray())
        return 0;
    std::uint64_t count = 1;
    for (std::int64_t dimension : shape.dims)
        count = mulSat(count, extent(dimension));
    return count;
}

std::uint64_t bytes(const Shape& shape)
{
    return shape.byteSize();
}

/// The first array of a shape (the shape itself, or a tuple's first leaf): the "result" of ops
/// whose tuple carries extra outputs (variadic reduce, custom calls with a workspace).
/// Callers pass shapes owned by instructions, never temporaries.
const Shape& firstArray(const Shape& shape)
{
    if (shape.isTuple && !shape.tupleElements.empty())
        return firstArray(shape.tupleElements.front());
    return shape; // NOLINT(bugprone-return-const-ref-from-parameter): see above
}

std::uint64_t dimensionOr(const Shape& shape, std::int64_t index, std::uint64_t fallback = 1)
{
    if (index < 0 || static_cast<std::size_t>(index) >= shape.dims.size())
        return fallback;
    return extent(shape.dims[static_cast<std::size_t>(index)]);
}

std::uint64_t productOf(const Shape& shape, const std::vector<std::int64_t>& indices)
{
    std::uint64_t product = 1;
    for (std::int64_t index : indices)
        product = mulSat(product, dimensionOr(shape, index));
    return product;
}

/// Product of the dimensions of `shape` that are in neither list.
std::uint64_t productExcept(const Shape& shape, const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b)
{
    std::uint64_t product = 1;
    for (std::size_t d = 0; d < shape.dims.size(); ++d) {
        const auto index = static_cast<std::int64_t>(d);
        if (std::find(a.begin(), a.end(), index) == a.end() && std::find(b.begin(), b.end(), index) == b.end())
            product = mulSat(product, extent(shape.dims[d]));
    }
    return product;
}

/// 2 * batch * M * N * K: two FLOPs per multiply-add, as XLA's GetDotFlops (result elements times
/// the contraction width). Batch, M, N and K are read from the operand shapes, in any dimension order.
std::uint64_t dotFlops(const Shape& lhs, const Shape& rhs, const DotDimensions& dims)
{
    const std::uint64_t batch = productOf(lhs, dims.lhsBatch);
    const std::uint64_t contraction = productOf(lhs, dims.lhsContracting);
    const std::uint64_t m = productExcept(lhs, dims.lhsBatch, dims.lhsContracting);
    const std::uint64_t n = productExcept(rhs, dims.rhsBatch, dims.rhsContracting);
    return mulSat({2, batch, m, n, contraction});
}

std::int64_t ceilDiv(std::int64_t numerator, std::int64_t denominator)
{
    // denominator > 0
    if (numerator >= 0)
        return (numerator + denominator - 1) / denominator;
    return -((-numerator) / denominator);
}

/// Pairs (output position, kernel tap) of one spatial dimension whose input index falls on a real
/// input element: not in the padding and not in a hole of the base (lhs) dilation. XLA counts
/// convolution FLOPs over exactly these taps.
std::uint64_t validTaps(std::int64_t inputSize, std::int64_t kernelSize, std::int64_t outputSize,
                        const WindowDimension& window)
{
    const std::int64_t stride = std::max<std::int64_t>(1, window.stride);
    const std::int64_t baseDilation = std::max<std::int64_t>(1, window.lhsDilation);
    const std::int64_t windowDilation = std::max<std::int64_t>(1, window.rhsDilation);
    // The input index in the base-dilated, padded input is o * stride + k * windowDilation - paddingLow;
    // it is a real element when it is a multiple of baseDilation in [0, (inputSize - 1) * baseDilation].
    std::uint64_t count = 0;
    if (baseDilation == 1) {
        for (std::int64_t k = 0; k < kernelSize; ++k) {
            const std::int64_t offset = k * windowDilation - window.paddingLow;
            const std::int64_t first = std::max<std::int64_t>(0, ceilDiv(-offset, stride));
            const std::int64_t end = std::min<std::int64_t>(outputSize, ceilDiv(inputSize - offset, stride));
            if (end > first)
                count += static_cast<std::uint64_t>(end - first);
        }
        return count;
    }
    if (static_cast<double>(kernelSize) * static_cast<double>(outputSize) > 1e8) {
        // Not worth an exact count: about one tap in baseDilation hits a real element.
        return mulSat(extent(kernelSize), extent(outputSize)) / static_cast<std::uint64_t>(baseDilation);
    }
    const std::int64_t dilatedLimit = (inputSize - 1) * baseDilation;
    for (std::int64_t k = 0; k < kernelSize; ++k) {
        for (std::int64_t o = 0; o < outputSize; ++o) {
            const std::int64_t index = o * stride + k * windowDilation - window.paddingLow;
            if (index >= 0 && index <= dilatedLimit && index % baseDilation == 0)
                ++count;
        }
    }
    return count;
}

/// Dimension numbers of a convolution, from dim_labels such as "b01f_01io->b01f".
struct ConvolutionLabels {
    std::int64_t inputBatch = -1;
    std::int64_t inputFeature = -1;
    std::int64_t kernelOutputFeature = -1;
    std::int64_t outputFeature = -1;
    std::vector<std::int64_t> inputSpatial;
    std::vector<std::int64_t> kernelSpatial;
    std::vector<std::int64_t> outputSpatial;
};

std::optional<ConvolutionLabels> parseDimLabels(std::string_view text)
{
    const auto underscore = text.find('_');
    const auto arrow = text.find("->");
    if (underscore == std::string_view::npos || arrow == std::string_view::npos || arrow < underscore)
        return std::nullopt;
    const std::string_view input = text.substr(0, underscore);
    const std::string_view kernel = text.substr(underscore + 1, arrow - underscore - 1);
    const std::string_view output = text.substr(arrow + 2);
    std::size_t spatialCount = 0;
    for (char c : input)
        spatialCount += (c >= '0' && c <= '9') ? 1 : 0;
    ConvolutionLabels labels;
    labels.inputSpatial.assign(spatialCount, -1);
    labels.kernelSpatial.assign(spatialCount, -1);
    labels.outputSpatial.assign(spatialCount, -1);
    std::int64_t unused = -1;
    const auto assign = [&](std::string_view part, char batchOrIn, char feature, std::int64_t& batchOrInIndex,
                            std::int64_t& featureIndex, std::vector<std::int64_t>& spatial) {
        for (std::size_t d = 0; d < part.size(); ++d) {
            const char c = part[d];
            const auto index = static_cast<std::int64_t>(d);
            if (c == batchOrIn) {
                batchOrInIndex = index;
            } else if (c == feature) {
                featureIndex = index;
            } else if (c >= '0' && c <= '9') {
                const auto s = static_cast<std::size_t>(c - '0');
                if (s >= spatial.size())
                    return false;
                spatial[s] = index;
            } else {
                return false;
            }
        }
        return true;
    };
    std::int64_t outputBatch = -1;
    if (!assign(input, 'b', 'f', labels.inputBatch, labels.inputFeature, labels.inputSpatial) ||
        !assign(kernel, 'i', 'o', unused, labels.kernelOutputFeature, labels.kernelSpatial) ||
        !assign(output, 'b', 'f', outputBatch, labels.outputFeature, labels.outputSpatial))
        return std::nullopt;
    const auto complete = [](const std::vector<std::int64_t>& v) {
        return std::none_of(v.begin(), v.end(), [](std::int64_t i) { return i < 0; });
    };
    if (labels.inputBatch < 0 || labels.inputFeature < 0 || labels.outputFeature < 0 ||
        !complete(labels.inputSpatial) || !complete(labels.kernelSpatial) || !complete(labels.outputSpatial))
        return std::nullopt;
    return labels;
}

/// Convolution FLOPs as XLA counts them: 2 * (input features / feature_group_count) * output
/// features * (input batch / batch_group_count) * product over spatial dimensions of the valid taps.
/// Without padding or dilation that is 2 * output elements * kernel spatial size * (input features /
/// feature_group_count); batch_group_count divides the batch because each output batch element
/// reads one group of input batch elements.
std::optional<std::uint64_t> convolutionFlops(const Shape& input, const Shape& kernel, const Shape& output,
                                              const Instruction& instruction)
{
    const auto labels = parseDimLabels(instruction.dimLabels);
    if (!labels)
        return std::nullopt;
    const std::size_t spatialCount = labels->inputSpatial.size();
    std::uint64_t taps = 1;
    for (std::size_t s = 0; s < spatialCount; ++s) {
        const auto inputSize = static_cast<std::int64_t>(dimensionOr(input, labels->inputSpatial[s]));
        const auto kernelSize = static_cast<std::int64_t>(dimensionOr(kernel, labels->kernelSpatial[s]));
        const auto outputSize = static_cast<std::int64_t>(dimensionOr(output, labels->outputSpatial[s]));
        WindowDimension window;
        if (s < instruction.window.size())
            window = instruction.window[s];
        taps = mulSat(taps, validTaps(inputSize, kernelSize, outputSize, window));
    }
    const std::uint64_t featureGroups = extent(std::max<std::int64_t>(1, instruction.featureGroupCount));
    const std::uint64_t batchGroups = extent(std::max<std::int64_t>(1, instruction.batchGroupCount));
    const std::uint64_t inputFeatures = dimensionOr(input, labels->inputFeature) / featureGroups;
    const std::uint64_t outputFeatures = dimensionOr(output, labels->outputFeature);
    const std::uint64_t batch = dimensionOr(input, labels->inputBatch) / batchGroups;
    return mulSat({2, inputFeatures, outputFeatures, batch, taps});
}

/// Dimensions in physical order, major to minor, without the size-1 ones (their place in a layout
/// does not change the bytes). No printed layout means XLA's default, major-to-minor = logical.
std::vector<std::int64_t> physicalOrder(const Shape& shape)
{
    std::vector<std::int64_t> order;
    const std::size_t rank = shape.dims.size();
    if (shape.minorToMajor.size() == rank) {
        for (std::size_t i = rank; i-- > 0;)
            order.push_back(shape.minorToMajor[i]);
    } else {
        for (std::size_t i = 0; i < rank; ++i)
            order.push_back(static_cast<std::int64_t>(i));
    }
    std::erase_if(order,
                  [&](std::int64_t d) { return d < 0 || d >= static_cast<std::int64_t>(rank) || shape.dims[d] == 1; });
    return order;
}

bool isRowMajor(const Shape& shape)
{
    const auto order = physicalOrder(shape);
    return std::is_sorted(order.begin(), order.end());
}

/// A reshape moves no bytes when both sides are laid out row-major (then it only renames the
/// dimensions of the same linear buffer). Other layouts are costed as a copy, conservatively.
bool reshapeIsBitcast(const Shape& operand, const Shape& result)
{
    return operand.elementType == result.elementType && isRowMajor(operand) && isRowMajor(result);
}

/// A transpose moves no bytes when the layouts make it a relabelling (XLA's IsEffectiveBitcast):
/// result dimension i is operand dimension permutation[i], so the result's physical order mapped
/// through the permutation must be the operand's physical order.
bool transposeIsBitcast(const Shape& operand, const Shape& result, const std::vector<std::int64_t>& permutation)
{
    if (permutation.size() != result.dims.size())
        return false;
    std::vector<std::int64_t> mapped;
    for (std::int64_t d : physicalOrder(result)) {
        if (d >= static_cast<std::int64_t>(permutation.size()))
            return false;
        mapped.push_back(permutation[static_cast<std::size_t>(d)]);
    }
    return mapped == physicalOrder(operand);
}

/// Bytes a custom call writes: its result without a trailing u8/s8 workspace buffer (cuBLAS, cuDNN
/// and Transformer Engine calls return their scratch space as the last tuple element).
std::uint64_t customCallWrittenBytes(const Shape& shape)
{
    if (!shape.isTuple || shape.tupleElements.size() < 2)
        return bytes(shape);
    const Shape& last = shape.tupleElements.back();
    const bool workspace =
        last.isArray() && last.dims.size() == 1 && (last.elementType == DType::U8 || last.elementType == DType::S8);
    return bytes(shape) - (workspace ? bytes(last) : 0);
}

std::optional<nlohmann::json> parseJson(const std::string& text)
{
    if (text.empty() || text.front() != '{')
        return std::nullopt;
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

/// A list of dimension numbers from backend-config JSON, where XLA prints int64s as strings.
std::vector<std::int64_t> jsonIntList(const nlohmann::json& object, const char* key)
{
    std::vector<std::int64_t> values;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array())
        return values;
    for (const auto& item : *it) {
        if (item.is_number_integer()) {
            values.push_back(item.get<std::int64_t>());
        } else if (item.is_string()) {
            // XLA prints int64s as strings; one that is no integer is left out (the module's text).
            const std::string text = item.get<std::string>();
            std::int64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error == std::errc() && end == text.data() + text.size())
                values.push_back(value);
        }
    }
    return values;
}

double jsonNumber(const nlohmann::json& object, const char* key, double fallback)
{
    const auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if (it->is_number())
        return it->get<double>();
    if (it->is_string()) {
        try {
            return std::stod(it->get<std::string>());
        } catch (const std::exception&) {
            return fallback;
        }
    }
    return fallback;
}

std::optional<DotDimensions> jsonDotDimensions(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_object())
        return std::nullopt;
    DotDimensions dims;
    dims.lhsContracting = jsonIntList(*it, "lhs_contracting_dimensions");
    dims.rhsContracting = jsonIntList(*it, "rhs_contracting_dimensions");
    dims.lhsBatch = jsonIntList(*it, "lhs_batch_dimensions");
    dims.rhsBatch = jsonIntList(*it, "rhs_batch_dimensions");
    return dims;
}

bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// An integer entry `key = 42 : i64` of an MLIR attribute dictionary, the backend_config form of
/// typed-FFI custom calls (Transformer Engine).
std::optional<std::int64_t> mlirDictInteger(std::string_view text, std::string_view key)
{
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
        if (at > 0 && isIdentifierChar(text[at - 1]))
            continue;
        std::size_t p = at + key.size();
        if (p < text.size() && isIdentifierChar(text[p]))
            continue;
        while (p < text.size() && text[p] == ' ')
            ++p;
        if (p >= text.size() || text[p] != '=')
            continue;
        ++p;
        while (p < text.size() && text[p] == ' ')
            ++p;
        std::size_t end = p;
        if (end < text.size() && text[end] == '-')
            ++end;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9')
            ++end;
        std::int64_t value = 0;
        const auto [stop, error] = std::from_chars(text.data() + p, text.data() + end, value);
        if (end == p || error != std::errc() || stop != text.data() + end)
            return std::nullopt; // no digits, or more than 64 bits hold
        return value;
    }
    return std::nullopt;
}

/// Score-matrix entries a causal mask keeps: row i sees keys j <= i + shift (shift 0 for a mask
/// aligned to the top left, Skv - Sq for one aligned to the bottom right), i.e. min(max(i + shift +
/// 1, 0), Skv) keys, summed in closed form over the Sq rows.
std::uint64_t causalScoreCount(std::int64_t queries, std::int64_t keys, std::int64_t shift)
{
    // f(i) = clamp(i + c, 0, keys) with c = shift + 1, summed for i in [0, queries).
    const std::int64_t c = shift + 1;
    std::uint64_t total = 0;
    const std::int64_t first = std::max<std::int64_t>(0, 1 - c);             // first row with f(i) >= 1
    const std::int64_t last = std::min<std::int64_t>(queries - 1, keys - c); // last row with f(i) <= keys
    if (last >= first) {
        const auto rows = static_cast<std::uint64_t>(last - first + 1);
        const auto sumEnds = static_cast<std::uint64_t>((first + c) + (last + c));
        total = (sumEnds % 2 == 0) ? mulSat(rows, sumEnds / 2) : mulSat(rows / 2, sumEnds);
    }
    const std::int64_t saturatedFrom = std::max<std::int64_t>({0, keys - c + 1, last + 1});
    if (queries > saturatedFrom)
        total = addSat(total, mulSat(static_cast<std::uint64_t>(queries - saturatedFrom), extent(keys)));
    return total;
}

enum class OpClass : std::uint8_t {
    Free,
    Elementwise,
    Transcendental,
    DataMovement, ///< 0 FLOPs; reads every operand, writes the result
    Reshape,
    Transpose,
    Broadcast,
    Iota,
    Slice,
    DynamicSlice,
    DynamicUpdateSlice,
    Gather,
    Scatter,
    Dot,
    RaggedDot,
    Convolution,
    Reduce,
    ReduceWindow,
    SelectAndScatter,
    Map,
    Sort,
    TopK,
    Fft,
    Cholesky,
    TriangularSolve,
    Rng,
    BatchNormInference,
    BatchNormTraining,
    BatchNormGrad,
    Fusion,
    CustomCall,
    AllReduce,
    ReduceScatter,
    Collective,
    ControlFlow,
    AsyncStart,
    CopyStart,
    Send,
    Recv,
    Infeed,
    Outfeed,
};

const std::unordered_map<std::string_view, OpClass>& opClasses()
{
    static const std::unordered_map<std::string_view, OpClass> table = [] {
        std::unordered_map<std::string_view, OpClass> t;
        for (std::string_view op : {"parameter",
                                    "constant",
                                    "get-tuple-element",
                                    "tuple",
                                    "bitcast",
                                    "after-all",
                                    "partition-id",
                                    "replica-id",
                                    "add-dependency",
                                    "opt-barrier",
                                    "optimization-barrier",
                                    "domain",
                                    "async-update",
                                    "async-done",
                                    "all-reduce-done",
                                    "all-gather-done",
                                    "collective-permute-done",
                                    "reduce-scatter-done",
                                    "all-to-all-done",
                                    "collective-broadcast-done",
                                    "copy-done",
                                    "send-done",
                                    "recv-done",
                                    "get-dimension-size",
                                    "set-dimension-size",
                                    "rng-get-and-update-state",
                                    "create-token",
                                    "trace"})
            t.emplace(op, OpClass::Free);
        for (std::string_view op : {"abs",
                                    "add",
                                    "and",
                                    "ceil",
                                    "clamp",
                                    "count-leading-zeros", // HloOpcode::kClz prints so
                                    "compare",
                                    "complex",
                                    "convert",
                                    "divide",
                                    "floor",
                                    "imag",
                                    "is-finite",
                                    "maximum",
                                    "minimum",
                                    "multiply",
                                    "negate",
                                    "not",
                                    "or",
                                    "popcnt",
                                    "real",
                                    "reduce-precision",
                                    "remainder",
                                    "round-nearest-afz",
                                    "round-nearest-even",
                                    "select",
                                    "shift-left",
                                    "shift-right-arithmetic",
                                    "shift-right-logical",
                                    "sign",
                                    "subtract",
                                    "xor",
                                    "stochastic-convert"})
            t.emplace(op, OpClass::Elementwise);
        // XLA's HandleElementwiseOp list: these count as transcendentals and not as FLOPs.
        for (std::string_view op : {"acosh", "atan2", "cbrt", "cosine", "erf", "exponential", "exponential-minus-one",
                                    "log", "log-plus-one", "logistic", "power", "rsqrt", "sine", "sqrt", "tan", "tanh"})
            t.emplace(op, OpClass::Transcendental);
        for (std::string_view op : {"copy", "concatenate", "pad", "reverse", "bitcast-convert", "dynamic-reshape"})
            t.emplace(op, OpClass::DataMovement);
        t.emplace("reshape", OpClass::Reshape);
        t.emplace("transpose", OpClass::Transpose);
        t.emplace("broadcast", OpClass::Broadcast);
        t.emplace("iota", OpClass::Iota);
        t.emplace("slice", OpClass::Slice);
        t.emplace("dynamic-slice", OpClass::DynamicSlice);
        t.emplace("dynamic-update-slice", OpClass::DynamicUpdateSlice);
        t.emplace("gather", OpClass::Gather);
        t.emplace("scatter", OpClass::Scatter);
        t.emplace("dot", OpClass::Dot);
        t.emplace("scaled-dot", OpClass::Dot);
        t.emplace("ragged-dot", OpClass::RaggedDot);
        t.emplace("convolution", OpClass::Convolution);
        t.emplace("reduce", OpClass::Reduce);
        t.emplace("reduce-window", OpClass::ReduceWindow);
        t.emplace("select-and-scatter", OpClass::SelectAndScatter);
        t.emplace("map", OpClass::Map);
        t.emplace("sort", OpClass::Sort);
        t.emplace("topk", OpClass::TopK);
        t.emplace("fft", OpClass::Fft);
        t.emplace("cholesky", OpClass::Cholesky);
        t.emplace("triangular-solve", OpClass::TriangularSolve);
        t.emplace("rng", OpClass::Rng);
        t.emplace("rng-bit-generator", OpClass::Rng);
        t.emplace("batch-norm-inference", OpClass::BatchNormInference);
        t.emplace("batch-norm-training", OpClass::BatchNormTraining);
        t.emplace("batch-norm-grad", OpClass::BatchNormGrad);
        t.emplace("fusion", OpClass::Fusion);
        t.emplace("custom-call", OpClass::CustomCall);
        t.emplace("all-reduce", OpClass::AllReduce);
        t.emplace("all-reduce-start", OpClass::AllReduce);
        t.emplace("reduce-scatter", OpClass::ReduceScatter);
        for (std::string_view op : {"all-gather", "all-gather-start", "all-to-all", "ragged-all-to-all",
                                    "collective-permute", "collective-permute-start", "collective-broadcast"})
            t.emplace(op, OpClass::Collective);
        for (std::string_view op : {"while", "conditional", "call"})
            t.emplace(op, OpClass::ControlFlow);
        t.emplace("async-start", OpClass::AsyncStart);
        t.emplace("copy-start", OpClass::CopyStart);
        t.emplace("send", OpClass::Send);
        t.emplace("recv", OpClass::Recv);
        t.emplace("infeed", OpClass::Infeed);
        t.emplace("outfeed", OpClass::Outfeed);
        return t;
    }();
    return table;
}

} // namespace

bool isElementwiseOpcode(std::string_view opcode)
{
    const auto& table = opClasses();
    const auto it = table.find(opcode);
    return it != table.end() &&
           (it->second == OpClass::Elementwise || it->second == OpClass::Transcendental || it->second == OpClass::Map);
}

namespace {

/// Custom calls that only annotate (sharding, host offloading) and emit no kernel.
bool isAnnotationTarget(std::string_view target)
{
    return target == "Sharding" || target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape" ||
           target == "MoveToHost" || target == "MoveToDevice" || target == "annotate_device_placement" ||
           target == "LayoutConstraint" || target == "InspectSharding" || target == "AllocateBuffer";
}

bool isGemmTarget(std::string_view target)
{
    return target == "__cublas$gemm" || target == "__cublas$lt$matmul" || target == "__cublas$lt$matmul$f8" ||
           target == "__rocblas$gemm" || target == "__hipblas$lt$matmul";
}

enum class ConvolutionKind : std::uint8_t { Forward, BackwardInput, BackwardFilter };

std::optional<ConvolutionKind> cudnnConvolutionKind(std::string_view target)
{
    if (target == "__cudnn$convForward" || target == "__cudnn$convBiasActivationForward" ||
        target == "__cudnn$convForwardGraph")
        return ConvolutionKind::Forward;
    if (target == "__cudnn$convBackwardInput")
        return ConvolutionKind::BackwardInput;
    if (target == "__cudnn$convBackwardFilter")
        return ConvolutionKind::BackwardFilter;
    return std::nullopt;
}

/// Costs every instruction of a module once, memoising called computations and fusion memory traffic.
class Analyzer {
public:
    explicit Analyzer(const Module& module)
        : m_module(module)
        , m_costs(module.computations.size())
        , m_totals(module.computations.size())
        , m_state(module.computations.size(), State::NotStarted)
        , m_fusionIo(module.computations.size())
    {}

    void run()
    {
        for (std::uint32_t c = 0; c < m_module.computations.size(); ++c)
            analyzeComputation(c);
    }

    std::vector<std::vector<InstructionCost>> takeCosts() { return std::move(m_costs); }
    std::vector<InstructionCost> takeTotals() { return std::move(m_totals); }

    std::vector<Message> takeWarnings()
    {
        std::vector<Message> result;
        result.reserve(m_warnings.size());
        for (const Warning& warning : m_warnings)
            result.push_back(warning.count > 1 ? warning.message.followedBy(
                                                     Message(FLINT_TRANSLATE_NOOP("Diagnostics", " (%1 instructions)"),
                                                             {std::to_string(warning.count)}))
                                               : warning.message);
        return result;
    }

private:
    enum class State : std::uint8_t { NotStarted, InProgress, Done };

    struct Warning {
        Message message;
        std::size_t count = 1;
    };

    /// Bytes a fusion reads from each operand and writes in total, from its fused computation.
    struct FusionIo {
        std::vector<std::uint64_t> parameterReadBytes; ///< by parameter number
        std::uint64_t writtenBytes = 0;
        std::uint64_t constantBytes = 0; ///< non-scalar constants inside, read from memory
    };

    using Users = std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>; ///< (user, operand index)

    void warn(const std::string& key, Message message)
    {
        const auto [it, inserted] = m_warningIndex.emplace(key, m_warnings.size());
        if (inserted)
            m_warnings.push_back({std::move(message), 1});
        else
            ++m_warnings[it->second].count;
    }

    static std::string at(const Instruction& instruction) { return "line " + std::to_string(instruction.line) + ": "; }

    const Computation& computation(std::uint32_t c) const { return m_module.computations[c]; }

    const Shape& operandShape(const Computation& comp, const Instruction& instruction, std::size_t k) const
    {
        static const Shape empty;
        if (k >= instruction.operands.size() || instruction.operands[k] >= comp.instructions.size())
            return empty;
        return comp.instructions[instruction.operands[k]].shape;
    }

    std::uint64_t operandBytes(const Computation& comp, const Instruction& instruction, std::size_t from = 0) const
    {
        std::uint64_t total = 0;
        for (std::size_t k = from; k < instruction.operands.size(); ++k)
            total = addSat(total, bytes(operandShape(comp, instruction, k)));
        return total;
    }

    /// Totals (FLOPs, transcendentals, bytes) of a called computation; zero on a call cycle.
    InstructionCost calledTotals(std::optional<std::uint32_t> called, const Instruction& caller)
    {
        if (!called || *called >= m_module.computations.size())
            return {};
        if (m_state[*called] == State::InProgress) {
            warn("cycle:" + computation(*called).name,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "computation '%1' calls itself; its recursive use is costed as 0"),
                         {computation(*called).name})
                     .prefixed(at(caller)));
            return {};
        }
        analyzeComputation(*called);
        return m_totals[*called];
    }

    /// Cost of one application of a reducer-like computation (to_apply of reduce, scatter, ...);
    /// 1 FLOP when the instruction names none.
    InstructionCost perApplication(std::optional<std::uint32_t> called, const Instruction& caller)
    {
        InstructionCost sub = calledTotals(called, caller);
        if (!called)
            sub.flops = 1;
        return sub;
    }

    std::optional<std::uint32_t> computationAttribute(const Instruction& instruction, std::string_view key) const
    {
        const std::string* value = instruction.attribute(key);
        if (!value)
            return std::nullopt;
        std::string_view name = *value;
        if (name.starts_with('%'))
            name.remove_prefix(1);
        return m_module.findComputation(name);
    }

    void analyzeComputation(std::uint32_t c)
    {
        if (m_state[c] != State::NotStarted)
            return;
        m_state[c] = State::InProgress;
        const Computation& comp = computation(c);
        std::vector<InstructionCost> costs(comp.instructions.size());
        InstructionCost total;
        for (std::uint32_t i = 0; i < comp.instructions.size(); ++i) {
            costs[i] = costInstruction(c, i);
            total += costs[i];
        }
        m_costs[c] = std::move(costs);
        m_totals[c] = total;
        m_state[c] = State::Done;
    }

    InstructionCost costInstruction(std::uint32_t c, std::uint32_t i)
    {
        const Computation& comp = computation(c);
        const Instruction& inst = comp.instructions[i];
        const auto& table = opClasses();
        const auto found = table.find(inst.opcode);
        if (found == table.end()) {
            warn("opcode:" + inst.opcode,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "opcode '%1' is unknown to the cost model; costed by its bytes only"),
                         {inst.opcode})
                     .prefixed(at(inst)));
            return {0, 0, operandBytes(comp, inst), bytes(inst.shape)};
        }

        InstructionCost cost;
        cost.bytesRead = operandBytes(comp, inst);
        cost.bytesWritten = bytes(inst.shape);
        const Shape& result = inst.shape;
        const auto operand = [&](std::size_t k) -> const Shape& { return operandShape(comp, inst, k); };

        switch (found->second) {
        case OpClass::Free:
        case OpClass::ControlFlow:
            return {};
        case OpClass::Elementwise:
            cost.flops = elements(result);
            return cost;
        case OpClass::Transcendental:
            cost.transcendentals = elements(result);
            return cost;
        case OpClass::DataMovement:
        case OpClass::Broadcast:
            return cost;
        case OpClass::Reshape:
            if (reshapeIsBitcast(operand(0), result))
                return {};
            return cost;
        case OpClass::Transpose:
            if (transposeIsBitcast(operand(0), result, inst.dimensions))
                return {};
            return cost;
        case OpClass::Iota:
            cost.bytesRead = 0;
            return cost;
        case OpClass::Slice:
        case OpClass::DynamicSlice:
        case OpClass::Gather:
            // Only the selected elements of operand 0 are read (XLA: operand bytes = result bytes);
            // start indices are read whole.
            cost.bytesRead = addSat(std::min(bytes(result), bytes(operand(0))), operandBytes(comp, inst, 1));
            return cost;
        case OpClass::DynamicUpdateSlice:
            // In place: operand 0 aliases the result, only the update is read and written.
            cost.bytesRead = operandBytes(comp, inst, 1);
            cost.bytesWritten = bytes(operand(1));
            return cost;
        case OpClass::Scatter:
            return scatterCost(comp, inst);
        case OpClass::Dot:
            cost.flops = dotFlops(operand(0), operand(1), inst.dot);
            return cost;
        case OpClass::RaggedDot:
            // XLA: 2 * result elements * contraction width (the group dimension is not in the result).
            cost.flops = mulSat({2, elements(result), productOf(operand(0), inst.dot.lhsContracting)});
            return cost;
        case OpClass::Convolution: {
            const auto flops = convolutionFlops(operand(0), operand(1), result, inst);
            if (!flops)
                warn("dimlabels:" + inst.dimLabels,
                     Message(FLINT_TRANSLATE_NOOP(
                                 "Diagnostics", "convolution dim_labels '%1' not understood; costed by its bytes only"),
                             {inst.dimLabels})
                         .prefixed(at(inst)));
            cost.flops = flops.value_or(0);
            return cost;
        }
        case OpClass::Reduce: {
            // (input elements - output elements) applications of to_apply; variadic reduces count
            // once per position, their to_apply does the per-input work (XLA HandleReduce).
            const std::uint64_t in = elements(firstArray(operand(0)));
            const std::uint64_t out = elements(firstArray(result));
            const InstructionCost sub = perApplication(inst.toApply, inst);
            const std::uint64_t applications = in > out ? in - out : 0;
            cost.flops = mulSat(applications, sub.flops);
            cost.transcendentals = mulSat(applications, sub.transcendentals);
            return cost;
        }
        case OpClass::ReduceWindow: {
            // XLA HandleReduceWindow: (window elements - 1) applications per output element.
            std::uint64_t window = 1;
            for (const WindowDimension& dimension : inst.window)
                window = mulSat(window, extent(dimension.size));
            const std::uint64_t applications = mulSat(window > 0 ? window - 1 : 0, elements(firstArray(result)));
            const InstructionCost sub = perApplication(inst.toApply, inst);
            cost.flops = mulSat(applications, sub.flops);
            cost.transcendentals = mulSat(applications, sub.transcendentals);
            return cost;
        }
        case OpClass::SelectAndScatter: {
            // XLA: per source element, (window elements - 1) selects and one scatter.
            std::uint64_t window = 1;
            for (const WindowDimension& dimension : inst.window)
                window = mulSat(window, extent(dimension.size));
            const std::uint64_t sources = elements(operand(1));
            const InstructionCost select = perApplication(computationAttribute(inst, "select"), inst);
            const InstructionCost scatter = perApplication(computationAttribute(inst, "scatter"), inst);
            const std::uint64_t selects = mulSat(sources, window > 0 ? window - 1 : 0);
            cost.flops = addSat(mulSat(selects, select.flops), mulSat(sources, scatter.flops));
            cost.transcendentals =
                addSat(mulSat(selects, select.transcendentals), mulSat(sources, scatter.transcendentals));
            return cost;
        }
        case OpClass::Map: {
            const InstructionCost sub = perApplication(inst.toApply, inst);
            cost.flops = mulSat(elements(firstArray(result)), sub.flops);
            cost.transcendentals = mulSat(elements(firstArray(result)), sub.transcendentals);
            return cost;
        }
        case OpClass::Sort:
            cost.flops = sortFlops(inst, operand(0));
            return cost;
        case OpClass::TopK: {
            // A k-element heap per row: about log2(k) comparisons per input element.
            const std::string* kText = inst.attribute("k");
            const std::int64_t k = kText ? std::max<std::int64_t>(2, std::atoll(kText->c_str())) : 2;
            cost.flops = mulSat(elements(operand(0)), static_cast<std::uint64_t>(std::ceil(std::log2(k))));
            return cost;
        }
        case OpClass::Fft:
            cost.flops = fftFlops(inst, operand(0), result);
            return cost;
        case OpClass::Cholesky: {
            // XLA: batch * n^3 / 3.
            const Shape& a = operand(0);
            const std::uint64_t n = a.dims.empty() ? 1 : extent(a.dims.back());
            cost.flops = mulSat(elements(a), n) / 3;
            return cost;
        }
        case OpClass::TriangularSolve: {
            // Solving with a triangular n x n matrix takes about n^2 FLOPs per right-hand side
            // column, i.e. n * elements(b) in all (LAPACK's m^2 n for trsm). XLA counts twice that.
            const Shape& a = operand(0);
            const std::uint64_t n = a.dims.empty() ? 1 : extent(a.dims.back());
            cost.flops = mulSat(n, elements(operand(1)));
            return cost;
        }
        case OpClass::Rng:
            // XLA: one transcendental per generated element.
            cost.transcendentals = elements(result);
            return cost;
        case OpClass::BatchNormInference:
            // Estimates (XLA leaves batch norm uncosted): normalise and scale, 4 FLOPs per element.
            cost.flops = mulSat(4, elements(operand(0)));
            cost.transcendentals = elements(operand(3));
            return cost;
        case OpClass::BatchNormTraining:
            // Mean and variance (3 per element) then normalise and scale (4 per element).
            cost.flops = mulSat(7, elements(operand(0)));
            cost.transcendentals = elements(operand(1));
            return cost;
        case OpClass::BatchNormGrad:
            // Two reductions and the input gradient: about 8 FLOPs per element.
            cost.flops = mulSat(8, elements(operand(0)));
            cost.transcendentals = elements(operand(1));
            return cost;
        case OpClass::Fusion:
            return fusionCost(comp, inst);
        case OpClass::CustomCall:
            return customCallCost(comp, inst);
        case OpClass::AllReduce: {
            // XLA assumes two participants: one application of to_apply per result element. That
            // is also each rank's share of the reductions in a ring or tree algorithm, N * (G-1)/G.
            const InstructionCost sub = perApplication(inst.toApply, inst);
            cost.flops = mulSat(elements(result), sub.flops);
            cost.transcendentals = mulSat(elements(result), sub.transcendentals);
            return cost;
        }
        case OpClass::ReduceScatter: {
            // Each rank reduces about its whole input, N * (G-1)/G applications (XLA counts none).
            const InstructionCost sub = perApplication(inst.toApply, inst);
            std::uint64_t in = 0;
            for (std::size_t k = 0; k < inst.operands.size(); ++k)
                in = addSat(in, elements(operand(k)));
            cost.flops = mulSat(in, sub.flops);
            cost.transcendentals = mulSat(in, sub.transcendentals);
            return cost;
        }
        case OpClass::Collective:
            // all-gather-start and collective-permute-start return (operands, results[, contexts]).
            if ((inst.opcode == "all-gather-start" || inst.opcode == "collective-permute-start") && result.isTuple &&
                result.tupleElements.size() >= 2)
                cost.bytesWritten = bytes(result.tupleElements[1]);
            return cost;
        case OpClass::AsyncStart:
            // The wrapped computation runs as it would synchronously (XLA HandleAsyncStart).
            if (inst.calls.empty())
                return {};
            return calledTotals(inst.calls.front(), inst);
        case OpClass::CopyStart:
            cost.bytesWritten = bytes(operand(0));
            return cost;
        case OpClass::Send:
            cost.bytesRead = bytes(operand(0));
            cost.bytesWritten = 0;
            return cost;
        case OpClass::Recv:
            cost.bytesRead = 0;
            cost.bytesWritten =
                result.isTuple && !result.tupleElements.empty() ? bytes(result.tupleElements[0]) : bytes(result);
            return cost;
        case OpClass::Infeed:
            cost.bytesRead = 0;
            return cost;
        case OpClass::Outfeed:
            cost.bytesWritten = 0;
            return cost;
        }
        return cost;
    }

    InstructionCost scatterCost(const Computation& comp, const Instruction& inst)
    {
        // Operands are (inputs..., indices, updates...). In place: each input aliases its result and
        // only the updated elements are read and written; indices and updates are read (XLA
        // HandleScatter). to_apply runs once per update element.
        InstructionCost cost;
        const std::size_t n = inst.operands.size() >= 3 ? (inst.operands.size() - 1) / 2 : 0;
        std::uint64_t updateBytes = 0;
        for (std::size_t k = n + 1; k < inst.operands.size(); ++k)
            updateBytes = addSat(updateBytes, bytes(operandShape(comp, inst, k)));
        cost.bytesRead = addSat(mulSat(2, updateBytes), bytes(operandShape(comp, inst, n)));
        cost.bytesWritten = updateBytes;
        const std::uint64_t updates = elements(operandShape(comp, inst, n + 1));
        const InstructionCost sub = perApplication(inst.toApply, inst);
        cost.flops = mulSat(updates, sub.flops);
        cost.transcendentals = mulSat(updates, sub.transcendentals);
        return cost;
    }

    std::uint64_t sortFlops(const Instruction& inst, const Shape& keys)
    {
        // n log2 n comparisons per sorted row, each costing the comparator's FLOPs (at least 1).
        // XLA's HandleSort counts total * log2(total) and ignores the comparator; sorting rows of n
        // independently is total * log2(n).
        const std::uint64_t total = elements(keys);
        std::uint64_t n = total;
        if (!inst.dimensions.empty())
            n = dimensionOr(keys, inst.dimensions.front(), total);
        const auto log2n = n > 1 ? static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(n)))) : 0;
        const InstructionCost comparator = calledTotals(inst.toApply, inst);
        return mulSat({total, log2n, std::max<std::uint64_t>(1, comparator.flops)});
    }

    std::uint64_t fftFlops(const Instruction& inst, const Shape& input, const Shape& result)
    {
        // 5 N log2 N per complex transform of N points (radix-2 Cooley-Tukey), half that for real
        // transforms. XLA counts 8 * elements * prod(log2 length).
        const std::string* typeText = inst.attribute("fft_type");
        const std::string type = typeText ? *typeText : "FFT";
        std::vector<std::int64_t> lengths;
        if (const std::string* lengthText = inst.attribute("fft_length")) {
            std::string digits;
            for (char ch : *lengthText + ",") {
                if (ch >= '0' && ch <= '9') {
                    digits += ch;
                } else if (!digits.empty()) {
                    std::int64_t length = 0;
                    const auto [stop, error] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
                    lengths.push_back(error == std::errc() && stop == digits.data() + digits.size()
                                          ? length
                                          : std::numeric_limits<std::int64_t>::max());
                    digits.clear();
                }
            }
        }
        std::uint64_t points = 1;
        for (std::int64_t length : lengths)
            points = mulSat(points, extent(length));
        if (points == 0)
            return 0;
        // The real side has the full lengths: the input of RFFT, the result of IRFFT.
        const Shape& full = type == "IRFFT" ? result : input;
        std::uint64_t transforms = elements(full) / points;
        if (type == "RFFT" || type == "IRFFT")
            transforms = std::max<std::uint64_t>(1, transforms);
        const double perTransform = (type == "RFFT" || type == "IRFFT" ? 2.5 : 5.0) * static_cast<double>(points) *
                                    std::log2(static_cast<double>(points));
        const double total = perTransform * static_cast<double>(transforms);
        return total >= 1.8e19 ? kSaturated : static_cast<std::uint64_t>(std::llround(total));
    }

    // ---- fusion ------------------------------------------------------------------------------

    Users usersOf(const Computation& comp) const
    {
        Users users(comp.instructions.size());
        for (std::uint32_t i = 0; i < comp.instructions.size(); ++i) {
            const auto& operands = comp.instructions[i].operands;
            for (std::uint32_t k = 0; k < operands.size(); ++k)
                if (operands[k] < users.size())
                    users[operands[k]].emplace_back(i, k);
        }
        return users;
    }

    /// Which instructions of `comp` are its outputs: the root, the operands of a tuple root, and
    /// what a bitcast among those relabels.
    static std::vector<bool> outputsOf(const Computation& comp)
    {
        std::vector<bool> outputs(comp.instructions.size(), false);
        if (comp.root >= comp.instructions.size())
            return outputs;
        std::vector<std::uint32_t> pending;
        const Instruction& root = comp.instructions[comp.root];
        if (root.opcode == "tuple")
            pending = root.operands;
        else
            pending.push_back(comp.root);
        while (!pending.empty()) {
            const std::uint32_t i = pending.back();
            pending.pop_back();
            if (i >= outputs.size() || outputs[i])
                continue;
            outputs[i] = true;
            const Instruction& out = comp.instructions[i];
            if (out.opcode == "bitcast" && !out.operands.empty())
                pending.push_back(out.operands.front());
        }
        return outputs;
    }

    /// Bytes read from value `v` of fused computation `f` by its users. Slicing users (slice,
    /// dynamic-slice, gather as operand 0) read what they select; an in-place update (dynamic-update-
    /// slice or scatter whose result is an output) reads nothing of its operand 0, or the updated
    /// region for a scatter; bitcast, reshape and get-tuple-element pass the question on; a nested
    /// fusion answers for its parameter. Any other user reads the whole value once (users share
    /// the read). Never more than the value's size.
    std::uint64_t readBytes(std::uint32_t f, const Users& users, const std::vector<bool>& outputs, std::uint32_t v,
                            int depth)
    {
        const Computation& comp = computation(f);
        const Instruction& value = comp.instructions[v];
        const std::uint64_t size = bytes(value.shape);
        if (depth > 32)
            return size;
        std::uint64_t partial = 0;
        bool whole = false;
        for (const auto& [u, k] : users[v]) {
            const Instruction& user = comp.instructions[u];
            const std::string& op = user.opcode;
            if (op == "slice" || ((op == "dynamic-slice" || op == "gather") && k == 0)) {
                partial = addSat(partial, bytes(user.shape));
            } else if (op == "dynamic-update-slice" && k == 0 && outputs[u]) {
                // aliased with the output: not read
            } else if (op == "scatter" && user.operands.size() >= 3 && k < (user.operands.size() - 1) / 2 &&
                       outputs[u]) {
                const std::size_t n = (user.operands.size() - 1) / 2;
                partial = addSat(partial, bytes(operandShape(comp, user, n + 1 + k)));
            } else if (op == "bitcast" || op == "reshape" || op == "get-tuple-element") {
                partial = addSat(partial, readBytes(f, users, outputs, u, depth + 1));
            } else if (op == "fusion" && !user.calls.empty() && user.calls.front() < m_module.computations.size() &&
                       user.calls.front() != f) {
                const FusionIo& nested = fusionIo(user.calls.front(), user);
                partial = addSat(partial, k < nested.parameterReadBytes.size() ? nested.parameterReadBytes[k] : size);
            } else {
                whole = true;
            }
        }
        return whole ? size : std::min(size, partial);
    }

    /// Bytes written for output `i` of a fused computation: an in-place update writes only its update.
    std::uint64_t outputBytes(const Computation& comp, std::uint32_t i, int depth = 0) const
    {
        const Instruction& out = comp.instructions[i];
        if (out.opcode == "dynamic-update-slice")
            return bytes(operandShape(comp, out, 1));
        if (out.opcode == "scatter" && out.operands.size() >= 3) {
            const std::size_t n = (out.operands.size() - 1) / 2;
            std::uint64_t total = 0;
            for (std::size_t k = n + 1; k < out.operands.size(); ++k)
                total = addSat(total, bytes(operandShape(comp, out, k)));
            return total;
        }
        if (out.opcode == "bitcast" && !out.operands.empty() && out.operands[0] < comp.instructions.size() &&
            depth < 32)
            return outputBytes(comp, out.operands[0], depth + 1);
        return bytes(out.shape);
    }

    const FusionIo& fusionIo(std::uint32_t f, const Instruction& caller)
    {
        if (m_fusionIo[f])
            return *m_fusionIo[f];
        const Computation& comp = computation(f);
        FusionIo io;
        if (m_fusionInProgress.contains(f)) {
            warn("cycle:" + comp.name,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics", "computation '%1' fuses itself"), {comp.name})
                     .prefixed(at(caller)));
            static const FusionIo none;
            return none;
        }
        m_fusionInProgress.insert(f);
        const Users users = usersOf(comp);
        const std::vector<bool> outputs = outputsOf(comp);
        io.parameterReadBytes.resize(comp.parameters.size());
        for (std::size_t p = 0; p < comp.parameters.size(); ++p)
            if (comp.parameters[p] < comp.instructions.size())
                io.parameterReadBytes[p] = readBytes(f, users, outputs, comp.parameters[p], 0);
        if (comp.root < comp.instructions.size()) {
            const Instruction& root = comp.instructions[comp.root];
            if (root.opcode == "tuple") {
                for (std::uint32_t operand : root.operands)
                    if (operand < comp.instructions.size())
                        io.writtenBytes = addSat(io.writtenBytes, outputBytes(comp, operand));
            } else {
                io.writtenBytes = outputBytes(comp, comp.root);
            }
        }
        // XLA counts constants of more than one element as memory reads; scalars are immediates.
        for (const Instruction& instruction : comp.instructions)
            if (instruction.opcode == "constant" && elements(instruction.shape) > 1)
                io.constantBytes = addSat(io.constantBytes, bytes(instruction.shape));
        m_fusionInProgress.erase(f);
        m_fusionIo[f] = std::move(io);
        return *m_fusionIo[f];
    }

    InstructionCost fusionCost(const Computation& comp, const Instruction& inst)
    {
        InstructionCost cost;
        if (inst.calls.empty() || inst.calls.front() >= m_module.computations.size()) {
            warn("fusion-without-calls",
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "fusion without a fused computation; costed by its bytes only"),
                         {})
                     .prefixed(at(inst)));
            return {0, 0, operandBytes(comp, inst), bytes(inst.shape)};
        }
        const std::uint32_t fused = inst.calls.front();
        const InstructionCost body = calledTotals(fused, inst);
        cost.flops = body.flops;
        cost.transcendentals = body.transcendentals;
        const FusionIo& io = fusionIo(fused, inst);
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
            const std::uint64_t full = bytes(operandShape(comp, inst, k));
            cost.bytesRead = addSat(cost.bytesRead,
                                    k < io.parameterReadBytes.size() ? std::min(full, io.parameterReadBytes[k]) : full);
        }
        cost.bytesRead = addSat(cost.bytesRead, io.constantBytes);
        cost.bytesWritten = std::min(io.writtenBytes, bytes(inst.shape));
        return cost;
    }

    // ---- custom calls ------------------------------------------------------------------------

    InstructionCost customCallCost(const Computation& comp, const Instruction& inst)
    {
        const std::string& target = inst.customCallTarget;
        InstructionCost cost;
        cost.bytesRead = operandBytes(comp, inst);
        cost.bytesWritten = customCallWrittenBytes(inst.shape);
        if (isAnnotationTarget(target))
            return {};
        if (isGemmTarget(target))
            return gemmCost(comp, inst, cost);
        if (const auto kind = cudnnConvolutionKind(target))
            return cudnnConvolutionCost(comp, inst, *kind, cost);
        if (target.starts_with("__cudnn$fmha"))
            return cudnnAttentionCost(comp, inst, cost);
        if (target.starts_with("te_fused_attn_forward") || target.starts_with("te_fused_attn_backward"))
            return transformerEngineAttentionCost(comp, inst, cost);
        warn(
            "target:" + target,
            Message(FLINT_TRANSLATE_NOOP("Diagnostics", "custom-call target '%1' is unknown; costed by its bytes only"),
                    {target})
                .prefixed(at(inst)));
        return cost;
    }

    InstructionCost gemmCost(const Computation& comp, const Instruction& inst, InstructionCost cost)
    {
        // Backend config: {"gemm_backend_config": {alpha_real, beta, dot_dimension_numbers, epilogue,
        // ...}} since 2023, the same fields at top level before. Operands: a, b, then c (when beta is
        // not 0), bias, aux and FP8 scales.
        const Shape& lhs = operandShape(comp, inst, 0);
        const Shape& rhs = operandShape(comp, inst, 1);
        const Shape& output = firstArray(inst.shape);
        const auto config = parseJson(inst.backendConfig);
        std::optional<DotDimensions> dims;
        double beta = 0;
        std::string epilogue = "DEFAULT";
        if (config && config->is_object()) {
            const nlohmann::json& gemm =
                config->contains("gemm_backend_config") ? config->at("gemm_backend_config") : *config;
            if (gemm.is_object()) {
                dims = jsonDotDimensions(gemm, "dot_dimension_numbers");
                beta = jsonNumber(gemm, "beta", 0);
                if (const auto it = gemm.find("epilogue"); it != gemm.end() && it->is_string())
                    epilogue = it->get<std::string>();
            }
        }
        if (!dims) {
            // cuBLAS' own convention: [batch..., m, k] x [batch..., k, n].
            warn("gemm-config:" + inst.customCallTarget,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "custom-call '%1' has no dot_dimension_numbers in its "
                                              "backend_config; assumed [batch..., m, k] x [batch..., k, n]"),
                         {inst.customCallTarget})
                     .prefixed(at(inst)));
            DotDimensions assumed;
            const auto rank = static_cast<std::int64_t>(lhs.dims.size());
            if (rank >= 1)
                assumed.lhsContracting = {rank - 1};
            if (rhs.dims.size() >= 2)
                assumed.rhsContracting = {static_cast<std::int64_t>(rhs.dims.size()) - 2};
            for (std::int64_t d = 0; d + 2 < rank && d + 2 < static_cast<std::int64_t>(rhs.dims.size()); ++d) {
                assumed.lhsBatch.push_back(d);
                assumed.rhsBatch.push_back(d);
            }
            dims = assumed;
        }
        cost.flops = dotFlops(lhs, rhs, *dims);
        // Epilogue work per output element: beta * C + D (2), bias (1), ReLU (1), GELU (tanh form:
        // about 7 FLOPs and one transcendental).
        const std::uint64_t outputs = elements(output);
        std::uint64_t perElement = beta != 0 ? 2 : 0;
        if (epilogue.find("BIAS") != std::string::npos)
            perElement += 1;
        if (epilogue.find("RELU") != std::string::npos)
            perElement += 1;
        if (epilogue.find("GELU") != std::string::npos) {
            perElement += 7;
            cost.transcendentals = outputs;
        }
        cost.flops = addSat(cost.flops, mulSat(perElement, outputs));
        return cost;
    }

    InstructionCost cudnnConvolutionCost(const Computation& comp, const Instruction& inst, ConvolutionKind kind,
                                         InstructionCost cost)
    {
        // Every kind carries the window and dim_labels of the forward convolution; the roles of
        // operands and result follow the kind.
        const Shape& result = firstArray(inst.shape);
        const Shape& operand0 = operandShape(comp, inst, 0);
        const Shape& operand1 = operandShape(comp, inst, 1);
        std::optional<std::uint64_t> flops;
        switch (kind) {
        case ConvolutionKind::Forward:
            flops = convolutionFlops(operand0, operand1, result, inst);
            break;
        case ConvolutionKind::BackwardInput:
            flops = convolutionFlops(result, operand1, operand0, inst);
            break;
        case ConvolutionKind::BackwardFilter:
            flops = convolutionFlops(operand0, result, operand1, inst);
            break;
        }
        if (!flops) {
            warn("dimlabels:" + inst.dimLabels,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "custom-call '%1' has dim_labels '%2' that are not understood; "
                                              "costed by its bytes only"),
                         {inst.customCallTarget, inst.dimLabels})
                     .prefixed(at(inst)));
            return cost;
        }
        cost.flops = *flops;
        if (inst.customCallTarget == "__cudnn$convBiasActivationForward") {
            // bias add and activation, one FLOP each per output element (an upper bound when the
            // activation is none)
            cost.flops = addSat(cost.flops, mulSat(2, elements(result)));
        }
        return cost;
    }

    /// Attention FLOPs from the score matrix: QK^T and PV are 2 * scores * D each, so a forward pass
    /// is 2 * scores * (Dqk + Dv) = 4 * B * H * Sq * Skv * D for equal head widths; one exp per score.
    /// The backward pass recomputes QK^T and computes dV, dP, dQ and dK: five products against the
    /// forward's two, 2.5 times the forward FLOPs. Causal masks count only the kept scores (flash
    /// kernels skip masked tiles), about half of them for square attention.
    static InstructionCost attentionCost(std::uint64_t scores, std::uint64_t qkWidth, std::uint64_t vWidth,
                                         bool backward, InstructionCost cost)
    {
        const std::uint64_t forward = mulSat({2, scores, addSat(qkWidth, vWidth)});
        cost.flops = backward ? addSat(mulSat(forward, 2), forward / 2) : forward;
        cost.transcendentals = scores;
        return cost;
    }

    InstructionCost cudnnAttentionCost(const Computation& comp, const Instruction& inst, InstructionCost cost)
    {
        // XLA's cuDNN fused attention: operands Q, K, V first (forward and backward); the backend
        // config gives bmm1 = Q.K^T and bmm2 = P.V dimension numbers and the score shape
        // intermediate_tensor_shape = [B, H, Sq, Skv].
        const bool backward = inst.customCallTarget.find("Backward") != std::string::npos;
        const Shape& q = operandShape(comp, inst, 0);
        const Shape& k = operandShape(comp, inst, 1);
        const Shape& v = operandShape(comp, inst, 2);
        const auto config = parseJson(inst.backendConfig);
        const nlohmann::json* fmha = nullptr;
        if (config && config->is_object() && config->contains("cudnn_fmha_backend_config"))
            fmha = &config->at("cudnn_fmha_backend_config");
        std::optional<DotDimensions> bmm1;
        std::optional<DotDimensions> bmm2;
        std::string mask;
        std::vector<std::int64_t> scoreDims;
        if (fmha && fmha->is_object()) {
            bmm1 = jsonDotDimensions(*fmha,
                                     backward ? "bmm1_grad_gemm1_dot_dimension_numbers" : "bmm1_dot_dimension_numbers");
            bmm2 = jsonDotDimensions(*fmha,
                                     backward ? "bmm2_grad_gemm2_dot_dimension_numbers" : "bmm2_dot_dimension_numbers");
            if (const auto it = fmha->find("mask_type"); it != fmha->end() && it->is_string())
                mask = it->get<std::string>();
            if (const auto it = fmha->find("intermediate_tensor_shape"); it != fmha->end() && it->is_object())
                scoreDims = jsonIntList(*it, "dimensions");
        }
        // Forward bmm1 contracts Q's head width; without a config, XLA's default layout is
        // [B, S, H, D] for Q, K and V.
        std::uint64_t qkWidth = q.dims.empty() ? 1 : extent(q.dims.back());
        if (!backward && bmm1 && !bmm1->lhsContracting.empty())
            qkWidth = productOf(q, bmm1->lhsContracting);
        std::uint64_t vWidth = v.dims.empty() ? 1 : extent(v.dims.back());
        if (!backward && bmm2 && !bmm2->rhsContracting.empty())
            vWidth = productExcept(v, bmm2->rhsBatch, bmm2->rhsContracting);
        std::uint64_t queries = 0;
        std::uint64_t keys = 0;
        std::uint64_t scores = 0;
        if (scoreDims.size() >= 2) {
            Shape scoreShape;
            scoreShape.elementType = DType::F32;
            scoreShape.dims = scoreDims;
            scores = elements(scoreShape);
            queries = extent(scoreDims[scoreDims.size() - 2]);
            keys = extent(scoreDims.back());
        } else if (!backward && bmm1 && !bmm1->lhsContracting.empty() && !bmm1->rhsContracting.empty()) {
            queries = productExcept(q, bmm1->lhsBatch, bmm1->lhsContracting);
            keys = productExcept(k, bmm1->rhsBatch, bmm1->rhsContracting);
            scores = mulSat({productOf(q, bmm1->lhsBatch), queries, keys});
        } else if (q.dims.size() == 4 && k.dims.size() == 4) {
            queries = extent(q.dims[1]);
            keys = extent(k.dims[1]);
            scores = mulSat({extent(q.dims[0]), extent(q.dims[2]), queries, keys});
        } else {
            warn("fmha-shape:" + inst.customCallTarget,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "custom-call '%1': attention shapes not understood; costed by "
                                              "its bytes only"),
                         {inst.customCallTarget})
                     .prefixed(at(inst)));
            return cost;
        }
        if (mask.find("CAUSAL") != std::string::npos && queries > 0 && keys > 0) {
            const std::uint64_t rows = scores / mulSat(queries, keys); // batch * heads
            scores =
                mulSat(rows, causalScoreCount(static_cast<std::int64_t>(queries), static_cast<std::int64_t>(keys), 0));
        }
        return attentionCost(scores, qkWidth, vWidth, backward, cost);
    }

    InstructionCost transformerEngineAttentionCost(const Computation& comp, const Instruction& inst,
                                                   InstructionCost cost)
    {
        // Transformer Engine's JAX FFI calls carry an MLIR dictionary: input_batch, attn_heads,
        // q_max_seqlen, kv_max_seqlen, qk_head_dim, v_head_dim, mask_type (NVTE_Mask_Type: 2 and 3
        // causal from the top left, 4 and 5 from the bottom right).
        const bool backward = inst.customCallTarget.starts_with("te_fused_attn_backward");
        const std::string& text = inst.backendConfig;
        auto batch = mlirDictInteger(text, "input_batch");
        auto heads = mlirDictInteger(text, "attn_heads");
        auto queries = mlirDictInteger(text, "q_max_seqlen");
        auto keys = mlirDictInteger(text, "kv_max_seqlen");
        auto qkWidth = mlirDictInteger(text, "qk_head_dim");
        auto vWidth = mlirDictInteger(text, "v_head_dim");
        const auto mask = mlirDictInteger(text, "mask_type").value_or(0);
        // Without a dictionary: BSHD operands Q [B, Sq, H, D], K and V [B, Skv, Hkv, D].
        const Shape& q = operandShape(comp, inst, 0);
        const Shape& k = operandShape(comp, inst, 1);
        const Shape& v = operandShape(comp, inst, 2);
        if (q.dims.size() == 4 && k.dims.size() == 4 && v.dims.size() == 4) {
            batch = batch.value_or(q.dims[0]);
            queries = queries.value_or(q.dims[1]);
            heads = heads.value_or(q.dims[2]);
            qkWidth = qkWidth.value_or(q.dims[3]);
            keys = keys.value_or(k.dims[1]);
            vWidth = vWidth.value_or(v.dims[3]);
        }
        if (!batch || !heads || !queries || !keys || !qkWidth || !vWidth) {
            warn("te-shape:" + inst.customCallTarget,
                 Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "custom-call '%1': attention sizes not found in backend_config or "
                                              "operands; costed by its bytes only"),
                         {inst.customCallTarget})
                     .prefixed(at(inst)));
            return cost;
        }
        std::uint64_t rows = mulSat(extent(*batch), extent(*heads));
        std::uint64_t perRow = mulSat(extent(*queries), extent(*keys));
        if (mask >= 2 && mask <= 5)
            perRow = causalScoreCount(*queries, *keys, mask >= 4 ? *keys - *queries : 0);
        return attentionCost(mulSat(rows, perRow), extent(*qkWidth), extent(*vWidth), backward, cost);
    }

    const Module& m_module;
    std::vector<std::vector<InstructionCost>> m_costs;
    std::vector<InstructionCost> m_totals;
    std::vector<State> m_state;
    std::vector<std::optional<FusionIo>> m_fusionIo;
    std::unordered_set<std::uint32_t> m_fusionInProgress;
    std::vector<Warning> m_warnings;
    std::unordered_map<std::string, std::size_t> m_warningIndex;
};

} // namespace

InstructionCost& InstructionCost::operator+=(const InstructionCost& other)
{
    flops = addSat(flops, other.flops);
    transcendentals = addSat(transcendentals, other.transcendentals);
    bytesRead = addSat(bytesRead, other.bytesRead);
    bytesWritten = addSat(bytesWritten, other.bytesWritten);
    return *this;
}

CostModel::CostModel(const Module& module)
{
    Analyzer analyzer(module);
    analyzer.run();
    m_costs = analyzer.takeCosts();
    m_computationCosts = analyzer.takeTotals();
    m_warnings = analyzer.takeWarnings();
}

bool isFreeOpcode(std::string_view opcode)
{
    const auto& classes = opClasses();
    const auto it = classes.find(opcode);
    return it != classes.end() && it->second == OpClass::Free;
}

InstructionCost CostModel::cost(std::uint32_t computation, std::uint32_t instruction) const
{
    return m_costs.at(computation).at(instruction);
}

InstructionCost CostModel::computationCost(std::uint32_t computation) const
{
    return m_computationCosts.at(computation);
}

} // namespace flint::core::hlo
