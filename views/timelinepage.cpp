// SPDX-License-Identifier: MIT
#include "views/timelinepage.h"

#include "views/partitionlabel.h"
#include "views/timelineview.h"
#include "views/viewpalette.h"

#include <optional>
#include <vector>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace flint::views {

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_grouping = new QComboBox(this);
    m_grouping->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_grouping->setMinimumContentsLength(16);
    auto* fit = new QPushButton(tr("Fit"), this);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("timelineLegend"));
    // Wraps rather than widening the window beyond a 1,280-pixel screen (German labels are longer).
    m_legend->setWordWrap(true);
    controls->addWidget(new QLabel(tr("Group lanes by:"), this));
    controls->addWidget(m_grouping, 1);
    controls->addWidget(fit);
    layout->addLayout(controls);
    layout->addWidget(m_legend);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_split = split;
    m_view = new TimelineView(split);
    m_comparisonBox = new QWidget(split);
    auto* comparisonLayout = new QVBoxLayout(m_comparisonBox);
    comparisonLayout->setContentsMargins(0, 0, 0, 0);
    m_comparisonTitle = new QLabel(m_comparisonBox);
    m_comparison = new TimelineView(m_comparisonBox);
    m_comparison->setObjectName(QStringLiteral("comparisonTimeline"));
    comparisonLayout->addWidget(m_comparisonTitle);
    comparisonLayout->addWidget(m_comparison, 1);
    split->addWidget(m_view);
    split->addWidget(m_comparisonBox);
    m_comparisonBox->hide();
    layout->addWidget(split, 1);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &TimelinePage::applyGrouping);
    connect(fit, &QPushButton::clicked, m_view, &TimelineView::fit);
    connect(m_view, &TimelineView::timeWindowChanged, m_comparison, &TimelineView::setTimeWindow);
    connect(m_comparison, &TimelineView::timeWindowChanged, m_view, &TimelineView::setTimeWindow);
}

void TimelinePage::setComparison(std::shared_ptr<const core::Workload> workload,
                                 std::shared_ptr<const core::EstimateResult> result, int ranksPerNode,
                                 const QString& title)
{
    m_comparisonResult = workload ? std::move(result) : nullptr;
    m_comparisonTitle->setText(title);
    const bool appears = m_comparisonResult && m_comparisonBox->isHidden();
    m_comparisonBox->setVisible(m_comparisonResult != nullptr);
    if (appears) { // a panel shown again after being hidden gets no room by itself
        const int height = std::max(m_split->height(), 200);
        m_split->setSizes({height * 3 / 5, height * 2 / 5});
    }
    // The comparison's setData fits its window, which the main view would follow: keep the user's.
    const double from = m_view->geometryOfTime().viewStart, to = m_view->geometryOfTime().viewEnd;
    if (!m_comparisonResult)
        workload.reset();
    if (workload != m_comparisonWorkload) {
        m_comparisonPartitions = workload == m_workload ? m_partitions
                                 : workload             ? core::rankPartitions(*workload)
                                                        : std::vector<core::RankPartition>{};
        m_comparisonWorkload = workload;
    }
    m_comparison->setData(std::move(workload), m_comparisonResult, ranksPerNode);
    applyGrouping(); // setData grouped the baseline's lanes by node: follow the chooser
    alignExtents();
    m_view->setTimeWindow(from, to);
    if (m_comparisonResult)
        m_comparison->setTimeWindow(from, to);
}

QString TimelinePage::comparisonTitle() const
{
    return m_comparisonResult ? m_comparisonTitle->text() : QString();
}

void TimelinePage::alignExtents()
{
    const double main = m_result ? m_result->stepTime : 0;
    const double other = m_comparisonResult ? m_comparisonResult->stepTime : 0;
    m_view->setTimeExtent(other);
    m_comparison->setTimeExtent(main);
}

void TimelinePage::setData(std::shared_ptr<const core::Workload> workload,
                           std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    const bool newWorkload = workload != m_workload;
    if (newWorkload) {
        m_partitions = workload ? core::rankPartitions(*workload) : std::vector<core::RankPartition>{};
        const QSignalBlocker blocker(m_grouping);
        m_grouping->clear();
        m_grouping->addItem(tr("node (%n rank(s) each)", nullptr, ranksPerNode), -1);
        for (std::size_t i = 0; i < m_partitions.size(); ++i)
            m_grouping->addItem(partitionLabel(m_partitions[i]), static_cast<int>(i));
    }
    m_workload = workload;
    m_result = result;
    alignExtents(); // before setData, which fits the window to the longer step
    m_view->setData(std::move(workload), std::move(result), ranksPerNode);
    if (!newWorkload) {
        applyGrouping(); // setData regrouped by node: keep the user's choice
        return;
    }
    // Lanes open grouped by pipeline stage where there are stages (several programs, each run by
    // several ranks), else by node: a trace with a program per rank has no stages to show.
    int initial = 0;
    const std::size_t ranks = m_workload ? m_workload->rankCount() : 0;
    for (std::size_t i = 0; i < m_partitions.size(); ++i) {
        const core::RankPartition& partition = m_partitions[i];
        if (partition.basis == core::RankPartition::Basis::Program && partition.parts.size() > 1 &&
            partition.parts.size() < ranks)
            initial = static_cast<int>(i) + 1;
    }
    if (m_grouping->currentIndex() == initial)
        applyGrouping();
    else
        m_grouping->setCurrentIndex(initial);
    // Compute spans coloured by pass where the ops say which pass they belong to.
    const auto swatch = [](const QColor& colour, const QString& name) {
        return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2").arg(colour.name(), name);
    };
    // Communication spans take their kind's colour: the legend names the kinds the workload has
    // (one "communication" swatch in all-reduce red read the mauve all-gathers as optimizer work).
    QStringList entries;
    if (m_view->showsPhases()) {
        entries << swatch(phaseColor(StepPhase::Forward), tr("forward"))
                << swatch(phaseColor(StepPhase::Backward), tr("backward"))
                << swatch(phaseColor(StepPhase::Optimizer), tr("optimizer"));
        // From the estimate's matrix layers (the kinds that moved bytes), not by reading every op of
        // the workload on the GUI thread: a pipeline's stage programs hold some 800,000.
        QStringList colours;
        const std::vector<core::CommMatrix::Layer> none;
        for (const core::CommMatrix::Layer& layer : m_result ? m_result->commMatrix.layers : none) {
            const std::optional<core::CollectiveKind> kind = core::collectiveKindFromChakraName(layer.kind);
            if (!kind && layer.kind != "SEND_RECV")
                continue;
            const QColor colour = kind ? colorOf(core::OpKind::Collective, *kind) : colorOf(core::OpKind::Send);
            if (colours.contains(colour.name()))
                continue; // a reduce-scatter and its block variant share one colour
            colours << colour.name();
            const std::string_view name = kind ? core::displayName(*kind) : std::string_view("send/recv");
            entries << swatch(colour, QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
        }
    }
    m_legend->setText(entries.join(QStringLiteral("&nbsp; "))); // a break between entries, not inside one
}

void TimelinePage::applyGrouping()
{
    // The choice whole where the box elides it (long in German at 1,280 pixels).
    m_grouping->setToolTip(tr("%1. How lanes are grouped; click a group's label in the timeline to collapse it")
                               .arg(m_grouping->currentText()));
    const int index = m_grouping->currentData().isValid() ? m_grouping->currentData().toInt() : -1;
    const core::RankPartition* chosen = index >= 0 && static_cast<std::size_t>(index) < m_partitions.size()
                                            ? &m_partitions[static_cast<std::size_t>(index)]
                                            : nullptr;
    m_view->setGrouping(chosen);
    if (m_comparisonResult)
        m_comparison->setGrouping(comparisonPartition(chosen));
}

const core::RankPartition* TimelinePage::comparisonPartition(const core::RankPartition* chosen) const
{
    if (!chosen)
        return nullptr;
    for (const core::RankPartition& p : m_comparisonPartitions) {
        if (p.basis != chosen->basis)
            continue;
        if (p.basis == core::RankPartition::Basis::Program ? p.stages == chosen->stages
            : !chosen->axes.empty()                        ? p.axes == chosen->axes
                                                           : p.kinds == chosen->kinds)
            return &p;
    }
    return nullptr;
}

} // namespace flint::views
