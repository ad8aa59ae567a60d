// SPDX-License-Identifier: MIT
// Parallel strategies: names, validity, memory per rank and the figures MFU needs (docs/models.md).
#include "core/model/modelconfig.h"
#include "core/model/pipelineschedule.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

namespace flint::core::model {
namespace {

std::string number(std::int64_t value)
{
    return std::to_string(value);
}

/// "1, 2, 4 or 8": the divisors of `n` that are at most `limit`.
/// "1, 2, 4 or 8".
std::string orList(const std::vector<std::int64_t>& values)
{
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + number(values[i]);
    return text;
}

std::string divisorList(std::int64_t n, std::int64_t limit = 1 << 20)
{
    std::vector<std::int64_t> values;
    for (std::int64_t d = 1; d <= n && d <= limit; ++d)
        if (n % d == 0)
            values.push_back(d);
    return orList(values);
}

constexpr double kBf16 = 2;

/// The tensor-parallel degrees up to 64 that every rule on TP accepts for `model` under `parallel`
/// (heads, key/value heads, FFN sizes, and the tokens of a CP shard under sequence parallelism), as
/// "1, 2, 4 or 8": one list, so that no suggestion offers a value another rule refuses.
std::string validTpList(const TransformerConfig& model, const ParallelConfig& parallel)
{
    const std::int64_t seq = parallel.sequenceLength(model);
    const bool dense = !model.isMoe() || model.denseLayers > 0;
    std::vector<std::int64_t> values;
    for (std::int64_t t = 1; t <= 64; ++t) {
        bool ok = model.heads % t == 0 && model.kvHeads % t == 0 && (!dense || model.ffn % t == 0) &&
                  (!model.isMoe() || model.expertFfn % t == 0);
        if (ok && t > 1 && parallel.sequenceParallel && parallel.phase != Phase::Decode && parallel.cp > 0)
            ok = (seq / parallel.cp) % t == 0;
        if (ok)
            values.push_back(t);
    }
    return orList(values);
}

/// The expert-parallel degrees that divide both the experts of `model` and DP, as "1, 2 or 4": one
/// list, so that following one suggestion does not break the other rule.
std::string validEpList(const TransformerConfig& model, const ParallelConfig& parallel)
{
    std::vector<std::int64_t> values;
    for (std::int64_t e = 1; e <= model.experts && e <= parallel.dp; ++e)
        if (model.experts % e == 0 && parallel.dp % e == 0)
            values.push_back(e);
    return orList(values);
}

/// " (EP 4 or 8 with a DP they divide)": the degrees that divide the experts but not DP, or "".
std::string expertDivisorsBeyondDp(const TransformerConfig& model, const ParallelConfig& parallel)
{
    std::vector<std::int64_t> values;
    for (std::int64_t e = 2; e <= model.experts; ++e)
        if (model.experts % e == 0 && parallel.dp % e != 0)
            values.push_back(e);
    if (values.empty())
        return {};
    return " (EP " + orList(values) + (values.size() == 1 ? " with a DP it divides)" : " with a DP they divide)");
}

} // namespace

/// Layers of pipeline stage `stage`: a list of global layer indices (chunks in order).
std::vector<std::int64_t> virtualStageSizes(const TransformerConfig& model, const ParallelConfig& parallel)
{
    const std::int64_t chunks = parallel.schedule == PipelineSchedule::Interleaved ? parallel.virtualStages : 1;
    const std::int64_t n = std::max<std::int64_t>(1, parallel.pp * chunks);
    const std::int64_t q = (model.layers + n - 1) / n;
    std::vector<std::int64_t> sizes(static_cast<std::size_t>(n), q);
    // Llama 3's uneven split (Llama Team 2024, Sec. 3.3.2): the first and last stages, which also
    // hold the embedding and the loss, take one layer fewer; then the second and second-to-last...
    std::int64_t deficit = q * n - model.layers;
    for (std::int64_t k = 0; deficit > 0; ++k) {
        const std::int64_t at = k % 2 == 0 ? k / 2 : n - 1 - k / 2;
        --sizes[static_cast<std::size_t>(at)];
        --deficit;
    }
    return sizes;
}

std::vector<std::vector<std::int64_t>> chunkLayers(const TransformerConfig& model, const ParallelConfig& parallel,
                                                   std::int64_t stage)
{
    const std::vector<std::int64_t> sizes = virtualStageSizes(model, parallel);
    const std::int64_t chunks = static_cast<std::int64_t>(sizes.size()) / std::max<std::int64_t>(1, parallel.pp);
    std::vector<std::int64_t> first(sizes.size() + 1, 0);
    for (std::size_t v = 0; v < sizes.size(); ++v)
        first[v + 1] = first[v] + sizes[v];
    std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(chunks));
    for (std::int64_t c = 0; c < chunks; ++c) {
        const auto v = static_cast<std::size_t>(c * parallel.pp + stage);
        for (std::int64_t l = first[v]; l < first[v + 1]; ++l)
            out[static_cast<std::size_t>(c)].push_back(l);
    }
    return out;
}

std::vector<std::int64_t> stageLayers(const TransformerConfig& model, const ParallelConfig& parallel,
                                      std::int64_t stage)
{
    std::vector<std::int64_t> layers;
    for (const auto& chunk : chunkLayers(model, parallel, stage))
        layers.insert(layers.end(), chunk.begin(), chunk.end());
    return layers;
}

std::string_view displayName(Phase phase)
{
    switch (phase) {
    case Phase::Training:
        return "training";
    case Phase::Prefill:
        return "prefill";
    case Phase::Decode:
        return "decode";
    }
    return "?";
}

std::string_view displayName(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe:
        return "GPipe";
    case PipelineSchedule::OneFOneB:
        return "1F1B";
    case PipelineSchedule::Interleaved:
        return "interleaved 1F1B";
    }
    return "?";
}

std::string_view displayName(Recompute recompute)
{
    switch (recompute) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "?";
}

std::string_view displayName(MoeDispatcher dispatcher)
{
    return dispatcher == MoeDispatcher::HybridEp ? "HybridEP" : "all-to-all";
}

std::string_view displayName(Fp8Scaling scaling)
{
    return scaling == Fp8Scaling::Current ? "current" : "delayed";
}

std::int64_t ParallelConfig::expertRanksPerDomain() const
{
    const std::int64_t between = std::max<std::int64_t>(1, tp * cp);
    const std::int64_t inDomain = std::max<std::int64_t>(1, nvlinkDomain / between);
    return std::min(std::max<std::int64_t>(1, ep), inDomain);
}

std::string_view displayName(ZeroStage zero)
{
    switch (zero) {
    case ZeroStage::None:
        return "none";
    case ZeroStage::OptimizerState:
        return "ZeRO-1";
    case ZeroStage::Gradients:
        return "ZeRO-2";
    case ZeroStage::Parameters:
        return "ZeRO-3 (FSDP)";
    }
    return "?";
}

std::optional<Phase> parsePhase(std::string_view text)
{
    const std::string key = nameKey(text);
    if (key == "train" || key == "training")
        return Phase::Training;
    if (key == "prefill")
        return Phase::Prefill;
    if (key == "decode")
        return Phase::Decode;
    return std::nullopt;
}

std::optional<PipelineSchedule> parseSchedule(std::string_view text)
{
    const std::string key = nameKey(text);
    if (key == "gpipe")
        return PipelineSchedule::GPipe;
    if (key == "1f1b" || key == "onefoneb" || key == "pipedreamflush")
        return PipelineSchedule::OneFOneB;
    if (key == "interleaved" || key == "interleaved1f1b" || key == "vpp")
        return PipelineSchedule::Interleaved;
    return std::nullopt;
}

std::optional<Recompute> parseRecompute(std::string_view text)
{
    const std::string key = nameKey(text);
    if (key == "none" || key == "no" || key == "off")
        return Recompute::None;
    if (key == "selective")
        return Recompute::Selective;
    if (key == "full")
        return Recompute::Full;
    return std::nullopt;
}

std::optional<ZeroStage> parseZero(std::string_view text)
{
    const std::string key = nameKey(text);
    if (key == "0" || key == "none" || key == "zero0" || key == "off")
        return ZeroStage::None;
    if (key == "1" || key == "zero1")
        return ZeroStage::OptimizerState;
    if (key == "2" || key == "zero2")
        return ZeroStage::Gradients;
    if (key == "3" || key == "zero3" || key == "fsdp")
        return ZeroStage::Parameters;
    return std::nullopt;
}

std::string ParallelConfig::describe() const
{
    std::string text = "TP " + number(tp);
    if (cp > 1)
        text += " x CP " + number(cp);
    text += " x PP " + number(pp) + " x DP " + number(dp);
    if (ep > 1)
        text += " (EP " + number(ep) + ")";
    text += " = " + number(ranks()) + (ranks() == 1 ? " rank" : " ranks");
    if (splitsSequence())
        text += ", SP";
    if (tp > 1 && tpCommOverlap && phase == Phase::Training)
        text += ", TP overlap";
    if (phase == Phase::Training) {
        if (pp > 1) {
            text += ", " + std::string(displayName(schedule));
            if (schedule == PipelineSchedule::Interleaved)
                text += " (" + number(virtualStages) + (virtualStages == 1 ? " chunk)" : " chunks)");
        }
        if (effectiveGlobalBatch() % (dp * microbatchSize) == 0)
            text += ", " + number(microbatches()) + (microbatches() == 1 ? " microbatch of " : " microbatches of ") +
                    number(microbatchSize);
        else // an invalid batch, described as given
            text +=
                ", global batch " + number(effectiveGlobalBatch()) + " in microbatches of " + number(microbatchSize);
        text += zero == ZeroStage::None ? std::string(", no ZeRO") : ", " + std::string(displayName(zero));
        if (zero == ZeroStage::Parameters && shardGroup() < dp)
            text += " hybrid, shard groups of " + number(shardGroup());
        if (zero == ZeroStage::Parameters && !reshardAfterForward)
            text += " without reshard after forward";
        if (zero == ZeroStage::Parameters && fsdpCopyOut)
            text += ", FSDP2 copy-out";
        if (zero != ZeroStage::Parameters && dp > 1 && !overlapGradReduce)
            text += ", gradients reduced after the backward pass";
        if (zero != ZeroStage::Parameters && gathersParametersPerLayer())
            text += ", weights gathered during the forward pass";
        text += recompute == Recompute::None ? std::string(", no recompute")
                                             : ", " + std::string(displayName(recompute)) + " recompute";
        if (fusedCrossEntropy)
            text += ", fused cross entropy";
        if (eagerKernels)
            text += ", eager kernels";
        if (torchCrossEntropy && !fusedCrossEntropy)
            text += ", PyTorch cross entropy";
        if (dp > 1 && !gradReduceFp32)
            text += ", bf16 gradient reduction";
        if (adamParamRemainders)
            text += ", Adam master weights as remainders";
    } else {
        text += ", " + std::string(displayName(phase)) + ", batch " + number(effectiveGlobalBatch());
        if (effectiveGlobalBatch() % (dp * microbatchSize) != 0) // an invalid batch, described as given
            text += " in microbatches of " + number(microbatchSize);
        else if (microbatches() > 1)
            text += " in " + number(microbatches()) + " microbatches of " + number(microbatchSize);
    }
    if (dispatchesByHybridEp())
        text += ", HybridEP dispatch (NVLink domains of " + number(nvlinkDomain) + ")";
    text += ", " + std::string(core::displayName(dtype));
    if (dtype == Precision::FP8 && fp8Scaling == Fp8Scaling::Current)
        text += " (current scaling)";
    return text;
}

ParallelConfig defaultStrategy(const TransformerConfig& model)
{
    ParallelConfig published;
    published.tp = 8;
    published.pp = 8;
    published.dp = 16;
    published.globalBatch = 1536;
    if (validateStrategy(model, published).empty())
        return published;
    for (std::int64_t tp : {8, 4, 2, 1}) {
        ParallelConfig node;
        node.tp = tp;
        node.dp = 8 / tp;
        if (validateStrategy(model, node).empty())
            return node;
    }
    return {};
}

std::vector<StrategyProblem> validateStrategy(const TransformerConfig& model, const ParallelConfig& parallel)
{
    std::vector<StrategyProblem> problems;
    const auto add = [&problems](std::string message, std::string suggestion) {
        problems.push_back(StrategyProblem{std::move(message), std::move(suggestion)});
    };
    if (const std::string problem = model.validate(); !problem.empty()) {
        add(model.title + ": " + problem, "fix the model definition");
        return problems;
    }
    for (const auto& [name, value] :
         {std::pair{"TP", parallel.tp}, std::pair{"PP", parallel.pp}, std::pair{"DP", parallel.dp},
          std::pair{"CP", parallel.cp}, std::pair{"EP", parallel.ep},
          std::pair{"microbatch size", parallel.microbatchSize}, std::pair{"virtual stages", parallel.virtualStages}})
        if (value < 1)
            add(std::string(name) + " must be at least 1, not " + number(value), std::string(name) + " 1");
    // Sizes whose products must stay inside 64-bit arithmetic (tokens x hidden x vocab, ranks x ops).
    constexpr std::int64_t kMaxTokens = std::int64_t{1} << 25;
    if (parallel.seqLen > kMaxTokens || parallel.decodeContext > kMaxTokens)
        add("a sequence (or decode context) of more than 2^25 tokens is not modelled",
            "a sequence length up to " + number(kMaxTokens));
    if (parallel.globalBatch > (std::int64_t{1} << 24) || parallel.microbatchSize > (std::int64_t{1} << 20))
        add("a global batch above 2^24 sequences or a microbatch above 2^20 is not modelled", "a smaller batch");
    if (!problems.empty())
        return problems;

    const std::int64_t tp = parallel.tp;
    const std::size_t problemsBeforeTp = problems.size();
    if (model.heads % tp != 0)
        add("TP " + number(tp) + " does not divide the " + number(model.heads) + " attention heads of " + model.title,
            "TP " + validTpList(model, parallel));
    else if (model.kvHeads % tp != 0)
        add("TP " + number(tp) + " does not divide the " + number(model.kvHeads) + " key/value heads of " +
                model.title + " (replicating key/value heads is not modelled)",
            "TP " + validTpList(model, parallel));
    const bool hasDenseLayers = !model.isMoe() || model.denseLayers > 0;
    if (hasDenseLayers && model.ffn % tp != 0)
        add("TP " + number(tp) + " does not divide the FFN size " + number(model.ffn),
            "TP " + validTpList(model, parallel));
    if (model.isMoe() && model.expertFfn % tp != 0)
        add("TP " + number(tp) + " does not divide the expert FFN size " + number(model.expertFfn),
            "TP " + validTpList(model, parallel));

    const std::int64_t chunks = parallel.schedule == PipelineSchedule::Interleaved ? parallel.virtualStages : 1;
    if (parallel.schedule != PipelineSchedule::Interleaved && parallel.virtualStages != 1)
        add("virtual stages (" + number(parallel.virtualStages) + ") need the interleaved schedule",
            "schedule interleaved, or virtual stages 1");
    // An uneven split is accepted as Llama 3 makes it: at most the first and last stage one layer short.
    // Any split with at least one layer per (virtual) stage: layers spread evenly, the stages at the
    // ends (which also hold the embedding and the loss) shortest (virtualStageSizes). Published runs
    // use such splits: Llama 3 405B's 126 layers over 16 stages, DeepSeek-V3's 61 over 16-way
    // PP (DeepSeek-AI 2024, Sec. 3.2), Megatron-LM's --decoder-first/last-pipeline-num-layers.
    // Llama 3 balances its pipeline further (Sec. 3.3.2: "the first model chunk on the first stage has
    // only the embedding, and the last model chunk on the last stage has only output projection and
    // loss calculation"): the two (virtual) stages at the ends may hold no layer, so up to layers + 2.
    const std::int64_t virtualCount = parallel.pp * chunks;
    if (virtualCount > model.layers + 2) {
        const std::int64_t most = (model.layers + 2) / chunks;
        add("PP " + number(parallel.pp) + (chunks > 1 ? " x " + number(chunks) + " virtual stages" : std::string()) +
                " leaves stages without any of the " + number(model.layers) + " layers of " + model.title,
            "PP at most " + number(most) +
                (chunks > 1 ? " with " + number(chunks) + " virtual stages" : std::string()));
    }
    // With one chunk per rank there is nothing to interleave: Megatron-LM runs the interleaved
    // schedule only with a virtual pipeline size above 1, and 1F1B is the same pipeline.
    if (parallel.schedule == PipelineSchedule::Interleaved && parallel.pp > 1 && parallel.virtualStages == 1)
        add("the interleaved schedule with 1 virtual stage per pipeline rank is plain 1F1B",
            "virtual stages 2 or more, or schedule 1F1B");
    if (parallel.schedule == PipelineSchedule::Interleaved && parallel.pp == 1)
        add(parallel.virtualStages > 1 ? "virtual stages (" + number(parallel.virtualStages) +
                                             ") split a pipeline stage, and there is one (PP 1)"
                                       : std::string("the interleaved schedule needs PP > 1"),
            parallel.virtualStages > 1 ? "PP > 1, or virtual stages 1" : "schedule 1F1B");

    const std::int64_t seq = parallel.sequenceLength(model);
    if (parallel.phase != Phase::Decode) {
        if (seq % parallel.cp != 0 || (parallel.cp > 1 && (seq / parallel.cp) % 2 != 0))
            add("CP " + number(parallel.cp) + " does not split the sequence of " + number(seq) +
                    " tokens into equal halves per rank (ring attention balances causal work with 2 x CP chunks)",
                "CP " + divisorList(seq / 2, 64) + " (CP must divide half the sequence)");
        // Only when TP fits the model: turning sequence parallelism off would not fix the rest.
        else if (parallel.splitsSequence() && (seq / parallel.cp) % tp != 0 && problems.size() == problemsBeforeTp)
            add("sequence parallelism needs TP " + number(tp) + " to divide the " + number(seq / parallel.cp) +
                    " tokens of a CP shard",
                "turning sequence parallelism off (--no-sp), or TP " + validTpList(model, parallel));
    } else if (parallel.cp > 1) {
        add("context parallelism splits the prompt; decode generates one token at a time", "CP 1 for decode");
    }

    if (parallel.ep > 1) {
        if (!model.isMoe())
            add("EP " + number(parallel.ep) + " needs a mixture-of-experts model; " + model.title + " is dense",
                "EP 1");
        else if (model.experts % parallel.ep != 0)
            add("EP " + number(parallel.ep) + " does not divide the " + number(model.experts) + " experts",
                "EP " + validEpList(model, parallel) + expertDivisorsBeyondDp(model, parallel));
        if (parallel.cp > 1)
            add("expert parallelism with context parallelism is not modelled", "CP 1 or EP 1");
        if (parallel.moeDispatcher == MoeDispatcher::HybridEp && parallel.nvlinkDomain < 1) {
            add("the NVLink domain of the HybridEP dispatcher must hold at least 1 rank, not " +
                    number(parallel.nvlinkDomain),
                "NVLink domain 8 (a DGX or HGX node)");
        } else if (parallel.moeDispatcher == MoeDispatcher::HybridEp &&
                   parallel.ep % parallel.expertRanksPerDomain() != 0) {
            // HybridEP's domains split the EP group evenly: its network hop joins ranks of equal
            // local index, one per domain.
            const std::int64_t between = std::max<std::int64_t>(1, tp * parallel.cp);
            std::string sizes;
            for (std::int64_t d = 1; d <= parallel.ep; ++d)
                if (parallel.ep % d == 0)
                    sizes += (sizes.empty() ? "" : ", ") + number(d * between);
            add("an NVLink domain of " + number(parallel.nvlinkDomain) + " ranks holds " +
                    number(parallel.expertRanksPerDomain()) + " of the EP ranks" +
                    (between > 1 ? " (they are TP x CP = " + number(between) + " ranks apart)" : std::string()) +
                    ", which does not divide EP " + number(parallel.ep),
                "an NVLink domain of " + sizes + " ranks (8 on DGX and HGX nodes)");
        }
        if (parallel.dp % parallel.ep != 0)
            add("EP " + number(parallel.ep) + " must divide DP " + number(parallel.dp) +
                    " (expert-parallel groups are carved out of the data-parallel ranks)",
                "EP " + (model.isMoe() ? validEpList(model, parallel) : std::string("1")) +
                    ", or a DP that EP divides");
    }

    if (parallel.hsdpShard > 0) {
        if (parallel.zero != ZeroStage::Parameters || parallel.phase != Phase::Training)
            add("hybrid sharding (HSDP) is a form of ZeRO-3 training", "ZeRO 3, or no HSDP shard group");
        else if (parallel.ep > 1)
            add("hybrid sharding (HSDP) with expert parallelism is not modelled", "EP 1, or no HSDP shard group");
        else if (parallel.dp % parallel.hsdpShard != 0)
            add("the HSDP shard group of " + number(parallel.hsdpShard) + " does not divide DP " + number(parallel.dp),
                "an HSDP shard group of " + divisorList(parallel.dp));
    }

    const std::int64_t batch = parallel.effectiveGlobalBatch();
    if (batch % (parallel.dp * parallel.microbatchSize) != 0)
        add("the global batch of " + number(batch) + " sequences does not split into DP " + number(parallel.dp) +
                " x microbatches of " + number(parallel.microbatchSize),
            "a global batch that is a multiple of " + number(parallel.dp * parallel.microbatchSize));
    else if (parallel.schedule == PipelineSchedule::Interleaved && parallel.microbatches() % parallel.pp != 0)
        add("the interleaved schedule needs the " + number(parallel.microbatches()) +
                " microbatches per pipeline to be a multiple of PP " + number(parallel.pp),
            "a global batch that is a multiple of " + number(parallel.dp * parallel.microbatchSize * parallel.pp));

    // Ops count FLOPs and bytes in 64 bits. The largest per microbatch are the attention's backward
    // pass (2.5 x 4 s_q s_k d, counted as if unmasked) and the widest matmul's; beyond 2^62 their sums
    // would wrap and the estimate come out absurdly fast, so such a sequence is refused instead.
    {
        const double seqLen = static_cast<double>(parallel.sequenceLength(model));
        const double tokens = static_cast<double>(parallel.microbatchSize) * seqLen / static_cast<double>(parallel.cp);
        const double attention = 10.0 * tokens * seqLen * static_cast<double>(model.heads) *
                                 static_cast<double>(model.headDimension()) / static_cast<double>(tp);
        const double widest =
            static_cast<double>(std::max({model.ffn, model.expertFfn, model.vocab, 3 * model.hidden}));
        const double matmul = 2.0 * tokens * static_cast<double>(model.hidden) * widest;
        const double limit = 4.6e18; // 2^62
        if (std::max(attention, matmul) > limit) {
            // Attention grows with the square of the sequence, matmuls linearly.
            const double scale =
                std::min(attention > limit ? std::sqrt(limit / attention) : 1.0, matmul > limit ? limit / matmul : 1.0);
            add("a microbatch of " + number(parallel.microbatchSize) + " x " + number(parallel.sequenceLength(model)) +
                    " tokens gives ops of more FLOPs than the estimator's 64-bit counts hold (" +
                    number(static_cast<std::int64_t>(std::max(attention, matmul) / 1e18)) + "e18, the bound 4.6e18)",
                "a sequence of at most about " + number(static_cast<std::int64_t>(seqLen * scale)) +
                    " tokens, more CP or TP, or a smaller model");
        }
    }

    // ZeRO-3 with PP runs as PyTorch FSDP under torch.distributed.pipelining (torchtitan); ZeRO-2 has
    // no such framework: DeepSpeed rejects ZeRO-2 and -3 with its pipeline engine.
    if (parallel.phase == Phase::Training && parallel.pp > 1 && parallel.zero == ZeroStage::Gradients)
        add(std::string(displayName(parallel.zero)) +
                " with pipeline parallelism is not modelled (DeepSpeed rejects it)",
            "ZeRO-1, or ZeRO-3 (FSDP as torchtitan runs it with PP), or PP 1");
    if (parallel.phase != Phase::Training && parallel.zero != ZeroStage::None &&
        parallel.zero != ZeroStage::OptimizerState)
        add("ZeRO stages apply to training", "ZeRO none for inference");
    if (parallel.dtype != Precision::BF16 && parallel.dtype != Precision::FP8)
        add("matmul precision " + std::string(core::displayName(parallel.dtype)) + " is not modelled", "bf16 or fp8");
    return problems;
}

double activationBytesPerLayer(const TransformerConfig& model, const ParallelConfig& parallel, std::int64_t layer)
{
    const double b = static_cast<double>(parallel.microbatchSize);
    const double seq = static_cast<double>(parallel.sequenceLength(model));
    const double s = seq / static_cast<double>(parallel.cp);
    const double h = static_cast<double>(model.hidden);
    const double t = static_cast<double>(parallel.tp);
    const double split = parallel.splitsSequence() ? t : 1.0;
    const double a = static_cast<double>(model.heads);
    const double k = static_cast<double>(model.kvHeads);
    const double d = static_cast<double>(model.headDimension());
    const double input = s * b * h * kBf16 / split;
    if (parallel.recompute == Recompute::Full)
        return input;
    // Under FP8 the inputs of the linear layers are kept as the FP8 copies their weight gradients
    // read (Transformer Engine saves the quantized input): one byte an element (docs/models.md).
    const double linearInput = parallel.dtype == Precision::FP8 ? 1.0 : kBf16;
    const bool moe = model.isMoeLayer(layer);
    double bytes = input + input / kBf16 * linearInput; // layer input, first norm's output
    bytes += b * s * (a + 2 * k) * d * kBf16 / t;       // Q, K, V
    if (parallel.recompute == Recompute::None) {
        bytes += b * s * a * d * linearInput / t; // attention output
        if (parallel.flashAttention) {
            bytes += b * a * s * 4 / t; // the kernel's row statistics
        } else {
            // The probabilities; with attention dropout also its one-byte mask and its output
            // (Korthikanti et al. 2022, Sec. 4.1: 5 a s^2 b bytes per layer).
            const double probabilities = b * a * s * seq / t;
            bytes += probabilities * (model.attentionDropout > 0 ? 2 * kBf16 + 1 : kBf16);
        }
    }
    // Residual sum, second norm's output (routed and dispatched in bf16 by a mixture of experts).
    bytes += input + (moe ? input : input / kBf16 * linearInput);
    const double up = model.gatedMlp ? 2.0 : 1.0;
    if (moe) {
        const double routed = b * s * static_cast<double>(model.topK);
        const double fe = static_cast<double>(model.expertFfn);
        bytes += routed * h * linearInput;                       // dispatched tokens
        bytes += routed * fe * (up * kBf16 + linearInput) / t;   // expert up-projection(s), activation
        bytes += b * s * static_cast<double>(model.experts) * 4; // router probabilities (fp32)
        if (model.sharedExperts > 0)
            bytes += b * s * (up + 1) * fe * static_cast<double>(model.sharedExperts) * kBf16 / t;
    } else {
        // Up-projection(s), activation.
        bytes += b * s * static_cast<double>(model.ffn) * (up * kBf16 + linearInput) / t;
    }
    return bytes;
}

MemoryBreakdown memoryPerRank(const TransformerConfig& model, const ParallelConfig& parallel)
{
    MemoryBreakdown busiest;
    if (!validateStrategy(model, parallel).empty())
        return busiest;
    const double t = static_cast<double>(parallel.tp);
    const double dp = static_cast<double>(parallel.dp);
    const double ep = static_cast<double>(parallel.ep);
    const bool training = parallel.phase == Phase::Training;
    const double weightBytes = !training && parallel.dtype == Precision::FP8 ? 1.0 : kBf16;
    const double seq = static_cast<double>(parallel.sequenceLength(model));
    const double b = static_cast<double>(parallel.microbatchSize);
    const double h = static_cast<double>(model.hidden);
    for (std::int64_t stage = 0; stage < parallel.pp; ++stage) {
        // Parameters on one rank of this stage: dense ones split over TP, experts over EP x TP.
        double dense = 0;
        double experts = 0;
        double matrices = 0; // the layers' matrices on this rank: what an FP8 recipe casts
        const std::vector<std::int64_t> layers = stageLayers(model, parallel, stage);
        for (std::int64_t layer : layers) {
            // Norms (and a router) are replicated over TP; matrices are split.
            const double replicated = 2 * h + (model.isMoeLayer(layer) ? h * static_cast<double>(model.experts) : 0.0);
            const double all = model.layerParameters(layer) - replicated;
            if (model.isMoeLayer(layer)) {
                const double routed = static_cast<double>(model.experts) * (model.gatedMlp ? 3.0 : 2.0) * h *
                                      static_cast<double>(model.expertFfn);
                experts += routed / (ep * t);
                dense += (all - routed) / t + replicated;
                matrices += routed / (ep * t) + (all - routed) / t;
            } else {
                dense += all / t + replicated;
                matrices += all / t;
            }
        }
        const double table = static_cast<double>(model.vocab) * h / t;
        if (stage == 0)
            dense += table + (model.learnedPositions ? static_cast<double>(model.seqLen) * h / t : 0.0);
        if (stage == parallel.pp - 1)
            dense += (model.tiedEmbeddings && stage == 0 ? 0.0 : table) + h;
        const double params = dense + experts;
        // Replicas of a dense parameter: DP x CP; of an expert: DP / EP (EP excludes CP). ZeRO shards
        // over all of them, or under hybrid sharding over one shard group (HSDP needs EP 1) and CP:
        // Megatron-Core's distributed optimizer shards over data and context parallel ranks
        // together, as PyTorch FSDP does over dp_shard x cp.
        const double shardDp = static_cast<double>(parallel.shardGroup());
        const double denseShards = parallel.zero == ZeroStage::None ? 1.0 : shardDp * static_cast<double>(parallel.cp);
        const double expertShards = parallel.zero == ZeroStage::None ? 1.0 : shardDp / ep;
        MemoryBreakdown m;
        // PyTorch FSDP keeps the sharded parameters in fp32 (its mixed precision casts a unit to bf16
        // when gathering it): they are the optimizer's master weights, so ZeRO-3 holds 4 bytes of
        // weights and 8 of Adam moments a parameter where ZeRO-0/1/2 hold 2 + 12 (DeepSpeed's ZeRO-3
        // keeps bf16 shards beside fp32 masters: 2 + 12).
        const bool fsdp = training && parallel.zero == ZeroStage::Parameters;
        m.weights = (fsdp ? 4.0 : weightBytes) *
                    (parallel.zero == ZeroStage::Parameters ? dense / denseShards + experts / expertShards : params);
        // FSDP under a pipeline schedule (PyTorch's pipelining: no reshard after a backward pass but
        // the last) ends every backward pass with all of the stage's units gathered.
        const bool pipelinedFsdp = fsdp && parallel.pp > 1;
        const bool twoUnitsGathered = fsdp && parallel.reshardAfterForward && !pipelinedFsdp;
        // FP8 training: each matrix cast once a step and kept for its microbatches, row-wise and
        // transposed (Transformer Engine's weight workspace): 2 bytes a parameter; under ZeRO-3 only
        // for the units gathered at once.
        if (training && parallel.dtype == Precision::FP8 && !layers.empty()) {
            const double held = twoUnitsGathered ? 2.0 : static_cast<double>(layers.size());
            m.weights += 2.0 * matrices / static_cast<double>(layers.size()) * held;
        }
        if (training) {
            // Megatron-LM accumulates gradients in fp32 main-grad buffers (bf16 ones without
            // grad_reduce_in_fp32); mixed-precision Adam keeps an fp32 master copy and two fp32
            // moments: 4 + 12 bytes per parameter (Rajbhandari et al. 2020, ZeRO, Sec. 3.1, with fp32
            // gradients as Megatron-LM keeps them).
            const bool shardGrads = parallel.zero >= ZeroStage::Gradients;
            m.gradients = (parallel.gradReduceFp32 ? 4.0 : 2.0) *
                          (shardGrads ? dense / denseShards + experts / expertShards : params);
            // FSDP under a pipeline schedule skips the gradient reduction of every microbatch but the
            // last and accumulates whole (unsharded) gradients in the reduction's dtype meanwhile
            // (FSDPParam.to_accumulated_grad_if_needed); each unit's reduce-scatter then frees them for
            // its shard, so at the peak the whole gradients are held, not the shards besides.
            if (pipelinedFsdp)
                m.gradients = (parallel.gradReduceFp32 ? 4.0 : 2.0) * params;
            const double adamBytes = fsdp ? 8.0 : parallel.adamParamRemainders ? 10.0 : 12.0;
            m.optimizer = adamBytes * (dense / denseShards + experts / expertShards);
            const std::vector<PipelineStep> order = pipelineOrder(
                parallel.schedule, parallel.pp, parallel.virtualStages, parallel.microbatches(), stage, true);
            const double inFlight = static_cast<double>(peakChunksInFlight(order));
            // The heaviest chunk, held inFlight times (a bound when chunks differ).
            double perChunk = 0;
            for (const auto& chunk : chunkLayers(model, parallel, stage)) {
                double bytes = 0;
                for (std::int64_t layer : chunk)
                    bytes += activationBytesPerLayer(model, parallel, layer);
                perChunk = std::max(perChunk, bytes);
            }
            m.activations = inFlight * perChunk;
            // Full recomputation: the layer whose backward pass runs holds its whole forward pass
            // again (the heaviest layer of the stage).
            if (parallel.recompute == Recompute::Full) {
                ParallelConfig kept = parallel;
                kept.recompute = Recompute::None;
                double layerBytes = 0;
                for (std::int64_t layer : layers)
                    layerBytes = std::max(layerBytes, activationBytesPerLayer(model, kept, layer));
                m.activations += layerBytes;
            }
            // The microbatch whose loss is being taken, per logit: a fused cross entropy writes its
            // gradient over the bf16 logits (Transformer Engine's: 2 bytes); Megatron-LM's
            // vocab-parallel cross entropy takes an fp32 copy beside them and computes the softmax and
            // its gradient in place (tensor_parallel/cross_entropy.py: 6 bytes); eager PyTorch's
            // F.cross_entropy on upcast logits 12 (ParallelConfig::torchCrossEntropy).
            if (stage == parallel.pp - 1) {
                const double perLogit = parallel.fusedCrossEntropy ? kBf16 : parallel.torchCrossEntropy ? 12.0 : 6.0;
                m.activations +=
                    b * seq / static_cast<double>(parallel.cp) * static_cast<double>(model.vocab) * perLogit / t;
            }
            // Gathered sequence-parallel activations (two in use at once), pipeline send and receive
            // buffers, and under ZeRO-3 two layers of gathered parameters (one in use, one prefetched).
            const double gathered = b * seq / static_cast<double>(parallel.cp) * h * kBf16;
            m.commBuffers = (parallel.tp > 1 ? 2 * gathered : 0.0) + (parallel.pp > 1 ? 2 * gathered / t : 0.0);
            // Without reshard after forward (or under a pipeline schedule) every layer of the stage stays
            // gathered until its backward pass. FSDP2 computes on copies of its gathered buffers and
            // frees a unit's buffer only at the next unit's copy-out (FSDPParamGroup.wait_for_unshard
            // keeps it in the communication context's all_gather_state), so while a unit computes, its
            // parameters, its buffer and the next unit's prefetched buffer are held: one unit more.
            if (parallel.zero == ZeroStage::Parameters && !layers.empty()) {
                const double units = twoUnitsGathered
                                         ? (parallel.fsdpCopyOut ? 3.0 : 2.0)
                                         : static_cast<double>(layers.size()) + (parallel.fsdpCopyOut ? 1.0 : 0.0);
                m.commBuffers += units * kBf16 * model.layerParameters(layers.front()) / t;
            }
        } else {
            // The KV cache of every sequence in flight on this stage, and one layer's working set.
            const double sequences = static_cast<double>(parallel.effectiveGlobalBatch()) / dp;
            const double context =
                parallel.phase == Phase::Decode
                    ? static_cast<double>(parallel.decodeContext > 0 ? parallel.decodeContext : seq) + 1
                    : seq;
            m.activations = static_cast<double>(layers.size()) * 2 * sequences * context *
                            static_cast<double>(model.kvHeads * model.headDimension()) * kBf16 / t;
            const double tokens = parallel.phase == Phase::Decode ? sequences : sequences * seq;
            m.commBuffers = tokens * (h + static_cast<double>(std::max(model.ffn, model.expertFfn)) / t) * kBf16;
        }
        if (m.total() > busiest.total())
            busiest = m;
    }
    return busiest;
}

double modelFlopsPerStep(const TransformerConfig& model, const ParallelConfig& parallel)
{
    // PaLM's model FLOPs (Chowdhery et al. 2022, Appendix B): per token, 6N + 12 L H Q T for
    // training, with N the parameters whose matmuls a token runs, L layers, H heads of size Q and T
    // the sequence length; the forward pass alone is a third of that. N is the activated parameters
    // outside the embedding tables (a lookup, no FLOPs) plus the output projection (the LM head, a
    // V x h matmul every token runs, tied to the input table or not): PaLM's own model ties it and
    // counts it in N, and nanoGPT's and torchtitan's MFU count it so too (they leave out only the
    // input table and the position table). Without it the MFU of a model with a large vocabulary
    // reads low: 13% for Llama 3 8B (128,256 x 4,096 against 7.0e9).
    const double n = model.activeParameters() - model.embeddingParameters() +
                     static_cast<double>(model.vocab) * static_cast<double>(model.hidden);
    const double seq = static_cast<double>(parallel.sequenceLength(model));
    const double attention = static_cast<double>(model.layers * model.heads * model.headDimension());
    const double sequences = static_cast<double>(parallel.effectiveGlobalBatch());
    switch (parallel.phase) {
    case Phase::Training:
        return (6 * n + 12 * attention * seq) * seq * sequences;
    case Phase::Prefill:
        return (2 * n + 4 * attention * seq) * seq * sequences;
    case Phase::Decode: {
        const double context = static_cast<double>(parallel.decodeContext > 0 ? parallel.decodeContext : seq) + 1;
        return (2 * n + 4 * attention * context) * sequences;
    }
    }
    return 0;
}

double pipelineBubbleFraction(const ParallelConfig& parallel)
{
    if (parallel.pp <= 1)
        return 0;
    const double chunks =
        parallel.schedule == PipelineSchedule::Interleaved ? static_cast<double>(parallel.virtualStages) : 1.0;
    const double p = static_cast<double>(parallel.pp);
    return (p - 1) / (chunks * static_cast<double>(parallel.microbatches()) + p - 1);
}

} // namespace flint::core::model
