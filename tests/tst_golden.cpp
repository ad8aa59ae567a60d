// SPDX-License-Identifier: MIT
// Golden tests: every output format flint writes (inspect --json, DOT, Chakra JSON, Perfetto,
// estimate JSON and CSV, model and sweep output) on real inputs, compared byte for byte with the
// files in tests/golden. An intended change regenerates them with scripts/update-golden.sh and the
// diff is reviewed in the commit; an unintended one fails here with the first differing line.
#include "support/clirun.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace flint;

class TestGolden : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void golden_data();
    void golden();
};

namespace {

const QString kShared = QStringLiteral(FLINT_SHARED_DATA);
const QString kSource = QStringLiteral(FLINT_SOURCE_DIR);
const QString kGolden = QStringLiteral(FLINT_SOURCE_DIR "/tests/golden");

/// `text` with the machine's paths replaced by placeholders, so that the files hold no checkout path.
QByteArray normalised(QByteArray text, const QString& out)
{
    text.replace(out.toUtf8(), "{OUT}");
    text.replace(QDir(kShared).canonicalPath().toUtf8(), "{SHARED}");
    text.replace(kShared.toUtf8(), "{SHARED}");
    text.replace(kSource.toUtf8(), "{SOURCE}");
    return text;
}

/// The 1-based number and text of the first line where `a` and `b` differ.
QString firstDifference(const QByteArray& expected, const QByteArray& actual)
{
    const QList<QByteArray> e = expected.split('\n');
    const QList<QByteArray> a = actual.split('\n');
    for (qsizetype i = 0; i < std::max(e.size(), a.size()); ++i) {
        const QByteArray left = i < e.size() ? e[i] : QByteArray("<end of file>");
        const QByteArray right = i < a.size() ? a[i] : QByteArray("<end of file>");
        if (left != right)
            return QStringLiteral("line %1\n  expected: %2\n  actual:   %3")
                .arg(i + 1)
                .arg(QString::fromUtf8(left.left(300)), QString::fromUtf8(right.left(300)));
    }
    return {};
}

} // namespace

void TestGolden::golden_data()
{
    // name: the golden file; arguments: {SHARED}, {SOURCE} and {OUT} (a file the command writes,
    // compared instead of standard output) are replaced; needs: "shared" (../shared/data), "mlir".
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("needs");
    const auto add = [](const char* name, const char* arguments, const char* needs = "") {
        QTest::newRow(name) << QString::fromUtf8(arguments) << QString::fromUtf8(needs);
    };
    const char* allReduce = "{SOURCE}/resources/examples/astrasim_all_reduce_8npus_1MB";
    const std::string ar = allReduce;
    add("inspect_allreduce.json", ("inspect --json " + ar).c_str());
    add("inspect_megatron.json", "inspect --json {SHARED}/hlo/sharding_megatron-lm.hlo.txt", "shared");
    add("inspect_model_par_3d.json", "inspect --json {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt",
        "shared");
    add("inspect_fsdp_tp_shardy.json", "inspect --json {SHARED}/stablehlo/e2e_fsdp_tp_shardy.mlir", "shared mlir");
    add("megatron.dot", "convert {SHARED}/hlo/sharding_megatron-lm.hlo.txt --to dot -o {OUT}", "shared");
    add("allreduce.chakra.json", ("convert " + ar + " --to json -o {OUT}").c_str());
    add("fsdp.chakra.json", "convert {SHARED}/hlo/sharding_fsdp.hlo.txt --to json -o {OUT}", "shared");
    add("allreduce.astrasim.estimate.json", ("estimate " + ar + " --cluster astrasim-ring --json").c_str());
    add("model_par_3d.estimate.json", "estimate {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt --json",
        "shared");
    add("model_par_3d.breakdown.csv", "estimate {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt --csv {OUT}",
        "shared");
    add("model_par_3d.matrix.csv", "estimate {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt --matrix {OUT}",
        "shared");
    add("model_par_3d.logical-matrix.csv",
        "estimate {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt --logical-matrix {OUT}", "shared");
    add("model_par_3d.perfetto.json", "estimate {SHARED}/hlo/model_par_3d.after_optimizations_8_gpus.txt --trace {OUT}",
        "shared");
    add("llama3-8b.model.json", "model estimate llama3-8b --ranks 8 --tp 2 --seq-len 1024 --global-batch 8 --json",
        "mlir");
    add("llama3-8b.model.txt", "model estimate llama3-8b --ranks 16 --tp 2 --pp 2 --seq-len 1024 --global-batch 16",
        "mlir");
    add("llama3-8b.sweep.csv",
        "sweep llama3-8b --ranks 8 --seq-len 1024 --global-batch 8 --vary tp=1,2,3,4 --csv {OUT}", "mlir");
}

void TestGolden::golden()
{
    QFETCH(QString, arguments);
    QFETCH(QString, needs);
    if (needs.contains(QStringLiteral("shared")) && !QDir(kShared).exists())
        QSKIP("the shared samples (../shared/data) are not there");
#if !defined(FLINT_HAVE_MLIR)
    if (needs.contains(QStringLiteral("mlir")))
        QSKIP("built without the MLIR frontend");
#endif
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out"));
    QStringList args;
    for (QString a : arguments.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        args << a.replace(QStringLiteral("{SHARED}"), kShared)
                    .replace(QStringLiteral("{SOURCE}"), kSource)
                    .replace(QStringLiteral("{OUT}"), out);
    const tests::CliRun run = tests::runFlint(args);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QByteArray actual = run.out;
    if (arguments.contains(QStringLiteral("{OUT}"))) {
        QFile file(out);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(out));
        actual = file.readAll();
    }
    actual = normalised(actual, out);
    const QString golden = kGolden + QLatin1Char('/') + QString::fromUtf8(QTest::currentDataTag());
    if (qEnvironmentVariableIsSet("FLINT_UPDATE_GOLDEN")) {
        QFile file(golden);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(actual);
        return;
    }
    QFile file(golden);
    QVERIFY2(file.open(QIODevice::ReadOnly),
             qPrintable(golden + QStringLiteral(" is missing: run scripts/update-golden.sh and review it")));
    const QByteArray expected = file.readAll();
    if (expected != actual) {
        // Kept for a look or a diff: the build folder's copy of what the command wrote.
        QFile kept(QDir(QCoreApplication::applicationDirPath())
                       .filePath(QString::fromUtf8(QTest::currentDataTag()) + QStringLiteral(".actual")));
        if (kept.open(QIODevice::WriteOnly | QIODevice::Truncate))
            kept.write(actual);
        QFAIL(qPrintable(QStringLiteral("%1 differs from flint %2 at %3\n(what it wrote: %4; if the change is "
                                        "intended, run scripts/update-golden.sh and review the diff)")
                             .arg(golden, arguments, firstDifference(expected, actual), kept.fileName())));
    }
}

QTEST_MAIN(TestGolden)
#include "tst_golden.moc"
