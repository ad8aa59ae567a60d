// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/device.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Built-in models and parallel strategies (issue 7): what a user picks instead of an IR file. The
// generator (core/model/modelgenerator.h) turns a model and a strategy into StableHLO with shardings
// that goes through the MLIR frontend's partitioner and lowering like a user's IR.
namespace flint::core::model {

/// A decoder-only transformer as its publication gives it. Dense models leave the MoE fields 0.
struct TransformerConfig {
    std::string name;   ///< key, e.g. "gpt3-175b"
    std::string title;  ///< e.g. "GPT-3 175B"
    std::string source; ///< where the hyperparameters come from (paper, table, model card)
    std::int64_t layers = 0;
    std::int64_t hidden = 0;  ///< d_model
    std::int64_t heads = 0;   ///< attention (query) heads
    std::int64_t kvHeads = 0; ///< key/value heads (= heads without grouped-query attention)
    std::int64_t headDim = 0; ///< per head; 0: hidden / heads
    std::int64_t ffn = 0;     ///< FFN inner size of a dense layer
    std::int64_t vocab = 0;
    std::int64_t seqLen = 0; ///< training sequence length
    bool gatedMlp = false;   ///< SwiGLU/GeGLU: three FFN matrices instead of two
    // Mixture of experts: `experts` routed experts of inner size `expertFfn`, `topK` per token,
    // `sharedExperts` always-on experts, and the first `denseLayers` layers dense.
    std::int64_t experts = 0;
    std::int64_t topK = 0;
    std::int64_t expertFfn = 0;
    std::int64_t sharedExperts = 0;
    std::int64_t denseLayers = 0;
    bool tiedEmbeddings = false;   ///< the output projection reuses the token embedding (GPT-3)
    bool learnedPositions = false; ///< learned absolute position embeddings (GPT-3); else rotary
    /// Dropout probability on the attention probabilities in training (Megatron-LM's
    /// --attention-dropout, 0.1 by default in its GPT scripts; 0 in Llama-style recipes). It costs
    /// one kernel and a one-byte mask per probability where the probabilities are materialised
    /// (no flash attention); a flash kernel applies it on chip, which is not priced.
    double attentionDropout = 0;

    bool isMoe() const { return experts > 0; }
    /// Whether layer `layer` (0-based) is a mixture-of-experts layer.
    bool isMoeLayer(std::int64_t layer) const { return isMoe() && layer >= denseLayers; }
    std::int64_t headDimension() const { return headDim > 0 ? headDim : hidden / heads; }
    /// Parameters in total (embeddings included) and those a token activates (MoE: top-k experts).
    double parameters() const;
    double activeParameters() const;
    /// Parameters of one transformer layer (attention, FFN or experts, norms).
    double layerParameters(std::int64_t layer) const;
    /// Parameters of the embedding tables and the output projection (once when tied).
    double embeddingParameters() const;
    /// Checks the fields (positive sizes, heads dividing hidden, ...); "" when sound. `key`, when
    /// given, receives the model-file key the problem is about (for the file's line).
    std::string validate(std::string* key = nullptr) const;

    friend bool operator==(const TransformerConfig&, const TransformerConfig&) = default;
};

/// The built-in library: GPT-3 175B, Llama-3 8B / 70B / 405B, Mixtral 8x7B, a DeepSeek-V3-style MoE.
const std::vector<TransformerConfig>& builtinModels();
/// A built-in model by name, case-insensitively ("gpt3-175b", "llama3-70b", ...); nullptr if none.
const TransformerConfig* findModel(std::string_view name);
/// Reads a user's model file (format in docs/models.md: `key = value` lines, `#` comments). Throws
/// InputError with file and line for unknown keys, bad numbers and missing required keys.
TransformerConfig readModelFile(const std::string& path);
TransformerConfig parseModelText(std::string_view text, const std::string& fileName);
/// True when `text` (a whole file or its start) reads like a model file: every line a comment or
/// `key = value`, and `layers` or `hidden` among the keys. MLIR starts with `#alias = ...` too, but
/// its other lines are no `key = value`.
bool looksLikeModelFile(std::string_view text);

enum class Phase : std::uint8_t { Training, Prefill, Decode };
enum class PipelineSchedule : std::uint8_t { GPipe, OneFOneB, Interleaved };
enum class Recompute : std::uint8_t { None, Selective, Full };
/// ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 (= FSDP) also parameters, over DP.
enum class ZeroStage : std::uint8_t { None = 0, OptimizerState = 1, Gradients = 2, Parameters = 3 };
/// How routed tokens travel to their experts and back (docs/models.md, "Token dispatch").
enum class MoeDispatcher : std::uint8_t {
    /// Megatron-LM's alltoall dispatcher: one copy of a token per chosen expert, exchanged by an NCCL
    /// all-to-all over the expert-parallel group.
    AllToAll,
    /// Megatron-Core's flex dispatcher with the HybridEP backend (DeepEP's normal kernels move the same
    /// bytes): a token crosses the network once per NVLink domain holding one of its experts and
    /// NVLink once per GPU holding one; the combine sums on the way back.
    HybridEp,
};
/// How an FP8 recipe scales a tensor before casting it (Transformer Engine's recipes; docs/models.md,
/// "FP8 as Transformer Engine runs it").
enum class Fp8Scaling : std::uint8_t {
    /// DelayedScaling (Transformer Engine's default; NeMo until 2025): the scale comes from the amax
    /// history of earlier steps, and the cast kernel records this step's amax as it casts: one pass.
    Delayed,
    /// Float8CurrentScaling ("tensorwise"; Megatron-Bridge's fp8_cs): the tensor's own amax, found by a
    /// pass over it before the cast (TransformerEngine pytorch/csrc/quantizer.cpp,
    /// Float8CurrentScalingQuantizer::quantize: compute amax, then scale, then cast).
    Current,
};

std::string_view displayName(Phase phase);
std::string_view displayName(PipelineSchedule schedule);
std::string_view displayName(Recompute recompute);
std::string_view displayName(MoeDispatcher dispatcher);               ///< "all-to-all", "HybridEP"
std::string_view displayName(Fp8Scaling scaling);                     ///< "delayed", "current"
std::string_view displayName(ZeroStage zero);                         ///< "none", "ZeRO-1", "ZeRO-2", "ZeRO-3 (FSDP)"
std::optional<Phase> parsePhase(std::string_view text);               ///< "train", "prefill", "decode"
std::optional<PipelineSchedule> parseSchedule(std::string_view text); ///< "gpipe", "1f1b", "interleaved"
std::optional<Recompute> parseRecompute(std::string_view text);       ///< "none", "selective", "full"
std::optional<ZeroStage> parseZero(std::string_view text);            ///< "0".."3", "zero1", "fsdp"

/// How a model is laid out over ranks. ranks() = tp * cp * pp * dp, numbered with tp fastest, then
/// cp, then dp, then pp (Megatron-LM's order). Expert parallelism carves its `ep` groups out of the
/// dp ranks of a stage (consecutive data-parallel indices), so ep divides dp.
struct ParallelConfig {
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    std::int64_t dp = 1;
    std::int64_t cp = 1;          ///< context parallelism (ring attention over sequence shards)
    std::int64_t ep = 1;          ///< expert parallelism (MoE only)
    bool sequenceParallel = true; ///< Megatron sequence parallelism with tp > 1
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    std::int64_t virtualStages = 1;  ///< model chunks per pipeline rank (Interleaved only)
    std::int64_t microbatchSize = 1; ///< sequences per microbatch
    std::int64_t globalBatch = 0;    ///< sequences per step; 0: dp * pp * microbatchSize * 4
    ZeroStage zero = ZeroStage::OptimizerState;
    /// ZeRO-3 / FSDP: free each unit's gathered parameters after its forward pass and gather them
    /// again for its backward pass (PyTorch FSDP's reshard_after_forward / FULL_SHARD, the default).
    /// Off, they stay gathered until the backward pass (SHARD_GRAD_OP: one gather per microbatch,
    /// memory as ZeRO-2 plus whole parameters).
    bool reshardAfterForward = true;
    /// ZeRO-3 as PyTorch's FSDP2 (`fully_shard`, torchtitan) runs it: each parameter sharded on its
    /// own and a unit's shards gathered into one buffer, which `foreach_all_gather_copy_out` then
    /// copies into the unit's parameters on the compute stream after every all-gather
    /// (`split_with_sizes_copy`: the gathered bytes read and written once more). Off, as FSDP1's
    /// FlatParameter and DeepSpeed's ZeRO-3 run it: the layers compute on views of the gathered
    /// buffer. docs/models.md, "ZeRO-3 and FSDP".
    bool fsdpCopyOut = false;
    /// Data-parallel gradient reduction (ZeRO 0-2) overlapped with the rest of the backward pass:
    /// each layer's gradients reduced once its last microbatch's backward pass has produced them
    /// (PyTorch DDP's buckets, Megatron-LM's --overlap-grad-reduce). Off, the reductions run after
    /// the whole backward pass, as Megatron-LM's local DDP did before 2023 (training.py's
    /// "backward-params-all-reduce" after forward_backward_func).
    bool overlapGradReduce = true;
    /// ZeRO-1/2: the distributed optimizer's all-gather of the updated bf16 weights split by layer and
    /// overlapped with the next step's forward pass, as Megatron-Core's --overlap-param-gather does
    /// it (r0.8.0, distrib_optimizer.py: the first bucket's all-gather launched before the forward
    /// pass, each next one when the forward pass reaches the bucket before it). A one-step model puts
    /// each layer's gather before its first forward pass (microbatch 0), the next layer's issued when
    /// this one may start. Off (Megatron-LM's default), the stage's weights are gathered in one
    /// all-gather after the optimizer, before the step ends.
    bool overlapParamGather = false;
    /// Whether the layers gather their parameters before their forward pass (ZeRO-3 on every
    /// microbatch; ZeRO-1/2 with overlapParamGather on the first), rather than the optimizer after
    /// its update.
    bool gathersParametersPerLayer() const
    {
        return phase == Phase::Training &&
               (zero == ZeroStage::Parameters || (zero != ZeroStage::None && overlapParamGather && dp > 1));
    }
    /// ZeRO-3 hybrid sharding (PyTorch FSDP's HYBRID_SHARD, HSDP): parameters, gradients and optimizer
    /// state sharded over groups of this many consecutive data-parallel ranks and replicated across
    /// the DP / hsdpShard groups; gradients are reduce-scattered inside a group, then all-reduced
    /// across groups. 0 (or DP): shard over all of DP.
    std::int64_t hsdpShard = 0;
    /// Data-parallel ranks one ZeRO-3 shard group spans (hsdpShard, or all of DP).
    std::int64_t shardGroup() const { return hsdpShard > 0 && hsdpShard < dp ? hsdpShard : dp; }
    Recompute recompute = Recompute::Selective;
    Precision dtype = Precision::BF16;           ///< BF16 or FP8 matmuls (weights kept in bf16, master fp32)
    Fp8Scaling fp8Scaling = Fp8Scaling::Delayed; ///< with FP8: how tensors are scaled before their casts
    Phase phase = Phase::Training;
    std::int64_t seqLen = 0;        ///< 0: the model's
    std::int64_t decodeContext = 0; ///< Decode: tokens already in the KV cache (0: seqLen)
    /// Megatron-LM's --tp-comm-overlap (Transformer Engine userbuffers): with sequence parallelism,
    /// the tensor-parallel all-gathers and reduce-scatters of the layers are pipelined with the
    /// GEMMs they feed or follow, chunk by chunk (training only).
    bool tpCommOverlap = false;
    /// Fused (flash) attention: scores and probabilities stay on chip and are recomputed in the
    /// backward pass; off, they are materialised in device memory as in Megatron-LM before 2022.
    bool flashAttention = true;
    /// The cross entropy over the vocabulary as one fused kernel runs it (Transformer Engine's, as
    /// Megatron-Bridge's performance recipes use it; flash-attn's xentropy, llm-foundry's default): two
    /// passes over the bf16 logits and a scaling of the bf16 gradient, 10 bytes per logit, rather than
    /// as Megatron-LM runs it by default, one kernel per step over fp32 logits (cross_entropy.py: 52
    /// bytes per logit; PyTorch's F.cross_entropy on upcast logits moves about 44). docs/models.md.
    bool fusedCrossEntropy = false;
    /// RMSNorm and the rotary embedding as eager PyTorch runs them, a kernel per tensor operation in
    /// fp32 (torchtitan's and IBM fms's Llama without torch.compile: 36 + 94 bytes per element for a
    /// norm's forward and backward pass, 20 + 20 for the rotary embedding), instead of one fused kernel
    /// each (Megatron-LM with Transformer Engine, XLA). docs/models.md.
    bool eagerKernels = false;
    /// The loss as eager PyTorch's F.cross_entropy on upcast logits computes it (torchtitan's
    /// loss_fn, outside torch.compile): in its backward pass it holds the saved fp32 log-probabilities,
    /// the fp32 gradient nll_loss writes and the fp32 gradient log_softmax's backward returns, 12 bytes
    /// a logit, where Megatron-LM's vocab-parallel cross entropy holds 6. Memory only: the time is
    /// priced as Megatron-LM's kernel per step (52 bytes moved a logit against PyTorch's 44).
    bool torchCrossEntropy = false;
    /// Data-parallel gradients accumulated and reduced in fp32 (Megatron-Core's grad_reduce_in_fp32,
    /// Megatron-LM's default when training in bf16; PyTorch FSDP with reduce_dtype=float32). Off, in
    /// bf16: half the bytes in the gradient buffers and on the wire (Megatron-Bridge's performance
    /// recipes: set_*_common_configs set grad_reduce_in_fp32 = False).
    bool gradReduceFp32 = true;
    /// Mixed-precision Adam keeps of each fp32 master weight only the 16 bits its bf16 weight lacks
    /// (Apex DistributedFusedAdam's store_param_remainders, NeMo 2.0's default for bf16 training with
    /// its distributed Adam; Transformer Engine's FusedAdam option): 10 bytes of optimizer state a
    /// parameter instead of 12. Memory only: the update reads and writes the same bytes.
    bool adamParamRemainders = false;
    /// The token dispatcher of a mixture of experts with EP > 1.
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    /// Ranks that share one NVLink domain, the fabric HybridEP forwards tokens over after the network
    /// hop (its NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN: 8 on DGX and HGX H100 nodes, 72 on GB200
    /// NVL72). Consecutive ranks, as the cluster presets number them.
    std::int64_t nvlinkDomain = 8;
    /// HybridEP: the expert-parallel ranks inside one NVLink domain (EP ranks are cp x tp ranks
    /// apart), from 1 to EP; validateStrategy requires that it divide EP.
    std::int64_t expertRanksPerDomain() const;
    /// Whether routed tokens travel by HybridEP: EP > 1 and that dispatcher chosen.
    bool dispatchesByHybridEp() const { return ep > 1 && moeDispatcher == MoeDispatcher::HybridEp; }
    /// Whether activations are split along the sequence over TP: asked for, TP > 1, and a phase with
    /// a sequence to split (decode generates one token at a time and keeps TP's all-reduces).
    bool splitsSequence() const { return tp > 1 && sequenceParallel && phase != Phase::Decode; }

    std::int64_t sequenceLength(const TransformerConfig& model) const { return seqLen > 0 ? seqLen : model.seqLen; }
    /// One line: "TP 8 x PP 8 x DP 16, 1F1B, 96 microbatches of 1, ZeRO-1, selective recompute, bf16".
    std::string describe() const;

    std::int64_t ranks() const { return tp * cp * pp * dp; }
    std::int64_t effectiveGlobalBatch() const { return globalBatch > 0 ? globalBatch : dp * pp * microbatchSize * 4; }
    /// Microbatches each pipeline runs per step: globalBatch / (dp * microbatchSize).
    std::int64_t microbatches() const { return effectiveGlobalBatch() / (dp * microbatchSize); }

    friend bool operator==(const ParallelConfig&, const ParallelConfig&) = default;
};

/// Why a strategy cannot run a model, with valid values to try. Empty when it can.
struct StrategyProblem {
    std::string message;    ///< e.g. "TP 12 does not divide the 96 attention heads of GPT-3 175B"
    std::string suggestion; ///< e.g. "TP 1, 2, 4, 8, 16, 32, 48 or 96 divide 96 heads"
};
std::vector<StrategyProblem> validateStrategy(const TransformerConfig& model, const ParallelConfig& parallel);

/// The layout a model opens with when nobody chose one (the explorer, `flint model estimate`
/// without layout options): GPT-3 175B's published one, TP 8 x PP 8 x DP 16 on 1,024 GPUs with a
/// global batch of 1,536 (Narayanan et al. 2021, Table 1), where the model allows it; else one
/// node of 8 GPUs with the largest tensor parallelism its heads and FFN allow.
ParallelConfig defaultStrategy(const TransformerConfig& model);

/// Bytes one rank holds at its peak, by what they are for.
struct MemoryBreakdown {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;   ///< fp32 master weights and Adam moments
    double activations = 0; ///< with the chosen recomputation, for the microbatches in flight
    double commBuffers = 0;
    double total() const { return weights + gradients + optimizer + activations + commBuffers; }
};
/// The busiest rank's memory (the first pipeline stage holds the most activations under 1F1B).
MemoryBreakdown memoryPerRank(const TransformerConfig& model, const ParallelConfig& parallel);

/// Layers per virtual pipeline stage (pp x virtual stages of them, in pipeline order): equal, or,
/// when PP does not divide the layers, the stages at the ends one layer short, alternating first, last,
/// second, second-to-last, ... (Llama 3's split of 126 layers over 16 stages, generalised).
std::vector<std::int64_t> virtualStageSizes(const TransformerConfig& model, const ParallelConfig& parallel);
/// The global layer indices of each model chunk pipeline stage `stage` holds (one chunk unless the
/// schedule is interleaved; chunk c is virtual stage c * pp + stage).
std::vector<std::vector<std::int64_t>> chunkLayers(const TransformerConfig& model, const ParallelConfig& parallel,
                                                   std::int64_t stage);
/// Global indices of the layers pipeline stage `stage` holds, chunk by chunk (interleaved: chunk c is
/// virtual stage c * pp + stage).
std::vector<std::int64_t> stageLayers(const TransformerConfig& model, const ParallelConfig& parallel,
                                      std::int64_t stage);

/// Activation bytes one microbatch leaves in memory for the backward pass of layer `layer` on one rank,
/// with the chosen recomputation, sequence and tensor parallelism (Korthikanti et al. 2022, Sec. 4).
double activationBytesPerLayer(const TransformerConfig& model, const ParallelConfig& parallel, std::int64_t layer);

/// Model FLOPs of one step (forward + backward, no recomputation; see docs/models.md for the
/// definition and its source), used for model FLOPs utilisation.
double modelFlopsPerStep(const TransformerConfig& model, const ParallelConfig& parallel);
/// Fraction of a pipeline's step its stages stand idle by the schedule alone:
/// (pp - 1) / (virtualStages * microbatches + pp - 1).
double pipelineBubbleFraction(const ParallelConfig& parallel);

} // namespace flint::core::model
