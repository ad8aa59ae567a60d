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
    TimelineView* view() const { return m_view; }
    QComboBox* groupingChooser() const { return m_grouping; }

private:
    void applyGrouping();

    TimelineView* m_view = nullptr;
    QComboBox* m_grouping = nullptr;
    std::shared_ptr<const core::Workload> m_workload;
    std::vector<core::RankPartition> m_partitions;
};

} // namespace flint::views
