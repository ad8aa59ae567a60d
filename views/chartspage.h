// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <memory>

#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace flint::views {

/// Four QtCharts of an estimate: the step-time breakdown (compute, exposed communication, idle)
/// per group of ranks, the top ops by time, the bytes per collective kind, and the traffic per
/// topology dimension.
class ChartsPage : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPage(QWidget* parent = nullptr);

    /// Shows an estimate. While the page is hidden (another tab is current) the charts are built
    /// when it is next shown or asked about: an edit's estimate then reaches the visible view
    /// sooner (four QCharts take 10-15 ms to build).
    /// `dimensionNames` name the topology's dimensions, innermost first (e.g. "NVLink switch, 8 x
    /// 371 GB/s"); without them they are numbered.
    void setData(std::shared_ptr<const core::Workload> workload, std::shared_ptr<const core::EstimateResult> result,
                 QStringList dimensionNames = {});
    /// The estimate pinned for comparison (null: none): the breakdown chart then starts with the
    /// baseline's and this estimate's mean per rank, side by side.
    void setBaseline(std::shared_ptr<const core::EstimateResult> baseline);
    /// The breakdown chart's categories ("baseline", "mean" when compared, then first ranks).
    QStringList breakdownCategories();
    /// Bars in the breakdown chart (groups of ranks).
    int breakdownGroups();
    /// Names in the top-ops chart, longest first.
    QStringList topOps();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QChartView* addChart(const QString& title, int row, int column);
    /// Builds the charts of the data last set, if not built yet.
    void build();

    std::shared_ptr<const core::Workload> m_workload;
    std::shared_ptr<const core::EstimateResult> m_result;
    std::shared_ptr<const core::EstimateResult> m_baseline;
    bool m_stale = false;

    QChartView* m_breakdown = nullptr;
    QChartView* m_top = nullptr;
    QChartView* m_kinds = nullptr;
    QChartView* m_dims = nullptr;
    int m_breakdownGroups = 0;
    QStringList m_breakdownCategories;
    QStringList m_topOps;
    QStringList m_dimensionNames;
};

} // namespace flint::views
