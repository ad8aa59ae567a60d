// SPDX-License-Identifier: MIT
#include "views/timelinegeometry.h"

#include <cmath>

#include <QLocale>
#include <QTest>

using flint::views::TimelineGeometry;

class TestTimelineGeometry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mapsBothWays();
    void zoomKeepsTheCursorTime();
    void panIsClamped();
    void showRangeCentresWithMargin();
    void ticksAreNice_data();
    void ticksAreNice();
    void formatsDurationsAndBytes();
};

namespace {

TimelineGeometry tenMsOn1000Pixels()
{
    TimelineGeometry g;
    g.plotLeft = 100;
    g.plotWidth = 1000;
    g.totalTime = 10e-3;
    g.fit();
    return g;
}

} // namespace

void TestTimelineGeometry::showRangeCentresWithMargin()
{
    TimelineGeometry g = tenMsOn1000Pixels();
    g.showRange(4e-3, 5e-3, 0.5); // 1 ms plus half of it on each side
    QVERIFY(qFuzzyCompare(g.viewStart, 3.5e-3));
    QVERIFY(qFuzzyCompare(g.viewEnd, 5.5e-3));
    g.showRange(9.9e-3, 10e-3, 1.0); // would run past the step's end: shifted back inside
    QVERIFY(qFuzzyCompare(g.viewEnd, 10e-3));
    QVERIFY(qFuzzyCompare(g.span(), 0.3e-3));
    g.showRange(2e-3, 2e-3); // an instant: a nanosecond across, centred
    QVERIFY(std::abs(g.span() - 1e-9) < 1e-15);
    QVERIFY(g.viewStart < 2e-3 && g.viewEnd > 2e-3);
    g.showRange(0, 1); // longer than the step: the whole step
    QCOMPARE(g.viewStart, 0.0);
    QVERIFY(qFuzzyCompare(g.viewEnd, 10e-3));
}

void TestTimelineGeometry::mapsBothWays()
{
    const TimelineGeometry g = tenMsOn1000Pixels();
    QCOMPARE(g.mapTimeToX(0), 100.0);
    QCOMPARE(g.mapTimeToX(5e-3), 600.0);
    QCOMPARE(g.mapXToTime(1100), 10e-3);
    QVERIFY(qFuzzyCompare(g.mapXToTime(g.mapTimeToX(3.7e-3)), 3.7e-3));
}

void TestTimelineGeometry::zoomKeepsTheCursorTime()
{
    TimelineGeometry g = tenMsOn1000Pixels();
    const double before = g.mapXToTime(350);
    g.zoomAround(350, 4);
    QVERIFY(qFuzzyCompare(g.span(), 2.5e-3));
    QVERIFY(qFuzzyCompare(g.mapXToTime(350), before));
    g.zoomAround(350, 1e-6); // zooming out stops at the whole step
    QVERIFY(qFuzzyCompare(g.span(), 10e-3));
    QCOMPARE(g.viewStart, 0.0);
}

void TestTimelineGeometry::panIsClamped()
{
    TimelineGeometry g = tenMsOn1000Pixels();
    g.zoomAround(100, 2); // [0, 5 ms]
    g.panByPixels(500);   // half the window later
    QVERIFY(qFuzzyCompare(g.viewStart, 2.5e-3));
    g.panByPixels(1e6);
    QVERIFY(qFuzzyCompare(g.viewEnd, 10e-3));
    g.panByPixels(-1e6);
    QCOMPARE(g.viewStart, 0.0);
}

void TestTimelineGeometry::ticksAreNice_data()
{
    QTest::addColumn<double>("span");
    QTest::addColumn<int>("maxTicks");
    QTest::addColumn<double>("step");
    QTest::newRow("10ms_in_10") << 10e-3 << 10 << 1e-3;
    QTest::newRow("10ms_in_4") << 10e-3 << 4 << 5e-3;
    QTest::newRow("7us_in_5") << 7e-6 << 5 << 2e-6;
    QTest::newRow("8.25s_in_5") << 8.25 << 5 << 2.0; // GPT-3's step on a 450-pixel ruler: 0, 2, 4, 6, 8 s
}

void TestTimelineGeometry::ticksAreNice()
{
    QFETCH(double, span);
    QFETCH(int, maxTicks);
    QFETCH(double, step);
    TimelineGeometry g;
    g.totalTime = span;
    g.fit();
    const auto ticks = g.ticks(maxTicks);
    QVERIFY(ticks.size() >= 2);
    QVERIFY(int(ticks.size()) <= maxTicks + 1);
    QVERIFY(qFuzzyCompare(ticks[1] - ticks[0], step));
}

void TestTimelineGeometry::formatsDurationsAndBytes()
{
    // Durations keep number and unit together with a no-break space (U+00A0).
    QCOMPARE(flint::views::formatDuration(1.25e-3), std::string("1.25\u00a0ms"));
    QCOMPARE(flint::views::formatDuration(830e-9), std::string("830\u00a0ns"));
    QCOMPARE(flint::views::formatDuration(19.6), std::string("19.6\u00a0s"));
    QCOMPARE(flint::views::formatBytes(1048576), std::string("1.05 MB"));
    QCOMPARE(flint::views::formatBytes(512), std::string("512 B"));
    // Ruler labels: the largest tick's unit and as many decimals as the step needs.
    QCOMPARE(flint::views::formatTick(2, 2, 8), std::string("2\u00a0s"));
    QCOMPARE(flint::views::formatTick(0, 2, 8), std::string("0\u00a0s"));
    QCOMPARE(flint::views::formatTick(-1e-17, 2, 8), std::string("0\u00a0s"));
    QCOMPARE(flint::views::formatTick(4.22, 0.01, 4.3), std::string("4.22\u00a0s"));
    QCOMPARE(flint::views::formatTick(0.5e-3, 0.5e-3, 3.5e-3), std::string("0.5\u00a0ms"));
    QCOMPARE(flint::views::formatTick(0.4, 0.2, 0.8), std::string("400\u00a0ms"));
    QCOMPARE(flint::views::formatTick(1.5, 0.5, 2), std::string("1.5\u00a0s"));
    // In the locale's own decimal notation (the explorer sets the default to its language).
    const QLocale previous;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(flint::views::formatDuration(1.25e-3), std::string("1,25\u00a0ms"));
    QCOMPARE(flint::views::formatBytes(1048576), std::string("1,05 MB"));
    QCOMPARE(flint::views::formatTick(0.5e-3, 0.5e-3, 3.5e-3), std::string("0,5\u00a0ms"));
    QLocale::setDefault(previous);
    QCOMPARE(flint::views::formatDuration(1.25e-3), std::string("1.25\u00a0ms"));
}

QTEST_GUILESS_MAIN(TestTimelineGeometry)
#include "tst_timelinegeometry.moc"
