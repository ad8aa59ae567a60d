// SPDX-License-Identifier: MIT
#include "app/explorer/session.h"

#include "core/chakra.h"
#include "core/error.h"

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
        message = tr("Loading %1…").arg(QFileInfo(m_path).fileName());
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
    adopt(std::move(workload), name);
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
