// SPDX-License-Identifier: MIT
#include "app/explorer/session.h"

#include "core/chakra.h"
#include "core/error.h"
#if defined(FLINT_HAVE_MODELS)
#include "core/model/modelcompiler.h"
#endif

#include <algorithm>

#include <QFileInfo>
#include <QPointer>

namespace flint::app {
namespace {

/// Runs `work` on `pool`; `work` returns a callable that is then run on `context`'s thread.
template <typename Work>
void runJob(QThreadPool& pool, QObject* context, Work work)
{
    pool.start([context, work = std::move(work)]() mutable {
        auto deliver = work();
        QMetaObject::invokeMethod(context, std::move(deliver), Qt::QueuedConnection);
    });
}

QString describe(const std::exception& e)
{
    return QString::fromStdString(e.what());
}

} // namespace

Session::Session(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(2);
#if defined(FLINT_HAVE_MODELS)
    m_compiler = std::make_shared<core::model::ModelCompiler>();
#endif
    if (auto preset = core::clusterPreset(kDefaultPreset, 8))
        m_cluster = *preset;
}

Session::~Session()
{
    if (m_loadCancel)
        m_loadCancel->cancel();
    if (m_estimateCancel)
        m_estimateCancel->cancel();
    m_pool.waitForDone();
}

void Session::reportBusy()
{
    QString message;
    if (m_loadJob != m_loadDone)
        message =
            m_loadingModel ? tr("Compiling %1…").arg(m_path) : tr("Loading %1…").arg(QFileInfo(m_path).fileName());
    else if (m_estimateJob != m_estimateDone)
        message = tr("Estimating on %1…").arg(QString::fromStdString(m_cluster.name));
    Q_EMIT busyChanged(message, message.isEmpty() ? -1 : m_percent);
}

void Session::open(const QString& path)
{
    if (m_loadCancel)
        m_loadCancel->cancel();
    auto cancel = std::make_shared<core::CancellationToken>();
    m_loadCancel = cancel;
    const quint64 job = ++m_loadJob;
    m_path = path;
    m_percent = -1;
    m_loadingModel = false;
    reportBusy();
    const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
    runJob(m_pool, this, [this, job, cancel, file, path]() -> std::function<void()> {
        try {
            core::JobControl control;
            control.cancel = cancel.get();
            auto loaded = std::make_shared<const core::LoadedWorkload>(core::loadWorkload(file, {}, control));
            return [this, job, loaded, path] {
                if (job != m_loadJob)
                    return; // a newer file was opened meanwhile
                m_loadDone = job;
                m_model.reset();
                adopt(loaded, path);
            };
        } catch (const core::Cancelled&) {
            return [] {};
        } catch (const std::exception& e) {
            const QString details = describe(e);
            return [this, job, details, path] {
                if (job != m_loadJob)
                    return;
                m_loadDone = job;
                reportBusy();
                Q_EMIT failed(tr("Cannot open %1").arg(QFileInfo(path).fileName()), details);
            };
        }
    });
}

void Session::openWorkload(std::shared_ptr<const core::LoadedWorkload> workload, const QString& name)
{
    if (m_loadCancel)
        m_loadCancel->cancel();
    m_loadDone = ++m_loadJob; // a load still running is now stale
    m_model.reset();
    adopt(std::move(workload), name);
}

void Session::openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel)
{
#if defined(FLINT_HAVE_MODELS)
    if (m_loadCancel)
        m_loadCancel->cancel();
    auto cancel = std::make_shared<core::CancellationToken>();
    m_loadCancel = cancel;
    const quint64 job = ++m_loadJob;
    const QString name = QString::fromStdString(model.title + " — " + parallel.describe());
    m_path = name;
    m_percent = -1;
    m_loadingModel = true;
    reportBusy();
    runJob(m_pool, this, [this, job, cancel, model, parallel, name, compiler = m_compiler]() -> std::function<void()> {
        try {
            core::JobControl control;
            control.cancel = cancel.get();
            auto compiled =
                std::make_shared<const core::model::CompiledModel>(compiler->compile(model, parallel, control));
            auto loaded = std::make_shared<core::LoadedWorkload>();
            loaded->kind = core::InputKind::BuiltinModel;
            loaded->workload = compiled->workload;
            loaded->name = name.toStdString();
            loaded->warnings = compiled->warnings;
            loaded->notes.push_back("generated as StableHLO blocks, partitioned for the stage mesh " +
                                    compiled->meshText + " and composed into " + std::to_string(parallel.pp) +
                                    " pipeline stage program(s) (docs/models.md)");
            loaded->numPartitions = static_cast<std::int64_t>(compiled->workload.rankCount());
            return [this, job, compiled, loaded, name] {
                if (job != m_loadJob)
                    return;
                m_loadDone = job;
                m_model = compiled;
                m_cluster.commStreams = std::max(m_cluster.commStreams, compiled->commStreams);
                Q_EMIT modelCompiled(compiled);
                adopt(loaded, name);
            };
        } catch (const core::Cancelled&) {
            return [] {};
        } catch (const std::exception& e) {
            const QString details = describe(e);
            return [this, job, details, name] {
                if (job != m_loadJob)
                    return;
                m_loadDone = job;
                reportBusy();
                Q_EMIT failed(tr("Cannot compile %1").arg(name), details);
            };
        }
    });
#else
    (void)model;
    (void)parallel;
    Q_EMIT failed(tr("Built-in models need the MLIR frontend"),
                  tr("This build has no MLIR frontend (FLINT_BUILD_MLIR=OFF), which built-in models compile through."));
#endif
}

void Session::adopt(std::shared_ptr<const core::LoadedWorkload> loaded, const QString& path)
{
    m_workload = std::move(loaded);
    m_path = path;
    const auto ranks = static_cast<std::int64_t>(m_workload->workload.rankCount());
    // Keep the cluster the user shaped when it still holds the workload; otherwise the default
    // preset (or the current one) sized for the new rank count.
    if (m_cluster.topology.npuCount() < ranks || m_cluster.topology.npuCount() > 4 * ranks) {
        const std::string preset = m_cluster.name.empty() ? kDefaultPreset : m_cluster.name;
        if (auto sized = core::clusterPreset(preset, ranks))
            m_cluster = *sized;
        else if (auto fallback = core::clusterPreset(kDefaultPreset, ranks))
            m_cluster = *fallback;
    }
#if defined(FLINT_HAVE_MODELS)
    // A built-in model reduces data-parallel gradients on a stream of their own (Megatron-LM).
    if (m_model)
        m_cluster.commStreams = std::max(m_cluster.commStreams, m_model->commStreams);
#endif
    Q_EMIT workloadAvailable(m_workload, m_path);
    startEstimate();
}

void Session::exportChakra(const QString& prefix)
{
    std::shared_ptr<const core::LoadedWorkload> workload = m_workload;
    if (!workload)
        return;
    Q_EMIT busyChanged(tr("Writing Chakra traces %1…").arg(prefix), -1);
    runJob(m_pool, this, [this, workload, prefix]() -> std::function<void()> {
        try {
            const auto written = core::writeChakraWorkload(workload->workload, prefix.toStdString());
            return [this, count = written.size(), prefix] {
                reportBusy();
                Q_EMIT exported(tr("Wrote %n file(s) for %1", nullptr, static_cast<int>(count)).arg(prefix));
            };
        } catch (const std::exception& e) {
            const QString details = describe(e);
            return [this, details, prefix] {
                reportBusy();
                Q_EMIT failed(tr("Cannot write the Chakra traces %1").arg(prefix), details);
            };
        }
    });
}

void Session::setCluster(const core::Cluster& cluster)
{
    m_cluster = cluster;
    if (m_workload)
        startEstimate();
}

std::optional<core::Cluster> Session::presetForWorkload(const QString& name) const
{
    const auto ranks = m_workload ? static_cast<std::int64_t>(m_workload->workload.rankCount()) : 8;
    return core::clusterPreset(name.toStdString(), ranks);
}

void Session::startEstimate()
{
    if (m_estimateCancel)
        m_estimateCancel->cancel();
    auto cancel = std::make_shared<core::CancellationToken>();
    m_estimateCancel = cancel;
    const quint64 job = ++m_estimateJob;
    m_percent = 0;
    reportBusy();
    std::shared_ptr<const core::LoadedWorkload> workload = m_workload;
    const core::Cluster cluster = m_cluster;
    QPointer<Session> self(this);
    runJob(m_pool, this, [this, self, job, cancel, workload, cluster]() -> std::function<void()> {
        try {
            core::JobControl control;
            control.cancel = cancel.get();
            int lastPercent = -1;
            control.progress = [self, job, &lastPercent](double fraction) {
                const int percent = static_cast<int>(fraction * 100);
                if (percent == lastPercent)
                    return; // throttle: at most 100 updates
                lastPercent = percent;
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, job, percent] {
                        if (self && job == self->m_estimateJob) {
                            self->m_percent = percent;
                            self->reportBusy();
                        }
                    },
                    Qt::QueuedConnection);
            };
            auto result = core::estimate(workload->workload, cluster, {}, control);
            return [this, job, result, cluster] {
                if (job != m_estimateJob)
                    return; // a newer estimate was asked for
                m_estimateDone = job;
                m_result = result;
                reportBusy();
                Q_EMIT estimateAvailable(result, cluster);
            };
        } catch (const core::Cancelled&) {
            return [] {};
        } catch (const std::exception& e) {
            const QString details = describe(e);
            return [this, job, details] {
                if (job != m_estimateJob)
                    return;
                m_estimateDone = job;
                reportBusy();
                Q_EMIT failed(tr("Cannot estimate this workload on %1").arg(QString::fromStdString(m_cluster.name)),
                              details);
            };
        }
    });
}

} // namespace flint::app
