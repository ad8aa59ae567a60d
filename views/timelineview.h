// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/rankpartition.h"
#include "core/workload.h"
#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <memory>

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QString>
#include <QWidget>

namespace flint::views {

/// Per-rank timelines of an estimate: a lane per rank with a compute track and a communication
/// track, a time ruler, zoom around the cursor (wheel), pan (drag), fit (double-click or F), hover
/// tooltips, a range selection (shift-drag) that reports busy, communication and idle time, and
/// highlighting of one op's spans with arrows joining the members of a highlighted collective,
/// labels on spans wide enough for them (microbatch runs, op names) and arrows from each send to its
/// receive between lanes on screen.
/// Ranks are grouped by node (`ranksPerNode`), or by a rank partition (a mesh axis's communicator
/// groups, the ranks of one program: a pipeline stage); clicking a group's label collapses it into a
/// summary lane whose shade shows the share of its ranks computing (top) and communicating (bottom).
/// Large workloads open with every group collapsed. Lanes are painted as one pixel row per track
/// (spans merged per pixel column) and ranks that share a timeline are drawn once per frame.
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
    /// Rows on screen from the top: rank lanes and collapsed-group summary lanes.
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    /// Lets the time axis reach at least `seconds` (0: the step), so that a timeline shown above or
    /// below this one, with another step time, can be shown over the same window.
    void setTimeExtent(double seconds);
    /// Groups lanes by `partition`'s parts (copied); null groups them by node. Keeps the time window.
    void setGrouping(const core::RankPartition* partition);
    int groupCount() const { return static_cast<int>(m_groups.size()); }
    /// The label of group `index` ("stage 2", "TP group 5", "node 0").
    QString groupName(int index) const
    {
        return index >= 0 && index < groupCount() ? m_groups[static_cast<std::size_t>(index)].label : QString();
    }
    /// The ranks of group `group`, in lane order.
    const std::vector<std::int32_t>& groupRanks(int group) const
    {
        return m_groups.at(static_cast<std::size_t>(group)).ranks;
    }
    bool isGroupCollapsed(int group) const;
    void setGroupCollapsed(int group, bool collapsed);
    /// The rank shown on row `row`, or -1 for a summary row.
    int rankOfRow(int row) const;
    /// Whether any compute op has a step phase (forward, backward, optimizer): its spans are then
    /// coloured by phase (phaseColor) instead of all alike.
    bool showsPhases() const;
    /// The colour the span of op `opIndex` of `rank`'s program is painted with.
    QColor spanColor(int rank, int opIndex) const;
    QRgb spanRgba(int rank, int opIndex) const;
    /// Ranks whose labels are marked as members of the highlighted op's group.
    const std::vector<bool>& markedRanks() const { return m_marked; }

    /// A text written over a lane's spans: an op wide enough on screen for its name, else a
    /// microbatch's run of forward or backward compute ("forward 3", or "3" where that is all that
    /// fits), as in the pipeline-schedule figures of Megatron-LM's papers. x in widget coordinates.
    struct SpanLabel {
        double x0 = 0;
        double x1 = 0;
        int track = 0; ///< 0 compute, 1 communication
        QString text;
        QColor background; ///< the span's colour, for a readable text colour
    };
    /// The labels `rank`'s lane shows in the current time window (what is painted).
    std::vector<SpanLabel> labelsOf(int rank) const;
    /// A point-to-point transfer between two lanes on screen: from the send's start on the sender's
    /// communication track to the receive's end on the receiver's (a pipeline's activations and
    /// gradients between stages).
    struct TransferArrow {
        int from = -1;
        int to = -1;
        QPointF tail;
        QPointF head;
    };
    /// The transfers painted as arrows: those between lanes on screen in the time window, none when
    /// more than kMaxTransferArrows would be (a tangle teaches nothing; zoom in to see them).
    std::vector<TransferArrow> transferArrows() const;
    static constexpr std::size_t kMaxTransferArrows = 400;

public Q_SLOTS:
    void fit();
    /// Shows the time window [from, to] (seconds from the step start), clamped to the step.
    void showTimeRange(double from, double to);
    /// Outlines the spans of op `opIndex` (index into each rank's program) on every lane and, for a
    /// collective, joins its members' spans with arrows as seen from `rank`; -1 clears.
    void highlightOp(int opIndex, int rank = 0);
    /// Highlights the op as highlightOp() does, expands the group of `rank`, scrolls its lane into
    /// view and zooms the time window to the op's span on that rank.
    void revealOp(int opIndex, int rank);
    /// Shows exactly the window [from, to] (clamped to the time axis); nothing when it is shown.
    void setTimeWindow(double from, double to);

Q_SIGNALS:
    /// The visible time window changed (zoom, pan, fit, a new estimate): to keep another timeline in step.
    void timeWindowChanged(double from, double to);
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
    struct FrameCache;
    /// A group of lanes: a node, or a part of a rank partition.
    struct Group {
        QString label;
        std::vector<std::int32_t> ranks;
    };
    /// One row of the view: a rank's lane, or a collapsed group's summary lane.
    struct Row {
        int group = 0;
        int rank = -1;      ///< -1 for the group's summary row
        bool first = false; ///< the first row of its group
        bool summary = false;
    };
    void rebuildGroups(const core::RankPartition* partition);
    void rebuildRows();
    int rowAtY(int y) const;
    int rowOfRank(int rank) const;
    void paintLane(QPainter& painter, FrameCache& cache, int rank, int top) const;
    void paintSummary(QPainter& painter, FrameCache& cache, const Group& group, int top) const;
    void paintFlow(QPainter& painter) const;
    void paintTransfers(QPainter& painter) const;
    void paintLabels(QPainter& painter, const std::vector<SpanLabel>& labels, int top) const;
    /// The per-op step phases and microbatches of `program`, worked out on first use.
    const std::vector<StepPhase>& phasesOf(std::size_t program) const;
    const std::vector<std::int32_t>& microbatchesOf(std::size_t program) const;
    QFont labelFont() const;
    /// The event at widget position `pos`: (rank, index into its timeline) or (-1, -1).
    std::pair<int, int> eventAt(const QPoint& pos) const;
    int rankAtY(int y) const;
    int rowTop(int row) const;
    void summarizeRange(double from, double to);
    /// Reports a change of the time window made here (not one that follows another view).
    void windowMoved();

    std::shared_ptr<const core::Workload> m_workload;
    std::shared_ptr<const core::EstimateResult> m_result;
    std::unique_ptr<Lanes> m_lanes;
    /// Per program, the step phase of each op (phaseOf), worked out when first painted (empty before).
    mutable std::vector<std::vector<StepPhase>> m_phases;
    /// Per program, the microbatch of each op (microbatchOf), worked out like m_phases.
    mutable std::vector<std::vector<std::int32_t>> m_microbatches;
    /// Per program: whether any op has a microbatch (1), none has (0), or not yet known (-1).
    mutable std::vector<signed char> m_anyMicrobatch;
    /// Per program, the colour of each op's spans (spanRgba), worked out like m_phases.
    mutable std::vector<std::vector<QRgb>> m_colors;
    const core::Workload* m_phasesOf = nullptr;
    TimelineGeometry m_time;
    int m_ranksPerNode = 8;
    int m_firstRow = 0; ///< vertical scroll, in rows
    std::vector<Group> m_groups;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfRank;               ///< row of each rank's lane, or of its group's summary row
    std::vector<bool> m_collapsed;              ///< per group
    std::vector<bool> m_marked;                 ///< per rank: a member of the highlighted collective's group
    double m_extent = 0;                        ///< setTimeExtent
    std::pair<double, double> m_reportedWindow; ///< the window timeWindowChanged last reported
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
