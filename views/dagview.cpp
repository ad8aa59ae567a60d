// SPDX-License-Identifier: MIT
#include "views/dagview.h"

#include "core/fileio.h"
#include "views/daglayoutengine.h"
#include "views/dagstyle.h"
#include "views/jobrunner.h"

#include <algorithm>
#include <cmath>

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>

namespace flint::views {

namespace {

/// Below this scale the view draws plain shapes without text (zoomed-out overview).
constexpr double detailScale = 0.45;
/// The initial view shows at most this many nodes.
constexpr std::size_t initialNodeBudget = 200;

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

struct DagView::JobResult {
    quint64 generation = 0;
    std::shared_ptr<const DagScopeTree> tree;
    std::shared_ptr<const DagLayout> layout;
    DagCollapseState state;
    bool ok = false;
};

DagView::DagView(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setMinimumSize(200, 150);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Find op by name or kind (Enter: next)"));
    m_search->setClearButtonEnabled(true);
    m_search->setFixedWidth(260);
    connect(m_search, &QLineEdit::textChanged, this, &DagView::setSearchText);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(); });
}

DagView::~DagView() = default;

void DagView::setWorkload(std::shared_ptr<const core::Workload> workload, int rank)
{
    std::shared_ptr<const core::Program> program;
    if (workload && rank >= 0 && static_cast<std::size_t>(rank) < workload->rankCount())
        program = workload->programs.at(workload->ranks.at(static_cast<std::size_t>(rank)).program);
    m_workload = std::move(workload);
    setProgram(std::move(program), rank);
}

void DagView::setProgram(std::shared_ptr<const core::Program> program, int rank)
{
    m_rank = rank;
    if (program == m_program)
        return; // ranks of an SPMD workload share one program: keep the view as it is
    m_program = std::move(program);
    m_tree.reset();
    m_layout.reset();
    m_state = {};
    m_selectedOp = DagNode::noOp;
    m_selectedNode = -1;
    m_matches.clear();
    m_nodeMatches.clear();
    m_fitPending = true;
    setMessage({});
    ++m_generation;
    m_layoutDeferred = false;
    if (!m_program) {
        m_busy = false;
        update();
        return;
    }
    // On a tab the user is not looking at, the layout waits until the tab is shown: a strategy edit
    // watched on the timeline should not share the cores with a graph nobody sees.
    if (window()->isVisible() && !isVisible()) {
        m_layoutDeferred = true;
        m_busy = false;
        return;
    }
    // The worker builds the scope tree and picks the initial state.
    requestLayout({});
}

void DagView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_layoutDeferred) {
        m_layoutDeferred = false;
        requestLayout({});
    }
}

void DagView::requestLayout(DagCollapseState state, std::uint32_t focusOp)
{
    const quint64 generation = ++m_generation;
    m_focusPending = focusOp;
    if (m_tree) {
        if (auto cached = m_cache.find(m_program, state.key())) {
            m_state = std::move(state);
            m_busy = false;
            applyLayout(m_tree, std::move(cached));
            return;
        }
    }
    m_busy = true;
    update();
    const std::shared_ptr<const core::Program> program = m_program;
    const std::shared_ptr<const DagScopeTree> knownTree = m_tree;
    const bool initial = !m_tree;
    if (!m_jobs)
        m_jobs = new JobRunner(this);
    QPointer<DagView> self(this);
    // The job owns copies of everything it reads (program, tree, state) and never touches the view;
    // results enter the cache on the GUI thread, and only when no newer request came meanwhile.
    m_jobs->start(JobRunner::Kind::Layout, tr("Laying out the graph…"),
                  [self, program, knownTree, initial, state,
                   generation](const core::JobControl&) mutable -> std::function<void()> {
                      auto result = std::make_shared<JobResult>();
                      result->generation = generation;
                      result->tree = knownTree ? knownTree : DagScopeTree::build(*program);
                      if (initial)
                          state = result->tree->initialState(initialNodeBudget);
                      result->state = state;
                      auto layout = std::make_shared<DagLayout>(result->tree->buildGraph(state));
                      result->ok = DagLayoutEngine::layout(*layout);
                      result->layout = std::move(layout);
                      return [self, result] {
                          if (self)
                              self->layoutDone(*result);
                      };
                  });
}

void DagView::layoutDone(const JobResult& result)
{
    if (result.generation != m_generation)
        return; // a newer request superseded this one (a cached layout, or another job)
    m_busy = false;
    if (!result.ok) {
        setMessage(tr("The graph could not be laid out (more than %1 nodes, or Graphviz failed).")
                       .arg(DagLayoutEngine::maxNodes));
        update();
        return;
    }
    m_state = result.state;
    applyLayout(result.tree, result.layout);
}

void DagView::setJobRunner(JobRunner* runner)
{
    m_jobs = runner;
}

void DagView::applyLayout(std::shared_ptr<const DagScopeTree> tree, std::shared_ptr<const DagLayout> layout)
{
    m_tree = std::move(tree);
    m_cache.insert(m_program, m_state.key(), layout);
    m_layout = std::move(layout);
    m_selectedNode = m_selectedOp != DagNode::noOp && m_selectedOp < m_layout->opToNode.size()
                         ? static_cast<int>(m_layout->opToNode[m_selectedOp])
                         : -1;
    if (!m_searchText.isEmpty() && m_matches.empty())
        m_matches = m_tree->find(m_searchText.toStdString());
    updateMatchFlags();
    if (m_fitPending) {
        m_fitPending = false;
        m_viewport.fitInto(m_layout->bounds, fitArea());
    }
    if (m_focusPending != DagNode::noOp) {
        const std::uint32_t op = m_focusPending;
        m_focusPending = DagNode::noOp;
        focusOp(op);
    }
    update();
    Q_EMIT layoutReady();
}

void DagView::updateMatchFlags()
{
    m_nodeMatches.assign(m_layout ? m_layout->nodes.size() : 0, false);
    if (!m_layout)
        return;
    for (std::uint32_t op : m_matches)
        if (op < m_layout->opToNode.size())
            m_nodeMatches[m_layout->opToNode[op]] = true;
}

void DagView::setMessage(const QString& message)
{
    if (message == m_message)
        return;
    m_message = message;
    update();
    Q_EMIT messageChanged(message);
}

bool DagView::applyState(DagCollapseState state, std::uint32_t focusOp)
{
    if (!m_tree)
        return false;
    const std::size_t shown = m_tree->visibleNodeCount(state);
    if (shown > DagLayoutEngine::maxNodes)
        return false;
    requestLayout(std::move(state), focusOp);
    return true;
}

bool DagView::toggleGroup(int group)
{
    if (!m_tree || group <= 0 || static_cast<std::size_t>(group) >= m_tree->groups().size())
        return false;
    const DagScopeTree::Group& g = m_tree->groups()[static_cast<std::size_t>(group)];
    DagCollapseState state = m_state;
    if (m_tree->isFolded(group, state)) {
        state.unfolded.insert(m_tree->groups()[static_cast<std::size_t>(g.runFirst)].path);
    } else if (state.expanded.contains(g.path)) {
        state.expanded.erase(g.path);
        if (g.runFirst >= 0 && g.runFirst == group) // collapsing a run's first member folds the run again
            state.unfolded.erase(g.path);
    } else {
        state.expanded.insert(g.path);
    }
    if (!applyState(state, DagNode::noOp)) {
        setMessage(tr("“%1” holds %2 ops: opening it would show %3 nodes, more than the %4 the view lays out. "
                      "Search for an op inside it to open just its part.")
                       .arg(fromStd(g.name))
                       .arg(g.opCount)
                       .arg(m_tree->visibleNodeCount(state))
                       .arg(DagLayoutEngine::maxNodes));
        return false;
    }
    setMessage({});
    return true;
}

void DagView::revealAndFocus(std::uint32_t opIndex)
{
    if (!m_tree || !m_layout || opIndex >= m_layout->opToNode.size())
        return;
    DagCollapseState state = m_state;
    if (!m_tree->reveal(opIndex, state)) {
        focusOp(opIndex);
        return;
    }
    if (!applyState(state, opIndex)) {
        // Too much open already: show just the way to this op.
        DagCollapseState minimal;
        m_tree->reveal(opIndex, minimal);
        if (!applyState(minimal, opIndex))
            setMessage(tr("The op is in a part of the graph too large to show."));
    }
}

void DagView::focusOp(std::uint32_t opIndex)
{
    if (!m_layout || opIndex >= m_layout->opToNode.size())
        return;
    m_selectedOp = opIndex;
    m_selectedNode = static_cast<int>(m_layout->opToNode[opIndex]);
    const QRectF rect = m_layout->nodes[static_cast<std::size_t>(m_selectedNode)].rect;
    if (m_viewport.scale < 0.8)
        m_viewport.scale = 1.0;
    m_viewport.centerOn(rect.center(), size());
    update();
}

void DagView::selectOp(quint32 opIndex)
{
    if (!m_layout) {
        m_selectedOp = opIndex; // applied when the layout arrives
        return;
    }
    revealAndFocus(opIndex);
}

void DagView::setSearchText(const QString& text)
{
    if (text == m_searchText)
        return;
    m_searchText = text;
    if (m_search->text() != text)
        m_search->setText(text);
    m_matches = m_tree && !text.isEmpty() ? m_tree->find(text.toStdString()) : std::vector<std::uint32_t>{};
    m_matchCursor = 0;
    updateMatchFlags();
    setMessage(!text.isEmpty() && m_tree && m_matches.empty() ? tr("No op matches “%1”.").arg(text)
               : m_matches.empty()                            ? QString()
                                                              : tr("%n match(es)", nullptr, int(m_matches.size())));
    update();
}

bool DagView::findNext()
{
    if (m_matches.empty())
        return false;
    const std::uint32_t op = m_matches[m_matchCursor % m_matches.size()];
    setMessage(tr("Match %1 of %2").arg(m_matchCursor % m_matches.size() + 1).arg(m_matches.size()));
    ++m_matchCursor;
    revealAndFocus(op);
    return true;
}

void DagView::zoomIn()
{
    m_viewport.zoomAround(QPointF(width() / 2.0, height() / 2.0), 1.25);
    update();
}

void DagView::zoomOut()
{
    m_viewport.zoomAround(QPointF(width() / 2.0, height() / 2.0), 0.8);
    update();
}

void DagView::fitToView()
{
    if (m_layout)
        m_viewport.fitInto(m_layout->bounds, fitArea());
    update();
}

QByteArray DagView::renderImage(bool svg) const
{
    const QRectF target(QPointF(0, 0), QSizeF(size()));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size());
        generator.setViewBox(target);
        generator.setTitle(tr("Flint Explorer DAG"));
        QPainter painter;
        if (!painter.begin(&generator))
            return {};
        paintContents(painter, target);
        if (!painter.end())
            return {};
        return bytes;
    }
    QImage image(size() * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2.0);
    QPainter painter(&image);
    paintContents(painter, target);
    painter.end();
    if (!image.save(&buffer, "PNG"))
        return {};
    return bytes;
}

bool DagView::exportImage(const QString& path) const
{
    const QByteArray bytes =
        renderImage(QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0);
    if (bytes.isEmpty())
        return false;
    try {
        core::OutputTransaction output;
        output.write(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        output.commit();
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

int DagView::nodeAt(QPointF screenPos) const
{
    if (!m_layout)
        return -1;
    const QPointF scene = m_viewport.toScene(screenPos);
    for (std::size_t i = 0; i < m_layout->nodes.size(); ++i)
        if (m_layout->nodes[i].rect.contains(scene))
            return static_cast<int>(i);
    return -1;
}

int DagView::clusterAt(QPointF screenPos) const
{
    if (!m_layout)
        return -1;
    const QPointF scene = m_viewport.toScene(screenPos);
    int best = -1;
    for (std::size_t i = 0; i < m_layout->clusters.size(); ++i)
        if (m_layout->clusters[i].rect.contains(scene) &&
            (best < 0 || m_layout->clusters[i].depth > m_layout->clusters[static_cast<std::size_t>(best)].depth))
            best = static_cast<int>(i);
    return best;
}

void DagView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_search->move(width() - m_search->width() - 8, 8);
}

void DagView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.0015, event->angleDelta().y());
    m_viewport.zoomAround(event->position(), factor);
    update();
    event->accept();
}

void DagView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position();
        m_lastDragPos = event->position();
        m_dragging = true;
        setCursor(Qt::ClosedHandCursor);
    }
}

void DagView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    m_viewport.offset += event->position() - m_lastDragPos;
    m_lastDragPos = event->position();
    update();
}

void DagView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_dragging)
        return;
    m_dragging = false;
    unsetCursor();
    if ((event->position() - m_pressPos).manhattanLength() > 4)
        return; // a drag, not a click
    const int node = nodeAt(event->position());
    m_selectedNode = node;
    m_selectedOp = DagNode::noOp;
    if (node >= 0) {
        const DagNode& n = m_layout->nodes[static_cast<std::size_t>(node)];
        if (n.op != DagNode::noOp) {
            m_selectedOp = n.op;
            Q_EMIT opSelected(m_rank, n.op);
        }
    }
    update();
}

void DagView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->position());
    if (node >= 0) {
        const DagNode& n = m_layout->nodes[static_cast<std::size_t>(node)];
        if (n.group > 0)
            toggleGroup(n.group);
        return;
    }
    const int cluster = clusterAt(event->position());
    if (cluster >= 0)
        toggleGroup(m_layout->clusters[static_cast<std::size_t>(cluster)].group);
}

void DagView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_F:
    case Qt::Key_0:
        fitToView();
        break;
    case Qt::Key_F3:
        findNext();
        break;
    default:
        if (event->matches(QKeySequence::Find)) {
            m_search->setFocus();
            m_search->selectAll();
            break;
        }
        QWidget::keyPressEvent(event);
    }
}

void DagView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintContents(painter, QRectF(rect()));
}

void DagView::paintContents(QPainter& painter, const QRectF& target) const
{
    painter.fillRect(target, QColor(0xfb, 0xfb, 0xfc));
    painter.setRenderHint(QPainter::Antialiasing, true);
    QFont uiFont = font();
    if (!m_layout) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(target, Qt::AlignCenter, m_busy ? tr("laying out…") : tr("No program loaded"));
        return;
    }
    const bool simple = m_viewport.scale < detailScale;
    const QRectF visible = m_viewport.toScene(target).adjusted(-20, -20, 20, 20);

    painter.save();
    painter.setTransform(m_viewport.transform(), true);

    // Frames of expanded groups, outermost first.
    QFont clusterFont = uiFont;
    clusterFont.setPixelSize(10);
    clusterFont.setBold(true);
    painter.setFont(clusterFont);
    for (const DagCluster& cluster : m_layout->clusters) {
        if (!cluster.rect.intersects(visible))
            continue;
        const int shade = std::max(0xdc, 0xf4 - 8 * static_cast<int>(cluster.depth));
        painter.setPen(QPen(QColor(0x9a, 0xa0, 0xb4), 0, Qt::SolidLine));
        painter.setBrush(QColor(shade, shade, std::min(255, shade + 6)));
        painter.drawRoundedRect(cluster.rect, 6, 6);
        if (!simple) {
            painter.setPen(QColor(0x3a, 0x40, 0x55));
            painter.drawText(cluster.rect.adjusted(8, 3, -8, 0), Qt::AlignLeft | Qt::AlignTop, fromStd(cluster.label));
        }
    }

    // Edges.
    const QColor edgeColor(0x6b, 0x70, 0x80);
    const QColor selectedEdge(0x1f, 0x6f, 0xd1);
    QFont countFont = uiFont;
    countFont.setPixelSize(9);
    painter.setFont(countFont);
    for (const DagEdge& edge : m_layout->edges) {
        if (!edge.path.controlPointRect().adjusted(-6, -6, 6, 6).intersects(visible))
            continue;
        const bool touchesSelection = m_selectedNode >= 0 && (static_cast<int>(edge.from) == m_selectedNode ||
                                                              static_cast<int>(edge.to) == m_selectedNode);
        const QColor color = touchesSelection ? selectedEdge : edgeColor;
        QPen pen(color, touchesSelection ? 2.0 : (edge.count() > 1 ? 1.4 : 1.0),
                 edge.isControl() ? Qt::DashLine : Qt::SolidLine);
        pen.setCosmetic(true);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(edge.path);
        // Arrow head, 7 points long.
        const QPointF d = edge.arrowTip - edge.arrowBase;
        const double len = std::hypot(d.x(), d.y());
        if (len > 0.01) {
            const QPointF u = d / len;
            const QPointF n(-u.y(), u.x());
            const QPointF back = edge.arrowTip - u * 7.0;
            const QPolygonF head{edge.arrowTip, back + n * 3.2, back - n * 3.2};
            painter.setPen(Qt::NoPen);
            painter.setBrush(color);
            painter.drawPolygon(head);
        }
        if (!simple && edge.count() > 1) {
            // On a light plate, so that a number that has to sit on a title or a node stays legible.
            const QString count = QString::number(edge.count());
            const QFontMetricsF metrics(countFont);
            const QPointF at = countLabels(
                metrics, QFontMetricsF(clusterFont))[static_cast<std::size_t>(&edge - m_layout->edges.data())];
            const QRectF box(at, QSizeF(metrics.horizontalAdvance(count) + 2, metrics.height()));
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(255, 255, 255, 200));
            painter.drawRoundedRect(box, 2, 2);
            painter.setPen(color.darker(120));
            painter.drawText(box, Qt::AlignCenter, count);
        }
    }

    QFont labelFont = uiFont;
    labelFont.setPixelSize(10);
    painter.setFont(labelFont);
    for (std::size_t i = 0; i < m_layout->nodes.size(); ++i)
        if (m_layout->nodes[i].rect.intersects(visible))
            paintNode(painter, m_layout->nodes[i], i, simple);
    painter.restore();

    painter.setFont(uiFont);
    paintLegend(painter, target);
    if (m_busy || !m_message.isEmpty()) {
        const QString text = m_busy ? tr("laying out…") : m_message;
        const QRectF box(target.left() + 8, target.bottom() - 30, target.width() - 16, 22);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0x30, 0x34, 0x44, 220));
        painter.drawRoundedRect(box, 4, 4);
        painter.setPen(Qt::white);
        painter.drawText(box.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
}

const std::vector<QPointF>& DagView::countLabels(const QFontMetricsF& metrics, const QFontMetricsF& titles) const
{
    if (m_countLabelsOf == m_layout.get())
        return m_countLabels;
    // Beside the edge's path, on either side, the middle first, then nearer either end: where the
    // number covers the least of the nodes, the clusters' titles and the numbers placed before it
    // (beside the arrow head it sat on the titles of the clusters edges enter).
    m_countLabelsOf = m_layout.get();
    m_countLabels.assign(m_layout ? m_layout->edges.size() : 0, QPointF());
    if (!m_layout)
        return m_countLabels;
    std::vector<QRectF> taken;
    for (const DagCluster& c : m_layout->clusters)
        taken.emplace_back(c.rect.left() + 8, c.rect.top() + 3, titles.horizontalAdvance(fromStd(c.label)),
                           titles.height());
    for (const DagNode& n : m_layout->nodes)
        taken.push_back(n.rect);
    const auto covered = [&](const QRectF& r) {
        double area = 0;
        for (const QRectF& t : taken)
            if (t.intersects(r)) {
                const QRectF both = t.intersected(r);
                area += both.width() * both.height();
            }
        return area;
    };
    for (std::size_t i = 0; i < m_layout->edges.size(); ++i) {
        const DagEdge& edge = m_layout->edges[i];
        if (edge.count() < 2)
            continue;
        const QSizeF size(metrics.horizontalAdvance(QString::number(edge.count())) + 2, metrics.height());
        double best = -1;
        for (double t : {0.5, 0.35, 0.65, 0.2, 0.8}) {
            const QPointF on = edge.path.pointAtPercent(t);
            for (double dx : {4.0, -size.width() - 4}) {
                const QPointF at = on + QPointF(dx, -size.height() / 2);
                const double area = covered(QRectF(at, size));
                if (best < 0 || area < best) {
                    best = area;
                    m_countLabels[i] = at;
                }
                if (area == 0)
                    break;
            }
            if (best == 0)
                break;
        }
        taken.emplace_back(m_countLabels[i], size); // the next numbers keep off this one too
    }
    return m_countLabels;
}

void DagView::paintNode(QPainter& painter, const DagNode& node, std::size_t index, bool simple) const
{
    const DagStyle::Look look = DagStyle::lookOf(node);
    const QRectF r = node.rect;
    const bool selected = static_cast<int>(index) == m_selectedNode;
    const bool matched = index < m_nodeMatches.size() && m_nodeMatches[index];
    QPen border(selected  ? QColor(0x1f, 0x6f, 0xd1)
                : matched ? QColor(0xff, 0x8c, 0x00)
                          : look.border,
                selected || matched ? 3.0 : 1.0);
    border.setCosmetic(true);
    painter.setBrush(look.fill);
    if (simple) {
        painter.setPen(selected || matched ? border : Qt::NoPen);
        painter.setBrush(selected || matched ? look.fill : look.border.lighter(130));
        painter.drawRect(r);
        return;
    }
    switch (look.shape) {
    case DagStyle::Shape::Box:
        painter.setPen(border);
        painter.drawRect(r);
        break;
    case DagStyle::Shape::RoundedBox:
        painter.setPen(border);
        painter.drawRoundedRect(r, 5, 5);
        break;
    case DagStyle::Shape::Pill:
        painter.setPen(border);
        painter.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        break;
    case DagStyle::Shape::Hexagon: {
        const double k = r.height() / 3;
        painter.setPen(border);
        painter.drawPolygon(QPolygonF{QPointF(r.left() + k, r.top()), QPointF(r.right() - k, r.top()),
                                      QPointF(r.right(), r.center().y()), QPointF(r.right() - k, r.bottom()),
                                      QPointF(r.left() + k, r.bottom()), QPointF(r.left(), r.center().y())});
        break;
    }
    case DagStyle::Shape::Group:
        painter.setPen(border);
        painter.drawRoundedRect(r, 6, 6);
        painter.drawRoundedRect(r.adjusted(2.5, 2.5, -2.5, -2.5), 4, 4);
        break;
    case DagStyle::Shape::Stack: {
        // Two cards behind the front one say "more of the same".
        const QRectF front = r.adjusted(0, 6, -8, 0);
        painter.setPen(QPen(look.border, 0));
        painter.drawRoundedRect(front.translated(8, -6), 5, 5);
        painter.drawRoundedRect(front.translated(4, -3), 5, 5);
        painter.setPen(border);
        painter.drawRoundedRect(front, 5, 5);
        // The ×N badge at the top right.
        const QString badge = QStringLiteral("×") + QString::number(node.repeat);
        const QRectF badgeRect(r.right() - 34, r.top() - 4, 34, 15);
        painter.setPen(Qt::NoPen);
        painter.setBrush(look.border);
        painter.drawRoundedRect(badgeRect, 7, 7);
        painter.setPen(Qt::white);
        QFont bold = painter.font();
        bold.setBold(true);
        painter.save();
        painter.setFont(bold);
        painter.drawText(badgeRect, Qt::AlignCenter, badge);
        painter.restore();
        break;
    }
    }
    const QRectF textRect = look.shape == DagStyle::Shape::Stack ? r.adjusted(6, 8, -14, -2) : r.adjusted(6, 2, -6, -2);
    const QFontMetricsF metrics(painter.font());
    painter.setPen(QColor(0x1c, 0x1f, 0x2a));
    const QString label = metrics.elidedText(fromStd(node.label), Qt::ElideMiddle, textRect.width());
    if (node.detail.empty()) {
        painter.drawText(textRect, Qt::AlignCenter, label);
        return;
    }
    const QRectF top(textRect.left(), textRect.top(), textRect.width(), textRect.height() / 2 + 1);
    const QRectF bottom(textRect.left(), textRect.center().y(), textRect.width(), textRect.height() / 2);
    painter.drawText(top, Qt::AlignHCenter | Qt::AlignBottom, label);
    painter.setPen(QColor(0x4a, 0x50, 0x62));
    painter.drawText(bottom, Qt::AlignHCenter | Qt::AlignTop,
                     metrics.elidedText(fromStd(node.detail), Qt::ElideRight, textRect.width()));
}

QRectF DagView::legendBox(const QFontMetricsF& metrics, const QRectF& target, double* textWidthOut) const
{
    const std::vector<DagStyle::LegendEntry> entries = DagStyle::legendFor(*m_layout);
    const double row = metrics.height() + 4;
    double textWidth = metrics.horizontalAdvance(tr("control dependency"));
    for (const auto& entry : entries)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(entry.text));
    if (hasEdgeCounts())
        textWidth = std::max(textWidth, metrics.horizontalAdvance(tr("dependencies per edge")));
    if (textWidthOut)
        *textWidthOut = textWidth;
    const double rows = static_cast<double>(entries.size()) + (hasEdgeCounts() ? 3 : 2);
    return {target.left() + 8, target.top() + 8, textWidth + 48, rows * row + 10};
}

QRectF DagView::fitArea() const
{
    // Fit the graph where the overlays leave it: below the search box, right of the legend.
    const double top = m_search->geometry().bottom() + 4.0;
    const double left = m_layout ? legendBox(QFontMetricsF(font()), rect()).right() : 0.0;
    return {left, top, std::max(1.0, width() - left), std::max(1.0, height() - top)};
}

void DagView::paintLegend(QPainter& painter, const QRectF& target) const
{
    const std::vector<DagStyle::LegendEntry> entries = DagStyle::legendFor(*m_layout);
    const QFontMetricsF metrics(painter.font());
    const double row = metrics.height() + 4;
    double textWidth = 0;
    const QRectF box = legendBox(metrics, target, &textWidth);
    painter.setPen(QColor(0xc8, 0xcc, 0xd6));
    painter.setBrush(QColor(255, 255, 255, 230));
    painter.drawRoundedRect(box, 5, 5);
    double y = box.top() + 5;
    for (const auto& entry : entries) {
        const QRectF swatch(box.left() + 8, y + 3, 22, row - 6);
        painter.setPen(QPen(entry.look.border, 1));
        painter.setBrush(entry.look.fill);
        if (entry.look.shape == DagStyle::Shape::Pill)
            painter.drawRoundedRect(swatch, swatch.height() / 2, swatch.height() / 2);
        else
            painter.drawRoundedRect(swatch, 2, 2);
        painter.setPen(QColor(0x1c, 0x1f, 0x2a));
        painter.drawText(QRectF(swatch.right() + 8, y, textWidth + 4, row), Qt::AlignVCenter | Qt::AlignLeft,
                         entry.text);
        y += row;
    }
    const auto edgeRow = [&](const QString& text, Qt::PenStyle style) {
        painter.setPen(QPen(QColor(0x6b, 0x70, 0x80), 1.4, style));
        painter.drawLine(QPointF(box.left() + 8, y + row / 2), QPointF(box.left() + 30, y + row / 2));
        painter.setPen(QColor(0x1c, 0x1f, 0x2a));
        painter.drawText(QRectF(box.left() + 38, y, textWidth + 4, row), Qt::AlignVCenter | Qt::AlignLeft, text);
        y += row;
    };
    edgeRow(tr("data dependency"), Qt::SolidLine);
    edgeRow(tr("control dependency"), Qt::DashLine);
    if (hasEdgeCounts()) {
        // The numbers beside edges, drawn as the edges draw them.
        QFont countFont = painter.font();
        countFont.setPixelSize(9);
        const QFont textFont = painter.font();
        painter.setFont(countFont);
        painter.setPen(QColor(0x6b, 0x70, 0x80).darker(120));
        painter.drawText(QRectF(box.left() + 8, y, 22, row), Qt::AlignCenter, QStringLiteral("12"));
        painter.setFont(textFont);
        painter.setPen(QColor(0x1c, 0x1f, 0x2a));
        painter.drawText(QRectF(box.left() + 38, y, textWidth + 4, row), Qt::AlignVCenter | Qt::AlignLeft,
                         tr("dependencies per edge"));
    }
}

bool DagView::hasEdgeCounts() const
{
    return m_layout && std::any_of(m_layout->edges.begin(), m_layout->edges.end(),
                                   [](const DagEdge& edge) { return edge.count() > 1; });
}

} // namespace flint::views
