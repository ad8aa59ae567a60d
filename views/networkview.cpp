// SPDX-License-Identifier: MIT
#include "views/networkview.h"

#include "views/networknames.h"
#include "views/timelinegeometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace flint::views {
namespace {

/// NPUs drawn per dimension; a larger dimension shows the first ones and an ellipsis.
constexpr int kDrawnNpus = 8;
constexpr double kSchematicWidth = 250;

const QColor kOverloaded(0xd9, 0x48, 0x3b);

/// A link's colour at `utilisation`: grey when idle, through amber to red at full use.
QColor linkColor(double utilisation)
{
    const QColor idle(0xb0, 0xb4, 0xbc), half(0xe6, 0x9f, 0x00);
    const double u = std::clamp(utilisation, 0.0, 1.0);
    const auto mix = [](const QColor& a, const QColor& b, double f) {
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                                static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                                static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
    };
    return u < 0.5 ? mix(idle, half, u / 0.5) : mix(half, kOverloaded, (u - 0.5) / 0.5);
}

/// "17 %", "4.1 %" (one decimal under 10 %), "0 %" for nothing at all.
QString percent(double fraction)
{
    const int decimals = fraction > 0 && fraction < 0.1 ? 1 : 0;
    return QLocale().toString(100.0 * fraction, 'f', decimals) + QStringLiteral("\u00a0%");
}

/// GB/s as vendors write them (decimal), from the network's GiB/s.
QString bandwidth(const core::TopologyDim& dim)
{
    return NetworkUtilisationView::tr("%1 GB/s").arg(QLocale().toString(dim.decimalGBps(), 'g', 4));
}

} // namespace

NetworkUtilisationView::NetworkUtilisationView(QWidget* parent)
    : QWidget(parent)
{
    setMinimumSize(600, 180);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void NetworkUtilisationView::setData(core::Topology topology, core::LinkUtilisation links)
{
    m_topology = std::move(topology);
    m_links = std::move(links);
    m_cursor = std::clamp(m_cursor, 0.0, m_links.stepTime);
    updateGeometry();
    update();
}

void NetworkUtilisationView::setCursor(double seconds)
{
    m_cursor = std::clamp(seconds, 0.0, m_links.stepTime);
    update();
}

std::size_t NetworkUtilisationView::binAt(double seconds) const
{
    if (m_links.dims.empty() || m_links.binSeconds <= 0)
        return 0;
    const std::size_t bins = m_links.dims.front().mean.size();
    const double bin = std::floor(std::clamp(seconds, 0.0, m_links.stepTime) / m_links.binSeconds);
    return std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, bin)));
}

void NetworkUtilisationView::paintEvent(QPaintEvent*)
{
    if (m_links.dims.empty() || m_links.dims.size() != m_topology.dims.size())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const std::size_t bin = binAt(m_cursor);
    const double axis = fontMetrics().height() + 8;
    const double rowHeight = std::max(90.0, (height() - axis - 8.0) / static_cast<double>(m_links.dims.size()));
    for (std::size_t d = 0; d < m_links.dims.size(); ++d) {
        const double top = 4 + static_cast<double>(d) * rowHeight;
        if (d > 0) {
            p.setPen(QPen(palette().color(QPalette::Mid), 0.5));
            p.drawLine(QPointF(0, top - 2), QPointF(width(), top - 2));
        }
        paintSchematic(p, QRectF(4, top, kSchematicWidth, rowHeight - 6), d, m_links.dims[d].mean[bin]);
        const bool last = d + 1 == m_links.dims.size();
        paintChart(p, QRectF(kSchematicWidth + 60, top, width() - kSchematicWidth - 72, rowHeight - 6), d, last);
    }
}

void NetworkUtilisationView::paintSchematic(QPainter& p, const QRectF& area, std::size_t dim, double utilisation) const
{
    const core::TopologyDim& t = m_topology.dims[dim];
    const QFontMetrics metrics = fontMetrics();
    p.setPen(palette().color(QPalette::Text));
    const QString title =
        tr("Dimension %1: %2 of %Ln NPU(s)", nullptr, t.npus).arg(dim + 1).arg(NetworkNames::kind(t.kind));
    p.drawText(QRectF(area.left(), area.top(), area.width(), metrics.height()), Qt::AlignLeft | Qt::AlignTop,
               metrics.elidedText(title, Qt::ElideRight, static_cast<int>(area.width())));
    p.drawText(QRectF(area.left(), area.top() + metrics.height(), area.width(), metrics.height()),
               Qt::AlignLeft | Qt::AlignTop,
               metrics.elidedText(tr("%1 per NPU, now %2 (mean)").arg(bandwidth(t), percent(utilisation)),
                                  Qt::ElideRight, static_cast<int>(area.width())));
    const QRectF draw = area.adjusted(0, 2.0 * metrics.height() + 6, 0, -2);
    const int shown = std::min(t.npus, kDrawnNpus);
    const bool ellipsis = t.npus > kDrawnNpus;
    const double radius = std::clamp(draw.height() / 10, 4.0, 8.0);
    std::vector<QPointF> npus(static_cast<std::size_t>(shown));
    const bool row = t.kind == core::TopologyKind::Switch;
    for (int i = 0; i < shown; ++i) {
        if (row) {
            npus[static_cast<std::size_t>(i)] =
                QPointF(draw.left() + (i + 0.5) * draw.width() / shown, draw.bottom() - radius);
        } else {
            const double angle = 2 * std::numbers::pi * i / shown - std::numbers::pi / 2;
            const double r = std::min(draw.width(), draw.height()) / 2 - radius - 1;
            npus[static_cast<std::size_t>(i)] = draw.center() + QPointF(r * std::cos(angle), r * std::sin(angle));
        }
    }
    QPen link(linkColor(utilisation), 1.0 + 4.0 * std::clamp(utilisation, 0.0, 1.0));
    if (utilisation > 1)
        link.setColor(kOverloaded);
    p.setPen(link);
    if (t.kind == core::TopologyKind::Switch) {
        const QRectF box(draw.center().x() - 34, draw.top(), 68, metrics.height() + 4);
        for (const QPointF& n : npus)
            p.drawLine(n, QPointF(box.center().x(), box.bottom()));
        p.setPen(palette().color(QPalette::Text));
        p.setBrush(palette().color(QPalette::Window));
        p.drawRoundedRect(box, 3, 3);
        p.drawText(box, Qt::AlignCenter, tr("switch"));
    } else if (t.kind == core::TopologyKind::Ring) {
        for (int i = 0; i < shown; ++i) {
            if (ellipsis && i == shown - 1)
                link.setStyle(Qt::DotLine); // the rest of the ring, not drawn
            p.setPen(link);
            p.drawLine(npus[static_cast<std::size_t>(i)], npus[static_cast<std::size_t>((i + 1) % shown)]);
        }
    } else {
        for (int i = 0; i < shown; ++i)
            for (int j = i + 1; j < shown; ++j)
                p.drawLine(npus[static_cast<std::size_t>(i)], npus[static_cast<std::size_t>(j)]);
    }
    p.setPen(palette().color(QPalette::Text));
    p.setBrush(QColor(0x4c, 0x72, 0xb0));
    for (int i = 0; i < shown; ++i) {
        if (ellipsis && i == shown - 1) {
            p.setBrush(Qt::NoBrush);
            p.drawText(QRectF(npus[static_cast<std::size_t>(i)] - QPointF(20, 8), QSizeF(40, 16)), Qt::AlignCenter,
                       QStringLiteral("…"));
            continue;
        }
        p.drawEllipse(npus[static_cast<std::size_t>(i)], radius, radius);
    }
    p.setBrush(Qt::NoBrush);
}

void NetworkUtilisationView::paintChart(QPainter& p, const QRectF& area, std::size_t dim, bool timeAxis) const
{
    const core::LinkUtilisation::Dimension& d = m_links.dims[dim];
    const QFontMetrics metrics = fontMetrics();
    const QRectF plot = area.adjusted(0, metrics.height() + 4, 0, -4);
    // Full use at 100 %; more when overlapping transfers each take the whole link.
    const double top = d.peak > 1 ? niceStep(d.peak / 4) * std::ceil(d.peak / niceStep(d.peak / 4)) : 1.0;
    const auto x = [&](std::size_t bin) {
        return plot.left() + plot.width() * static_cast<double>(bin) / static_cast<double>(d.mean.size());
    };
    const auto y = [&](double value) { return plot.bottom() - plot.height() * std::min(value, top) / top; };
    p.setPen(palette().color(QPalette::Text));
    p.drawText(
        QRectF(area.left(), area.top(), area.width(), metrics.height()), Qt::AlignLeft | Qt::AlignTop,
        metrics.elidedText(tr("average over the step %1, busiest rank at its peak %2; %3 sent")
                               .arg(percent(d.average), percent(d.peak), QString::fromStdString(formatBytes(d.bytes))),
                           Qt::ElideRight, static_cast<int>(area.width())));
    // Axis: 0 %, 100 % (dashed) and the top when above.
    p.setPen(QPen(palette().color(QPalette::Mid), 0.5));
    p.drawRect(plot);
    for (double mark : {0.0, 0.5, 1.0, top}) {
        if (mark > top)
            continue;
        p.setPen(QPen(palette().color(QPalette::Mid), 0.5, mark == 1.0 ? Qt::DashLine : Qt::SolidLine));
        p.drawLine(QPointF(plot.left(), y(mark)), QPointF(plot.right(), y(mark)));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(plot.left() - 56, y(mark) - metrics.height() / 2.0, 52, metrics.height()),
                   Qt::AlignRight | Qt::AlignVCenter, percent(mark));
    }
    QPainterPath mean(QPointF(plot.left(), plot.bottom()));
    QPainterPath busiest;
    for (std::size_t k = 0; k < d.mean.size(); ++k) {
        mean.lineTo(x(k), y(d.mean[k]));
        mean.lineTo(x(k + 1), y(d.mean[k]));
        const QPointF from(x(k), y(d.busiest[k])), to(x(k + 1), y(d.busiest[k]));
        if (k == 0)
            busiest.moveTo(from);
        else
            busiest.lineTo(from);
        busiest.lineTo(to);
    }
    mean.lineTo(plot.right(), plot.bottom());
    mean.closeSubpath();
    p.fillPath(mean, QColor(0x4c, 0x72, 0xb0, 150));
    p.setPen(QPen(QColor(0xdd, 0x84, 0x52), 1.2));
    p.drawPath(busiest);
    // The cursor.
    p.setPen(QPen(kOverloaded, 1.5));
    const double cx = plot.left() + plot.width() * (m_links.stepTime > 0 ? m_cursor / m_links.stepTime : 0);
    p.drawLine(QPointF(cx, plot.top()), QPointF(cx, plot.bottom()));
    if (!timeAxis)
        return;
    p.setPen(palette().color(QPalette::Text));
    const int maxTicks = std::max(2, static_cast<int>(plot.width() / 90));
    const double step = niceStep(m_links.stepTime / maxTicks);
    for (double t = 0; t <= m_links.stepTime * (1 + 1e-9); t += step) {
        const double tx = plot.left() + plot.width() * t / m_links.stepTime;
        p.drawLine(QPointF(tx, plot.bottom()), QPointF(tx, plot.bottom() + 3));
        // Centred under the tick, the last one kept inside the view.
        const QString label = QString::fromStdString(formatTick(t, step, m_links.stepTime));
        const double half = metrics.horizontalAdvance(label) / 2.0 + 2;
        const double centre = std::min(tx, width() - half - 1);
        p.drawText(QRectF(centre - half, plot.bottom() + 3, 2 * half, metrics.height()),
                   Qt::AlignHCenter | Qt::AlignTop, label);
    }
}

NetworkUtilisationDialog::NetworkUtilisationDialog(QWidget* parent)
    : PlayedDialog(QStringLiteral("networkText"), parent)
    , m_view(new NetworkUtilisationView(this))
{
    setView(m_view);
    setWindowTitle(tr("Network utilisation"));
    resize(980, 520);
}

void NetworkUtilisationDialog::showPosition(double fraction)
{
    m_view->setCursor(m_view->links().stepTime * fraction);
}

void NetworkUtilisationDialog::setData(const core::Topology& topology, core::LinkUtilisation links)
{
    double peak = 0;
    for (const auto& d : links.dims)
        peak = std::max(peak, d.peak);
    QString text = tr("How busy each dimension's links are over the step: the bytes the ranks send on it over what the "
                      "links could carry, in %n slice(s) of %1. Filled: all ranks' mean; line: the busiest rank. Play "
                      "or drag to move the time cursor; the links on the left show it.",
                      nullptr, links.dims.empty() ? 0 : static_cast<int>(links.dims.front().mean.size()))
                       .arg(QString::fromStdString(formatDuration(links.binSeconds)));
    if (peak > 1)
        text += QLatin1Char(' ') +
                tr("Above 100 %: transfers that overlap in time each run at the link's full bandwidth in this model "
                   "(a pipeline send beside a data-parallel collective, collectives on several streams); a real "
                   "network shares the link, so they would take longer.");
    setText(text);
    m_view->setData(topology, std::move(links));
    setPosition(0);
}

} // namespace flint::views
