// SPDX-License-Identifier: MIT
// The Ops table: the model passes QAbstractItemModelTester through resets, sorts on raw values,
// filters on name, kind and scope, and the page reports the user's choice but not a followed one.
#include "core/estimator/estimate.h"
#include "core/synthetictrace.h"
#include "views/opspage.h"
#include "views/opstablemodel.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace flint;

namespace {

struct Fixture {
    std::shared_ptr<const core::Workload> workload;
    std::shared_ptr<const core::EstimateResult> result;
};

Fixture estimated(std::uint64_t ops, std::int32_t ranks)
{
    Fixture f;
    f.workload = std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(ops, ranks, 4, 64 << 20));
    f.result = core::estimate(*f.workload, *core::clusterPreset("dgx-h100-ib", ranks));
    return f;
}

} // namespace

class TestOpsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void modelPassesTheTester();
    void sortsSlowestFirstOnRawTimes();
    void filtersByKind();
    void hidesAnEmptyScopeColumn();
    void saysWhyABaselineOfOtherOpsHasNoColumn();
    void selectionIsReportedOnlyWhenTheUserChooses();
};

void TestOpsPage::modelPassesTheTester()
{
    views::OpsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    const Fixture f = estimated(200, 8);
    model.setData(f.workload, f.result, 3);
    QCOMPARE(model.rowCount(), 200);
    QCOMPARE(model.columnCount(), int(views::OpsTableModel::ColumnCount));
    QCOMPARE(model.rank(), 3);
    model.setData(f.workload, nullptr, 1); // no estimate yet: no times
    QCOMPARE(model.index(0, views::OpsTableModel::Duration).data().toString(), QString());
    model.setData(nullptr, nullptr, 0);
    QCOMPARE(model.rowCount(), 0);
    model.setData(f.workload, f.result, 99); // out of range: empty, not a crash
    QCOMPARE(model.rowCount(), 0);
}

void TestOpsPage::sortsSlowestFirstOnRawTimes()
{
    const Fixture f = estimated(300, 8);
    views::OpsPage page;
    page.setData(f.workload, f.result, 0);
    QSortFilterProxyModel* proxy = page.proxy();
    QCOMPARE(proxy->rowCount(), 300);
    // Sorted on seconds, not on the "1.2 ms" text: every row at least as slow as the next.
    const std::span<const core::OpEvent> events = f.result->eventsOf(0);
    double slowest = 0;
    for (const core::OpEvent& e : events)
        slowest = std::max(slowest, e.end - e.start);
    double previous = slowest;
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const double seconds =
            proxy->index(row, views::OpsTableModel::Duration).data(views::OpsTableModel::SortRole).toDouble();
        QVERIFY2(seconds <= previous, qPrintable(QStringLiteral("row %1").arg(row)));
        previous = seconds;
    }
    QCOMPARE(proxy->index(0, views::OpsTableModel::Duration).data(views::OpsTableModel::SortRole).toDouble(), slowest);
}

void TestOpsPage::filtersByKind()
{
    const Fixture f = estimated(300, 8);
    const core::Program& program = f.workload->programOf(0);
    const auto collectives = std::count_if(program.ops.begin(), program.ops.end(),
                                           [](const core::Op& op) { return op.kind == core::OpKind::Collective; });
    QVERIFY(collectives > 0);
    views::OpsPage page;
    page.setData(f.workload, f.result, 0);
    page.filter()->setText(QStringLiteral("ALL-REDUCE"));
    QCOMPARE(page.proxy()->rowCount(), int(collectives));
    page.filter()->setText(QStringLiteral("no such op"));
    QCOMPARE(page.proxy()->rowCount(), 0);
    page.filter()->clear();
    QCOMPARE(page.proxy()->rowCount(), int(program.ops.size()));
}

void TestOpsPage::hidesAnEmptyScopeColumn()
{
    // Ops with scopes show the column; a workload without any (HLO without op-name metadata) hides
    // it, so that the times stay on screen.
    Fixture f = estimated(100, 2);
    views::OpsPage page;
    auto* table = page.findChild<QTableView*>();
    page.setData(f.workload, f.result, 0);
    const bool scoped = std::any_of(f.workload->programOf(0).ops.begin(), f.workload->programOf(0).ops.end(),
                                    [](const core::Op& op) { return !op.scope.empty(); });
    QCOMPARE(table->isColumnHidden(views::OpsTableModel::Scope), !scoped);
    core::Workload unscoped = *f.workload;
    core::Program program = unscoped.programOf(0);
    for (core::Op& op : program.ops)
        op.scope.clear();
    for (auto& shared : unscoped.programs)
        shared = std::make_shared<const core::Program>(program);
    auto bare = std::make_shared<const core::Workload>(std::move(unscoped));
    page.setData(bare, f.result, 0);
    QVERIFY(table->isColumnHidden(views::OpsTableModel::Scope));
}

void TestOpsPage::saysWhyABaselineOfOtherOpsHasNoColumn()
{
    Fixture f = estimated(100, 2);
    Fixture other = estimated(150, 2);
    views::OpsPage page;
    auto* table = page.findChild<QTableView*>();
    page.setData(f.workload, f.result, 0);
    page.setBaseline(f.workload, f.result);
    QVERIFY(!table->isColumnHidden(views::OpsTableModel::DurationDelta));
    QVERIFY(!page.summary().contains(QStringLiteral("other ops")));
    page.setBaseline(other.workload, other.result);
    QVERIFY(table->isColumnHidden(views::OpsTableModel::DurationDelta));
    QVERIFY2(page.summary().contains(QStringLiteral("the baseline runs other ops")), qPrintable(page.summary()));
}

void TestOpsPage::selectionIsReportedOnlyWhenTheUserChooses()
{
    const Fixture f = estimated(100, 8);
    views::OpsPage page;
    page.setData(f.workload, f.result, 5);
    QSignalSpy activated(&page, &views::OpsPage::opActivated);
    page.selectOp(42);
    QCOMPARE(activated.count(), 0);
    QCOMPARE(page.table()->currentIndex().data(views::OpsTableModel::OpIndexRole).toUInt(), 42U);
    const QModelIndex other = page.proxy()->index(0, 0);
    page.table()->selectionModel()->setCurrentIndex(other, QItemSelectionModel::ClearAndSelect);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.front().at(0).toInt(), 5);
    QCOMPARE(activated.front().at(1).toInt(), other.data(views::OpsTableModel::OpIndexRole).toInt());
}

QTEST_MAIN(TestOpsPage)
#include "tst_opspage.moc"
