// SPDX-License-Identifier: MIT
// `flint bench validation`: our estimates against measured training throughput the field has
// published for the same configurations (docs/validation.md). The measured figures and the
// configurations are the papers'; the estimates are computed here, each with the paper's own FLOPs
// formula so that the two compare.
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#include "engine/modelcompiler.h"
#include "engine/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace flint::app {
namespace {

using core::model::ParallelConfig;
using core::model::TransformerConfig;

/// What a paper reports, and therefore what we compute from our step time.
enum class Metric {
    /// Narayanan et al. 2021, Eq. 3: 96 B s l h^2 (1 + s/6h + V/16lh) FLOPs per step (with full
    /// recomputation), per GPU per second, in TFLOP/s.
    MegatronTflops,
    /// Korthikanti et al. 2022, Sec. 6.3: model FLOPs 72 B s l h^2 (1 + s/6h + V/12lh) per step over
    /// (step time x GPUs x 312 TFLOP/s), in percent.
    MegatronMfu,
    /// Llama 3, Table 4: BF16 MFU, which we compute with the PaLM definition (docs/models.md).
    PalmMfu,
    /// torchtitan's performance tables: tokens per second per GPU (global batch x sequence / step
    /// time / GPUs); no FLOPs formula involved.
    TokensPerGpu,
    /// Megatron-Core's own throughput, per GPU in TFLOP/s: num_floating_point_operations of
    /// megatron/training/training.py at the commit of the table (f2e5db4), which for a GPT with
    /// multi-head attention and an FFN of 4h is 72 B s l h^2 (1 + s/6h + V/12lh) per step.
    MegatronCoreTflops,
};

struct Row {
    std::string source; ///< paper, table
    TransformerConfig model;
    ParallelConfig parallel;
    std::string cluster;
    Metric metric;
    double measured;
    /// Where the source's cluster differs from the preset: its inter-node bandwidth, GB/s per GPU (0:
    /// the preset's), and the attention kernel it ran (Default: the device's usual one).
    double scaleOutGBps = 0;
    core::AttentionKernel attention = core::AttentionKernel::Default;
};

/// A row of a weak-scaling table of GPT models: the model, its layout and the TFLOP/s per GPU.
struct WeakScalingRow {
    const char* name;
    std::int64_t heads, hidden, layers, tp, pp, gpus, batch;
    double tflops;
};

/// A GPT model of Megatron-LM's scaling studies: FFN 4h, learned positions, tied embeddings,
/// vocabulary 51,200, sequence 2,048 (Narayanan et al. 2021, Sec. 5.1); attention dropout 0.1,
/// Megatron-LM's default (arguments.py), which Korthikanti et al. 2022 count in their activation
/// memory (Sec. 4.1: the dropout mask and output, 3 a s^2 b of the 5 a s^2 b bytes).
TransformerConfig megatronGpt(const std::string& name, std::int64_t heads, std::int64_t hidden, std::int64_t layers)
{
    TransformerConfig m;
    m.name = name;
    m.title = "GPT " + name;
    m.source = "Narayanan et al. 2021, Table 1";
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = heads;
    m.ffn = 4 * hidden;
    m.vocab = 51200;
    m.seqLen = 2048;
    m.learnedPositions = true;
    m.tiedEmbeddings = true;
    m.attentionDropout = 0.1;
    return m;
}

/// A rotary (untied) decoder of published sizes: the Llama 2 and Nemotron rows.
TransformerConfig rotaryDecoder(std::string name, std::string title, std::string source, std::int64_t layers,
                                std::int64_t hidden, std::int64_t heads, std::int64_t kvHeads, std::int64_t ffn,
                                bool gated, std::int64_t vocab, std::int64_t seqLen)
{
    TransformerConfig m;
    m.name = std::move(name);
    m.title = std::move(title);
    m.source = std::move(source);
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = kvHeads;
    m.ffn = ffn;
    m.gatedMlp = gated;
    m.vocab = vocab;
    m.seqLen = seqLen;
    return m;
}

/// Megatron-LM as Narayanan et al. ran it: fp16/bf16, full recomputation, no sequence parallelism,
/// no flash attention (2021), no distributed optimizer, 1F1B, microbatch 1, and its local DDP, which
/// all-reduced the gradients after the whole backward pass (training.py, train_step).
ParallelConfig megatron2021(std::int64_t tp, std::int64_t pp, std::int64_t gpus, std::int64_t batch)
{
    ParallelConfig p;
    p.tp = tp;
    p.pp = pp;
    p.dp = gpus / (tp * pp);
    p.globalBatch = batch;
    p.microbatchSize = 1;
    p.sequenceParallel = false;
    p.flashAttention = false;
    p.recompute = core::model::Recompute::Full;
    p.zero = core::model::ZeroStage::None;
    p.overlapGradReduce = false;
    return p;
}

/// PyTorch FSDP as the torchtitan, IBM and MosaicML tables run it: ZeRO-3 over every GPU, no tensor
/// or pipeline parallelism, `microbatch` sequences per GPU, `accumulation` microbatches per step.
ParallelConfig fsdpRun(std::int64_t gpus, std::int64_t microbatch, std::int64_t accumulation,
                       core::model::Recompute recompute)
{
    ParallelConfig p;
    p.dp = gpus;
    p.microbatchSize = microbatch;
    p.globalBatch = gpus * microbatch * accumulation;
    p.zero = core::model::ZeroStage::Parameters;
    p.recompute = recompute;
    return p;
}

// Llama 2 (Touvron et al. 2023, Table 1, and the released model configurations): 13B 40 x 5120, 40
// heads; 70B 80 x 8192, 64 heads, 8 key/value heads; SwiGLU FFN 13,824 / 28,672; vocabulary 32,000;
// sequence 4,096.
TransformerConfig llama2(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads,
                         std::int64_t kvHeads, std::int64_t ffn)
{
    return rotaryDecoder(name, std::string("Llama 2 ") + name,
                         "Touvron et al. 2023, Llama 2 (Table 1; sizes of the released configurations)", layers, hidden,
                         heads, kvHeads, ffn, true, 32000, 4096);
}

/// NVIDIA NeMo Framework 24.07, "Performance Summary", pre-training at FP8 on DGX H100 (NVIDIA/NeMo,
/// docs/source/performance/performance_summary.md at 9c5c5e9, the same table as the 24.09 user guide):
/// tokens per second per GPU with the published GBS, MBS, sequence, TP, PP, CP and virtual stages.
/// Not stated there, taken from NeMo's model configurations of the time (NVIDIA/NeMo-Framework-Launcher
/// launcher_scripts/conf/training/{gpt3,llama,nemotron}/*.yaml at 7316a8d, 2024-09-10): sequence
/// parallelism with TP, no activation recomputation except Nemotron 340B (selective), tensor-parallel
/// communication overlap (ub_tp_comm_overlap) for GPT-3 20B, Llama 2/3 70B and Nemotron 8B/22B, not for
/// GPT-3 175B and Nemotron 340B; and NeMo's defaults: Transformer Engine FP8 for the linear layers,
/// attention in BF16, distributed optimizer (ZeRO-1), interleaved 1F1B when VP > 1. DGX H100 nodes:
/// NVSwitch and 400 Gb/s InfiniBand per GPU (`dgx-h100-ib`).
void appendNemoRows(std::vector<Row>& rows)
{
    const auto nemo = [](std::int64_t gpus, std::int64_t gbs, std::int64_t mbs, std::int64_t seq, std::int64_t tp,
                         std::int64_t pp, std::int64_t cp, std::int64_t vp, bool tpOverlap = false,
                         core::model::Recompute recompute = core::model::Recompute::None) {
        ParallelConfig p;
        p.tp = tp;
        p.pp = pp;
        p.cp = cp;
        p.dp = gpus / (tp * pp * cp);
        p.globalBatch = gbs;
        p.microbatchSize = mbs;
        p.seqLen = seq;
        p.sequenceParallel = tp > 1;
        p.schedule = vp > 1 ? core::model::PipelineSchedule::Interleaved : core::model::PipelineSchedule::OneFOneB;
        p.virtualStages = vp;
        p.recompute = recompute;
        p.tpCommOverlap = tpOverlap;
        p.zero = core::model::ZeroStage::OptimizerState;
        p.dtype = core::Precision::FP8;
        return p;
    };
    // NeMo's GPT-3 family (nemo/collections/llm/gpt/model/gpt.py): GPT-2 tokenizer (50,257), learned
    // positions, tied embeddings, FFN 4h.
    const auto gpt = [](const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
        TransformerConfig m = megatronGpt(name, heads, hidden, layers);
        m.title = std::string("GPT-3 ") + name;
        m.source = "NeMo GPTConfig (gpt.py)";
        m.vocab = 50257;
        return m;
    };
    // Nemotron (NeMo's nemotron.py): rotary positions, squared-ReLU FFN (not gated), untied, and the
    // 256,000-token vocabulary of Nemotron-4 (Parmar et al. 2024, Sec. 2).
    const auto nemotron = [](const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads,
                             std::int64_t kvHeads, std::int64_t ffn) {
        return rotaryDecoder(name, std::string("Nemotron ") + name,
                             "NeMo NemotronConfig (nemotron.py); vocabulary of Nemotron-4", layers, hidden, heads,
                             kvHeads, ffn, false, 256000, 4096);
    };
    const std::string nemoTable = "NeMo 24.07 performance summary, DGX H100 FP8";
    const TransformerConfig gpt175 = *core::model::findModel("gpt3-175b");
    rows.push_back({nemoTable + ", GPT-3 5B", gpt("5B", 24, 4096, 32), nemo(64, 2048, 4, 2048, 1, 1, 1, 1),
                    "dgx-h100-ib", Metric::TokensPerGpu, 23406});
    rows.push_back({nemoTable + ", GPT-3 20B", gpt("20B", 44, 6144, 48), nemo(64, 256, 2, 2048, 2, 1, 1, 1, true),
                    "dgx-h100-ib", Metric::TokensPerGpu, 5851});
    rows.push_back({nemoTable + ", GPT-3 175B, 128 GPUs", gpt175, nemo(128, 256, 1, 2048, 4, 8, 1, 6), "dgx-h100-ib",
                    Metric::TokensPerGpu, 716});
    rows.push_back({nemoTable + ", GPT-3 175B, 512 GPUs", gpt175, nemo(512, 2048, 2, 2048, 4, 8, 1, 6), "dgx-h100-ib",
                    Metric::TokensPerGpu, 825});
    rows.push_back({nemoTable + ", Llama 2 7B", llama2("7B", 32, 4096, 32, 32, 11008),
                    nemo(8, 128, 1, 4096, 1, 1, 1, 1), "dgx-h100-ib", Metric::TokensPerGpu, 16934});
    rows.push_back({nemoTable + ", Llama 2 13B", llama2("13B", 40, 5120, 40, 40, 13824),
                    nemo(16, 128, 1, 4096, 1, 4, 1, 10), "dgx-h100-ib", Metric::TokensPerGpu, 8715});
    rows.push_back({nemoTable + ", Llama 2 70B", llama2("70B", 80, 8192, 64, 8, 28672),
                    nemo(64, 128, 1, 4096, 4, 4, 1, 20, true), "dgx-h100-ib", Metric::TokensPerGpu, 1728});
    rows.push_back({nemoTable + ", Nemotron 8B", nemotron("8B", 32, 4096, 32, 32, 16384),
                    nemo(64, 256, 4, 4096, 2, 1, 1, 1, true), "dgx-h100-ib", Metric::TokensPerGpu, 12507});
    rows.push_back({nemoTable + ", Nemotron 22B", nemotron("22B", 40, 6144, 48, 48, 24576),
                    nemo(64, 256, 2, 4096, 2, 4, 1, 10, true), "dgx-h100-ib", Metric::TokensPerGpu, 4312});
    rows.push_back({nemoTable + ", Nemotron 340B", nemotron("340B", 96, 18432, 96, 8, 73728),
                    nemo(128, 32, 1, 4096, 8, 8, 1, 12, false, core::model::Recompute::Selective), "dgx-h100-ib",
                    Metric::TokensPerGpu, 326});
    rows.push_back({nemoTable + ", Llama 3 8B", *core::model::findModel("llama3-8b"), nemo(8, 128, 1, 8192, 1, 1, 2, 1),
                    "dgx-h100-ib", Metric::TokensPerGpu, 12273});
    rows.push_back({nemoTable + ", Llama 3 70B", *core::model::findModel("llama3-70b"),
                    nemo(64, 128, 1, 8192, 4, 4, 2, 5, true), "dgx-h100-ib", Metric::TokensPerGpu, 1524});
    // Gradients synchronised in bf16: NVIDIA's H100 FP8 example runs of the same commit set
    // +training.model.optim.grad_sync_dtype=bf16 for GPT-3 5B, 20B (TP 2, MBS 2, as in the table) and
    // 175B, Llama 2 7B, 13B and 70B, Llama 3 8B and 70B (NeMo-Framework-Launcher
    // examples/training/{gpt,llama}/h100/*_fp8*.sh at 7316a8d), and Nemotron 340B's configuration does
    // (launcher_scripts/conf/training/nemotron/nemotron_340b.yaml: optim.grad_sync_dtype: bf16);
    // Nemotron 8B's and 22B's examples leave NeMo's default (Apex DistributedFusedAdam: fp32). NeMo's
    // distributed Adam keeps the fp32 master weights as 16-bit remainders beside the bf16 weights
    // (nemo/collections/nlp/models/language_modeling/megatron_base_model.py at v2.0.0, the release of
    // NeMo 24.07: store_param_remainders when the optimizer is fp32 and the model bf16).
    for (Row& row : rows) {
        if (row.source.rfind(nemoTable, 0) != 0)
            continue;
        row.parallel.adamParamRemainders = true;
        if (row.source.find("Nemotron 8B") == std::string::npos && row.source.find("Nemotron 22B") == std::string::npos)
            row.parallel.gradReduceFp32 = false;
    }
    // The same table two years on: NeMo 26.04.01 (NVIDIA-NeMo/Megatron-Bridge,
    // docs/performance-summary-archive.md at 067f987), the two DGX H100 FP8 pre-training rows of dense
    // models we have built in (Megatron-Core with Transformer Engine; no FSDP; recomputation not
    // stated, taken as none; tensor-parallel overlap on, as NeMo's H100 userbuffer configurations for
    // these shapes imply). Megatron-Bridge fuses the cross entropy (gpt_provider.py:
    // cross_entropy_loss_fusion = True) and its performance scripts run Transformer Engine's
    // (scripts/performance/utils/overrides.py: cross_entropy_fusion_impl = "te"); its performance
    // recipes reduce gradients in bf16 (scripts/performance/configs/*/..._llm_pretrain.py at 17a381f,
    // the commit that published the table: grad_reduce_in_fp32 = False for Llama 3, 3.1 and Qwen3).
    const std::string bridgeTable = "NeMo 26.04.01 performance summary, DGX H100 FP8";
    const auto bridge = [&](ParallelConfig p) {
        p.fusedCrossEntropy = true;
        p.gradReduceFp32 = false;
        // Their FP8 recipe is current scaling (the table's configurations are *_H100_FP8_CS_*; the
        // performance scripts' fp8_cs: bf16_with_fp8_current_scaling_mixed, fp8_recipe = "tensorwise").
        p.fp8Scaling = core::model::Fp8Scaling::Current;
        return p;
    };
    rows.push_back({bridgeTable + ", Llama 3 70B", *core::model::findModel("llama3-70b"),
                    bridge(nemo(64, 256, 1, 8192, 4, 8, 1, 5, true)), "dgx-h100-ib", Metric::TokensPerGpu, 1664});
    rows.push_back({bridgeTable + ", Llama 3.1 405B", *core::model::findModel("llama3-405b"),
                    bridge(nemo(1024, 1536, 1, 8192, 8, 8, 2, 8, true)), "dgx-h100-ib", Metric::TokensPerGpu, 328});
    // A mixture of experts with expert parallelism: Qwen3-30B-A3B (Yang et al. 2025, Qwen3 Technical
    // Report, Table 2: 48 layers, 32 query and 4 key/value heads, 128 experts, 8 active; hidden 2,048,
    // head dimension 128, experts of 768, vocabulary 151,936 from its released configuration) on 16
    // H100s, EP 16 over the data-parallel ranks. The recipe of the release (Megatron-Bridge
    // scripts/performance/configs/qwen at 17a381f, the commit that published the row:
    // QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_FP8_CS_V1 and
    // set_qwen3_common_configs) forces balanced routing, as we assume, and dispatches with HybridEP
    // (the flex dispatcher, moe_a2a_overlap off); no recomputation.
    TransformerConfig qwen3 = rotaryDecoder("30B-A3B", "Qwen3 30B-A3B", "Qwen3 Technical Report, Table 2", 48, 2048, 32,
                                            4, 0, true, 151936, 4096);
    qwen3.headDim = 128;
    qwen3.experts = 128;
    qwen3.topK = 8;
    qwen3.expertFfn = 768;
    ParallelConfig qwen3Parallel = bridge(nemo(16, 1024, 1, 4096, 1, 1, 1, 1));
    qwen3Parallel.ep = 16;
    qwen3Parallel.moeDispatcher = core::model::MoeDispatcher::HybridEp;
    // Megatron-Bridge's recipes overlap the distributed optimizer's parameter gather with the
    // forward pass (recipes/qwen/qwen3_moe.py: ddp.overlap_param_gather = True). The Llama rows
    // above run it with the optimizer step instead (utils/overrides.py sets
    // overlap_param_gather_with_optimizer_step with PP and virtual stages), which our gather after
    // the optimizer stands for.
    qwen3Parallel.overlapParamGather = true;
    rows.push_back(
        {bridgeTable + ", Qwen3 30B-A3B, EP 16", qwen3, qwen3Parallel, "dgx-h100-ib", Metric::TokensPerGpu, 8960});
    // Blackwell: the dense DGX B200 rows of NeMo 25.11 (Megatron-Bridge docs/performance-summary-archive.md
    // at 5776a6d, "25.11 NeMo Container", FP8-CS) with the recipes of that commit
    // (scripts/performance/configs/llama/llama3{,1}_workload_base_configs.py): Llama 3 8B on 8 GPUs,
    // microbatch 2, full-iteration CUDA graphs; Llama 3.1 405B on 128 GPUs, TP 4, PP 8, CP 2, VP 8 with
    // userbuffers' TP overlap (llama31_llm_pretrain.py: userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192).
    // The same common settings as the 26.04.01 rows (bf16 gradient reduction, fused cross entropy,
    // current scaling). DGX B200: NVLink 5 and 400 Gb/s InfiniBand per GPU (`dgx-b200-ib`).
    const std::string blackwellTable = "NeMo 25.11 performance summary, DGX B200 FP8";
    rows.push_back({blackwellTable + ", Llama 3 8B", *core::model::findModel("llama3-8b"),
                    bridge(nemo(8, 128, 2, 8192, 1, 1, 1, 1)), "dgx-b200-ib", Metric::TokensPerGpu, 30624});
    rows.push_back({blackwellTable + ", Llama 3.1 405B", *core::model::findModel("llama3-405b"),
                    bridge(nemo(128, 64, 1, 8192, 4, 8, 2, 8, true)), "dgx-b200-ib", Metric::TokensPerGpu, 661});
}

/// Megatron-Core's weak scaling on H100 (NVIDIA/Megatron-LM README, "Training Speed and
/// Scalability", the table images/model_table.png added in f2e5db4 of 2024-07-15, Megatron-Core
/// r0.8.0): GPT models with a vocabulary of 131,072 and sequences of 4,096, up to 6,144 H100s, with
/// --overlap-grad-reduce, --overlap-param-gather (the distributed optimizer: our ZeRO-1) and
/// --tp-comm-overlap (which needs sequence parallelism). Per-GPU TFLOP/s as Megatron counts them.
/// Not stated, so Megatron-LM's defaults: multi-head attention with an FFN of 4h, tied embeddings,
/// learned positions, microbatch 1, no activation recomputation, 1F1B without virtual stages, BF16
/// (the table's MFU column is the TFLOP/s over the dense BF16 peak), Transformer Engine's fused
/// attention (cuDNN); the cluster is NVIDIA's DGX H100 with 400 Gb/s InfiniBand per GPU.
void appendMegatronCoreRows(std::vector<Row>& rows)
{
    // 48 data-parallel replicas throughout.
    const std::vector<WeakScalingRow> weak = {
        {"1.7B", 16, 2048, 24, 1, 1, 48, 192, 408.8},        {"7.1B", 32, 4096, 30, 2, 1, 96, 192, 465.9},
        {"16B", 48, 6144, 32, 4, 1, 192, 192, 489.1},        {"32B", 56, 7168, 48, 8, 1, 384, 192, 459.6},
        {"70B", 64, 8192, 84, 8, 2, 768, 384, 419.7},        {"119B", 80, 10240, 92, 8, 4, 1536, 768, 420.5},
        {"177B", 96, 12288, 96, 8, 6, 2304, 1152, 432.8},    {"314B", 128, 16384, 96, 8, 8, 3072, 1536, 474.4},
        {"462B", 144, 18432, 112, 8, 16, 6144, 3072, 459.9},
    };
    for (const WeakScalingRow& w : weak) {
        TransformerConfig m = megatronGpt(w.name, w.heads, w.hidden, w.layers);
        m.source = "Megatron-LM README (f2e5db4), images/model_table.png";
        m.vocab = 131072;
        m.seqLen = 4096;
        m.attentionDropout = 0; // inside the fused attention kernel
        ParallelConfig p;
        p.tp = w.tp;
        p.pp = w.pp;
        p.dp = w.gpus / (w.tp * w.pp);
        p.globalBatch = w.batch;
        p.microbatchSize = 1;
        p.sequenceParallel = true;
        p.tpCommOverlap = w.tp > 1;
        p.recompute = core::model::Recompute::None;
        p.zero = core::model::ZeroStage::OptimizerState;
        p.overlapParamGather = true;
        rows.push_back(
            {"Megatron-Core r0.8.0 H100 weak scaling, " + std::string(w.name) + ", " + std::to_string(w.gpus) + " GPUs",
             m, p, "dgx-h100-ib", Metric::MegatronCoreTflops, w.tflops});
    }
}

/// PyTorch FSDP (FSDP1) as IBM and Meta measured it, without torch.compile: "Maximizing training
/// throughput using PyTorch FSDP" (PyTorch blog, 2024-03-13, Table 1; the same figures as
/// foundation-model-stack/fms-fsdp README.md at 4ffb9bd). Llama 2 architectures (fms-fsdp
/// fms_fsdp/utils/config_utils.py; its 34B: 48 x 8192, 64 heads, 8 key/value heads, FFN 22,016),
/// sequence 4,096, two sequences per GPU and step, bf16 mixed precision with fp32 gradient reduction,
/// SDPA's FlashAttention-2. 7B: HSDP (sharded inside a node, replicated across) without activation
/// checkpointing; 34B and 70B: FSDP with full checkpointing (the 13B row's "selective" checkpointing
/// checkpoints every n-th block, which we do not represent, so it is left out). Clusters: 128 A100
/// 80GB with 400 Gb/s inter-node and 96 H100 80GB with 800 Gb/s inter-node; we read both as per node
/// of eight GPUs (6.25 and 12.5 GB/s per GPU), as the blog's "network peeking out" on H100 implies.
/// The same README two months on (ed74fd5, 2024-05-09, "update numbers with compile") measured the
/// same runs with torch.compile: the 7B row (the others moved to selective checkpointing, which we
/// do not represent) is kept too, with the compiled model's fused norms and rotary embeddings.
void appendIbmFsdpRows(std::vector<Row>& rows)
{
    const auto fsdp = [](std::int64_t gpus, std::int64_t hsdpShard, core::model::Recompute recompute) {
        ParallelConfig p = fsdpRun(gpus, 2, 1, recompute);
        p.seqLen = 4096;
        p.hsdpShard = hsdpShard;
        p.eagerKernels = true; // fms's LayerNormParameterized and RotaryEmbedding, not compiled
        return p;
    };
    // 34B as fms-fsdp configures it (Llama 2 did not release a 34B; Code Llama 34B's shape).
    const TransformerConfig l7 = llama2("7B", 32, 4096, 32, 32, 11008);
    TransformerConfig l34 = llama2("34B", 48, 8192, 64, 8, 22016);
    l34.title = "34B (Llama 2 architecture, fms-fsdp)";
    l34.source = "fms-fsdp config_utils.py";
    const TransformerConfig l70 = llama2("70B", 80, 8192, 64, 8, 28672);
    struct Cluster {
        const char* name;
        const char* preset;
        std::int64_t gpus;
        double scaleOutGBps;
        double tokens7, tokens34, tokens70, tokens7Compiled;
    };
    const Cluster clusters[] = {{"128 A100", "dgx-a100-ib", 128, 400.0 / 8 / 8, 3700, 700, 370, 4550},
                                {"96 H100", "dgx-h100-ib", 96, 800.0 / 8 / 8, 7500, 1550, 800, 9600}};
    const std::string blog = "IBM/PyTorch FSDP blog 2024, Table 1";
    for (const Cluster& c : clusters) {
        const auto add = [&](const std::string& what, const TransformerConfig& m, ParallelConfig p, double measured) {
            rows.push_back({blog + ", " + c.name + ", " + what, m, p, c.preset, Metric::TokensPerGpu, measured,
                            c.scaleOutGBps, core::AttentionKernel::FlashAttention2});
        };
        add("Llama 2 7B, HSDP, no AC", l7, fsdp(c.gpus, 8, core::model::Recompute::None), c.tokens7);
        add("34B, full AC", l34, fsdp(c.gpus, 0, core::model::Recompute::Full), c.tokens34);
        add("Llama 2 70B, full AC", l70, fsdp(c.gpus, 0, core::model::Recompute::Full), c.tokens70);
        ParallelConfig compiled = fsdp(c.gpus, 8, core::model::Recompute::None);
        compiled.eagerKernels = false;
        rows.push_back({"IBM fms-fsdp README, torch.compile, " + std::string(c.name) + ", Llama 2 7B, HSDP, no AC", l7,
                        compiled, c.preset, Metric::TokensPerGpu, c.tokens7Compiled, c.scaleOutGBps,
                        core::AttentionKernel::FlashAttention2});
    }
}

/// MosaicML's llm-foundry throughput tables (mosaicml/llm-foundry, scripts/train/benchmarking/README.md
/// at 8c8dd48, H100 tables of 2024-01-06): MPT models trained with Composer and PyTorch FSDP
/// (FULL_SHARD), bf16 (amp_bf16 with FSDP's DEFAULT mixed precision, or PURE), flash attention,
/// sequence 2,048, with the published microbatch size, gradient accumulation and activation
/// checkpointing. MPT: no positional embeddings (ALiBi inside the attention kernel; we run rotary,
/// one elementwise kernel), tied embeddings, GELU MLP of 4 h, vocabulary 50,368; sizes checked
/// against the table's parameter counts (e.g. 13B: 40 x 12 x 5120^2 + 50,368 x 5,120 = 12.84e9,
/// published 12,853,954,560). A100 80GB nodes with 1,600 Gb/s RoCE (200 Gb/s per GPU: our
/// `dgx-a100-ib`); the H100 cluster's fabric is not stated (`dgx-h100-ib`). Not modelled: DEFAULT
/// mixed precision gathers fp32 parameters and reduces bf16 gradients, 10 bytes per parameter and
/// step against our 8; the A100 40GB tables; the long-sequence rows. The loss is flash-attn's fused
/// cross entropy (llmfoundry/models/mpt/modeling_mpt.py at 8c8dd48: loss_fn 'fused_crossentropy').
void appendMosaicRows(std::vector<Row>& rows)
{
    const auto mpt = [](const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
        TransformerConfig m =
            rotaryDecoder(name, std::string("MPT ") + name, "llm-foundry scripts/train/yamls/pretrain/mpt-*.yaml",
                          layers, hidden, heads, heads, 4 * hidden, false, 50368, 2048);
        m.tiedEmbeddings = true;
        return m;
    };
    const auto fsdp = [](std::int64_t gpus, std::int64_t microbatch, std::int64_t accumulation, bool checkpoint) {
        ParallelConfig p = fsdpRun(gpus, microbatch, accumulation,
                                   checkpoint ? core::model::Recompute::Full : core::model::Recompute::None);
        p.fusedCrossEntropy = true;
        return p;
    };
    const TransformerConfig m7 = mpt("7B", 32, 4096, 32), m13 = mpt("13B", 40, 5120, 40),
                            m30 = mpt("30B", 48, 7168, 64), m70 = mpt("70B", 80, 8192, 64);
    const std::string table = "llm-foundry MPT";
    const auto add = [&](const std::string& what, const TransformerConfig& m, ParallelConfig p, const char* cluster,
                         double measured) {
        rows.push_back({table + ", " + what, m, p, cluster, Metric::TokensPerGpu, measured, 0,
                        core::AttentionKernel::FlashAttention2});
    };
    add("8 A100 80GB, 7B, no AC", m7, fsdp(8, 6, 2, false), "dgx-a100-ib", 4641);
    add("8 A100 80GB, 13B, no AC", m13, fsdp(8, 2, 3, false), "dgx-a100-ib", 2262);
    add("8 A100 80GB, 30B, AC", m30, fsdp(8, 3, 21, true), "dgx-a100-ib", 916);
    add("64 A100 80GB, 70B, AC", m70, fsdp(64, 8, 4, true), "dgx-a100-ib", 410);
    add("128 H100, 7B, no AC", m7, fsdp(128, 6, 1, false), "dgx-h100-ib", 10475);
    add("128 H100, 13B, AC", m13, fsdp(128, 16, 1, true), "dgx-h100-ib", 5080);
    add("128 H100, 30B, AC", m30, fsdp(128, 8, 1, true), "dgx-h100-ib", 2199);
    add("128 H100, 70B, AC", m70, fsdp(128, 8, 1, true), "dgx-h100-ib", 1058);
}

std::vector<Row> publishedRows(bool quick)
{
    std::vector<Row> rows;
    const std::string table1 = "Narayanan et al. 2021 (SC21), Table 1";
    // Achieved TFLOP/s per GPU on A100s (312 peak).
    const std::vector<WeakScalingRow> weak = {
        {"1.7B", 24, 2304, 24, 1, 1, 32, 512, 137},          {"3.6B", 32, 3072, 30, 2, 1, 64, 512, 138},
        {"7.5B", 32, 4096, 36, 4, 1, 128, 512, 142},         {"18.4B", 48, 6144, 40, 8, 1, 256, 1024, 135},
        {"39.1B", 64, 8192, 48, 8, 2, 512, 1536, 138},       {"76.1B", 80, 10240, 60, 8, 4, 1024, 1792, 140},
        {"145.6B", 96, 12288, 80, 8, 8, 1536, 2304, 148},    {"310.1B", 128, 16384, 96, 8, 16, 1920, 2160, 155},
        {"529.6B", 128, 20480, 105, 8, 35, 2520, 2520, 163}, {"1008B", 160, 25600, 128, 8, 64, 3072, 3072, 163},
    };
    for (const WeakScalingRow& w : weak) {
        if (quick && w.gpus > 64)
            continue;
        rows.push_back({table1 + ", " + w.name, megatronGpt(w.name, w.heads, w.hidden, w.layers),
                        megatron2021(w.tp, w.pp, w.gpus, w.batch), "dgx-a100-ib", Metric::MegatronTflops, w.tflops});
    }
    if (quick)
        return rows;
    // Korthikanti et al. 2022, Table 5 and Sec. 6.3: sequence parallelism with selective
    // recomputation; MFU against 312 TFLOP/s. Configurations of their Table 3 (microbatch 1).
    const auto selective = [](ParallelConfig p) {
        p.sequenceParallel = true;
        p.recompute = core::model::Recompute::Selective;
        return p;
    };
    const std::string korthikanti = "Korthikanti et al. 2022, Table 5";
    rows.push_back({korthikanti + ", 530B, selective + SP", megatronGpt("530B", 128, 20480, 105),
                    selective(megatron2021(8, 35, 280, 280)), "dgx-a100-ib", Metric::MegatronMfu, 56.0});
    rows.push_back({korthikanti + ", 1T, selective + SP", megatronGpt("1T", 160, 25600, 128),
                    selective(megatron2021(8, 64, 512, 512)), "dgx-a100-ib", Metric::MegatronMfu, 56.3});
    rows.push_back({"Korthikanti et al. 2022, abstract: 530B on 2,240 GPUs, selective + SP",
                    megatronGpt("530B", 128, 20480, 105), selective(megatron2021(8, 35, 2240, 2240)), "dgx-a100-ib",
                    Metric::MegatronMfu, 54.2});
    rows.push_back({"Korthikanti et al. 2022, abstract: 530B on 2,240 GPUs, full recompute",
                    megatronGpt("530B", 128, 20480, 105), megatron2021(8, 35, 2240, 2240), "dgx-a100-ib",
                    Metric::MegatronMfu, 42.1});
    // Llama Team 2024, Table 4: Llama 3 405B on H100s (RoCE), 16M tokens per batch, BF16 MFU.
    // The schedule (Sec. 3.3.2): interleaved (Narayanan et al. 2021) with V model chunks per pipeline
    // rank, one layer each taken from the first and the last stage so that "the first model chunk on
    // the first stage has only the embedding, and the last model chunk on the last stage has only
    // output projection and loss calculation". A chunk that loses one layer and is left with none
    // held one: 126 + 2 layer slots in chunks of one layer over PP 16, so V = 128 / 16 = 8. Meta's
    // own tuning of contiguous microbatches (its N) is not given; Megatron's interleaved order runs.
    // "We could pre-train Llama 3 on sequences of 8K tokens without activation checkpointing" (same
    // section): no recomputation at 8,192 tokens; the long-context stage is not described, so
    // selective there. With flash attention the two differ in memory only.
    const auto llama = [](std::int64_t pp, std::int64_t dp, std::int64_t cp, std::int64_t seq, std::int64_t perDp) {
        ParallelConfig p;
        p.tp = 8;
        p.pp = pp;
        p.schedule = core::model::PipelineSchedule::Interleaved;
        p.virtualStages = (126 + 2) / pp;
        p.dp = dp;
        p.cp = cp;
        p.seqLen = seq;
        p.globalBatch = perDp * dp;
        p.microbatchSize = 1;
        p.recompute = seq <= 8192 ? core::model::Recompute::None : core::model::Recompute::Selective;
        p.zero = core::model::ZeroStage::OptimizerState;
        return p;
    };
    const TransformerConfig& l405 = *core::model::findModel("llama3-405b");
    const std::string llamaTable = "Llama Team 2024, Table 4";
    rows.push_back(
        {llamaTable + ", 8,192 GPUs", l405, llama(16, 64, 1, 8192, 32), "dgx-h100-roce", Metric::PalmMfu, 43});
    rows.push_back(
        {llamaTable + ", 16,384 GPUs", l405, llama(16, 128, 1, 8192, 16), "dgx-h100-roce", Metric::PalmMfu, 41});
    rows.push_back({llamaTable + ", 16,384 GPUs, CP 16, 131,072 tokens", l405, llama(16, 8, 16, 131072, 16),
                    "dgx-h100-roce", Metric::PalmMfu, 38});
    // PyTorch FSDP2 (ZeRO-3, reshard after forward) as torchtitan measured it on 64 A100 80GB
    // (pytorch/torchtitan, docs/performance.md, 2024 revision with the Llama 2 and Llama 3 tables):
    // local batch = one microbatch per GPU, no pipeline or tensor parallelism. Only the rows whose
    // activation checkpointing we represent exactly (none, full); torchtitan's "selective op"
    // policy saves every other matmul, which our selective mode does not model.
    // torchtitan's Llama (torchtitan/models/llama/model.py at 157a12c) runs RMSNorm and the rotary
    // embedding as eager fp32 tensor operations; the tables do not use torch.compile.
    const auto fsdp = [](std::int64_t gpus, std::int64_t localBatch, core::model::Recompute recompute) {
        ParallelConfig p = fsdpRun(gpus, localBatch, 1, recompute);
        p.eagerKernels = true;
        // FSDP2's fully_shard: every gathered unit copied out into its parameters on the compute
        // stream (torch/distributed/_composable/fsdp/_fsdp_collectives.py, foreach_all_gather_copy_out).
        p.fsdpCopyOut = true;
        // Its loss: F.cross_entropy on the fp32 logits the model returns (train.py and model.py at
        // 157a12c; that code also keeps the logits through the backward pass, 4 bytes a logit more).
        p.torchCrossEntropy = true;
        return p;
    };
    const std::string titan = "torchtitan FSDP2, 64 A100";
    rows.push_back({titan + ", Llama 2 13B, batch 2, no AC", llama2("13B", 40, 5120, 40, 40, 13824),
                    fsdp(64, 2, core::model::Recompute::None), "dgx-a100-ib", Metric::TokensPerGpu, 2162});
    rows.push_back({titan + ", Llama 2 70B, batch 2, full AC", llama2("70B", 80, 8192, 64, 8, 28672),
                    fsdp(64, 2, core::model::Recompute::Full), "dgx-a100-ib", Metric::TokensPerGpu, 353});
    rows.push_back({titan + ", Llama 3 70B, batch 1, full AC", *core::model::findModel("llama3-70b"),
                    fsdp(64, 1, core::model::Recompute::Full), "dgx-a100-ib", Metric::TokensPerGpu, 331});
    appendNemoRows(rows);
    appendMegatronCoreRows(rows);
    appendIbmFsdpRows(rows);
    appendMosaicRows(rows);
    return rows;
}

double estimateMetric(const Row& row, const engine::Evaluation& evaluation)
{
    const double stepTime = evaluation.result->stepTime;
    const core::Cluster& cluster = evaluation.scenario.cluster;
    const TransformerConfig& m = row.model;
    const double b = static_cast<double>(row.parallel.effectiveGlobalBatch());
    const double s = static_cast<double>(row.parallel.sequenceLength(m));
    const double l = static_cast<double>(m.layers);
    const double h = static_cast<double>(m.hidden);
    const double v = static_cast<double>(m.vocab);
    const double gpus = static_cast<double>(row.parallel.ranks());
    switch (row.metric) {
    case Metric::MegatronTflops:
        return 96 * b * s * l * h * h * (1 + s / (6 * h) + v / (16 * l * h)) / (stepTime * gpus) / 1e12;
    case Metric::MegatronMfu:
        return 100 * 72 * b * s * l * h * h * (1 + s / (6 * h) + v / (12 * l * h)) /
               (stepTime * gpus * cluster.device.peakFlops(core::Precision::BF16));
    case Metric::PalmMfu:
        return 100 * evaluation.figures->mfu;
    case Metric::TokensPerGpu:
        return b * s / (stepTime * gpus);
    case Metric::MegatronCoreTflops:
        return 72 * b * s * l * h * h * (1 + s / (6 * h) + v / (12 * l * h)) / (stepTime * gpus) / 1e12;
    }
    return 0;
}

/// A published peak of memory per GPU for a configuration we represent.
struct MemoryRow {
    std::string source;
    TransformerConfig model;
    ParallelConfig parallel;
    double measuredGiB;
};

/// torchtitan's Llama 3.1 benchmarks on H100 (pytorch/torchtitan, benchmarks/llama3_h100_202412_torchtitan.md,
/// torchtitan 9dec370 of 2024-12-26): the "Memory(GiB)" column is torch.cuda.max_memory_reserved, the
/// caching allocator's peak (torchtitan/metrics.py: max_reserved_gib), the maximum over the GPUs. The
/// tables whose activation checkpointing we represent: full (Tables 2 and 4); Tables 1 and 3 use
/// torchtitan's per-op selective policy; Tables 5 and 6 run FSDP with PP and torchao's FP8 all-gathers of
/// the parameters (the 405B configuration's enable_fsdp_float8_all_gather), which we do not model. All with
/// torch.compile of each transformer block and torchao's Float8 linears (dynamic tensor-wise
/// scaling: our current scaling), FSDP2 over dp_shard x cp, bf16 parameters and fp32 gradient
/// reduction, the loss as eager F.cross_entropy on upcast logits (train.py), and no gradient
/// accumulation (a local batch is one microbatch). Their throughput is not compared: the GPUs ran at a
/// 500 W power limit whose clocks the source does not give.
std::vector<MemoryRow> publishedMemoryRows()
{
    const auto titan = [](std::int64_t fsdp, std::int64_t tp, std::int64_t cp, std::int64_t localBatch,
                          std::int64_t seq) {
        ParallelConfig p = fsdpRun(fsdp, localBatch, 1, core::model::Recompute::Full);
        p.tp = tp;
        p.cp = cp;
        p.sequenceParallel = tp > 1;
        p.seqLen = seq;
        p.dtype = core::Precision::FP8;
        p.fp8Scaling = core::model::Fp8Scaling::Current;
        p.torchCrossEntropy = true;
        p.fsdpCopyOut = true; // FSDP2
        return p;
    };
    const TransformerConfig& l8 = *core::model::findModel("llama3-8b");
    const std::string table2 = "torchtitan 2024-12, Table 2, Llama 3.1 8B, full AC, Float8";
    std::vector<MemoryRow> rows = {
        {table2 + ", 32,768 tokens", l8, titan(8, 1, 1, 1, 32768), 83.9},
        {table2 + ", 65,536 tokens", l8, titan(4, 1, 2, 1, 65536), 84.2},
        {table2 + ", 131,072 tokens", l8, titan(2, 1, 4, 1, 131072), 84.0},
        {table2 + ", 262,144 tokens", l8, titan(1, 1, 8, 1, 262144), 84.5},
    };
    rows.push_back({"torchtitan 2024-12, Table 4, Llama 3.1 70B, full AC, Float8, local batch 16",
                    *core::model::findModel("llama3-70b"), titan(32, 8, 1, 16, 8192), 71.9});
    return rows;
}

int runValidation(const std::vector<std::string>& arguments)
{
    CommandLine cli(
        "bench validation", "[--quick] [--gemm-efficiency shape|best] [--burst-clocks] [--no-link-sharing]",
        "Estimates the configurations whose training throughput was measured and published\n"
        "(Megatron-LM weak scaling on A100s, selective recomputation, Megatron-Core weak scaling on H100s,\n"
        "Llama 3 405B on H100s, PyTorch FSDP on A100s and H100s from torchtitan, IBM and MosaicML\n"
        "llm-foundry, NeMo FP8 on H100s and B200s with a mixture of experts among them) and prints measured, "
        "estimated and the error per row\n"
        "with the estimated memory per GPU (! above the device's capacity), then the mean absolute percentage\n"
        "error per source and overall; then published peaks of memory per GPU against the memory estimate.\n"
        "Each figure uses the source's own metric and FLOPs formula. docs/validation.md explains the rows.",
        {{"quick", 0, {}, "the small rows only: Narayanan et al.'s models on up to 64 GPUs (for tests)"},
         {"gemm-efficiency", 0, "MODE",
          "shape (default: matmuls at the device's measured throughput by shape) or best (the device's best "
          "efficiency for every matmul), to see what the table changes"},
         {"burst-clocks",
          0,
          {},
          "matmuls at the burst throughput of short benchmarks rather than the sustained one, to see what the "
          "sustained clock changes"},
         {"no-link-sharing",
          0,
          {},
          "transfers that overlap in time each run at the links' full bandwidth instead of sharing it, to see what "
          "sharing changes"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::string gemmMode = cli.value("gemm-efficiency", "shape");
    if (gemmMode != "shape" && gemmMode != "best")
        throw UsageError("--gemm-efficiency must be shape or best");
    const std::vector<Row> rows = publishedRows(cli.has("quick"));
    core::model::ModelCompiler compiler;
    double sumAbs = 0;
    std::map<std::string, std::vector<double>> bySource; // the source's name before its first comma
    std::size_t overCapacity = 0;
    std::printf("%-74s %6s  %-34s %9s %9s %8s %8s %9s  %s\n", "source", "GPUs", "strategy", "measured", "estimate",
                "error", "time", "memory", "unit");
    for (const Row& row : rows) {
        const auto start = BenchClock::now();
        engine::Scenario scenario;
        scenario.model = row.model;
        scenario.parallel = row.parallel;
        scenario.cluster = *core::clusterPreset(row.cluster, row.parallel.ranks());
        if (row.scaleOutGBps > 0)
            scenario.cluster.topology.dims.back().bandwidthGBps = core::fromDecimalGBps(row.scaleOutGBps);
        scenario.cluster.compute.attentionKernel = row.attention;
        scenario.cluster.compute.gemmByShape = gemmMode == "shape";
        scenario.cluster.compute.sustainedClocks = !cli.has("burst-clocks");
        scenario.cluster.linkSharing = !cli.has("no-link-sharing");
        scenario.options.commMatrix = false;
        scenario.options.recordEvents = false;
        const engine::Evaluation evaluation = engine::evaluate(scenario, &compiler);
        if (!evaluation.problem.empty())
            throw core::InputError("validation row", row.source + ": " + evaluation.problem);
        const double estimated = estimateMetric(row, evaluation);
        const double error = (estimated - row.measured) / row.measured;
        sumAbs += std::abs(error);
        bySource[row.source.substr(0, row.source.find(','))].push_back(std::abs(error));
        char strategy[64];
        std::snprintf(strategy, sizeof strategy, "TP%lld PP%lld DP%lld%s%s, gbs %lld",
                      static_cast<long long>(row.parallel.tp), static_cast<long long>(row.parallel.pp),
                      static_cast<long long>(row.parallel.dp),
                      row.parallel.cp > 1 ? (" CP" + std::to_string(row.parallel.cp)).c_str() : "",
                      row.parallel.ep > 1 ? (" (EP " + std::to_string(row.parallel.ep) + ")").c_str() : "",
                      static_cast<long long>(row.parallel.effectiveGlobalBatch()));
        const char* unit = row.metric == Metric::MegatronTflops || row.metric == Metric::MegatronCoreTflops
                               ? "TFLOP/s per GPU"
                           : row.metric == Metric::TokensPerGpu ? "tokens/s per GPU"
                                                                : "% MFU";
        // Each run was measured, so it fitted its GPUs: a memory estimate above the device's capacity
        // is an error of the memory model (a one-sided check; the sources publish no peak memory).
        const bool fits = !evaluation.figures || !evaluation.figures->outOfMemory;
        overCapacity += fits ? 0 : 1;
        const double memoryGiB = evaluation.figures ? evaluation.figures->memoryBytes / (1024.0 * 1024 * 1024) : 0;
        std::printf("%-74s %6lld  %-34s %9.1f %9.1f %+7.1f%% %7.1fs %5.1f GiB%s  %s\n", row.source.c_str(),
                    static_cast<long long>(row.parallel.ranks()), strategy, row.measured, estimated, 100 * error,
                    secondsSince(start), memoryGiB, fits ? " " : "!", unit);
        std::fflush(stdout);
    }
    for (const auto& [study, errors] : bySource)
        std::printf("  %-72s %3zu rows, MAPE %.1f%%\n", study.c_str(), errors.size(),
                    100 * std::accumulate(errors.begin(), errors.end(), 0.0) / static_cast<double>(errors.size()));
    std::printf("mean absolute percentage error over %zu rows: %.1f%%\n", rows.size(),
                100 * sumAbs / static_cast<double>(rows.size()));
    std::printf("measured runs whose estimated memory per GPU exceeds the device's capacity (marked !): %zu of %zu\n",
                overCapacity, rows.size());
    std::printf("(time: seconds this estimate took; memory: the busiest GPU's estimated peak)\n");

    // Published peaks of memory per GPU (the memory estimate alone: no step is estimated).
    std::printf("\nMemory per GPU against published peaks (torch.cuda.max_memory_reserved, the maximum over the GPUs; "
                "torchtitan's H100s had 96 GB)\n");
    std::printf("%-84s %6s  %-34s %9s %9s %8s\n", "source", "GPUs", "strategy", "measured", "estimate", "error");
    double memoryAbs = 0;
    const std::vector<MemoryRow> memoryRows = publishedMemoryRows();
    for (const MemoryRow& row : memoryRows) {
        if (const auto problems = core::model::validateStrategy(row.model, row.parallel); !problems.empty())
            throw core::InputError("validation row", row.source + ": " + problems.front().message);
        const double estimated =
            core::model::memoryPerRank(row.model, row.parallel).total() / (1024.0 * 1024.0 * 1024.0);
        const double error = (estimated - row.measuredGiB) / row.measuredGiB;
        memoryAbs += std::abs(error);
        char strategy[64];
        std::snprintf(strategy, sizeof strategy, "TP%lld DP%lld%s, gbs %lld", static_cast<long long>(row.parallel.tp),
                      static_cast<long long>(row.parallel.dp),
                      row.parallel.cp > 1 ? (" CP" + std::to_string(row.parallel.cp)).c_str() : "",
                      static_cast<long long>(row.parallel.effectiveGlobalBatch()));
        std::printf("%-84s %6lld  %-34s %5.1f GiB %5.1f GiB %+7.1f%%\n", row.source.c_str(),
                    static_cast<long long>(row.parallel.ranks()), strategy, row.measuredGiB, estimated, 100 * error);
    }
    std::printf("memory: mean absolute percentage error over %zu rows: %.1f%%\n", memoryRows.size(),
                100 * memoryAbs / static_cast<double>(memoryRows.size()));
    return ExitSuccess;
}

const bool registered = Benchmarks::add({"validation",
                                         "estimates against published measurements (Megatron-LM and Megatron-Core, "
                                         "Llama 3, torchtitan, IBM and MosaicML FSDP, NeMo); error per row and MAPE",
                                         runValidation, 50});

} // namespace
} // namespace flint::app
