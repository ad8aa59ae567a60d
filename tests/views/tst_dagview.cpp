// SPDX-License-Identifier: MIT
#include "views/dagscopetree.h"
#include "views/dagview.h"
#include "views/dagviewport.h"

#include <algorithm>

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace flint;
using namespace flint::views;

namespace {

/// input -> model/layer_k/{matmul, all-reduce} x layers -> output (control dep on input).
std::shared_ptr<const core::Program> layeredProgram(int layers)
{
    auto p = std::make_shared<core::Program>();
    const auto add = [&](std::string name, std::string scope, core::OpKind kind, std::vector<std::uint64_t> data,
                         std::vector<std::uint64_t> control = {}) {
        core::Op op;
        op.id = p->ops.size();
        op.name = std::move(name);
        op.scope = std::move(scope);
        op.kind = kind;
        op.dataDeps = std::move(data);
        op.ctrlDeps = std::move(control);
        p->ops.push_back(op);
        return op.id;
    };
    std::uint64_t last = add("input", "", core::OpKind::MemLoad, {});
    for (int l = 0; l < layers; ++l) {
        const std::string scope = "model/layer_" + std::to_string(l);
        const auto mm = add("matmul", scope, core::OpKind::Compute, {last});
        last = add("all-reduce", scope, core::OpKind::Collective, {mm});
    }
    add("output", "", core::OpKind::Compute, {last}, {0});
    return p;
}

} // namespace

class TestDagView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void viewportZoomKeepsAnchor()
    {
        DagViewport v;
        v.offset = QPointF(10, 20);
        const QPointF anchor(200, 150);
        const QPointF before = v.toScene(anchor);
        v.zoomAround(anchor, 2.0);
        QCOMPARE(v.scale, 2.0);
        QCOMPARE(v.toScene(anchor), before);
        v.fit(QRectF(0, 0, 1000, 500), QSizeF(548, 548), 24);
        QCOMPARE(v.scale, 0.5);
        QCOMPARE(v.toScreen(QPointF(500, 250)), QPointF(274, 274));
        // Into the part of the view the legend and the search box leave free: centred there.
        v.fitInto(QRectF(0, 0, 1000, 500), QRectF(200, 40, 548, 548), 24);
        QCOMPARE(v.scale, 0.5);
        QCOMPARE(v.toScreen(QPointF(500, 250)), QPointF(474, 314));
    }

    void showsSelectsZoomsExports()
    {
        DagView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy ready(&view, &DagView::layoutReady);
        QSignalSpy selected(&view, &DagView::opSelected);
        view.setProgram(layeredProgram(32), 3);
        QVERIFY(view.isLayingOut() || ready.count() == 1);
        QVERIFY(ready.count() == 1 || ready.wait(10000));
        auto layout = view.currentLayout();
        QVERIFY(layout && layout->laidOut);
        // input, ×32 block, output
        QCOMPARE(layout->nodes.size(), std::size_t(3));
        QCOMPARE(layout->nodes[1].repeat, 32u);

        // Click the "input" op: the signal names the rank and the op.
        const QPointF inputCenter = view.viewport().toScreen(layout->nodes[layout->opToNode[0]].rect.center());
        QTest::mouseClick(&view, Qt::LeftButton, {}, inputCenter.toPoint());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toInt(), 3);
        QCOMPARE(selected.at(0).at(1).value<quint32>(), 0u);
        QCOMPARE(view.selectedOp(), 0u);

        // Wheel zoom around the cursor.
        const double scale = view.viewport().scale;
        QWheelEvent wheel(QPointF(450, 350), view.mapToGlobal(QPointF(450, 350)), QPoint(), QPoint(0, 240),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.viewport().scale > scale);

        // Double-click the folded block: it unfolds into 32 layer groups.
        const QPointF blockCenter = view.viewport().toScreen(layout->nodes[1].rect.center());
        QTest::mouseDClick(&view, Qt::LeftButton, {}, blockCenter.toPoint());
        QVERIFY(ready.wait(10000));
        QCOMPARE(view.currentLayout()->nodes.size(), std::size_t(34));

        // Search by kind, next match opens the layer that holds it and selects the op.
        view.setSearchText(QStringLiteral("all-reduce"));
        QCOMPARE(view.matches().size(), std::size_t(32));
        QVERIFY(view.findNext());
        if (view.isLayingOut())
            QVERIFY(ready.wait(10000));
        const std::uint32_t first = view.matches()[0];
        QCOMPARE(view.selectedOp(), first);
        QCOMPARE(view.currentLayout()->nodes[view.currentLayout()->opToNode[first]].op, first);
        QVERIFY(view.findNext());
        if (view.isLayingOut())
            QVERIFY(ready.wait(10000));
        QCOMPARE(view.selectedOp(), view.matches()[1]);

        // Programmatic selection (linked selection) does not echo opSelected.
        view.selectOp(0);
        if (view.isLayingOut())
            QVERIFY(ready.wait(10000));
        QCOMPARE(view.selectedOp(), 0u);
        QCOMPARE(selected.count(), 1);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString png = dir.filePath(QStringLiteral("dag.png"));
        QVERIFY(view.exportImage(png));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1800, 1400));
        // Not a blank image: more than a handful of distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);
        const QString svg = dir.filePath(QStringLiteral("dag.svg"));
        QVERIFY(view.exportImage(svg));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
    }

    void refusesHugeExpansion()
    {
        // One group of 6,000 ops split into 12 chunks of 500, each into chunks of 200: every chunk small
        // enough to open. Opening them all would exceed the node limit, so the last toggles are refused.
        auto p = std::make_shared<core::Program>();
        for (int i = 0; i < 6000; ++i) {
            core::Op op;
            op.id = static_cast<std::uint64_t>(i);
            op.name = "op";
            op.scope = "big";
            if (i > 0)
                op.dataDeps = {static_cast<std::uint64_t>(i - 1)};
            p->ops.push_back(op);
        }
        DagView view;
        view.resize(600, 400);
        QSignalSpy ready(&view, &DagView::layoutReady);
        view.setProgram(p);
        QVERIFY(ready.wait(10000));
        // The first picture: the chunks of the one group, closed.
        QCOMPARE(view.currentLayout()->nodes.size(), std::size_t{12});
        QCOMPARE(view.currentLayout()->nodes.front().label, std::string("ops 1-500"));
        // Open chunks (the first closed group shown each time) until one is refused.
        bool refused = false;
        for (int tries = 0; tries < 100 && !refused; ++tries) {
            const auto& nodes = view.currentLayout()->nodes;
            const auto group = std::find_if(nodes.begin(), nodes.end(), [](const DagNode& n) { return n.group > 0; });
            if (group == nodes.end())
                break;
            refused = !view.toggleGroup(group->group);
            if (view.isLayingOut())
                QVERIFY(ready.wait(20000));
        }
        QVERIFY(refused);
        QVERIFY(view.message().contains(QStringLiteral("more than")));
        QVERIFY(view.currentLayout()->nodes.size() <= 2500);
    }

    void unstructuredProgramOpensAsAFewChunks()
    {
        // 23,000 ops without scopes (an HLO module without op-name metadata): 12 chunks of 2,000 in
        // order, each of 10 chunks of 200, none opened at first; each chunk says what it holds.
        auto p = std::make_shared<core::Program>();
        for (int i = 0; i < 23000; ++i) {
            core::Op op;
            op.id = static_cast<std::uint64_t>(i);
            op.name = "op";
            op.flops = 1000;
            if (i % 100 == 0) {
                op.kind = core::OpKind::Collective;
                op.flops = 0;
            }
            if (i > 0)
                op.dataDeps = {static_cast<std::uint64_t>(i - 1)};
            p->ops.push_back(op);
        }
        const auto tree = DagScopeTree::build(*p);
        const DagLayout graph = tree->buildGraph(tree->initialState(200));
        QCOMPARE(graph.nodes.size(), std::size_t{12});
        QCOMPARE(graph.nodes[0].label, std::string("ops 1-2000"));
        QCOMPARE(graph.nodes[11].label, std::string("ops 22001-23000"));
        QVERIFY2(QString::fromStdString(graph.nodes[0].detail).contains(QStringLiteral("1.98")) &&
                     !QString::fromStdString(graph.nodes[0].detail).contains(QStringLiteral("op")) &&
                     QString::fromStdString(graph.nodes[0].detail).contains(QStringLiteral("MFLOP")) &&
                     QString::fromStdString(graph.nodes[0].detail).contains(QStringLiteral("20 transfer")),
                 graph.nodes[0].detail.c_str());
        QCOMPARE(graph.edges.size(), std::size_t{11}); // a chain
        const auto& first = tree->groups()[static_cast<std::size_t>(graph.nodes[0].group)];
        QCOMPARE(first.children.size(), std::size_t{10});
        QCOMPARE(tree->groups()[static_cast<std::size_t>(first.children[9])].name, std::string("ops 1801-2000"));
        QCOMPARE(tree->groups()[static_cast<std::size_t>(first.children[9])].directOps.size(), std::size_t{200});
    }
};

QTEST_MAIN(TestDagView)
#include "tst_dagview.moc"
