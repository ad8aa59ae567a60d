// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/model/modelconfig.h"
#include "engine/scenario.h"
#include "engine/workloadloader.h"

#include <functional>
#include <memory>

#include <QMainWindow>
#include <QMessageBox>

QT_BEGIN_NAMESPACE
class QLabel;
class QMenu;
class QProgressBar;
class QSpinBox;
class QTabWidget;
class QTextBrowser;
QT_END_NAMESPACE

namespace flint::views {
class ChartsPage;
class CollectiveAnimationDialog;
class OpsPage;
class ParallelismPanel;
class CommMatrixPage;
class PipelineScheduleDialog;
class NetworkUtilisationDialog;
class CommMatrixView;
class DagView;
class TimelinePage;
class TimelineView;
class WhatIfPanel;
} // namespace flint::views

namespace flint::app {

class DetailsPanel;
class ExportActions;
class History;
class HistoryPanel;
class Session;
class SweepPage;
class ValidationPage;

/// The explorer's window: wires the session to the views. Views show the latest results; the
/// what-if panel edits the cluster; selection is shared between views through the details panel.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Session& session() { return *m_session; }
    /// Opens a workload (menu, command line, drag and drop, recent files, examples). False when the
    /// file was refused at once (a model file that does not parse); a workload read on a worker
    /// reports failure through Session::failed instead.
    bool openPath(const QString& path);
    /// Batch use (--screenshot): errors go to stderr instead of a message box.
    void setBatchMode(bool batch) { m_batch = batch; }
    /// Opens the built-in default: GPT-3 175B on 1,024 H100s, TP 8 x PP 8 x DP 16, global batch
    /// 1,536 (Narayanan et al. 2021 trained it with this layout).
    void openDefaultModel();
    /// Opens a built-in model with a strategy (the Parallelism panel shows it).
    void openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel);
    /// Folders searched for bundled examples: PREFIX/share/flint-explorer/examples beside the
    /// program (in the build tree, a link to the source's resources/examples).
    static QStringList exampleFolders();

    views::DagView* graph() const { return m_graph; }
    views::TimelineView* timeline() const { return m_timeline; }
    views::TimelinePage* timelinePage() const { return m_timelinePage; }
    views::CommMatrixView* matrix() const { return m_matrix; }
    views::CommMatrixPage* matrixPage() const { return m_matrixPage; }
    /// The Details panel's text (HTML).
    QString detailsHtml() const;
    views::ChartsPage* charts() const { return m_charts; }
    views::OpsPage* ops() const { return m_ops; }
    views::WhatIfPanel* whatIf() const { return m_whatIf; }
    views::ParallelismPanel* parallelism() const { return m_parallelism; }
    SweepPage* sweep() const { return m_sweep; }
    ValidationPage* validation() const { return m_validation; }
    /// Holds every estimate against the measured run at `path` (Session::compareWithMeasured) and
    /// shows the Validation tab.
    void compareWithMeasured(const QString& path);
    /// Asks for a measured run (a profile, or a Chakra trace with recorded times) and compares with it.
    void chooseMeasuredRun();
    History* history() const { return m_history; }
    HistoryPanel* historyPanel() const { return m_historyPanel; }
    QTabWidget* tabs() const { return m_tabs; }

protected:
    void closeEvent(QCloseEvent* event) override;
    /// Ctrl+Z and Ctrl+Shift+Z in a spin box of the window undo and redo the session's edits.
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void showWorkload(const std::shared_ptr<const core::LoadedWorkload>& workload, const QString& path);
    void showEstimate(const std::shared_ptr<const engine::Evaluation>& evaluation);
    /// The what-if panel's comparison: against the pinned baseline, else the last change.
    void showComparison();
    /// The pinned baseline when it is not what is shown and still holds its estimate, else null.
    std::shared_ptr<const engine::Evaluation> comparedBaseline() const;
    /// Gives the views that compare (the Ops table) the baseline, or none.
    void showBaselineInViews();
    /// The timeline under the timeline: the measured run compared with, else the pinned baseline.
    void showComparisonTimeline();
    void showError(const QString& summary, const QString& details);
    /// Shows the op a matrix cell selected (DetailsPanel::opFound).
    void showCellOp(int rank, int op, double bytes, int dstFirst, int dstCount);
    void openGallery();

public:
    /// Linked selection: shows op `opIndex` of `rank` in every view (its spans and its group's lanes
    /// in the timeline, its cells in the matrix, the graph of `rank` when `inGraph`) and explains it
    /// in Details.
    void showOp(int rank, int opIndex, bool inGraph = false);
    /// Selects the op that moves the most bytes between the ranges of a matrix cell.
    void selectFromCell(int srcFirst, int srcCount, int dstFirst, int dstCount);
    /// Fits the current tab's graph, timeline or matrix to the window (View > Fit, F).
    void fitCurrentView();
    /// Plays the selected collective step by step on the cluster's topology (View > Animate selected
    /// collective); says in the status bar why not when no collective is selected.
    void animateSelectedCollective();
    /// Plays the built-in model's pipeline schedule with its bubble (View > Pipeline schedule); says in
    /// the status bar why not for other workloads.
    void showPipelineSchedule();
    views::PipelineScheduleDialog* pipelineSchedule() const { return m_schedule; }
    /// Shows how busy each topology dimension's links are over the estimated step (View > Network
    /// utilisation); says in the status bar why not before an estimate.
    void showNetworkUtilisation();
    views::NetworkUtilisationDialog* networkUtilisation() const { return m_network; }
    /// Brings open teaching dialogs up to date with the current estimate, or closes them.
    void refreshTeachingViews();
    /// The step-by-step dialog, once opened (tests).
    views::CollectiveAnimationDialog* collectiveAnimation() const { return m_animation; }
    /// The Help menu's keyboard reference (HTML).
    static QString keyboardReference();
    /// Writes the current tab as PNG (or SVG, by the file's suffix). Returns false on failure.
    bool exportCurrentView(const QString& path);
    /// Calls `drawn` once the current tab shows what it will show of the current estimate: at once,
    /// except on the Graph tab while its layout runs on a worker, then once the layout is on screen
    /// or has failed (--screenshot waits so, not to capture "laying out…").
    void whenDrawn(std::function<void()> drawn);

private:
    /// The op last shown by showOp when it is a collective of the current workload, else nullptr.
    const core::Op* selectedCollective() const;
    /// Whether View > Pipeline schedule has a schedule to show: a built-in model trained with PP > 1.
    static bool hasPipelineSchedule(const engine::Evaluation& evaluation);
    static int ranksPerNode(const core::Cluster& cluster);
    /// The topology's dimensions as the charts name them, innermost first: "Switch of 8, 370.8 GB/s".
    static QStringList dimensionNames(const core::Cluster& cluster);

    Session* m_session = nullptr;
    QTabWidget* m_tabs = nullptr;
    views::DagView* m_graph = nullptr;
    QSpinBox* m_rank = nullptr;
    views::TimelinePage* m_timelinePage = nullptr;
    views::TimelineView* m_timeline = nullptr;
    views::CommMatrixPage* m_matrixPage = nullptr;
    views::CommMatrixView* m_matrix = nullptr;
    views::ChartsPage* m_charts = nullptr;
    views::OpsPage* m_ops = nullptr;
    views::WhatIfPanel* m_whatIf = nullptr;
    views::ParallelismPanel* m_parallelism = nullptr;
    SweepPage* m_sweep = nullptr;
    ValidationPage* m_validation = nullptr;
    DetailsPanel* m_detailsPanel = nullptr;
    ExportActions* m_exports = nullptr;
    QProgressBar* m_progress = nullptr;
    QMenu* m_recentMenu = nullptr;
    /// The one error box, non-modal: a later error replaces its text instead of stacking a dialog.
    QMessageBox* m_errorBox = nullptr;
    int m_errorsShown = 0;
    /// The op last shown by showOp (rank -1: none), and what animates it.
    int m_selectedRank = -1;
    int m_selectedOp = -1;
    QAction* m_animateAction = nullptr;
    views::CollectiveAnimationDialog* m_animation = nullptr;
    views::PipelineScheduleDialog* m_schedule = nullptr;
    views::NetworkUtilisationDialog* m_network = nullptr;
    History* m_history = nullptr;
    HistoryPanel* m_historyPanel = nullptr;
    /// The estimate shown before the current one, and the comparison of the two ("Last change").
    std::shared_ptr<const core::EstimateResult> m_previous;
    QString m_previousKey; ///< what m_previous estimated: "model", or the workload's path (see showEstimate)
    QString m_lastChange;
    bool m_batch = false; ///< setBatchMode
};

} // namespace flint::app
