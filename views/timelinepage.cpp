// SPDX-License-Identifier: MIT
#include "views/timelinepage.h"

#include "views/partitionlabel.h"
#include "views/timelineview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace flint::views {

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_grouping = new QComboBox(this);
    m_grouping->setToolTip(tr("How lanes are grouped; click a group's label in the timeline to collapse it"));
    auto* fit = new QPushButton(tr("Fit"), this);
    controls->addWidget(new QLabel(tr("Group lanes by:"), this));
    controls->addWidget(m_grouping, 1);
    controls->addWidget(fit);
    layout->addLayout(controls);
    m_view = new TimelineView(this);
    layout->addWidget(m_view, 1);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &TimelinePage::applyGrouping);
    connect(fit, &QPushButton::clicked, m_view, &TimelineView::fit);
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
    m_view->setData(std::move(workload), std::move(result), ranksPerNode);
    if (!newWorkload)
        applyGrouping(); // setData regrouped by node: keep the user's choice
    else
        m_grouping->setCurrentIndex(0);
}

void TimelinePage::applyGrouping()
{
    const int index = m_grouping->currentData().isValid() ? m_grouping->currentData().toInt() : -1;
    m_view->setGrouping(index >= 0 && static_cast<std::size_t>(index) < m_partitions.size()
                            ? &m_partitions[static_cast<std::size_t>(index)]
                            : nullptr);
}

} // namespace flint::views
