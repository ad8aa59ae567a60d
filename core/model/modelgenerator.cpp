// SPDX-License-Identifier: MIT
// StableHLO + Shardy text for the blocks of a transformer step (docs/models.md). Shapes are global
// (logical); shardings say how the stage mesh splits them, and the partitioner derives every
// collective. The ops follow what Megatron-LM runs per layer: column-parallel Q/K/V and FFN input
// projections, row-parallel output projections, sequence parallelism around the norms, context
// parallelism as an all-gather of keys and values over "cp", experts over "ep" with all-to-all
// dispatch and combine.
#include "core/model/modelgenerator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace flint::core::model {
namespace {

using Dims = std::vector<std::int64_t>;
using Axes = std::vector<std::string>;
using Sharding = std::vector<Axes>;

struct Value {
    std::string name;
    Dims shape;
    std::string type = "bf16";
};

std::string tensorType(const Dims& shape, const std::string& element)
{
    std::string text = "tensor<";
    for (std::int64_t d : shape)
        text += std::to_string(d) + "x";
    return text + element + ">";
}
std::string tensorType(const Value& v)
{
    return tensorType(v.shape, v.type);
}

std::string intList(const Dims& values)
{
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

std::string shardingBody(const Sharding& sharding, const Axes& unreduced = {})
{
    std::string text = "<@mesh, [";
    for (std::size_t d = 0; d < sharding.size(); ++d) {
        text += d ? ", {" : "{";
        for (std::size_t a = 0; a < sharding[d].size(); ++a)
            text += (a ? ", \"" : "\"") + sharding[d][a] + "\"";
        text += "}";
    }
    text += "]";
    if (!unreduced.empty()) {
        text += ", unreduced={";
        for (std::size_t a = 0; a < unreduced.size(); ++a)
            text += (a ? ", \"" : "\"") + unreduced[a] + "\"";
        text += "}";
    }
    return text + ">";
}

Axes concat(Axes a, const Axes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/// Writes one function `@main` op by op. Every op gets a loc() name "<scope>/<what>", which the
/// lowering keeps as the op's scope.
class Emitter {
public:
    Value arg(const std::string& name, Dims shape, const Sharding& sharding, std::string type = "bf16")
    {
        Value v{"%" + name, std::move(shape), std::move(type)};
        m_args.push_back(v.name + ": " + tensorType(v) + " {sdy.sharding = #sdy.sharding" + shardingBody(sharding) +
                         "}");
        return v;
    }
    /// An argument that is a pending partial sum over `unreduced`.
    Value partialArg(const std::string& name, Dims shape, const Sharding& sharding, const Axes& unreduced,
                     std::string type)
    {
        Value v{"%" + name, std::move(shape), std::move(type)};
        m_args.push_back(v.name + ": " + tensorType(v) + " {sdy.sharding = #sdy.sharding" +
                         shardingBody(sharding, unreduced) + "}");
        return v;
    }
    void scope(std::string name) { m_scope = std::move(name); }
    const std::string& currentScope() const { return m_scope; }

    Value dot(const Value& a, const Value& b, const Dims& batchA, const Dims& batchB, const Dims& contractA,
              const Dims& contractB, const std::string& what, const std::string& resultType = "bf16")
    {
        Dims shape;
        for (std::int64_t d : batchA)
            shape.push_back(a.shape[static_cast<std::size_t>(d)]);
        const auto freeDims = [](const Value& v, const Dims& batch, const Dims& contract, Dims& out) {
            for (std::size_t d = 0; d < v.shape.size(); ++d) {
                const auto in = [&](const Dims& list) {
                    for (std::int64_t x : list)
                        if (static_cast<std::size_t>(x) == d)
                            return true;
                    return false;
                };
                if (!in(batch) && !in(contract))
                    out.push_back(v.shape[d]);
            }
        };
        freeDims(a, batchA, contractA, shape);
        freeDims(b, batchB, contractB, shape);
        Value r = fresh(shape, resultType);
        std::string text = r.name + " = stablehlo.dot_general " + a.name + ", " + b.name;
        if (!batchA.empty())
            text += ", batching_dims = " + intList(batchA) + " x " + intList(batchB);
        text += ", contracting_dims = " + intList(contractA) + " x " + intList(contractB) + " : (" + tensorType(a) +
                ", " + tensorType(b) + ") -> " + tensorType(r);
        line(text, what);
        return r;
    }
    /// x @ w over x's last dimension and w's `wDim`.
    Value matmul(const Value& x, const Value& w, std::int64_t wDim, const std::string& what)
    {
        return dot(x, w, {}, {}, {static_cast<std::int64_t>(x.shape.size()) - 1}, {wDim}, what);
    }
    Value binary(const std::string& op, const Value& a, const Value& b, const std::string& what)
    {
        Value r = fresh(a.shape, a.type);
        line(r.name + " = stablehlo." + op + " " + a.name + ", " + b.name + " : " + tensorType(r), what);
        return r;
    }
    Value unary(const std::string& op, const Value& a, const std::string& what)
    {
        Value r = fresh(a.shape, a.type);
        line(r.name + " = stablehlo." + op + " " + a.name + " : " + tensorType(r), what);
        return r;
    }
    Value convert(const Value& a, const std::string& type, const std::string& what)
    {
        if (a.type == type)
            return a;
        Value r = fresh(a.shape, type);
        line(r.name + " = stablehlo.convert " + a.name + " : (" + tensorType(a) + ") -> " + tensorType(r), what);
        return r;
    }
    Value scalar(const std::string& value, const std::string& type = "bf16")
    {
        Value r = fresh({}, type);
        line(r.name + " = stablehlo.constant dense<" + value + "> : " + tensorType(r), "");
        return r;
    }
    Value broadcast(const Value& a, const Dims& dims, const Dims& shape, const std::string& what)
    {
        Value r = fresh(shape, a.type);
        line(r.name + " = stablehlo.broadcast_in_dim " + a.name + ", dims = " + intList(dims) + " : (" + tensorType(a) +
                 ") -> " + tensorType(r),
             what);
        return r;
    }
    Value reshape(const Value& a, const Dims& shape, const std::string& what)
    {
        Value r = fresh(shape, a.type);
        line(r.name + " = stablehlo.reshape " + a.name + " : (" + tensorType(a) + ") -> " + tensorType(r), what);
        return r;
    }
    Value transpose(const Value& a, const Dims& perm, const std::string& what)
    {
        Dims shape;
        for (std::int64_t p : perm)
            shape.push_back(a.shape[static_cast<std::size_t>(p)]);
        Value r = fresh(shape, a.type);
        line(r.name + " = stablehlo.transpose " + a.name + ", dims = " + intList(perm) + " : (" + tensorType(a) +
                 ") -> " + tensorType(r),
             what);
        return r;
    }
    /// Reduces `a` over `dims` with `op` ("add", "maximum").
    Value reduce(const Value& a, const Dims& dims, const std::string& op, const std::string& what)
    {
        Dims shape;
        for (std::size_t d = 0; d < a.shape.size(); ++d) {
            bool reduced = false;
            for (std::int64_t x : dims)
                reduced = reduced || static_cast<std::size_t>(x) == d;
            if (!reduced)
                shape.push_back(a.shape[d]);
        }
        const Value init = scalar(op == "maximum" ? "0xFF80" : "0.0", a.type == "bf16" ? "bf16" : a.type);
        Value r = fresh(shape, a.type);
        line(r.name + " = stablehlo.reduce(" + a.name + " init: " + init.name + ") applies stablehlo." + op +
                 " across dimensions = " + intList(dims) + " : (" + tensorType(a) + ", " + tensorType(init) + ") -> " +
                 tensorType(r),
             what);
        return r;
    }
    Value constrain(const Value& a, const Sharding& sharding, const std::string& what, const Axes& unreduced = {})
    {
        Value r = fresh(a.shape, a.type);
        line(r.name + " = sdy.sharding_constraint " + a.name + " " + shardingBody(sharding, unreduced) + " : " +
                 tensorType(r),
             what);
        return r;
    }
    Value gather(const Value& table, const Value& ids, const std::string& what)
    {
        // ids [b, s] -> [b, s, 1] index vectors; rows of table [v, h] -> [b, s, h].
        const Value index = reshape(ids, {ids.shape[0], ids.shape[1], 1}, what);
        Value r = fresh({ids.shape[0], ids.shape[1], table.shape[1]}, table.type);
        line(r.name + " = \"stablehlo.gather\"(" + table.name + ", " + index.name +
                 ") <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], "
                 "start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = "
                 "array<i64: 1, " +
                 std::to_string(table.shape[1]) + ">}> : (" + tensorType(table) + ", " + tensorType(index) + ") -> " +
                 tensorType(r),
             what);
        return r;
    }
    Value scatterAdd(const Dims& tableShape, const Value& ids, const Value& updates, const std::string& what)
    {
        const Value index = reshape(ids, {ids.shape[0], ids.shape[1], 1}, what);
        const Value zero = scalar("0.0", updates.type);
        const Value zeros = broadcast(zero, {}, tableShape, what);
        Value r = fresh(tableShape, updates.type);
        const std::string element = tensorType(Dims{}, updates.type);
        line(r.name + " = \"stablehlo.scatter\"(" + zeros.name + ", " + index.name + ", " + updates.name +
                 ") <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], "
                 "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, "
                 "indices_are_sorted = false, unique_indices = false}> ({\n    ^bb0(%lhs: " +
                 element + ", %rhs: " + element + "):\n      %sum = stablehlo.add %lhs, %rhs : " + element +
                 "\n      stablehlo.return %sum : " + element + "\n    }) : (" + tensorType(zeros) + ", " +
                 tensorType(index) + ", " + tensorType(updates) + ") -> " + tensorType(r),
             what);
        return r;
    }

    /// Returns `results`, each with its result sharding.
    /// `unreduced[i]`, when given, lists the axes result i stays a partial sum over.
    std::string module(const std::string& name, const StageMesh& mesh, const std::vector<Value>& results,
                       const std::vector<Sharding>& shardings, const std::string& comment,
                       const std::vector<Axes>& unreduced = {})
    {
        std::ostringstream out;
        out << "// " << comment << "\n";
        out << "module @" << name << " attributes {mhlo.num_partitions = " << mesh.devices()
            << " : i32, mhlo.num_replicas = 1 : i32} {\n";
        out << "  sdy.mesh @mesh = <[" << (mesh.dpr > 1 ? "\"dpr\"=" + std::to_string(mesh.dpr) + ", " : std::string())
            << "\"dp\"=" << mesh.dp << ", "
            << (mesh.splitsExperts()
                    ? "\"epo\"=" + std::to_string(mesh.ep / mesh.epi) + ", \"epi\"=" + std::to_string(mesh.epi)
                    : "\"ep\"=" + std::to_string(mesh.ep))
            << ", \"cp\"=" << mesh.cp << ", \"tp\"=" << mesh.tp << "]>\n";
        out << "  func.func public @main(";
        for (std::size_t i = 0; i < m_args.size(); ++i)
            out << (i ? ",\n      " : "") << m_args[i];
        out << ")\n      -> (";
        for (std::size_t i = 0; i < results.size(); ++i)
            out << (i ? ", " : "") << tensorType(results[i]) << " {sdy.sharding = #sdy.sharding"
                << shardingBody(shardings[i], i < unreduced.size() ? unreduced[i] : Axes{}) << "}";
        out << ") {\n" << m_body << "    return ";
        for (std::size_t i = 0; i < results.size(); ++i)
            out << (i ? ", " : "") << results[i].name;
        out << " : ";
        for (std::size_t i = 0; i < results.size(); ++i)
            out << (i ? ", " : "") << tensorType(results[i]);
        out << "\n  }\n}\n";
        return out.str();
    }

private:
    Value fresh(Dims shape, std::string type)
    {
        return Value{"%v" + std::to_string(m_next++), std::move(shape), std::move(type)};
    }
    void line(const std::string& text, const std::string& what)
    {
        m_body += "    " + text;
        if (!what.empty())
            m_body += " loc(\"" + (m_scope.empty() ? what : m_scope + "/" + what) + "\")";
        m_body += "\n";
    }

    std::vector<std::string> m_args;
    std::string m_body;
    std::string m_scope;
    int m_next = 0;
};

/// Sizes and shardings of one stage's blocks.
struct Shape {
    const TransformerConfig& model;
    const ParallelConfig& parallel;
    StageMesh mesh;
    std::int64_t b = 0;   ///< sequences of one microbatch over all data-parallel replicas
    std::int64_t s = 0;   ///< query tokens per sequence (1 when decoding)
    std::int64_t ctx = 0; ///< key/value tokens (decode: the cache)
    std::int64_t h = 0, n = 0, kv = 0, d = 0, g = 0, v = 0;
    Axes batch;        ///< axes splitting the batch: "dpr" (HSDP), "dp", "ep" (split: "epi", "epo")
    Axes dataReplicas; ///< axes holding replicas of a routed expert: "dpr" (HSDP), "dp"
    Axes experts;      ///< axes splitting the routed experts: "ep", or "epo" then "epi"
    /// HybridEP's two hops: the expert axes across NVLink domains (the network) and inside one.
    Axes expertsAcross, expertsWithin;
    Axes seq;      ///< axes splitting the sequence outside the norms: "cp"
    Axes tp;       ///< "tp" when tp > 1
    Axes actSeq;   ///< the sequence's axes between layers: seq, plus "tp" under sequence parallelism
    Axes dataAxes; ///< axes a weight gradient is a partial sum over: batch and sequence
    Axes zeroAxes; ///< axes parameters (ZeRO-3) or their update (ZeRO-1/2) are sharded over
    bool training = true;
    bool fp8 = false;
    bool currentScaling = false; ///< FP8 with Fp8Scaling::Current: an amax pass before each cast

    Shape(const TransformerConfig& m, const ParallelConfig& p)
        : model(m)
        , parallel(p)
        , mesh(stageMesh(p))
    {
        training = p.phase == Phase::Training;
        b = p.microbatchSize * p.dp;
        if (p.phase == Phase::Decode) {
            s = 1;
            ctx = p.decodeContext > 0 ? p.decodeContext : p.sequenceLength(m);
        } else {
            s = p.sequenceLength(m);
            ctx = s;
        }
        h = m.hidden;
        n = m.heads;
        kv = m.kvHeads;
        d = m.headDimension();
        g = n / kv;
        // Megatron-LM pads the vocabulary to a multiple of 128 x TP (--make-vocab-size-divisible-by)
        // so that every tensor-parallel rank holds an equal, aligned slice.
        v = (m.vocab + 128 * p.tp - 1) / (128 * p.tp) * (128 * p.tp);
        if (mesh.dpr > 1)
            batch.push_back("dpr");
        if (mesh.dp > 1)
            batch.push_back("dp");
        dataReplicas = batch;
        if (mesh.splitsExperts()) {
            // The batch's minor axis is the one the network hop moves (docs/models.md, "Token
            // dispatch"); which replica holds which sequences does not matter elsewhere.
            batch.insert(batch.end(), {"epi", "epo"});
            experts = {"epo", "epi"};
            expertsAcross = {"epo"};
            expertsWithin = {"epi"};
        } else if (mesh.ep > 1) {
            batch.push_back("ep");
            experts = {"ep"};
            (mesh.epi >= mesh.ep ? expertsWithin : expertsAcross) = {"ep"};
        }
        if (mesh.cp > 1)
            seq.push_back("cp");
        if (mesh.tp > 1)
            tp.push_back("tp");
        actSeq = seq;
        if (p.splitsSequence())
            actSeq.push_back("tp");
        dataAxes = concat(batch, seq);
        // ZeRO shards over one shard group: every batch axis but HSDP's replica axis, and "cp",
        // whose ranks hold the same parameters: Megatron-Core's distributed optimizer shards over
        // its data-parallel-with-context-parallel group (megatron/core/optimizer/__init__.py,
        // intra_dp_cp_group), PyTorch FSDP with context parallelism over dp_shard x cp (torchtitan).
        for (const std::string& axis : batch)
            if (axis != "dpr")
                zeroAxes.push_back(axis);
        zeroAxes.insert(zeroAxes.end(), seq.begin(), seq.end());
        fp8 = p.dtype == Precision::FP8;
        currentScaling = fp8 && p.fp8Scaling == Fp8Scaling::Current;
    }
    /// Whether the input of a column-parallel linear is gathered over "tp" (sequence parallelism).
    bool gathersInputs() const { return actSeq.size() != seq.size(); }
    Sharding act() const { return {batch, actSeq, {}}; }
    /// The scope of a flash-attention kernel. A causal one (queries and keys from the same sequence:
    /// training, prefill) is named "causal_*": the kernel skips the tiles above the diagonal, and the
    /// compiler's kernel fusion counts half the FLOPs of its matmuls (docs/models.md).
    std::string flashScope(const std::string& what) const
    {
        return "attention/" + std::string(parallel.phase == Phase::Decode ? "" : "causal_") + what + ".fused";
    }
    Sharding full() const { return {batch, seq, {}}; }
    /// Whether training drops attention probabilities in a kernel of its own (materialised scores).
    bool attentionDropout() const
    {
        return model.attentionDropout > 0 && parallel.phase == Phase::Training && !parallel.flashAttention;
    }
    /// A weight [in, out] split on `tpDim` over "tp". Under ZeRO-3 this is the weight as the layer
    /// uses it, after its unit's parameter gather (parameterGatherBlock): FSDP computes on whole
    /// (gathered) parameters, never on data-parallel shards of them.
    Sharding weight(int tpDim) const
    {
        Sharding sh(2);
        sh[static_cast<std::size_t>(tpDim)] = tp;
        return sh;
    }
    bool fullySharded() const { return parallel.zero == ZeroStage::Parameters && training; }
    std::int64_t axisSize(const std::string& axis) const
    {
        return axis == "dpr"   ? mesh.dpr
               : axis == "dp"  ? mesh.dp
               : axis == "ep"  ? mesh.ep
               : axis == "epo" ? mesh.ep / mesh.epi
               : axis == "epi" ? mesh.epi
               : axis == "cp"  ? mesh.cp
                               : mesh.tp;
    }
    std::int64_t ways(const Axes& axes) const
    {
        std::int64_t product = 1;
        for (const std::string& axis : axes)
            product *= axisSize(axis);
        return product;
    }
    Sharding vectorSharding() const { return {{}}; }
};

/// Whether a linear layer follows the strategy's matmul precision or stays in BF16. FP8 training
/// recipes convert the linear layers of the transformer blocks only: Megatron-LM's output layer is its
/// own ColumnParallelLinear, not a Transformer Engine module, and torchtitan's Float8 conversion
/// skips the output projection; both run it in BF16.
enum class Fp8 : std::uint8_t { AsStrategy, Never };

/// What an operand of an FP8 matmul is: Transformer Engine keeps activations and weights in e4m3,
/// incoming gradients in e5m2.
enum class Fp8Operand : std::uint8_t { Value, Gradient };

/// Transformer Engine's FP8 element types: e4m3 for activations and weights, e5m2 for gradients.
constexpr const char* kE4m3 = "f8E4M3FN";
constexpr const char* kE5m2 = "f8E5M2";

/// An FP8 GEMM operand as Transformer Engine's quantizers write it (docs/models.md, "FP8 as
/// Transformer Engine runs it"). Hopper's FP8 GEMMs read both operands with the contracted dimension
/// innermost (cuBLASLt runs FP8 in the "TN" layout only), so a tensor that a weight gradient contracts
/// over its tokens needs a second, transposed copy: `rows` is what the forward and data-gradient GEMMs
/// read, `cols` (features first, the tokens last) what the weight gradient reads. Without FP8 both
/// are the bf16 tensor itself.
struct Fp8Copies {
    Value rows, cols;
};

/// The permutation that puts the last dimension first ([b, s, f] -> [f, b, s]); with
/// `leading` = 1 the first dimension stays (experts: [E, b, C, f] -> [E, f, b, C]).
Dims featuresFirst(std::size_t rank, std::size_t leading = 0)
{
    Dims perm;
    for (std::size_t d = 0; d < leading; ++d)
        perm.push_back(static_cast<std::int64_t>(d));
    perm.push_back(static_cast<std::int64_t>(rank - 1));
    for (std::size_t d = leading; d + 1 < rank; ++d)
        perm.push_back(static_cast<std::int64_t>(d));
    return perm;
}

/// Which FP8 copies a cast writes (Fp8Copies).
enum class Copies : std::uint8_t { Rows, Both, Cols };

/// Casts `v` to FP8 under an FP8 strategy as one kernel writing the copies asked for: the row-wise
/// one, the transposed one (`perm`), or both (Transformer Engine's fused cast-transpose: one read of
/// the bf16 tensor, both copies written). Current scaling first reads the tensor once more for its
/// amax (`amaxKnown`: a kernel before it found it already). `intoKernel`: the cast is part of the
/// fused kernel `what` names (a norm's). `v` unchanged (rows and cols) without FP8 or when already FP8.
Fp8Copies quantize(Emitter& e, const Shape& sh, const Value& v, Fp8Operand kind, const std::string& what,
                   Copies copies = Copies::Rows, const Dims& perm = {}, bool amaxKnown = false, bool intoKernel = false)
{
    if (!sh.fp8 || v.type.rfind("f8", 0) == 0)
        return {v, v};
    const std::string outer = e.currentScope();
    if (sh.currentScaling && !amaxKnown) {
        e.scope(what);
        Dims all(v.shape.size());
        std::iota(all.begin(), all.end(), 0);
        (void)e.reduce(v, all, "maximum", "amax"); // a per-tensor scale: read, never written back
    }
    const std::string type = kind == Fp8Operand::Gradient ? kE5m2 : kE4m3;
    if (copies == Copies::Rows && !intoKernel) { // one op, one kernel
        e.scope(outer);
        return {e.convert(v, type, what), {}};
    }
    e.scope(what + ".fused");
    Fp8Copies q;
    // Both copies: the transposed one made from the row-wise one, so that the kernel reads its input once
    // also when that is a block argument (kernel fusion cannot tell two reads of one argument apart); the
    // row-wise copy is written because a GEMM outside reads it.
    const Dims order = perm.empty() ? featuresFirst(v.shape.size()) : perm;
    if (copies == Copies::Cols) {
        q.cols = e.convert(e.transpose(v, order, "transpose"), type, "cast");
    } else {
        q.rows = e.convert(v, type, "cast");
        if (copies == Copies::Both)
            q.cols = e.transpose(q.rows, order, "transpose");
    }
    e.scope(outer);
    return q;
}

/// A tensor's copies for a training step: both (the transposed one for the weight gradient) when
/// training, the row-wise one otherwise.
Copies trainingCopies(const Shape& sh)
{
    return sh.training ? Copies::Both : Copies::Rows;
}

/// `v` as an FP8 matmul reads it, row-wise only (quantize() without the transposed copy).
Value fp8Operand(Emitter& e, const Shape& sh, const Value& v, Fp8Operand kind, const std::string& what)
{
    return quantize(e, sh, v, kind, what).rows;
}

/// The transposed copy of an FP8 tensor that arrived row-wise only (an all-gather moves row-wise data;
/// Transformer Engine transposes after it); `v` itself without FP8.
Value transposedCopy(Emitter& e, const Shape& sh, const Value& v, const std::string& what, std::size_t leading = 0)
{
    if (!sh.fp8)
        return v;
    return e.transpose(v, featuresFirst(v.shape.size(), leading), what);
}

/// x @ w with the chosen matmul precision: fp8 casts an operand not yet cast (Transformer Engine's
/// recipe; the layer blocks cast inputs once for all the GEMMs that read them and take the weights
/// cast already, once a step, by the layer weight cast block).
Value linear(Emitter& e, const Shape& sh, const Value& x, const Value& w, std::int64_t wDim, const std::string& what,
             Fp8 fp8 = Fp8::AsStrategy)
{
    if (!sh.fp8 || fp8 == Fp8::Never)
        return e.matmul(x, w, wDim, what);
    return e.matmul(fp8Operand(e, sh, x, Fp8Operand::Value, what + "_cast"),
                    fp8Operand(e, sh, w, Fp8Operand::Value, what + "_cast"), wDim, what);
}

/// A batched matmul of the routed experts at the strategy's precision: with FP8 both operands are
/// cast (fp8Operand), as Transformer Engine's grouped linear layers run the experts of an FP8 recipe
/// (before 2026-12-06 the experts stayed in BF16 whatever the recipe).
Value expertDot(Emitter& e, const Shape& sh, const Value& a, Fp8Operand aKind, const Value& b, Fp8Operand bKind,
                const Dims& batchA, const Dims& batchB, const Dims& contractA, const Dims& contractB,
                const std::string& what)
{
    return e.dot(fp8Operand(e, sh, a, aKind, what + "_cast"), fp8Operand(e, sh, b, bKind, what + "_cast"), batchA,
                 batchB, contractA, contractB, what);
}

/// A weight gradient over the tokens: in bf16 x^T dy over dims 0 and 1 of both; with FP8 from the
/// transposed copies ([in, b, s] and [out, b, s]), Transformer Engine keeping the input in e4m3 and the
/// incoming gradient in e5m2.
Value weightGradient(Emitter& e, const Shape& sh, const Fp8Copies& x, const Fp8Copies& dy, const std::string& what,
                     Fp8 fp8 = Fp8::AsStrategy)
{
    if (!sh.fp8 || fp8 == Fp8::Never)
        return e.dot(x.cols, dy.rows, {}, {}, {0, 1}, {0, 1}, what);
    return e.dot(x.cols, dy.cols, {}, {}, {1, 2}, {1, 2}, what);
}

/// One eager PyTorch kernel that combines `a` with a smaller tensor broadcast to a's shape along
/// `dims` (a scalar, a row statistic, a weight vector): PyTorch broadcasts without materialising, so
/// the broadcast stays inside the kernel (`kernel` names it; it must differ from its neighbours').
Value broadcasting(Emitter& e, const std::string& kernel, const std::string& op, const Value& a, const Value& small,
                   const Dims& dims)
{
    e.scope(kernel + ".fused");
    const Value out = e.binary(op, a, e.broadcast(small, dims, a.shape, "expand"), op);
    e.scope("");
    return out;
}

/// RMSNorm as eager PyTorch runs it (ParallelConfig::eagerKernels; torchtitan's RMSNorm and fms's
/// LayerNormParameterized with its high-precision pow): a kernel per tensor operation, in fp32 -
/// upcast, square, mean, scale by the reciprocal root, downcast, weight: 36 bytes per element where
/// the fused kernel moves 4.
Value eagerRmsNorm(Emitter& e, const Value& x, const Value& gamma, const std::string& name)
{
    e.scope(name);
    const Value xf = e.convert(x, "f32", "upcast");
    const Value squares = broadcasting(e, name + "/pow", "power", xf, e.scalar("2.0", "f32"), {});
    e.scope(name);
    const Value rs = e.unary("rsqrt", e.reduce(squares, {2}, "add", "mean"), "rsqrt");
    const Value scaled = broadcasting(e, name + "/scale", "multiply", xf, rs, {0, 1});
    e.scope(name);
    const Value down = e.convert(scaled, "bf16", "downcast");
    e.scope("");
    return broadcasting(e, name + "/weight", "multiply", down, gamma, {2});
}

/// The autograd backward pass of eagerRmsNorm(): the weight's gradient (a product and a sum over
/// tokens), the upcast gradient, the scale's two products and the row sum, the mean's expansion, the
/// square's backward (two products), their sum and the downcast: 94 bytes per element where
/// the fused backward kernel moves 8. The fp32 input autograd saved is read back as an upcast.
std::pair<Value, Value> eagerRmsNormBackward(Emitter& e, const Value& x, const Value& dy, const Value& gamma,
                                             const std::string& name)
{
    const Value dScaled = broadcasting(e, name + "/dweight_scale", "multiply", dy, gamma, {2});
    e.scope(name);
    const Value gammaGrad = e.reduce(e.binary("multiply", dy, x, "dgamma"), {0, 1}, "add", "dgamma");
    const Value d = e.convert(dScaled, "f32", "upcast_backward");
    const Value xf = e.convert(x, "f32", "saved_input");
    const Value rs = e.unary("rsqrt", e.reduce(xf, {2}, "add", "saved_mean"), "saved_rsqrt");
    const Value dx1 = broadcasting(e, name + "/dscale", "multiply", d, rs, {0, 1});
    e.scope(name);
    const Value dRs = e.reduce(e.binary("multiply", d, xf, "drsqrt"), {2}, "add", "drsqrt");
    const Value dSquares = e.broadcast(dRs, {0, 1}, xf.shape, "dmean"); // the mean's backward expands
    const Value twice = broadcasting(e, name + "/dpow", "multiply", xf, e.scalar("2.0", "f32"), {});
    e.scope(name);
    const Value dx2 = e.binary("multiply", twice, dSquares, "dpow");
    const Value dx = e.convert(e.binary("add", dx1, dx2, "dsum"), "bf16", "downcast_backward");
    e.scope("");
    return {dx, gammaGrad};
}

/// LayerNorm (GPT) or RMSNorm (Llama, Mixtral, DeepSeek) over the hidden dimension, one fused kernel
/// (RMSNorm as eager PyTorch runs it with ParallelConfig::eagerKernels).
Value norm(Emitter& e, const Shape& sh, const Value& x, const Value& gamma, const std::string& name)
{
    if (sh.parallel.eagerKernels && sh.model.gatedMlp)
        return eagerRmsNorm(e, x, gamma, name);
    e.scope(name + ".fused");
    const Dims bs{x.shape[0], x.shape[1]};
    Value centred = x;
    if (!sh.model.gatedMlp) {
        const Value mean = e.reduce(x, {2}, "add", "mean");
        centred = e.binary("subtract", x, e.broadcast(mean, {0, 1}, x.shape, "mean"), "centre");
    }
    const Value sq = e.binary("multiply", centred, centred, "square");
    const Value ms = e.reduce(sq, {2}, "add", "variance");
    const Value rs = e.unary("rsqrt", ms, "rsqrt");
    const Value scaled = e.binary("multiply", centred, e.broadcast(rs, {0, 1}, x.shape, "scale"), "normalise");
    const Value out = e.binary("multiply", scaled, e.broadcast(gamma, {2}, x.shape, "gamma"), "gamma");
    (void)bs;
    e.scope("");
    return out;
}

/// The backward pass of norm(): about twice its work, one fused kernel; the gamma gradient is a
/// partial sum over batch and sequence.
std::pair<Value, Value> normBackward(Emitter& e, const Shape& sh, const Value& x, const Value& dy, const Value& gamma,
                                     const std::string& name)
{
    if (sh.parallel.eagerKernels && sh.model.gatedMlp)
        return eagerRmsNormBackward(e, x, dy, gamma, name);
    e.scope(name + ".fused");
    const Value dg = e.binary("multiply", dy, e.broadcast(gamma, {2}, x.shape, "gamma"), "dgamma_scale");
    const Value dot = e.reduce(e.binary("multiply", dg, x, "dot"), {2}, "add", "dot");
    const Value proj = e.binary("multiply", x, e.broadcast(dot, {0, 1}, x.shape, "project"), "project");
    const Value dx = e.binary("subtract", dg, proj, "dx");
    const Value gammaGrad = e.reduce(e.binary("multiply", dy, x, "dgamma"), {0, 1}, "add", "dgamma");
    e.scope("");
    return {dx, gammaGrad};
}

/// SiLU/GELU-like activation: x * sigmoid(x).
Value activation(Emitter& e, const Value& x, const std::string& name)
{
    e.scope(name + ".fused");
    const Value out = e.binary("multiply", x, e.unary("logistic", x, "sigmoid"), "gate");
    e.scope("");
    return out;
}

/// Rotary position embedding on [b, s, heads * d]: q * cos + rotate(q) * sin, one fused kernel. As eager
/// PyTorch runs it (ParallelConfig::eagerKernels; torchtitan's apply_rotary_emb): upcast, a complex
/// product with the frequencies, downcast - 20 bytes per element, the same in its backward pass.
Value rotary(Emitter& e, const Shape& sh, const Value& q, const std::string& name)
{
    if (sh.parallel.eagerKernels) {
        e.scope(name);
        const Value qf = e.convert(q, "f32", "upcast");
        const Value rotated = broadcasting(e, name + "/freqs", "multiply", qf, e.scalar("0.5", "f32"), {});
        e.scope(name);
        const Value out = e.convert(rotated, q.type, "downcast");
        e.scope("");
        return out;
    }
    e.scope(name + ".fused");
    const Value c = e.broadcast(e.scalar("0.5"), {}, q.shape, "cos");
    const Value out = e.binary("add", e.binary("multiply", q, c, "cos"), e.binary("multiply", q, c, "sin"), "sum");
    e.scope("");
    return out;
}

/// Scores and softmax of one layer: q5 [b, s, kv, g, d] against k [b, ctx, kv, d] gives
/// p [b, kv, s, g, ctx]. Flash attention keeps them on chip: one fused kernel with the context
/// product (`scope` is the kernel's). Without it the scores reach device memory and the softmax is
/// one kernel of its own that reads them once and writes the probabilities, as every framework runs
/// it: Megatron-LM's fused scale-mask-softmax (scaling and the causal mask included), PyTorch's
/// softmax kernel, XLA's softmax fusion.
Value attentionProbabilities(Emitter& e, const Shape& sh, const Value& q5, const Value& k4, const std::string& scope)
{
    e.scope(scope);
    const Value scores = e.dot(q5, k4, {0, 2}, {0, 2}, {4}, {3}, "scores");
    if (!sh.parallel.flashAttention)
        e.scope(scope + "/softmax.fused");
    const Value m = e.reduce(scores, {4}, "maximum", "max");
    const Value shifted = e.binary("subtract", scores, e.broadcast(m, {0, 1, 2, 3}, scores.shape, "max"), "shift");
    const Value ex = e.unary("exponential", shifted, "exp");
    const Value sum = e.reduce(ex, {4}, "add", "sum");
    const Value p = e.binary("divide", ex, e.broadcast(sum, {0, 1, 2, 3}, scores.shape, "sum"), "normalise");
    e.scope(scope);
    return p;
}

/// Attention dropout on materialised probabilities: one kernel reads p and writes the kept
/// probabilities and a one-byte mask that the backward pass reads (PyTorch's fused dropout, as
/// Megatron-LM calls it on the softmax's output).
struct Dropout {
    Value out, mask;
};
Dropout attentionDropout(Emitter& e, const Value& p, double rate, const std::string& scope)
{
    e.scope(scope + "/dropout.fused");
    Dropout d;
    d.mask = e.convert(p, "i8", "mask"); // written whether or not it is kept for the backward pass
    // The kept values' scale 1 / (1 - rate), written without the C library's locale (a German
    // LC_NUMERIC would write a comma, which MLIR does not read).
    char keptScale[32];
    const auto written = std::to_chars(keptScale, keptScale + sizeof keptScale, 1 / (1 - rate));
    d.out = e.binary("multiply", p, e.broadcast(e.scalar(std::string(keptScale, written.ptr)), {}, p.shape, "scale"),
                     "keep");
    e.scope(scope);
    return d;
}

struct LayerWeights {
    Value ln1, wq, wk, wv, wo, ln2;
    Value w1, w3, w2; ///< dense FFN (w3: gate of a gated FFN)
    Value router;     ///< MoE
    Value e1, e3, e2; ///< routed experts [E, h, f] / [E, f, h]
    Value s1, s3, s2; ///< shared experts as one dense FFN
};

/// A layer's parameters as its forward and backward blocks read them. Under an FP8 strategy the
/// matrices arrive in FP8: cast once a step by the layer weight cast block (Megatron-Core passes
/// is_first_microbatch to Transformer Engine, which casts a weight on the first microbatch and reuses
/// the cast, row-wise for the forward pass and transposed for the data gradient); inference keeps its
/// weights in FP8. The norms and the router stay in bf16.
LayerWeights layerWeights(Emitter& e, const Shape& sh, bool moe)
{
    const TransformerConfig& m = sh.model;
    const std::string matrix = sh.fp8 ? kE4m3 : "bf16";
    LayerWeights w;
    w.ln1 = e.arg("ln1", {sh.h}, sh.vectorSharding());
    w.wq = e.arg("wq", {sh.h, sh.n * sh.d}, sh.weight(1), matrix);
    w.wk = e.arg("wk", {sh.h, sh.kv * sh.d}, sh.weight(1), matrix);
    w.wv = e.arg("wv", {sh.h, sh.kv * sh.d}, sh.weight(1), matrix);
    w.wo = e.arg("wo", {sh.n * sh.d, sh.h}, sh.weight(0), matrix);
    w.ln2 = e.arg("ln2", {sh.h}, sh.vectorSharding());
    if (!moe) {
        w.w1 = e.arg("w1", {sh.h, m.ffn}, sh.weight(1), matrix);
        if (m.gatedMlp)
            w.w3 = e.arg("w3", {sh.h, m.ffn}, sh.weight(1), matrix);
        w.w2 = e.arg("w2", {m.ffn, sh.h}, sh.weight(0), matrix);
        return w;
    }
    w.router = e.arg("router", {sh.h, m.experts}, {{}, {}});
    const Axes& ep = sh.experts;
    w.e1 = e.arg("expert_w1", {m.experts, sh.h, m.expertFfn}, {ep, {}, sh.tp}, matrix);
    if (m.gatedMlp)
        w.e3 = e.arg("expert_w3", {m.experts, sh.h, m.expertFfn}, {ep, {}, sh.tp}, matrix);
    w.e2 = e.arg("expert_w2", {m.experts, m.expertFfn, sh.h}, {ep, sh.tp, {}}, matrix);
    if (m.sharedExperts > 0) {
        const std::int64_t f = m.expertFfn * m.sharedExperts;
        w.s1 = e.arg("shared_w1", {sh.h, f}, sh.weight(1), matrix);
        if (m.gatedMlp)
            w.s3 = e.arg("shared_w3", {sh.h, f}, sh.weight(1), matrix);
        w.s2 = e.arg("shared_w2", {f, sh.h}, sh.weight(0), matrix);
    }
    return w;
}

/// Dense FFN on the gathered input: returns the row-parallel output (a partial sum over "tp").
/// Under FP8 its input is cast once for the up and gate projections (a dense layer's comes cast by
/// its norm's kernel), and the activation's output once for the down projection, each with its
/// transposed copy when training (Megatron-Core runs the activation, then Transformer Engine's fc2
/// casts its input).
Value denseFfn(Emitter& e, const Shape& sh, const Value& x, const Value& w1, const Value& w3, const Value& w2,
               const std::string& name)
{
    const Copies copies = trainingCopies(sh);
    const Value x8 = quantize(e, sh, x, Fp8Operand::Value, name + "/up_cast", copies).rows;
    const Value up = linear(e, sh, x8, w1, 0, name + "/up");
    Value hidden = activation(e, up, name + "/act");
    if (!w3.name.empty())
        hidden = e.binary("multiply", hidden, linear(e, sh, x8, w3, 0, name + "/gate"), name + "/act.fused/glu");
    return linear(e, sh, quantize(e, sh, hidden, Fp8Operand::Value, name + "/down_cast", copies).rows, w2, 0,
                  name + "/down");
}

/// Sequences routed as one group. The k copies of a sequence's s tokens spread evenly over E
/// experts only when E divides s k; decoding (one token a sequence, k copies, far fewer than E)
/// routes groups of g sequences of a microbatch together, [b, s] seen as [b / g, g s], g dividing the
/// microbatch size. Before 2026-12-06 a decode step's experts got no tokens at all.
std::int64_t routingGroup(const Shape& sh, std::int64_t s)
{
    const std::int64_t copies = s * sh.model.topK, experts = sh.model.experts;
    if (copies % experts == 0)
        return 1;
    const std::int64_t even = experts / std::gcd(experts, copies);
    std::int64_t g = 1;
    for (std::int64_t d = 1; d <= sh.parallel.microbatchSize; ++d)
        if (sh.parallel.microbatchSize % d == 0 && d <= even)
            g = d;
    return g;
}

/// Token copies per expert and sequence group, at least 1 (capacity factor 1: an even spread).
std::int64_t expertCapacity(const Shape& sh, std::int64_t s)
{
    return std::max<std::int64_t>(1, s * sh.model.topK / sh.model.experts);
}

/// The chance that a token's k experts, chosen uniformly among `experts` (as balanced routing spreads
/// them), include at least one of `held` given ones: 1 - C(experts - held, k) / C(experts, k).
double hitsAny(std::int64_t experts, std::int64_t held, std::int64_t k)
{
    double miss = 1;
    for (std::int64_t i = 0; i < k; ++i)
        miss *= static_cast<double>(std::max<std::int64_t>(0, experts - held - i)) / static_cast<double>(experts - i);
    return 1 - miss;
}

/// How routed tokens travel to the ranks holding their experts: over which expert axes each hop moves
/// them (the network hop across NVLink domains, then the one inside a domain), and whether a token
/// goes once per destination holding one of its experts (HybridEP) or once per expert it chose there
/// (the all-to-all dispatcher, one hop over all of EP).
struct TokenRoute {
    Axes across, within;
    bool once = true;
    const char* acrossName = "network";
    const char* withinName = "nvlink";
};

/// Tokens per sequence (group) a hop sends to one destination holding `held` of the experts: those
/// that chose at least one of them (at least 1), or their copies for them.
std::int64_t tokensTo(const Shape& sh, const TokenRoute& route, std::int64_t s, std::int64_t held)
{
    const TransformerConfig& m = sh.model;
    const double tokens = route.once ? static_cast<double>(s) * hitsAny(m.experts, held, m.topK)
                                     : static_cast<double>(s * m.topK * held) / static_cast<double>(m.experts);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(tokens)));
}

/// Tokens [b, s, h] to the per-expert copies [b, E, C, h] the expert matmuls read, sharded over the
/// data replicas and the expert axes, hop by hop along `route` (docs/models.md, "Token dispatch").
/// HybridEP: a token crosses the network once for each NVLink domain holding one of its experts, to
/// the rank with its own local index there, then NVLink once for each rank of the domain holding
/// one; each rank then lays its tokens out by expert (the permutation HybridEP fuses into its
/// kernel). The reductions and broadcasts between the hops stand for the kernel's reads and writes.
Value routeToExperts(Emitter& e, const Shape& sh, const TokenRoute& route, const Value& tokens, const std::string& what)
{
    const TransformerConfig& m = sh.model;
    const std::int64_t b = tokens.shape[0], s = tokens.shape[1], experts = m.experts;
    const std::int64_t ep = sh.mesh.ep, across = sh.ways(route.across), within = sh.ways(route.within);
    const std::int64_t perRank = experts / ep, capacity = expertCapacity(sh, s);
    const Axes& dp = sh.dataReplicas;
    Value rows = e.reduce(tokens, {1}, "add", what + "/read"); // [b, h]
    Value held;                                                // [b, destinations, tokens, h]
    if (!route.across.empty()) {
        const std::int64_t perDomain = tokensTo(sh, route, s, experts / across);
        const Value out =
            e.broadcast(rows, {0, 3}, {b, across, perDomain, sh.h}, what + "/" + route.acrossName + "_buffer");
        held = e.constrain(out, {concat(dp, route.within), route.across, {}, {}}, what + "/" + route.acrossName);
        rows = e.reduce(held, {2}, "add", what + "/forward"); // [b, across, h]
    }
    if (!route.within.empty()) {
        const std::int64_t perRankTokens = tokensTo(sh, route, s, perRank);
        const std::string buffer = what + "/" + route.withinName + "_buffer";
        const Value out =
            route.across.empty()
                ? e.broadcast(rows, {0, 3}, {b, ep, perRankTokens, sh.h}, buffer)
                : e.reshape(e.broadcast(rows, {0, 1, 4}, {b, across, within, perRankTokens, sh.h}, buffer),
                            {b, ep, perRankTokens, sh.h}, buffer);
        held = e.constrain(out, {dp, sh.experts, {}, {}}, what + "/" + route.withinName);
    }
    const Value mine = held.name.empty() ? e.broadcast(rows, {0, 2}, {b, 1, sh.h}, what + "/permute") // no hop
                                         : e.reduce(held, {2}, "add", what + "/permute");             // [b, ep, h]
    const Value copies = e.broadcast(mine, {0, 1, 4}, {b, ep, perRank, capacity, sh.h}, what + "/permute");
    return e.reshape(copies, {b, experts, capacity, sh.h}, what + "/permute");
}

/// Expert outputs [b, E, C, h], laid out as routeToExperts left them, back to their tokens [b, s, h],
/// each token's k outputs summed: every rank sums its own experts' outputs per token, the hop inside
/// a domain back sums a domain's at the rank that forwarded the token (HybridEP), the network hop
/// back the domains'.
Value routeToTokens(Emitter& e, const Shape& sh, const TokenRoute& route, const Value& byExpert, std::int64_t s,
                    const std::string& what)
{
    const std::int64_t b = byExpert.shape[0], experts = byExpert.shape[1], capacity = byExpert.shape[2];
    const std::int64_t ep = sh.mesh.ep, across = sh.ways(route.across), within = sh.ways(route.within);
    const std::int64_t perRank = experts / ep;
    const Axes& dp = sh.dataReplicas;
    const Value perExpert = e.reshape(byExpert, {b, ep, perRank, capacity, sh.h}, what + "/unpermute");
    Value rows = e.reduce(perExpert, {2, 3}, "add", what + "/unpermute"); // [b, ep, h]
    if (!route.within.empty()) {
        const std::int64_t perRankTokens = tokensTo(sh, route, s, perRank);
        const Value out =
            e.broadcast(rows, {0, 1, 3}, {b, ep, perRankTokens, sh.h}, what + "/" + route.withinName + "_buffer");
        const Value back =
            e.constrain(out, {concat(dp, route.within), route.across, {}, {}}, what + "/" + route.withinName);
        rows = route.across.empty()
                   ? e.reduce(back, {1, 2}, "add", what + "/sum") // [b, h]
                   : e.reduce(e.reshape(back, {b, across, within, perRankTokens, sh.h}, what + "/forward"), {2, 3},
                              "add", what + "/forward"); // [b, across, h]
    } else if (route.across.empty()) {
        rows = e.reduce(rows, {1}, "add", what + "/sum"); // one rank holds every expert
    }
    if (!route.across.empty()) {
        const std::int64_t perDomain = tokensTo(sh, route, s, experts / across);
        const Value out =
            e.broadcast(rows, {0, 1, 3}, {b, across, perDomain, sh.h}, what + "/" + route.acrossName + "_buffer");
        const Value back = e.constrain(out, {sh.batch, {}, {}, {}}, what + "/" + route.acrossName);
        rows = e.reduce(back, {1, 2}, "add", what + "/sum"); // [b, h]
    }
    return e.broadcast(rows, {0, 2}, {b, s, sh.h}, what + "/write");
}

/// The route of the layer's tokens: HybridEP's two hops, or the all-to-all dispatcher's one.
TokenRoute tokenRoute(const Shape& sh)
{
    if (sh.parallel.dispatchesByHybridEp())
        return {sh.expertsAcross, sh.expertsWithin, true};
    return {{}, sh.experts, false, "network", "exchange"};
}

/// Routed experts: tokens [b, s, h] (replicated over "tp") to experts and back, as Megatron-LM's
/// all-to-all token dispatcher does it (or HybridEP, above), with tokens spread evenly over experts
/// (capacity factor 1).
Value moeFfn(Emitter& e, const Shape& sh, const Value& x, const LayerWeights& w)
{
    const TransformerConfig& m = sh.model;
    const std::int64_t group = routingGroup(sh, x.shape[1]);
    const std::int64_t b = x.shape[0] / group, s = x.shape[1] * group, k = m.topK, experts = m.experts;
    const std::int64_t capacity = expertCapacity(sh, s);
    e.scope("router.fused");
    const Value logits = e.matmul(x, w.router, 0, "logits");
    const Value ex = e.unary("exponential", logits, "softmax");
    const Value probs = e.binary(
        "divide", ex, e.broadcast(e.reduce(ex, {2}, "add", "softmax"), {0, 1}, ex.shape, "softmax"), "softmax");
    (void)probs;
    e.scope("");
    const Axes dp = sh.dataReplicas;
    const Axes& ep = sh.experts;
    const Value routed = group > 1 ? e.reshape(x, {b, s, sh.h}, "moe/group") : x;
    const bool exact = s * k == experts * capacity;
    // The all-to-all dispatcher's copies exactly fill the experts (the usual case); HybridEP, and
    // groups too small to fill them, go hop by hop with tokens counted per destination.
    const bool byHops = sh.parallel.dispatchesByHybridEp() || !exact;
    Value dispatched;
    if (byHops) {
        dispatched = routeToExperts(e, sh, tokenRoute(sh), routed, "moe/dispatch");
    } else {
        const Value copies = e.broadcast(routed, {0, 1, 3}, {b, s, k, sh.h}, "moe/dispatch_copies");
        const Value byExpert =
            e.reshape(e.reshape(copies, {b, s * k, sh.h}, "moe/permute"), {b, experts, capacity, sh.h}, "moe/permute");
        dispatched = e.constrain(byExpert, {dp, ep, {}, {}}, "moe/dispatch");
    }
    // FP8: the tokens cast once for the up and gate projections (Transformer Engine's grouped fc1), and
    // the activation's output once for the down projection, each with its transposed copy ([E, f, b,
    // C]) when training.
    const Value tokens8 =
        quantize(e, sh, dispatched, Fp8Operand::Value, "moe/expert_up_cast", trainingCopies(sh), {1, 3, 0, 2}).rows;
    const Value up =
        expertDot(e, sh, tokens8, Fp8Operand::Value, w.e1, Fp8Operand::Value, {1}, {0}, {3}, {1}, "moe/expert_up");
    Value hidden = activation(e, up, "moe/expert_act");
    if (!w.e3.name.empty())
        hidden = e.binary("multiply", hidden,
                          expertDot(e, sh, tokens8, Fp8Operand::Value, w.e3, Fp8Operand::Value, {1}, {0}, {3}, {1},
                                    "moe/expert_gate"),
                          "moe/expert_act.fused/glu");
    const Value hidden8 =
        quantize(e, sh, hidden, Fp8Operand::Value, "moe/expert_down_cast", trainingCopies(sh), featuresFirst(4, 1))
            .rows;
    const Value down = expertDot(e, sh, hidden8, Fp8Operand::Value, w.e2, Fp8Operand::Value, {0}, {0}, {3}, {1},
                                 "moe/expert_down"); // [E, b, C, h]
    const Value back = e.transpose(down, {1, 0, 2, 3}, "moe/unpermute");
    Value out;
    if (byHops) {
        out = routeToTokens(e, sh, tokenRoute(sh), back, s, "moe/combine");
    } else {
        const Value combined = e.constrain(back, {sh.batch, {}, {}, {}}, "moe/combine");
        const Value tokens = e.reshape(combined, {b, s, k, sh.h}, "moe/unpermute");
        out = e.reduce(tokens, {2}, "add", "moe/weighted_sum");
    }
    if (group > 1)
        out = e.reshape(out, x.shape, "moe/group");
    if (!w.s1.name.empty())
        out = e.binary(
            "add", out,
            e.constrain(denseFfn(e, sh, x, w.s1, w.s3, w.s2, "shared_experts"), sh.full(), "shared_experts/reduce"),
            "moe/add_shared");
    return out;
}

/// Values of one layer's forward pass that the backward pass reads.
struct LayerForwardValues {
    Value x, a1, a1full, q, k, v, q5, k4, v4, p, o2, x2, a2, a2full, out;
    Dropout dropped; ///< attention dropout on p (out empty without it)
    /// FP8 training: the transposed copies of the linear layers' inputs that the forward pass wrote
    /// (a norm's output only when it is not gathered over "tp"); empty otherwise.
    Value a1t, a2t, o2t;
};

/// A norm's output as the linear layers after it read it. Under FP8 Transformer Engine's norm
/// kernel writes it in FP8 (the cast fused; current scaling: the kernel finds the amax, a second one
/// casts), with its transposed copy when training and it is not gathered over "tp" first (an FP8
/// all-gather moves row-wise data only). TransformerEngine pytorch/module/layernorm_linear.py
/// (with_quantized_norm) and csrc/extensions/normalization.cpp (FUSED_NORM_AMAX_FP8).
Fp8Copies normOutput(Emitter& e, const Shape& sh, const Value& normed, const std::string& norm)
{
    const bool teKernel = !(sh.parallel.eagerKernels && sh.model.gatedMlp);
    const Copies copies = sh.gathersInputs() ? Copies::Rows : trainingCopies(sh);
    if (teKernel && !sh.currentScaling)
        return quantize(e, sh, normed, Fp8Operand::Value, norm, copies, {}, false, true); // the norm's kernel
    return quantize(e, sh, normed, Fp8Operand::Value, norm + "_cast", copies, {}, teKernel);
}

/// One layer's forward pass; `withMlp` false stops after the MLP's gathered input (a full
/// recomputation's backward pass recomputes the MLP itself).
LayerForwardValues layerForward(Emitter& e, const Shape& sh, const Value& x, const LayerWeights& w, bool moe,
                                const Value& kCache = {}, const Value& vCache = {}, bool withMlp = true)
{
    LayerForwardValues f;
    f.x = x;
    const Fp8Copies a1 = normOutput(e, sh, norm(e, sh, x, w.ln1, "attention/norm"), "attention/norm");
    f.a1 = a1.rows;
    f.a1t = sh.fp8 ? a1.cols : Value{};
    f.a1full = e.constrain(f.a1, sh.full(), "attention/gather_sequence");
    f.q = linear(e, sh, f.a1full, w.wq, 0, "attention/q");
    f.k = linear(e, sh, f.a1full, w.wk, 0, "attention/k");
    f.v = linear(e, sh, f.a1full, w.wv, 0, "attention/v");
    Value q = f.q, k = f.k;
    if (!sh.model.learnedPositions) {
        q = rotary(e, sh, q, "attention/rotary_q");
        k = rotary(e, sh, k, "attention/rotary_k");
    }
    const std::int64_t b = x.shape[0], s = x.shape[1];
    f.q5 = e.reshape(q, {b, s, sh.kv, sh.g, sh.d}, "attention/heads");
    if (!kCache.name.empty()) {
        // Decoding: the new token's key and value join the cache; attention reads the whole cache.
        f.k4 = kCache;
        f.v4 = vCache;
    } else {
        f.k4 = e.reshape(k, {b, s, sh.kv, sh.d}, "attention/heads");
        f.v4 = e.reshape(f.v, {b, s, sh.kv, sh.d}, "attention/heads");
        if (!sh.seq.empty()) {
            // Context parallelism: every rank needs the keys and values of the whole sequence. Ring
            // attention passes them around the "cp" ring in cp - 1 steps; the bytes equal an all-gather.
            f.k4 = e.constrain(f.k4, {sh.batch, {}, sh.tp, {}}, "attention/context_parallel_kv");
            f.v4 = e.constrain(f.v4, {sh.batch, {}, sh.tp, {}}, "attention/context_parallel_kv");
        }
    }
    const bool flash = sh.parallel.flashAttention;
    f.p = attentionProbabilities(e, sh, f.q5, f.k4, flash ? sh.flashScope("core") : "attention/core");
    if (sh.attentionDropout())
        f.dropped = attentionDropout(e, f.p, sh.model.attentionDropout, "attention/core");
    const Value o = e.dot(f.dropped.out.name.empty() ? f.p : f.dropped.out, f.v4, {0, 1}, {0, 2}, {4}, {1},
                          "context"); // [b, kv, s, g, d]
    e.scope("");
    // Flash attention writes its output in [b, s, heads, d] layout: the transpose is the kernel's.
    const Value ot =
        e.transpose(o, {0, 2, 1, 3, 4}, flash ? sh.flashScope("core") + "/output_layout" : "attention/merge_heads");
    f.o2 = e.reshape(ot, {b, s, sh.n * sh.d}, "attention/merge_heads");
    const Fp8Copies o2 = quantize(e, sh, f.o2, Fp8Operand::Value, "attention/out_cast", trainingCopies(sh));
    f.o2t = sh.fp8 ? o2.cols : Value{};
    const Value proj = linear(e, sh, o2.rows, w.wo, 0, "attention/out");
    const Value projDone = e.constrain(proj, sh.act(), "attention/reduce_output");
    f.x2 = e.binary("add", x, projDone, "attention/residual");
    f.a2 = norm(e, sh, f.x2, w.ln2, "mlp/norm");
    if (!moe) { // a mixture of experts routes and dispatches the bf16 tokens
        const Fp8Copies a2 = normOutput(e, sh, f.a2, "mlp/norm");
        f.a2 = a2.rows;
        f.a2t = sh.fp8 ? a2.cols : Value{};
    }
    f.a2full = e.constrain(f.a2, sh.full(), "mlp/gather_sequence");
    if (!withMlp)
        return f;
    const Value ffn = moe ? moeFfn(e, sh, f.a2full, w) : denseFfn(e, sh, f.a2full, w.w1, w.w3, w.w2, "mlp");
    const Value ffnDone = e.constrain(ffn, sh.act(), "mlp/reduce_output");
    f.out = e.binary("add", f.x2, ffnDone, "mlp/residual");
    return f;
}

std::string moduleName(Block block, bool moe)
{
    std::string name(displayName(block));
    for (char& c : name)
        if (c == ' ' || c == '-')
            c = '_';
    return name + (moe ? "_moe" : "");
}

std::string header(const Shape& sh, Block block, bool moe)
{
    return std::string(displayName(block)) + (moe ? " (MoE)" : "") + " of " + sh.model.title + " under " +
           sh.parallel.describe() + "; generated by Flint Explorer (docs/models.md)";
}

std::string layerForwardBlock(const Shape& sh, bool moe)
{
    Emitter e;
    const Value x = e.arg("x", {sh.b, sh.s, sh.h}, sh.act());
    const LayerWeights w = layerWeights(e, sh, moe);
    Value kCache, vCache;
    if (sh.parallel.phase == Phase::Decode) {
        kCache = e.arg("k_cache", {sh.b, sh.ctx, sh.kv, sh.d}, {sh.batch, {}, sh.tp, {}});
        vCache = e.arg("v_cache", {sh.b, sh.ctx, sh.kv, sh.d}, {sh.batch, {}, sh.tp, {}});
    }
    const LayerForwardValues f = layerForward(e, sh, x, w, moe, kCache, vCache);
    return e.module(moduleName(Block::LayerForward, moe), sh.mesh, {f.out}, {sh.act()},
                    header(sh, Block::LayerForward, moe));
}

/// dx of a column-parallel linear (partial over "tp") and its weight gradient.
struct LinearGrad {
    Value dx, dw;
};
/// `x` is the layer's input as weightGradient() reads it (wgradInput()), `dy` the incoming gradient as
/// gradCopies() gives it; under FP8 the weight arrives cast (layerWeights()).
LinearGrad linearBackward(Emitter& e, const Shape& sh, const Fp8Copies& x, const Value& w, const Fp8Copies& dy,
                          const std::string& name, Fp8 fp8 = Fp8::AsStrategy)
{
    LinearGrad g;
    // dy [b, s, out], w [in, out]: dx = dy w^T; dw = x^T dy.
    g.dx = e.matmul(dy.rows, w, 1, name + "/dgrad");
    g.dw = weightGradient(e, sh, x, dy, name + "/wgrad", fp8);
    return g;
}

/// A linear layer's input as its weight gradient reads it: the bf16 tensor; under FP8 its transposed
/// copy, saved by the forward pass (`cols`), made here from an FP8 row-wise copy (one gathered again
/// over "tp" for the backward pass, as Transformer Engine does under sequence parallelism), or cast
/// here from bf16 (the transposed copy alone written).
Fp8Copies wgradInput(Emitter& e, const Shape& sh, const Value& x, const std::string& what, const Value& cols = {},
                     std::size_t leading = 0)
{
    if (!sh.fp8)
        return {x, x};
    if (!cols.name.empty())
        return {x, cols};
    if (x.type.rfind("f8", 0) == 0)
        return {x, transposedCopy(e, sh, x, what + "_transpose", leading)};
    return quantize(e, sh, x, Fp8Operand::Value, what + "_cast", Copies::Cols, featuresFirst(x.shape.size(), leading));
}

/// An incoming gradient as a linear layer's backward GEMMs read it. Under FP8 it is cast once, in one
/// kernel, row-wise for the data gradient and transposed for the weight gradient (Transformer Engine's
/// fused cast-transpose). `gather` (the collective's name): a row-parallel layer's gradient,
/// all-gathered over "tp" under sequence parallelism, in FP8 (cast row-wise, gathered, then transposed:
/// grad_output_preprocess in TransformerEngine pytorch/module/base.py).
Fp8Copies gradCopies(Emitter& e, const Shape& sh, const Value& dy, const std::string& what,
                     const std::string& gather = {}, std::size_t leading = 0)
{
    if (!gather.empty() && sh.fp8 && sh.gathersInputs()) {
        const Value rows = e.constrain(fp8Operand(e, sh, dy, Fp8Operand::Gradient, what + "_cast"), sh.full(), gather);
        return {rows, transposedCopy(e, sh, rows, what + "_transpose")};
    }
    const Value full = gather.empty() ? dy : e.constrain(dy, sh.full(), gather);
    if (!sh.fp8)
        return {full, full};
    return quantize(e, sh, full, Fp8Operand::Gradient, what + "_cast", Copies::Both,
                    featuresFirst(full.shape.size(), leading));
}

std::string layerBackwardBlock(const Shape& sh, bool moe)
{
    const TransformerConfig& m = sh.model;
    Emitter e;
    const Recompute recompute = sh.parallel.recompute;
    const Value dy = e.arg("dy", {sh.b, sh.s, sh.h}, sh.act());
    const Value x = e.arg("x", {sh.b, sh.s, sh.h}, sh.act());
    const LayerWeights w = layerWeights(e, sh, moe);
    LayerForwardValues f;
    if (recompute == Recompute::Full) {
        // Full recomputation (Chen et al. 2016; Megatron-LM's --recompute-granularity full): only the
        // layer input was kept; run the forward pass again, collectives included.
        e.scope("");
        f = layerForward(e, sh, x, w, moe, {}, {}, false);
    } else {
        f.x = x;
        // The inputs of the linear layers as the forward pass kept them: in bf16, or under FP8 in
        // FP8, a norm's output row-wise when it is gathered over "tp" (gathered again here) and
        // otherwise as the transposed copy the weight gradients read.
        const auto normSaved = [&](const std::string& name, Value& rows, Value& cols, Value& full,
                                   const std::string& gather) {
            if (sh.fp8 && !sh.gathersInputs()) {
                cols = e.arg(name, {sh.h, sh.b, sh.s}, {{}, sh.batch, sh.actSeq}, kE4m3);
                return;
            }
            rows = e.arg(name, {sh.b, sh.s, sh.h}, sh.act(), sh.fp8 ? kE4m3 : "bf16");
            full = e.constrain(rows, sh.full(), gather);
        };
        normSaved("a1", f.a1, f.a1t, f.a1full, "attention/gather_sequence");
        f.q = e.arg("q", {sh.b, sh.s, sh.n * sh.d}, {sh.batch, sh.seq, sh.tp});
        f.k = e.arg("k", {sh.b, sh.s, sh.kv * sh.d}, {sh.batch, sh.seq, sh.tp});
        f.v = e.arg("v", {sh.b, sh.s, sh.kv * sh.d}, {sh.batch, sh.seq, sh.tp});
        if (sh.fp8)
            f.o2t = e.arg("context", {sh.n * sh.d, sh.b, sh.s}, {sh.tp, sh.batch, sh.seq}, kE4m3);
        else
            f.o2 = e.arg("context", {sh.b, sh.s, sh.n * sh.d}, {sh.batch, sh.seq, sh.tp});
        f.x2 = e.arg("x2", {sh.b, sh.s, sh.h}, sh.act());
        if (moe) { // routed and dispatched in bf16
            f.a2 = e.arg("a2", {sh.b, sh.s, sh.h}, sh.act());
            f.a2full = e.constrain(f.a2, sh.full(), "mlp/gather_sequence");
        } else {
            normSaved("a2", f.a2, f.a2t, f.a2full, "mlp/gather_sequence");
        }
        f.q5 = e.reshape(f.q, {sh.b, sh.s, sh.kv, sh.g, sh.d}, "attention/heads");
        f.k4 = e.reshape(f.k, {sh.b, sh.s, sh.kv, sh.d}, "attention/heads");
        f.v4 = e.reshape(f.v, {sh.b, sh.s, sh.kv, sh.d}, "attention/heads");
        if (!sh.seq.empty()) {
            f.k4 = e.constrain(f.k4, {sh.batch, {}, sh.tp, {}}, "attention/context_parallel_kv");
            f.v4 = e.constrain(f.v4, {sh.batch, {}, sh.tp, {}}, "attention/context_parallel_kv");
        }
        // Flash attention's backward kernel recomputes the probabilities itself (below); without it
        // they were kept (no recomputation) or are recomputed here (selective recomputation).
        const Dims scoresShape{sh.b, sh.kv, sh.s, sh.g, sh.s};
        const Sharding scoresSharding{sh.batch, sh.tp, sh.seq, {}, {}};
        if (recompute == Recompute::None && !sh.parallel.flashAttention) {
            f.p = e.arg("p", scoresShape, scoresSharding);
            if (sh.attentionDropout()) {
                f.dropped.out = e.arg("p_dropped", scoresShape, scoresSharding);
                f.dropped.mask = e.arg("dropout_mask", scoresShape, scoresSharding, "i8");
            }
        } else if (!sh.parallel.flashAttention) {
            f.p = attentionProbabilities(e, sh, f.q5, f.k4, "attention/recompute");
            if (sh.attentionDropout()) // the same random numbers again (Megatron-LM's RNG tracker)
                f.dropped = attentionDropout(e, f.p, sh.model.attentionDropout, "attention/recompute");
        }
        e.scope("");
    }
    std::vector<Value> grads;
    std::vector<Sharding> gradShardings;
    std::vector<Axes> gradPartial;
    const auto keepPartial = [&](const Value& g, Sharding sharding, const std::string& what,
                                 const Axes* over = nullptr) {
        const Axes partial = over ? *over : sh.dataAxes;
        grads.push_back(e.constrain(g, sharding, what, partial));
        gradShardings.push_back(std::move(sharding));
        gradPartial.push_back(partial);
    };

    // MLP: dy -> d(a2), weight gradients.
    Value da2;
    if (!moe) {
        // Without a full recomputation the up-projection(s) and the activation's output, the down
        // projection's input, were kept (Korthikanti et al. 2022, Sec. 4.1, count both; so does
        // memoryPerRank); a full recomputation runs them again.
        const bool full = recompute == Recompute::Full;
        const Sharding hiddenSharding{sh.batch, sh.seq, sh.tp};
        Value up, act, gate, hidden;
        if (full) {
            up = linear(e, sh, f.a2full, w.w1, 0, "mlp/up_recompute");
            act = activation(e, up, "mlp/act_recompute");
            hidden = act;
            if (m.gatedMlp) {
                gate = linear(e, sh, f.a2full, w.w3, 0, "mlp/gate_recompute");
                hidden = e.binary("multiply", act, gate, "mlp/act_recompute.fused/glu");
            }
        } else {
            up = e.arg("mlp_up", {sh.b, sh.s, m.ffn}, hiddenSharding);
            if (m.gatedMlp)
                gate = e.arg("mlp_gate", {sh.b, sh.s, m.ffn}, hiddenSharding);
            if (sh.fp8) // kept as the transposed FP8 copy the down projection's weight gradient reads
                hidden = e.arg("mlp_hidden", {m.ffn, sh.b, sh.s}, {sh.tp, sh.batch, sh.seq}, kE4m3);
            else
                hidden = e.arg("mlp_hidden", {sh.b, sh.s, m.ffn}, hiddenSharding);
        }
        const Fp8Copies hiddenIn = full || !sh.fp8 ? wgradInput(e, sh, hidden, "mlp/down/wgrad")
                                                   : wgradInput(e, sh, {}, "mlp/down/wgrad", hidden);
        const LinearGrad down = linearBackward(
            e, sh, hiddenIn, w.w2, gradCopies(e, sh, dy, "mlp/down/output_grad", "mlp/gather_output_grad"), "mlp/down");
        keepPartial(down.dw, sh.weight(0), "mlp/down/wgrad_partial");
        e.scope("mlp/act_backward.fused");
        if (!full && m.gatedMlp) // the gated product's derivative needs the activation: recomputed in-kernel
            act = e.binary("multiply", up, e.unary("logistic", up, "sigmoid"), "gate");
        const Value dUp = e.binary("multiply", down.dx, e.unary("logistic", up, "dsigmoid"), "dact");
        e.scope("");
        const Fp8Copies a2In = wgradInput(e, sh, f.a2full, "mlp/up/wgrad", f.a2t);
        const LinearGrad upGrad =
            linearBackward(e, sh, a2In, w.w1, gradCopies(e, sh, dUp, "mlp/up/output_grad"), "mlp/up");
        keepPartial(upGrad.dw, sh.weight(1), "mlp/up/wgrad_partial");
        da2 = upGrad.dx;
        if (m.gatedMlp) {
            const Value dGate = e.binary("multiply", down.dx, act, "mlp/act_backward.fused/dglu");
            const LinearGrad gateGrad =
                linearBackward(e, sh, a2In, w.w3, gradCopies(e, sh, dGate, "mlp/gate/output_grad"), "mlp/gate");
            keepPartial(gateGrad.dw, sh.weight(1), "mlp/gate/wgrad_partial");
            da2 = e.binary("add", da2, gateGrad.dx, "mlp/sum_dgrad");
        }
    } else {
        // Experts: the forward dispatch again (recomputed permutation), the expert matmuls'
        // data and weight gradients, and the combine's all-to-all in reverse.
        // Sequences routed in groups as in the forward pass (routingGroup).
        const std::int64_t group = routingGroup(sh, sh.s);
        const std::int64_t b = sh.b / group, s = sh.s * group, k = m.topK, experts = m.experts;
        const std::int64_t capacity = expertCapacity(sh, s);
        const bool exact = s * k == experts * capacity;
        const Axes dp = sh.dataReplicas;
        const Axes& ep = sh.experts;
        const Value dyFull = e.constrain(dy, sh.full(), "mlp/gather_output_grad");
        e.scope("router_backward.fused");
        const Value logits = e.matmul(f.a2full, w.router, 0, "logits");
        const Value dLogits = e.binary("multiply", logits, logits, "dsoftmax");
        e.scope("");
        const Value routerGrad = e.dot(f.a2full, dLogits, {}, {}, {0, 1}, {0, 1}, "router/wgrad");
        keepPartial(routerGrad, {{}, {}}, "router/wgrad_partial");
        const bool byHops = sh.parallel.dispatchesByHybridEp() || !exact;
        const auto toExperts = [&](const Value& layerTokens, const std::string& what) {
            const Value tokens = group > 1 ? e.reshape(layerTokens, {b, s, sh.h}, "moe/group") : layerTokens;
            if (byHops)
                return routeToExperts(e, sh, tokenRoute(sh), tokens, what);
            const Value copies = e.broadcast(tokens, {0, 1, 3}, {b, s, k, sh.h}, what + "_copies");
            const Value byExpert =
                e.reshape(e.reshape(copies, {b, s * k, sh.h}, what), {b, experts, capacity, sh.h}, what);
            return e.constrain(byExpert, {dp, ep, {}, {}}, what);
        };
        const bool full = recompute == Recompute::Full;
        // The tokens the experts read, row-wise ([b, E, C, h]) for the recomputed up and gate
        // projections and, as their weight gradients read them, [E, h, b, C] (bf16: [E, b, C, h]).
        // Without a full recomputation they were kept, under FP8 as that transposed FP8 copy.
        Fp8Copies tokens;
        if (full) {
            const Value dispatched = toExperts(f.a2full, "moe/dispatch");
            tokens = quantize(e, sh, dispatched, Fp8Operand::Value, "moe/expert_up_recompute_cast", Copies::Both,
                              {1, 3, 0, 2});
            if (!sh.fp8)
                tokens.cols = e.transpose(dispatched, {1, 0, 2, 3}, "moe/expert_layout");
        } else if (sh.fp8) {
            tokens.cols = e.arg("dispatched", {experts, sh.h, b, capacity}, {ep, {}, dp, {}}, kE4m3);
        } else {
            const Value dispatched = e.arg("dispatched", {b, experts, capacity, sh.h}, {dp, ep, {}, {}});
            tokens = {dispatched, e.transpose(dispatched, {1, 0, 2, 3}, "moe/expert_layout")};
        }
        const Value dDispatched = toExperts(dyFull, "moe/combine_backward");
        // dDispatched [b, E, C, h] -> [E, b, C, h] as the expert outputs are laid out.
        const Value dDown = e.transpose(dDispatched, {1, 0, 2, 3}, "moe/combine_backward");
        // FP8: each incoming gradient cast once, with its transposed copy (gradCopies).
        const Fp8Copies dDown8 = gradCopies(e, sh, dDown, "moe/expert_down/output_grad", {}, 1);
        const Sharding expertHidden{ep, dp, {}, sh.tp};
        const Dims expertHiddenShape{experts, b, capacity, m.expertFfn};
        const Value up = full ? expertDot(e, sh, tokens.rows, Fp8Operand::Value, w.e1, Fp8Operand::Value, {1}, {0}, {3},
                                          {1}, "moe/expert_up_recompute")
                              : e.arg("expert_up", expertHiddenShape, expertHidden);
        const Value act = activation(e, up, "moe/expert_act_recompute");
        Value hidden = act;
        if (!w.e3.name.empty())
            hidden = e.binary("multiply", act,
                              full ? expertDot(e, sh, tokens.rows, Fp8Operand::Value, w.e3, Fp8Operand::Value, {1}, {0},
                                               {3}, {1}, "moe/expert_gate_recompute")
                                   : e.arg("expert_gate", expertHiddenShape, expertHidden),
                              "moe/expert_act_recompute.fused/glu");
        // A weight gradient of the experts [E, in, out] over the tokens (b, C).
        const auto expertWgrad = [&](const Fp8Copies& in, const Fp8Copies& grad, const std::string& what) {
            return sh.fp8 ? e.dot(in.cols, grad.cols, {0}, {0}, {2, 3}, {2, 3}, what)
                          : e.dot(in.cols, grad.rows, {0}, {0}, {1, 2}, {1, 2}, what);
        };
        // d(hidden) [E, b, C, f] = dDown [E, b, C, h] x e2 [E, f, h]^T; d(e2) [E, f, h] over b, C.
        const Value dHidden = e.dot(dDown8.rows, w.e2, {0}, {0}, {3}, {2}, "moe/expert_down/dgrad");
        const Value dE2 =
            expertWgrad(wgradInput(e, sh, hidden, "moe/expert_down/wgrad", {}, 1), dDown8, "moe/expert_down/wgrad");
        keepPartial(dE2, {ep, sh.tp, {}}, "moe/expert_down/wgrad_partial", &dp);
        e.scope("moe/expert_act_backward.fused");
        const Value dUp = e.binary("multiply", dHidden, e.unary("logistic", up, "dsigmoid"), "dact");
        e.scope("");
        const Fp8Copies dUp8 = gradCopies(e, sh, dUp, "moe/expert_up/output_grad", {}, 1);
        // d(dispatched) [E, b, C, h] = dUp [E, b, C, f] x e1 [E, h, f]^T; d(e1) [E, h, f].
        Value dIn = e.dot(dUp8.rows, w.e1, {0}, {0}, {3}, {2}, "moe/expert_up/dgrad");
        const Value dE1 = expertWgrad(tokens, dUp8, "moe/expert_up/wgrad");
        keepPartial(dE1, {ep, {}, sh.tp}, "moe/expert_up/wgrad_partial", &dp);
        if (!w.e3.name.empty()) {
            const Fp8Copies dGate =
                gradCopies(e, sh, e.binary("multiply", dHidden, act, "moe/expert_act_backward.fused/dglu"),
                           "moe/expert_gate/output_grad", {}, 1);
            dIn = e.binary("add", dIn, e.dot(dGate.rows, w.e3, {0}, {0}, {3}, {2}, "moe/expert_gate/dgrad"),
                           "moe/sum_dgrad");
            const Value dE3 = expertWgrad(tokens, dGate, "moe/expert_gate/wgrad");
            keepPartial(dE3, {ep, {}, sh.tp}, "moe/expert_gate/wgrad_partial", &dp);
        }
        // Back to the tokens' owners (the dispatch all-to-all in reverse), summed over the k copies.
        const Value dByExpert = e.transpose(dIn, {1, 0, 2, 3}, "moe/unpermute_backward");
        if (byHops) {
            da2 = routeToTokens(e, sh, tokenRoute(sh), dByExpert, s, "moe/dispatch_backward");
        } else {
            const Value back = e.constrain(dByExpert, {sh.batch, {}, {}, {}}, "moe/dispatch_backward");
            da2 = e.reduce(e.reshape(back, {b, s, k, sh.h}, "moe/unpermute_backward"), {2}, "add", "moe/sum_copies");
        }
        if (group > 1)
            da2 = e.reshape(da2, {sh.b, sh.s, sh.h}, "moe/group");
        if (!w.s1.name.empty()) {
            const Value sUp =
                full ? linear(e, sh, f.a2full, w.s1, 0, "shared_experts/up_recompute")
                     : e.arg("shared_up", {b, s, m.expertFfn * m.sharedExperts}, {sh.batch, sh.seq, sh.tp});
            const LinearGrad sDown = linearBackward(
                e, sh,
                wgradInput(e, sh, activation(e, sUp, "shared_experts/act_recompute"), "shared_experts/down/wgrad"),
                w.s2, gradCopies(e, sh, dyFull, "shared_experts/down/output_grad"), "shared_experts/down");
            keepPartial(sDown.dw, sh.weight(0), "shared_experts/down/wgrad_partial");
            const Fp8Copies sIn = wgradInput(e, sh, f.a2full, "shared_experts/up/wgrad");
            const Fp8Copies dShared = gradCopies(e, sh, sDown.dx, "shared_experts/up/output_grad");
            const LinearGrad sUpGrad = linearBackward(e, sh, sIn, w.s1, dShared, "shared_experts/up");
            keepPartial(sUpGrad.dw, sh.weight(1), "shared_experts/up/wgrad_partial");
            if (!w.s3.name.empty()) {
                const LinearGrad sGate = linearBackward(e, sh, sIn, w.s3, dShared, "shared_experts/gate");
                keepPartial(sGate.dw, sh.weight(1), "shared_experts/gate/wgrad_partial");
                da2 = e.binary("add", da2, sGate.dx, "shared_experts/sum_dgrad");
            }
            da2 = e.binary("add", da2, e.constrain(sUpGrad.dx, sh.full(), "shared_experts/reduce_dgrad"),
                           "shared_experts/sum_dgrad");
        }
    }
    const Value da2Done = e.constrain(da2, sh.act(), "mlp/reduce_dgrad");
    const auto [dNorm2, dLn2] = normBackward(e, sh, f.x2, da2Done, w.ln2, "mlp/norm_backward");
    keepPartial(dLn2, {{}}, "mlp/norm_backward/dgamma_partial");
    const Value dx2 = e.binary("add", dy, dNorm2, "mlp/residual_backward");

    // Attention: d(context) from the output projection, then the core, then Q/K/V.
    const LinearGrad out = linearBackward(
        e, sh, wgradInput(e, sh, f.o2, "attention/out/wgrad", f.o2t), w.wo,
        gradCopies(e, sh, dx2, "attention/out/output_grad", "attention/gather_output_grad"), "attention/out");
    keepPartial(out.dw, sh.weight(0), "attention/out/wgrad_partial");
    const bool flash = sh.parallel.flashAttention;
    const Value dCtx = e.transpose(
        e.reshape(out.dx, {sh.b, sh.s, sh.kv, sh.g, sh.d}, "attention/split_heads"), {0, 2, 1, 3, 4},
        flash ? sh.flashScope("core_backward") + "/input_layout" : "attention/split_heads"); // [b, kv, s, g, d]
    // Flash attention's backward kernel recomputes the probabilities from Q, K and the saved row
    // statistics on chip, in the same kernel as the gradients (Dao 2023, FlashAttention-2, Algorithm
    // 2): the score-sized tensors never reach device memory, also after a full recomputation, whose
    // forward kernel produced only the output.
    const Value p = flash ? attentionProbabilities(e, sh, f.q5, f.k4, sh.flashScope("core_backward")) : f.p;
    e.scope(flash ? sh.flashScope("core_backward") : "attention/core_backward");
    Value dP = e.dot(dCtx, f.v4, {0, 1}, {0, 2}, {4}, {3}, "dprobabilities"); // [b, kv, s, g, ctx]
    const bool dropped = !flash && !f.dropped.out.name.empty();
    if (dropped) {
        // Dropout's backward: one kernel reads the gradient and the mask.
        e.scope("attention/core_backward/dropout_backward.fused");
        dP = e.binary("multiply", dP, e.convert(f.dropped.mask, dP.type, "keep"), "keep");
    }
    // The softmax's backward: one kernel that reads dP and p and writes dS (Megatron-LM's fused
    // softmax backward, PyTorch's softmax_backward_data), unless flash attention's kernel holds it.
    if (!flash)
        e.scope("attention/core_backward/softmax_backward.fused");
    const Value rowSum = e.reduce(e.binary("multiply", dP, p, "dsoftmax"), {4}, "add", "dsoftmax");
    const Value dS = e.binary(
        "multiply", p, e.binary("subtract", dP, e.broadcast(rowSum, {0, 1, 2, 3}, dP.shape, "dsoftmax"), "dsoftmax"),
        "dsoftmax");
    e.scope(flash ? sh.flashScope("core_backward") : "attention/core_backward");
    const Value dQ = e.dot(dS, f.k4, {0, 1}, {0, 2}, {4}, {1}, "dq");                                // [b, kv, s, g, d]
    const Value dK = e.dot(dS, f.q5, {0, 1}, {0, 2}, {2, 3}, {1, 3}, "dk");                          // [b, kv, ctx, d]
    const Value dV = e.dot(dropped ? f.dropped.out : p, dCtx, {0, 1}, {0, 1}, {2, 3}, {2, 3}, "dv"); // [b, kv, ctx, d]
    e.scope("");
    const Value dQ2 =
        e.reshape(e.transpose(dQ, {0, 2, 1, 3, 4},
                              flash ? sh.flashScope("core_backward") + "/dq_layout" : "attention/merge_heads_backward"),
                  {sh.b, sh.s, sh.n * sh.d}, "attention/merge_heads_backward");
    const auto kvGrad = [&](const Value& g, const std::string& what) {
        // [b, ctx, kv, d]; flash attention's backward kernel writes dK and dV in that layout.
        Value t = e.transpose(g, {0, 2, 1, 3},
                              flash ? sh.flashScope("core_backward") + "/" + what.substr(10) + "_layout" : what);
        if (!sh.seq.empty()) // the gathered keys' gradient goes back to their owners: a reduce-scatter over "cp"
            t = e.constrain(t, {sh.batch, sh.seq, sh.tp, {}}, what + "_context_parallel");
        return e.reshape(t, {sh.b, sh.s, sh.kv * sh.d}, what);
    };
    Value dQr = dQ2, dK2 = kvGrad(dK, "attention/dk"), dV2 = kvGrad(dV, "attention/dv");
    if (!m.learnedPositions) {
        dQr = rotary(e, sh, dQr, "attention/rotary_q_backward");
        dK2 = rotary(e, sh, dK2, "attention/rotary_k_backward");
    }
    const Fp8Copies a1In = wgradInput(e, sh, f.a1full, "attention/qkv/wgrad", f.a1t);
    const LinearGrad gq =
        linearBackward(e, sh, a1In, w.wq, gradCopies(e, sh, dQr, "attention/q/output_grad"), "attention/q");
    const LinearGrad gk =
        linearBackward(e, sh, a1In, w.wk, gradCopies(e, sh, dK2, "attention/k/output_grad"), "attention/k");
    const LinearGrad gv =
        linearBackward(e, sh, a1In, w.wv, gradCopies(e, sh, dV2, "attention/v/output_grad"), "attention/v");
    keepPartial(gq.dw, sh.weight(1), "attention/q/wgrad_partial");
    keepPartial(gk.dw, sh.weight(1), "attention/k/wgrad_partial");
    keepPartial(gv.dw, sh.weight(1), "attention/v/wgrad_partial");
    const Value da1 =
        e.binary("add", e.binary("add", gq.dx, gk.dx, "attention/sum_dgrad"), gv.dx, "attention/sum_dgrad");
    const Value da1Done = e.constrain(da1, sh.act(), "attention/reduce_dgrad");
    const auto [dNorm1, dLn1] = normBackward(e, sh, f.x, da1Done, w.ln1, "attention/norm_backward");
    keepPartial(dLn1, {{}}, "attention/norm_backward/dgamma_partial");
    const Value dx = e.binary("add", dx2, dNorm1, "attention/residual_backward");

    std::vector<Value> results{dx};
    std::vector<Sharding> shardings{sh.act()};
    results.insert(results.end(), grads.begin(), grads.end());
    shardings.insert(shardings.end(), gradShardings.begin(), gradShardings.end());
    std::vector<Axes> partial{{}};
    partial.insert(partial.end(), gradPartial.begin(), gradPartial.end());
    // Results keep the partial sums: the gradient-sync block completes them once per step.
    return e.module(moduleName(Block::LayerBackward, moe), sh.mesh, results, shardings,
                    header(sh, Block::LayerBackward, moe), partial);
}

/// A parameter of a unit (a layer, the embedding, the head) as the layer blocks use it: its global
/// shape and its sharding over the stage mesh without data parallelism.
struct Param {
    std::string name;
    Dims shape;
    Sharding sharding;
    bool expert = false; ///< a routed expert: replicated over "dp" only (its "ep" shards differ)
};

/// The parameters whose gradients a gradient-sync block completes (`block` one of the three syncs);
/// also the contents of an FSDP unit's flat parameter.
std::vector<Param> unitParameters(const Shape& sh, Block block, bool moe)
{
    const TransformerConfig& m = sh.model;
    std::vector<Param> params;
    const Axes& ep = sh.experts;
    if (block == Block::LayerGradientSync) {
        params.push_back({"ln1", {sh.h}, {{}}});
        params.push_back({"wq", {sh.h, sh.n * sh.d}, {{}, sh.tp}});
        params.push_back({"wk", {sh.h, sh.kv * sh.d}, {{}, sh.tp}});
        params.push_back({"wv", {sh.h, sh.kv * sh.d}, {{}, sh.tp}});
        params.push_back({"wo", {sh.n * sh.d, sh.h}, {sh.tp, {}}});
        params.push_back({"ln2", {sh.h}, {{}}});
        if (!moe) {
            params.push_back({"w1", {sh.h, m.ffn}, {{}, sh.tp}});
            if (m.gatedMlp)
                params.push_back({"w3", {sh.h, m.ffn}, {{}, sh.tp}});
            params.push_back({"w2", {m.ffn, sh.h}, {sh.tp, {}}});
        } else {
            params.push_back({"router", {sh.h, m.experts}, {{}, {}}});
            params.push_back({"expert_w1", {m.experts, sh.h, m.expertFfn}, {ep, {}, sh.tp}, true});
            if (m.gatedMlp)
                params.push_back({"expert_w3", {m.experts, sh.h, m.expertFfn}, {ep, {}, sh.tp}, true});
            params.push_back({"expert_w2", {m.experts, m.expertFfn, sh.h}, {ep, sh.tp, {}}, true});
            if (m.sharedExperts > 0) {
                const std::int64_t f = m.expertFfn * m.sharedExperts;
                params.push_back({"shared_w1", {sh.h, f}, {{}, sh.tp}});
                if (m.gatedMlp)
                    params.push_back({"shared_w3", {sh.h, f}, {{}, sh.tp}});
                params.push_back({"shared_w2", {f, sh.h}, {sh.tp, {}}});
            }
        }
    } else if (block == Block::EmbeddingGradientSync) {
        params.push_back({"embedding", {sh.v, sh.h}, {sh.tp, {}}});
        if (m.learnedPositions)
            params.push_back({"positions", {sh.s, sh.h}, {{}, {}}});
    } else {
        params.push_back({"final_norm", {sh.h}, {{}}});
        // A tied output layer on the embedding's own stage shares the embedding's gradient.
        if (!(m.tiedEmbeddings && sh.parallel.pp == 1))
            params.push_back({"output", {sh.h, sh.v}, {{}, sh.tp}});
    }
    return params;
}

/// An FSDP unit's flat parameter on one device (PyTorch FSDP's FlatParameter; DeepSpeed ZeRO-3
/// flattens likewise): the device's tensor- and expert-parallel pieces of the unit's dense (or routed
/// expert) parameters, concatenated, then padded to a multiple of the `ways` data-parallel shards so
/// that any data-parallel size works (PyTorch FSDP pads each FlatParameter's element count to a
/// multiple of the sharding world size, pytorch/pytorch#99054; Zhao et al. 2023, PyTorch FSDP,
/// Sec. 3.2). Elements per device after padding.
std::int64_t flatParameterLength(const Shape& sh, const std::vector<Param>& params, bool expert, std::int64_t ways)
{
    std::int64_t length = 0;
    for (const Param& p : params) {
        if (p.expert != expert)
            continue;
        std::int64_t local = 1;
        for (std::size_t d = 0; d < p.shape.size(); ++d)
            local *= p.shape[d] / sh.ways(p.sharding[d]);
        length += local;
    }
    return (length + ways - 1) / ways * ways;
}

/// The data axes an FSDP unit's dense or expert flat parameter is sharded over: every data axis of
/// a shard group for dense parameters; "dp" for routed experts (their "ep" shards differ).
Axes fsdpAxes(const Shape& sh, bool expert)
{
    if (!expert)
        return sh.zeroAxes;
    return sh.mesh.dp > 1 ? Axes{"dp"} : Axes{};
}

/// The flat parameter's global shape, [tp, L] (with a leading "ep" dimension for routed experts), as
/// each device holds its shard (over "tp" and the FSDP axes) and as the unit computes on it, gathered
/// (over "tp" only).
struct FlatParameter {
    Dims shape;
    Sharding shard;
    Sharding whole;
};

FlatParameter flatParameter(const Shape& sh, const std::vector<Param>& params, bool expert)
{
    const Axes axes = fsdpAxes(sh, expert);
    const std::int64_t length = flatParameterLength(sh, params, expert, sh.ways(axes));
    if (!expert)
        return {{sh.mesh.tp, length}, {sh.tp, axes}, {sh.tp, {}}};
    const Axes& ep = sh.experts;
    return {{sh.mesh.ep, sh.mesh.tp, length}, {ep, sh.tp, axes}, {ep, sh.tp, {}}};
}

bool hasExperts(const std::vector<Param>& params)
{
    for (const Param& p : params)
        if (p.expert)
            return true;
    return false;
}

/// ZeRO-3 / FSDP: all-gathers one unit's flat parameter in bf16 before the unit computes (its
/// forward pass, and again its backward pass when parameters are resharded after the forward). One
/// collective per unit, as FSDP issues it; the layer blocks then use the whole parameters.
std::string parameterGatherBlock(const Shape& sh, Block block, Block unit, bool moe)
{
    Emitter e;
    const std::vector<Param> params = unitParameters(sh, unit, moe);
    std::vector<Value> results;
    std::vector<Sharding> shardings;
    for (bool expert : {false, true}) {
        if (expert && !hasExperts(params))
            continue;
        const FlatParameter flat = flatParameter(sh, params, expert);
        const Value shard = e.arg(expert ? "expert_parameters" : "parameters", flat.shape, flat.shard);
        const char* name = sh.fullySharded() ? (expert ? "fsdp/all_gather_experts" : "fsdp/all_gather")
                                             : (expert ? "zero/all_gather_experts" : "zero/all_gather");
        Value gathered = e.constrain(shard, flat.whole, name);
        const std::int64_t ways = sh.ways(fsdpAxes(sh, expert));
        if (sh.fullySharded() && sh.parallel.fsdpCopyOut && ways > 1) {
            // FSDP2's copy-out (foreach_all_gather_copy_out, on the compute stream once the gather
            // has ended): the gathered buffer holds each rank's shards one after the other, each
            // shard the slices of every parameter; split_with_sizes_copy writes each parameter's
            // slices together, a transpose of [ranks, shard] into [shard, ranks]. The bytes moved
            // are the unit's, read once and written once.
            Dims split = flat.shape;
            split.back() = ways;
            split.push_back(flat.shape.back() / ways);
            Dims perm(split.size());
            std::iota(perm.begin(), perm.end(), std::int64_t{0});
            std::swap(perm[perm.size() - 2], perm[perm.size() - 1]);
            // (An op's scope is its `what` without the last part: the copy shows under fsdp/copy_out.)
            const std::string what = expert ? "fsdp/copy_out_experts/copy" : "fsdp/copy_out/copy";
            gathered = e.reshape(e.transpose(e.reshape(gathered, split, what), perm, what), flat.shape, what);
        }
        results.push_back(gathered);
        shardings.push_back(flat.whole);
    }
    return e.module(moduleName(block, moe), sh.mesh, results, shardings, header(sh, block, moe));
}

/// FP8 training: casts a layer's matrices to FP8 once, each in one kernel that writes the row-wise copy
/// the forward pass reads and the transposed copy the data gradients read (Transformer Engine's
/// cast-transpose of a weight on the first microbatch, cached for the others: Megatron-Core's
/// is_first_microbatch, megatron/core/pipeline_parallel/schedules.py; under FSDP, whose gathered
/// weights do not outlive a microbatch, once per gather).
std::string layerWeightCastBlock(const Shape& sh, bool moe)
{
    Emitter e;
    std::vector<Value> results;
    std::vector<Sharding> shardings;
    for (const Param& p : unitParameters(sh, Block::LayerGradientSync, moe)) {
        if (p.shape.size() < 2 || p.name == "router")
            continue; // the norms and the router stay in bf16
        const Value w = e.arg(p.name, p.shape, p.sharding);
        const Dims perm = featuresFirst(p.shape.size(), p.shape.size() - 2); // the last two swapped
        // The transposed copy from the cast one: a kernel reading a block's argument twice would be
        // charged twice (one byte a parameter more than Transformer Engine's cast-transpose, once a step).
        Fp8Copies q = quantize(e, sh, w, Fp8Operand::Value, p.name + "/fp8_cast", Copies::Rows);
        q.cols = e.transpose(q.rows, perm, p.name + "/fp8_transpose");
        Sharding transposed;
        for (std::int64_t d : perm)
            transposed.push_back(p.sharding[static_cast<std::size_t>(d)]);
        results.insert(results.end(), {q.rows, q.cols});
        shardings.insert(shardings.end(), {p.sharding, transposed});
    }
    return e.module(moduleName(Block::LayerWeightCast, moe), sh.mesh, results, shardings,
                    header(sh, Block::LayerWeightCast, moe));
}

/// A gradient-sync block: the partial weight gradients of one layer (or of the embedding/output
/// layer) in, completed gradients out. Data-parallel gradient reduction runs in fp32 (Megatron-LM's
/// main gradients; Llama 3, Sec. 3.3.4, reduce-scatters in fp32 too; PyTorch FSDP with
/// reduce_dtype=float32 as torchtitan configures it), or in bf16 with gradReduceFp32 off. Under ZeRO the unit's
/// gradients are one flat buffer, padded to a multiple of the shards, reduce-scattered in one collective: FSDP's
/// post-backward reduce-scatter of the flat parameter's gradient (ZeRO-3, after every microbatch's
/// backward pass), and the distributed optimizer's reduce-scatter of its contiguous, padded gradient
/// buffer (ZeRO-1/2: Megatron-LM's DistributedOptimizer and DeepSpeed both flatten, so any
/// data-parallel size shards evenly, whatever the parameters' shapes).
std::string gradientSyncBlock(const Shape& sh, Block block, bool moe)
{
    Emitter e;
    const std::vector<Param> params = unitParameters(sh, block, moe);
    std::vector<Value> results;
    std::vector<Sharding> shardings;
    const char* gradType = sh.parallel.gradReduceFp32 ? "f32" : "bf16";
    if (sh.parallel.zero != ZeroStage::None && sh.training && !sh.zeroAxes.empty()) {
        const bool fsdp = sh.fullySharded();
        for (bool expert : {false, true}) {
            if (expert && !hasExperts(params))
                continue;
            const FlatParameter flat = flatParameter(sh, params, expert);
            const Sharding& shard = flat.shard;
            const Axes partial = concat(expert ? sh.dataReplicas : sh.batch, sh.seq);
            const Value g = e.partialArg(expert ? "d_expert_parameters" : "d_parameters", flat.shape, flat.whole,
                                         partial, gradType);
            // Reduce-scatter inside the shard group; under HSDP the shard is then all-reduced across
            // the replica groups (the partial sums' axes that no shard group spans).
            Axes pending;
            for (const std::string& axis : partial)
                if (std::find(shard.back().begin(), shard.back().end(), axis) == shard.back().end())
                    pending.push_back(axis);
            const std::string what =
                std::string(fsdp ? "fsdp" : "zero") + (expert ? "/reduce_scatter_experts" : "/reduce_scatter");
            Value scattered = g;
            if (!pending.empty())
                scattered = e.constrain(g, shard, what, pending);
            const std::string across =
                std::string(fsdp ? "hsdp" : "zero") + (expert ? "/all_reduce_experts" : "/all_reduce");
            results.push_back(e.constrain(scattered, shard, pending.empty() ? what : across));
            shardings.push_back(shard);
        }
        return e.module(moduleName(block, moe), sh.mesh, results, shardings, header(sh, block, moe));
    }
    for (const Param& p : params) {
        // Experts are replicated over "dp" only (their "ep" shards differ), dense parameters over every data axis.
        const Axes replicas = p.expert ? sh.dataReplicas : sh.batch;
        const Axes partial = concat(replicas, sh.seq);
        const Value g = e.partialArg("d_" + p.name, p.shape, p.sharding, partial, gradType);
        results.push_back(e.constrain(g, p.sharding, p.name + "/reduce_gradient"));
        shardings.push_back(p.sharding);
    }
    return e.module(moduleName(block, moe), sh.mesh, results, shardings, header(sh, block, moe));
}

std::string embeddingForwardBlock(const Shape& sh)
{
    Emitter e;
    const Value ids = e.arg("tokens", {sh.b, sh.s}, {sh.batch, sh.seq}, "i32");
    const Value table = e.arg("embedding", {sh.v, sh.h}, sh.weight(0));
    Value x = e.gather(table, ids, "embedding/lookup");
    if (sh.model.learnedPositions) {
        const Value positions = e.arg("positions", {sh.s, sh.h}, {{}, {}});
        x = e.binary("add", x, e.broadcast(positions, {1, 2}, x.shape, "embedding/positions"), "embedding/positions");
    }
    // Vocabulary-parallel: each rank looked up the rows it holds; the sum completes the embedding.
    const Value out = e.constrain(x, sh.act(), "embedding/reduce");
    return e.module(moduleName(Block::EmbeddingForward, false), sh.mesh, {out}, {sh.act()},
                    header(sh, Block::EmbeddingForward, false));
}

std::string embeddingBackwardBlock(const Shape& sh)
{
    Emitter e;
    const Value ids = e.arg("tokens", {sh.b, sh.s}, {sh.batch, sh.seq}, "i32");
    const Value dy = e.arg("dy", {sh.b, sh.s, sh.h}, sh.act());
    const Value dyFull = e.constrain(dy, sh.full(), "embedding/gather_grad");
    std::vector<Value> results;
    std::vector<Sharding> shardings;
    const Value grad = e.scatterAdd({sh.v, sh.h}, ids, dyFull, "embedding/wgrad");
    results.push_back(e.constrain(grad, {sh.tp, {}}, "embedding/wgrad_partial", sh.dataAxes));
    shardings.push_back({sh.tp, {}});
    if (sh.model.learnedPositions) {
        const Value pg = e.reduce(dyFull, {0}, "add", "positions/wgrad");
        results.push_back(e.constrain(pg, {{}, {}}, "positions/wgrad_partial", sh.dataAxes));
        shardings.push_back({{}, {}});
    }
    return e.module(moduleName(Block::EmbeddingBackward, false), sh.mesh, results, shardings,
                    header(sh, Block::EmbeddingBackward, false), std::vector<Axes>(results.size(), sh.dataAxes));
}

std::string headForwardBlock(const Shape& sh)
{
    Emitter e;
    const Value x = e.arg("x", {sh.b, sh.s, sh.h}, sh.act());
    const Value gamma = e.arg("final_norm", {sh.h}, sh.vectorSharding());
    const Value w = e.arg("output", {sh.h, sh.v}, sh.weight(1));
    const Value normed = norm(e, sh, x, gamma, "head/norm");
    const Value full = e.constrain(normed, sh.full(), "head/gather_sequence");
    const Value logits = linear(e, sh, full, w, 0, "head/logits", Fp8::Never); // [b, s, v], vocabulary over "tp"
    if (!sh.training) {
        // Greedy sampling: the most likely token, a max over the vocabulary split over "tp".
        const Value best =
            e.constrain(e.reduce(logits, {2}, "maximum", "head/sample"), {sh.batch, sh.seq}, "head/sample_reduce");
        return e.module(moduleName(Block::HeadForward, false), sh.mesh, {best}, {{sh.batch, sh.seq}},
                        header(sh, Block::HeadForward, false));
    }
    // Vocabulary-parallel cross-entropy (Megatron-LM, megatron/core/tensor_parallel/cross_entropy.py):
    // the logits upcast to fp32, their max, the shifted exponentials and their sum (completed over
    // "tp"), and the probabilities the backward pass reads; the loss is averaged over the
    // data-parallel replicas. By default each step is a kernel of its own over the fp32 logits, as
    // Megatron-LM runs it (38 bytes per logit here, 14 in the backward pass). Fused (Transformer
    // Engine's cross entropy), one pass over the bf16 logits finds max and sum, a second writes the
    // gradient in bf16 (6 bytes per logit, 4 in the backward pass).
    Value sumDone;
    if (sh.parallel.fusedCrossEntropy) {
        e.scope("head/loss.fused");
        const Value f32 = e.convert(logits, "f32", "upcast");
        const Value m = e.reduce(f32, {2}, "maximum", "max");
        const Value shifted = e.binary("subtract", f32, e.broadcast(m, {0, 1}, f32.shape, "max"), "shift");
        const Value sum = e.reduce(e.unary("exponential", shifted, "exp"), {2}, "add", "sum");
        e.scope("");
        sumDone = e.constrain(sum, {sh.batch, sh.seq}, "head/loss_reduce");
        e.scope("head/loss_gradient.fused");
        const Value again = e.convert(logits, "f32", "upcast");
        const Value ex = e.unary(
            "exponential", e.binary("subtract", again, e.broadcast(m, {0, 1}, again.shape, "max"), "shift"), "exp");
        const Value probs = e.binary("divide", ex, e.broadcast(sumDone, {0, 1}, ex.shape, "sum"), "probabilities");
        (void)e.convert(probs, "bf16", "gradient"); // written for the backward pass
        e.scope("");
    } else {
        e.scope("head/loss");
        const Value f32 = e.convert(logits, "f32", "upcast");
        const Value m = e.reduce(f32, {2}, "maximum", "max");
        e.scope("head/loss_shift.fused");
        const Value shifted = e.binary("subtract", f32, e.broadcast(m, {0, 1}, f32.shape, "max"), "shift");
        e.scope("head/loss");
        const Value ex = e.unary("exponential", shifted, "exp");
        const Value sum = e.reduce(ex, {2}, "add", "sum");
        e.scope("");
        sumDone = e.constrain(sum, {sh.batch, sh.seq}, "head/loss_reduce");
        e.scope("head/loss_normalise.fused");
        (void)e.binary("divide", ex, e.broadcast(sumDone, {0, 1}, ex.shape, "sum"), "probabilities"); // saved
        e.scope("");
    }
    const Value loss = e.reduce(e.unary("log", sumDone, "head/log"), {0, 1}, "add", "head/mean");
    return e.module(moduleName(Block::HeadForward, false), sh.mesh, {loss}, {{}},
                    header(sh, Block::HeadForward, false));
}

std::string headBackwardBlock(const Shape& sh)
{
    Emitter e;
    const Value x = e.arg("x", {sh.b, sh.s, sh.h}, sh.act());
    const Value gamma = e.arg("final_norm", {sh.h}, sh.vectorSharding());
    const Value w = e.arg("output", {sh.h, sh.v}, sh.weight(1));
    const Value probs = e.arg("probabilities", {sh.b, sh.s, sh.v}, {sh.batch, sh.seq, sh.tp},
                              sh.parallel.fusedCrossEntropy ? "bf16" : "f32");
    const Value normed = norm(e, sh, x, gamma, "head/norm_recompute");
    const Value full = e.constrain(normed, sh.full(), "head/gather_sequence");
    // The softmax less the one-hot target (an in-place scatter, not counted) times the incoming
    // gradient (cross_entropy.py's mul_), then back to bf16 (the upcast's backward); fused, the
    // gradient is bf16 already and only scaled.
    e.scope("head/loss_backward.fused");
    const Value dLogitsRaw =
        e.binary("multiply", probs, e.broadcast(e.scalar("1.0", probs.type), {}, probs.shape, "dloss"), "dlogits");
    e.scope("head/loss_backward");
    const Value dLogits = e.convert(dLogitsRaw, "bf16", "downcast");
    e.scope("");
    const LinearGrad g = linearBackward(e, sh, {full, full}, w, {dLogits, dLogits}, "head/logits", Fp8::Never);
    const Value dxDone = e.constrain(g.dx, sh.act(), "head/reduce_dgrad");
    const auto [dx, dGamma] = normBackward(e, sh, x, dxDone, gamma, "head/norm_backward");
    const Value dw = e.constrain(g.dw, {{}, sh.tp}, "head/logits/wgrad_partial", sh.dataAxes);
    const Value dg = e.constrain(dGamma, {{}}, "head/norm_backward/dgamma_partial", sh.dataAxes);
    return e.module(moduleName(Block::HeadBackward, false), sh.mesh, {dx, dw, dg}, {sh.act(), {{}, sh.tp}, {{}}},
                    header(sh, Block::HeadBackward, false), {{}, sh.dataAxes, sh.dataAxes});
}

/// Mixed-precision Adam over the stage's parameters as one flat buffer per rank [tp, P / tp]: read
/// the fp32 gradient, master weight and two moments, write the three back and the bf16 weight
/// (Megatron-LM's fused multi-tensor Adam). Under ZeRO each data-parallel rank updates its shard,
/// then the bf16 weights are all-gathered (ZeRO-3 keeps them sharded: the layers gather them).
std::string optimizerBlock(const Shape& sh, double stageParameters)
{
    Emitter e;
    const std::int64_t t = sh.mesh.tp;
    std::int64_t ways = 1;
    for (const std::string& axis : sh.zeroAxes)
        ways *= sh.axisSize(axis);
    // Per tensor-parallel rank, rounded up to a multiple of the data-parallel shards.
    const double perRank = std::ceil(stageParameters / static_cast<double>(t));
    const std::int64_t length = ((static_cast<std::int64_t>(perRank) + ways - 1) / ways) * ways;
    const bool zero = sh.parallel.zero != ZeroStage::None;
    const Sharding shard{sh.tp, zero ? sh.zeroAxes : Axes{}};
    const Dims shape{t, length};
    const Value grad = e.arg("gradients", shape, shard, "f32");
    const Value master = e.arg("master_weights", shape, shard, "f32");
    const Value m1 = e.arg("adam_m", shape, shard, "f32");
    const Value m2 = e.arg("adam_v", shape, shard, "f32");
    e.scope("optimizer/adam.fused");
    // m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; w -= lr m / (sqrt(v) + eps) (Kingma & Ba
    // 2015, with the bias corrections folded into lr); hyperparameters as broadcast constants.
    const auto constant = [&](const char* value, const char* what) {
        return e.broadcast(e.scalar(value, "f32"), {}, shape, what);
    };
    const Value nm1 = e.binary("add", e.binary("multiply", m1, constant("0.9", "beta1"), "beta1"),
                               e.binary("multiply", grad, constant("0.1", "beta1"), "beta1"), "m");
    const Value g2 = e.binary("multiply", grad, grad, "square");
    const Value nm2 = e.binary("add", e.binary("multiply", m2, constant("0.95", "beta2"), "beta2"),
                               e.binary("multiply", g2, constant("0.05", "beta2"), "beta2"), "v");
    const Value denom = e.binary("add", e.unary("sqrt", nm2, "sqrt"), constant("1.0e-8", "epsilon"), "epsilon");
    const Value step =
        e.binary("multiply", e.binary("divide", nm1, denom, "step"), constant("1.0e-4", "learning_rate"), "step");
    const Value nw = e.binary("subtract", master, step, "update");
    const Value bf = e.convert(nw, "bf16", "cast");
    e.scope("");
    std::vector<Value> results{nw, nm1, nm2};
    std::vector<Sharding> shardings{shard, shard, shard};
    if (zero && !sh.parallel.gathersParametersPerLayer()) {
        results.push_back(e.constrain(bf, {sh.tp, {}}, "optimizer/gather_weights"));
        shardings.push_back({sh.tp, {}});
    } else {
        results.push_back(bf);
        shardings.push_back(shard);
    }
    return e.module(moduleName(Block::Optimizer, false), sh.mesh, results, shardings,
                    header(sh, Block::Optimizer, false));
}

} // namespace

std::string StageMesh::text() const
{
    std::string out;
    const bool split = splitsExperts();
    for (const auto& [name, size] : {std::pair{"dpr", dpr}, std::pair{"dp", dp}, std::pair{"ep", split ? 1 : ep},
                                     std::pair{"epo", split ? ep / epi : 1}, std::pair{"epi", split ? epi : 1},
                                     std::pair{"cp", cp}, std::pair{"tp", tp}})
        if (size > 1)
            out += (out.empty() ? "" : ",") + std::string(name) + "=" + std::to_string(size);
    return out.empty() ? "dp=1" : out;
}

StageMesh stageMesh(const ParallelConfig& parallel)
{
    StageMesh mesh;
    mesh.ep = parallel.ep;
    if (parallel.moeDispatcher == MoeDispatcher::HybridEp)
        mesh.epi = parallel.expertRanksPerDomain();
    mesh.dp = parallel.dp / std::max<std::int64_t>(1, parallel.ep);
    if (parallel.zero == ZeroStage::Parameters && parallel.phase == Phase::Training &&
        parallel.shardGroup() < parallel.dp && mesh.dp % parallel.shardGroup() == 0) {
        mesh.dpr = mesh.dp / parallel.shardGroup();
        mesh.dp = parallel.shardGroup();
    }
    mesh.cp = parallel.cp;
    mesh.tp = parallel.tp;
    return mesh;
}

std::string_view displayName(Block block)
{
    switch (block) {
    case Block::EmbeddingForward:
        return "embedding forward";
    case Block::EmbeddingBackward:
        return "embedding backward";
    case Block::LayerForward:
        return "layer forward";
    case Block::LayerBackward:
        return "layer backward";
    case Block::LayerGradientSync:
        return "layer gradient sync";
    case Block::HeadForward:
        return "head forward";
    case Block::HeadBackward:
        return "head backward";
    case Block::HeadGradientSync:
        return "head gradient sync";
    case Block::EmbeddingGradientSync:
        return "embedding gradient sync";
    case Block::Optimizer:
        return "optimizer";
    case Block::LayerParameterGather:
        return "layer parameter gather";
    case Block::HeadParameterGather:
        return "head parameter gather";
    case Block::EmbeddingParameterGather:
        return "embedding parameter gather";
    case Block::LayerWeightCast:
        return "layer weight cast";
    }
    return "block";
}

std::string generateBlock(Block block, const TransformerConfig& model, const ParallelConfig& parallel, bool moe,
                          double stageParameters)
{
    const Shape sh(model, parallel);
    switch (block) {
    case Block::EmbeddingForward:
        return embeddingForwardBlock(sh);
    case Block::EmbeddingBackward:
        return embeddingBackwardBlock(sh);
    case Block::LayerForward:
        return layerForwardBlock(sh, moe);
    case Block::LayerBackward:
        return layerBackwardBlock(sh, moe);
    case Block::LayerGradientSync:
    case Block::HeadGradientSync:
    case Block::EmbeddingGradientSync:
        return gradientSyncBlock(sh, block, moe);
    case Block::HeadForward:
        return headForwardBlock(sh);
    case Block::HeadBackward:
        return headBackwardBlock(sh);
    case Block::Optimizer:
        return optimizerBlock(sh, stageParameters);
    case Block::LayerParameterGather:
        return parameterGatherBlock(sh, block, Block::LayerGradientSync, moe);
    case Block::HeadParameterGather:
        return parameterGatherBlock(sh, block, Block::HeadGradientSync, false);
    case Block::EmbeddingParameterGather:
        return parameterGatherBlock(sh, block, Block::EmbeddingGradientSync, false);
    case Block::LayerWeightCast:
        return layerWeightCastBlock(sh, moe);
    }
    throw std::invalid_argument("unknown block");
}

} // namespace flint::core::model
