// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <memory>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

namespace flint::views {

class OpsTableModel;

/// The Ops tab: every op of the chosen rank in a sortable table (slowest first by default) with a
/// filter on name, kind and scope. Choosing a row emits opActivated(); selectOp() follows a
/// selection made in another view.
class OpsPage : public QWidget {
    Q_OBJECT

public:
    explicit OpsPage(QWidget* parent = nullptr);

    /// Shows `rank`'s ops of `workload` with their times in `result`; while the page is hidden, when
    /// it is next shown or asked for its model (a 50,000-row table costs tens of milliseconds).
    void setData(std::shared_ptr<const core::Workload> workload, std::shared_ptr<const core::EstimateResult> result,
                 int rank);
    /// The estimate to compare with (its workload and result; nulls: none): a "vs baseline" column
    /// with each op's change in time, shown while some op of the rank can be compared.
    void setBaseline(std::shared_ptr<const core::Workload> workload,
                     std::shared_ptr<const core::EstimateResult> result);
    /// The line above the table: how many ops are shown, and why a pinned baseline gives no column.
    QString summary() const;
    /// Selects and shows op `opIndex` of the shown rank without emitting opActivated().
    void selectOp(std::uint32_t opIndex);

    OpsTableModel* model()
    {
        apply();
        return m_model;
    }
    QSortFilterProxyModel* proxy()
    {
        apply();
        return m_proxy;
    }
    QTableView* table()
    {
        apply();
        return m_table;
    }
    QLineEdit* filter() const { return m_filter; }

Q_SIGNALS:
    void opActivated(int rank, int opIndex);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateCount();
    /// Applies m_shown now when the page is visible, else when it is shown.
    void changed();
    /// Gives the table the data of the last setData() and setBaseline() if it has not had them yet.
    void apply();

    struct Shown {
        std::shared_ptr<const core::Workload> workload;
        std::shared_ptr<const core::EstimateResult> result;
        int rank = 0;
        std::shared_ptr<const core::Workload> baselineWorkload;
        std::shared_ptr<const core::EstimateResult> baselineResult;
    };
    Shown m_shown;
    bool m_stale = false; ///< m_shown differs from what the model holds
    OpsTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_count = nullptr;
    bool m_following = false; ///< selectOp() is moving the selection
};

} // namespace flint::views
