// SPDX-License-Identifier: MIT
#pragma once

#include "engine/scenario.h"
#include "engine/workloadloader.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTextBrowser;
QT_END_NAMESPACE

namespace flint::views {
class JobRunner;
}

namespace flint::app {

/// The Details dock: the step summary on top, below it the open workload's description or the
/// explanation of the op the user selected. Explaining an op (its transfers, its times on the
/// estimate shown, the estimator's formula) and finding the op behind a matrix cell are core work
/// and run as Inspect jobs on the session's views::JobRunner; a newer selection supersedes an older one.
class DetailsPanel : public QWidget {
    Q_OBJECT

public:
    using Flows = std::vector<std::pair<std::int32_t, std::int32_t>>;

    DetailsPanel(views::JobRunner& jobs, QWidget* parent = nullptr);

    /// Describes a newly opened workload (and clears the explanation of an op); a built-in model's
    /// from `compiled`, in the interface's language.
    void showWorkload(const core::LoadedWorkload& workload, const core::model::CompiledModel* compiled = nullptr);
    /// Shows the step summary of an estimate.
    void showEstimate(const engine::Evaluation& evaluation);
    /// Greys the step summary out while a new estimate is on its way: it is still the previous one.
    void setSummaryStale(bool stale);
    bool summaryStale() const;
    /// Explains op `op` of `rank` of `workload` on a worker. Times and the formula are those of
    /// `evaluation` when it estimated this workload (on the cluster it ran on); otherwise the op is
    /// explained on `cluster` without times. Emits explained() when done.
    void explainOp(std::shared_ptr<const core::LoadedWorkload> workload,
                   std::shared_ptr<const engine::Evaluation> evaluation, const core::Cluster& cluster, int rank,
                   int op);
    /// Shows an explanation from explained(), with how many matrix cells its transfers outline.
    void showExplanation(const QString& html, bool hasFlows, int cellCount);
    /// Finds, on a worker, the op of `evaluation` that moves the most bytes from ranks
    /// [srcFirst, srcFirst + srcCount) to [dstFirst, dstFirst + dstCount); emits opFound().
    void findHeaviestOp(std::shared_ptr<const engine::Evaluation> evaluation, int srcFirst, int srcCount, int dstFirst,
                        int dstCount);

    /// The Details text (HTML).
    QString html() const;
    QString summary() const;

Q_SIGNALS:
    /// An op was explained: its transfers (for the matrix) and the text to show.
    void explained(int rank, int op, const flint::app::DetailsPanel::Flows& flows, const QString& html);
    /// The heaviest op between a cell's ranges; `rank` < 0 when no op sends from those ranks to those.
    void opFound(int rank, int op, double bytes, int dstFirst, int dstCount);

private:
    views::JobRunner& m_jobs;
    QLabel* m_summary = nullptr;
    QTextBrowser* m_details = nullptr;
};

} // namespace flint::app
