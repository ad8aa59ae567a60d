// SPDX-License-Identifier: MIT
#include "core/estimator/collectivemodel.h"
#include "core/estimator/collectivesteps.h"
#include "core/estimator/opexplain.h"
#include "core/synthetictrace.h"

#include <cmath>
#include <map>

#include <QTest>

using namespace flint::core;

namespace {

Cluster switchCluster(std::int32_t npus)
{
    Cluster c;
    c.name = "test";
    c.device = *findDevice("H100");
    c.topology.dims = {{TopologyKind::Switch, npus, 100, 1000}};
    c.system.preferredDatasetSplits = 1;
    return c;
}

std::string joined(const OpExplanation& e)
{
    std::string all;
    for (const Message& line : e.lines)
        all += line.text() + '\n';
    return all;
}

/// Index of the first op of `program` that is a collective in comm slot `slot`.
std::uint32_t firstCollectiveIn(const Program& program, std::int32_t slot)
{
    for (std::uint32_t i = 0; i < program.ops.size(); ++i)
        if (program.ops[i].kind == OpKind::Collective && program.ops[i].commSlot == slot)
            return i;
    return std::uint32_t(-1);
}

} // namespace

class TestOpExplain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void computeIsTheRoofline();
    void collectiveMatchesTheModel();
    void flowsFollowTheRing();
    void heaviestOpBetweenRanks();
    void badIndexThrows();
    void stepsOfARingAllReduce();
    void stepsOfHalvingDoublingAndTrees();
    void stepsOfAStagedAllReduce();
};

void TestOpExplain::computeIsTheRoofline()
{
    Program program;
    Op gemm;
    gemm.id = 1;
    gemm.name = "gemm";
    gemm.kind = OpKind::Compute;
    gemm.flops = 2ULL * 4096 * 4096 * 4096;
    gemm.bytesRead = 2ULL * 4096 * 4096 * 2;
    gemm.bytesWritten = 4096ULL * 4096 * 2;
    gemm.dtype = DType::BF16;
    program.ops.push_back(gemm);
    const Workload w = Workload::spmd(std::make_shared<const Program>(program), 2,
                                      [](std::size_t, std::size_t) { return std::vector<std::int32_t>{}; });
    const Cluster cluster = switchCluster(2);
    const OpExplanation e = explainOp(w, cluster, 1, 0);
    QCOMPARE(e.seconds, computeTime(gemm, cluster));
    const double peak = cluster.device.peakFlops(Precision::BF16) * cluster.compute.flopEfficiencyFor(cluster.device) *
                        cluster.device.sustainedMatmulFor(Precision::BF16);
    const double expected = static_cast<double>(gemm.flops) / peak + cluster.compute.launchOverhead;
    QVERIFY2(std::abs(e.seconds - expected) < 1e-12, qPrintable(QString::number(e.seconds)));
    const std::string text = joined(e);
    QVERIFY2(text.find("roofline") != std::string::npos, text.c_str());
    QVERIFY2(text.find("compute-bound") != std::string::npos, text.c_str());
    QVERIFY2(text.find("sustains power-saturated") != std::string::npos, text.c_str());
    QVERIFY2(text.find("GEMM") == std::string::npos, text.c_str()); // no shape: the one efficiency

    // With its result shape the op is priced by the H100's measured GEMM table, and says so.
    program.ops[0].shape = {4096, 4096};
    const Workload shaped = Workload::spmd(std::make_shared<const Program>(program), 2,
                                           [](std::size_t, std::size_t) { return std::vector<std::int32_t>{}; });
    const OpExplanation g = explainOp(shaped, cluster, 1, 0);
    QCOMPARE(g.seconds, computeTime(program.ops[0], cluster));
    const std::string gemmText = joined(g);
    QVERIFY2(gemmText.find("GEMM of M 4096 x N 4096 x K 4096") != std::string::npos, gemmText.c_str());
    QVERIFY2(gemmText.find("780.2 TFLOP/s") != std::string::npos, gemmText.c_str());
}

void TestOpExplain::collectiveMatchesTheModel()
{
    const Workload w = makeSyntheticSpmdWorkload(40, 8, 4, 64 << 20);
    const Cluster cluster = switchCluster(8);
    const Program& program = w.programOf(5);
    const std::uint32_t tp = firstCollectiveIn(program, 0);
    QVERIFY(tp != std::uint32_t(-1));
    const Op& op = program.ops[tp];
    const OpExplanation e = explainOp(w, cluster, 5, tp);
    const std::vector<std::int32_t> members = {4, 5, 6, 7};
    const CollectiveCost cost = CollectiveModel(cluster).collective(op.collective, op.commBytes, members);
    QCOMPARE(e.seconds, cost.duration);
    const std::string text = joined(e);
    QVERIFY2(text.find("ALL_REDUCE of " + std::to_string(op.commBytes) + " bytes per rank over 4 members") !=
                 std::string::npos,
             text.c_str());
    QVERIFY2(text.find("2(n-1) T_msg(c/n, h_nb)") != std::string::npos, text.c_str());
    QVERIFY2(text.find("n = 4") != std::string::npos, text.c_str());
    // Our model fuses reductions into the transfers: the legend says T_red is only their excess.
    QVERIFY2(text.find("T_red(m) = max(0, 3 m / BW_red - m / B)") != std::string::npos, text.c_str());
    QVERIFY2(text.find("on dimension 1 (") != std::string::npos, text.c_str()); // counted from 1, as the views do
    // On a preset whose collectives are NCCL's, the explanation names the protocol that prices it.
    const Cluster dgx = *clusterPreset("dgx-h100-ib", 40);
    const CollectiveCost nccl = CollectiveModel(dgx).collective(op.collective, op.commBytes, members);
    QVERIFY(!nccl.protocol.empty());
    const OpExplanation n = explainOp(w, dgx, 5, tp);
    QCOMPARE(n.seconds, nccl.duration);
    QVERIFY2(joined(n).find("NCCL's " + nccl.protocol + " protocol") != std::string::npos, joined(n).c_str());
    // Its link in the decimal GB/s the presets are given in (H100 NVLink: 370.8 GB/s, not the GiB/s
    // the network description stores).
    QVERIFY2(joined(n).find("(Switch, 370.8 GB/s") != std::string::npos, joined(n).c_str());
    // Where links are shared, the explanation says the transfer may run longer than priced alone.
    QVERIFY2(joined(n).find("links shared by overlapping transfers") != std::string::npos, joined(n).c_str());
}

void TestOpExplain::flowsFollowTheRing()
{
    // The data-parallel all-reduce on 8 ranks with tp = 4: groups {0,4} ... {3,7}; a ring of two
    // sends 2 (n-1)/n S = S to the other member, for each of the 4 groups.
    const std::uint64_t gradient = 64 << 20;
    const Workload w = makeSyntheticSpmdWorkload(40, 8, 4, gradient);
    const Cluster cluster = switchCluster(8);
    const Program& program = w.programOf(0);
    const std::uint32_t dp = firstCollectiveIn(program, 1);
    QVERIFY(dp != std::uint32_t(-1));
    std::map<std::pair<std::int32_t, std::int32_t>, double> flows;
    forEachOpFlow(w, cluster, 0, dp, [&](std::int32_t src, std::int32_t dst, double bytes) {
        flows[{src, dst}] += bytes;
    });
    QCOMPARE(flows.size(), std::size_t(8));
    for (std::int32_t r = 0; r < 8; ++r)
        QCOMPARE(flows[std::make_pair(r, (r + 4) % 8)], static_cast<double>(gradient));

    // A compute op moves nothing.
    std::size_t computeFlows = 0;
    forEachOpFlow(w, cluster, 0, 0, [&](std::int32_t, std::int32_t, double) { ++computeFlows; });
    QCOMPARE(computeFlows, std::size_t(0));
}

void TestOpExplain::heaviestOpBetweenRanks()
{
    const Workload w = makeSyntheticSpmdWorkload(40, 8, 4, 64 << 20);
    const Cluster cluster = switchCluster(8);
    const Program& program = w.programOf(0);

    // 0 -> 4 only carries the data-parallel gradient all-reduce.
    const OpOnRank dp = heaviestOpBetween(w, cluster, 0, 1, 4, 1);
    QCOMPARE(dp.rank, 0);
    QCOMPARE(program.ops[dp.op].commSlot, 1);
    QCOMPARE(dp.bytes, static_cast<double>(64 << 20));

    // 0 -> 1 is the tensor-parallel ring: a "tp" all-reduce, all of them counted.
    const OpOnRank tp = heaviestOpBetween(w, cluster, 0, 1, 1, 1);
    QCOMPARE(tp.rank, 0);
    QCOMPARE(program.ops[tp.op].commSlot, 0);
    QVERIFY(tp.bytes > 0);

    // 0 -> 5 is in neither ring.
    QCOMPARE(heaviestOpBetween(w, cluster, 0, 1, 5, 1).rank, -1);
}

void TestOpExplain::badIndexThrows()
{
    const Workload w = makeSyntheticSpmdWorkload(10, 2, 2, 1024);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, explainOp(w, switchCluster(2), 0, 1000));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, explainOp(w, switchCluster(2), 7, 0));
}

void TestOpExplain::stepsOfARingAllReduce()
{
    // 8 GPUs on a switch, 8 MiB each: a ring all-reduce is 7 reduce-scatter steps then 7 all-gather
    // steps, each GPU passing 1 MiB to the next; the steps' times add up to the phase's.
    const Cluster cluster = switchCluster(8);
    const std::vector<std::int32_t> members{0, 1, 2, 3, 4, 5, 6, 7};
    const CollectiveCost cost =
        CollectiveModel(cluster).collective(CollectiveKind::AllReduce, std::uint64_t{8} << 20, members);
    const std::vector<CollectiveStep> steps = collectiveSteps(cost, cluster.topology, members);
    QCOMPARE(steps.size(), std::size_t{14});
    double seconds = 0;
    for (const CollectiveStep& s : steps) {
        QCOMPARE(s.action, s.step <= 7 ? StepAction::Reduce : StepAction::Copy);
        QCOMPARE(s.transfers.size(), std::size_t{8});
        for (const CollectiveTransfer& t : s.transfers) {
            QCOMPARE(t.dst, (t.src + 1) % 8);
            QCOMPARE(t.bytes, double(1 << 20));
        }
        seconds += s.seconds;
    }
    QCOMPARE(seconds, cost.phases.front().time);
    // A ring all-to-all over 64 GPUs takes 64 x 63 / 2 = 2,016 steps of 64 messages: with room for
    // 640 messages the first 10 steps come, each at its share of the phase, and say they are cut.
    std::vector<std::int32_t> many(64);
    for (std::int32_t r = 0; r < 64; ++r)
        many[static_cast<std::size_t>(r)] = r;
    const Cluster wide = switchCluster(64);
    const CollectiveCost allToAll =
        CollectiveModel(wide).collective(CollectiveKind::AllToAll, std::uint64_t{64} << 20, many);
    bool truncated = false;
    const std::vector<CollectiveStep> cut = collectiveSteps(allToAll, wide.topology, many, 640, &truncated);
    QVERIFY(truncated);
    QCOMPARE(cut.size(), std::size_t{10});
    QCOMPARE(allToAll.phases.front().steps, 2016);
    QCOMPARE(cut.front().seconds, allToAll.phases.front().time / 2016);
    QCOMPARE(collectiveSteps(cost, cluster.topology, members, 640, &truncated).size(), std::size_t{14});
    QVERIFY(!truncated); // the 8-GPU all-reduce's 112 messages fit
    // Rooted collectives have no staged phases to show.
    QVERIFY(collectiveSteps(CollectiveModel(cluster).collective(CollectiveKind::Broadcast, 1024, members),
                            cluster.topology, members)
                .empty());
}

void TestOpExplain::stepsOfHalvingDoublingAndTrees()
{
    Cluster cluster = switchCluster(8);
    const std::vector<std::int32_t> members{0, 1, 2, 3, 4, 5, 6, 7};
    cluster.system.allReduce = {CollectiveAlgorithm::HalvingDoubling};
    const std::uint64_t bytes = std::uint64_t{8} << 20;
    CollectiveCost cost = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, bytes, members);
    std::vector<CollectiveStep> steps = collectiveSteps(cost, cluster.topology, members);
    // Partners 1, 2, 4 apart with halving pieces (4, 2, 1 MiB), then back: 4, 2, 1 apart doubling.
    QCOMPARE(steps.size(), std::size_t{6});
    const std::int32_t distance[] = {1, 2, 4, 4, 2, 1};
    const double mib[] = {4, 2, 1, 1, 2, 4};
    for (std::size_t s = 0; s < steps.size(); ++s) {
        QCOMPARE(steps[s].action, s < 3 ? StepAction::Reduce : StepAction::Copy);
        for (const CollectiveTransfer& t : steps[s].transfers) {
            QCOMPARE(t.dst, t.src ^ distance[s]);
            QCOMPARE(t.bytes, mib[s] * (1 << 20));
        }
    }
    // Bigger pieces take longer.
    QVERIFY(steps[0].seconds > steps[2].seconds);

    // Double binary tree over 7 GPUs: depth 2; going up, the leaves (positions 3-6) send to their
    // parents in both trees, then positions 1 and 2 to the root; then back down.
    cluster = switchCluster(7);
    cluster.system.allReduce = {CollectiveAlgorithm::DoubleBinaryTree};
    const std::vector<std::int32_t> seven{0, 1, 2, 3, 4, 5, 6};
    cost = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, bytes, seven);
    steps = collectiveSteps(cost, cluster.topology, seven);
    QCOMPARE(steps.size(), std::size_t{4});
    QCOMPARE(steps[0].action, StepAction::Reduce);
    QCOMPARE(steps[0].transfers.size(), std::size_t{8}); // 4 leaves x 2 trees
    QCOMPARE(steps[1].transfers.size(), std::size_t{4});
    bool leafToParent = false, mirrored = false;
    for (const CollectiveTransfer& t : steps[0].transfers) {
        leafToParent = leafToParent || (t.src == 3 && t.dst == 1);
        mirrored = mirrored || (t.src == 3 && t.dst == 5); // position 3 is 6 - 3 in the second tree
        QCOMPARE(t.bytes, double(bytes) / 2);
    }
    QVERIFY(leafToParent && mirrored);
    QCOMPARE(steps[3].action, StepAction::Copy);
}

void TestOpExplain::stepsOfAStagedAllReduce()
{
    // 16 GPUs in 2 nodes of 8 (NVLink, then the network): reduce-scatter inside the nodes, all-reduce
    // of each GPU's piece with its peer in the other node, all-gather inside the nodes. Every transfer
    // of a phase stays on its dimension.
    Cluster cluster = switchCluster(8);
    cluster.topology.dims.push_back({TopologyKind::Switch, 2, 50, 2000});
    std::vector<std::int32_t> members(16);
    for (std::int32_t r = 0; r < 16; ++r)
        members[static_cast<std::size_t>(r)] = r;
    const CollectiveCost cost =
        CollectiveModel(cluster).collective(CollectiveKind::AllReduce, std::uint64_t{16} << 20, members);
    QVERIFY(cost.staged);
    QCOMPARE(cost.phases.size(), std::size_t{3});
    const std::vector<CollectiveStep> steps = collectiveSteps(cost, cluster.topology, members);
    std::map<std::size_t, int> stepsPerPhase;
    for (const CollectiveStep& s : steps) {
        ++stepsPerPhase[s.phase];
        for (const CollectiveTransfer& t : s.transfers)
            QCOMPARE(cluster.topology.firstDifferingDim(t.src, t.dst), cost.phases[s.phase].dim);
        QCOMPARE(s.transfers.size(), std::size_t{16});
    }
    QCOMPARE(stepsPerPhase[0], 7);
    QCOMPARE(stepsPerPhase[1], 2); // a ring of 2: one reduce step, one copy step
    QCOMPARE(stepsPerPhase[2], 7);
}

QTEST_GUILESS_MAIN(TestOpExplain)
#include "tst_opexplain.moc"
