// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/workload.h"
#include "views/timelinegeometry.h"

#include <memory>

#include <QWidget>

namespace flint::views {

/// Per-rank timelines of an estimate: a lane per rank with a compute track and a communication
/// track, a time ruler, zoom around the cursor (wheel), pan (drag), fit (double-click or F), hover
/// tooltips, a range selection (shift-drag) that reports busy, communication and idle time, and
/// highlighting of one op's spans with arrows joining the members of a highlighted collective.
/// Ranks are grouped by node (`ranksPerNode`); clicking a node's label collapses it into a summary
/// lane whose shade shows the share of its ranks computing (top) and communicating (bottom). Large
/// workloads open with every node collapsed.
class TimelineView : public QWidget {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows `result` for `workload`; both are kept alive by the view. Null clears it.
    void setData(std::shared_ptr<const core::Workload> workload, std::shared_ptr<const core::EstimateResult> result,
                 int ranksPerNode);
    const TimelineGeometry& geometryOfTime() const { return m_time; }
    int laneCount() const;
    /// Rows on screen from the top: rank lanes and collapsed-node summary lanes.
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    bool isNodeCollapsed(int node) const;
    void setNodeCollapsed(int node, bool collapsed);

public Q_SLOTS:
    void fit();
    /// Outlines the spans of op `opIndex` (index into each rank's program) on every lane and, for a
    /// collective, joins its members' spans with arrows as seen from `rank`; -1 clears.
    void highlightOp(int opIndex, int rank = 0);

Q_SIGNALS:
    /// The user clicked a span.
    void opClicked(int rank, int opIndex);
    /// A range was selected: its description (busy, communication, idle, ops), for the status bar.
    void rangeSummary(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Lanes;
    /// One row of the view: a rank's lane, or a collapsed node's summary lane.
    struct Row {
        int firstRank = 0;
        int ranks = 1;
        bool summary = false;
    };
    void rebuildRows();
    int rowAtY(int y) const;
    int rowOfRank(int rank) const;
    void paintSummary(QPainter& painter, const Row& row, int top) const;
    void paintFlow(QPainter& painter) const;
    /// The event at widget position `pos`: (rank, index into its timeline) or (-1, -1).
    std::pair<int, int> eventAt(const QPoint& pos) const;
    int rankAtY(int y) const;
    int rowTop(int row) const;
    void summarizeRange(double from, double to);

    std::shared_ptr<const core::Workload> m_workload;
    std::shared_ptr<const core::EstimateResult> m_result;
    std::unique_ptr<Lanes> m_lanes;
    TimelineGeometry m_time;
    int m_ranksPerNode = 8;
    int m_firstRow = 0; ///< vertical scroll, in rows
    std::vector<Row> m_rows;
    std::vector<bool> m_collapsed; ///< per node
    int m_highlightOp = -1;
    int m_highlightRank = 0;
    QPoint m_dragStart;
    double m_dragViewStart = 0;
    bool m_dragging = false;
    bool m_selecting = false;
    double m_selectionFrom = 0;
    double m_selectionTo = 0;
};

} // namespace flint::views
