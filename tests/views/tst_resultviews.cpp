// SPDX-License-Identifier: MIT
// The result views driven through their real controls: the communication matrix page (node
// aggregation, kind filter, metric, rank order, outlines), the charts page (its top ops follow the
// estimate) and the timeline page (grouping, zoom and fit, a click on a span names its op).
#include "core/estimator/estimate.h"
#include "core/synthetictrace.h"
#include "views/chartspage.h"
#include "views/commmatrixpage.h"
#include "views/commmatrixview.h"
#include "views/timelinepage.h"
#include "views/timelineview.h"
#include "views/viewpalette.h"

#include <cmath>

#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>
#include <QWheelEvent>

using namespace flint;

namespace {

/// 16 ranks in TP groups of 4 consecutive ranks; a 64 MiB gradient all-reduce over {r, r+4, r+8,
/// r+12} (core/synthetictrace.h), estimated on two 8-GPU H100 nodes, bandwidth times `scale`.
struct Fixture {
    std::shared_ptr<const core::Workload> workload;
    std::shared_ptr<const core::EstimateResult> result;
};

constexpr std::uint64_t kGradient = 64u << 20;

Fixture estimated(double scale = 1)
{
    Fixture f;
    f.workload = std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(200, 16, 4, kGradient));
    core::Cluster cluster = *core::clusterPreset("dgx-h100-ib", 16);
    for (auto& dim : cluster.topology.dims)
        dim.bandwidthGBps *= scale;
    f.result = core::estimate(*f.workload, cluster);
    return f;
}

/// The matrix page at 800 x 600 on screen, showing `f`.
void showMatrix(views::CommMatrixPage& page, const Fixture& f)
{
    page.resize(800, 600);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.setData(f.workload, f.result, 8);
}

double rowBytes(const views::CommMatrixView& view, int row)
{
    double sum = 0;
    for (int c = 0; c < view.cellCount(); ++c)
        sum += view.cellBytes(row, c);
    return sum;
}

} // namespace

class TestResultViews : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matrixControls();
    void nearlyEqualCellsLookAlike();
    void matrixWithoutTrafficSaysSo();
    void matrixDrawnSmallerThanItsCellsKeepsItsTraffic();
    void matrixZoomsAboutThePointerAndPans();
    void matrixLogicalTrafficAndGroupZoom();
    void matrixDifferenceFromBaseline();
    void chartsFollowTheEstimate();
    void spansColouredByPass();
    void lanesOpenGroupedByStage();
    void groupsNamedByTheMeshAxes();
    void timelineGroupsZoomsAndPicks();
    void timelineLabelsMicrobatchesAndTransfers();
};

void TestResultViews::nearlyEqualCellsLookAlike()
{
    // A 2-rank ring all-reduce moves the same bytes each way, a broadcast a little more from its root:
    // 0 -> 1 and 1 -> 0 differ by a fraction of a percent and must not take the two ends of the scale.
    auto program = std::make_shared<core::Program>();
    for (const std::uint64_t bytes : {std::uint64_t{64} << 20, std::uint64_t{300} << 10}) {
        core::Op op;
        op.id = program->ops.size();
        op.kind = core::OpKind::Collective;
        op.collective = bytes > (1u << 20) ? core::CollectiveKind::AllReduce : core::CollectiveKind::Broadcast;
        op.commBytes = bytes;
        op.commSlot = program->commSlotFor("world");
        program->ops.push_back(op);
    }
    auto workload = std::make_shared<core::Workload>(core::Workload::spmd(program, 2, [](std::size_t, std::size_t) {
        return std::vector<std::int32_t>{0, 1};
    }));
    const auto result = core::estimate(*workload, *core::clusterPreset("dgx-h100-ib", 2));
    views::CommMatrixView view;
    view.resize(400, 400);
    view.setResult(result, 8);
    QVERIFY(view.cellBytes(0, 1) != view.cellBytes(1, 0));
    QVERIFY(std::abs(view.cellBytes(0, 1) / view.cellBytes(1, 0) - 1) < 0.01);
    QVERIFY(view.colourScaleMin() <= std::max(view.cellBytes(0, 1), view.cellBytes(1, 0)) / 10);
    QVERIFY(view.emptyText().isEmpty());
    const QColor a = view.cellColor(0, 1), b = view.cellColor(1, 0);
    QVERIFY2(std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 12,
             qPrintable(a.name() + QStringLiteral(" vs ") + b.name()));
}

void TestResultViews::matrixWithoutTrafficSaysSo()
{
    // Two ranks that only compute: the matrix has cells, all zero. The view says there is no
    // traffic instead of drawing an empty matrix with a colour bar from 0 B to 0 B.
    auto program = std::make_shared<core::Program>();
    core::Op op;
    op.id = 0;
    op.name = "matmul";
    op.kind = core::OpKind::Compute;
    op.flops = 1000000;
    program->ops.push_back(op);
    auto workload = std::make_shared<core::Workload>(
        core::Workload::spmd(program, 2, [](std::size_t, std::size_t) { return std::vector<std::int32_t>{}; }));
    const auto result = core::estimate(*workload, *core::clusterPreset("dgx-h100-ib", 2));
    views::CommMatrixView view;
    view.setResult(result, 8);
    QCOMPARE(view.emptyText(), QStringLiteral("No rank-to-rank traffic in this step"));
}

void TestResultViews::matrixDrawnSmallerThanItsCellsKeepsItsTraffic()
{
    // 1,024 ranks, each sending to the rank 128 above it: a thin stripe of cells. Drawn in a few
    // hundred pixels every block the stripe crosses shows it (sampling one cell per pixel dropped
    // about three in four, and which ones depended on the window's size).
    auto result = std::make_shared<core::EstimateResult>();
    core::CommMatrix& matrix = result->commMatrix;
    matrix.reset(1024, false);
    for (int s = 0; s + 128 < 1024; ++s)
        matrix.bytes[static_cast<std::size_t>(s) * 1024 + static_cast<std::size_t>(s + 128)] = 1e6;
    views::CommMatrixView view;
    view.resize(360, 360);
    view.setResult(result, 8);
    const QImage shot = view.grab().toImage();
    const QRectF plot = view.cellRect(0, 0).united(view.cellRect(1023, 1023));
    const double cell = plot.width() / 1024;
    QVERIFY2(cell < 0.5, qPrintable(QString::number(cell))); // several cells per pixel
    const QRgb empty = view.palette().color(QPalette::AlternateBase).rgb();
    int lit = 0, probes = 0;
    for (int s = 0; s + 128 < 1024; s += 16) {
        const QPointF at = view.cellRect(s, s + 128).center();
        ++probes;
        if (shot.pixel(at.toPoint()) != empty)
            ++lit;
    }
    QVERIFY2(lit >= probes - 1, qPrintable(QStringLiteral("%1 of %2 probes on the stripe lit").arg(lit).arg(probes)));
}

void TestResultViews::matrixControls()
{
    const Fixture f = estimated();
    views::CommMatrixPage page;
    page.resize(800, 600);
    page.show();
    page.setData(f.workload, f.result, 8);
    views::CommMatrixView* view = page.view();
    QCOMPARE(view->cellCount(), 16);
    // The kind chooser lists the layers; choosing ALL_REDUCE keeps rank 0's traffic (all of it is
    // all-reduce), and the gradient's share is what a bandwidth-optimal all-reduce sends: 2 (n-1)/n.
    QComboBox* kinds = page.kindChooser();
    const int allReduce = kinds->findData(QStringLiteral("ALL_REDUCE"));
    QVERIFY(allReduce > 0);
    const double everything = rowBytes(*view, 0);
    kinds->setCurrentIndex(allReduce);
    QCOMPARE(view->kindFilter(), QStringLiteral("ALL_REDUCE"));
    QCOMPARE(rowBytes(*view, 0), everything);
    const double gradientShare = view->cellBytes(0, 4) + view->cellBytes(0, 8) + view->cellBytes(0, 12);
    QCOMPARE(gradientShare, 2.0 * 3 / 4 * static_cast<double>(kGradient));
    // Outlines: the transfer 0 -> 8 is the cell (0, 8) in rank order.
    view->highlightFlows({{0, 8}});
    QCOMPARE(view->highlightedCells(), (std::vector<std::pair<int, int>>{{0, 8}}));
    // Link time: every cell that carries bytes takes time; the cross-node cell is slower per byte.
    auto* metric = page.findChildren<QComboBox*>().at(1);
    QCOMPARE(metric->count(), 2);
    metric->setCurrentIndex(1);
    QCOMPARE(view->metric(), views::CommMatrixView::Metric::Seconds);
    QVERIFY(view->cellSeconds(0, 4) > 0);
    QVERIFY(view->cellSeconds(0, 8) / view->cellBytes(0, 8) > view->cellSeconds(0, 4) / view->cellBytes(0, 4));
    // Grouped by the data-parallel axis, rank 4 comes next to rank 0.
    QComboBox* order = page.orderChooser();
    QVERIFY(order->isEnabled());
    int byDp = -1;
    for (int i = 1; i < order->count(); ++i) {
        order->setCurrentIndex(i);
        if (view->ranksOfCell(1).first == 4)
            byDp = i;
    }
    QVERIFY(byDp > 0);
    // Node aggregation: two nodes; ordering is off while cells hold nodes.
    auto* byNode = page.findChild<QCheckBox*>();
    byNode->setChecked(true);
    QCOMPARE(view->cellCount(), 2);
    QVERIFY(!order->isEnabled());
    metric->setCurrentIndex(0);
    // Node 0 sends to node 1 exactly its ranks' cross-node gradient traffic: ranks 0..7 to 8..15.
    kinds->setCurrentIndex(allReduce);
    byNode->setChecked(false);
    order->setCurrentIndex(0);
    double crossNode = 0;
    for (int s = 0; s < 8; ++s)
        for (int d = 8; d < 16; ++d)
            crossNode += view->cellBytes(s, d);
    byNode->setChecked(true);
    QCOMPARE(view->cellBytes(0, 1), crossNode);
}

void TestResultViews::matrixZoomsAboutThePointerAndPans()
{
    // The wheel zooms about the pointer (the cell under it stays under it), a drag pans, a click
    // names its cell, F fits; ticks and node separators stay readable whatever the zoom.
    const Fixture f = estimated();
    views::CommMatrixPage page;
    showMatrix(page, f);
    views::CommMatrixView* view = page.view();
    QCOMPARE(view->cellCount(), 16);
    const double cellPixels = view->cellRect(0, 0).width();
    QVERIFY(view->tickStep() >= 1 && view->tickStep() * cellPixels >= 40);
    QCOMPARE(view->separatorStep(), 8); // the node boundary
    QSignalSpy clicked(view, &views::CommMatrixView::cellClicked);
    QTest::mouseClick(view, Qt::LeftButton, {}, view->cellRect(3, 7).center().toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.front(), (QList<QVariant>{3, 1, 7, 1}));

    const QPointF at = view->cellRect(12, 13).center();
    QWheelEvent wheel(at, view->mapToGlobal(at), {}, {0, 3 * 120}, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                      false);
    QApplication::sendEvent(view, &wheel);
    QVERIFY(view->zoom() > 1);
    QCOMPARE(view->cellAt(at), (std::pair<int, int>{12, 13}));
    QVERIFY(view->cellRect(12, 13).width() > 1.2 * cellPixels);
    // The zoom stops where a cell is 48 pixels wide, or at 4x where cells are wide already.
    for (int i = 0; i < 20; ++i)
        view->zoomAbout(at, 1.5);
    QCOMPARE(view->zoom(), std::max(4.0, 48 / cellPixels));
    QVERIFY(view->tickStep() >= 1);
    // A drag pans and clicks nothing: the cell grabbed moves with the pointer.
    const QPoint from = at.toPoint(), to = from + QPoint(60, 60);
    const std::pair<int, int> grabbed = view->cellAt(QPointF(from));
    QVERIFY(grabbed.first >= 0);
    QTest::mousePress(view, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, {}, to);
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(view->cellAt(QPointF(to)), grabbed);
    view->setFocus();
    QTest::keyClick(view, Qt::Key_F);
    QCOMPARE(view->zoom(), 1.0);
    QCOMPARE(view->cellRect(0, 0).width(), cellPixels);
}

void TestResultViews::matrixLogicalTrafficAndGroupZoom()
{
    const Fixture f = estimated();
    views::CommMatrixPage page;
    showMatrix(page, f);
    views::CommMatrixView* view = page.view();
    QComboBox* traffic = page.trafficChooser();
    QComboBox* metric = page.metricChooser();
    QCOMPARE(view->traffic(), views::CommMatrixView::Traffic::Link);
    metric->setCurrentIndex(1); // link time
    QVERIFY(metric->isEnabled());
    // Logical traffic: the gradient all-reduce over {0, 4, 8, 12} sends 2 S / 4 from rank 0 to each
    // other member, whichever algorithm moves it; bytes only.
    traffic->setCurrentIndex(traffic->findData(int(views::CommMatrixView::Traffic::Logical)));
    QCOMPARE(view->traffic(), views::CommMatrixView::Traffic::Logical);
    QVERIFY(!metric->isEnabled());
    QComboBox* kinds = page.kindChooser();
    kinds->setCurrentIndex(kinds->findData(QStringLiteral("ALL_REDUCE")));
    QCOMPARE(view->kindFilter(), QStringLiteral("ALL_REDUCE"));
    const core::CommMatrix* logical = view->matrix();
    QVERIFY(logical != &f.result->commMatrix);
    QVERIFY(logical->seconds.empty());
    for (int peer : {4, 8, 12})
        QCOMPARE(view->cellBytes(0, peer), static_cast<double>(kGradient) / 2);
    QCOMPARE(view->cellSeconds(0, 4), 0.0);
    QCOMPARE(view->cellBytes(0, 5), 0.0);
    // The same step's total from rank 0 to its data-parallel peers, in the link view: the
    // bandwidth-optimal 2 (n - 1) / n S in both.
    traffic->setCurrentIndex(traffic->findData(int(views::CommMatrixView::Traffic::Link)));
    QVERIFY(metric->isEnabled());
    QCOMPARE(view->metric(), views::CommMatrixView::Metric::Seconds);
    metric->setCurrentIndex(0);
    QCOMPARE(view->cellBytes(0, 4) + view->cellBytes(0, 8) + view->cellBytes(0, 12), 1.5 * kGradient);
    // A new estimate of the same workload keeps the logical matrix; a new workload finds it again.
    traffic->setCurrentIndex(traffic->findData(int(views::CommMatrixView::Traffic::Logical)));
    const Fixture slow = estimated(0.5);
    page.setData(f.workload, slow.result, 8);
    QCOMPARE(view->matrix(), logical);
    page.setData(slow.workload, slow.result, 8);
    QVERIFY(view->matrix() != logical);
    QCOMPARE(view->cellBytes(0, 8), static_cast<double>(kGradient) / 2);

    // Double-click zooms onto the group of the cell's source rank: in rank order its node (ranks
    // 8-15 for rank 9) ...
    const QRectF whole(view->cellRect(0, 0).topLeft(), view->cellRect(15, 15).bottomRight());
    QTest::mouseDClick(view, Qt::LeftButton, {}, view->cellRect(9, 2).center().toPoint());
    QCOMPARE(view->zoom(), 2.0);
    QCOMPARE(view->cellRect(8, 8).topLeft(), whole.topLeft());
    QCOMPARE(view->cellRect(15, 15).bottomRight(), whole.bottomRight());
    view->resetZoom();
    // ... grouped by the data-parallel axis, its data-parallel group {0, 4, 8, 12}.
    QComboBox* order = page.orderChooser();
    for (int i = 1; i < order->count() && view->ranksOfCell(1).first != 4; ++i)
        order->setCurrentIndex(i);
    QCOMPARE(view->ranksOfCell(1).first, 4);
    QTest::mouseDClick(view, Qt::LeftButton, {}, view->cellRect(2, 9).center().toPoint());
    QCOMPARE(view->zoom(), 4.0);
    QCOMPARE(view->cellRect(0, 0).topLeft(), whole.topLeft());
    QCOMPARE(view->cellRect(3, 3).bottomRight(), whole.bottomRight());
    QCOMPARE(view->ranksOfCell(3).first, 12);
}

void TestResultViews::matrixDifferenceFromBaseline()
{
    // A what-if is a comparison: with a baseline pinned, the matrix shows each cell's change. Here
    // the gradient all-reduce doubles (TP traffic unchanged): its cells turn red by exactly the
    // baseline's bytes, the tensor-parallel cells stay empty; a baseline of another rank count
    // cannot be compared and the box says why.
    const Fixture base = estimated();
    Fixture now;
    now.workload = std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(200, 16, 4, 2 * kGradient));
    now.result = core::estimate(*now.workload, *core::clusterPreset("dgx-h100-ib", 16));
    views::CommMatrixPage page;
    showMatrix(page, now);
    views::CommMatrixView* view = page.view();
    QCheckBox* box = page.differenceBox();
    QVERIFY(!box->isEnabled()); // no baseline yet
    page.setBaseline(base.workload, base.result);
    QVERIFY(box->isEnabled());
    box->setChecked(true);
    QVERIFY(view->showsDifference());
    // Rank 0's data-parallel peers are ranks 4, 8, 12; its tensor-parallel peers 1 to 3.
    const auto dpCell = [&](int s) {
        for (int d = 0; d < view->cellCount(); ++d)
            if (d % 4 == s % 4 && d != s && view->baselineCellBytes(s, d) > 0)
                return d;
        return -1;
    };
    const int d = dpCell(0);
    QVERIFY(d > 0);
    const double before = view->baselineCellBytes(0, d);
    QVERIFY(qFuzzyCompare(view->cellBytes(0, d), before)); // doubled: the change is the old amount
    const QColor more = view->cellColor(0, d);
    QVERIFY2(more.red() > more.blue(), qPrintable(more.name()));
    // A cell whose traffic did not change is empty, as in the plain matrix.
    const int tpPeer = 1;
    QVERIFY(view->baselineCellBytes(0, tpPeer) > 0);
    QCOMPARE(view->cellBytes(0, tpPeer), 0.0);
    // Swapped, the change is a decrease and blue.
    page.setData(base.workload, base.result, 8);
    page.setBaseline(now.workload, now.result);
    QVERIFY(view->cellBytes(0, d) < 0);
    const QColor less = view->cellColor(0, d);
    QVERIFY2(less.blue() > less.red(), qPrintable(less.name()));
    // The same in logical traffic (worked out for the baseline's workload too).
    page.trafficChooser()->setCurrentIndex(
        page.trafficChooser()->findData(int(views::CommMatrixView::Traffic::Logical)));
    QVERIFY(view->showsDifference());
    QVERIFY(view->cellBytes(0, d) < 0);
    // Unticked, the plain matrix is back.
    box->setChecked(false);
    QVERIFY(!view->showsDifference());
    QVERIFY(view->cellBytes(0, d) > 0);
    // Another rank count: nothing to compare cell by cell.
    Fixture other;
    other.workload = std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(200, 8, 4, kGradient));
    other.result = core::estimate(*other.workload, *core::clusterPreset("dgx-h100-ib", 8));
    page.setBaseline(other.workload, other.result);
    QVERIFY(!box->isEnabled());
    QVERIFY(box->toolTip().contains(QStringLiteral("number of ranks")));
    page.setBaseline(nullptr, nullptr);
    QVERIFY(!box->isEnabled());
}

void TestResultViews::chartsFollowTheEstimate()
{
    views::ChartsPage page;
    page.resize(1000, 700);
    page.show();
    const Fixture fast = estimated();
    page.setData(fast.workload, fast.result);
    QVERIFY(page.breakdownGroups() > 0);
    QVERIFY(!page.topOps().isEmpty());
    // A hundredth of the bandwidth: the 64 MiB gradient all-reduce becomes the most expensive op.
    const Fixture slow = estimated(0.01);
    page.setData(slow.workload, slow.result);
    QVERIFY2(page.topOps().front().contains(QStringLiteral("grad_all_reduce")),
             qPrintable(page.topOps().join(QStringLiteral(", "))));

    // Publication-style axes: every value axis starts at 0 and ticks in 1-2-5 steps, numbers in the
    // chart's locale; byte axes in the unit that keeps the largest figure under 1,000; the
    // topology's dimensions by the names given.
    const QStringList names{QStringLiteral("8 × 370.8 GB/s"), QStringLiteral("2 × 50 GB/s")};
    page.setData(slow.workload, slow.result, names);
    page.topOps(); // builds the charts
    const QList<QChartView*> views = page.findChildren<QChartView*>();
    QCOMPARE(views.size(), 4);
    int valueAxes = 0;
    bool namedDimensions = false;
    for (QChartView* view : views) {
        QChart* chart = view->chart();
        QVERIFY(chart->localizeNumbers());
        for (QAbstractAxis* axis : chart->axes()) {
            if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
                QVERIFY(!categories->truncateLabels());
                namedDimensions = namedDimensions || categories->categories().contains(names[0]);
                continue;
            }
            auto* values = qobject_cast<QValueAxis*>(axis);
            QVERIFY(values);
            ++valueAxes;
            QCOMPARE(values->min(), 0.0);
            const double step = values->max() / (values->tickCount() - 1);
            const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
            QVERIFY2(qFuzzyCompare(mantissa, 1.0) || qFuzzyCompare(mantissa, 2.0) || qFuzzyCompare(mantissa, 5.0),
                     qPrintable(QStringLiteral("%1: max %2, %3 ticks")
                                    .arg(chart->title())
                                    .arg(values->max())
                                    .arg(values->tickCount())));
            if (values->titleText().endsWith(QLatin1Char('B')))
                QVERIFY2(values->max() < 2000 && values->max() >= 1, qPrintable(values->titleText()));
        }
    }
    QCOMPARE(valueAxes, 4);
    QVERIFY(namedDimensions);
}

void TestResultViews::spansColouredByPass()
{
    // Compute ops are coloured by the pass their scope names: the built-in models' forward and
    // backward blocks and optimizer, JAX's jvp / transpose(jvp) in HLO op names; communication by
    // its kind whatever its scope.
    const auto phase = [](const char* scope, core::OpKind kind = core::OpKind::Compute) {
        core::Op op;
        op.kind = kind;
        op.scope = scope;
        return views::phaseOf(op);
    };
    QCOMPARE(phase("microbatch 3/layer 7/forward/attention"), views::StepPhase::Forward);
    QCOMPARE(phase("microbatch 3/layer 7/backward/mlp"), views::StepPhase::Backward);
    QCOMPARE(phase("optimizer/adam.fused"), views::StepPhase::Optimizer);
    QCOMPARE(phase("jit(train_step)/jit(main)/jvp(MLP)/dot_general"), views::StepPhase::Forward);
    QCOMPARE(phase("jit(train_step)/jit(main)/transpose(jvp(MLP))/dot_general"), views::StepPhase::Backward);
    QCOMPARE(phase("fusion.3"), views::StepPhase::Other);
    QCOMPARE(phase("microbatch 3/layer 7/backward/mlp", core::OpKind::Collective), views::StepPhase::Other);
    QVERIFY(views::phaseColor(views::StepPhase::Forward) != views::phaseColor(views::StepPhase::Backward));
    QCOMPARE(views::phaseColor(views::StepPhase::Other), views::colorOf(core::OpKind::Compute));
    // A workload without passes keeps one compute colour and shows no pass legend.
    const Fixture f = estimated();
    views::TimelinePage page;
    page.setData(f.workload, f.result, 8);
    QVERIFY(!page.view()->showsPhases());
    auto* legend = page.findChild<QLabel*>(QStringLiteral("timelineLegend"));
    QVERIFY(legend && legend->text().isEmpty());
}

void TestResultViews::lanesOpenGroupedByStage()
{
    // Two programs of 8 ranks each (pipeline stages) open as two stage groups; a program per rank
    // (a trace without shared programs) opens grouped by node.
    core::Cluster cluster = *core::clusterPreset("dgx-h100-ib", 16);
    for (const bool staged : {true, false}) {
        auto w = std::make_shared<core::Workload>(core::makeSyntheticSpmdWorkload(200, 16, 4, kGradient));
        for (std::size_t r = 0; r < w->ranks.size(); ++r) {
            if (!staged || r >= 8) {
                w->programs.push_back(w->programs.front());
                w->ranks[r].program = static_cast<std::uint32_t>(w->programs.size() - 1);
            }
            if (staged && r > 8)
                w->ranks[r].program = w->ranks[8].program;
        }
        const auto result = core::estimate(*w, cluster);
        views::TimelinePage page;
        page.setData(w, result, 8);
        if (staged) {
            QVERIFY(page.groupingChooser()->currentIndex() > 0);
            QCOMPARE(page.view()->groupCount(), 2);
        } else {
            QCOMPARE(page.groupingChooser()->currentIndex(), 0);
            QCOMPARE(page.view()->groupCount(), 2); // two nodes of 8
        }
    }
}

void TestResultViews::groupsNamedByTheMeshAxes()
{
    // A workload that knows its mesh (as built-in models and MLIR modules with one mesh do) offers
    // its groups by axis name in the timeline's grouping and the matrix's order choosers.
    auto w = std::make_shared<core::Workload>(core::makeSyntheticSpmdWorkload(200, 16, 4, kGradient));
    w->meshAxes = {{"DP", 4}, {"TP", 4}};
    const auto result = core::estimate(*w, *core::clusterPreset("dgx-h100-ib", 16));
    views::TimelinePage page;
    page.setData(w, result, 8);
    QComboBox* grouping = page.groupingChooser();
    int tp = -1, dp = -1;
    for (int i = 0; i < grouping->count(); ++i) {
        if (grouping->itemText(i).startsWith(QStringLiteral("TP: 4 group")))
            tp = i;
        if (grouping->itemText(i).startsWith(QStringLiteral("DP: 4 group")))
            dp = i;
    }
    QVERIFY2(tp > 0 && dp > 0, qPrintable(grouping->itemText(1)));
    grouping->setCurrentIndex(tp);
    QCOMPARE(page.view()->groupName(1), QStringLiteral("TP 1"));
    grouping->setCurrentIndex(dp);
    QCOMPARE(page.view()->groupName(3), QStringLiteral("DP 3"));
    // A baseline of another workload with the same axes follows the chooser, now and when it changes;
    // grouped by node, both are by node.
    auto other = std::make_shared<core::Workload>(core::makeSyntheticSpmdWorkload(300, 16, 4, kGradient));
    other->meshAxes = w->meshAxes;
    page.setComparison(other, core::estimate(*other, *core::clusterPreset("dgx-h100-ib", 16)), 8,
                       QStringLiteral("Baseline #1"));
    QCOMPARE(page.comparisonView()->groupName(3), QStringLiteral("DP 3"));
    grouping->setCurrentIndex(tp);
    QCOMPARE(page.comparisonView()->groupName(1), QStringLiteral("TP 1"));
    grouping->setCurrentIndex(0);
    QCOMPARE(page.comparisonView()->groupCount(), page.view()->groupCount());
    views::CommMatrixPage matrix;
    matrix.setData(w, result, 8);
    QVERIFY(matrix.orderChooser()->findText(QStringLiteral("grouped by ") + grouping->itemText(tp)) > 0);
}

void TestResultViews::timelineGroupsZoomsAndPicks()
{
    const Fixture f = estimated();
    views::TimelinePage page;
    page.resize(1200, 700);
    page.show();
    page.setData(f.workload, f.result, 8);
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    views::TimelineView* view = page.view();
    QVERIFY(qFuzzyCompare(view->geometryOfTime().totalTime, f.result->stepTime));
    QCOMPARE(view->geometryOfTime().viewEnd, f.result->stepTime);
    // Grouping chooser: by node (2 groups), then an axis of 4 groups of 4.
    QComboBox* grouping = page.groupingChooser();
    QVERIFY(grouping->count() >= 2);
    QSet<int> counts;
    for (int i = 0; i < grouping->count(); ++i) {
        grouping->setCurrentIndex(i);
        counts.insert(view->groupCount());
    }
    QVERIFY2(counts.contains(2) && counts.contains(4), qPrintable(QString::number(counts.size())));
    // Zoom into the first tenth, then F fits the whole step again.
    view->showTimeRange(0, f.result->stepTime / 10);
    QVERIFY(view->geometryOfTime().span() < f.result->stepTime / 2);
    view->setFocus();
    QTest::keyClick(view, Qt::Key_F);
    QVERIFY(qFuzzyCompare(view->geometryOfTime().span(), f.result->stepTime));
    // A click in the middle of rank 0's longest span names that op.
    const auto events = f.result->eventsOf(0);
    QVERIFY(!events.empty());
    const core::OpEvent* longest = &events.front();
    for (const core::OpEvent& e : events)
        if (e.end - e.start > longest->end - longest->start)
            longest = &e;
    view->showTimeRange(longest->start, longest->end);
    QSignalSpy clicked(view, &views::TimelineView::opClicked);
    for (int y = 0; y < view->height() && clicked.isEmpty(); y += 4) {
        const int x = static_cast<int>(view->geometryOfTime().mapTimeToX(0.5 * (longest->start + longest->end)));
        QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(x, y));
        if (!clicked.isEmpty() && clicked.front().at(0).toInt() != 0)
            clicked.clear(); // another rank's lane: go on down
    }
    QVERIFY(!clicked.isEmpty());
    QCOMPARE(clicked.front().at(1).toInt(), static_cast<int>(longest->op));
    // Collapsed, the group's summary lane picks what its first rank runs there: the same op.
    view->setGroupCollapsed(0, true);
    QVERIFY(view->isGroupCollapsed(0));
    clicked.clear();
    const int x = static_cast<int>(view->geometryOfTime().mapTimeToX(0.5 * (longest->start + longest->end)));
    for (int y = 0; y < view->height() && clicked.isEmpty(); y += 4)
        QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(x, y));
    QVERIFY(!clicked.isEmpty());
    QCOMPARE(clicked.front().at(0).toInt(), 0);
    QCOMPARE(clicked.front().at(1).toInt(), static_cast<int>(longest->op));
}

namespace {

/// A two-stage pipeline of `microbatches` on ranks 0 and 1, peers named by global rank: stage 0
/// runs each microbatch's forward pass and sends its activations; stage 1 receives them and runs
/// the forward and backward passes (scopes as the built-in models write them).
std::shared_ptr<const core::Workload> twoStagePipeline(int microbatches)
{
    auto first = std::make_shared<core::Program>();
    auto second = std::make_shared<core::Program>();
    // A pass is a chain of 12 kernels of 20 GFLOP each (a quarter of a millisecond on an H100).
    const auto compute = [](core::Program& program, const std::string& name, const std::string& scope,
                            std::vector<std::uint64_t> deps) {
        for (int kernel = 0; kernel < 12; ++kernel) {
            core::Op op;
            op.id = program.ops.size();
            op.name = name + "_" + std::to_string(kernel);
            op.scope = scope;
            op.flops = 20'000'000'000;
            op.dataDeps = std::move(deps);
            deps = {op.id};
            program.ops.push_back(op);
        }
        return program.ops.back().id;
    };
    const auto transfer = [](core::Program& program, core::OpKind kind, std::int32_t peer, int tag,
                             std::vector<std::uint64_t> deps) {
        core::Op op;
        op.id = program.ops.size();
        op.name = kind == core::OpKind::Send ? "send_activations" : "recv_activations";
        op.kind = kind;
        (kind == core::OpKind::Send ? op.commDst : op.commSrc) = peer;
        op.commTag = tag;
        op.commBytes = 64u << 20;
        op.dataDeps = std::move(deps);
        program.ops.push_back(op);
        return op.id;
    };
    std::vector<std::uint64_t> previous;
    for (int mb = 0; mb < microbatches; ++mb) {
        const std::string scope = "microbatch " + std::to_string(mb);
        const auto forward = compute(*first, "stage0_forward", scope + "/layer 0/forward", previous);
        transfer(*first, core::OpKind::Send, 1, mb, {forward});
        previous = {forward};
    }
    previous.clear();
    for (int mb = 0; mb < microbatches; ++mb) {
        const std::string scope = "microbatch " + std::to_string(mb);
        const auto received = transfer(*second, core::OpKind::Recv, 0, mb, {});
        std::vector<std::uint64_t> deps = previous;
        deps.push_back(received);
        const auto forward = compute(*second, "stage1_forward", scope + "/layer 1/forward", deps);
        previous = {compute(*second, "stage1_backward", scope + "/layer 1/backward", {forward})};
    }
    auto w = std::make_shared<core::Workload>();
    w->programs = {first, second};
    w->ranks.resize(2);
    w->ranks[1].program = 1;
    return w;
}

} // namespace

void TestResultViews::timelineLabelsMicrobatchesAndTransfers()
{
    // A pipeline's timeline reads like the schedule figures: each microbatch's run of forward or
    // backward compute carries its number, and arrows join each send to its receive on the next
    // stage; zoomed in far enough, spans carry their ops' names instead.
    QCOMPARE(views::microbatchOf([] {
                 core::Op op;
                 op.scope = "microbatch 12/layer 3/forward";
                 return op;
             }()),
             12);
    QCOMPARE(views::microbatchOf([] {
                 core::Op op;
                 op.scope = "gradient sync/microbatch 2/layer 3";
                 return op;
             }()),
             2);
    QCOMPARE(views::microbatchOf([] {
                 core::Op op;
                 op.scope = "no microbatch 2x/layer";
                 return op;
             }()),
             -1);
    constexpr int kMicrobatches = 4;
    const auto workload = twoStagePipeline(kMicrobatches);
    const auto result = core::estimate(*workload, *core::clusterPreset("dgx-h100-ib", 16));
    QVERIFY(result->stepTime > 0);
    views::TimelinePage page;
    page.resize(1100, 500);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.setData(workload, result, 8);
    views::TimelineView* view = page.view();
    view->fit();
    QCoreApplication::processEvents();
    // The legend names the passes and the kinds of transfer the workload has, each in its colour.
    const QString legend = page.findChild<QLabel*>(QStringLiteral("timelineLegend"))->text();
    QVERIFY2(legend.contains(QStringLiteral("forward")) && legend.contains(QStringLiteral("send/recv")) &&
                 legend.contains(views::colorOf(core::OpKind::Send).name()) &&
                 !legend.contains(QStringLiteral("all-reduce")),
             qPrintable(legend));

    // Stage 1's lane: forward 0, backward 0, forward 1, ... in time order, by microbatch number.
    const auto computeLabels = [&](int rank) {
        QStringList texts;
        std::vector<views::TimelineView::SpanLabel> labels = view->labelsOf(rank);
        std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return a.x0 < b.x0; });
        for (const auto& label : labels)
            if (label.track == 0)
                texts << label.text;
        return texts;
    };
    QStringList expected;
    for (int mb = 0; mb < kMicrobatches; ++mb)
        expected << QStringLiteral("forward %1").arg(mb) << QStringLiteral("backward %1").arg(mb);
    QCOMPARE(computeLabels(1), expected);
    // Stage 0 runs only forward passes.
    QCOMPARE(computeLabels(0).size(), kMicrobatches);
    QVERIFY(computeLabels(0).front() == QStringLiteral("forward 0"));

    // Narrower on screen (the time axis made six steps long), runs keep only their numbers.
    view->setTimeExtent(6 * result->stepTime);
    view->fit();
    const QStringList narrow = computeLabels(1);
    QVERIFY2(!narrow.isEmpty(), "numbers fit");
    for (const QString& text : narrow)
        QVERIFY2(text.size() == 1, qPrintable(narrow.join(QStringLiteral(","))));
    view->setTimeExtent(0);
    view->fit();

    // One arrow per microbatch from stage 0's send to stage 1's receive, pointing forward in time.
    const auto arrows = view->transferArrows();
    QCOMPARE(arrows.size(), std::size_t{kMicrobatches});
    for (const auto& arrow : arrows) {
        QCOMPARE(arrow.from, 0);
        QCOMPARE(arrow.to, 1);
        QVERIFY(arrow.head.x() >= arrow.tail.x());
        QVERIFY(arrow.head.y() > arrow.tail.y());
    }

    // Zoomed onto stage 1's first forward pass: the span names its op, not its microbatch.
    const auto events = result->eventsOf(1);
    const auto firstForward = std::find_if(events.begin(), events.end(), [&](const core::OpEvent& ev) {
        return workload->programOf(1).ops[ev.op].name == "stage1_forward_0";
    });
    QVERIFY(firstForward != events.end());
    view->showTimeRange(firstForward->start, firstForward->end);
    const QStringList zoomed = computeLabels(1);
    QVERIFY2(zoomed.contains(QStringLiteral("stage1_forward_0")), qPrintable(zoomed.join(QStringLiteral(","))));
    QVERIFY2(!zoomed.contains(QStringLiteral("forward 0")), qPrintable(zoomed.join(QStringLiteral(","))));
    // Painting with labels and arrows on screen works (and grabs a non-empty image).
    QVERIFY(!view->grab().isNull());
}

QTEST_MAIN(TestResultViews)
#include "tst_resultviews.moc"
