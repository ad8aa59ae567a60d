// SPDX-License-Identifier: MIT
#include "views/timelineview.h"

#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
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
    /// EstimateResult::hostGapOps of the result shown (not counted busy in the summary lanes); the
    /// view holds that result while these lanes exist.
    const std::vector<std::vector<char>>* hostGaps = nullptr;
    /// Per timeline and track: the longest span, in seconds. A label needs a span (or a run of
    /// one microbatch) some pixels wide; zoomed out, this says no span of a lane can carry one
    /// without walking its thousands of spans every frame.
    std::vector<std::array<double, 2>> longest;

    /// Busy time as a prefix sum over kProfileBins equal bins of [0, span]: cumulative[i] is the busy
    /// time before bin i, in rank-bins (per rank, the union of a track's spans, so that overlapping
    /// communication streams count once). Lets a zoomed-out summary lane read any pixel column's busy
    /// ranks in O(1) instead of walking every event under it.
    struct BusyProfile {
        std::array<std::vector<float>, 2> cumulative;
    };
    static constexpr std::size_t kProfileBins = 16384;
    /// Profiles kept at most (about 128 KiB each): more than a screen of summary lanes.
    static constexpr std::size_t kMaxGroupProfiles = 256;
    double span = 0; ///< seconds covered by the profiles: the step time
    /// A group's profile by group index, built on first use (painting is single-threaded, on the GUI
    /// thread). Cleared when the groups change.
    mutable std::unordered_map<std::size_t, BusyProfile> groupProfiles;

    double binSeconds() const { return span > 0 ? span / static_cast<double>(kProfileBins) : 1.0; }

    const BusyProfile& groupProfileOf(std::size_t group, const std::vector<std::int32_t>& ranks,
                                      const std::vector<std::uint32_t>& rankTimeline) const
    {
        auto found = groupProfiles.find(group);
        if (found != groupProfiles.end())
            return found->second;
        if (groupProfiles.size() >= kMaxGroupProfiles)
            groupProfiles.clear();
        std::map<std::uint32_t, int> weights; // ranks sharing a timeline add it once, weighted
        for (std::int32_t r : ranks)
            ++weights[rankTimeline[static_cast<std::size_t>(r)]];
        const double bin = binSeconds();
        BusyProfile profile;
        // Busy rank-bins per bin from the union intervals' ends alone (O(events + bins), not O(bins
        // covered)): an end at x (in bins, weight +w for a start, -w for an end) adds w for every
        // whole bin after floor(x), and w * (1 - frac(x)) to bin floor(x) itself.
        std::vector<double> slope(kProfileBins + 2), partial(kProfileBins + 2);
        for (std::size_t track = 0; track < 2; ++track) {
            std::fill(slope.begin(), slope.end(), 0.0);
            std::fill(partial.begin(), partial.end(), 0.0);
            const auto addEnd = [&](double x, double w) {
                const double k = std::floor(x);
                const auto i = static_cast<std::size_t>(k);
                partial[i] += w * (1.0 - (x - k));
                slope[i + 1] += w;
            };
            for (const auto& [timeline, weight] : weights) {
                const auto addBusy = [&, w = static_cast<double>(weight)](double a, double b) {
                    const double x0 = std::clamp(a / bin, 0.0, static_cast<double>(kProfileBins));
                    const double x1 = std::clamp(b / bin, 0.0, static_cast<double>(kProfileBins));
                    if (x1 > x0) {
                        addEnd(x0, w);
                        addEnd(x1, -w);
                    }
                };
                // Spans are sorted by start: merge overlaps into their union as they come.
                double unionStart = 0;
                double unionEnd = -1;
                // Host gaps are the device waiting for its host: drawn (grey) in a lane, not busy here.
                const std::vector<char>* gaps =
                    hostGaps && timeline < hostGaps->size() && !(*hostGaps)[timeline].empty() ? &(*hostGaps)[timeline]
                                                                                              : nullptr;
                for (const Span& sp : byTimeline[timeline][track]) {
                    if (track == 0 && gaps && (*gaps)[sp.op])
                        continue;
                    if (sp.start > unionEnd) {
                        if (unionEnd > unionStart)
                            addBusy(unionStart, unionEnd);
                        unionStart = sp.start;
                        unionEnd = sp.end;
                    } else {
                        unionEnd = std::max(unionEnd, sp.end);
                    }
                }
                if (unionEnd > unionStart)
                    addBusy(unionStart, unionEnd);
            }
            auto& cumulative = profile.cumulative[track];
            cumulative.resize(kProfileBins + 1);
            double sum = 0;
            double running = 0;
            for (std::size_t i = 0; i < kProfileBins; ++i) {
                cumulative[i] = static_cast<float>(sum);
                running += slope[i];
                sum += running + partial[i];
            }
            cumulative[kProfileBins] = static_cast<float>(sum);
        }
        return groupProfiles.emplace(group, std::move(profile)).first->second;
    }
};

/// What one frame computed per timeline, so that ranks sharing a timeline cost one lane's work.
struct TimelineView::FrameCache {
    /// One pixel row per track (ARGB, transparent where idle) and the highlighted spans' boxes.
    struct Strip {
        std::array<QImage, 2> tracks;
        std::array<std::vector<std::pair<double, double>>, 2> highlighted; ///< x0, x1
        std::vector<SpanLabel> labels;
    };
    std::unordered_map<std::uint32_t, Strip> strips;
    /// Per pixel column, the busy share of one timeline's track, for summary lanes.
    std::unordered_map<std::uint32_t, std::array<std::vector<float>, 2>> busy;
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
    if (m_workload.get() != m_phasesOf) {
        // Worked out per program when its lanes are first painted (spanColor): a parallelism edit
        // brings a new workload of hundreds of thousands of ops, mostly in collapsed groups.
        m_phasesOf = m_workload.get();
        m_phases.assign(m_workload ? m_workload->programs.size() : 0, {});
        m_microbatches.assign(m_phases.size(), {});
        m_anyMicrobatch.assign(m_phases.size(), -1);
        m_colors.assign(m_phases.size(), {});
    }
    m_lanes = std::make_unique<Lanes>();
    m_firstRow = 0;
    m_highlightOp = -1;
    if (m_result) {
        m_lanes->span = m_result->stepTime;
        m_lanes->byTimeline.resize(m_result->timelines.size());
        m_lanes->hostGaps = &m_result->hostGapOps;
        m_lanes->longest.assign(m_result->timelines.size(), {0.0, 0.0});
        for (std::size_t t = 0; t < m_result->timelines.size(); ++t) {
            const auto& events = m_result->timelines[t];
            std::size_t compute = 0;
            for (const core::OpEvent& ev : events)
                compute += ev.stream == 0 ? 1 : 0;
            auto& tracks = m_lanes->byTimeline[t];
            tracks[0].reserve(compute);
            tracks[1].reserve(events.size() - compute);
            for (std::uint32_t e = 0; e < events.size(); ++e) {
                const core::OpEvent& ev = events[e];
                const int track = ev.stream == 0 ? 0 : 1;
                tracks[static_cast<std::size_t>(track)].push_back({ev.start, ev.end, ev.op, e});
                double& longest = m_lanes->longest[t][static_cast<std::size_t>(track)];
                longest = std::max(longest, ev.end - ev.start);
            }
            // The result's events are in order of start already; so then are both tracks.
            const auto byStart = [](const Lanes::Span& a, const Lanes::Span& b) { return a.start < b.start; };
            for (auto& track : tracks)
                if (!std::is_sorted(track.begin(), track.end(), byStart))
                    std::sort(track.begin(), track.end(), byStart);
        }
        m_time.totalTime = std::max(m_result->stepTime > 0 ? m_result->stepTime : 1e-6, m_extent);
    }
    m_marked.assign(static_cast<std::size_t>(laneCount()), false);
    rebuildGroups(nullptr);
    fit();
}

bool TimelineView::showsPhases() const
{
    if (!m_workload)
        return false;
    for (const auto& program : m_workload->programs)
        for (const core::Op& op : program->ops)
            if (phaseOf(op) != StepPhase::Other)
                return true;
    return false;
}

namespace {

/// `of`(op) for every op of `program`, worked out into `cache` on first use.
template <typename T, typename Of>
const std::vector<T>& perOp(std::vector<T>& cache, const core::Program& program, Of of)
{
    if (cache.empty()) {
        cache.reserve(program.ops.size());
        for (const core::Op& op : program.ops)
            cache.push_back(of(op));
    }
    return cache;
}

} // namespace

const std::vector<StepPhase>& TimelineView::phasesOf(std::size_t program) const
{
    return perOp(m_phases[program], *m_workload->programs[program], phaseOf);
}

const std::vector<std::int32_t>& TimelineView::microbatchesOf(std::size_t program) const
{
    return perOp(m_microbatches[program], *m_workload->programs[program], microbatchOf);
}

QColor TimelineView::spanColor(int rank, int opIndex) const
{
    return QColor::fromRgba(spanRgba(rank, opIndex));
}

QRgb TimelineView::spanRgba(int rank, int opIndex) const
{
    const std::size_t program = m_workload->ranks[static_cast<std::size_t>(rank)].program;
    std::vector<QRgb>& colors = m_colors[program];
    if (colors.empty()) {
        // Per op once, not per span and frame: reading an op to colour it is a cache miss.
        const std::vector<StepPhase>& phases = phasesOf(program);
        const auto& ops = m_workload->programs[program]->ops;
        colors.reserve(ops.size());
        for (std::size_t i = 0; i < ops.size(); ++i)
            colors.push_back((phases[i] == StepPhase::Other ? colorOf(ops[i]) : phaseColor(phases[i])).rgba());
    }
    return colors[static_cast<std::size_t>(opIndex)];
}

QFont TimelineView::labelFont() const
{
    QFont small = font();
    small.setPixelSize(kTrackHeight - 1);
    return small;
}

std::vector<TimelineView::SpanLabel> TimelineView::labelsOf(int rank) const
{
    std::vector<SpanLabel> labels;
    if (!m_result || !m_workload || !m_lanes || rank < 0 || rank >= laneCount() || m_time.plotWidth <= 0)
        return labels;
    const std::size_t programIndex = m_workload->ranks[static_cast<std::size_t>(rank)].program;
    const core::Program& program = *m_workload->programs[programIndex];
    const std::vector<StepPhase>& phases = phasesOf(programIndex);
    const std::vector<std::int32_t>& microbatches = microbatchesOf(programIndex);
    const QFontMetricsF metrics(labelFont());
    const double padding = 4;
    const auto fits = [&](const QString& text, double width) {
        return metrics.horizontalAdvance(text) + padding <= width;
    };
    const double left = m_time.plotLeft;
    const double right = m_time.plotLeft + m_time.plotWidth;
    const auto timeline = m_result->rankTimeline[static_cast<std::size_t>(rank)];
    const double pixelsPerSecond = m_time.span() > 0 ? m_time.plotWidth / m_time.span() : 0.0;
    signed char& known = m_anyMicrobatch[programIndex];
    if (known < 0)
        known = std::any_of(microbatches.begin(), microbatches.end(), [](std::int32_t m) { return m >= 0; }) ? 1 : 0;
    const bool hasMicrobatches = known == 1;
    for (int track = 0; track < 2; ++track) {
        // No span wide enough for a name, and no microbatch runs to number: nothing to walk.
        if (m_lanes->longest[timeline][static_cast<std::size_t>(track)] * pixelsPerSecond < 3 * padding &&
            (track != 0 || !hasMicrobatches))
            continue;
        // Consecutive compute spans of one microbatch and pass form a run; a run none of whose ops
        // is named is labelled with its microbatch, so zooming in turns "3" into the ops of pass 3.
        struct Run {
            double x0;
            double x1;
            std::int32_t microbatch;
            StepPhase phase;
            bool named;
        };
        std::vector<Run> runs;
        const auto& spans = m_lanes->byTimeline[timeline][static_cast<std::size_t>(track)];
        auto it = std::lower_bound(spans.begin(), spans.end(), m_time.viewStart - m_time.span(),
                                   [](const Lanes::Span& sp, double time) { return sp.start < time; });
        for (; it != spans.end() && it->start <= m_time.viewEnd; ++it) {
            if (it->end < m_time.viewStart)
                continue;
            const double x0 = std::max(m_time.mapTimeToX(it->start), left);
            const double x1 = std::min(m_time.mapTimeToX(it->end), right);
            if (x1 < x0)
                continue;
            const core::Op& op = program.ops[it->op];
            bool named = false;
            if (x1 - x0 >= 3 * padding && !op.name.empty()) {
                const QString name =
                    metrics.elidedText(QString::fromStdString(op.name), Qt::ElideRight, x1 - x0 - padding);
                // An elided name keeps at least two characters and the ellipsis, or is not shown.
                if (name.size() >= 3) {
                    labels.push_back({x0, x1, track, name, spanColor(rank, static_cast<int>(it->op))});
                    named = true;
                }
            }
            if (track != 0)
                continue;
            const std::int32_t microbatch = microbatches[it->op];
            const StepPhase phase = phases[it->op];
            if (runs.empty() || runs.back().microbatch != microbatch || runs.back().phase != phase)
                runs.push_back({x0, x1, microbatch, phase, named});
            runs.back().x1 = std::max(runs.back().x1, x1);
            runs.back().named = runs.back().named || named;
        }
        for (const Run& run : runs) {
            if (run.microbatch < 0 || run.named ||
                (run.phase != StepPhase::Forward && run.phase != StepPhase::Backward))
                continue;
            const QString number = QString::number(run.microbatch);
            const QString longer =
                run.phase == StepPhase::Forward ? tr("forward %1").arg(number) : tr("backward %1").arg(number);
            const double width = run.x1 - run.x0;
            if (fits(longer, width))
                labels.push_back({run.x0, run.x1, 0, longer, phaseColor(run.phase)});
            else if (fits(number, width))
                labels.push_back({run.x0, run.x1, 0, number, phaseColor(run.phase)});
        }
    }
    return labels;
}

void TimelineView::paintLabels(QPainter& painter, const std::vector<SpanLabel>& labels, int top) const
{
    if (labels.empty())
        return;
    painter.save();
    painter.setFont(labelFont());
    for (const SpanLabel& label : labels) {
        const int y = top + 1 + label.track * (kTrackHeight + 2);
        painter.setPen(qGray(label.background.rgb()) < 140 ? Qt::white : Qt::black);
        painter.drawText(QRectF(label.x0, y, label.x1 - label.x0, kTrackHeight), Qt::AlignCenter, label.text);
    }
    painter.restore();
}

std::vector<TimelineView::TransferArrow> TimelineView::transferArrows() const
{
    std::vector<TransferArrow> arrows;
    if (!m_result || !m_workload || !m_lanes)
        return arrows;
    const auto commTrackMiddle = [this](int row) { return rowTop(row) + kTrackHeight + 2 + kTrackHeight / 2.0 + 1; };
    const auto onScreen = [this](int row, int rank) {
        return row >= m_firstRow && row < rowCount() && m_rows[static_cast<std::size_t>(row)].rank == rank &&
               rowTop(row) <= height();
    };
    // Sends and receives of one transfer start together (when both ranks have reached it).
    const double tolerance = 1e-9 * std::max(m_result->stepTime, 1e-9);
    for (int row = m_firstRow; row < rowCount() && rowTop(row) <= height(); ++row) {
        const int rank = m_rows[static_cast<std::size_t>(row)].rank;
        if (rank < 0)
            continue;
        const core::Program& program = m_workload->programOf(static_cast<std::size_t>(rank));
        const auto& spans = m_lanes->byTimeline[m_result->rankTimeline[static_cast<std::size_t>(rank)]][1];
        auto it = std::lower_bound(spans.begin(), spans.end(), m_time.viewStart - m_time.span(),
                                   [](const Lanes::Span& sp, double time) { return sp.start < time; });
        for (; it != spans.end() && it->start <= m_time.viewEnd; ++it) {
            const core::Op& send = program.ops[it->op];
            if (send.kind != core::OpKind::Send || it->end < m_time.viewStart)
                continue;
            const std::int32_t peer = m_workload->peerOf(static_cast<std::size_t>(rank), send);
            const int peerRow = rowOfRank(peer);
            if (peer < 0 || peer == rank || !onScreen(peerRow, peer))
                continue;
            const core::Program& peerProgram = m_workload->programOf(static_cast<std::size_t>(peer));
            const auto& peerSpans = m_lanes->byTimeline[m_result->rankTimeline[static_cast<std::size_t>(peer)]][1];
            auto recv = std::lower_bound(peerSpans.begin(), peerSpans.end(), it->start - tolerance,
                                         [](const Lanes::Span& sp, double time) { return sp.start < time; });
            for (; recv != peerSpans.end() && recv->start <= it->start + tolerance; ++recv) {
                const core::Op& op = peerProgram.ops[recv->op];
                if (op.kind == core::OpKind::Recv && op.commTag == send.commTag &&
                    m_workload->peerOf(static_cast<std::size_t>(peer), op) == rank)
                    break;
            }
            if (recv == peerSpans.end() || recv->start > it->start + tolerance)
                continue;
            if (arrows.size() == kMaxTransferArrows)
                return {};
            arrows.push_back({rank, peer, QPointF(m_time.mapTimeToX(it->start), commTrackMiddle(row)),
                              QPointF(m_time.mapTimeToX(recv->end), commTrackMiddle(peerRow))});
        }
    }
    return arrows;
}

void TimelineView::paintTransfers(QPainter& painter) const
{
    const std::vector<TransferArrow> arrows = transferArrows();
    if (arrows.empty())
        return;
    QColor ink = colorOf(core::OpKind::Send);
    ink = ink.darker(150);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(ink, 1.2));
    for (const TransferArrow& arrow : arrows) {
        painter.drawLine(arrow.tail, arrow.head);
        const double angle = std::atan2(arrow.head.y() - arrow.tail.y(), arrow.head.x() - arrow.tail.x());
        for (double side : {-0.45, 0.45})
            painter.drawLine(arrow.head, arrow.head - QPointF(std::cos(angle + side) * 6, std::sin(angle + side) * 6));
    }
    painter.restore();
}

void TimelineView::setGrouping(const core::RankPartition* partition)
{
    rebuildGroups(partition);
    update();
}

void TimelineView::rebuildGroups(const core::RankPartition* partition)
{
    m_groups.clear();
    if (m_lanes)
        m_lanes->groupProfiles.clear();
    const int ranks = laneCount();
    if (partition && ranks > 0) {
        std::size_t covered = 0;
        for (const auto& part : partition->parts)
            covered += part.size();
        if (covered != static_cast<std::size_t>(ranks))
            partition = nullptr; // from another workload
    }
    if (partition) {
        const bool program = partition->basis == core::RankPartition::Basis::Program;
        // Programs that send to each other are pipeline stages; others (roles, recorded ranks that
        // other ranks mirror) are just programs.
        const bool stages = program && partition->stages;
        for (std::size_t i = 0; i < partition->parts.size(); ++i)
            m_groups.push_back({stages    ? tr("stage %1").arg(i)
                                : program ? tr("program %1").arg(i)
                                : partition->axes.empty()
                                    ? tr("group %1").arg(i)
                                    // "TP 10": the axis names the group; "TP group 10" did not fit
                                    : QStringLiteral("%1 %2").arg(QString::fromStdString(partition->axes)).arg(i),
                                partition->parts[i]});
    } else {
        for (int first = 0; first < ranks; first += m_ranksPerNode) {
            Group g{tr("node %1").arg(first / m_ranksPerNode), {}};
            for (int r = first; r < std::min(ranks, first + m_ranksPerNode); ++r)
                g.ranks.push_back(r);
            m_groups.push_back(std::move(g));
        }
    }
    m_collapsed.assign(m_groups.size(), ranks > 64);
    rebuildRows();
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
    windowMoved();
    update();
}

void TimelineView::setTimeExtent(double seconds)
{
    m_extent = std::max(0.0, seconds);
    if (!m_result)
        return;
    const double step = m_result->stepTime > 0 ? m_result->stepTime : 1e-6;
    m_time.totalTime = std::max(step, m_extent);
    m_time.showRange(m_time.viewStart, std::min(m_time.viewEnd, m_time.totalTime), 0);
    update();
}

void TimelineView::setTimeWindow(double from, double to)
{
    // Within a billionth of the window is the same window: rounding in showRange must not make two
    // views that follow each other exchange windows for ever.
    const double tolerance = 1e-9 * std::max(m_time.span(), 1e-12);
    if (std::fabs(from - m_time.viewStart) <= tolerance && std::fabs(to - m_time.viewEnd) <= tolerance)
        return;
    m_time.plotLeft = kLabelWidth;
    m_time.plotWidth = std::max(10, width() - kLabelWidth - 8);
    m_time.showRange(from, to, 0);
    m_reportedWindow = {m_time.viewStart, m_time.viewEnd}; // following another view: not reported back
    update();
}

void TimelineView::windowMoved()
{
    if (std::pair(m_time.viewStart, m_time.viewEnd) == m_reportedWindow)
        return;
    m_reportedWindow = {m_time.viewStart, m_time.viewEnd};
    Q_EMIT timeWindowChanged(m_time.viewStart, m_time.viewEnd);
}

void TimelineView::showTimeRange(double from, double to)
{
    m_time.plotLeft = kLabelWidth;
    m_time.plotWidth = std::max(10, width() - kLabelWidth - 8);
    m_time.showRange(from, to, 0);
    windowMoved();
    update();
}

void TimelineView::highlightOp(int opIndex, int rank)
{
    m_highlightOp = opIndex;
    m_highlightRank = rank;
    std::fill(m_marked.begin(), m_marked.end(), false);
    if (m_workload && opIndex >= 0 && rank >= 0 && rank < laneCount()) {
        const core::Program& program = m_workload->programOf(static_cast<std::size_t>(rank));
        if (static_cast<std::size_t>(opIndex) < program.ops.size() &&
            program.ops[static_cast<std::size_t>(opIndex)].kind == core::OpKind::Collective)
            for (std::int32_t member :
                 m_workload->membersOf(static_cast<std::size_t>(rank), program.ops[static_cast<std::size_t>(opIndex)]))
                if (member >= 0 && member < laneCount())
                    m_marked[static_cast<std::size_t>(member)] = true;
    }
    update();
}

void TimelineView::revealOp(int opIndex, int rank)
{
    highlightOp(opIndex, rank);
    if (!m_result || rank < 0 || rank >= laneCount())
        return;
    const int row = rowOfRank(rank);
    if (row >= 0 && m_rows[static_cast<std::size_t>(row)].rank < 0)
        setGroupCollapsed(m_rows[static_cast<std::size_t>(row)].group, false);
    const int lane = rowOfRank(rank);
    const int visibleRows = std::max(1, (height() - kRulerHeight) / kLaneHeight);
    if (lane < m_firstRow || lane >= m_firstRow + visibleRows)
        m_firstRow = std::max(0, lane - visibleRows / 2);
    for (const core::OpEvent& ev : m_result->eventsOf(static_cast<std::size_t>(rank)))
        if (static_cast<int>(ev.op) == opIndex) {
            // From the rank's arrival, so that a wait for peers shows too.
            m_time.showRange(std::min(ev.ready, ev.start), ev.end, 1.0);
            windowMoved();
            break;
        }
    update();
}

bool TimelineView::isGroupCollapsed(int group) const
{
    return group >= 0 && group < static_cast<int>(m_collapsed.size()) && m_collapsed[static_cast<std::size_t>(group)];
}

void TimelineView::setGroupCollapsed(int group, bool collapsed)
{
    if (group < 0 || group >= static_cast<int>(m_collapsed.size()))
        return;
    m_collapsed[static_cast<std::size_t>(group)] = collapsed;
    rebuildRows();
    update();
}

int TimelineView::rankOfRow(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].rank : -1;
}

void TimelineView::rebuildRows()
{
    m_rows.clear();
    m_rowOfRank.assign(static_cast<std::size_t>(laneCount()), -1);
    for (int g = 0; g < groupCount(); ++g) {
        const Group& group = m_groups[static_cast<std::size_t>(g)];
        if (isGroupCollapsed(g)) {
            for (std::int32_t r : group.ranks)
                m_rowOfRank[static_cast<std::size_t>(r)] = rowCount();
            m_rows.push_back({g, -1, true, true});
            continue;
        }
        for (std::size_t i = 0; i < group.ranks.size(); ++i) {
            m_rowOfRank[static_cast<std::size_t>(group.ranks[i])] = rowCount();
            m_rows.push_back({g, group.ranks[i], i == 0, false});
        }
    }
    m_firstRow = std::clamp(m_firstRow, 0, std::max(0, rowCount() - 1));
}

int TimelineView::rowTop(int row) const
{
    return kRulerHeight + (row - m_firstRow) * kLaneHeight;
}

int TimelineView::rowAtY(int y) const
{
    if (y < kRulerHeight)
        return -1;
    const int row = m_firstRow + (y - kRulerHeight) / kLaneHeight;
    return row < rowCount() ? row : -1;
}

int TimelineView::rowOfRank(int rank) const
{
    return rank >= 0 && rank < static_cast<int>(m_rowOfRank.size()) ? m_rowOfRank[static_cast<std::size_t>(rank)] : -1;
}

int TimelineView::rankAtY(int y) const
{
    return rankOfRow(rowAtY(y));
}

std::pair<int, int> TimelineView::eventAt(const QPoint& pos) const
{
    const int row = rowAtY(pos.y());
    if (row < 0 || !m_lanes)
        return {-1, -1};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    const double t = m_time.mapXToTime(pos.x());
    const double slack = m_time.span() / m_time.plotWidth * 2; // two pixels
    const auto spanAt = [&](int rank, int track) -> std::pair<int, int> {
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
    };
    if (r.summary) {
        // A collapsed group's summary lane: what its first rank runs there, compute first.
        const auto& ranks = m_groups[static_cast<std::size_t>(r.group)].ranks;
        if (ranks.empty())
            return {-1, -1};
        const auto compute = spanAt(ranks.front(), 0);
        return compute.first >= 0 ? compute : spanAt(ranks.front(), 1);
    }
    const int track = pos.y() - rowTop(row) < kTrackHeight + 2 ? 0 : 1;
    return spanAt(r.rank, track);
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
    // A tick every 80 pixels at most: a label ("4.22 s", "8 s") and room between them.
    const int maxTicks = std::max(2, static_cast<int>(m_time.plotWidth / 80));
    const std::vector<double> ticks = m_time.ticks(maxTicks);
    const double step = m_time.tickStep(maxTicks);
    const double largest = ticks.empty() ? 0.0 : std::max(std::fabs(ticks.front()), std::fabs(ticks.back()));
    for (double tick : ticks) {
        const double x = m_time.mapTimeToX(tick);
        p.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        // Right of its tick, or left of it where the label would run past the edge (the last tick).
        const QString label = toQString(formatTick(tick, step, largest));
        const double labelWidth = p.fontMetrics().horizontalAdvance(label);
        const double left = x + 3 + labelWidth <= width() ? x + 3 : x - 3 - labelWidth;
        p.drawText(QPointF(left, kRulerHeight - 8), label);
    }
    p.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
    FrameCache cache;
    const QColor marked = palette().color(QPalette::Highlight);
    for (int row = m_firstRow; row < rowCount(); ++row) {
        const int top = rowTop(row);
        if (top > height())
            break;
        const Row& current = m_rows[static_cast<std::size_t>(row)];
        const Group& group = m_groups[static_cast<std::size_t>(current.group)];
        if ((current.first || current.summary) && row != m_firstRow)
            p.fillRect(QRect(0, top - 1, width(), 2), palette().mid());
        p.setPen(text);
        if (current.summary) {
            p.drawText(QRect(4, top, kLabelWidth - 8, kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("▸ ") + group.label);
            paintSummary(p, cache, group, top);
            continue;
        }
        const int rank = current.rank;
        if (m_marked[static_cast<std::size_t>(rank)])
            p.setPen(marked);
        p.drawText(QRect(4, top, kLabelWidth - 8, kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   (current.first && group.ranks.size() > 1 ? QStringLiteral("▾ ") : QStringLiteral("   ")) +
                       tr("rank %1").arg(rank));
        paintLane(p, cache, rank, top);
    }
    paintTransfers(p);
    paintFlow(p);
    if (m_selecting || m_selectionTo > m_selectionFrom) {
        const double x0 = m_time.mapTimeToX(std::min(m_selectionFrom, m_selectionTo));
        const double x1 = m_time.mapTimeToX(std::max(m_selectionFrom, m_selectionTo));
        QColor shade = palette().color(QPalette::Highlight);
        shade.setAlpha(50);
        p.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height()), shade);
    }
}

void TimelineView::paintLane(QPainter& painter, FrameCache& cache, int rank, int top) const
{
    const auto timeline = m_result->rankTimeline[static_cast<std::size_t>(rank)];
    const int columns = static_cast<int>(m_time.plotWidth);
    if (columns <= 0)
        return;
    auto found = cache.strips.find(timeline);
    if (found == cache.strips.end()) {
        // One pixel row per track: each span colours the columns it covers; a span narrower than a
        // pixel colours its column (the last one drawn wins, as level of detail).
        FrameCache::Strip strip;
        for (int track = 0; track < 2; ++track) {
            QImage line(columns, 1, QImage::Format_ARGB32_Premultiplied);
            line.fill(Qt::transparent);
            auto* pixels = reinterpret_cast<QRgb*>(line.scanLine(0));
            const auto& spans = m_lanes->byTimeline[timeline][static_cast<std::size_t>(track)];
            // Spans that end after the window starts; the list is sorted by start.
            auto it = std::lower_bound(spans.begin(), spans.end(), m_time.viewStart - m_time.span(),
                                       [](const Lanes::Span& s, double time) { return s.start < time; });
            std::uint32_t lastOp = ~0u;
            QRgb lastColor = 0;
            for (; it != spans.end() && it->start <= m_time.viewEnd; ++it) {
                if (it->end < m_time.viewStart)
                    continue;
                const double x0 = std::max(m_time.mapTimeToX(it->start), m_time.plotLeft) - m_time.plotLeft;
                const double x1 =
                    std::min(m_time.mapTimeToX(it->end), m_time.plotLeft + m_time.plotWidth) - m_time.plotLeft;
                const int c0 = std::clamp(static_cast<int>(x0), 0, columns - 1);
                const int c1 = std::clamp(static_cast<int>(std::ceil(x1)) - 1, c0, columns - 1);
                if (it->op != lastOp) {
                    lastOp = it->op;
                    lastColor = spanRgba(rank, static_cast<int>(it->op));
                }
                std::fill(pixels + c0, pixels + c1 + 1, lastColor);
                if (static_cast<int>(it->op) == m_highlightOp)
                    strip.highlighted[static_cast<std::size_t>(track)].emplace_back(x0, std::max(x1, x0 + 1));
            }
            strip.tracks[static_cast<std::size_t>(track)] = std::move(line);
        }
        strip.labels = labelsOf(rank);
        found = cache.strips.emplace(timeline, std::move(strip)).first;
    }
    const FrameCache::Strip& strip = found->second;
    for (int track = 0; track < 2; ++track) {
        const int y = top + 1 + track * (kTrackHeight + 2);
        painter.drawImage(QRectF(m_time.plotLeft, y, columns, kTrackHeight),
                          strip.tracks[static_cast<std::size_t>(track)]);
        if (!strip.highlighted[static_cast<std::size_t>(track)].empty()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            for (const auto& [x0, x1] : strip.highlighted[static_cast<std::size_t>(track)])
                painter.drawRect(QRectF(m_time.plotLeft + x0, y, x1 - x0, kTrackHeight).adjusted(-1, -1, 1, 1));
        }
    }
    paintLabels(painter, strip.labels, top);
}

void TimelineView::paintSummary(QPainter& painter, FrameCache& cache, const Group& group, int top) const
{
    // Per pixel column: the share of the group's ranks whose compute (top) or communication (bottom)
    // track is busy, in ranks.
    const int columns = static_cast<int>(m_time.plotWidth);
    if (columns <= 0)
        return;
    const double secondsPerPixel = m_time.span() / m_time.plotWidth;
    std::array<std::vector<double>, 2> share;
    const double binSeconds = m_lanes->binSeconds();
    if (secondsPerPixel >= binSeconds) {
        // Zoomed out: a pixel covers at least one profile bin. The group's profile (the sum of its
        // ranks' prefix sums) gives each column's busy ranks from its two edges, so a frame costs two
        // lookups per column whatever the group's size and event count.
        const Lanes::BusyProfile& profile = m_lanes->groupProfileOf(static_cast<std::size_t>(&group - m_groups.data()),
                                                                    group.ranks, m_result->rankTimeline);
        const double firstBin = m_time.viewStart / binSeconds; // column edges, in bins
        const double binsPerPixel = secondsPerPixel / binSeconds;
        const double pixelsPerBin = 1.0 / binsPerPixel;
        const auto bins = static_cast<double>(Lanes::kProfileBins);
        for (std::size_t track = 0; track < 2; ++track) {
            const float* cumulative = profile.cumulative[track].data();
            const auto at = [cumulative, bins](double x) {
                x = std::clamp(x, 0.0, bins);
                const auto i = std::min(static_cast<std::size_t>(x), Lanes::kProfileBins - 1);
                return static_cast<double>(cumulative[i]) +
                       static_cast<double>(cumulative[i + 1] - cumulative[i]) * (x - static_cast<double>(i));
            };
            share[track].resize(static_cast<std::size_t>(columns));
            double left = at(firstBin);
            for (int c = 0; c < columns; ++c) {
                const double right = at(firstBin + (c + 1) * binsPerPixel);
                share[track][static_cast<std::size_t>(c)] = (right - left) * pixelsPerBin;
                left = right;
            }
        }
    } else {
        // Zoomed in: few events per timeline are visible; walk them. Ranks that share a timeline
        // count once with their weight, and each timeline's columns are computed once per frame.
        std::map<std::uint32_t, int> weights;
        for (std::int32_t r : group.ranks)
            ++weights[m_result->rankTimeline[static_cast<std::size_t>(r)]];
        const auto busyOf = [&](std::uint32_t timeline) -> const std::array<std::vector<float>, 2>& {
            auto found = cache.busy.find(timeline);
            if (found != cache.busy.end())
                return found->second;
            std::array<std::vector<float>, 2> busy;
            for (std::size_t track = 0; track < 2; ++track) {
                auto& column = busy[track];
                column.assign(static_cast<std::size_t>(columns), 0.0f);
                const auto& spans = m_lanes->byTimeline[timeline][track];
                auto it = std::lower_bound(spans.begin(), spans.end(), m_time.viewStart - m_time.span(),
                                           [](const Lanes::Span& sp, double time) { return sp.start < time; });
                for (; it != spans.end() && it->start <= m_time.viewEnd; ++it) {
                    const double a = std::max(it->start, m_time.viewStart);
                    const double b = std::min(it->end, m_time.viewEnd);
                    if (b <= a)
                        continue;
                    const int c0 =
                        std::clamp(static_cast<int>((a - m_time.viewStart) / secondsPerPixel), 0, columns - 1);
                    const int c1 =
                        std::clamp(static_cast<int>((b - m_time.viewStart) / secondsPerPixel), 0, columns - 1);
                    for (int c = c0; c <= c1; ++c) {
                        const double cellStart = m_time.viewStart + c * secondsPerPixel;
                        const double overlap = std::min(b, cellStart + secondsPerPixel) - std::max(a, cellStart);
                        column[static_cast<std::size_t>(c)] +=
                            static_cast<float>(std::max(0.0, overlap) / secondsPerPixel);
                    }
                }
            }
            return cache.busy.emplace(timeline, std::move(busy)).first->second;
        };
        for (std::size_t track = 0; track < 2; ++track) {
            share[track].assign(static_cast<std::size_t>(columns), 0.0);
            for (const auto& [timeline, weight] : weights) {
                const auto& column = busyOf(timeline)[track];
                for (std::size_t c = 0; c < share[track].size(); ++c)
                    share[track][c] += weight * static_cast<double>(column[c]);
            }
        }
    }
    for (std::size_t track = 0; track < 2; ++track) {
        // The busy share in 256 steps, each a premultiplied shade: no colour arithmetic per pixel.
        std::array<QRgb, 256> shades;
        const QColor base = track == 0 ? colorOf(core::OpKind::Compute) : colorOf(core::OpKind::Collective);
        for (std::size_t level = 0; level < shades.size(); ++level) {
            QColor shade = base;
            shade.setAlphaF(level == 0 ? 0.0f : static_cast<float>(0.15 + 0.85 * static_cast<double>(level) / 255));
            shades[level] = qPremultiply(shade.rgba());
        }
        QImage line(columns, 1, QImage::Format_ARGB32_Premultiplied);
        auto* pixels = reinterpret_cast<QRgb*>(line.scanLine(0));
        const double perRank = 255.0 / static_cast<double>(group.ranks.size());
        for (int c = 0; c < columns; ++c) {
            // A sliver of busy time still shows (ceil); the share never exceeds all ranks.
            const double level =
                std::clamp(std::ceil(share[track][static_cast<std::size_t>(c)] * perRank - 1e-6), 0.0, 255.0);
            pixels[c] = shades[static_cast<std::size_t>(level)];
        }
        const int y = top + 1 + static_cast<int>(track) * (kTrackHeight + 2);
        painter.drawImage(QRectF(m_time.plotLeft, y, columns, kTrackHeight), line);
    }
}

void TimelineView::paintFlow(QPainter& painter) const
{
    // Arrows from the highlighted collective's span on one member to the next member's, in group
    // order, for the members whose lanes are on screen.
    if (m_highlightOp < 0 || !m_workload || m_highlightRank < 0 || m_highlightRank >= laneCount())
        return;
    const core::Program& program = m_workload->programOf(static_cast<std::size_t>(m_highlightRank));
    if (static_cast<std::size_t>(m_highlightOp) >= program.ops.size())
        return;
    const core::Op& op = program.ops[static_cast<std::size_t>(m_highlightOp)];
    if (op.kind != core::OpKind::Collective)
        return;
    std::vector<QPointF> points;
    for (std::int32_t member : m_workload->membersOf(static_cast<std::size_t>(m_highlightRank), op)) {
        const int row = rowOfRank(member);
        if (row < m_firstRow || m_rows[static_cast<std::size_t>(row)].rank < 0 || rowTop(row) > height())
            continue;
        for (const core::OpEvent& ev : m_result->eventsOf(static_cast<std::size_t>(member)))
            if (static_cast<int>(ev.op) == m_highlightOp) {
                points.emplace_back(m_time.mapTimeToX(ev.start), rowTop(row) + kTrackHeight + 2 + kTrackHeight / 2.0);
                break;
            }
    }
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    for (std::size_t i = 1; i < points.size(); ++i) {
        const QPointF from = points[i - 1];
        const QPointF to = points[i];
        painter.drawLine(from, to);
        const QPointF tip = to;
        const double angle = std::atan2(to.y() - from.y(), to.x() - from.x());
        for (double side : {-0.45, 0.45})
            painter.drawLine(tip, tip - QPointF(std::cos(angle + side) * 7, std::sin(angle + side) * 7));
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
        if (event->modifiers() & Qt::ControlModifier || rowCount() * kLaneHeight < height() - kRulerHeight) {
            m_time.zoomAround(event->position().x(), std::pow(1.25, steps));
        } else {
            m_firstRow = std::clamp(m_firstRow - static_cast<int>(steps * 3), 0, std::max(0, rowCount() - 1));
        }
    } else {
        m_time.panByPixels(-steps * 60);
    }
    windowMoved();
    update();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_selecting = true;
        m_selectionFrom = m_selectionTo = m_time.mapXToTime(event->position().x());
    } else if (event->position().x() < kLabelWidth) {
        // The label column: collapse or expand the group of the row.
        const int row = rowAtY(static_cast<int>(event->position().y()));
        if (row >= 0) {
            const Row& r = m_rows[static_cast<std::size_t>(row)];
            if (r.summary || r.first)
                setGroupCollapsed(r.group, !r.summary);
        }
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
        windowMoved();
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
        m_firstRow = std::min(m_firstRow + 1, std::max(0, rowCount() - 1));
        break;
    case Qt::Key_Up:
        m_firstRow = std::max(m_firstRow - 1, 0);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    windowMoved();
    update();
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_result) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [rank, index] = eventAt(help->pos());
        if (rank < 0) {
            const int row = rowAtY(help->pos().y());
            if (row >= 0 && m_rows[static_cast<std::size_t>(row)].summary) {
                const Group& g = m_groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)].group)];
                QStringList ranks;
                for (std::size_t i = 0; i < std::min<std::size_t>(g.ranks.size(), 16); ++i)
                    ranks << QString::number(g.ranks[i]);
                if (g.ranks.size() > 16)
                    ranks << QStringLiteral("…");
                QToolTip::showText(help->globalPos(),
                                   tr("%1: %n rank(s) (%2), collapsed. Shade: share of its ranks computing (top) "
                                      "and communicating (bottom). Click the label to expand.",
                                      nullptr, static_cast<int>(g.ranks.size()))
                                       .arg(g.label, ranks.join(QStringLiteral(", "))),
                                   this);
            } else {
                QToolTip::hideText();
            }
            return true;
        }
        const core::OpEvent& ev = m_result->eventsOf(static_cast<std::size_t>(rank))[static_cast<std::size_t>(index)];
        const core::Op& op = m_workload->programOf(static_cast<std::size_t>(rank)).ops[ev.op];
        QString text = tr("<b>%1</b><br>%2 on rank %3<br>start %4, duration %5")
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
    // while compute is idle, and neither. Ranks that share a timeline are measured once.
    std::vector<std::size_t> ranksPerTimeline(m_lanes->byTimeline.size(), 0);
    for (std::uint32_t t : m_result->rankTimeline)
        ++ranksPerTimeline[t];
    double compute = 0, comm = 0, total = 0;
    std::size_t ops = 0;
    for (std::size_t timeline = 0; timeline < ranksPerTimeline.size(); ++timeline) {
        const std::size_t weight = ranksPerTimeline[timeline];
        if (weight == 0)
            continue;
        const auto& tracks = m_lanes->byTimeline[timeline];
        std::size_t opsHere = 0;
        std::vector<std::pair<double, double>> busy;
        for (const auto& s : tracks[0])
            if (s.end > from && s.start < to) {
                busy.emplace_back(std::max(s.start, from), std::min(s.end, to));
                ++opsHere;
            }
        double computeHere = 0;
        for (const auto& [a, b] : busy)
            computeHere += b - a;
        double commHere = 0;
        for (const auto& s : tracks[1])
            if (s.end > from && s.start < to) {
                ++opsHere;
                double a = std::max(s.start, from), b = std::min(s.end, to);
                double exposed = b - a;
                for (const auto& [c0, c1] : busy)
                    exposed -= std::max(0.0, std::min(b, c1) - std::max(a, c0));
                commHere += std::max(0.0, exposed);
            }
        compute += computeHere * static_cast<double>(weight);
        comm += commHere * static_cast<double>(weight);
        total += (to - from) * static_cast<double>(weight);
        ops += opsHere * weight;
    }
    const auto percent = [total](double v) { return total > 0 ? 100.0 * v / total : 0.0; };
    Q_EMIT rangeSummary(
        tr("%1 to %2 (%3): compute %4%, exposed communication %5%, idle %6%, %7 ops")
            .arg(toQString(formatDuration(from)), toQString(formatDuration(to)), toQString(formatDuration(to - from)))
            .arg(QLocale().toString(percent(compute), 'f', 1))
            .arg(QLocale().toString(percent(comm), 'f', 1))
            .arg(QLocale().toString(std::max(0.0, 100.0 - percent(compute) - percent(comm)), 'f', 1))
            .arg(ops));
}

} // namespace flint::views
