// SPDX-License-Identifier: MIT
#pragma once

#include "core/workload.h"
#include "views/dagcollapsestate.h"
#include "views/daglayout.h"
#include "views/daglayoutcache.h"
#include "views/dagscopetree.h"
#include "views/dagviewport.h"

#include <memory>
#include <vector>

#include <QFontMetricsF>
#include <QPointer>
#include <QWidget>

class QLineEdit;
class QLabel;

namespace flint::views {

class JobRunner;

/// The DAG of one rank's program, laid out by Graphviz on a worker thread and drawn with level of
/// detail. Large programs open collapsed by scope with repeated blocks folded; double-click a group to
/// expand it, a "×N" block to unfold it, and a frame to collapse it. Wheel zooms around the cursor,
/// drag pans, F fits; the search field (Enter for the next match) finds ops by name or kind and opens
/// the groups that hide them.
///
/// Layouts are cached per (program, collapse state); a layout that finishes after a newer request is
/// dropped. GUI thread only.
class DagView : public QWidget {
    Q_OBJECT
public:
    explicit DagView(QWidget* parent = nullptr);
    ~DagView() override;

    /// Shows the program `rank` runs (null clears the view).
    void setWorkload(std::shared_ptr<const core::Workload> workload, int rank);
    /// Shows `program`; `rank` is only reported back in opSelected().
    void setProgram(std::shared_ptr<const core::Program> program, int rank = 0);
    /// Runs layouts as Layout jobs on `runner` (the explorer's one job tracker); without one the view
    /// makes a runner of its own. A newer layout request supersedes an older one.
    void setJobRunner(JobRunner* runner);

    int rank() const { return m_rank; }
    /// The layout on screen, or null before the first one is ready.
    std::shared_ptr<const DagLayout> currentLayout() const { return m_layout; }
    const DagCollapseState& collapseState() const { return m_state; }
    /// True while a layout runs on the worker.
    bool isLayingOut() const { return m_busy; }
    const DagViewport& viewport() const { return m_viewport; }
    /// Ops matching the search text, in program order.
    const std::vector<std::uint32_t>& matches() const { return m_matches; }
    /// The op selected in the view, or DagNode::noOp.
    std::uint32_t selectedOp() const { return m_selectedOp; }
    /// The last message for the user (a refused expansion, no match), or empty.
    QString message() const { return m_message; }

    /// What the view shows now as an SVG drawing (`svg`), else a PNG at twice the widget's
    /// resolution. Empty when it cannot be rendered.
    QByteArray renderImage(bool svg) const;
    /// renderImage() written to `path` (SVG when it ends in ".svg"), whole or not at all
    /// (core::OutputTransaction). Returns false when it cannot be written.
    bool exportImage(const QString& path) const;

public Q_SLOTS:
    /// Selects and centres op `opIndex` (an index into Program::ops), opening the groups that hide it;
    /// for linked selection, so it does not emit opSelected().
    void selectOp(quint32 opIndex);
    void setSearchText(const QString& text);
    /// Moves to the next match of the search text (wrapping). Returns false when nothing matches.
    bool findNext();
    /// Expands a collapsed group, collapses an expanded one (index into DagScopeTree::groups()).
    /// Refuses, with message(), an expansion that would show more than DagLayoutEngine::maxNodes nodes.
    bool toggleGroup(int group);
    void zoomIn();
    void zoomOut();
    void fitToView();

Q_SIGNALS:
    /// The user clicked op `opIndex` of the program of `rank`.
    void opSelected(int rank, quint32 opIndex);
    /// A new layout is on screen.
    void layoutReady();
    /// message() changed.
    void messageChanged(const QString& message);

protected:
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct JobResult;
    void layoutDone(const JobResult& result);
    void requestLayout(DagCollapseState state, std::uint32_t focusOp = DagNode::noOp);
    void applyLayout(std::shared_ptr<const DagScopeTree> tree, std::shared_ptr<const DagLayout> layout);
    bool applyState(DagCollapseState state, std::uint32_t focusOp);
    void revealAndFocus(std::uint32_t opIndex);
    void focusOp(std::uint32_t opIndex);
    void updateMatchFlags();
    void setMessage(const QString& message);
    int nodeAt(QPointF screenPos) const;
    int clusterAt(QPointF screenPos) const;
    void paintContents(QPainter& painter, const QRectF& target) const;
    void paintNode(QPainter& painter, const DagNode& node, std::size_t index, bool simple) const;
    void paintLegend(QPainter& painter, const QRectF& target) const;
    /// Where each edge's count label is drawn (top-left of its text, in `metrics`), worked out once
    /// per layout; `titles` measures the clusters' titles.
    const std::vector<QPointF>& countLabels(const QFontMetricsF& metrics, const QFontMetricsF& titles) const;
    /// Whether an edge shown stands for more than one dependency (its count is drawn beside it, and
    /// the legend explains the numbers).
    bool hasEdgeCounts() const;
    /// Where the legend sits in `target`; its widest text in `textWidth` when given.
    QRectF legendBox(const QFontMetricsF& metrics, const QRectF& target, double* textWidth = nullptr) const;
    /// The part of the view no overlay covers, which a fit fills.
    QRectF fitArea() const;

    std::shared_ptr<const core::Workload> m_workload;
    std::shared_ptr<const core::Program> m_program;
    std::shared_ptr<const DagScopeTree> m_tree;
    std::shared_ptr<const DagLayout> m_layout;
    /// countLabels() for the layout it was computed for.
    mutable const DagLayout* m_countLabelsOf = nullptr;
    mutable std::vector<QPointF> m_countLabels;
    DagCollapseState m_state;
    DagLayoutCache m_cache;
    DagViewport m_viewport;
    int m_rank = 0;
    quint64 m_generation = 0;
    bool m_busy = false;
    /// The program changed while the view was hidden: lay out when shown (showEvent).
    bool m_layoutDeferred = false;
    QPointer<JobRunner> m_jobs;
    bool m_fitPending = false;
    std::uint32_t m_focusPending = DagNode::noOp;

    std::uint32_t m_selectedOp = DagNode::noOp;
    int m_selectedNode = -1;
    QString m_searchText;
    std::vector<std::uint32_t> m_matches;
    std::size_t m_matchCursor = 0;
    std::vector<bool> m_nodeMatches;
    QString m_message;

    QPointF m_pressPos;
    QPointF m_lastDragPos;
    bool m_dragging = false;
    QLineEdit* m_search = nullptr;
};

} // namespace flint::views
