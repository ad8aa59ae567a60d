// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/measured/validation.h"
#include "core/model/modelconfig.h"
#include "engine/scenario.h"
#include "engine/workloadloader.h"
#include "views/jobrunner.h"

#include <memory>
#include <vector>

#include <QObject>
#include <QUndoStack>

namespace flint::core::model {
class ModelCompiler;
struct CompiledModel;
} // namespace flint::core::model

namespace flint::app {

/// The current estimate held against a measured run (Session::compareWithMeasured).
struct ValidationReport {
    std::shared_ptr<const core::measured::MeasuredWorkload> run;
    QString path; ///< the measured run's file or folder
    /// Why there is no comparison ("" when there is one): the run and the workload differ in ranks.
    QString problem;
    /// The run was measured on another device than the estimate's cluster has ("" when not).
    QString deviceMismatch;
    core::measured::Validation validation;
    /// The estimate that was compared; the report belongs to it.
    std::shared_ptr<const engine::Evaluation> evaluation;
    /// The measured run replayed as measured (its timelines), on the estimate's cluster; null with a problem.
    std::shared_ptr<const core::EstimateResult> replay;
};

/// The one owner of the explorer's state: the current scenario (engine::Scenario: the workload
/// source, the cluster, the estimator options). Panels never keep their own copy; they ask the
/// session for a change (open, openModel, setCluster, choosePreset) and show what it reports
/// through scenarioChanged() and estimateAvailable(). The work runs on the session's views::JobRunner: a
/// newer request supersedes an older one of the same kind and stale results are dropped; the
/// previous workload and estimate stay in place when a job fails.
class Session : public QObject {
    Q_OBJECT

public:
    /// What the explorer shows: a scenario and the name it is shown under (a file's path, or a
    /// model's title and strategy).
    struct State {
        /// Undo steps keep the workload of a file up to this many ops (in distinct programs), about
        /// 60 MB; restoring a larger one reads the file again.
        static constexpr std::size_t kKeptOps = 250'000;

        engine::Scenario scenario;
        QString path;
        /// The workload was read from `path` (a file, folder or trace prefix) and can be read again.
        bool fromDisk = false;

        /// This state without the workload read from disk when it holds more than `maxOps` ops
        /// (restore() then reads `path` again). Workloads built in memory are always kept.
        State kept(std::size_t maxOps = kKeptOps) const;
    };

    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    /// Loads `path` (anything flint inspect reads), then estimates it on the current cluster sized
    /// for its ranks (engine::fitCluster).
    void open(const QString& path);
    /// Shows a workload built in memory (a built-in model, a benchmark) under `name`, then
    /// estimates it as open() does. Cancels a load in progress.
    void openWorkload(std::shared_ptr<const core::LoadedWorkload> workload, const QString& name);
    /// Compiles a built-in model for `parallel` on a worker (blocks compiled before are reused),
    /// shows it as the workload and estimates it on the current cluster sized for its ranks; what
    /// the user set on the network stays. A newer call cancels an older one.
    void openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel);
    /// Opens a whole scenario (a sweep point: its model, strategy and cluster).
    void openScenario(const engine::Scenario& scenario);
    /// Re-estimates the current workload on `cluster` (sized for its ranks).
    void setCluster(const core::Cluster& cluster);
    /// Re-estimates the current workload on the preset `name` sized for its ranks.
    void choosePreset(const QString& name);
    /// Shows `state` again (undo, redo, a row of the history): a model is compiled again (its blocks
    /// come from the cache), a workload read before is estimated again on the state's cluster. Not
    /// itself an undo step unless `record`.
    void restore(const State& state, bool record = false);
    /// Evaluates `state` beside what is shown (a History row to pin as the baseline) and delivers it
    /// through evaluatedBeside(`token`, ...); the shown scenario does not change. A newer request
    /// supersedes one still running.
    void evaluateBeside(const State& state, int token);
    /// Undo and redo of what the session shows: every change it adopts (a file or workload opened, a
    /// model or strategy compiled, a cluster edited) is one step, pushed when the change took effect
    /// (a failed load or compile leaves no step); network edits less than a second apart are one. It
    /// holds the last kUndoLimit steps.
    QUndoStack& undoStack() { return m_undo; }
    static constexpr int kUndoLimit = 100;
    /// Holds every estimate from now on against the measured run at `path` (a PyTorch profiler trace
    /// or a folder of one per rank): the run is read on a worker, then each estimate of the current
    /// workload is compared with it (validationAvailable). An empty path stops comparing.
    void compareWithMeasured(const QString& path);
    /// The measured run compared with, or null.
    std::shared_ptr<const core::measured::MeasuredWorkload> measuredRun() const { return m_measured; }
    QString measuredPath() const { return m_measuredPath; }
    /// The run last asked for by compareWithMeasured, read yet or not ("" when none or cleared).
    QString requestedMeasuredPath() const { return m_requestedMeasuredPath; }
    /// The latest comparison, or null.
    std::shared_ptr<const ValidationReport> validation() const { return m_validation; }

    /// The current state (scenario and name).
    State state() const { return {m_scenario, m_path, m_fromDisk}; }

    /// Writes the current workload as Chakra traces PREFIX.RANK.et + PREFIX.json on a worker (all files
    /// or none); reports through exported() or failed().
    void exportChakra(const QString& prefix);

    /// The scenario as requested last, settled for its ranks: what the panels show.
    const engine::Scenario& scenario() const { return m_scenario; }
    /// The cluster of scenario().
    const core::Cluster& cluster() const { return m_scenario.cluster; }
    /// The workload shown (the last one opened, loaded or compiled); null before the first.
    std::shared_ptr<const core::LoadedWorkload> workload() const { return m_prepared ? m_prepared->workload : nullptr; }
    /// The compiled model the current workload came from; null for a file.
    std::shared_ptr<const core::model::CompiledModel> compiledModel() const
    {
        return m_prepared ? m_prepared->compiled : nullptr;
    }
    /// The latest estimate, with the exact scenario, workload and cluster it was computed for.
    std::shared_ptr<const engine::Evaluation> evaluation() const { return m_evaluation; }
    std::shared_ptr<const core::EstimateResult> result() const { return m_evaluation ? m_evaluation->result : nullptr; }
    /// The session's model compiler (thread-safe; a sweep shares its cached blocks).
    std::shared_ptr<core::model::ModelCompiler> compiler() const { return m_compiler; }
    /// The job tracker every piece of the explorer's core work runs on.
    views::JobRunner& jobs() { return m_jobs; }
    QString path() const { return m_path; }
    bool isBusy() const
    {
        return m_jobs.isRunning(views::JobRunner::Kind::Load) || m_jobs.isRunning(views::JobRunner::Kind::Estimate);
    }

    /// The cluster preset the explorer starts with.
    static constexpr const char* kDefaultPreset = "dgx-h100-ib";

Q_SIGNALS:
    void workloadAvailable(std::shared_ptr<const core::LoadedWorkload> workload, const QString& path);
    /// A built-in model was compiled and is about to be estimated.
    void modelCompiled(std::shared_ptr<const flint::core::model::CompiledModel> model);
    /// The scenario changed (a new source, a cluster edit, sizing for new ranks): what an estimate
    /// now under way computes.
    void scenarioChanged(const flint::engine::Scenario& scenario);
    /// An estimate finished; `evaluation` carries the scenario it was computed for.
    void estimateAvailable(std::shared_ptr<const flint::engine::Evaluation> evaluation);
    /// What evaluateBeside(state, `token`) asked for; failures arrive through failed().
    void evaluatedBeside(int token, std::shared_ptr<const flint::engine::Evaluation> evaluation);
    /// An export finished: what was written.
    void exported(const QString& message);
    /// A job failed: a one-line summary and the details (file, line, reason).
    void failed(const QString& summary, const QString& details);
    /// What is running ("" when idle), and its progress in percent (-1: unknown).
    void busyChanged(const QString& message, int percent);
    /// The latest estimate was held against the measured run (or the comparison was stopped: null).
    void validationAvailable(std::shared_ptr<const flint::app::ValidationReport> report);

private:
    /// Holds the latest estimate against the measured run on a worker.
    void startValidation();
    /// Reads `path` on a worker, then shows it on the cluster of `base` when `baseCluster` (a restored
    /// state), else on the cluster shown when the load ends; sized for its ranks.
    void load(const QString& path, const engine::Scenario& base, bool record, bool baseCluster);
    /// Compiles the model of `scenario` on a worker, then adopts and estimates it.
    void compile(const engine::Scenario& scenario, bool record);
    /// Shows the in-memory workload of `scenario` under `name` and estimates it.
    void adoptWorkload(const engine::Scenario& scenario, const QString& name, bool record, bool fromDisk);
    /// Makes `prepared` the current workload and estimates it; with `record`, an undo step from what
    /// was shown before.
    void adopt(std::shared_ptr<const engine::Evaluation> prepared, const QString& path, bool record, bool fromDisk);
    /// Re-estimates on `cluster`, one undo step named `step` (merged with the previous one when
    /// `mergeable` and it came less than a second before).
    void changeCluster(const core::Cluster& cluster, const QString& step, bool mergeable);
    /// Keeps `old` (a workload or estimate no longer shown) until releaseRetired().
    void retire(std::shared_ptr<const void> old);
    /// Lets go of what retire() kept on a worker thread: freeing a million-op workload took tens of
    /// milliseconds of the GUI thread after every strategy edit.
    void releaseRetired();
    /// Pushes an undo step from `before` to what is shown now.
    void recordStep(const State& before, const QString& text, bool clusterEdit);
    void startEstimate();

    views::JobRunner m_jobs;
    QUndoStack m_undo;
    std::shared_ptr<core::model::ModelCompiler> m_compiler;
    /// Shared by the session's estimates (core::EstimateCache: program infos between what-if edits).
    std::shared_ptr<core::EstimateCache> m_estimateCache = std::make_shared<core::EstimateCache>();
    engine::Scenario m_scenario;
    std::shared_ptr<const engine::Evaluation> m_prepared;
    std::shared_ptr<const engine::Evaluation> m_evaluation;
    QString m_path;
    bool m_fromDisk = false; ///< State::fromDisk of what is shown
    std::shared_ptr<const core::measured::MeasuredWorkload> m_measured;
    QString m_measuredPath;
    QString m_requestedMeasuredPath;
    std::shared_ptr<const ValidationReport> m_validation;
    std::vector<std::shared_ptr<const void>> m_retired;
};

} // namespace flint::app
