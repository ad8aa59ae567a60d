// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"

#include <memory>
#include <utility>
#include <vector>

#include <QImage>
#include <QWidget>

namespace flint::views {

/// Heatmap of what each source rank sends to each destination rank over the step: as the collective
/// algorithms move it (link traffic, EstimateResult::commMatrix: bytes, or their estimated time on
/// the link that carries them), or in the collectives' semantics (logical traffic,
/// core::logicalCommMatrix, bytes only). Log colour scale with a legend, hover shows both values, wheel zoom. Cells can
/// be summed into nodes of `ranksPerNode` ranks, restricted to one collective kind, and reordered so that the parts of
/// a rank partition (a mesh axis's groups) sit side by side. Clicking a cell emits cellClicked() with its rank ranges;
/// highlightFlows() outlines the cells an op uses.
class CommMatrixView : public QWidget {
    Q_OBJECT

public:
    enum class Metric { Bytes, Seconds };
    /// Link: what the algorithms move between neighbours; Logical: who sends what to whom in the
    /// collectives' semantics.
    enum class Traffic { Link, Logical };

    explicit CommMatrixView(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const core::EstimateResult> result, int ranksPerNode);
    /// The logical traffic of the result's workload (shown while traffic() is Logical); null clears.
    void setLogicalMatrix(std::shared_ptr<const core::CommMatrix> logical);
    void setTraffic(Traffic traffic);
    Traffic traffic() const { return m_traffic; }
    /// The matrix shown now: the result's link traffic or the logical one; null when there is none.
    const core::CommMatrix* matrix() const;
    /// What the view says instead of a matrix ("No rank-to-rank traffic in this step"); empty when
    /// it draws one.
    QString emptyText() const;
    /// The estimate to compare with (a pinned baseline) and, for logical traffic, its workload's
    /// logical matrix; nulls: none.
    void setBaseline(std::shared_ptr<const core::EstimateResult> baseline,
                     std::shared_ptr<const core::CommMatrix> baselineLogical);
    /// Shows each cell's change from the baseline (this estimate minus the baseline) where
    /// canCompare(), on a diverging colour scale: more traffic red, less blue.
    void setDifference(bool on);
    bool difference() const { return m_difference; }
    /// Whether the baseline has a matrix of the shown traffic over the same ranks in the same blocks.
    bool canCompare() const;
    /// Whether cells show the change from the baseline now.
    bool showsDifference() const { return m_difference && canCompare(); }
    /// The baseline's bytes of the shown cell while showsDifference() (0 otherwise).
    double baselineCellBytes(int source, int destination) const;
    /// Sums cells into node x node blocks.
    void setAggregateByNode(bool aggregate);
    bool aggregateByNode() const { return m_byNode; }
    /// Shows one layer of CommMatrix::layers ("ALL_REDUCE", "SEND_RECV"); empty shows all kinds.
    void setKindFilter(const QString& kind);
    QString kindFilter() const { return m_kind; }
    /// The kinds the current result has layers for.
    QStringList kinds() const;
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }
    /// Orders ranks along both axes as `order` lists them (a permutation of all ranks); empty means rank
    /// order. Ignored (rank order) while cells aggregate nodes or bins of ranks.
    void setRankOrder(std::vector<std::int32_t> order);
    /// Whether setRankOrder() takes effect now: rank-level cells, not nodes or bins.
    bool canReorder() const;
    /// Outlines the cells that carry these (source rank, destination rank) transfers; empty clears.
    void highlightFlows(const std::vector<std::pair<std::int32_t, std::int32_t>>& flows);

    /// Back to the whole matrix in the window (the wheel zooms in about the pointer; a drag pans).
    void resetZoom();
    /// Zooms onto the square of cells [first, first + count) along both axes: a group's traffic
    /// among its own ranks when they sit side by side (grouped order, or a node's consecutive ranks).
    void zoomToCells(int first, int count);
    double zoom() const { return m_zoom; }
    /// Zooms by `factor` keeping the point `at` (widget coordinates) where it is; the zoom stays
    /// between 1 (the whole matrix) and the zoom at which one cell is 48 pixels wide (at least 4).
    void zoomAbout(QPointF at, double factor);
    /// Ranks between two ticks of the axes, and between two separator lines (0: none drawn), at
    /// the current size and zoom.
    int tickStep() const;
    int separatorStep() const;
    /// The cell position under widget point `pos` along (source, destination), or (-1, -1) outside
    /// the matrix or the part of it in view.
    std::pair<int, int> cellAt(QPointF pos) const;
    /// Where the cell is drawn now, in widget coordinates (outside the viewport when scrolled away).
    QRectF cellRect(int source, int destination) const;
    /// Cells shown along each axis (after binning and aggregation).
    int cellCount() const { return m_cells; }
    /// Bytes of the shown cell (row = source, positions after ordering), for tests and tooltips;
    /// while showsDifference(), this estimate's bytes minus the baseline's (negative: fewer).
    double cellBytes(int source, int destination) const;
    /// Seconds of the shown cell (see CommMatrix::seconds; 0 for logical traffic).
    double cellSeconds(int source, int destination) const;
    /// The colour the cell is painted with.
    QColor cellColor(int source, int destination) const;
    /// The value at the bottom of the colour scale: the smallest cell, or a tenth of the largest if
    /// that is lower (the scale spans at least a decade).
    double colourScaleMin() const { return m_scaleMin; }
    /// The first rank and the rank count of the cell at position `cell` along an axis.
    std::pair<std::int32_t, std::int32_t> ranksOfCell(int cell) const;
    /// Cells outlined by highlightFlows(), as (source position, destination position).
    const std::vector<std::pair<int, int>>& highlightedCells() const { return m_highlighted; }

Q_SIGNALS:
    /// The user clicked a cell: the source ranks [srcFirst, srcFirst + srcCount) to the destination
    /// ranks [dstFirst, dstFirst + dstCount).
    void cellClicked(int srcFirst, int srcCount, int dstFirst, int dstCount);
    /// The user double-clicked the cell at (source, destination) positions: the page zooms to the
    /// group it belongs to.
    void cellDoubleClicked(int source, int destination);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    /// Where the matrix is seen: the square it fills at zoom 1 (the window onto it when zoomed).
    QRectF viewportRect() const;
    /// The whole matrix at the current zoom and pan (larger than the viewport when zoomed).
    QRectF plotRect() const;
    /// Keeps the pan inside the matrix.
    void clampPan();
    std::size_t at(int source, int destination) const
    {
        return static_cast<std::size_t>(source) * static_cast<std::size_t>(m_cells) +
               static_cast<std::size_t>(destination);
    }

    /// The metric in effect: logical traffic has bytes only.
    Metric shownMetric() const;
    /// The baseline's matrix of the shown traffic (null: none).
    const core::CommMatrix* baselineMatrix() const;

    std::shared_ptr<const core::EstimateResult> m_result;
    std::shared_ptr<const core::CommMatrix> m_logical;
    std::shared_ptr<const core::EstimateResult> m_baseline;
    std::shared_ptr<const core::CommMatrix> m_baselineLogical;
    bool m_difference = false;
    Traffic m_traffic = Traffic::Link;
    int m_ranksPerNode = 8;
    bool m_byNode = false;
    QString m_kind;
    Metric m_metric = Metric::Bytes;
    std::vector<std::int32_t> m_order; ///< rank at each position, or empty
    std::vector<std::pair<std::int32_t, std::int32_t>> m_flows;
    int m_cells = 0;
    int m_ranksPerCell = 1;
    bool m_ordered = false;             ///< m_order applies to the shown cells
    std::vector<std::int32_t> m_rankAt; ///< rank at each shown position when ordered
    std::vector<double> m_bytes;        ///< m_cells x m_cells, by shown position, where cells are remapped
    std::vector<double> m_seconds;      ///< the same for seconds
    std::vector<double> m_baseBytes;    ///< the baseline's bytes per shown cell while showsDifference()
    /// The shown cells, m_cells x m_cells by position: m_bytes and m_seconds, or the result's own
    /// matrices where cells are its blocks in rank order (no copy).
    const double* m_cellBytes = nullptr;
    const double* m_cellSeconds = nullptr;
    std::vector<std::pair<int, int>> m_highlighted;
    double m_max = 0;
    double m_minPositive = 0;
    double m_scaleMin = 0; ///< bottom of the colour scale: at most a tenth of m_max
    double m_zoom = 1;
    QPointF m_pan;        ///< pixels of the zoomed matrix scrolled past the viewport's top left
    QPointF m_pressAt;    ///< where the left button went down
    QPointF m_panAtPress; ///< m_pan then
    bool m_pressed = false;
    bool m_dragging = false; ///< the press moved far enough to pan rather than click
    QImage m_image;          ///< the cells, one pixel each, rebuilt with the data (paint only scales it)
    /// m_image reduced by m_reducedFactor: each pixel the colour of the strongest cell of its
    /// factor x factor block, so that a matrix of more cells than pixels loses no traffic when drawn.
    QImage m_reduced;
    int m_reducedFactor = 0;
    const QImage& imageFor(int factor);
};

} // namespace flint::views
