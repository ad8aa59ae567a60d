// SPDX-License-Identifier: MIT
#include "views/pipelinescheduleview.h"

#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>

#include <QLocale>
#include <QPainter>
#include <QStyle>

namespace flint::views {
namespace {} // namespace

PipelineScheduleView::PipelineScheduleView(QWidget* parent)
    : QWidget(parent)
{
    setMinimumSize(360, 120);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void PipelineScheduleView::setSchedule(std::vector<std::vector<core::model::TimedStep>> stages)
{
    m_stages = std::move(stages);
    m_makespan = 0;
    for (const auto& steps : m_stages)
        for (const core::model::TimedStep& t : steps)
            m_makespan = std::max(m_makespan, t.end);
    m_cursor = m_makespan;
    updateGeometry();
    update();
}

void PipelineScheduleView::setCursor(double time)
{
    m_cursor = std::clamp(time, 0.0, m_makespan);
    update();
}

void PipelineScheduleView::paintEvent(QPaintEvent*)
{
    if (m_stages.empty() || m_makespan <= 0)
        return;
    QPainter p(this);
    const QFontMetrics metrics = fontMetrics();
    const int left = metrics.horizontalAdvance(tr("stage %1").arg(m_stages.size())) + 14;
    const int axis = 2 * metrics.height() + 10; // ticks and the axis' unit
    const double rowHeight = std::clamp((height() - axis - 8.0) / static_cast<double>(m_stages.size()), 4.0, 30.0);
    const double scale = (width() - left - 12.0) / m_makespan;
    const QColor forward = phaseColor(StepPhase::Forward), backward = phaseColor(StepPhase::Backward);
    const QBrush idle(QColor(0xb0, 0xb4, 0xbc), Qt::BDiagPattern);
    for (std::size_t s = 0; s < m_stages.size(); ++s) {
        const double y = 4 + static_cast<double>(s) * rowHeight;
        if (rowHeight >= metrics.height() - 2 || s % 4 == 0) {
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QRectF(0, y, left - 8, rowHeight), Qt::AlignRight | Qt::AlignVCenter, tr("stage %1").arg(s));
        }
        // Idle time up to the cursor: the bubble, hatched.
        double busyUntil = 0;
        const auto hatch = [&](double from, double to) {
            to = std::min(to, m_cursor);
            if (to > from)
                p.fillRect(QRectF(left + from * scale, y + 1, (to - from) * scale, rowHeight - 2), idle);
        };
        for (const core::model::TimedStep& t : m_stages[s]) {
            hatch(busyUntil, t.start);
            busyUntil = t.end;
            if (t.start >= m_cursor)
                continue;
            const QRectF box(left + t.start * scale, y + 1, (std::min(t.end, m_cursor) - t.start) * scale,
                             rowHeight - 2);
            QColor fill = t.step.backward ? backward : forward;
            if (t.step.chunk % 2 == 1)
                fill = fill.darker(125); // the second chunk of an interleaved rank
            p.fillRect(box, fill);
            p.setPen(QPen(palette().color(QPalette::Base), 0.5));
            p.drawRect(box);
            const QString label = QString::number(t.step.microbatch);
            if (box.width() >= metrics.horizontalAdvance(label) + 4 && rowHeight >= metrics.height() - 2) {
                p.setPen(t.step.backward ? Qt::white : QColor(0x1d, 0x2b, 0x3a));
                p.drawText(box, Qt::AlignCenter, label);
            }
        }
        hatch(busyUntil, m_makespan);
    }
    // Time axis in forward passes, and the cursor.
    const double bottom = 4 + static_cast<double>(m_stages.size()) * rowHeight;
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(QPointF(left, bottom + 2), QPointF(left + m_makespan * scale, bottom + 2));
    const double raw = m_makespan / 8;
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    const double tick = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
    for (double t = 0; t <= m_makespan + 1e-9; t += tick) {
        const double x = left + t * scale;
        p.drawLine(QPointF(x, bottom + 2), QPointF(x, bottom + 5));
        p.drawText(QRectF(x - 30, bottom + 5, 60, metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                   QLocale().toString(t, 'g', 4));
    }
    p.drawText(QRectF(left, bottom + 5 + metrics.height(), m_makespan * scale, metrics.height()),
               Qt::AlignRight | Qt::AlignTop, tr("time, in forward passes of one microbatch through one stage"));
    if (m_cursor < m_makespan) {
        p.setPen(QPen(QColor(0xd9, 0x48, 0x3b), 1.5));
        p.drawLine(QPointF(left + m_cursor * scale, 2), QPointF(left + m_cursor * scale, bottom + 2));
    }
}

PipelineScheduleDialog::PipelineScheduleDialog(QWidget* parent)
    : PlayedDialog(QStringLiteral("scheduleText"), parent)
    , m_view(new PipelineScheduleView(this))
{
    setView(m_view);
    setWindowTitle(tr("Pipeline schedule"));
    resize(900, 420);
}

void PipelineScheduleDialog::showPosition(double fraction)
{
    m_view->setCursor(m_view->makespan() * fraction);
}

void PipelineScheduleDialog::setParallel(const core::model::ParallelConfig& parallel)
{
    setPlaying(false);
    const std::int64_t microbatches = parallel.microbatches();
    m_view->setSchedule(
        core::model::idealPipeline(parallel.schedule, parallel.pp, parallel.virtualStages, microbatches));
    // Every stage is busy for the same time: microbatches x (forward + backward).
    const double busy = static_cast<double>(microbatches) * 3.0;
    m_bubble = m_view->makespan() > 0 ? 1.0 - busy / m_view->makespan() : 0;
    QString schedule;
    switch (parallel.schedule) {
    case core::model::PipelineSchedule::GPipe:
        schedule = QStringLiteral("GPipe");
        break;
    case core::model::PipelineSchedule::OneFOneB:
        schedule = QStringLiteral("1F1B");
        break;
    case core::model::PipelineSchedule::Interleaved:
        schedule = tr("interleaved 1F1B (%n chunk(s) per stage)", nullptr, static_cast<int>(parallel.virtualStages));
        break;
    }
    setText(tr("<b>%1</b> over %2 stages with %n microbatch(es): each stage idles %3 of the step (the bubble, "
               "hatched) when a forward pass takes one unit, a backward pass two and nothing else takes time. "
               "Boxes are numbered by microbatch; light forward, dark backward.",
               nullptr, static_cast<int>(microbatches))
                .arg(schedule)
                .arg(parallel.pp)
                .arg(QLocale().toString(100.0 * m_bubble, 'f', 1) + QLocale().percent()));
    // Rows of up to 30 pixels without empty space under them; the whole schedule shown.
    resize(width(), std::min(720, textHeight() + 110 + 30 * static_cast<int>(parallel.pp)));
    setPosition(1.0);
}

} // namespace flint::views
