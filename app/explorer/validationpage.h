// SPDX-License-Identifier: MIT
#pragma once

#include "app/explorer/session.h"

#include <memory>

#include <QAbstractTableModel>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
QT_END_NAMESPACE

namespace flint::app {

/// The rows of a validation as a table: the op categories, or the collectives largest difference
/// first. Adapts a ValidationReport; computes nothing in data().
class ValidationTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Rows { Categories, Collectives, Ops };
    /// Qt::UserRole on any cell of a collective or op row: its (first) op index in the workload's
    /// program (-1: only measured).
    static constexpr int WorkloadOpRole = Qt::UserRole;

    explicit ValidationTableModel(Rows rows, QObject* parent = nullptr);
    void setReport(std::shared_ptr<const ValidationReport> report);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Rows m_rows;
    std::shared_ptr<const ValidationReport> m_report;
    std::vector<core::measured::CollectiveRow> m_collectives; ///< largest difference first
    std::vector<core::measured::OpRow> m_ops;                 ///< names on both sides, largest difference first
};

/// The Validation tab: the current estimate held against a measured run of the workload
/// (Session::compareWithMeasured). The step time as measured and estimated three ways, the ops per
/// category on both sides, a scatter of estimated against measured collective time with the y = x
/// line, and the collectives and the ops paired by name (an XLA trace's HLO instructions), largest
/// difference first; choosing one shows it in every view.
class ValidationPage : public QWidget {
    Q_OBJECT

public:
    explicit ValidationPage(QWidget* parent = nullptr);

    /// Shows a comparison (null: none; the page then offers to open a measured run).
    void setReport(std::shared_ptr<const ValidationReport> report);
    /// The summary text (HTML) and the tables, for tests.
    QString summaryHtml() const;
    QAbstractItemModel* categories() const { return m_categoryModel; }
    QAbstractItemModel* collectives() const { return m_collectiveModel; }
    QAbstractItemModel* ops() const { return m_opModel; }
    /// Points in the scatter (collectives with both times above zero).
    int scatterPoints() const { return m_points; }

Q_SIGNALS:
    void openRequested();
    void stopRequested();
    /// A collective was chosen (table row or scatter point): op `op` of `rank` in the workload.
    void opChosen(int rank, int op);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuildChart();
    /// Gives the category table the width of its columns and the scatter the rest.
    void fitCategoryTable();

    std::shared_ptr<const ValidationReport> m_report;
    QLabel* m_intro = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_stop = nullptr;
    QWidget* m_body = nullptr;
    ValidationTableModel* m_categoryModel = nullptr;
    ValidationTableModel* m_collectiveModel = nullptr;
    ValidationTableModel* m_opModel = nullptr;
    QTableView* m_categoryTable = nullptr;
    QTableView* m_collectiveTable = nullptr;
    QTableView* m_opTable = nullptr;
    QChartView* m_chart = nullptr;
    QSplitter* m_top = nullptr; ///< the category table beside the scatter
    int m_points = 0;
};

} // namespace flint::app
