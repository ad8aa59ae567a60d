// SPDX-License-Identifier: MIT
#include "views/opstablemodel.h"

#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <cmath>

#include <QLocale>

namespace flint::views {
namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

OpsTableModel::OpsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{}

void OpsTableModel::setData(const std::shared_ptr<const core::Workload>& workload,
                            const std::shared_ptr<const core::EstimateResult>& result, int rank,
                            const std::shared_ptr<const core::Workload>& baselineWorkload,
                            const std::shared_ptr<const core::EstimateResult>& baselineResult)
{
    beginResetModel();
    m_workload = workload;
    m_program = nullptr;
    m_rows.clear();
    m_rowOfOp.clear();
    m_rank = 0;
    m_hasBaseline = false;
    if (m_workload && rank >= 0 && static_cast<std::size_t>(rank) < m_workload->rankCount()) {
        m_rank = rank;
        m_program = &m_workload->programOf(static_cast<std::size_t>(rank));
        m_rows.resize(m_program->ops.size());
        m_rowOfOp.resize(m_program->ops.size());
        for (std::uint32_t i = 0; i < m_rows.size(); ++i) {
            m_rows[i].op = i;
            m_rowOfOp[i] = static_cast<int>(i);
        }
        if (result && result->ranks.size() == m_workload->rankCount())
            for (const core::OpEvent& e : result->eventsOf(static_cast<std::size_t>(rank)))
                if (e.op < m_rows.size()) {
                    Row& row = m_rows[e.op];
                    row.start = e.start;
                    row.duration = e.end - e.start;
                    row.wait = e.start - e.ready;
                }
        if (baselineWorkload && baselineResult)
            matchBaseline(*baselineWorkload, *baselineResult);
    }
    endResetModel();
}

void OpsTableModel::matchBaseline(const core::Workload& workload, const core::EstimateResult& result)
{
    const auto rank = static_cast<std::size_t>(m_rank);
    if (workload.rankCount() != m_workload->rankCount() || result.ranks.size() != workload.rankCount() ||
        workload.programOf(rank).ops.size() != m_program->ops.size())
        return;
    const core::Program& base = workload.programOf(rank);
    const bool sameProgram = &base == m_program;
    for (const core::OpEvent& e : result.eventsOf(rank))
        if (e.op < m_rows.size() && (sameProgram || base.ops[e.op].name == m_program->ops[e.op].name)) {
            m_rows[e.op].baseline = e.end - e.start;
            m_hasBaseline = true;
        }
}

int OpsTableModel::rowOfOp(std::uint32_t opIndex) const
{
    return opIndex < m_rowOfOp.size() ? m_rowOfOp[opIndex] : -1;
}

int OpsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OpsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || !m_program)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const core::Op& op = m_program->ops[row.op];
    if (role == OpIndexRole)
        return QVariant::fromValue(row.op);
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Start ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::DecorationRole && index.column() == Kind)
        return colorOf(op);
    if (role == Qt::ToolTipRole && index.column() == Name)
        return qs(op.scope.empty() ? op.name : op.scope + '/' + op.name);
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort)
        return {};
    const bool timed = row.start >= 0;
    switch (index.column()) {
    case Name:
        return qs(op.name);
    case Kind:
        return kindLabel(op);
    case Scope:
        return qs(op.scope);
    case Start:
        if (sort)
            return row.start;
        return timed ? qs(formatDuration(row.start)) : QString();
    case Duration:
        if (sort)
            return row.duration;
        return timed ? qs(formatDuration(row.duration)) : QString();
    case DurationDelta: {
        const bool compared = timed && row.baseline >= 0;
        const double delta = compared ? row.duration - row.baseline : 0.0;
        if (sort)
            return delta;
        if (!compared)
            return QString();
        return delta == 0
                   ? QStringLiteral("=")
                   : (delta > 0 ? QStringLiteral("+") : QStringLiteral("−")) + qs(formatDuration(std::abs(delta)));
    }
    case Wait:
        if (sort)
            return row.wait;
        return timed && row.wait > 0 ? qs(formatDuration(row.wait)) : QString();
    case Flops:
        if (sort)
            return static_cast<double>(op.flops);
        return op.flops ? formatCount(static_cast<double>(op.flops), tr("FLOP")) : QString();
    case MemoryBytes:
        if (sort)
            return static_cast<double>(op.memoryBytes());
        return op.memoryBytes() ? qs(formatBytes(static_cast<double>(op.memoryBytes()))) : QString();
    case CommBytes:
        if (sort)
            return static_cast<double>(op.commBytes);
        return op.commBytes ? qs(formatBytes(static_cast<double>(op.commBytes))) : QString();
    default:
        return {};
    }
}

QVariant OpsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Start:
            return tr("Estimated start, from the step's start");
        case Duration:
            return tr("Estimated time once the op runs");
        case DurationDelta:
            return tr("The op's time minus its time in the pinned baseline");
        case Wait:
            return tr("Time a collective waited for the last member of its group");
        case MemoryBytes:
            return tr("Device memory bytes read and written");
        case CommBytes:
            return tr("Bytes this rank contributes to a collective or sends");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Op");
    case Kind:
        return tr("Kind");
    case Scope:
        return tr("Scope");
    case Start:
        return tr("Start");
    case Duration:
        return tr("Time");
    case DurationDelta:
        return tr("vs baseline");
    case Wait:
        return tr("Waited");
    case Flops:
        return tr("FLOPs");
    case MemoryBytes:
        return tr("Memory");
    case CommBytes:
        return tr("Communicated");
    default:
        return {};
    }
}

} // namespace flint::views
