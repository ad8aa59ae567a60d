// SPDX-License-Identifier: MIT
#include "core/mlir/mlirreader.h"

#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

using flint::frontend::MlirParseError;
using flint::frontend::MlirReadOptions;
using flint::frontend::MlirSummary;
using flint::frontend::OperationCount;

namespace {

std::string fixture(const char* name)
{
    return std::string(FLINT_MLIR_TEST_DATA) + '/' + name;
}

QString sharedStableHloDir()
{
    return QStringLiteral(FLINT_SHARED_DATA "/stablehlo");
}

std::uint64_t countOf(const MlirSummary& summary, const std::string& name)
{
    for (const OperationCount& entry : summary.operations) {
        if (entry.name == name) {
            return entry.count;
        }
    }
    return 0;
}

// Runs `call` and returns the MlirParseError it throws, or nothing when it returns normally.
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

class TestMlirReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void countsUpstreamFixtureExactly();
    void sourceAndFileGiveTheSameSummary();
    void implicitModuleIsCounted();
    void reportsLineAndColumnOfSyntaxError();
    void reportsVerifierError();
    void outerUseOfNestedDefinitionRefused();
    void nestedRegionsReusingNamesRead();
    void locationRangesOfNewerMlirRead();
    void missingFileThrows();
    void unregisteredGenericOpsRejectedByDefault();
    void unregisteredGenericOpsAcceptedWhenAllowed();
    void concurrentCallsAreIndependent();
    void sharedStableHloNeedsItsDialect_data();
    void sharedStableHloNeedsItsDialect();
    void sharedStableHloParsesWithReaderDialects_data();
    void sharedStableHloParsesWithReaderDialects();
};

void TestMlirReader::countsUpstreamFixtureExactly()
{
    // Counts from `mlir-opt --mlir-print-op-generic mlp_mesh.mlir`: the named linalg ops carry
    // implicit bodies (matmul: arith.mulf, arith.addf, linalg.yield; fill: linalg.yield).
    const std::vector<OperationCount> expected{
        {"arith.addf", 2},    {"arith.constant", 3}, {"arith.maximumf", 1},  {"arith.mulf", 3},  {"builtin.module", 1},
        {"func.call", 1},     {"func.func", 2},      {"func.return", 2},     {"linalg.fill", 2}, {"linalg.generic", 1},
        {"linalg.matmul", 2}, {"linalg.yield", 5},   {"mesh.all_reduce", 1}, {"mesh.mesh", 1},   {"mesh.shard", 3},
        {"tensor.empty", 3},  {"tensor.splat", 1},
    };
    const MlirSummary summary = flint::frontend::summarizeMlirFile(fixture("mlp_mesh.mlir"));

    QCOMPARE(summary.operations.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(summary.operations[i].name, expected[i].name);
        QCOMPARE(summary.operations[i].count, expected[i].count);
    }
    QCOMPARE(summary.totalOperations, std::uint64_t(34));
    const std::vector<std::string> dialects{"arith", "builtin", "func", "linalg", "mesh", "tensor"};
    QCOMPARE(summary.dialects, dialects);
}

void TestMlirReader::sourceAndFileGiveTheSameSummary()
{
    QFile file(QString::fromStdString(fixture("mlp_mesh.mlir")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();

    const MlirSummary fromSource =
        flint::frontend::summarizeMlirSource(std::string_view(text.constData(), std::size_t(text.size())), "mem.mlir");
    QVERIFY(fromSource == flint::frontend::summarizeMlirFile(fixture("mlp_mesh.mlir")));
}

void TestMlirReader::implicitModuleIsCounted()
{
    // Top-level ops without a module are wrapped in an implicit builtin.module, as mlir-opt does.
    const MlirSummary summary = flint::frontend::summarizeMlirSource(
        "func.func @f(%a: i32) -> i32 {\n  %b = arith.muli %a, %a : i32\n  return %b : i32\n}\n", "implicit.mlir");
    QCOMPARE(summary.totalOperations, std::uint64_t(4));
    QCOMPARE(countOf(summary, "builtin.module"), std::uint64_t(1));
    QCOMPARE(countOf(summary, "arith.muli"), std::uint64_t(1));

    const MlirSummary empty = flint::frontend::summarizeMlirSource("", "empty.mlir");
    QCOMPARE(empty.totalOperations, std::uint64_t(1));
    QCOMPARE(empty.dialects, std::vector<std::string>{"builtin"});
}

void TestMlirReader::reportsLineAndColumnOfSyntaxError()
{
    const std::string path = fixture("broken.mlir");
    const auto caught = expectParseError([&] { return flint::frontend::summarizeMlirFile(path); });
    QVERIFY2(caught.has_value(), "broken.mlir parsed without error");

    const auto& error = caught->error();
    QCOMPARE(error.file, path);
    QCOMPARE(error.line, 6);
    QCOMPARE(error.column, 25);
    QVERIFY2(error.message.find("undeclared SSA value") != std::string::npos, error.message.c_str());
    QCOMPARE(std::string(caught->what()), path + ":6:25: " + error.message);
    // The rendered diagnostics carry the source line, as mlir-opt prints it.
    QVERIFY2(caught->diagnostics().find("%sum = arith.addf %a, %missing") != std::string::npos,
             caught->diagnostics().c_str());
}

void TestMlirReader::reportsVerifierError()
{
    // Syntactically valid, rejected by func.return's verifier: parsing verifies the module.
    const auto caught = expectParseError([] {
        return flint::frontend::summarizeMlirSource("func.func @f(%a: f32) -> i32 {\n  return %a : f32\n}\n",
                                                    "verify.mlir");
    });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().file, std::string("verify.mlir"));
    QCOMPARE(caught->error().line, 2);
    QCOMPARE(caught->error().column, 3);
    QVERIFY2(caught->error().message.find("doesn't match function result type") != std::string::npos,
             caught->error().message.c_str());
}

void TestMlirReader::outerUseOfNestedDefinitionRefused()
{
    // MLIR 19 binds %c0 to the definition inside the while's region and frees it after the later
    // syntax error (a SEGV or heap corruption); the reader refuses the input first, with both places.
    flint::frontend::MlirReadOptions options;
    options.readerDialects = true;
    const std::string swapped = "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                                "  %0:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i32>, tensor<4xf32>\n"
                                "   cond {\n"
                                "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
                                "  } do {\n";
    auto caught =
        expectParseError([&] { return flint::frontend::summarizeMlirSource(swapped, "swapped.mlir", options); });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().line, 4);
    QCOMPARE(caught->error().column, 5);
    QVERIFY2(caught->error().message.find("%c0 is defined here inside a nested region, but line 2 column 31 uses it") !=
                 std::string::npos,
             caught->error().message.c_str());
    // The same through an isolated region: a top-level use and a function body that defines the name.
    const std::string isolated = "%1 = \"stablehlo.add\"(%6, %6) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                                 "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                 "  %6 = stablehlo.add %a, %a : tensor<4xf32>\n"
                                 "  %7 = stablehlo.add %6, %6 : tensor<4xf32>\n";
    caught = expectParseError([&] { return flint::frontend::summarizeMlirSource(isolated, "isolated.mlir", options); });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().line, 3);
    QVERIFY2(caught->error().message.find("%6 is defined here") != std::string::npos, caught->error().message.c_str());
}

void TestMlirReader::nestedRegionsReusingNamesRead()
{
    // Names defined before their use in an enclosing region, results lists, block arguments and a
    // second function reusing every name: all valid, none refused.
    flint::frontend::MlirReadOptions options;
    options.readerDialects = true;
    const std::string source =
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {\n"
        "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %0:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i32>, tensor<4xf32>\n"
        "   cond {\n"
        "    %1 = stablehlo.compare LT, %i, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %1 : tensor<i1>\n"
        "  } do {\n"
        "    %1 = stablehlo.add %x, %x : tensor<4xf32>\n"
        "    stablehlo.return %i, %1 : tensor<i32>, tensor<4xf32>\n"
        "  }\n"
        "  %2 = stablehlo.reduce(%0#1 init: %arg0) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> "
        "tensor<4xf32>\n"
        "   reducer(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n"
        "    %3 = stablehlo.add %a, %b : tensor<4xf32>\n"
        "    stablehlo.return %3 : tensor<4xf32>\n"
        "  }\n"
        "  return %2 : tensor<4xf32>\n"
        "}\n"
        "func.func @g(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n";
    try {
        const auto summary = flint::frontend::summarizeMlirSource(source, "valid.mlir", options);
        QVERIFY(summary.totalOperations > 8);
    } catch (const flint::frontend::MlirParseError& error) {
        QFAIL(error.what());
    }
}

void TestMlirReader::locationRangesOfNewerMlirRead()
{
    // MLIR 20 prints `loc("f.py":12:3 to :20)` and `loc("f.py":14:1 to 15:9)`; MLIR 19 cannot parse
    // them. The ranges' ends are blanked, so errors keep their columns.
    flint::frontend::MlirReadOptions options;
    options.readerDialects = true;
    try {
        const auto summary = flint::frontend::summarizeMlirFile(fixture("location_ranges.mlir"), options);
        QCOMPARE(summary.totalOperations, std::uint64_t{6});
    } catch (const flint::frontend::MlirParseError& error) {
        QFAIL(error.what());
    }
    const std::string broken = "func.func @f(%a: tensor<4xf32> loc(\"x.py\":1:2 to :9)) -> tensor<4xf32> {\n"
                               "  %0 = stablehlo.add %a, %b : tensor<4xf32> loc(\"y.py\":1001:8 to 1002:54)\n"
                               "  return %0 : tensor<4xf32>\n}\n";
    const auto caught =
        expectParseError([&] { return flint::frontend::summarizeMlirSource(broken, "r.mlir", options); });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().line, 2);
    QCOMPARE(caught->error().column, 26);
}

void TestMlirReader::missingFileThrows()
{
    const std::string path = fixture("does_not_exist.mlir");
    const auto caught = expectParseError([&] { return flint::frontend::summarizeMlirFile(path); });
    QVERIFY(caught.has_value());
    QCOMPARE(caught->error().file, path);
    QCOMPARE(caught->error().line, 0);
    QVERIFY2(caught->error().message.find("cannot read file") != std::string::npos, caught->error().message.c_str());
    QVERIFY(std::string(caught->what()).find(path) != std::string::npos);
}

void TestMlirReader::unregisteredGenericOpsRejectedByDefault()
{
    // Without the reader dialects, sdy and stablehlo are unknown namespaces.
    MlirReadOptions upstreamOnly;
    upstreamOnly.readerDialects = false;
    const auto caught = expectParseError(
        [&] { return flint::frontend::summarizeMlirFile(fixture("generic_stablehlo.mlir"), upstreamOnly); });
    QVERIFY(caught.has_value());
    // MLIR points past the quoted name; the reader moves the column back to the operation.
    QCOMPARE(caught->error().line, 7);
    QCOMPARE(caught->error().column, 3);
    QVERIFY2(caught->error().message.find("'sdy.mesh'") != std::string::npos, caught->error().message.c_str());
    QVERIFY2(caught->error().message.find("dialect 'sdy'") != std::string::npos, caught->error().message.c_str());
}

void TestMlirReader::unregisteredGenericOpsAcceptedWhenAllowed()
{
    MlirReadOptions options;
    options.allowUnregistered = true;
    options.readerDialects = false;
    const MlirSummary summary = flint::frontend::summarizeMlirFile(fixture("generic_stablehlo.mlir"), options);
    // The reader dialects read the same generic form without allowUnregistered.
    QVERIFY(flint::frontend::summarizeMlirFile(fixture("generic_stablehlo.mlir")) == summary);

    const std::vector<OperationCount> expected{
        {"builtin.module", 1},        {"func.func", 1},
        {"func.return", 1},           {"sdy.mesh", 1},
        {"stablehlo.add", 1},         {"stablehlo.all_reduce", 1},
        {"stablehlo.dot_general", 1}, {"stablehlo.return", 1},
        {"stablehlo.tanh", 1},
    };
    QCOMPARE(summary.operations.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(summary.operations[i].name, expected[i].name);
        QCOMPARE(summary.operations[i].count, expected[i].count);
    }
    const std::vector<std::string> dialects{"builtin", "func", "sdy", "stablehlo"};
    QCOMPARE(summary.dialects, dialects);
}

void TestMlirReader::concurrentCallsAreIndependent()
{
    const MlirSummary reference = flint::frontend::summarizeMlirFile(fixture("mlp_mesh.mlir"));
    std::vector<std::future<MlirSummary>> runs;
    for (int i = 0; i < 4; ++i) {
        runs.push_back(std::async(std::launch::async,
                                  [] { return flint::frontend::summarizeMlirFile(fixture("mlp_mesh.mlir")); }));
    }
    // One failing call must not disturb the others.
    const auto caught = expectParseError([] { return flint::frontend::summarizeMlirFile(fixture("broken.mlir")); });
    QVERIFY(caught.has_value());
    for (auto& run : runs) {
        QVERIFY(run.get() == reference);
    }
}

void TestMlirReader::sharedStableHloNeedsItsDialect_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QString>("dialect");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");

    // Pretty-form StableHLO and Shardy written by JAX; see ../shared/data/PROVENANCE.md.
    QTest::newRow("shardy_fsdp_tp") << QStringLiteral("e2e_fsdp_tp_shardy.mlir") << QStringLiteral("sdy") << 2 << 3;
    QTest::newRow("jax_example") << QStringLiteral("jax_example.mlir") << QStringLiteral("stablehlo") << 4 << 10;
    QTest::newRow("resnet50_train_4dev") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir")
                                         << QStringLiteral("stablehlo") << 3 << 10;
    QTest::newRow("split_replica_groups")
        << QStringLiteral("test_split_replica_groups.mlir") << QStringLiteral("stablehlo") << 4 << 10;
}

void TestMlirReader::sharedStableHloNeedsItsDialect()
{
    QFETCH(QString, fileName);
    QFETCH(QString, dialect);
    QFETCH(int, line);
    QFETCH(int, column);

    if (!QDir(sharedStableHloDir()).exists()) {
        QSKIP("shared samples not found at " FLINT_SHARED_DATA "/stablehlo (a clone without ../shared/data)");
    }
    const QString path = sharedStableHloDir() + QLatin1Char('/') + fileName;
    if (!QFileInfo::exists(path)) {
        QSKIP(qPrintable(QStringLiteral("sample %1 not present").arg(path)));
    }

    // Pretty form needs the dialect's own parser, so without the reader dialects it fails with and
    // without allowUnregistered.
    for (const bool allowUnregistered : {false, true}) {
        MlirReadOptions options;
        options.allowUnregistered = allowUnregistered;
        options.readerDialects = false;
        const auto caught =
            expectParseError([&] { return flint::frontend::summarizeMlirFile(path.toStdString(), options); });
        QVERIFY2(caught.has_value(), "pretty-form sample parsed without its dialect");
        const auto& error = caught->error();
        QCOMPARE(error.file, path.toStdString());
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        const std::string expectedText = "Dialect `" + dialect.toStdString() + "' not found";
        QVERIFY2(error.message.find(expectedText) != std::string::npos, error.message.c_str());
        QVERIFY2(error.message.back() != ' ', error.message.c_str());
    }
}

void TestMlirReader::sharedStableHloParsesWithReaderDialects_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QString>("operation");
    QTest::addColumn<qulonglong>("count");

    // Counts by grep over the files (each op is printed once per occurrence); the pretty form of
    // convolution, reduce (compact and with a reducer), compare and slice, the generic form of the
    // collectives, reduce_window and select_and_scatter, and Shardy's mesh and manual computation.
    QTest::newRow("resnet50_all_reduce") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir")
                                         << QStringLiteral("stablehlo.all_reduce") << 375ull;
    QTest::newRow("resnet50_convolution") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir")
                                          << QStringLiteral("stablehlo.convolution") << 158ull;
    QTest::newRow("resnet50_select_and_scatter") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir")
                                                 << QStringLiteral("stablehlo.select_and_scatter") << 1ull;
    QTest::newRow("resnet50_func_call") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir")
                                        << QStringLiteral("func.call") << 58ull;
    QTest::newRow("shardy_all_gather") << QStringLiteral("e2e_fsdp_tp_shardy.mlir")
                                       << QStringLiteral("stablehlo.all_gather") << 12ull;
    QTest::newRow("shardy_reduce_scatter")
        << QStringLiteral("e2e_fsdp_tp_shardy.mlir") << QStringLiteral("stablehlo.reduce_scatter") << 6ull;
    QTest::newRow("shardy_mesh") << QStringLiteral("e2e_fsdp_tp_shardy.mlir") << QStringLiteral("sdy.mesh") << 1ull;
    QTest::newRow("shardy_manual_computation")
        << QStringLiteral("e2e_fsdp_tp_shardy.mlir") << QStringLiteral("sdy.manual_computation") << 1ull;
    QTest::newRow("jax_example_all_reduce")
        << QStringLiteral("jax_example.mlir") << QStringLiteral("stablehlo.all_reduce") << 6ull;
    QTest::newRow("split_groups_all_reduce")
        << QStringLiteral("test_split_replica_groups.mlir") << QStringLiteral("stablehlo.all_reduce") << 2ull;
}

void TestMlirReader::sharedStableHloParsesWithReaderDialects()
{
    QFETCH(QString, fileName);
    QFETCH(QString, operation);
    QFETCH(qulonglong, count);

    const QString path = sharedStableHloDir() + QLatin1Char('/') + fileName;
    if (!QFileInfo::exists(path)) {
        QSKIP(qPrintable(QStringLiteral("sample %1 not present (a clone without ../shared/data)").arg(path)));
    }
    const MlirSummary summary = flint::frontend::summarizeMlirFile(path.toStdString());
    QCOMPARE(countOf(summary, operation.toStdString()), std::uint64_t(count));
}

QTEST_GUILESS_MAIN(TestMlirReader)
#include "tst_mlirreader.moc"
