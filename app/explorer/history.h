// SPDX-License-Identifier: MIT
#pragma once

#include "app/explorer/session.h"
#include "engine/scenario.h"

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QWidget>

class QPushButton;
class QTableView;

namespace flint::app {

/// The configurations tried in this session: one row per distinct scenario estimated (newest last),
/// with its figures. One row may be the baseline, which the others and the current estimate are
/// compared with. Rows keep their scenario (re-opened through Session::restore) without a file's
/// workload (re-opening reads the file again), and their figures; only the current row and the
/// baseline keep their whole evaluation, so that a long session does not hold every estimate's
/// workload, timelines and matrix.
class History : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Number, Configuration, ClusterColumn, StepTime, Throughput, Mfu, VersusBaseline, ColumnCount };

    struct Entry {
        Session::State state;
        QString configuration; ///< "Llama 3 8B · TP 1 × PP 1 × DP 8" or the file's name
        QString details;       ///< the whole strategy ("… 1F1B, 8 microbatches of 1, ZeRO-1 …") or the path
        QString cluster;       ///< "dgx-h100-ib (edited) · 450 / 50 GB/s"
        QString key;           ///< what makes two rows the same configuration
        double stepTime = 0;
        double tokensPerSecondPerGpu = -1; ///< -1: not a built-in model
        std::int64_t gpus = 0;             ///< the ranks it ran on
        double mfu = -1;
        /// Held while the row is current or the baseline, else null.
        std::shared_ptr<const engine::Evaluation> evaluation;
    };

    explicit History(QObject* parent = nullptr);

    /// Records an estimate shown under `path` (read from there when `fromDisk`): a new row, or the
    /// row of the same scenario tried before (its figures refreshed). That row becomes the current one.
    void add(std::shared_ptr<const engine::Evaluation> evaluation, const QString& path, bool fromDisk);
    const Entry& entry(int row) const { return m_entries.at(static_cast<std::size_t>(row)); }
    int count() const { return static_cast<int>(m_entries.size()); }
    /// The row of the estimate shown now, or -1.
    int current() const { return m_current; }
    /// The baseline's row, or -1.
    int baseline() const { return m_baseline; }
    /// Pins `row` as the baseline (-1: none).
    void setBaseline(int row);
    /// Pins `row` with `evaluation`, its scenario estimated again (a row that had kept its figures
    /// only: Session::evaluateBeside).
    void pinEvaluated(int row, std::shared_ptr<const engine::Evaluation> evaluation);
    /// The baseline's evaluation (null without a baseline).
    std::shared_ptr<const engine::Evaluation> baselineEvaluation() const;
    /// When `row` runs on another number of GPUs than the baseline: a sentence saying so, with the
    /// change in tokens/s per GPU where both are built-in models (a step-time change then also
    /// reflects the GPUs added or taken away); "" otherwise.
    QString gpuCountNote(int row) const;
    /// The table as CSV (a header line, then one line per row; numbers in SI units, unformatted).
    QString csv() const;

    /// How a scenario is written in the Configuration column (briefly) and its tooltip (wholly).
    static QString configurationText(const engine::Scenario& scenario, const QString& path);
    static QString detailsText(const engine::Scenario& scenario, const QString& path);
    static QString clusterText(const core::Cluster& cluster);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void baselineChanged();

private:
    /// Step time of `row` against the baseline's, in percent ("" for the baseline itself or none).
    QString versusBaseline(int row) const;
    /// Whether `row` and the baseline ran on known and different numbers of GPUs (gpuCountNote).
    bool gpusDifferFromBaseline(int row) const;
    /// Drops the evaluations of rows that are neither current nor the baseline.
    void dropEvaluations();

    std::vector<Entry> m_entries;
    int m_current = -1;
    int m_baseline = -1;
};

/// The History dock: the configurations tried, with Re-open (or a double click), Pin as baseline
/// (a row that kept its figures only is estimated again first: pinRequested) and Export CSV.
class HistoryPanel : public QWidget {
    Q_OBJECT

public:
    HistoryPanel(History& history, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }
    /// The selected row, or -1.
    int selectedRow() const;

Q_SIGNALS:
    void reopenRequested(int row);
    /// Pin `row`, which does not hold its estimate: estimate it again, then History::pinEvaluated.
    void pinRequested(int row);
    void exportRequested();

private:
    void updateButtons();

    History& m_history;
    QTableView* m_table = nullptr;
    QPushButton* m_reopen = nullptr;
    QPushButton* m_pin = nullptr;
    QPushButton* m_export = nullptr;
};

} // namespace flint::app
