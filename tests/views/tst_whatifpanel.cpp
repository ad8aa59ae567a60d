// SPDX-License-Identifier: MIT
#include "views/whatifpanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace flint;

class TestWhatIfPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsTheCluster();
    void editsAreDebouncedIntoOneChange();
    void presetChoiceIsAnnounced();
    void algorithmPerDimension();
    void reportedClusterKeepsTheControls();
};

namespace {

core::Cluster preset()
{
    return core::clusterPreset("dgx-h100-ib", 16).value();
}

} // namespace

void TestWhatIfPanel::showsTheCluster()
{
    views::WhatIfPanel panel;
    QSignalSpy changed(&panel, &views::WhatIfPanel::clusterChanged);
    panel.setCluster(preset());
    auto* table = panel.findChild<QTableWidget*>();
    QVERIFY(table);
    QCOMPARE(table->rowCount(), int(preset().topology.dims.size()));
    QCOMPARE(table->item(0, 1)->text(), QString::number(preset().topology.dims.front().npus));
    // Bandwidth in decimal GB/s, as data sheets and --scale-out-bandwidth state it: NVLink4 as NCCL
    // delivers it, 370.8 GB/s, and NDR InfiniBand 50 GB/s per GPU.
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2))->value(), 370.8);
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 2))->value(), 50.0);
    // Showing a cluster is not an edit, and reading it back gives the same cluster.
    QTest::qWait(views::WhatIfPanel::kDebounceMs * 2);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(panel.cluster().topology, preset().topology);
    QCOMPARE(panel.cluster().device.name, preset().device.name);
    QCOMPARE(panel.cluster().system, preset().system);
}

void TestWhatIfPanel::algorithmPerDimension()
{
    views::WhatIfPanel panel;
    QSignalSpy changed(&panel, &views::WhatIfPanel::clusterChanged);
    const core::Cluster original = preset();
    QVERIFY(original.topology.dims.size() >= 2);
    panel.setCluster(original);
    auto* table = panel.findChild<QTableWidget*>();
    auto* outer = qobject_cast<QComboBox*>(table->cellWidget(1, 4));
    QVERIFY(outer);
    QCOMPARE(outer->currentData().toInt(), int(original.system.algorithmFor(core::CollectiveKind::AllReduce, 1)));
    // Double binary tree on the scale-out dimension: all-reduce takes it there, the other kinds the
    // ring; the scale-up dimension keeps what it had.
    outer->setCurrentIndex(outer->findData(int(core::CollectiveAlgorithm::DoubleBinaryTree)));
    QVERIFY(changed.wait(views::WhatIfPanel::kDebounceMs * 20));
    const core::SystemConfig system = panel.cluster().system;
    QCOMPARE(system.algorithmFor(core::CollectiveKind::AllReduce, 1), core::CollectiveAlgorithm::DoubleBinaryTree);
    QCOMPARE(system.algorithmFor(core::CollectiveKind::AllGather, 1), core::CollectiveAlgorithm::Ring);
    QCOMPARE(system.algorithmFor(core::CollectiveKind::AllToAll, 1), core::CollectiveAlgorithm::Ring);
    QCOMPARE(system.algorithmFor(core::CollectiveKind::AllReduce, 0),
             original.system.algorithmFor(core::CollectiveKind::AllReduce, 0));
    auto* inner = qobject_cast<QComboBox*>(table->cellWidget(0, 4));
    inner->setCurrentIndex(inner->findData(int(core::CollectiveAlgorithm::Direct)));
    QCOMPARE(panel.cluster().system.algorithmFor(core::CollectiveKind::AllGather, 0),
             core::CollectiveAlgorithm::Direct);
}

void TestWhatIfPanel::editsAreDebouncedIntoOneChange()
{
    views::WhatIfPanel panel;
    panel.setCluster(preset());
    QSignalSpy changed(&panel, &views::WhatIfPanel::clusterChanged);
    auto* table = panel.findChild<QTableWidget*>();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 2));
    QVERIFY(bandwidth);
    // Three quick edits make one change, carrying the last values.
    bandwidth->setValue(100);
    bandwidth->setValue(200);
    panel.findChild<QSpinBox*>()->setValue(2);
    QCOMPARE(changed.count(), 0);
    QVERIFY(changed.wait(views::WhatIfPanel::kDebounceMs * 8));
    QTest::qWait(views::WhatIfPanel::kDebounceMs * 2);
    QCOMPARE(changed.count(), 1);
    const auto cluster = changed.front().front().value<core::Cluster>();
    QCOMPARE(cluster.topology.dims.front().bandwidthGBps, core::fromDecimalGBps(200.0));
    QCOMPARE(cluster.commStreams, 2);
    // The edited system is no longer the preset as shipped, and the cluster says so.
    QCOMPARE(panel.findChild<QComboBox*>()->currentIndex(), 0);
    QVERIFY(cluster.edited);
    // The session reports the edited cluster back: the box stays "(custom)".
    panel.setCluster(cluster);
    QCOMPARE(panel.findChild<QComboBox*>()->currentIndex(), 0);
}

void TestWhatIfPanel::presetChoiceIsAnnounced()
{
    views::WhatIfPanel panel;
    panel.setCluster(preset());
    QSignalSpy chosen(&panel, &views::WhatIfPanel::presetChosen);
    auto* systems = panel.findChild<QComboBox*>();
    const int index = systems->findData(QStringLiteral("mi300x-roce"));
    QVERIFY(index > 0);
    systems->setCurrentIndex(index);
    Q_EMIT systems->activated(index);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.front().front().toString(), QStringLiteral("mi300x-roce"));
}

void TestWhatIfPanel::reportedClusterKeepsTheControls()
{
    // The session reports every cluster it estimates on; a report of the same dimensions updates the
    // controls in place, so that one being edited keeps its focus, and emits nothing.
    views::WhatIfPanel panel;
    panel.setCluster(preset());
    QSignalSpy changed(&panel, &views::WhatIfPanel::clusterChanged);
    auto* table = panel.findChild<QTableWidget*>();
    auto* bandwidth = qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 2));
    core::Cluster reported = preset();
    reported.topology.dims[1].bandwidthGBps = core::fromDecimalGBps(25);
    panel.setCluster(reported);
    QCOMPARE(table->cellWidget(1, 2), bandwidth);
    QCOMPARE(bandwidth->value(), 25.0);
    QTest::qWait(views::WhatIfPanel::kDebounceMs * 2);
    QCOMPARE(changed.count(), 0);
    // Other dimensions: the table is rebuilt.
    panel.setCluster(core::clusterPreset("dgx-h100-ib", 8).value());
    QCOMPARE(table->rowCount(), 1);
}

QTEST_MAIN(TestWhatIfPanel)
#include "tst_whatifpanel.moc"
