// SPDX-License-Identifier: MIT
#include "app/explorer/history.h"

#include "app/explorer/stepsummary.h"

#include <algorithm>

#include <QFileInfo>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace flint::app {
namespace {

/// What makes two scenarios the same row: the source, the whole cluster and the options that
/// change an estimate.
QString keyOf(const History::Entry& entry)
{
    const engine::Scenario& s = entry.state.scenario;
    const core::Cluster& c = s.cluster;
    return entry.details + QLatin1Char('\n') + QString::fromStdString(c.name) +
           (c.edited ? QStringLiteral("*") : QString()) + QLatin1Char('\n') +
           QString::fromStdString(c.topology.describe() + "|" + c.device.name) + QLatin1Char('|') +
           QString::number(c.commStreams) + QLatin1Char('|') + QString::number(static_cast<int>(c.model)) +
           QLatin1Char('|') + QString::number(static_cast<int>(s.options.timing)) + QLatin1Char('|') +
           QString::number(s.options.exploitSymmetry ? 1 : 0);
}

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

History::History(QObject* parent)
    : QAbstractTableModel(parent)
{}

QString History::configurationText(const engine::Scenario& scenario, const QString& path)
{
    if (!scenario.model)
        return QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName();
    const core::model::ParallelConfig& p = scenario.parallel;
    QString degrees = QStringLiteral("TP %1 × PP %2 × DP %3").arg(p.tp).arg(p.pp).arg(p.dp);
    if (p.cp > 1)
        degrees += QStringLiteral(" × CP %1").arg(p.cp);
    if (p.ep > 1)
        degrees += QStringLiteral(", EP %1").arg(p.ep);
    // The ZeRO stage too: strategies that differ only in it read alike otherwise (the whole strategy
    // is in the row's tooltip).
    if (p.phase == core::model::Phase::Training)
        degrees +=
            QStringLiteral(" · ") + (p.zero == core::model::ZeroStage::None
                                         ? tr("no ZeRO")
                                         : QString::fromStdString(std::string(core::model::displayName(p.zero))));
    // The global batch too: an edit of it alone changes the step as much as a degree does.
    degrees += QStringLiteral(" · ") +
               tr("global batch %1").arg(QLocale().toString(static_cast<qlonglong>(p.effectiveGlobalBatch())));
    return QString::fromStdString(scenario.model->title) + QStringLiteral(" · ") + degrees;
}

QString History::detailsText(const engine::Scenario& scenario, const QString& path)
{
    if (scenario.model)
        return StepSummary::modelTitle(*scenario.model, scenario.parallel);
    return path;
}

QString History::clusterText(const core::Cluster& cluster)
{
    QStringList bandwidths;
    for (const core::TopologyDim& dim : cluster.topology.dims)
        // Decimal GB/s, as the what-if panel and data sheets give them.
        bandwidths << QLocale().toString(dim.decimalGBps(), 'g', 4);
    const QString name = QString::fromStdString(cluster.name);
    // The device too: a device edit keeps the network, and the rows would read alike.
    return tr("%1 · %2 · %3 GB/s")
        .arg(cluster.edited ? tr("%1 (edited)").arg(name) : name, QString::fromStdString(cluster.device.name),
             bandwidths.join(QStringLiteral(" / ")));
}

void History::add(std::shared_ptr<const engine::Evaluation> evaluation, const QString& path, bool fromDisk)
{
    if (!evaluation || !evaluation->result)
        return;
    Entry entry;
    entry.state = Session::State{evaluation->scenario, path, fromDisk}.kept(0);
    entry.configuration = configurationText(evaluation->scenario, path);
    entry.details = detailsText(evaluation->scenario, path);
    entry.cluster = clusterText(evaluation->scenario.cluster);
    entry.stepTime = evaluation->result->stepTime;
    entry.gpus = evaluation->scenario.ranks();
    if (evaluation->figures) {
        const double ranks = static_cast<double>(std::max<std::int64_t>(1, evaluation->scenario.ranks()));
        entry.tokensPerSecondPerGpu = evaluation->figures->tokensPerSecond / ranks;
        entry.mfu = evaluation->figures->mfu;
    }
    entry.evaluation = std::move(evaluation);
    entry.key = keyOf(entry);
    const int previous = m_current;
    int row = -1;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].key == entry.key)
            row = static_cast<int>(i);
    if (row < 0) {
        row = count();
        beginInsertRows({}, row, row);
        m_entries.push_back(std::move(entry));
        endInsertRows();
    } else {
        m_entries[static_cast<std::size_t>(row)] = std::move(entry);
    }
    m_current = row;
    dropEvaluations();
    if (previous >= 0 && previous != row)
        Q_EMIT dataChanged(index(previous, 0), index(previous, ColumnCount - 1));
    // The current row's figures, and every row's comparison when the baseline's own figures changed.
    if (row == m_baseline)
        Q_EMIT dataChanged(index(0, 0), index(count() - 1, ColumnCount - 1));
    else
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void History::dropEvaluations()
{
    for (int row = 0; row < count(); ++row)
        if (row != m_current && row != m_baseline)
            m_entries[static_cast<std::size_t>(row)].evaluation.reset();
}

void History::setBaseline(int row)
{
    if (row >= count() || row == m_baseline)
        return;
    m_baseline = row;
    dropEvaluations();
    if (count() > 0)
        Q_EMIT dataChanged(index(0, 0), index(count() - 1, ColumnCount - 1));
    Q_EMIT baselineChanged();
}

void History::pinEvaluated(int row, std::shared_ptr<const engine::Evaluation> evaluation)
{
    if (row < 0 || row >= count() || !evaluation || !evaluation->result)
        return;
    m_entries[static_cast<std::size_t>(row)].evaluation = std::move(evaluation);
    if (row == m_baseline)
        Q_EMIT baselineChanged();
    else
        setBaseline(row);
}

std::shared_ptr<const engine::Evaluation> History::baselineEvaluation() const
{
    return m_baseline >= 0 ? entry(m_baseline).evaluation : nullptr;
}

QString History::versusBaseline(int row) const
{
    if (m_baseline < 0)
        return {};
    if (row == m_baseline)
        return tr("baseline");
    const double base = entry(m_baseline).stepTime;
    if (base <= 0)
        return {};
    const double change = 100.0 * (entry(row).stepTime - base) / base;
    // Marked where the GPU counts differ: the tooltip (gpuCountNote) says how.
    return (change >= 0 ? QStringLiteral("+") : QString()) + QLocale().toString(change, 'f', 1) + QStringLiteral(" %") +
           (gpusDifferFromBaseline(row) ? QStringLiteral(" *") : QString());
}

bool History::gpusDifferFromBaseline(int row) const
{
    if (m_baseline < 0 || row == m_baseline || row < 0 || row >= count())
        return false;
    const std::int64_t base = entry(m_baseline).gpus, now = entry(row).gpus;
    return base > 0 && now > 0 && base != now;
}

QString History::gpuCountNote(int row) const
{
    if (!gpusDifferFromBaseline(row))
        return {};
    const Entry& base = entry(m_baseline);
    const Entry& now = entry(row);
    QString note = tr("The baseline runs on %1 GPUs, this one on %2: the step time compares the whole job.")
                       .arg(QLocale().toString(static_cast<qlonglong>(base.gpus)),
                            QLocale().toString(static_cast<qlonglong>(now.gpus)));
    if (base.tokensPerSecondPerGpu > 0 && now.tokensPerSecondPerGpu > 0) {
        const double change =
            100.0 * (now.tokensPerSecondPerGpu - base.tokensPerSecondPerGpu) / base.tokensPerSecondPerGpu;
        note += QLatin1Char(' ') +
                tr("Per GPU, tokens/s change by %1 %.")
                    .arg((change >= 0 ? QStringLiteral("+") : QString()) + QLocale().toString(change, 'f', 1));
    }
    return note;
}

int History::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : count();
}

int History::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant History::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= count())
        return {};
    const Entry& e = entry(index.row());
    if (role == Qt::FontRole && (index.row() == m_current || index.row() == m_baseline)) {
        QFont font;
        font.setBold(index.row() == m_current);
        font.setItalic(index.row() == m_baseline);
        return font;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= StepTime)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == VersusBaseline && gpusDifferFromBaseline(index.row()))
        return gpuCountNote(index.row());
    if (role == Qt::ToolTipRole) {
        const QString tip = tr("%1\non %2").arg(e.details, e.cluster);
        return e.mfu < 0 ? tip
                         : tip + QLatin1Char('\n') + tr("MFU %1 %").arg(QLocale().toString(100.0 * e.mfu, 'f', 1));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Number:
        return index.row() + 1;
    case Configuration: {
        // A file name is one long word ("hlo_llama31_70b_bf16_16x8.hlo"): let it wrap after its
        // underscores and dots rather than be cut off at the column's edge.
        QString text = e.configuration;
        if (!e.state.scenario.model) {
            text.replace(QLatin1Char('_'), QStringLiteral("_\u200b"));
            text.replace(QLatin1Char('.'), QStringLiteral(".\u200b"));
        }
        return text;
    }
    case ClusterColumn:
        return e.cluster;
    case StepTime:
        return StepSummary::duration(e.stepTime);
    case Throughput:
        return e.tokensPerSecondPerGpu < 0 ? QString() : QLocale().toString(e.tokensPerSecondPerGpu, 'f', 0);
    case Mfu:
        return e.mfu < 0 ? QString() : QLocale().toString(100.0 * e.mfu, 'f', 1) + QStringLiteral(" %");
    case VersusBaseline:
        return versusBaseline(index.row());
    default:
        return {};
    }
}

QVariant History::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number:
        return QStringLiteral("#");
    case Configuration:
        return tr("Configuration");
    case ClusterColumn:
        return tr("Cluster");
    case StepTime:
        return tr("Step time");
    case Throughput:
        return tr("Tokens/s/GPU");
    case Mfu:
        return tr("MFU");
    case VersusBaseline:
        return tr("vs baseline");
    default:
        return {};
    }
}

QString History::csv() const
{
    QString out =
        QStringLiteral("number,configuration,cluster,step_time_s,tokens_per_s_per_gpu,mfu,baseline,current\n");
    for (int row = 0; row < count(); ++row) {
        const Entry& e = entry(row);
        out += QString::number(row + 1) + QLatin1Char(',') + csvField(e.details) + QLatin1Char(',') +
               csvField(e.cluster) + QLatin1Char(',') + QString::number(e.stepTime, 'g', 9) + QLatin1Char(',') +
               (e.tokensPerSecondPerGpu < 0 ? QString() : QString::number(e.tokensPerSecondPerGpu, 'g', 9)) +
               QLatin1Char(',') + (e.mfu < 0 ? QString() : QString::number(e.mfu, 'g', 6)) + QLatin1Char(',') +
               (row == m_baseline ? QStringLiteral("yes") : QString()) + QLatin1Char(',') +
               (row == m_current ? QStringLiteral("yes") : QString()) + QLatin1Char('\n');
    }
    return out;
}

HistoryPanel::HistoryPanel(History& history, QWidget* parent)
    : QWidget(parent)
    , m_history(history)
{
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("history"));
    m_table->setModel(&history);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(History::Configuration, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(History::ClusterColumn, QHeaderView::Stretch);
    // The dock is narrow: MFU is in the row's tooltip and the CSV, the comparison only with a baseline.
    m_table->setColumnHidden(History::Mfu, true);
    // A configuration and its cluster wrap onto a second line rather than lose their middles ("GPT-3
    // 17… × DP 16" at 1,280 pixels), but no further: rows sized to their text took four lines each
    // in the narrow column, and the short dock showed one and a half of them. What a second line
    // cannot hold ends in an ellipsis; the row's tooltip has all of it.
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(2 * m_table->fontMetrics().lineSpacing() + 8);
    m_reopen = new QPushButton(tr("Re-open"), this);
    m_reopen->setObjectName(QStringLiteral("reopen"));
    m_reopen->setToolTip(tr("Show this configuration again (Ctrl+Z goes back)"));
    m_pin = new QPushButton(tr("Pin as baseline"), this);
    m_pin->setObjectName(QStringLiteral("pinBaseline"));
    m_pin->setToolTip(tr("Compare every estimate with this one"));
    m_export = new QPushButton(tr("Export CSV…"), this);
    // Buttons beside the table: the dock is wide and short.
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_reopen);
    buttons->addWidget(m_pin);
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT reopenRequested(index.row());
    });
    connect(m_reopen, &QPushButton::clicked, this, [this] {
        if (selectedRow() >= 0)
            Q_EMIT reopenRequested(selectedRow());
    });
    connect(m_pin, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0 || row == m_history.baseline())
            m_history.setBaseline(-1);
        else if (m_history.entry(row).evaluation)
            m_history.setBaseline(row);
        else
            Q_EMIT pinRequested(row);
    });
    connect(m_export, &QPushButton::clicked, this, &HistoryPanel::exportRequested);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPanel::updateButtons);
    connect(&history, &History::baselineChanged, this, &HistoryPanel::updateButtons);
    connect(&history, &QAbstractItemModel::dataChanged, this, &HistoryPanel::updateButtons);
    connect(&history, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex&, int, int last) {
        m_table->scrollTo(m_history.index(last, 0));
        updateButtons();
    });
    updateButtons();
}

int HistoryPanel::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.front().row();
}

void HistoryPanel::updateButtons()
{
    m_table->setColumnHidden(History::VersusBaseline, m_history.baseline() < 0);
    const int row = selectedRow();
    m_reopen->setEnabled(row >= 0 && row != m_history.current());
    // The views compare whole estimates, and an older row keeps its figures only: pinning it
    // estimates it again beside what is shown.
    const bool pinned = row >= 0 && row == m_history.baseline();
    const bool held = row >= 0 && m_history.entry(row).evaluation != nullptr;
    m_pin->setEnabled(row >= 0);
    m_pin->setToolTip(row >= 0 && !pinned && !held
                          ? tr("This row keeps its figures, not its whole estimate: it is estimated again (the "
                               "configuration shown stays), then pinned")
                          : tr("Compare every estimate with this one"));
    m_pin->setText(pinned ? tr("Unpin baseline") : tr("Pin as baseline"));
    m_export->setEnabled(m_history.count() > 0);
}

} // namespace flint::app
