// SPDX-License-Identifier: MIT
#include "views/jobrunner.h"

#include <QPointer>

namespace flint::views {

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
{
    // A load and an estimate may overlap (a new file while the old one is estimated), and a sweep,
    // an export or a graph layout should not wait behind them.
    m_pool.setMaxThreadCount(4);
}

JobRunner::~JobRunner()
{
    stop();
}

void JobRunner::stop()
{
    for (Slot& s : m_slots)
        if (s.cancel)
            s.cancel->cancel();
    m_pool.waitForDone();
}

bool JobRunner::isBusy() const
{
    for (const Slot& s : m_slots)
        if (s.running > 0)
            return true;
    return false;
}

void JobRunner::cancel(Kind kind)
{
    Slot& s = slot(kind);
    if (s.cancel)
        s.cancel->cancel();
    s.current = ++m_nextId; // nothing delivers under an id that is no longer current
    reportBusy();
}

void JobRunner::start(Kind kind, const QString& message, Work work)
{
    Slot& s = slot(kind);
    const bool supersedes = kind != Kind::Export;
    if (supersedes && s.cancel)
        s.cancel->cancel();
    auto cancel = std::make_shared<core::CancellationToken>();
    s.cancel = cancel;
    const quint64 id = ++m_nextId;
    s.current = id;
    s.message = message;
    s.percent = -1;
    ++s.running;
    reportBusy();
    QPointer<JobRunner> self(this);
    m_pool.start([self, kind, id, supersedes, cancel, work = std::move(work)] {
        core::JobControl control;
        control.cancel = cancel.get();
        int lastPercent = -1;
        control.progress = [self, kind, id, &lastPercent](double fraction) {
            const int percent = static_cast<int>(fraction * 100);
            if (percent == lastPercent)
                return; // at most 100 updates
            lastPercent = percent;
            QMetaObject::invokeMethod(
                self.data(),
                [self, kind, id, percent] {
                    if (self && self->slot(kind).current == id) {
                        self->slot(kind).percent = percent;
                        self->reportBusy();
                    }
                },
                Qt::QueuedConnection);
        };
        std::function<void()> deliver;
        try {
            deliver = work(control);
        } catch (const core::Cancelled&) {
            deliver = nullptr; // cancelled: nothing to deliver, the runner still counts the job done
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, kind, id, supersedes, deliver = std::move(deliver)] {
                if (!self)
                    return;
                const bool current = !supersedes || self->slot(kind).current == id;
                self->finished(kind);
                if (current && deliver)
                    deliver();
            },
            Qt::QueuedConnection);
    });
}

void JobRunner::finished(Kind kind)
{
    --slot(kind).running;
    reportBusy();
}

void JobRunner::reportBusy()
{
    for (const Slot& s : m_slots)
        if (s.running > 0 && !s.message.isEmpty()) {
            Q_EMIT busyChanged(s.message, s.percent);
            return;
        }
    Q_EMIT busyChanged(QString(), -1);
}

} // namespace flint::views
