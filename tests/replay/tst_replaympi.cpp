// SPDX-License-Identifier: MIT
// `flint replay` and distributed `flint sweep` under mpirun, 2 to 8 processes on this machine.
#include "core/chakra.h"
#include "core/estimator/topology.h"
#include "support/clirun.h"

#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace flint::core;

namespace {

const QString kMicrobenchmark = QStringLiteral(FLINT_SHARED_DATA "/chakra/astrasim_all_reduce_8npus_1MB/all_reduce");
const QString kLlama2 = QStringLiteral(FLINT_SHARED_DATA "/hlo/llama2_dp1_tp4_pp2.hlo.txt");

#ifdef FLINT_HAVE_MPI
/// `mpirun -np N flint ARGUMENTS...` on this machine: shared memory only, more processes than cores
/// allowed, as root too (CI runs as root), and without the single-copy mechanism that containers
/// without ptrace rights refuse.
flint::tests::CliRun mpiFlint(int processes, const QStringList& arguments, int timeoutMs = 300'000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    process.setProcessEnvironment(env);
    QStringList all = {QStringLiteral("--oversubscribe"),
                       QStringLiteral("--mca"),
                       QStringLiteral("btl"),
                       QStringLiteral("self,vader"),
                       QStringLiteral("--mca"),
                       QStringLiteral("btl_vader_single_copy_mechanism"),
                       QStringLiteral("none"),
                       QStringLiteral("-np"),
                       QString::number(processes),
                       QStringLiteral(FLINT_CLI)};
    all += arguments;
    process.start(QStringLiteral(FLINT_MPIEXEC), all);
    return flint::tests::waitForRun(process, timeoutMs);
}
#endif

} // namespace

class TestReplayMpi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void microbenchmarkMovesExactlyItsBytes();
    void hloSampleReplaysAndValidates();
    void builtInModelReplays();
    void refusesAWorldThatDoesNotFit();
    void refusesBuffersAboveTheLimit();
    void refusesWhatWouldHang();
    void distributedSweepGivesTheSameTable();
    void calibrationWritesANetworkTheEstimatorReads();
};

void TestReplayMpi::initTestCase()
{
#ifndef FLINT_HAVE_MPI
    QSKIP("flint was built without MPI (libopenmpi-dev): flint replay and distributed sweeps are not tested");
#endif
}

void TestReplayMpi::microbenchmarkMovesExactlyItsBytes()
{
#ifdef FLINT_HAVE_MPI
    if (!QFile::exists(kMicrobenchmark + QStringLiteral(".0.et")))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    QTemporaryDir dir;
    // A missing folder in the prefix is created when the run is written.
    const QString prefix = dir.filePath(QStringLiteral("new/ar"));
    const auto run = mpiFlint(8, {QStringLiteral("replay"), kMicrobenchmark, QStringLiteral("-o"), prefix});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("replayed all_reduce: 8 ranks on 8 MPI processes"), run.out.constData());
    QVERIFY(run.out.contains("all-reduce"));
    // The files hold the bytes each process handed to MPI (count x type size at the call): exactly
    // the workload's 1 MiB per rank, and each all-reduce's measured time.
    const Workload input = readChakraWorkload(kMicrobenchmark.toStdString());
    const Workload replayed = readChakraWorkload(prefix.toStdString());
    QCOMPARE(replayed.rankCount(), std::size_t{8});
    for (std::size_t r = 0; r < 8; ++r) {
        const Program& program = replayed.programOf(r);
        QCOMPARE(program.ops.size(), input.programOf(r).ops.size());
        std::size_t collectives = 0;
        for (std::size_t i = 0; i < program.ops.size(); ++i) {
            if (program.ops[i].kind != OpKind::Collective)
                continue;
            ++collectives;
            QCOMPARE(program.ops[i].commBytes, std::uint64_t{1048576});
            QVERIFY(replayed.durationOf(r, i) > 0);
        }
        QCOMPARE(collectives, std::size_t{1});
    }
    QFile trace(prefix + QStringLiteral(".trace.json"));
    QVERIFY(trace.open(QIODevice::ReadOnly));
    QVERIFY(!QJsonDocument::fromJson(trace.readAll()).isNull());
    // The replay is a measured run for `flint validate`.
    const auto validate = flint::tests::runFlint({QStringLiteral("validate"), kMicrobenchmark, prefix});
    QVERIFY2(validate.exitCode == 0, validate.err.constData());
    QVERIFY(validate.out.contains("replayed (all measured)"));
    QVERIFY(validate.err.contains("recorded times, 8 ranks"));
#endif
}

void TestReplayMpi::hloSampleReplaysAndValidates()
{
#ifdef FLINT_HAVE_MPI
    if (!QFile::exists(kLlama2))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("llama2"));
    const auto run = mpiFlint(8, {QStringLiteral("replay"), kLlama2, QStringLiteral("-o"), prefix});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("all-gather"));
    const Workload replayed = readChakraWorkload(prefix.toStdString());
    QCOMPARE(replayed.rankCount(), std::size_t{8});
    // Every rank ran every op, in time order of its dependencies.
    for (std::size_t r = 0; r < 8; ++r) {
        const Program& program = replayed.programOf(r);
        const auto index = program.indexById();
        for (std::size_t i = 0; i < program.ops.size(); ++i)
            for (std::uint64_t dep : program.ops[i].dataDeps) {
                const auto it = index.find(dep);
                if (it == index.end())
                    continue;
                QVERIFY(replayed.startOf(r, it->second) + replayed.durationOf(r, it->second) <=
                        replayed.startOf(r, i) + replayed.durationOf(r, i));
            }
    }
#endif
}

void TestReplayMpi::builtInModelReplays()
{
#if defined(FLINT_HAVE_MPI) && defined(FLINT_HAVE_MLIR)
    // Every parallel dimension on 8 ranks; compute and bytes scaled down so that 8 processes on a
    // 2-core machine finish in seconds.
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("model"));
    const auto run =
        mpiFlint(8, {QStringLiteral("replay"), QStringLiteral("--model"), QStringLiteral("llama3-8b"),
                     QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--pp"), QStringLiteral("2"),
                     QStringLiteral("--dp"), QStringLiteral("2"), QStringLiteral("--seq-len"), QStringLiteral("256"),
                     QStringLiteral("--compute-scale"), QStringLiteral("0.001"), QStringLiteral("--byte-scale"),
                     QStringLiteral("0.01"), QStringLiteral("-o"), prefix});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("bytes scaled by 0.01"));
    QVERIFY(run.out.contains("send"));
    QVERIFY(run.out.contains("reduce-scatter"));
    const Workload replayed = readChakraWorkload(prefix.toStdString());
    QCOMPARE(replayed.rankCount(), std::size_t{8});
    // The scale is written into the files.
    bool noted = false;
    for (const Attribute& a : replayed.programOf(0).metadataAttributes)
        noted = noted || (a.name == "flint_replay" && a.asString().find("byte scale 0.01") != std::string::npos);
    QVERIFY(noted);
#else
    QSKIP("needs MPI and the MLIR frontend");
#endif
}

void TestReplayMpi::refusesAWorldThatDoesNotFit()
{
#ifdef FLINT_HAVE_MPI
    if (!QFile::exists(kMicrobenchmark + QStringLiteral(".0.et")))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    const auto run = mpiFlint(2, {QStringLiteral("replay"), kMicrobenchmark});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("the workload has 8 ranks") && run.err.contains("mpirun -np 8"), run.err.constData());
    // Said once, by rank 0.
    QCOMPARE(run.err.count("the workload has 8 ranks"), 1);
#endif
}

void TestReplayMpi::refusesBuffersAboveTheLimit()
{
#ifdef FLINT_HAVE_MPI
    if (!QFile::exists(kMicrobenchmark + QStringLiteral(".0.et")))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("ar"));
    const auto run = mpiFlint(8, {QStringLiteral("replay"), kMicrobenchmark, QStringLiteral("--max-buffer"),
                                  QStringLiteral("64k"), QStringLiteral("-o"), prefix});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("needs a buffer of 1048576 bytes") && run.err.contains("--byte-scale"),
             run.err.constData());
    QVERIFY(!QFile::exists(prefix + QStringLiteral(".0.et")));
    // A folder that cannot be created (a file is in its way) is refused before the replay, once.
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const auto blocked = mpiFlint(8, {QStringLiteral("replay"), kMicrobenchmark, QStringLiteral("-o"),
                                      dir.filePath(QStringLiteral("file/sub/ar"))});
    QVERIFY2(blocked.exitCode != 0 && blocked.err.count("is not a folder") == 1, blocked.err.constData());
#endif
}

void TestReplayMpi::refusesWhatWouldHang()
{
#ifdef FLINT_HAVE_MPI
    // Two groups with the same members issued in opposite orders, and members that disagree on a
    // size: MPI would hang or fail mid-run; the estimator, run first, names the ops.
    const QString repro = QStringLiteral(FLINT_SHARED_DATA "/repro/");
    if (!QFile::exists(repro + QStringLiteral("chakra_order_inversion_identical_groups/t.0.et")))
        QSKIP("shared data not found: " FLINT_SHARED_DATA);
    const auto inverted =
        mpiFlint(2, {QStringLiteral("replay"), repro + QStringLiteral("chakra_order_inversion_identical_groups")});
    QCOMPARE(inverted.exitCode, 2);
    QVERIFY2(inverted.err.contains("deadlock: 'ar1'"), inverted.err.constData());
    const auto mismatch = mpiFlint(4, {QStringLiteral("replay"), repro + QStringLiteral("chakra_comm_size_mismatch")});
    QCOMPARE(mismatch.exitCode, 2);
    QVERIFY2(mismatch.err.contains("collective size mismatch"), mismatch.err.constData());
    // A wait that outlasts --stall-timeout ends the job with the ops waited in, and writes nothing.
    QTemporaryDir dir;
    const QString prefix = dir.filePath(QStringLiteral("stalled"));
    const auto stalled = mpiFlint(8, {QStringLiteral("replay"), kMicrobenchmark, QStringLiteral("--stall-timeout"),
                                      QStringLiteral("0.000001"), QStringLiteral("-o"), prefix});
    QVERIFY(stalled.exitCode != 0);
    QVERIFY2(stalled.err.contains("made no progress for 1e-06 s, waiting in 'all_reduce_8npus_1MB'"),
             stalled.err.constData());
    QVERIFY(!QFile::exists(prefix + QStringLiteral(".0.et")));
#endif
}

void TestReplayMpi::distributedSweepGivesTheSameTable()
{
#if defined(FLINT_HAVE_MPI) && defined(FLINT_HAVE_MLIR)
    // 64 points, some invalid, some out of memory, dealt out to 4 processes.
    QTemporaryDir dir;
    const QStringList sweep = {QStringLiteral("sweep"),   QStringLiteral("llama3-8b"),
                               QStringLiteral("--ranks"), QStringLiteral("64"),
                               QStringLiteral("--vary"),  QStringLiteral("tp=1,2,4,8,16,32,64,3"),
                               QStringLiteral("--vary"),  QStringLiteral("microbatch-size=1,2,3,4,5,6,7,8")};
    const auto one =
        flint::tests::runFlint(sweep + QStringList{QStringLiteral("--csv"), dir.filePath(QStringLiteral("one.csv"))});
    QCOMPARE(one.exitCode, 0);
    const auto four =
        mpiFlint(4, sweep + QStringList{QStringLiteral("--csv"), dir.filePath(QStringLiteral("four.csv"))});
    QVERIFY2(four.exitCode == 0, four.err.constData());
    QCOMPARE(four.out, one.out);
    QCOMPARE(one.out.count('\n'), 68); // title, batch, header, 64 points, best
    QVERIFY2(one.out.contains("global batch: each point's default"), one.out.constData());
    QFile a(dir.filePath(QStringLiteral("one.csv"))), b(dir.filePath(QStringLiteral("four.csv")));
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll());
#else
    QSKIP("needs MPI and the MLIR frontend");
#endif
}

void TestReplayMpi::calibrationWritesANetworkTheEstimatorReads()
{
#ifdef FLINT_HAVE_MPI
    QTemporaryDir dir;
    const QString network = dir.filePath(QStringLiteral("net.yml"));
    const auto run = mpiFlint(2, {QStringLiteral("calibrate"), QStringLiteral("--cluster"),
                                  QStringLiteral("dgx-h100-ib"), QStringLiteral("--ranks"), QStringLiteral("16"),
                                  QStringLiteral("--repetitions"), QStringLiteral("4"), QStringLiteral("-o"), network});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("dimension 1 (rank 0 <-> 1, 2 hops)"), run.out.constData());
    const Topology t = readNetworkYaml(network.toStdString());
    QCOMPARE(t.npuCount(), std::int64_t{16});
    QVERIFY(t.dims[0].bandwidthGBps > 0);
    QCOMPARE(t.dims[1].latencyNs, 2000.0); // across nodes: no rank there among 2 processes, kept
    const auto single = flint::tests::runFlint({QStringLiteral("calibrate"), QStringLiteral("-o"), network});
    QCOMPARE(single.exitCode, 1);
    QVERIFY(single.err.contains("2 or more processes"));
#endif
}

QTEST_GUILESS_MAIN(TestReplayMpi)
#include "tst_replaympi.moc"
