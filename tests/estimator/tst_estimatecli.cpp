// SPDX-License-Identifier: MIT
// End-to-end tests of `flint estimate` and `flint bench estimate`.
#include "support/clirun.h"

#include <cmath>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kConfigs = QStringLiteral(FLINT_SHARED_DATA "/chakra/astrasim_configs");
const QString kBundled =
    QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/astrasim_all_reduce_8npus_1MB/all_reduce");

using Run = flint::tests::CliRun;

Run flintCli(const QStringList& arguments)
{
    return flint::tests::runFlint(arguments);
}

} // namespace

class TestEstimateCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jsonMatchesAstraSim();
    void costModelSpellings();
    void writesTraceCsvAndMatrix();
    void exitStatuses_data();
    void exitStatuses();
    void listsPresets();
    void benchmarkRuns();
};

void TestEstimateCli::jsonMatchesAstraSim()
{
    if (!QFile::exists(kConfigs + QStringLiteral("/Ring_8npus.yml")))
        QSKIP("../shared/data is absent: ASTRA-sim sample configurations not available");
    const Run run = flintCli({QStringLiteral("estimate"), kBundled, QStringLiteral("--cluster"),
                              kConfigs + QStringLiteral("/Ring_8npus.yml"), QStringLiteral("--system"),
                              kConfigs + QStringLiteral("/Ring_4chunks.json"), QStringLiteral("--model"),
                              QStringLiteral("astrasim"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(std::llround(json.value(QStringLiteral("step_time_s")).toDouble() * 1e9), 64440ll);
    const QJsonArray ranks = json.value(QStringLiteral("ranks")).toArray();
    QCOMPARE(ranks.size(), 8);
    for (const QJsonValue v : ranks) {
        const QJsonObject r = v.toObject();
        for (const char* key : {"rank", "finish_s", "compute_s", "exposed_comm_s", "idle_s"})
            QVERIFY2(r.contains(QLatin1String(key)), key);
        QCOMPARE(std::llround(r.value(QStringLiteral("exposed_comm_s")).toDouble() * 1e9), 64440ll);
    }
}

void TestEstimateCli::costModelSpellings()
{
    // --cost-model is the name every command with cluster options takes; estimate keeps --model.
    const auto stepNs = [](const Run& run) {
        return std::llround(QJsonDocument::fromJson(run.out).object().value(QStringLiteral("step_time_s")).toDouble() *
                            1e9);
    };
    const QStringList base{QStringLiteral("estimate"), kBundled, QStringLiteral("--json")};
    const Run flint = flintCli(base);
    const Run spelled = flintCli(base + QStringList{QStringLiteral("--cost-model"), QStringLiteral("astrasim")});
    const Run older = flintCli(base + QStringList{QStringLiteral("--model"), QStringLiteral("astrasim")});
    QCOMPARE(spelled.exitCode, 0);
    QCOMPARE(older.exitCode, 0);
    QCOMPARE(stepNs(spelled), stepNs(older));
    QVERIFY(stepNs(spelled) != stepNs(flint)); // the option took effect
    const Run both = flintCli(base + QStringList{QStringLiteral("--model"), QStringLiteral("astrasim"),
                                                 QStringLiteral("--cost-model"), QStringLiteral("flint")});
    QCOMPARE(both.exitCode, 1); // a usage error
    QVERIFY2(both.err.contains("give one"), both.err.constData());
    const Run bad = flintCli(base + QStringList{QStringLiteral("--cost-model"), QStringLiteral("ns3")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains("--cost-model must be"), bad.err.constData());
}

void TestEstimateCli::writesTraceCsvAndMatrix()
{
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("trace.json"));
    const QString csv = dir.filePath(QStringLiteral("breakdown.csv"));
    const QString matrix = dir.filePath(QStringLiteral("matrix.csv"));
    const Run run = flintCli({QStringLiteral("estimate"), kBundled, QStringLiteral("--trace"), trace,
                              QStringLiteral("--csv"), csv, QStringLiteral("--matrix"), matrix});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("step time:"));
    QFile traceFile(trace);
    QVERIFY(traceFile.open(QIODevice::ReadOnly));
    const QJsonArray events =
        QJsonDocument::fromJson(traceFile.readAll()).object().value(QStringLiteral("traceEvents")).toArray();
    int flows = 0;
    for (const QJsonValue v : events)
        flows += v.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("t");
    QCOMPARE(flows, 6); // one all-reduce over 8 ranks: s, 6 x t, f
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    QCOMPARE(csvFile.readAll().count('\n'), 9);
    QFile matrixFile(matrix);
    QVERIFY(matrixFile.open(QIODevice::ReadOnly));
    QCOMPARE(matrixFile.readAll().count('\n'), 9); // header + 8 ring neighbours
}

void TestEstimateCli::exitStatuses_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("status");
    QTest::newRow("missing_workload") << QStringList{QStringLiteral("estimate")} << 1;
    QTest::newRow("unknown_cluster") << QStringList{QStringLiteral("estimate"), kBundled, QStringLiteral("--cluster"),
                                                    QStringLiteral("no-such-cluster")}
                                     << 1;
    QTest::newRow("unknown_device") << QStringList{QStringLiteral("estimate"), kBundled, QStringLiteral("--device"),
                                                   QStringLiteral("Z80")}
                                    << 1;
    QTest::newRow("missing_trace") << QStringList{QStringLiteral("estimate"), QStringLiteral("/nonexistent/trace")}
                                   << 2;
    QTest::newRow("cluster_too_small") << QStringList{QStringLiteral("estimate"), kBundled, QStringLiteral("--cluster"),
                                                      QStringLiteral(FLINT_TEST_DATA "/ring4.yml")}
                                       << 2;
    QTest::newRow("unwritable_trace") << QStringList{QStringLiteral("estimate"), kBundled, QStringLiteral("--trace"),
                                                     QStringLiteral("/nonexistent/dir/trace.json")}
                                      << 3;
}

void TestEstimateCli::exitStatuses()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, status);
    const Run run = flintCli(arguments);
    QCOMPARE(run.exitCode, status);
    QVERIFY(!run.err.isEmpty());
}

void TestEstimateCli::listsPresets()
{
    const Run run = flintCli({QStringLiteral("estimate"), QStringLiteral("--list")});
    QCOMPARE(run.exitCode, 0);
    for (const char* name : {"dgx-h100-ib", "tpu-v5p-torus", "MI300X", "B200", "TPUv5p"})
        QVERIFY2(run.out.contains(name), name);
}

void TestEstimateCli::benchmarkRuns()
{
    const Run run = flintCli({QStringLiteral("bench"), QStringLiteral("estimate"), QStringLiteral("--quick")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("rank-ops/s"));
}

QTEST_GUILESS_MAIN(TestEstimateCli)
#include "tst_estimatecli.moc"
