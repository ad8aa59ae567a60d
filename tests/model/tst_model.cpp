// SPDX-License-Identifier: MIT
// Built-in models and strategies (issue 7): the library, model files, strategy validation, pipeline
// schedules, memory and FLOPs by hand, and the collectives, groups and bytes of compiled steps
// against hand calculation on a tiny model.
#include "core/error.h"
#include "core/estimator/collectivemodel.h"
#include "core/estimator/estimate.h"
#include "core/model/modelconfig.h"
#include "core/model/pipelineschedule.h"
#include "engine/modelcompiler.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <QtTest>

using namespace flint::core;
using namespace flint::core::model;

namespace {

/// 2 layers, hidden 256, 4 heads of 64, FFN 1,024, vocabulary 1,024 (a multiple of 128 x TP, so
/// Megatron's padding adds nothing), sequence 128, untied, rotary.
TransformerConfig tinyModel()
{
    return parseModelText("layers = 2\nhidden = 256\nheads = 4\nffn = 1024\nvocab = 1024\nseq_len = 128\n",
                          "tiny.model");
}

/// ZeRO-3 / FSDP on DP 3 for tinyModel() (3 divides none of its dimensions: FSDP pads its flat
/// parameters), 2 microbatches of 1, full recomputation.
ParallelConfig tinyFsdp()
{
    ParallelConfig p;
    p.dp = 3;
    p.globalBatch = 6;
    p.zero = ZeroStage::Parameters;
    p.recompute = Recompute::Full;
    return p;
}

/// tinyModel with every layer a mixture of `experts` experts of 512, `topK` of them active.
TransformerConfig tinyMoe(std::int64_t experts, std::int64_t topK)
{
    TransformerConfig moe = tinyModel();
    moe.experts = experts;
    moe.topK = topK;
    moe.expertFfn = 512;
    return moe;
}

// layer: Q, K, V, O 4 x 256 x 256 + FFN 2 x 256 x 1,024 + two norms 2 x 256 = 786,944;
// embedding 1,024 x 256, output 256 x 1,024, final norm 256: 524,544.
constexpr double kTinyParameters = 2 * 786'944.0 + 524'544.0;

struct Count {
    std::size_t ops = 0;
    std::uint64_t bytes = 0;
    std::set<std::vector<std::int32_t>> groups;
};

/// Collectives of `kind` on `rank` whose scope starts with `scope`.
Count collectives(const Workload& w, std::size_t rank, CollectiveKind kind, const std::string& scope = {})
{
    Count c;
    for (const Op& op : w.programOf(rank).ops)
        if (op.kind == OpKind::Collective && op.collective == kind && op.scope.rfind(scope, 0) == 0) {
            ++c.ops;
            c.bytes += op.commBytes;
            c.groups.insert(w.membersOf(rank, op));
        }
    return c;
}

bool has(const std::string& text, const char* part)
{
    return text.find(part) != std::string::npos;
}

std::size_t countKind(const Workload& w, std::size_t rank, OpKind kind)
{
    std::size_t n = 0;
    for (const Op& op : w.programOf(rank).ops)
        n += op.kind == kind ? 1 : 0;
    return n;
}

} // namespace

class TestModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void libraryMatchesPublishedSizes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("published"); // billions of parameters
        QTest::addColumn<double>("tolerance"); // relative
        QTest::newRow("GPT-3 175B") << "gpt3-175b" << 175.0 << 0.01;
        QTest::newRow("Llama 3 8B") << "llama3-8b" << 8.03 << 0.01;
        QTest::newRow("Llama 3 70B") << "llama3-70b" << 70.6 << 0.01;
        QTest::newRow("Llama 3 405B") << "llama3-405b" << 405.0 << 0.01;
        QTest::newRow("Mixtral 8x7B") << "mixtral-8x7b" << 46.7 << 0.01;
    }
    void libraryMatchesPublishedSizes()
    {
        QFETCH(QString, name);
        QFETCH(double, published);
        QFETCH(double, tolerance);
        const TransformerConfig* m = findModel(name.toStdString());
        QVERIFY(m);
        QVERIFY2(std::abs(m->parameters() / 1e9 - published) / published < tolerance,
                 qPrintable(QString::number(m->parameters() / 1e9)));
    }

    void mixtralActivatesTwoExperts()
    {
        // Jiang et al. 2024: 13B active parameters of 47B.
        const TransformerConfig* m = findModel("Mixtral 8x7B");
        QVERIFY(m);
        QCOMPARE(std::round(m->activeParameters() / 1e9), 13.0);
    }

    void modelFileErrorsNameTheLine()
    {
        try {
            parseModelText("layers = 2\nhidden = 256\nheads = four\n", "bad.model");
            QFAIL("no error");
        } catch (const InputError& e) {
            const std::string text = e.what();
            QVERIFY2(has(text, "bad.model") && has(text, "3") && has(text, "heads"), text.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, parseModelText("layers = 2\nwidth = 3\n", "bad.model"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseModelText("layers = 2\nhidden = 256\n", "missing.model"));
        const TransformerConfig tiny = tinyModel();
        QCOMPARE(tiny.parameters(), kTinyParameters);
        QCOMPARE(tiny.kvHeads, 4);
        QCOMPARE(tiny.attentionDropout, 0.0);
        const std::string base = "layers = 2\nhidden = 256\nheads = 4\nffn = 1024\nvocab = 1024\nseq_len = 128\n";
        QCOMPARE(parseModelText(base + "attention_dropout = 0.1\n", "dropout.model").attentionDropout, 0.1);
        // A dense model without ffn is told what ffn is and what a GPT-style model would give it.
        try {
            parseModelText("layers = 2\nhidden = 256\nheads = 4\nvocab = 1024\nseq_len = 128\n", "noffn.model");
            QFAIL("no error");
        } catch (const InputError& e) {
            const std::string text = e.what();
            QVERIFY2(has(text, "noffn.model") && has(text, "MLP's inner size") && has(text, "1024"), text.c_str());
        }
        // Values out of range name their line and the values involved, as syntax errors do.
        const std::pair<std::string, std::string> ranges[] = {
            {"layers = 0\nhidden = 256\nheads = 4\nffn = 1024\nvocab = 1024\nseq_len = 128\n",
             "range.model:1: layers must be positive, not 0"},
            {base + "kv_heads = 3\n", "range.model:7: kv_heads (3) must divide heads (4)"},
            {base + "experts = 8\ntop_k = 9\nexpert_ffn = 512\n",
             "range.model:8: top_k (9) must be between 1 and experts (8)"},
            {base + "dense_layers = 5\nexperts = 8\ntop_k = 2\nexpert_ffn = 512\n",
             "range.model:7: dense_layers (5) must be between 0 and layers (2)"},
            {base + "vocab_x = 1\n", "range.model:7: unknown key"},
            {"seq_len = 99999999999999999999\n", "range.model:1: 'seq_len' is far too large"},
            {"layers = -4\n", "range.model:1: 'layers' must not be negative, found -4"},
            {std::string("\xff\xfe x\n"), "range.model:1: expected 'key = value', found '\\xff\\xfe x'"},
        };
        for (const auto& [text, expected] : ranges) {
            try {
                parseModelText(text, "range.model");
                QFAIL(expected.c_str());
            } catch (const InputError& e) {
                QVERIFY2(has(e.what(), expected.c_str()), e.what());
            }
        }
        for (const char* bad : {"attention_dropout = 1\n", "attention_dropout = -0.1\n", "attention_dropout = x\n"}) {
            try {
                parseModelText(base + bad, "dropout.model");
                QFAIL(bad);
            } catch (const InputError& e) {
                const std::string text = e.what();
                QVERIFY2(has(text, "dropout.model") && has(text, "7") && has(text, "probability"), text.c_str());
            }
        }
    }

    void modelFilesAreToldFromMlir()
    {
        QVERIFY(looksLikeModelFile("# my model\nlayers = 2\nhidden = 256 # width\n\nheads = 4\n"));
        QVERIFY(looksLikeModelFile("title = X\nhidden=64\nlayers = 1\npartial li")); // a cut-off last line
        QVERIFY(!looksLikeModelFile("#map = affine_map<(d0) -> (d0)>\nmodule {\n}\n"));
        QVERIFY(!looksLikeModelFile("# comment only\n"));
        QVERIFY(!looksLikeModelFile("title = no sizes\n"));
        QVERIFY(!looksLikeModelFile("HloModule m\nlayers = 2\n"));
    }

    void invalidStrategiesSayWhyAndWhatToTry()
    {
        const TransformerConfig& gpt3 = *findModel("gpt3-175b");
        ParallelConfig p;
        p.tp = 5;
        auto problems = validateStrategy(gpt3, p);
        QVERIFY(!problems.empty());
        QVERIFY(has(problems.front().message, "96 attention heads"));
        QVERIFY(has(problems.front().suggestion, "8"));
        p.tp = 8;
        p.pp = 99; // more stages than layers, even with the two at the ends empty
        problems = validateStrategy(gpt3, p);
        QVERIFY(!problems.empty());
        QVERIFY(has(problems.front().message, "96 layers"));
        QVERIFY(has(problems.front().suggestion, "PP at most 98"));
        // A sequence whose attention would count more FLOPs than 64 bits hold is refused, with the
        // longest that fits; a million tokens is fine.
        ParallelConfig longContext;
        longContext.seqLen = 16777216;
        problems = validateStrategy(*findModel("llama3-8b"), longContext);
        QVERIFY(!problems.empty());
        QVERIFY(has(problems.front().message, "64-bit"));
        QVERIFY(has(problems.front().suggestion, "a sequence of at most about"));
        longContext.seqLen = 1048576;
        QVERIFY(validateStrategy(*findModel("llama3-8b"), longContext).empty());
        // Each suggestion meets every rule on the same degree. TP 6 fails Llama 3 8B's heads and FFN:
        // turning sequence parallelism off would not help, so it is not offered.
        ParallelConfig tp6;
        tp6.tp = 6;
        problems = validateStrategy(*findModel("llama3-8b"), tp6);
        QCOMPARE(problems.size(), std::size_t{2});
        for (const StrategyProblem& problem : problems)
            QVERIFY2(!has(problem.suggestion, "--no-sp"), problem.suggestion.c_str());
        // EP must divide Mixtral's 8 experts and DP 6: only 1 and 2 do both.
        ParallelConfig ep;
        ep.dp = 6;
        for (const std::int64_t degree : {3, 4}) {
            ep.ep = degree;
            problems = validateStrategy(*findModel("mixtral-8x7b"), ep);
            QCOMPARE(problems.size(), std::size_t{1});
            QVERIFY2(has(problems.front().suggestion, "EP 1 or 2"), problems.front().suggestion.c_str());
        }
        QVERIFY(has(problems.front().message, "must divide DP 6"));
        ep.ep = 3;
        QVERIFY(has(validateStrategy(*findModel("mixtral-8x7b"), ep).front().suggestion,
                    "(EP 4 or 8 with a DP they divide)"));
        // DeepSeek-V3's published PP 16 over its 61 layers: the two first and the last stage take 3.
        ParallelConfig deepseek;
        deepseek.pp = 16;
        deepseek.dp = 64;
        deepseek.ep = 64;
        QVERIFY(validateStrategy(*findModel("deepseek-v3"), deepseek).empty());
        QCOMPARE(virtualStageSizes(*findModel("deepseek-v3"), deepseek),
                 (std::vector<std::int64_t>{3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3}));
        // Llama 3 405B's 126 layers over 16 stages: the first and last stage take 7, the others 8.
        ParallelConfig llama;
        llama.tp = 8;
        llama.pp = 16;
        QVERIFY(validateStrategy(*findModel("llama3-405b"), llama).empty());
        const auto sizes = virtualStageSizes(*findModel("llama3-405b"), llama);
        QCOMPARE(sizes.front(), 7);
        QCOMPARE(sizes.back(), 7);
        QCOMPARE(sizes[1], 8);
        QCOMPARE(stageLayers(*findModel("llama3-405b"), llama, 1).front(), 7);
        // As Llama 3 interleaves it (Sec. 3.3.2): 8 chunks of one layer per stage, the first chunk of
        // the first stage only the embedding, the last chunk of the last stage only the loss.
        llama.schedule = PipelineSchedule::Interleaved;
        llama.virtualStages = 8;
        llama.dp = 2;
        llama.globalBatch = 32;
        QVERIFY(validateStrategy(*findModel("llama3-405b"), llama).empty());
        const auto chunks = virtualStageSizes(*findModel("llama3-405b"), llama);
        QCOMPARE(chunks.size(), std::size_t{128});
        QCOMPARE(chunks.front(), 0);
        QCOMPARE(chunks.back(), 0);
        QCOMPARE(std::count(chunks.begin(), chunks.end(), 1), 126);
        QVERIFY(chunkLayers(*findModel("llama3-405b"), llama, 0).front().empty());
        QCOMPARE(chunkLayers(*findModel("llama3-405b"), llama, 0)[1].front(), 15);
        QVERIFY(chunkLayers(*findModel("llama3-405b"), llama, 15).back().empty());
        QCOMPARE(stageLayers(*findModel("llama3-405b"), llama, 0).size(), std::size_t{7});
        QCOMPARE(stageLayers(*findModel("llama3-405b"), llama, 5).size(), std::size_t{8});
        llama.virtualStages = 9; // 144 chunks for 126 layers
        QVERIFY(!validateStrategy(*findModel("llama3-405b"), llama).empty());
        llama.virtualStages = 1; // one chunk per rank does not interleave: that is 1F1B
        QVERIFY(!validateStrategy(*findModel("llama3-405b"), llama).empty());
        p.pp = 8;
        p.ep = 2;
        p.dp = 2;
        problems = validateStrategy(gpt3, p);
        QVERIFY(!problems.empty());
        QVERIFY(has(problems.front().message, "mixture-of-experts"));
        p.ep = 1;
        QVERIFY(validateStrategy(gpt3, p).empty());
        ModelCompiler compiler;
        p.tp = 5;
        QVERIFY_THROWS_EXCEPTION(InputError, compiler.compile(gpt3, p));
    }

    void pipelineSchedules()
    {
        // 1F1B, 4 stages, 8 microbatches: stage 0 warms up with 3 forwards and holds at most 4
        // microbatches' activations; the last stage alternates from the start and holds 1.
        const auto first = pipelineOrder(PipelineSchedule::OneFOneB, 4, 1, 8, 0);
        QCOMPARE(first.size(), std::size_t{16});
        for (int i = 0; i < 4; ++i)
            QVERIFY(!first[static_cast<std::size_t>(i)].backward);
        QVERIFY(first[4].backward);
        QCOMPARE(first[4].microbatch, 0);
        QCOMPARE(peakChunksInFlight(first), 4);
        QCOMPARE(peakChunksInFlight(pipelineOrder(PipelineSchedule::OneFOneB, 4, 1, 8, 3)), 1);
        QCOMPARE(peakChunksInFlight(pipelineOrder(PipelineSchedule::GPipe, 4, 1, 8, 3)), 8);
        // Interleaved, 2 stages x 2 chunks, 4 microbatches: stage 0 runs (2-0-1)*2 + (2-1)*2 = 4
        // warm-up forwards in groups of 2 microbatches per chunk.
        const auto inter = pipelineOrder(PipelineSchedule::Interleaved, 2, 2, 4, 0);
        QCOMPARE(inter.size(), std::size_t{16});
        QCOMPARE(inter[0], (PipelineStep{false, 0, 0}));
        QCOMPARE(inter[1], (PipelineStep{false, 1, 0}));
        QCOMPARE(inter[2], (PipelineStep{false, 0, 1}));
        QCOMPARE(inter[3], (PipelineStep{false, 1, 1}));
        QCOMPARE(inter[4], (PipelineStep{false, 2, 0}));
        QCOMPARE(inter[5], (PipelineStep{true, 0, 1}));
        ParallelConfig p;
        p.pp = 4;
        p.dp = 1;
        p.globalBatch = 8;
        QCOMPARE(pipelineBubbleFraction(p), 3.0 / 11.0);
    }

    void memoryByHand()
    {
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 2;
        p.globalBatch = 2;
        p.zero = ZeroStage::OptimizerState;
        const MemoryBreakdown m = memoryPerRank(tiny, p);
        QCOMPARE(m.weights, 2 * kTinyParameters);        // bf16
        QCOMPARE(m.gradients, 4 * kTinyParameters);      // fp32 main gradients
        QCOMPARE(m.optimizer, 12 * kTinyParameters / 2); // master + 2 moments, sharded over DP 2
        p.zero = ZeroStage::Parameters;
        const MemoryBreakdown z3 = memoryPerRank(tiny, p);
        QCOMPARE(z3.weights, 4 * kTinyParameters / 2);   // PyTorch FSDP's fp32 shards, the masters
        QCOMPARE(z3.gradients, 4 * kTinyParameters / 2); // fp32, sharded
        QCOMPARE(z3.optimizer, 8 * kTinyParameters / 2); // the two moments
        p.zero = ZeroStage::OptimizerState;
        p.tp = 2;
        p.dp = 1;
        p.globalBatch = 1;
        // Matrices split over TP 2; the five norms (2 per layer and the final one) replicated.
        const double norms = 2 * (2 * 256) + 256;
        QCOMPARE(memoryPerRank(tiny, p).weights, 2 * ((kTinyParameters - norms) / 2 + norms));
    }

    void lossAndRecomputeWorkingSets()
    {
        // The loss's working set per logit (128 tokens x the tiny vocabulary): Megatron-LM's
        // vocab-parallel cross entropy 6 bytes (an fp32 copy beside the bf16 logits), a fused one 2,
        // eager PyTorch's F.cross_entropy on upcast logits 12.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.recompute = Recompute::Selective;
        const double logits = 128.0 * static_cast<double>(tiny.vocab);
        const double megatron = memoryPerRank(tiny, p).activations;
        p.fusedCrossEntropy = true;
        QCOMPARE(megatron - memoryPerRank(tiny, p).activations, 4 * logits);
        p.fusedCrossEntropy = false;
        p.torchCrossEntropy = true;
        QCOMPARE(memoryPerRank(tiny, p).activations - megatron, 6 * logits);
        // Full recomputation keeps each layer's input, plus the layer whose backward pass runs with its
        // whole forward pass again.
        p.torchCrossEntropy = false;
        p.recompute = Recompute::Full;
        ParallelConfig none = p;
        none.recompute = Recompute::None;
        const double layer = activationBytesPerLayer(tiny, none, 0);
        QCOMPARE(memoryPerRank(tiny, p).activations, 2 * activationBytesPerLayer(tiny, p, 0) + layer + 6 * logits);
    }

    void fp8MemoryKeepsCastWeightsAndFp8Inputs()
    {
        // FP8 training keeps each layer matrix cast for the step, row-wise and transposed (2 bytes a
        // parameter on top of the bf16 weights), and the linear layers' inputs as their FP8 copies:
        // the two norms' outputs and the activation's output at 1 byte an element, not 2.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 2;
        p.globalBatch = 2;
        p.recompute = Recompute::Selective;
        ParallelConfig fp8 = p;
        fp8.dtype = Precision::FP8;
        const MemoryBreakdown bf16 = memoryPerRank(tiny, p);
        const MemoryBreakdown f8 = memoryPerRank(tiny, fp8);
        const double matrices = 2 * (4 * 256.0 * 256 + 2 * 256.0 * 1024);
        QCOMPARE(f8.weights - bf16.weights, 2 * matrices);
        const double tokens = 128; // one sequence of 128 a microbatch
        QCOMPARE(activationBytesPerLayer(tiny, p, 0) - activationBytesPerLayer(tiny, fp8, 0),
                 tokens * (256 + 256 + 1024));
        QCOMPARE(bf16.activations - f8.activations, 2 * tokens * (256 + 256 + 1024)); // one microbatch, two layers
        QCOMPARE(f8.gradients, bf16.gradients);
        QCOMPARE(f8.optimizer, bf16.optimizer);
    }

    void modelFlopsFollowPaLM()
    {
        const TransformerConfig& gpt3 = *findModel("gpt3-175b");
        ParallelConfig p;
        p.tp = 8;
        p.pp = 8;
        p.dp = 16;
        p.globalBatch = 1536;
        // N = 96 layers x (4 x 12288^2 + 2 x 12288 x 49152 + 2 x 12288) + the output projection
        // (tied to the input table, but a matmul all the same); 12 L H Q T per token.
        const double n =
            96.0 * (4.0 * 12288 * 12288 + 2.0 * 12288 * 49152 + 2.0 * 12288) + static_cast<double>(gpt3.vocab) * 12288;
        const double perToken = 6 * n + 12.0 * 96 * 96 * 128 * 2048;
        QCOMPARE(modelFlopsPerStep(gpt3, p), perToken * 1536 * 2048);
    }

    void dataParallelGradientsAreAllReducedOnce()
    {
        // DP 2 without ZeRO: every parameter's fp32 gradient is all-reduced once per step over {0, 1},
        // after the last of the 3 microbatches.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 2;
        p.globalBatch = 6;
        p.zero = ZeroStage::None;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.rankCount(), std::size_t{2});
        QCOMPARE(c.workload.validate(), std::string());
        const Count sync = collectives(c.workload, 0, CollectiveKind::AllReduce, "gradient sync");
        QCOMPARE(static_cast<double>(sync.bytes), 4 * kTinyParameters);
        QCOMPARE(sync.groups, (std::set<std::vector<std::int32_t>>{{0, 1}}));
        QCOMPARE(collectives(c.workload, 0, CollectiveKind::AllGather).ops, std::size_t{0});
        // ZeRO-1: a reduce-scatter of the same bytes, then the bf16 weights all-gathered once.
        p.zero = ZeroStage::OptimizerState;
        const CompiledModel z1 = compiler.compile(tiny, p);
        QCOMPARE(collectives(z1.workload, 0, CollectiveKind::AllReduce, "gradient sync").ops, std::size_t{0});
        QCOMPARE(static_cast<double>(collectives(z1.workload, 0, CollectiveKind::ReduceScatter, "gradient sync").bytes),
                 4 * kTinyParameters);
        const Count gathered = collectives(z1.workload, 0, CollectiveKind::AllGather, "optimizer");
        QCOMPARE(gathered.ops, std::size_t{1});
        QCOMPARE(static_cast<double>(gathered.bytes), 2 * kTinyParameters / 2); // this rank's half, bf16
        const auto result = estimate(z1.workload, *clusterPreset("dgx-h100-ib", 2));
        QVERIFY(result->stepTime > 0);
        // ZeRO-1 on 3 replicas, which divide none of the tiny model's dimensions: each sync block
        // reduce-scatters its gradients as one flat buffer padded to a multiple of 3, as the
        // distributed optimizer's contiguous buffer does (layer 786,944 -> 786,945 elements;
        // embedding 262,144 -> 262,146; head 262,400 -> 262,401), never a whole all-reduce.
        p.dp = 3;
        const CompiledModel z3 = compiler.compile(tiny, p);
        QCOMPARE(z3.workload.validate(), std::string());
        QCOMPARE(collectives(z3.workload, 0, CollectiveKind::AllReduce, "gradient sync").ops, std::size_t{0});
        const Count scattered = collectives(z3.workload, 0, CollectiveKind::ReduceScatter, "gradient sync");
        QCOMPARE(scattered.ops, std::size_t{4});
        QCOMPARE(scattered.bytes, std::uint64_t{4 * (2 * 786'945 + 262'146 + 262'401)});
        QCOMPARE(scattered.groups, (std::set<std::vector<std::int32_t>>{{0, 1, 2}}));
    }

    void zeroOneGathersWeightsDuringTheForwardPassWhenAsked()
    {
        // ZeRO-1 on DP 3 with 2 microbatches. By default the optimizer all-gathers the stage's updated
        // bf16 weights at the end of the step; with overlapParamGather (Megatron-Core's
        // --overlap-param-gather) it gathers nothing and each layer, the embedding and the head
        // gather their weights once, before their forward pass of microbatch 0, over the same group.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 3;
        p.globalBatch = 6;
        ModelCompiler compiler;
        const CompiledModel atEnd = compiler.compile(tiny, p);
        const Count optimizerGather = collectives(atEnd.workload, 1, CollectiveKind::AllGather, "optimizer");
        QCOMPARE(optimizerGather.ops, std::size_t{1});
        for (const Op& op : atEnd.workload.programOf(1).ops)
            QVERIFY2(!has(op.scope, "zero/all_gather"), op.scope.c_str());
        p.overlapParamGather = true;
        QVERIFY(p.describe().find("weights gathered during the forward pass") != std::string::npos);
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        QCOMPARE(collectives(c.workload, 1, CollectiveKind::AllGather, "optimizer").ops, std::size_t{0});
        std::size_t layers = 0, others = 0;
        std::uint64_t bytes = 0;
        for (const Op& op : c.workload.programOf(1).ops) {
            if (op.kind != OpKind::Collective || op.collective != CollectiveKind::AllGather ||
                !has(op.scope, "zero/all_gather"))
                continue;
            QVERIFY2(op.scope.rfind("microbatch 0/", 0) == 0, op.scope.c_str());
            QVERIFY2(has(op.scope, "/forward/"), op.scope.c_str());
            QCOMPARE(c.workload.membersOf(1, op), (std::vector<std::int32_t>{0, 1, 2}));
            bytes += op.commBytes;
            // The flat bf16 parameter padded to a multiple of 3 (as in the FSDP test below), a third
            // per rank.
            if (has(op.scope, "/layer ")) {
                QCOMPARE(op.commBytes, std::uint64_t{786'945 / 3 * 2});
                ++layers;
            } else {
                ++others;
            }
        }
        QCOMPARE(layers, std::size_t{2});
        QCOMPARE(others, std::size_t{2}); // the embedding and the head
        // About the bytes the optimizer gathered (each unit padded on its own instead of the stage).
        QVERIFY2(bytes >= optimizerGather.bytes && bytes <= optimizerGather.bytes + 4 * 2,
                 qPrintable(QStringLiteral("%1 against %2").arg(bytes).arg(optimizerGather.bytes)));
    }

    void fsdpGathersPerUnitAndReduceScattersPerMicrobatch()
    {
        // ZeRO-3 / FSDP on DP 3 (which divides none of the tiny model's dimensions: FSDP pads its flat
        // parameters instead), 2 microbatches, full recomputation. Per microbatch and layer: one bf16
        // all-gather of the layer's flat parameter before its forward pass and one before its backward
        // pass, and one fp32 reduce-scatter of its flat gradient after it; the embedding and the head
        // (the root unit) are gathered once per microbatch. Never an all-reduce of activations.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p = tinyFsdp();
        QVERIFY(validateStrategy(tiny, p).empty());
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        // Flat parameters padded to a multiple of 3: layer 786,944 -> 786,945; embedding 262,144 ->
        // 262,146; head (final norm + output) 262,400 -> 262,401.
        const std::set<std::vector<std::int32_t>> dpGroup{{0, 1, 2}};
        std::size_t layerGathers = 0, embeddingGathers = 0, headGathers = 0, layerSyncs = 0, otherSyncs = 0;
        for (const Op& op : c.workload.programOf(1).ops) {
            if (op.kind != OpKind::Collective)
                continue;
            const bool layer = has(op.scope, "/layer ");
            if (op.collective == CollectiveKind::AllGather && has(op.scope, "fsdp/all_gather")) {
                QCOMPARE(c.workload.membersOf(1, op), (std::vector<std::int32_t>{0, 1, 2}));
                if (layer) {
                    QCOMPARE(op.commBytes, std::uint64_t{786'945 / 3 * 2});
                    ++layerGathers;
                } else if (has(op.scope, "/embedding/")) {
                    QCOMPARE(op.commBytes, std::uint64_t{262'146 / 3 * 2});
                    ++embeddingGathers;
                } else {
                    QVERIFY2(has(op.scope, "/head/"), op.scope.c_str());
                    QCOMPARE(op.commBytes, std::uint64_t{262'401 / 3 * 2});
                    ++headGathers;
                }
                continue;
            }
            if (op.collective == CollectiveKind::ReduceScatter) {
                QVERIFY2(op.scope.rfind("gradient sync/microbatch ", 0) == 0, op.scope.c_str());
                if (layer) {
                    QCOMPARE(op.commBytes, std::uint64_t{786'945 * 4});
                    ++layerSyncs;
                } else {
                    QVERIFY(op.commBytes == 262'146 * 4 || op.commBytes == 262'401 * 4);
                    ++otherSyncs;
                }
                continue;
            }
            // Only the loss (a scalar) is reduced besides the FSDP collectives.
            QVERIFY2(op.commBytes <= 8, (op.scope + " " + std::to_string(op.commBytes)).c_str());
        }
        QCOMPARE(layerGathers, std::size_t{2 * 2 * 2}); // 2 layers x (forward, backward) x 2 microbatches
        QCOMPARE(embeddingGathers, std::size_t{2});
        QCOMPARE(headGathers, std::size_t{2});
        QCOMPARE(layerSyncs, std::size_t{2 * 2});
        QCOMPARE(otherSyncs, std::size_t{2 * 2});
        // The optimizer updates this rank's shard and gathers nothing (the next step's layers do).
        QCOMPARE(collectives(c.workload, 1, CollectiveKind::AllGather, "optimizer").ops, std::size_t{0});

        // Prefetch: layer 1's forward gather runs while layer 0 computes.
        const auto result = estimate(c.workload, *clusterPreset("dgx-h100-ib", 3));
        const Program& program = c.workload.programOf(0);
        double layer0End = 0, layer1GatherStart = -1;
        for (const auto& event : result->eventsOf(0)) {
            const Op& op = program.ops[event.op];
            if (op.scope.rfind("microbatch 0/layer 0/forward", 0) == 0 && op.kind == OpKind::Compute)
                layer0End = std::max(layer0End, event.end);
            if (op.scope.rfind("microbatch 0/layer 1/forward/fsdp", 0) == 0)
                layer1GatherStart = event.start;
        }
        QVERIFY(layer1GatherStart >= 0);
        QVERIFY2(layer1GatherStart < layer0End,
                 qPrintable(QStringLiteral("%1 >= %2").arg(layer1GatherStart).arg(layer0End)));

        // Without reshard after forward, the backward passes gather nothing.
        p.reshardAfterForward = false;
        const CompiledModel kept = compiler.compile(tiny, p);
        QCOMPARE(collectives(kept.workload, 0, CollectiveKind::AllGather).ops, std::size_t{2 * 2 + 2 + 2});
        // Memory: with 4 layers, all 4 stay gathered instead of 2 at a time (bf16, 786,944 each).
        TransformerConfig four = tiny;
        four.layers = 4;
        ParallelConfig resharded = p;
        resharded.reshardAfterForward = true;
        QCOMPARE(memoryPerRank(four, p).commBuffers - memoryPerRank(four, resharded).commBuffers, 2 * 2 * 786'944.0);
    }

    void fsdp2CopiesOutEveryGatheredUnitOnTheComputeStream()
    {
        // FSDP2 (fully_shard) splits every gathered buffer into the unit's parameters with one copy on
        // the compute stream (foreach_all_gather_copy_out): per gather, a kernel reading and writing
        // the unit's padded flat parameter in bf16, which the unit's first op waits for. DP 3, 2
        // microbatches, full recomputation, as above: 2 layers x (forward, backward) x 2 microbatches
        // + the embedding and the head once per microbatch = 12 gathers, 12 copies.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p = tinyFsdp();
        ModelCompiler compiler;
        const CompiledModel plain = compiler.compile(tiny, p);
        p.fsdpCopyOut = true;
        QVERIFY(p.describe().find("FSDP2 copy-out") != std::string::npos);
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        const Program& program = c.workload.programOf(0);
        std::size_t layerCopies = 0, otherCopies = 0;
        double copyBytes = 0;
        for (const Op& op : program.ops) {
            if (!has(op.scope, "fsdp/copy_out") || op.kind != OpKind::Compute || op.memoryBytes() == 0)
                continue;
            QCOMPARE(op.flops, std::uint64_t{0});
            copyBytes += static_cast<double>(op.memoryBytes());
            if (has(op.scope, "/layer ")) {
                // 786,945 padded elements x 2 bytes, read and written.
                QCOMPARE(op.memoryBytes(), std::uint64_t{786'945 * 2 * 2});
                ++layerCopies;
            } else {
                QVERIFY2(op.memoryBytes() == 262'146 * 2 * 2 || op.memoryBytes() == 262'401 * 2 * 2,
                         std::to_string(op.memoryBytes()).c_str());
                ++otherCopies;
            }
        }
        QCOMPARE(layerCopies, std::size_t{2 * 2 * 2});
        QCOMPARE(otherCopies, std::size_t{2 + 2});
        QCOMPARE(copyBytes, 2.0 * 2.0 * (8 * 786'945.0 + 2 * 262'146.0 + 2 * 262'401.0));
        // The collectives are FSDP1's, and the copies lengthen the step.
        QCOMPARE(collectives(c.workload, 0, CollectiveKind::AllGather).ops,
                 collectives(plain.workload, 0, CollectiveKind::AllGather).ops);
        const Cluster cluster = *clusterPreset("dgx-h100-ib", 3);
        QVERIFY(estimate(c.workload, cluster)->stepTime > estimate(plain.workload, cluster)->stepTime);
        // Memory: a unit's gathered buffer lives until the next unit's copy-out, beside its copied-out
        // parameters: three layers' worth of bf16 parameters at once instead of two (786,944 each).
        ParallelConfig flat = p;
        flat.fsdpCopyOut = false;
        QCOMPARE(memoryPerRank(tiny, p).commBuffers - memoryPerRank(tiny, flat).commBuffers, 2 * 786'944.0);
    }

    void idealPipelineHasTheTextbookBubble()
    {
        // 4 stages, 8 microbatches, a backward pass twice a forward: 1F1B and GPipe take (m + p - 1)
        // (F + B) = 33 units, each stage idle (p - 1)(F + B) = 9 of them, the bubble (p - 1)/(m + p - 1).
        // Interleaving 2 chunks per stage divides the bubble by 2: 24 + 9 / 2 units (Narayanan et al.
        // 2021, Sec. 2.2.2).
        const auto makespan = [](const std::vector<std::vector<TimedStep>>& stages) {
            double end = 0;
            for (const auto& steps : stages)
                for (const TimedStep& t : steps)
                    end = std::max(end, t.end);
            return end;
        };
        for (const PipelineSchedule schedule : {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe}) {
            const auto timed = idealPipeline(schedule, 4, 1, 8);
            QCOMPARE(timed.size(), std::size_t{4});
            QCOMPARE(makespan(timed), 33.0);
            for (const auto& steps : timed) {
                QCOMPARE(steps.size(), std::size_t{16});
                double busy = 0;
                for (std::size_t k = 0; k < steps.size(); ++k) {
                    busy += steps[k].end - steps[k].start;
                    if (k > 0)
                        QVERIFY(steps[k].start >= steps[k - 1].end); // one step at a time
                }
                QCOMPARE(busy, 24.0);
            }
        }
        QCOMPARE(makespan(idealPipeline(PipelineSchedule::Interleaved, 4, 2, 8)), 28.5);
    }

    void fsdpWithPipelineGathersOnceAndReducesAfterTheLastMicrobatch()
    {
        // FSDP under a pipeline schedule as torch.distributed.pipelining runs it (torchtitan): PP 2 x
        // DP 2, 4 microbatches. Stage 0 holds layer 0 and the embedding. Without reshard after forward
        // (torchtitan's default with PP) each unit is gathered once, by microbatch 0's forward pass;
        // every backward pass but the last skips the gradient reduction, and the last microbatch's
        // reduce-scatters each unit's flat gradient once its backward pass has ended.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.pp = 2;
        p.dp = 2;
        p.globalBatch = 8;
        p.zero = ZeroStage::Parameters;
        p.reshardAfterForward = false;
        QVERIFY(validateStrategy(tiny, p).empty());
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        const Program& stage0 = c.workload.programOf(0);
        std::size_t gathers = 0, scatters = 0;
        for (const Op& op : stage0.ops) {
            if (op.kind != OpKind::Collective || !has(op.scope, "fsdp/"))
                continue;
            if (op.collective == CollectiveKind::AllGather) {
                QVERIFY2(op.scope.rfind("microbatch 0/", 0) == 0, op.scope.c_str());
                ++gathers;
            } else {
                QCOMPARE(op.collective, CollectiveKind::ReduceScatter);
                QVERIFY2(op.scope == "gradient sync/layer 0/fsdp/reduce_scatter" ||
                             op.scope == "gradient sync/embedding/fsdp/reduce_scatter",
                         op.scope.c_str());
                ++scatters;
            }
        }
        QCOMPARE(gathers, std::size_t{2});  // layer 0 and the embedding, once each
        QCOMPARE(scatters, std::size_t{2}); // the same units' gradients, once each
        // The reductions start after the last microbatch's backward pass on the stage.
        const auto result = estimate(c.workload, *clusterPreset("dgx-h100-ib", 4));
        double lastBackwardEnd = 0, firstScatter = -1;
        for (const auto& event : result->eventsOf(0)) {
            const Op& op = stage0.ops[event.op];
            if (op.kind == OpKind::Compute && op.scope.rfind("microbatch 3/", 0) == 0 && has(op.scope, "/backward"))
                lastBackwardEnd = std::max(lastBackwardEnd, event.end);
            if (op.kind == OpKind::Collective && op.collective == CollectiveKind::ReduceScatter)
                firstScatter = firstScatter < 0 ? event.start : std::min(firstScatter, event.start);
        }
        QVERIFY(lastBackwardEnd > 0);
        QVERIFY2(firstScatter >= lastBackwardEnd,
                 qPrintable(QStringLiteral("%1 < %2").arg(firstScatter).arg(lastBackwardEnd)));

        // With reshard after forward, each microbatch gathers a layer for its forward and backward
        // passes and the embedding for its forward pass; the gradients are still reduced once.
        p.reshardAfterForward = true;
        const CompiledModel resharded = compiler.compile(tiny, p);
        QCOMPARE(collectives(resharded.workload, 0, CollectiveKind::AllGather).ops, std::size_t{4 * 2 + 4});
        QCOMPARE(collectives(resharded.workload, 0, CollectiveKind::ReduceScatter).ops, std::size_t{2});

        // Memory: the whole (unsharded) gradients accumulate in fp32 until the last microbatch's
        // reduce-scatters replace them by the shards, and every unit of the stage stays gathered. Stage 0 (layer 0 and
        // the embedding: 786,944 + 262,144 parameters), which holds two microbatches' activations under 1F1B, is the
        // busier.
        const MemoryBreakdown m = memoryPerRank(tiny, p);
        const double stage0Parameters = 786'944.0 + 262'144.0;
        QCOMPARE(m.gradients, 4.0 * stage0Parameters);

        // ZeRO-2 with PP has no framework that runs it.
        p.zero = ZeroStage::Gradients;
        QVERIFY(!validateStrategy(tiny, p).empty());
    }

    void fsdpWithTensorParallelismShardsEachRanksPiece()
    {
        // FSDP 2 x TP 2: each tensor-parallel rank's flat parameter holds its halves of the four
        // attention and two FFN matrices plus the two (replicated) norms: 786,432 / 2 + 512 = 393,728
        // elements, sharded over its data-parallel pair ({0, 2} for rank 0).
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.tp = 2;
        p.dp = 2;
        p.globalBatch = 2;
        p.zero = ZeroStage::Parameters;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        std::size_t gathers = 0, scatters = 0;
        for (const Op& op : c.workload.programOf(0).ops) {
            if (op.kind != OpKind::Collective || !has(op.scope, "/layer 0/") || !has(op.scope, "fsdp/"))
                continue;
            QCOMPARE(c.workload.membersOf(0, op), (std::vector<std::int32_t>{0, 2}));
            if (op.collective == CollectiveKind::AllGather) {
                QCOMPARE(op.commBytes, std::uint64_t{393'728 / 2 * 2});
                ++gathers;
            } else {
                QCOMPARE(op.collective, CollectiveKind::ReduceScatter);
                QCOMPARE(op.commBytes, std::uint64_t{393'728 * 4});
                ++scatters;
            }
        }
        QCOMPARE(gathers, std::size_t{2}); // forward and backward of the one microbatch
        QCOMPARE(scatters, std::size_t{1});
    }

    void hybridShardingReduceScattersInGroupsThenAllReducesAcross()
    {
        // HSDP on DP 4 with shard groups of 2: ranks {0, 1} and {2, 3} each hold one copy of the
        // shards. Per layer and microbatch: the bf16 gather inside the group (786,944 / 2 elements x 2
        // bytes), the fp32 reduce-scatter of the whole flat gradient inside the group, then the fp32
        // all-reduce of this rank's half across the groups ({0, 2}, {1, 3}).
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 4;
        p.globalBatch = 4;
        p.zero = ZeroStage::Parameters;
        p.hsdpShard = 2;
        QVERIFY(validateStrategy(tiny, p).empty());
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.validate(), std::string());
        for (const Op& op : c.workload.programOf(1).ops) {
            if (op.kind != OpKind::Collective || !has(op.scope, "/layer 0/"))
                continue;
            const std::vector<std::int32_t> group = c.workload.membersOf(1, op);
            if (op.collective == CollectiveKind::AllGather) {
                QCOMPARE(group, (std::vector<std::int32_t>{0, 1}));
                QCOMPARE(op.commBytes, std::uint64_t{786'944 / 2 * 2});
            } else if (op.collective == CollectiveKind::ReduceScatter) {
                QCOMPARE(group, (std::vector<std::int32_t>{0, 1}));
                QCOMPARE(op.commBytes, std::uint64_t{786'944 * 4});
            } else {
                QCOMPARE(op.collective, CollectiveKind::AllReduce);
                QVERIFY2(op.scope.rfind("gradient sync/", 0) == 0, op.scope.c_str());
                QCOMPARE(group, (std::vector<std::int32_t>{1, 3}));
                QCOMPARE(op.commBytes, std::uint64_t{786'944 / 2 * 4});
            }
        }
        // State is sharded over the group of 2, not all 4: twice ZeRO-3's per-rank weights.
        ParallelConfig full = p;
        full.hsdpShard = 0;
        QCOMPARE(memoryPerRank(tiny, p).weights, 2 * memoryPerRank(tiny, full).weights);
        // HSDP needs ZeRO-3 and a shard group that divides DP.
        p.hsdpShard = 3;
        QVERIFY(!validateStrategy(tiny, p).empty());
        p.hsdpShard = 2;
        p.zero = ZeroStage::OptimizerState;
        QVERIFY(has(validateStrategy(tiny, p).front().message, "HSDP"));
    }

    void zeroShardsOverDataAndContextParallelRanks()
    {
        // DP 2 x CP 2: the context-parallel ranks hold the same parameters, so ZeRO shards over all
        // four (Megatron-Core's distributed optimizer over its dp-cp group, FSDP over dp_shard x cp):
        // per layer one fp32 reduce-scatter of the whole flat gradient (786,944 elements) over the
        // four ranks, no all-reduce over "cp"; ZeRO-3 gathers over the same four.
        const TransformerConfig tiny = tinyModel();
        for (const ZeroStage zero : {ZeroStage::OptimizerState, ZeroStage::Parameters}) {
            ParallelConfig p;
            p.dp = 2;
            p.cp = 2;
            p.globalBatch = 2;
            p.zero = zero;
            QVERIFY(validateStrategy(tiny, p).empty());
            ModelCompiler compiler;
            const CompiledModel c = compiler.compile(tiny, p);
            QCOMPARE(c.workload.validate(), std::string());
            std::size_t scatters = 0;
            for (const Op& op : c.workload.programOf(0).ops) {
                if (op.kind != OpKind::Collective || !has(op.scope, "/layer 0/") ||
                    !(has(op.scope, "zero/") || has(op.scope, "fsdp/")))
                    continue;
                QCOMPARE(c.workload.membersOf(0, op).size(), std::size_t{4});
                QVERIFY2(op.collective != CollectiveKind::AllReduce, op.scope.c_str());
                if (op.collective == CollectiveKind::ReduceScatter) {
                    QCOMPARE(op.commBytes, std::uint64_t{786'944 * 4});
                    ++scatters;
                }
            }
            QCOMPARE(scatters, std::size_t{1});
            // The optimizer state per rank is that of four shards, as on DP 4 without CP.
            ParallelConfig four = p;
            four.dp = 4;
            four.cp = 1;
            four.globalBatch = 4;
            QCOMPARE(memoryPerRank(tiny, p).optimizer, memoryPerRank(tiny, four).optimizer);
        }
    }

    void adamParamRemaindersKeepTenBytesOfState()
    {
        // 786,944 parameters a layer of the tiny model: Adam's fp32 master weight, two moments (12
        // bytes a parameter), or with the master as the 16-bit remainder of the bf16 weight, 10.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        const double full = memoryPerRank(tiny, p).optimizer;
        p.adamParamRemainders = true;
        QCOMPARE(memoryPerRank(tiny, p).optimizer, full * 10 / 12);
        QVERIFY(has(p.describe(), "remainders"));
    }

    void tensorAndSequenceParallelCollectives()
    {
        // TP 2 x DP 2, sequence parallel, one microbatch: per layer forward 2 all-gathers of the
        // sequence-split [1, 128, 256] activations (each rank contributes 64 x 256 x 2 bytes) and 2
        // reduce-scatters of the [1, 128, 256] partial sums, over the TP group {0, 1}.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.tp = 2;
        p.dp = 2;
        p.globalBatch = 2;
        p.zero = ZeroStage::None;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.rankCount(), std::size_t{4});
        const std::string layer0 = "microbatch 0/layer 0/forward";
        const Count ag = collectives(c.workload, 0, CollectiveKind::AllGather, layer0);
        QCOMPARE(ag.ops, std::size_t{2});
        QCOMPARE(ag.bytes, std::uint64_t{2 * 64 * 256 * 2});
        QCOMPARE(ag.groups, (std::set<std::vector<std::int32_t>>{{0, 1}}));
        const Count rs = collectives(c.workload, 0, CollectiveKind::ReduceScatter, layer0);
        QCOMPARE(rs.ops, std::size_t{2});
        QCOMPARE(rs.bytes, std::uint64_t{2 * 128 * 256 * 2});
        QCOMPARE(collectives(c.workload, 0, CollectiveKind::AllReduce, layer0).ops, std::size_t{0});
        // Rank 3's TP group is {2, 3}; its gradients are all-reduced over DP {1, 3}: per rank, the
        // tensor-parallel half of the matrices and the whole of the replicated norms.
        QCOMPARE(collectives(c.workload, 3, CollectiveKind::AllGather, layer0).groups,
                 (std::set<std::vector<std::int32_t>>{{2, 3}}));
        const Count sync = collectives(c.workload, 3, CollectiveKind::AllReduce, "gradient sync");
        QCOMPARE(sync.groups, (std::set<std::vector<std::int32_t>>{{1, 3}}));
        const double norms = 2 * (2 * 256) + 256;
        QCOMPARE(static_cast<double>(sync.bytes), 4 * ((kTinyParameters - norms) / 2 + norms));
        // Without sequence parallelism the two partial sums are all-reduced instead.
        p.sequenceParallel = false;
        const CompiledModel noSp = compiler.compile(tiny, p);
        QCOMPARE(collectives(noSp.workload, 0, CollectiveKind::AllReduce, layer0).ops, std::size_t{2});
        QCOMPARE(collectives(noSp.workload, 0, CollectiveKind::AllGather, layer0).ops, std::size_t{0});
    }

    void contextParallelGathersKeysAndValues()
    {
        // CP 2: the keys and values of the whole sequence are gathered over the CP group {0, 1}.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.cp = 2;
        p.globalBatch = 1;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        const Count ag = collectives(c.workload, 0, CollectiveKind::AllGather, "microbatch 0/layer 0/forward");
        QCOMPARE(ag.ops, std::size_t{2});
        QCOMPARE(ag.bytes, std::uint64_t{2 * 64 * 256 * 2}); // each rank's 64 tokens of K and of V
        QCOMPARE(ag.groups, (std::set<std::vector<std::int32_t>>{{0, 1}}));
    }

    void contextAndSequenceParallelUseTheirOwnGroups()
    {
        // TP 2 x CP 2: the sequence is split over (cp, tp) between blocks. Sequence parallelism
        // gathers and scatters only the minor "tp" part (groups {0,1}, {2,3}); keys and values are
        // gathered over "cp" ({0,2}, {1,3}); the keys' and values' gradients are reduce-scattered
        // back over "cp", not all-reduced.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.tp = 2;
        p.cp = 2;
        p.globalBatch = 1;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        const Count ag = collectives(c.workload, 0, CollectiveKind::AllGather, "microbatch 0/layer 0/forward");
        QCOMPARE(ag.ops, std::size_t{4});
        QCOMPARE(ag.groups, (std::set<std::vector<std::int32_t>>{{0, 1}, {0, 2}}));
        const Count rs = collectives(c.workload, 0, CollectiveKind::ReduceScatter, "microbatch 0/layer 0/backward");
        QCOMPARE(rs.groups, (std::set<std::vector<std::int32_t>>{{0, 1}, {0, 2}}));
        QCOMPARE(rs.ops, std::size_t{4});
        for (const Op& op : c.workload.programOf(0).ops)
            if (op.kind == OpKind::Collective && op.scope.rfind("microbatch 0/layer 0/", 0) == 0)
                QVERIFY2(c.workload.membersOf(0, op).size() == 2, op.name.c_str());
    }

    void expertParallelDispatchIsAllToAll()
    {
        const TransformerConfig moe = tinyMoe(4, 2);
        ParallelConfig p;
        p.dp = 2;
        p.ep = 2;
        p.globalBatch = 2;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(moe, p);
        const Count a2a = collectives(c.workload, 0, CollectiveKind::AllToAll, "microbatch 0/layer 0/forward");
        QCOMPARE(a2a.ops, std::size_t{2}); // dispatch and combine
        QCOMPARE(a2a.groups, (std::set<std::vector<std::int32_t>>{{0, 1}}));
        // Each rank sends its 128 tokens x 2 copies x 256 x bf16 through each.
        QCOMPARE(a2a.bytes, std::uint64_t{2 * 128 * 2 * 256 * 2});
    }

    void bf16GradientReductionHalvesItsBytes()
    {
        // Megatron-Core's grad_reduce_in_fp32 = False: the data-parallel reductions and the gradient
        // buffers in bf16, half of fp32's bytes, under ZeRO-1 (one reduce-scatter a layer) and without
        // ZeRO (an all-reduce a parameter).
        const TransformerConfig tiny = tinyModel();
        ModelCompiler compiler;
        for (const ZeroStage zero : {ZeroStage::OptimizerState, ZeroStage::None}) {
            ParallelConfig p;
            p.dp = 2;
            p.globalBatch = 2;
            p.zero = zero;
            const CollectiveKind kind =
                zero == ZeroStage::None ? CollectiveKind::AllReduce : CollectiveKind::ReduceScatter;
            const Count fp32 = collectives(compiler.compile(tiny, p).workload, 0, kind, "gradient sync");
            const double fp32Memory = memoryPerRank(tiny, p).gradients;
            p.gradReduceFp32 = false;
            const Count bf16 = collectives(compiler.compile(tiny, p).workload, 0, kind, "gradient sync");
            QVERIFY(fp32.ops > 0);
            QCOMPARE(bf16.ops, fp32.ops);
            QCOMPARE(2 * bf16.bytes, fp32.bytes);
            QCOMPARE(2 * memoryPerRank(tiny, p).gradients, fp32Memory);
            QVERIFY(has(p.describe(), "bf16 gradient reduction"));
        }
    }

    void hybridEpSendsATokenOncePerDomainAndGpu()
    {
        // 16 experts, top 4, over EP 8 in NVLink domains of 4 ranks (docs/models.md, "Token dispatch").
        // Balanced routing: a token reaches the other domain (8 of its experts) with chance
        // 1 - C(8, 4) / C(16, 4) = 0.9615, a given rank (2 experts) with 1 - C(14, 4) / C(16, 4) = 0.45.
        // Of 128 tokens a sequence, 124 then cross to each domain and 58 go to each rank.
        const TransformerConfig moe = tinyMoe(16, 4);
        ParallelConfig p;
        p.dp = 8;
        p.ep = 8;
        p.globalBatch = 8;
        p.recompute = Recompute::None;
        p.moeDispatcher = MoeDispatcher::HybridEp;
        p.nvlinkDomain = 4;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(moe, p);
        QCOMPARE(c.workload.validate(), std::string());
        const std::string forward = "microbatch 0/layer 0/forward";
        std::map<std::vector<std::int32_t>, std::vector<std::uint64_t>> byGroup;
        for (const Op& op : c.workload.programOf(0).ops)
            if (op.kind == OpKind::Collective && op.scope.rfind(forward, 0) == 0) {
                QCOMPARE(op.collective, CollectiveKind::AllToAll);
                byGroup[c.workload.membersOf(0, op)].push_back(op.commBytes);
            }
        // The network hop between rank 0 and its peer in the other domain (a sequence's 124 tokens for
        // each of the 2 domains), the NVLink hop inside the domain (2 sequences' 58 tokens for each
        // of its 4 ranks), each once for the dispatch and once for the combine.
        const std::uint64_t network = 1 * 2 * 124 * 256 * 2, nvlink = 2 * 4 * 58 * 256 * 2;
        QCOMPARE(byGroup, (std::map<std::vector<std::int32_t>, std::vector<std::uint64_t>>{
                              {{0, 4}, {network, network}}, {{0, 1, 2, 3}, {nvlink, nvlink}}}));
        // The experts compute the same copies as under the all-to-all dispatcher: 128 x 4 a sequence.
        const auto expertFlops = [](const CompiledModel& compiled) {
            double flops = 0;
            for (const Op& op : compiled.workload.programOf(0).ops)
                if (op.kind == OpKind::Compute && op.scope.ends_with("/forward/moe") && op.name.rfind("dot", 0) == 0)
                    flops += static_cast<double>(op.flops);
            return flops;
        };
        ParallelConfig plain = p;
        plain.moeDispatcher = MoeDispatcher::AllToAll;
        const CompiledModel a2a = compiler.compile(moe, plain);
        QCOMPARE(expertFlops(c), expertFlops(a2a));
        QVERIFY(expertFlops(c) > 0);
        // A domain must split EP evenly: 3 ranks of EP 8 do not; 72 hold all 8.
        p.nvlinkDomain = 3;
        const auto problems = validateStrategy(moe, p);
        QVERIFY(!problems.empty() && has(problems.front().message, "does not divide EP 8"));
        p.nvlinkDomain = 72;
        QCOMPARE(p.expertRanksPerDomain(), std::int64_t{8});
        QVERIFY(has(p.describe(), "HybridEP dispatch (NVLink domains of 72)"));
        // A domain holding every EP rank leaves only the NVLink hop; one rank per domain only the network's.
        for (const std::int64_t domain : {8, 1}) {
            p.nvlinkDomain = domain;
            const CompiledModel one = compiler.compile(moe, p);
            const Count hops = collectives(one.workload, 0, CollectiveKind::AllToAll, forward);
            QCOMPARE(hops.ops, std::size_t{2});
            QCOMPARE(hops.groups, (std::set<std::vector<std::int32_t>>{{0, 1, 2, 3, 4, 5, 6, 7}}));
            // 58 tokens (2 of 16 experts) for each of the 8 ranks, or for each of 8 one-rank domains.
            QCOMPARE(hops.bytes, std::uint64_t{2 * 8 * 58 * 256 * 2});
        }
    }

    void decodeRoutesEveryTokenToItsExperts()
    {
        // Decoding, a sequence brings one token and k = 2 copies for E = 16 experts. Sequences of a
        // microbatch are routed together: 8 of them fill the experts exactly (16 copies); one alone
        // sends its copies rank by rank, at least one token to each of the 8 EP ranks. Either way the
        // experts compute on real tokens (before 2026-12-06 they got none).
        const TransformerConfig moe = tinyMoe(16, 2);
        ModelCompiler compiler;
        for (const std::int64_t perRank : {8, 1}) {
            ParallelConfig p;
            p.dp = 8;
            p.ep = 8;
            p.phase = Phase::Decode;
            p.zero = ZeroStage::None;
            p.microbatchSize = perRank;
            p.globalBatch = 8 * perRank;
            const CompiledModel c = compiler.compile(moe, p);
            QCOMPARE(c.workload.validate(), std::string());
            const Count a2a = collectives(c.workload, 0, CollectiveKind::AllToAll, "microbatch 0/layer 0/forward");
            QCOMPARE(a2a.ops, std::size_t{2}); // dispatch and combine
            // Per dispatch: 8 sequences' 16 copies, or one token to each of the 8 ranks.
            QCOMPARE(a2a.bytes, std::uint64_t{2} * (perRank == 8 ? 16 : 8) * 256 * 2);
            // The experts' matmuls of layer 0: 16 token copies x (256 x 512 up + 512 x 256 down) x 2.
            double expertFlops = 0;
            for (const Op& op : c.workload.programOf(0).ops)
                if (op.kind == OpKind::Compute && op.scope == "microbatch 0/layer 0/forward/moe" &&
                    op.name.rfind("dot", 0) == 0)
                    expertFlops += static_cast<double>(op.flops);
            QVERIFY2(expertFlops >= 16.0 * 2 * 256 * 512 * 2, qPrintable(QString::number(expertFlops)));
        }
    }

    void hybridEpRunsAtItsMeasuredSpeed()
    {
        // HybridEP's own H100 benchmark (deepseek-ai/DeepEP, branch hybrid-ep at 94a9f8f,
        // docs/README_Hybrid-EP.md, "H100 Platform"): 16 ranks (two 8-GPU nodes), 4,096 tokens of
        // hidden 7,168 a rank, top 8 of 128 experts (8 a rank), uniformly random routing, 16 SMs, the
        // torch API: BF16 dispatch 54.47 GB/s and combine 53.35 GB/s of "RDMA bytes", which count a
        // token once for every node (its own too) holding one of its experts (tests/utils.py,
        // count_rdma_send_from_routing_map). Our two hops over dgx-h100-ib at line rate, one after
        // the other, take within 5% of the times these imply.
        const TransformerConfig moe =
            parseModelText("layers = 1\nhidden = 7168\nheads = 56\nvocab = 1024\nseq_len = 4096\nexperts = 128\n"
                           "top_k = 8\nexpert_ffn = 2048\n",
                           "deepep.model");
        ParallelConfig p;
        p.dp = 16;
        p.ep = 16;
        p.globalBatch = 16;
        p.recompute = Recompute::None;
        p.moeDispatcher = MoeDispatcher::HybridEp;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(moe, p);
        const Cluster cluster = *clusterPreset("dgx-h100-ib", 16);
        const CollectiveModel model(cluster);
        std::map<std::string, double> seconds; // dispatch, combine
        for (const Op& op : c.workload.programOf(0).ops)
            if (op.kind == OpKind::Collective && op.scope.rfind("microbatch 0/layer 0/forward/", 0) == 0) {
                const std::vector<std::int32_t> members = c.workload.membersOf(0, op);
                const bool dispatch = op.scope.find("/moe/dispatch") != std::string::npos;
                QVERIFY2(dispatch || op.scope.find("/moe/combine") != std::string::npos, op.scope.c_str());
                seconds[dispatch ? "dispatch" : "combine"] +=
                    model.collective(op.collective, op.commBytes, members).duration;
            }
        double missBoth = 1; // C(64, 8) / C(128, 8): a token skips the 64 experts of one node
        for (int i = 0; i < 8; ++i)
            missBoth *= (64.0 - i) / (128.0 - i);
        const double rdmaBytes = 4096 * 2 * (1 - missBoth) * 7168 * 2;
        const double dispatch = rdmaBytes / 54.47e9, combine = rdmaBytes / 53.35e9;
        QVERIFY2(std::abs(seconds["dispatch"] / dispatch - 1) < 0.05,
                 qPrintable(QStringLiteral("%1 vs %2 ms").arg(seconds["dispatch"] * 1e3).arg(dispatch * 1e3)));
        QVERIFY2(std::abs(seconds["combine"] / combine - 1) < 0.05,
                 qPrintable(QStringLiteral("%1 vs %2 ms").arg(seconds["combine"] * 1e3).arg(combine * 1e3)));
    }

    void pipelineStagesExchangeActivations()
    {
        // PP 2 x DP 2, 4 microbatches: stage 0 sends 4 activations and receives 4 gradients from the
        // rank of stage 1 at its data-parallel position, [1, 128, 256] bf16 each.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.pp = 2;
        p.dp = 2;
        p.globalBatch = 8;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tiny, p);
        QCOMPARE(c.workload.rankCount(), std::size_t{4});
        QCOMPARE(c.workload.programs.size(), std::size_t{2});
        QCOMPARE(countKind(c.workload, 0, OpKind::Send), std::size_t{4});
        QCOMPARE(countKind(c.workload, 0, OpKind::Recv), std::size_t{4});
        QCOMPARE(countKind(c.workload, 3, OpKind::Send), std::size_t{4});
        for (const Op& op : c.workload.programOf(1).ops)
            if (op.kind == OpKind::Send) {
                QCOMPARE(op.commBytes, std::uint64_t{128 * 256 * 2});
                QCOMPARE(c.workload.membersOf(1, op), (std::vector<std::int32_t>{1, 3}));
            }
        QCOMPARE(c.workload.validate(), std::string());
        const auto result = estimate(c.workload, *clusterPreset("dgx-h100-ib", 4));
        QVERIFY(result->stepTime > 0);
        // Ranks of one stage share a timeline, and simulating every rank gives the same results.
        QCOMPARE(result->rankTimeline[0], result->rankTimeline[1]);
        QVERIFY(result->rankTimeline[0] != result->rankTimeline[2]);
        EstimateOptions everyRank;
        everyRank.exploitSymmetry = false;
        const auto all = estimate(c.workload, *clusterPreset("dgx-h100-ib", 4), everyRank);
        QCOMPARE(all->timelines.size(), std::size_t{4});
        QCOMPARE(all->stepTime, result->stepTime);
        for (std::size_t r = 0; r < 4; ++r)
            QCOMPARE(all->ranks[r].finish, result->ranks[r].finish);
        // One communication stream: the transfers hold none, so 1F1B does not deadlock, and the
        // stages exchange 4 x 2 transfers each way.
        QCOMPARE(result->commMatrix.at(0, 2), 8.0 * 128 * 256 * 2 / 2);

        // Interleaved as Llama 3 runs it: 2 layers in 2 x 2 chunks, the first chunk only the embedding
        // and the last only the output layer and loss. Each stage sends a microbatch's activations
        // after each forward chunk but the last one's and its gradients after each backward chunk
        // but the first one's: 3 of the 4 chunk boundaries each way, 4 microbatches, 12 per stage.
        p.schedule = PipelineSchedule::Interleaved;
        p.virtualStages = 2;
        QVERIFY(validateStrategy(tiny, p).empty());
        const CompiledModel interleaved = compiler.compile(tiny, p);
        QCOMPARE(interleaved.workload.validate(), std::string());
        QCOMPARE(countKind(interleaved.workload, 0, OpKind::Send) + countKind(interleaved.workload, 2, OpKind::Send),
                 std::size_t{24});
        QCOMPARE(countKind(interleaved.workload, 0, OpKind::Send), countKind(interleaved.workload, 2, OpKind::Recv));
        const auto stepped = estimate(interleaved.workload, *clusterPreset("dgx-h100-ib", 4));
        QVERIFY(stepped->stepTime > 0);
    }

    void gradientSyncsRunOneAtATime()
    {
        // Every gradient-sync collective after the first waits for the one before it (the
        // data-parallel stream of Megatron-LM), so they never take both communication streams.
        // Without ZeRO every parameter's gradient is all-reduced on its own; with ZeRO-1 each block
        // reduce-scatters one flat buffer (2 layers, the head and the embedding).
        const TransformerConfig tiny = tinyModel();
        for (const auto& [zero, atLeast] :
             {std::pair{ZeroStage::None, std::size_t{5}}, std::pair{ZeroStage::OptimizerState, std::size_t{4}}}) {
            ParallelConfig p;
            p.tp = 2;
            p.dp = 2;
            p.globalBatch = 4;
            p.zero = zero;
            ModelCompiler compiler;
            const CompiledModel c = compiler.compile(tiny, p);
            const Program& program = c.workload.programOf(0);
            std::vector<const Op*> syncs;
            for (const Op& op : program.ops)
                if (op.kind == OpKind::Collective && op.scope.rfind("gradient sync", 0) == 0)
                    syncs.push_back(&op);
            QVERIFY(syncs.size() >= atLeast);
            for (std::size_t i = 1; i < syncs.size(); ++i) {
                const auto& deps = syncs[i]->ctrlDeps;
                const bool chained = std::find(deps.begin(), deps.end(), syncs[i - 1]->id) != deps.end();
                // Across blocks the chain goes through the previous block's exit, which is its last sync.
                QVERIFY2(chained, syncs[i]->scope.c_str());
            }
        }
    }

    void gradientsReducedAfterTheBackwardPassWithoutOverlap()
    {
        // Megatron-LM's local DDP (before 2023) all-reduced the gradients after the whole backward
        // pass: with overlapGradReduce off every gradient sync follows the last microbatch's last
        // backward block (the embedding's); with it on, the first sync (the head's, after the last
        // microbatch's head backward) is issued while that microbatch's layers still run backward.
        ParallelConfig p;
        p.dp = 2;
        p.globalBatch = 6;
        p.zero = ZeroStage::None;
        ModelCompiler compiler;
        for (const bool overlap : {true, false}) {
            p.overlapGradReduce = overlap;
            const CompiledModel c = compiler.compile(tinyModel(), p);
            const Program& program = c.workload.programOf(0);
            std::size_t firstSync = program.ops.size(), lastBackward = 0;
            for (std::size_t i = 0; i < program.ops.size(); ++i) {
                const Op& op = program.ops[i];
                if (op.kind == OpKind::Collective && op.scope.rfind("gradient sync", 0) == 0)
                    firstSync = std::min(firstSync, i);
                if (op.kind == OpKind::Compute && op.scope.rfind("microbatch 2/embedding/backward", 0) == 0)
                    lastBackward = i;
            }
            QVERIFY(firstSync < program.ops.size() && lastBackward > 0);
            QCOMPARE(firstSync > lastBackward, !overlap);
            // The same collectives either way: every fp32 gradient all-reduced once.
            QCOMPARE(static_cast<double>(collectives(c.workload, 0, CollectiveKind::AllReduce, "gradient sync").bytes),
                     4 * kTinyParameters);
            QVERIFY(has(p.describe(), "gradients reduced after the backward pass") == !overlap);
        }
    }

    void materialisedAttentionIsOneSoftmaxKernelAndDropout_data()
    {
        QTest::addColumn<int>("recompute");
        QTest::newRow("none") << static_cast<int>(Recompute::None);
        QTest::newRow("selective") << static_cast<int>(Recompute::Selective);
        QTest::newRow("full") << static_cast<int>(Recompute::Full);
    }
    void materialisedAttentionIsOneSoftmaxKernelAndDropout()
    {
        // Without flash attention the scores reach device memory, and the softmax is one kernel
        // (Megatron-LM's fused scale-mask-softmax, PyTorch's softmax): it reads the scores once and
        // writes the probabilities; its backward reads dP and p once each and writes dS. Attention
        // dropout adds a kernel that reads p and writes the kept probabilities and a one-byte mask,
        // and its backward, which reads the gradient and the mask. Sequence 1,024, 4 heads: E = 4 x
        // 1,024 x 1,024 probabilities per layer and microbatch, bf16.
        QFETCH(int, recompute);
        const auto mode = static_cast<Recompute>(recompute);
        TransformerConfig model = tinyModel();
        model.seqLen = 1024;
        ParallelConfig p;
        p.globalBatch = 1;
        p.zero = ZeroStage::None;
        p.recompute = mode;
        p.flashAttention = false;
        const std::uint64_t e = 4ull * 1024 * 1024;
        // Bytes of a tensor read or written, give or take the reductions' scalar initial values.
        const auto near = [](std::uint64_t bytes, std::uint64_t expected) {
            return bytes >= expected && bytes <= expected + 16;
        };
        ModelCompiler compiler;
        for (const double dropout : {0.0, 0.1}) {
            model.attentionDropout = dropout;
            const CompiledModel c = compiler.compile(model, p);
            std::map<std::string, std::vector<const Op*>> kernels;
            for (const Op& op : c.workload.programOf(0).ops)
                if (op.scope.rfind("microbatch 0/layer 0/", 0) == 0)
                    kernels[op.name].push_back(&op);
            // The forward kernels run again in the backward pass unless nothing is recomputed.
            const std::size_t forwards = mode == Recompute::None ? 1 : 2;
            QCOMPARE(kernels["softmax"].size(), forwards);
            QCOMPARE(kernels["softmax_backward"].size(), std::size_t{1});
            QCOMPARE(kernels["dropout"].size(), dropout > 0 ? forwards : 0);
            QCOMPARE(kernels["dropout_backward"].size(), std::size_t{dropout > 0 ? 1u : 0u});
            for (const Op* op : kernels["softmax"]) {
                QVERIFY2(near(op->bytesRead, 2 * e), qPrintable(QString::number(op->bytesRead)));
                QVERIFY2(near(op->bytesWritten, 2 * e), qPrintable(QString::number(op->bytesWritten)));
            }
            // Where nothing is recomputed p is an argument of the backward block, which kernel fusion
            // cannot tell apart from the others: its two reads count twice.
            QVERIFY2(near(kernels["softmax_backward"][0]->bytesRead, mode == Recompute::None ? 6 * e : 4 * e),
                     qPrintable(QString::number(kernels["softmax_backward"][0]->bytesRead)));
            QVERIFY2(near(kernels["softmax_backward"][0]->bytesWritten, 2 * e),
                     qPrintable(QString::number(kernels["softmax_backward"][0]->bytesWritten)));
            for (const Op* op : kernels["dropout"]) {
                QVERIFY2(near(op->bytesRead, 2 * e), qPrintable(QString::number(op->bytesRead)));
                QVERIFY2(near(op->bytesWritten, 3 * e), qPrintable(QString::number(op->bytesWritten)));
            }
            if (dropout > 0) {
                QVERIFY2(near(kernels["dropout_backward"][0]->bytesRead, 3 * e),
                         qPrintable(QString::number(kernels["dropout_backward"][0]->bytesRead)));
                QVERIFY2(near(kernels["dropout_backward"][0]->bytesWritten, 2 * e),
                         qPrintable(QString::number(kernels["dropout_backward"][0]->bytesWritten)));
            }
            QCOMPARE(c.workload.validate(), std::string());
        }
        // Kept for the backward pass without recomputation: p, and with dropout its mask and output
        // (Korthikanti et al. 2022: 5 a s^2 b bytes instead of 2 a s^2 b).
        if (mode == Recompute::None) {
            model.attentionDropout = 0;
            const double without = activationBytesPerLayer(model, p, 0);
            model.attentionDropout = 0.1;
            QCOMPARE(activationBytesPerLayer(model, p, 0) - without, 3.0 * static_cast<double>(e));
        }
    }

    void crossEntropyMovesWhatTheFrameworksMove()
    {
        // The loss over N = tokens x vocabulary logits of a microbatch (docs/models.md, "The loss"):
        // Megatron-LM's default cross entropy runs a kernel per step over fp32 logits, 38 N bytes
        // forward (upcast 6, max 4, shift 8, exponential 8, sum 4, normalise 8) and 14 N backward
        // (scale 8, downcast 6); fused (Transformer Engine, flash-attn's xentropy), two passes over
        // the bf16 logits forward (2 + 4) and a scaling of the bf16 gradient backward (4).
        TransformerConfig model = tinyModel(); // 128 tokens x 1,024 vocabulary
        ParallelConfig p;
        p.globalBatch = 1;
        p.zero = ZeroStage::None;
        const double n = 128.0 * 1024;
        ModelCompiler compiler;
        for (const bool fused : {false, true}) {
            p.fusedCrossEntropy = fused;
            const CompiledModel c = compiler.compile(model, p);
            double forward = 0, backward = 0;
            // The loss kernels: fused ones named "loss..." in the head's scope, the others under "head/loss".
            for (const Op& op : c.workload.programOf(0).ops)
                if (op.kind == OpKind::Compute && (op.scope.find("/head/loss") != std::string::npos ||
                                                   (op.name.rfind("loss", 0) == 0 && op.scope.ends_with("/head"))))
                    (op.scope.find("/head/backward/") != std::string::npos ? backward : forward) +=
                        static_cast<double>(op.memoryBytes());
            // Give or take the reductions' scalar initial values and the per-token sums.
            const auto near = [n](double bytes, double perLogit) {
                return bytes >= perLogit * n && bytes <= perLogit * n + 16 * 128 * 4;
            };
            QVERIFY2(near(forward, fused ? 6 : 38), qPrintable(QString::number(forward / n)));
            QVERIFY2(near(backward, fused ? 4 : 14), qPrintable(QString::number(backward / n)));
            QCOMPARE(c.workload.validate(), std::string());
        }
    }

    void eagerKernelsMoveWhatEagerPyTorchMoves()
    {
        // RMSNorm and the rotary embedding as eager PyTorch runs them (docs/models.md): a norm moves
        // 36 bytes per element forward (upcast 6, square 8, mean 4, scale 8, downcast 6, weight 4) and
        // 94 backward; a rotary embedding 20 each way (upcast 6, product 8, downcast 6). Fused, a norm
        // moves at most 8 forward and 10 backward, a rotary embedding 4. E = 128 tokens x 256
        // features per layer and microbatch.
        const TransformerConfig model =
            parseModelText("layers = 2\nhidden = 256\nheads = 4\nffn = 1024\ngated_mlp = true\nvocab = 1024\n"
                           "seq_len = 128\n",
                           "gated.model");
        ParallelConfig p;
        p.globalBatch = 1;
        p.zero = ZeroStage::None;
        p.recompute = Recompute::None;
        const double e = 128.0 * 256;
        ModelCompiler compiler;
        for (const bool eager : {false, true}) {
            p.eagerKernels = eager;
            const CompiledModel c = compiler.compile(model, p);
            // Bytes per kernel group of layer 0, microbatch 0: eager kernels sit in the norm's or
            // rotary embedding's scope, a fused kernel in its parent's under the same name.
            std::map<std::string, double> bytes;
            for (const Op& op : c.workload.programOf(0).ops) {
                const std::string prefix = "microbatch 0/layer 0/";
                if (op.kind != OpKind::Compute || op.scope.rfind(prefix, 0) != 0)
                    continue;
                const std::string scope = op.scope.substr(prefix.size());
                const std::string last = scope.substr(scope.rfind('/') + 1);
                const bool eagerOp = last == "norm" || last == "norm_backward" || last.rfind("rotary", 0) == 0;
                bytes[eagerOp ? scope : scope + "/" + op.name] += static_cast<double>(op.memoryBytes()) / e;
            }
            const auto near = [](double value, double expected) { return std::abs(value - expected) < 0.2; };
            const double norm = bytes["forward/attention/norm"],
                         normBackward = bytes["backward/attention/norm_backward"];
            QVERIFY2(eager ? near(norm, 36) : norm <= 8.1, qPrintable(QString::number(norm)));
            QVERIFY2(eager ? near(normBackward, 94) : normBackward <= 10.1, qPrintable(QString::number(normBackward)));
            QVERIFY(near(bytes["forward/attention/rotary_q"], eager ? 20 : 4));
            QVERIFY(near(bytes["backward/attention/rotary_q_backward"], eager ? 20 : 4));
            QCOMPARE(has(p.describe(), "eager kernels"), eager);
            QCOMPARE(c.workload.validate(), std::string());
        }
    }

    void inferencePipelinesOnlyForward()
    {
        // Prefill on 2 stages: forward passes only, activations sent downstream, nothing back.
        ParallelConfig p;
        p.pp = 2;
        p.globalBatch = 4;
        p.phase = Phase::Prefill;
        p.zero = ZeroStage::None;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tinyModel(), p);
        QCOMPARE(countKind(c.workload, 0, OpKind::Send), std::size_t{4});
        QCOMPARE(countKind(c.workload, 0, OpKind::Recv), std::size_t{0});
        QCOMPARE(countKind(c.workload, 1, OpKind::Recv), std::size_t{4});
        QCOMPARE(collectives(c.workload, 0, CollectiveKind::AllReduce, "gradient sync").ops, std::size_t{0});
        const auto result = estimate(c.workload, *clusterPreset("dgx-h100-ib", 2));
        QVERIFY(result->stepTime > 0);
        // Decode reads a KV cache of the context: more context, more time per token.
        p.phase = Phase::Decode;
        p.pp = 1;
        p.decodeContext = 128;
        const double shortContext =
            estimate(compiler.compile(tinyModel(), p).workload, *clusterPreset("dgx-h100-ib", 1))->stepTime;
        p.decodeContext = 65536;
        const double longContext =
            estimate(compiler.compile(tinyModel(), p).workload, *clusterPreset("dgx-h100-ib", 1))->stepTime;
        QVERIFY2(longContext > shortContext, qPrintable(QStringLiteral("%1 vs %2").arg(longContext).arg(shortContext)));
        // Decode splits no sequence over TP, so its strategy does not claim sequence parallelism; an
        // inference batch that does not split into microbatches is described as given.
        ParallelConfig decode;
        decode.phase = Phase::Decode;
        decode.tp = 8;
        QVERIFY(decode.sequenceParallel && !decode.splitsSequence());
        QVERIFY2(!has(decode.describe(), "SP"), decode.describe().c_str());
        decode.phase = Phase::Prefill;
        QVERIFY(decode.splitsSequence() && has(decode.describe(), ", SP"));
        decode.phase = Phase::Decode;
        decode.microbatchSize = 3;
        decode.globalBatch = 8;
        QVERIFY2(has(decode.describe(), "batch 8 in microbatches of 3"), decode.describe().c_str());
    }

    void flashAttentionBackwardIsOneKernel_data()
    {
        QTest::addColumn<int>("recompute");
        QTest::newRow("none") << static_cast<int>(Recompute::None);
        QTest::newRow("selective") << static_cast<int>(Recompute::Selective);
        QTest::newRow("full") << static_cast<int>(Recompute::Full);
    }
    void flashAttentionBackwardIsOneKernel()
    {
        // FlashAttention-2's backward kernel recomputes the probabilities on chip (Dao 2023,
        // Algorithm 2): per layer and microbatch one kernel with five causal-halved matmuls of
        // 2 s^2 d FLOPs per head (QK^T again, dO V^T, dQ, dK, dV: 2.5x the forward's two; softmax adds 1-2%), and
        // memory traffic of Q, K, V, dO, dQ, dK, dV (inputs counted once per matmul that reads them:
        // 9 activations here), never a score-sized tensor. Sequence 1,024: a [4, 1024, 1024] f32
        // score tensor is 16 MiB (8 MiB causal), a [1024, 256] bf16 activation 0.5 MiB.
        QFETCH(int, recompute);
        TransformerConfig model = tinyModel();
        model.seqLen = 1024;
        ParallelConfig p;
        p.globalBatch = 1;
        p.zero = ZeroStage::None;
        p.recompute = static_cast<Recompute>(recompute);
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(model, p);
        std::vector<const Op*> forward, backward;
        for (const Op& op : c.workload.programOf(0).ops) {
            if (op.scope.rfind("microbatch 0/layer 0/", 0) != 0)
                continue;
            if (op.name == "causal_core")
                forward.push_back(&op);
            else if (op.name == "causal_core_backward")
                backward.push_back(&op);
        }
        // A full recomputation runs the forward kernel again before the backward one.
        QCOMPARE(forward.size(), std::size_t{recompute == static_cast<int>(Recompute::Full) ? 2u : 1u});
        QCOMPARE(backward.size(), std::size_t{1});
        // Both are priced as fused attention kernels (ComputeRate), not as plain matmuls.
        QCOMPARE(kernelClassOf(*forward[0]), KernelClass::AttentionForward);
        QCOMPARE(kernelClassOf(*backward[0]), KernelClass::AttentionBackward);
        const double matmul = 2.0 * 4 * 1024.0 * 1024.0 * 64 / 2; // one causal matmul, all heads
        QVERIFY2(std::abs(static_cast<double>(forward[0]->flops) / (2 * matmul) - 1) < 0.03,
                 qPrintable(QString::number(forward[0]->flops)));
        QVERIFY2(std::abs(static_cast<double>(backward[0]->flops) / (5 * matmul) - 1) < 0.03,
                 qPrintable(QString::number(backward[0]->flops)));
        const std::uint64_t activation = 1024 * 256 * 2;
        QVERIFY2(backward[0]->memoryBytes() <= 12 * activation,
                 qPrintable(QString::number(backward[0]->memoryBytes())));
    }

    void fp8CoversTheTransformerLayersNotTheOutputLayer()
    {
        // FP8 training (Transformer Engine in Megatron-LM / NeMo, torchtitan's Float8) converts the
        // linear layers of the transformer blocks; the output projection stays BF16. Every matmul of a
        // layer therefore runs on f8 operands, the head's logits and their gradients on bf16.
        ParallelConfig p;
        p.globalBatch = 1;
        p.zero = ZeroStage::None;
        p.dtype = Precision::FP8;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tinyModel(), p);
        std::size_t layerFp8 = 0, headMatmuls = 0;
        for (const Op& op : c.workload.programOf(0).ops) {
            if (op.kind != OpKind::Compute || op.shape.size() < 2 || op.flops < 2ULL * 128 * 256 * 256)
                continue; // matmuls only: at least one 128 x 256 x 256 product
            const bool head = op.scope.find("/head/") != std::string::npos;
            if (head) {
                ++headMatmuls;
                QVERIFY2(op.dtype == DType::BF16, op.scope.c_str());
            } else if (op.scope.find("/layer 0/") != std::string::npos && op.name.find("causal") == std::string::npos) {
                layerFp8 += precisionOf(op.dtype) == Precision::FP8 ? 1 : 0;
            }
        }
        QCOMPARE(headMatmuls, std::size_t{3}); // logits forward, their dgrad and wgrad
        // Per layer, forward Q, K, V, O, up, down and backward dgrad and wgrad of each: 6 x 3.
        QCOMPARE(layerFp8, std::size_t{18});
    }

    void fp8CoversTheExperts()
    {
        // Transformer Engine's grouped linear layers run the routed experts of an FP8 recipe in FP8
        // too: forward up and down, backward the data and weight gradients of each (2 x 3 matmuls).
        ParallelConfig p;
        p.dp = 2;
        p.ep = 2;
        p.globalBatch = 2;
        p.zero = ZeroStage::None;
        p.dtype = Precision::FP8;
        ModelCompiler compiler;
        const CompiledModel c = compiler.compile(tinyMoe(4, 2), p);
        std::size_t expertMatmuls = 0, fp8 = 0;
        for (const Op& op : c.workload.programOf(0).ops)
            if (op.kind == OpKind::Compute && op.scope.rfind("microbatch 0/layer 0/", 0) == 0 &&
                op.scope.find("/moe") != std::string::npos && op.name.rfind("dot", 0) == 0) {
                ++expertMatmuls;
                fp8 += precisionOf(op.dtype) == Precision::FP8 ? 1 : 0;
            }
        QCOMPARE(expertMatmuls, std::size_t{6});
        QCOMPARE(fp8, std::size_t{6});
    }

    void fp8CastsEachWeightOnceAStep()
    {
        // Megatron-Core passes is_first_microbatch to Transformer Engine, which casts a weight on the
        // first microbatch, row-wise and transposed, and reuses both copies for the step's other
        // microbatches. Under ZeRO-3 the gathered weights do not outlive a microbatch: cast after
        // every gather. We charge the cast (2 bytes read, 1 written a parameter) and the transpose of
        // its result (1 and 1): one byte more than Transformer Engine's fused cast-transpose.
        const TransformerConfig tiny = tinyModel();
        const double matricesPerRank = (4 * 256.0 * 256 + 2 * 256.0 * 1024) / 2; // TP 2
        for (const ZeroStage zero : {ZeroStage::None, ZeroStage::Parameters}) {
            ParallelConfig p;
            p.tp = 2;
            p.dp = zero == ZeroStage::None ? 1 : 2;
            p.globalBatch = 4 * p.dp;
            p.zero = zero;
            p.dtype = Precision::FP8;
            ModelCompiler compiler;
            const CompiledModel c = compiler.compile(tiny, p);
            std::map<std::int64_t, std::uint64_t> castBytes; // per microbatch, layer 0
            std::size_t casts = 0;
            for (const Op& op : c.workload.programOf(0).ops) {
                if (op.scope.find("/layer 0/fp8 weight cast") == std::string::npos)
                    continue;
                castBytes[std::stoll(op.scope.substr(std::string("microbatch ").size()))] += op.memoryBytes();
                casts += op.scope.rfind("microbatch 0/", 0) == 0 && op.name.rfind("convert", 0) == 0 ? 1 : 0;
            }
            QCOMPARE(casts, std::size_t{6}); // Q, K, V, O, up, down
            QCOMPARE(castBytes.size(), std::size_t{zero == ZeroStage::None ? 1u : 4u});
            for (const auto& [microbatch, bytes] : castBytes)
                QCOMPARE(static_cast<double>(bytes), 5 * matricesPerRank);
        }
    }

    void fp8CastsEachActivationOnce()
    {
        // Under FP8 a layer casts what its GEMMs read once: a norm's output inside the norm's own
        // kernel (gathered over TP in FP8: half the bytes of bf16), the attention output and the
        // activation's output for the row-parallel projections, and in the backward pass each
        // incoming gradient once for its data and weight gradients. Current scaling reads every tensor
        // it casts once more for its amax first, except a norm's output (the norm kernel finds it).
        const TransformerConfig tiny = tinyModel();
        ParallelConfig bf16;
        bf16.tp = 2;
        bf16.globalBatch = 2;
        bf16.zero = ZeroStage::None;
        ParallelConfig fp8 = bf16;
        fp8.dtype = Precision::FP8;
        ParallelConfig current = fp8;
        current.fp8Scaling = Fp8Scaling::Current;
        ModelCompiler compiler;
        const auto layerOps = [&](const ParallelConfig& p, const std::string& pass) {
            std::vector<Op> ops;
            const CompiledModel c = compiler.compile(tiny, p);
            for (const Op& op : c.workload.programOf(0).ops)
                if (op.scope.rfind("microbatch 1/layer 0/" + pass, 0) == 0)
                    ops.push_back(op);
            return ops;
        };
        const auto named = [](const std::vector<Op>& ops, const std::string& part) {
            std::vector<const Op*> found;
            for (const Op& op : ops)
                if (op.name.find(part) != std::string::npos || op.scope.find(part) != std::string::npos)
                    found.push_back(&op);
            return found;
        };
        const std::vector<Op> forward = layerOps(fp8, "forward");
        // No weight is cast after the first microbatch; the attention output and the activation's
        // output are (row-wise and transposed for the weight gradient), the norms' outputs in the norms.
        std::vector<std::string> casts;
        for (const Op* op : named(forward, "cast"))
            if (op->kind == OpKind::Compute)
                casts.push_back(op->name);
        std::sort(casts.begin(), casts.end());
        QCOMPARE(casts, (std::vector<std::string>{"down_cast", "out_cast"}));
        const std::uint64_t tokens = 128, hidden = 256;
        // A cast-transpose: the bf16 tensor read once, both FP8 copies written.
        QCOMPARE(named(forward, "out_cast").front()->memoryBytes(), tokens * hidden / 2 * 4);
        // The gathered norms' outputs: one FP8 byte an element, against two in bf16.
        const auto gatherBytes = [&](const std::vector<Op>& ops) {
            std::uint64_t bytes = 0;
            for (const Op* op : named(ops, "all-gather"))
                bytes += op->kind == OpKind::Collective ? op->commBytes : 0;
            return bytes;
        };
        QVERIFY(gatherBytes(forward) > 0);
        QCOMPARE(2 * gatherBytes(forward), gatherBytes(layerOps(bf16, "forward")));
        // Backward: the incoming gradients of Q, K, V and up cast with their transposed copy in one
        // kernel each; those of O and down (gathered over TP first) cast, gathered, then transposed.
        const std::vector<Op> backward = layerOps(fp8, "backward");
        // The norms' outputs, kept row-wise and gathered again, are transposed after their gathers.
        std::size_t castTransposes = 0, backwardCasts = 0, transposes = 0;
        for (const Op& op : backward) {
            castTransposes += op.name == "output_grad_cast" ? 1 : 0;
            backwardCasts += op.name.rfind("convert", 0) == 0 ? 1 : 0;
            transposes += op.name.rfind("transpose", 0) == 0 ? 1 : 0;
        }
        QCOMPARE(castTransposes, std::size_t{4});
        QCOMPARE(backwardCasts, std::size_t{2});
        QCOMPARE(transposes, std::size_t{4});
        // Current scaling: one amax pass (a read of the bf16 tensor) before each cast outside a norm
        // (the norm's kernel finds its output's amax; a second kernel casts it).
        std::size_t amax = 0;
        std::uint64_t amaxBytes = 0;
        for (const Op& op : layerOps(current, "forward"))
            if (op.name.rfind("reduce", 0) == 0 && op.scope.find("_cast") != std::string::npos) {
                ++amax;
                amaxBytes += op.bytesRead;
            }
        QCOMPARE(amax, std::size_t{2}); // the attention output, the activation's output
        QCOMPARE(amaxBytes, tokens * (hidden / 2 + 1024 / 2) * 2 + 2 * 2); // and their bf16 initial values
    }

    void tensorParallelOverlapSplitsTheCollectives()
    {
        // --tp-comm-overlap (TP 2, SP), Transformer Engine's userbuffers methods: an all-gather of layer
        // 0's forward is a ring exchange, so the GEMMs it feeds start on the rank's own shard (they no
        // longer depend on it) and only their users wait for it; a reduce-scatter is pipelined in 4
        // chunks, the first three started with the GEMM producing its input, the last after it. The
        // bytes add up to the collectives without overlap, and the step is faster (hidden 4,096 and
        // 4,096 tokens, so that bandwidth, not the latency of the extra collective, sets the time).
        const TransformerConfig tiny = parseModelText(
            "layers = 2\nhidden = 4096\nheads = 32\nffn = 16384\nvocab = 1024\nseq_len = 4096\n", "wide.model");
        ParallelConfig p;
        p.tp = 2;
        p.dp = 2;
        p.globalBatch = 2;
        p.zero = ZeroStage::None;
        ModelCompiler compiler;
        const CompiledModel plain = compiler.compile(tiny, p);
        p.tpCommOverlap = true;
        const CompiledModel overlapped = compiler.compile(tiny, p);
        const std::string layer0 = "microbatch 0/layer 0/forward";
        for (CollectiveKind kind : {CollectiveKind::AllGather, CollectiveKind::ReduceScatter}) {
            const Count before = collectives(plain.workload, 0, kind, layer0);
            const Count after = collectives(overlapped.workload, 0, kind, layer0);
            QCOMPARE(after.ops, (kind == CollectiveKind::ReduceScatter ? 2 : 1) * before.ops);
            QCOMPARE(after.bytes, before.bytes);
            QCOMPARE(after.groups, before.groups);
        }
        const Program& program = overlapped.workload.programOf(0);
        std::set<std::uint64_t> gathers;
        std::size_t lastChunks = 0;
        for (const Op& op : program.ops) {
            if (op.scope.rfind(layer0, 0) != 0 || op.kind != OpKind::Collective)
                continue;
            if (op.collective == CollectiveKind::AllGather) {
                gathers.insert(op.id);
                QVERIFY(runsOnCopyEngines(op)); // the ring exchange (initialize_ub: use_ce)
            }
            if (op.name.ends_with("/overlapped_chunks"))
                QCOMPARE(op.commBytes,
                         std::uint64_t{4096 * 4096 * 2 * 3 / 4}); // 3/4 of the [4096, 4096] bf16 partial sums
            else if (op.collective == CollectiveKind::ReduceScatter && ++lastChunks)
                QCOMPARE(op.commBytes, std::uint64_t{4096 * 4096 * 2 / 4});
        }
        QCOMPARE(gathers.size(), std::size_t{2});
        QCOMPARE(lastChunks, std::size_t{2});
        // No matmul of layer 0 reads a gathered tensor directly: they start on the local shard.
        std::size_t gemmsAfterGathers = 0;
        for (const Op& op : program.ops)
            if (op.scope.rfind(layer0, 0) == 0 && op.kind == OpKind::Compute && op.name.rfind("dot", 0) == 0)
                for (std::uint64_t d : op.dataDeps)
                    gemmsAfterGathers += gathers.count(d);
        QCOMPARE(gemmsAfterGathers, std::size_t{0});
        const Cluster cluster = *clusterPreset("dgx-h100-ib", 4);
        const double without = estimate(plain.workload, cluster)->stepTime;
        const double with = estimate(overlapped.workload, cluster)->stepTime;
        QVERIFY2(with < without, qPrintable(QStringLiteral("%1 vs %2").arg(with).arg(without)));
        QVERIFY(p.describe().find("TP overlap") != std::string::npos);
    }

    void blocksAreReused()
    {
        // Compiling the same strategy again lowers nothing: every block comes from the cache.
        const TransformerConfig tiny = tinyModel();
        ParallelConfig p;
        p.dp = 2;
        p.globalBatch = 4;
        ModelCompiler compiler;
        const CompiledModel first = compiler.compile(tiny, p);
        QVERIFY(first.blocksLowered > 0);
        const CompiledModel again = compiler.compile(tiny, p);
        QCOMPARE(again.blocksLowered, std::size_t{0});
        QCOMPARE(again.blocksReused, first.blocksLowered + first.blocksReused);
        // The compiled model itself is kept: the same programs, which the estimator's cache knows.
        QCOMPARE(again.workload.programs.front().get(), first.workload.programs.front().get());
        // Three strategies are kept: going back two edits finds the first again, a fourth lets it go.
        ParallelConfig second = p, third = p, fourth = p;
        second.globalBatch = 8;
        third.globalBatch = 12;
        fourth.globalBatch = 16;
        (void)compiler.compile(tiny, second);
        (void)compiler.compile(tiny, third);
        QCOMPARE(compiler.compile(tiny, p).workload.programs.front().get(), first.workload.programs.front().get());
        (void)compiler.compile(tiny, second);
        (void)compiler.compile(tiny, third);
        (void)compiler.compile(tiny, fourth);
        const CompiledModel rebuilt = compiler.compile(tiny, p);
        QVERIFY(rebuilt.workload.programs.front().get() != first.workload.programs.front().get());
        QCOMPARE(rebuilt.blocksLowered, std::size_t{0}); // its blocks are still cached
        // Another model with the same strategy is not taken for it.
        TransformerConfig wider = tiny;
        wider.ffn *= 2;
        QVERIFY(compiler.compile(wider, p).workload.programs.front().get() != rebuilt.workload.programs.front().get());
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
