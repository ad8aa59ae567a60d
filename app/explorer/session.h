// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/model/modelconfig.h"
#include "core/progress.h"
#include "core/workloadloader.h"

#include <memory>

#include <QObject>
#include <QThreadPool>

namespace flint::core::model {
class ModelCompiler;
struct CompiledModel;
} // namespace flint::core::model

namespace flint::app {

/// Runs the core stages for the explorer on worker threads: loading a workload, then estimating it
/// on the current cluster. Every job has an id; a newer job of the same kind cancels the older one
/// and stale results are dropped. Results arrive on the GUI thread through the signals. The
/// previous workload and estimate stay in place when a job fails.
class Session : public QObject {
    Q_OBJECT

public:
    explicit Session(QObject* parent = nullptr);
    /// Cancels running jobs and waits for them.
    ~Session() override;

    /// Loads `path` (anything flint inspect reads), then estimates it on the default cluster for
    /// its rank count (or the current one, when it still fits).
    void open(const QString& path);
    /// Shows a workload built in memory (a built-in model, a benchmark) under `name`, then
    /// estimates it as open() does. Cancels a load in progress.
    void openWorkload(std::shared_ptr<const core::LoadedWorkload> workload, const QString& name);
    /// Compiles a built-in model for `parallel` on a worker (core/model/modelcompiler.h; blocks the
    /// session compiled before are reused), shows it as the workload and estimates it on the current
    /// cluster preset sized for its ranks. A newer call cancels an older one.
    void openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel);
    /// The compiled model the current workload came from; null for a file.
    std::shared_ptr<const core::model::CompiledModel> compiledModel() const { return m_model; }
    /// The session's model compiler (thread-safe; a sweep shares its cached blocks).
    std::shared_ptr<core::model::ModelCompiler> compiler() const { return m_compiler; }
    /// Writes the current workload as Chakra traces PREFIX.RANK.et + PREFIX.json on a worker (all files
    /// or none); reports through exported() or failed().
    void exportChakra(const QString& prefix);
    /// Re-estimates the current workload on `cluster`.
    void setCluster(const core::Cluster& cluster);
    /// The preset `name` sized for the current workload's ranks.
    std::optional<core::Cluster> presetForWorkload(const QString& name) const;

    std::shared_ptr<const core::LoadedWorkload> workload() const { return m_workload; }
    std::shared_ptr<const core::EstimateResult> result() const { return m_result; }
    const core::Cluster& cluster() const { return m_cluster; }
    QString path() const { return m_path; }
    bool isBusy() const { return m_loadJob != m_loadDone || m_estimateJob != m_estimateDone; }

    /// The cluster preset the explorer starts with.
    static constexpr const char* kDefaultPreset = "dgx-h100-ib";

Q_SIGNALS:
    void workloadAvailable(std::shared_ptr<const core::LoadedWorkload> workload, const QString& path);
    /// A built-in model was compiled and is about to be estimated.
    void modelCompiled(std::shared_ptr<const flint::core::model::CompiledModel> model);
    void estimateAvailable(std::shared_ptr<const core::EstimateResult> result, const core::Cluster& cluster);
    /// An export finished: what was written.
    void exported(const QString& message);
    /// A job failed: a one-line summary and the details (file, line, reason).
    void failed(const QString& summary, const QString& details);
    /// What is running ("" when idle), and its progress in percent (-1: unknown).
    void busyChanged(const QString& message, int percent);

private:
    /// Makes `loaded` the current workload (sizing the cluster for it) and estimates it.
    void adopt(std::shared_ptr<const core::LoadedWorkload> loaded, const QString& path);
    void startEstimate();
    void reportBusy();

    QThreadPool m_pool;
    std::shared_ptr<const core::LoadedWorkload> m_workload;
    std::shared_ptr<const core::model::CompiledModel> m_model;
    std::shared_ptr<core::model::ModelCompiler> m_compiler;
    std::shared_ptr<const core::EstimateResult> m_result;
    core::Cluster m_cluster;
    QString m_path;
    quint64 m_loadJob = 0;
    quint64 m_loadDone = 0;
    quint64 m_estimateJob = 0;
    quint64 m_estimateDone = 0;
    std::shared_ptr<core::CancellationToken> m_loadCancel;
    std::shared_ptr<core::CancellationToken> m_estimateCancel;
    int m_percent = -1;
    bool m_loadingModel = false;
};

} // namespace flint::app
