// SPDX-License-Identifier: MIT
#include "core/chakra.h"
#include "core/error.h"
#include "core/estimator/collectivemodel.h"
#include "core/estimator/commtraffic.h"
#include "core/estimator/estimate.h"
#include "core/estimator/estimateexport.h"
#include "core/estimator/linkutilisation.h"
#include "core/synthetictrace.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace flint::core;

namespace {

/// A one-dimensional Switch cluster with our cost model, one chunk, no endpoint delay, and reductions
/// at 1,000 GB/s, so that closed forms stay short.
Cluster switchCluster(std::int32_t npus, double gbps = 100, double latencyNs = 1000)
{
    Cluster c;
    c.name = "test";
    c.device = *findDevice("H100");
    c.topology.dims = {{TopologyKind::Switch, npus, gbps, latencyNs}};
    c.system.preferredDatasetSplits = 1;
    c.system.endpointDelayNs = 0;
    c.system.localMemBandwidthGBps = 1000;
    c.compute.launchOverhead = 0;
    return c;
}

std::vector<std::int32_t> iota(std::int32_t n, std::int32_t first = 0)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), first);
    return v;
}

Op compute(std::uint64_t id, std::uint64_t micros, std::vector<std::uint64_t> deps = {})
{
    Op op;
    op.id = id;
    op.name = "compute_" + std::to_string(id);
    op.kind = OpKind::Compute;
    op.durationMicros = micros;
    op.dataDeps = std::move(deps);
    return op;
}

Op collective(std::uint64_t id, CollectiveKind kind, std::uint64_t bytes, std::vector<std::uint64_t> deps = {})
{
    Op op;
    op.id = id;
    op.name = "coll_" + std::to_string(id);
    op.kind = OpKind::Collective;
    op.collective = kind;
    op.commBytes = bytes;
    op.dataDeps = std::move(deps);
    return op;
}

Workload spmd(Program program, std::size_t ranks)
{
    auto shared = std::make_shared<const Program>(std::move(program));
    return Workload::spmd(shared, ranks, [](std::size_t r, std::size_t) {
        return std::vector<std::int32_t>{static_cast<std::int32_t>(r)};
    });
}

double bytesPerNs(double gbps)
{
    return gbps * kNetworkGB / 1e9;
}

/// Reduction of m bytes at 1,000 GB/s (10^9), in ns: 3 m / 1000.
double reductionNs(double m)
{
    return 3 * m / 1000.0;
}

/// What reducing m bytes adds to a step whose transfer takes `transferNs`: our model (as NCCL)
/// reduces while the data streams, so only the reduction's excess over the transfer.
double reductionBeyondNs(double transferNs, double m)
{
    return std::max(0.0, reductionNs(m) - transferNs);
}

Op pointToPoint(std::uint64_t id, OpKind kind, std::int32_t peerPosition, std::uint64_t bytes,
                std::vector<std::uint64_t> ctrlDeps)
{
    Op op;
    op.id = id;
    op.name = (kind == OpKind::Send ? "send_" : "recv_") + std::to_string(id);
    op.kind = kind;
    op.commSlot = 0;
    (kind == OpKind::Send ? op.commDst : op.commSrc) = peerPosition;
    op.commBytes = bytes;
    op.ctrlDeps = std::move(ctrlDeps);
    return op;
}

/// A send to or a receive from global rank `peer` (no comm slot).
Op globalTransfer(std::uint64_t id, OpKind kind, std::int32_t peer, std::uint64_t bytes,
                  std::vector<std::uint64_t> deps = {})
{
    Op op;
    op.id = id;
    op.name = kind == OpKind::Send ? "send" : "recv";
    op.kind = kind;
    (kind == OpKind::Send ? op.commDst : op.commSrc) = peer;
    op.commBytes = bytes;
    op.dataDeps = std::move(deps);
    return op;
}

Op flopsOp(std::uint64_t id, const std::string& name, std::uint64_t flops, std::vector<std::uint64_t> deps)
{
    Op op;
    op.id = id;
    op.name = name;
    op.flops = flops;
    op.dtype = DType::BF16;
    op.dataDeps = std::move(deps);
    return op;
}

constexpr std::uint64_t kForwardFlops = 400'000'000'000;
constexpr std::uint64_t kBackwardFlops = 2 * kForwardFlops;
constexpr std::uint64_t kActivationBytes = 8 << 20;
constexpr std::uint64_t kGradientBytes = 32 << 20;

/// Two pipeline stages, two microbatches, 1F1B: stage 0 runs F0 F1 B0 B1 and sends activations, stage 1
/// runs F0 B0 F1 B1 and sends gradients, then each stage all-reduces its gradients over its
/// data-parallel group. Send/recv name their peer by position in slot 0 (the pipeline group), the
/// all-reduce uses slot 1. `pipes` lists each pipeline group as {stage 0 rank, stage 1 rank}.
Workload twoStagePipeline(const std::vector<std::array<std::int32_t, 2>>& pipes)
{
    auto first = std::make_shared<Program>();
    first->name = "stage0";
    first->commSlots = {"pp", "dp"};
    first->ops = {flopsOp(0, "F0", kForwardFlops, {}),
                  pointToPoint(1, OpKind::Send, 1, kActivationBytes, {}),
                  flopsOp(2, "F1", kForwardFlops, {0}),
                  pointToPoint(3, OpKind::Send, 1, kActivationBytes, {}),
                  pointToPoint(4, OpKind::Recv, 1, kActivationBytes, {2}),
                  flopsOp(5, "B0", kBackwardFlops, {2, 4}),
                  pointToPoint(6, OpKind::Recv, 1, kActivationBytes, {5}),
                  flopsOp(7, "B1", kBackwardFlops, {5, 6}),
                  collective(8, CollectiveKind::AllReduce, kGradientBytes, {7})};
    first->ops[1].dataDeps = {0};
    first->ops[3].dataDeps = {2};
    first->ops[8].commSlot = 1;
    auto second = std::make_shared<Program>();
    second->name = "stage1";
    second->commSlots = {"pp", "dp"};
    second->ops = {pointToPoint(0, OpKind::Recv, 0, kActivationBytes, {}),
                   flopsOp(1, "F0", kForwardFlops, {0}),
                   flopsOp(2, "B0", kBackwardFlops, {1}),
                   pointToPoint(3, OpKind::Send, 0, kActivationBytes, {}),
                   pointToPoint(4, OpKind::Recv, 0, kActivationBytes, {2}),
                   flopsOp(5, "F1", kForwardFlops, {4, 2}),
                   flopsOp(6, "B1", kBackwardFlops, {5}),
                   pointToPoint(7, OpKind::Send, 0, kActivationBytes, {}),
                   collective(8, CollectiveKind::AllReduce, kGradientBytes, {6})};
    second->ops[3].dataDeps = {2};
    second->ops[7].dataDeps = {6};
    second->ops[8].commSlot = 1;
    Workload w;
    w.programs = {first, second};
    w.ranks.resize(2 * pipes.size());
    for (std::size_t stage = 0; stage < 2; ++stage) {
        std::vector<std::int32_t> dp;
        for (const auto& pipe : pipes)
            dp.push_back(pipe[stage]);
        const std::uint32_t dpGroup = w.groupFor(dp);
        for (const auto& pipe : pipes) {
            RankBinding& b = w.ranks.at(static_cast<std::size_t>(pipe[stage]));
            b.program = static_cast<std::uint32_t>(stage);
            b.slotGroups = {w.groupFor({pipe[0], pipe[1]}), dpGroup};
        }
    }
    return w;
}

/// Every rank's events, finish and breakdown agree between two results.
void compareResults(const EstimateResult& fast, const EstimateResult& slow, std::size_t ranks)
{
    QCOMPARE(fast.stepTime, slow.stepTime);
    for (std::size_t r = 0; r < ranks; ++r) {
        QCOMPARE(fast.ranks[r].finish, slow.ranks[r].finish);
        QCOMPARE(fast.ranks[r].compute, slow.ranks[r].compute);
        QCOMPARE(fast.ranks[r].exposedComm, slow.ranks[r].exposedComm);
        QCOMPARE(fast.ranks[r].idle, slow.ranks[r].idle);
        const auto& a = fast.eventsOf(r);
        const auto& b = slow.eventsOf(r);
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].op, b[i].op);
            QCOMPARE(a[i].stream, b[i].stream);
            QCOMPARE(a[i].start, b[i].start);
            QCOMPARE(a[i].end, b[i].end);
        }
    }
    QCOMPARE(fast.bytesPerDim, slow.bytesPerDim);
    QCOMPARE(fast.commMatrix.bytes, slow.commMatrix.bytes);
}

} // namespace

class TestEstimate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ncclMeasuredBusBandwidth_data();
    void ncclMeasuredBusBandwidth();
    void ncclProtocolsByHand();
    void ncclPricingIsMonotonic();
    void fullyConnectedRingsUseEveryLink();
    void gpuAllToAllGoesStraightToEachPeer();
    void ringClosedForm_data();
    void ringClosedForm();
    void directAndHalvingDoubling_data();
    void directAndHalvingDoubling();
    void astraSimWorkedExample();
    void astraSimChunkRaise();
    void astraSimDoubleBinaryTree_data();
    void astraSimDoubleBinaryTree();
    void astraSimDoubleBinaryTreeTwoDimensions_data();
    void astraSimDoubleBinaryTreeTwoDimensions();
    void multiDimensionStaging();
    void subGroupsStageOnTheirDimensions();
    void chunksPipelineThroughDimensions();
    void computeChainRoofline();
    void attentionKernelsRunAtTheirMeasuredSpeed();
    void matmulsFollowTheMeasuredTableByShape();
    void asyncCollectiveOverlapsCompute();
    void computeOverlappedWithCommunicationRunsSlower();
    void sendRecvPipeline();
    void receiveWaitingBesideLongerWork();
    void slotRelativePipeline();
    void slotRelativeSymmetryIsExact_data();
    void slotRelativeSymmetryIsExact();
    void peerOfResolvesBothConventions();
    void commStreamsRunCollectivesConcurrently();
    void deadlockNamesOpAndRanks();
    void communicatorsWithTheSameMembersStayApart();
    void collectiveOrderMismatchIsReported();
    void dependencyCycleIsReported();
    void symmetryIsExact_data();
    void symmetryIsExact();
    void ownRecordedTimesAreSimulatedExactly();
    void astraSimReplaysATransformerStep();
    void commMatrixFollowsRing();
    void linkUtilisationFollowsTheTraffic();
    void overlappingTransfersShareTheirLinks();
    void cacheKeepsProgramsBetweenNetworkEdits();
    void logicalTrafficFollowsTheCollectivesSemantics();
    void logicalTrafficBinsManyRanks();
    void criticalPathEndsAtStepTime();
    void astraSimMicrobenchmark_data();
    void astraSimMicrobenchmark();
    void exports();
    void cancellation();
};

void TestEstimate::ncclMeasuredBusBandwidth_data()
{
    // nccl-tests inside one 8-GPU NVSwitch node. H100 all-gather times from Azure/msccl
    // docs/performance-nd-h100-v5.md (87048bd, NCCL 2.18.3, in place); A100 all-reduce bus
    // bandwidth from Azure/AI-benchmarking-guide (NCCL 2.18.5). The presets price ring collectives
    // with NCCL's protocols (Cluster::nccl): from 1 MiB to 1 GiB the H100 times agree within 15%
    // (the per-chunk latencies we had were 3x too slow at 1 MiB). The A100's measured all-reduce
    // climbs more slowly than NCCL's own model (109 GB/s at 16 MiB where the model gives 169); only
    // its large-message figure is held here.
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("measured"); // seconds
    QTest::addColumn<double>("tolerance");
    const auto ag = [](const char* name, double bytes, double micros) {
        QTest::newRow(name) << "dgx-h100-ib" << int(CollectiveKind::AllGather) << bytes << micros * 1e-6 << 0.15;
    };
    ag("h100_allgather_1MiB", 1048576.0, 18.33);
    ag("h100_allgather_4MiB", 4194304.0, 33.66);
    ag("h100_allgather_16MiB", 16777216.0, 67.19);
    ag("h100_allgather_64MiB", 67108864.0, 192.4);
    ag("h100_allgather_128MiB", 134217728.0, 368.3);
    ag("h100_allgather_1GiB", 1073741824.0, 2663.8);
    // 228.1 GB/s bus bandwidth: 2 S (n - 1) / n / busbw.
    QTest::newRow("a100_allreduce_1GiB") << "dgx-a100-ib" << int(CollectiveKind::AllReduce) << 1073741824.0
                                         << 2 * 1073741824.0 * 7 / 8 / 228.1e9 << 0.05;
}

void TestEstimate::ncclMeasuredBusBandwidth()
{
    QFETCH(QString, preset);
    QFETCH(int, kind);
    QFETCH(double, bytes);
    QFETCH(double, measured);
    QFETCH(double, tolerance);
    const Cluster cluster = *clusterPreset(preset.toStdString(), 8);
    const auto k = static_cast<CollectiveKind>(kind);
    // comm_size of an all-gather is each rank's contribution.
    const auto size = static_cast<std::uint64_t>(k == CollectiveKind::AllGather ? bytes / 8 : bytes);
    const double t = CollectiveModel(cluster).collective(k, size, iota(8)).duration;
    QVERIFY2(std::abs(t / measured - 1) < tolerance,
             qPrintable(QStringLiteral("%1 us vs %2 us measured").arg(t * 1e6).arg(measured * 1e6)));
}

void TestEstimate::fullyConnectedRingsUseEveryLink()
{
    // Eight MI300X on their Infinity Fabric mesh: RCCL runs a ring per link, so a large all-reduce
    // moves at 7 links x 48 GB/s of bus bandwidth, not at one link's. ASTRA-sim's ring uses one.
    const Cluster mesh = *clusterPreset("mi300x-roce", 8);
    const double link = mesh.topology.dims[0].bandwidthBytesPerSecond();
    QVERIFY(std::abs(link / 48e9 - 1) < 1e-9);
    const double bytes = 1073741824.0;
    const double t = CollectiveModel(mesh).collective(CollectiveKind::AllReduce, 1073741824, iota(8)).duration;
    const double busbw = 2 * bytes * 7 / 8 / t;
    QVERIFY2(std::abs(busbw / (7 * link) - 1) < 0.02, qPrintable(QString::number(busbw / 1e9)));
    Cluster astra = mesh;
    astra.model = CostModel::AstraSim;
    const double one = CollectiveModel(astra).collective(CollectiveKind::AllReduce, 1073741824, iota(8)).duration;
    QVERIFY2(std::abs(2 * bytes * 7 / 8 / one / link - 1) < 0.02, qPrintable(QString::number(one)));
}

void TestEstimate::ncclPricingIsMonotonic()
{
    // NCCL's pricing takes the fastest of several protocols and algorithms and corrects the tree
    // by size class; whatever it picks, more bytes never take less time, and more bandwidth never
    // more (a reduction streams beside the transfer at the protocol's rate, not the link's).
    for (const std::int64_t ranks : {8, 16, 128}) {
        const Cluster base = *clusterPreset("dgx-h100-ib", ranks);
        std::vector<std::int32_t> members = iota(static_cast<std::int32_t>(ranks));
        for (const CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather}) {
            double previous = 0;
            for (double e = 10; e <= 30; e += 0.125) {
                const auto bytes = static_cast<std::uint64_t>(std::pow(2.0, e));
                const double t = CollectiveModel(base).collective(kind, bytes, members).duration;
                QVERIFY2(t >= previous, qPrintable(QStringLiteral("%1 ranks, %2 bytes").arg(ranks).arg(bytes)));
                previous = t;
                double slower = std::numeric_limits<double>::infinity();
                for (const double scale : {0.5, 1.0, 2.0, 4.0, 8.0}) {
                    Cluster scaled = base;
                    for (TopologyDim& dim : scaled.topology.dims)
                        dim.bandwidthGBps *= scale;
                    const double s = CollectiveModel(scaled).collective(kind, bytes, members).duration;
                    QVERIFY2(s <= slower,
                             qPrintable(QStringLiteral("%1 ranks, %2 bytes, x%3").arg(ranks).arg(bytes).arg(scale)));
                    slower = s;
                }
            }
        }
    }
}

void TestEstimate::ncclProtocolsByHand()
{
    // NCCL's tuning model (src/graph/tuning.cc): a ring takes the protocol's base latency plus a
    // latency per step, once, plus its bytes at the protocol's share of the bus bandwidth; the
    // fastest protocol wins. Endpoint delays off, so that only NCCL's terms remain.
    Cluster cluster = *clusterPreset("dgx-h100-ib", 16);
    cluster.system.endpointDelayNs = 0;
    const double nvlink = cluster.topology.dims[0].bandwidthBytesPerSecond(); // 370.8 GB/s
    const CollectiveModel model(cluster);
    // 1 MiB gathered over 8 GPUs of a node: LL, 6.6 us + 7 steps x 0.936 us (the NVSwitch latency
    // exceeds LL's 0.6 us a step), its data at half the bandwidth up to the 141 GB/s LL limit on Hopper.
    const CollectiveCost small = model.collective(CollectiveKind::AllGather, 131072, iota(8));
    QCOMPARE(QString::fromStdString(small.protocol), QStringLiteral("LL"));
    QVERIFY(std::abs(small.duration - (6.6e-6 + 7 * 0.93625e-6 + 1048576.0 * 7 / 8 / 141e9)) < 1e-9);
    // 16 MiB: LL128, 14 us + 7 x 1.9 us, at 92% of the bandwidth.
    const CollectiveCost medium = model.collective(CollectiveKind::AllGather, 2097152, iota(8));
    QCOMPARE(QString::fromStdString(medium.protocol), QStringLiteral("LL128"));
    QVERIFY(std::abs(medium.duration - (14e-6 + 7 * 1.9e-6 + 16777216.0 * 7 / 8 / (0.92 * nvlink))) < 1e-9);
    // 1 GiB all-reduced: Simple, 8.4 us + 14 steps x 3.4 us, at the full bandwidth.
    const CollectiveCost large = model.collective(CollectiveKind::AllReduce, 1073741824, iota(8));
    QCOMPARE(QString::fromStdString(large.protocol), QStringLiteral("Simple"));
    QVERIFY(std::abs(large.duration - (8.4e-6 + 14 * 3.4e-6 + 2 * 1073741824.0 * 7 / 8 / nvlink)) < 1e-9);
    // Two GPUs in two nodes, one per node, reduce-scatter 64 MiB: a network step with one GPU per
    // node costs 14 us under Simple (NCCL takes the tree's network latency then), the data crosses
    // the 50 GB/s NIC.
    const std::vector<std::int32_t> pair{0, 8};
    const CollectiveCost scattered = model.collective(CollectiveKind::ReduceScatter, 67108864, pair);
    QCOMPARE(QString::fromStdString(scattered.protocol), QStringLiteral("Simple"));
    QVERIFY(std::abs(scattered.duration - (8.4e-6 + 14e-6 + 67108864.0 / 2 / 50e9)) < 1e-9);
    // Across 64 nodes, one GPU each, 1 MiB all-reduced: NCCL's tree (2 log2 64 = 12 network steps
    // of 8.5 us under LL128, on 14 us of base) beats the ring's 126 steps. Its bandwidth is 0.92 x
    // 120/128 of the NIC's, times NCCL's correction for 1 MiB (0.6, treeCorrectionFactor), and it
    // moves 2 S.
    Cluster wide = *clusterPreset("dgx-h100-ib", 512);
    wide.system.endpointDelayNs = 0;
    std::vector<std::int32_t> leaders(64);
    for (std::int32_t i = 0; i < 64; ++i)
        leaders[static_cast<std::size_t>(i)] = 8 * i;
    const CollectiveCost tree = CollectiveModel(wide).collective(CollectiveKind::AllReduce, 1048576, leaders);
    QCOMPARE(QString::fromStdString(tree.protocol), QStringLiteral("LL128, tree"));
    QVERIFY(std::abs(tree.duration - (14e-6 + 12 * 8.5e-6 + 2 * 1048576.0 / (50e9 * 0.92 * 120 / 128 * 0.6))) < 1e-9);
    // The same bytes between two nodes: the ring, with LL's 5 us a network step (one GPU per node).
    const CollectiveCost ring =
        CollectiveModel(wide).collective(CollectiveKind::AllReduce, 1048576, std::vector<std::int32_t>{0, 8});
    QVERIFY2(ring.protocol.find("tree") == std::string::npos, ring.protocol.c_str());
    // Under ASTRA-sim's conventions every chunk pays the per-hop latency, as before.
    Cluster astra = cluster;
    astra.model = CostModel::AstraSim;
    QVERIFY(CollectiveModel(astra).collective(CollectiveKind::AllGather, 2097152, iota(8)).protocol.empty());
}

void TestEstimate::gpuAllToAllGoesStraightToEachPeer()
{
    // NCCL has no all-to-all algorithm of its own: PyTorch and XLA post a send and a receive per peer
    // in one group, so on an NVSwitch node each GPU's port carries the 7/8 of its buffer that leaves
    // it, once. A ring would forward the data for the peer k away through k - 1 others: 3.5 times
    // the bytes per port at 8 GPUs.
    const double bytes = 1073741824.0; // 1 GiB per rank
    const Cluster node = *clusterPreset("dgx-h100-ib", 8);
    const CollectiveCost cost =
        CollectiveModel(node).collective(CollectiveKind::AllToAll, static_cast<std::uint64_t>(bytes), iota(8));
    QCOMPARE(cost.phases.size(), std::size_t(1));
    QCOMPARE(cost.phases[0].algorithm, CollectiveAlgorithm::Direct);
    const double nvlink = node.topology.dims[0].bandwidthBytesPerSecond();
    const double ideal = bytes * 7.0 / 8.0 / nvlink;
    QVERIFY2(cost.duration >= ideal && cost.duration < 1.01 * ideal,
             qPrintable(QStringLiteral("%1 vs %2 s").arg(cost.duration).arg(ideal)));
    // Across two nodes the half of the buffer bound for the other node crosses the NIC once.
    const Cluster two = *clusterPreset("dgx-h100-ib", 16);
    const CollectiveCost across =
        CollectiveModel(two).collective(CollectiveKind::AllToAll, static_cast<std::uint64_t>(bytes), iota(16));
    const double nic = bytes / 2.0 / two.topology.dims[1].bandwidthBytesPerSecond();
    QVERIFY2(across.duration >= nic && across.duration < 1.3 * nic,
             qPrintable(QStringLiteral("%1 vs %2 s").arg(across.duration).arg(nic)));
    // A torus is a ring: its all-to-all stays the ring's.
    const Cluster torus = *clusterPreset("tpu-v5p-torus", 4);
    QCOMPARE(CollectiveModel(torus).collective(CollectiveKind::AllToAll, 1048576, iota(4)).phases[0].algorithm,
             CollectiveAlgorithm::Ring);
}

void TestEstimate::ringClosedForm_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("bytes");
    QTest::newRow("allreduce_ring_8ranks_1MiB") << int(CollectiveKind::AllReduce) << 8 << 1048576.0;
    QTest::newRow("allreduce_ring_64ranks_64MiB") << int(CollectiveKind::AllReduce) << 64 << 67108864.0;
    QTest::newRow("allreduce_ring_2ranks_1000B") << int(CollectiveKind::AllReduce) << 2 << 1000.0;
    QTest::newRow("allgather_ring_8ranks_1MiB") << int(CollectiveKind::AllGather) << 8 << 1048576.0;
    QTest::newRow("reducescatter_ring_16ranks_1MiB") << int(CollectiveKind::ReduceScatter) << 16 << 1048576.0;
    QTest::newRow("alltoall_ring_8ranks_1MiB") << int(CollectiveKind::AllToAll) << 8 << 1048576.0;
}

void TestEstimate::ringClosedForm()
{
    QFETCH(int, kind);
    QFETCH(int, n);
    QFETCH(double, bytes);
    const Cluster cluster = switchCluster(n);
    const CollectiveModel model(cluster);
    const CollectiveCost cost =
        model.collective(static_cast<CollectiveKind>(kind), static_cast<std::uint64_t>(bytes), iota(n));
    // Switch: two hops of 1,000 ns per message; B = 100 GB/s with GB = 2^30.
    const double b = bytesPerNs(100);
    const auto msg = [&](double m) { return 2 * 1000.0 + m / b; };
    double expectedNs = 0;
    switch (static_cast<CollectiveKind>(kind)) {
    case CollectiveKind::AllReduce: // 2(n-1) steps of S/n, n-1 reductions (hidden behind 100 GB/s links)
        expectedNs = 2 * (n - 1) * msg(bytes / n) + (n - 1) * reductionBeyondNs(bytes / n / b, bytes / n);
        break;
    case CollectiveKind::AllGather: // n-1 steps of S (S = each rank's contribution)
        expectedNs = (n - 1) * msg(bytes);
        break;
    case CollectiveKind::ReduceScatter:
        expectedNs = (n - 1) * msg(bytes / n) + (n - 1) * reductionBeyondNs(bytes / n / b, bytes / n);
        break;
    default: // all-to-all: n(n-1)/2 neighbour steps of S/n
        expectedNs = n * (n - 1) / 2.0 * msg(bytes / n);
        break;
    }
    QVERIFY2(std::abs(cost.duration * 1e9 - expectedNs) < 1e-6 * expectedNs,
             qPrintable(QStringLiteral("%1 vs %2 ns").arg(cost.duration * 1e9).arg(expectedNs)));
    QCOMPARE(cost.phases.size(), std::size_t(1));
    QVERIFY(cost.staged);

    // The same through the simulator: one collective on every rank.
    Program program;
    program.ops.push_back(collective(1, static_cast<CollectiveKind>(kind), static_cast<std::uint64_t>(bytes)));
    const auto result = estimate(spmd(program, static_cast<std::size_t>(n)), cluster);
    QCOMPARE(result->stepTime, cost.duration);
    for (const RankBreakdown& r : result->ranks) {
        QCOMPARE(r.exposedComm, cost.duration);
        QCOMPARE(r.compute, 0.0);
    }
}

void TestEstimate::directAndHalvingDoubling_data()
{
    QTest::addColumn<int>("algorithm");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("n");
    QTest::newRow("allreduce_direct_8ranks") << int(CollectiveAlgorithm::Direct) << int(CollectiveKind::AllReduce) << 8;
    QTest::newRow("alltoall_direct_16ranks") << int(CollectiveAlgorithm::Direct) << int(CollectiveKind::AllToAll) << 16;
    QTest::newRow("allreduce_hd_8ranks") << int(CollectiveAlgorithm::HalvingDoubling) << int(CollectiveKind::AllReduce)
                                         << 8;
    QTest::newRow("allgather_hd_16ranks")
        << int(CollectiveAlgorithm::HalvingDoubling) << int(CollectiveKind::AllGather) << 16;
}

void TestEstimate::directAndHalvingDoubling()
{
    QFETCH(int, algorithm);
    QFETCH(int, kind);
    QFETCH(int, n);
    Cluster cluster = switchCluster(n);
    const auto a = static_cast<CollectiveAlgorithm>(algorithm);
    cluster.system.allReduce = cluster.system.allGather = cluster.system.allToAll = {a};
    const double s = 1 << 20;
    const double b = bytesPerNs(100);
    const double lat = 2 * 1000.0;
    const CollectiveCost cost =
        CollectiveModel(cluster).collective(static_cast<CollectiveKind>(kind), 1 << 20, iota(n));
    double expectedNs = 0;
    if (a == CollectiveAlgorithm::Direct) {
        // One port sends n-1 pieces of S/n in turn (injection-limited); all-reduce does it twice.
        const double round = lat + (n - 1) * (s / n) / b;
        expectedNs = static_cast<CollectiveKind>(kind) == CollectiveKind::AllReduce
                         ? 2 * round + reductionBeyondNs((n - 1) * (s / n) / b, (n - 1) * s / n)
                         : round;
    } else if (static_cast<CollectiveKind>(kind) == CollectiveKind::AllReduce) {
        // log2 n halving steps with reductions, then log2 n doubling steps.
        for (double m = s / 2; m >= s / n; m /= 2)
            expectedNs += 2 * (lat + m / b) + reductionBeyondNs(m / b, m);
    } else {
        for (double m = s; m <= s * n / 2; m *= 2)
            expectedNs += lat + m / b;
    }
    QVERIFY2(std::abs(cost.duration * 1e9 - expectedNs) < 1e-6 * expectedNs,
             qPrintable(QStringLiteral("%1 vs %2 ns").arg(cost.duration * 1e9).arg(expectedNs)));
    QCOMPARE(cost.phases.front().algorithm, a);
}

void TestEstimate::astraSimWorkedExample()
{
    // ASTRA-sim Ring_8npus.yml + Ring_4chunks.json, 1 MiB all-reduce: 4 chunks x (14 x 1110 + 15 x 10 +
    // 7 x 60) = 64,440 ns, as ASTRA-sim's analytical backend reports it.
    const auto cluster = clusterPreset("astrasim-ring", 8);
    QVERIFY(cluster);
    const CollectiveCost cost = CollectiveModel(*cluster).collective(CollectiveKind::AllReduce, 1 << 20, iota(8));
    QCOMPARE(cost.chunks, std::uint64_t(4));
    QCOMPARE(std::llround(cost.duration * 1e9), 64440ll);
    QCOMPARE(std::llround(cost.phases[0].time * 1e9), 16110ll);
}

void TestEstimate::astraSimChunkRaise()
{
    // ASTRA-sim raises a chunk below the NPU count to the NPU count: 1 KiB on 1,024 NPUs runs as 4 KiB.
    auto cluster = clusterPreset("astrasim-ring", 1024);
    QVERIFY(cluster);
    const CollectiveCost astra = CollectiveModel(*cluster).collective(CollectiveKind::AllReduce, 1024, iota(1024));
    QCOMPARE(astra.chunkBytes, 1024.0);
    QCOMPARE(astra.chunks, std::uint64_t(4));
    QCOMPARE(std::llround(astra.duration * 1e9), 4173880ll); // measured with ASTRA-sim 518bd513
    cluster->model = CostModel::Flint;
    const CollectiveCost flint = CollectiveModel(*cluster).collective(CollectiveKind::AllReduce, 1024, iota(1024));
    QCOMPARE(flint.chunkBytes, 256.0);
    QVERIFY(flint.duration != astra.duration);
}

void TestEstimate::astraSimDoubleBinaryTree_data()
{
    // Measured with ASTRA-sim 518bd513 (AstraSim_Analytical_Congestion_Unaware): one all-reduce, 4 splits
    // unless stated, endpoint delay 10 ns, local-mem-bw 1600 GB/s. Switch: 400 GB/s, 936.25 ns; Ring:
    // 50 GB/s, 500 ns; FullyConnected: 50 GB/s, 500 ns. Step time and the finish of ranks 0 and 2.
    QTest::addColumn<int>("topology");
    QTest::addColumn<int>("npus");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<int>("active");
    QTest::addColumn<int>("splits");
    QTest::addColumn<qint64>("stepNs");
    QTest::addColumn<qint64>("rank0Ns");
    QTest::addColumn<qint64>("rank2Ns");
    const int sw = static_cast<int>(TopologyKind::Switch);
    const int ring = static_cast<int>(TopologyKind::Ring);
    const int fc = static_cast<int>(TopologyKind::FullyConnected);
    QTest::newRow("switch8_1MiB") << sw << 8 << qint64(1) * (1 << 20) << 1 << 4 << qint64(62152) << qint64(53698)
                                  << qint64(59660);
    QTest::newRow("switch8_1GiB") << sw << 8 << qint64(1) * (1 << 30) << 1 << 4 << qint64(23230882) << qint64(20343604)
                                  << qint64(22604000);
    QTest::newRow("switch64_1MiB") << sw << 64 << qint64(1) * (1 << 20) << 1 << 4 << qint64(133696) << qint64(116299)
                                   << qint64(131204);
    QTest::newRow("switch64_1GiB") << sw << 64 << qint64(1) * (1 << 30) << 1 << 4 << qint64(50355634)
                                   << qint64(44077762) << qint64(49728752);
    QTest::newRow("switch16_64KiB") << sw << 16 << qint64(65536) << 1 << 4 << qint64(56560) << qint64(48790)
                                    << qint64(54640);
    QTest::newRow("switch256_1KiB_raised")
        << sw << 256 << qint64(1024) << 1 << 4 << qint64(114903) << qint64(99839) << qint64(113020);
    QTest::newRow("switch8_1MiB_2active")
        << sw << 8 << qint64(1) * (1 << 20) << 2 << 4 << qint64(34814) << qint64(32322) << qint64(32322);
    QTest::newRow("switch64_1GiB_7splits")
        << sw << 64 << qint64(1) * (1 << 30) << 1 << 7 << qint64(57262721) << qint64(53670536) << qint64(56903696);
    QTest::newRow("ring8_1MiB") << ring << 8 << qint64(1) * (1 << 20) << 1 << 4 << qint64(139052) << qint64(119898)
                                << qint64(133660);
    QTest::newRow("fullyconnected64_1GiB")
        << fc << 64 << qint64(1) * (1 << 30) << 1 << 4 << qint64(247168894) << qint64(214649254) << qint64(242168384);
}

void TestEstimate::astraSimDoubleBinaryTree()
{
    QFETCH(int, topology);
    QFETCH(int, npus);
    QFETCH(qint64, bytes);
    QFETCH(int, active);
    QFETCH(int, splits);
    QFETCH(qint64, stepNs);
    QFETCH(qint64, rank0Ns);
    QFETCH(qint64, rank2Ns);
    const auto kind = static_cast<TopologyKind>(topology);
    Topology topo;
    if (kind == TopologyKind::Switch)
        topo.dims = {{kind, npus, 400, 936.25}};
    else
        topo.dims = {{kind, npus, 50, 500}};
    SystemConfig system;
    system.preferredDatasetSplits = splits;
    system.activeChunksPerDimension = active;
    system.endpointDelayNs = 10;
    system.localMemBandwidthGBps = 1600;
    system.allReduce = {CollectiveAlgorithm::DoubleBinaryTree};
    const Cluster cluster = astraSimCluster(topo, system);

    const CollectiveCost cost =
        CollectiveModel(cluster).collective(CollectiveKind::AllReduce, static_cast<std::uint64_t>(bytes), iota(npus));
    QCOMPARE(std::llround(cost.duration * 1e9), static_cast<long long>(stepNs));
    QCOMPARE(cost.memberDuration.size(), static_cast<std::size_t>(npus));
    QCOMPARE(std::llround(cost.memberDuration[0] * 1e9), static_cast<long long>(rank0Ns));
    QCOMPARE(std::llround(cost.memberDuration[2] * 1e9), static_cast<long long>(rank2Ns));

    // Through the simulator: each rank ends at its own time, as ASTRA-sim reports per sys[i].
    Program program;
    program.ops.push_back(collective(1, CollectiveKind::AllReduce, static_cast<std::uint64_t>(bytes)));
    const auto result = estimate(spmd(std::move(program), static_cast<std::size_t>(npus)), cluster);
    QCOMPARE(std::llround(result->stepTime * 1e9), static_cast<long long>(stepNs));
    QCOMPARE(std::llround(result->ranks[0].finish * 1e9), static_cast<long long>(rank0Ns));
    QCOMPARE(std::llround(result->ranks[2].finish * 1e9), static_cast<long long>(rank2Ns));

    // Our default model keeps its closed form (one value for every member).
    Cluster flint = cluster;
    flint.model = CostModel::Flint;
    QVERIFY(CollectiveModel(flint)
                .collective(CollectiveKind::AllReduce, static_cast<std::uint64_t>(bytes), iota(npus))
                .memberDuration.empty());
}

void TestEstimate::astraSimDoubleBinaryTreeTwoDimensions_data()
{
    // Measured with ASTRA-sim 518bd513 built here (AstraSim_Analytical_Congestion_Unaware): one world
    // all-reduce on Switch x Switch (400 GB/s, 936.25 ns unless stated), 4 splits, 1 active chunk,
    // endpoint delay 10 ns, local-mem-bw 1600 GB/s, localBWAware; the same algorithm list for every
    // collective. Slowest and fastest rank. On a tree dimension each phase is a whole-chunk tree
    // all-reduce (docs/estimator.md); `tolerance` 0 means to the nanosecond.
    QTest::addColumn<int>("n0");
    QTest::addColumn<int>("n1");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("algorithms");
    QTest::addColumn<double>("bandwidth1");
    QTest::addColumn<double>("latency1");
    QTest::addColumn<int>("active");
    QTest::addColumn<int>("splits");
    QTest::addColumn<bool>("baseline");
    QTest::addColumn<qint64>("maxNs");
    QTest::addColumn<qint64>("minNs");
    QTest::addColumn<double>("tolerance");
    const qint64 mib64 = qint64(64) << 20, gib = qint64(1) << 30;
    QTest::newRow("tree_tree_4x4_64MiB") << 4 << 4 << mib64 << "tt" << 400.0 << 936.25 << 1 << 4 << false
                                         << qint64(2024295) << qint64(1910950) << 0.0;
    QTest::newRow("tree_tree_8x8_1GiB") << 8 << 8 << gib << "tt" << 400.0 << 936.25 << 1 << 4 << false
                                        << qint64(49596174) << qint64(46708896) << 0.0;
    QTest::newRow("tree_tree_32x32_64MiB")
        << 32 << 32 << mib64 << "tt" << 400.0 << 936.25 << 1 << 4 << false << qint64(5499495) << qint64(5168950) << 0.0;
    QTest::newRow("tree_tree_8x8_slow_dim1_64MiB")
        << 8 << 8 << mib64 << "tt" << 50.0 << 500.0 << 1 << 4 << false << qint64(7977815) << qint64(6788630) << 0.0;
    QTest::newRow("tree_tree_8x8_baseline_64MiB")
        << 8 << 8 << mib64 << "tt" << 400.0 << 936.25 << 1 << 4 << true << qint64(1891940) << qint64(1706195) << 0.0;
    QTest::newRow("tree_tree_4x4_1GiB_2active")
        << 4 << 4 << gib << "tt" << 400.0 << 936.25 << 2 << 4 << false << qint64(15443062) << qint64(13685982) << 0.0;
    QTest::newRow("tree_tree_4x8_64MiB_7splits")
        << 4 << 8 << mib64 << "tt" << 400.0 << 936.25 << 1 << 7 << false << qint64(2387653) << qint64(2321274) << 0.0;
    QTest::newRow("tree_tree_16x4_1KiB_raised") << 16 << 4 << qint64(1024) << "tt" << 400.0 << 936.25 << 1 << 4 << false
                                                << qint64(118709) << qint64(111177) << 0.0;
    // Mixed lists, event by event too: a ring phase runs as one step of its group (its members hold
    // the same position in the other dimension's tree). Before, phases timed for one chunk and
    // pipelined through the dimension queues were up to 11.8% slow with a slow tree dimension.
    QTest::newRow("ring_tree_4x4_1GiB") << 4 << 4 << gib << "rt" << 400.0 << 936.25 << 1 << 4 << false
                                        << qint64(5305196) << qint64(5305196) << 0.0;
    QTest::newRow("tree_ring_8x8_1GiB") << 8 << 8 << gib << "tr" << 400.0 << 936.25 << 1 << 4 << false
                                        << qint64(49596174) << qint64(46708896) << 0.0;
    QTest::newRow("ring_tree_8x8_slow_dim1_64MiB")
        << 8 << 8 << mib64 << "rt" << 50.0 << 500.0 << 1 << 4 << false << qint64(1042392) << qint64(914316) << 0.0;
    QTest::newRow("ring_tree_8x8_slow_dim1_1GiB")
        << 8 << 8 << gib << "rt" << 50.0 << 500.0 << 1 << 4 << false << qint64(15965019) << qint64(13961163) << 0.0;
    QTest::newRow("ring_tree_4x16_slow_dim1_64MiB")
        << 4 << 16 << mib64 << "rt" << 50.0 << 500.0 << 1 << 4 << false << qint64(2608616) << qint64(2268487) << 0.0;
    QTest::newRow("tree_ring_8x8_slow_dim1_64MiB")
        << 8 << 8 << mib64 << "tr" << 50.0 << 500.0 << 1 << 4 << false << qint64(3182695) << qint64(2996950) << 0.0;
}

void TestEstimate::astraSimDoubleBinaryTreeTwoDimensions()
{
    QFETCH(int, n0);
    QFETCH(int, n1);
    QFETCH(qint64, bytes);
    QFETCH(QString, algorithms);
    QFETCH(double, bandwidth1);
    QFETCH(double, latency1);
    QFETCH(int, active);
    QFETCH(int, splits);
    QFETCH(bool, baseline);
    QFETCH(qint64, maxNs);
    QFETCH(qint64, minNs);
    QFETCH(double, tolerance);
    Topology topo;
    topo.dims = {{TopologyKind::Switch, n0, 400, 936.25}, {TopologyKind::Switch, n1, bandwidth1, latency1}};
    SystemConfig system;
    system.preferredDatasetSplits = splits;
    system.activeChunksPerDimension = active;
    system.endpointDelayNs = 10;
    system.localMemBandwidthGBps = 1600;
    if (baseline)
        system.collectiveOptimization = "baseline";
    std::vector<CollectiveAlgorithm> list;
    for (QChar c : algorithms)
        list.push_back(c == QLatin1Char('t') ? CollectiveAlgorithm::DoubleBinaryTree : CollectiveAlgorithm::Ring);
    system.allReduce = system.allGather = system.reduceScatter = list;
    const Cluster cluster = astraSimCluster(topo, system);
    const int npus = n0 * n1;
    const CollectiveCost cost =
        CollectiveModel(cluster).collective(CollectiveKind::AllReduce, static_cast<std::uint64_t>(bytes), iota(npus));
    const double slowest = cost.duration * 1e9;
    if (tolerance == 0) {
        QCOMPARE(std::llround(slowest), static_cast<long long>(maxNs));
        // Empty when every member ends together.
        QVERIFY(cost.memberDuration.empty() || cost.memberDuration.size() == static_cast<std::size_t>(npus));
        const double fastest = cost.memberDuration.empty()
                                   ? slowest
                                   : *std::min_element(cost.memberDuration.begin(), cost.memberDuration.end()) * 1e9;
        QCOMPARE(std::llround(fastest), static_cast<long long>(minNs));
    } else {
        QVERIFY2(std::abs(slowest - static_cast<double>(maxNs)) <= tolerance * static_cast<double>(maxNs),
                 qPrintable(QStringLiteral("%1 ns against %2").arg(slowest, 0, 'f', 0).arg(maxNs)));
    }
}

void TestEstimate::multiDimensionStaging()
{
    // 4 NPUs per node on a fast switch, 2 nodes on a slow one: reduce-scatter inside the node, all-reduce
    // across, all-gather inside.
    Cluster cluster = switchCluster(4, 400, 500);
    cluster.topology.dims.push_back({TopologyKind::Switch, 2, 50, 2000});
    const double s = 8 << 20;
    const CollectiveCost cost = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, 8 << 20, iota(8));
    QCOMPARE(cost.phases.size(), std::size_t(3));
    QCOMPARE(cost.phases[0].kind, CollectiveKind::ReduceScatter);
    QCOMPARE(cost.phases[0].dim, 0);
    QCOMPARE(cost.phases[1].kind, CollectiveKind::AllReduce);
    QCOMPARE(cost.phases[1].dim, 1);
    QCOMPARE(cost.phases[1].bytesIn, s / 4);
    QCOMPARE(cost.phases[2].kind, CollectiveKind::AllGather);
    QCOMPARE(cost.phases[2].bytesIn, s / 4);
    QCOMPARE(cost.phases[2].bytesOut, s);
    const double b0 = bytesPerNs(400), b1 = bytesPerNs(50);
    // Reducing at 1,000 GB/s is slower than the 400 GB/s links (3 bytes of memory traffic per byte):
    // its excess shows inside nodes; across nodes (50 GB/s) it is hidden.
    const double rs = 3 * (1000 + s / 4 / b0) + 3 * reductionBeyondNs(s / 4 / b0, s / 4);
    QVERIFY(reductionBeyondNs(s / 4 / b0, s / 4) > 0);
    const double ar = 2 * (4000 + s / 8 / b1) + reductionBeyondNs(s / 8 / b1, s / 8);
    const double ag = 3 * (1000 + s / 4 / b0);
    QVERIFY(std::abs(cost.duration * 1e9 - (rs + ar + ag)) < 1e-6 * (rs + ar + ag));
    // Traffic: inside nodes 2 x 3/4 S per rank; across nodes 2 x (1/2)(S/4) per rank.
    QCOMPARE(cost.bytesPerDim[0], 8 * 2 * 0.75 * s);
    QCOMPARE(cost.bytesPerDim[1], 8 * 2 * 0.5 * s / 4);
}

void TestEstimate::subGroupsStageOnTheirDimensions()
{
    Cluster cluster = switchCluster(4, 400, 500);
    cluster.topology.dims.push_back({TopologyKind::Switch, 2, 50, 2000});
    const CollectiveModel model(cluster);
    const CollectiveCost inside =
        model.collective(CollectiveKind::AllReduce, 1 << 20, std::vector<std::int32_t>{4, 5, 6, 7});
    QCOMPARE(inside.phases.size(), std::size_t(1));
    QCOMPARE(inside.phases[0].dim, 0);
    const CollectiveCost across = model.collective(CollectiveKind::AllReduce, 1 << 20, std::vector<std::int32_t>{1, 5});
    QCOMPARE(across.phases.size(), std::size_t(1));
    QCOMPARE(across.phases[0].dim, 1);
    QVERIFY(across.duration > inside.duration);
    const CollectiveCost irregular =
        model.collective(CollectiveKind::AllReduce, 1 << 20, std::vector<std::int32_t>{0, 1, 5});
    QVERIFY(!irregular.staged);
    QCOMPARE(irregular.phases[0].dim, -1);
    QVERIFY(*irregular.note != '\0');
}

void TestEstimate::chunksPipelineThroughDimensions()
{
    // Two dimensions, all-gather (outer dimension first), 4 chunks, one active chunk per dimension: the
    // chunks flow through a two-stage pipeline, so the time is t_outer + 3 max(t) + t_inner.
    Cluster cluster = switchCluster(4, 400, 500);
    cluster.topology.dims.push_back({TopologyKind::Switch, 2, 50, 2000});
    cluster.system.preferredDatasetSplits = 4;
    const CollectiveCost cost = CollectiveModel(cluster).collective(CollectiveKind::AllGather, 1 << 20, iota(8));
    QCOMPARE(cost.chunks, std::uint64_t(4));
    QCOMPARE(cost.phases.size(), std::size_t(2));
    QCOMPARE(cost.phases[0].dim, 1);
    const double t0 = cost.phases[0].time, t1 = cost.phases[1].time;
    const double expected = t0 + t1 + 3 * std::max(t0, t1);
    QVERIFY2(std::abs(cost.duration - expected) < 1e-12, qPrintable(QString::number(cost.duration / expected)));
}

void TestEstimate::computeChainRoofline()
{
    // A chain of three bf16 ops on one H100: max(flops / (peak x 0.803 x 0.842), bytes / (HBM x 0.8)) + 2 us
    // each, 0.803 being the H100's measured BF16 matmul efficiency (DeviceSpec::matmulEfficiency) and 0.842
    // the fraction of it sustained power-saturated (DeviceSpec::sustainedMatmul, 708.5 of 841.9).
    Cluster cluster = switchCluster(1);
    cluster.compute = ComputeModel{};
    Program program;
    const std::uint64_t flops[] = {1'000'000'000'000ull, 10'000'000ull, 0};
    const std::uint64_t bytes[] = {1'000'000ull, 10'000'000'000ull, 4096};
    double expected = 0;
    for (std::uint64_t i = 0; i < 3; ++i) {
        Op op = compute(i, 0, i ? std::vector<std::uint64_t>{i - 1} : std::vector<std::uint64_t>{});
        op.dtype = DType::BF16;
        op.flops = flops[i];
        op.bytesRead = bytes[i];
        program.ops.push_back(op);
        expected += std::max(static_cast<double>(flops[i]) / (989.5e12 * (794.5 / 989.5) * (708.5 / 841.9)),
                             static_cast<double>(bytes[i]) / (3350e9 * 0.8)) +
                    2e-6;
    }
    const auto result = estimate(spmd(program, 1), cluster);
    QVERIFY(std::abs(result->stepTime - expected) < 1e-15);
    QCOMPARE(result->ranks[0].compute, result->stepTime);
    QCOMPARE(result->criticalPath.size(), std::size_t(3));
    QCOMPARE(result->criticalPath[1].reason, CriticalStep::Reason::Dependency);
    // Recorded durations win in Auto mode (replay).
    program.ops[0].durationMicros = 5;
    const auto replay = estimate(spmd(program, 1), cluster);
    QVERIFY(replay->stepTime < result->stepTime);
}

void TestEstimate::matmulsFollowTheMeasuredTableByShape()
{
    // The GEMM an op performs, from its result shape and FLOPs: batch dimensions fold into M.
    const GemmShape folded = gemmShapeOf({2, 2048, 1024}, 2ull * 4096 * 1024 * 512, 1 << 20);
    QCOMPARE(folded, (GemmShape{4096, 1024, 512}));
    // Elementwise work (about one FLOP per byte) is no GEMM, and neither is an op without a shape.
    QVERIFY(!gemmShapeOf({4096, 4096}, 4096ull * 4096, 4ull * 4096 * 4096).valid());
    QVERIFY(!gemmShapeOf({}, 1ull << 40, 1).valid());

    // On an H100, a bf16 GEMM takes OpenXLA's measured sm_90 throughput at its shape
    // (gemmtables.cpp): 780.2 TFLOP/s at 4096^3, 735.6 at K = 2,048; no memory bound here. At the
    // burst clock the tables were measured at (the sustained clock below).
    Cluster cluster = switchCluster(1);
    cluster.compute = ComputeModel{};
    cluster.compute.sustainedClocks = false;
    const auto gemm = [](std::int64_t m, std::int64_t n, std::int64_t k, DType dtype) {
        Op op = compute(0, 0);
        op.dtype = dtype;
        op.shape = {m, n};
        op.flops = 2ull * static_cast<std::uint64_t>(m * n * k);
        op.bytesRead = 2ull * static_cast<std::uint64_t>(m * k + k * n);
        op.bytesWritten = 2ull * static_cast<std::uint64_t>(m * n);
        return op;
    };
    const auto near = [](double a, double b) { return std::abs(a / b - 1) < 1e-6; };
    const double flops4096 = 2.0 * 4096 * 4096 * 4096;
    QVERIFY(near(computeTime(gemm(4096, 4096, 4096, DType::BF16), cluster), flops4096 / 780.2e12 + 2e-6));
    // Between grid points the throughput is linear in log2 K: K = 2^11.5 lies halfway.
    const auto k = static_cast<std::int64_t>(std::llround(std::exp2(11.5)));
    const double halfway = (735.6e12 + 780.2e12) / 2;
    QVERIFY(std::abs(computeTime(gemm(4096, 4096, k, DType::BF16), cluster) /
                         (2.0 * 4096 * 4096 * static_cast<double>(k) / halfway + 2e-6) -
                     1) < 1e-3);
    // Below the grid the time is affine in the dimension: N = 128 takes 1.5 t(256) - 0.5 t(512), with
    // 398.9 and 662.0 TFLOP/s at N = 256 and 512 (M = K = 4,096).
    const double t256 = 2.0 * 4096 * 256 * 4096 / 398.9e12, t512 = 2.0 * 4096 * 512 * 4096 / 662.0e12;
    QVERIFY(near(computeTime(gemm(4096, 128, 4096, DType::BF16), cluster), 1.5 * t256 - 0.5 * t512 + 2e-6));
    // FP8 has no trustworthy sm_90 table: the H100's best FP8 efficiency (1,402.6 of 1,979), scaled by
    // the shape's BF16 throughput over the table's best (804.7 TFLOP/s).
    const double fp8 = 1979e12 * (1402.6 / 1979) * (780.2 / 804.7);
    QVERIFY(near(computeTime(gemm(4096, 4096, 4096, DType::F8E4M3FN), cluster), flops4096 / fp8 + 2e-6));
    // The explanation names the shape and the throughput.
    const ComputeRate rate = computeRate(gemm(4096, 4096, 4096, DType::BF16), cluster);
    QCOMPARE(rate.gemm, (GemmShape{4096, 4096, 4096}));
    QVERIFY(near(rate.peak * rate.efficiency, 780.2e12));
    // Power-saturated, as through a training step, the H100 keeps 708.5 / 841.9 of its burst BF16
    // throughput and 1,288.7 / 1,491.9 of its FP8 one (the H200's measurements: the same die at 700 W).
    cluster.compute.sustainedClocks = true;
    QVERIFY(
        near(computeTime(gemm(4096, 4096, 4096, DType::BF16), cluster), flops4096 / (780.2e12 * 708.5 / 841.9) + 2e-6));
    QVERIFY(near(computeTime(gemm(4096, 4096, 4096, DType::F8E4M3FN), cluster),
                 flops4096 / (fp8 * 1288.7 / 1491.9) + 2e-6));
    QVERIFY(near(computeRate(gemm(4096, 4096, 4096, DType::BF16), cluster).sustained, 708.5 / 841.9));
    // A device without a measurement (A100) runs at its burst figure; an explicit efficiency states
    // the answer itself.
    Cluster a100 = cluster;
    a100.device = *findDevice("A100");
    QCOMPARE(computeRate(gemm(4096, 4096, 4096, DType::BF16), a100).sustained, 1.0);
    Cluster fixed = cluster;
    fixed.compute.flopEfficiency = 0.5;
    QCOMPARE(computeRate(gemm(4096, 4096, 4096, DType::BF16), fixed).sustained, 1.0);
    cluster.compute.sustainedClocks = false;
    // Turned off, or on a device without a table (A100), every matmul takes the one efficiency.
    cluster.compute.gemmByShape = false;
    QVERIFY(near(computeTime(gemm(4096, 4096, 4096, DType::BF16), cluster), flops4096 / 794.5e12 + 2e-6));
    cluster.compute.gemmByShape = true;
    cluster.device = *findDevice("A100");
    QVERIFY(near(computeTime(gemm(4096, 4096, 4096, DType::BF16), cluster), flops4096 / (312e12 * 0.7) + 2e-6));
    QVERIFY(!computeRate(gemm(4096, 4096, 4096, DType::BF16), cluster).gemm.valid());
}

void TestEstimate::attentionKernelsRunAtTheirMeasuredSpeed()
{
    // A fused attention kernel is priced by its implementation's measured throughput, not by the
    // matmul efficiency: on an H100 cuDNN's causal forward at 518 TFLOP/s and backward at 499 (the
    // default there), FlashAttention-2's at 319 / 310 (device.cpp). 10^12 FLOPs, no memory traffic.
    Op forward = compute(0, 0);
    forward.dtype = DType::F8E4M3FN; // attention stays in BF16 even inside an FP8 model
    forward.flops = 1'000'000'000'000ull;
    forward.durationMicros = 0;
    Op backward = forward;
    setKernelClass(forward, KernelClass::AttentionForward);
    setKernelClass(backward, KernelClass::AttentionBackward);
    QCOMPARE(kernelClassOf(forward), KernelClass::AttentionForward);
    Cluster cluster = switchCluster(1);
    cluster.compute = ComputeModel{};
    cluster.compute.sustainedClocks = false; // the benchmarks' burst figures
    const auto near = [](double a, double b) { return std::abs(a / b - 1) < 1e-12; };
    QVERIFY(near(computeTime(forward, cluster), 1e12 / 518e12 + 2e-6));
    QVERIFY(near(computeTime(backward, cluster), 1e12 / 499e12 + 2e-6));
    // At the sustained clock, as the matmuls: the same fraction of the burst throughput.
    cluster.compute.sustainedClocks = true;
    QVERIFY(near(computeTime(forward, cluster), 1e12 / (518e12 * 708.5 / 841.9) + 2e-6));
    cluster.compute.sustainedClocks = false;
    cluster.compute.attentionKernel = AttentionKernel::FlashAttention2;
    QVERIFY(near(computeTime(forward, cluster), 1e12 / 319e12 + 2e-6));
    QVERIFY(near(computeTime(backward, cluster), 1e12 / 310e12 + 2e-6));
    // A device without a measurement (A100) prices attention as matmuls; the class is gone once the
    // attribute is removed.
    cluster.device = *findDevice("A100");
    QVERIFY(near(computeTime(backward, cluster), 1e12 / (312e12 * ComputeModel::kDefaultFlopEfficiency) + 2e-6));
    setKernelClass(backward, KernelClass::Generic);
    QCOMPARE(kernelClassOf(backward), KernelClass::Generic);
    QVERIFY(backward.extras.get().attributes.empty());
}

void TestEstimate::asyncCollectiveOverlapsCompute()
{
    // A -> {all-reduce X, compute B} -> C: X runs on the comm stream while B computes.
    const Cluster cluster = switchCluster(8);
    const double d = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, 64 << 20, iota(8)).duration;
    for (const std::uint64_t bMicros : {10ull, 100'000ull}) {
        Program program;
        program.ops = {compute(0, 50), collective(1, CollectiveKind::AllReduce, 64 << 20, {0}),
                       compute(2, bMicros, {0}), compute(3, 30, {1, 2})};
        const auto result = estimate(spmd(program, 8), cluster);
        const double b = static_cast<double>(bMicros) * 1e-6;
        const double expected = 50e-6 + std::max(d, b) + 30e-6;
        QVERIFY(std::abs(result->stepTime - expected) < 1e-12);
        const RankBreakdown& r = result->ranks[3];
        QVERIFY(std::abs(r.compute - (80e-6 + b)) < 1e-12);
        QVERIFY(std::abs(r.exposedComm - std::max(0.0, d - b)) < 1e-12);
        QVERIFY(std::abs(r.comm - d) < 1e-12);
        QVERIFY(r.idle < 1e-12);
    }
}

void TestEstimate::computeOverlappedWithCommunicationRunsSlower()
{
    // A -> {all-reduce X, modelled compute B} -> C on H100 (overlap slowdown 0.189, Lee et al. 2025).
    // B overlaps X for min(b, d) of its time and runs 0.189 of that longer; A and C overlap nothing.
    Cluster cluster = switchCluster(8);
    const double s = cluster.device.overlapSlowdown;
    QCOMPARE(s, 0.189);
    const double d = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, 64 << 20, iota(8)).duration;
    for (const std::uint64_t bFlops : {kForwardFlops / 100, kForwardFlops * 4}) {
        Program program;
        program.ops = {flopsOp(0, "A", kForwardFlops, {}), collective(1, CollectiveKind::AllReduce, 64 << 20, {0}),
                       flopsOp(2, "B", bFlops, {0}), flopsOp(3, "C", kForwardFlops, {1, 2})};
        const Workload w = spmd(program, 8);
        const double a = computeTime(program.ops[0], cluster);
        const double b = computeTime(program.ops[2], cluster);
        const double overlap = std::min(b, d);
        const auto result = estimate(w, cluster);
        const double expected = 2 * a + std::max(d, b + s * overlap);
        QVERIFY2(std::abs(result->stepTime - expected) < 1e-12,
                 qPrintable(QStringLiteral("%1 vs %2").arg(result->stepTime).arg(expected)));
        const RankBreakdown& r = result->ranks[5];
        QVERIFY(std::abs(r.contention - s * overlap) < 1e-9);
        QVERIFY(std::abs(r.compute - (2 * a + b + s * overlap)) < 1e-9);

        // Off, and under ASTRA-sim's conventions, compute does not see the communication.
        Cluster off = cluster;
        off.compute.overlapSlowdown = 0;
        const auto unslowed = estimate(w, off);
        QVERIFY(std::abs(unslowed->stepTime - (2 * a + std::max(d, b))) < 1e-12);
        QCOMPARE(unslowed->ranks[5].contention, 0.0);
        Cluster astra = cluster;
        astra.model = CostModel::AstraSim;
        QCOMPARE(estimate(w, astra)->ranks[5].contention, 0.0);

        // Recorded durations already contain it.
        Program recorded = program;
        recorded.ops[2].durationMicros = static_cast<std::uint64_t>(b * 1e6) + 1;
        QCOMPARE(estimate(spmd(recorded, 8), cluster)->ranks[5].contention, 0.0);

        // A collective on the copy engines (a ring exchange) holds no SMs: nothing slows.
        Program copies = program;
        setRunsOnCopyEngines(copies.ops[1]);
        QVERIFY(runsOnCopyEngines(copies.ops[1]) && !runsOnCopyEngines(program.ops[1]));
        QCOMPARE(estimate(spmd(copies, 8), cluster)->ranks[5].contention, 0.0);
    }
}

void TestEstimate::sendRecvPipeline()
{
    // Four pipeline stages: stage i receives from i-1, computes for T, sends to i+1. A transfer starts
    // when both sides are there, so the last stage ends at 4T + 3M.
    const Cluster cluster = switchCluster(4);
    const std::uint64_t bytes = 16 << 20;
    const double m = CollectiveModel(cluster).sendRecv(0, 1, bytes);
    QVERIFY(std::abs(m - (2 * 1000e-9 + static_cast<double>(bytes) / (100 * kNetworkGB))) < 1e-15);
    Workload w;
    for (std::int32_t stage = 0; stage < 4; ++stage) {
        auto program = std::make_shared<Program>();
        program->name = "stage" + std::to_string(stage);
        std::uint64_t id = 0;
        std::vector<std::uint64_t> deps;
        if (stage > 0) {
            Op recv;
            recv.id = id++;
            recv.name = "recv";
            recv.kind = OpKind::Recv;
            recv.commSrc = stage - 1;
            recv.commBytes = bytes;
            program->ops.push_back(recv);
            deps = {recv.id};
        }
        program->ops.push_back(compute(id++, 100, deps));
        if (stage < 3) {
            Op send;
            send.id = id++;
            send.name = "send";
            send.kind = OpKind::Send;
            send.commDst = stage + 1;
            send.commBytes = bytes;
            send.dataDeps = {id - 2};
            program->ops.push_back(send);
        }
        w.programs.push_back(program);
        w.ranks.push_back(RankBinding{static_cast<std::uint32_t>(stage), {}, nullptr});
    }
    const auto result = estimate(w, cluster);
    QVERIFY(std::abs(result->stepTime - (4 * 100e-6 + 3 * m)) < 1e-12);
    QVERIFY(std::abs(result->ranks[3].idle - (3 * 100e-6 + 2 * m)) < 1e-12);
    QCOMPARE(result->commMatrix.at(0, 1), static_cast<double>(bytes));
    QCOMPARE(result->commMatrix.at(1, 0), 0.0);
    QVERIFY(result->criticalPath.size() >= 7);
}

void TestEstimate::receiveWaitingBesideLongerWork()
{
    // Rank 1 posts a receive at the start, and C needs it and a long compute L (5T). The sender sends
    // after T, or after 10T. A receive waiting for its peer holds no stream, so rank 1 runs on past
    // it while L runs; when the send comes first, the transfer ends at T + M, before the instant
    // rank 1 has reached, and keeps that end. C starts when the later of the two ends.
    const Cluster cluster = switchCluster(2);
    const std::uint64_t bytes = 16 << 20;
    const double m = CollectiveModel(cluster).sendRecv(0, 1, bytes);
    for (const std::uint64_t sendAfter : {100, 1000}) {
        auto sender = std::make_shared<Program>();
        sender->name = "sender";
        sender->ops = {compute(0, sendAfter), globalTransfer(1, OpKind::Send, 1, bytes, {0})};
        auto receiver = std::make_shared<Program>();
        receiver->name = "receiver";
        // L in two parts (so that rank 1 reaches an instant between them), then C after L and the
        // receive, then D after C.
        receiver->ops = {globalTransfer(0, OpKind::Recv, 0, bytes), compute(1, 300), compute(2, 200, {1}),
                         compute(3, 100, {0, 2}), compute(4, 100, {3})};
        Workload w;
        w.programs = {sender, receiver};
        w.ranks = {RankBinding{0, {}, nullptr}, RankBinding{1, {}, nullptr}};
        const auto result = estimate(w, cluster);
        const double arrives = static_cast<double>(sendAfter) * 1e-6 + m;
        const auto eventOf = [&](std::uint32_t op) {
            const auto events = result->eventsOf(1);
            return *std::find_if(events.begin(), events.end(), [op](const OpEvent& e) { return e.op == op; });
        };
        QVERIFY(std::abs(eventOf(0).end - arrives) < 1e-12);
        const double cStarts = std::max(arrives, 500e-6);
        QVERIFY(std::abs(eventOf(3).start - cStarts) < 1e-12);
        QVERIFY(std::abs(result->stepTime - (cStarts + 200e-6)) < 1e-12);
        // The critical path runs through what C waited for last: L, or the transfer and the send.
        const auto& path = result->criticalPath;
        QVERIFY(path.size() >= 3);
        const CriticalStep& beforeC = path[path.size() - 3];
        QCOMPARE(beforeC.rank, 1);
        QCOMPARE(beforeC.op, sendAfter == 100 ? 2u : 0u); // L's second part, or the receive
    }
}

void TestEstimate::slotRelativePipeline()
{
    // 2 stages x 2-way data parallel, dp fastest: stages {0, 1} and {2, 3}, pipelines {0, 2} and {1, 3}.
    // Send/recv hold no stream, so the single communication stream cannot deadlock 1F1B (stage 0 posts
    // send act1 before recv grad0, stage 1 send grad0 before recv act1). By hand, with F, B the compute
    // times, M a transfer and A the all-reduce:
    //   stage 0: F0 [0, F], F1 [F, 2F]; act0 moves [F, F + M]
    //   stage 1: F0 [F + M, 2F + M], B0 [.., 2F + B + M]; grad0 and act1 move [2F + B + M, 2F + B + 2M]
    //   stage 0: B0 [2F + B + 2M, 2F + 2B + 2M];  stage 1: F1, B1 end at 3F + 2B + 2M; grad1 moves
    //   [3F + 2B + 2M, 3F + 2B + 3M] while stage 1 all-reduces; stage 0: B1 ends at 3F + 3B + 3M, then
    //   its all-reduce.
    const Workload w = twoStagePipeline({{0, 2}, {1, 3}});
    QCOMPARE(QString::fromStdString(w.validate()), QString());
    Cluster cluster = switchCluster(4);
    QCOMPARE(cluster.commStreams, 1);
    // The schedule alone: stage 1's all-reduce and its grad1 send each at the link's full bandwidth
    // (overlappingTransfersShareTheirLinks covers their sharing it).
    cluster.linkSharing = false;
    const double f = computeTime(w.programOf(0).ops[0], cluster);
    const double b = computeTime(w.programOf(0).ops[5], cluster);
    QVERIFY(f > 0);
    QCOMPARE(b, 2 * f);
    const CollectiveModel model(cluster);
    const double m = model.sendRecv(0, 2, kActivationBytes);
    QCOMPARE(m, model.sendRecv(3, 1, kActivationBytes));
    const std::vector<std::int32_t> firstStage{0, 1}, secondStage{2, 3};
    const double a = model.collective(CollectiveKind::AllReduce, kGradientBytes, firstStage).duration;
    QCOMPARE(a, model.collective(CollectiveKind::AllReduce, kGradientBytes, secondStage).duration);

    const auto result = estimate(w, cluster);
    const double stage0 = 3 * f + 3 * b + 3 * m + a;
    const double stage1 = 3 * f + 2 * b + 2 * m + std::max(a, m); // its all-reduce overlaps sending grad1
    QVERIFY2(std::abs(result->stepTime - stage0) < 1e-12, qPrintable(QString::number(result->stepTime)));
    for (std::size_t r = 0; r < 4; ++r)
        QVERIFY(std::abs(result->ranks[r].finish - (r < 2 ? stage0 : stage1)) < 1e-12);
    // Stage 1's grad0 waits for stage 0 to finish F1 and stage 1 to finish B0, then moves with act1.
    const auto& stage1Events = result->eventsOf(2);
    QVERIFY(std::abs(stage1Events[3].start - (2 * f + b + m)) < 1e-12);
    QCOMPARE(stage1Events[3].start, stage1Events[4].start);
    QCOMPARE(stage1Events[3].stream, std::uint16_t(2)); // after the one collective stream
    QCOMPARE(stage1Events[8].stream, std::uint16_t(1));
    // Ranks at the same position of same-coloured pipelines share a timeline.
    QCOMPARE(result->rankTimeline[0], result->rankTimeline[1]);
    QCOMPARE(result->rankTimeline[2], result->rankTimeline[3]);
    QVERIFY(result->rankTimeline[0] != result->rankTimeline[2]);
    QCOMPARE(result->timelines.size(), std::size_t(2));
    // Point-to-point bytes follow the resolved peers.
    QCOMPARE(result->commMatrix.at(0, 2), 2.0 * kActivationBytes);
    QCOMPARE(result->commMatrix.at(3, 1), 2.0 * kActivationBytes);
    QCOMPARE(result->commMatrix.at(0, 3), 0.0);

    // A peer that never posts the matching receive is a deadlock that names both ranks.
    Workload broken = w;
    auto lonely = std::make_shared<Program>(*w.programs[1]);
    lonely->ops[4].commTag = 7;
    broken.programs[1] = lonely;
    try {
        estimate(broken, cluster);
        QFAIL("no deadlock reported");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.reason()).contains(QStringLiteral("deadlock")), e.what());
    }
}

void TestEstimate::slotRelativeSymmetryIsExact_data()
{
    QTest::addColumn<int>("topology");
    QTest::addColumn<bool>("irregular");
    // 0: Switch of 4. 1: Ring of 8 with pipelines {0, 3} and {1, 2}: rank 0's transfers take 3 hops,
    // rank 1's one, so ranks 0 and 1 must not share a timeline even though they run the same program
    // at the same position of same-coloured groups. 2: two dimensions, 2 x 4 ranks.
    QTest::newRow("switch_4ranks") << 0 << false;
    QTest::newRow("ring_8npus_uneven_hops") << 1 << true;
    QTest::newRow("switch_x_ring_8ranks") << 2 << false;
}

void TestEstimate::slotRelativeSymmetryIsExact()
{
    QFETCH(int, topology);
    QFETCH(bool, irregular);
    Cluster cluster = switchCluster(4);
    Workload w;
    if (topology == 0) {
        w = twoStagePipeline({{0, 2}, {1, 3}});
    } else if (topology == 1) {
        cluster.topology.dims = {{TopologyKind::Ring, 8, 100, 1000}};
        w = twoStagePipeline({{0, 3}, {1, 2}});
    } else {
        cluster.topology.dims = {{TopologyKind::Switch, 2, 400, 500}, {TopologyKind::Ring, 4, 50, 2000}};
        w = twoStagePipeline({{0, 4}, {1, 5}, {2, 6}, {3, 7}});
    }
    QCOMPARE(QString::fromStdString(w.validate()), QString());
    EstimateOptions exact;
    exact.exploitSymmetry = false;
    const auto fast = estimate(w, cluster);
    const auto slow = estimate(w, cluster, exact);
    QCOMPARE(slow->timelines.size(), w.rankCount());
    compareResults(*fast, *slow, w.rankCount());
    if (irregular) {
        QVERIFY(fast->eventsOf(0)[7].start != fast->eventsOf(1)[7].start); // B1 after grad1 arrives
        QVERIFY(fast->rankTimeline[0] != fast->rankTimeline[1]);
    } else {
        QCOMPARE(fast->timelines.size(), std::size_t(2));
    }
}

void TestEstimate::peerOfResolvesBothConventions()
{
    Workload w = twoStagePipeline({{0, 2}, {1, 3}});
    // Slot-relative: position 1 of rank 1's pipeline {1, 3} is rank 3; rank 3's recv from position 1
    // of the same group, and its source and destination in global ranks.
    const Op& send = w.programOf(1).ops[1];
    QCOMPARE(w.peerOf(1, send), 3);
    QCOMPARE(w.peerOf(0, send), 2);
    const Op& recv = w.programOf(3).ops[0];
    QCOMPARE(w.peerOf(3, recv), 1);
    QCOMPARE(w.endpointsOf(3, recv), std::make_pair(std::int32_t(1), std::int32_t(3)));
    // Global ranks (commSlot -1): the peer is the op's own field.
    Op global = send;
    global.commSlot = -1;
    global.commDst = 3;
    QCOMPARE(w.peerOf(0, global), 3);
    global.kind = OpKind::Recv;
    global.commSrc = 2;
    QCOMPARE(w.peerOf(1, global), 2);
    // A position outside the slot's group resolves to -1 and fails validation.
    Op outside = send;
    outside.commDst = 2;
    QCOMPARE(w.peerOf(0, outside), -1);
    auto program = std::make_shared<Program>(w.programOf(0));
    program->ops[1].commDst = 2;
    w.programs[0] = program;
    const QString problem = QString::fromStdString(w.validate());
    QVERIFY2(problem.contains(QStringLiteral("position 2")), qPrintable(problem));
    QVERIFY_THROWS_EXCEPTION(InputError, estimate(w, switchCluster(4)));
}

void TestEstimate::commStreamsRunCollectivesConcurrently()
{
    Cluster cluster = switchCluster(4);
    Program program;
    program.ops = {collective(0, CollectiveKind::AllReduce, 8 << 20),
                   collective(1, CollectiveKind::AllGather, 1 << 20)};
    const double ar = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, 8 << 20, iota(4)).duration;
    const double ag = CollectiveModel(cluster).collective(CollectiveKind::AllGather, 1 << 20, iota(4)).duration;
    QVERIFY(std::abs(estimate(spmd(program, 4), cluster)->stepTime - (ar + ag)) < 1e-12);
    cluster.commStreams = 2;
    cluster.linkSharing = false; // each at full bandwidth (overlappingTransfersShareTheirLinks shares)
    QVERIFY(std::abs(estimate(spmd(program, 4), cluster)->stepTime - std::max(ar, ag)) < 1e-12);
}

void TestEstimate::deadlockNamesOpAndRanks()
{
    // Rank 2 never reaches the all-reduce that ranks 0, 1 and 3 wait in.
    auto with = std::make_shared<Program>();
    with->name = "step";
    with->ops = {compute(0, 10), collective(1, CollectiveKind::AllReduce, 1024, {0})};
    with->ops[1].name = "grad_allreduce";
    auto without = std::make_shared<Program>();
    without->name = "step";
    without->ops = {compute(0, 10)};
    Workload w;
    w.programs = {with, without};
    w.ranks = {{0, {}}, {0, {}}, {1, {}}, {0, {}}};
    try {
        estimate(w, switchCluster(4));
        QFAIL("no deadlock reported");
    } catch (const InputError& e) {
        const QString message = QString::fromStdString(e.reason());
        QVERIFY2(message.contains(QStringLiteral("deadlock")), e.what());
        QVERIFY2(message.contains(QStringLiteral("'grad_allreduce'")), e.what());
        QVERIFY2(message.contains(QStringLiteral("waits for rank 2,")), e.what());
        QVERIFY2(message.contains(QStringLiteral("ranks 0, 1, 3")) || message.contains(QStringLiteral("rank 0")),
                 e.what());
    }
}

void TestEstimate::communicatorsWithTheSameMembersStayApart()
{
    // Two process groups over both ranks are two communicators: rank 1 issues them in the other
    // order. In sequence (each waits for the previous) that deadlocks, as NCCL would; on two
    // streams without a dependency each communicator pairs its own collectives.
    const auto program = [](bool inverted, bool chained) {
        auto p = std::make_shared<Program>();
        p->commSlots = {"a", "b"};
        p->ops = {collective(0, CollectiveKind::AllReduce, 1 << 20),
                  collective(1, CollectiveKind::AllReduce, 1 << 20,
                             chained ? std::vector<std::uint64_t>{0} : std::vector<std::uint64_t>{})};
        p->ops[0].name = "first";
        p->ops[1].name = "second";
        p->ops[0].commSlot = inverted ? 1 : 0;
        p->ops[1].commSlot = inverted ? 0 : 1;
        return p;
    };
    const auto workload = [&](bool chained) {
        Workload w;
        w.groups = {CommGroup{"1", {0, 1}}, CommGroup{"2", {0, 1}}};
        w.programs = {program(false, chained), program(true, chained)};
        w.ranks = {{0, {0, 1}}, {1, {0, 1}}};
        return w;
    };
    try {
        estimate(workload(true), switchCluster(2));
        QFAIL("opposite orders on two communicators were estimated");
    } catch (const InputError& e) {
        const QString message = QString::fromStdString(e.reason());
        QVERIFY2(message.contains(QStringLiteral("deadlock: 'first'")), e.what());
        QVERIFY2(message.contains(QStringLiteral("on group '1' (ranks [0, 1])")), e.what());
        QVERIFY2(message.contains(QStringLiteral("rank 1 waits in 'first' (id 0, ALL_REDUCE) on group '2'")), e.what());
    }
    Cluster cluster = switchCluster(2);
    cluster.commStreams = 2;
    cluster.linkSharing = false; // the two all-reduces side by side, each at full bandwidth
    const auto result = estimate(workload(false), cluster);
    const double ar = CollectiveModel(cluster).collective(CollectiveKind::AllReduce, 1 << 20, iota(2)).duration;
    QVERIFY2(std::abs(result->stepTime - ar) < 1e-12, std::to_string(result->stepTime).c_str());
}

void TestEstimate::collectiveOrderMismatchIsReported()
{
    // Rank 1 runs the two world collectives in the other order: the i-th collectives differ in kind.
    auto a = std::make_shared<Program>();
    a->ops = {collective(0, CollectiveKind::AllReduce, 1024), collective(1, CollectiveKind::AllGather, 1024, {0})};
    auto b = std::make_shared<Program>();
    b->ops = {collective(0, CollectiveKind::AllGather, 1024), collective(1, CollectiveKind::AllReduce, 1024, {0})};
    Workload w;
    w.programs = {a, b};
    w.ranks = {{0, {}}, {1, {}}};
    QVERIFY_THROWS_EXCEPTION(InputError, estimate(w, switchCluster(2)));
}

void TestEstimate::dependencyCycleIsReported()
{
    Program program;
    program.ops = {compute(0, 1, {1}), compute(1, 1, {0}), compute(2, 1)};
    // By default the later-to-earlier edge 1 -> 0 is dropped and the step runs.
    const auto broken = estimate(spmd(program, 1), switchCluster(1));
    QCOMPARE(broken->droppedDependencies, std::uint64_t(1));
    QVERIFY(std::abs(broken->stepTime - 3e-6) < 1e-15);
    EstimateOptions strict;
    strict.breakCycles = false;
    try {
        estimate(spmd(program, 1), switchCluster(1), strict);
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.reason()).contains(QStringLiteral("dependency cycle")), e.what());
    }
}

void TestEstimate::symmetryIsExact_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("tp");
    QTest::addColumn<bool>("throughChakra");
    QTest::newRow("dgx_h100_64ranks_tp8") << "dgx-h100-ib" << 64 << 8 << false;
    QTest::newRow("dgx_h100_48ranks_tp4") << "dgx-h100-ib" << 48 << 4 << false;
    QTest::newRow("tpu_torus_64ranks_tp16") << "tpu-v5p-torus" << 64 << 16 << false;
    QTest::newRow("irregular_tp_across_nodes") << "dgx-h100-ib" << 24 << 6 << false;
    // Written as rank files and read back: each file names its own groups, and the reader must find
    // the one program again for symmetry to apply.
    QTest::newRow("chakra_rank_files_64ranks_tp8") << "dgx-h100-ib" << 64 << 8 << true;
}

void TestEstimate::symmetryIsExact()
{
    QFETCH(QString, preset);
    QFETCH(int, ranks);
    QFETCH(int, tp);
    QFETCH(bool, throughChakra);
    // Synthetic transformer with a data-parallel all-reduce over ranks with the same TP index.
    Workload w = makeSyntheticSpmdWorkload(121, ranks, tp, 64 << 20);
    if (throughChakra) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string prefix = dir.filePath(QStringLiteral("spmd")).toStdString();
        writeChakraWorkload(w, prefix);
        w = readChakraWorkload(prefix);
        QCOMPARE(w.programs.size(), std::size_t(1));
    }
    const auto cluster = clusterPreset(preset.toStdString(), ranks);
    QVERIFY(cluster);
    EstimateOptions exact;
    exact.exploitSymmetry = false;
    const auto fast = estimate(w, *cluster);
    const auto slow = estimate(w, *cluster, exact);
    QCOMPARE(slow->timelines.size(), std::size_t(ranks));
    QVERIFY(fast->timelines.size() < slow->timelines.size());
    QCOMPARE(fast->stepTime, slow->stepTime);
    for (std::size_t r = 0; r < w.rankCount(); ++r) {
        QCOMPARE(fast->ranks[r].finish, slow->ranks[r].finish);
        QCOMPARE(fast->ranks[r].exposedComm, slow->ranks[r].exposedComm);
        QCOMPARE(fast->ranks[r].idle, slow->ranks[r].idle);
        const auto& a = fast->eventsOf(r);
        const auto& b = slow->eventsOf(r);
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].op, b[i].op);
            QCOMPARE(a[i].start, b[i].start);
            QCOMPARE(a[i].end, b[i].end);
        }
    }
    QCOMPARE(fast->bytesPerDim, slow->bytesPerDim);
    QCOMPARE(fast->commMatrix.bytes, slow->commMatrix.bytes);
}

void TestEstimate::ownRecordedTimesAreSimulatedExactly()
{
    // 16 ranks of one program; every rank ran its compute ops at its own recorded speed. Held as one
    // program with per-rank times, the estimate must equal that of 16 programs of their own.
    const Workload base = makeSyntheticSpmdWorkload(61, 16, 4, 1 << 20);
    const Program& program = base.programOf(0);
    Workload shared = base;
    Workload separate = base;
    separate.programs.clear();
    for (std::size_t r = 0; r < 16; ++r) {
        Program own = program;
        auto times = std::make_shared<RecordedTimes>();
        for (std::size_t i = 0; i < own.ops.size(); ++i) {
            if (own.ops[i].kind == OpKind::Compute)
                own.ops[i].durationMicros = 5 + (r % 4) * 3 + i % 7; // alike per TP index
            times->startMicros.push_back(own.ops[i].startTimeMicros);
            times->durationMicros.push_back(own.ops[i].durationMicros);
        }
        shared.ranks[r].times = r >= 4 ? shared.ranks[r % 4].times : std::move(times);
        separate.programs.push_back(std::make_shared<const Program>(std::move(own)));
        separate.ranks[r].program = static_cast<std::uint32_t>(r);
    }
    QCOMPARE(shared.validate(), std::string());
    const Cluster cluster = *clusterPreset("dgx-h100-ib", 16);
    EstimateOptions recorded;
    recorded.timing = ComputeTiming::Recorded;
    const auto a = estimate(shared, cluster, recorded);
    const auto b = estimate(separate, cluster, recorded);
    QVERIFY(a->stepTime > 0);
    QCOMPARE(a->stepTime, b->stepTime);
    for (std::size_t r = 0; r < 16; ++r) {
        QCOMPARE(a->ranks[r].finish, b->ranks[r].finish);
        QCOMPARE(a->ranks[r].idle, b->ranks[r].idle);
        const auto& x = a->eventsOf(r);
        const auto& y = b->eventsOf(r);
        QCOMPARE(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(x[i].start, y[i].start);
            QCOMPARE(x[i].end, y[i].end);
        }
    }
    // Ranks of one TP index share their times and their place in the groups: one timeline each.
    QCOMPARE(a->timelines.size(), std::size_t(4));
    QVERIFY(a->rankTimeline[1] != a->rankTimeline[2]);
    QCOMPARE(a->rankTimeline[1], a->rankTimeline[13]);
    // The program's own durations would give another step.
    const auto programOnly = estimate(base, cluster, recorded);
    QVERIFY(programOnly->stepTime != a->stepTime);
}

void TestEstimate::overlappingTransfersShareTheirLinks()
{
    // Two collectives start together on two streams of 4 ranks on one switch. Alone each asks for
    // u = (bytes a rank sends) / (B x duration) of its link; side by side they ask u1 + u2 while the
    // shorter runs, and the link serves both (u1 + u2) times slower: each takes (u1 + u2 - 1) x the
    // shorter's duration longer.
    Cluster cluster = switchCluster(4);
    cluster.commStreams = 2;
    const CollectiveModel model(cluster);
    const auto sentByRank0 = [&](CollectiveKind kind, std::uint64_t bytes) {
        double sent = 0;
        const std::vector<std::int32_t> members = iota(4);
        model.forEachFlow(kind, bytes, members, {},
                          [&](std::int32_t src, std::int32_t, double b) { sent += src == 0 ? b : 0.0; });
        return sent;
    };
    const double bandwidth = cluster.topology.dims[0].bandwidthBytesPerSecond();
    const auto demand = [&](CollectiveKind kind, std::uint64_t bytes) {
        return sentByRank0(kind, bytes) / (bandwidth * model.collective(kind, bytes, iota(4)).duration);
    };
    Program program;
    program.ops = {collective(0, CollectiveKind::AllReduce, 64 << 20),
                   collective(1, CollectiveKind::AllGather, 8 << 20)};
    const double ar = model.collective(CollectiveKind::AllReduce, 64 << 20, iota(4)).duration;
    const double ag = model.collective(CollectiveKind::AllGather, 8 << 20, iota(4)).duration;
    QVERIFY(ag < ar);
    const double u = demand(CollectiveKind::AllReduce, 64 << 20) + demand(CollectiveKind::AllGather, 8 << 20);
    QVERIFY2(u > 1.5 && u <= 2, qPrintable(QString::number(u))); // large messages: each near the link's limit
    const auto shared = estimate(spmd(program, 4), cluster);
    QVERIFY2(std::abs(shared->stepTime - (ar + (u - 1) * ag)) < 1e-12 * ar,
             qPrintable(QString::number(shared->stepTime)));
    // The all-gather ends as much later as the all-reduce, its events say.
    const OpEvent& agEvent = shared->timelines[0][1];
    QCOMPARE(agEvent.op, 1u);
    QVERIFY(std::abs(agEvent.end - agEvent.start - u * ag) < 1e-12 * ar);
    // The breakdown counts what sharing added: (u - 1) x ag to each of the two.
    for (const RankBreakdown& b : shared->ranks)
        QVERIFY2(std::abs(b.linkSharing - 2 * (u - 1) * ag) < 1e-12 * ar, qPrintable(QString::number(b.linkSharing)));

    // Two equal all-reduces side by side each take (2u - 1) x as long: about twice.
    Program twin;
    twin.ops = {collective(0, CollectiveKind::AllReduce, 64 << 20), collective(1, CollectiveKind::AllReduce, 64 << 20)};
    const double alone = demand(CollectiveKind::AllReduce, 64 << 20);
    const double twins = estimate(spmd(twin, 4), cluster)->stepTime;
    QVERIFY(std::abs(twins - (2 * alone) * ar) < 1e-12 * ar);
    // The links then carry what they can: the busiest rank at 100 %.
    const auto twinResult = estimate(spmd(twin, 4), cluster);
    const LinkUtilisation links = linkUtilisation(spmd(twin, 4), cluster, *twinResult, 50);
    QVERIFY2(std::abs(links.dims[0].peak - 1) < 1e-9, qPrintable(QString::number(links.dims[0].peak)));

    // Off, or under ASTRA-sim's conventions: side by side at full bandwidth.
    Cluster unshared = cluster;
    unshared.linkSharing = false;
    const auto unsharedResult = estimate(spmd(twin, 4), unshared);
    QVERIFY(std::abs(unsharedResult->stepTime - ar) < 1e-12);
    QCOMPARE(unsharedResult->ranks[0].linkSharing, 0.0);
    Cluster astra = cluster;
    astra.model = CostModel::AstraSim;
    QCOMPARE(estimate(spmd(twin, 4), astra)->stepTime,
             CollectiveModel(astra).collective(CollectiveKind::AllReduce, 64 << 20, iota(4)).duration);

    // Transfers on different dimensions do not share: an all-reduce inside each switch of two and
    // one across them, side by side, each take their own time.
    Cluster twoDims = switchCluster(2);
    twoDims.topology.dims.push_back({TopologyKind::Switch, 2, 100, 1000});
    twoDims.commStreams = 2;
    Workload across;
    across.groups = {CommGroup{"inner0", {0, 1}}, CommGroup{"inner1", {2, 3}}, CommGroup{"outer0", {0, 2}},
                     CommGroup{"outer1", {1, 3}}};
    auto crossing = std::make_shared<Program>();
    crossing->commSlots = {"inner", "outer"};
    crossing->ops = {collective(0, CollectiveKind::AllReduce, 64 << 20),
                     collective(1, CollectiveKind::AllReduce, 64 << 20)};
    crossing->ops[0].commSlot = 0;
    crossing->ops[1].commSlot = 1;
    across.programs = {crossing};
    across.ranks = {{0, {0, 2}}, {0, {0, 3}}, {0, {1, 2}}, {0, {1, 3}}};
    QCOMPARE(QString::fromStdString(across.validate()), QString());
    const double inner = CollectiveModel(twoDims).collective(CollectiveKind::AllReduce, 64 << 20, iota(2)).duration;
    QVERIFY(std::abs(estimate(across, twoDims)->stepTime - inner) < 1e-12);
}

void TestEstimate::linkUtilisationFollowsTheTraffic()
{
    // 2 stages x 2-way data parallel on two switches of 2: stages {0, 1} and {2, 3} on dimension 0,
    // pipelines {0, 2} and {1, 3} across dimension 1. Dimension 0 carries the gradient all-reduces
    // (a ring of two sends its whole buffer once per rank), dimension 1 the pipeline transfers (per
    // pipeline two activations forward, two gradients back).
    const Workload w = twoStagePipeline({{0, 2}, {1, 3}});
    Cluster cluster = switchCluster(2);
    cluster.topology.dims.push_back({TopologyKind::Switch, 2, 50, 1000});
    const auto result = estimate(w, cluster);
    const LinkUtilisation links = linkUtilisation(w, cluster, *result, 100);
    QCOMPARE(links.dims.size(), std::size_t{2});
    QCOMPARE(links.binSeconds, result->stepTime / 100);
    const double gradient = static_cast<double>(kGradientBytes), activation = static_cast<double>(kActivationBytes);
    QVERIFY(std::abs(links.dims[0].bytes - 4 * gradient) < 1e-6 * gradient);
    QVERIFY(std::abs(links.dims[1].bytes - 8 * activation) < 1e-6 * activation);
    for (std::size_t d = 0; d < 2; ++d) {
        // The same bytes as the estimate's per-dimension traffic, and the average is their share of
        // what the links could carry in the step.
        QVERIFY(std::abs(links.dims[d].bytes - result->bytesPerDim[d]) < 1e-9 * result->bytesPerDim[d]);
        const double capacity = 4 * cluster.topology.dims[d].bandwidthBytesPerSecond() * result->stepTime;
        QVERIFY(std::abs(links.dims[d].average - links.dims[d].bytes / capacity) < 1e-12);
        const double meanOfBins = std::accumulate(links.dims[d].mean.begin(), links.dims[d].mean.end(), 0.0) / 100.0;
        QVERIFY(std::abs(meanOfBins - links.dims[d].average) < 1e-12);
        QCOMPARE(links.dims[d].peak, *std::max_element(links.dims[d].busiest.begin(), links.dims[d].busiest.end()));
    }
    // Stage 0's all-reduce ends the step: in the last bin its ranks send at S / a, half the ranks.
    const double a = CollectiveModel(cluster)
                         .collective(CollectiveKind::AllReduce, kGradientBytes, std::vector<std::int32_t>{0, 1})
                         .duration;
    QVERIFY(a > links.binSeconds);
    const double rate = gradient / a / cluster.topology.dims[0].bandwidthBytesPerSecond();
    QVERIFY2(std::abs(links.dims[0].busiest.back() - rate) < 1e-9,
             qPrintable(QString::number(links.dims[0].busiest.back())));
    QVERIFY(std::abs(links.dims[0].mean.back() - rate / 2) < 1e-9);
    QCOMPARE(links.dims[1].busiest.back(), 0.0);
    // Simulating every rank gives the same picture.
    EstimateOptions every;
    every.exploitSymmetry = false;
    const LinkUtilisation slow = linkUtilisation(w, cluster, *estimate(w, cluster, every), 100);
    for (std::size_t d = 0; d < 2; ++d)
        for (std::size_t k = 0; k < 100; ++k) {
            QVERIFY(std::abs(slow.dims[d].mean[k] - links.dims[d].mean[k]) < 1e-12);
            QCOMPARE(slow.dims[d].busiest[k], links.dims[d].busiest[k]);
        }
    // Without events there is nothing to spread.
    EstimateOptions noEvents;
    noEvents.recordEvents = false;
    QVERIFY(linkUtilisation(w, cluster, *estimate(w, cluster, noEvents)).dims.empty());
}

void TestEstimate::cacheKeepsProgramsBetweenNetworkEdits()
{
    // A what-if edit of the network re-estimates the same programs: with a cache the second estimate
    // takes every program's info from the first, and the result is that of an estimate without one.
    const Workload w = twoStagePipeline({{0, 2}, {1, 3}});
    Cluster cluster = switchCluster(4);
    EstimateOptions cached;
    cached.cache = std::make_shared<EstimateCache>();
    (void)estimate(w, cluster, cached);
    QCOMPARE(cached.cache->hits(), std::uint64_t{0});
    cluster.topology.dims[0].bandwidthGBps /= 2;
    const auto again = estimate(w, cluster, cached);
    QCOMPARE(cached.cache->hits(), std::uint64_t{2}); // both stages' programs
    compareResults(*again, *estimate(w, cluster), 4);
    // Another compute model prices the ops anew: nothing is taken.
    cluster.compute.launchOverhead = 5e-6;
    const auto slower = estimate(w, cluster, cached);
    QCOMPARE(cached.cache->hits(), std::uint64_t{2});
    compareResults(*slower, *estimate(w, cluster), 4);
    QVERIFY(slower->stepTime > again->stepTime);
    // Programs not used by the last three estimates are let go (the cache holds them until then).
    const Workload other = twoStagePipeline({{0, 2}, {1, 3}}); // the same content, other programs
    (void)estimate(other, cluster, cached);
    QCOMPARE(w.programs[0].use_count(), 2L); // the workload's and the cache's
    (void)estimate(other, cluster, cached);
    QCOMPARE(w.programs[0].use_count(), 2L);
    (void)estimate(other, cluster, cached);
    QCOMPARE(cached.cache->hits(), std::uint64_t{6});
    QCOMPARE(w.programs[0].use_count(), 1L);
}

void TestEstimate::commMatrixFollowsRing()
{
    Program program;
    program.ops = {collective(0, CollectiveKind::AllReduce, 1 << 20)};
    const auto result = estimate(spmd(program, 8), switchCluster(8));
    const double perHop = 2.0 * 7 / 8 * (1 << 20);
    for (std::int32_t i = 0; i < 8; ++i)
        for (std::int32_t j = 0; j < 8; ++j)
            QCOMPARE(result->commMatrix.at(i, j), j == (i + 1) % 8 ? perHop : 0.0);
    QCOMPARE(result->bytesPerDim[0], 8 * perHop);
}

void TestEstimate::logicalTrafficFollowsTheCollectivesSemantics()
{
    // One of each kind over all 8 ranks, and a broadcast and a reduce over {2, 5}: every rank runs
    // the ops, each instance is counted once.
    constexpr std::uint64_t s = 1 << 20;
    Program program;
    program.commSlots.resize(1);
    Op broadcast = collective(5, CollectiveKind::Broadcast, 4096);
    broadcast.commSlot = 0;
    Op reduce = collective(6, CollectiveKind::Reduce, 512);
    reduce.commSlot = 0;
    program.ops = {collective(0, CollectiveKind::AllToAll, s),
                   collective(1, CollectiveKind::AllReduce, s),
                   collective(2, CollectiveKind::AllGather, s),
                   collective(3, CollectiveKind::ReduceScatter, s),
                   collective(4, CollectiveKind::AllToAll, s),
                   broadcast,
                   reduce};
    const Workload w =
        Workload::spmd(std::make_shared<const Program>(std::move(program)), 8, [](std::size_t r, std::size_t) {
            return r == 2 || r == 5 ? std::vector<std::int32_t>{2, 5}
                                    : std::vector<std::int32_t>{static_cast<std::int32_t>(r)};
        });
    const CommMatrix logical = logicalCommMatrix(w);
    QCOMPARE(logical.blocks, 8);
    QVERIFY(logical.seconds.empty());
    const auto layer = [&](const char* kind) {
        for (const auto& l : logical.layers)
            if (l.kind == kind)
                return l.denseBytes(logical.blocks);
        return std::vector<double>{};
    };
    const auto allToAll = layer("ALL_TO_ALL"), allReduce = layer("ALL_REDUCE"), allGather = layer("ALL_GATHER"),
               reduceScatter = layer("REDUCE_SCATTER"), bcast = layer("BROADCAST"), red = layer("REDUCE");
    QCOMPARE(logical.layers.size(), std::size_t(6));
    for (std::int32_t i = 0; i < 8; ++i)
        for (std::int32_t j = 0; j < 8; ++j) {
            const std::size_t c = logical.index(i, j);
            const bool pair = i != j;
            QCOMPARE(allToAll[c], pair ? 2.0 * s / 8 : 0.0);  // two all-to-alls, a share to each member
            QCOMPARE(allReduce[c], pair ? 2.0 * s / 8 : 0.0); // reduce-scatter, then all-gather
            QCOMPARE(allGather[c], pair ? double(s) : 0.0);   // every input to every other member
            QCOMPARE(reduceScatter[c], pair ? double(s) / 8 : 0.0);
            QCOMPARE(bcast[c], i == 2 && j == 5 ? 4096.0 : 0.0); // the root is the group's lowest rank
            QCOMPARE(red[c], i == 5 && j == 2 ? 512.0 : 0.0);
            const double total = allToAll[c] + allReduce[c] + allGather[c] + reduceScatter[c] + bcast[c] + red[c];
            QCOMPARE(logical.at(i, j), total);
        }
    // The link traffic of the same step: a ring all-to-all moves everything between neighbours only.
    const auto result = estimate(w, switchCluster(8));
    double nonNeighbour = 0;
    for (const auto& l : result->commMatrix.layers)
        if (l.kind == "ALL_TO_ALL") {
            const auto dense = l.denseBytes(result->commMatrix.blocks);
            for (std::int32_t i = 0; i < 8; ++i)
                nonNeighbour += dense[result->commMatrix.index(i, (i + 3) % 8)];
        }
    QCOMPARE(nonNeighbour, 0.0);

    // Point-to-point transfers are the same in both views.
    const Workload pipe = twoStagePipeline({{0, 2}, {1, 3}});
    const CommMatrix p2p = logicalCommMatrix(pipe);
    const auto pipeResult = estimate(pipe, switchCluster(4));
    QCOMPARE(p2p.at(0, 2), 2.0 * kActivationBytes);
    QCOMPARE(p2p.at(3, 1), 2.0 * kActivationBytes);
    QCOMPARE(p2p.at(0, 3), 0.0);
    for (const auto& l : p2p.layers)
        if (l.kind == "SEND_RECV")
            for (const auto& link : pipeResult->commMatrix.layers)
                if (link.kind == "SEND_RECV")
                    QCOMPARE(l.bytes, link.bytes);
    // Its data-parallel all-reduces: {0, 1} and {2, 3}, each pair 2 x gradient / 2.
    QCOMPARE(p2p.at(0, 1), double(kGradientBytes));
    QCOMPARE(p2p.at(2, 3), double(kGradientBytes));
    QCOMPARE(p2p.at(1, 2), 0.0);
    // CSV without a seconds column.
    QVERIFY(commMatrixCsv(p2p).starts_with("src,dst,bytes\n0,1,"));
}

void TestEstimate::logicalTrafficBinsManyRanks()
{
    // 2,048 ranks in blocks of two: an all-to-all over all of them gives a block on the diagonal its
    // two ordered pairs and any other block four.
    Program program;
    program.ops = {collective(0, CollectiveKind::AllToAll, 2048 * 10)};
    const CommMatrix logical = logicalCommMatrix(spmd(program, 2048));
    QCOMPARE(logical.blockSize, 2);
    QCOMPARE(logical.blocks, 1024);
    QCOMPARE(logical.at(0, 0), 2 * 10.0);
    QCOMPARE(logical.at(0, 1), 4 * 10.0);
    QCOMPARE(logical.at(1023, 5), 4 * 10.0);
}

void TestEstimate::criticalPathEndsAtStepTime()
{
    Program program = makeSyntheticProgram(50);
    auto shared = std::make_shared<const Program>(std::move(program));
    const Workload w = Workload::spmd(shared, 16, [](std::size_t r, std::size_t) {
        std::vector<std::int32_t> members;
        for (std::int32_t i = 0; i < 8; ++i)
            members.push_back(static_cast<std::int32_t>(r / 8 * 8) + i);
        return members;
    });
    const auto result = estimate(w, *clusterPreset("dgx-h100-ib", 16));
    QVERIFY(!result->criticalPath.empty());
    QCOMPARE(result->criticalPath.back().end, result->stepTime);
    QCOMPARE(result->criticalPath.front().start, 0.0);
    for (std::size_t i = 1; i < result->criticalPath.size(); ++i)
        QVERIFY(result->criticalPath[i].start >= result->criticalPath[i - 1].start);
}

void TestEstimate::astraSimMicrobenchmark_data()
{
    QTest::addColumn<QString>("prefix");
    QTest::newRow("shared_data") << QStringLiteral(FLINT_SHARED_DATA
                                                   "/chakra/astrasim_all_reduce_8npus_1MB/all_reduce");
    QTest::newRow("bundled_example") << QStringLiteral(FLINT_SOURCE_DIR
                                                       "/resources/examples/astrasim_all_reduce_8npus_1MB/all_reduce");
}

void TestEstimate::astraSimMicrobenchmark()
{
    QFETCH(QString, prefix);
    if (!std::filesystem::exists(prefix.toStdString() + ".0.et"))
        QSKIP("sample trace absent (../shared/data is not beside the checkout)");
    const std::string configs = FLINT_SHARED_DATA "/chakra/astrasim_configs";
    Cluster cluster;
    if (std::filesystem::exists(configs + "/Ring_8npus.yml"))
        cluster = astraSimCluster(readNetworkYaml(configs + "/Ring_8npus.yml"),
                                  readSystemJson(configs + "/Ring_4chunks.json"));
    else
        cluster = *clusterPreset("astrasim-ring", 8);
    const Workload w = readChakraWorkload(prefix.toStdString());
    const auto result = estimate(w, cluster);
    QCOMPARE(std::llround(result->stepTime * 1e9), 64440ll); // ASTRA-sim reports 64,440 cycles per rank
    for (const RankBreakdown& r : result->ranks)
        QCOMPARE(std::llround(r.exposedComm * 1e9), 64440ll);
}

void TestEstimate::exports()
{
    Program program = makeSyntheticProgram(30);
    auto shared = std::make_shared<const Program>(std::move(program));
    const Workload w = Workload::spmd(shared, 8, [](std::size_t, std::size_t) { return iota(8); });
    const Cluster cluster = *clusterPreset("dgx-h100-ib", 8);
    const auto result = estimate(w, cluster);
    const std::string trace = chromeTraceJson(*result, w);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(trace), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    int processes = 0, slices = 0, flowStarts = 0, flowEnds = 0;
    for (const QJsonValue v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString ph = e.value(QStringLiteral("ph")).toString();
        if (ph == QStringLiteral("M") && e.value(QStringLiteral("name")).toString() == QStringLiteral("process_name"))
            ++processes;
        slices += ph == QStringLiteral("X");
        flowStarts += ph == QStringLiteral("s");
        flowEnds += ph == QStringLiteral("f");
    }
    QCOMPARE(processes, 8);
    QCOMPARE(slices, 8 * 30);
    QCOMPARE(flowStarts, 6); // 30 ops hold 6 all-reduces
    QCOMPARE(flowEnds, 6);
    // Given the cluster, each collective's slice names the NCCL protocol that priced it.
    const QJsonDocument priced =
        QJsonDocument::fromJson(QByteArray::fromStdString(chromeTraceJson(*result, w, 8, &cluster)));
    int withProtocol = 0;
    for (const QJsonValue v : priced.object().value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject args = v.toObject().value(QStringLiteral("args")).toObject();
        if (args.contains(QStringLiteral("protocol"))) {
            QVERIFY(args.contains(QStringLiteral("comm_bytes")));
            QVERIFY(!args.value(QStringLiteral("protocol")).toString().isEmpty());
            ++withProtocol;
        }
    }
    QCOMPARE(withProtocol, 8 * 6);
    const std::string csv = breakdownCsv(*result);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 9l);
    QVERIFY(csv.starts_with("rank,finish_s,compute_s,exposed_comm_s,idle_s"));
    const QJsonDocument json = QJsonDocument::fromJson(QByteArray::fromStdString(estimateJson(*result, w, cluster)));
    QCOMPARE(json.object().value(QStringLiteral("step_time_s")).toDouble(), result->stepTime);
    QCOMPARE(json.object().value(QStringLiteral("ranks")).toArray().size(), 8);
    const auto tops = topOps(*result, w, 3);
    QCOMPARE(tops.size(), std::size_t(3));
    QVERIFY(tops[0].seconds >= tops[1].seconds);
}

void TestEstimate::cancellation()
{
    Program program = makeSyntheticProgram(200'000);
    CancellationToken token;
    token.cancel();
    JobControl control{&token, {}};
    QVERIFY_THROWS_EXCEPTION(Cancelled, estimate(spmd(program, 1), switchCluster(1), {}, control));
}

void TestEstimate::astraSimReplaysATransformerStep()
{
    // 64 ranks of a 1,001-node transformer step (100 layers, two 16 MiB all-reduces over all ranks per
    // layer, compute nodes without durations), written as Chakra rank files and replayed by ASTRA-sim
    // 518bd513 (AstraSim_Analytical_Congestion_Unaware, Switch 64 at 400 GB/s and 936.25 ns, ring,
    // 4 splits, 1 active chunk, local-mem-bw 1600 GB/s, roofline off): every rank finished at
    // 211,184,801 ns. ASTRA-sim replays a compute node without duration_micros for 1 ns; the
    // all-reduces take the rest.
    const std::int32_t ranks = 64;
    auto program = std::make_shared<const Program>(makeSyntheticProgram(1'001));
    std::vector<SlotBinding> slots(1);
    slots[0].groups.emplace_back();
    for (std::int32_t r = 0; r < ranks; ++r) {
        slots[0].groups[0].push_back(r);
        slots[0].groupOf.push_back(0);
    }
    const Workload workload = Workload::spmdFromSlots(program, ranks, slots);
    Topology topology;
    topology.dims.push_back(TopologyDim{TopologyKind::Switch, ranks, 400.0, 936.25});
    SystemConfig system;
    system.preferredDatasetSplits = 4;
    system.localMemBandwidthGBps = 1600;
    const Cluster cluster = astraSimCluster(topology, system);
    EstimateOptions replay;
    replay.timing = ComputeTiming::Recorded;
    replay.exploitSymmetry = false;
    const auto result = estimate(workload, cluster, replay);
    QCOMPARE(std::llround(result->stepTime * 1e9), 211'184'801ll);
    for (const RankBreakdown& rank : result->ranks)
        QCOMPARE(std::llround(rank.finish * 1e9), 211'184'801ll);
}

QTEST_GUILESS_MAIN(TestEstimate)
#include "tst_estimate.moc"
