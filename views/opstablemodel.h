// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <memory>
#include <vector>

#include <QAbstractTableModel>

namespace flint::views {

/// The ops of one rank as a table: name, kind, scope, estimated start and time, time spent waiting
/// for peers, FLOPs, memory and communication bytes. Rows are built once per setData(); data() only
/// reads them. Sort on SortRole (raw numbers) through a proxy.
class OpsTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Kind, Scope, Start, Duration, DurationDelta, Wait, Flops, MemoryBytes, CommBytes, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole + 1, ///< the cell's raw value (seconds, FLOPs, bytes) or its text
        OpIndexRole,                 ///< the op's index in its rank's Program::ops (every column)
    };

    explicit OpsTableModel(QObject* parent = nullptr);

    /// Shows the ops of `rank`, timed by `result` when it has events for them (null: no times). With a
    /// baseline (an estimate pinned for comparison), DurationDelta holds each op's time minus its time
    /// in the baseline, for ops the baseline has too: the same rank count, the same number of ops on
    /// the rank, and the same name (a what-if edit of one workload, or the same model recompiled).
    void setData(const std::shared_ptr<const core::Workload>& workload,
                 const std::shared_ptr<const core::EstimateResult>& result, int rank,
                 const std::shared_ptr<const core::Workload>& baselineWorkload = {},
                 const std::shared_ptr<const core::EstimateResult>& baselineResult = {});
    /// Whether some op has a time in the baseline.
    bool hasBaseline() const { return m_hasBaseline; }
    int rank() const { return m_rank; }
    /// The row of op `opIndex`, or -1.
    int rowOfOp(std::uint32_t opIndex) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        std::uint32_t op = 0;
        double start = -1; ///< seconds; -1 when the estimate has no event for the op
        double duration = 0;
        double wait = 0;      ///< collective: start - ready (waiting for the group's last member)
        double baseline = -1; ///< the op's time in the baseline; -1 when it has none
    };
    /// Each row's time in the baseline, for ops it can be matched with.
    void matchBaseline(const core::Workload& workload, const core::EstimateResult& result);
    std::shared_ptr<const core::Workload> m_workload;
    const core::Program* m_program = nullptr;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfOp; ///< op index -> row
    int m_rank = 0;
    bool m_hasBaseline = false;
};

} // namespace flint::views
