// SPDX-License-Identifier: MIT
// The scenario engine: one sizing rule, one bandwidth rule, one definition of "best", and a sweep
// that records a failing point and goes on.
#include "core/error.h"
#include "core/rankpartition.h"
#include "engine/scenario.h"
#include "engine/workloadloader.h"

#include <set>

#include <QTest>

using namespace flint;

class TestEngine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fitClusterKeepsWhatTheUserSet();
    void fitClusterLeavesNetworkFilesAlone();
    void bestFollowsTheObjective();
    void modelScenarioEvaluates();
    void sweepRecordsProblemsAndGoesOn();
    void rebindSettlesTheCluster();
    void hybridEpDomainWiderThanANodeWarns();
};

namespace {

std::int64_t npus(const core::Cluster& c)
{
    std::int64_t n = 1;
    for (const auto& d : c.topology.dims)
        n *= d.npus;
    return n;
}

engine::Scenario llama(std::int64_t tp, std::int64_t dp)
{
    engine::Scenario s;
    s.model = *core::model::findModel("llama3-8b");
    s.parallel.tp = tp;
    s.parallel.dp = dp;
    s.parallel.seqLen = 1024;
    s.parallel.globalBatch = dp;
    s.cluster = *core::clusterPreset("dgx-h100-ib", tp * dp);
    s.options.commMatrix = false;
    return s;
}

} // namespace

void TestEngine::fitClusterKeepsWhatTheUserSet()
{
    core::Cluster c = *core::clusterPreset("dgx-h100-ib", 16);
    c.topology.dims[0].latencyNs = 500;
    c.topology.dims[1].bandwidthGBps = core::fromDecimalGBps(25);
    c.commStreams = 3;
    c.edited = true;
    // Grows: the outer dimension takes the ranks, both dimensions keep their edits.
    const core::Cluster big = engine::fitCluster(c, 1024);
    QCOMPARE(npus(big), std::int64_t(1024));
    QCOMPARE(big.topology.dims[1].npus, 128);
    QCOMPARE(big.topology.dims[1].bandwidthGBps, core::fromDecimalGBps(25));
    QCOMPARE(big.topology.dims[0].latencyNs, 500.0);
    QCOMPARE(big.commStreams, 3);
    QVERIFY(big.edited);
    // Shrinks to one node: the scale-out dimension goes, the NVLink edit stays.
    const core::Cluster node = engine::fitCluster(c, 8);
    QCOMPARE(node.topology.dims.size(), std::size_t(1));
    QCOMPARE(node.topology.dims[0].latencyNs, 500.0);
    // And back: the scale-out dimension returns from the preset (its edit went with it).
    const core::Cluster again = engine::fitCluster(node, 16);
    QCOMPARE(again.topology.dims.size(), std::size_t(2));
    QCOMPARE(again.topology.dims[1].bandwidthGBps,
             core::clusterPreset("dgx-h100-ib", 16)->topology.dims[1].bandwidthGBps);
}

void TestEngine::fitClusterLeavesNetworkFilesAlone()
{
    core::Cluster c = *core::clusterPreset("dgx-h100-ib", 16);
    c.name = "my-network";
    const core::Cluster same = engine::fitCluster(c, 1024);
    QCOMPARE(same.topology, c.topology);
}

void TestEngine::bestFollowsTheObjective()
{
    // Two feasible points: A has more tokens/s per GPU, B more MFU; C is out of memory and would
    // win both; D was never estimated.
    const auto point = [](double tokens, double mfu, bool oom, std::int64_t dp) {
        engine::Evaluation e;
        e.scenario.model = *core::model::findModel("llama3-8b");
        e.scenario.parallel.dp = dp;
        e.result = std::make_shared<core::EstimateResult>();
        e.figures = core::model::StepFigures{};
        e.figures->tokensPerSecond = tokens;
        e.figures->mfu = mfu;
        e.figures->outOfMemory = oom;
        return e;
    };
    std::vector<engine::Evaluation> points = {point(800, 0.40, false, 8), point(1000, 0.45, false, 16),
                                              point(9000, 0.90, true, 8), engine::Evaluation{}};
    points[3].problem = "invalid";
    // Per GPU: 100 tokens/s on 8 GPUs beats 62.5 on 16.
    QCOMPARE(engine::bestIndex(points, engine::Objective::Throughput), 0);
    QCOMPARE(engine::bestIndex(points, engine::Objective::Mfu), 1);
    QCOMPARE(engine::bestIndex({points[2], points[3]}, engine::Objective::Mfu), -1);
    QVERIFY(!points[2].feasible());
    QCOMPARE(points[2].status(), std::string("out of memory"));
    QCOMPARE(engine::parseObjective("mfu"), engine::Objective::Mfu);
    QVERIFY(!engine::parseObjective("fastest"));
}

void TestEngine::modelScenarioEvaluates()
{
    core::model::ModelCompiler compiler;
    const engine::Evaluation e = engine::evaluate(llama(2, 4), &compiler);
    QVERIFY(e.feasible());
    QVERIFY(e.compiled && e.workload && e.result && e.figures);
    QCOMPARE(e.workload->workload.rankCount(), std::size_t(8));
    // The framework's streams: Megatron-LM reduces gradients on a stream of its own.
    QCOMPARE(e.scenario.cluster.commStreams, e.compiled->commStreams);
    QVERIFY(e.figures->stepTime > 0 && e.figures->mfu > 0);
    // The ranks' mesh names the groups the views offer: TP fastest.
    QCOMPARE(e.workload->workload.meshAxes, (std::vector<std::pair<std::string, std::int64_t>>{{"DP", 4}, {"TP", 2}}));
    std::set<std::string> named;
    for (const core::RankPartition& p : core::rankPartitions(e.workload->workload))
        named.insert(p.axes);
    QVERIFY2(named.count("TP") && named.count("DP"), named.empty() ? "none" : named.begin()->c_str());
    // With pipelining, stage-major: the pipeline groups are PP.
    engine::Scenario piped = llama(2, 2);
    piped.parallel.pp = 2;
    piped.parallel.globalBatch = 4;
    piped.cluster = *core::clusterPreset("dgx-h100-ib", 8);
    const engine::Evaluation p = engine::evaluate(piped, &compiler);
    QVERIFY2(p.feasible(), p.problem.c_str());
    QCOMPARE(p.workload->workload.meshAxes,
             (std::vector<std::pair<std::string, std::int64_t>>{{"PP", 2}, {"DP", 2}, {"TP", 2}}));
    named.clear();
    for (const core::RankPartition& part : core::rankPartitions(p.workload->workload))
        named.insert(part.axes);
    QVERIFY(named.count("PP") && named.count("TP") && named.count("DP"));
    // An MLIR module's one mesh over all its ranks names its axes too.
    const core::LoadedWorkload mlir = core::loadWorkload(FLINT_SOURCE_DIR "/tests/data/mlir/sharded_mlp.mlir", {});
    QCOMPARE(mlir.workload.meshAxes, (std::vector<std::pair<std::string, std::int64_t>>{{"x", 2}, {"y", 4}}));
    // Fixed streams stay as the user set them.
    engine::Scenario fixed = llama(2, 4);
    fixed.commStreamsFixed = true;
    fixed.cluster.commStreams = 1;
    QCOMPARE(engine::evaluate(fixed, &compiler).scenario.cluster.commStreams, 1);
}

void TestEngine::sweepRecordsProblemsAndGoesOn()
{
    core::model::ModelCompiler compiler;
    std::vector<engine::Scenario> scenarios = {llama(2, 4), llama(5, 1), llama(1, 8)};
    std::vector<std::size_t> seen;
    double lastFraction = 0;
    core::JobControl control;
    control.progress = [&lastFraction](double f) { lastFraction = f; };
    const auto out =
        engine::evaluateAll(scenarios, &compiler, control, [&seen](std::size_t i, const engine::Evaluation& e) {
            seen.push_back(i);
            QVERIFY(e.result || !e.problem.empty());
        });
    QCOMPARE(out.size(), std::size_t(3));
    QCOMPARE(seen, (std::vector<std::size_t>{0, 1, 2}));
    QCOMPARE(lastFraction, 1.0);
    QVERIFY(out[0].feasible() && out[2].feasible());
    QVERIFY(!out[1].problem.empty()); // TP 5 does not divide the heads
    QVERIFY(!out[0].compiled);        // a sweep keeps figures, not workloads
    QVERIFY(out[0].figures);
    // Cancelled ends the sweep.
    core::CancellationToken token;
    token.cancel();
    core::JobControl cancelled;
    cancelled.cancel = &token;
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, engine::evaluateAll(scenarios, &compiler, cancelled));
}

void TestEngine::rebindSettlesTheCluster()
{
    core::model::ModelCompiler compiler;
    const engine::Evaluation prepared = engine::prepare(llama(2, 8), &compiler);
    QVERIFY(!prepared.result);
    // A cluster of the wrong size (as a preset for 8) is sized for the 16 ranks and given the
    // framework's streams.
    core::Cluster small = *core::clusterPreset("dgx-h100-ib", 8);
    small.topology.dims[0].bandwidthGBps = 100;
    const engine::Evaluation rebound = engine::rebind(prepared, small);
    QCOMPARE(npus(rebound.scenario.cluster), std::int64_t(16));
    QCOMPARE(rebound.scenario.cluster.topology.dims[0].bandwidthGBps, 100.0);
    QCOMPARE(rebound.scenario.cluster.commStreams, prepared.compiled->commStreams);
    QCOMPARE(rebound.compiled, prepared.compiled); // not recompiled
}

void TestEngine::hybridEpDomainWiderThanANodeWarns()
{
    // Mixtral's 8 experts over 16 ranks of two 8-GPU nodes: a domain of 8 fits a node, 16 does not.
    core::model::ModelCompiler compiler;
    engine::Scenario s;
    s.model = *core::model::findModel("mixtral-8x7b");
    s.parallel.dp = 16;
    s.parallel.ep = 8;
    s.parallel.moeDispatcher = core::model::MoeDispatcher::HybridEp;
    s.cluster = *core::clusterPreset("dgx-h100-ib", 16);
    const auto warned = [](const engine::Evaluation& e) {
        for (const core::Message& w : e.workload->warnings)
            if (w.text().find("NVLink domain of 16 ranks is wider than the cluster's scale-up dimension of 8") !=
                std::string::npos)
                return true;
        return false;
    };
    const engine::Evaluation fits = engine::prepare(s, &compiler);
    QVERIFY2(fits.problem.empty(), fits.problem.c_str());
    QVERIFY(!warned(fits));
    s.parallel.nvlinkDomain = 16;
    const engine::Evaluation wide = engine::prepare(s, &compiler);
    QVERIFY(warned(wide));
    // A what-if edit of the cluster (rebind, no recompile) re-checks it: a 16-GPU scale-up domain
    // (one NVL-style dimension in front) holds the domain, the 8-GPU nodes again do not.
    core::Cluster wider = wide.scenario.cluster;
    wider.name = "nvl16.yml"; // a network file's cluster: kept as given, not refitted from a preset
    wider.topology.dims[0].npus = 16;
    wider.topology.dims[1].npus = 1;
    const engine::Evaluation rebound = engine::rebind(wide, wider);
    QCOMPARE(rebound.compiled, wide.compiled); // not recompiled
    QVERIFY(!warned(rebound));
    QVERIFY(warned(engine::rebind(rebound, wide.scenario.cluster)));
}

QTEST_MAIN(TestEngine)
#include "tst_engine.moc"
