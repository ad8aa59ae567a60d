// SPDX-License-Identifier: MIT
// End-to-end tests of the flint command: exit codes, JSON output, conversions.
#include "support/clirun.h"

#include <csignal>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

namespace {

const QString kSharedData = QStringLiteral(FLINT_SHARED_DATA);
const QString kBundled = QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/astrasim_all_reduce_8npus_1MB");

using Run = flint::tests::CliRun;

Run flintCli(const QStringList& arguments)
{
    return flint::tests::runFlint(arguments);
}

QJsonObject json(const Run& run)
{
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(run.out, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void helpOnEveryCommand_data();
    void helpOnEveryCommand();
    void usageErrors_data();
    void usageErrors();
    void misspeltOptionSuggestsTheClosest();
    void badInputExitsTwo();
    void inspectBundledExample();
    void inspectSharedSamples();
    void convertToChakraAndBack();
    void convertToJsonAndDot();
    void unwritableOutputLeavesNothing();
    void inspectMlir();
    void inspectHloModule();
    void importHloModule();
    void badHloExitsTwo();
    void inspectStableHloModule();
    void importShardyModule();
    void benchMlir();
    void inspectShardedModuleForMeshes();
    void inspectUnpartitionedHlo();
    void builtinModels();
    void sweepWritesCsvWithBest();
    void sweepComparesTokenDispatchers();
    void fp8ScalingIsAnOptionAndASweep();
    void oddButValidInputsRead();
    void manyRanksInBoundedMemory();
    void interruptedImportLeavesNothing();
    void outputsRefuseDevicesAndFullStandardOutput();
    void hostileInputsFailCleanly_data();
    void hostileInputsFailCleanly();
    void scaleOutBandwidthNeedsANetwork();
};

void TestCli::helpOnEveryCommand_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("top") << QStringList{QStringLiteral("--help")};
    for (const char* command : {"inspect", "convert", "bench", "model", "sweep"})
        QTest::newRow(command) << QStringList{QString::fromLatin1(command), QStringLiteral("--help")};
}

void TestCli::helpOnEveryCommand()
{
    QFETCH(QStringList, arguments);
    const Run run = flintCli(arguments);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("Usage: flint"));
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("no_command") << QStringList{};
    QTest::newRow("unknown_command") << QStringList{QStringLiteral("frobnicate")};
    QTest::newRow("inspect_no_path") << QStringList{QStringLiteral("inspect")};
    QTest::newRow("inspect_unknown_option")
        << QStringList{QStringLiteral("inspect"), kBundled, QStringLiteral("--jsn")};
    QTest::newRow("convert_no_format") << QStringList{QStringLiteral("convert"), kBundled, QStringLiteral("-o"),
                                                      QStringLiteral("/tmp/x")};
    QTest::newRow("convert_bad_format") << QStringList{QStringLiteral("convert"), kBundled,
                                                       QStringLiteral("--to"),    QStringLiteral("xml"),
                                                       QStringLiteral("-o"),      QStringLiteral("x")};
    QTest::newRow("convert_no_output") << QStringList{QStringLiteral("convert"), kBundled, QStringLiteral("--to=dot")};
    QTest::newRow("option_missing_value") << QStringList{QStringLiteral("convert"), kBundled, QStringLiteral("--to")};
    QTest::newRow("bench_bad_number") << QStringList{QStringLiteral("bench"), QStringLiteral("chakra"),
                                                     QStringLiteral("--nodes"), QStringLiteral("many")};
    // A bad device or cluster name is refused before the workload is read (even one not there).
    QTest::newRow("estimate_unknown_device")
        << QStringList{QStringLiteral("estimate"), QStringLiteral("/nonexistent/workload.et"),
                       QStringLiteral("--device"), QStringLiteral("bogus")};
    QTest::newRow("estimate_unknown_cluster")
        << QStringList{QStringLiteral("estimate"), kBundled, QStringLiteral("--cluster"), QStringLiteral("bogus")};
    QTest::newRow("model_missing_file") << QStringList{QStringLiteral("model"), QStringLiteral("estimate"),
                                                       QStringLiteral("missing/model.txt")};
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    const Run run = flintCli(arguments);
    QCOMPARE(run.exitCode, 1);
    QVERIFY(!run.err.isEmpty());
}

void TestCli::misspeltOptionSuggestsTheClosest()
{
    Run run = flintCli({QStringLiteral("estimate"), kBundled, QStringLiteral("--clsuter"), QStringLiteral("x")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("unknown option --clsuter (did you mean --cluster?)"), run.err.constData());
    run = flintCli({QStringLiteral("estimate"), kBundled, QStringLiteral("--frobnicate")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(!run.err.contains("did you mean"), run.err.constData()); // nothing close
}

void TestCli::badInputExitsTwo()
{
    QTemporaryDir dir;
    const Run missing = flintCli({QStringLiteral("inspect"), dir.filePath(QStringLiteral("nothing_here"))});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("no such file"), missing.err.constData());

    const QString corrupt = dir.filePath(QStringLiteral("corrupt.0.et"));
    QFile file(corrupt);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x07\x0a\x05"
                          "0.0.4"
                          "\xff\xff",
                          10));
    file.close();
    const Run bad = flintCli({QStringLiteral("inspect"), corrupt, QStringLiteral("--json")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("corrupt.0.et: byte offset 8:"), bad.err.constData());
    QVERIFY(bad.out.isEmpty());

    // Text that is no workload is named for what it is, not read as a malformed binary Chakra trace.
    const QList<std::pair<QString, QByteArray>> texts{
        {QStringLiteral("empty.hlo"), QByteArray()},
        {QStringLiteral("network.yml"), QByteArray("topology: [ Switch ]\nnpus_count: [ 8 ]\n")},
        {QStringLiteral("other.json"), QByteArray("{\"foo\": 1}")},
        {QStringLiteral("README.md"), QByteArray("# Title\n\nSome text with %c0 in it.\n")}};
    const QStringList expected{QStringLiteral("an empty file"), QStringLiteral("a network YAML, not a workload"),
                               QStringLiteral("JSON that is not a profiler trace"),
                               QStringLiteral("a text file that is neither")};
    for (qsizetype i = 0; i < texts.size(); ++i) {
        const QString path = dir.filePath(texts[i].first);
        QFile text(path);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(texts[i].second);
        text.close();
        const Run refused = flintCli({QStringLiteral("inspect"), path});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(expected[i].toUtf8()), refused.err.constData());
    }

    // A folder of profiler traces with a stray Chakra rank file is two runs: named, not half read.
    QTemporaryDir mixed;
    for (const char* rank : {"rank0.json.gz", "rank1.json.gz"})
        QVERIFY(QFile::copy(QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/torch/dp2/") + QLatin1String(rank),
                            mixed.filePath(QLatin1String(rank))));
    QFile stray(mixed.filePath(QStringLiteral("x.0.et")));
    QVERIFY(stray.open(QIODevice::WriteOnly));
    stray.close();
    const Run both = flintCli({QStringLiteral("inspect"), mixed.path()});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("holds both Chakra rank files (x.0.et) and profiler traces (rank0.json.gz)"),
             both.err.constData());

    // A model file starts with '#' like an MLIR alias; it is named for what it is.
    const Run model =
        flintCli({QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/fuzz/seeds/model/dense.txt")});
    QCOMPARE(model.exitCode, 2);
    QVERIFY2(model.err.contains("a model file ('key = value' lines), not a workload: 'flint model estimate"),
             model.err.constData());
}

void TestCli::inspectBundledExample()
{
    const Run run =
        flintCli({QStringLiteral("inspect"), kBundled + QStringLiteral("/all_reduce"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    QCOMPARE(summary.value(QStringLiteral("ranks")).toInt(), 8);
    QCOMPARE(summary[QStringLiteral("nodes")][QStringLiteral("COMM_COLL_NODE")].toInt(), 8);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(), 8);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("bytes")].toDouble(),
             8.0 * 1048576);
    const Run text = flintCli({QStringLiteral("inspect"), kBundled});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("ranks:                    8"));
}

void TestCli::inspectSharedSamples()
{
    const QString pytorch = kSharedData + QStringLiteral("/chakra/pytorch_chakra.0.et");
    if (!QFile::exists(pytorch))
        QSKIP("../shared/data is not present");
    const Run run = flintCli({QStringLiteral("inspect"), pytorch, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    QCOMPARE(summary[QStringLiteral("ranks")].toInt(), 1);
    QCOMPARE(summary[QStringLiteral("nodes")][QStringLiteral("COMP_NODE")].toInt(), 3643);
    QCOMPARE(summary[QStringLiteral("nodes")][QStringLiteral("COMM_COLL_NODE")].toInt(), 21);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(), 19);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("BROADCAST")][QStringLiteral("count")].toInt(), 2);
    QCOMPARE(summary[QStringLiteral("schema_version")].toString(), QStringLiteral("1.0.1"));
}

void TestCli::convertToChakraAndBack()
{
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("copy"));
    const Run convert = flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("chakra"),
                                  QStringLiteral("-o"), prefix});
    QCOMPARE(convert.exitCode, 0);
    for (int rank = 0; rank < 8; ++rank)
        QVERIFY(QFile::exists(prefix + QStringLiteral(".%1.et").arg(rank)));
    const Run original = flintCli({QStringLiteral("inspect"), kBundled, QStringLiteral("--json")});
    const Run copy = flintCli({QStringLiteral("inspect"), prefix, QStringLiteral("--json")});
    QCOMPARE(copy.exitCode, 0);
    QCOMPARE(json(copy), json(original));
    // Byte-identical: these traces carry only attributes we write back verbatim.
    for (int rank = 0; rank < 8; ++rank) {
        QFile a(kBundled + QStringLiteral("/all_reduce.%1.et").arg(rank));
        QFile b(prefix + QStringLiteral(".%1.et").arg(rank));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
    }
}

void TestCli::convertToJsonAndDot()
{
    QTemporaryDir dir;
    const QString jsonFile = dir.filePath(QStringLiteral("w.json"));
    QCOMPARE(flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("json"),
                       QStringLiteral("-o"), jsonFile})
                 .exitCode,
             0);
    QFile file(jsonFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject workload = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(workload[QStringLiteral("ranks")].toArray().size(), 8);
    QVERIFY(!workload[QStringLiteral("programs")].toArray().isEmpty());

    const Run dot =
        flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("dot"),
                  QStringLiteral("--rank"), QStringLiteral("3"), QStringLiteral("-o"), QStringLiteral("-")});
    QCOMPARE(dot.exitCode, 0);
    QVERIFY(dot.out.startsWith("digraph"));
    QVERIFY(dot.out.contains("all-reduce 1048576 B"));
    const Run badRank =
        flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("dot"),
                  QStringLiteral("--rank"), QStringLiteral("8"), QStringLiteral("-o"), QStringLiteral("-")});
    QCOMPARE(badRank.exitCode, 1);
}

void TestCli::unwritableOutputLeavesNothing()
{
    QTemporaryDir dir;
    // A folder under a regular file cannot be made: exit 3, and nothing is left but that file.
    QFile blocker(dir.filePath(QStringLiteral("a-file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString prefix = dir.filePath(QStringLiteral("a-file/sub/out"));
    const Run run = flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("chakra"),
                              QStringLiteral("-o"), prefix});
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.err.contains("cannot create"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("a-file")});
    // A missing folder is created, as import does.
    const Run created = flintCli({QStringLiteral("convert"), kBundled, QStringLiteral("--to"), QStringLiteral("chakra"),
                                  QStringLiteral("-o"), dir.filePath(QStringLiteral("new/folder/out"))});
    QCOMPARE(created.exitCode, 0);
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("new/folder/out.0.et"))));
}

void TestCli::inspectMlir()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    const QString data = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/mlir/");
    const Run run = flintCli({QStringLiteral("inspect"), data + QStringLiteral("mlp_mesh.mlir"),
                              QStringLiteral("--ops"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    QCOMPARE(summary[QStringLiteral("operations")][QStringLiteral("mesh.all_reduce")].toInt(), 1);
    QCOMPARE(summary[QStringLiteral("operations")][QStringLiteral("linalg.matmul")].toInt(), 2);
    QCOMPARE(summary[QStringLiteral("total_operations")].toInt(), 34);
    const Run broken = flintCli({QStringLiteral("inspect"), data + QStringLiteral("broken.mlir")});
    QCOMPARE(broken.exitCode, 2);
    QVERIFY2(broken.err.contains("broken.mlir:6: column 25: use of undeclared SSA value"), broken.err.constData());
#endif
}

void TestCli::inspectHloModule()
{
    const QString module = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/async.hlo");
    const Run run = flintCli({QStringLiteral("inspect"), module, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    QCOMPARE(summary[QStringLiteral("ranks")].toInt(), 8);
    QCOMPARE(summary[QStringLiteral("scope")].toString(), QStringLiteral("per_rank"));
    QCOMPARE(summary[QStringLiteral("num_partitions")].toInt(), 8);
    const QJsonObject collectives = summary[QStringLiteral("collectives")].toObject();
    QCOMPARE(collectives[QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(), 1);
    QCOMPARE(collectives[QStringLiteral("ALL_REDUCE")][QStringLiteral("bytes")].toInt(), 2048);
    QCOMPARE(collectives[QStringLiteral("COLLECTIVE_PERMUTE")][QStringLiteral("count")].toInt(), 1);
    QVERIFY(summary[QStringLiteral("flops_per_rank")].toDouble() > 8192);
    QCOMPARE(summary[QStringLiteral("warnings")].toArray().size(), 1); // the conditional's branch
    // Warnings go to standard error in text mode and stay out of the JSON's stream.
    QVERIFY(run.err.isEmpty());
    const Run text = flintCli({QStringLiteral("inspect"), module});
    QVERIFY(text.err.contains("warning: line 35: cond: conditional lowered with branch 1 of 2"));
}

void TestCli::importHloModule()
{
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("out/async"));
    const Run run = flintCli({QStringLiteral("import"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/async.hlo"),
                              QStringLiteral("-o"), prefix});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("8 ranks (1 replica x 8 partitions)"));
    for (int rank = 0; rank < 8; ++rank)
        QVERIFY(QFile::exists(prefix + QStringLiteral(".%1.et").arg(rank)));
    QFile groups(prefix + QStringLiteral(".json"));
    QVERIFY(groups.open(QIODevice::ReadOnly));
    const QJsonObject table = QJsonDocument::fromJson(groups.readAll()).object();
    QVERIFY(table.contains(QStringLiteral("1")));
    // The traces read back: 8 ranks, one all-reduce each.
    const Run back = flintCli({QStringLiteral("inspect"), prefix, QStringLiteral("--json")});
    QCOMPARE(back.exitCode, 0);
    const QJsonObject summary = json(back);
    QCOMPARE(summary[QStringLiteral("ranks")].toInt(), 8);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(), 8);
    // A Chakra trace is not a module.
    QCOMPARE(flintCli({QStringLiteral("import"), kBundled, QStringLiteral("-o"), prefix}).exitCode, 2);
}

void TestCli::badHloExitsTwo()
{
    const Run run =
        flintCli({QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/bad_groups.hlo")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("bad_groups.hlo:11: column 8: r: names device 7"), run.err.constData());
    // Found by fuzzing (fuzz/): an attribute that takes one integer, given none, was an internal error.
    const Run channel =
        flintCli({QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/bad_channel_id.hlo")});
    QCOMPARE(channel.exitCode, 2);
    QVERIFY2(channel.err.contains("bad_channel_id.hlo:11: column 45: bad channel_id (expected one integer, found 0)"),
             channel.err.constData());
#ifdef FLINT_HAVE_MLIR
    // Found by fuzzing: transpose dimensions that are no permutation reached an unchecked index.
    const Run transpose = flintCli(
        {QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/mlir/bad_transpose_dims.mlir")});
    QCOMPARE(transpose.exitCode, 2);
    QVERIFY2(transpose.err.contains("line 3: transpose: dimensions are no permutation of the operand's 2 dimensions"),
             transpose.err.constData());
#endif
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("x/y"));
    QCOMPARE(flintCli({QStringLiteral("import"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/bad_groups.hlo"),
                       QStringLiteral("-o"), out})
                 .exitCode,
             2);
    QVERIFY(!QDir(dir.filePath(QStringLiteral("x"))).exists());
}

void TestCli::inspectStableHloModule()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    const QString module =
        QStringLiteral(FLINT_SHARED_DATA "/stablehlo/resnet_50_train_step_4_devices_1024_batch.mlir");
    if (!QFile::exists(module))
        QSKIP("shared samples not found at " FLINT_SHARED_DATA);
    const Run run = flintCli({QStringLiteral("inspect"), module, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    // The same keys as for HLO: per-rank counts, the device space, warnings.
    QCOMPARE(summary[QStringLiteral("ranks")].toInt(), 4);
    QCOMPARE(summary[QStringLiteral("scope")].toString(), QStringLiteral("per_rank"));
    QCOMPARE(summary[QStringLiteral("replica_count")].toInt(), 4);
    QCOMPARE(summary[QStringLiteral("num_partitions")].toInt(), 1);
    QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(),
             375);
    QCOMPARE(summary[QStringLiteral("warnings")].toArray().size(), 0);
    // Bad MLIR: exit 2 with file, line and column.
    const Run broken =
        flintCli({QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/mlir/bad_pretty.mlir")});
    QCOMPARE(broken.exitCode, 2);
    QVERIFY2(broken.err.contains("bad_pretty.mlir:6: column 53: custom op 'stablehlo.broadcast_in_dim'"),
             broken.err.constData());
#endif
}

void TestCli::importShardyModule()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    const QString module = QStringLiteral(FLINT_SHARED_DATA "/stablehlo/e2e_fsdp_tp_shardy.mlir");
    if (!QFile::exists(module))
        QSKIP("shared samples not found at " FLINT_SHARED_DATA);
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("out/mlp"));
    const Run run = flintCli({QStringLiteral("import"), module, QStringLiteral("-o"), prefix});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("8 ranks (1 replica x 8 partitions), 60 ops per rank"), run.out.constData());
    for (int rank = 0; rank < 8; ++rank)
        QVERIFY(QFile::exists(prefix + QStringLiteral(".%1.et").arg(rank)));
    // Read back: per rank 12 all-gathers, 6 reduce-scatters, 2 all-reduces; summed over 8 ranks.
    const Run back = flintCli({QStringLiteral("inspect"), prefix, QStringLiteral("--json")});
    QCOMPARE(back.exitCode, 0);
    const QJsonObject collectives = json(back)[QStringLiteral("collectives")].toObject();
    QCOMPARE(collectives[QStringLiteral("ALL_GATHER")][QStringLiteral("count")].toInt(), 8 * 12);
    QCOMPARE(collectives[QStringLiteral("REDUCE_SCATTER")][QStringLiteral("count")].toInt(), 8 * 6);
    QCOMPARE(collectives[QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(), 8 * 2);
    // Chakra comm_size of rank 0's all-gathers: 83,780 bytes per rank.
    QCOMPARE(collectives[QStringLiteral("ALL_GATHER")][QStringLiteral("bytes")].toInteger(), qint64(8) * 83780);
#endif
}

void TestCli::benchMlir()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    const QString module = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/mlir/loops.mlir");
    const Run run = flintCli(
        {QStringLiteral("bench"), QStringLiteral("mlir"), module, QStringLiteral("--repeat"), QStringLiteral("1")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("parse + verify + translate"), run.out.constData());
    QVERIFY2(run.out.contains("18 ops per rank, 2 ranks"), run.out.constData());
#endif
}

void TestCli::inspectUnpartitionedHlo()
{
    // A gzip-compressed XLA dump is recognised as HLO; the summary says who partitioned it.
    const QString dump = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/maxtext_dp8_before_optimizations.hlo.gz");
    const Run run = flintCli({QStringLiteral("inspect"), dump, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = json(run);
    QCOMPARE(summary[QStringLiteral("partitioned_by")].toString(), QStringLiteral("flint"));
    QCOMPARE(summary[QStringLiteral("ranks")].toInt(), 8);
    QVERIFY(summary[QStringLiteral("notes")].toArray().first().toString().contains(
        QStringLiteral("partitioned by flint for mesh d0=8")));
    const Run compiler =
        flintCli({QStringLiteral("inspect"), QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/async.hlo"),
                  QStringLiteral("--json")});
    QCOMPARE(json(compiler)[QStringLiteral("partitioned_by")].toString(), QStringLiteral("compiler"));
    // A mesh naming an axis the module's mesh lacks is bad input.
    const Run bad = flintCli({QStringLiteral("inspect"), dump, QStringLiteral("--mesh"), QStringLiteral("x=8")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("not an axis of the module's mesh d0=8"));
}

void TestCli::inspectShardedModuleForMeshes()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    const QString module = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/mlir/sharded_mlp.mlir");
    for (const auto& [mesh, ranks] :
         {std::pair{QStringLiteral("x=4,y=2"), 8}, std::pair{QStringLiteral("x=8,y=16"), 128}}) {
        const Run run =
            flintCli({QStringLiteral("inspect"), module, QStringLiteral("--mesh"), mesh, QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject summary = json(run);
        QCOMPARE(summary[QStringLiteral("ranks")].toInt(), ranks);
        QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_REDUCE")][QStringLiteral("count")].toInt(),
                 2);
        QCOMPARE(summary[QStringLiteral("collectives")][QStringLiteral("ALL_GATHER")][QStringLiteral("count")].toInt(),
                 1);
    }
    const Run bad = flintCli({QStringLiteral("inspect"), module, QStringLiteral("--mesh"), QStringLiteral("x=3")});
    QCOMPARE(bad.exitCode, 2);
#endif
}

void TestCli::builtinModels()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    Run run = flintCli({QStringLiteral("model"), QStringLiteral("list")});
    QCOMPARE(run.exitCode, 0);
    for (const char* name : {"gpt3-175b", "llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b", "deepseek-v3"})
        QVERIFY2(run.out.contains(name), name);
    // An invalid strategy exits 2 and says why and what to try.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("gpt3-175b"),
                    QStringLiteral("--tp"), QStringLiteral("5")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("does not divide the 96 attention heads") && run.err.contains("try TP"),
             run.err.constData());
    // A small estimate as JSON.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--tp"), QStringLiteral("2"),
                    QStringLiteral("--pp"), QStringLiteral("2"), QStringLiteral("--global-batch"), QStringLiteral("4"),
                    QStringLiteral("--seq-len"), QStringLiteral("512"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.err.contains("degrees not given"), run.err.constData()); // --ranks chose the GPUs
    const QJsonObject figures = json(run);
    QCOMPARE(figures.value(QStringLiteral("ranks")).toInt(), 4);
    // A degree alone leaves the others at 1, away from the default layout: a note says so.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--seq-len"), QStringLiteral("512"),
                    QStringLiteral("--global-batch"), QStringLiteral("4"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("degrees not given are 1, so this runs on 2 GPUs"), run.err.constData());
    QVERIFY(figures.value(QStringLiteral("step_time_s")).toDouble() > 0);
    QVERIFY(figures.value(QStringLiteral("mfu")).toDouble() > 0.01 &&
            figures.value(QStringLiteral("mfu")).toDouble() < 1);
    // Under ASTRA-sim's conventions the text says so in its first line.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--global-batch"),
                    QStringLiteral("4"), QStringLiteral("--seq-len"), QStringLiteral("512"),
                    QStringLiteral("--cost-model"), QStringLiteral("astrasim")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.split('\n').value(0).contains("ASTRA-sim cost model"), run.out.constData());
    // Decode serves its default batch at once, and its JSON names what its memory holds.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--phase"), QStringLiteral("decode"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject decode = json(run);
    QCOMPARE(decode.value(QStringLiteral("microbatches")).toInt(), 1);
    QCOMPARE(decode.value(QStringLiteral("microbatch_size")).toInt(), 4);
    QVERIFY(decode.value(QStringLiteral("memory")).toObject().contains(QStringLiteral("kv_cache_bytes")));
    // An option the strategy does not use is said, not dropped silently.
    run =
        flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                  QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--global-batch"), QStringLiteral("4"),
                  QStringLiteral("--seq-len"), QStringLiteral("512"), QStringLiteral("--tp-comm-overlap"),
                  QStringLiteral("--fp8-scaling"), QStringLiteral("current"), QStringLiteral("--fsdp2")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("--tp-comm-overlap has no effect here: there is no tensor parallelism") &&
                 run.err.contains("--fp8-scaling has no effect here") &&
                 run.err.contains("--fsdp2 has no effect here: it applies to ZeRO-3"),
             run.err.constData());
    // A trace that leaves ranks out says so.
    QTemporaryDir traceDir;
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--global-batch"),
                    QStringLiteral("4"), QStringLiteral("--seq-len"), QStringLiteral("512"), QStringLiteral("--trace"),
                    traceDir.filePath(QStringLiteral("t.json")), QStringLiteral("--trace-ranks"), QStringLiteral("2")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("the trace holds ranks 0-1 of 4"), run.err.constData());
    // Without a layout GPT-3 runs as the explorer opens it: 1,024 GPUs, a global batch of 1,536.
    run = flintCli(
        {QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("gpt3-175b"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(json(run).value(QStringLiteral("ranks")).toInt(), 1024);
    QCOMPARE(json(run).value(QStringLiteral("global_batch")).toInt(), 1536);
    // A warning reaches standard error and the document with --json too; the dispatcher is a field.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("mixtral-8x7b"),
                    QStringLiteral("--dp"), QStringLiteral("16"), QStringLiteral("--ep"), QStringLiteral("8"),
                    QStringLiteral("--moe-dispatcher"), QStringLiteral("hybrid-ep"), QStringLiteral("--nvlink-domain"),
                    QStringLiteral("72"), QStringLiteral("--global-batch"), QStringLiteral("16"),
                    QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("warning: HybridEP's NVLink domain of 72 ranks is wider"), run.err.constData());
    QCOMPARE(json(run).value(QStringLiteral("warnings")).toArray().size(), 1);
    const QJsonObject moeParallel = json(run).value(QStringLiteral("parallel")).toObject();
    QCOMPARE(moeParallel.value(QStringLiteral("moe_dispatcher")).toString(), QStringLiteral("HybridEP"));
    QCOMPARE(moeParallel.value(QStringLiteral("nvlink_domain")).toInt(), 72);
    // Memory reads with thousands separators, like every other figure: GPT-3 on one GPU.
    run = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("gpt3-175b"),
                    QStringLiteral("--tp"), QStringLiteral("1")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("GiB of 79.6 GiB -- OUT OF MEMORY") && run.out.contains("optimizer 1,951.2,"),
             run.out.constData());
    // The blocks it compiles, as StableHLO files that flint inspect reads.
    QTemporaryDir dir;
    run = flintCli({QStringLiteral("model"), QStringLiteral("emit"), QStringLiteral("llama3-8b"),
                    QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("-o"), dir.path()});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("llama3-8b.layer_forward.mlir"))));
    run = flintCli({QStringLiteral("inspect"), dir.filePath(QStringLiteral("llama3-8b.layer_forward.mlir"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("REDUCE_SCATTER          2 ops"), run.out.constData());
    // The validation benchmark's small rows run.
    run = flintCli({QStringLiteral("bench"), QStringLiteral("validation"), QStringLiteral("--quick")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("mean absolute percentage error"), run.out.constData());
    // Every measured run fitted its GPUs; the memory rows are compared with published peaks.
    QVERIFY2(run.out.contains("exceeds the device's capacity (marked !): 0 of"), run.out.constData());
    QVERIFY2(run.out.contains("memory: mean absolute percentage error over 5 rows"), run.out.constData());
#endif
}

void TestCli::sweepWritesCsvWithBest()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
    const Run run = flintCli({QStringLiteral("sweep"), QStringLiteral("llama3-8b"), QStringLiteral("--ranks"),
                              QStringLiteral("8"), QStringLiteral("--global-batch"), QStringLiteral("8"),
                              QStringLiteral("--seq-len"), QStringLiteral("512"), QStringLiteral("--vary"),
                              QStringLiteral("tp=1,2,3,8"), QStringLiteral("--csv"), csv});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("* best feasible:"), run.out.constData());
    // Tokens/s as a grouped integer, never in e-notation ("4.697e+05").
    QVERIFY2(!run.out.contains("e+0"), run.out.constData());
    // TP 3 does not divide 8 GPUs: a row that says so. A value no option can take is a typo, and so
    // is a value named twice: the sweep is refused, as a usage error.
    for (const QString& typo : {QStringLiteral("tp=1,x"), QStringLiteral("bandwidth-scale=1,-1"),
                                QStringLiteral("dtype=bf16,fp9"), QStringLiteral("tp=1,2,1")}) {
        const Run refused = flintCli({QStringLiteral("sweep"), QStringLiteral("llama3-8b"), QStringLiteral("--ranks"),
                                      QStringLiteral("8"), QStringLiteral("--vary"), typo});
        QVERIFY2(refused.exitCode == 1, qPrintable(typo + QStringLiteral(": ") + QString::fromUtf8(refused.err)));
        QVERIFY(refused.out.isEmpty());
    }
    QVERIFY2(run.out.contains("invalid"), run.out.constData());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 5); // header + 4 points
    int best = 0;
    for (const QByteArray& line : lines.mid(1))
        best += line.endsWith(",1") ? 1 : 0;
    QCOMPARE(best, 1);
    // Without --global-batch every point runs one batch (the largest default, DP x PP x 4, which
    // every point's DP divides), so that the best point is best at the same work.
    const Run fixed =
        flintCli({QStringLiteral("sweep"), QStringLiteral("llama3-8b"), QStringLiteral("--ranks"), QStringLiteral("8"),
                  QStringLiteral("--seq-len"), QStringLiteral("512"), QStringLiteral("--vary"),
                  QStringLiteral("tp=1,2"), QStringLiteral("--vary"), QStringLiteral("pp=1,2")});
    QCOMPARE(fixed.exitCode, 0);
    QVERIFY2(fixed.out.contains("global batch 32 sequences at every point"), fixed.out.constData());
    // When nothing fits, the sweep names the point that came closest and what it needs.
    const Run none = flintCli({QStringLiteral("sweep"), QStringLiteral("llama3-70b"), QStringLiteral("--ranks"),
                               QStringLiteral("8"), QStringLiteral("--seq-len"), QStringLiteral("512"),
                               QStringLiteral("--vary"), QStringLiteral("tp=4,8")});
    QCOMPARE(none.exitCode, 0);
    QVERIFY2(none.out.contains("no feasible configuration: the leanest, TP 8"), none.out.constData());
#endif
}

void TestCli::sweepComparesTokenDispatchers()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    // A small mixture of experts on two 8-GPU nodes, swept over the dispatcher and the NVLink
    // domain: every combination estimated, the columns as wide as their names, and a domain wider
    // than a node warned about.
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("moe.txt"));
    QFile file(model);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("layers = 2\nhidden = 256\nheads = 4\nvocab = 1024\nseq_len = 256\nexperts = 16\ntop_k = 2\n"
               "expert_ffn = 512\ngated_mlp = true\n");
    file.close();
    const Run run =
        flintCli({QStringLiteral("sweep"), model, QStringLiteral("--ranks"), QStringLiteral("16"),
                  QStringLiteral("--ep"), QStringLiteral("16"), QStringLiteral("--global-batch"), QStringLiteral("16"),
                  QStringLiteral("--vary"), QStringLiteral("moe-dispatcher=alltoall,hybrid-ep"),
                  QStringLiteral("--vary"), QStringLiteral("nvlink-domain=8,16")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("moe-dispatcher nvlink-domain"), run.out.constData());
    QVERIFY2(run.out.contains("hybrid-ep      8"), run.out.constData());
    QVERIFY2(!run.out.contains("invalid"), run.out.constData());
    QVERIFY2(run.out.contains("* best feasible:"), run.out.constData());
    const Run wide =
        flintCli({QStringLiteral("model"), QStringLiteral("estimate"), model, QStringLiteral("--ranks"),
                  QStringLiteral("16"), QStringLiteral("--ep"), QStringLiteral("16"), QStringLiteral("--global-batch"),
                  QStringLiteral("16"), QStringLiteral("--moe-dispatcher"), QStringLiteral("hybrid-ep"),
                  QStringLiteral("--nvlink-domain"), QStringLiteral("16")});
    QCOMPARE(wide.exitCode, 0);
    QVERIFY2(QByteArray(wide.out + wide.err).contains("wider than the cluster's scale-up dimension"),
             wide.err.constData());
#endif
}

void TestCli::fp8ScalingIsAnOptionAndASweep()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without the MLIR frontend");
#else
    // FP8 current scaling reads every tensor it casts once more (its amax): slower than delayed
    // scaling, named in the strategy, sweepable; a misspelt recipe is refused.
    const Run run =
        flintCli({QStringLiteral("sweep"), QStringLiteral("llama3-8b"), QStringLiteral("--ranks"), QStringLiteral("8"),
                  QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--dtype"), QStringLiteral("fp8"),
                  QStringLiteral("--vary"), QStringLiteral("fp8-scaling=delayed,current")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("* delayed"), run.out.constData()); // the faster one
    QVERIFY2(run.out.contains("  current"), run.out.constData());
    const Run bad = flintCli({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("llama3-8b"),
                              QStringLiteral("--dtype"), QStringLiteral("fp8"), QStringLiteral("--fp8-scaling"),
                              QStringLiteral("tensor")});
    QVERIFY(bad.exitCode != 0);
    QVERIFY2(bad.err.contains("--fp8-scaling must be delayed or current"), bad.err.constData());
#endif
}

void TestCli::interruptedImportLeavesNothing()
{
    // SIGINT while import writes its 129 files: the temporary files go with the process.
    const QString module = kSharedData + QStringLiteral("/hlo/hlo_llama31_70b_bf16_16x8.hlo");
    if (!QFileInfo::exists(module))
        QSKIP("../shared/data is not present");
    QTemporaryDir dir;
    QProcess process;
    process.start(QStringLiteral(FLINT_CLI),
                  {QStringLiteral("import"), module, QStringLiteral("-o"), dir.filePath(QStringLiteral("l70"))});
    QVERIFY(process.waitForStarted());
    const QDir folder(dir.path());
    bool writing = false;
    for (int i = 0; i < 600 && !writing && process.state() == QProcess::Running; ++i) {
        QTest::qWait(50);
        writing = !folder.entryList(QDir::Files | QDir::Hidden).isEmpty();
    }
    if (!writing)
        QSKIP("the import finished before any file was seen");
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60'000));
    QCOMPARE(process.exitStatus(), QProcess::CrashExit); // died of SIGINT, as it would without us
    QCOMPARE(folder.entryList(QDir::Files | QDir::Hidden), QStringList());
}

void TestCli::outputsRefuseDevicesAndFullStandardOutput()
{
    const QString trace = QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/astrasim_all_reduce_8npus_1MB");
    // An output that names a device is refused (renaming over it would replace the device), exit 3.
    Run run = flintCli({QStringLiteral("estimate"), trace, QStringLiteral("--csv"), QStringLiteral("/dev/full")});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("not a regular file"), run.err.constData());
    run = flintCli({QStringLiteral("convert"), trace, QStringLiteral("--to"), QStringLiteral("chakra"),
                    QStringLiteral("-o"), QStringLiteral("/dev/full")});
    QCOMPARE(run.exitCode, 3);
    QVERIFY(QFileInfo(QStringLiteral("/dev/full")).exists() && !QFileInfo(QStringLiteral("/dev/full")).isFile());
    QVERIFY(!QFileInfo::exists(QStringLiteral("/dev/full.0.et")));
    // A standard output that cannot take the text (a full disk) is exit 3, not success.
    QProcess process;
    process.setStandardOutputFile(QStringLiteral("/dev/full"));
    process.start(QStringLiteral(FLINT_CLI), {QStringLiteral("inspect"), trace, QStringLiteral("--json")});
    QVERIFY(process.waitForFinished(60'000));
    QCOMPARE(process.exitCode(), 3);
    QVERIFY(process.readAllStandardError().contains("cannot write standard output"));
}

void TestCli::hostileInputsFailCleanly_data()
{
    // Reproducers from ../shared/data/repro (README.md there) that crashed flint: each must now end
    // with exit 2 and a message that names the file and the place.
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString repro = kSharedData + QStringLiteral("/repro/");
    const QString p2p = repro + QStringLiteral("p2p_4rank");
    QTest::newRow("hlo_nested_tuple_30000")
        << QStringList{QStringLiteral("inspect"), repro + QStringLiteral("hlo_nested_tuple_30000.hlo")}
        << QStringLiteral("hlo_nested_tuple_30000.hlo:4: byte offset");
    QTest::newRow("commgroup_nested_100000")
        << QStringList{QStringLiteral("inspect"), p2p, QStringLiteral("--comm-groups"),
                       repro + QStringLiteral("commgroup_nested_100000.json")}
        << QStringLiteral("commgroup_nested_100000.json:1: byte offset");
    QTest::newRow("system_nested_100000") << QStringList{QStringLiteral("estimate"), p2p, QStringLiteral("--system"),
                                                         repro + QStringLiteral("system_nested_100000.json")}
                                          << QStringLiteral("system_nested_100000.json:1: byte offset");
    const auto inspect = [&](const char* file) {
        return QStringList{QStringLiteral("inspect"), repro + QString::fromLatin1(file)};
    };
    QTest::newRow("hlo_negative_dim")
        << inspect("hlo_negative_dim.hlo")
        << QStringLiteral("hlo_negative_dim.hlo:10: column 11: a dimension size must not be negative");
    QTest::newRow("hlo_dim_2p62_squared")
        << inspect("hlo_dim_2p62_squared.hlo") << QStringLiteral("more than 2^48 elements");
    QTest::newRow("hlo_known_trip_count_1e12")
        << inspect("hlo_known_trip_count_1e12.hlo") << QStringLiteral("1000000000000 iterations of 3 ops would exceed");
    QTest::newRow("hlo_counted_loop_init_minus2p62")
        << inspect("hlo_counted_loop_init_minus2p62.hlo") << QStringLiteral("would exceed 5000000 ops per rank");
    // Its mutations also broke an elementwise shape (line 136), which the reader finds first.
    QTest::newRow("hlo_replica_group_2p62")
        << inspect("hlo_replica_group_2p62_badalloc.hlo")
        << QStringLiteral("136: column 96: expected an operand of maximum with the dimensions of its result");
    QTest::newRow("hlo_replica_count_1e9")
        << inspect("hlo_replica_count_1e9.hlo") << QStringLiteral("exceeds 2^20 devices");
    // Two zero bytes, and 10 MB of zeros gzipped to 9.7 KB: empty messages, not millions of nodes.
    QTest::newRow("zeros2") << inspect("zeros2.et")
                            << QStringLiteral("zeros2.et: byte offset 1: an empty Node message");
    QTest::newRow("zeros10M_gz") << inspect("zeros10M.et.gz") << QStringLiteral("an empty Node message");
    QTest::newRow("chakra_comm_size_mismatch")
        << QStringList{QStringLiteral("estimate"), repro + QStringLiteral("chakra_comm_size_mismatch")}
        << QStringLiteral("collective size mismatch: rank 0's 'ar' (id 2, ALL_REDUCE) has comm_size 1048576 bytes, "
                          "rank 1's 'ar' (id 2, ALL_REDUCE) 2097152");
    QTest::newRow("chakra_p2p_size_mismatch")
        << QStringList{QStringLiteral("estimate"), repro + QStringLiteral("chakra_p2p_size_mismatch")}
        << QStringLiteral("send/receive size mismatch: rank 0's 's' (id 1, COMM_SEND_NODE) moves 1048576 bytes");
    QTest::newRow("network_100k_dims") << QStringList{QStringLiteral("estimate"), p2p, QStringLiteral("--cluster"),
                                                      repro + QStringLiteral("network_100k_dims.yml")}
                                       << QStringLiteral("100001 network dimensions; at most 16 are modelled");
    QTest::newRow("chakra_order_inversion_identical_groups")
        << QStringList{QStringLiteral("estimate"), repro + QStringLiteral("chakra_order_inversion_identical_groups")}
        << QStringLiteral("deadlock: 'ar1' (id 1, ALL_REDUCE) on group '1' (ranks [0, 1]) on rank 0 waits for rank 1, "
                          "which never reaches it; rank 1 waits in 'ar2' (id 1, ALL_REDUCE) on group '2'");
    QTest::newRow("chakra_negative_comm_size")
        << QStringList{QStringLiteral("estimate"), repro + QStringLiteral("chakra_negative_comm_size")}
        << QStringLiteral("comm_size -1 is negative");
#ifdef FLINT_HAVE_MLIR
    QTest::newRow("model_file_dev_zero") << QStringList{QStringLiteral("model"), QStringLiteral("show"),
                                                        QStringLiteral("/dev/zero")}
                                         << QStringLiteral("larger than 1 MiB");
    QTest::newRow("model_layers_int64max") << QStringList{QStringLiteral("model"), QStringLiteral("show"),
                                                          repro + QStringLiteral("model_layers_int64max.txt")}
                                           << QStringLiteral("layers must be at most 10,000");
    QTest::newRow("model_vocab_2p62") << QStringList{QStringLiteral("model"), QStringLiteral("estimate"),
                                                     repro + QStringLiteral("model_vocab_2p62_internal_error.txt")}
                                      << QStringLiteral("vocab must be at most 2^24");
    QTest::newRow("seq_len_1e9") << QStringList{QStringLiteral("model"), QStringLiteral("estimate"),
                                                QStringLiteral("llama3-8b"), QStringLiteral("--seq-len"),
                                                QStringLiteral("1000000000")}
                                 << QStringLiteral("more than 2^25 tokens");
    QTest::newRow("mlir_nested_attr_10000")
        << QStringList{QStringLiteral("inspect"), repro + QStringLiteral("mlir_nested_attr_10000.mlir")}
        << QStringLiteral("mlir_nested_attr_10000.mlir:1: column");
    QTest::newRow("mlir_nested_tuple_50000")
        << QStringList{QStringLiteral("inspect"), repro + QStringLiteral("mlir_nested_tuple_50000.mlir")}
        << QStringLiteral("mlir_nested_tuple_50000.mlir:1: column");
    QTest::newRow("mlir_dot_contracting_dim_minus1")
        << QStringList{QStringLiteral("inspect"), repro + QStringLiteral("mlir_dot_contracting_dim_minus1.mlir")}
        << QStringLiteral("line 37: dot: rhs contracting dimension -1");
    QTest::newRow("mlir_dot_batching_dim_2p31")
        << QStringList{QStringLiteral("inspect"), repro + QStringLiteral("mlir_dot_batching_dim_2p31.mlir")}
        << QStringLiteral("line 34: dot: lhs batching dimension 2147483648");
    // MLIR 19 frees a definition that a forward use outside its region was bound to (SEGV, heap
    // corruption); refused before parsing. A 2^64 tiling used to divide by zero.
    QTest::newRow("mlir_heap_corruption")
        << inspect("mlir_heap_corruption.mlir")
        << QStringLiteral("mlir_heap_corruption.mlir:5: column 5: %6 is defined here inside a nested region");
    QTest::newRow("mlir_swapped_lines_segv_min")
        << inspect("mlir_swapped_lines_segv.min.mlir")
        << QStringLiteral("mlir_swapped_lines_segv.min.mlir:6: column 5: %c0 is defined here inside a nested region");
    QTest::newRow("mlir_swapped_lines_segv")
        << inspect("mlir_swapped_lines_segv.mlir")
        << QStringLiteral("mlir_swapped_lines_segv.mlir:15: column 7: %next is defined here");
    QTest::newRow("mlir_sharding_tile_2p64")
        << inspect("mlir_sharding_tile_2p64_sigfpe.mlir")
        << QStringLiteral("mlir_sharding_tile_2p64_sigfpe.mlir:8: column 3: 'func.func': mhlo.sharding");
#endif
}

void TestCli::manyRanksInBoundedMemory()
{
#ifndef FLINT_HAVE_MLIR
    QSKIP("built without MLIR");
#endif
    // 100,000 data-parallel ranks held a member list per rank and slot (10^10 entries; killed at
    // 24 GB); groups are now stored once and bound by index. Here in a 2 GiB address space.
    const auto run =
        flint::tests::runFlint({QStringLiteral("model"), QStringLiteral("estimate"), QStringLiteral("gpt3-175b"),
                                QStringLiteral("--ranks"), QStringLiteral("100000")},
                               300'000, rlim_t{2} << 30);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("TP 1 x PP 1 x DP 100000 = 100000 ranks"), run.out.constData());
}

void TestCli::oddButValidInputsRead()
{
    // A UTF-8 byte-order mark before "HloModule" is read as HLO, not taken for a Chakra trace.
    const QString repro = kSharedData + QStringLiteral("/repro/");
    if (!QFileInfo::exists(repro + QStringLiteral("README.md")))
        QSKIP("../shared/data/repro is not present");
    Run run = flintCli({QStringLiteral("inspect"), repro + QStringLiteral("hlo_with_utf8_bom.hlo")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("schema version:           0.0.4"), run.out.constData());
    // --lenient estimates members that disagree on a collective's size, each with its own.
    run = flintCli(
        {QStringLiteral("estimate"), repro + QStringLiteral("chakra_comm_size_mismatch"), QStringLiteral("--lenient")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("step time:"), run.out.constData());
}

void TestCli::hostileInputsFailCleanly()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    if (!QFileInfo::exists(kSharedData + QStringLiteral("/repro/README.md")))
        QSKIP("../shared/data/repro is not present");
    const Run run = flintCli(arguments);
    QVERIFY2(run.exitCode == 2,
             qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))));
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

QTEST_GUILESS_MAIN(TestCli)
void TestCli::scaleOutBandwidthNeedsANetwork()
{
    // Eight ranks fit in one node of the preset: there is no scale-out network to change, and the
    // edit must not slow the node's NVLink down instead (it did). The topology reads in decimal
    // GB/s, as the options take it.
    const QString estimate = QStringLiteral("estimate");
    const Run plain = flintCli({estimate, kBundled});
    QCOMPARE(plain.exitCode, 0);
    QVERIFY2(plain.out.contains("Switch(8, 370.8 GB/s, 936.25 ns)"), plain.out.constData());
    const Run edited = flintCli({estimate, kBundled, QStringLiteral("--scale-out-bandwidth"), QStringLiteral("5")});
    QCOMPARE(edited.exitCode, 0);
    QVERIFY2(edited.err.contains("--scale-out-bandwidth changes nothing"), edited.err.constData());
    const auto stepLine = [](const QByteArray& out) {
        for (const QByteArray& line : out.split('\n'))
            if (line.startsWith("step time:"))
                return line;
        return QByteArray();
    };
    QVERIFY(!stepLine(plain.out).isEmpty());
    QCOMPARE(stepLine(edited.out), stepLine(plain.out));
    // Across nodes it is the network's: 16 ranks on two nodes slow down at 5 GB/s per GPU.
    const Run wide =
        flintCli({QStringLiteral("model"), estimate, QStringLiteral("llama3-8b"), QStringLiteral("--ranks"),
                  QStringLiteral("16"), QStringLiteral("--scale-out-bandwidth"), QStringLiteral("5")});
    QCOMPARE(wide.exitCode, 0);
    QVERIFY2(wide.out.contains("Switch(2, 5 GB/s, 2000 ns)"), wide.out.constData());
    QVERIFY(!wide.err.contains("changes nothing"));
}

#include "tst_cli.moc"
