// SPDX-License-Identifier: MIT
#include "views/daglayoutengine.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QFont>
#include <QFontMetricsF>
#include <QGuiApplication>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace flint::views {

namespace {

std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

/// The process's one GVC context, created on first use under graphvizMutex() and kept until exit.
GVC_t* graphvizContext()
{
    static GVC_t* context = [] {
        agseterr(AGMAX); // keep Graphviz's warnings off stderr; failures are reported by return value
        return gvContext();
    }();
    return context;
}

/// cgraph takes `char*` for names and values it does not modify.
char* text(const char* s)
{
    return const_cast<char*>(s);
}

std::string inches(double points)
{
    return std::to_string(points / 72.0);
}

// The Graphviz accessor macros expand to C-style casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
pointf nodeCenter(Agnode_t* n)
{
    return ND_coord(n);
}
QSizeF nodeBox(Agnode_t* n)
{
    return {ND_width(n) * 72.0, ND_height(n) * 72.0};
}
const splines* edgeSplines(Agedge_t* e)
{
    return ED_spl(e);
}
boxf graphBox(Agraph_t* g)
{
    return GD_bb(g);
}
#pragma GCC diagnostic pop

/// The width of a scope's title as DagView draws it: the UI font at 10 px, bold (and 2 px to spare
/// for rounding). Graphviz pads a cluster's label by 8 points on each side, the inset the view draws
/// the title at.
double titleWidth(const std::string& title)
{
    // Without a GUI application (a command-line benchmark, a test) there are no fonts to ask: about
    // 7 points a character, what DejaVu Sans Bold averages at 10 px.
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return 7.0 * static_cast<double>(QString::fromStdString(title).size()) + 2.0;
    QFont font;
    font.setPixelSize(10);
    font.setBold(true);
    return QFontMetricsF(font).horizontalAdvance(QString::fromStdString(title)) + 2.0;
}

} // namespace

QSizeF DagLayoutEngine::nodeSize(const DagNode& node)
{
    // About 6 points per character at the 9-point font the view draws with; long names are elided.
    const auto chars = static_cast<double>(std::max(node.label.size(), node.detail.size()));
    double width = std::clamp(chars * 6.0 + 18.0, 64.0, 230.0);
    double height = 34.0;
    switch (node.kind) {
    case DagNodeKind::Group:
        width = std::max(width, 96.0);
        height = 40.0;
        break;
    case DagNodeKind::Repeated:
        width = std::max(width + 10.0, 120.0);
        height = 46.0;
        break;
    case DagNodeKind::Collective:
    case DagNodeKind::SendRecv:
        width += 16.0; // room for the rounded ends
        break;
    case DagNodeKind::Compute:
    case DagNodeKind::Memory:
    case DagNodeKind::Other:
        break;
    }
    return {width, height};
}

bool DagLayoutEngine::layout(DagLayout& graph)
{
    if (graph.nodes.size() > maxNodes)
        return false;
    QElapsedTimer timer;
    timer.start();
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = graphvizContext();
    if (!gvc)
        return false;

    Agraph_t* g = agopen(text("dag"), Agdirected, nullptr);
    agattr(g, AGRAPH, text("rankdir"), text("TB"));
    agattr(g, AGRAPH, text("nodesep"), text("0.25"));
    agattr(g, AGRAPH, text("ranksep"), text("0.35"));
    agattr(g, AGRAPH, text("fontsize"), text("10"));
    agattr(g, AGRAPH, text("labeljust"), text("l"));
    agattr(g, AGRAPH, text("label"), text(""));
    // dot's network simplex can run for minutes on graphs with long edges (an op feeding every loop
    // iteration spans hundreds of ranks); bounding its iterations keeps every layout interactive.
    // Measured on the llama 70B view with one iteration open (392 nodes, 775 edges): unbounded > 30 s,
    // bounded about 1.3 s.
    const bool large = graph.nodes.size() > 150;
    agattr(g, AGRAPH, text("nslimit"), text(large ? "1" : "3"));
    agattr(g, AGRAPH, text("nslimit1"), text(large ? "1" : "3"));
    if (large)
        agattr(g, AGRAPH, text("mclimit"), text("0.3"));
    if (graph.edges.size() > 600)
        agattr(g, AGRAPH, text("splines"), text("line"));
    agattr(g, AGNODE, text("shape"), text("box"));
    agattr(g, AGNODE, text("fixedsize"), text("true"));
    agattr(g, AGNODE, text("label"), text(""));
    Agsym_t* widthSym = agattr(g, AGNODE, text("width"), text("1"));
    Agsym_t* heightSym = agattr(g, AGNODE, text("height"), text("0.5"));

    std::vector<Agraph_t*> clusters(graph.clusters.size(), nullptr);
    for (std::size_t c = 0; c < graph.clusters.size(); ++c) {
        const DagCluster& cluster = graph.clusters[c];
        // Parents come before their children (clusters are emitted top-down).
        Agraph_t* parent = cluster.parent >= 0 ? clusters[static_cast<std::size_t>(cluster.parent)] : g;
        const std::string name = "cluster_" + std::to_string(c);
        clusters[c] = agsubg(parent, text(name.c_str()), 1);
        // The title's room measured in the font the view draws it with (DagView: the UI font, 10 px
        // bold), as an empty fixed-size HTML table: Graphviz's own estimate uses Times metrics, which
        // are narrower, and cut titles short ("optimizer (1 o").
        const std::string room = "<TABLE BORDER=\"0\" CELLPADDING=\"0\" CELLSPACING=\"0\" FIXEDSIZE=\"TRUE\" WIDTH=\"" +
                                 std::to_string(static_cast<int>(std::ceil(titleWidth(cluster.label)))) +
                                 "\" HEIGHT=\"12\"><TR><TD></TD></TR></TABLE>";
        char* html = agstrdup_html(clusters[c], text(room.c_str()));
        agsafeset(clusters[c], text("label"), html, text(""));
        agstrfree(clusters[c], html);
    }

    std::vector<Agnode_t*> nodes(graph.nodes.size(), nullptr);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const DagNode& node = graph.nodes[i];
        const std::string name = "n" + std::to_string(i);
        Agraph_t* owner = node.cluster >= 0 ? clusters[static_cast<std::size_t>(node.cluster)] : g;
        nodes[i] = agnode(owner, text(name.c_str()), 1);
        const QSizeF size = nodeSize(node);
        agxset(nodes[i], widthSym, text(inches(size.width()).c_str()));
        agxset(nodes[i], heightSym, text(inches(size.height()).c_str()));
    }
    std::vector<Agedge_t*> edges(graph.edges.size(), nullptr);
    for (std::size_t i = 0; i < graph.edges.size(); ++i)
        edges[i] = agedge(g, nodes[graph.edges[i].from], nodes[graph.edges[i].to], nullptr, 1);

    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        return false;
    }

    const boxf bb = graphBox(g);
    const auto toScene = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const QPointF center = toScene(nodeCenter(nodes[i]));
        const QSizeF size = nodeBox(nodes[i]);
        graph.nodes[i].rect =
            QRectF(center.x() - size.width() / 2, center.y() - size.height() / 2, size.width(), size.height());
    }
    for (std::size_t i = 0; i < graph.edges.size(); ++i) {
        DagEdge& edge = graph.edges[i];
        const splines* spl = edgeSplines(edges[i]);
        if (!spl || spl->size < 1 || spl->list[0].size < 1) {
            // No route (should not happen with dot): a straight line between the centres.
            const QPointF a = graph.nodes[edge.from].rect.center();
            const QPointF b = graph.nodes[edge.to].rect.center();
            edge.path = QPainterPath(a);
            edge.path.lineTo(b);
            edge.arrowTip = b;
            edge.arrowBase = a;
            continue;
        }
        const bezier& bz = spl->list[0];
        QPainterPath path(toScene(bz.list[0]));
        int k = 1;
        for (; k + 2 < bz.size; k += 3)
            path.cubicTo(toScene(bz.list[k]), toScene(bz.list[k + 1]), toScene(bz.list[k + 2]));
        for (; k < bz.size; ++k)
            path.lineTo(toScene(bz.list[k]));
        const QPointF last = toScene(bz.list[bz.size - 1]);
        if (bz.eflag) {
            edge.arrowTip = toScene(bz.ep);
            edge.arrowBase = last;
        } else {
            edge.arrowTip = last;
            edge.arrowBase = bz.size >= 2 ? toScene(bz.list[bz.size - 2]) : last;
        }
        edge.path = std::move(path);
    }
    for (std::size_t c = 0; c < graph.clusters.size(); ++c) {
        const boxf box = graphBox(clusters[c]);
        const QPointF topLeft = toScene({box.LL.x, box.UR.y});
        graph.clusters[c].rect = QRectF(topLeft, QSizeF(box.UR.x - box.LL.x, box.UR.y - box.LL.y));
    }
    graph.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);

    gvFreeLayout(gvc, g);
    agclose(g);
    graph.laidOut = true;
    graph.layoutSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return true;
}

} // namespace flint::views
