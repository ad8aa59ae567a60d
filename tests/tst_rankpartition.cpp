// SPDX-License-Identifier: MIT
#include "core/rankpartition.h"
#include "core/synthetictrace.h"

#include <QTest>

using namespace flint::core;

class TestRankPartition : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void meshAxesOfSpmdWorkload();
    void partitionsNamedByTheWorkloadsMesh();
    void programsFormStages();
    void allRankGroupsAreNotPartitions();
};

namespace {

using Parts = std::vector<std::vector<std::int32_t>>;

const RankPartition* findByKind(const std::vector<RankPartition>& partitions, const std::string& kind,
                                std::size_t groupSize)
{
    for (const RankPartition& p : partitions)
        if (std::find(p.kinds.begin(), p.kinds.end(), kind) != p.kinds.end() && p.parts.front().size() == groupSize)
            return &p;
    return nullptr;
}

} // namespace

void TestRankPartition::meshAxesOfSpmdWorkload()
{
    // 16 ranks, tensor-parallel groups of 4 consecutive ranks, data-parallel groups of stride 4.
    const Workload w = makeSyntheticSpmdWorkload(60, 16, 4, 1 << 20);
    const std::vector<RankPartition> partitions = rankPartitions(w);
    QCOMPARE(partitions.size(), std::size_t(2));
    for (const RankPartition& p : partitions) {
        QCOMPARE(p.basis, RankPartition::Basis::Communicator);
        QCOMPARE(p.parts.size(), std::size_t(4));
        QVERIFY(QString::fromStdString(p.label).startsWith(QStringLiteral("4 groups of 4 ranks (")));
    }
    const Parts tp = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
    const Parts dp = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}};
    QVERIFY(partitions[0].parts == tp || partitions[1].parts == tp);
    QVERIFY(partitions[0].parts == dp || partitions[1].parts == dp);
    const RankPartition& byDp = partitions[0].parts == dp ? partitions[0] : partitions[1];
    QCOMPARE(byDp.order(), (std::vector<std::int32_t>{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}));
    QVERIFY(findByKind(partitions, "ALL_REDUCE", 4) != nullptr);
}

void TestRankPartition::partitionsNamedByTheWorkloadsMesh()
{
    // No mesh: no names.
    Workload w = makeSyntheticSpmdWorkload(60, 16, 4, 1 << 20);
    for (const RankPartition& p : rankPartitions(w))
        QCOMPARE(p.axes, std::string());
    const Parts tp = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
    const auto axesOf = [&](const Parts& parts) {
        for (const RankPartition& p : rankPartitions(w))
            if (p.parts == parts)
                return p.axes;
        return std::string("(none)");
    };
    // Tensor parallelism fastest: the consecutive groups are TP, the stride-4 groups DP.
    w.meshAxes = {{"DP", 4}, {"TP", 4}};
    QCOMPARE(axesOf(tp), std::string("TP"));
    QCOMPARE(axesOf({{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}), std::string("DP"));
    // Groups spanning two axes of a finer mesh are named by both, major first.
    w.meshAxes = {{"DP", 4}, {"CP", 2}, {"TP", 2}};
    QCOMPARE(axesOf(tp), std::string("CP x TP"));
    // A mesh whose axes give other groups names nothing; so does one of another size.
    w.meshAxes = {{"A", 2}, {"B", 8}};
    QCOMPARE(axesOf(tp), std::string());
    w.meshAxes = {{"DP", 8}, {"TP", 4}};
    QCOMPARE(axesOf(tp), std::string());
}

void TestRankPartition::programsFormStages()
{
    // Two pipeline stages of 3 ranks each, ranks interleaved: 0, 2, 4 run stage 0.
    Workload w;
    auto stage0 = std::make_shared<Program>();
    stage0->name = "stage0";
    auto stage1 = std::make_shared<Program>();
    stage1->name = "stage1";
    w.programs = {stage0, stage1};
    for (std::uint32_t r = 0; r < 6; ++r)
        w.ranks.push_back(RankBinding{r % 2, {}, nullptr});
    QCOMPARE(w.validate(), std::string());
    const std::vector<RankPartition> partitions = rankPartitions(w);
    QCOMPARE(partitions.size(), std::size_t(1));
    QCOMPARE(partitions[0].basis, RankPartition::Basis::Program);
    QCOMPARE(partitions[0].parts, (Parts{{0, 2, 4}, {1, 3, 5}}));
    QCOMPARE(partitions[0].order(), (std::vector<std::int32_t>{0, 2, 4, 1, 3, 5}));
    QCOMPARE(partitions[0].label, std::string("2 programs of 3 ranks"));
    QVERIFY(!partitions[0].stages); // nothing passes between them: roles, or mirrored recorded ranks

    // A send from each rank of stage 0 to the next rank, which runs stage 1, makes them stages.
    Op send;
    send.kind = OpKind::Send;
    send.name = "activations";
    send.commBytes = 1024;
    Op recv = send;
    recv.kind = OpKind::Recv;
    auto sending = std::make_shared<Program>(*stage0);
    sending->ops.push_back(send);
    auto receiving = std::make_shared<Program>(*stage1);
    receiving->ops.push_back(recv);
    w.programs = {sending, receiving};
    const std::vector<RankPartition> staged = rankPartitions(w);
    QCOMPARE(staged.size(), std::size_t(1));
    QVERIFY(staged[0].stages);
    QCOMPARE(staged[0].label, std::string("2 pipeline stages of 3 ranks"));
}

void TestRankPartition::allRankGroupsAreNotPartitions()
{
    // tp = ranks: one group of every rank for "tp", singleton groups for "dp": neither divides the
    // ranks into 2..n-1 parts worth grouping by.
    const Workload w = makeSyntheticSpmdWorkload(30, 8, 8, 1 << 20);
    QVERIFY(rankPartitions(w).empty());
}

QTEST_GUILESS_MAIN(TestRankPartition)
#include "tst_rankpartition.moc"
