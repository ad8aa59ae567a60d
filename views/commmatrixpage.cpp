// SPDX-License-Identifier: MIT
#include "views/commmatrixpage.h"

#include "core/estimator/commtraffic.h"
#include "views/commmatrixview.h"
#include "views/partitionlabel.h"

#include <algorithm>

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
    // Wide enough for the longest kind (REDUCE_SCATTER); the order chooser's long group labels are
    // elided rather than widening the window.
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(14);
    m_metric = new QComboBox(this);
    m_metric->addItem(tr("Bytes"), int(CommMatrixView::Metric::Bytes));
    m_metric->addItem(tr("Link time"), int(CommMatrixView::Metric::Seconds));
    m_order = new QComboBox(this);
    m_order->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_order->setMinimumContentsLength(12);
    m_traffic = new QComboBox(this);
    m_traffic->addItem(tr("Link traffic"), int(CommMatrixView::Traffic::Link));
    m_traffic->addItem(tr("Logical traffic"), int(CommMatrixView::Traffic::Logical));
    m_traffic->setToolTip(tr("Link traffic: what the collective algorithms move between ranks (a ring sends "
                             "everything to its neighbour). Logical traffic: who sends what to whom in the "
                             "collectives' semantics (an all-to-all sends a share to every member)"));
    // Two rows, so that the page stays narrow beside the docks: what is shown, then how cells are
    // arranged.
    controls->addWidget(m_traffic);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_metric);
    controls->addWidget(new QLabel(tr("Kind:"), this));
    controls->addWidget(m_kind);
    controls->addStretch(1);
    m_difference = new QCheckBox(tr("Difference from baseline"), this);
    m_difference->setObjectName(QStringLiteral("matrixDifference"));
    auto* arrangement = new QHBoxLayout;
    arrangement->addWidget(m_byNode);
    arrangement->addWidget(new QLabel(tr("Order:"), this));
    arrangement->addWidget(m_order, 1);
    arrangement->addWidget(m_difference);
    layout->addLayout(controls);
    layout->addLayout(arrangement);
    m_view = new CommMatrixView(this);
    layout->addWidget(m_view, 1);

    connect(m_byNode, &QCheckBox::toggled, this, [this](bool on) {
        m_view->setAggregateByNode(on);
        updateControls();
    });
    connect(m_difference, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            ensureLogical();
        m_view->setDifference(on);
        updateControls();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setKindFilter(m_kind->currentData().toString()); });
    connect(m_metric, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setMetric(static_cast<CommMatrixView::Metric>(m_metric->currentData().toInt())); });
    connect(m_order, &QComboBox::currentIndexChanged, this, &CommMatrixPage::applyOrder);
    connect(m_view, &CommMatrixView::cellDoubleClicked, this, &CommMatrixPage::zoomToGroupOf);
    connect(m_traffic, &QComboBox::currentIndexChanged, this, [this] {
        m_view->setTraffic(static_cast<CommMatrixView::Traffic>(m_traffic->currentData().toInt()));
        ensureLogical();
        refreshKinds();
        updateControls();
    });
    updateControls();
}

void CommMatrixPage::ensureLogical()
{
    if (m_view->traffic() != CommMatrixView::Traffic::Logical)
        return;
    if (!m_logical && m_workload) {
        m_logical = std::make_shared<const core::CommMatrix>(core::logicalCommMatrix(*m_workload));
        m_view->setLogicalMatrix(m_logical);
    }
    // The baseline's too, once a difference is asked for.
    if (m_difference->isChecked() && !m_baselineLogical && m_baselineWorkload) {
        m_baselineLogical = std::make_shared<const core::CommMatrix>(core::logicalCommMatrix(*m_baselineWorkload));
        m_view->setBaseline(m_baseline, m_baselineLogical);
    }
}

void CommMatrixPage::setBaseline(std::shared_ptr<const core::Workload> workload,
                                 std::shared_ptr<const core::EstimateResult> result)
{
    if (workload != m_baselineWorkload)
        m_baselineLogical.reset();
    m_baselineWorkload = result ? std::move(workload) : nullptr;
    m_baseline = std::move(result);
    m_view->setBaseline(m_baseline, m_baselineLogical);
    ensureLogical();
    updateControls();
}

void CommMatrixPage::refreshKinds()
{
    const QString kind = m_kind->currentData().toString();
    {
        const QSignalBlocker blocker(m_kind);
        m_kind->clear();
        m_kind->addItem(tr("all kinds"), QString());
        for (const QString& k : m_view->kinds())
            m_kind->addItem(k, k);
        m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
    }
    m_view->setKindFilter(m_kind->currentData().toString());
}

void CommMatrixPage::setData(std::shared_ptr<const core::Workload> workload,
                             std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    if (workload != m_workload) {
        m_workload = std::move(workload);
        // Logical traffic depends on the workload alone: found again only when it changes, and
        // only while it is shown.
        m_logical.reset();
        m_view->setLogicalMatrix(nullptr);
        ensureLogical();
        m_partitions = m_workload ? core::rankPartitions(*m_workload) : std::vector<core::RankPartition>{};
        const QSignalBlocker blocker(m_order);
        m_order->clear();
        m_order->addItem(tr("by rank"), -1);
        for (std::size_t i = 0; i < m_partitions.size(); ++i)
            m_order->addItem(tr("grouped by %1").arg(partitionLabel(m_partitions[i])), static_cast<int>(i));
    }
    m_ranksPerNode = ranksPerNode;
    m_view->setResult(std::move(result), ranksPerNode);
    refreshKinds();
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

void CommMatrixPage::zoomToGroupOf(int source, int)
{
    // Grouped order: the part that holds the cell's source rank, whose ranks sit side by side.
    const int index = m_order->currentData().isValid() ? m_order->currentData().toInt() : -1;
    if (m_view->canReorder() && index >= 0 && static_cast<std::size_t>(index) < m_partitions.size()) {
        const std::int32_t rank = m_view->ranksOfCell(source).first;
        int first = 0;
        for (const auto& part : m_partitions[static_cast<std::size_t>(index)].parts) {
            const int size = static_cast<int>(part.size());
            if (std::binary_search(part.begin(), part.end(), rank)) {
                m_view->zoomToCells(first, size);
                return;
            }
            first += size;
        }
        return;
    }
    // Rank order: the node of the cell's source rank (the tensor-parallel group of most meshes).
    const auto [rank, count] = m_view->ranksOfCell(source);
    const int perNode = std::max(1, m_ranksPerNode);
    if (m_view->aggregateByNode() || count >= perNode)
        return; // cells are nodes or bins of more ranks than a node: nothing smaller to show
    const int cellsPerNode = std::max(1, perNode / std::max(1, count));
    m_view->zoomToCells(source / cellsPerNode * cellsPerNode, cellsPerNode);
}

void CommMatrixPage::updateControls()
{
    const bool logical = m_view->traffic() == CommMatrixView::Traffic::Logical;
    m_metric->setEnabled(!logical);
    m_metric->setToolTip(logical ? tr("Logical traffic has bytes only: link time belongs to the transfers an "
                                      "algorithm makes")
                                 : tr("Link time: each cell's bytes over the bandwidth of the topology dimension "
                                      "that carries them (no latency, no contention)"));
    const bool compare = m_view->canCompare();
    m_difference->setEnabled(compare);
    m_difference->setToolTip(
        compare      ? tr("Colour each cell by its change from the pinned baseline: red where this estimate moves "
                               "more bytes (or link time), blue where it moves fewer")
        : m_baseline ? tr("The baseline has another number of ranks: its cells cannot be compared one by one")
                     : tr("Pin an estimate as the baseline (Edit > Pin current estimate as baseline, Ctrl+B) to "
                          "compare with it"));
    const bool reorder = m_view->canReorder();
    m_order->setEnabled(reorder && m_order->count() > 1);
    m_order->setToolTip(reorder ? tr("Put the ranks of each group side by side, so that a mesh axis's traffic shows "
                                     "as blocks on the diagonal")
                                : tr("Ordering needs one cell per rank: turn node aggregation off (workloads of more "
                                     "than 1,024 ranks are shown in bins of ranks, in rank order)"));
}

} // namespace flint::views
