// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/rankpartition.h"
#include "core/workload.h"

#include <memory>
#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
QT_END_NAMESPACE

namespace flint::views {

class CommMatrixView;

/// The Communication tab: the matrix and its controls: link or logical traffic, aggregate by node,
/// filter by collective kind, bytes or link time, rank order (by rank, or grouped by a mesh axis or
/// by program), and the difference from a pinned baseline.
class CommMatrixPage : public QWidget {
    Q_OBJECT

public:
    explicit CommMatrixPage(QWidget* parent = nullptr);

    /// Shows `result` of `workload`; the workload's rank partitions are found again only when the
    /// workload changes.
    void setData(std::shared_ptr<const core::Workload> workload, std::shared_ptr<const core::EstimateResult> result,
                 int ranksPerNode);
    /// The estimate to compare with (a pinned baseline, with its workload); nulls: none. The
    /// "Difference from baseline" box then shows each cell's change where the ranks match.
    void setBaseline(std::shared_ptr<const core::Workload> workload,
                     std::shared_ptr<const core::EstimateResult> result);
    CommMatrixView* view() const { return m_view; }
    QCheckBox* differenceBox() const { return m_difference; }
    QComboBox* kindChooser() const { return m_kind; }
    QComboBox* orderChooser() const { return m_order; }
    QComboBox* trafficChooser() const { return m_traffic; }
    QComboBox* metricChooser() const { return m_metric; }

private:
    void applyOrder();
    void updateControls();
    /// Double-click: zooms onto the group of the cell's source rank (its part in grouped order, else
    /// its node).
    void zoomToGroupOf(int source, int destination);
    /// Finds the workload's logical traffic for the view if it has not yet.
    void ensureLogical();
    /// The kind chooser lists the kinds of the matrix shown, keeping the choice where it still has traffic.
    void refreshKinds();

    CommMatrixView* m_view = nullptr;
    QCheckBox* m_byNode = nullptr;
    QCheckBox* m_difference = nullptr;
    QComboBox* m_kind = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_order = nullptr;
    QComboBox* m_traffic = nullptr;
    std::shared_ptr<const core::Workload> m_workload;
    std::shared_ptr<const core::CommMatrix> m_logical;
    std::shared_ptr<const core::Workload> m_baselineWorkload;
    std::shared_ptr<const core::EstimateResult> m_baseline;
    std::shared_ptr<const core::CommMatrix> m_baselineLogical;
    int m_ranksPerNode = 8;
    std::vector<core::RankPartition> m_partitions;
};

} // namespace flint::views
