// SPDX-License-Identifier: MIT
#include "core/hlo/hloimport.h"
#include "views/daglayoutcache.h"
#include "views/daglayoutengine.h"
#include "views/dagscopetree.h"

#include <cmath>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>

using namespace flint;
using namespace flint::views;

namespace {

core::Op makeOp(core::Program& program, std::string name, std::string scope, core::OpKind kind,
                std::vector<std::uint64_t> data = {}, std::vector<std::uint64_t> control = {})
{
    core::Op op;
    op.id = 100 + program.ops.size(); // ids differ from indices on purpose
    op.name = std::move(name);
    op.scope = std::move(scope);
    op.kind = kind;
    op.dataDeps = std::move(data);
    op.ctrlDeps = std::move(control);
    program.ops.push_back(op);
    return op;
}

/// embed -> model/layer_k/{matmul, add, all-reduce} x layers -> head; layer `odd` gets an extra op.
core::Program layeredProgram(int layers, int odd = -1)
{
    core::Program p;
    std::uint64_t last = makeOp(p, "embed", "", core::OpKind::Compute).id;
    const std::uint64_t first = last;
    for (int l = 0; l < layers; ++l) {
        const std::string scope = "model/layer_" + std::to_string(l);
        const auto mm = makeOp(p, "matmul." + std::to_string(l), scope, core::OpKind::Compute, {last}).id;
        auto add = makeOp(p, "add", scope, core::OpKind::Compute, {mm}).id;
        if (l == odd)
            add = makeOp(p, "gelu", scope, core::OpKind::Compute, {add}).id;
        core::Op ar = makeOp(p, "all-reduce." + std::to_string(l), scope, core::OpKind::Collective, {add});
        last = ar.id;
    }
    makeOp(p, "head", "", core::OpKind::Compute, {last}, {first});
    return p;
}

const DagNode* nodeShowingOp(const DagLayout& g, std::uint32_t op)
{
    const std::uint32_t n = g.opToNode.at(op);
    return n < g.nodes.size() ? &g.nodes[n] : nullptr;
}

} // namespace

class TestDagLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smallProgramLaysOut()
    {
        core::Program p;
        const auto a = makeOp(p, "param", "", core::OpKind::MemLoad).id;
        const auto b = makeOp(p, "dot", "", core::OpKind::Compute, {a}).id;
        const auto c = makeOp(p, "all-gather", "", core::OpKind::Collective, {b}).id;
        const auto d = makeOp(p, "send", "", core::OpKind::Send, {c});
        makeOp(p, "after", "", core::OpKind::Compute, {}, {d.id}); // control only
        p.ops[2].collective = core::CollectiveKind::AllGather;
        const auto tree = DagScopeTree::build(p);
        DagLayout g = tree->buildGraph(tree->initialState(100));
        QCOMPARE(g.nodes.size(), std::size_t(5));
        QVERIFY(DagLayoutEngine::layout(g));
        QVERIFY(g.laidOut);
        for (std::uint32_t i = 0; i < p.ops.size(); ++i) {
            const DagNode* n = nodeShowingOp(g, i);
            QVERIFY(n);
            QCOMPARE(n->op, i);
            QVERIFY(std::isfinite(n->rect.x()) && std::isfinite(n->rect.y()));
            QVERIFY(n->rect.width() > 0 && n->rect.height() > 0);
            QVERIFY(g.bounds.adjusted(-1, -1, 1, 1).contains(n->rect));
        }
        QCOMPARE(g.nodes[2].kind, DagNodeKind::Collective);
        QCOMPARE(g.nodes[3].kind, DagNodeKind::SendRecv);
        QCOMPARE(g.edges.size(), std::size_t(4));
        int control = 0;
        for (const DagEdge& e : g.edges) {
            QVERIFY(e.from < g.nodes.size() && e.to < g.nodes.size());
            QVERIFY(!e.path.isEmpty());
            // dot puts producers above consumers.
            QVERIFY(g.nodes[e.from].rect.center().y() < g.nodes[e.to].rect.center().y());
            if (e.isControl()) {
                ++control;
                QCOMPARE(e.from, 3u);
                QCOMPARE(e.to, 4u);
            }
        }
        QCOMPARE(control, 1);
    }

    void scopeTitlesFitTheirBoxes()
    {
        // A scope around one small op whose title is far wider than the op: its box is as wide as
        // the title the view draws (Graphviz's own estimate, in Times metrics, cut titles short).
        core::Program p;
        const auto in = makeOp(p, "in", "", core::OpKind::Compute).id;
        makeOp(p, "x", "optimizer_state_update_with_a_long_name/inner", core::OpKind::Compute, {in});
        const auto tree = DagScopeTree::build(p);
        DagCollapseState state;
        state.expanded.insert("optimizer_state_update_with_a_long_name");
        DagLayout g = tree->buildGraph(state);
        QVERIFY(!g.clusters.empty());
        QVERIFY(DagLayoutEngine::layout(g));
        for (const DagCluster& cluster : g.clusters) {
            // 7 points a character without fonts (this test has no GUI application), 8 of inset a side.
            const double needed = 7.0 * static_cast<double>(cluster.label.size()) + 16.0;
            QVERIFY2(cluster.rect.width() >= needed, qPrintable(QStringLiteral("'%1': %2 wide, needs %3")
                                                                    .arg(QString::fromStdString(cluster.label))
                                                                    .arg(cluster.rect.width())
                                                                    .arg(needed)));
        }
    }

    void collapsesByScope()
    {
        core::Program p;
        const auto in = makeOp(p, "in", "", core::OpKind::Compute).id;
        const auto a1 = makeOp(p, "a1", "enc/a", core::OpKind::Compute, {in}).id;
        const auto a2 = makeOp(p, "a2", "enc/a", core::OpKind::Compute, {a1}).id;
        const auto a3 = makeOp(p, "a3", "enc/a", core::OpKind::Compute, {a1}).id;
        const auto b1 = makeOp(p, "b1", "enc/b", core::OpKind::Compute, {a2, a3}).id;
        makeOp(p, "b2", "enc/b", core::OpKind::Compute, {b1}, {a3});
        const auto tree = DagScopeTree::build(p);
        QCOMPARE(tree->groups().size(), std::size_t(4)); // root, enc, enc/a, enc/b

        DagCollapseState state;
        state.expanded.insert("enc");
        DagLayout g = tree->buildGraph(state);
        QCOMPARE(tree->visibleNodeCount(state), g.nodes.size());
        QCOMPARE(g.nodes.size(), std::size_t(3)); // in, a, b
        const DagNode& a = g.nodes[g.opToNode[1]];
        const DagNode& b = g.nodes[g.opToNode[4]];
        QCOMPARE(a.kind, DagNodeKind::Group);
        QCOMPARE(a.opCount, 3u);
        QCOMPARE(a.label, std::string("a"));
        QCOMPARE(b.opCount, 2u);
        QCOMPARE(g.opToNode[2], g.opToNode[1]);
        QCOMPARE(g.clusters.size(), std::size_t(1));
        // a -> b aggregates b1's two data deps and b2's control dep.
        const auto ab = std::find_if(g.edges.begin(), g.edges.end(), [&](const DagEdge& e) {
            return e.from == g.opToNode[1] && e.to == g.opToNode[4];
        });
        QVERIFY(ab != g.edges.end());
        QCOMPARE(ab->dataCount, 2u);
        QCOMPARE(ab->controlCount, 1u);
        QVERIFY(!ab->isControl());
        QVERIFY(DagLayoutEngine::layout(g));
        QVERIFY(g.clusters[0].rect.contains(a.rect.center()));

        // Fully collapsed: one group node for "enc".
        const DagLayout collapsed = tree->buildGraph({});
        QCOMPARE(collapsed.nodes.size(), std::size_t(2));
        QCOMPARE(collapsed.nodes[1].opCount, 5u);
        QCOMPARE(collapsed.edges.size(), std::size_t(1));
        QCOMPARE(collapsed.edges[0].dataCount, 1u);
    }

    void foldsRepeatedLayers()
    {
        const core::Program p = layeredProgram(32);
        const auto tree = DagScopeTree::build(p);
        DagCollapseState state;
        state.expanded.insert("model");
        const DagLayout g = tree->buildGraph(state);
        QCOMPARE(g.nodes.size(), std::size_t(3)); // embed, ×32 block, head
        const DagNode& block = g.nodes[1];
        QCOMPARE(block.kind, DagNodeKind::Repeated);
        QCOMPARE(block.repeat, 32u);
        QCOMPARE(block.opCount, 3u);
        QVERIFY(QString::fromStdString(block.detail).contains(QStringLiteral("×32")));
        QVERIFY(tree->isFolded(tree->findGroup("model/layer_7"), state));

        // The initial view expands "model" and keeps the block folded.
        QCOMPARE(tree->initialState(50).expanded.count("model"), std::size_t(1));

        state.unfolded.insert("model/layer_0");
        QCOMPARE(tree->buildGraph(state).nodes.size(), std::size_t(34));
        QVERIFY(!tree->isFolded(tree->findGroup("model/layer_7"), state));
    }

    void differentLayerDoesNotFold()
    {
        const core::Program p = layeredProgram(32, 5);
        const auto tree = DagScopeTree::build(p);
        DagCollapseState state;
        state.expanded.insert("model");
        const DagLayout g = tree->buildGraph(state);
        std::vector<std::uint32_t> repeats;
        bool oddShownAlone = false;
        for (const DagNode& n : g.nodes) {
            if (n.kind == DagNodeKind::Repeated)
                repeats.push_back(n.repeat);
            if (n.kind == DagNodeKind::Group && n.label == "layer_5")
                oddShownAlone = true;
        }
        QCOMPARE(repeats, (std::vector<std::uint32_t>{5, 26}));
        QVERIFY(oddShownAlone);
        QCOMPARE(g.nodes.size(), std::size_t(5));
    }

    void searchAndReveal()
    {
        const core::Program p = layeredProgram(32);
        const auto tree = DagScopeTree::build(p);
        const auto reduces = tree->find("all-reduce");
        QCOMPARE(reduces.size(), std::size_t(32));
        QCOMPARE(tree->find("AllReduce"), reduces);
        QCOMPARE(tree->find("MATMUL").size(), std::size_t(32));
        QCOMPARE(tree->find("collective"), reduces);
        QVERIFY(tree->find("nothing-like-this").empty());

        DagCollapseState state = tree->initialState(50);
        const std::uint32_t target = reduces[7];
        QVERIFY(nodeShowingOp(tree->buildGraph(state), target)->op == DagNode::noOp);
        QVERIFY(tree->reveal(target, state));
        QVERIFY(!tree->reveal(target, state)); // nothing left to change
        const DagLayout g = tree->buildGraph(state);
        QCOMPARE(nodeShowingOp(g, target)->op, target);
        QCOMPARE(nodeShowingOp(g, target)->kind, DagNodeKind::Collective);
    }

    void splitsFlatPrograms()
    {
        core::Program p;
        for (int i = 0; i < 1000; ++i)
            makeOp(p, "op", "", core::OpKind::Compute,
                   i > 0 ? std::vector<std::uint64_t>{100u + i - 1} : std::vector<std::uint64_t>{});
        const auto tree = DagScopeTree::build(p);
        const DagCollapseState state = tree->initialState(150);
        const std::size_t shown = tree->visibleNodeCount(state);
        QVERIFY2(shown <= 150, std::to_string(shown).c_str());
        QVERIFY(shown >= 2);
        const DagLayout g = tree->buildGraph(state);
        for (std::uint32_t n : g.opToNode)
            QVERIFY(n < g.nodes.size());
    }

    void cacheKeysOnProgramAndState()
    {
        DagLayoutCache cache(2);
        auto p = std::make_shared<const core::Program>(layeredProgram(2));
        DagCollapseState s1;
        DagCollapseState s2;
        s2.expanded.insert("model");
        QVERIFY(s1.key() != s2.key());
        cache.insert(p, s1.key(), std::make_shared<const DagLayout>());
        QVERIFY(cache.find(p, s1.key()));
        QVERIFY(!cache.find(p, s2.key()));
        auto other = std::make_shared<const core::Program>(layeredProgram(2));
        QVERIFY(!cache.find(other, s1.key()));
        p.reset();
        QVERIFY(!cache.find(other, s1.key()));
        QCOMPARE(cache.size(), std::size_t(0)); // the entry of the freed program is gone
    }

    void llama70bInitialView()
    {
        const QString path = QStringLiteral(FLINT_SHARED_DATA "/hlo/hlo_llama31_70b_bf16_16x8.hlo");
        if (!QFileInfo::exists(path))
            QSKIP("shared data folder absent (FLINT_SHARED_DATA); skipping the llama 70B DAG test");
        const core::hlo::HloImport import = core::hlo::importHloFile(path.toStdString());
        const core::Program& p = import.workload.programOf(0);
        QVERIFY(p.ops.size() > 40000);

        QElapsedTimer timer;
        timer.start();
        const auto tree = DagScopeTree::build(p);
        const double treeSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        timer.restart();
        const DagCollapseState state = tree->initialState(200);
        DagLayout g = tree->buildGraph(state);
        const double graphSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        QVERIFY(g.nodes.size() <= 200);
        QVERIFY(g.nodes.size() >= 2);
        QVERIFY(std::any_of(g.nodes.begin(), g.nodes.end(),
                            [](const DagNode& n) { return n.kind == DagNodeKind::Repeated && n.repeat >= 10; }));
        QVERIFY(DagLayoutEngine::layout(g));
        qInfo("llama 70B: %zu ops, %zu groups; scope tree %.3f s, graph %.3f s, dot layout %.3f s; %zu nodes, %zu "
              "edges, %zu clusters",
              p.ops.size(), tree->groups().size(), treeSeconds, graphSeconds, g.layoutSeconds, g.nodes.size(),
              g.edges.size(), g.clusters.size());

        // Unfold the loop and open one iteration: still bounded.
        const auto matches = tree->find("all-reduce");
        QVERIFY(!matches.empty());
        DagCollapseState open = state;
        tree->reveal(matches[matches.size() / 2], open);
        DagLayout opened = tree->buildGraph(open);
        QVERIFY(opened.nodes.size() <= DagLayoutEngine::maxNodes);
        QVERIFY(DagLayoutEngine::layout(opened));
        qInfo("llama 70B with one iteration open: %zu nodes, %zu edges, dot layout %.3f s", opened.nodes.size(),
              opened.edges.size(), opened.layoutSeconds);
    }
};

QTEST_GUILESS_MAIN(TestDagLayout)
#include "tst_daglayout.moc"
