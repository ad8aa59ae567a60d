// SPDX-License-Identifier: MIT
#include "views/collectiveanimation.h"

#include "views/networknames.h"
#include "views/playbutton.h"
#include "views/timelinegeometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <unordered_map>

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace flint::views {
namespace {

/// Colours of the topology's dimensions (innermost first): NVLink-like teal, network orange, then
/// purple and olive; the palette repeats beyond four.
QColor dimensionColor(int dim)
{
    static const QColor colors[] = {QColor(0x2a, 0x9d, 0x8f), QColor(0xe7, 0x6f, 0x51), QColor(0x7b, 0x4f, 0xa8),
                                    QColor(0x8a, 0x8a, 0x2e)};
    return colors[static_cast<std::size_t>(std::max(0, dim)) % std::size(colors)];
}

QColor actionColor(core::StepAction action)
{
    switch (action) {
    case core::StepAction::Reduce:
        return {0xd9, 0x48, 0x3b};
    case core::StepAction::Copy:
        return {0x3b, 0x7d, 0xd8};
    case core::StepAction::Exchange:
        return {0x8e, 0x5a, 0xb5};
    }
    return Qt::gray;
}

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

CollectiveAnimationView::CollectiveAnimationView(QWidget* parent)
    : QWidget(parent)
{
    setMinimumSize(320, 280);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void CollectiveAnimationView::setCollective(std::vector<std::int32_t> members, std::vector<core::CollectiveStep> steps,
                                            const core::Topology& topology, QStringList dimensionNames)
{
    m_members = std::move(members);
    m_steps = std::move(steps);
    m_dimensionNames = std::move(dimensionNames);
    m_dims.clear();
    m_maxBytes = 0;
    for (const core::CollectiveStep& s : m_steps) {
        std::vector<int> dims;
        dims.reserve(s.transfers.size());
        for (const core::CollectiveTransfer& t : s.transfers) {
            dims.push_back(topology.firstDifferingDim(t.src, t.dst));
            m_maxBytes = std::max(m_maxBytes, t.bytes);
        }
        m_dims.push_back(std::move(dims));
    }
    // Nodes: ranks that share every coordinate but the innermost dimension's (one node when the
    // topology has one dimension).
    m_node.clear();
    const bool nodes = topology.dims.size() > 1;
    const std::int64_t perNode = nodes ? topology.stride(1) : 0;
    for (std::int32_t r : m_members)
        m_node.push_back(nodes && perNode > 0 ? static_cast<std::int32_t>(r / perNode) : 0);
    m_step = 0;
    update();
}

void CollectiveAnimationView::setStep(int index)
{
    m_step = std::clamp(index, 0, std::max(0, stepCount() - 1));
    update();
}

void CollectiveAnimationView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const auto n = static_cast<int>(m_members.size());
    if (n == 0)
        return;
    const int legendHeight = fontMetrics().height() * 2 + 8;
    const QRectF area = QRectF(rect()).adjusted(8, 8, -8, -8 - legendHeight);
    const QPointF centre = area.center();
    const bool labels = n <= 32;
    const double radius = std::max(40.0, std::min(area.width(), area.height()) / 2 - (labels ? 44 : 26));
    const double dot = std::clamp(150.0 / n, 2.5, 9.0);
    const auto angleOf = [n](int i) { return -std::numbers::pi / 2 + 2 * std::numbers::pi * i / n; };
    const auto at = [&](int i, double r) {
        const double a = angleOf(i);
        return centre + QPointF(std::cos(a) * r, std::sin(a) * r);
    };
    std::unordered_map<std::int32_t, int> position;
    for (int i = 0; i < n; ++i)
        position[m_members[static_cast<std::size_t>(i)]] = i;

    // Nodes as bands around the circle, alternately shaded, each over its run of members.
    const double bandRadius = radius + dot + 8;
    const double step = 360.0 / n;
    int nodeCount = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && m_node[static_cast<std::size_t>(j)] == m_node[static_cast<std::size_t>(i)])
            ++j;
        if (m_node.front() != m_node.back() || i > 0 || j < n) {
            QPen band(nodeCount % 2 ? QColor(0xc8, 0xcc, 0xd4) : QColor(0xe2, 0xe5, 0xea), 8, Qt::SolidLine,
                      Qt::FlatCap);
            painter.setPen(band);
            const QRectF box(centre.x() - bandRadius, centre.y() - bandRadius, 2 * bandRadius, 2 * bandRadius);
            // Qt's angles run counter-clockwise from 3 o'clock in 1/16 degree; ours clockwise from 12.
            const double start = 90.0 - (i - 0.45) * step;
            painter.drawArc(box, static_cast<int>(std::lround(start * 16)),
                            static_cast<int>(std::lround(-(j - i - 0.1) * step * 16)));
        }
        ++nodeCount;
        i = j;
    }

    // The step's messages: neighbours bow outwards a little, other pairs bend through the middle.
    const core::CollectiveStep* current = m_steps.empty() ? nullptr : &m_steps[static_cast<std::size_t>(m_step)];
    std::set<std::int32_t> receivers;
    if (current) {
        // An all-to-all of a large group sends more messages than a picture shows: the first
        // kMaxArrows are drawn and the view says so.
        constexpr std::size_t kMaxArrows = 4096;
        const std::size_t drawn = std::min(current->transfers.size(), kMaxArrows);
        if (drawn < current->transfers.size()) {
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QPointF(10, 8 + fontMetrics().ascent()),
                             tr("%1 of %2 messages drawn")
                                 .arg(QLocale().toString(static_cast<qulonglong>(drawn)),
                                      QLocale().toString(static_cast<qulonglong>(current->transfers.size()))));
        }
        for (std::size_t k = 0; k < drawn; ++k) {
            const core::CollectiveTransfer& t = current->transfers[k];
            const auto si = position.find(t.src), di = position.find(t.dst);
            if (si == position.end() || di == position.end())
                continue;
            receivers.insert(t.dst);
            const QPointF a = at(si->second, radius), b = at(di->second, radius);
            const int gap = std::abs(si->second - di->second);
            const bool neighbours = gap == 1 || gap == n - 1;
            const QPointF mid = (a + b) / 2;
            // Every arrow bows a little to its right as well, so that the two directions between a
            // pair (a ring of two, halving-doubling partners) run side by side, not on one line.
            const QPointF along = b - a;
            const double span = std::hypot(along.x(), along.y());
            const QPointF right = span > 0 ? QPointF(-along.y(), along.x()) / span * (0.12 * span) : QPointF();
            const QPointF control =
                (neighbours ? centre + (mid - centre) * 1.18 : centre + (mid - centre) * 0.35) + right;
            QPainterPath path(a);
            path.quadTo(control, b);
            const double width = 1.0 + 2.5 * (m_maxBytes > 0 ? t.bytes / m_maxBytes : 0);
            QColor color = dimensionColor(m_dims[static_cast<std::size_t>(m_step)][k]);
            color.setAlphaF(drawn > 64 ? 0.55 : 0.9);
            painter.setPen(QPen(color, width));
            painter.setBrush(Qt::NoBrush);
            // End the line at the receiver's dot, with an arrowhead along the curve's last tangent.
            const double length = path.length();
            const double end = length > dot + 2 ? path.percentAtLength(length - dot - 1) : 1.0;
            QPainterPath trimmed(a);
            const int samples = 16;
            for (int s = 1; s <= samples; ++s)
                trimmed.lineTo(path.pointAtPercent(end * s / samples));
            painter.drawPath(trimmed);
            const QPointF tip = path.pointAtPercent(end);
            const double angle =
                std::atan2(tip.y() - path.pointAtPercent(end * 0.9).y(), tip.x() - path.pointAtPercent(end * 0.9).x());
            const double head = 5 + width;
            QPolygonF arrow;
            arrow << tip << tip - QPointF(std::cos(angle - 0.45) * head, std::sin(angle - 0.45) * head)
                  << tip - QPointF(std::cos(angle + 0.45) * head, std::sin(angle + 0.45) * head);
            painter.setPen(Qt::NoPen);
            painter.setBrush(color);
            painter.drawPolygon(arrow);
        }
    }

    // Members: receivers of this step in the colour of what they do with what arrives.
    const QColor idle(0x5b, 0x6b, 0x82);
    for (int i = 0; i < n; ++i) {
        const std::int32_t rank = m_members[static_cast<std::size_t>(i)];
        const bool receives = current && receivers.count(rank);
        painter.setPen(QPen(palette().color(QPalette::Base), 1));
        painter.setBrush(receives ? actionColor(current->action) : idle);
        painter.drawEllipse(at(i, radius), dot, dot);
        if (labels) {
            painter.setPen(palette().color(QPalette::Text));
            const QPointF p = at(i, bandRadius + 16);
            const QString text = QString::number(rank);
            const QRectF box(p.x() - 20, p.y() - 8, 40, 16);
            painter.drawText(box, Qt::AlignCenter, text);
        }
    }

    // Legend: the dimensions the messages cross, and what receivers do.
    painter.setPen(palette().color(QPalette::Text));
    double x = 10;
    const double y = height() - legendHeight + 4;
    const int line = fontMetrics().height();
    std::set<int> used;
    for (const auto& dims : m_dims)
        used.insert(dims.begin(), dims.end());
    if (nodeCount > 1) {
        // The bands around the circle: one per node.
        painter.fillRect(QRectF(x, y + line / 2.0 - 4, 18, 8), QColor(0xc8, 0xcc, 0xd4));
        const QString name = tr("a node");
        painter.drawText(QPointF(x + 24, y + line - 3), name);
        x += 24 + fontMetrics().horizontalAdvance(name) + 18;
    }
    for (int d : used) {
        if (d < 0)
            continue;
        painter.fillRect(QRectF(x, y + line / 2.0 - 2, 18, 4), dimensionColor(d));
        const QString name = d < m_dimensionNames.size() ? m_dimensionNames[d] : tr("dimension %1").arg(d + 1);
        painter.drawText(QPointF(x + 24, y + line - 3), name);
        x += 24 + fontMetrics().horizontalAdvance(name) + 18;
    }
    x = 10;
    const std::pair<core::StepAction, QString> actions[] = {{core::StepAction::Reduce, tr("adds what arrives")},
                                                            {core::StepAction::Copy, tr("keeps what arrives")},
                                                            {core::StepAction::Exchange, tr("keeps its piece")}};
    for (const auto& [action, name] : actions) {
        bool shown = false;
        for (const auto& s : m_steps)
            shown = shown || s.action == action;
        if (!shown)
            continue;
        painter.setPen(Qt::NoPen);
        painter.setBrush(actionColor(action));
        painter.drawEllipse(QPointF(x + 6, y + line + line / 2.0 + 2), 5, 5);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QPointF(x + 16, y + 2 * line - 1), name);
        x += 16 + fontMetrics().horizontalAdvance(name) + 18;
    }
}

CollectiveAnimationDialog::CollectiveAnimationDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Collective step by step"));
    m_view = new CollectiveAnimationView(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_phase = new QLabel(this);
    m_phase->setWordWrap(true);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setObjectName(QStringLiteral("stepText"));
    QFont bold = m_phase->font();
    bold.setBold(true);
    m_phase->setFont(bold);

    const auto button = [this](QStyle::StandardPixmap icon, const QString& tip, const char* name) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setObjectName(QString::fromLatin1(name));
        return b;
    };
    QToolButton* first = button(QStyle::SP_MediaSkipBackward, tr("First step"), "firstStep");
    QToolButton* previous = button(QStyle::SP_MediaSeekBackward, tr("Previous step"), "previousStep");
    m_play = makePlayButton(this);
    QToolButton* nextButton = button(QStyle::SP_MediaSeekForward, tr("Next step"), "nextStep");
    QToolButton* last = button(QStyle::SP_MediaSkipForward, tr("Last step"), "lastStep");
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("stepSlider"));
    auto* controls = new QHBoxLayout;
    for (QToolButton* b : {first, previous, m_play, nextButton, last})
        controls->addWidget(b);
    controls->addWidget(m_slider, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_phase);
    layout->addWidget(m_text);
    layout->addLayout(controls);
    resize(620, 640);

    m_timer.setInterval(900);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (step() + 1 >= stepCount())
            setPlaying(false);
        else
            next();
    });
    connect(first, &QToolButton::clicked, this, [this] { showStep(0); });
    connect(previous, &QToolButton::clicked, this, &CollectiveAnimationDialog::previous);
    connect(nextButton, &QToolButton::clicked, this, &CollectiveAnimationDialog::next);
    connect(last, &QToolButton::clicked, this, [this] { showStep(stepCount() - 1); });
    connect(m_play, &QToolButton::toggled, this, &CollectiveAnimationDialog::setPlaying);
    connect(m_slider, &QSlider::valueChanged, this, &CollectiveAnimationDialog::showStep);
}

void CollectiveAnimationDialog::setCollective(const QString& title, core::CollectiveKind kind, std::uint64_t bytes,
                                              const core::CollectiveCost& cost, const core::Topology& topology,
                                              std::vector<std::int32_t> members, QStringList dimensionNames)
{
    setPlaying(false);
    m_cost = cost;
    m_dimensionNames = dimensionNames;
    bool truncated = false;
    std::vector<core::CollectiveStep> steps =
        core::collectiveSteps(cost, topology, members, std::size_t{1} << 21, &truncated);
    const int shownSteps = static_cast<int>(steps.size());
    m_view->setCollective(std::move(members), std::move(steps), topology, std::move(dimensionNames));
    QString summary =
        tr("<b>%1</b>: %2 of %3 per GPU over %n GPU(s), %4 in all.", nullptr, static_cast<int>(m_view->memberCount()))
            .arg(title.toHtmlEscaped(), qs(std::string(core::displayName(kind))),
                 qs(formatBytes(static_cast<double>(bytes))), qs(formatDuration(cost.duration)));
    // Sentences follow each other with a space, or none where the language's full stop ends them (Chinese).
    const auto then = [](const QString& first, const QString& second) {
        return tr("%1 %2", "one sentence after another").arg(first, second);
    };
    if (cost.chunks > 1)
        summary = then(summary, tr("The data moves in %n chunk(s), pipelined through the phases; the steps of one "
                                   "chunk are shown.",
                                   nullptr, static_cast<int>(std::min<std::uint64_t>(cost.chunks, 1u << 30))));
    if (truncated)
        summary =
            then(summary, tr("Only the first %n step(s) are shown: this collective has more than a picture holds.",
                             nullptr, shownSteps));
    if (!cost.protocol.empty())
        summary = then(summary, cost.protocolLatency > 0
                                    ? tr("Priced with NCCL's %1 protocol, whose latency (%2) comes on top of the "
                                         "steps.")
                                          .arg(qs(cost.protocol), qs(formatDuration(cost.protocolLatency)))
                                    : tr("Priced with NCCL's %1 protocol.").arg(qs(cost.protocol)));
    m_summary->setText(summary);
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setRange(0, std::max(0, stepCount() - 1));
    }
    showStep(0);
}

int CollectiveAnimationDialog::step() const
{
    return m_view->step();
}

int CollectiveAnimationDialog::stepCount() const
{
    return m_view->stepCount();
}

QString CollectiveAnimationDialog::stepText() const
{
    return m_phase->text() + QLatin1Char('\n') + m_text->text();
}

void CollectiveAnimationDialog::showStep(int index)
{
    m_view->setStep(index);
    if (m_slider->value() != m_view->step()) {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(m_view->step());
    }
    const std::vector<core::CollectiveStep>& steps = m_view->steps();
    if (steps.empty()) {
        m_phase->setText(tr("No steps to show"));
        m_text->setText(tr("This collective moves its data in one round (rooted collectives, permutes and "
                           "barriers have no staged schedule)."));
        return;
    }
    const core::CollectiveStep& s = steps[static_cast<std::size_t>(m_view->step())];
    const core::CollectivePhase& p = m_cost.phases[s.phase];
    const QString algorithm = NetworkNames::algorithm(p.algorithm);
    const QString where = p.dim < 0 ? tr("all members as one ring")
                                    : tr("dimension %1 (%2)")
                                          .arg(p.dim + 1)
                                          .arg(p.dim < m_dimensionNames.size() ? m_dimensionNames[p.dim] : QString());
    const int groups = p.npus > 0 ? static_cast<int>(m_view->memberCount() / static_cast<std::size_t>(p.npus)) : 1;
    m_phase->setText(tr("Phase %1 of %2: %3 by %4 over %5, in %n group(s) of %6 GPUs", nullptr, groups)
                         .arg(s.phase + 1)
                         .arg(m_cost.phases.size())
                         .arg(qs(std::string(core::displayName(p.kind))), algorithm, where)
                         .arg(p.npus));
    int phaseSteps = 0;
    for (const core::CollectiveStep& other : steps)
        phaseSteps += other.phase == s.phase ? 1 : 0;
    QString partner;
    switch (p.algorithm) {
    case core::CollectiveAlgorithm::Ring:
        partner = tr("the next GPU of its ring");
        break;
    case core::CollectiveAlgorithm::Direct:
        partner = tr("every other GPU of its group");
        break;
    case core::CollectiveAlgorithm::HalvingDoubling:
        partner = tr("its partner %n position(s) away", nullptr, s.distance);
        break;
    case core::CollectiveAlgorithm::DoubleBinaryTree:
        partner = s.action == core::StepAction::Reduce ? tr("its parent in each of the two trees")
                                                       : tr("its children in each of the two trees");
        break;
    }
    QString action;
    switch (s.action) {
    case core::StepAction::Reduce:
        action = tr("the receiver adds it to its own piece");
        break;
    case core::StepAction::Copy:
        action = tr("the receiver keeps it");
        break;
    case core::StepAction::Exchange:
        action = tr("each receiver keeps the piece meant for it");
        break;
    }
    std::set<std::int32_t> senders;
    double bytes = 0;
    for (const core::CollectiveTransfer& t : s.transfers) {
        senders.insert(t.src);
        bytes = std::max(bytes, t.bytes);
    }
    m_text->setText(tr("Step %1 of %2: %n GPU(s) send %3 each to %4; %5. This step takes about %6.", nullptr,
                       static_cast<int>(senders.size()))
                        .arg(s.step)
                        .arg(phaseSteps)
                        .arg(qs(formatBytes(bytes)), partner, action, qs(formatDuration(s.seconds))));
}

void CollectiveAnimationDialog::next()
{
    showStep(step() + 1);
}

void CollectiveAnimationDialog::previous()
{
    showStep(step() - 1);
}

void CollectiveAnimationDialog::setPlaying(bool playing)
{
    if (playing && step() + 1 >= stepCount())
        showStep(0); // from the start again
    showPlaying(m_play, m_timer, playing);
}

} // namespace flint::views
