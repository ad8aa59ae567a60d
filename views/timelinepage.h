// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/rankpartition.h"
#include "core/workload.h"

#include <memory>
#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QSplitter;
QT_END_NAMESPACE

namespace flint::views {

class TimelineView;

/// The Timeline tab: the per-rank timelines and how their lanes are grouped (by node, by a mesh
/// axis's communicator groups, or by program: pipeline stages).
class TimelinePage : public QWidget {
    Q_OBJECT

public:
    explicit TimelinePage(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const core::Workload> workload, std::shared_ptr<const core::EstimateResult> result,
                 int ranksPerNode);
    /// A second timeline under the first, over the same time window (both start at the step start;
    /// zooming or panning either moves both): a measured run of the workload, or a pinned baseline.
    /// `title` says what it is. A null result removes it.
    void setComparison(std::shared_ptr<const core::Workload> workload,
                       std::shared_ptr<const core::EstimateResult> result, int ranksPerNode, const QString& title);
    TimelineView* view() const { return m_view; }
    /// The comparison's timeline (hidden when there is none).
    TimelineView* comparisonView() const { return m_comparison; }
    QString comparisonTitle() const;
    QComboBox* groupingChooser() const { return m_grouping; }

private:
    void applyGrouping();

    /// Lets both time axes reach the longer of the two steps.
    void alignExtents();

    TimelineView* m_view = nullptr;
    TimelineView* m_comparison = nullptr;
    QSplitter* m_split = nullptr;
    QWidget* m_comparisonBox = nullptr;
    QLabel* m_comparisonTitle = nullptr;
    std::shared_ptr<const core::EstimateResult> m_result;
    std::shared_ptr<const core::EstimateResult> m_comparisonResult;
    QComboBox* m_grouping = nullptr;
    QLabel* m_legend = nullptr; ///< the colours of the passes, when the workload has them
    std::shared_ptr<const core::Workload> m_workload;
    std::vector<core::RankPartition> m_partitions;
    /// The baseline's workload and its partitions: its lanes follow the chosen grouping where the
    /// baseline has a like partition (comparisonPartition).
    std::shared_ptr<const core::Workload> m_comparisonWorkload;
    std::vector<core::RankPartition> m_comparisonPartitions;
    /// The baseline's partition like `chosen` (the same basis and mesh axes, or collective kinds),
    /// or null: then its lanes are grouped by node.
    const core::RankPartition* comparisonPartition(const core::RankPartition* chosen) const;
};

} // namespace flint::views
