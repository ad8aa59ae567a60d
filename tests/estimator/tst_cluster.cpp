// SPDX-License-Identifier: MIT
#include "core/error.h"
#include "core/estimator/cluster.h"
#include "core/estimator/device.h"
#include "core/estimator/systemconfig.h"
#include "core/estimator/topology.h"

#include <filesystem>

#include <QTest>

using namespace flint::core;

namespace {

const std::string kConfigs = std::string(FLINT_SHARED_DATA) + "/chakra/astrasim_configs";

} // namespace

class TestCluster : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void devicePresetsHaveFigures();
    void deviceLookupAcceptsAliases_data();
    void deviceLookupAcceptsAliases();
    void precisionFallback();
    void coordinatesAreDimZeroFastest();
    void hopsPerTopologyKind_data();
    void hopsPerTopologyKind();
    void readsAstraSimNetworkFiles_data();
    void readsAstraSimNetworkFiles();
    void networkYamlRoundTrip();
    void networkYamlBlockLists();
    void networkYamlErrors_data();
    void networkYamlErrors();
    void readsAstraSimSystemFiles();
    void systemJsonRoundTrip();
    void systemJsonErrors_data();
    void systemJsonErrors();
    void clusterPresetsAreSized_data();
    void clusterPresetsAreSized();
};

void TestCluster::devicePresetsHaveFigures()
{
    const auto& presets = devicePresets();
    QVERIFY(presets.size() >= 6);
    for (const char* name : {"A100", "H100", "H200", "B200", "MI300X", "TPUv5p"}) {
        const DeviceSpec* d = findDevice(name);
        QVERIFY2(d, name);
        for (int p = 0; p < static_cast<int>(Precision::Count); ++p)
            QVERIFY2(d->peakFlops(static_cast<Precision>(p)) > 1e12, name);
        QVERIFY(d->memoryBandwidth > 1e12);
        QVERIFY(d->memoryCapacity > 50e9);
        QVERIFY(!d->source.empty());
    }
    // Datasheet spot checks (dense figures).
    QCOMPARE(findDevice("H100")->peakFlops(Precision::BF16), 989.5e12);
    QCOMPARE(findDevice("H100")->memoryBandwidth, 3350e9);
    // Capacities as the drivers report them (nvidia-smi: 143,771 MiB on an H200), not 141e9 bytes.
    QCOMPARE(findDevice("H200")->memoryCapacity, 143771.0 * 1024 * 1024);
    QCOMPARE(findDevice("A100")->peakFlops(Precision::TF32), 156e12);
    // Measured matmul efficiency per precision (MAMF table, device.cpp): H100 FP8 1,402.6 of 1,979
    // TFLOP/s, its own; H100 FP16 takes the BF16 figure; TPU v5p and the A100 (whose figure is not
    // applied, see device.cpp) have none, so the compute model's default applies.
    QCOMPARE(findDevice("H100")->matmulEfficiencyFor(Precision::FP8), 1402.6 / 1979);
    QCOMPARE(findDevice("H100")->matmulEfficiencyFor(Precision::FP16), 794.5 / 989.5);
    QCOMPARE(findDevice("MI300X")->matmulEfficiencyFor(Precision::FP8), 668.4 / 1307.4);
    QCOMPARE(findDevice("TPUv5p")->matmulEfficiencyFor(Precision::BF16), 0.0);
    QCOMPARE(findDevice("A100")->matmulEfficiencyFor(Precision::FP8), 0.0);
    const ComputeModel compute;
    QCOMPARE(compute.flopEfficiencyFor(*findDevice("TPUv5p"), Precision::BF16), ComputeModel::kDefaultFlopEfficiency);
    QCOMPARE(compute.flopEfficiencyFor(*findDevice("B200"), Precision::FP8), 3432.5 / 4500);
    // The fraction of the burst throughput sustained power-saturated (MSMF / MAMF, device.cpp): the
    // H200's measurement, the H100 taking it (the same die at 700 W), the B200's own; FP16 takes the
    // BF16 figure; a device without a measurement keeps its burst throughput.
    QCOMPARE(findDevice("H200")->sustainedMatmulFor(Precision::BF16), 708.5 / 841.9);
    QCOMPARE(findDevice("H100")->sustainedMatmulFor(Precision::FP8), 1288.7 / 1491.9);
    QCOMPARE(findDevice("H100")->sustainedMatmulFor(Precision::FP16), 708.5 / 841.9);
    QCOMPARE(findDevice("B200")->sustainedMatmulFor(Precision::FP8), 2795.7 / 3435.2);
    QCOMPARE(findDevice("A100")->sustainedMatmulFor(Precision::BF16), 1.0);
    QCOMPARE(findDevice("MI300X")->sustainedMatmulFor(Precision::FP8), 1.0);
}

void TestCluster::deviceLookupAcceptsAliases_data()
{
    QTest::addColumn<QString>("alias");
    QTest::addColumn<QString>("name");
    QTest::newRow("h100_lower") << "h100"
                                << "H100";
    QTest::newRow("h100_sxm") << "H100-SXM"
                              << "H100";
    QTest::newRow("a100_80gb") << "a100-80gb"
                               << "A100";
    QTest::newRow("mi300") << "MI300"
                           << "MI300X";
    QTest::newRow("v5p") << "v5p"
                         << "TPUv5p";
    QTest::newRow("tpu_v5p") << "tpu-v5p"
                             << "TPUv5p";
}

void TestCluster::deviceLookupAcceptsAliases()
{
    QFETCH(QString, alias);
    QFETCH(QString, name);
    const DeviceSpec* d = findDevice(alias.toStdString());
    QVERIFY(d);
    QCOMPARE(QString::fromStdString(d->name), name);
    QVERIFY(!findDevice("H1000"));
}

void TestCluster::precisionFallback()
{
    // A100 has no FP8: it runs at BF16. TPU v5p quotes only BF16.
    QCOMPARE(findDevice("A100")->peakFlops(Precision::FP8), 312e12);
    QCOMPARE(findDevice("TPUv5p")->peakFlops(Precision::FP32), 459e12);
    QCOMPARE(precisionOf(DType::F8E4M3FN), Precision::FP8);
    QCOMPARE(precisionOf(DType::F32, Precision::BF16, true), Precision::TF32);
    QCOMPARE(precisionOf(DType::Unknown, Precision::FP16), Precision::FP16);
}

void TestCluster::coordinatesAreDimZeroFastest()
{
    Topology t;
    t.dims = {{TopologyKind::Switch, 8, 400, 1000}, {TopologyKind::Ring, 4, 50, 500}};
    QCOMPARE(t.npuCount(), 32);
    QCOMPARE(t.coordinates(0), (std::vector<std::int32_t>{0, 0}));
    QCOMPARE(t.coordinates(13), (std::vector<std::int32_t>{5, 1}));
    QCOMPARE(t.coordinates(31), (std::vector<std::int32_t>{7, 3}));
    QCOMPARE(t.coordinate(13, 1), 1);
    QCOMPARE(t.stride(1), 8);
    QCOMPARE(t.firstDifferingDim(3, 3), -1);
    QCOMPARE(t.firstDifferingDim(3, 4), 0);
    QCOMPARE(t.firstDifferingDim(3, 11), 1);
    QCOMPARE(t.firstDifferingDim(3, 12), 0);
}

void TestCluster::hopsPerTopologyKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("npus");
    QTest::addColumn<int>("a");
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("hops");
    QTest::newRow("ring_neighbours") << int(TopologyKind::Ring) << 8 << 0 << 1 << 1;
    QTest::newRow("ring_wraps_short_way") << int(TopologyKind::Ring) << 8 << 0 << 7 << 1;
    QTest::newRow("ring_opposite") << int(TopologyKind::Ring) << 8 << 1 << 5 << 4;
    QTest::newRow("switch_up_and_down") << int(TopologyKind::Switch) << 8 << 0 << 5 << 2;
    QTest::newRow("fully_connected") << int(TopologyKind::FullyConnected) << 8 << 2 << 6 << 1;
    QTest::newRow("same_npu") << int(TopologyKind::Switch) << 8 << 3 << 3 << 0;
}

void TestCluster::hopsPerTopologyKind()
{
    QFETCH(int, kind);
    QFETCH(int, npus);
    QFETCH(int, a);
    QFETCH(int, b);
    QFETCH(int, hops);
    const TopologyDim dim{static_cast<TopologyKind>(kind), npus, 100, 10};
    QCOMPARE(dim.hops(a, b), hops);
}

void TestCluster::readsAstraSimNetworkFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("npus");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<double>("latency");
    QTest::newRow("ring_8npus") << "Ring_8npus.yml" << int(TopologyKind::Ring) << 8 << 50.0 << 500.0;
    QTest::newRow("hgx_h100") << "HGX-H100-validated.yml" << int(TopologyKind::Switch) << 8 << 400.0 << 936.25;
}

void TestCluster::readsAstraSimNetworkFiles()
{
    QFETCH(QString, file);
    const std::string path = kConfigs + "/" + file.toStdString();
    if (!std::filesystem::exists(path))
        QSKIP("../shared/data is absent: ASTRA-sim sample configurations not available");
    QFETCH(int, kind);
    QFETCH(int, npus);
    QFETCH(double, bandwidth);
    QFETCH(double, latency);
    const Topology t = readNetworkYaml(path);
    QCOMPARE(t.dims.size(), std::size_t(1));
    QCOMPARE(int(t.dims[0].kind), kind);
    QCOMPARE(t.dims[0].npus, npus);
    QCOMPARE(t.dims[0].bandwidthGBps, bandwidth);
    QCOMPARE(t.dims[0].latencyNs, latency);
    QCOMPARE(parseNetworkYaml(toNetworkYaml(t), "copy"), t);
}

void TestCluster::networkYamlRoundTrip()
{
    Topology t;
    t.dims = {{TopologyKind::Switch, 8, fromDecimalGBps(450), 936.25},
              {TopologyKind::FullyConnected, 4, 100.5, 1500},
              {TopologyKind::Ring, 16, 25, 2000}};
    const std::string text = toNetworkYaml(t);
    QVERIFY(text.find("topology: [ Switch, FullyConnected, Ring ]") != std::string::npos);
    QCOMPARE(parseNetworkYaml(text, "t.yml"), t);
}

void TestCluster::networkYamlBlockLists()
{
    const Topology t = parseNetworkYaml("# comment\ntopology:\n  - Ring\n  - Switch\nnpus_count: [4, 2]\n"
                                        "bandwidth: [ 50, 25 ]   # GB/s\nlatency:\n  - 500\n  - \"1000\"\n",
                                        "block.yml");
    QCOMPARE(t.dims.size(), std::size_t(2));
    QCOMPARE(t.dims[1].kind, TopologyKind::Switch);
    QCOMPARE(t.dims[1].latencyNs, 1000.0);
    QCOMPARE(t.npuCount(), 8);
}

void TestCluster::networkYamlErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("reason");
    const QString rest = QStringLiteral("npus_count: [ 8 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n");
    QTest::newRow("unknown_topology") << QStringLiteral("topology: [ Torus ]\n") + rest << 1 << "unknown topology";
    QTest::newRow("count_mismatch") << "topology: [ Ring ]\nnpus_count: [ 8, 2 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n"
                                    << 2 << "has 2 entries";
    QTest::newRow("not_a_number") << "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ fast ]\nlatency: [ 500 ]\n"
                                  << 3 << "not a number";
    QTest::newRow("negative_latency") << "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 5 ]\nlatency: [ -1 ]\n"
                                      << 4 << "must not be negative";
    QTest::newRow("fractional_npus") << "topology: [ Ring ]\nnpus_count: [ 2.5 ]\nbandwidth: [ 5 ]\nlatency: [ 1 ]\n"
                                     << 2 << "whole number";
    QTest::newRow("unterminated") << QStringLiteral("topology: [ Ring\n") + rest << 1 << "unterminated";
    QTest::newRow("no_colon") << QStringLiteral("topology [ Ring ]\n") + rest << 1 << "expected 'key: value'";
    QTest::newRow("duplicate_key") << QStringLiteral("latency: [ 1 ]\ntopology: [ Ring ]\n") + rest << 5 << "twice";
    QTest::newRow("missing_key") << "topology: [ Ring ]\nnpus_count: [ 8 ]\n" << 0 << "missing 'bandwidth'";
}

void TestCluster::networkYamlErrors()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, reason);
    try {
        parseNetworkYaml(text.toStdString(), "net.yml");
        QFAIL("no error");
    } catch (const InputError& e) {
        QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("net.yml"));
        if (line > 0)
            QCOMPARE(e.line().value_or(-1), line);
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
    }
}

void TestCluster::readsAstraSimSystemFiles()
{
    const std::string path = kConfigs + "/HGX-H100-validated.json";
    if (!std::filesystem::exists(path))
        QSKIP("../shared/data is absent: ASTRA-sim sample configurations not available");
    const SystemConfig s = readSystemJson(path);
    QCOMPARE(s.activeChunksPerDimension, 2);
    QCOMPARE(s.preferredDatasetSplits, 4);
    QCOMPARE(s.endpointDelayNs, 10.0);
    QCOMPARE(s.localMemBandwidthGBps, 3350.0);
    QCOMPARE(s.allReduce, std::vector<CollectiveAlgorithm>{CollectiveAlgorithm::Ring});
    QCOMPARE(s.algorithmFor(CollectiveKind::AllToAll, 3), CollectiveAlgorithm::Ring);
    QCOMPARE(s.otherKeys.size(), std::size_t(1)); // boost-mode
    const SystemConfig ring = readSystemJson(kConfigs + "/Ring_4chunks.json");
    QCOMPARE(ring.localMemBandwidthGBps, 1600.0);
    QCOMPARE(ring.otherKeys.size(), std::size_t(3)); // boost-mode, roofline-enabled, peak-perf
}

void TestCluster::systemJsonRoundTrip()
{
    SystemConfig s;
    s.allReduce = {CollectiveAlgorithm::Ring, CollectiveAlgorithm::HalvingDoubling};
    s.allToAll = {CollectiveAlgorithm::Direct};
    s.allGather = {CollectiveAlgorithm::DoubleBinaryTree};
    s.activeChunksPerDimension = 3;
    s.preferredDatasetSplits = 16;
    s.localMemBandwidthGBps = 2000;
    s.otherKeys = {{"boost-mode", "0"}};
    QCOMPARE(parseSystemJson(toSystemJson(s), "s.json"), s);
    QCOMPARE(s.algorithmFor(CollectiveKind::AllReduce, 5), CollectiveAlgorithm::HalvingDoubling);
}

void TestCluster::systemJsonErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not_json") << "{ \"endpoint-delay\": }"
                              << "invalid JSON";
    QTest::newRow("unknown_algorithm") << "{\"all-reduce-implementation\": [\"butterfly\"]}"
                                       << "unknown algorithm";
    QTest::newRow("zero_splits") << "{\"preferred-dataset-splits\": 0}"
                                 << "at least 1";
    QTest::newRow("bad_policy") << "{\"scheduling-policy\": \"RANDOM\"}"
                                << "LIFO";
    QTest::newRow("array_root") << "[1, 2]"
                                << "JSON object";
    // Found by fuzzing: a number beyond a double was nlohmann's out_of_range, not an input error.
    QTest::newRow("number_overflow") << "{\"endpoint-delay\": 1e999}"
                                     << "number overflow";
}

void TestCluster::systemJsonErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    try {
        parseSystemJson(text.toStdString(), "sys.json");
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
    }
}

void TestCluster::clusterPresetsAreSized_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("dims");
    QTest::addColumn<int>("npus");
    QTest::newRow("dgx_h100_one_node") << "dgx-h100-ib" << 8 << 1 << 8;
    QTest::newRow("dgx_h100_128") << "dgx-h100-ib" << 128 << 2 << 128;
    QTest::newRow("dgx_h100_partial_node") << "DGX-H100-IB" << 12 << 2 << 16;
    QTest::newRow("mi300x") << "mi300x-roce" << 64 << 2 << 64;
    QTest::newRow("tpu_torus") << "tpu-v5p-torus" << 256 << 3 << 256;
    QTest::newRow("astrasim_ring") << "astrasim-ring" << 8 << 1 << 8;
}

void TestCluster::clusterPresetsAreSized()
{
    QFETCH(QString, name);
    QFETCH(int, ranks);
    QFETCH(int, dims);
    QFETCH(int, npus);
    const auto cluster = clusterPreset(name.toStdString(), ranks);
    QVERIFY(cluster);
    QCOMPARE(cluster->validate(), std::string());
    QCOMPARE(int(cluster->topology.dims.size()), dims);
    QCOMPARE(cluster->topology.npuCount(), npus);
    QVERIFY(!clusterPreset("no-such-cluster", 8));
    for (const auto& info : clusterPresets())
        QVERIFY2(clusterPreset(info.name, 64), info.name.c_str());
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
