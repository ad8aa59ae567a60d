// SPDX-License-Identifier: MIT
// `flint model` and `flint sweep`: built-in models and parallel strategies (docs/models.md).
#include "cli/clusteroptions.h"
#include "cli/commands.h"
#include "cli/modeloptions.h"
#include "cli/workloadinput.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#include "core/estimator/estimateexport.h"
#include "core/estimator/linkutilisation.h"
#include "core/fileio.h"
#include "engine/modelcompiler.h"
#include "engine/scenario.h"
#ifdef FLINT_HAVE_MPI
#include "engine/mpisupport.h"
#endif

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace flint::app {

std::vector<OptionSpec> withStrategyOptions(std::vector<OptionSpec> own)
{
    std::vector<OptionSpec> options = {
        {"ranks", 0, "N", "GPUs in all; DP defaults to N / (TP x PP x CP)"},
        {"tp", 0, "N", "tensor-parallel degree (Megatron column/row; default 1)"},
        {"pp", 0, "N", "pipeline stages (default 1)"},
        {"dp", 0, "N", "data-parallel replicas (default: from --ranks, else 1)"},
        {"cp", 0, "N", "context-parallel degree (default 1)"},
        {"ep", 0, "N", "expert-parallel degree, dividing DP (MoE models; default 1)"},
        {"no-sp", 0, {}, "turn sequence parallelism off (on by default with TP > 1)"},
        {"schedule", 0, "NAME", "pipeline schedule: 1f1b (default), gpipe, interleaved"},
        {"virtual-stages", 0, "N", "model chunks per pipeline rank (interleaved; default 2 there, else 1)"},
        {"microbatch-size", 0, "N",
         "sequences per microbatch (default 1; prefill and decode: the global batch / (DP x PP), served at once)"},
        {"global-batch", 0, "N", "sequences per step (default DP x PP x microbatch size x 4)"},
        {"zero", 0, "STAGE", "ZeRO stage: 0, 1 (default), 2, 3 (= fsdp)"},
        {"hsdp-shard", 0, "N",
         "ZeRO-3 hybrid sharding (HSDP): shard over groups of N data-parallel ranks, replicate across them"},
        {"no-reshard-after-forward",
         0,
         {},
         "ZeRO-3: keep each layer's gathered parameters from its forward to its backward pass (with PP: "
         "gathered once a step, torchtitan's default there)"},
        {"fsdp2",
         0,
         {},
         "ZeRO-3 as PyTorch FSDP2 (fully_shard, torchtitan) runs it: after every all-gather a copy on the compute "
         "stream splits the gathered buffer into the unit's parameters"},
        {"no-overlap-grad-reduce",
         0,
         {},
         "ZeRO 0-2: reduce gradients after the whole backward pass (Megatron-LM's local DDP before 2023)"},
        {"overlap-param-gather",
         0,
         {},
         "ZeRO 1-2: gather the updated weights layer by layer during the forward pass, not after the optimizer "
         "(Megatron-Core's --overlap-param-gather)"},
        {"recompute", 0, "MODE", "activation recomputation: none, selective (default), full"},
        {"dtype", 0, "TYPE", "matmul precision: bf16 (default) or fp8"},
        {"fp8-scaling", 0, "MODE",
         "fp8: how tensors are scaled before their casts: delayed (default, Transformer Engine's DelayedScaling) or "
         "current (Float8CurrentScaling, Megatron-Bridge's fp8_cs: an amax pass before each cast)"},
        {"phase", 0, "NAME", "train (default), prefill or decode"},
        {"seq-len", 0, "N", "sequence length (default: the model's)"},
        {"decode-context", 0, "N", "decode: tokens already in the KV cache (default: the sequence length)"},
        {"no-flash", 0, {}, "materialise attention scores instead of flash attention"},
        {"eager-kernels",
         0,
         {},
         "RMSNorm and the rotary embedding as eager PyTorch runs them, a kernel per tensor operation in fp32 "
         "(torchtitan, IBM fms without torch.compile)"},
        {"fused-cross-entropy",
         0,
         {},
         "the loss as one fused kernel computes it over the bf16 logits (Transformer Engine's, Megatron-Bridge's "
         "default) instead of Megatron-LM's kernel per step in fp32"},
        {"tp-comm-overlap",
         0,
         {},
         "pipeline tensor-parallel all-gathers and reduce-scatters with their GEMMs (Megatron-LM)"},
        {"bf16-grad-reduce",
         0,
         {},
         "accumulate and reduce data-parallel gradients in bf16, not fp32 (Megatron-Core's grad_reduce_in_fp32 "
         "= False, as Megatron-Bridge's performance recipes set it)"},
        {"torch-cross-entropy",
         0,
         {},
         "the loss as eager PyTorch's F.cross_entropy on upcast logits (torchtitan): 12 bytes a logit held in its "
         "backward pass, not Megatron-LM's 6 (memory only)"},
        {"adam-param-remainders",
         0,
         {},
         "keep of each fp32 master weight only the 16 bits its bf16 weight lacks: 10 bytes of Adam state a "
         "parameter, not 12 (NeMo's distributed Adam, store_param_remainders)"},
        {"moe-dispatcher", 0, "NAME",
         "how routed tokens reach their experts: alltoall (default: a copy per expert, NCCL all-to-all) or "
         "hybrid-ep (once per NVLink domain over the network, once per GPU over NVLink: Megatron-Core's flex "
         "dispatcher with HybridEP or DeepEP)"},
        {"nvlink-domain", 0, "N",
         "hybrid-ep: ranks per NVLink domain, whose EP ranks must divide EP (default 8, one DGX/HGX node; 72 on a "
         "GB200 NVL72 rack)"}};
    options.insert(options.end(), own.begin(), own.end());
    return options;
}

core::model::TransformerConfig modelFromArgument(const std::string& nameOrFile)
{
    if (const auto* model = core::model::findModel(nameOrFile))
        return *model;
    if (std::filesystem::exists(nameOrFile))
        return core::model::readModelFile(nameOrFile);
    std::string names;
    for (const auto& m : core::model::builtinModels())
        names += (names.empty() ? "" : ", ") + m.name;
    // A path that is not there is a missing file, not a misspelt name.
    if (nameOrFile.find('/') != std::string::npos || nameOrFile.find('.') != std::string::npos)
        throw UsageError(nameOrFile + ": no such model file (built-in models: " + names + ")");
    throw UsageError("unknown model '" + nameOrFile + "' (a model file, or one of " + names + ")");
}

namespace {

std::int64_t positive(const CommandLine& cli, const std::string& name, std::int64_t fallback)
{
    if (!cli.has(name))
        return fallback;
    // One message for every bad value (-2, 0, x): what was given and what is expected.
    const std::string text = cli.value(name);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > (1u << 30))
        throw BadOptionValue("--" + name + " must be a positive integer, not '" + text + "'");
    return static_cast<std::int64_t>(value);
}

} // namespace

/// Options given on `cli` that the strategy `p` does not use, each with why: said, not silently
/// dropped (the strategy's description would not show them).
std::vector<std::string> inapplicableOptions(const CommandLine& cli, const core::model::ParallelConfig& p)
{
    using core::model::Phase;
    using core::model::ZeroStage;
    std::vector<std::string> notes;
    const bool training = p.phase == Phase::Training;
    const auto unused = [&](const char* option, const std::string& why) {
        if (cli.has(option))
            notes.push_back(std::string("--") + option + " has no effect here: " + why);
    };
    if (!training) {
        for (const char* option : {"recompute", "zero", "overlap-param-gather", "no-overlap-grad-reduce",
                                   "no-reshard-after-forward", "fsdp2", "bf16-grad-reduce", "tp-comm-overlap"})
            unused(option, "it applies to training, and this is " + std::string(core::model::displayName(p.phase)));
    } else {
        if (p.zero == ZeroStage::Parameters || p.zero == ZeroStage::None)
            unused("overlap-param-gather", p.zero == ZeroStage::None
                                               ? "without ZeRO every GPU holds whole weights, none are gathered"
                                               : "ZeRO-3 gathers each layer's weights before its use anyway");
        if (p.zero == ZeroStage::Parameters)
            unused("no-overlap-grad-reduce", "ZeRO-3 reduce-scatters each layer's gradients in its backward pass");
        if (p.zero != ZeroStage::Parameters) {
            unused("no-reshard-after-forward", "it applies to ZeRO-3 (FSDP)");
            unused("fsdp2", "it applies to ZeRO-3 (FSDP)");
        }
        if (p.tp == 1)
            unused("tp-comm-overlap", "there is no tensor parallelism (TP 1)");
    }
    if (p.phase != Phase::Decode)
        unused("decode-context", "it applies to the decode phase");
    if (p.dtype != core::Precision::FP8)
        unused("fp8-scaling", "the matmuls run in bf16 (--dtype fp8 for FP8)");
    if (!p.dispatchesByHybridEp())
        unused("nvlink-domain", "it applies to --moe-dispatcher hybrid-ep with EP > 1");
    return notes;
}

core::model::ParallelConfig strategyFromCli(const CommandLine& cli, core::model::ParallelConfig p)
{
    using namespace core::model;
    p.tp = positive(cli, "tp", p.tp);
    p.pp = positive(cli, "pp", p.pp);
    p.cp = positive(cli, "cp", p.cp);
    p.ep = positive(cli, "ep", p.ep);
    if (cli.has("dp")) {
        p.dp = positive(cli, "dp", p.dp);
    } else if (cli.has("ranks")) {
        const std::int64_t ranks = positive(cli, "ranks", 1);
        const std::int64_t others = p.tp * p.pp * p.cp;
        if (ranks % others != 0)
            throw UsageError("--ranks " + std::to_string(ranks) +
                             " is not a multiple of TP x PP x CP = " + std::to_string(others));
        p.dp = ranks / others;
    }
    if (cli.has("ranks") && p.ranks() != positive(cli, "ranks", 1))
        throw UsageError("TP x PP x CP x DP = " + std::to_string(p.ranks()) + ", not --ranks " + cli.value("ranks"));
    if (cli.has("no-sp"))
        p.sequenceParallel = false;
    if (cli.has("schedule")) {
        const auto s = parseSchedule(cli.value("schedule"));
        if (!s)
            throw BadOptionValue("--schedule must be gpipe, 1f1b or interleaved");
        p.schedule = *s;
    }
    p.virtualStages = positive(cli, "virtual-stages", p.virtualStages);
    if (p.virtualStages > 1 && !cli.has("schedule"))
        p.schedule = PipelineSchedule::Interleaved;
    // Interleaving needs two chunks at least; 2 is the least that interleaves.
    if (p.schedule == PipelineSchedule::Interleaved && !cli.has("virtual-stages") && p.virtualStages == 1)
        p.virtualStages = 2;
    p.microbatchSize = positive(cli, "microbatch-size", p.microbatchSize);
    if (cli.has("global-batch"))
        p.globalBatch = positive(cli, "global-batch", 1);
    if (cli.has("zero")) {
        const auto z = parseZero(cli.value("zero"));
        if (!z)
            throw BadOptionValue("--zero must be 0 (none), 1, 2, 3 or fsdp");
        p.zero = *z;
    }
    if (cli.has("recompute")) {
        const auto r = parseRecompute(cli.value("recompute"));
        if (!r)
            throw BadOptionValue("--recompute must be none, selective or full");
        p.recompute = *r;
    }
    if (cli.has("dtype")) {
        const std::string d = cli.value("dtype");
        if (d == "bf16")
            p.dtype = core::Precision::BF16;
        else if (d == "fp8")
            p.dtype = core::Precision::FP8;
        else
            throw BadOptionValue("--dtype must be bf16 or fp8");
    }
    if (cli.has("fp8-scaling")) {
        const std::string mode = cli.value("fp8-scaling");
        if (mode == "delayed")
            p.fp8Scaling = Fp8Scaling::Delayed;
        else if (mode == "current" || mode == "tensorwise")
            p.fp8Scaling = Fp8Scaling::Current;
        else
            throw BadOptionValue("--fp8-scaling must be delayed or current, not '" + mode + "'");
    }
    if (cli.has("phase")) {
        const auto ph = parsePhase(cli.value("phase"));
        if (!ph)
            throw BadOptionValue("--phase must be train, prefill or decode");
        p.phase = *ph;
        if (p.phase != Phase::Training && !cli.has("zero"))
            p.zero = ZeroStage::None;
    }
    if (cli.has("seq-len"))
        p.seqLen = positive(cli, "seq-len", 1);
    if (cli.has("decode-context"))
        p.decodeContext = positive(cli, "decode-context", 1);
    if (cli.has("tp-comm-overlap"))
        p.tpCommOverlap = true;
    if (cli.has("no-flash"))
        p.flashAttention = false;
    if (cli.has("fused-cross-entropy"))
        p.fusedCrossEntropy = true;
    if (cli.has("eager-kernels"))
        p.eagerKernels = true;
    if (cli.has("no-reshard-after-forward"))
        p.reshardAfterForward = false;
    if (cli.has("fsdp2"))
        p.fsdpCopyOut = true;
    if (cli.has("no-overlap-grad-reduce"))
        p.overlapGradReduce = false;
    if (cli.has("overlap-param-gather"))
        p.overlapParamGather = true;
    if (cli.has("hsdp-shard"))
        p.hsdpShard = positive(cli, "hsdp-shard", 1);
    if (cli.has("bf16-grad-reduce"))
        p.gradReduceFp32 = false;
    if (cli.has("torch-cross-entropy"))
        p.torchCrossEntropy = true;
    if (cli.has("adam-param-remainders"))
        p.adamParamRemainders = true;
    if (cli.has("moe-dispatcher")) {
        const std::string name = cli.value("moe-dispatcher");
        if (name == "hybrid-ep" || name == "hybridep" || name == "deepep")
            p.moeDispatcher = MoeDispatcher::HybridEp;
        else if (name == "alltoall" || name == "all-to-all")
            p.moeDispatcher = MoeDispatcher::AllToAll;
        else
            throw BadOptionValue("--moe-dispatcher must be alltoall or hybrid-ep, not '" + name + "'");
    }
    if (cli.has("nvlink-domain"))
        p.nvlinkDomain = positive(cli, "nvlink-domain", 8);
    // Inference serves its batch at once: each replica's sequences in PP microbatches (one per stage
    // in flight), not one sequence after another.
    // The default batch too (DP x PP x 4 sequences): fixed first, as it is counted in microbatches.
    if (p.phase != Phase::Training && !cli.has("microbatch-size")) {
        p.globalBatch = p.effectiveGlobalBatch();
        if (p.globalBatch % (p.dp * p.pp) == 0)
            p.microbatchSize = p.globalBatch / (p.dp * p.pp);
    }
    return p;
}

std::string formatSeconds(double s)
{
    char buffer[64];
    if (s >= 1)
        std::snprintf(buffer, sizeof buffer, "%.3f s", s);
    else if (s >= 1e-3)
        std::snprintf(buffer, sizeof buffer, "%.2f ms", s * 1e3);
    else
        std::snprintf(buffer, sizeof buffer, "%.2f us", s * 1e6);
    return buffer;
}

/// `text` as a JSON string, quotes and control characters escaped (a model file names its model).
std::string jsonString(const std::string& text)
{
    return nlohmann::json(text).dump();
}

/// `value` rounded, with thousands separators: 429,700.
std::string grouped(double value)
{
    std::string digits = std::to_string(static_cast<long long>(std::llround(value)));
    for (std::ptrdiff_t at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > (digits[0] == '-' ? 1 : 0); at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

/// `bytes` in GiB to a tenth, with thousands separators: 1,234.5.
std::string gib(double bytes)
{
    const long long tenths = std::llround(bytes / 1073741824.0 * 10.0);
    const long long whole = tenths / 10;
    return grouped(static_cast<double>(whole)) + "." + std::to_string(std::llabs(tenths % 10));
}

std::string figuresText(const core::model::CompiledModel& compiled, const core::model::StepFigures& f)
{
    char text[1024];
    const auto& mem = compiled.memory;
    const bool decode = compiled.parallel.phase == core::model::Phase::Decode;
    const bool training = compiled.parallel.phase == core::model::Phase::Training;
    // Inference holds weights, the KV cache and one layer's working set: named as such.
    const std::string breakdown = training ? "weights " + gib(mem.weights) + ", gradients " + gib(mem.gradients) +
                                                 ", optimizer " + gib(mem.optimizer) + ", activations " +
                                                 gib(mem.activations) + ", buffers " + gib(mem.commBuffers) + " GiB"
                                           : "weights " + gib(mem.weights) + ", KV cache " + gib(mem.activations) +
                                                 ", working set " + gib(mem.commBuffers) + " GiB";
    std::snprintf(text, sizeof text,
                  "step time: %s\n"
                  "%s: %s /s (%s per GPU)\n"
                  "model FLOPs utilisation: %.1f%% (PaLM definition, of the dense BF16 peak)\n"
                  "pipeline bubble (schedule): %.1f%%\n"
                  "exposed communication (busiest rank): %.1f%% of the step\n"
                  "memory per GPU: %s GiB of %s GiB%s (%s)\n",
                  formatSeconds(f.stepTime).c_str(), decode ? "generated tokens" : "tokens",
                  grouped(f.tokensPerSecond).c_str(),
                  grouped(f.tokensPerSecond / static_cast<double>(compiled.workload.rankCount())).c_str(), 100 * f.mfu,
                  100 * f.bubbleFraction, 100 * f.exposedCommFraction, gib(f.memoryBytes).c_str(),
                  gib(f.memoryCapacity).c_str(), f.outOfMemory ? " -- OUT OF MEMORY" : "", breakdown.c_str());
    return text;
}

namespace {

std::string modelSummary(const core::model::TransformerConfig& m)
{
    std::ostringstream out;
    out << m.title << " (" << m.name << ")\n  source: " << m.source << "\n";
    out << "  layers " << m.layers << ", hidden " << m.hidden << ", heads " << m.heads << " (key/value " << m.kvHeads
        << ", dim " << m.headDimension() << "), FFN " << m.ffn << (m.gatedMlp ? " (gated)" : "") << ", vocabulary "
        << m.vocab << ", sequence " << m.seqLen << "\n";
    if (m.isMoe())
        out << "  experts " << m.experts << " (top " << m.topK << ", FFN " << m.expertFfn << ", shared "
            << m.sharedExperts << "), first " << m.denseLayers << " layers dense\n";
    char params[128];
    std::snprintf(params, sizeof params, "  parameters %.1f B (%.1f B active per token)\n", m.parameters() / 1e9,
                  m.activeParameters() / 1e9);
    out << params;
    return out.str();
}

int runModelList()
{
    std::printf("%-14s %-24s %8s %7s %7s %7s  %s\n", "NAME", "MODEL", "PARAMS", "LAYERS", "HIDDEN", "SEQ", "SOURCE");
    for (const auto& m : core::model::builtinModels())
        std::printf("%-14s %-24s %7.1fB %7lld %7lld %7lld  %s\n", m.name.c_str(), m.title.c_str(), m.parameters() / 1e9,
                    static_cast<long long>(m.layers), static_cast<long long>(m.hidden),
                    static_cast<long long>(m.seqLen), m.source.c_str());
    return ExitSuccess;
}

int runModel(const std::vector<std::string>& arguments)
{
    CommandLine cli(
        "model", "list | show MODEL | emit MODEL [STRATEGY] -o DIR | estimate MODEL [STRATEGY] [CLUSTER] [--json]",
        "Built-in models and parallel strategies (docs/models.md). MODEL is a built-in name (see 'flint\n"
        "model list') or a model file. 'emit' writes the StableHLO blocks the model compiles to;\n"
        "'estimate' compiles the step through the MLIR partitioner, composes the pipeline and\n"
        "estimates it: step time, tokens/s, MFU, bubble, exposed communication, memory per GPU.\n"
        "Without --tp, --pp, --dp, --cp, --ep, --ranks, --global-batch or --microbatch-size a training\n"
        "step runs as the explorer opens it: TP 8 x PP 8 x DP 16 on 1,024 GPUs with a global batch of 1,536\n"
        "(GPT-3 175B's published layout) where it allows that, else one node of 8 GPUs with the\n"
        "largest TP it allows; with any of them, the degrees not given are 1.",
        withClusterOptions(
            withStrategyOptions({{"output", 'o', "DIR", "emit: directory for the .mlir files"},
                                 {"json", 0, {}, "estimate: print JSON"},
                                 {"trace", 0, "FILE", "estimate: write a Perfetto trace"},
                                 {"trace-ranks", 0, "N", "estimate: ranks in the trace (default 256, the lowest)"}})));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const auto& pos = cli.positionals();
    if (pos.empty())
        throw UsageError("missing action: list, show, emit or estimate");
    const std::string& action = pos[0];
    if (action == "list")
        return runModelList();
    if (pos.size() != 2)
        throw UsageError("'" + action + "' takes one MODEL");
    const core::model::TransformerConfig model = modelFromArgument(pos[1]);
    if (action == "show") {
        std::fputs(modelSummary(model).c_str(), stdout);
        return ExitSuccess;
    }
    // Without a layout a training step runs as the explorer opens it (GPT-3 175B on 1,024 GPUs), not
    // on one GPU it does not fit on; inference keeps its own defaults (a batch served at once).
    bool layoutGiven = false;
    for (const char* option : {"tp", "pp", "dp", "cp", "ep", "ranks", "global-batch", "microbatch-size"})
        layoutGiven = layoutGiven || cli.has(option);
    core::model::ParallelConfig parallel = strategyFromCli(cli, {});
    if (!layoutGiven && parallel.phase == core::model::Phase::Training) {
        parallel = strategyFromCli(cli, core::model::defaultStrategy(model));
    } else if (parallel.phase == core::model::Phase::Training && !cli.has("ranks") && !cli.has("dp") &&
               action == "estimate") {
        // A degree alone (--tp 4) leaves the others at 1: say so, as the default layout is gone.
        const core::model::ParallelConfig fallback = core::model::defaultStrategy(model);
        if (parallel.ranks() != fallback.ranks())
            std::fprintf(stderr,
                         "note: degrees not given are 1, so this runs on %lld GPUs; without --tp, --pp, --dp, --cp, "
                         "--ep, --ranks, --global-batch or --microbatch-size %s runs on %lld (add --ranks N or --dp "
                         "N to choose)\n",
                         static_cast<long long>(parallel.ranks()), model.title.c_str(),
                         static_cast<long long>(fallback.ranks()));
    }
    if (const auto problems = core::model::validateStrategy(model, parallel); !problems.empty()) {
        std::string text;
        for (const auto& p : problems)
            text += "\n  " + p.message + "; try " + p.suggestion;
        throw core::InputError("strategy", "cannot run " + model.title + " as " + parallel.describe() + ":" + text);
    }
    if (action == "emit") {
        if (!cli.has("output"))
            throw UsageError("emit needs -o DIR");
        const std::filesystem::path dir = cli.value("output");
        // All files or none: a folder this command created is removed again when a write fails.
        std::error_code ec;
        const bool createFolder = !std::filesystem::exists(dir, ec);
        if (createFolder && !std::filesystem::create_directories(dir, ec))
            throw core::OutputError("cannot create " + dir.string() + ": " + ec.message());
        if (!std::filesystem::is_directory(dir, ec))
            throw core::OutputError("cannot write into " + dir.string() + ": not a folder");
        try {
            core::OutputTransaction outputs;
            for (const auto& [name, text] : core::model::ModelCompiler::blockTexts(model, parallel)) {
                std::string file = name;
                for (char& c : file)
                    if (c == ' ' || c == '(' || c == ')')
                        c = c == ' ' ? '_' : '\0';
                file.erase(std::remove(file.begin(), file.end(), '\0'), file.end());
                outputs.write((dir / (model.name + "." + file + ".mlir")).string(), text);
            }
            outputs.commit();
        } catch (...) {
            if (createFolder)
                std::filesystem::remove(dir, ec);
            throw;
        }
        std::printf("wrote the blocks of %s under %s to %s\n", model.title.c_str(), parallel.describe().c_str(),
                    dir.string().c_str());
        return ExitSuccess;
    }
    if (action != "estimate")
        throw UsageError("unknown action '" + action + "' (list, show, emit, estimate)");
    if (cli.has("zero") && parallel.phase == core::model::Phase::Training &&
        parallel.zero != core::model::ZeroStage::None && parallel.shardGroup() * parallel.cp == 1)
        std::fprintf(stderr,
                     "note: %s %s shards nothing: every GPU holds whole weights, gradients and "
                     "optimizer state\n",
                     std::string(core::model::displayName(parallel.zero)).c_str(),
                     parallel.dp == 1 ? "with DP 1" : "over shard groups of 1");
    for (const std::string& note : inapplicableOptions(cli, parallel))
        std::fprintf(stderr, "note: %s\n", note.c_str());
    engine::Scenario scenario;
    scenario.model = model;
    scenario.parallel = parallel;
    scenario.cluster = makeCluster(cli, parallel.ranks());
    scenario.commStreamsFixed = cli.has("comm-streams");
    core::model::ModelCompiler compiler;
    const engine::Evaluation evaluation = engine::evaluate(scenario, &compiler);
    const core::model::CompiledModel& compiled = *evaluation.compiled;
    const core::EstimateResult& result = *evaluation.result;
    const core::model::StepFigures& figures = *evaluation.figures;
    const core::Cluster& cluster = evaluation.scenario.cluster;
    if (cli.has("trace")) {
        const std::size_t traceRanks = positive(cli, "trace-ranks", 256);
        core::OutputTransaction outputs;
        outputs.write(cli.value("trace"), core::chromeTraceJson(result, compiled.workload, traceRanks, &cluster));
        outputs.commit();
        noteTraceRanks(compiled.workload.rankCount(), traceRanks);
    }
    // Warnings go to stderr with --json too (and into the document): a script must not lose them.
    for (const core::Message& w : evaluation.workload->warnings)
        std::fprintf(stderr, "warning: %s\n", w.text().c_str());
    if (cli.has("json")) {
        const auto& mem = compiled.memory;
        // Bytes as integers (exact below 2^53); inference names what its memory holds, as the text does.
        const auto bytes = [](double value) { return static_cast<std::int64_t>(std::llround(value)); };
        // Figures to 9 significant digits: what the model can tell, and stable in golden files.
        const auto figure = [](double value) {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", value);
            return std::strtod(text, nullptr);
        };
        nlohmann::ordered_json memory;
        memory["weights_bytes"] = bytes(mem.weights);
        if (parallel.phase == core::model::Phase::Training) {
            memory["gradients_bytes"] = bytes(mem.gradients);
            memory["optimizer_bytes"] = bytes(mem.optimizer);
            memory["activations_bytes"] = bytes(mem.activations);
            memory["buffers_bytes"] = bytes(mem.commBuffers);
        } else {
            memory["kv_cache_bytes"] = bytes(mem.activations);
            memory["working_set_bytes"] = bytes(mem.commBuffers);
        }
        nlohmann::ordered_json j;
        j["model"] = model.name;
        j["strategy"] = parallel.describe();
        // The strategy's settings one by one, for scripts that compare runs (the text above is for
        // people).
        nlohmann::ordered_json degrees;
        degrees["tp"] = parallel.tp;
        degrees["pp"] = parallel.pp;
        degrees["dp"] = parallel.dp;
        degrees["cp"] = parallel.cp;
        degrees["ep"] = parallel.ep;
        degrees["sequence_parallel"] = parallel.splitsSequence();
        const bool training = parallel.phase == core::model::Phase::Training;
        if (training) { // what only a training step has
            degrees["tp_comm_overlap"] = parallel.tp > 1 && parallel.tpCommOverlap;
            degrees["schedule"] = std::string(core::model::displayName(parallel.schedule));
            degrees["virtual_stages"] = parallel.schedule == core::model::PipelineSchedule::Interleaved
                                            ? parallel.virtualStages
                                            : std::int64_t{1};
            degrees["zero"] = static_cast<int>(parallel.zero);
            if (parallel.zero == core::model::ZeroStage::Parameters) {
                degrees["reshard_after_forward"] = parallel.reshardAfterForward;
                degrees["shard_group"] = parallel.shardGroup();
                degrees["fsdp2_copy_out"] = parallel.fsdpCopyOut;
            } else if (parallel.dp > 1) {
                degrees["overlap_grad_reduce"] = parallel.overlapGradReduce;
                degrees["overlap_param_gather"] = parallel.overlapParamGather;
            }
            if (parallel.dp > 1)
                degrees["grad_reduce_fp32"] = parallel.gradReduceFp32;
            degrees["recompute"] = std::string(core::model::displayName(parallel.recompute));
        }
        if (parallel.ep > 1) {
            degrees["moe_dispatcher"] = std::string(core::model::displayName(parallel.moeDispatcher));
            if (parallel.dispatchesByHybridEp())
                degrees["nvlink_domain"] = parallel.nvlinkDomain;
        }
        degrees["dtype"] = std::string(core::displayName(parallel.dtype));
        if (parallel.dtype == core::Precision::FP8)
            degrees["fp8_scaling"] = std::string(core::model::displayName(parallel.fp8Scaling));
        j["parallel"] = std::move(degrees);
        j["ranks"] = compiled.workload.rankCount();
        j["step_time_s"] = figure(figures.stepTime);
        j["tokens_per_s"] = figure(figures.tokensPerSecond);
        j["mfu"] = figure(figures.mfu);
        j["bubble"] = figure(figures.bubbleFraction);
        j["exposed_comm"] = figure(figures.exposedCommFraction);
        j["memory_bytes"] = bytes(figures.memoryBytes);
        j["memory_capacity_bytes"] = bytes(figures.memoryCapacity);
        j["out_of_memory"] = figures.outOfMemory;
        j["device"] = cluster.device.name;
        j["cluster"] = cluster.name;
        j["phase"] = std::string(core::model::displayName(parallel.phase));
        j["global_batch"] = parallel.effectiveGlobalBatch();
        j["microbatch_size"] = parallel.microbatchSize;
        j["microbatches"] = parallel.microbatches();
        j["memory"] = std::move(memory);
        j["warnings"] = core::texts(evaluation.workload->warnings);
        j["traffic_per_dim_bytes"] = result.bytesPerDim;
        if (const core::LinkUtilisation links = core::linkUtilisation(compiled.workload, cluster, result);
            !links.dims.empty()) {
            auto& out = j["link_utilisation"] = nlohmann::ordered_json::array();
            for (std::size_t d = 0; d < links.dims.size(); ++d)
                out.push_back(
                    {{"dim", d}, {"average", figure(links.dims[d].average)}, {"busiest", figure(links.dims[d].peak)}});
        }
        std::printf("%s\n", j.dump().c_str());
        return ExitSuccess;
    }
    std::printf("%s on %zu x %s (%s%s): %s\n", model.title.c_str(), compiled.workload.rankCount(),
                cluster.device.name.c_str(), cluster.topology.describe().c_str(),
                cluster.model == core::CostModel::AstraSim ? ", ASTRA-sim cost model" : "",
                parallel.describe().c_str());
    std::fputs(figuresText(compiled, figures).c_str(), stdout);
    std::fputs(networkSummary(compiled.workload, cluster, result).c_str(), stdout);
    std::fputs(topOpsSummary(core::topOps(result, compiled.workload, 8), formatSeconds).c_str(), stdout);
    return ExitSuccess;
}

/// One swept parameter: its name and values.
struct Sweep {
    std::string name;
    std::vector<std::string> values;
};

Sweep parseSweep(const std::string& text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError("--vary expects NAME=V1,V2,... (e.g. tp=1,2,4,8)");
    Sweep s{text.substr(0, eq), {}};
    static const std::vector<std::string> known = {"tp",
                                                   "pp",
                                                   "dp",
                                                   "cp",
                                                   "ep",
                                                   "microbatch-size",
                                                   "global-batch",
                                                   "virtual-stages",
                                                   "zero",
                                                   "recompute",
                                                   "dtype",
                                                   "fp8-scaling",
                                                   "schedule",
                                                   "moe-dispatcher",
                                                   "nvlink-domain",
                                                   "bandwidth-scale",
                                                   "scale-out-bandwidth",
                                                   "ranks"};
    if (std::find(known.begin(), known.end(), s.name) == known.end()) {
        std::string list;
        for (const auto& k : known)
            list += (list.empty() ? "" : ", ") + k;
        throw UsageError("cannot vary '" + s.name + "' (one of " + list + ")");
    }
    std::stringstream in(text.substr(eq + 1));
    for (std::string v; std::getline(in, v, ',');) {
        if (v.empty())
            continue;
        // The same value twice would estimate the same point twice and list it twice: a typo.
        if (std::find(s.values.begin(), s.values.end(), v) != s.values.end())
            throw UsageError("--vary " + s.name + " names " + v + " twice");
        s.values.push_back(v);
    }
    return s;
}

/// One row of a sweep's table: the swept values, the strategy they give, and its evaluation.
struct SweepRow {
    std::vector<std::string> point;
    std::string strategy;
    engine::Evaluation evaluation;
};

int printSweep(const CommandLine& cli, const core::model::TransformerConfig& model, const std::vector<Sweep>& sweeps,
               std::vector<SweepRow>& rows, const std::vector<std::size_t>& scenarioRow,
               const std::vector<engine::Evaluation>& evaluations, engine::Objective objective,
               std::int64_t fixedBatch);

#ifdef FLINT_HAVE_MPI
/// A point's outcome as text for another process: its problem and figures, the numbers as hex
/// floats, so that the table printed from them is the one a single process prints.
std::string encodeOutcome(std::size_t index, const engine::Evaluation& e)
{
    std::string text = std::to_string(index) + " " + (e.figures ? "1" : "0");
    const core::model::StepFigures f = e.figures.value_or(core::model::StepFigures{});
    for (double v : {f.stepTime, f.tokensPerSecond, f.mfu, f.bubbleFraction, f.exposedCommFraction, f.memoryBytes,
                     f.memoryCapacity}) {
        char number[64];
        std::snprintf(number, sizeof number, " %a", v);
        text += number;
    }
    text += std::string(" ") + (f.outOfMemory ? "1" : "0") + " " + std::to_string(e.problem.size()) + " " + e.problem;
    return text;
}

/// Reads the outcomes encodeOutcome wrote, one after another, into `evaluations`.
void decodeOutcomes(const std::string& text, std::vector<engine::Evaluation>& evaluations)
{
    const char* at = text.c_str();
    const char* end = at + text.size();
    while (true) {
        while (at < end && *at == ' ')
            ++at;
        if (at == end)
            break;
        char* next = nullptr;
        const auto number = [&] {
            const double v = std::strtod(at, &next);
            if (next == at)
                throw std::runtime_error("a sweep process sent an unreadable result");
            at = next;
            return v;
        };
        const auto index = static_cast<std::size_t>(number());
        const bool hasFigures = number() != 0;
        core::model::StepFigures f;
        for (double* v : {&f.stepTime, &f.tokensPerSecond, &f.mfu, &f.bubbleFraction, &f.exposedCommFraction,
                          &f.memoryBytes, &f.memoryCapacity})
            *v = number();
        f.outOfMemory = number() != 0;
        const auto length = static_cast<std::size_t>(number());
        ++at; // the space before the problem
        if (index >= evaluations.size() || at + length > end)
            throw std::runtime_error("a sweep process sent an unreadable result");
        engine::Evaluation& e = evaluations[index];
        e.problem.assign(at, length);
        at += length;
        if (hasFigures)
            e.figures = f;
    }
}

/// Evaluates `scenarios` over the MPI processes, point i on process i mod size (neighbouring points
/// cost alike, so dealing them out balances the load), and returns every evaluation on rank 0 (the
/// points of others with their figures and problems only; see Evaluation::estimated).
std::vector<engine::Evaluation> evaluateDistributed(const engine::mpi::Session& session,
                                                    const std::vector<engine::Scenario>& scenarios,
                                                    core::model::ModelCompiler& compiler)
{
    std::vector<engine::Scenario> mine;
    std::vector<std::size_t> mineIndex;
    for (std::size_t i = static_cast<std::size_t>(session.rank()); i < scenarios.size();
         i += static_cast<std::size_t>(session.size())) {
        mine.push_back(scenarios[i]);
        mineIndex.push_back(i);
    }
    std::vector<engine::Evaluation> local = engine::evaluateAll(mine, &compiler);
    std::string outcomes;
    for (std::size_t k = 0; k < local.size(); ++k)
        outcomes += encodeOutcome(mineIndex[k], local[k]) + " ";
    const std::vector<std::string> all = session.gather(outcomes);
    std::vector<engine::Evaluation> evaluations(scenarios.size());
    if (!session.root())
        return evaluations;
    for (std::size_t i = 0; i < scenarios.size(); ++i)
        evaluations[i].scenario = scenarios[i];
    for (std::size_t k = 0; k < local.size(); ++k) // rank 0's own keep their results
        evaluations[mineIndex[k]] = std::move(local[k]);
    for (std::size_t p = 1; p < all.size(); ++p)
        decodeOutcomes(all[p], evaluations);
    return evaluations;
}
#endif

int runSweep(const std::vector<std::string>& arguments)
{
    const auto makeCli = [] {
        return CommandLine(
            "sweep", "MODEL --vary NAME=V1,V2,... [--vary NAME=...] [STRATEGY] [CLUSTER] [--csv FILE]",
            "Estimates MODEL for every combination of one or two swept parameters (strategy options such\n"
            "as tp, pp, dp, ranks, microbatch-size, zero, recompute, dtype, schedule, moe-dispatcher; or\n"
            "the network's bandwidth-scale / scale-out-bandwidth), prints a table and marks the best feasible\n"
            "configuration (valid, fits in memory): most tokens/s per GPU, or highest MFU with --objective\n"
            "mfu. With --ranks fixed, DP follows TP x PP x CP. Compiled blocks are reused between points.\n"
            "Started by mpirun (or srun), the points are dealt out to the processes and rank 0 prints the\n"
            "same table (docs/replay.md).",
            withClusterOptions(
                withStrategyOptions({{"vary", 0, "NAME=LIST", "a swept parameter (once or twice)"},
                                     {"csv", 0, "FILE", "write the table as CSV"},
                                     {"objective", 0, "NAME", "best by: throughput (default) or mfu"}})));
    };
    CommandLine cli = makeCli();
    // --vary may repeat: collect its values before the parser keeps only the last.
    std::vector<Sweep> sweeps;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--vary" && i + 1 < arguments.size()) {
            sweeps.push_back(parseSweep(arguments[++i]));
        } else if (a.rfind("--vary=", 0) == 0) {
            sweeps.push_back(parseSweep(a.substr(7)));
        } else {
            rest.push_back(a);
        }
    }
    if (!cli.parseOrShowHelp(rest))
        return ExitSuccess;
    const core::model::TransformerConfig model = modelFromArgument(cli.onePositional("MODEL"));
    if (sweeps.empty() || sweeps.size() > 2)
        throw UsageError("give one or two --vary NAME=V1,V2,...");
    const auto objective = engine::parseObjective(cli.value("objective", "throughput"));
    if (!objective)
        throw UsageError("--objective must be throughput or mfu");

    // Points compare only at one global batch: without --global-batch (and when the batch is not
    // swept), every point takes the largest of their default batches (DP x PP x microbatch x 4),
    // rounded up to a multiple every point's DP x microbatch divides. Otherwise the default would
    // change with the strategy and the best point with it.
    const bool batchSwept =
        std::any_of(sweeps.begin(), sweeps.end(), [](const Sweep& s) { return s.name == "global-batch"; });
    std::int64_t fixedBatch = 0;
    if (!cli.has("global-batch") && !batchSwept) {
        std::int64_t largest = 0, multiple = 1;
        for (std::size_t i = 0; i < sweeps[0].values.size(); ++i)
            for (std::size_t j = 0; j < (sweeps.size() > 1 ? sweeps[1].values.size() : 1); ++j) {
                std::vector<std::string> args = rest;
                for (std::size_t k = 0; k < sweeps.size(); ++k)
                    args.insert(args.end(), {"--" + sweeps[k].name, sweeps[k].values[k == 0 ? i : j]});
                CommandLine pointCli = makeCli();
                pointCli.parse(args);
                try {
                    const core::model::ParallelConfig p = strategyFromCli(pointCli, {});
                    largest = std::max(largest, p.effectiveGlobalBatch());
                    multiple = std::lcm(multiple, p.dp * p.microbatchSize);
                } catch (const UsageError&) {
                    continue; // refused again below, with its message; no batch to take from it
                }
                if (multiple > (std::int64_t{1} << 24))
                    break;
            }
        // A common batch far above every default (microbatch sizes 3, 5 and 7 make one of
        // thousands) would not be the run the user meant: then each point keeps its own, and the
        // table says so.
        const std::int64_t common =
            largest > 0 && multiple <= (std::int64_t{1} << 24) ? (largest + multiple - 1) / multiple * multiple : 0;
        if (common > 0 && common <= 4 * largest) {
            fixedBatch = common;
            rest.insert(rest.end(), {"--global-batch", std::to_string(fixedBatch)});
        } else if (largest > 0) {
            fixedBatch = -1;
        }
    }

    // Every combination of the swept values, re-parsed as options into a scenario; a combination
    // the options refuse is a row with its problem and no estimate.
    std::vector<SweepRow> rows;
    std::vector<engine::Scenario> scenarios;
    std::vector<std::size_t> scenarioRow;
    const std::size_t second = sweeps.size() > 1 ? sweeps[1].values.size() : 1;
    for (std::size_t i = 0; i < sweeps[0].values.size(); ++i)
        for (std::size_t j = 0; j < second; ++j) {
            std::vector<std::string> args = rest;
            SweepRow row;
            for (std::size_t k = 0; k < sweeps.size(); ++k) {
                const std::string& value = sweeps[k].values[k == 0 ? i : j];
                args.push_back("--" + sweeps[k].name);
                args.push_back(value);
                row.point.push_back(value);
            }
            CommandLine pointCli = makeCli();
            pointCli.parse(args);
            try {
                engine::Scenario scenario;
                scenario.model = model;
                scenario.parallel = strategyFromCli(pointCli, {});
                row.strategy = scenario.parallel.describe();
                scenario.cluster = makeCluster(pointCli, scenario.parallel.ranks());
                scenario.commStreamsFixed = pointCli.has("comm-streams");
                scenario.options.commMatrix = false;
                scenario.options.recordEvents = false;
                scenarios.push_back(std::move(scenario));
                scenarioRow.push_back(rows.size());
            } catch (const BadOptionValue&) {
                throw; // a typo in a swept value: no sweep to show
            } catch (const UsageError& e) {
                row.evaluation.problem = e.what();
            }
            rows.push_back(std::move(row));
        }
    const bool progress = isatty(fileno(stderr)) != 0; // "3/9" on a terminal only
    core::model::ModelCompiler compiler;
#ifdef FLINT_HAVE_MPI
    // Under mpirun the points are dealt out to the processes and the table is gathered on rank 0.
    if (engine::mpi::launchedByLauncher()) {
        engine::mpi::Session session;
        if (!session.root()) { // rank 0 alone speaks
            std::freopen("/dev/null", "w", stdout);
            std::freopen("/dev/null", "w", stderr);
        }
        const std::vector<engine::Evaluation> evaluations = evaluateDistributed(session, scenarios, compiler);
        if (!session.root())
            return ExitSuccess;
        return printSweep(cli, model, sweeps, rows, scenarioRow, evaluations, *objective, fixedBatch);
    }
#endif
    const auto evaluations =
        engine::evaluateAll(scenarios, &compiler, {}, [&](std::size_t index, const engine::Evaluation&) {
            if (progress)
                std::fprintf(stderr, "\r%zu/%zu", index + 1, scenarios.size());
        });
    if (progress)
        std::fprintf(stderr, "\r          \r");
    return printSweep(cli, model, sweeps, rows, scenarioRow, evaluations, *objective, fixedBatch);
}

int printSweep(const CommandLine& cli, const core::model::TransformerConfig& model, const std::vector<Sweep>& sweeps,
               std::vector<SweepRow>& rows, const std::vector<std::size_t>& scenarioRow,
               const std::vector<engine::Evaluation>& evaluations, engine::Objective objective, std::int64_t fixedBatch)
{
    for (std::size_t k = 0; k < evaluations.size(); ++k)
        rows[scenarioRow[k]].evaluation = evaluations[k];
    std::vector<engine::Evaluation> all;
    for (const SweepRow& row : rows)
        all.push_back(row.evaluation);
    const int bestRow = engine::bestIndex(all, objective);
    const std::size_t best = bestRow < 0 ? rows.size() : static_cast<std::size_t>(bestRow);
    // Per GPU, so that points with different GPU counts compare fairly.
    std::printf("%s: sweep of %s%s\n", model.title.c_str(), sweeps[0].name.c_str(),
                sweeps.size() > 1 ? (" x " + sweeps[1].name).c_str() : "");
    if (fixedBatch > 0)
        std::printf("global batch %lld sequences at every point (--global-batch sets another)\n",
                    static_cast<long long>(fixedBatch));
    else if (fixedBatch < 0)
        std::printf("global batch: each point's default, DP x PP x microbatch size x 4 (no common batch near them; "
                    "--global-batch N compares the points at one)\n");
    // Each swept column as wide as its name or its longest value, and at least 10.
    std::vector<std::size_t> widths;
    for (const Sweep& s : sweeps) {
        std::size_t width = std::max<std::size_t>(9, s.name.size());
        for (const std::string& v : s.values)
            width = std::max(width, v.size());
        widths.push_back(width + 1);
    }
    const auto cell = [&widths](std::size_t column, const std::string& text) {
        return text + std::string(widths[column] - std::min(widths[column], text.size()), ' ');
    };
    std::string head;
    for (std::size_t k = 0; k < sweeps.size(); ++k)
        head += cell(k, sweeps[k].name);
    std::printf("  %s %12s %14s %7s %7s %8s %10s  %s\n", head.c_str(), "step time", "tokens/s", "MFU", "bubble",
                "exposed", "memory", "note");
    std::ostringstream csv;
    for (const Sweep& s : sweeps)
        csv << s.name << ",";
    csv << "strategy,step_time_s,tokens_per_s,mfu,bubble,exposed_comm,memory_gib,status,best\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const SweepRow& row = rows[r];
        std::string point;
        for (std::size_t k = 0; k < row.point.size() && k < widths.size(); ++k)
            point += cell(k, row.point[k]);
        const engine::Evaluation& e = row.evaluation;
        const bool estimated = e.estimated();
        const core::model::StepFigures f = e.figures.value_or(core::model::StepFigures{});
        const std::string note = e.problem.empty() ? e.status() : "invalid: " + e.problem;
        if (estimated)
            std::printf("%s %s %12s %14s %6.1f%% %6.1f%% %7.1f%% %7s GiB  %s\n", r == best ? "*" : " ", point.c_str(),
                        formatSeconds(f.stepTime).c_str(), grouped(f.tokensPerSecond).c_str(), 100 * f.mfu,
                        100 * f.bubbleFraction, 100 * f.exposedCommFraction, gib(f.memoryBytes).c_str(), note.c_str());
        else
            std::printf("  %s %s\n", point.c_str(), note.c_str());
        for (const std::string& v : row.point)
            csv << v << ",";
        std::string status = note.empty() ? "ok" : note;
        for (char& c : status)
            if (c == ',' || c == '"')
                c = ';';
        csv << "\"" << row.strategy << "\"," << f.stepTime << "," << f.tokensPerSecond << "," << f.mfu << ","
            << f.bubbleFraction << "," << f.exposedCommFraction << "," << f.memoryBytes / 1073741824.0 << ",\""
            << status << "\"," << (r == best ? 1 : 0) << "\n";
    }
    if (best < rows.size())
        std::printf("* best feasible: %s\n", rows[best].strategy.c_str());
    else {
        // Say what came closest: the estimated point that needs the least memory.
        std::size_t leanest = rows.size();
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const auto& f = rows[r].evaluation.figures;
            if (f && (leanest == rows.size() || f->memoryBytes < rows[leanest].evaluation.figures->memoryBytes))
                leanest = r;
        }
        if (leanest < rows.size()) {
            const auto& f = *rows[leanest].evaluation.figures;
            std::printf("no feasible configuration: the leanest, %s, needs %s GiB per GPU of %s (more GPUs, "
                        "ZeRO, recomputation or a smaller microbatch would lower it)\n",
                        rows[leanest].strategy.c_str(), gib(f.memoryBytes).c_str(), gib(f.memoryCapacity).c_str());
        } else {
            std::printf("no feasible configuration: no point could be estimated (see the notes above)\n");
        }
    }
    if (cli.has("csv")) {
        core::OutputTransaction outputs;
        outputs.write(cli.value("csv"), csv.str());
        outputs.commit();
    }
    return ExitSuccess;
}

const bool registeredModel = Commands::add(
    {"model", "built-in models: list, show, emit as StableHLO, estimate a parallel strategy", runModel, 35});
const bool registeredSweep = Commands::add(
    {"sweep", "estimate a model over one or two swept parameters; table, CSV, best marked", runSweep, 36});

} // namespace
} // namespace flint::app
