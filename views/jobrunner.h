// SPDX-License-Identifier: MIT
#pragma once

#include "core/progress.h"

#include <array>
#include <functional>
#include <memory>

#include <QObject>
#include <QString>
#include <QThreadPool>

namespace flint::views {

/// The explorer's one job tracker: every piece of core work the explorer does (loading or compiling
/// a workload, estimating it, sweeping, writing exports, explaining a selection, laying out the
/// graph) runs here on a worker thread, never on the GUI thread. A job has a kind; a newer job of a superseding kind
/// cancels the one running and drops what it would still deliver, so a result on screen is never older than the last
/// request. Progress is throttled to whole percents and reported, with a message, for the job the user most waits for.
class JobRunner : public QObject {
    Q_OBJECT

public:
    /// In the order busyChanged() reports them when several run. Inspect: explaining a selected op
    /// or finding the op behind a matrix cell (short; no busy message). Layout: the graph view's
    /// Graphviz layouts. Baseline: estimating a History row to pin it, beside what is shown.
    enum class Kind { Load, Estimate, Validate, Sweep, Baseline, Export, Layout, Inspect };
    static constexpr std::size_t kKinds = 8;

    /// A job's body: runs on a worker with the job's cancellation and progress; returns what to do
    /// on the GUI thread with the result (dropped when the job was superseded). Throws Cancelled.
    using Work = std::function<std::function<void()>(const core::JobControl& control)>;

    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels running jobs and waits for them.
    ~JobRunner() override;

    /// Starts `work` as the current job of `kind` with the busy `message`. A running job of the same
    /// kind is cancelled and its delivery dropped, except for exports, which run to the end (files
    /// are being written) and each deliver.
    void start(Kind kind, const QString& message, Work work);
    /// Cancels the current job of `kind` (its delivery is dropped).
    void cancel(Kind kind);
    /// Cancels every running job and waits for all of them. An owner whose jobs use its members
    /// calls it first in its destructor: members are destroyed before a JobRunner member declared
    /// ahead of them would wait, and a job still running would use freed memory.
    void stop();
    bool isRunning(Kind kind) const { return slot(kind).running > 0; }
    bool isBusy() const;

Q_SIGNALS:
    /// What is running ("" when idle) and its progress in percent (-1: unknown).
    void busyChanged(const QString& message, int percent);

private:
    struct Slot {
        quint64 current = 0; ///< id of the newest job of this kind
        int running = 0;     ///< jobs of this kind not finished yet
        QString message;
        int percent = -1;
        std::shared_ptr<core::CancellationToken> cancel;
    };
    Slot& slot(Kind kind) { return m_slots[static_cast<std::size_t>(kind)]; }
    const Slot& slot(Kind kind) const { return m_slots[static_cast<std::size_t>(kind)]; }
    void finished(Kind kind);
    void reportBusy();

    QThreadPool m_pool;
    std::array<Slot, kKinds> m_slots;
    quint64 m_nextId = 0;
};

} // namespace flint::views
