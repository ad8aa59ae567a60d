// SPDX-License-Identifier: MIT
#include "core/program.h"
#include "core/synthetictrace.h"
#include "core/workload.h"

#include <QTest>

using namespace flint::core;

class TestProgram : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void enumNamesRoundTrip();
    void dtypeWidths();
    void commSlotsAreShared();
    void longestChain_data();
    void longestChain();
    void spmdRanksShareOneProgram();
    void groupsAreDeduplicated();
    void validateFindsBrokenBindings();
    void membersOfWorldCollective();
};

void TestProgram::enumNamesRoundTrip()
{
    for (int k = 0; k <= static_cast<int>(OpKind::Collective); ++k) {
        const auto kind = static_cast<OpKind>(k);
        QCOMPARE(opKindFromChakraName(chakraName(kind)).value(), kind);
    }
    for (int k = 0; k <= static_cast<int>(CollectiveKind::CollectiveBroadcast); ++k) {
        const auto kind = static_cast<CollectiveKind>(k);
        QCOMPARE(collectiveKindFromChakraName(chakraName(kind)).value(), kind);
    }
    QCOMPARE(chakraName(OpKind::Compute), std::string_view("COMP_NODE"));
    QCOMPARE(chakraName(CollectiveKind::ReduceScatter), std::string_view("REDUCE_SCATTER"));
    QCOMPARE(displayName(CollectiveKind::AllToAll), std::string_view("all-to-all"));
    QVERIFY(!opKindFromChakraName("NOT_A_NODE"));
}

void TestProgram::dtypeWidths()
{
    QCOMPARE(bitWidth(DType::BF16), 16);
    QCOMPARE(bitWidth(DType::F8E4M3FN), 8);
    QCOMPARE(bitWidth(DType::S4), 4);
    QCOMPARE(bitWidth(DType::C128), 128);
    QCOMPARE(dtypeFromString("f32").value(), DType::F32);
    QCOMPARE(displayName(DType::F8E5M2), std::string_view("f8e5m2"));
    QVERIFY(!dtypeFromString("f33"));
}

void TestProgram::commSlotsAreShared()
{
    Program program;
    QCOMPARE(program.commSlotFor("tp"), 0);
    QCOMPARE(program.commSlotFor("dp"), 1);
    QCOMPARE(program.commSlotFor("tp"), 0);
    QCOMPARE(program.commSlots.size(), std::size_t(2));
}

namespace {

Op opWith(std::uint64_t id, std::vector<std::uint64_t> data, std::vector<std::uint64_t> ctrl = {})
{
    Op op;
    op.id = id;
    op.name = "op" + std::to_string(id);
    op.dataDeps = std::move(data);
    op.ctrlDeps = std::move(ctrl);
    return op;
}

} // namespace

void TestProgram::longestChain_data()
{
    QTest::addColumn<std::vector<Op>>("ops");
    QTest::addColumn<quint64>("length");
    QTest::addColumn<quint64>("onCycles");
    QTest::newRow("empty") << std::vector<Op>{} << quint64(0) << quint64(0);
    QTest::newRow("diamond") << std::vector<Op>{opWith(1, {}), opWith(2, {1}), opWith(3, {1}), opWith(4, {2, 3})}
                             << quint64(3) << quint64(0);
    QTest::newRow("control_edge_counts") << std::vector<Op>{opWith(1, {}), opWith(2, {}, {1}), opWith(3, {2})}
                                         << quint64(3) << quint64(0);
    QTest::newRow("dangling_and_self_ignored")
        << std::vector<Op>{opWith(5, {99}), opWith(6, {5, 6})} << quint64(2) << quint64(0);
    QTest::newRow("forward_reference") << std::vector<Op>{opWith(1, {2}), opWith(2, {})} << quint64(2) << quint64(0);
    QTest::newRow("cycle_counted") << std::vector<Op>{opWith(1, {}), opWith(2, {1, 3}), opWith(3, {2}), opWith(4, {3})}
                                   << quint64(1) << quint64(3);
}

void TestProgram::longestChain()
{
    QFETCH(std::vector<Op>, ops);
    QFETCH(quint64, length);
    QFETCH(quint64, onCycles);
    Program program;
    program.ops = ops;
    const auto chain = program.longestDependencyChain();
    QCOMPARE(chain.length, length);
    QCOMPARE(chain.opsOnCycles, onCycles);
}

void TestProgram::spmdRanksShareOneProgram()
{
    // 4,096 ranks of one 10,000-op program hold one Program, not 4,096 copies.
    auto program = std::make_shared<const Program>(makeSyntheticProgram(10'000));
    QCOMPARE(program->ops.size(), std::size_t(10'000));
    QCOMPARE(program->commSlots.size(), std::size_t(1));
    const Workload workload = Workload::spmd(program, 4096, [](std::size_t rank, std::size_t) {
        // Tensor-parallel groups of 8 consecutive ranks.
        const auto first = static_cast<std::int32_t>(rank / 8 * 8);
        std::vector<std::int32_t> members(8);
        for (std::int32_t i = 0; i < 8; ++i)
            members[static_cast<std::size_t>(i)] = first + i;
        return members;
    });
    QCOMPARE(workload.rankCount(), std::size_t(4096));
    QCOMPARE(workload.programs.size(), std::size_t(1));
    QCOMPARE(program.use_count(), 2L); // ours and the workload's
    QCOMPARE(&workload.programOf(0), &workload.programOf(4095));
    QCOMPARE(workload.groups.size(), std::size_t(512));
    QCOMPARE(workload.validate(), std::string());
    const Op& allReduce = program->ops[5];
    QCOMPARE(allReduce.kind, OpKind::Collective);
    QCOMPARE(workload.membersOf(13, allReduce), (std::vector<std::int32_t>{8, 9, 10, 11, 12, 13, 14, 15}));
    QCOMPARE(workload.groupOf(4095, allReduce)->ranks.front(), 4088);
}

void TestProgram::groupsAreDeduplicated()
{
    Workload workload;
    QCOMPARE(workload.groupFor({0, 1}), 0u);
    QCOMPARE(workload.groupFor({2, 3}), 1u);
    QCOMPARE(workload.groupFor({0, 1}), 0u);
    QCOMPARE(workload.groups[0].name, std::string("1"));
    QCOMPARE(workload.groups[1].name, std::string("2"));
    QCOMPARE(workload.findGroup("2"), 1);
    QCOMPARE(workload.findGroup("7"), -1);
}

void TestProgram::validateFindsBrokenBindings()
{
    auto program = std::make_shared<Program>();
    program->commSlotFor("tp");
    Workload workload;
    workload.programs.push_back(program);
    workload.ranks.resize(2);
    QVERIFY(workload.validate().find("binds 0 comm slots") != std::string::npos);
    workload.ranks[0].slotGroups = {workload.groupFor({0, 1})};
    workload.ranks[1].slotGroups = {workload.groupFor({0, 1})};
    QCOMPARE(workload.validate(), std::string());
    workload.ranks[1].slotGroups = {workload.groupFor({0})};
    QVERIFY(workload.validate().find("not one of its members") != std::string::npos);
    workload.groups.push_back({"9", {0, 5}});
    QVERIFY(workload.validate().find("names rank 5 of 2") != std::string::npos);
}

void TestProgram::membersOfWorldCollective()
{
    auto program = std::make_shared<Program>();
    Op op;
    op.kind = OpKind::Collective;
    program->ops.push_back(op);
    const Workload workload =
        Workload::spmd(program, 3, [](std::size_t, std::size_t) { return std::vector<std::int32_t>{}; });
    QVERIFY(workload.groupOf(1, op) == nullptr);
    QCOMPARE(workload.membersOf(1, op), (std::vector<std::int32_t>{0, 1, 2}));
}

QTEST_GUILESS_MAIN(TestProgram)
#include "tst_program.moc"
