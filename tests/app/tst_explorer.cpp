// SPDX-License-Identifier: MIT
// The explorer end to end on the offscreen platform: open a workload, wait for the session's
// estimate, check every view shows it, edit the cluster, and keep the previous state on errors.
#include "app/explorer/detailspanel.h"
#include "app/explorer/examplegallery.h"
#include "app/explorer/exportactions.h"
#include "app/explorer/history.h"
#include "app/explorer/mainwindow.h"
#include "app/explorer/session.h"
#include "app/explorer/stepsummary.h"
#include "app/explorer/sweeppage.h"
#include "app/explorer/validationpage.h"
#include "core/chakra.h"
#include "core/synthetictrace.h"
#include "engine/modelcompiler.h"
#include "engine/workloadloader.h"
#include "support/smallmodel.h"
#include "views/chartspage.h"
#include "views/collectiveanimation.h"
#include "views/commmatrixpage.h"
#include "views/commmatrixview.h"
#include "views/dagview.h"
#include "views/networkview.h"
#include "views/opspage.h"
#include "views/opstablemodel.h"
#include "views/parallelismpanel.h"
#include "views/pipelinescheduleview.h"
#include "views/timelinepage.h"
#include "views/timelineview.h"
#include "views/whatifpanel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QWheelEvent>

using namespace flint;

namespace {

const QString kAllReduce = QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/astrasim_all_reduce_8npus_1MB");
const QString kHlo = QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/async.hlo");

} // namespace

class TestExplorer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void screenshotPaletteKeepsColours();
    void stepBreakdownAddsUpToTheStep();
    void opensTraceAndShowsEveryView();
    void linkedSelection();
    void partitionsReachMatrixAndTimeline();
    void collectiveAnimationPlaysTheSelectedCollective();
    void exampleGalleryListsBundledModels();
    void whatIfReestimatesAndCompares();
    void networkEditsSurviveStrategyChanges();
    void undoAndRedoGoThroughEdits();
    void baselineIsComparedAndExported();
    void restoreReadsAFileNotKept();
    void recentFilesHoldFilesOnly();
    void hiddenPagesCatchUpWhenShown();
    void viewMenuFitsAndBringsPanelsBack();
    void staleResultsAreDropped();
    void badFileKeepsPreviousState();
    void measuredRunOpensAndReestimates();
    void closingWhileEstimatingWaitsForTheEstimate();
    void validationTabComparesWithAMeasuredRun();
    void chakraTraceWithRecordedTimesIsAMeasuredRun();
    void screenshotOfTheWindow();
    void defaultModelIsGpt3OnThousandGpus();
    void invalidParallelismIsExplainedNotCompiled();
    void modelFileOpensWithAStrategyThatFitsIt();
    void modelChosenAfterAModuleOpensInItsLayout();
    void sweepMarksTheBestPoint();
};

void TestExplorer::measuredRunOpensAndReestimates()
{
    // A PyTorch profiler trace opens like any workload (rank 0 of a 2-rank DDP run on A100: the other
    // rank mirrors it); halving the bandwidth in the what-if panel re-estimates it with its measured
    // compute kept, so its all-reduces take longer and its kernels do not.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    QSignalSpy validated(&window.session(), &app::Session::validationAvailable);
    const QString path =
        QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/hta/nccl_parser_config/nccl_data.json.gz");
    window.openPath(path);
    QVERIFY(estimated.wait(60000));
    // Opened as the workload, the run is also what the Validation tab holds the estimate against.
    QVERIFY(!validated.isEmpty() || validated.wait(60000));
    QCOMPARE(window.session().measuredPath(), path);
    QVERIFY(window.session().validation());
    const auto before = window.session().result();
    QCOMPARE(before->ranks.size(), std::size_t(2));
    QCOMPARE(window.timeline()->laneCount(), 2);
    // Measured on A100s, estimated on the default H100 cluster: the summary says so.
    const auto* details = window.findChild<app::DetailsPanel*>();
    QVERIFY(details);
    QVERIFY2(details->summary().contains(QStringLiteral("measured on NVIDIA A100-PG509-200")),
             qPrintable(details->summary()));
    const double compute = before->ranks[0].compute;
    const double comm = before->ranks[0].comm;
    QVERIFY(comm > 0);
    auto* table = window.whatIf()->findChild<QTableWidget*>();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2));
    QVERIFY(bandwidth);
    bandwidth->setValue(bandwidth->value() / 2);
    QVERIFY(estimated.wait(60000));
    const auto after = window.session().result();
    QVERIFY2(after->ranks[0].comm > 1.5 * comm,
             qPrintable(QStringLiteral("%1 -> %2").arg(comm).arg(after->ranks[0].comm)));
    QCOMPARE(after->ranks[0].compute, compute);
}

void TestExplorer::closingWhileEstimatingWaitsForTheEstimate()
{
    // Found by a new user: a screenshot whose --measured run failed quit while the workload's
    // estimate ran, and the session's members were freed under it (heap corruption, 7 runs in 10).
    // The session now stops its jobs before its members go.
    for (int round = 0; round < 3; ++round) {
        auto window = std::make_unique<app::MainWindow>();
        QSignalSpy failed(&window->session(), &app::Session::failed);
        window->session().compareWithMeasured(QStringLiteral("/nonexistent/run"));
        window->openPath(QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/torch/dp2"));
        QVERIFY(failed.wait(60000));
        window.reset(); // often while the workload is still being estimated (docs/testing.md: the asan preset)
    }
}

void TestExplorer::chakraTraceWithRecordedTimesIsAMeasuredRun()
{
    // What `flint replay` writes (Chakra files whose nodes carry their times) is a measured run for
    // Compare with a measured run: here the DDP run exported as such a trace.
    const std::string ddp = FLINT_SOURCE_DIR "/tests/data/measured/hta/nccl_parser_config/nccl_data.json.gz";
    QTemporaryDir dir;
    const std::string prefix = dir.filePath(QStringLiteral("ddp")).toStdString();
    core::writeChakraWorkload(core::loadMeasuredRun(ddp).workload, prefix);
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    QSignalSpy compared(&window.session(), &app::Session::validationAvailable);
    window.openPath(QString::fromStdString(ddp));
    QVERIFY(estimated.wait(60000));
    window.compareWithMeasured(QString::fromStdString(prefix));
    QVERIFY(compared.wait(60000));
    QVERIFY(window.session().measuredRun());
    QCOMPARE(window.session().measuredRun()->ranks.size(), std::size_t(2));
    QVERIFY(window.validation()->categories()->rowCount() >= 3);
    QVERIFY2(window.validation()->summaryHtml().contains(QStringLiteral("222")),
             qPrintable(window.validation()->summaryHtml()));
}

void TestExplorer::validationTabComparesWithAMeasuredRun()
{
    // The DDP run compared with itself: every category counts the same on both sides, the collectives
    // pair up, choosing one explains it in Details, each new estimate is compared again, and a
    // workload of another size is refused with a reason.
    const QString ddp =
        QStringLiteral(FLINT_SOURCE_DIR "/tests/data/measured/hta/nccl_parser_config/nccl_data.json.gz");
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    QSignalSpy compared(&window.session(), &app::Session::validationAvailable);
    window.openPath(ddp);
    QVERIFY(estimated.wait(60000));
    window.compareWithMeasured(ddp);
    QVERIFY(compared.wait(60000));
    app::ValidationPage* page = window.validation();
    QCOMPARE(window.tabs()->currentWidget(), page);
    QAbstractItemModelTester categoriesTester(page->categories());
    QAbstractItemModelTester collectivesTester(page->collectives());
    QCOMPARE(page->categories()->rowCount(), 5); // kernel, memcpy, memset, all-reduce, broadcast
    for (int row = 0; row < 5; ++row)
        QCOMPARE(page->categories()->index(row, 1).data(), page->categories()->index(row, 2).data());
    QCOMPARE(page->collectives()->rowCount(), 7);
    QCOMPARE(page->scatterPoints(), 7);
    // The run against itself: every op name pairs up, as often on both sides; choosing one explains it.
    QAbstractItemModelTester opsTester(page->ops());
    QVERIFY(page->ops()->rowCount() > 10);
    for (int row = 0; row < page->ops()->rowCount(); ++row)
        QCOMPARE(page->ops()->index(row, 1).data(), page->ops()->index(row, 2).data());
    auto* opTable = page->findChild<QTableView*>(QStringLiteral("validationOps"));
    QVERIFY(opTable);
    const QString firstOp = page->ops()->index(0, 0).data().toString();
    opTable->selectRow(0);
    QTRY_VERIFY2(window.detailsHtml().contains(firstOp.toHtmlEscaped().left(20)),
                 qPrintable(firstOp + QStringLiteral(" / ") + window.detailsHtml().left(300)));
    QVERIFY2(page->summaryHtml().contains(QStringLiteral("222")), qPrintable(page->summaryHtml()));

    // Under the timeline, the measured run as it ran, over the same time window as the estimate.
    views::TimelinePage* timelines = window.timelinePage();
    QVERIFY2(timelines->comparisonTitle().contains(QStringLiteral("Measured run")),
             qPrintable(timelines->comparisonTitle()));
    QCOMPARE(timelines->comparisonView()->laneCount(), 2);
    window.tabs()->setCurrentWidget(timelines);
    window.timeline()->showTimeRange(0.010, 0.020);
    QTRY_VERIFY2(std::fabs(timelines->comparisonView()->geometryOfTime().viewStart - 0.010) < 1e-9,
                 qPrintable(QStringLiteral("%1 %2 / %3 %4 visible %5")
                                .arg(window.timeline()->geometryOfTime().viewStart)
                                .arg(window.timeline()->geometryOfTime().viewEnd)
                                .arg(timelines->comparisonView()->geometryOfTime().viewStart)
                                .arg(timelines->comparisonView()->geometryOfTime().viewEnd)
                                .arg(window.timeline()->isVisible())));
    QVERIFY(std::fabs(timelines->comparisonView()->geometryOfTime().viewEnd - 0.020) < 1e-9);
    window.tabs()->setCurrentWidget(page);

    auto* table = page->findChild<QTableView*>(QStringLiteral("validationCollectives"));
    QVERIFY(table);
    table->selectRow(0); // the largest difference: an all-reduce
    QTRY_VERIFY(window.detailsHtml().contains(QStringLiteral("all-reduce"), Qt::CaseInsensitive));

    auto* whatIfTable = window.whatIf()->findChild<QTableWidget*>();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(whatIfTable->cellWidget(0, 2));
    bandwidth->setValue(bandwidth->value() / 4);
    QVERIFY(compared.wait(60000)); // the new estimate is compared too
    QCOMPARE(window.session().validation()->evaluation, window.session().evaluation());

    window.openPath(kAllReduce); // 8 ranks against a 2-rank run
    QVERIFY(compared.wait(60000));
    QVERIFY(!window.session().validation()->problem.isEmpty());
    QCOMPARE(page->categories()->rowCount(), 0);

    auto* stop = page->findChild<QPushButton*>(QStringLiteral("stopMeasured"));
    QVERIFY(stop);
    stop->click();
    QVERIFY(!window.session().validation());
    QVERIFY(!window.session().measuredRun());
    QVERIFY(timelines->comparisonTitle().isEmpty()); // nothing under the timeline any more
}

void TestExplorer::stepBreakdownAddsUpToTheStep()
{
    // Two ranks: one busy to the end of the 10 s step, one done after 6 s. Per rank (mean) compute
    // 7 s, exposed 1 s, idle 2 s: the rank that ends early waits 4 s for the other, and the three
    // add up to the step (they used to add up to the mean finish, 8 s, short of it).
    engine::Evaluation evaluation;
    auto result = std::make_shared<core::EstimateResult>();
    result->stepTime = 10;
    core::RankBreakdown busy;
    busy.finish = 10;
    busy.compute = 9;
    busy.exposedComm = 1;
    core::RankBreakdown early;
    early.finish = 6;
    early.compute = 5;
    early.exposedComm = 1;
    result->ranks = {busy, early};
    evaluation.result = result;
    evaluation.scenario.cluster = *core::clusterPreset("dgx-h100-ib", 2);
    const QString text = app::StepSummary::summaryHtml(evaluation);
    QVERIFY2(text.contains(QStringLiteral("compute 7.00\u00a0s, exposed communication 1.00\u00a0s, idle 2.00\u00a0s")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("idle includes 2.00\u00a0s after the rank's last op")), qPrintable(text));
}

void TestExplorer::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a throwaway place
}

void TestExplorer::screenshotPaletteKeepsColours()
{
    // Three colours stay exactly as they were.
    QImage flat(30, 10, QImage::Format_RGB32);
    for (int x = 0; x < 30; ++x)
        for (int y = 0; y < 10; ++y)
            flat.setPixel(x, y, x < 10 ? qRgb(255, 255, 255) : x < 20 ? qRgb(0x4c, 0x72, 0xb0) : qRgb(0, 0, 0));
    const QImage kept = app::ExportActions::withPalette(flat);
    QCOMPARE(kept.format(), QImage::Format_Indexed8);
    QCOMPARE(kept.colorCount(), 3);
    for (int x = 0; x < 30; ++x)
        QCOMPARE(kept.pixel(x, 5), flat.pixel(x, 5));
    // 1,024 colours of two pixels each on a white page: white and 255 of them kept, every other
    // pixel drawn as the kept colour nearest to it.
    QImage many(1024, 402, QImage::Format_RGB32);
    many.fill(qRgb(255, 255, 255));
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 1024; ++x)
            many.setPixel(x, y, qRgb(x / 4, x / 4, (x % 4) * 60));
    const QImage reduced = app::ExportActions::withPalette(many);
    QCOMPARE(reduced.colorCount(), 256);
    QVERIFY(reduced.colorTable().contains(qRgb(255, 255, 255)));
    QCOMPARE(reduced.pixel(500, 300), qRgb(255, 255, 255));
    const auto distance = [](QRgb a, QRgb b) {
        const int dr = qRed(a) - qRed(b), dg = qGreen(a) - qGreen(b), db = qBlue(a) - qBlue(b);
        return dr * dr + dg * dg + db * db;
    };
    for (int x = 0; x < 1024; ++x) {
        const QRgb original = many.pixel(x, 0);
        int best = std::numeric_limits<int>::max();
        for (QRgb entry : reduced.colorTable())
            best = std::min(best, distance(original, entry));
        QCOMPARE(distance(original, reduced.pixel(x, 0)), best);
    }
}

void TestExplorer::opensTraceAndShowsEveryView()
{
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    const auto result = window.session().result();
    QVERIFY(result);
    QCOMPARE(result->ranks.size(), std::size_t(8));
    QVERIFY(result->stepTime > 0);
    QCOMPARE(window.timeline()->laneCount(), 8);
    QVERIFY(qFuzzyCompare(window.timeline()->geometryOfTime().totalTime, result->stepTime));
    // One node of 8 ranks: 8 lanes, or one summary lane when the node is collapsed.
    QCOMPARE(window.timeline()->rowCount(), 8);
    window.timeline()->setGroupCollapsed(0, true);
    QCOMPARE(window.timeline()->rowCount(), 1);
    QVERIFY(!window.timeline()->grab().isNull());
    window.timeline()->setGroupCollapsed(0, false);
    QCOMPARE(window.timeline()->rowCount(), 8);
    // A ring all-reduce moves bytes between neighbours: the matrix has traffic.
    QCOMPARE(window.matrix()->cellCount(), 8);
    double total = 0;
    for (int s = 0; s < 8; ++s)
        for (int d = 0; d < 8; ++d)
            total += window.matrix()->cellBytes(s, d);
    QVERIFY(total > 1e6);
    window.matrix()->setAggregateByNode(true);
    QCOMPARE(window.matrix()->cellCount(), 1);
    QCOMPARE(window.charts()->breakdownGroups(), 8);
    QCOMPARE(window.charts()->topOps().value(0), QStringLiteral("all_reduce_8npus_1MB"));
    QCOMPARE(window.ops()->model()->rowCount(), 1);
    QCOMPARE(window.ops()->model()->index(0, 0).data().toString(), QStringLiteral("all_reduce_8npus_1MB"));
    QVERIFY(!window.ops()->model()->index(0, views::OpsTableModel::Duration).data().toString().isEmpty());
    QVERIFY(window.windowTitle().contains(QStringLiteral("astrasim_all_reduce_8npus_1MB")));
    // The graph tab lays out rank 0's program off the GUI thread.
    QTRY_VERIFY_WITH_TIMEOUT(window.graph()->currentLayout() && !window.graph()->isLayingOut(), 20000);
}

void TestExplorer::linkedSelection()
{
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kHlo);
    QVERIFY(estimated.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(window.graph()->currentLayout() && !window.graph()->isLayingOut(), 20000);
    // Clicking an op in the timeline selects it in the graph and describes it in Details.
    const core::Program& program = window.session().workload()->workload.programOf(0);
    quint32 start = 0;
    while (program.ops[start].name != "start")
        ++start;
    Q_EMIT window.timeline()->opClicked(0, static_cast<int>(start));
    QTRY_COMPARE_WITH_TIMEOUT(window.graph()->selectedOp(), start, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QTextBrowser*>()->toPlainText().contains(QStringLiteral("all-reduce")),
                             20000);
}

void TestExplorer::collectiveAnimationPlaysTheSelectedCollective()
{
    // The data-parallel all-reduce of 64 MiB over {0, 4, 8, 12} on 8-GPU nodes: staged, a
    // reduce-scatter inside the node, an all-reduce across the nodes, an all-gather inside again.
    constexpr std::uint64_t kGradient = 64ULL << 20;
    auto loaded = std::make_shared<core::LoadedWorkload>();
    loaded->workload = core::makeSyntheticSpmdWorkload(120, 16, 4, kGradient);
    loaded->name = "synthetic";
    const core::Program& program = loaded->workload.programOf(0);
    int gradientOp = -1, computeOp = -1;
    for (std::size_t i = 0; i < program.ops.size(); ++i) {
        if (program.ops[i].kind == core::OpKind::Collective && program.ops[i].commBytes == kGradient)
            gradientOp = static_cast<int>(i);
        if (program.ops[i].kind == core::OpKind::Compute && computeOp < 0)
            computeOp = static_cast<int>(i);
    }
    QVERIFY(gradientOp >= 0 && computeOp >= 0);

    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.session().openWorkload(loaded, QStringLiteral("synthetic"));
    QVERIFY(estimated.wait(20000));
    auto* animate = window.findChild<QAction*>(QStringLiteral("animateCollective"));
    QVERIFY(animate);
    // Nothing selected yet, then a compute op: the status bar says what to do.
    animate->trigger();
    QVERIFY(!window.collectiveAnimation());
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Select a collective")));
    window.showOp(0, computeOp);
    window.statusBar()->clearMessage();
    animate->trigger();
    QVERIFY(!window.collectiveAnimation());
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Select a collective")));
    window.showOp(0, gradientOp);
    animate->trigger();
    views::CollectiveAnimationDialog* dialog = window.collectiveAnimation();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    // Ring phases: 1 step each way inside the node pair {0, 4} and across {0, 8}... at least the
    // three phases' steps, each described with its bytes and time.
    QVERIFY2(dialog->stepCount() >= 3, qPrintable(QString::number(dialog->stepCount())));
    QCOMPARE(dialog->step(), 0);
    QVERIFY2(dialog->stepText().contains(QStringLiteral("Phase 1 of 3")), qPrintable(dialog->stepText()));
    QVERIFY2(dialog->stepText().contains(QStringLiteral("Step 1 of")), qPrintable(dialog->stepText()));
    QTest::mouseClick(dialog->findChild<QToolButton*>(QStringLiteral("nextStep")), Qt::LeftButton);
    QCOMPARE(dialog->step(), 1);
    QTest::mouseClick(dialog->findChild<QToolButton*>(QStringLiteral("lastStep")), Qt::LeftButton);
    QCOMPARE(dialog->step(), dialog->stepCount() - 1);
    QVERIFY2(dialog->stepText().contains(QStringLiteral("Phase 3 of 3")), qPrintable(dialog->stepText()));
    QCOMPARE(dialog->findChild<QSlider*>(QStringLiteral("stepSlider"))->value(), dialog->step());
    // A network edit re-estimates: the open dialog shows the collective priced anew (half the
    // bandwidth, a longer collective); a new workload closes it.
    const QString before = dialog->findChild<QLabel*>(QStringLiteral("summary"))->text();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(window.whatIf()->findChild<QTableWidget*>()->cellWidget(0, 2));
    QVERIFY(bandwidth);
    bandwidth->setValue(bandwidth->value() / 2);
    QVERIFY(estimated.wait(20000));
    QTRY_VERIFY(dialog->findChild<QLabel*>(QStringLiteral("summary"))->text() != before);
    QVERIFY(dialog->isVisible());
    // A workload that is not a built-in model has no pipeline schedule to show.
    window.findChild<QAction*>(QStringLiteral("pipelineSchedule"))->trigger();
    QVERIFY(!window.pipelineSchedule());
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("PP > 1")));
}

void TestExplorer::partitionsReachMatrixAndTimeline()
{
    // 16 ranks: tensor-parallel groups of 4 consecutive ranks, data-parallel groups {r, r+4, r+8, r+12}
    // with one gradient all-reduce of 64 MiB.
    constexpr std::uint64_t kGradient = 64ULL << 20;
    auto loaded = std::make_shared<core::LoadedWorkload>();
    loaded->workload = core::makeSyntheticSpmdWorkload(120, 16, 4, kGradient);
    loaded->name = "synthetic";
    const core::Program& program = loaded->workload.programOf(0);
    int gradientOp = -1;
    for (std::size_t i = 0; i < program.ops.size(); ++i)
        if (program.ops[i].kind == core::OpKind::Collective && program.ops[i].commBytes == kGradient)
            gradientOp = static_cast<int>(i);
    QVERIFY(gradientOp >= 0);

    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.session().openWorkload(loaded, QStringLiteral("synthetic"));
    QVERIFY(estimated.wait(20000));

    // Matrix: only all-reduces, so the kind chooser offers "all kinds" and ALL_REDUCE.
    QComboBox* kinds = window.matrixPage()->kindChooser();
    QCOMPARE(kinds->count(), 2);
    kinds->setCurrentIndex(kinds->findData(QStringLiteral("ALL_REDUCE")));
    QCOMPARE(window.matrix()->kindFilter(), QStringLiteral("ALL_REDUCE"));

    // Ordering by the data-parallel groups puts rank 4 next to rank 0. The default cluster has 8 GPUs
    // per node, so the all-reduce over {0, 4, 8, 12} stages per dimension: a reduce-scatter and an
    // all-gather of S over {0, 4} inside the node (S/2 each way), and the same of S/2 over {0, 8}
    // across nodes (S/4 each way): 0 -> 4 carries S, 0 -> 8 carries S/2.
    QComboBox* order = window.matrixPage()->orderChooser();
    QCOMPARE(order->count(), 3); // by rank, and the two mesh axes
    int dpOrder = -1;
    for (int i = 1; i < order->count(); ++i) {
        order->setCurrentIndex(i);
        if (window.matrix()->ranksOfCell(1).first == 4)
            dpOrder = i;
    }
    QVERIFY(dpOrder > 0);
    order->setCurrentIndex(dpOrder);
    QCOMPARE(window.matrix()->ranksOfCell(1), std::make_pair(std::int32_t(4), std::int32_t(1)));
    QCOMPARE(window.session().cluster().topology.dims.front().npus, 8);
    QCOMPARE(window.matrix()->cellBytes(0, 1), static_cast<double>(kGradient));
    QCOMPARE(window.matrix()->cellBytes(0, 2), 0.5 * static_cast<double>(kGradient));
    QCOMPARE(window.matrix()->cellBytes(0, 3), 0.0); // 0 -> 12: a neighbour in neither stage
    QVERIFY(window.matrix()->cellSeconds(0, 2) > window.matrix()->cellSeconds(0, 1) / 2); // slower links

    // Timeline grouped by the same axis: 4 groups, the first {0, 4, 8, 12}.
    QComboBox* grouping = window.timelinePage()->groupingChooser();
    QCOMPARE(grouping->count(), 3); // by node, and the two mesh axes
    int dpGrouping = -1;
    for (int i = 1; i < grouping->count(); ++i) {
        grouping->setCurrentIndex(i);
        if (window.timeline()->groupRanks(0) == std::vector<std::int32_t>{0, 4, 8, 12})
            dpGrouping = i;
    }
    QVERIFY(dpGrouping > 0);
    grouping->setCurrentIndex(dpGrouping);
    QCOMPARE(window.timeline()->groupCount(), 4);

    // Selecting the gradient all-reduce outlines its cells (0 -> 4 is at positions (0, 1)), marks its
    // group's lanes and explains its time.
    window.showOp(0, gradientOp);
    // The explanation and the transfers come from a worker (an Inspect job).
    QTRY_VERIFY_WITH_TIMEOUT(window.detailsHtml().contains(QStringLiteral("Estimated time")), 20000);
    const auto& cells = window.matrix()->highlightedCells();
    // Per group, both directions of {0, 4}, {8, 12} inside nodes and {0, 8}, {4, 12} across them.
    QCOMPARE(cells.size(), std::size_t(4 * 8));
    QVERIFY(std::find(cells.begin(), cells.end(), std::make_pair(0, 1)) != cells.end());
    const std::vector<bool>& marked = window.timeline()->markedRanks();
    QCOMPARE(std::count(marked.begin(), marked.end(), true), std::ptrdiff_t(4));
    QVERIFY(marked[0] && marked[4] && marked[8] && marked[12]);
    QVERIFY(window.detailsHtml().contains(QStringLiteral("Estimated time")));
    QCOMPARE(window.ops()->table()->currentIndex().data(views::OpsTableModel::OpIndexRole).toInt(), gradientOp);

    // A network edit prices the selected op anew: its explanation follows the new estimate instead of
    // showing the old times beside the new figures.
    const QString explained = window.detailsHtml();
    auto* firstBandwidth = qobject_cast<QDoubleSpinBox*>(window.whatIf()->findChild<QTableWidget*>()->cellWidget(0, 2));
    QVERIFY(firstBandwidth);
    QSignalSpy repriced(&window.session(), &app::Session::estimateAvailable);
    firstBandwidth->setValue(firstBandwidth->value() / 2);
    QVERIFY(repriced.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(window.detailsHtml() != explained, 20000);
    QVERIFY(window.detailsHtml().contains(QStringLiteral("Estimated time")));
    QCOMPARE(window.ops()->table()->currentIndex().data(views::OpsTableModel::OpIndexRole).toInt(), gradientOp);

    // Clicking the cell 0 -> 4 selects the op that moves those bytes: the gradient all-reduce.
    Q_EMIT window.matrix()->cellClicked(0, 1, 4, 1);
    QTRY_COMPARE_WITH_TIMEOUT(window.graph()->selectedOp(), static_cast<quint32>(gradientOp), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(window.detailsHtml().contains(QString::fromStdString(program.ops[gradientOp].name)),
                             20000);

    // Choosing a row in the Ops table selects that op in the graph.
    QAbstractItemView* table = window.ops()->table();
    const QModelIndex first = table->model()->index(0, 0);
    const auto chosen = first.data(views::OpsTableModel::OpIndexRole).toUInt();
    table->selectionModel()->setCurrentIndex(first, QItemSelectionModel::ClearAndSelect);
    QTRY_COMPARE_WITH_TIMEOUT(window.graph()->selectedOp(), chosen, 20000);
}

void TestExplorer::exampleGalleryListsBundledModels()
{
    const QVector<app::ExampleEntry> examples =
        app::findExamples(QStringLiteral(FLINT_SOURCE_DIR "/resources/examples"));
    QCOMPARE(examples.size(), 3);
    QStringList titles;
    for (const app::ExampleEntry& e : examples) {
        titles << e.title;
        QVERIFY2(QFileInfo::exists(e.path), qPrintable(e.path));
        QVERIFY2(!e.description.isEmpty() && !e.source.isEmpty(), qPrintable(e.title));
    }
    QVERIFY2(titles.contains(QStringLiteral("llama31_70b_train_step_128_devices.hlo")), qPrintable(titles.join(u',')));
    QVERIFY2(titles.contains(QStringLiteral("astrasim_all_reduce_8npus_1MB")), qPrintable(titles.join(u',')));
    for (const app::ExampleEntry& e : examples)
        if (e.title == QStringLiteral("llama2_tp4_pp2_torch_xla.hlo"))
            QVERIFY(e.description.contains(QStringLiteral("TP4 x PP2")));
    // A folder without examples lists nothing.
    QTemporaryDir empty;
    QVERIFY(app::findExamples(empty.path()).isEmpty());
}

void TestExplorer::whatIfReestimatesAndCompares()
{
    // A user's edit in the what-if panel (its real control, not the session's API) re-estimates, the
    // result carries the cluster it was computed on, the panel shows that cluster, and the
    // comparison says what the change did.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    const double before = window.session().result()->stepTime;
    QVERIFY(window.whatIf()->comparison().isEmpty()); // nothing to compare with yet
    // A hundredth of the bandwidth of the innermost dimension: 1 MiB over a ring of 8 becomes
    // bandwidth-bound and the step slows down.
    auto* table = window.whatIf()->findChild<QTableWidget*>();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2));
    QVERIFY(bandwidth);
    const double slower = bandwidth->value() / 100;
    bandwidth->setValue(slower);
    QVERIFY(estimated.wait(20000));
    const auto evaluation = window.session().evaluation();
    const double after = evaluation->result->stepTime;
    QVERIFY2(after > 1.5 * before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    QVERIFY(qFuzzyCompare(evaluation->scenario.cluster.topology.dims.front().bandwidthGBps,
                          core::fromDecimalGBps(bandwidth->value())));
    QVERIFY(evaluation->scenario.cluster.edited);
    QCOMPARE(table->cellWidget(0, 2), bandwidth); // the control the user edits survived the report
    const QString comparison = window.whatIf()->comparison();
    QVERIFY2(comparison.contains(QStringLiteral("Last change")) && comparison.contains(QStringLiteral("(+")),
             qPrintable(comparison));
    // The view writes numbers with the locale's digit grouping ("+1,554.2%").
    QVERIFY2(QString(comparison)
                 .remove(QLocale().groupSeparator())
                 .contains(QString::number(100.0 * (after - before) / before, 'f', 1)),
             qPrintable(comparison));
}

void TestExplorer::networkEditsSurviveStrategyChanges()
{
    // A scale-out bandwidth edit stays when a strategy change resizes the cluster (issue 17: PP
    // changes reset it to the preset), and the dimensions always hold exactly the model's ranks.
    app::MainWindow window;
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openModel(tests::smallModel(), tests::smallModelStrategy(16));
    QVERIFY(estimated.wait(120000));
    auto* table = window.whatIf()->findChild<QTableWidget*>();
    QCOMPARE(table->rowCount(), 2);
    qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 2))->setValue(25);
    QVERIFY(estimated.wait(120000));
    const auto npus = [](const core::Cluster& c) {
        std::int64_t n = 1;
        for (const auto& dim : c.topology.dims)
            n *= dim.npus;
        return n;
    };
    for (const int tp : {2, 1}) {
        window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(tp);
        QVERIFY(estimated.wait(120000));
        const auto evaluation = window.session().evaluation();
        QCOMPARE(evaluation->scenario.parallel.tp, tp);
        const core::Cluster& cluster = evaluation->scenario.cluster;
        QCOMPARE(npus(cluster), evaluation->scenario.ranks());
        QVERIFY(qFuzzyCompare(cluster.topology.dims.at(1).bandwidthGBps, core::fromDecimalGBps(25)));
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 2))->value(), 25.0);
        QCOMPARE(table->item(1, 1)->text(), QString::number(cluster.topology.dims.at(1).npus));
    }
}

void TestExplorer::undoAndRedoGoThroughEdits()
{
    // Real controls: a network edit in the what-if panel and a strategy change in the Parallelism
    // panel are one undo step each; undo and redo go back and forth through them, the panels show
    // the restored values, and the history holds each configuration once.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openModel(tests::smallModel(), tests::smallModelStrategy(16));
    QVERIFY(estimated.wait(120000));
    auto* undo = window.findChild<QAction*>(QStringLiteral("undo"));
    auto* redo = window.findChild<QAction*>(QStringLiteral("redo"));
    QVERIFY(undo && redo);
    QVERIFY(!undo->isEnabled()); // nothing before the first workload
    const double first = window.session().result()->stepTime;
    auto* table = window.whatIf()->findChild<QTableWidget*>();
    const auto scaleOut = [table] { return qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 2)); };
    const double preset = scaleOut()->value();
    scaleOut()->setValue(preset / 8); // the data-parallel gradient all-reduce crosses the scale-out network
    QVERIFY(estimated.wait(120000));
    const double edited = window.session().result()->stepTime;
    QVERIFY2(edited > first, qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(edited)));
    QTest::qWait(1100); // network edits less than a second apart would be one step
    auto* tp = window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"));
    tp->setValue(2);
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().evaluation()->scenario.parallel.tp, 2);
    QCOMPARE(window.session().undoStack().count(), 2);
    QCOMPARE(window.history()->count(), 3);
    QVERIFY2(undo->text().contains(QStringLiteral("strategy")), qPrintable(undo->text()));

    // Ctrl+Z in the TP box, where the edit was made: the session's undo, not the box's own text undo.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    tp->setFocus();
    QTest::keyClick(tp, Qt::Key_Z, Qt::ControlModifier); // back to TP 1, the network still edited
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().evaluation()->scenario.parallel.tp, 1);
    QCOMPARE(tp->value(), 1);
    QCOMPARE(window.session().result()->stepTime, edited);
    QCOMPARE(scaleOut()->value(), preset / 8);
    undo->trigger(); // back to the preset's network
    QVERIFY(estimated.wait(120000));
    QCOMPARE(scaleOut()->value(), preset);
    QCOMPARE(window.session().result()->stepTime, first);
    QVERIFY(!window.session().evaluation()->scenario.cluster.edited);
    QVERIFY(!undo->isEnabled());
    QCOMPARE(window.history()->current(), 0);

    redo->trigger();
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().result()->stepTime, edited);
    redo->trigger();
    QVERIFY(estimated.wait(120000));
    QCOMPARE(tp->value(), 2);
    QVERIFY(!redo->isEnabled());
    QCOMPARE(window.history()->count(), 3); // configurations seen again are not new rows
    const QString configuration =
        window.history()->data(window.history()->index(0, app::History::Configuration)).toString();
    QVERIFY2(configuration.contains(QStringLiteral("global batch")), qPrintable(configuration));
    QCOMPARE(window.history()->current(), 2);
    QCOMPARE(window.session().undoStack().count(), 2); // undo and redo push no steps of their own

    // Against a baseline on another number of GPUs, the step time's change is marked and explained.
    const std::int64_t gpus = window.session().evaluation()->scenario.ranks(); // TP 2 x DP 16
    auto* dp = window.parallelism()->findChild<QSpinBox*>(QStringLiteral("dp"));
    dp->setValue(dp->value() / 2);
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().evaluation()->scenario.ranks(), gpus / 2);
    app::History& history = *window.history();
    history.setBaseline(2); // TP 2 on all the GPUs
    const QModelIndex versus = history.index(history.current(), app::History::VersusBaseline);
    QVERIFY2(history.data(versus).toString().endsWith(QStringLiteral(" *")),
             qPrintable(history.data(versus).toString()));
    const QString note = history.data(versus, Qt::ToolTipRole).toString();
    QVERIFY2(note.contains(QStringLiteral("on %1 GPUs, this one on %2").arg(gpus).arg(gpus / 2)) &&
                 note.contains(QStringLiteral("Per GPU")),
             qPrintable(note));
    QVERIFY2(window.whatIf()->comparison().contains(QStringLiteral("Per GPU")),
             qPrintable(window.whatIf()->comparison()));
}

void TestExplorer::baselineIsComparedAndExported()
{
    // Pin the first estimate through the History panel's button; a later edit is compared with it
    // in the what-if panel and in the history table, and the table exports as CSV.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    const double before = window.session().result()->stepTime;
    app::HistoryPanel* panel = window.historyPanel();
    panel->table()->selectRow(0);
    auto* pin = panel->findChild<QPushButton*>(QStringLiteral("pinBaseline"));
    QVERIFY(pin && pin->isEnabled());
    QTest::mouseClick(pin, Qt::LeftButton);
    QCOMPARE(window.history()->baseline(), 0);
    auto* table = window.whatIf()->findChild<QTableWidget*>();
    qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2))
        ->setValue(qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2))->value() / 100);
    QVERIFY(estimated.wait(20000));
    const double after = window.session().result()->stepTime;
    QVERIFY(after > before);
    const QString change = QString::number(100.0 * (after - before) / before, 'f', 1);
    const QString comparison = window.whatIf()->comparison();
    QVERIFY2(comparison.contains(QStringLiteral("Against baseline #1")) &&
                 QString(comparison).remove(QLocale().groupSeparator()).contains(change),
             qPrintable(comparison));
    // The baseline's timelines under the current ones, over a time axis long enough for both.
    QCOMPARE(window.timelinePage()->comparisonTitle(), QStringLiteral("Baseline #1"));
    QVERIFY(window.timelinePage()->comparisonView()->geometryOfTime().totalTime >= after);
    app::History& history = *window.history();
    QCOMPARE(history.count(), 2);
    QCOMPARE(history.data(history.index(0, app::History::VersusBaseline)).toString(), QStringLiteral("baseline"));
    QVERIFY2(history.data(history.index(1, app::History::VersusBaseline))
                 .toString()
                 .remove(QLocale().groupSeparator())
                 .contains(change),
             qPrintable(history.data(history.index(1, app::History::VersusBaseline)).toString()));
    QVERIFY(history.data(history.index(1, app::History::ClusterColumn)).toString().contains(QStringLiteral("edited")));
    // Rows name the device and, for a built-in model, the global batch: edits of either alone would
    // otherwise leave two rows that read alike.
    const QString clusterCell = history.data(history.index(1, app::History::ClusterColumn)).toString();
    QVERIFY2(clusterCell.contains(QString::fromStdString(window.session().cluster().device.name)),
             qPrintable(clusterCell));

    // The Ops table's "vs baseline" column: the collectives got slower by what the step did.
    views::OpsTableModel* ops = window.ops()->model();
    QVERIFY(ops->hasBaseline());
    QVERIFY(!window.ops()->table()->isColumnHidden(views::OpsTableModel::DurationDelta));
    double slowest = 0;
    for (int row = 0; row < ops->rowCount(); ++row)
        slowest = std::max(
            slowest,
            ops->index(row, views::OpsTableModel::DurationDelta).data(views::OpsTableModel::SortRole).toDouble());
    QVERIFY2(slowest > 0 && slowest <= after - before + 1e-12,
             qPrintable(QStringLiteral("%1 vs %2").arg(slowest).arg(after - before)));

    // The matrix can show the change from the baseline: a bandwidth edit moves the same bytes, so
    // every cell's change is zero (and the plain matrix is back when unticked).
    QCheckBox* difference = window.matrixPage()->differenceBox();
    QVERIFY(difference->isEnabled());
    difference->setChecked(true);
    QVERIFY(window.matrix()->showsDifference());
    for (int s = 0; s < window.matrix()->cellCount(); ++s)
        for (int d = 0; d < window.matrix()->cellCount(); ++d)
            QCOMPARE(window.matrix()->cellBytes(s, d), 0.0);
    difference->setChecked(false);

    // The breakdown chart starts with the baseline's mean and this estimate's.
    const QStringList categories = window.charts()->breakdownCategories();
    QVERIFY2(categories.size() >= 3 && categories[0] == QStringLiteral("base") &&
                 categories[1] == QStringLiteral("now"),
             qPrintable(categories.join(QLatin1Char(','))));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.csv"));
    QVERIFY(window.findChild<app::ExportActions*>()->writeCsv(path, history.csv()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(QStringLiteral("number,configuration,cluster,step_time_s")));
    QVERIFY2(lines[1].endsWith(QStringLiteral(",yes,")), qPrintable(lines[1])); // the baseline, not current
    QVERIFY2(lines[2].endsWith(QStringLiteral(",,yes")), qPrintable(lines[2])); // current, not the baseline
    const QStringList fields = lines[2].split(QLatin1Char(','));
    // step_time_s, 9 significant digits (counted from the end: the cluster may be quoted).
    QVERIFY(std::abs(fields.at(fields.size() - 5).toDouble() / after - 1) < 1e-8);

    // Unpinning goes back to the last change.
    panel->table()->selectRow(0);
    auto* clearBaseline = window.findChild<QAction*>(QStringLiteral("clearBaseline"));
    QVERIFY(clearBaseline && clearBaseline->isEnabled());
    QTest::mouseClick(pin, Qt::LeftButton);
    QCOMPARE(history.baseline(), -1);
    QVERIFY(!clearBaseline->isEnabled()); // nothing left to clear
    QVERIFY(window.whatIf()->comparison().contains(QStringLiteral("Last change")));
    QVERIFY(!window.ops()->model()->hasBaseline());
    QVERIFY(!window.matrixPage()->differenceBox()->isEnabled());
    // Unpinned and not current, the first row has let its estimate go. Pinning it estimates it again
    // beside what is shown (the file read again, on the row's cluster); the shown estimate stays.
    QVERIFY(!history.entry(0).evaluation);
    panel->table()->selectRow(0);
    QVERIFY(pin->isEnabled());
    QVERIFY(pin->toolTip().contains(QStringLiteral("estimated again")));
    QSignalSpy beside(&window.session(), &app::Session::evaluatedBeside);
    // A baseline chosen while the row is being estimated wins: the row's estimate is dropped.
    QTest::mouseClick(pin, Qt::LeftButton);
    history.setBaseline(1);
    QVERIFY(!beside.wait(3000));
    QCOMPARE(history.baseline(), 1);
    history.setBaseline(-1);
    panel->table()->selectRow(0);
    QTest::mouseClick(pin, Qt::LeftButton);
    QCOMPARE(history.baseline(), -1); // not yet: its estimate is on its way
    QVERIFY(beside.wait(20000));
    QCOMPARE(history.baseline(), 0);
    QVERIFY(history.entry(0).evaluation);
    QCOMPARE(history.baselineEvaluation()->result->stepTime, before);
    QCOMPARE(history.current(), 1);
    QCOMPARE(window.session().result()->stepTime, after);
    QVERIFY(window.ops()->model()->hasBaseline());
    QCOMPARE(pin->text(), QStringLiteral("Unpin baseline"));
    QTest::mouseClick(pin, Qt::LeftButton);
    QCOMPARE(history.baseline(), -1);

    // Re-opening the first row reads the file again (rows keep no file's workload) on its cluster.
    panel->table()->selectRow(0);
    auto* reopen = panel->findChild<QPushButton*>(QStringLiteral("reopen"));
    QVERIFY(reopen && reopen->isEnabled());
    QTest::mouseClick(reopen, Qt::LeftButton);
    QVERIFY(estimated.wait(20000));
    QCOMPARE(window.session().result()->stepTime, before);
    QCOMPARE(history.current(), 0);
    QCOMPARE(history.count(), 2);
    QVERIFY(window.ops()->table()->isColumnHidden(views::OpsTableModel::DurationDelta));
    QCOMPARE(window.charts()->breakdownCategories().value(0), QStringLiteral("0")); // rank groups only
}

void TestExplorer::restoreReadsAFileNotKept()
{
    // Undo steps and history rows keep a small file's workload; a state without it (a large file's,
    // State::kept) is restored by reading the file again, on the state's cluster.
    app::MainWindow window;
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    const app::Session::State opened = window.session().state();
    QVERIFY(opened.fromDisk);
    QVERIFY(opened.kept().scenario.workload);   // 8 small ranks: kept by undo
    QVERIFY(!opened.kept(0).scenario.workload); // history rows read files again
    QVERIFY(!window.history()->entry(0).state.scenario.workload);
    window.openModel(tests::smallModel(), tests::smallModelStrategy(8));
    QVERIFY(estimated.wait(120000));
    app::Session::State state = opened;
    state.scenario.workload.reset();
    state.scenario.cluster.topology.dims.front().bandwidthGBps /= 4;
    state.scenario.cluster.edited = true;
    window.session().restore(state);
    QVERIFY(estimated.wait(20000));
    const auto evaluation = window.session().evaluation();
    QVERIFY(!evaluation->scenario.model);
    QCOMPARE(evaluation->workload->workload.rankCount(), std::size_t(8));
    QCOMPARE(evaluation->scenario.cluster.topology.dims.front().bandwidthGBps,
             state.scenario.cluster.topology.dims.front().bandwidthGBps);
    QCOMPARE(window.session().path(), kAllReduce);
    QCOMPARE(window.session().undoStack().count(), 1); // the model; the restore pushed nothing
}

void TestExplorer::recentFilesHoldFilesOnly()
{
    // File > Recent lists what can be opened again: a file, not a built-in model's strategy (every
    // parallelism edit used to add one, pushing the files out).
    QSettings().remove(QStringLiteral("recentFiles"));
    app::MainWindow window;
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    const auto recent = [] { return QSettings().value(QStringLiteral("recentFiles")).toStringList(); };
    QCOMPARE(recent(), QStringList{kAllReduce});
    window.openModel(tests::smallModel(), tests::smallModelStrategy(8));
    QVERIFY(estimated.wait(120000));
    window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(2);
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().evaluation()->scenario.parallel.tp, 2);
    QCOMPARE(recent(), QStringList{kAllReduce});
    auto* menu = window.findChild<QMenu*>(QStringLiteral("recentMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 1);
    QCOMPARE(menu->actions().front()->text(), kAllReduce);
}

void TestExplorer::hiddenPagesCatchUpWhenShown()
{
    // With the timeline in front, the graph is laid out and the Ops table filled only when their
    // tabs are shown (an edit watched on the timeline does not wait for them), and then for the
    // workload shown now, with an op selected meanwhile.
    app::MainWindow window;
    window.show();
    window.tabs()->setCurrentWidget(window.timelinePage());
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kHlo);
    QVERIFY(estimated.wait(20000));
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    QTest::qWait(200);
    QVERIFY(!window.graph()->currentLayout());
    QVERIFY(!window.graph()->isLayingOut());
    window.tabs()->setCurrentWidget(window.findChild<QWidget*>(QStringLiteral("graph")));
    QTRY_VERIFY_WITH_TIMEOUT(window.graph()->currentLayout() && !window.graph()->isLayingOut(), 20000);
    const auto& program = window.session().workload()->workload.programOf(0);
    QCOMPARE(window.graph()->currentLayout()->opToNode.size(), program.ops.size());
    window.tabs()->setCurrentWidget(window.ops());
    QCOMPARE(window.ops()->model()->rowCount(), static_cast<int>(program.ops.size()));
}

void TestExplorer::viewMenuFitsAndBringsPanelsBack()
{
    // View > Fit (F) fits whichever view is in front; a closed panel comes back from the View menu.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    window.tabs()->setCurrentWidget(window.matrixPage());
    QWheelEvent wheel(QPointF(100, 100), window.matrix()->mapToGlobal(QPointF(100, 100)), {}, {0, 240}, Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(window.matrix(), &wheel);
    QVERIFY(window.matrix()->zoom() > 1);
    auto* fit = window.findChild<QAction*>(QStringLiteral("fit"));
    QVERIFY(fit);
    fit->trigger();
    QCOMPARE(window.matrix()->zoom(), 1.0);

    auto* history = window.findChild<QDockWidget*>(QStringLiteral("historyDock"));
    QVERIFY(history && history->isVisible());
    history->close();
    QVERIFY(!history->isVisible());
    QMenu* view = nullptr;
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && action->menu()->actions().contains(fit))
            view = action->menu();
    QVERIFY(view);
    QAction* toggle = history->toggleViewAction();
    QVERIFY(view->actions().contains(toggle));
    toggle->trigger();
    QVERIFY(history->isVisible());
    QVERIFY(app::MainWindow::keyboardReference().contains(QStringLiteral("Ctrl+Z")));
}

void TestExplorer::staleResultsAreDropped()
{
    app::MainWindow window;
    QSignalSpy loaded(&window.session(), &app::Session::workloadAvailable);
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    // Two opens in a row: only the second one's results may arrive.
    window.openPath(kHlo);
    window.openPath(kAllReduce);
    QVERIFY(estimated.wait(20000));
    QTest::qWait(300);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(loaded.front().at(1).toString(), kAllReduce);
    QCOMPARE(window.session().workload()->workload.rankCount(), std::size_t(8));
}

void TestExplorer::badFileKeepsPreviousState()
{
    app::MainWindow window;
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    QSignalSpy failed(&window.session(), &app::Session::failed);
    window.openPath(kHlo);
    QVERIFY(estimated.wait(20000));
    const auto previous = window.session().result();
    window.openPath(QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/bad_groups.hlo"));
    QVERIFY(failed.wait(20000));
    QVERIFY(failed.front().at(1).toString().contains(QStringLiteral("bad_groups.hlo:11")));
    QCOMPARE(window.session().result(), previous);
    QCOMPARE(window.timeline()->laneCount(), 8);
}

void TestExplorer::screenshotOfTheWindow()
{
    app::MainWindow window;
    // A 1,280 x 800 screen, the smallest the explorer is laid out for: the window fits it.
    window.resize(1280, 800);
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kHlo);
    QVERIFY(estimated.wait(20000));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("explorer.png"));
    QVERIFY(window.grab().save(png));
    QImage image(png);
    QCOMPARE(image.width(), 1280);
    QCOMPARE(image.height(), 800);
    // Large workloads open collapsed by node; the HLO fixture has 8 ranks and opens expanded.
    QVERIFY(!window.timeline()->isGroupCollapsed(0));
    // Not a blank window: the timeline paints spans in more than a handful of colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 20);
    // On the Graph tab a picture waits for the layout the worker runs (--screenshot does): when
    // whenDrawn() calls back, the graph is on screen, not "laying out…".
    window.tabs()->setCurrentWidget(window.graph()->parentWidget());
    const std::shared_ptr<const core::Program> program = window.session().workload()->workload.programs.at(0);
    window.graph()->setProgram(nullptr);
    window.graph()->setProgram(program);
    QVERIFY(window.graph()->isLayingOut()); // a fresh layout, on the worker
    bool drawn = false;
    window.whenDrawn([&] {
        drawn = true;
        QVERIFY(!window.graph()->isLayingOut());
        QVERIFY(window.graph()->currentLayout());
    });
    QVERIFY(!drawn);
    QTRY_VERIFY_WITH_TIMEOUT(drawn, 20000);
    // Every tab exports as PNG and SVG through the window's export.
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg")}) {
            const QString file = dir.filePath(QStringLiteral("tab%1.%2").arg(tab).arg(suffix));
            QVERIFY2(window.exportCurrentView(file), qPrintable(file));
            QVERIFY(QFileInfo(file).size() > 1000);
        }
    }
}

void TestExplorer::defaultModelIsGpt3OnThousandGpus()
{
    // What a new user sees first: GPT-3 175B on 1,024 H100s (TP 8 x PP 8 x DP 16) in every view, and
    // a TP change recompiles and re-estimates.
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openDefaultModel();
    QVERIFY(estimated.wait(120000));
    const auto workload = window.session().workload();
    QCOMPARE(workload->kind, core::InputKind::BuiltinModel);
    QCOMPARE(workload->workload.rankCount(), std::size_t(1024));
    QCOMPARE(workload->workload.programs.size(), std::size_t(8)); // one program per pipeline stage
    QVERIFY(window.windowTitle().contains(QStringLiteral("GPT-3 175B")));
    QVERIFY(window.parallelism()->figures().contains(QStringLiteral("MFU")));
    QVERIFY(window.session().result()->stepTime > 1);
    QVERIFY(window.timeline()->laneCount() > 0);
    QVERIFY(qFuzzyCompare(window.timeline()->geometryOfTime().totalTime, window.session().result()->stepTime));
    QVERIFY(window.matrix()->cellCount() > 0);
    QVERIFY(window.charts()->breakdownGroups() > 0);
    QVERIFY(window.ops()->model()->rowCount() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(window.graph()->currentLayout() && !window.graph()->isLayingOut(), 60000);
    // View > Pipeline schedule: 1F1B over 8 stages with 96 microbatches idles (p - 1)/(m + p - 1) of
    // the idealised step, the bubble the Parallelism panel reports.
    window.findChild<QAction*>(QStringLiteral("pipelineSchedule"))->trigger();
    views::PipelineScheduleDialog* schedule = window.pipelineSchedule();
    QVERIFY(schedule && schedule->isVisible());
    QCOMPARE(schedule->bubble(), 7.0 / 103.0);
    QCOMPARE(window.session().compiledModel()->bubbleFraction, 7.0 / 103.0);
    schedule->findChild<QSlider*>(QStringLiteral("timeSlider"))->setValue(0);
    QCOMPARE(schedule->view()->cursor(), 0.0);
    schedule->close();
    // View > Network utilisation: both dimensions of the DGX cluster carry traffic (tensor-parallel
    // collectives on NVLink, data-parallel ones and pipeline sends on InfiniBand), the bytes those of
    // the estimate, played from the step's start.
    window.findChild<QAction*>(QStringLiteral("networkUtilisation"))->trigger();
    views::NetworkUtilisationDialog* network = window.networkUtilisation();
    QVERIFY(network && network->isVisible());
    const core::LinkUtilisation& links = network->view()->links();
    QCOMPARE(links.dims.size(), window.session().result()->bytesPerDim.size());
    QCOMPARE(links.dims.size(), std::size_t{2});
    QCOMPARE(network->view()->topology(), window.session().evaluation()->scenario.cluster.topology);
    for (std::size_t d = 0; d < 2; ++d) {
        QVERIFY(links.dims[d].average > 0);
        QVERIFY(std::abs(links.dims[d].bytes - window.session().result()->bytesPerDim[d]) < 1e-9 * links.dims[d].bytes);
    }
    QCOMPARE(network->view()->cursor(), 0.0);
    network->findChild<QSlider*>(QStringLiteral("timeSlider"))->setValue(500);
    QVERIFY(std::abs(network->view()->cursor() - links.stepTime / 2) < 1e-9 * links.stepTime);
    const double before = window.session().result()->stepTime;
    window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(4);
    QVERIFY(estimated.wait(120000));
    QCOMPARE(window.session().compiledModel()->parallel.tp, 4);
    QCOMPARE(window.session().workload()->workload.rankCount(), std::size_t(512));
    QVERIFY(window.session().result()->stepTime != before);
    // The open dialog follows the new estimate.
    QVERIFY(network->isVisible());
    QCOMPARE(network->view()->links().stepTime, window.session().result()->stepTime);
}

void TestExplorer::modelFileOpensWithAStrategyThatFitsIt()
{
#if defined(FLINT_HAVE_MODELS)
    // A model file whose 4 heads the default layout (TP 8) does not fit opens on one node with the
    // largest TP it allows, estimated once (no "Last change" without a change); one that does not
    // parse is refused at once (a --screenshot run exits instead of waiting).
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("tiny.txt"));
    const QString bad = dir.filePath(QStringLiteral("bad.txt"));
    {
        QFile file(good);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("title = Tiny\nlayers = 2\nhidden = 256\nheads = 4\nffn = 1024\nvocab = 1024\nseq_len = 128\n");
        QFile broken(bad);
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("layers = 2\nhidden = 256x\n");
    }
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    QVERIFY(!window.openPath(bad));
    QVERIFY(window.openPath(good));
    QVERIFY(estimated.wait(60000));
    QCOMPARE(window.parallelism()->model().title, std::string("Tiny"));
    QCOMPARE(window.parallelism()->parallel().tp, 4);
    QCOMPARE(window.parallelism()->parallel().dp, 2);
    QTest::qWait(300); // a second, duplicate estimate would arrive within the panel's debounce
    QCOMPARE(estimated.count(), 1);
    QVERIFY(!window.whatIf()->comparison().contains(QStringLiteral("Last change")));
    // The What-if panel names the file the model came from, not "a built-in model".
    QVERIFY2(window.whatIf()->fixedParameters().contains(QStringLiteral("tiny.txt")),
             qPrintable(window.whatIf()->fixedParameters()));
#else
    QSKIP("built without the MLIR frontend");
#endif
}

void TestExplorer::modelChosenAfterAModuleOpensInItsLayout()
{
    // After a module, a built-in model chosen in the Parallelism panel's box opens in the layout it
    // opens with by default (GPT-3's 1,024 GPUs), not on one GPU. The box's entries stay choosable
    // once the module comes back from the History, and undo back to the model names it again; the
    // module and the model are not compared as a "Last change".
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openPath(kHlo);
    QVERIFY(estimated.wait(120000));
    QVERIFY(!window.parallelism()->isActive());
    auto* box = window.parallelism()->findChild<QComboBox*>(QStringLiteral("model"));
    QVERIFY(box && box->isEnabled() && box->currentIndex() < 0);
    box->showPopup(); // the list exists from now on, as after a user's first look
    box->hidePopup();
    box->setCurrentIndex(box->findText(QStringLiteral("GPT-3 175B")));
    QVERIFY(estimated.wait(120000));
    QVERIFY(window.parallelism()->isActive());
    QCOMPARE(window.session().workload()->workload.rankCount(), std::size_t(1024));
    QCOMPARE(window.session().evaluation()->scenario.parallel.globalBatch, std::int64_t{1536});
    QVERIFY2(!window.whatIf()->comparison().contains(QStringLiteral("Last change")),
             qPrintable(window.whatIf()->comparison()));

    window.session().restore(window.history()->entry(0).state, true); // the module again
    QVERIFY(estimated.wait(120000));
    QVERIFY(!window.parallelism()->isActive());
    QVERIFY(box->isEnabled() && box->view()->isEnabled());
    QVERIFY(box->model()->flags(box->model()->index(0, 0)) & Qt::ItemIsEnabled);
    window.findChild<QAction*>(QStringLiteral("undo"))->trigger(); // back to GPT-3
    QVERIFY(estimated.wait(120000));
    QVERIFY(window.parallelism()->isActive());
    QCOMPARE(box->currentText(), QStringLiteral("GPT-3 175B"));
    QVERIFY2(!window.whatIf()->comparison().contains(QStringLiteral("Last change")),
             qPrintable(window.whatIf()->comparison()));
}

void TestExplorer::invalidParallelismIsExplainedNotCompiled()
{
    app::MainWindow window;
    QSignalSpy compiled(&window.session(), &app::Session::modelCompiled);
    window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(5);
    QTest::qWait(views::ParallelismPanel::kDebounceMs + 300);
    QVERIFY2(window.parallelism()->problems().contains(QStringLiteral("does not divide")),
             qPrintable(window.parallelism()->problems()));
    QCOMPARE(compiled.count(), 0);
    QVERIFY(!window.session().isBusy());

    // With a strategy estimated, an invalid edit leaves its figures on screen, greyed out and said to
    // be the last valid strategy's; a valid edit brings new figures, not greyed.
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openModel(tests::smallModel(), tests::smallModelStrategy(8));
    QVERIFY(estimated.wait(120000));
    auto* details = window.findChild<app::DetailsPanel*>();
    QVERIFY(details);
    QVERIFY(!window.parallelism()->figuresStale());
    QVERIFY(!details->summaryStale());
    QVERIFY(!window.parallelism()->figures().isEmpty());
    auto* tp = window.parallelism()->findChild<QSpinBox*>(QStringLiteral("tp"));
    tp->setValue(5);
    QTRY_VERIFY_WITH_TIMEOUT(window.parallelism()->problems().contains(QStringLiteral("last valid strategy")), 5000);
    QVERIFY(window.parallelism()->figuresStale());
    QVERIFY(!window.parallelism()->figures().isEmpty());
    tp->setValue(2);
    QVERIFY(estimated.wait(120000));
    QVERIFY(!window.parallelism()->figuresStale());
    QVERIFY(!details->summaryStale());
    QVERIFY(window.parallelism()->problems().isEmpty());
}

void TestExplorer::sweepMarksTheBestPoint()
{
    // Llama 3 8B on 8 GPUs, TP over 1, 2, 4, 8 with DP following: four estimated points, one best.
    app::MainWindow window;
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openModel(tests::smallModel(), tests::smallModelStrategy(8));
    QVERIFY(estimated.wait(120000));
    QSignalSpy finished(window.sweep(), &app::SweepPage::finished);
    window.sweep()->run(app::SweepPage::Parameter::TP, {1, 2, 4, 8});
    QVERIFY(finished.wait(120000));
    const auto& points = window.sweep()->points();
    QCOMPARE(points.size(), std::size_t(4));
    for (const auto& point : points)
        QCOMPARE(point.parallel().ranks(), 8);
    QVERIFY(window.sweep()->bestIndex() >= 0);
    QVERIFY(points[static_cast<std::size_t>(window.sweep()->bestIndex())].feasible());
    QCOMPARE(window.sweep()->chart()->series().size(), 4);
    window.sweep()->setMetric(app::SweepPage::Metric::Mfu);
    QCOMPARE(window.sweep()->chart()->series().size(), 4);
    if (qEnvironmentVariableIsSet("FLINT_TEST_SCREENSHOTS")) { // to look at the page as a user would
        window.resize(1400, 900);
        window.show();
        window.tabs()->setCurrentWidget(window.sweep());
        QTest::qWait(200);
        window.grab().save(qEnvironmentVariable("FLINT_TEST_SCREENSHOTS") + QStringLiteral("/sweep.png"));
    }
    // Choosing one of its points keeps the sweep current; another configuration makes it out of date
    // (its points stay, and the page says around what they were swept).
    QVERIFY(!window.sweep()->status().contains(QStringLiteral("changed since")));
    window.parallelism()->findChild<QSpinBox*>(QStringLiteral("globalBatch"))->setValue(16);
    QVERIFY(estimated.wait(120000));
    QVERIFY2(window.sweep()->status().contains(QStringLiteral("changed since")), qPrintable(window.sweep()->status()));
    QCOMPARE(window.sweep()->points().size(), std::size_t(4));
}

QTEST_MAIN(TestExplorer)
#include "tst_explorer.moc"
