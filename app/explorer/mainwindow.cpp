// SPDX-License-Identifier: MIT
#include "app/explorer/mainwindow.h"

#include "app/explorer/examplegallery.h"
#include "app/explorer/session.h"
#include "app/explorer/sweeppage.h"
#include "core/error.h"
#include "core/estimator/estimateexport.h"
#include "core/estimator/opexplain.h"
#include "core/fileio.h"
#include "core/workloadsummary.h"
#include "views/chartspage.h"
#include "views/commmatrixpage.h"
#include "views/commmatrixview.h"
#include "views/dagview.h"
#include "views/opspage.h"
#include "views/opstablemodel.h"
#include "views/parallelismpanel.h"
#include "views/timelinegeometry.h"
#include "views/timelinepage.h"
#include "views/timelineview.h"
#include "views/viewpalette.h"
#include "views/whatifpanel.h"

#include <numeric>
#if defined(FLINT_HAVE_MODELS)
#include "engine/modelcompiler.h"
#endif

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
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
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

QString duration(double seconds)
{
    return qs(views::formatDuration(seconds));
}

struct Means {
    double compute = 0, exposed = 0, idle = 0;
};

Means meansOf(const core::EstimateResult& result)
{
    Means m;
    for (const core::RankBreakdown& r : result.ranks) {
        m.compute += r.compute;
        m.exposed += r.exposedComm;
        m.idle += r.idle;
    }
    const double n = std::max<std::size_t>(1, result.ranks.size());
    m.compute /= n;
    m.exposed /= n;
    m.idle /= n;
    return m;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new Session(this))
{
    setWindowTitle(tr("Flint Explorer"));
    setAcceptDrops(true);
    resize(1280, 820);

    m_tabs = new QTabWidget(this);
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
    auto* detailsPage = new QWidget(detailsDock);
    auto* detailsLayout = new QVBoxLayout(detailsPage);
    m_summary = new QLabel(detailsPage);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_details = new QTextBrowser(detailsPage);
    detailsLayout->addWidget(m_summary);
    detailsLayout->addWidget(m_details, 1);
    detailsDock->setWidget(detailsPage);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);

    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(180);
    m_progress->setVisible(false);
    statusBar()->addPermanentWidget(m_progress);

    buildMenus();

    connect(m_session, &Session::workloadAvailable, this, &MainWindow::showWorkload);
    connect(m_session, &Session::estimateAvailable, this, &MainWindow::showEstimate);
    connect(m_session, &Session::failed, this, &MainWindow::showError);
    // The session owns the scenario; the panels show what it reports and send it their edits.
    connect(m_session, &Session::scenarioChanged, this,
            [this](const engine::Scenario& scenario) { m_whatIf->setCluster(scenario.cluster); });
    connect(m_session, &Session::modelCompiled, this,
            [this](const std::shared_ptr<const core::model::CompiledModel>& c) {
                if (m_parallelism->parallel().describe() != c->parallel.describe() ||
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
    connect(m_whatIf, &views::WhatIfPanel::clusterChanged, m_session, &Session::setCluster);
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

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a workload"), QString(),
            tr("Workloads (*.hlo *.hlo.gz *.txt *.txt.gz *.mlir *.et *.et.gz);;All files (*)"));
        if (!path.isEmpty())
            openPath(path);
    });
    file->addAction(tr("Open trace &folder…"), this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open a folder of Chakra rank files"));
        if (!path.isEmpty())
            openPath(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
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
    file->addAction(tr("Export &Perfetto trace…"), this, &MainWindow::exportTrace);
    file->addAction(tr("Export &Chakra traces…"), this, &MainWindow::exportChakra);
    file->addAction(tr("Export breakdown as CS&V…"), this, &MainWindow::exportBreakdownCsv);
    file->addAction(tr("Export view &image…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the current view"), QString(),
                                                          tr("PNG image (*.png);;SVG drawing (*.svg)"));
        if (!path.isEmpty() && !exportCurrentView(path))
            showError(tr("Cannot write %1").arg(path), tr("The image could not be saved."));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit timeline"), QKeySequence(Qt::Key_F), m_timeline, &views::TimelineView::fit);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

core::model::ParallelConfig MainWindow::defaultStrategy()
{
    core::model::ParallelConfig p;
    p.tp = 8;
    p.pp = 8;
    p.dp = 16;
    p.globalBatch = 1536;
    return p;
}

void MainWindow::openDefaultModel()
{
    openModel(*core::model::findModel("gpt3-175b"), defaultStrategy());
}

void MainWindow::openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel)
{
    m_session->openModel(model, parallel);
}

void MainWindow::openPath(const QString& path)
{
    // A model file opens as a model, with the strategy the Parallelism panel shows.
    if (core::isModelFile(path.toStdString())) {
        try {
            const core::model::TransformerConfig model = core::model::readModelFile(path.toStdString());
            m_parallelism->addModel(model);
            m_previous.reset();
            openModel(model, m_parallelism->parallel());
        } catch (const std::exception& e) {
            showError(tr("Cannot read the model %1").arg(QFileInfo(path).fileName()), QString::fromStdString(e.what()));
        }
        return;
    }
    m_previous.reset();
    m_session->open(path);
}

int MainWindow::ranksPerNode(const core::Cluster& cluster)
{
    const auto& dims = cluster.topology.dims;
    return dims.empty() ? 8 : std::max(1, dims.front().npus);
}

void MainWindow::showWorkload(std::shared_ptr<const core::LoadedWorkload> workload, const QString& path)
{
    setWindowTitle(tr("%1 — Flint Explorer").arg(QFileInfo(path).fileName()));
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();

    {
        const QSignalBlocker blocker(m_rank);
        m_rank->setRange(0, static_cast<int>(workload->workload.rankCount()) - 1);
        m_rank->setValue(0);
    }
    m_graph->setWorkload(std::shared_ptr<const core::Workload>(workload, &workload->workload), 0);
    const bool module = workload->kind == core::InputKind::HloModule || workload->kind == core::InputKind::MlirModule;
    m_parallelism->setFigures(QString());
    m_parallelism->setActive(
        workload->kind == core::InputKind::BuiltinModel,
        (module ? tr("<b>Parallelism is fixed by the open module</b> (%1 ranks, as partitioned). To explore "
                     "strategies, choose a built-in model above or read a model with File…; it replaces the open "
                     "file.")
                : tr("<b>Parallelism is fixed by the open trace</b> (%1 ranks, as recorded). To explore strategies, "
                     "choose a built-in model above or read a model with File…; it replaces the open file."))
            .arg(workload->workload.rankCount()));
    m_whatIf->setFixedParameters(
        workload->kind == core::InputKind::BuiltinModel
            ? tr("A built-in model: its parallelism, schedule, batch, recomputation and dtype are set in the "
                 "Parallelism panel and recompiled on every change. Network, device and collective model are set "
                 "here.")
        : module && workload->partitioning == core::hlo::Partitioning::ByFlint
            ? tr("Fixed by this module: its global program and shardings, partitioned here for %1 devices "
                 "(%2 x %3; another mesh with flint --mesh). Network, device and collective model are free to "
                 "change.")
                  .arg(workload->workload.rankCount())
                  .arg(workload->replicaCount == 1 ? tr("1 replica") : tr("%1 replicas").arg(workload->replicaCount))
                  .arg(workload->numPartitions == 1 ? tr("1 partition")
                                                    : tr("%1 partitions").arg(workload->numPartitions))
        : module
            ? tr("Fixed by this module: %1 devices (%2 x %3) and its parallelism, which XLA "
                 "already partitioned. Network, device and collective model are free to change.")
                  .arg(workload->workload.rankCount())
                  .arg(workload->replicaCount == 1 ? tr("1 replica") : tr("%1 replicas").arg(workload->replicaCount))
                  .arg(workload->numPartitions == 1 ? tr("1 partition")
                                                    : tr("%1 partitions").arg(workload->numPartitions))
            : tr("Fixed by this trace: %1 ranks and their communicator groups, as recorded. Network, device and "
                 "collective model are free to change.")
                  .arg(workload->workload.rankCount()));
    const core::Program& program = workload->workload.programOf(0);
    m_details->setHtml(
        tr("<b>%1</b><br>%2 ranks, %3 ops on rank 0, %4 communicator groups<br>%5")
            .arg(QString::fromStdString(workload->name).toHtmlEscaped())
            .arg(workload->workload.rankCount())
            .arg(program.ops.size())
            .arg(workload->workload.groups.size())
            .arg(QString::fromStdString([&] {
                     std::string all;
                     for (const auto& note : workload->notes)
                         all += note + "<br>";
                     return all;
                 }()) +
                 (workload->warnings.empty() ? QString() : tr("Warnings:<br>") + QString::fromStdString([&] {
                                                               std::string all;
                                                               for (const auto& w : workload->warnings)
                                                                   all += "• " + w + "<br>";
                                                               return all;
                                                           }()))));
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
    m_charts->setData(ranks, result);
    m_ops->setData(ranks, result, m_rank->value());
    const Means now = meansOf(*result);
    m_summary->setText(
        tr("<b>Step time %1</b> on %2 (%3)<br>per rank: compute %4, exposed communication %5, idle %6")
            .arg(duration(result->stepTime), cluster.edited ? tr("%1, edited").arg(qs(cluster.name)) : qs(cluster.name),
                 qs(cluster.device.name), duration(now.compute), duration(now.exposed), duration(now.idle)));
    if (m_previous) {
        const Means before = meansOf(*m_previous);
        const auto delta = [](double after, double old) {
            const double change = old > 0 ? 100.0 * (after - old) / old : 0.0;
            return QStringLiteral("%1 (%2%3%)")
                .arg(duration(after - old), change >= 0 ? QStringLiteral("+") : QString())
                .arg(change, 0, 'f', 1);
        };
        m_whatIf->setComparison(tr("<b>Last change</b>: step %1 → %2, %3<br>compute %4, exposed comm %5, idle %6")
                                    .arg(duration(m_previous->stepTime), duration(result->stepTime),
                                         delta(result->stepTime, m_previous->stepTime),
                                         delta(now.compute, before.compute), delta(now.exposed, before.exposed),
                                         delta(now.idle, before.idle)));
    } else {
        m_whatIf->setComparison(QString());
    }
    m_previous = result;
    if (evaluation->figures && evaluation->compiled) {
        const core::model::StepFigures& f = *evaluation->figures;
        const auto& compiled = evaluation->compiled;
        const double gib = 1073741824.0;
        const auto& mem = compiled->memory;
        m_parallelism->setFigures(
            tr("<b>Step %1</b>, %2 tokens/s (%3 per GPU)<br>MFU %4% (PaLM, of the BF16 peak)<br>"
               "pipeline bubble %5%, exposed communication %6%<br>memory per GPU %7 of %8 GiB%9<br>"
               "<small>weights %10, gradients %11, optimizer %12, activations %13, buffers %14 GiB</small>")
                .arg(duration(f.stepTime))
                .arg(QLocale().toString(f.tokensPerSecond, 'f', 0))
                .arg(QLocale().toString(f.tokensPerSecond / static_cast<double>(result->ranks.size()), 'f', 0))
                .arg(100 * f.mfu, 0, 'f', 1)
                .arg(100 * f.bubbleFraction, 0, 'f', 1)
                .arg(100 * f.exposedCommFraction, 0, 'f', 1)
                .arg(f.memoryBytes / gib, 0, 'f', 1)
                .arg(f.memoryCapacity / gib, 0, 'f', 0)
                .arg(f.outOfMemory ? tr(" — <span style='color:#c0392b'><b>OUT OF MEMORY</b></span>") : QString())
                .arg(mem.weights / gib, 0, 'f', 1)
                .arg(mem.gradients / gib, 0, 'f', 1)
                .arg(mem.optimizer / gib, 0, 'f', 1)
                .arg(mem.activations / gib, 0, 'f', 1)
                .arg(mem.commBuffers / gib, 0, 'f', 1));
    }
    statusBar()->showMessage(
        tr("Estimated %1 ranks: step time %2").arg(result->ranks.size()).arg(duration(result->stepTime)), 5000);
}

QString MainWindow::detailsHtml() const
{
    return m_details->toHtml();
}

void MainWindow::selectFromCell(int srcFirst, int srcCount, int dstFirst, int dstCount)
{
    const auto evaluation = m_session->evaluation();
    if (!evaluation)
        return;
    const auto& workload = evaluation->workload; // the matrix shows this estimate
    const core::OpOnRank found = core::heaviestOpBetween(workload->workload, evaluation->scenario.cluster, srcFirst,
                                                         srcCount, dstFirst, dstCount);
    if (found.rank < 0) {
        statusBar()->showMessage(tr("No op sends from these ranks to those"), 5000);
        return;
    }
    showOp(found.rank, static_cast<int>(found.op), true);
    m_timeline->revealOp(static_cast<int>(found.op), found.rank);
    statusBar()->showMessage(
        tr("%1 moves %2 from rank %3 to ranks %4-%5 over the step")
            .arg(qs(workload->workload.programOf(static_cast<std::size_t>(found.rank)).ops[found.op].name))
            .arg(qs(views::formatBytes(found.bytes)))
            .arg(found.rank)
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
    const core::Op& op = w.programOf(static_cast<std::size_t>(rank)).ops[static_cast<std::size_t>(opIndex)];
    if (inGraph) {
        if (rank != m_rank->value())
            m_rank->setValue(rank);
        m_graph->selectOp(static_cast<quint32>(opIndex));
    }
    // Times, flows and the explanation are those of the estimate on screen, on the cluster it ran
    // on; while a new workload waits for its first estimate there are none.
    const auto evaluation = m_session->evaluation();
    const bool estimated = evaluation && evaluation->workload == workload;
    const core::Cluster& cluster = estimated ? evaluation->scenario.cluster : m_session->cluster();
    std::vector<std::pair<std::int32_t, std::int32_t>> flows;
    core::forEachOpFlow(w, cluster, static_cast<std::size_t>(rank), static_cast<std::uint32_t>(opIndex),
                        [&flows](std::int32_t src, std::int32_t dst, double) { flows.emplace_back(src, dst); });
    m_matrix->highlightFlows(flows);
    m_timeline->highlightOp(opIndex, rank);
    if (rank == m_ops->model()->rank())
        m_ops->selectOp(static_cast<std::uint32_t>(opIndex));
    QString html = tr("<b>%1</b> (%2) on rank %3<br>").arg(qs(op.name).toHtmlEscaped(), views::kindLabel(op)).arg(rank);
    if (!op.scope.empty())
        html += tr("scope <i>%1</i><br>").arg(qs(op.scope).toHtmlEscaped());
    if (op.dtype != core::DType::Unknown) {
        QStringList dims;
        for (auto d : op.shape)
            dims << QString::number(d);
        const auto type = core::displayName(op.dtype);
        html +=
            tr("result %1[%2]<br>")
                .arg(QString::fromUtf8(type.data(), static_cast<qsizetype>(type.size())), dims.join(QLatin1Char(',')));
    }
    html += tr("%1 FLOP, %2 read, %3 written<br>")
                .arg(QString::number(static_cast<double>(op.flops), 'g', 4),
                     qs(views::formatBytes(static_cast<double>(op.bytesRead))),
                     qs(views::formatBytes(static_cast<double>(op.bytesWritten))));
    if (op.kind == core::OpKind::Collective) {
        QStringList members;
        for (std::int32_t m : w.membersOf(static_cast<std::size_t>(rank), op))
            members << QString::number(m);
        html += tr("%1 per rank, group of %2: %3<br>")
                    .arg(qs(views::formatBytes(static_cast<double>(op.commBytes))))
                    .arg(members.size())
                    .arg(members.size() > 32 ? members.mid(0, 32).join(QLatin1Char(',')) + QStringLiteral("…")
                                             : members.join(QLatin1Char(',')));
    }
    if (estimated) {
        for (const core::OpEvent& ev : evaluation->result->eventsOf(static_cast<std::size_t>(rank)))
            if (static_cast<int>(ev.op) == opIndex)
                html += tr("runs %1 → %2 (%3)%4<br>")
                            .arg(duration(ev.start), duration(ev.end), duration(ev.end - ev.start),
                                 ev.start > ev.ready
                                     ? tr(", after waiting %1 for its peers").arg(duration(ev.start - ev.ready))
                                     : QString());
    }
    try {
        const core::OpExplanation why =
            core::explainOp(w, cluster, static_cast<std::size_t>(rank), static_cast<std::uint32_t>(opIndex));
        html += tr("<br><b>Estimated time %1</b>, how:").arg(duration(why.seconds));
        html += QStringLiteral("<pre style='white-space:pre-wrap'>");
        for (const std::string& line : why.lines)
            html += qs(line).toHtmlEscaped() + QLatin1Char('\n');
        html += QStringLiteral("</pre>");
    } catch (const std::exception& e) {
        html += tr("<br>No estimate for this op: %1").arg(qs(e.what()).toHtmlEscaped());
    }
    if (!flows.empty())
        html += tr("Its transfers are outlined in the Communication tab (%n cell(s)).", nullptr,
                   static_cast<int>(m_matrix->highlightedCells().size()));
    m_details->setHtml(html);
}

void MainWindow::showError(const QString& summary, const QString& details)
{
    statusBar()->showMessage(summary, 8000);
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

bool MainWindow::exportCurrentView(const QString& path)
{
    QWidget* page = m_tabs->currentWidget();
    if (page && page->isAncestorOf(m_graph))
        return m_graph->exportImage(path); // the whole graph, not just what is scrolled into view
    if (!page)
        return false;
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(page->size());
        svg.setViewBox(page->rect());
        svg.setTitle(m_tabs->tabText(m_tabs->currentIndex()));
        QPainter painter(&svg);
        page->render(&painter);
        return painter.end();
    }
    return page->grab().save(path);
}

void MainWindow::exportTrace()
{
    auto workload = m_session->workload();
    auto result = m_session->result();
    if (!workload || !result)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export a Perfetto trace"), QString(),
                                                      tr("Chrome/Perfetto trace (*.json)"));
    if (path.isEmpty())
        return;
    try {
        core::OutputTransaction output;
        output.write(path.toStdString(), core::chromeTraceJson(*result, workload->workload, 256));
        output.commit();
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    } catch (const std::exception& e) {
        showError(tr("Cannot write %1").arg(path), QString::fromStdString(e.what()));
    }
}

void MainWindow::exportChakra()
{
    auto workload = m_session->workload();
    if (!workload)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chakra traces: choose a folder and a file prefix"), QStringLiteral("workload"),
        tr("Chakra trace prefix (PREFIX.RANK.et and PREFIX.json)"));
    if (path.isEmpty())
        return;
    m_session->exportChakra(path);
}

void MainWindow::exportBreakdownCsv()
{
    auto result = m_session->result();
    if (!result)
        return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the per-rank breakdown"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    try {
        core::OutputTransaction output;
        output.write(path.toStdString(), core::breakdownCsv(*result));
        output.commit();
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    } catch (const std::exception& e) {
        showError(tr("Cannot write %1").arg(path), qs(e.what()));
    }
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
