// SPDX-License-Identifier: MIT
#include "core/chakra.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/synthetictrace.h"

#include <filesystem>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace flint::core;

namespace {

const QString kSharedData = QStringLiteral(FLINT_SHARED_DATA);
const QString kBundledAllReduce =
    QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/astrasim_all_reduce_8npus_1MB/all_reduce");

std::string path(const QString& p)
{
    return p.toStdString();
}

/// Appends a varint length and the body: the framing of a Chakra file.
void appendFrame(std::string& out, const std::string& body)
{
    std::uint64_t n = body.size();
    do {
        auto byte = static_cast<char>(n & 0x7f);
        n >>= 7;
        if (n)
            byte = static_cast<char>(byte | 0x80);
        out.push_back(byte);
    } while (n);
    out += body;
}

/// Protobuf wire bits for hand-made malformed messages.
std::string varint(std::uint64_t n)
{
    std::string out;
    do {
        auto byte = static_cast<char>(n & 0x7f);
        n >>= 7;
        if (n)
            byte = static_cast<char>(byte | 0x80);
        out.push_back(byte);
    } while (n);
    return out;
}

std::string stringField(int field, const std::string& text)
{
    return varint(static_cast<std::uint64_t>(field) << 3 | 2) + varint(text.size()) + text;
}

std::string varintField(int field, std::uint64_t value)
{
    return varint(static_cast<std::uint64_t>(field) << 3) + varint(value);
}

std::string metadataFrame()
{
    std::string out;
    appendFrame(out, stringField(1, "0.0.4"));
    return out;
}

std::string gzipped(const std::string& bytes)
{
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, bytes.size()) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

void writeFile(const QString& file, const std::string& bytes)
{
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), static_cast<qint64>(bytes.size()));
}

std::size_t count(const Program& program, OpKind kind)
{
    return static_cast<std::size_t>(
        std::count_if(program.ops.begin(), program.ops.end(), [kind](const Op& op) { return op.kind == kind; }));
}

Workload singleRank(Program program)
{
    auto shared = std::make_shared<Program>(std::move(program));
    Workload w;
    w.ranks.resize(1);
    for (std::size_t s = 0; s < shared->commSlots.size(); ++s)
        w.ranks[0].slotGroups.push_back(w.groupFor({0}));
    w.programs.push_back(shared);
    return w;
}

/// Every Chakra attribute value kind, scalar and list.
std::vector<Attribute> attributeOfEveryKind()
{
    std::vector<Attribute> all;
    for (int k = static_cast<int>(AttributeKind::Double); k <= static_cast<int>(AttributeKind::BytesList); ++k) {
        Attribute a;
        a.kind = static_cast<AttributeKind>(k);
        a.name = "attr_" + std::to_string(k);
        a.docString = k % 3 == 0 ? "documented" : "";
        const bool list = a.isList();
        switch (a.kind) {
        case AttributeKind::Double:
        case AttributeKind::DoubleList:
            a.reals = list ? std::vector<double>{1.5, -2.25e300} : std::vector<double>{3.14159};
            break;
        case AttributeKind::Float:
        case AttributeKind::FloatList:
            a.reals = list ? std::vector<double>{0.5, -8.0} : std::vector<double>{0.25};
            break;
        case AttributeKind::Int32:
        case AttributeKind::Int32List:
        case AttributeKind::Sint32:
        case AttributeKind::Sint32List:
        case AttributeKind::Sfixed32:
        case AttributeKind::Sfixed32List:
            a.ints = list ? std::vector<std::int64_t>{-7, 2147483647} : std::vector<std::int64_t>{-42};
            break;
        case AttributeKind::Int64:
        case AttributeKind::Int64List:
        case AttributeKind::Sint64:
        case AttributeKind::Sint64List:
        case AttributeKind::Sfixed64:
        case AttributeKind::Sfixed64List:
            a.ints = list ? std::vector<std::int64_t>{INT64_MIN, 5} : std::vector<std::int64_t>{-1234567890123};
            break;
        case AttributeKind::Uint32:
        case AttributeKind::Uint32List:
        case AttributeKind::Fixed32:
        case AttributeKind::Fixed32List:
            a.uints = list ? std::vector<std::uint64_t>{0, 4294967295u} : std::vector<std::uint64_t>{77};
            break;
        case AttributeKind::Uint64:
        case AttributeKind::Uint64List:
        case AttributeKind::Fixed64:
        case AttributeKind::Fixed64List:
            a.uints = list ? std::vector<std::uint64_t>{UINT64_MAX, 1} : std::vector<std::uint64_t>{1ull << 40};
            break;
        case AttributeKind::Bool:
        case AttributeKind::BoolList:
            a.ints = list ? std::vector<std::int64_t>{1, 0, 1} : std::vector<std::int64_t>{1};
            break;
        case AttributeKind::String:
        case AttributeKind::StringList:
            a.strings = list ? std::vector<std::string>{"a", "", "ü"} : std::vector<std::string>{"text"};
            break;
        case AttributeKind::Bytes:
        case AttributeKind::BytesList:
            a.strings = list ? std::vector<std::string>{std::string("\0\xff", 2)}
                             : std::vector<std::string>{std::string("\x01\x80", 2)};
            break;
        case AttributeKind::None:
            break;
        }
        all.push_back(a);
    }
    return all;
}

} // namespace

class TestChakra : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nestingLimitIgnoresStringsCommentsAndArrows();
    void pytorchTraceCounts();
    void astrasimAllReduceRanks();
    void bundledExampleReads();
    void roundTripRealTraces_data();
    void roundTripRealTraces();
    void roundTripEveryField();
    void roundTripWorkloadWithGroups();
    void identicalRankFilesShareProgram();
    void sharingNeedsEqualOpsAndOneToOneNames();
    void gzipInput();
    void collectivePermuteBecomesSendRecv();
    void badInput_data();
    void badInput();
    void mutatedInputNeverCrashes();
    void missingRankFile();
    void directoryWithSeveralPrefixes();
    void badCommGroups();
    void failedWriteLeavesNothing();
    void cancelledWriteLeavesNothing();
};

void TestChakra::nestingLimitIgnoresStringsCommentsAndArrows()
{
    // Depth 3 within a limit of 3; brackets inside strings and comments, and the arrow of a function
    // type, do not count.
    QCOMPARE(excessiveNesting("{\"a\": [[1, \"(((([[\"]]}", 3), std::nullopt);
    QCOMPARE(excessiveNesting("f(x) -> tensor<4x(i32)> // ((((((((\n(y)", 3, true), std::nullopt);
    QCOMPARE(excessiveNesting("tensor<tensor<tensor<tensor<f32>>>>", 3, true), std::optional<std::uint64_t>(27));
    // Without angle brackets (HLO, JSON) an iota tiling's "<=" opens nothing.
    QCOMPARE(excessiveNesting("{devices=[2,4]<=[8]} {devices=[2,4]<=[8]} <<<<", 2), std::nullopt);
    QCOMPARE(excessiveNesting("[\"\\\"[[[[\", [[[]]]]", 3), std::optional<std::uint64_t>(13));
    // The first bracket past the limit is reported: offset 3 opens the fourth level.
    QCOMPARE(excessiveNesting("(((([]))))", 3), std::optional<std::uint64_t>(3));
    const std::string deep(kMaxNesting + 1, '[');
    QVERIFY(excessiveNesting(deep).has_value());
    QVERIFY(!excessiveNesting(std::string(kMaxNesting, '[')).has_value());
    QVERIFY_THROWS_EXCEPTION(InputError, checkNesting(deep, "deep.json"));
}

void TestChakra::pytorchTraceCounts()
{
    const QString file = kSharedData + QStringLiteral("/chakra/pytorch_chakra.0.et");
    if (!QFile::exists(file))
        QSKIP("../shared/data is not present");
    const Workload workload = readChakraWorkload(path(file));
    QCOMPARE(workload.rankCount(), std::size_t(1));
    const Program& program = workload.programOf(0);
    QCOMPARE(program.ops.size(), std::size_t(3664));
    QCOMPARE(count(program, OpKind::Compute), std::size_t(3643));
    QCOMPARE(count(program, OpKind::Collective), std::size_t(21));
    // PyTorch-converted traces carry the schema as a metadata attribute.
    QCOMPARE(program.metadataAttributes.front().name, std::string("schema"));
    QCOMPARE(program.metadataAttributes.front().asString(), std::string("1.0.1"));
}

void TestChakra::astrasimAllReduceRanks()
{
    const QString dir = kSharedData + QStringLiteral("/chakra/astrasim_all_reduce_8npus_1MB");
    if (!QDir(dir).exists())
        QSKIP("../shared/data is not present");
    const Workload workload = readChakraWorkload(path(dir));
    QCOMPARE(workload.rankCount(), std::size_t(8));
    for (std::size_t rank = 0; rank < 8; ++rank) {
        const Program& program = workload.programOf(rank);
        QCOMPARE(program.ops.size(), std::size_t(1));
        const Op& op = program.ops.front();
        QCOMPARE(op.kind, OpKind::Collective);
        QCOMPARE(op.collective, CollectiveKind::AllReduce);
        QCOMPARE(op.commBytes, std::uint64_t(1'048'576));
        QCOMPARE(op.commSlot, -1);
        QCOMPARE(program.schemaVersion, std::string("0.0.4"));
    }
}

void TestChakra::bundledExampleReads()
{
    const Workload workload = readChakraWorkload(path(kBundledAllReduce));
    QCOMPARE(workload.rankCount(), std::size_t(8));
    QCOMPARE(workload.programOf(7).ops.front().commBytes, std::uint64_t(1'048'576));
}

void TestChakra::roundTripRealTraces_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("pytorch") << kSharedData + QStringLiteral("/chakra/pytorch_chakra.0.et");
    for (int rank = 0; rank < 8; ++rank)
        QTest::addRow("astrasim_all_reduce_rank%d", rank)
            << kSharedData + QStringLiteral("/chakra/astrasim_all_reduce_8npus_1MB/all_reduce.%1.et").arg(rank);
}

void TestChakra::roundTripRealTraces()
{
    QFETCH(QString, file);
    if (!QFile::exists(file))
        QSKIP("../shared/data is not present");
    const std::string original = readFileBytes(path(file));
    const Program first = parseChakraTrace(original, path(file));
    const std::string written = serializeChakraRank(singleRank(first), 0);
    const Program second = parseChakraTrace(written, "written");
    QCOMPARE(second.ops.size(), first.ops.size());
    for (std::size_t i = 0; i < first.ops.size(); ++i)
        QVERIFY2(first.ops[i] == second.ops[i], ("op " + std::to_string(i) + " differs").c_str());
    QCOMPARE(second.metadataAttributes, first.metadataAttributes);
    QCOMPARE(second.schemaVersion, first.schemaVersion);
    QCOMPARE(second.commSlots, first.commSlots);
    // Writing what we read again gives the same bytes: the writer is deterministic.
    QCOMPARE(serializeChakraRank(singleRank(second), 0), written);
}

void TestChakra::roundTripEveryField()
{
    Program program;
    program.name = "every_field";
    program.metadataAttributes = attributeOfEveryKind();
    Op compute;
    compute.id = 7;
    compute.name = "layer_0/attn/qkv";
    compute.scope = "train_step/layer_0/attn";
    compute.flops = 123'456'789'012;
    compute.bytesRead = 1000;
    compute.bytesWritten = 24;
    compute.startTimeMicros = 10;
    compute.durationMicros = 99;
    compute.dtype = DType::BF16;
    compute.shape = {8, 2048, 4096};
    compute.extras.mutate().inputs = IoInfo{"[[1, 2]]", "[[8, 2048]]", "['bf16']"};
    compute.extras.mutate().outputs = IoInfo{"", "[[8, 4096]]", "['bf16']"};
    compute.extras.mutate().attributes = attributeOfEveryKind();
    setKernelClass(compute, KernelClass::AttentionBackward); // an attribute like the others
    Op collective;
    collective.id = 8;
    collective.name = "grad_all_reduce";
    collective.kind = OpKind::Collective;
    collective.collective = CollectiveKind::ReduceScatter;
    collective.commBytes = 1 << 20;
    collective.commSlot = program.commSlotFor("dp");
    collective.extras.mutate().involvedDims = {true, false};
    collective.dataDeps = {7};
    collective.ctrlDeps = {3}; // dangling on purpose: kept
    Op send;
    send.id = 9;
    send.kind = OpKind::Send;
    send.commSrc = 0;
    send.commDst = 1;
    send.commTag = 5;
    send.commBytes = 64;
    send.dataDeps = {8};
    program.ops = {compute, collective, send};

    const Workload workload = singleRank(program);
    const Program read = parseChakraTrace(serializeChakraRank(workload, 0), "every_field");
    QCOMPARE(read.ops.size(), std::size_t(3));
    QCOMPARE(read.metadataAttributes, program.metadataAttributes);
    QCOMPARE(read.commSlots, std::vector<std::string>{"1"}); // the group's name in the written JSON
    QCOMPARE(kernelClassOf(read.ops[0]), KernelClass::AttentionBackward);
    for (std::size_t i = 0; i < 3; ++i) {
        Op expected = program.ops[i];
        Op actual = read.ops[i];
        actual.chakraAttributes = expected.chakraAttributes = 0;
        QVERIFY2(actual == expected, ("op " + std::to_string(i)).c_str());
    }
    // A second trip keeps every attribute bit as read.
    const Program again = parseChakraTrace(serializeChakraRank(singleRank(read), 0), "again");
    QVERIFY(again.ops == read.ops);
}

void TestChakra::roundTripWorkloadWithGroups()
{
    auto program = std::make_shared<const Program>(makeSyntheticProgram(100));
    const Workload workload = Workload::spmd(program, 8, [](std::size_t rank, std::size_t) {
        const auto first = static_cast<std::int32_t>(rank / 4 * 4);
        return std::vector<std::int32_t>{first, first + 1, first + 2, first + 3};
    });
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string prefix = path(dir.filePath(QStringLiteral("tp")));
    const auto written = writeChakraWorkload(workload, prefix);
    QCOMPARE(written.size(), std::size_t(9));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("tp.json"))));

    ChakraSharing sharing;
    const Workload read = readChakraWorkload(prefix, {}, {}, &sharing);
    QCOMPARE(read.rankCount(), std::size_t(8));
    // Ranks 1-3 are byte-identical to rank 0; ranks 4-7 differ from it only in pg_name: one program.
    QCOMPARE(read.programs.size(), std::size_t(1));
    QCOMPARE(sharing.distinctPrograms, std::size_t(1));
    QCOMPARE(sharing.identicalFiles, std::size_t(3));
    QCOMPARE(sharing.sameExceptGroupNames, std::size_t(4));
    QCOMPARE(sharing.sameExceptTiming, std::size_t(0));
    QCOMPARE(read.groups, workload.groups);
    for (std::size_t rank = 0; rank < 8; ++rank)
        QCOMPARE(serializeChakraRank(read, rank), serializeChakraRank(workload, rank));
    for (std::size_t rank = 0; rank < 8; ++rank) {
        const Op& allReduce = read.programOf(rank).ops[5];
        QCOMPARE(read.membersOf(rank, allReduce), workload.membersOf(rank, program->ops[5]));
        QCOMPARE(read.programOf(rank).ops[3].scope, program->ops[3].scope);
        QCOMPARE(read.programOf(rank).ops[3].bytesWritten, program->ops[3].bytesWritten);
    }
    QCOMPARE(read.validate(), std::string());
}

void TestChakra::identicalRankFilesShareProgram()
{
    QTemporaryDir dir;
    const std::string bytes = serializeChakraRank(singleRank(makeSyntheticProgram(20)), 0);
    for (int rank = 0; rank < 4; ++rank)
        writeFile(dir.filePath(QStringLiteral("same.%1.et").arg(rank)), bytes);
    const Workload workload = readChakraWorkload(path(dir.path()));
    QCOMPARE(workload.rankCount(), std::size_t(4));
    QCOMPARE(workload.programs.size(), std::size_t(1));
}

void TestChakra::sharingNeedsEqualOpsAndOneToOneNames()
{
    // Two collectives in slots "a" and "b". Ranks 0 and 1 bind both to one communicator (their files
    // name one group twice: one slot); ranks 2 and 3 to two communicators of the same members (two
    // slots); rank 3 also ran op 1 longer. Each file must come back exactly as written.
    Program program;
    program.name = "two_slots";
    for (std::uint64_t i = 0; i < 3; ++i) {
        Op op;
        op.id = i;
        op.name = "op" + std::to_string(i);
        if (i > 0) {
            op.kind = OpKind::Collective;
            op.commBytes = 1024 * i;
            op.commSlot = program.commSlotFor(i == 1 ? "a" : "b");
            op.dataDeps = {i - 1};
        } else {
            op.flops = 1'000'000;
        }
        op.durationMicros = 10;
        program.ops.push_back(op);
    }
    Program slower = program;
    slower.ops[1].durationMicros = 25;
    Workload workload;
    workload.programs = {std::make_shared<const Program>(program), std::make_shared<const Program>(slower)};
    workload.groups = {{"1", {0, 1}}, {"2", {2, 3}}, {"3", {2, 3}}};
    workload.ranks = {{0, {0, 0}, nullptr}, {0, {0, 0}, nullptr}, {0, {1, 2}, nullptr}, {1, {1, 2}, nullptr}};
    QCOMPARE(workload.validate(), std::string());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string prefix = path(dir.filePath(QStringLiteral("slots")));
    writeChakraWorkload(workload, prefix);

    ChakraSharing sharing;
    const Workload read = readChakraWorkload(prefix, {}, {}, &sharing);
    QCOMPARE(read.rankCount(), std::size_t(4));
    // Rank 1 is rank 0's file; rank 2's has two slots where rank 0's has one; rank 3's differs from
    // rank 2's in a duration only: it shares rank 2's program with its own times.
    QCOMPARE(read.programs.size(), std::size_t(2));
    QCOMPARE(sharing.identicalFiles, std::size_t(1));
    QCOMPARE(sharing.sameExceptGroupNames, std::size_t(0));
    QCOMPARE(sharing.sameExceptTiming, std::size_t(1));
    QCOMPARE(read.programOf(0).commSlots.size(), std::size_t(1));
    QCOMPARE(read.programOf(2).commSlots.size(), std::size_t(2));
    QCOMPARE(read.ranks[3].program, read.ranks[2].program);
    QVERIFY(read.ranks[3].times);
    QVERIFY(!read.ranks[2].times);
    QCOMPARE(read.durationOf(3, 1), std::uint64_t(25));
    QCOMPARE(read.durationOf(2, 1), std::uint64_t(10));
    for (std::size_t rank = 0; rank < 4; ++rank)
        QCOMPARE(serializeChakraRank(read, rank), serializeChakraRank(workload, rank));
    QCOMPARE(read.validate(), std::string());

    // The same ops with slots named per rank, as an export of a larger job writes them: one program,
    // whichever way the names map, as long as they map one to one.
    Workload renamed;
    renamed.programs = {workload.programs[0]};
    renamed.groups = {{"10", {0, 1}}, {"11", {2, 3}}, {"12", {0, 2}}, {"13", {1, 3}}};
    renamed.ranks = {{0, {0, 2}, nullptr}, {0, {0, 3}, nullptr}, {0, {1, 2}, nullptr}, {0, {1, 3}, nullptr}};
    QCOMPARE(renamed.validate(), std::string());
    const std::string renamedPrefix = path(dir.filePath(QStringLiteral("renamed")));
    writeChakraWorkload(renamed, renamedPrefix);
    const Workload again = readChakraWorkload(renamedPrefix, {}, {}, &sharing);
    QCOMPARE(again.programs.size(), std::size_t(1));
    QCOMPARE(sharing.sameExceptGroupNames, std::size_t(3));
    for (std::size_t rank = 0; rank < 4; ++rank)
        QCOMPARE(serializeChakraRank(again, rank), serializeChakraRank(renamed, rank));

    // Recorded times: rank 1 ran the collective longer under its own group names (the node differs in
    // more than its times: decoded), rank 2 started op 0 later (only the times differ: not decoded),
    // rank 3 did other work in op 0 (a program of its own).
    Workload timed;
    timed.programs = {workload.programs[0]};
    Program other = program;
    other.ops[0].flops = 2'000'000;
    timed.programs.push_back(std::make_shared<const Program>(std::move(other)));
    timed.groups = renamed.groups;
    auto longer = std::make_shared<RecordedTimes>();
    auto later = std::make_shared<RecordedTimes>();
    for (const Op& op : program.ops) {
        longer->startMicros.push_back(op.startTimeMicros);
        longer->durationMicros.push_back(op.durationMicros);
    }
    *later = *longer;
    longer->durationMicros[1] = 40;
    later->startMicros[0] = 7;
    timed.ranks = {{0, {0, 2}, nullptr}, {0, {0, 3}, longer}, {0, {1, 2}, later}, {1, {1, 3}, nullptr}};
    QCOMPARE(timed.validate(), std::string());
    const std::string timedPrefix = path(dir.filePath(QStringLiteral("timed")));
    writeChakraWorkload(timed, timedPrefix);
    const Workload measured = readChakraWorkload(timedPrefix, {}, {}, &sharing);
    QCOMPARE(measured.programs.size(), std::size_t(2));
    QCOMPARE(sharing.sameExceptTiming, std::size_t(2));
    QCOMPARE(measured.durationOf(1, 1), std::uint64_t(40));
    QCOMPARE(measured.startOf(2, 0), std::uint64_t(7));
    QCOMPARE(measured.durationOf(2, 1), std::uint64_t(10));
    QVERIFY(!measured.ranks[0].times);
    for (std::size_t rank = 0; rank < 4; ++rank)
        QCOMPARE(serializeChakraRank(measured, rank), serializeChakraRank(timed, rank));
}

void TestChakra::gzipInput()
{
    const std::string bytes = serializeChakraRank(singleRank(makeSyntheticProgram(50)), 0);
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("zipped.0.et.gz")), gzipped(bytes));
    const Workload workload = readChakraWorkload(path(dir.filePath(QStringLiteral("zipped"))));
    QVERIFY(workload.programOf(0).ops == parseChakraTrace(bytes, "plain").ops);

    std::string corrupt = gzipped(bytes);
    corrupt.resize(corrupt.size() / 2);
    try {
        parseChakraTrace(corrupt, "half.et.gz");
        QFAIL("a truncated gzip stream was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), std::string("half.et.gz"));
        QVERIFY2(std::string(e.what()).find("gzip") != std::string::npos, e.what());
    }
}

void TestChakra::collectivePermuteBecomesSendRecv()
{
    Program program;
    Op permute;
    permute.id = 1;
    permute.name = "halo";
    permute.kind = OpKind::Collective;
    permute.collective = CollectiveKind::CollectivePermute;
    permute.commBytes = 4096;
    permute.extras.mutate().sourceTargetPairs = {{0, 1}, {1, 2}, {2, 0}};
    Op after;
    after.id = 2;
    after.dataDeps = {1};
    program.ops = {permute, after};
    const Workload workload = Workload::spmd(std::make_shared<const Program>(program), 4,
                                             [](std::size_t, std::size_t) { return std::vector<std::int32_t>{}; });
    const Program rank1 = parseChakraTrace(serializeChakraRank(workload, 1), "rank1");
    QCOMPARE(rank1.ops.size(), std::size_t(3));
    QCOMPARE(rank1.ops[0].kind, OpKind::Recv);
    QCOMPARE(rank1.ops[0].id, std::uint64_t(1));
    QCOMPARE(rank1.ops[0].commSrc, 0);
    QCOMPARE(rank1.ops[1].kind, OpKind::Send);
    QCOMPARE(rank1.ops[1].commDst, 2);
    QCOMPARE(rank1.ops[1].commBytes, std::uint64_t(4096));
    QVERIFY(rank1.ops[1].id != 1 && rank1.ops[1].id != 2);
    // Rank 3 takes no part: a zero-cost node keeps op 2's dependency intact.
    const Program rank3 = parseChakraTrace(serializeChakraRank(workload, 3), "rank3");
    QCOMPARE(rank3.ops.size(), std::size_t(2));
    QCOMPARE(rank3.ops[0].kind, OpKind::Compute);
    QCOMPARE(rank3.ops[0].id, std::uint64_t(1));
}

void TestChakra::badInput_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<quint64>("offset");
    QTest::addColumn<QString>("reason");

    const std::string meta = metadataFrame();
    const std::string goodNode = [] {
        std::string node = varintField(1, 5) + stringField(2, "matmul") + varintField(3, 4);
        std::string out;
        appendFrame(out, node);
        return out;
    }();
    const auto bytes = [](const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); };

    QTest::newRow("empty_file") << QByteArray() << quint64(0) << QStringLiteral("empty file");
    std::string truncated = meta + goodNode;
    truncated.resize(truncated.size() - 3);
    QTest::newRow("truncated_message") << bytes(truncated) << quint64(meta.size())
                                       << QStringLiteral("runs past the end of the file");
    QTest::newRow("bad_varint") << bytes(meta + std::string(11, '\xff')) << quint64(meta.size())
                                << QStringLiteral("bad varint");
    QTest::newRow("varint_cut_at_end") << bytes(meta + std::string(1, '\x80')) << quint64(meta.size())
                                       << QStringLiteral("truncated varint");
    QTest::newRow("length_past_end") << bytes(meta + varint(1'000'000) + "abc") << quint64(meta.size())
                                     << QStringLiteral("message length 1000000 runs past the end");
    QTest::newRow("node_before_metadata")
        << bytes(goodNode + meta) << quint64(0) << QStringLiteral("expected GlobalMetadata before any Node");
    std::string badType;
    appendFrame(badType, varintField(1, 9) + stringField(2, "x") + varintField(3, 42));
    QTest::newRow("unknown_node_type") << bytes(meta + goodNode + badType) << quint64(meta.size() + goodNode.size())
                                       << QStringLiteral("unknown NodeType value 42");
    std::string badComm;
    appendFrame(badComm, varintField(1, 9) + varintField(3, 7) +
                             stringField(10, stringField(1, "comm_type") + varintField(9, 17)));
    QTest::newRow("unknown_comm_type") << bytes(meta + badComm) << quint64(meta.size())
                                       << QStringLiteral("unknown CollectiveCommType value 17");
    std::string garbage;
    appendFrame(garbage, std::string("\x0a\x05"
                                     "ab",
                                     4)); // string field claims 5 bytes, has 2
    QTest::newRow("corrupt_protobuf") << bytes(meta + garbage) << quint64(meta.size())
                                      << QStringLiteral("malformed Node message");
}

void TestChakra::badInput()
{
    QFETCH(QByteArray, bytes);
    QFETCH(quint64, offset);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("bad.0.et"));
    writeFile(file, bytes.toStdString());
    try {
        readChakraWorkload(path(file));
        QFAIL("bad input was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), path(file));
        QVERIFY(e.byteOffset().has_value());
        QCOMPARE(*e.byteOffset(), offset);
        QVERIFY2(std::string(e.what()).find(reason.toStdString()) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).starts_with(path(file)), e.what());
    }
}

void TestChakra::mutatedInputNeverCrashes()
{
    // Random corruption of a valid trace gives a program or an InputError, never a crash or a hang.
    Program program = makeSyntheticProgram(40);
    program.ops[3].extras.mutate().attributes = attributeOfEveryKind();
    program.ops[4].extras.mutate().inputs = IoInfo{"[1]", "[[2]]", "['f32']"};
    const std::string valid = serializeChakraRank(singleRank(program), 0);
    std::uint64_t state = 0x9e3779b97f4a7c15ull; // fixed seed: the test is deterministic
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    int rejected = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string bytes = valid;
        const int edits = 1 + static_cast<int>(next() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = next() % bytes.size();
            switch (next() % 3) {
            case 0:
                bytes[at] = static_cast<char>(next());
                break;
            case 1:
                bytes.resize(at);
                break;
            default:
                bytes.insert(at, 1, static_cast<char>(next()));
                break;
            }
            if (bytes.empty())
                break;
        }
        try {
            const Program parsed = parseChakraTrace(bytes, "mutated");
            QVERIFY(parsed.ops.size() <= bytes.size());
        } catch (const InputError& e) {
            ++rejected;
            QCOMPARE(e.file(), std::string("mutated"));
        }
    }
    QVERIFY(rejected > 1000);
}

void TestChakra::missingRankFile()
{
    QTemporaryDir dir;
    const std::string bytes = serializeChakraRank(singleRank(makeSyntheticProgram(3)), 0);
    for (int rank : {0, 1, 3})
        writeFile(dir.filePath(QStringLiteral("gap.%1.et").arg(rank)), bytes);
    const std::string prefix = path(dir.filePath(QStringLiteral("gap")));
    try {
        readChakraWorkload(prefix);
        QFAIL("a gap in the rank files was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), prefix);
        QVERIFY2(std::string(e.what()).find("missing rank file " + prefix + ".2.et") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("found ranks 0-1, 3") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(InputError, readChakraWorkload(path(dir.filePath(QStringLiteral("nothing")))));
}

void TestChakra::directoryWithSeveralPrefixes()
{
    QTemporaryDir dir;
    const std::string bytes = serializeChakraRank(singleRank(makeSyntheticProgram(3)), 0);
    writeFile(dir.filePath(QStringLiteral("a.0.et")), bytes);
    writeFile(dir.filePath(QStringLiteral("b.0.et")), bytes);
    try {
        readChakraWorkload(path(dir.path()));
        QFAIL("two prefixes were accepted");
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("several prefixes (a, b)") != std::string::npos, e.what());
    }
    QTemporaryDir empty;
    QVERIFY_THROWS_EXCEPTION(InputError, readChakraWorkload(path(empty.path())));
}

void TestChakra::badCommGroups()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("groups.json"));
    writeFile(json, "{\"1\": [0, 1,]}");
    try {
        readCommGroups(path(json));
        QFAIL("invalid JSON was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), path(json));
        QVERIFY(e.byteOffset().has_value());
    }
    // A value that is no rank is named with its line and byte offset.
    writeFile(json, "{\"1\": [0, 1],\n \"2\": [1,\n 2.5]}");
    try {
        readCommGroups(path(json));
        QFAIL("a fractional rank was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.line(), std::optional<int>(3));
        QCOMPARE(e.byteOffset(), std::optional<std::uint64_t>(25));
        QVERIFY2(e.reason() == "group \"2\": 2.5 is not a rank number", e.what());
    }
    writeFile(json, "{\"1\": [0, 9]}");
    const std::string bytes = serializeChakraRank(singleRank(makeSyntheticProgram(3)), 0);
    writeFile(dir.filePath(QStringLiteral("t.0.et")), bytes);
    QVERIFY_THROWS_EXCEPTION(InputError, readChakraWorkload(path(dir.filePath(QStringLiteral("t"))), path(json)));
}

void TestChakra::failedWriteLeavesNothing()
{
    QTemporaryDir dir;
    const std::string a = path(dir.filePath(QStringLiteral("a.txt")));
    {
        OutputTransaction output;
        output.write(a, "first");
        output.write(path(dir.filePath(QStringLiteral("b.txt"))), "second");
        // No commit: as if the third file had failed.
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    {
        OutputTransaction output;
        output.write(a, "first");
        QVERIFY_THROWS_EXCEPTION(OutputError, output.write("/nonexistent-folder/b.txt", "x"));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());

    // An inconsistent workload is refused before anything is written.
    Workload broken = singleRank(makeSyntheticProgram(20));
    broken.ranks[0].slotGroups.clear();
    QVERIFY_THROWS_EXCEPTION(OutputError, writeChakraWorkload(broken, path(dir.filePath(QStringLiteral("x")))));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

void TestChakra::cancelledWriteLeavesNothing()
{
    auto program = std::make_shared<const Program>(makeSyntheticProgram(50));
    const Workload workload = Workload::spmd(program, 16, [](std::size_t, std::size_t) {
        std::vector<std::int32_t> all(16);
        for (std::int32_t i = 0; i < 16; ++i)
            all[static_cast<std::size_t>(i)] = i;
        return all;
    });
    QTemporaryDir dir;
    CancellationToken token;
    JobControl control;
    control.cancel = &token;
    int reports = 0;
    control.progress = [&](double) {
        if (++reports == 5)
            token.cancel();
    };
    QVERIFY_THROWS_EXCEPTION(Cancelled,
                             writeChakraWorkload(workload, path(dir.filePath(QStringLiteral("c"))), control));
    QCOMPARE(reports, 5);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

QTEST_GUILESS_MAIN(TestChakra)
#include "tst_chakra.moc"
