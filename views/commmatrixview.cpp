// SPDX-License-Identifier: MIT
#include "views/commmatrixview.h"

#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>
#include <span>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <QWheelEvent>

namespace flint::views {

CommMatrixView::CommMatrixView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(240, 200);
}

void CommMatrixView::setResult(std::shared_ptr<const core::EstimateResult> result, int ranksPerNode)
{
    m_result = std::move(result);
    m_ranksPerNode = std::max(1, ranksPerNode);
    if (!m_kind.isEmpty() && !kinds().contains(m_kind))
        m_kind.clear();
    if (m_result && static_cast<std::int32_t>(m_order.size()) != m_result->commMatrix.ranks)
        m_order.clear();
    rebuild();
}

void CommMatrixView::setLogicalMatrix(std::shared_ptr<const core::CommMatrix> logical)
{
    m_logical = std::move(logical);
    if (m_traffic == Traffic::Logical) {
        if (!m_kind.isEmpty() && !kinds().contains(m_kind))
            m_kind.clear();
        rebuild();
    }
}

void CommMatrixView::setTraffic(Traffic traffic)
{
    m_traffic = traffic;
    if (!m_kind.isEmpty() && !kinds().contains(m_kind))
        m_kind.clear();
    rebuild();
}

const core::CommMatrix* CommMatrixView::matrix() const
{
    if (!m_result)
        return nullptr;
    return m_traffic == Traffic::Logical ? m_logical.get() : &m_result->commMatrix;
}

CommMatrixView::Metric CommMatrixView::shownMetric() const
{
    const core::CommMatrix* m = matrix();
    return m && m->seconds.size() == m->bytes.size() ? m_metric : Metric::Bytes;
}

void CommMatrixView::setBaseline(std::shared_ptr<const core::EstimateResult> baseline,
                                 std::shared_ptr<const core::CommMatrix> baselineLogical)
{
    m_baseline = std::move(baseline);
    m_baselineLogical = std::move(baselineLogical);
    if (m_difference)
        rebuild();
}

void CommMatrixView::setDifference(bool on)
{
    m_difference = on;
    rebuild();
}

const core::CommMatrix* CommMatrixView::baselineMatrix() const
{
    if (!m_baseline)
        return nullptr;
    return m_traffic == Traffic::Logical ? m_baselineLogical.get() : &m_baseline->commMatrix;
}

bool CommMatrixView::canCompare() const
{
    const core::CommMatrix* now = matrix();
    const core::CommMatrix* base = baselineMatrix();
    return now && base && now->ranks == base->ranks && now->blockSize == base->blockSize &&
           now->blocks == base->blocks && now->bytes.size() == base->bytes.size() &&
           (shownMetric() == Metric::Bytes || base->seconds.size() == base->bytes.size());
}

double CommMatrixView::baselineCellBytes(int source, int destination) const
{
    if (source < 0 || destination < 0 || source >= m_cells || destination >= m_cells || m_baseBytes.empty())
        return 0;
    return m_baseBytes[at(source, destination)];
}

void CommMatrixView::setAggregateByNode(bool aggregate)
{
    m_byNode = aggregate;
    rebuild();
}

void CommMatrixView::setKindFilter(const QString& kind)
{
    if (kind == m_kind && m_cellBytes)
        return; // shown already (setResult and setTraffic rebuild with the kind they keep)
    m_kind = kind;
    rebuild();
}

QStringList CommMatrixView::kinds() const
{
    QStringList names;
    if (const core::CommMatrix* m = matrix())
        for (const auto& layer : m->layers)
            names << QString::fromStdString(layer.kind);
    return names;
}

void CommMatrixView::setMetric(Metric metric)
{
    m_metric = metric;
    rebuild();
}

void CommMatrixView::setRankOrder(std::vector<std::int32_t> order)
{
    m_order = std::move(order);
    rebuild();
}

bool CommMatrixView::canReorder() const
{
    const core::CommMatrix* m = matrix();
    return m && m->blockSize == 1 && !(m_byNode && m_ranksPerNode > 1);
}

void CommMatrixView::highlightFlows(const std::vector<std::pair<std::int32_t, std::int32_t>>& flows)
{
    m_flows = flows;
    rebuild();
}

std::pair<std::int32_t, std::int32_t> CommMatrixView::ranksOfCell(int cell) const
{
    if (cell < 0 || cell >= m_cells)
        return {-1, 0};
    if (m_ordered)
        return {m_rankAt[static_cast<std::size_t>(cell)], 1};
    const std::int32_t ranks = matrix() ? matrix()->ranks : 0;
    const std::int32_t first = cell * m_ranksPerCell;
    return {first, std::min(m_ranksPerCell, ranks - first)};
}

double CommMatrixView::cellBytes(int source, int destination) const
{
    if (source < 0 || destination < 0 || source >= m_cells || destination >= m_cells)
        return 0;
    return m_cellBytes[at(source, destination)];
}

QColor CommMatrixView::cellColor(int source, int destination) const
{
    if (source < 0 || destination < 0 || source >= m_image.height() || destination >= m_image.width())
        return {};
    return QColor(m_image.pixel(destination, source));
}

double CommMatrixView::cellSeconds(int source, int destination) const
{
    if (source < 0 || destination < 0 || source >= m_cells || destination >= m_cells || !m_cellSeconds)
        return 0;
    return m_cellSeconds[at(source, destination)];
}

namespace {

/// Draws `text` along a vertical axis centred on `centre`: Latin text turned a quarter left (read
/// bottom to top); text with Chinese characters as vertical CJK text is set, the characters upright
/// one under another and Latin runs ("rank") turned a quarter right, so that no Chinese character
/// lies on its side.
void drawVerticalLabel(QPainter& p, QPointF centre, double length, const QString& text)
{
    bool han = false;
    for (const QChar c : text)
        han = han || c.script() == QChar::Script_Han;
    if (!han) {
        p.save();
        p.translate(centre);
        p.rotate(-90);
        p.drawText(QRectF(-length / 2, -10, length, 20), Qt::AlignCenter, text);
        p.restore();
        return;
    }
    // Runs: each Chinese character alone, the text between them (trimmed) as one run.
    QStringList runs;
    QString latin;
    for (const QChar c : text) {
        if (c.script() == QChar::Script_Han) {
            if (!latin.trimmed().isEmpty())
                runs << latin.trimmed();
            latin.clear();
            runs << QString(c);
        } else {
            latin += c;
        }
    }
    if (!latin.trimmed().isEmpty())
        runs << latin.trimmed();
    const QFontMetricsF metrics(p.font());
    const auto extent = [&](const QString& run) {
        return run.size() == 1 && run.front().script() == QChar::Script_Han ? metrics.height()
                                                                            : metrics.horizontalAdvance(run) + 2;
    };
    double total = 0;
    for (const QString& run : runs)
        total += extent(run);
    double y = centre.y() - total / 2;
    for (const QString& run : runs) {
        const double h = extent(run);
        if (run.size() == 1 && run.front().script() == QChar::Script_Han) {
            p.drawText(QRectF(centre.x() - metrics.height(), y, 2 * metrics.height(), h), Qt::AlignCenter, run);
        } else {
            p.save();
            p.translate(centre.x(), y + h / 2);
            p.rotate(90);
            p.drawText(QRectF(-h / 2, -10, h, 20), Qt::AlignCenter, run);
            p.restore();
        }
        y += h;
    }
}

/// Points `bytes` and `seconds` at `m`'s cells of collective kind `kind` (its layer, made dense in
/// `layerBytes` and `layerSeconds`), or of all kinds when `kind` is empty. False when that kind
/// moved nothing in `m` (the pointers are then null).
bool selectKind(const core::CommMatrix& m, const QString& kind, const std::vector<double>*& bytes,
                const std::vector<double>*& seconds, std::vector<double>& layerBytes, std::vector<double>& layerSeconds)
{
    bytes = kind.isEmpty() ? &m.bytes : nullptr;
    seconds = kind.isEmpty() ? &m.seconds : nullptr;
    for (const auto& layer : m.layers)
        if (QString::fromStdString(layer.kind) == kind) {
            layerBytes = layer.denseBytes(m.blocks);
            layerSeconds = layer.denseSeconds(m.blocks);
            bytes = &layerBytes;
            seconds = &layerSeconds;
        }
    return bytes != nullptr;
}

/// Adds `sign` x `from`, `m`'s blocks x blocks values, into `to`, `side` x `side` shown cells:
/// block (s, d) goes to cell (position[s], position[d]).
void addCells(const core::CommMatrix& m, const std::vector<double>& from, double sign, const std::vector<int>& position,
              int side, std::vector<double>& to)
{
    for (int s = 0; s < m.blocks; ++s) {
        const auto row =
            static_cast<std::size_t>(position[static_cast<std::size_t>(s)]) * static_cast<std::size_t>(side);
        for (int d = 0; d < m.blocks; ++d)
            to[row + static_cast<std::size_t>(position[static_cast<std::size_t>(d)])] += sign * from[m.index(s, d)];
    }
}

} // namespace

void CommMatrixView::rebuild()
{
    m_cells = 0;
    m_bytes.clear();
    m_seconds.clear();
    m_baseBytes.clear();
    m_cellBytes = m_cellSeconds = nullptr;
    m_highlighted.clear();
    m_ordered = false;
    m_max = m_minPositive = 0;
    m_image = QImage();
    m_reduced = QImage();
    m_reducedFactor = 0;
    if (!this->matrix() || this->matrix()->blocks == 0) {
        update();
        return;
    }
    const core::CommMatrix& matrix = *this->matrix();
    const bool hasSeconds = matrix.seconds.size() == matrix.bytes.size();
    const std::vector<double>* bytes = nullptr;
    const std::vector<double>* seconds = nullptr;
    std::vector<double> kindBytes, kindSeconds; // the chosen kind's layer, made dense
    if (!selectKind(matrix, m_kind, bytes, seconds, kindBytes, kindSeconds)) {
        update(); // a kind with no traffic in this result
        return;
    }
    // A node spans ranksPerNode ranks = ranksPerNode / blockSize matrix blocks (at least one).
    const int group = m_byNode ? std::max(1, m_ranksPerNode / std::max(1, matrix.blockSize)) : 1;
    m_cells = (matrix.blocks + group - 1) / group;
    m_ranksPerCell = group * matrix.blockSize;
    m_ordered = canReorder() && static_cast<std::int32_t>(m_order.size()) == matrix.ranks && group == 1;
    std::vector<int> position(static_cast<std::size_t>(matrix.blocks));
    for (int b = 0; b < matrix.blocks; ++b)
        position[static_cast<std::size_t>(b)] = b / group;
    if (m_ordered) {
        m_rankAt = m_order;
        for (int p = 0; p < matrix.blocks; ++p)
            position[static_cast<std::size_t>(m_order[static_cast<std::size_t>(p)])] = p;
    }
    const std::size_t cells = static_cast<std::size_t>(m_cells) * static_cast<std::size_t>(m_cells);
    const bool difference = showsDifference();
    if (group == 1 && !m_ordered && bytes == &matrix.bytes && !difference) {
        // Cells are the result's blocks as they are: show them without a copy (8 MB each at 1,024 ranks).
        m_cellBytes = matrix.bytes.data();
        m_cellSeconds = hasSeconds ? matrix.seconds.data() : nullptr;
    } else {
        m_bytes.assign(cells, 0.0);
        m_seconds.assign(hasSeconds ? cells : 0, 0.0);
        addCells(matrix, *bytes, 1, position, m_cells, m_bytes);
        if (hasSeconds)
            addCells(matrix, *seconds, 1, position, m_cells, m_seconds);
        if (difference) {
            // The baseline's cells arranged the same way (its layer of the chosen kind, or nothing
            // where it had none), subtracted: each cell shows this estimate minus the baseline.
            const core::CommMatrix& base = *baselineMatrix();
            const std::vector<double>* baseBytes = nullptr;
            const std::vector<double>* baseSeconds = nullptr;
            std::vector<double> layerBytes, layerSeconds;
            m_baseBytes.assign(cells, 0.0);
            if (selectKind(base, m_kind, baseBytes, baseSeconds, layerBytes, layerSeconds)) {
                addCells(base, *baseBytes, 1, position, m_cells, m_baseBytes);
                if (hasSeconds && baseSeconds->size() == baseBytes->size())
                    addCells(base, *baseSeconds, -1, position, m_cells, m_seconds);
            }
            for (std::size_t i = 0; i < cells; ++i)
                m_bytes[i] -= m_baseBytes[i];
        }
        m_cellBytes = m_bytes.data();
        m_cellSeconds = hasSeconds ? m_seconds.data() : nullptr;
    }
    const std::span<const double> shown(shownMetric() == Metric::Bytes ? m_cellBytes : m_cellSeconds, cells);
    for (double v : shown) {
        // A difference is scaled by its size; its sign picks the colour.
        v = std::fabs(v);
        m_max = std::max(m_max, v);
        if (v > 0)
            m_minPositive = m_minPositive == 0 ? v : std::min(m_minPositive, v);
    }
    // One pixel per cell; paint scales it without smoothing.
    m_image = QImage(m_cells, m_cells, QImage::Format_RGB32);
    const QRgb empty = palette().color(QPalette::AlternateBase).rgb();
    // The colour scale spans at least a decade below the largest cell: cells that differ by a few
    // percent (a broadcast's root and its receivers) must not look as far apart as 1 kB and 1 GB.
    m_scaleMin = m_minPositive > 0 ? std::min(m_minPositive, m_max / 10) : 0;
    const double logMin = std::log10(m_scaleMin > 0 ? m_scaleMin : 1.0);
    const double logMax = std::log10(m_max > 0 ? m_max : 1.0);
    for (int s = 0; s < m_cells; ++s) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(s));
        for (int d = 0; d < m_cells; ++d) {
            const double v = shown[at(s, d)];
            if (v == 0 || (v < 0 && !difference)) {
                line[d] = empty; // and no logarithm of 0: its error path is slow, on most cells
                continue;
            }
            const double fraction = logMax > logMin ? (std::log10(std::fabs(v)) - logMin) / (logMax - logMin) : 1.0;
            line[d] = difference ? changeColor(fraction, v > 0).rgb() : heatColor(fraction).rgb();
        }
    }
    std::vector<bool> marked(cells, false);
    for (const auto& [src, dst] : m_flows) {
        const int sb = src / matrix.blockSize, db = dst / matrix.blockSize;
        if (src < 0 || dst < 0 || sb >= matrix.blocks || db >= matrix.blocks)
            continue;
        const std::size_t i = at(position[static_cast<std::size_t>(sb)], position[static_cast<std::size_t>(db)]);
        if (!marked[i]) {
            marked[i] = true;
            m_highlighted.emplace_back(position[static_cast<std::size_t>(sb)], position[static_cast<std::size_t>(db)]);
        }
    }
    update();
}

namespace {

// Margins around the square the matrix fills: tick labels and titles on the left and on top, the
// colour legend on the right.
constexpr double kLeft = 66, kTop = 40, kRight = 140, kBottom = 10;
/// The largest zoom: where a cell is this many pixels wide, and at least this factor.
constexpr double kMaxCellPixels = 48, kMinMaxZoom = 4;
/// Least pixels between two ticks, and between two separator lines.
constexpr double kTickSpacing = 40, kSeparatorSpacing = 40;

/// The smallest `base` x 2^k (k >= 0) whose span of `pixelsPerUnit` reaches `pixels`.
int stepReaching(int base, double pixelsPerUnit, double pixels, int limit)
{
    std::int64_t step = std::max(1, base);
    while (static_cast<double>(step) * pixelsPerUnit < pixels && step < limit)
        step *= 2;
    return static_cast<int>(std::min<std::int64_t>(step, std::max(1, limit)));
}

} // namespace

QRectF CommMatrixView::viewportRect() const
{
    const double side = std::max(10.0, std::min(width() - kLeft - kRight, height() - kTop - kBottom));
    return QRectF(kLeft, kTop, side, side);
}

QRectF CommMatrixView::plotRect() const
{
    const QRectF view = viewportRect();
    return QRectF(view.left() - m_pan.x(), view.top() - m_pan.y(), view.width() * m_zoom, view.height() * m_zoom);
}

void CommMatrixView::clampPan()
{
    const double room = viewportRect().width() * (m_zoom - 1);
    m_pan = QPointF(std::clamp(m_pan.x(), 0.0, room), std::clamp(m_pan.y(), 0.0, room));
}

int CommMatrixView::tickStep() const
{
    if (m_cells == 0)
        return 0;
    const double cellPixels = plotRect().width() / m_cells;
    // Powers of two: the sizes parallel groups come in.
    const int cells = stepReaching(1, cellPixels, kTickSpacing, m_cells);
    return m_byNode ? cells : cells * m_ranksPerCell;
}

int CommMatrixView::separatorStep() const
{
    if (m_cells == 0 || m_byNode || m_ranksPerNode % m_ranksPerCell != 0)
        return 0;
    const int nodeCells = m_ranksPerNode / m_ranksPerCell;
    if (nodeCells <= 1 || nodeCells >= m_cells)
        return 0;
    const double cellPixels = plotRect().width() / m_cells;
    const int cells = stepReaching(nodeCells, cellPixels, kSeparatorSpacing, m_cells);
    return cells >= m_cells ? 0 : cells * m_ranksPerCell;
}

std::pair<int, int> CommMatrixView::cellAt(QPointF pos) const
{
    const QRectF plot = plotRect();
    if (m_cells == 0 || !plot.contains(pos) || !viewportRect().contains(pos))
        return {-1, -1};
    const double cell = plot.width() / m_cells;
    return {std::min(m_cells - 1, static_cast<int>((pos.y() - plot.top()) / cell)),
            std::min(m_cells - 1, static_cast<int>((pos.x() - plot.left()) / cell))};
}

QRectF CommMatrixView::cellRect(int source, int destination) const
{
    const QRectF plot = plotRect();
    const double cell = m_cells > 0 ? plot.width() / m_cells : 0;
    return QRectF(plot.left() + destination * cell, plot.top() + source * cell, cell, cell);
}

const QImage& CommMatrixView::imageFor(int factor)
{
    if (factor <= 1)
        return m_image;
    if (m_reducedFactor != factor || m_reduced.isNull()) {
        // Scaling without smoothing samples one cell in factor x factor and drops the rest: a
        // ring's off-diagonal or a pipeline's stripes came and went with the window's size. Each
        // pixel takes the strongest cell of its block instead (the colour scale rises with |value|).
        const std::size_t cells = static_cast<std::size_t>(m_cells) * static_cast<std::size_t>(m_cells);
        const std::span<const double> shown(shownMetric() == Metric::Bytes ? m_cellBytes : m_cellSeconds, cells);
        const int n = (m_cells + factor - 1) / factor;
        m_reduced = QImage(n, n, QImage::Format_RGB32);
        for (int bs = 0; bs < n; ++bs) {
            auto* line = reinterpret_cast<QRgb*>(m_reduced.scanLine(bs));
            for (int bd = 0; bd < n; ++bd) {
                int bestS = bs * factor, bestD = bd * factor;
                double best = -1;
                for (int s = bs * factor; s < std::min(m_cells, (bs + 1) * factor); ++s)
                    for (int d = bd * factor; d < std::min(m_cells, (bd + 1) * factor); ++d)
                        if (const double v = std::fabs(shown[at(s, d)]); v > best) {
                            best = v;
                            bestS = s;
                            bestD = d;
                        }
                line[bd] = m_image.pixel(bestD, bestS);
            }
        }
        m_reducedFactor = factor;
    }
    return m_reduced;
}

QString CommMatrixView::emptyText() const
{
    // Nothing to draw, or only zeros (a workload without communication): say so instead of a blank
    // matrix and a colour bar from 0 B to 0 B.
    if (m_cells != 0 && m_max > 0)
        return {};
    return !m_result                      ? tr("No estimate yet")
           : m_difference && m_cells != 0 ? tr("No difference from the baseline")
           : m_kind.isEmpty()             ? tr("No rank-to-rank traffic in this step")
                                          : tr("No %1 traffic in this step").arg(m_kind);
}

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (const QString empty = emptyText(); !empty.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, empty);
        return;
    }
    clampPan();
    const QRectF view = viewportRect();
    const QRectF plot = plotRect();
    const double cell = plot.width() / m_cells;
    // The cells in view only: scaling the whole image to a zoomed plot would allocate its size.
    const auto visible = [&](double from, double to) {
        const int first = std::clamp(static_cast<int>(std::floor(from / cell)), 0, m_cells);
        const int last = std::clamp(static_cast<int>(std::ceil(to / cell)), first, m_cells);
        return std::pair{first, last};
    };
    const auto [c0, c1] = visible(view.left() - plot.left(), view.right() - plot.left());
    const auto [r0, r1] = visible(view.top() - plot.top(), view.bottom() - plot.top());
    p.save();
    p.setClipRect(view);
    // Fewer device pixels than cells: the cells reduced to about one pixel each, strongest first.
    const int factor = std::max(1, static_cast<int>(std::ceil(1.0 / (cell * devicePixelRatioF()) - 1e-9)));
    if (factor == 1) {
        p.drawImage(QRectF(plot.left() + c0 * cell, plot.top() + r0 * cell, (c1 - c0) * cell, (r1 - r0) * cell),
                    m_image, QRectF(c0, r0, c1 - c0, r1 - r0));
    } else {
        const QImage& reduced = imageFor(factor);
        const int b0 = c0 / factor, b1 = (c1 + factor - 1) / factor;
        const int a0 = r0 / factor, a1 = (r1 + factor - 1) / factor;
        const double block = cell * factor;
        p.drawImage(QRectF(plot.left() + b0 * block, plot.top() + a0 * block, (b1 - b0) * block, (a1 - a0) * block),
                    reduced, QRectF(b0, a0, b1 - b0, a1 - a0));
    }
    // Separators between groups of nodes (consecutive ranks: tensor-parallel groups, stages).
    const QColor text = palette().color(QPalette::Text);
    if (const int ranks = separatorStep(); ranks > 0) {
        QColor line = text;
        line.setAlpha(70);
        p.setPen(QPen(line, 1));
        const int cells = ranks / m_ranksPerCell;
        for (int c = cells; c < m_cells; c += cells) {
            const double at = c * cell;
            p.drawLine(QPointF(plot.left() + at, view.top()), QPointF(plot.left() + at, view.bottom()));
            p.drawLine(QPointF(view.left(), plot.top() + at), QPointF(view.right(), plot.top() + at));
        }
    }
    if (!m_highlighted.empty()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), std::clamp(cell / 4, 1.0, 3.0)));
        p.setBrush(Qt::NoBrush);
        for (const auto& [s, d] : m_highlighted)
            p.drawRect(QRectF(plot.left() + d * cell, plot.top() + s * cell, std::max(cell, 2.0), std::max(cell, 2.0)));
    }
    p.restore();
    p.setPen(text);
    p.drawRect(view);
    // Ticks: the first rank (or node) of every tickStep() along both axes.
    const int step = tickStep();
    const int stepCells = m_byNode ? step : std::max(1, step / m_ranksPerCell);
    const QFontMetricsF metrics(font());
    for (int c = 0; c < m_cells; c += stepCells) {
        // Wide cells are labelled at their middle, narrow ones at their start (the first rank).
        const double at = c * cell + (cell >= 12 ? cell / 2 : 0);
        const QString label =
            m_byNode ? QString::number(c)
                     : QString::number(m_ordered ? m_rankAt[static_cast<std::size_t>(c)] : ranksOfCell(c).first);
        const double x = plot.left() + at, y = plot.top() + at;
        if (x >= view.left() - 0.5 && x <= view.right() + 0.5) {
            p.drawLine(QPointF(x, view.top() - 4), QPointF(x, view.top()));
            p.drawText(QRectF(x - 30, view.top() - 20, 60, 16), Qt::AlignHCenter | Qt::AlignBottom, label);
        }
        if (y >= view.top() - 0.5 && y <= view.bottom() + 0.5) {
            p.drawLine(QPointF(view.left() - 4, y), QPointF(view.left(), y));
            p.drawText(QRectF(view.left() - 50, y - 8, 44, 16), Qt::AlignRight | Qt::AlignVCenter, label);
        }
    }
    const QString order = m_ordered ? tr(" (grouped order)") : QString();
    p.drawText(QRectF(view.left(), 0, view.width(), 18), Qt::AlignCenter,
               (m_byNode ? tr("destination node") : tr("destination rank")) + order);
    drawVerticalLabel(p, QPointF(12, view.center().y()), view.height(),
                      (m_byNode ? tr("source node") : tr("source rank")) + order);
    // Legend beside the viewport, in place whatever the zoom: the log scale from the smallest to the
    // largest cell.
    const QRectF legend(view.right() + 16, view.top(), 14, std::min(view.height(), 200.0));
    const bool bytes = shownMetric() == Metric::Bytes;
    const auto label = [bytes](double v) { return QString::fromStdString(bytes ? formatBytes(v) : formatDuration(v)); };
    const double room = std::max(40.0, width() - legend.left() - 4);
    if (showsDifference()) {
        // More above the middle (red, the largest increase at the top), less below (blue).
        const double half = legend.height() / 2;
        for (int i = 0; i < static_cast<int>(half); ++i) {
            const double fraction = 1 - i / half;
            p.fillRect(QRectF(legend.left(), legend.top() + i, legend.width(), 1), changeColor(fraction, true));
            p.fillRect(QRectF(legend.left(), legend.bottom() - i - 1, legend.width(), 1), changeColor(fraction, false));
        }
        p.drawRect(legend);
        p.drawText(QPointF(legend.right() + 4, legend.top() + 10), QStringLiteral("+") + label(m_max));
        p.drawText(QPointF(legend.right() + 4, legend.center().y() + 4), QStringLiteral("±") + label(m_scaleMin));
        p.drawText(QPointF(legend.right() + 4, legend.bottom()), QStringLiteral("−") + label(m_max));
        p.drawText(QRectF(legend.left(), legend.bottom() + 4, room, 4 * metrics.height()), Qt::TextWordWrap,
                   bytes ? tr("change from the baseline in bytes, log scale")
                         : tr("change from the baseline in link time, log scale"));
        return;
    }
    for (int i = 0; i < static_cast<int>(legend.height()); ++i)
        p.fillRect(QRectF(legend.left(), legend.bottom() - i - 1, legend.width(), 1), heatColor(i / legend.height()));
    p.drawRect(legend);
    p.drawText(QPointF(legend.right() + 4, legend.top() + 10), label(m_max));
    p.drawText(QPointF(legend.right() + 4, legend.bottom()), label(m_scaleMin));
    p.drawText(QRectF(legend.left(), legend.bottom() + 4, room, 3 * metrics.height()), Qt::TextWordWrap,
               !bytes                          ? tr("link time, log scale")
               : m_traffic == Traffic::Logical ? tr("logical bytes, log scale")
                                               : tr("bytes, log scale"));
}

bool CommMatrixView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_cells > 0) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [s, d] = cellAt(help->pos());
        if (s < 0) {
            QToolTip::hideText();
            return true;
        }
        const auto range = [this](int c) {
            const auto [first, count] = ranksOfCell(c);
            return count == 1 ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(first + count - 1);
        };
        const QString kind = m_kind.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_kind);
        if (showsDifference()) {
            const double change = cellBytes(s, d);
            const double base = baselineCellBytes(s, d);
            QToolTip::showText(help->globalPos(),
                               tr("ranks %1 → %2: %3%4 against the baseline (%5 there, %6 here)%7")
                                   .arg(range(s), range(d), change < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                        QString::fromStdString(formatBytes(std::fabs(change))),
                                        QString::fromStdString(formatBytes(base)),
                                        QString::fromStdString(formatBytes(base + change)), kind),
                               this);
            return true;
        }
        const QString bytes = QString::fromStdString(formatBytes(cellBytes(s, d)));
        QToolTip::showText(
            help->globalPos(),
            m_traffic == Traffic::Logical
                ? tr("ranks %1 → %2: %3 in the collectives' semantics%4").arg(range(s), range(d), bytes, kind)
                : tr("ranks %1 → %2: %3, %4 on the link%5")
                      .arg(range(s), range(d), bytes, QString::fromStdString(formatDuration(cellSeconds(s, d))), kind),
            this);
        return true;
    }
    return QWidget::event(event);
}

void CommMatrixView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    m_dragging = false;
    m_pressAt = event->position();
    m_panAtPress = m_pan;
}

void CommMatrixView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_pressed || !(event->buttons() & Qt::LeftButton))
        return;
    const QPointF moved = event->position() - m_pressAt;
    if (!m_dragging && moved.manhattanLength() > 4)
        m_dragging = true;
    if (m_dragging && m_zoom > 1) {
        m_pan = m_panAtPress - moved;
        clampPan();
        update();
    }
}

void CommMatrixView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    if (m_dragging)
        return;
    const auto [s, d] = cellAt(event->position());
    // A cell this estimate moves bytes in (with a difference shown: the baseline's plus the change).
    if (s < 0 || cellBytes(s, d) + baselineCellBytes(s, d) <= 0)
        return;
    const auto [srcFirst, srcCount] = ranksOfCell(s);
    const auto [dstFirst, dstCount] = ranksOfCell(d);
    Q_EMIT cellClicked(srcFirst, srcCount, dstFirst, dstCount);
}

void CommMatrixView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const auto [s, d] = cellAt(event->position());
    if (s >= 0)
        Q_EMIT cellDoubleClicked(s, d);
}

void CommMatrixView::keyPressEvent(QKeyEvent* event)
{
    const QPointF centre = viewportRect().center();
    switch (event->key()) {
    case Qt::Key_F:
    case Qt::Key_0:
        resetZoom();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAbout(centre, 1.5);
        return;
    case Qt::Key_Minus:
        zoomAbout(centre, 1 / 1.5);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void CommMatrixView::wheelEvent(QWheelEvent* event)
{
    zoomAbout(event->position(), std::pow(1.5, event->angleDelta().y() / 120.0));
}

void CommMatrixView::zoomAbout(QPointF at, double factor)
{
    const QRectF view = viewportRect();
    if (!view.contains(at))
        at = view.center();
    const double most = std::max(kMinMaxZoom, kMaxCellPixels * std::max(1, m_cells) / view.width());
    const double zoom = std::clamp(m_zoom * factor, 1.0, most);
    // The matrix point under `at` stays under it.
    const QPointF inPlot = at - view.topLeft() + m_pan;
    m_pan = inPlot * (zoom / m_zoom) - (at - view.topLeft());
    m_zoom = zoom;
    clampPan();
    update();
}

void CommMatrixView::resetZoom()
{
    m_zoom = 1;
    m_pan = {};
    update();
}

void CommMatrixView::zoomToCells(int first, int count)
{
    if (m_cells == 0 || count <= 0 || first < 0 || first >= m_cells)
        return;
    count = std::min(count, m_cells - first);
    const QRectF view = viewportRect();
    const double most = std::max(kMinMaxZoom, kMaxCellPixels * m_cells / view.width());
    m_zoom = std::clamp(static_cast<double>(m_cells) / count, 1.0, most);
    const double cell = view.width() * m_zoom / m_cells;
    // The group's first cell at the top left, or the group centred where the zoom limit leaves room.
    const double offset = first * cell - std::max(0.0, (view.width() - count * cell) / 2);
    m_pan = QPointF(offset, offset);
    clampPan();
    update();
}

} // namespace flint::views
