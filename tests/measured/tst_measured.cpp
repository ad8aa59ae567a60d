// SPDX-License-Identifier: MIT
// Measured profiles: the JSON scanner, the PyTorch profiler reader, a run as a workload, validation.
// Counts below were taken from the files with an independent Python script (json/gzip only); see
// tests/data/measured/PROVENANCE.md and tests/data/measured/torch/README.md.
#include "core/chakra.h"
#include "core/detail/jsonscanner.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#include "core/fileio.h"
#include "core/measured/measuredworkload.h"
#include "core/measured/profile.h"
#include "core/measured/validation.h"

#include <cmath>
#include <fstream>

#include <QTemporaryDir>
#include <QTest>

using namespace flint::core;
using namespace flint::core::measured;

namespace {

const std::string kData = FLINT_SOURCE_DIR "/tests/data/measured";
const std::string kDdp = kData + "/hta/nccl_parser_config/nccl_data.json.gz";
const std::string kAmd = kData + "/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const std::string kSampled = kData + "/hta/trace_filter";
const std::string kDp2 = kData + "/torch/dp2";
const std::string kMixed4 = kData + "/torch/mixed4";
const std::string kTpu = kData + "/xla/vllm_tpu_inference_2xtpu/t1v-n-9eb622fc-w-0.trace.json.gz";

std::size_t countKind(const RankProfile& p, ProfileEventKind kind)
{
    return static_cast<std::size_t>(
        std::count_if(p.events.begin(), p.events.end(), [kind](const ProfileEvent& e) { return e.kind == kind; }));
}

std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.path().toStdString() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// Runs `f`, which must throw InputError; returns its message.
template <typename F>
std::string inputError(F f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

Cluster testCluster(std::int64_t ranks)
{
    return *clusterPreset("dgx-h100-ib", ranks);
}

std::shared_ptr<const EstimateResult> replay(const Workload& w)
{
    EstimateOptions options;
    options.timing = ComputeTiming::Recorded;
    options.recordedCommunication = true;
    return estimate(w, testCluster(static_cast<std::int64_t>(w.rankCount())), options);
}

} // namespace

class TestMeasured : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scannerReadsAndSkips();
    void scannerErrorsHaveAPlace_data();
    void scannerErrorsHaveAPlace();
    void readsKinetoNcclTrace();
    void readsRocmTrace();
    void ddpStepAsWorkload();
    void replayReproducesMeasuredSteps_data();
    void replayReproducesMeasuredSteps();
    void gapsAndWaitsByHand();
    void legacyCpuTracesWithGloo();
    void missingRanksMirrorRecordedOnes();
    void unnamedGroupsPairByEndTime();
    void validationCountsMatchOwnExport();
    void absurdNumbersAreIgnoredOrRefused();
    void xlaTraceOfTwoTpus();
    void xlaStepsAreExecutionsOfTheStepProgram();
    void emptyStringsAreValues();
    void malformedProfiles_data();
    void malformedProfiles();
};

void TestMeasured::scannerReadsAndSkips()
{
    const std::string text = R"({"a": [1, 2.5, {"x": "y\"z"}], "b": "caf\u00e9\n", "c": -3e2, "d": "42", "e": null})";
    detail::JsonScanner json(text, "t.json");
    json.enterObject();
    bool first = true;
    std::string_view key;
    std::string scratch, valueScratch;
    std::vector<std::string> keys;
    while (json.nextMember(first, key, scratch)) {
        keys.emplace_back(key);
        if (key == "a") {
            json.skipValue();
        } else if (key == "b") {
            QCOMPARE(std::string(json.string(valueScratch)), std::string("caf\xC3\xA9\n"));
        } else if (key == "c") {
            QCOMPARE(json.number(), -300.0);
        } else if (key == "d") {
            QCOMPARE(json.integer(), std::int64_t{42}); // numbers written as strings
        } else {
            QVERIFY(json.isNull());
        }
    }
    QVERIFY(json.atEnd());
    QCOMPARE(keys, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
}

void TestMeasured::scannerErrorsHaveAPlace_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<QString>("reason");
    QTest::newRow("truncated") << QStringLiteral("[1, 2, {\"a\": ") << 13 << QStringLiteral("truncated");
    QTest::newRow("unclosed_string") << QStringLiteral("[\"abc") << 1 << QStringLiteral("not closed");
    QTest::newRow("bad_separator") << QStringLiteral("[1 2]") << 3 << QStringLiteral("expected ','");
    QTest::newRow("deep") << (QStringLiteral("[").repeated(5000) + QStringLiteral("]").repeated(5000)) << 1000
                          << QStringLiteral("nested deeper");
    QTest::newRow("bad_literal") << QStringLiteral("[nul]") << 1 << QStringLiteral("unexpected");
}

void TestMeasured::scannerErrorsHaveAPlace()
{
    QFETCH(QString, text);
    QFETCH(int, offset);
    QFETCH(QString, reason);
    const std::string bytes = text.toStdString();
    detail::JsonScanner json(bytes, "bad.json");
    try {
        json.skipValue();
        QFAIL("no error");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), std::string("bad.json"));
        QVERIFY(e.byteOffset().has_value());
        QCOMPARE(static_cast<int>(*e.byteOffset()), offset);
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
    }
}

void TestMeasured::readsKinetoNcclTrace()
{
    const RankProfile p = readProfile(kDdp);
    QCOMPARE(p.producer, std::string("PyTorch profiler (Kineto)"));
    QCOMPARE(p.rank, 0);
    QCOMPARE(p.worldSize, 2);
    QCOMPARE(p.backend, std::string("nccl"));
    QCOMPARE(p.processGroups.size(), std::size_t{1});
    QCOMPARE(p.processGroups[0].ranks, (std::vector<std::int32_t>{0, 1}));
    // ph X by category: cpu_op 14346, cuda_runtime 8740, gpu_memcpy 960, gpu_memset 114, kernel 2700,
    // user_annotation 42 (Trace and gpu_user_annotation are not kept).
    QCOMPARE(countKind(p, ProfileEventKind::CpuOp), std::size_t{14346});
    QCOMPARE(countKind(p, ProfileEventKind::Runtime), std::size_t{8740});
    QCOMPARE(countKind(p, ProfileEventKind::Memcpy), std::size_t{960});
    QCOMPARE(countKind(p, ProfileEventKind::Memset), std::size_t{114});
    QCOMPARE(countKind(p, ProfileEventKind::Kernel), std::size_t{2700});
    QCOMPARE(countKind(p, ProfileEventKind::Annotation), std::size_t{42});
    QCOMPARE(p.events.size(), std::size_t{26902});
    // 27 record_param_comms and 21 NCCL kernels carry PyTorch's collective arguments.
    QCOMPARE(p.collectives.size(), std::size_t{48});
    const auto example = std::find_if(p.events.begin(), p.events.end(), [&](const ProfileEvent& e) {
        return e.kind == ProfileEventKind::Kernel && e.collective >= 0 && e.correlation == 60047;
    });
    QVERIFY(example != p.events.end());
    const ProfileCollective& c = p.collectives[static_cast<std::size_t>(example->collective)];
    QCOMPARE(c.name, std::string("allreduce"));
    QCOMPARE(c.inElements, std::int64_t{6637568});
    QCOMPARE(c.dtype, DType::F32);
    QCOMPARE(c.groupRanks, (std::vector<std::int32_t>{0, 1}));
    QCOMPARE(example->duration, 2636.669);
}

void TestMeasured::readsRocmTrace()
{
    const RankProfile p = readProfile(kAmd);
    QVERIFY(p.rocm);
    QCOMPARE(p.events.size(), std::size_t{110}); // cpu_op 70, runtime 21, memcpy 2, kernel 14, annotation 3
    const MeasuredWorkload w = readMeasuredWorkload(kAmd);
    QCOMPARE(w.step, std::int64_t{1});
    QCOMPARE(w.ranks.size(), std::size_t{1});
    QCOMPARE(w.ranks[0].kernels, std::uint64_t{14});
    QCOMPARE(w.ranks[0].memcpys, std::uint64_t{2});
    QVERIFY(w.producer.find("ROCm") != std::string::npos);
    QCOMPARE(std::llround(w.stepSeconds() * 1e9), 9288291ll); // the ProfilerStep#1 marker, 9,288.291 us
}

void TestMeasured::ddpStepAsWorkload()
{
    const MeasuredWorkload w = readMeasuredWorkload(kDdp);
    QCOMPARE(w.step, std::int64_t{4}); // the first of #4..#6
    QCOMPARE(w.workload.rankCount(), std::size_t{2});
    const MeasuredRank& r = w.ranks[0];
    QCOMPARE(r.kernels, std::uint64_t{893}); // 900 kernels in the step, 7 of them NCCL
    QCOMPARE(r.memcpys, std::uint64_t{320});
    QCOMPARE(r.memsets, std::uint64_t{38});
    QCOMPARE(r.collectives, std::uint64_t{7});
    QVERIFY(r.device);
    QCOMPARE(std::llround(r.stepSeconds * 1e9), 222442191ll);
    std::map<CollectiveKind, int> kinds;
    std::uint64_t allReduceBytes = 0;
    for (const Op& op : w.workload.programOf(0).ops)
        if (op.kind == OpKind::Collective) {
            ++kinds[op.collective];
            if (op.collective == CollectiveKind::AllReduce)
                allReduceBytes += op.commBytes;
            QCOMPARE(w.workload.membersOf(0, op), (std::vector<std::int32_t>{0, 1}));
        }
    QCOMPARE(kinds[CollectiveKind::AllReduce], 5);
    QCOMPARE(kinds[CollectiveKind::Broadcast], 2);
    // The five gradient buckets of the step, float32: 2,049,000 + 7,875,584 + 6,563,840 + 6,637,568 +
    // 2,431,040 elements.
    QCOMPARE(allReduceBytes, std::uint64_t{102228128});
    QVERIFY(w.workload.validate().empty());
    // Rank 1 has no profile: it runs rank 0's program.
    QCOMPARE(w.workload.ranks[1].program, w.workload.ranks[0].program);
    QVERIFY(w.ranks[1].file.empty());
}

void TestMeasured::replayReproducesMeasuredSteps_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("step");
    QTest::newRow("ddp_nccl_step4") << QString::fromStdString(kDdp) << 4;
    QTest::newRow("ddp_nccl_step5") << QString::fromStdString(kDdp) << 5;
    QTest::newRow("ddp_nccl_step6") << QString::fromStdString(kDdp) << 6;
    QTest::newRow("rocm_step1") << QString::fromStdString(kAmd) << 1;
    QTest::newRow("gloo_dp2_step1") << QString::fromStdString(kDp2) << 1;
    QTest::newRow("gloo_dp2_step2") << QString::fromStdString(kDp2) << 2;
    QTest::newRow("gloo_mixed4_step1") << QString::fromStdString(kMixed4) << 1;
    QTest::newRow("gloo_mixed4_step2") << QString::fromStdString(kMixed4) << 2;
    QTest::newRow("xla_tpu_whole_trace") << QString::fromStdString(kTpu) << -1;
    // 2 of 128 ranks, no process groups recorded: paired by end time (was 670.7 ms against 607.9 ms
    // when paired in issue order).
    QTest::newRow("sampled_step551") << QString::fromStdString(kSampled) << 551;
    QTest::newRow("sampled_step552") << QString::fromStdString(kSampled) << 552;
}

void TestMeasured::replayReproducesMeasuredSteps()
{
    QFETCH(QString, path);
    QFETCH(int, step);
    MeasuredOptions options;
    options.step = step;
    const MeasuredWorkload w = readMeasuredWorkload(path.toStdString(), options);
    if (step < 0)
        QCOMPARE(w.step, std::int64_t{-1});
    const double measured = w.stepSeconds();
    const double replayed = replay(w.workload)->stepTime;
    QVERIFY2(measured > 0, "no measured step");
    QVERIFY2(std::fabs(replayed - measured) / measured < 0.05,
             qPrintable(QStringLiteral("replayed %1 s, measured %2 s").arg(replayed).arg(measured)));
}

void TestMeasured::gapsAndWaitsByHand()
{
    // Step 1000-1100 us. gemm 1010-1030 (launched 1005), an all-reduce of 1 Mi bf16 on stream 9
    // 1030-1060 (launched 1012, after the gemm's launch), the optimizer kernel 1062-1080 on the compute
    // stream: it starts 2 us after the all-reduce ended, on an idle stream, so it waited for it.
    const std::string trace = R"json({"distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 1000, "dur": 100},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1005, "dur": 2, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1010, "dur": 20, "args": {"correlation": 1, "stream": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 1011, "dur": 3, "args": {"Collective name": "allreduce", "In msg nelems": 1048576, "dtype": "BFloat16", "Group size": 1, "Process Group Ranks": "[0]"}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1012, "dur": 1, "args": {"correlation": 2}},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)", "pid": 0, "tid": 9, "ts": 1030, "dur": 30, "args": {"correlation": 2, "stream": 9}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1015, "dur": 1, "args": {"correlation": 3}},
 {"ph": "X", "cat": "kernel", "name": "optimizer", "pid": 0, "tid": 7, "ts": 1062, "dur": 18, "args": {"correlation": 3, "stream": 7}}
]})json";
    QTemporaryDir dir;
    const MeasuredWorkload w = readMeasuredWorkload(writeFile(dir, "rank0.json", trace));
    QCOMPARE(w.step, std::int64_t{3});
    const std::vector<Op>& ops = w.workload.programOf(0).ops;
    QCOMPARE(ops.size(), std::size_t{6});
    // Dependencies: data (what an op reads: the compute a collective's stream waits for, a collective
    // a kernel waited for) and control (the op before it on its stream), drawn solid and dashed.
    const auto check = [&](std::size_t i, const char* name, std::uint64_t start, std::uint64_t duration,
                           const std::vector<std::uint64_t>& data, const std::vector<std::uint64_t>& order) {
        QCOMPARE(ops[i].name, std::string(name));
        QCOMPARE(ops[i].startTimeMicros, start);
        QCOMPARE(ops[i].durationMicros, duration);
        QCOMPARE(ops[i].dataDeps, data);
        QCOMPARE(ops[i].ctrlDeps, order);
    };
    check(0, "host gap", 0, 10, {}, {});
    check(1, "gemm", 10, 20, {}, {0});
    check(2, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)", 30, 30, {1}, {});
    check(3, "host gap", 60, 2, {2}, {1}); // waits for the all-reduce, after the gemm on its stream
    check(4, "optimizer", 62, 18, {}, {3});
    check(5, "host gap", 80, 20, {}, {4}); // host time to the end of the step marker
    QCOMPARE(ops[2].kind, OpKind::Collective);
    QCOMPARE(ops[2].commBytes, std::uint64_t{2097152});
    QCOMPARE(measuredKindOf(ops[0]), std::optional<MeasuredKind>(MeasuredKind::HostGap));
    QCOMPARE(measuredKindOf(ops[1]), std::optional<MeasuredKind>(MeasuredKind::Kernel));
    // A gap sits in the scope of the op it delayed (the last one: of the op it follows), so a
    // stream's ops stay one chain in the graph view.
    QCOMPARE(ops[0].scope, std::string("stream 7"));
    QCOMPARE(ops[2].scope, std::string("stream 9"));
    QCOMPARE(ops[3].scope, std::string("stream 7"));
    QCOMPARE(ops[5].scope, std::string("stream 7"));
    QCOMPARE(std::llround(w.ranks[0].hostGapSeconds * 1e6), 32ll);
    const auto replayed = replay(w.workload);
    QCOMPARE(std::llround(replayed->stepTime * 1e6), 100ll);
    // The breakdown counts the gaps as the device waiting, not computing: compute is the gemm and the
    // optimizer (38 us); the all-reduce runs while the stream is idle (30 us exposed); the rest idle.
    const RankBreakdown& b = replayed->ranks[0];
    QCOMPARE(std::llround(b.host * 1e6), 32ll);
    QCOMPARE(std::llround(b.compute * 1e6), 38ll);
    QCOMPARE(std::llround(b.exposedComm * 1e6), 30ll);
    QCOMPARE(std::llround(b.idle * 1e6), 32ll);
}

void TestMeasured::legacyCpuTracesWithGloo()
{
    // Debian's torch 1.13 has no Kineto: a bare array of host events without categories or arguments.
    const RankProfile p = readProfile(kDp2 + "/rank0.json.gz");
    QCOMPARE(p.events.size(), std::size_t{482});
    QCOMPARE(p.rank, -1);
    const MeasuredWorkload dp2 = readMeasuredWorkload(kDp2);
    QCOMPARE(dp2.workload.rankCount(), std::size_t{2});
    QCOMPARE(dp2.step, std::int64_t{1});
    for (std::size_t r = 0; r < 2; ++r) {
        QVERIFY(!dp2.ranks[r].device);
        QCOMPARE(dp2.ranks[r].collectives, std::uint64_t{2}); // two DDP buckets, gloo:all_reduce
    }
    QVERIFY(!dp2.warnings.empty()); // no message sizes in a legacy trace
    MeasuredOptions step2;
    step2.step = 2;
    const MeasuredWorkload mixed = readMeasuredWorkload(kMixed4, step2);
    QCOMPARE(mixed.workload.rankCount(), std::size_t{4});
    for (std::size_t r = 0; r < 4; ++r) {
        std::map<std::string, int> categories;
        for (const Op& op : mixed.workload.programOf(r).ops)
            if (measuredKindOf(op) == MeasuredKind::Communication)
                ++categories[categoryOf(op)];
        // Per step: all-reduce x3 (world, subgroup, async), all-gather, broadcast, reduce, all-to-all,
        // one send and one receive (gloo records neither peer nor size).
        const std::map<std::string, int> expected{{"all-reduce", 3}, {"all-gather", 1}, {"broadcast", 1}, {"reduce", 1},
                                                  {"all-to-all", 1}, {"send", 1},       {"recv", 1}};
        QCOMPARE(categories, expected);
    }
}

void TestMeasured::missingRanksMirrorRecordedOnes()
{
    const MeasuredWorkload w = readMeasuredWorkload(kSampled);
    QCOMPARE(w.workload.rankCount(), std::size_t{128});
    QCOMPARE(w.step, std::int64_t{551});
    QCOMPARE(w.ranks[0].kernels, std::uint64_t{572}); // 577 kernels, 5 of them NCCL SendRecv
    QCOMPARE(w.ranks[1].kernels, std::uint64_t{547});
    QCOMPARE(w.ranks[0].memcpys, std::uint64_t{20});
    QCOMPARE(w.ranks[0].memsets, std::uint64_t{5});
    QCOMPARE(w.ranks[0].collectives, std::uint64_t{5});
    QCOMPARE(w.workload.ranks[64].program, w.workload.ranks[0].program);
    QCOMPARE(w.workload.ranks[65].program, w.workload.ranks[1].program);
    QVERIFY(std::any_of(w.notes.begin(), w.notes.end(), [](const flint::core::Message& n) {
        return n.text().find("2 of 128 ranks recorded") != std::string::npos;
    }));
    QVERIFY(w.workload.validate().empty());
    // The trace names no process groups, and ranks 0 and 1 issue their all-to-alls in other orders
    // (rank 0 a plain one first, rank 1 a pooled one): by end time, 3 of the 5 collectives of step
    // 551 end together on both ranks (the pooled all-to-all at 108.5 ms, an all-reduce at 228 ms, the
    // all-gather at 548 ms); the other two of each rank run on groups the other rank is not in.
    QVERIFY(std::any_of(w.notes.begin(), w.notes.end(), [](const flint::core::Message& n) {
        return n.text().find(
                   "3 collectives end together on every recorded rank; 4 (counted on each rank) have no partner") !=
               std::string::npos;
    }));
    for (std::size_t r : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
        std::map<std::size_t, int> bySize; // group size -> collectives
        std::vector<std::int32_t> mirrors;
        const Program& program = w.workload.programOf(r);
        for (const Op& op : program.ops)
            if (op.isCommunication()) {
                const auto& members = w.workload.groupOf(r, op)->ranks;
                ++bySize[members.size()];
                if (members.size() == 64)
                    mirrors = members;
            }
        QCOMPARE(bySize, (std::map<std::size_t, int>{{64, 2}, {128, 3}}));
        // The ranks that run this rank's program: its parity.
        QVERIFY(std::all_of(mirrors.begin(), mirrors.end(),
                            [r](std::int32_t m) { return static_cast<std::size_t>(m) % 2 == r % 2; }));
    }
    // Every collective of the three paired keeps the shorter of the two ranks' durations.
    const Program& rank0 = w.workload.programOf(0);
    std::vector<std::uint64_t> paired, bytes;
    std::vector<CollectiveKind> kinds;
    for (const Op& op : rank0.ops)
        if (op.isCommunication() && w.workload.groupOf(0, op)->ranks.size() == 128) {
            paired.push_back(op.durationMicros);
            bytes.push_back(op.commBytes);
            kinds.push_back(op.collective);
        }
    QCOMPARE(paired, (std::vector<std::uint64_t>{57924, 8370, 42496}));
    // Each as the framework's record says, though NCCL ran all three on SendRecv kernels: the pooled
    // all-to-all of 419,430,400 bytes, nccl:all_reduce of 19,618,307 floats, _all_gather_base of
    // 16,777,216 int8.
    QCOMPARE(kinds, (std::vector<CollectiveKind>{CollectiveKind::AllToAll, CollectiveKind::AllReduce,
                                                 CollectiveKind::AllGather}));
    QCOMPARE(bytes, (std::vector<std::uint64_t>{419430400, 78473228, 16777216}));
    QVERIFY(w.warnings.empty()); // every collective's size is recorded
}

void TestMeasured::unnamedGroupsPairByEndTime()
{
    // World 4, ranks 0 and 1 recorded, gloo collectives without groups. Rank 1 issues one more than
    // rank 0, first: it ends long before any of rank 0's, so it has no partner there.
    const auto rankFile = [](int rank, const std::vector<std::pair<int, int>>& collectives) {
        std::string events = "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, "
                             "\"tid\": 1, \"ts\": 0, \"dur\": 1000}";
        for (const auto& [ts, dur] : collectives)
            events += ", {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"gloo:all_reduce\", \"pid\": 1, \"tid\": 2, "
                      "\"ts\": " +
                      std::to_string(ts) + ", \"dur\": " + std::to_string(dur) + "}";
        return "{\"distributedInfo\": {\"rank\": " + std::to_string(rank) + ", \"world_size\": 4}, \"traceEvents\": [" +
               events + "]}";
    };
    std::vector<RankProfile> profiles;
    profiles.push_back(parseProfile(rankFile(0, {{100, 50}, {300, 100}}), "rank0.json"));
    profiles.push_back(parseProfile(rankFile(1, {{20, 30}, {120, 31}, {380, 21}}), "rank1.json"));
    const MeasuredWorkload w = measuredWorkload(profiles);
    QVERIFY(w.workload.validate().empty());
    const auto groupsOf = [&](std::size_t r) {
        std::vector<std::vector<std::int32_t>> groups;
        for (const Op& op : w.workload.programOf(r).ops)
            if (op.isCommunication())
                groups.push_back(w.workload.groupOf(r, op)->ranks);
        return groups;
    };
    const std::vector<std::int32_t> all{0, 1, 2, 3};
    QCOMPARE(groupsOf(0), (std::vector<std::vector<std::int32_t>>{all, all}));
    QCOMPARE(groupsOf(1), (std::vector<std::vector<std::int32_t>>{{1, 3}, all, all}));
    QCOMPARE(groupsOf(3), groupsOf(1));
    QVERIFY(std::any_of(w.notes.begin(), w.notes.end(), [](const flint::core::Message& n) {
        return n.text().find(
                   "2 collectives end together on every recorded rank; 1 (counted on each rank) have no partner") !=
               std::string::npos;
    }));
    // Transfers: the shorter duration of each pair.
    std::vector<std::uint64_t> durations;
    for (const Op& op : w.workload.programOf(1).ops)
        if (op.isCommunication())
            durations.push_back(op.durationMicros);
    QCOMPARE(durations, (std::vector<std::uint64_t>{30, 31, 21}));

    // The same with both ranks of a world of 2 recorded is a disagreement: nothing may mirror them.
    profiles[0] = parseProfile(rankFile(0, {{100, 50}, {300, 100}}), "rank0.json");
    profiles[1] = parseProfile(rankFile(1, {{20, 30}, {120, 31}, {380, 21}}), "rank1.json");
    for (RankProfile& p : profiles)
        p.worldSize = 2;
    const std::string message = inputError([&] { measuredWorkload(profiles); });
    QVERIFY2(message.find("ranks disagree") != std::string::npos, message.c_str());
}

void TestMeasured::validationCountsMatchOwnExport()
{
    const MeasuredWorkload run = readMeasuredWorkload(kDdp);
    QTemporaryDir dir;
    const std::string prefix = dir.path().toStdString() + "/ddp";
    writeChakraWorkload(run.workload, prefix);
    const Workload exported = readChakraWorkload(prefix);
    const Cluster cluster = testCluster(2);
    EstimateOptions options;
    const auto estimated = estimate(exported, cluster, options);
    EstimateOptions compute = options;
    compute.timing = ComputeTiming::Recorded;
    const auto measuredCompute = estimate(run.workload, cluster, compute);
    const Validation v = validate(exported, *estimated, run, *replay(run.workload), *measuredCompute);
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> counts;
    for (const CategoryRow& row : v.categories) {
        QCOMPARE(row.workloadCount, row.measuredCount);
        counts[row.category] = {row.measuredCount, row.workloadCount};
    }
    QCOMPARE(counts["kernel"].first, std::uint64_t{893});
    QCOMPARE(counts["memcpy"].first, std::uint64_t{320});
    QCOMPARE(counts["memset"].first, std::uint64_t{38});
    QCOMPARE(counts["all-reduce"].first, std::uint64_t{5});
    QCOMPARE(counts["broadcast"].first, std::uint64_t{2});
    QCOMPARE(v.collectives.size(), std::size_t{7});
    for (const CollectiveRow& c : v.collectives)
        QCOMPARE(c.workloadBytes, c.measuredBytes);
    QVERIFY(std::fabs(v.replayedStep - v.measuredStep) / v.measuredStep < 0.01);
    QVERIFY(v.hostGapSeconds > 0.1); // a host-bound toy: the GPU waited 183 ms of 222 ms
    QVERIFY(validationText(v).find("all-reduce") != std::string::npos);
    QVERIFY(validationCsv(v).starts_with("category,measured_count,workload_count"));
    // The export keeps every op's name: each name pairs with itself, as often on both sides.
    QVERIFY(v.ops.size() > 10);
    for (const OpRow& row : v.ops)
        QVERIFY2(row.matched() && row.workloadCount == row.measuredCount, row.name.c_str());
    QVERIFY(validationOpsCsv(v).starts_with("name,measured_count,workload_count"));
}

void TestMeasured::emptyStringsAreValues()
{
    // "" is a value like any other: the next member must not be skipped in its place.
    const RankProfile p = parseProfile(
        R"({"distributedInfo": {"backend": "", "rank": 0}, "traceEvents": [{"ph": "X", "cat": "", "name": "op", "ts": 1, "dur": 2}, {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "ts": 3, "dur": 1, "args": {"Collective name": "", "Process Group Name": "", "Process Group Description": "", "In msg nelems": 4}}]})",
        "empty.json");
    QCOMPARE(p.rank, 0);
    QCOMPARE(p.events.size(), std::size_t{2});
    QCOMPARE(p.events[0].kind, ProfileEventKind::CpuOp); // no category: the legacy layout's host op
    QCOMPARE(p.events[1].collective, -1);                // an empty collective name is no record
}

void TestMeasured::xlaTraceOfTwoTpus()
{
    // A JAX profile of vLLM serving on 2 TPU chips: one file, each device a rank; ops named by HLO
    // instruction, collectives sized and grouped from their HLO text.
    const RankProfile p = readProfile(kTpu);
    QVERIFY(p.xla);
    QCOMPARE(p.devices.size(), std::size_t{2});
    const MeasuredWorkload w = readMeasuredWorkload(kTpu);
    QCOMPARE(w.workload.rankCount(), std::size_t{2});
    QCOMPARE(w.step, std::int64_t{-1});
    QVERIFY(w.warnings.empty());
    QCOMPARE(w.deviceKind, std::string("TPU")); // "/device:TPU:0"
    QCOMPARE(w.producer, std::string("XLA profiler (JAX/TensorFlow) on TPU"));
    for (std::size_t r = 0; r < 2; ++r) {
        // XLA Ops per chip: 3,454, of which 129 all-reduces and 2 all-gathers.
        QCOMPARE(w.ranks[r].kernels, std::uint64_t{3323});
        QCOMPARE(w.ranks[r].collectives, std::uint64_t{131});
        std::map<CollectiveKind, int> kinds;
        for (const Op& op : w.workload.programOf(r).ops)
            if (op.kind == OpKind::Collective) {
                ++kinds[op.collective];
                QCOMPARE(w.workload.membersOf(r, op), (std::vector<std::int32_t>{0, 1})); // [1,2]<=[2]
            }
        QCOMPARE(kinds[CollectiveKind::AllReduce], 129);
        QCOMPARE(kinds[CollectiveKind::AllGather], 2);
    }
    const auto first = std::find_if(w.workload.programOf(0).ops.begin(), w.workload.programOf(0).ops.end(),
                                    [](const Op& op) { return op.name == "all-reduce.1"; });
    QVERIFY(first != w.workload.programOf(0).ops.end());
    QCOMPARE(first->commBytes, std::uint64_t{1024 * 5120 * 2}); // bf16[1024,5120]
    QCOMPARE(first->dtype, DType::BF16);
}

void TestMeasured::xlaStepsAreExecutionsOfTheStepProgram()
{
    // A JAX training loop on one TPU: its step program runs three times, 100 us apart, a logging
    // program after each. A step is one period of the step program, the logging it runs included;
    // --step picks the execution, one beyond those recorded is refused with the count.
    std::string events = R"j({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "/device:TPU:0"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "XLA Modules"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 3, "args": {"name": "XLA Ops"}})j";
    for (int k = 0; k < 3; ++k) {
        const std::string t = std::to_string(100 * k);
        const std::string n = std::to_string(k);
        events +=
            R"j(, {"ph": "X", "pid": 1, "tid": 2, "name": "jit_train_step(7)", "ts": )j" + t + R"j(, "dur": 80})j";
        events += R"j(, {"ph": "X", "pid": 1, "tid": 3, "name": "fusion.)j" + n + R"j(", "ts": )j" + t +
                  R"j(.5, "dur": 60})j";
        events +=
            R"j(, {"ph": "X", "pid": 1, "tid": 3, "name": "dot.)j" + n + R"j(", "ts": )j" + t + R"j(.5, "dur": 1})j";
        events += R"j(, {"ph": "X", "pid": 1, "tid": 2, "name": "jit_log(9)", "ts": )j" + std::to_string(100 * k + 85) +
                  R"j(, "dur": 4})j";
        events += R"j(, {"ph": "X", "pid": 1, "tid": 3, "name": "copy.)j" + n + R"j(", "ts": )j" +
                  std::to_string(100 * k + 86) + R"j(, "dur": 2})j";
    }
    const std::string text = R"j({"displayTimeUnit": "ns", "traceEvents": [)j" + events + "]}";
    const auto read = [&](std::int64_t step) {
        MeasuredOptions options;
        options.step = step;
        return measuredWorkload(splitDevices(parseProfile(text, "loop.trace.json")), options);
    };
    const auto names = [](const MeasuredWorkload& w) {
        std::vector<std::string> out;
        for (const Op& op : w.workload.programOf(0).ops)
            if (op.kind == OpKind::Compute && op.name != "host gap") // gaps: the device waiting
                out.push_back(op.name);
        std::sort(out.begin(), out.end());
        return out;
    };
    const MeasuredWorkload first = read(-1);
    QCOMPARE(first.step, std::int64_t{0});
    QCOMPARE(first.stepName, std::string("execution 0 of jit_train_step(7) to the start of execution 1"));
    QCOMPARE(names(first), (std::vector<std::string>{"copy.0", "dot.0", "fusion.0"}));
    QCOMPARE(first.ranks[0].stepSeconds, 100e-6); // to the next execution's start
    const MeasuredWorkload last = read(2);
    QCOMPARE(names(last), (std::vector<std::string>{"copy.2", "dot.2", "fusion.2"}));
    QCOMPARE(last.stepName, std::string("execution 2 of jit_train_step(7) to the end of the trace"));
    QVERIFY(std::abs(last.ranks[0].stepSeconds - 89e-6) < 1e-9); // to the end of the trace
    const std::string beyond = inputError([&] { read(3); });
    QVERIFY2(beyond.find("loop.trace.json") != std::string::npos &&
                 beyond.find("runs the step program jit_train_step(7) 3 times; --step takes 0 to 2") !=
                     std::string::npos,
             beyond.c_str());
}

void TestMeasured::absurdNumbersAreIgnoredOrRefused()
{
    // Found by fuzz_profile (UBSan: 6e48 converted to an integer): ids out of range are no ids; times
    // out of range and collectives of more than 2^50 elements are refused with a reason.
    const RankProfile p = parseProfile(
        R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": {"External id": 6e48, "correlation": -1e300, "bytes": 1e30}}]})",
        "ids.json");
    QCOMPARE(p.events.size(), std::size_t{1});
    QCOMPARE(p.events[0].externalId, std::int64_t{-1});
    QCOMPARE(p.events[0].correlation, std::int64_t{-1});
    QCOMPARE(p.events[0].bytes, std::uint64_t{0});
    const std::string time = inputError([] {
        parseProfile(R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1e300, "dur": 2}]})",
                     "t.json");
    });
    QVERIFY2(time.find("out of range") != std::string::npos, time.c_str());
    std::vector<RankProfile> huge;
    huge.push_back(parseProfile(
        R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "gloo:all_reduce", "ts": 1, "dur": 2, "args": {"Collective name": "allreduce", "In msg nelems": 4e18, "dtype": "Float"}}]})",
        "huge.json"));
    const std::string elements = inputError([&] { measuredWorkload(std::move(huge)); });
    QVERIFY2(elements.find("more than 2^50") != std::string::npos, elements.c_str());
}

void TestMeasured::malformedProfiles_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no_dur") << QStringLiteral("no_dur") << QStringLiteral("trace event 1 (\"k\") is a complete event");
    QTest::newRow("negative_dur") << QStringLiteral("negative_dur") << QStringLiteral("negative duration");
    QTest::newRow("truncated_json") << QStringLiteral("truncated_json") << QStringLiteral("truncated");
    QTest::newRow("truncated_gzip") << QStringLiteral("truncated_gzip") << QStringLiteral("gzip");
    QTest::newRow("ranks_disagree") << QStringLiteral("ranks_disagree") << QStringLiteral("ranks disagree");
    QTest::newRow("rank_twice") << QStringLiteral("rank_twice") << QStringLiteral("records rank 0, as");
    QTest::newRow("missing_step") << QStringLiteral("missing_step") << QStringLiteral("has no ProfilerStep#9");
    QTest::newRow("deep_args") << QStringLiteral("deep_args") << QStringLiteral("nested deeper");
    QTest::newRow("no_events") << QStringLiteral("no_events") << QStringLiteral("p.json: holds no trace events");
    QTest::newRow("unmarked_rank") << QStringLiteral("unmarked_rank")
                                   << QStringLiteral("rank1.json: has no ProfilerStep#N markers");
    QTest::newRow("group_beyond_world") << QStringLiteral("group_beyond_world")
                                        << QStringLiteral("group of 99999999 ranks (\"Group size\") is larger");
}

void TestMeasured::malformedProfiles()
{
    QFETCH(QString, what);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const auto rankFile = [&](int rank, int allReduces) {
        std::string events = "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, "
                             "\"tid\": 1, \"ts\": 0, \"dur\": 1000}";
        for (int i = 0; i < allReduces; ++i)
            events += ", {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"gloo:all_reduce\", \"pid\": 1, \"tid\": 2, "
                      "\"ts\": " +
                      std::to_string(100 + 100 * i) + ", \"dur\": 50}";
        return "{\"distributedInfo\": {\"rank\": " + std::to_string(rank) + ", \"world_size\": 2}, \"traceEvents\": [" +
               events + "]}";
    };
    std::string path;
    MeasuredOptions options;
    const std::string valid = rankFile(0, 1);
    if (what == QStringLiteral("no_dur")) {
        path = writeFile(
            dir, "p.json",
            R"({"traceEvents": [{"ph": "M", "name": "x"}, {"ph": "X", "cat": "kernel", "name": "k", "ts": 1}]})");
    } else if (what == QStringLiteral("negative_dur")) {
        path = writeFile(dir, "p.json",
                         R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -4}]})");
    } else if (what == QStringLiteral("truncated_json")) {
        path = writeFile(dir, "p.json", valid.substr(0, valid.size() / 2));
    } else if (what == QStringLiteral("truncated_gzip")) {
        const std::string gz = readFileBytes(kAmd);
        path = writeFile(dir, "p.json.gz", gz.substr(0, gz.size() / 2));
    } else if (what == QStringLiteral("ranks_disagree")) {
        writeFile(dir, "rank0.json", rankFile(0, 2));
        writeFile(dir, "rank1.json", rankFile(1, 1));
        path = dir.path().toStdString();
    } else if (what == QStringLiteral("rank_twice")) {
        writeFile(dir, "rank0.json", rankFile(0, 1));
        writeFile(dir, "rank1.json", rankFile(0, 1));
        path = dir.path().toStdString();
    } else if (what == QStringLiteral("missing_step")) {
        path = writeFile(dir, "rank0.json", rankFile(0, 1));
        options.step = 9;
    } else if (what == QStringLiteral("no_events")) {
        path = writeFile(dir, "p.json", R"({"traceEvents": []})");
    } else if (what == QStringLiteral("unmarked_rank")) {
        writeFile(dir, "rank0.json", rankFile(0, 1));
        writeFile(dir, "rank1.json",
                  R"({"distributedInfo": {"rank": 1, "world_size": 2}, "traceEvents": [{"ph": "X", "cat": "cpu_op", )"
                  R"("name": "gloo:all_reduce", "pid": 1, "tid": 2, "ts": 100, "dur": 50}]})");
        path = dir.path().toStdString();
    } else if (what == QStringLiteral("group_beyond_world")) {
        path = writeFile(
            dir, "p.json",
            R"({"distributedInfo": {"rank": 0, "world_size": 4}, "traceEvents": [{"ph": "X", "cat": "cpu_op", )"
            R"("name": "gloo:all_reduce", "ts": 1, "dur": 2, "args": {"Collective name": "allreduce", )"
            R"("In msg nelems": 4, "dtype": "Float", "Group size": 99999999}}]})");
    } else {
        path = writeFile(dir, "p.json",
                         "{\"traceEvents\": [{\"ph\": \"X\", \"args\": " + std::string(3000, '[') +
                             std::string(3000, ']') + "}]}");
    }
    const std::string message = inputError([&] { readMeasuredWorkload(path, options); });
    QVERIFY2(QString::fromStdString(message).contains(reason), message.c_str());
}

QTEST_GUILESS_MAIN(TestMeasured)
#include "tst_measured.moc"
