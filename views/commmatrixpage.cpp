// SPDX-License-Identifier: MIT
#include "views/commmatrixpage.h"

#include "views/commmatrixview.h"
#include "views/partitionlabel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace flint::views {

CommMatrixPage::CommMatrixPage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_byNode = new QCheckBox(tr("Aggregate by node"), this);
    m_kind = new QComboBox(this);
    m_kind->setToolTip(tr("Show the traffic of one collective kind"));
    m_metric = new QComboBox(this);
    m_metric->addItem(tr("Bytes"), int(CommMatrixView::Metric::Bytes));
    m_metric->addItem(tr("Link time"), int(CommMatrixView::Metric::Seconds));
    m_metric->setToolTip(tr("Link time: each cell's bytes over the bandwidth of the topology dimension that "
                            "carries them (no latency, no contention)"));
    m_order = new QComboBox(this);
    controls->addWidget(m_byNode);
    controls->addWidget(new QLabel(tr("Kind:"), this));
    controls->addWidget(m_kind);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_metric);
    controls->addWidget(new QLabel(tr("Order:"), this));
    controls->addWidget(m_order, 1);
    layout->addLayout(controls);
    m_view = new CommMatrixView(this);
    layout->addWidget(m_view, 1);

    connect(m_byNode, &QCheckBox::toggled, this, [this](bool on) {
        m_view->setAggregateByNode(on);
        updateControls();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setKindFilter(m_kind->currentData().toString()); });
    connect(m_metric, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setMetric(static_cast<CommMatrixView::Metric>(m_metric->currentData().toInt())); });
    connect(m_order, &QComboBox::currentIndexChanged, this, &CommMatrixPage::applyOrder);
    updateControls();
}

void CommMatrixPage::setData(std::shared_ptr<const core::Workload> workload,
                             std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    if (workload != m_workload) {
        m_workload = std::move(workload);
        m_partitions = m_workload ? core::rankPartitions(*m_workload) : std::vector<core::RankPartition>{};
        const QSignalBlocker blocker(m_order);
        m_order->clear();
        m_order->addItem(tr("by rank"), -1);
        for (std::size_t i = 0; i < m_partitions.size(); ++i)
            m_order->addItem(tr("grouped by %1").arg(partitionLabel(m_partitions[i])), static_cast<int>(i));
    }
    m_view->setResult(std::move(result), ranksPerNode);
    {
        const QString kind = m_kind->currentData().toString();
        const QSignalBlocker blocker(m_kind);
        m_kind->clear();
        m_kind->addItem(tr("all kinds"), QString());
        for (const QString& k : m_view->kinds())
            m_kind->addItem(k, k);
        m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
    }
    m_view->setKindFilter(m_kind->currentData().toString());
    applyOrder();
    updateControls();
}

void CommMatrixPage::applyOrder()
{
    const int index = m_order->currentData().isValid() ? m_order->currentData().toInt() : -1;
    m_view->setRankOrder(index >= 0 && static_cast<std::size_t>(index) < m_partitions.size()
                             ? m_partitions[static_cast<std::size_t>(index)].order()
                             : std::vector<std::int32_t>{});
}

void CommMatrixPage::updateControls()
{
    const bool reorder = m_view->canReorder();
    m_order->setEnabled(reorder && m_order->count() > 1);
    m_order->setToolTip(reorder ? tr("Put the ranks of each group side by side, so that a mesh axis's traffic shows "
                                     "as blocks on the diagonal")
                                : tr("Ordering needs one cell per rank: turn node aggregation off (workloads of more "
                                     "than 1,024 ranks are shown in bins of ranks, in rank order)"));
}

} // namespace flint::views
