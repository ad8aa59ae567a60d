// SPDX-License-Identifier: MIT
#include "core/error.h"
#include "core/mlir/mlirimport.h"
#include "core/mlir/mlirreader.h"
#include "core/partition/logicalprogram.h"
#include "core/workload.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <QFileInfo>
#include <QString>
#include <QTest>

using flint::core::CollectiveKind;
using flint::core::Op;
using flint::core::OpKind;
using flint::core::Workload;
using flint::frontend::MlirImport;
using flint::frontend::MlirParseError;

namespace {

std::string fixture(const char* name)
{
    return std::string(FLINT_MLIR_TEST_DATA) + '/' + name;
}

/// The shared sample `name`, or nothing (the test then skips) in a clone without ../shared/data.
std::optional<std::string> sharedSample(const char* name)
{
    std::string path = std::string(FLINT_SHARED_DATA "/stablehlo/") + name;
    if (!QFileInfo::exists(QString::fromStdString(path)))
        return std::nullopt;
    return path;
}

// `name` is a string literal pasted into the message; it cannot take parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define REQUIRE_SAMPLE(var, name)                                                                                      \
    const std::optional<std::string> var = sharedSample(name);                                                         \
    if (!var)                                                                                                          \
        QSKIP("shared sample " name " not found under " FLINT_SHARED_DATA "/stablehlo");
// NOLINTEND(bugprone-macro-parentheses)

/// Collectives of rank `rank`: "KIND {members}" -> count, in program order of first appearance.
std::map<std::string, int> collectivesOf(const Workload& workload, std::size_t rank)
{
    std::map<std::string, int> counts;
    for (const Op& op : workload.programOf(rank).ops) {
        if (op.kind != OpKind::Collective)
            continue;
        std::string key(flint::core::displayName(op.collective));
        key += " {";
        const auto members = workload.membersOf(rank, op);
        for (std::size_t i = 0; i < members.size(); ++i)
            key += (i ? "," : "") + std::to_string(members[i]);
        key += '}';
        ++counts[key];
    }
    return counts;
}

std::size_t countOps(const Workload& workload, const std::string& namePrefix)
{
    const auto& ops = workload.programOf(0).ops;
    return static_cast<std::size_t>(
        std::count_if(ops.begin(), ops.end(), [&](const Op& op) { return op.name.rfind(namePrefix, 0) == 0; }));
}

bool hasWarning(const MlirImport& imported, const std::string& text)
{
    for (const flint::core::Message& warning : imported.imported.warnings)
        if (warning.text().find(text) != std::string::npos)
            return true;
    return false;
}

template <typename Call>
std::optional<MlirParseError> expectParseError(Call&& call)
{
    try {
        (void)call();
    } catch (const MlirParseError& error) {
        return error;
    }
    return std::nullopt;
}

} // namespace

class TestMlirImport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resnet50AllReducesOverFourReplicas();
    void shardyMlpCollectivesOnTwoByFourMesh();
    void shardyMlpGroupsPerRank_data();
    void shardyMlpGroupsPerRank();
    void splitReplicaGroups();
    void jaxExampleSingleReplica();
    void countedWhileUnrolledAndCallsInlined();
    void unknownTripCountTakesUserCount();
    void locNamesBecomeScopes();
    void unsupportedOpIsNamedNotDropped();
    void shardyConstantIsAConstant();
    void badPrettySyntaxReportsLineAndColumn();
    void callToMissingFunctionIsAnMlirError();
    void collectiveGroupsOutOfRangeAreInputErrors();
    void shardedMlpPartitionsForMesh_data();
    void shardedMlpPartitionsForMesh();
    void partitionedLocalShapesAndBytes();
    void meshWithoutAnAxisDropsItsShardings();
    void badMeshIsAnInputError();
    void shardMapInsideJitIsPartitioned();
    void shardyNamedComputationBarrierAndGroup();
    void shardyMeshDeviceIds();
    void shardedAttentionMegatronCollectives_data();
    void shardedAttentionMegatronCollectives();
    void attentionHeadsThatDoNotSplitWarn();
    void convolutionAndGatherRules();
    void gspmdShardingsPartitionOnImplicitMesh();
    void capturedValueKeepsItsDependency();
    void errorUnderNameLocationHasFileLine();
    void meshDialectMlpPartitionsForMesh_data();
    void meshDialectMlpPartitionsForMesh();
    void meshDialectCollectivesGroupByMeshAxes();
};

void TestMlirImport::resnet50AllReducesOverFourReplicas()
{
    REQUIRE_SAMPLE(path, "resnet_50_train_step_4_devices_1024_batch.mlir");
    const MlirImport imported = flint::frontend::importMlirFile(*path);
    const Workload& workload = imported.imported.workload;
    QCOMPARE(imported.imported.replicaCount, std::int64_t(4));
    QCOMPARE(imported.imported.numPartitions, std::int64_t(1));
    QCOMPARE(workload.rankCount(), std::size_t(4));
    // `grep -c '"stablehlo.all_reduce"'`: 375, all with replica_groups [[0, 1, 2, 3]], no channel.
    for (std::size_t rank = 0; rank < 4; ++rank) {
        const auto collectives = collectivesOf(workload, rank);
        QCOMPARE(collectives.size(), std::size_t(1));
        QCOMPARE(collectives.at("all-reduce {0,1,2,3}"), 375);
    }
    // 158 convolutions in @main, 3 dot_general, none left out; calls inlined.
    QCOMPARE(countOps(workload, "convolution."), std::size_t(158));
    QCOMPARE(countOps(workload, "dot."), std::size_t(3));
    QCOMPARE(countOps(workload, "call."), std::size_t(0));
    QCOMPARE(flint::core::texts(imported.imported.warnings), std::vector<std::string>{});
}

void TestMlirImport::shardyMlpCollectivesOnTwoByFourMesh()
{
    REQUIRE_SAMPLE(path, "e2e_fsdp_tp_shardy.mlir");
    const MlirImport imported = flint::frontend::importMlirFile(*path);
    const Workload& workload = imported.imported.workload;
    QCOMPARE(imported.imported.numPartitions, std::int64_t(8));
    QCOMPARE(workload.rankCount(), std::size_t(8));
    QCOMPARE(imported.meshes.size(), std::size_t(1));
    QCOMPARE(imported.meshes[0].name, std::string("mesh"));
    const std::vector<std::pair<std::string, std::int64_t>> axes{{"x", 2}, {"y", 4}};
    QCOMPARE(imported.meshes[0].axes, axes);

    // The manual computation's body is what every device runs: 12 all_gather (weights and biases,
    // over "x": flattened ids {0,4},{1,5},...), 6 reduce_scatter over "y" ({0..3},{4..7}), 2 all_reduce.
    const auto& ops = workload.programOf(0).ops;
    QCOMPARE(ops.size(), std::size_t(60));
    std::uint64_t gatherBytes = 0;
    std::uint64_t scatterBytes = 0;
    for (const Op& op : ops) {
        if (op.kind == OpKind::Collective && op.collective == CollectiveKind::AllGather)
            gatherBytes += op.commBytes;
        if (op.kind == OpKind::Collective && op.collective == CollectiveKind::ReduceScatter)
            scatterBytes += op.commBytes;
    }
    // all_gather inputs: 98x128 + 16 + 4 x (16x128 + 16) + 16x8 + 1 floats; reduce_scatter inputs:
    // 5 x 16x128 + 16x8 floats.
    QCOMPARE(gatherBytes, std::uint64_t(4 * (98 * 128 + 16 + 4 * (16 * 128 + 16) + 16 * 8 + 1)));
    QCOMPARE(scatterBytes, std::uint64_t(4 * (5 * 16 * 128 + 16 * 8)));
    // The first dot_general: 16x196 by 196x128, 2 FLOPs per multiply-add.
    const auto dot = std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.name.rfind("dot.", 0) == 0; });
    QVERIFY(dot != ops.end());
    QCOMPARE(dot->flops, std::uint64_t(2ull * 16 * 196 * 128));
}

void TestMlirImport::shardyMlpGroupsPerRank_data()
{
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("xGroup");
    QTest::addColumn<QString>("yGroup");
    QTest::newRow("rank0") << 0 << QStringLiteral("{0,4}") << QStringLiteral("{0,1,2,3}");
    QTest::newRow("rank3") << 3 << QStringLiteral("{3,7}") << QStringLiteral("{0,1,2,3}");
    QTest::newRow("rank5") << 5 << QStringLiteral("{1,5}") << QStringLiteral("{4,5,6,7}");
    QTest::newRow("rank7") << 7 << QStringLiteral("{3,7}") << QStringLiteral("{4,5,6,7}");
}

void TestMlirImport::shardyMlpGroupsPerRank()
{
    QFETCH(int, rank);
    QFETCH(QString, xGroup);
    QFETCH(QString, yGroup);
    REQUIRE_SAMPLE(path, "e2e_fsdp_tp_shardy.mlir");
    const MlirImport imported = flint::frontend::importMlirFile(*path);
    const auto collectives = collectivesOf(imported.imported.workload, static_cast<std::size_t>(rank));
    const std::map<std::string, int> expected{
        {"all-gather " + xGroup.toStdString(), 12},
        {"reduce-scatter " + yGroup.toStdString(), 6},
        {"all-reduce " + yGroup.toStdString(), 1},
        {"all-reduce " + xGroup.toStdString(), 1},
    };
    QCOMPARE(collectives, expected);
}

void TestMlirImport::splitReplicaGroups()
{
    REQUIRE_SAMPLE(path, "test_split_replica_groups.mlir");
    const MlirImport imported = flint::frontend::importMlirFile(*path);
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(4));
    QCOMPARE(workload.programOf(0).ops.size(), std::size_t(5)); // dot, all_reduce, tanh, all_reduce, negate
    const std::map<std::string, int> rank2{{"all-reduce {2,3}", 1}, {"all-reduce {0,1,2,3}", 1}};
    QCOMPARE(collectivesOf(workload, 2), rank2);
    const std::map<std::string, int> rank0{{"all-reduce {0,1}", 1}, {"all-reduce {0,1,2,3}", 1}};
    QCOMPARE(collectivesOf(workload, 0), rank0);
    const Op& dot = workload.programOf(0).ops.front();
    QCOMPARE(dot.flops, std::uint64_t(2ull * 128 * 256 * 512));
    QCOMPARE(workload.programOf(0).ops[1].commBytes, std::uint64_t(128 * 512 * 4));
}

void TestMlirImport::jaxExampleSingleReplica()
{
    REQUIRE_SAMPLE(path, "jax_example.mlir");
    const MlirImport imported = flint::frontend::importMlirFile(*path);
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(1));
    const std::map<std::string, int> expected{{"all-reduce {0}", 6}};
    QCOMPARE(collectivesOf(workload, 0), expected);
    std::uint64_t bytes = 0;
    for (const Op& op : workload.programOf(0).ops)
        bytes += op.commBytes;
    // Gradients of 784x1024, 1024, 1024x1024, 1024, 1024x10 and 10 floats.
    QCOMPARE(bytes, std::uint64_t(4 * (784 * 1024 + 1024 + 1024 * 1024 + 1024 + 1024 * 10 + 10)));
}

void TestMlirImport::countedWhileUnrolledAndCallsInlined()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("loops.mlir"));
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(2));
    // Loop 1: 5 iterations of add, dot, tanh (through the inlined call); loop 2 (unknown count): once,
    // add and negate; then the all_reduce.
    QCOMPARE(workload.programOf(0).ops.size(), std::size_t(5 * 3 + 2 + 1));
    QCOMPARE(countOps(workload, "dot."), std::size_t(5));
    QCOMPARE(countOps(workload, "tanh."), std::size_t(5));
    for (const Op& op : workload.programOf(0).ops)
        if (op.name.rfind("dot.", 0) == 0)
            QCOMPARE(op.flops, std::uint64_t(2 * 8 * 16 * 16));
    QVERIFY(hasWarning(imported, "trip count unknown"));
    const std::map<std::string, int> collectives{{"all-reduce {0,1}", 1}};
    QCOMPARE(collectivesOf(workload, 1), collectives);
}

void TestMlirImport::unknownTripCountTakesUserCount()
{
    flint::frontend::MlirImportOptions options;
    options.hlo.whileTripCount = 3;
    const MlirImport imported = flint::frontend::importMlirFile(fixture("loops.mlir"), options);
    QCOMPARE(imported.imported.workload.programOf(0).ops.size(), std::size_t(5 * 3 + 3 * 2 + 1));
    QVERIFY(hasWarning(imported, "3 iterations as given"));
}

void TestMlirImport::locNamesBecomeScopes()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("loops.mlir"));
    int scoped = 0;
    for (const Op& op : imported.imported.workload.programOf(0).ops) {
        if (op.name.rfind("dot.", 0) != 0 && op.name.rfind("tanh.", 0) != 0)
            continue;
        const std::string suffix = "jit(step)/layer";
        QVERIFY2(op.scope.size() > suffix.size() && op.scope.ends_with(suffix), op.scope.c_str());
        QVERIFY2(op.scope.find("/iteration_") != std::string::npos, op.scope.c_str());
        ++scoped;
    }
    QCOMPARE(scoped, 10);
}

void TestMlirImport::unsupportedOpIsNamedNotDropped()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("unsupported.mlir"));
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(2));
    // frobnicate (kept), mhlo.add, chlo.erf, mhlo.all_gather, stablehlo.slice.
    QCOMPARE(workload.programOf(0).ops.size(), std::size_t(5));
    QCOMPARE(countOps(workload, "stablehlo.frobnicate."), std::size_t(1));
    QVERIFY(hasWarning(imported, "'stablehlo.frobnicate' is not supported by the MLIR frontend"));
    QVERIFY(hasWarning(imported, "line 6"));
    const Op& frobnicate = workload.programOf(0).ops.front();
    QCOMPARE(frobnicate.bytesRead, std::uint64_t(4 * 8 * 4));
    const std::map<std::string, int> collectives{{"all-gather {0,1}", 1}};
    QCOMPARE(collectivesOf(workload, 0), collectives);
    QCOMPARE(countOps(workload, "erf."), std::size_t(1));
}

void TestMlirImport::shardyConstantIsAConstant()
{
    // torch-xla's Shardy exports write sdy.constant (a constant Shardy keeps from being merged):
    // read like stablehlo.constant, no warning.
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sdy_constant.mlir"));
    QCOMPARE(imported.imported.workload.rankCount(), std::size_t(2));
    QCOMPARE(imported.imported.warnings.size(), std::size_t(0));
    QCOMPARE(countOps(imported.imported.workload, "add."), std::size_t(1));
}

void TestMlirImport::badPrettySyntaxReportsLineAndColumn()
{
    const std::string path = fixture("bad_pretty.mlir");
    const auto caught = expectParseError([&] { return flint::frontend::importMlirFile(path); });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().file, path);
    QCOMPARE(caught->error().line, 6);
    // `[0 :` reads as the start of a slice bound `0:N`, so MLIR stops at the `(` after the colon.
    QCOMPARE(caught->error().column, 53);
    QVERIFY2(caught->error().message.find("custom op 'stablehlo.broadcast_in_dim' expected integer value") !=
                 std::string::npos,
             caught->error().message.c_str());
    QVERIFY2(caught->diagnostics().find("stablehlo.broadcast_in_dim %0, dims = [0 :") != std::string::npos,
             caught->diagnostics().c_str());
}

void TestMlirImport::callToMissingFunctionIsAnMlirError()
{
    const auto caught = expectParseError([] {
        return flint::frontend::importMlirSource("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                                 "  %0 = func.call @gone(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                                 "  return %0 : tensor<4xf32>\n"
                                                 "}\n",
                                                 "missing.mlir");
    });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().line, 2);
    QCOMPARE(caught->error().column, 8);
    QVERIFY2(caught->error().message.find("'gone' does not reference a valid function") != std::string::npos,
             caught->error().message.c_str());
}

void TestMlirImport::collectiveGroupsOutOfRangeAreInputErrors()
{
    // generic_stablehlo.mlir: an all_reduce without channel over replica groups [[0, 1], [2, 3]] in a
    // module of 1 replica x 4 partitions names replicas that do not exist (StableHLO cross_replica).
    try {
        (void)flint::frontend::importMlirFile(fixture("generic_stablehlo.mlir"));
        QFAIL("groups naming missing replicas were accepted");
    } catch (const flint::core::InputError& error) {
        QVERIFY2(std::string(error.what()).find("out of range") != std::string::npos, error.what());
    }
}

void TestMlirImport::shardedMlpPartitionsForMesh_data()
{
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("yGroup");
    QTest::addColumn<QString>("xGroup");

    // sharded_mlp.mlir: h = x.w1 is local (x rows on "x", w1 columns on "y"); y = relu(h).w2 contracts
    // the "y"-sharded dimension on both sides, a partial sum completed by an all-reduce over "y"
    // before tanh; the weight gradient contracts the "x"-sharded batch: all-reduce over "x"; the
    // constraint to replicated all-gathers the "x" rows. Device d = x * |y| + y.
    QTest::newRow("file_mesh_x2_y4") << QString() << 8 << 0 << QStringLiteral("{0,1,2,3}") << QStringLiteral("{0,4}");
    QTest::newRow("x2_y4_rank6") << QStringLiteral("x=2,y=4") << 8 << 6 << QStringLiteral("{4,5,6,7}")
                                 << QStringLiteral("{2,6}");
    QTest::newRow("x4_y2_rank3") << QStringLiteral("x=4,y=2") << 8 << 3 << QStringLiteral("{2,3}")
                                 << QStringLiteral("{1,3,5,7}");
    QString y16;
    QString x8;
    for (int k = 0; k < 16; ++k)
        y16 += (k ? QStringLiteral(",") : QStringLiteral("{")) + QString::number(16 + k);
    for (int k = 0; k < 8; ++k)
        x8 += (k ? QStringLiteral(",") : QStringLiteral("{")) + QString::number(16 * k + 1);
    QTest::newRow("x8_y16_rank17") << QStringLiteral("x=8,y=16") << 128 << 17 << y16 + QStringLiteral("}")
                                   << x8 + QStringLiteral("}");
}

void TestMlirImport::shardedMlpPartitionsForMesh()
{
    QFETCH(QString, mesh);
    QFETCH(int, ranks);
    QFETCH(int, rank);
    QFETCH(QString, yGroup);
    QFETCH(QString, xGroup);
    flint::frontend::MlirImportOptions options;
    options.mesh = mesh.toStdString();
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_mlp.mlir"), options);
    QCOMPARE(imported.imported.workload.rankCount(), std::size_t(ranks));
    QCOMPARE(imported.insertedCollectives, std::size_t(3));
    QCOMPARE(imported.imported.numPartitions, std::int64_t(ranks));
    const std::map<std::string, int> expected{
        {"all-reduce " + yGroup.toStdString(), 1},
        {"all-reduce " + xGroup.toStdString(), 1},
        {"all-gather " + xGroup.toStdString(), 1},
    };
    QCOMPARE(collectivesOf(imported.imported.workload, static_cast<std::size_t>(rank)), expected);
    QVERIFY(!hasWarning(imported, "no collectives"));
}

void TestMlirImport::partitionedLocalShapesAndBytes()
{
    for (const auto& [mesh, rows, columns] :
         std::vector<std::tuple<std::string, std::int64_t, std::int64_t>>{{"x=2,y=4", 2, 4}, {"x=4,y=2", 4, 2}}) {
        flint::frontend::MlirImportOptions options;
        options.mesh = mesh;
        const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_mlp.mlir"), options);
        QCOMPARE(imported.partitionedFor, mesh);
        const auto& ops = imported.imported.workload.programOf(0).ops;
        // dot, broadcast, two local slices of the broadcast, maximum, dot, all-reduce, tanh, dot,
        // all-gather, all-reduce.
        QCOMPARE(ops.size(), std::size_t(11));
        const auto first =
            std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.name.rfind("dot", 0) == 0; });
        QVERIFY(first != ops.end());
        // Local h: (16 / rows) x (256 / columns), contracting all 64.
        QCOMPARE(first->shape, (std::vector<std::int64_t>{16 / rows, 256 / columns}));
        QCOMPARE(first->flops, std::uint64_t(2 * (16 / rows) * 64 * (256 / columns)));
        for (const Op& op : ops)
            if (op.kind == OpKind::Collective && op.collective == CollectiveKind::AllGather)
                QCOMPARE(op.commBytes, std::uint64_t(4 * (16 / rows) * 64));
    }
}

void TestMlirImport::meshWithoutAnAxisDropsItsShardings()
{
    flint::frontend::MlirImportOptions options;
    options.mesh = "x=8";
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_mlp.mlir"), options);
    QVERIFY(hasWarning(imported, "mesh axis 'y' is not in mesh x=8"));
    // Pure data parallelism: the gradient's all-reduce and the rows' all-gather over all 8.
    const std::map<std::string, int> expected{{"all-reduce {0,1,2,3,4,5,6,7}", 1}, {"all-gather {0,1,2,3,4,5,6,7}", 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, 5), expected);
}

void TestMlirImport::badMeshIsAnInputError()
{
    for (const char* mesh : {"x=3,y=4", "x=2,x=2", "x", "x=0"}) {
        flint::frontend::MlirImportOptions options;
        options.mesh = mesh;
        try {
            (void)flint::frontend::importMlirFile(fixture("sharded_mlp.mlir"), options);
            QFAIL(qPrintable(QStringLiteral("mesh %1 accepted").arg(QString::fromLatin1(mesh))));
        } catch (const flint::core::InputError& error) {
            QVERIFY2(std::string(error.what()).find("sharded_mlp.mlir") != std::string::npos, error.what());
        }
    }
}

namespace {

QString membersText(std::initializer_list<int> members)
{
    QString text = QStringLiteral("{");
    for (int m : members)
        text += (text.size() > 1 ? QStringLiteral(",") : QString()) + QString::number(m);
    return text + QStringLiteral("}");
}

} // namespace

void TestMlirImport::shardedAttentionMegatronCollectives_data()
{
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("yGroup"); // empty: "y" has size 1, no collective at all
    QTest::addColumn<int>("localBatch");
    QTest::addColumn<int>("localHeads");

    // sharded_attention.mlir (batch 8, sequence 32, 8 heads): sequence parallelism all-gathers the
    // sequence over "y" before QKV, the heads stay split on "y" through scores, softmax and context,
    // and the row-parallel output is reduce-scattered back onto the sequence. Device d = x * |y| + y.
    QTest::newRow("file_mesh_x2_y4_rank5") << QString() << 8 << 5 << membersText({4, 5, 6, 7}) << 4 << 2;
    QTest::newRow("x4_y2_rank3") << QStringLiteral("x=4,y=2") << 8 << 3 << membersText({2, 3}) << 2 << 4;
    QTest::newRow("x1_y8_rank0") << QStringLiteral("x=1,y=8") << 8 << 0 << membersText({0, 1, 2, 3, 4, 5, 6, 7}) << 8
                                 << 1;
    QTest::newRow("x2_y8_rank9") << QStringLiteral("x=2,y=8") << 16 << 9 << membersText({8, 9, 10, 11, 12, 13, 14, 15})
                                 << 4 << 1;
    QTest::newRow("x8_y1_pure_data_parallel") << QStringLiteral("x=8,y=1") << 8 << 7 << QString() << 1 << 8;
}

void TestMlirImport::shardedAttentionMegatronCollectives()
{
    QFETCH(QString, mesh);
    QFETCH(int, ranks);
    QFETCH(int, rank);
    QFETCH(QString, yGroup);
    QFETCH(int, localBatch);
    QFETCH(int, localHeads);
    flint::frontend::MlirImportOptions options;
    options.mesh = mesh.toStdString();
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_attention.mlir"), options);
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(ranks));
    std::map<std::string, int> expected;
    if (!yGroup.isEmpty())
        expected = {{"all-gather " + yGroup.toStdString(), 1}, {"reduce-scatter " + yGroup.toStdString(), 1}};
    QCOMPARE(collectivesOf(workload, static_cast<std::size_t>(rank)), expected);
    QVERIFY(imported.imported.warnings.empty());
    // The scores: local batch x local heads x 32 x 32, contracting the 16 of a head.
    const auto& ops = workload.programOf(static_cast<std::size_t>(rank)).ops;
    // The first dot with a 4-D result is the scores (the context dot comes after it).
    const auto scores = std::find_if(ops.begin(), ops.end(),
                                     [](const Op& op) { return op.name.rfind("dot", 0) == 0 && op.shape.size() == 4; });
    QVERIFY(scores != ops.end());
    QCOMPARE(scores->shape, (std::vector<std::int64_t>{localBatch, localHeads, 32, 32}));
    QCOMPARE(scores->flops, std::uint64_t(2) * std::uint64_t(localBatch * localHeads) * 32 * 32 * 16);
}

void TestMlirImport::attentionHeadsThatDoNotSplitWarn()
{
    // 16 shards of 8 heads: the reshapes to heads cannot keep "y"; Q, K and V are gathered, and the
    // user is told where.
    flint::frontend::MlirImportOptions options;
    options.mesh = "x=1,y=16";
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_attention.mlir"), options);
    QVERIFY(hasWarning(imported, "line 21: reshape [8x32x128] -> [8x32x8x16]: dimension 2 sharded over {y=16}"));
    const auto counts = collectivesOf(imported.imported.workload, 0);
    const std::string all = "{0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}";
    QCOMPARE(counts.at("all-gather " + all), 4);
    QCOMPARE(counts.at("reduce-scatter " + all), 1);
}

void TestMlirImport::convolutionAndGatherRules()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sharded_conv_embedding.mlir"));
    QCOMPARE(imported.partitionedFor, std::string("x=2,y=4"));
    const Workload& workload = imported.imported.workload;
    // conv2's partial sum and the embedding's, each all-reduced over "y"; the embedding's out
    // sharding reduce-scatters it over "y" instead for the third result.
    const std::map<std::string, int> expected{{"all-reduce {4,5,6,7}", 2}, {"reduce-scatter {4,5,6,7}", 1}};
    QCOMPARE(collectivesOf(workload, 6), expected);
    const auto& ops = workload.programOf(6).ops;
    const auto conv1 =
        std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.scope == "net" && op.shape.size() == 4; });
    QVERIFY(conv1 != ops.end());
    QCOMPARE(conv1->shape, (std::vector<std::int64_t>{4, 16, 16, 16})); // batch / 2, features / 4
    for (const Op& op : ops)
        if (op.kind == OpKind::Collective && op.collective == CollectiveKind::ReduceScatter)
            QCOMPARE(op.commBytes, std::uint64_t(4 * 32 * 64 * 4)); // the local batch's partial embeddings
}

void TestMlirImport::gspmdShardingsPartitionOnImplicitMesh()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("gspmd_mlp.mlir"));
    // <=[8] and <=[2,4]T(1,0) nest into d0=2 (rows of x) and d1=4 (Megatron columns and rows).
    QCOMPARE(imported.partitionedFor, std::string("d0=2,d1=4"));
    QCOMPARE(imported.insertedCollectives, std::size_t(1));
    QCOMPARE(collectivesOf(imported.imported.workload, 6), (std::map<std::string, int>{{"all-reduce {4,5,6,7}", 1}}));
    QVERIFY(imported.imported.warnings.empty());
    // The implicit mesh is a parameter like any other.
    flint::frontend::MlirImportOptions options;
    options.mesh = "d0=4,d1=4";
    const MlirImport wider = flint::frontend::importMlirFile(fixture("gspmd_mlp.mlir"), options);
    QCOMPARE(wider.imported.workload.rankCount(), std::size_t(16));
    QCOMPARE(collectivesOf(wider.imported.workload, 13), (std::map<std::string, int>{{"all-reduce {12,13,14,15}", 1}}));
}

void TestMlirImport::capturedValueKeepsItsDependency()
{
    const MlirImport imported = flint::frontend::importMlirFile(fixture("captured_value.mlir"));
    const auto& ops = imported.imported.workload.programOf(0).ops;
    const auto exp = std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.scope == "outer"; });
    QVERIFY(exp != ops.end());
    int multiplies = 0;
    for (const Op& op : ops) {
        if (op.name.rfind("multiply", 0) != 0)
            continue;
        ++multiplies;
        if (multiplies > 1)
            continue;
        // The first iteration's multiply reads the exponential taken from outside the loop.
        const bool waits = std::find(op.dataDeps.begin(), op.dataDeps.end(), exp->id) != op.dataDeps.end() ||
                           std::find(op.ctrlDeps.begin(), op.ctrlDeps.end(), exp->id) != op.ctrlDeps.end();
        QVERIFY2(waits, op.name.c_str());
    }
    QCOMPARE(multiplies, 3);
}

void TestMlirImport::errorUnderNameLocationHasFileLine()
{
    try {
        (void)flint::frontend::importMlirFile(fixture("bad_composite_loc.mlir"));
        QFAIL("a composite without decomposition was accepted");
    } catch (const flint::core::InputError& error) {
        const std::string text = error.what();
        QVERIFY2(text.find("bad_composite_loc.mlir:8: column 10: 'stablehlo.composite'") != std::string::npos,
                 text.c_str());
    }
}

void TestMlirImport::meshDialectMlpPartitionsForMesh_data()
{
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("group");
    // mesh_mlp.mlir: one all-reduce over mesh axis 1 (d1) per device; device = d0 * |d1| + d1.
    QTest::newRow("file_mesh_2x4_rank5") << QString() << 5 << QStringLiteral("{4,5,6,7}");
    QTest::newRow("d0_4_d1_2_rank3") << QStringLiteral("d0=4,d1=2") << 3 << QStringLiteral("{2,3}");
    QTest::newRow("d0_1_d1_8_rank7") << QStringLiteral("d0=1,d1=8") << 7 << QStringLiteral("{0,1,2,3,4,5,6,7}");
}

void TestMlirImport::meshDialectMlpPartitionsForMesh()
{
    QFETCH(QString, mesh);
    QFETCH(int, rank);
    QFETCH(QString, group);
    flint::frontend::MlirImportOptions options;
    options.mesh = mesh.toStdString();
    const MlirImport imported = flint::frontend::importMlirFile(fixture("mesh_mlp.mlir"), options);
    QCOMPARE(imported.meshes.size(), std::size_t(1));
    QCOMPARE(imported.meshes.front().axes.front().first, std::string("d0"));
    QCOMPARE(imported.insertedCollectives, std::size_t(1));
    const std::map<std::string, int> expected{{"all-reduce " + group.toStdString(), 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, static_cast<std::size_t>(rank)), expected);
    // linalg.matmul is costed as a dot: 2 x (8 / |d0|) x 64 x (256 / |d1|) FLOPs each, two of them.
    std::uint64_t dotFlops = 0;
    for (const Op& op : imported.imported.workload.programOf(0).ops)
        if (op.name.rfind("dot", 0) == 0)
            dotFlops += op.flops;
    const auto axis = [&](const char* name) -> std::uint64_t {
        for (const auto& [axisName, size] :
             flint::core::partition::MeshShape::parse(mesh.isEmpty() ? std::string("d0=2,d1=4") : mesh.toStdString())
                 .axes)
            if (axisName == name)
                return static_cast<std::uint64_t>(size);
        return 1;
    };
    QCOMPARE(dotFlops, 2 * (2 * (8 / axis("d0")) * 64 * (256 / axis("d1"))));
    QVERIFY(!hasWarning(imported, "unknown to the cost model"));
}

void TestMlirImport::meshDialectCollectivesGroupByMeshAxes()
{
    // mesh_collectives.mlir on its 2 x 4 mesh, rank 6 = (1, 2): all-reduce over its row (axis 1),
    // all-gather and reduce-scatter over its column (axis 0), a rotating shift along axis 1.
    const MlirImport imported = flint::frontend::importMlirFile(fixture("mesh_collectives.mlir"));
    const Workload& workload = imported.imported.workload;
    QCOMPARE(workload.rankCount(), std::size_t(8));
    QCOMPARE(imported.insertedCollectives, std::size_t(0));
    const std::map<std::string, int> counts = collectivesOf(workload, 6);
    QCOMPARE(counts.at("all-reduce {4,5,6,7}"), 1);
    QCOMPARE(counts.at("all-gather {2,6}"), 1);
    QCOMPARE(counts.at("reduce-scatter {2,6}"), 1);
    for (const Op& op : workload.programOf(6).ops)
        if (op.kind == OpKind::Collective && op.collective == CollectiveKind::CollectivePermute) {
            const auto& pairs = op.extras.get().sourceTargetPairs;
            QCOMPARE(pairs.size(), std::size_t(8));
            QVERIFY(std::find(pairs.begin(), pairs.end(), std::pair<std::int32_t, std::int32_t>{6, 7}) != pairs.end());
            QVERIFY(std::find(pairs.begin(), pairs.end(), std::pair<std::int32_t, std::int32_t>{7, 4}) != pairs.end());
        }
    QCOMPARE(countOps(workload, "block"), std::size_t(0)); // loc names are scopes, not op names
}

void TestMlirImport::shardMapInsideJitIsPartitioned()
{
    // The manual body's all-reduce is the program's own, not a sign the module is partitioned: the
    // code around it runs on shards ([2,16] per device) and the replicated result is all-gathered.
    const MlirImport imported = flint::frontend::importMlirFile(fixture("shard_map_in_jit.mlir"));
    QCOMPARE(imported.imported.partitioning, flint::core::hlo::Partitioning::ByFlint);
    QCOMPARE(imported.partitionedFor, std::string("x=4"));
    const std::map<std::string, int> expected{{"all-reduce {0,1,2,3}", 1}, {"all-gather {0,1,2,3}", 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, 2), expected);
    const auto& ops = imported.imported.workload.programOf(0).ops;
    const auto tanh = std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.name.rfind("tanh", 0) == 0; });
    QVERIFY(tanh != ops.end());
    QCOMPARE(tanh->flops, std::uint64_t(2 * 16));
}

void TestMlirImport::shardyNamedComputationBarrierAndGroup()
{
    // The named computation's in_shardings ask for the weight column-sharded over x while the
    // activations are batch-sharded over x: the dot gathers the weight ([16,8] f32 per device). The
    // barrier and the sharding group move nothing.
    const MlirImport imported = flint::frontend::importMlirFile(fixture("sdy_named_computation.mlir"));
    QCOMPARE(imported.imported.partitioning, flint::core::hlo::Partitioning::ByFlint);
    QVERIFY(imported.imported.warnings.empty());
    const std::map<std::string, int> expected{{"all-gather {0,1,2,3}", 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, 1), expected);
    const auto& ops = imported.imported.workload.programOf(0).ops;
    QCOMPARE(ops.size(), std::size_t(2));
    QCOMPARE(ops[0].commBytes, std::uint64_t(16 * 8 * 4));
    QCOMPARE(ops[1].flops, std::uint64_t(2 * 2 * 16 * 32));
}

void TestMlirImport::shardyMeshDeviceIds()
{
    // device_ids=[0, 2, 1, 3]: the devices along y are {0,2} and {1,3}, not {0,1} and {2,3}.
    const MlirImport imported = flint::frontend::importMlirFile(fixture("mesh_device_ids.mlir"));
    const std::map<std::string, int> expected{{"all-reduce {0,2}", 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, 2), expected);
    const std::map<std::string, int> other{{"all-reduce {1,3}", 1}};
    QCOMPARE(collectivesOf(imported.imported.workload, 1), other);
}

QTEST_GUILESS_MAIN(TestMlirImport)
#include "tst_mlirimport.moc"
