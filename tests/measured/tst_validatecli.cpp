// SPDX-License-Identifier: MIT
// End-to-end tests of `flint validate`, and of `flint inspect` and `flint estimate` on measured runs.
#include "support/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
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
    void xlaOpsArePairedByHloName();
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
    // Measured on A100s (the trace's deviceProperties) and estimated on an A100 cluster: no warning;
    // on the default H100 cluster, said.
    QVERIFY2(!run.err.contains("measured on NVIDIA"), run.err.constData());
    const auto onH100 = flintCli({QStringLiteral("validate"), prefix, kDdp});
    QCOMPARE(onH100.exitCode, 0);
    QVERIFY2(onH100.err.contains("warning: the run was measured on NVIDIA A100-PG509-200, the estimate prices "
                                 "modelled work on H100"),
             onH100.err.constData());
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

void TestValidateCli::xlaOpsArePairedByHloName()
{
    // An HLO module and an XLA trace of it on 2 TPUs, as `--xla_dump_to` and `jax.profiler` write them:
    // the trace names its ops by HLO instruction, so each op is held against its own measurement;
    // what XLA ran beyond the module (a copy) is listed as measured only.
    QTemporaryDir dir;
    const QString module = dir.filePath(QStringLiteral("step.hlo"));
    const QString trace = dir.filePath(QStringLiteral("step.trace.json"));
    const auto write = [](const QString& path, const QByteArray& text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    };
    write(module, "HloModule jit_step, replica_count=2\n\n"
                  "%sum (a: f32[], b: f32[]) -> f32[] {\n"
                  "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
                  "  ROOT %add = f32[] add(%a, %b)\n}\n\n"
                  "ENTRY %main (x: f32[128,256], w: f32[256,256]) -> f32[128,256] {\n"
                  "  %x = f32[128,256]{1,0} parameter(0)\n  %w = f32[256,256]{1,0} parameter(1)\n"
                  "  %dot.1 = f32[128,256]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                  "  %all-reduce.2 = f32[128,256]{1,0} all-reduce(%dot.1), replica_groups={{0,1}}, to_apply=%sum\n"
                  "  ROOT %tanh.3 = f32[128,256]{1,0} tanh(%all-reduce.2)\n}\n");
    QByteArray events;
    for (int device = 0; device < 2; ++device) {
        const QByteArray pid = QByteArray::number(device + 1);
        const auto op = [&](const char* name, int ts, int dur, const QByteArray& args = {}) {
            events += ", {\"ph\": \"X\", \"pid\": " + pid + ", \"tid\": 3, \"name\": \"" + name +
                      "\", \"ts\": " + QByteArray::number(ts) + ", \"dur\": " + QByteArray::number(dur) +
                      (args.isEmpty() ? QByteArray() : ", \"args\": " + args) + "}";
        };
        events += QByteArray(device == 0 ? "" : ", ") + "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + pid +
                  ", \"args\": {\"name\": \"/device:TPU:" + QByteArray::number(device) +
                  "\"}}, {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " + pid +
                  ", \"tid\": 2, \"args\": {\"name\": \"XLA Modules\"}}, {\"ph\": \"M\", \"name\": \"thread_name\", "
                  "\"pid\": " +
                  pid + ", \"tid\": 3, \"args\": {\"name\": \"XLA Ops\"}}";
        events +=
            ", {\"ph\": \"X\", \"pid\": " + pid + ", \"tid\": 2, \"name\": \"jit_step(3)\", \"ts\": 0, \"dur\": 100}";
        op("dot.1", 1, 20);
        op("all-reduce.2", 22, 30,
           "{\"hlo_category\": \"all-reduce\", \"long_name\": \"%all-reduce.2 = f32[128,256]{1,0} "
           "all-reduce(f32[128,256]{1,0} %dot.1), replica_groups={{0,1}}, to_apply=%sum\"}");
        op("tanh.3", 53, 5);
        op("copy.4", 60, 3);
    }
    write(trace, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [" + events + "]}");
    const QString json = dir.filePath(QStringLiteral("v.json"));
    const QString csv = dir.filePath(QStringLiteral("ops.csv"));
    const auto run = flintCli(
        {QStringLiteral("validate"), module, trace, QStringLiteral("--json"), json, QStringLiteral("--ops-csv"), csv});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("ops by name on rank 0: 3 names on both sides"), run.out.constData());
    // Measured on TPUs, estimated on the default GPU cluster: said, not silently compared.
    QVERIFY2(run.err.contains("warning: the run was measured on TPUs, the estimate is for H100"), run.err.constData());
    QVERIFY2(run.out.contains("only measured: 1 ops of 1 names, 3.0 us: copy.4"), run.out.constData());
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject v = QJsonDocument::fromJson(file.readAll()).object();
    QMap<QString, QJsonObject> ops;
    for (const QJsonValue row : v.value(QStringLiteral("ops")).toArray())
        ops[row.toObject().value(QStringLiteral("name")).toString()] = row.toObject();
    QCOMPARE(ops.keys(), (QStringList{QStringLiteral("all-reduce.2"), QStringLiteral("copy.4"), QStringLiteral("dot.1"),
                                      QStringLiteral("tanh.3")}));
    for (const char* name : {"dot.1", "all-reduce.2", "tanh.3"}) {
        const QJsonObject row = ops[QString::fromLatin1(name)];
        QCOMPARE(row.value(QStringLiteral("measured_count")).toInt(), 1);
        QCOMPARE(row.value(QStringLiteral("workload_count")).toInt(), 1);
        QVERIFY(row.value(QStringLiteral("estimated_s")).toDouble() > 0);
    }
    QCOMPARE(std::llround(ops[QStringLiteral("all-reduce.2")].value(QStringLiteral("measured_s")).toDouble() * 1e6),
             30ll);
    QCOMPARE(ops[QStringLiteral("copy.4")].value(QStringLiteral("workload_count")).toInt(), 0);
    QVERIFY(ops[QStringLiteral("copy.4")].value(QStringLiteral("error_pct")).isNull()); // one side only
    QVERIFY(ops[QStringLiteral("dot.1")].value(QStringLiteral("error_pct")).isDouble());
    for (const QJsonValue row : v.value(QStringLiteral("categories")).toArray())
        if (row.toObject().value(QStringLiteral("category")).toString() == QStringLiteral("all-reduce"))
            QCOMPARE(row.toObject().value(QStringLiteral("measured_count")).toInt(), 1);
    QFile table(csv);
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QByteArray text = table.readAll();
    QVERIFY2(text.startsWith("name,measured_count,workload_count,measured_s,estimated_s,error_pct\n"),
             text.constData());
    QVERIFY2(text.contains("\ncopy.4,1,0,3e-06,0,\n"), text.constData()); // one side only: no error
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
    // A profile estimated on another GPU than it was measured on says so, as validate does; not on
    // the GPU it names.
    const auto onH100 = flintCli({QStringLiteral("estimate"), kDdp});
    QCOMPARE(onH100.exitCode, 0);
    QVERIFY2(onH100.err.contains("warning: the run was measured on NVIDIA A100-PG509-200, the estimate prices "
                                 "modelled work on H100 (dgx-h100-ib): --device A100"),
             onH100.err.constData());
    const auto onA100 =
        flintCli({QStringLiteral("estimate"), kDdp, QStringLiteral("--device"), QStringLiteral("A100")});
    QCOMPARE(onA100.exitCode, 0);
    QVERIFY2(!onA100.err.contains("measured on"), onA100.err.constData());
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
    // A run of more ranks than the workload is a size mismatch, not a cluster too small for the run.
    QTest::newRow("run_larger_than_workload")
        << QStringList{QStringLiteral("validate"), kDdp, kMixed4} << 2
        << QStringLiteral(
               "the workload has 2 ranks, the measured run 4: validate a workload against a run of the same size");
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
