// SPDX-License-Identifier: MIT
#include "app/explorer/mainwindow.h"

#include "app/explorer/detailspanel.h"
#include "app/explorer/examplegallery.h"
#include "app/explorer/exportactions.h"
#include "app/explorer/history.h"
#include "app/explorer/session.h"
#include "app/explorer/stepsummary.h"
#include "app/explorer/sweeppage.h"
#include "app/explorer/validationpage.h"
#include "core/error.h"
#include "core/estimator/collectivemodel.h"
#include "core/estimator/estimateexport.h"
#include "core/estimator/linkutilisation.h"
#include "core/estimator/opexplain.h"
#include "core/fileio.h"
#include "core/workloadsummary.h"
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
#include "views/timelinegeometry.h"
#include "views/timelinepage.h"
#include "views/timelineview.h"
#include "views/viewpalette.h"
#include "views/whatifpanel.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <utility>
#if defined(FLINT_HAVE_MODELS)
#include "engine/modelcompiler.h"
#endif

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace flint::app {
namespace {

constexpr int kMaxRecent = 10;

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new Session(this))
{
    setWindowTitle(tr("Flint Explorer"));
    setAcceptDrops(true);
    // 1,280 x 820 where the screen has room, else the screen's free area (a 1,280 x 800 laptop).
    resize(QSize(1280, 820).boundedTo(screen() ? screen()->availableGeometry().size() : QSize(1280, 820)));

    m_tabs = new QTabWidget(this);
    // Every tab's name whole, in every language: no scroll arrows hiding the last tabs (German's
    // names did not fit beside the side panels at 1,280 pixels). The tab bar's width is then the
    // views' minimum width, and the side panels, which wrap or scroll, give way.
    m_tabs->setUsesScrollButtons(false);
    m_tabs->setElideMode(Qt::ElideNone);
    // Graph page: one rank's DAG and a rank chooser.
    auto* graphPage = new QWidget(m_tabs);
    auto* graphLayout = new QVBoxLayout(graphPage);
    auto* rankRow = new QHBoxLayout;
    m_rank = new QSpinBox(graphPage);
    m_rank->setRange(0, 0);
    m_rank->setPrefix(tr("rank "));
    m_rank->setToolTip(tr("The rank whose graph is shown"));
    rankRow->addWidget(m_rank);
    rankRow->addStretch(1);
    graphLayout->addLayout(rankRow);
    m_graph = new views::DagView(graphPage);
    m_graph->setJobRunner(&m_session->jobs());
    graphLayout->addWidget(m_graph, 1);
    m_timelinePage = new views::TimelinePage(m_tabs);
    m_timeline = m_timelinePage->view();
    m_matrixPage = new views::CommMatrixPage(m_tabs);
    m_matrix = m_matrixPage->view();
    m_charts = new views::ChartsPage(m_tabs);
    m_ops = new views::OpsPage(m_tabs);
    m_tabs->addTab(graphPage, tr("Graph"));
    m_tabs->addTab(m_timelinePage, tr("Timeline"));
    m_tabs->addTab(m_matrixPage, tr("Communication"));
    m_tabs->addTab(m_charts, tr("Charts"));
    m_tabs->addTab(m_ops, tr("Ops"));
    m_validation = new ValidationPage(m_tabs);
    m_validation->setObjectName(QStringLiteral("validation"));
    m_tabs->addTab(m_validation, tr("Validation"));
    m_sweep = new SweepPage(*m_session, m_tabs);
    m_tabs->addTab(m_sweep, tr("Sweep"));
    m_sweep->setObjectName(QStringLiteral("sweep"));
    // Untranslated names for `--tab` and tests; the tab titles follow the UI language.
    graphPage->setObjectName(QStringLiteral("graph"));
    m_timelinePage->setObjectName(QStringLiteral("timeline"));
    m_matrixPage->setObjectName(QStringLiteral("communication"));
    m_charts->setObjectName(QStringLiteral("charts"));
    m_ops->setObjectName(QStringLiteral("ops"));
    setCentralWidget(m_tabs);
    // A view brought to the front takes the keyboard, so that F fits it (the graph page's rank box
    // would otherwise keep the focus and take the key as input).
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, graphPage] {
        QWidget* page = m_tabs->currentWidget();
        if (page == graphPage)
            m_graph->setFocus(Qt::TabFocusReason);
        else if (page == m_timelinePage)
            m_timeline->setFocus(Qt::TabFocusReason);
        else if (page == m_matrixPage)
            m_matrix->setFocus(Qt::TabFocusReason);
    });

    m_parallelism = new views::ParallelismPanel(this);
    auto* parallelismDock = new QDockWidget(tr("Parallelism"), this);
    parallelismDock->setObjectName(QStringLiteral("parallelismDock"));
    parallelismDock->setWidget(m_parallelism);
    addDockWidget(Qt::LeftDockWidgetArea, parallelismDock);

    m_whatIf = new views::WhatIfPanel(this);
    auto* whatIfDock = new QDockWidget(tr("What if"), this);
    whatIfDock->setObjectName(QStringLiteral("whatIfDock"));
    whatIfDock->setWidget(m_whatIf);
    addDockWidget(Qt::RightDockWidgetArea, whatIfDock);

    auto* detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    m_detailsPanel = new DetailsPanel(m_session->jobs(), detailsDock);
    detailsDock->setWidget(m_detailsPanel);
    m_exports = new ExportActions(*m_session, this);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);

    m_history = new History(this);
    m_historyPanel = new HistoryPanel(*m_history, this);
    auto* historyDock = new QDockWidget(tr("History"), this);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(m_historyPanel);
    // Under the views, between the side panels: a wide, short table of the configurations tried.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, historyDock);
    resizeDocks({historyDock}, {150}, Qt::Vertical);
    // The right panels as wide as the views' minimum (their tab bar) leaves room for, up to 350
    // pixels: the network table's columns.
    resizeDocks({whatIfDock}, {350}, Qt::Horizontal);

    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(180);
    m_progress->setVisible(false);
    statusBar()->addPermanentWidget(m_progress);

    buildMenus();
    qApp->installEventFilter(this); // Ctrl+Z in the panels' spin boxes (eventFilter)

    connect(m_session, &Session::workloadAvailable, this, &MainWindow::showWorkload);
    // The history first: the comparison showEstimate makes needs the current row.
    connect(m_session, &Session::estimateAvailable, this, [this](const std::shared_ptr<const engine::Evaluation>& e) {
        m_history->add(e, m_session->path(), m_session->state().fromDisk);
    });
    connect(m_session, &Session::estimateAvailable, this, &MainWindow::showEstimate);
    connect(m_session, &Session::estimateAvailable, this, &MainWindow::refreshTeachingViews);
    connect(m_history, &History::baselineChanged, this, [this] {
        showComparison();
        showBaselineInViews();
    });
    connect(m_historyPanel, &HistoryPanel::reopenRequested, this,
            [this](int row) { m_session->restore(m_history->entry(row).state, true); });
    connect(m_historyPanel, &HistoryPanel::pinRequested, this,
            [this](int row) { m_session->evaluateBeside(m_history->entry(row).state, row); });
    connect(m_session, &Session::evaluatedBeside, m_history, &History::pinEvaluated);
    // A baseline chosen (or cleared) meanwhile wins over a row still being estimated to pin it.
    connect(m_history, &History::baselineChanged, this,
            [this] { m_session->jobs().cancel(views::JobRunner::Kind::Baseline); });
    connect(m_historyPanel, &HistoryPanel::exportRequested, this,
            [this] { m_exports->exportHistoryCsv(m_history->csv()); });
    connect(m_session, &Session::failed, this, &MainWindow::showError);
    // While a workload is compiled or estimated, the figures on screen are the previous estimate's:
    // greyed out until the new one arrives (showEstimate), or for good when it fails.
    connect(&m_session->jobs(), &views::JobRunner::busyChanged, this, [this] {
        const views::JobRunner& jobs = m_session->jobs();
        if (!jobs.isRunning(views::JobRunner::Kind::Load) && !jobs.isRunning(views::JobRunner::Kind::Estimate))
            return;
        m_detailsPanel->setSummaryStale(true);
        m_parallelism->setFiguresStale(true);
    });
    // The session owns the scenario; the panels show what it reports and send it their edits.
    connect(m_session, &Session::scenarioChanged, this,
            [this](const engine::Scenario& scenario) { m_whatIf->setCluster(scenario.cluster); });
    connect(m_session, &Session::modelCompiled, this,
            [this](const std::shared_ptr<const core::model::CompiledModel>& c) {
                // Inactive (a file was open), the panel names no model: a restored model state names it.
                if (!m_parallelism->isActive() || m_parallelism->parallel().describe() != c->parallel.describe() ||
                    m_parallelism->model().name != c->model.name)
                    m_parallelism->setStrategy(c->model, c->parallel);
            });
    connect(m_session, &Session::busyChanged, this, [this](const QString& message, int percent) {
        m_progress->setVisible(!message.isEmpty());
        m_progress->setRange(0, percent < 0 ? 0 : 100);
        m_progress->setValue(std::max(0, percent));
        if (!message.isEmpty())
            statusBar()->showMessage(message);
        else
            statusBar()->clearMessage();
    });
    connect(m_session, &Session::exported, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(m_exports, &ExportActions::written, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(m_exports, &ExportActions::failed, this, &MainWindow::showError);
    connect(m_detailsPanel, &DetailsPanel::explained, this,
            [this](int, int, const DetailsPanel::Flows& flows, const QString& html) {
                m_matrix->highlightFlows(flows);
                m_detailsPanel->showExplanation(html, !flows.empty(),
                                                static_cast<int>(m_matrix->highlightedCells().size()));
            });
    connect(m_detailsPanel, &DetailsPanel::opFound, this, &MainWindow::showCellOp);
    connect(m_whatIf, &views::WhatIfPanel::clusterChanged, m_session, &Session::setCluster);
    connect(m_session, &Session::validationAvailable, m_validation, &ValidationPage::setReport);
    connect(m_session, &Session::validationAvailable, this, &MainWindow::showComparisonTimeline);
    connect(m_validation, &ValidationPage::openRequested, this, &MainWindow::chooseMeasuredRun);
    connect(m_validation, &ValidationPage::stopRequested, this, [this] { m_session->compareWithMeasured({}); });
    connect(m_validation, &ValidationPage::opChosen, this, [this](int rank, int op) { showOp(rank, op); });
    connect(m_parallelism, &views::ParallelismPanel::strategyChanged, this,
            [this](const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel) {
                // From a trace or module to a model: "Last change" does not compare the two.
                if (!m_session->compiledModel())
                    m_previous.reset();
                m_session->openModel(model, parallel);
            });
    connect(m_parallelism, &views::ParallelismPanel::openModelFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a model file"), QString(),
                                                          tr("Model files (*.txt *.model);;All files (*)"));
        if (path.isEmpty())
            return;
        try {
            m_parallelism->addModel(core::model::readModelFile(path.toStdString()));
        } catch (const std::exception& e) {
            showError(tr("Cannot read the model %1").arg(QFileInfo(path).fileName()), QString::fromStdString(e.what()));
        }
    });
    connect(m_sweep, &SweepPage::pointChosen, this, [this](const engine::Scenario& scenario) {
        m_session->openScenario(scenario);
        m_tabs->setCurrentIndex(1); // the timeline of the chosen point
    });
    connect(m_whatIf, &views::WhatIfPanel::presetChosen, m_session, &Session::choosePreset);
    // Linked selection: an op chosen in one view is shown in the others and in Details.
    connect(m_timeline, &views::TimelineView::opClicked, this,
            [this](int rank, int opIndex) { showOp(rank, opIndex, true); });
    connect(m_graph, &views::DagView::opSelected, this, [this](int rank, quint32 opIndex) {
        showOp(rank, static_cast<int>(opIndex));
        m_timeline->revealOp(static_cast<int>(opIndex), rank);
    });
    connect(m_matrix, &views::CommMatrixView::cellClicked, this, &MainWindow::selectFromCell);
    connect(m_ops, &views::OpsPage::opActivated, this, [this](int rank, int opIndex) {
        showOp(rank, opIndex, true);
        m_timeline->revealOp(opIndex, rank);
    });
    connect(m_graph, &views::DagView::messageChanged, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    connect(m_rank, &QSpinBox::valueChanged, this, [this](int rank) {
        if (auto workload = m_session->workload()) {
            const std::shared_ptr<const core::Workload> ranks(workload, &workload->workload);
            m_graph->setWorkload(ranks, rank);
            m_ops->setData(ranks, m_session->result(), rank);
        }
    });
    connect(m_timeline, &views::TimelineView::rangeSummary, this,
            [this](const QString& text) { statusBar()->showMessage(text); });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow() = default;

QStringList MainWindow::exampleFolders()
{
    const QString exe = QCoreApplication::applicationDirPath();
    // Installed: PREFIX/bin/flint-explorer and PREFIX/share/flint-explorer/examples. In the build
    // tree: build/PRESET/app/flint-explorer and build/PRESET/share/flint-explorer/examples, a link to
    // the source's resources/examples (app/CMakeLists.txt).
    return {QDir(exe).absoluteFilePath(QStringLiteral("../share/flint-explorer/examples"))};
}

void MainWindow::compareWithMeasured(const QString& path)
{
    m_session->compareWithMeasured(path);
    m_tabs->setCurrentWidget(m_validation);
}

void MainWindow::chooseMeasuredRun()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a measured run"), QString(),
        tr("Measured runs: profiler traces, Chakra traces with recorded times (*.json *.json.gz *.et);;"
           "All files (*)"));
    if (!path.isEmpty())
        compareWithMeasured(path);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a workload"), QString(),
                                                          tr("Workloads and profiles (*.hlo *.hlo.gz *.txt *.txt.gz "
                                                             "*.mlir *.et *.et.gz *.json *.json.gz);;All files (*)"));
        if (!path.isEmpty())
            openPath(path);
    });
    file->addAction(tr("Open trace &folder…"), this, [this] {
        const QString path =
            QFileDialog::getExistingDirectory(this, tr("Open a folder of Chakra rank files or profiler traces"));
        if (!path.isEmpty())
            openPath(path);
    });
    QAction* measured = file->addAction(tr("Compare with a &measured run…"), this, &MainWindow::chooseMeasuredRun);
    measured->setObjectName(QStringLiteral("compareMeasured"));
    file->addAction(tr("Compare with a measured run fol&der…"), this, [this] {
        const QString path =
            QFileDialog::getExistingDirectory(this, tr("Open a folder of profiler traces, one per rank"));
        if (!path.isEmpty())
            compareWithMeasured(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addAction(tr("Example &gallery…"), this, &MainWindow::openGallery);
    QMenu* examples = file->addMenu(tr("&Examples"));
    for (const QString& folder : exampleFolders()) {
        QDir dir(folder);
        if (!dir.exists())
            continue;
        for (const QFileInfo& entry : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            QDir sub(entry.absoluteFilePath());
            const QStringList hlo = sub.entryList({QStringLiteral("*.hlo")}, QDir::Files, QDir::Name);
            if (hlo.isEmpty())
                examples->addAction(entry.fileName(), this, [this, p = entry.absoluteFilePath()] { openPath(p); });
            for (const QString& name : hlo)
                examples->addAction(name, this, [this, p = sub.absoluteFilePath(name)] { openPath(p); });
        }
        break; // the first folder that exists
    }
    file->addSeparator();
    file->addAction(tr("Export &Perfetto trace…"), m_exports, &ExportActions::exportTrace);
    file->addAction(tr("Export &Chakra traces…"), m_exports, &ExportActions::exportChakra);
    file->addAction(tr("Export breakdown as CS&V…"), m_exports, &ExportActions::exportBreakdownCsv);
    file->addAction(tr("Export view &image…"), this, [this] {
        m_exports->exportView(m_tabs->currentWidget(), m_graph, m_tabs->tabText(m_tabs->currentIndex()));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_session->undoStack().createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undo"));
    undo->setShortcuts(QKeySequence::Undo);
    QAction* redo = m_session->undoStack().createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redo"));
    redo->setShortcuts(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Pin current estimate as baseline"), QKeySequence(Qt::CTRL | Qt::Key_B), this,
                    [this] { m_history->setBaseline(m_history->current()); });
    QAction* clearBaseline = edit->addAction(tr("&Clear baseline"), this, [this] { m_history->setBaseline(-1); });
    clearBaseline->setObjectName(QStringLiteral("clearBaseline"));
    clearBaseline->setEnabled(m_history->baseline() >= 0);
    connect(m_history, &History::baselineChanged, clearBaseline,
            [this, clearBaseline] { clearBaseline->setEnabled(m_history->baseline() >= 0); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to window"), QKeySequence(Qt::Key_F), this, &MainWindow::fitCurrentView);
    fit->setObjectName(QStringLiteral("fit"));
    m_animateAction =
        view->addAction(tr("&Animate selected collective…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), this,
                        &MainWindow::animateSelectedCollective);
    m_animateAction->setObjectName(QStringLiteral("animateCollective"));
    view->addAction(tr("&Pipeline schedule…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                    &MainWindow::showPipelineSchedule)
        ->setObjectName(QStringLiteral("pipelineSchedule"));
    view->addAction(tr("&Network utilisation…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), this,
                    &MainWindow::showNetworkUtilisation)
        ->setObjectName(QStringLiteral("networkUtilisation"));
    view->addSeparator();
    // Every panel, so that a closed one comes back (the docks' own show/hide actions).
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        view->addAction(dock->toggleViewAction());
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this,
                    [this] { QMessageBox::information(this, tr("Keyboard shortcuts"), keyboardReference()); });
    help->addAction(tr("&About Flint Explorer"), this, [this] {
        QMessageBox::about(
            this, tr("About Flint Explorer"),
            tr("<b>Flint Explorer %1</b><p>Explore how a training or inference step of a large model behaves on "
               "a cluster you do not have: workload graphs from XLA HLO, StableHLO, Shardy and MLIR or built-in "
               "models, per-rank timelines estimated on a modelled cluster, Chakra traces for ASTRA-sim.</p>"
               "<p>MIT licence. Qt %2.</p>")
                .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
}

QString MainWindow::keyboardReference()
{
    const QList<std::pair<QString, QString>> keys{
        {QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText), tr("Open a workload")},
        {QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText), tr("Undo the last change")},
        {QKeySequence(QKeySequence::Redo).toString(QKeySequence::NativeText), tr("Redo")},
        {QKeySequence(Qt::CTRL | Qt::Key_B).toString(QKeySequence::NativeText),
         tr("Pin the current estimate as the baseline")},
        {QStringLiteral("F"), tr("Fit the graph, timeline or matrix to the window")},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A).toString(QKeySequence::NativeText),
         tr("Play the selected collective step by step")},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P).toString(QKeySequence::NativeText),
         tr("Play the built-in model's pipeline schedule")},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N).toString(QKeySequence::NativeText),
         tr("Play how busy the network's links are over the step")},
        {QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText), tr("Find an op in the graph")},
        {tr("Enter, F3"), tr("Next match of the search")},
        {tr("Wheel, drag"), tr("Zoom and pan the graph, the timeline and the matrix")},
        {tr("Shift+wheel"), tr("Pan the timeline along the step")},
        {tr("Shift+drag"), tr("Select a time range in the timeline (its length is shown)")},
        {tr("Double-click"), tr("Open a group in the graph; zoom onto a cell's group in the matrix; re-open a row "
                                "of the history or the sweep")},
        {QKeySequence(QKeySequence::Quit).toString(QKeySequence::NativeText), tr("Quit")},
    };
    QString html = QStringLiteral("<table cellspacing=\"4\">");
    for (const auto& [key, what] : keys)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

void MainWindow::fitCurrentView()
{
    QWidget* page = m_tabs->currentWidget();
    if (page == m_timelinePage)
        m_timeline->fit();
    else if (page == m_matrixPage)
        m_matrix->resetZoom();
    else if (page && page->isAncestorOf(m_graph))
        m_graph->fitToView();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::openDefaultModel()
{
    const core::model::TransformerConfig& gpt3 = *core::model::findModel("gpt3-175b");
    openModel(gpt3, core::model::defaultStrategy(gpt3));
}

void MainWindow::openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel)
{
    m_session->openModel(model, parallel);
}

bool MainWindow::openPath(const QString& path)
{
    // A model file opens as a model, with the strategy the Parallelism panel shows when it suits the
    // model (an edit the user made), else core::model::defaultStrategy()'s.
    if (core::isModelFile(path.toStdString())) {
        try {
            const core::model::TransformerConfig model = core::model::readModelFile(path.toStdString());
            core::model::ParallelConfig parallel = m_parallelism->parallel();
            if (!m_session->workload() || !core::model::validateStrategy(model, parallel).empty())
                parallel = core::model::defaultStrategy(model);
            m_parallelism->setStrategy(model, parallel); // one estimate, of what the panel shows
            m_previous.reset();
            openModel(model, parallel);
        } catch (const std::exception& e) {
            showError(tr("Cannot read the model %1").arg(QFileInfo(path).fileName()), QString::fromStdString(e.what()));
            return false;
        }
        return true;
    }
    m_previous.reset();
    m_session->open(path);
    return true; // read on a worker: a failure arrives as Session::failed
}

int MainWindow::ranksPerNode(const core::Cluster& cluster)
{
    const auto& dims = cluster.topology.dims;
    return dims.empty() ? 8 : std::max(1, dims.front().npus);
}

QStringList MainWindow::dimensionNames(const core::Cluster& cluster)
{
    QStringList names;
    for (const core::TopologyDim& dim : cluster.topology.dims) {
        names << tr("%1 × %2 GB/s").arg(dim.npus).arg(QLocale().toString(dim.decimalGBps(), 'g', 4));
    }
    return names;
}

void MainWindow::showWorkload(const std::shared_ptr<const core::LoadedWorkload>& workload, const QString& path)
{
    // A new workload: no op is selected in it yet (a strategy change compiles a new one too).
    m_selectedRank = -1;
    m_selectedOp = -1;
    setWindowTitle(tr("%1 — Flint Explorer").arg(QFileInfo(path).fileName()));
    if (m_session->state().fromDisk) {
        // Files only: a built-in model's strategy (every parallelism edit) or a workload built in
        // memory has a name, not a path to open again.
        QSettings settings;
        QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
        recent.removeAll(path);
        recent.prepend(path);
        while (recent.size() > kMaxRecent)
            recent.removeLast();
        settings.setValue(QStringLiteral("recentFiles"), recent);
        rebuildRecentMenu();
    }

    {
        const QSignalBlocker blocker(m_rank);
        m_rank->setRange(0, static_cast<int>(workload->workload.rankCount()) - 1);
        m_rank->setValue(0);
    }
    m_graph->setWorkload(std::shared_ptr<const core::Workload>(workload, &workload->workload), 0);
    // A new strategy of a built-in model keeps the previous figures, greyed out until its estimate
    // arrives (the panel does not jump); anything else has none.
    if (workload->kind == core::InputKind::BuiltinModel)
        m_parallelism->setFiguresStale(true);
    else
        m_parallelism->setFigures(QString());
    m_parallelism->setActive(workload->kind == core::InputKind::BuiltinModel, StepSummary::parallelismFixed(*workload));
    const auto compiled = m_session->compiledModel();
    m_whatIf->setFixedParameters(StepSummary::fixedParameters(*workload, compiled ? &compiled->model : nullptr));
    m_detailsPanel->showWorkload(*workload, workload->kind == core::InputKind::BuiltinModel ? compiled.get() : nullptr);
    // A measured run opened as the workload is also what its estimate is held against: the Validation
    // tab compares them at once (unless another run is already being compared).
    if (!workload->measuredRanks.empty() && m_session->state().fromDisk && m_session->requestedMeasuredPath().isEmpty())
        m_session->compareWithMeasured(path);
}

void MainWindow::refreshTeachingViews()
{
    // An open dialog follows the new estimate (a network edit re-prices the collective, a strategy
    // edit changes the schedule) or closes when what it showed is gone.
    if (m_animation && m_animation->isVisible()) {
        if (selectedCollective())
            animateSelectedCollective();
        else
            m_animation->hide();
    }
    if (m_schedule && m_schedule->isVisible()) {
        if (const auto evaluation = m_session->evaluation(); evaluation && hasPipelineSchedule(*evaluation))
            m_schedule->setParallel(evaluation->scenario.parallel);
        else
            m_schedule->hide();
    }
    if (m_network && m_network->isVisible()) {
        if (const auto evaluation = m_session->evaluation(); evaluation && evaluation->result)
            showNetworkUtilisation();
        else
            m_network->hide();
    }
}

const core::Op* MainWindow::selectedCollective() const
{
    const auto workload = m_session->workload();
    if (!workload || m_selectedRank < 0 || static_cast<std::size_t>(m_selectedRank) >= workload->workload.rankCount())
        return nullptr;
    const core::Program& program = workload->workload.programOf(static_cast<std::size_t>(m_selectedRank));
    if (m_selectedOp < 0 || static_cast<std::size_t>(m_selectedOp) >= program.ops.size())
        return nullptr;
    const core::Op& op = program.ops[static_cast<std::size_t>(m_selectedOp)];
    return op.kind == core::OpKind::Collective ? &op : nullptr;
}

bool MainWindow::hasPipelineSchedule(const engine::Evaluation& evaluation)
{
    return evaluation.scenario.isModel() && evaluation.scenario.parallel.pp > 1 &&
           evaluation.scenario.parallel.phase == core::model::Phase::Training;
}

void MainWindow::showEstimate(const std::shared_ptr<const engine::Evaluation>& evaluation)
{
    const auto& workload = evaluation->workload;
    const auto& result = evaluation->result;
    const core::Cluster& cluster = evaluation->scenario.cluster;
    // Views keep the workload alive through an aliasing pointer into the loaded workload.
    std::shared_ptr<const core::Workload> ranks(workload, &workload->workload);
    m_timelinePage->setData(ranks, result, ranksPerNode(cluster));
    m_matrixPage->setData(ranks, result, ranksPerNode(cluster));
    m_charts->setData(ranks, result, dimensionNames(cluster));
    showBaselineInViews();
    m_ops->setData(ranks, result, m_rank->value());
    m_detailsPanel->showEstimate(*evaluation);
    // "Last change" compares two estimates of one workload (a what-if edit) or of built-in models (a
    // strategy edit), not a module with a model however the user got from one to the other (undo,
    // History, File > Open).
    const QString path = m_session->state().path;
    const QString workloadKey = evaluation->scenario.isModel() ? QStringLiteral("model")
                                : path.isEmpty()               ? QString::fromStdString(workload->name)
                                                               : path;
    m_lastChange = m_previous && workloadKey == m_previousKey
                       ? StepSummary::comparisonHtml(*m_previous, *result, tr("Last change"))
                       : QString();
    m_previous = result;
    m_previousKey = workloadKey;
    showComparison();
    if (evaluation->figures)
        m_parallelism->setFigures(StepSummary::figuresHtml(*evaluation));
    // The selected op is priced anew (a what-if edit): its times and formula follow, as do its
    // marks in the views the new estimate has just refilled.
    if (m_selectedRank >= 0 && m_selectedOp >= 0)
        showOp(m_selectedRank, m_selectedOp, false);
    statusBar()->showMessage(tr("Estimated %Ln rank(s): step time %1", nullptr, static_cast<int>(result->ranks.size()))
                                 .arg(StepSummary::duration(result->stepTime)),
                             5000);
}

void MainWindow::showComparison()
{
    const auto evaluation = m_session->evaluation();
    const int baseline = m_history->baseline();
    if (!evaluation || baseline < 0 || baseline == m_history->current()) {
        m_whatIf->setComparison(m_lastChange);
        return;
    }
    const History::Entry& base = m_history->entry(baseline);
    const QString title = tr("Against baseline #%1").arg(baseline + 1);
    QString html = base.evaluation && base.evaluation->result
                       ? StepSummary::comparisonHtml(*base.evaluation->result, *evaluation->result, title)
                       : StepSummary::stepComparisonHtml(base.stepTime, evaluation->result->stepTime, title);
    if (const QString note = m_history->gpuCountNote(m_history->current()); !note.isEmpty())
        html += QStringLiteral("<br><small>") + note.toHtmlEscaped() + QStringLiteral("</small>");
    m_whatIf->setComparison(html);
}

std::shared_ptr<const engine::Evaluation> MainWindow::comparedBaseline() const
{
    const int baseline = m_history->baseline();
    if (baseline < 0 || baseline == m_history->current())
        return nullptr;
    auto evaluation = m_history->baselineEvaluation();
    return evaluation && evaluation->result && evaluation->workload ? evaluation : nullptr;
}

void MainWindow::showBaselineInViews()
{
    const auto baseline = comparedBaseline();
    m_charts->setBaseline(baseline ? baseline->result : nullptr);
    showComparisonTimeline();
    if (!baseline) {
        m_ops->setBaseline(nullptr, nullptr);
        m_matrixPage->setBaseline(nullptr, nullptr);
        return;
    }
    const std::shared_ptr<const core::Workload> workload(baseline->workload, &baseline->workload->workload);
    m_ops->setBaseline(workload, baseline->result);
    m_matrixPage->setBaseline(workload, baseline->result);
}

void MainWindow::showComparisonTimeline()
{
    // Under the timeline: the measured run being compared with, else the pinned baseline.
    const auto evaluation = m_session->evaluation();
    const int perNode = evaluation ? ranksPerNode(evaluation->scenario.cluster) : 8;
    const auto report = m_session->validation();
    if (report && report->replay) {
        m_timelinePage->setComparison(
            std::shared_ptr<const core::Workload>(report->run, &report->run->workload), report->replay, perNode,
            tr("Measured run %1, replayed as measured").arg(QFileInfo(report->path).fileName()));
        return;
    }
    if (const auto baseline = comparedBaseline()) {
        m_timelinePage->setComparison(
            std::shared_ptr<const core::Workload>(baseline->workload, &baseline->workload->workload), baseline->result,
            perNode, tr("Baseline #%1").arg(m_history->baseline() + 1));
        return;
    }
    m_timelinePage->setComparison(nullptr, nullptr, perNode, {});
}

QString MainWindow::detailsHtml() const
{
    return m_detailsPanel->html();
}

void MainWindow::selectFromCell(int srcFirst, int srcCount, int dstFirst, int dstCount)
{
    if (const auto evaluation = m_session->evaluation()) // the matrix shows this estimate
        m_detailsPanel->findHeaviestOp(evaluation, srcFirst, srcCount, dstFirst, dstCount);
}

void MainWindow::showCellOp(int rank, int op, double bytes, int dstFirst, int dstCount)
{
    const auto evaluation = m_session->evaluation();
    if (rank < 0 || !evaluation) {
        statusBar()->showMessage(tr("No op sends from these ranks to those"), 5000);
        return;
    }
    showOp(rank, op, true);
    m_timeline->revealOp(op, rank);
    statusBar()->showMessage(tr("%1 moves %2 from rank %3 to ranks %4-%5 over the step")
                                 .arg(qs(evaluation->workload->workload.programOf(static_cast<std::size_t>(rank))
                                             .ops[static_cast<std::size_t>(op)]
                                             .name))
                                 .arg(qs(views::formatBytes(bytes)))
                                 .arg(rank)
                                 .arg(dstFirst)
                                 .arg(dstFirst + dstCount - 1),
                             8000);
}

void MainWindow::showOp(int rank, int opIndex, bool inGraph)
{
    auto workload = m_session->workload();
    if (!workload || rank < 0 || opIndex < 0)
        return;
    const core::Workload& w = workload->workload;
    if (static_cast<std::size_t>(rank) >= w.rankCount() ||
        static_cast<std::size_t>(opIndex) >= w.programOf(static_cast<std::size_t>(rank)).ops.size())
        return;
    if (inGraph) {
        if (rank != m_rank->value())
            m_rank->setValue(rank);
        m_graph->selectOp(static_cast<quint32>(opIndex));
    }
    m_selectedRank = rank;
    m_selectedOp = opIndex;
    m_timeline->highlightOp(opIndex, rank);
    if (rank == m_ops->model()->rank())
        m_ops->selectOp(static_cast<std::uint32_t>(opIndex));
    // The transfers (matrix outline), times and formula arrive from a worker (DetailsPanel::explained).
    m_detailsPanel->explainOp(workload, m_session->evaluation(), m_session->cluster(), rank, opIndex);
}

void MainWindow::animateSelectedCollective()
{
    const core::Op* selected = selectedCollective();
    if (selected == nullptr) {
        statusBar()->showMessage(tr("Select a collective first (in the timeline, the graph or the Ops table)."), 8000);
        return;
    }
    const core::Op& op = *selected;
    const core::Workload& w = m_session->workload()->workload;
    const core::Cluster& cluster = m_session->cluster();
    std::vector<std::int32_t> members = w.membersOf(static_cast<std::size_t>(m_selectedRank), op);
    std::sort(members.begin(), members.end());
    members.erase(std::remove_if(members.begin(), members.end(),
                                 [&](std::int32_t r) { return r < 0 || r >= cluster.topology.npuCount(); }),
                  members.end());
    if (members.size() < 2) {
        statusBar()->showMessage(tr("This collective has one member on this cluster: nothing moves."), 8000);
        return;
    }
    const core::CollectiveCost cost = core::CollectiveModel(cluster).collective(op.collective, op.commBytes, members);
    if (m_animation == nullptr)
        m_animation = new views::CollectiveAnimationDialog(this);
    m_animation->setCollective(tr("%1 on rank %2").arg(QString::fromStdString(op.name)).arg(m_selectedRank),
                               op.collective, op.commBytes, cost, cluster.topology, std::move(members),
                               dimensionNames(cluster));
    m_animation->show();
    m_animation->raise();
}

void MainWindow::showPipelineSchedule()
{
    const auto evaluation = m_session->evaluation();
    if (!evaluation || !hasPipelineSchedule(*evaluation)) {
        statusBar()->showMessage(tr("The pipeline schedule is shown for a built-in model trained with PP > 1."), 8000);
        return;
    }
    if (m_schedule == nullptr)
        m_schedule = new views::PipelineScheduleDialog(this);
    m_schedule->setParallel(evaluation->scenario.parallel);
    m_schedule->show();
    m_schedule->raise();
}

void MainWindow::showNetworkUtilisation()
{
    const auto evaluation = m_session->evaluation();
    if (!evaluation || !evaluation->result || !evaluation->workload) {
        statusBar()->showMessage(tr("The network's utilisation is shown once a step has been estimated."), 8000);
        return;
    }
    const core::Cluster& cluster = evaluation->scenario.cluster;
    core::LinkUtilisation links = core::linkUtilisation(evaluation->workload->workload, cluster, *evaluation->result);
    if (m_network == nullptr)
        m_network = new views::NetworkUtilisationDialog(this);
    m_network->setData(cluster.topology, std::move(links));
    m_network->show();
    m_network->raise();
}

void MainWindow::showError(const QString& summary, const QString& details)
{
    statusBar()->showMessage(summary, 8000);
    if (m_batch) {
        std::fprintf(stderr, "flint-explorer: %s: %s\n", qPrintable(summary), qPrintable(details));
        return;
    }
    if (QGuiApplication::platformName() == QStringLiteral("offscreen")) {
        qWarning("%s: %s", qPrintable(summary), qPrintable(details));
        return; // no one to click a dialog away
    }
    // Non-modal and single: errors that follow each other (an edit that fails on every step of a
    // spin box) update one box rather than queue a dialog each, and the window stays usable.
    if (m_errorBox == nullptr) {
        m_errorBox = new QMessageBox(QMessageBox::Warning, tr("Flint Explorer"), QString(), QMessageBox::Ok, this);
        m_errorBox->setWindowModality(Qt::NonModal);
        connect(m_errorBox, &QMessageBox::finished, this, [this] { m_errorsShown = 0; });
    }
    ++m_errorsShown;
    m_errorBox->setText(summary);
    m_errorBox->setInformativeText(
        m_errorsShown > 1 ? tr("%n errors since this box opened; the latest is shown. The previous workload and "
                               "estimate are still shown.",
                               nullptr, m_errorsShown)
                          : tr("The previous workload and estimate are still shown."));
    m_errorBox->setDetailedText(details);
    m_errorBox->show();
    m_errorBox->raise();
}

void MainWindow::whenDrawn(std::function<void()> drawn)
{
    if (!m_graph->isVisible() || !m_graph->isLayingOut()) {
        drawn();
        return;
    }
    auto pending = std::make_shared<std::function<void()>>(std::move(drawn));
    const auto once = [pending] {
        if (*pending)
            std::exchange(*pending, {})();
    };
    connect(m_graph, &views::DagView::layoutReady, this, once, Qt::SingleShotConnection);
    connect(m_graph, &views::DagView::messageChanged, this, once, Qt::SingleShotConnection);
}

bool MainWindow::exportCurrentView(const QString& path)
{
    return m_exports->writeView(m_tabs->currentWidget(), m_graph, m_tabs->tabText(m_tabs->currentIndex()), path);
}

void MainWindow::openGallery()
{
    QVector<ExampleEntry> examples;
    for (const QString& folder : exampleFolders()) {
        examples = findExamples(folder);
        if (!examples.isEmpty())
            break;
    }
    ExampleGallery gallery(std::move(examples), this);
    if (gallery.exec() == QDialog::Accepted && !gallery.chosenPath().isEmpty())
        openPath(gallery.chosenPath());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // A spin box's line edit takes Ctrl+Z for its own text: right after an edit was committed (typed
    // and Enter), the user means the session's undo, which would otherwise do nothing until the focus
    // left the box. The key is let through to the window's Undo and Redo actions instead.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        // The spin box has the focus (its line edit gets the keys from it), or its line edit does.
        auto* box = qobject_cast<QAbstractSpinBox*>(watched);
        if (!box)
            if (auto* edit = qobject_cast<QLineEdit*>(watched))
                box = qobject_cast<QAbstractSpinBox*>(edit->parentWidget());
        if (box && (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) && isAncestorOf(box)) {
            event->ignore();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        openPath(urls.front().toLocalFile());
}

} // namespace flint::app
