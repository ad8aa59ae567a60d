// SPDX-License-Identifier: MIT
// The communication replay's plan and its measured timelines, without MPI (core/replay).
#include "core/chakra.h"
#include "core/error.h"
#include "core/estimator/estimateexport.h"
#include "core/replay/calibration.h"
#include "core/replay/replayplan.h"
#include "engine/workloadloader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace flint::core;
using flint::core::replay::Action;
using flint::core::replay::MeasuredOp;

namespace {

Op op(std::uint64_t id, OpKind kind, std::uint64_t bytes = 0, std::vector<std::uint64_t> deps = {})
{
    Op o;
    o.id = id;
    o.name = "op" + std::to_string(id);
    o.kind = kind;
    o.commBytes = bytes;
    o.dataDeps = std::move(deps);
    return o;
}

Op transfer(std::uint64_t id, OpKind kind, std::int32_t src, std::int32_t dst, std::int32_t tag, std::uint64_t bytes,
            std::vector<std::uint64_t> deps = {})
{
    Op o = op(id, kind, bytes, std::move(deps));
    o.commSrc = src;
    o.commDst = dst;
    o.commTag = tag;
    return o;
}

Op collective(std::uint64_t id, CollectiveKind kind, std::uint64_t bytes, std::vector<std::uint64_t> deps = {})
{
    Op o = op(id, OpKind::Collective, bytes, std::move(deps));
    o.collective = kind;
    return o;
}

/// Two ranks that run different programs: rank 0 computes, sends two messages (tags 5, then 3) and
/// joins an all-reduce and an all-to-all; rank 1 receives them in the other order.
Workload twoRanks()
{
    Program p0;
    p0.name = "two";
    p0.ops.push_back(op(0, OpKind::Compute));
    p0.ops[0].durationMicros = 100;
    p0.ops.push_back(transfer(1, OpKind::Send, 0, 1, 5, 1000, {0}));
    p0.ops.push_back(transfer(2, OpKind::Send, 0, 1, 3, 2000, {0}));
    p0.ops.push_back(collective(3, CollectiveKind::AllReduce, 4096, {1, 2}));
    p0.ops.push_back(collective(4, CollectiveKind::AllToAll, 300, {3}));
    Program p1;
    p1.name = "two";
    p1.ops.push_back(transfer(0, OpKind::Recv, 0, 1, 3, 2000));
    p1.ops.push_back(transfer(1, OpKind::Recv, 0, 1, 5, 1000));
    p1.ops.push_back(op(2, OpKind::Compute, 0, {0, 1}));
    p1.ops[2].durationMicros = 50;
    p1.ops.push_back(collective(3, CollectiveKind::AllReduce, 4096, {2}));
    p1.ops.push_back(collective(4, CollectiveKind::AllToAll, 500, {3}));
    Workload w;
    w.programs = {std::make_shared<const Program>(p0), std::make_shared<const Program>(p1)};
    w.ranks.resize(2);
    w.ranks[1].program = 1;
    return w;
}

/// What the two ranks "measured", in seconds: rank 1 reaches the all-reduce later, so its time in it
/// (295 us) is the transfer; rank 0's (400 us) includes waiting.
std::vector<std::vector<MeasuredOp>> twoRanksMeasured()
{
    return {{{0, 0, 100e-6, 0},
             {100e-6, 100e-6, 500e-6, 1000},
             {100e-6, 100e-6, 300e-6, 2000},
             {500e-6, 500e-6, 900e-6, 4096},
             {900e-6, 900e-6, 1200e-6, 300}},
            {{0, 0, 300e-6, 2000},
             {0, 0, 550e-6, 1000},
             {550e-6, 550e-6, 605e-6, 0},
             {605e-6, 605e-6, 900e-6, 4096},
             {900e-6, 900e-6, 1150e-6, 500}}};
}

Cluster cluster(std::int64_t ranks)
{
    return clusterPreset("dgx-h100-ib", ranks).value();
}

} // namespace

class TestReplayPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plansWaitsCollectivesAndMessages();
    void messagesPairWhateverTheirOrder();
    void buffersPerKind();
    void refusesWhatCannotBeReplayed();
    void computeScaleAndPlannedWorkload();
    void replayedWorkloadTakesTransferTimes();
    void byteScaleIsWrittenIntoTheOutput();
    void timelinesExportAsPerfetto();
    void replayReadsBackAsAMeasuredRun();
    void aTraceWithoutTimesIsNoMeasuredRun();
    void sharedMicrobenchmark();
    void calibrationFitsTheMessageModel();
};

void TestReplayPlan::plansWaitsCollectivesAndMessages()
{
    const Workload w = twoRanks();
    const replay::RankPlan plan = replay::planRank(w, 0, cluster(2), {});
    QCOMPARE(plan.rank, 0);
    QCOMPARE(plan.ops.size(), std::size_t{5});
    QCOMPARE(plan.ops[0].action, Action::Wait);
    QCOMPARE(plan.ops[0].seconds, 100e-6); // recorded, timing auto
    QCOMPARE(plan.ops[1].action, Action::Send);
    QCOMPARE(plan.ops[1].peer, 1);
    QCOMPARE(plan.ops[1].bytes, std::uint64_t{1000});
    QCOMPARE(plan.ops[3].action, Action::Collective);
    QCOMPARE(plan.ops[3].collective, CollectiveKind::AllReduce);
    QCOMPARE(plan.ops[3].group, -1);
    QCOMPARE(plan.ops[3].ordinal, 0u);
    QCOMPARE(plan.ops[4].ordinal, 1u);
    QCOMPARE(plan.groups, std::vector<std::int32_t>{-1});
    // The all-to-all knows what every member sends, so that each receives the right share.
    QCOMPARE(plan.ops[4].memberBytes, (std::vector<std::uint64_t>{300, 500}));
    // Dependencies as the estimator follows them.
    QCOMPARE(plan.graph.predStart[4] - plan.graph.predStart[3], 2u);
}

void TestReplayPlan::messagesPairWhateverTheirOrder()
{
    // Rank 0 posts tag 5 then tag 3; rank 1 receives tag 3 first. The MPI tag numbers messages in
    // (tag, ordinal) order on both ends, so each send meets the receive the estimator pairs it with.
    const Workload w = twoRanks();
    const replay::RankPlan sender = replay::planRank(w, 0, cluster(2), {});
    const replay::RankPlan receiver = replay::planRank(w, 1, cluster(2), {});
    QCOMPARE(sender.ops[2].tag, 0);   // tag 3
    QCOMPARE(sender.ops[1].tag, 1);   // tag 5
    QCOMPARE(receiver.ops[0].tag, 0); // tag 3
    QCOMPARE(receiver.ops[1].tag, 1); // tag 5
    QCOMPARE(receiver.ops[0].bytes, sender.ops[2].bytes);
}

void TestReplayPlan::buffersPerKind()
{
    replay::PlannedOp p;
    p.action = Action::Collective;
    p.bytes = 1000;
    const auto check = [&](CollectiveKind kind, std::uint64_t send, std::uint64_t receive) {
        p.collective = kind;
        const replay::BufferBytes b = replay::bufferBytes(p, 4);
        QCOMPARE(b.send, send);
        QCOMPARE(b.receive, receive);
    };
    check(CollectiveKind::AllReduce, 1000, 1000);
    check(CollectiveKind::ReduceScatter, 1000, 250);
    check(CollectiveKind::AllGather, 1000, 4000); // comm_size: what each rank contributes
    check(CollectiveKind::Gather, 1000, 4000);
    check(CollectiveKind::Scatter, 4000, 1000);
    check(CollectiveKind::Broadcast, 1000, 1000);
    check(CollectiveKind::Barrier, 0, 0);
    p.memberBytes = {10, 2000, 30, 40};
    check(CollectiveKind::AllToAll, 1000, 2000);
    const Workload w = twoRanks();
    const replay::LargestBuffer largest = replay::largestBuffer(w, cluster(2), {});
    QCOMPARE(largest.bytes, std::uint64_t{4096});
    QCOMPARE(largest.op, std::string("op3"));
}

void TestReplayPlan::refusesWhatCannotBeReplayed()
{
    Workload w = twoRanks();
    auto p0 = std::make_shared<Program>(*w.programs[0]);
    p0->ops[1].commDst = 7; // no such rank
    w.programs[0] = p0;
    QVERIFY_THROWS_EXCEPTION(InputError, replay::planRank(w, 0, cluster(2), {}));
    try {
        replay::planRank(w, 0, cluster(2), {});
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("names peer 7") != std::string::npos, e.what());
    }
}

void TestReplayPlan::computeScaleAndPlannedWorkload()
{
    const Workload w = twoRanks();
    replay::ReplayOptions options;
    options.computeScale = 0.5;
    const replay::RankPlan plan = replay::planRank(w, 0, cluster(2), options);
    QCOMPARE(plan.ops[0].seconds, 50e-6);
    const Workload planned = replay::plannedWorkload(w, cluster(2), options);
    QCOMPARE(planned.durationOf(0, 0), std::uint64_t{50});
    QCOMPARE(planned.durationOf(1, 2), std::uint64_t{25});
    QCOMPARE(planned.programOf(0).ops[3].commBytes, std::uint64_t{4096});
    options.byteScale = 0.25;
    QCOMPARE(replay::plannedWorkload(w, cluster(2), options).programOf(1).ops[4].commBytes, std::uint64_t{125});
    options.timing = ComputeTiming::Roofline; // ops without FLOPs or bytes take no time
    QCOMPARE(replay::planRank(w, 0, cluster(2), options).ops[0].seconds, 0.0);
}

void TestReplayPlan::replayedWorkloadTakesTransferTimes()
{
    const Workload w = twoRanks();
    const Workload out = replay::replayedWorkload(w, cluster(2), {}, twoRanksMeasured());
    QCOMPARE(out.rankCount(), std::size_t{2});
    QCOMPARE(out.durationOf(0, 0), std::uint64_t{100});
    // The all-reduce: the shorter member's time on both, ending where each ended.
    QCOMPARE(out.durationOf(0, 3), std::uint64_t{295});
    QCOMPARE(out.startOf(0, 3), std::uint64_t{605});
    QCOMPARE(out.durationOf(1, 3), std::uint64_t{295});
    // The send of tag 3 (200 us) with its receive (300 us): 200 us on both ends.
    QCOMPARE(out.durationOf(0, 2), std::uint64_t{200});
    QCOMPARE(out.durationOf(1, 0), std::uint64_t{200});
    QCOMPARE(out.startOf(1, 0), std::uint64_t{100});
    // Bytes as moved: unscaled, the programs are shared with the input.
    QCOMPARE(out.programs.size(), w.programs.size());
    QVERIFY(out.validate().empty());
}

void TestReplayPlan::byteScaleIsWrittenIntoTheOutput()
{
    const Workload w = twoRanks();
    replay::ReplayOptions options;
    options.byteScale = 0.5;
    QCOMPARE(replay::planRank(w, 0, cluster(2), options).ops[3].bytes, std::uint64_t{2048});
    auto measured = twoRanksMeasured();
    for (auto& rank : measured)
        for (MeasuredOp& m : rank)
            m.bytes /= 2;
    const Workload out = replay::replayedWorkload(w, cluster(2), options, measured);
    QCOMPARE(out.programOf(0).ops[3].commBytes, std::uint64_t{2048});
    QCOMPARE(out.programOf(1).ops[4].commBytes, std::uint64_t{250});
    QCOMPARE(w.programOf(0).ops[3].commBytes, std::uint64_t{4096}); // the input is untouched
}

void TestReplayPlan::timelinesExportAsPerfetto()
{
    const Workload w = twoRanks();
    const auto result = replay::replayTimelines(w, cluster(2), {}, twoRanksMeasured());
    QCOMPARE(result->stepTime, 1200e-6);
    QCOMPARE(result->ranks.size(), std::size_t{2});
    QVERIFY(std::abs(result->ranks[0].compute - 100e-6) < 1e-12);
    QVERIFY(std::abs(result->ranks[1].finish - 1150e-6) < 1e-12);
    const auto& b = result->ranks[0];
    QVERIFY(std::abs(b.compute + b.exposedComm + b.idle - b.finish) < 1e-12);
    QCOMPARE(result->eventsOf(1).size(), std::size_t{5});
    const QJsonDocument trace = QJsonDocument::fromJson(QByteArray::fromStdString(chromeTraceJson(*result, w)));
    QVERIFY(trace.isObject() || trace.isArray());
}

void TestReplayPlan::replayReadsBackAsAMeasuredRun()
{
    const Workload out = replay::replayedWorkload(twoRanks(), cluster(2), {}, twoRanksMeasured());
    QTemporaryDir dir;
    const std::string prefix = dir.filePath(QStringLiteral("replay")).toStdString();
    writeChakraWorkload(out, prefix);
    const measured::MeasuredWorkload run = loadMeasuredRun(prefix);
    QCOMPARE(run.ranks.size(), std::size_t{2});
    QCOMPARE(run.stepSeconds(), 1200e-6);
    QCOMPARE(run.ranks[0].kernels, std::uint64_t{1});
    QCOMPARE(run.ranks[0].collectives, std::uint64_t{4});
    QCOMPARE(run.workload.durationOf(1, 3), std::uint64_t{295});
    QVERIFY(run.notes.front().text().find("recorded times, 2 ranks: measured step 1.200 ms") != std::string::npos);
}

void TestReplayPlan::aTraceWithoutTimesIsNoMeasuredRun()
{
    QTemporaryDir dir;
    const std::string prefix = dir.filePath(QStringLiteral("plain")).toStdString();
    Workload w = twoRanks();
    auto p0 = std::make_shared<Program>(*w.programs[0]);
    auto p1 = std::make_shared<Program>(*w.programs[1]);
    p0->ops[0].durationMicros = 0;
    p1->ops[2].durationMicros = 0;
    w.programs = {p0, p1};
    writeChakraWorkload(w, prefix);
    try {
        loadMeasuredRun(prefix);
        QFAIL("a trace without times was taken for a measured run");
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("not a measured run") != std::string::npos, e.what());
    }
}

void TestReplayPlan::sharedMicrobenchmark()
{
    const QString path = QStringLiteral(FLINT_SHARED_DATA "/chakra/astrasim_all_reduce_8npus_1MB/all_reduce");
    if (!QFile::exists(path + QStringLiteral(".0.et")))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    const Workload w = readChakraWorkload(path.toStdString());
    for (std::size_t r = 0; r < w.rankCount(); ++r) {
        const replay::RankPlan plan = replay::planRank(w, r, cluster(8), {});
        std::size_t collectives = 0;
        for (const replay::PlannedOp& p : plan.ops)
            if (p.action == Action::Collective) {
                ++collectives;
                QCOMPARE(p.collective, CollectiveKind::AllReduce);
                QCOMPARE(p.bytes, std::uint64_t{1048576});
            }
        QCOMPARE(collectives, std::size_t{1});
    }
}

void TestReplayPlan::calibrationFitsTheMessageModel()
{
    // Messages of a link with 2 us one-way latency and 10 GB/s (GB = 2^30 bytes): the fit recovers
    // both, and inverting the estimator's message time across a switch (2 hops, 10 ns at each end)
    // gives the per-hop latency.
    const double bandwidth = 10 * kNetworkGB;
    std::vector<replay::MessageSample> samples;
    for (std::uint64_t bytes : {8ull, 512ull, 65536ull, 1048576ull, 16777216ull})
        samples.push_back({bytes, 2e-6 + static_cast<double>(bytes) / bandwidth});
    const replay::HockneyFit fit = replay::fitHockney(samples);
    QVERIFY(std::abs(fit.bytesPerSecond / bandwidth - 1) < 1e-9);
    QVERIFY(std::abs(fit.alphaSeconds - (2e-6 + 8 / bandwidth)) < 1e-15);
    QVERIFY(fit.rmsRelativeError < 1e-3);

    Topology topology;
    topology.dims = {{TopologyKind::Switch, 8, 400, 900}, {TopologyKind::Ring, 4, 50, 2000}};
    QCOMPARE(replay::peerAcross(topology, 0, 16), 1);
    QCOMPARE(replay::peerAcross(topology, 1, 16), 8);
    QCOMPARE(replay::peerAcross(topology, 1, 8), -1); // rank 8 is not in a world of 8
    std::vector<std::string> report;
    const Topology fitted = replay::calibratedTopology(topology, {{0, 1, samples}}, 10.0, &report);
    QVERIFY(std::abs(fitted.dims[0].bandwidthGBps - 10) < 1e-6);
    QVERIFY(std::abs(fitted.dims[0].latencyNs - (fit.alphaSeconds * 1e9 - 20) / 2) < 1e-6);
    QCOMPARE(fitted.dims[1].latencyNs, 2000.0); // not measured: kept
    QCOMPARE(report.size(), std::size_t{1});
    // Too few sizes for a bandwidth: refused, not guessed.
    QVERIFY_THROWS_EXCEPTION(InputError, replay::fitHockney({{8, 1e-6}, {1 << 20, 1e-4}}));
}

QTEST_GUILESS_MAIN(TestReplayPlan)
#include "tst_replayplan.moc"
