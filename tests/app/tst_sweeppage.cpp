// SPDX-License-Identifier: MIT
// The Sweep page through its real controls: parameter, values and the Run button; what the table
// and the chart show; a bad value; cancelling; choosing a point opens its scenario.
#include "app/explorer/session.h"
#include "app/explorer/sweeppage.h"
#include "support/smallmodel.h"

#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>

using namespace flint;

class TestSweepPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runsFromTheControls();
    void readsDecimalCommas();
    void refusesABadValue();
    void saysAFileHasNoStrategyToSweep();
    void cancelStopsTheSweep();
    void choosingAPointOpensItsScenario();

private:
    /// Llama 3 8B on 8 GPUs at 1,024 tokens: small enough to sweep in a test.
    void openModel(app::Session& session);
};

void TestSweepPage::initTestCase()
{
    qRegisterMetaType<engine::Scenario>();
}

void TestSweepPage::openModel(app::Session& session)
{
    QSignalSpy estimated(&session, &app::Session::estimateAvailable);
    session.openModel(tests::smallModel(), tests::smallModelStrategy(8));
    QVERIFY(estimated.wait(120000));
}

void TestSweepPage::runsFromTheControls()
{
    app::Session session;
    openModel(session);
    app::SweepPage page(session);
    page.resize(1000, 700);
    page.show();
    auto* parameter = page.findChild<QComboBox*>();
    parameter->setCurrentIndex(parameter->findData(static_cast<int>(app::SweepPage::Parameter::TP)));
    page.findChild<QLineEdit*>()->setText(QStringLiteral("1, 2, 3, 4"));
    QSignalSpy finished(&page, &app::SweepPage::finished);
    QTest::mouseClick(page.findChild<QPushButton*>(), Qt::LeftButton);
    QVERIFY(finished.wait(120000));
    auto* table = page.findChild<QTableWidget*>();
    QCOMPARE(table->rowCount(), 4);
    // TP 3 does not divide 8 GPUs: that row says why and has no figures; one row is marked best,
    // and it is the one engine::bestIndex picks (most tokens/s per GPU).
    QVERIFY(table->item(2, 6)->text().contains(QStringLiteral("does not divide")));
    QVERIFY(table->item(2, 2)->text().isEmpty());
    const int best = page.bestIndex();
    QVERIFY(best >= 0 && best != 2);
    QCOMPARE(table->item(best, 6)->text(), QStringLiteral("best"));
    std::vector<engine::Evaluation> all;
    for (const auto& point : page.points())
        all.push_back(point.evaluation);
    QCOMPARE(engine::bestIndex(all, engine::Objective::Throughput), best);
    // The chart: the line through the three feasible points, the infeasible one marked apart.
    const auto series = page.chart()->series();
    QCOMPARE(series.size(), 4);
    QCOMPARE(static_cast<QXYSeries*>(series[0])->count(), 3);
    QCOMPARE(static_cast<QXYSeries*>(series[2])->count(), 1);
    // The parameter axis ticks at round values covering the points (a "%g" format had left it
    // without labels under the chart's localised numbers).
    const auto* x = qobject_cast<QValueAxis*>(page.chart()->axes(Qt::Horizontal).front());
    QVERIFY(x && x->min() <= 1 && x->max() >= 4 && x->tickCount() >= 3);
    QVERIFY(x->labelFormat().startsWith(QStringLiteral("%.")));
}

void TestSweepPage::readsDecimalCommas()
{
    // German writes 0,5: "0,5, 1, 2" is three values, "1,2,4" three as well.
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    app::Session session;
    openModel(session);
    app::SweepPage page(session);
    auto* parameter = page.findChild<QComboBox*>();
    parameter->setCurrentIndex(parameter->findData(static_cast<int>(app::SweepPage::Parameter::BandwidthScale)));
    QCOMPARE(page.findChild<QLineEdit*>()->text(), QStringLiteral("0,5, 1, 2, 4")); // the parameter's own values
    for (const auto& [text, expected] : {std::pair{QStringLiteral("0,5, 1, 2"), std::vector<double>{0.5, 1, 2}},
                                         std::pair{QStringLiteral("1,2,4"), std::vector<double>{1, 2, 4}},
                                         std::pair{QStringLiteral("0.25; 3"), std::vector<double>{0.25, 3}}}) {
        page.findChild<QLineEdit*>()->setText(text);
        QSignalSpy finished(&page, &app::SweepPage::finished);
        QTest::mouseClick(page.findChild<QPushButton*>(), Qt::LeftButton);
        QVERIFY(finished.wait(120000));
        std::vector<double> values;
        for (const auto& point : page.points())
            values.push_back(point.value);
        QCOMPARE(values, expected);
    }
    QLocale::setDefault(QLocale::c());
}

void TestSweepPage::refusesABadValue()
{
    app::Session session;
    openModel(session);
    app::SweepPage page(session);
    page.findChild<QLineEdit*>()->setText(QStringLiteral("1, two"));
    QSignalSpy finished(&page, &app::SweepPage::finished);
    QTest::mouseClick(page.findChild<QPushButton*>(), Qt::LeftButton);
    QVERIFY(!page.isRunning());
    bool explained = false;
    for (const QLabel* label : page.findChildren<QLabel*>())
        explained = explained || label->text().contains(QStringLiteral("'two' is not a positive number"));
    QVERIFY(explained);
    QCOMPARE(finished.count(), 0);
}

void TestSweepPage::saysAFileHasNoStrategyToSweep()
{
    // With an HLO module open the page says there is no strategy to sweep before any click, and its
    // button is off; a built-in model turns it back on.
    app::Session session;
    app::SweepPage page(session);
    QSignalSpy estimated(&session, &app::Session::estimateAvailable);
    session.open(QStringLiteral(FLINT_SOURCE_DIR "/tests/data/hlo/async.hlo"));
    QVERIFY(estimated.wait(60000));
    auto* run = page.findChild<QPushButton*>();
    QVERIFY(!run->isEnabled());
    bool explained = false;
    for (const QLabel* label : page.findChildren<QLabel*>())
        explained = explained || label->text().contains(QStringLiteral("parallelism is fixed"));
    QVERIFY(explained);
    openModel(session);
    QVERIFY(run->isEnabled());
}

void TestSweepPage::cancelStopsTheSweep()
{
    app::Session session;
    openModel(session);
    app::SweepPage page(session);
    auto* parameter = page.findChild<QComboBox*>();
    parameter->setCurrentIndex(parameter->findData(static_cast<int>(app::SweepPage::Parameter::MicrobatchSize)));
    page.findChild<QLineEdit*>()->setText(QStringLiteral("1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1"));
    QSignalSpy finished(&page, &app::SweepPage::finished);
    auto* run = page.findChild<QPushButton*>();
    QTest::mouseClick(run, Qt::LeftButton);
    QVERIFY(page.isRunning());
    QTest::mouseClick(run, Qt::LeftButton); // the button now says Cancel
    QCOMPARE(finished.count(), 1);
    QVERIFY(!page.isRunning());
    const std::size_t shown = page.points().size();
    // Whatever the cancelled sweep still had under way is dropped.
    QTest::qWait(1000);
    std::size_t estimated = 0;
    for (const auto& point : page.points())
        estimated += point.evaluation.result ? 1 : 0;
    QVERIFY(estimated < 16);
    QCOMPARE(page.points().size(), shown);
    QCOMPARE(finished.count(), 1);
}

void TestSweepPage::choosingAPointOpensItsScenario()
{
    app::Session session;
    openModel(session);
    app::SweepPage page(session);
    auto* parameter = page.findChild<QComboBox*>();
    parameter->setCurrentIndex(parameter->findData(static_cast<int>(app::SweepPage::Parameter::BandwidthScale)));
    page.findChild<QLineEdit*>()->setText(QStringLiteral("0.5, 2"));
    QSignalSpy finished(&page, &app::SweepPage::finished);
    QTest::mouseClick(page.findChild<QPushButton*>(), Qt::LeftButton);
    QVERIFY(finished.wait(120000));
    QSignalSpy chosen(&page, &app::SweepPage::pointChosen);
    auto* table = page.findChild<QTableWidget*>();
    Q_EMIT table->cellDoubleClicked(0, 0);
    QCOMPARE(chosen.count(), 1);
    // The chosen scenario carries the scaled network: half the bandwidth of the session's.
    const auto scenario = chosen.front().front().value<engine::Scenario>();
    QCOMPARE(scenario.cluster.topology.dims.front().bandwidthGBps,
             0.5 * session.cluster().topology.dims.front().bandwidthGBps);
    QVERIFY(scenario.cluster.edited);
}

QTEST_MAIN(TestSweepPage)
#include "tst_sweeppage.moc"
