// SPDX-License-Identifier: MIT
#include "views/commmatrixview.h"

#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace flint::views {

CommMatrixView::CommMatrixView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(240, 200);
}

void CommMatrixView::setResult(std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    m_result = std::move(result);
    m_ranksPerNode = std::max(1, ranksPerNode);
    m_zoom = 1;
    rebuild();
}

void CommMatrixView::setAggregateByNode(bool aggregate)
{
    m_byNode = aggregate;
    rebuild();
}

double CommMatrixView::cellBytes(int source, int destination) const
{
    if (source < 0 || destination < 0 || source >= m_cells || destination >= m_cells)
        return 0;
    return m_bytes[static_cast<std::size_t>(source) * static_cast<std::size_t>(m_cells) +
                   static_cast<std::size_t>(destination)];
}

void CommMatrixView::rebuild()
{
    m_cells = 0;
    m_bytes.clear();
    m_max = m_minPositive = 0;
    if (m_result && m_result->commMatrix.blocks > 0) {
        const core::CommMatrix& matrix = m_result->commMatrix;
        // A node spans ranksPerNode ranks = ranksPerNode / blockSize matrix blocks (at least one).
        const int group = m_byNode ? std::max(1, m_ranksPerNode / std::max(1, matrix.blockSize)) : 1;
        m_cells = (matrix.blocks + group - 1) / group;
        m_ranksPerCell = group * matrix.blockSize;
        m_bytes.assign(static_cast<std::size_t>(m_cells) * static_cast<std::size_t>(m_cells), 0.0);
        for (int s = 0; s < matrix.blocks; ++s)
            for (int d = 0; d < matrix.blocks; ++d)
                m_bytes[static_cast<std::size_t>(s / group) * static_cast<std::size_t>(m_cells) +
                        static_cast<std::size_t>(d / group)] += matrix.at(s, d);
        for (double b : m_bytes) {
            m_max = std::max(m_max, b);
            if (b > 0)
                m_minPositive = m_minPositive == 0 ? b : std::min(m_minPositive, b);
        }
    }
    update();
}

QRectF CommMatrixView::plotRect() const
{
    const double side = std::min(width() - 130.0, height() - 40.0) * m_zoom;
    return QRectF(50, 20, std::max(10.0, side), std::max(10.0, side));
}

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_cells == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   m_result ? tr("No rank-to-rank traffic in this step") : tr("No estimate yet"));
        return;
    }
    const QRectF plot = plotRect();
    const double cell = plot.width() / m_cells;
    const double logMin = std::log10(std::max(1.0, m_minPositive));
    const double logMax = std::log10(std::max(1.0, m_max));
    const auto fraction = [&](double bytes) {
        return logMax > logMin ? (std::log10(bytes) - logMin) / (logMax - logMin) : 1.0;
    };
    for (int s = 0; s < m_cells; ++s)
        for (int d = 0; d < m_cells; ++d) {
            const double bytes = cellBytes(s, d);
            const QRectF box(plot.left() + d * cell, plot.top() + s * cell, cell + 0.5, cell + 0.5);
            p.fillRect(box, bytes > 0 ? heatColor(fraction(bytes)) : palette().color(QPalette::AlternateBase));
        }
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(plot);
    p.drawText(QRectF(plot.left(), 0, plot.width(), 18), Qt::AlignCenter,
               m_byNode ? tr("destination node") : tr("destination rank"));
    p.save();
    p.translate(14, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -10, plot.height(), 20), Qt::AlignCenter,
               m_byNode ? tr("source node") : tr("source rank"));
    p.restore();
    // Legend: the log scale from the smallest to the largest cell.
    const QRectF legend(plot.right() + 16, plot.top(), 14, std::min(plot.height(), 200.0));
    for (int i = 0; i < static_cast<int>(legend.height()); ++i)
        p.fillRect(QRectF(legend.left(), legend.bottom() - i - 1, legend.width(), 1), heatColor(i / legend.height()));
    p.drawRect(legend);
    p.drawText(QPointF(legend.right() + 4, legend.top() + 10), QString::fromStdString(formatBytes(m_max)));
    p.drawText(QPointF(legend.right() + 4, legend.bottom()), QString::fromStdString(formatBytes(m_minPositive)));
    p.drawText(QPointF(legend.left(), legend.bottom() + 16), tr("log scale"));
}

bool CommMatrixView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_cells > 0) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QRectF plot = plotRect();
        if (!plot.contains(help->pos())) {
            QToolTip::hideText();
            return true;
        }
        const double cell = plot.width() / m_cells;
        const int d = static_cast<int>((help->pos().x() - plot.left()) / cell);
        const int s = static_cast<int>((help->pos().y() - plot.top()) / cell);
        const auto range = [this](int c) {
            const int first = c * m_ranksPerCell;
            return m_ranksPerCell == 1 ? QString::number(first)
                                       : QStringLiteral("%1-%2").arg(first).arg(first + m_ranksPerCell - 1);
        };
        QToolTip::showText(
            help->globalPos(),
            tr("ranks %1 → %2: %3").arg(range(s), range(d), QString::fromStdString(formatBytes(cellBytes(s, d)))),
            this);
        return true;
    }
    return QWidget::event(event);
}

void CommMatrixView::wheelEvent(QWheelEvent* event)
{
    m_zoom = std::clamp(m_zoom * std::pow(1.2, event->angleDelta().y() / 120.0), 1.0, 16.0);
    update();
}

} // namespace flint::views
