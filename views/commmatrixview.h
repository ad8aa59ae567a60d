// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"

#include <memory>

#include <QWidget>

namespace flint::views {

/// Heatmap of the bytes each source rank sends to each destination rank over the step, as the
/// collective algorithms move them (EstimateResult::commMatrix). Log colour scale with a legend,
/// hover shows the value, optional aggregation to nodes of `ranksPerNode` ranks, wheel zoom.
class CommMatrixView : public QWidget {
    Q_OBJECT

public:
    explicit CommMatrixView(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const core::EstimateResult> result, int ranksPerNode);
    /// Sums cells into node x node blocks.
    void setAggregateByNode(bool aggregate);
    bool aggregateByNode() const { return m_byNode; }
    /// Cells shown along each axis (after binning and aggregation).
    int cellCount() const { return m_cells; }
    /// Bytes of the shown cell (row = source), for tests and tooltips.
    double cellBytes(int source, int destination) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void rebuild();
    QRectF plotRect() const;

    std::shared_ptr<const core::EstimateResult> m_result;
    int m_ranksPerNode = 8;
    bool m_byNode = false;
    int m_cells = 0;
    int m_ranksPerCell = 1;
    std::vector<double> m_bytes; ///< m_cells x m_cells
    double m_max = 0;
    double m_minPositive = 0;
    double m_zoom = 1;
};

} // namespace flint::views
