// SPDX-License-Identifier: MIT
// The Parallelism panel driven through its real controls: edits debounced into one validated
// strategy, invalid ones explained, and, with a trace or module open, nothing editable that the file
// fixes (issue 17: changing TP with an HLO file open threw the file away).
#include "core/model/modelconfig.h"
#include "views/parallelismpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace flint;
using core::model::ParallelConfig;
using core::model::TransformerConfig;

class TestParallelismPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void editsBecomeOneValidatedStrategy();
    void invalidStrategyIsExplainedNotAnnounced();
    void aFileFixesTheParallelism();
    void choosingAModelWithAFileOpenReplacesItDeliberately();
    void overlapChoicesFollowTheZeroStage();
    void frameworkKernelChoicesReachTheStrategy();
    void tokenDispatchFollowsExpertParallelism();
    void fp8ScalingReachesTheStrategy();
    void interleavingAsksForTwoChunks();
};

namespace {

QSpinBox* spin(views::ParallelismPanel& panel, const char* name)
{
    return panel.findChild<QSpinBox*>(QString::fromLatin1(name));
}

const TransformerConfig& llama8b()
{
    return *core::model::findModel("llama3-8b");
}

} // namespace

void TestParallelismPanel::editsBecomeOneValidatedStrategy()
{
    views::ParallelismPanel panel;
    panel.setStrategy(llama8b(), ParallelConfig{});
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    spin(panel, "tp")->setValue(2);
    spin(panel, "dp")->setValue(4);
    QVERIFY(changed.wait(5 * views::ParallelismPanel::kDebounceMs));
    QTest::qWait(2 * views::ParallelismPanel::kDebounceMs);
    QCOMPARE(changed.count(), 1); // two edits, one announcement
    const auto parallel = changed.front().at(1).value<ParallelConfig>();
    QCOMPARE(parallel.tp, std::int64_t{2});
    QCOMPARE(parallel.dp, std::int64_t{4});
    QCOMPARE(changed.front().at(0).value<TransformerConfig>().name, llama8b().name);
    // Megatron's TP communication overlap is a strategy option too.
    changed.clear();
    panel.findChild<QCheckBox*>(QStringLiteral("tpCommOverlap"))->setChecked(true);
    QVERIFY(changed.wait(5 * views::ParallelismPanel::kDebounceMs));
    QVERIFY(changed.front().at(1).value<ParallelConfig>().tpCommOverlap);
}

void TestParallelismPanel::invalidStrategyIsExplainedNotAnnounced()
{
    views::ParallelismPanel panel;
    panel.setStrategy(llama8b(), ParallelConfig{});
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    spin(panel, "tp")->setValue(3); // 32 heads do not split over 3
    QTest::qWait(3 * views::ParallelismPanel::kDebounceMs);
    QCOMPARE(changed.count(), 0);
    QVERIFY2(panel.problems().contains(QStringLiteral("TP 3")), qPrintable(panel.problems()));
}

void TestParallelismPanel::aFileFixesTheParallelism()
{
    views::ParallelismPanel panel;
    panel.setStrategy(llama8b(), ParallelConfig{});
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    panel.setActive(false, QStringLiteral("fixed by the file"));
    QVERIFY(!panel.isActive());
    QVERIFY(!spin(panel, "tp")->isEnabled());
    QVERIFY(!spin(panel, "microbatch")->isEnabled());
    auto* model = panel.findChild<QComboBox*>();
    QVERIFY(model->isEnabled());
    QCOMPARE(model->currentIndex(), -1); // no model shown as if it were open
    QCOMPARE(panel.figures(), QStringLiteral("fixed by the file"));
    // The strategy's rows are hidden: a default (1 GPU, global batch 4) is not the file's.
    panel.show();
    QVERIFY(!spin(panel, "tp")->isVisible());
    QVERIFY(!spin(panel, "globalBatch")->isVisible());
    QTest::qWait(3 * views::ParallelismPanel::kDebounceMs);
    QCOMPARE(changed.count(), 0);
    // Active again (a model opened): the controls return, FSDP-only ones only with ZeRO-3.
    panel.setStrategy(llama8b(), ParallelConfig{});
    panel.setActive(true);
    QVERIFY(spin(panel, "tp")->isEnabled());
    QVERIFY(spin(panel, "tp")->isVisible());
    QVERIFY(!spin(panel, "hsdpShard")->isEnabled());
    QVERIFY(!panel.findChild<QCheckBox*>(QStringLiteral("reshardAfterForward"))->isEnabled());
}

void TestParallelismPanel::choosingAModelWithAFileOpenReplacesItDeliberately()
{
    views::ParallelismPanel panel;
    ParallelConfig wide;
    wide.tp = 8;
    wide.dp = 16;
    panel.setStrategy(*core::model::findModel("gpt3-175b"), wide);
    panel.setActive(false, QStringLiteral("fixed"));
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    auto* model = panel.findChild<QComboBox*>();
    model->setCurrentIndex(model->findText(QString::fromStdString(llama8b().title)));
    // At once, in the layout the model opens with (GPT-3 175B's published 1,024 GPUs, which Llama 3
    // 8B allows), not the file's or the last model's degrees.
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.front().at(0).value<TransformerConfig>().name, llama8b().name);
    QCOMPARE(changed.front().at(1).value<ParallelConfig>(), core::model::defaultStrategy(llama8b()));
    QCOMPARE(changed.front().at(1).value<ParallelConfig>().ranks(), std::int64_t{1024});
}

void TestParallelismPanel::overlapChoicesFollowTheZeroStage()
{
    // Gradient-reduction overlap applies to ZeRO 0-2, parameter-gather overlap to ZeRO 1-2; both
    // reach the strategy announced.
    views::ParallelismPanel panel;
    ParallelConfig p;
    p.dp = 4;
    panel.setStrategy(llama8b(), p);
    auto* grad = panel.findChild<QCheckBox*>(QStringLiteral("overlapGradReduce"));
    auto* gather = panel.findChild<QCheckBox*>(QStringLiteral("overlapParamGather"));
    QVERIFY(grad && gather);
    QVERIFY(grad->isChecked() && grad->isEnabled());      // ZeRO-1 by default
    QVERIFY(!gather->isChecked() && gather->isEnabled()); // off by default, as in Megatron-LM
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    gather->setChecked(true);
    QVERIFY(changed.wait(2000));
    QVERIFY(changed.back().at(1).value<ParallelConfig>().overlapParamGather);
    auto* zero = panel.findChild<QComboBox*>(QStringLiteral("zero"));
    QVERIFY(zero);
    zero->setCurrentIndex(zero->findText(QStringLiteral("ZeRO-3 (FSDP)")));
    QVERIFY(!grad->isEnabled());
    QVERIFY(!gather->isEnabled());
    zero->setCurrentIndex(zero->findText(QStringLiteral("ZeRO-2")));
    QVERIFY(grad->isEnabled());
    QVERIFY(gather->isEnabled());
    grad->setChecked(false);
    QVERIFY(changed.wait(2000));
    QVERIFY(!changed.back().at(1).value<ParallelConfig>().overlapGradReduce);
}

void TestParallelismPanel::frameworkKernelChoicesReachTheStrategy()
{
    // The loss and eager-kernel choices (docs/models.md) show what the strategy holds and reach the
    // strategy announced when toggled.
    views::ParallelismPanel panel;
    ParallelConfig p;
    p.dp = 4;
    p.fusedCrossEntropy = true;
    panel.setStrategy(llama8b(), p);
    auto* fused = panel.findChild<QCheckBox*>(QStringLiteral("fusedCrossEntropy"));
    auto* eager = panel.findChild<QCheckBox*>(QStringLiteral("eagerKernels"));
    QVERIFY(fused && eager);
    QVERIFY(fused->isChecked());
    QVERIFY(!eager->isChecked()); // off by default: fused norms, as Megatron-LM with Transformer Engine
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    eager->setChecked(true);
    QVERIFY(changed.wait(2000));
    QVERIFY(changed.back().at(1).value<ParallelConfig>().eagerKernels);
    fused->setChecked(false);
    QVERIFY(changed.wait(2000));
    const ParallelConfig announced = changed.back().at(1).value<ParallelConfig>();
    QVERIFY(!announced.fusedCrossEntropy && announced.eagerKernels);
    auto* bf16 = panel.findChild<QCheckBox*>(QStringLiteral("bf16GradReduce"));
    QVERIFY(bf16 && !bf16->isChecked()); // fp32 by default, as Megatron-LM
    bf16->setChecked(true);
    QVERIFY(changed.wait(2000));
    QVERIFY(!changed.back().at(1).value<ParallelConfig>().gradReduceFp32);
}

void TestParallelismPanel::fp8ScalingReachesTheStrategy()
{
    // The dtype box offers FP8 with either recipe's scaling; the strategy shown is the one set, the
    // one chosen is the one announced.
    views::ParallelismPanel panel;
    ParallelConfig p;
    p.dp = 4;
    p.dtype = core::Precision::FP8;
    p.fp8Scaling = core::model::Fp8Scaling::Current;
    panel.setStrategy(llama8b(), p);
    auto* dtype = panel.findChild<QComboBox*>(QStringLiteral("dtype"));
    QVERIFY(dtype);
    QCOMPARE(dtype->count(), 3);
    QCOMPARE(dtype->currentIndex(), 2);
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    dtype->setCurrentIndex(1);
    QVERIFY(changed.wait(2000));
    ParallelConfig announced = changed.back().at(1).value<ParallelConfig>();
    QCOMPARE(announced.dtype, core::Precision::FP8);
    QCOMPARE(announced.fp8Scaling, core::model::Fp8Scaling::Delayed);
    dtype->setCurrentIndex(0);
    QVERIFY(changed.wait(2000));
    QCOMPARE(changed.back().at(1).value<ParallelConfig>().dtype, core::Precision::BF16);
}

void TestParallelismPanel::tokenDispatchFollowsExpertParallelism()
{
    // The dispatcher applies with EP > 1 only, the NVLink domain to HybridEP only; both reach the strategy.
    using core::model::MoeDispatcher;
    views::ParallelismPanel panel;
    ParallelConfig p;
    p.dp = 8;
    panel.setStrategy(*core::model::findModel("mixtral-8x7b"), p);
    auto* dispatcher = panel.findChild<QComboBox*>(QStringLiteral("moeDispatcher"));
    QSpinBox* domain = spin(panel, "nvlinkDomain");
    QVERIFY(dispatcher && domain);
    QVERIFY(!dispatcher->isEnabled() && !domain->isEnabled());
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    spin(panel, "ep")->setValue(8);
    QVERIFY(changed.wait(2000));
    QVERIFY(dispatcher->isEnabled() && !domain->isEnabled());
    QCOMPARE(changed.back().at(1).value<ParallelConfig>().moeDispatcher, MoeDispatcher::AllToAll);
    dispatcher->setCurrentIndex(dispatcher->findData(static_cast<int>(MoeDispatcher::HybridEp)));
    QVERIFY(domain->isEnabled());
    domain->setValue(4);
    QVERIFY(changed.wait(2000));
    const ParallelConfig announced = changed.back().at(1).value<ParallelConfig>();
    QCOMPARE(announced.moeDispatcher, MoeDispatcher::HybridEp);
    QCOMPARE(announced.nvlinkDomain, std::int64_t{4});
    // Shown again as held: a strategy from elsewhere (a session, undo) sets both.
    panel.setStrategy(*core::model::findModel("mixtral-8x7b"), announced);
    QCOMPARE(dispatcher->currentData().toInt(), static_cast<int>(MoeDispatcher::HybridEp));
    QCOMPARE(domain->value(), 4);
}

void TestParallelismPanel::interleavingAsksForTwoChunks()
{
    // One chunk per rank does not interleave (the strategy check refuses it): choosing the
    // interleaved schedule takes the least number of chunks that does, 2, and announces it.
    views::ParallelismPanel panel;
    ParallelConfig p;
    p.pp = 4;
    panel.setStrategy(llama8b(), p);
    QSignalSpy changed(&panel, &views::ParallelismPanel::strategyChanged);
    auto* schedule = panel.findChild<QComboBox*>(QStringLiteral("schedule"));
    schedule->setCurrentIndex(schedule->findData(static_cast<int>(core::model::PipelineSchedule::Interleaved)));
    QCOMPARE(spin(panel, "virtualStages")->value(), 2);
    QVERIFY(changed.wait(5 * views::ParallelismPanel::kDebounceMs));
    QCOMPARE(changed.front().at(1).value<ParallelConfig>().virtualStages, std::int64_t{2});
    // One chunk chosen by hand is explained, not announced.
    changed.clear();
    spin(panel, "virtualStages")->setValue(1);
    QTest::qWait(3 * views::ParallelismPanel::kDebounceMs);
    QCOMPARE(changed.count(), 0);
    QVERIFY2(panel.problems().contains(QStringLiteral("1F1B")), qPrintable(panel.problems()));
}

QTEST_MAIN(TestParallelismPanel)
#include "tst_parallelismpanel.moc"
