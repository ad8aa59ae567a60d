// SPDX-License-Identifier: MIT
#include "core/error.h"
#include "core/hlo/devicegroups.h"
#include "core/hlo/hloparser.h"

#include <QFile>
#include <QTest>

using namespace flint::core;
using namespace flint::core::hlo;

namespace {

using Groups = std::vector<std::vector<std::int64_t>>;

/// A fixture of tests/data/hlo (see its README).
Module fixture(const std::string& name)
{
    return readHloFile(FLINT_SOURCE_DIR "/tests/data/hlo/" + name);
}

const Instruction& find(const Module& module, const std::string& name)
{
    for (const Computation& c : module.computations)
        for (const Instruction& i : c.instructions)
            if (i.name == name)
                return i;
    throw std::runtime_error("no instruction " + name);
}

} // namespace

class TestHloParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void currentPrinter();
    void oldPrinter();
    void everyElementType();
    void replicaGroupForms_data();
    void replicaGroupForms();
    void groupModes_data();
    void groupModes();
    void permutePairs();
    void badInput_data();
    void badInput();
    void sharedSamplesParse_data();
    void sharedSamplesParse();
};

void TestHloParser::currentPrinter()
{
    const Module m = fixture("current_printer.hlo");
    QCOMPARE(m.name, std::string("jit_step"));
    QCOMPARE(m.replicaCount, 2);
    QCOMPARE(m.numPartitions, 4);
    QVERIFY(m.hasNumPartitions && m.hasReplicaCount);
    QCOMPARE(m.computations.size(), std::size_t(3));
    QCOMPARE(m.entryComputation().name, std::string("main.9"));
    QCOMPARE(m.entryComputation().instructions[m.entryComputation().root].name, std::string("out"));

    const Instruction& param = find(m, "param");
    QCOMPARE(param.shape.minorToMajor, (std::vector<std::int64_t>{1, 0}));
    QCOMPARE(param.shape.memorySpace, 1);
    QCOMPARE(param.shape.byteSize(), std::uint64_t(8 * 16 * 4));

    const Instruction& convert = find(m, "c");
    QCOMPARE(convert.metadata.opName, std::string("jit(step)/layer_0/convert"));
    QCOMPARE(convert.metadata.sourceLine, 12);
    QCOMPARE(convert.line, 16);

    const Instruction& ag = find(m, "ag");
    QCOMPARE(ag.channelId.value(), 1);
    QCOMPARE(ag.useGlobalDeviceIds.value(), true);
    QCOMPARE(*ag.replicaGroups, (Groups{{0, 1}, {2, 3}}));
    QCOMPARE(ag.dimensions, (std::vector<std::int64_t>{0}));

    const Instruction& dot = find(m, "d");
    QCOMPARE(dot.operands.size(), std::size_t(2));
    QCOMPARE(dot.dot.lhsContracting, (std::vector<std::int64_t>{1}));
    QVERIFY(dot.backendConfig.starts_with("{\"operation_queue_id\""));

    const Instruction& tuple = find(m, "t");
    QVERIFY(tuple.shape.isTuple);
    QCOMPARE(tuple.shape.tupleElements.size(), std::size_t(3));
    const Shape& dynamic = tuple.shape.tupleElements[1];
    QCOMPARE(dynamic.dims, (std::vector<std::int64_t>{4, 0}));
    QCOMPARE(dynamic.dynamicDims, (std::vector<bool>{true, true}));
    QCOMPARE(tuple.shape.tupleElements[2].elementType, DType::Token);
    QCOMPARE(tuple.controlPredecessors.size(), std::size_t(1));
    QCOMPARE(tuple.shape.toString(), std::string("(bf16[16,16], s32[<=4,?], token)"));

    const Instruction& inner = find(m, "r");
    QCOMPARE(*inner.replicaGroups, (Groups{{0, 2}, {1, 3}}));
    QCOMPARE(m.computations[*inner.toApply].name, std::string("add.1"));
}

void TestHloParser::oldPrinter()
{
    const Module m = fixture("printer_2022.hlo");
    QCOMPARE(m.entryComputation().name, std::string("main"));
    const Instruction& gemm = find(m, "custom-call");
    QCOMPARE(gemm.customCallTarget, std::string("__cublas$gemm"));
    QCOMPARE(gemm.backendConfig,
             std::string(R"({"alpha_real":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["0"]}})"));
    const Instruction& allReduce = find(m, "all-reduce");
    QCOMPARE(allReduce.operands.size(), std::size_t(2));
    QVERIFY(!allReduce.channelId);
    QCOMPARE(find(m, "constant_6").literal, std::string("0.5"));
    const Instruction& conv = find(m, "conv");
    QCOMPARE(conv.window.size(), std::size_t(2));
    QCOMPARE(conv.window[0].size, 3);
    QCOMPARE(conv.window[1].paddingHigh, 1);
    QCOMPARE(conv.dimLabels, std::string("b01f_01io->b01f"));
    QCOMPARE(find(m, "add.45").metadata.opType, std::string("add"));
}

void TestHloParser::everyElementType()
{
    std::string text = "HloModule types\nENTRY e {\n";
    const char* types[] = {"pred", "s2",       "s4",     "s8",         "s16",        "s32",
                           "s64",  "u2",       "u4",     "u8",         "u16",        "u32",
                           "u64",  "f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz",
                           "bf16", "f16",      "f32",    "f64",        "c64",        "c128"};
    int n = 0;
    for (const char* t : types) {
        text += "  p" + std::to_string(n) + " = " + t + "[3,5] parameter(" + std::to_string(n) + ")\n";
        ++n;
    }
    text += "  ROOT tok = token[] after-all()\n}\n";
    const Module m = parseHlo(text, "types.hlo");
    const auto& instructions = m.entryComputation().instructions;
    QCOMPARE(instructions.size(), std::size_t(n + 1));
    QCOMPARE(instructions[1].shape.byteSize(), std::uint64_t(4)); // s2: 15 elements x 2 bits, packed
    QCOMPARE(instructions[2].shape.byteSize(), std::uint64_t(8)); // s4
    QCOMPARE(instructions[18].shape.elementType, DType::BF16);
    QCOMPARE(instructions[23].shape.byteSize(), std::uint64_t(15 * 16)); // c128
}

void TestHloParser::replicaGroupForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Groups>("groups");
    QTest::newRow("explicit") << QStringLiteral("{{0,1},{2,3}}") << Groups{{0, 1}, {2, 3}};
    QTest::newRow("empty") << QStringLiteral("{}") << Groups{};
    QTest::newRow("iota_plain") << QStringLiteral("[2,4]<=[8]") << Groups{{0, 1, 2, 3}, {4, 5, 6, 7}};
    QTest::newRow("iota_transposed") << QStringLiteral("[4,2]<=[2,4]T(1,0)") << Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    QTest::newRow("iota_3d") << QStringLiteral("[2,4]<=[2,2,2]T(2,1,0)") << Groups{{0, 4, 2, 6}, {1, 5, 3, 7}};
    QTest::newRow("iota_one_group") << QStringLiteral("[1,8]<=[8]") << Groups{{0, 1, 2, 3, 4, 5, 6, 7}};
    // Over named mesh axes (XLA's MeshAxesReplicaGroupList, in recent releases): the devices laid out
    // on the mesh, one group per combination of the other axes, members in the listed axes' order.
    QTest::newRow("mesh_one_axis") << QStringLiteral("mesh['axis_0'=1,'axis_1'=8] {'axis_1'}")
                                   << Groups{{0, 1, 2, 3, 4, 5, 6, 7}};
    QTest::newRow("mesh_minor") << QStringLiteral("mesh['x'=2,'y'=4] {'y'}") << Groups{{0, 1, 2, 3}, {4, 5, 6, 7}};
    QTest::newRow("mesh_major") << QStringLiteral("mesh['x'=2,'y'=4] {'x'}") << Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    QTest::newRow("mesh_both_reordered") << QStringLiteral("mesh[x=2,y=4] {y,x}") << Groups{{0, 4, 1, 5, 2, 6, 3, 7}};
    // 'a':(2)2 is the second factor of 2 of axis a = [2, 2, 2]: devices 4 i + 2 j + k, grouped over j.
    QTest::newRow("mesh_sub_axis") << QStringLiteral("mesh['a'=8] {'a':(2)2}")
                                   << Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}};
    QTest::newRow("mesh_device_ids") << QStringLiteral("mesh['x'=2,'y'=2], device_ids=([[0,2],[1,3]]) {'y'}")
                                     << Groups{{0, 2}, {1, 3}};
}

void TestHloParser::replicaGroupForms()
{
    QFETCH(QString, text);
    QFETCH(Groups, groups);
    QCOMPARE(parseReplicaGroups(text.toStdString()), groups);
}

void TestHloParser::groupModes_data()
{
    QTest::addColumn<QString>("attributes");
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<int>("mode");
    QTest::addColumn<Groups>("groups");
    // Two replicas x two partitions: device = replica * 2 + partition.
    QTest::newRow("cross_replica") << QStringLiteral("replica_groups={{0,1}}") << QStringLiteral("all-reduce")
                                   << int(GroupMode::CrossReplica) << Groups{{0, 2}, {1, 3}};
    QTest::newRow("cross_replica_empty") << QStringLiteral("replica_groups={}") << QStringLiteral("all-reduce")
                                         << int(GroupMode::CrossReplica) << Groups{{0, 2}, {1, 3}};
    QTest::newRow("cross_partition") << QStringLiteral("channel_id=1, replica_groups={{0,1}}")
                                     << QStringLiteral("all-to-all") << int(GroupMode::CrossPartition)
                                     << Groups{{0, 1}, {2, 3}};
    QTest::newRow("cross_replica_and_partition")
        << QStringLiteral("channel_id=1, replica_groups={{0,1}}") << QStringLiteral("all-reduce")
        << int(GroupMode::CrossReplicaAndPartition) << Groups{{0, 1, 2, 3}};
    QTest::newRow("cross_replica_and_partition_split")
        << QStringLiteral("channel_id=1, replica_groups={{0},{1}}, use_global_device_ids=false")
        << QStringLiteral("all-gather") << int(GroupMode::CrossReplicaAndPartition) << Groups{{0, 1}, {2, 3}};
    QTest::newRow("flattened_ids") << QStringLiteral(
                                          "channel_id=1, replica_groups={{0,3},{1,2}}, use_global_device_ids=true")
                                   << QStringLiteral("reduce-scatter") << int(GroupMode::FlattenedIds)
                                   << Groups{{0, 3}, {1, 2}};
    QTest::newRow("flattened_ids_async") << QStringLiteral(
                                                "channel_id=1, replica_groups=[2,2]<=[4], use_global_device_ids=true")
                                         << QStringLiteral("all-reduce-start") << int(GroupMode::FlattenedIds)
                                         << Groups{{0, 1}, {2, 3}};
}

void TestHloParser::groupModes()
{
    QFETCH(QString, attributes);
    QFETCH(QString, opcode);
    QFETCH(int, mode);
    QFETCH(Groups, groups);
    const std::string text = "HloModule m, replica_count=2, num_partitions=2\nadd {\n  a = f32[] parameter(0)\n"
                             "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\nENTRY e {\n"
                             "  p = f32[4] parameter(0)\n  ROOT c = f32[4] " +
                             opcode.toStdString() + "(p), " + attributes.toStdString() + ", to_apply=add\n}\n";
    const Module m = parseHlo(text, "modes.hlo");
    const Instruction& collective = m.entryComputation().instructions.back();
    QCOMPARE(int(groupMode(collective)), mode);
    const DeviceSpace space{m.replicaCount, m.numPartitions};
    QCOMPARE(participatingGroups(groupMode(collective), collective.replicaGroups ? *collective.replicaGroups : Groups{},
                                 space),
             groups);
}

void TestHloParser::permutePairs()
{
    const DeviceSpace space{2, 3};
    const std::vector<std::pair<std::int64_t, std::int64_t>> pairs{{0, 1}, {1, 2}};
    // Cross-partition: within each replica (devices 0-2 and 3-5).
    QCOMPARE(globalSourceTargetPairs(pairs, true, space),
             (std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {1, 2}, {3, 4}, {4, 5}}));
    // Cross-replica: replica ids within each partition; only replicas 0 and 1 exist.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, globalSourceTargetPairs(pairs, false, space));
    QCOMPARE(globalSourceTargetPairs({{1, 0}}, false, space),
             (std::vector<std::pair<std::int64_t, std::int64_t>>{{3, 0}, {4, 1}, {5, 2}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             participatingGroups(GroupMode::FlattenedIds, Groups{{0, 1}, {1, 2}}, space));
}

void TestHloParser::badInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not_hlo") << QStringLiteral("module {}\n") << 1 << QStringLiteral("column 1: expected 'HloModule'");
    QTest::newRow("missing_equals") << QStringLiteral("HloModule m\nENTRY e {\n  p f32[2] parameter(0)\n}\n") << 3
                                    << QStringLiteral("column 5: expected '=' after the instruction name, found 'f32'");
    QTest::newRow("bad_element_type") << QStringLiteral("HloModule m\nENTRY e {\n  p = f31[2] parameter(0)\n}\n") << 3
                                      << QStringLiteral("expected an element type");
    QTest::newRow("undefined_operand")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(q)\n}\n") << 4
        << QStringLiteral("'q' is not defined there");
    QTest::newRow("unknown_computation")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = f32[2] all-reduce(p), "
                          "to_apply=%nowhere\n}\n")
        << 4 << QStringLiteral("'nowhere' is not one");
    QTest::newRow("bad_replica_groups")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = f32[2] all-gather(p), "
                          "replica_groups=[2,3]<=[8], dimensions={0}\n}\n")
        << 4 << QStringLiteral("bad replica_groups");
    QTest::newRow("two_entries") << QStringLiteral("HloModule m\nENTRY a {\n  ROOT p = f32[] parameter(0)\n}\n"
                                                   "ENTRY b {\n  ROOT p = f32[] parameter(0)\n}\n")
                                 << 5 << QStringLiteral("a second one");
    QTest::newRow("unclosed_body") << QStringLiteral("HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)\n") << 4
                                   << QStringLiteral("expected '}' to close computation e");
    QTest::newRow("duplicate_name")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  p = f32[] parameter(1)\n}\n") << 4
        << QStringLiteral("defined twice");
    // Elementwise operands have the result's dimensions (only dimensions: a compare's result is pred,
    // a convert's another type).
    QTest::newRow("elementwise_shapes_differ")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[16] parameter(0)\n  q = f32[8] parameter(1)\n"
                          "  ROOT r = f32[16] add(p, q)\n}\n")
        << 5 << QStringLiteral("expected an operand of add with the dimensions of its result f32[16], 'q' is f32[8]");
    QTest::newRow("unary_shape_differs")
        << QStringLiteral("HloModule m\nENTRY e {\n  p = f32[2,3] parameter(0)\n  ROOT r = bf16[3,2] convert(p)\n}\n")
        << 4 << QStringLiteral("'p' is f32[2,3]");
}

void TestHloParser::badInput()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, reason);
    try {
        parseHlo(text.toStdString(), "bad.hlo");
        QFAIL("bad input was accepted");
    } catch (const InputError& e) {
        QCOMPARE(e.file(), std::string("bad.hlo"));
        QCOMPARE(e.line().value_or(-1), line);
        QVERIFY2(std::string(e.what()).find(reason.toStdString()) != std::string::npos, e.what());
    }
}

void TestHloParser::sharedSamplesParse_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("computations");
    QTest::addColumn<int>("instructions");
    QTest::newRow("wave_equation") << QStringLiteral("hlo_after_optimizations_wave_equation_8_gpus.txt") << 14 << 146;
    QTest::newRow("llama2_tp4_pp2") << QStringLiteral("llama2_dp1_tp4_pp2.hlo.txt") << 35 << 870;
    QTest::newRow("model_par_after") << QStringLiteral("model_par_3d.after_optimizations_8_gpus.txt") << 17 << 140;
    QTest::newRow("model_par_before") << QStringLiteral("model_par_3d.before_optimizations_8_gpus.txt") << 22 << 235;
    QTest::newRow("sharding_fsdp") << QStringLiteral("sharding_fsdp.hlo.txt") << 3 << 50;
    QTest::newRow("sharding_megatron") << QStringLiteral("sharding_megatron-lm.hlo.txt") << 2 << 42;
    QTest::newRow("llama31_70b") << QStringLiteral("hlo_llama31_70b_bf16_16x8.hlo") << 139 << 1875;
    QTest::newRow("llama31_8b") << QStringLiteral("hlo_llama31_8b_bf16_1x8.hlo") << 2915 << 31855;
}

void TestHloParser::sharedSamplesParse()
{
    QFETCH(QString, file);
    QFETCH(int, computations);
    QFETCH(int, instructions);
    const std::string path = FLINT_SHARED_DATA "/hlo/" + file.toStdString();
    if (!QFile::exists(QString::fromStdString(path)))
        QSKIP("../shared/data is not present");
    const Module m = readHloFile(path);
    QCOMPARE(int(m.computations.size()), computations);
    std::size_t total = 0;
    for (const Computation& c : m.computations)
        total += c.instructions.size();
    QCOMPARE(int(total), instructions);
}

QTEST_GUILESS_MAIN(TestHloParser)
#include "tst_hloparser.moc"
