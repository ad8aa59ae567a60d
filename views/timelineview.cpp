// SPDX-License-Identifier: MIT
#include "views/timelineview.h"

#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace flint::views {
namespace {

constexpr int kLabelWidth = 86;
constexpr int kRulerHeight = 24;
constexpr int kTrackHeight = 9;
constexpr int kLaneHeight = 2 * kTrackHeight + 4;
constexpr int kNodeGap = 4;

QString toQString(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

/// Events of every timeline split by track (0 compute, 1 communication) and sorted by start, so that
/// painting and hit-testing look up the visible window by binary search.
struct TimelineView::Lanes {
    struct Span {
        double start;
        double end;
        std::uint32_t op;
        std::uint32_t event; ///< index into the timeline's events
    };
    std::vector<std::array<std::vector<Span>, 2>> byTimeline;
};

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

TimelineView::~TimelineView() = default;

void TimelineView::setData(std::shared_ptr<const core::Workload> workload,
                           std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    m_workload = std::move(workload);
    m_result = std::move(result);
    m_ranksPerNode = std::max(1, ranksPerNode);
    m_lanes = std::make_unique<Lanes>();
    m_firstRank = 0;
    m_highlightOp = -1;
    if (m_result) {
        m_lanes->byTimeline.resize(m_result->timelines.size());
        for (std::size_t t = 0; t < m_result->timelines.size(); ++t) {
            const auto& events = m_result->timelines[t];
            for (std::uint32_t e = 0; e < events.size(); ++e) {
                const core::OpEvent& ev = events[e];
                m_lanes->byTimeline[t][ev.stream == 0 ? 0 : 1].push_back({ev.start, ev.end, ev.op, e});
            }
            for (auto& track : m_lanes->byTimeline[t])
                std::sort(track.begin(), track.end(),
                          [](const Lanes::Span& a, const Lanes::Span& b) { return a.start < b.start; });
        }
        m_time.totalTime = m_result->stepTime > 0 ? m_result->stepTime : 1e-6;
    }
    fit();
}

int TimelineView::laneCount() const
{
    return m_result ? static_cast<int>(m_result->ranks.size()) : 0;
}

void TimelineView::fit()
{
    m_time.plotLeft = kLabelWidth;
    m_time.plotWidth = std::max(10, width() - kLabelWidth - 8);
    m_time.fit();
    update();
}

void TimelineView::highlightOp(int opIndex)
{
    m_highlightOp = opIndex;
    update();
}

int TimelineView::laneTop(int rank) const
{
    const int visibleIndex = rank - m_firstRank;
    return kRulerHeight + visibleIndex * kLaneHeight +
           (rank / m_ranksPerNode - m_firstRank / m_ranksPerNode) * kNodeGap;
}

int TimelineView::rankAtY(int y) const
{
    if (!m_result || y < kRulerHeight)
        return -1;
    for (int rank = m_firstRank; rank < laneCount(); ++rank) {
        const int top = laneTop(rank);
        if (top > height())
            break;
        if (y >= top && y < top + kLaneHeight)
            return rank;
    }
    return -1;
}

std::pair<int, int> TimelineView::eventAt(const QPoint& pos) const
{
    const int rank = rankAtY(pos.y());
    if (rank < 0 || !m_lanes)
        return {-1, -1};
    const int track = pos.y() - laneTop(rank) < kTrackHeight + 2 ? 0 : 1;
    const double t = m_time.mapXToTime(pos.x());
    const double slack = m_time.span() / m_time.plotWidth * 2; // two pixels
    const auto& spans = m_lanes->byTimeline[m_result->rankTimeline[static_cast<std::size_t>(rank)]][track];
    auto it = std::upper_bound(spans.begin(), spans.end(), t + slack,
                               [](double time, const Lanes::Span& s) { return time < s.start; });
    while (it != spans.begin()) {
        --it;
        if (it->end + slack >= t)
            return {rank, static_cast<int>(it->event)};
        if (t - it->start > m_time.span())
            break;
    }
    return {-1, -1};
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_result || !m_workload) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No estimate yet: open a workload"));
        return;
    }
    const QColor text = palette().color(QPalette::Text);
    // Ruler.
    p.fillRect(QRect(0, 0, width(), kRulerHeight), palette().alternateBase());
    p.setPen(text);
    for (double tick : m_time.ticks(std::max(2, static_cast<int>(m_time.plotWidth / 110)))) {
        const double x = m_time.mapTimeToX(tick);
        p.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        p.drawText(QPointF(x + 3, kRulerHeight - 8), toQString(formatDuration(tick)));
    }
    p.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
    const double pixel = m_time.span() / m_time.plotWidth;
    for (int rank = m_firstRank; rank < laneCount(); ++rank) {
        const int top = laneTop(rank);
        if (top > height())
            break;
        if (rank % m_ranksPerNode == 0 && rank != m_firstRank)
            p.fillRect(QRect(0, top - kNodeGap, width(), kNodeGap), palette().mid());
        p.setPen(text);
        p.drawText(QRect(4, top, kLabelWidth - 8, kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   tr("rank %1").arg(rank));
        const auto timeline = m_result->rankTimeline[static_cast<std::size_t>(rank)];
        const core::Program& program = m_workload->programOf(static_cast<std::size_t>(rank));
        for (int track = 0; track < 2; ++track) {
            const auto& spans = m_lanes->byTimeline[timeline][static_cast<std::size_t>(track)];
            const int y = top + 1 + track * (kTrackHeight + 2);
            // Spans that end after the window starts; the list is sorted by start.
            auto it = std::lower_bound(spans.begin(), spans.end(), m_time.viewStart - m_time.span(),
                                       [](const Lanes::Span& s, double time) { return s.start < time; });
            double lastX = -1;
            for (; it != spans.end() && it->start <= m_time.viewEnd; ++it) {
                if (it->end < m_time.viewStart)
                    continue;
                const double x0 = std::max(m_time.mapTimeToX(it->start), m_time.plotLeft);
                const double x1 = std::min(m_time.mapTimeToX(it->end), m_time.plotLeft + m_time.plotWidth);
                // Level of detail: spans narrower than a pixel that land on the same pixel draw once.
                if (x1 - x0 < 1 && std::floor(x0) == lastX && it->op != static_cast<std::uint32_t>(m_highlightOp))
                    continue;
                lastX = std::floor(x0);
                const core::Op& op = program.ops[it->op];
                const QRectF box(x0, y, std::max(1.0, x1 - x0), kTrackHeight);
                p.fillRect(box, colorOf(op));
                if (static_cast<int>(it->op) == m_highlightOp) {
                    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
                    p.drawRect(box.adjusted(-1, -1, 1, 1));
                }
            }
            (void)pixel;
        }
    }
    if (m_selecting || m_selectionTo > m_selectionFrom) {
        const double x0 = m_time.mapTimeToX(std::min(m_selectionFrom, m_selectionTo));
        const double x1 = m_time.mapTimeToX(std::max(m_selectionFrom, m_selectionTo));
        QColor shade = palette().color(QPalette::Highlight);
        shade.setAlpha(50);
        p.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height()), shade);
    }
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    const double start = m_time.viewStart;
    const double end = m_time.viewEnd;
    m_time.plotLeft = kLabelWidth;
    m_time.plotWidth = std::max(10, width() - kLabelWidth - 8);
    m_time.viewStart = start;
    m_time.viewEnd = end;
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ControlModifier || !(event->modifiers() & Qt::ShiftModifier)) {
        if (event->modifiers() & Qt::ControlModifier || laneCount() * kLaneHeight < height()) {
            m_time.zoomAround(event->position().x(), std::pow(1.25, steps));
        } else {
            m_firstRank = std::clamp(m_firstRank - static_cast<int>(steps * 3), 0, std::max(0, laneCount() - 1));
        }
    } else {
        m_time.panByPixels(-steps * 60);
    }
    update();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_selecting = true;
        m_selectionFrom = m_selectionTo = m_time.mapXToTime(event->position().x());
    } else {
        m_dragging = true;
        m_dragStart = event->position().toPoint();
        m_dragViewStart = m_time.viewStart;
        const auto [rank, index] = eventAt(event->position().toPoint());
        if (rank >= 0) {
            const auto& ev = m_result->eventsOf(static_cast<std::size_t>(rank))[static_cast<std::size_t>(index)];
            Q_EMIT opClicked(rank, static_cast<int>(ev.op));
        }
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_selecting) {
        m_selectionTo = m_time.mapXToTime(event->position().x());
        update();
    } else if (m_dragging) {
        const double dx = m_dragStart.x() - event->position().x();
        m_time.viewEnd = m_dragViewStart + m_time.span();
        m_time.viewStart = m_dragViewStart;
        m_time.panByPixels(dx);
        update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent*)
{
    if (m_selecting) {
        m_selecting = false;
        summarizeRange(std::min(m_selectionFrom, m_selectionTo), std::max(m_selectionFrom, m_selectionTo));
    }
    m_dragging = false;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*)
{
    m_selectionFrom = m_selectionTo = 0;
    fit();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_F:
        fit();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_time.zoomAround(m_time.plotLeft + m_time.plotWidth / 2, 1.5);
        break;
    case Qt::Key_Minus:
        m_time.zoomAround(m_time.plotLeft + m_time.plotWidth / 2, 1 / 1.5);
        break;
    case Qt::Key_Left:
        m_time.panByPixels(-m_time.plotWidth / 10);
        break;
    case Qt::Key_Right:
        m_time.panByPixels(m_time.plotWidth / 10);
        break;
    case Qt::Key_Down:
        m_firstRank = std::min(m_firstRank + 1, std::max(0, laneCount() - 1));
        break;
    case Qt::Key_Up:
        m_firstRank = std::max(m_firstRank - 1, 0);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    update();
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_result) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [rank, index] = eventAt(help->pos());
        if (rank < 0) {
            QToolTip::hideText();
            return true;
        }
        const core::OpEvent& ev = m_result->eventsOf(static_cast<std::size_t>(rank))[static_cast<std::size_t>(index)];
        const core::Op& op = m_workload->programOf(static_cast<std::size_t>(rank)).ops[ev.op];
        QString text = QStringLiteral("<b>%1</b><br>%2 on rank %3<br>start %4, duration %5")
                           .arg(QString::fromStdString(op.name).toHtmlEscaped(), kindLabel(op))
                           .arg(rank)
                           .arg(toQString(formatDuration(ev.start)), toQString(formatDuration(ev.end - ev.start)));
        if (ev.start > ev.ready)
            text += tr("<br>waited %1 for its peers").arg(toQString(formatDuration(ev.start - ev.ready)));
        if (op.isCommunication())
            text += tr("<br>%1 per rank").arg(toQString(formatBytes(static_cast<double>(op.commBytes))));
        else
            text += tr("<br>%1 FLOP, %2 of memory traffic")
                        .arg(toQString(formatBytes(static_cast<double>(op.flops))).chopped(1),
                             toQString(formatBytes(static_cast<double>(op.memoryBytes()))));
        if (!op.scope.empty())
            text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(op.scope).toHtmlEscaped());
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::summarizeRange(double from, double to)
{
    if (!m_result || to <= from)
        return;
    // Over every rank: time in [from, to] with the compute track busy, with communication running
    // while compute is idle, and neither.
    double compute = 0, comm = 0, total = 0;
    std::size_t ops = 0;
    for (std::size_t rank = 0; rank < m_result->ranks.size(); ++rank) {
        const auto& tracks = m_lanes->byTimeline[m_result->rankTimeline[rank]];
        std::vector<std::pair<double, double>> busy;
        for (const auto& s : tracks[0])
            if (s.end > from && s.start < to) {
                busy.emplace_back(std::max(s.start, from), std::min(s.end, to));
                ++ops;
            }
        double computeHere = 0;
        for (const auto& [a, b] : busy)
            computeHere += b - a;
        double commHere = 0;
        for (const auto& s : tracks[1])
            if (s.end > from && s.start < to) {
                ++ops;
                double a = std::max(s.start, from), b = std::min(s.end, to);
                double exposed = b - a;
                for (const auto& [c0, c1] : busy)
                    exposed -= std::max(0.0, std::min(b, c1) - std::max(a, c0));
                commHere += std::max(0.0, exposed);
            }
        compute += computeHere;
        comm += commHere;
        total += to - from;
    }
    const auto percent = [total](double v) { return total > 0 ? 100.0 * v / total : 0.0; };
    Q_EMIT rangeSummary(
        tr("%1 to %2 (%3): compute %4%, exposed communication %5%, idle %6%, %7 ops")
            .arg(toQString(formatDuration(from)), toQString(formatDuration(to)), toQString(formatDuration(to - from)))
            .arg(percent(compute), 0, 'f', 1)
            .arg(percent(comm), 0, 'f', 1)
            .arg(std::max(0.0, 100.0 - percent(compute) - percent(comm)), 0, 'f', 1)
            .arg(ops));
}

} // namespace flint::views
