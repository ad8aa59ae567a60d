// SPDX-License-Identifier: MIT
// End-to-end tests of `flint validate`, and of `flint inspect` and `flint estimate` on measured runs.
#include "support/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kDdp = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/hta/nccl_parser_config/nccl_data.json.gz");
const QString kMixed4 = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/torch/mixed4");

flint::tests::CliRun flintCli(const QStringList& arguments)
{
    return flint::tests::runFlint(arguments);
}

} // namespace

class TestValidateCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void validatesARunAgainstItsExport();
    void inspectAndReplay();
    void exitStatuses_data();
    void exitStatuses();
};

void TestValidateCli::validatesARunAgainstItsExport()
{
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("ddp"));
    QCOMPARE(flintCli({QStringLiteral("convert"), kDdp, QStringLiteral("--to"), QStringLiteral("chakra"),
                       QStringLiteral("-o"), prefix})
                 .exitCode,
             0);
    const QString json = dir.filePath(QStringLiteral("v.json"));
    const QString csv = dir.filePath(QStringLiteral("v.csv"));
    const auto run =
        flintCli({QStringLiteral("validate"), prefix, kDdp, QStringLiteral("--cluster"), QStringLiteral("dgx-a100-ib"),
                  QStringLiteral("--json"), json, QStringLiteral("--csv"), csv});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("all-reduce"), run.out.constData());
    QVERIFY(run.out.contains("replayed (all measured)"));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject v = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject step = v.value(QStringLiteral("step")).toObject();
    QCOMPARE(std::llround(step.value(QStringLiteral("measured_s")).toDouble() * 1e9), 222442191ll);
    QVERIFY(std::abs(step.value(QStringLiteral("replayed_error_pct")).toDouble()) < 1.0);
    for (const QJsonValue row : v.value(QStringLiteral("categories")).toArray())
        QCOMPARE(row.toObject().value(QStringLiteral("measured_count")).toInt(),
                 row.toObject().value(QStringLiteral("workload_count")).toInt());
    QVERIFY(QFile::exists(csv));
}

void TestValidateCli::inspectAndReplay()
{
    const auto inspect = flintCli({QStringLiteral("inspect"), kMixed4, QStringLiteral("--json")});
    QCOMPARE(inspect.exitCode, 0);
    const QJsonObject summary = QJsonDocument::fromJson(inspect.out).object();
    QCOMPARE(summary.value(QStringLiteral("ranks")).toInt(), 4);
    const auto replay =
        flintCli({QStringLiteral("estimate"), kMixed4, QStringLiteral("--timing"), QStringLiteral("recorded"),
                  QStringLiteral("--comm-timing"), QStringLiteral("recorded"), QStringLiteral("--step"),
                  QStringLiteral("2"), QStringLiteral("--json")});
    QCOMPARE(replay.exitCode, 0);
    const double step = QJsonDocument::fromJson(replay.out).object().value(QStringLiteral("step_time_s")).toDouble();
    QVERIFY2(std::abs(step - 0.047691) < 0.05 * 0.047691,
             qPrintable(QString::number(step))); // ProfilerStep#2 of rank 2
}

void TestValidateCli::exitStatuses_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::newRow("one_argument") << QStringList{QStringLiteral("validate"), kDdp} << 1
                                  << QStringLiteral("expected WORKLOAD and MEASURED");
    QTest::newRow("not_a_profile") << QStringList{QStringLiteral("validate"), kDdp,
                                                  QStringLiteral(FLINT_SOURCE_DIR
                                                                 "/resources/examples/astrasim_all_reduce_8npus_1MB")}
                                   << 2 << QStringLiteral("not a measured run");
    QTest::newRow("missing_step") << QStringList{QStringLiteral("inspect"), kDdp, QStringLiteral("--step"),
                                                 QStringLiteral("12")}
                                  << 2 << QStringLiteral("has no ProfilerStep#12 (steps: 4, 5, 6)");
    QTest::newRow("bad_comm_timing") << QStringList{QStringLiteral("estimate"), kDdp, QStringLiteral("--comm-timing"),
                                                    QStringLiteral("fast")}
                                     << 1 << QStringLiteral("--comm-timing must be model or recorded");
}

void TestValidateCli::exitStatuses()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, status);
    QFETCH(QString, message);
    const auto run = flintCli(arguments);
    QCOMPARE(run.exitCode, status);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

QTEST_GUILESS_MAIN(TestValidateCli)
#include "tst_validatecli.moc"
