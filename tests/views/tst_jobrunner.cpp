// SPDX-License-Identifier: MIT
// The explorer's one job tracker: a newer job of a kind supersedes the older (its result is
// dropped), exports all deliver, progress and the busy message reach the GUI thread, and a job
// that throws Cancelled delivers nothing.
#include "views/jobrunner.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <QSignalSpy>
#include <QTest>

using namespace flint;
using Kind = views::JobRunner::Kind;

class TestJobRunner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void newerJobSupersedesOlder();
    void exportsAllDeliver();
    void progressAndBusyMessage();
    void cancelledJobDeliversNothing();
};

namespace {

/// A job that waits until `release` is set (or its cancellation), then delivers `value` into `out`.
views::JobRunner::Work waitingJob(std::atomic<bool>& release, int value, std::vector<int>& out)
{
    return [&release, value, &out](const core::JobControl&) -> std::function<void()> {
        while (!release.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return [value, &out] { out.push_back(value); };
    };
}

} // namespace

void TestJobRunner::newerJobSupersedesOlder()
{
    views::JobRunner runner;
    std::atomic<bool> release{false};
    std::vector<int> delivered;
    runner.start(Kind::Estimate, QStringLiteral("first"), waitingJob(release, 1, delivered));
    runner.start(Kind::Estimate, QStringLiteral("second"), waitingJob(release, 2, delivered));
    runner.start(Kind::Sweep, QStringLiteral("other kind"), waitingJob(release, 3, delivered));
    QVERIFY(runner.isRunning(Kind::Estimate));
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 10000);
    std::sort(delivered.begin(), delivered.end());
    QCOMPARE(delivered, (std::vector<int>{2, 3})); // the first estimate was superseded
}

void TestJobRunner::exportsAllDeliver()
{
    views::JobRunner runner;
    std::atomic<bool> release{false};
    std::vector<int> delivered;
    runner.start(Kind::Export, QStringLiteral("a"), waitingJob(release, 1, delivered));
    runner.start(Kind::Export, QStringLiteral("b"), waitingJob(release, 2, delivered));
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 10000);
    std::sort(delivered.begin(), delivered.end());
    QCOMPARE(delivered, (std::vector<int>{1, 2}));
}

void TestJobRunner::progressAndBusyMessage()
{
    views::JobRunner runner;
    QSignalSpy busy(&runner, &views::JobRunner::busyChanged);
    std::atomic<bool> release{false};
    runner.start(Kind::Load, QStringLiteral("Loading"), [&release](const core::JobControl& control) {
        for (int i = 0; i <= 1000; ++i)
            control.report(i / 1000.0); // throttled to whole percents
        while (!release.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return std::function<void()>([] {});
    });
    QTRY_VERIFY_WITH_TIMEOUT(!busy.isEmpty() && busy.last().at(1).toInt() == 100, 10000);
    QCOMPARE(busy.last().at(0).toString(), QStringLiteral("Loading"));
    QVERIFY(busy.count() <= 102); // the start, at most 101 percents
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(busy.last().at(0).toString().isEmpty(), 10000); // idle again
}

void TestJobRunner::cancelledJobDeliversNothing()
{
    views::JobRunner runner;
    std::vector<int> delivered;
    runner.start(Kind::Sweep, QStringLiteral("sweep"), [&delivered](const core::JobControl& control) {
        while (true) {
            control.check(); // throws Cancelled once cancel() was called
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return std::function<void()>([&delivered] { delivered.push_back(1); });
    });
    runner.cancel(Kind::Sweep);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 10000);
    QVERIFY(delivered.empty());
}

QTEST_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
