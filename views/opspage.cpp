// SPDX-License-Identifier: MIT
#include "views/opspage.h"

#include "views/opstablemodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace flint::views {
namespace detail {

/// Keeps the rows whose name, kind or scope contains the filter text (case-insensitive). Looks only at
/// those three columns, so that filtering 100,000 ops does not format every number.
class OpsFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setText(const QString& text)
    {
        m_text = text;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override
    {
        if (m_text.isEmpty())
            return true;
        for (int column : {OpsTableModel::Name, OpsTableModel::Kind, OpsTableModel::Scope})
            if (sourceModel()
                    ->index(sourceRow, column, sourceParent)
                    .data()
                    .toString()
                    .contains(m_text, Qt::CaseInsensitive))
                return true;
        return false;
    }

private:
    QString m_text;
};

} // namespace detail

OpsPage::OpsPage(QWidget* parent)
    : QWidget(parent)
{
    m_model = new OpsTableModel(this);
    auto* proxy = new detail::OpsFilterProxy(this);
    m_proxy = proxy;
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OpsTableModel::SortRole);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name, kind or scope"));
    m_filter->setClearButtonEnabled(true);
    m_count = new QLabel(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_count);

    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OpsTableModel::Duration, Qt::DescendingOrder);
    m_table->setColumnHidden(OpsTableModel::DurationDelta, true); // until a baseline is pinned
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and no content-based sizing: a 100,000-row table stays instant.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // The times beside the name and kind, the long scope path last (it takes what is left): at 1,280
    // pixels the start and duration columns were off-screen behind a 220-pixel scope.
    m_table->horizontalHeader()->moveSection(m_table->horizontalHeader()->visualIndex(OpsTableModel::Scope),
                                             OpsTableModel::ColumnCount - 1);
    m_table->setColumnWidth(OpsTableModel::Name, 170);
    // The kind's colour swatch and its longest name whole.
    m_table->setColumnWidth(OpsTableModel::Kind,
                            fontMetrics().horizontalAdvance(QStringLiteral("reduce-scatter")) + 40);
    m_table->setColumnWidth(OpsTableModel::Scope, 220);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this, proxy](const QString& text) {
        proxy->setText(text);
        updateCount();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (m_following || !current.isValid())
                    return;
                Q_EMIT opActivated(m_model->rank(), current.data(OpsTableModel::OpIndexRole).toInt());
            });
    updateCount();
}

void OpsPage::setData(std::shared_ptr<const core::Workload> workload,
                      std::shared_ptr<const core::EstimateResult> result, int rank)
{
    m_shown.workload = std::move(workload);
    m_shown.result = std::move(result);
    m_shown.rank = rank;
    changed();
}

void OpsPage::setBaseline(std::shared_ptr<const core::Workload> workload,
                          std::shared_ptr<const core::EstimateResult> result)
{
    if (workload == m_shown.baselineWorkload && result == m_shown.baselineResult)
        return;
    m_shown.baselineWorkload = std::move(workload);
    m_shown.baselineResult = std::move(result);
    changed();
}

void OpsPage::changed()
{
    m_stale = true;
    if (isVisible() || !window()->isVisible())
        apply();
    else if (m_model->rowCount() > 0)
        m_model->setData({}, {}, 0); // do not hold the previous workload while hidden
}

void OpsPage::apply()
{
    if (!m_stale)
        return;
    m_stale = false;
    m_model->setData(m_shown.workload, m_shown.result, m_shown.rank, m_shown.baselineWorkload, m_shown.baselineResult);
    m_table->setColumnHidden(OpsTableModel::DurationDelta, !m_model->hasBaseline());
    // A workload without scopes (HLO without op-name metadata) would show an empty Scope column
    // that pushes the times off a 1,280-pixel screen.
    bool anyScope = false;
    if (m_shown.workload && m_shown.rank >= 0 && static_cast<std::size_t>(m_shown.rank) < m_shown.workload->rankCount())
        for (const core::Op& op : m_shown.workload->programOf(static_cast<std::size_t>(m_shown.rank)).ops)
            if (!op.scope.empty()) {
                anyScope = true;
                break;
            }
    m_table->setColumnHidden(OpsTableModel::Scope, !anyScope);
    updateCount();
}

void OpsPage::showEvent(QShowEvent* event)
{
    apply();
    QWidget::showEvent(event);
}

void OpsPage::selectOp(std::uint32_t opIndex)
{
    apply();
    const int row = m_model->rowOfOp(opIndex);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, OpsTableModel::Name));
    if (!index.isValid())
        return; // filtered out
    m_following = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_following = false;
}

QString OpsPage::summary() const
{
    return m_count->text();
}

void OpsPage::updateCount()
{
    const int all = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    QString text =
        shown == all
            ? tr("%Ln op(s) of rank %1", nullptr, all).arg(m_model->rank())
            : tr("%1 of %Ln op(s) of rank %2", nullptr, all).arg(QLocale().toString(shown)).arg(m_model->rank());
    // A pinned baseline whose ops are not these (another strategy, another file) gives no per-op
    // change: say so, rather than leave the reader looking for the column.
    if (m_shown.baselineResult && all > 0 && !m_model->hasBaseline())
        text += QStringLiteral(" · ") + tr("the baseline runs other ops: no per-op change to show");
    m_count->setText(text);
}

} // namespace flint::views
