// SPDX-License-Identifier: MIT
#include "views/chartspage.h"

#include "core/estimator/estimateexport.h"
#include "views/roundaxis.h"
#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLocale>
#include <QShowEvent>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

namespace flint::views {
namespace {

/// A value axis in a unit that keeps the labels short: microseconds, milliseconds or seconds.
std::pair<double, QString> timeUnit(double maxSeconds)
{
    if (maxSeconds >= 1)
        return {1, QStringLiteral("s")};
    if (maxSeconds >= 1e-3)
        return {1e3, QStringLiteral("ms")};
    return {1e6, QStringLiteral("µs")};
}

/// Horizontal bars print their figure past their end: the value axis reaches this much beyond
/// the longest bar so that its figure fits.
constexpr double kLabelRoom = 1.3;

/// Intervals a horizontal value axis aims at (roundAxis).
constexpr int kHorizontalIntervals = 3;

/// Four charts share the page beside the side panels: the space around each chart's background
/// (QChart's layout margins) and inside it (its margins) would cost some 45 pixels of width that
/// German legends and axis titles need ("offene Komm.", "Gruppen aus 128 Rängen" were elided).
void useCompactFrame(QChart* chart)
{
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setMargins(QMargins(6, 4, 6, 4));
    chart->setBackgroundRoundness(0);
}

void replaceChart(QChartView* view, QChart* chart, const QString& title)
{
    useCompactFrame(chart);
    chart->setTitle(title);
    chart->setLocalizeNumbers(true);
    chart->setLocale(QLocale());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
}

} // namespace

ChartsPage::ChartsPage(QWidget* parent)
    : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    m_breakdown = addChart(tr("Step-time breakdown"), 0, 0);
    m_top = addChart(tr("Top ops by time"), 0, 1);
    m_kinds = addChart(tr("Bytes per collective kind"), 1, 0);
    m_dims = addChart(tr("Traffic per topology dimension"), 1, 1);
    // The two byte charts count different things; say which, so that their totals are not compared.
    m_kinds->setToolTip(tr("The messages the ranks hand to each kind of collective and send, summed over ranks. "
                           "The links carry what the algorithms make of them (right): a ring all-reduce of c bytes "
                           "sends 2(n-1)/n c from each of its n members, a ring all-gather (n-1) c."));
    m_dims->setToolTip(tr("Bytes the collectives' algorithms and the sends put on each dimension's links, summed "
                          "over ranks: not the message sizes on the left (a ring all-reduce of c bytes sends "
                          "2(n-1)/n c from each of its n members), and a transfer that crosses two dimensions "
                          "counts in both."));
    (void)grid;
}

QChartView* ChartsPage::addChart(const QString& title, int row, int column)
{
    auto* view = new QChartView(this); // comes with an empty chart of its own
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(240, 180);
    useCompactFrame(view->chart());
    view->chart()->setTitle(title);
    static_cast<QGridLayout*>(layout())->addWidget(view, row, column);
    return view;
}

void ChartsPage::setData(std::shared_ptr<const core::Workload> workload,
                         std::shared_ptr<const core::EstimateResult> result, QStringList dimensionNames)
{
    m_workload = std::move(workload);
    m_result = std::move(result);
    m_dimensionNames = std::move(dimensionNames);
    m_stale = true;
    if (isVisible())
        build();
}

void ChartsPage::setBaseline(std::shared_ptr<const core::EstimateResult> baseline)
{
    if (baseline == m_baseline)
        return;
    m_baseline = std::move(baseline);
    m_stale = true;
    if (isVisible())
        build();
}

QStringList ChartsPage::breakdownCategories()
{
    build();
    return m_breakdownCategories;
}

int ChartsPage::breakdownGroups()
{
    build();
    return m_breakdownGroups;
}

QStringList ChartsPage::topOps()
{
    build();
    return m_topOps;
}

void ChartsPage::showEvent(QShowEvent* event)
{
    build();
    QWidget::showEvent(event);
}

void ChartsPage::build()
{
    if (!m_stale)
        return;
    m_stale = false;
    m_breakdownGroups = 0;
    m_breakdownCategories.clear();
    m_topOps.clear();
    const std::shared_ptr<const core::Workload>& workload = m_workload;
    const std::shared_ptr<const core::EstimateResult>& result = m_result;
    if (!workload || !result || result->ranks.empty())
        return;
    const std::size_t ranks = result->ranks.size();

    // Breakdown per group of ranks (at most 8 bars, 6 beside a baseline, so that labels stay legible), averaged within
    // a group; a group is labelled by its first rank.
    // Groups of equal size where the rank count allows (1,024 ranks beside a baseline: 4 of 256, which
    // keep pipeline stages of 128 whole, not 6 of 171 that cut through them).
    const std::size_t limit = std::min<std::size_t>(m_baseline ? 6 : 8, ranks); // two more bars with a baseline
    std::size_t groups = limit;
    while (groups > 1 && ranks % groups != 0)
        --groups;
    if (groups == 1 && ranks > limit)
        groups = limit; // a prime count: nearly equal groups
    const std::size_t perGroup = (ranks + groups - 1) / groups;
    const auto [scale, unit] =
        timeUnit(m_baseline ? std::max(result->stepTime, m_baseline->stepTime) : result->stepTime);
    auto* compute = new QBarSet(tr("compute"));
    auto* exposed = new QBarSet(tr("exposed comm."));
    auto* idle = new QBarSet(tr("idle"));
    compute->setColor(colorOf(core::OpKind::Compute));
    exposed->setColor(colorOf(core::OpKind::Collective));
    idle->setColor(QColor(0xba, 0xb0, 0xac));
    QStringList categories;
    // Against a baseline: its mean per rank and this estimate's, before the groups.
    const auto addMean = [&](const core::EstimateResult& r, const QString& label) {
        double c = 0, e = 0, i = 0;
        for (const core::RankBreakdown& b : r.ranks) {
            c += b.compute;
            e += b.exposedComm;
            i += b.idle;
        }
        const double n = static_cast<double>(std::max<std::size_t>(1, r.ranks.size()));
        *compute << c / n * scale;
        *exposed << e / n * scale;
        *idle << i / n * scale;
        categories << label;
    };
    if (m_baseline && !m_baseline->ranks.empty()) {
        addMean(*m_baseline, tr("base", "short axis label: the baseline's mean"));
        addMean(*result, tr("now", "short axis label: this estimate's mean"));
    }
    for (std::size_t first = 0; first < ranks; first += perGroup) {
        const std::size_t last = std::min(ranks, first + perGroup);
        double c = 0, e = 0, i = 0;
        for (std::size_t r = first; r < last; ++r) {
            c += result->ranks[r].compute;
            e += result->ranks[r].exposedComm;
            i += result->ranks[r].idle;
        }
        const double n = static_cast<double>(last - first);
        *compute << c / n * scale;
        *exposed << e / n * scale;
        *idle << i / n * scale;
        categories << QString::number(first);
        ++m_breakdownGroups;
    }
    auto* stacked = new QStackedBarSeries;
    stacked->append({compute, exposed, idle});
    auto* chart = new QChart;
    chart->addSeries(stacked);
    auto* rankAxis = new QBarCategoryAxis;
    rankAxis->append(categories);
    rankAxis->setTruncateLabels(false);
    // Many first-rank labels side by side run together ("0128256384"): upright, each stays legible.
    if (categories.join(QString()).size() > 16)
        rankAxis->setLabelsAngle(-90);
    rankAxis->setTitleText(perGroup == 1 ? tr("rank") : tr("groups of %n rank(s)", nullptr, int(perGroup)));
    double tallest = result->stepTime;
    if (m_baseline)
        tallest = std::max(tallest, m_baseline->stepTime);
    QValueAxis* timeAxis = roundAxis(tallest * scale, unit);
    chart->addAxis(rankAxis, Qt::AlignBottom);
    chart->addAxis(timeAxis, Qt::AlignLeft);
    stacked->attachAxis(rankAxis);
    stacked->attachAxis(timeAxis);
    m_breakdownCategories = categories;
    replaceChart(m_breakdown, chart,
                 m_baseline ? tr("Breakdown per rank (%1; means first)").arg(unit)
                            : tr("Step-time breakdown (%1 per rank)").arg(unit));
    // Three entries side by side in the legend's usual font elide "exposed comm.": a size smaller
    // they fit; an elided entry still shows its whole name as a tooltip.
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    chart->legend()->setFont(legendFont);
    chart->legend()->setShowToolTips(true);

    // Top ops: time summed over all ranks, by op name.
    const std::vector<core::OpTotal> top = core::topOps(*result, *workload, 6);
    const auto [topScale, topUnit] = timeUnit(top.empty() ? 0 : top.front().seconds);
    auto* topSet = new QBarSet(tr("time over all ranks (%1)").arg(topUnit));
    topSet->setColor(colorOf(core::OpKind::Compute));
    QStringList names, fullNames;
    for (std::size_t i = top.size(); i-- > 0;) {
        *topSet << top[i].seconds * topScale;
        // Long names are elided in the middle (their ends tell ops apart); the whole name is
        // the bar's tooltip.
        QString name = QString::fromStdString(top[i].name);
        fullNames << name;
        if (name.size() > 24)
            name = name.left(11) + QStringLiteral("…") + name.right(12);
        names << name;
    }
    for (const core::OpTotal& op : top)
        m_topOps << QString::fromStdString(op.name);
    // Each distinct program once, weighted by the ranks that run it (SPMD ranks share one).
    std::vector<double> ranksPerProgram(workload->programs.size(), 0.0);
    for (const core::RankBinding& binding : workload->ranks)
        ranksPerProgram[binding.program] += 1;
    std::map<core::CollectiveKind, double> bytesByKind;
    double sendBytes = 0; // point-to-point transfers (pipeline activations), each counted at its send
    for (std::size_t p = 0; p < workload->programs.size(); ++p)
        for (const core::Op& op : workload->programs[p]->ops)
            if (op.kind == core::OpKind::Collective)
                bytesByKind[op.collective] += static_cast<double>(op.commBytes) * ranksPerProgram[p];
            else if (op.kind == core::OpKind::Send)
                sendBytes += static_cast<double>(op.commBytes) * ranksPerProgram[p];
    auto* topSeries = new QHorizontalBarSeries;
    topSeries->append(topSet);
    auto* topChart = new QChart;
    topChart->addSeries(topSeries);
    auto* nameAxis = new QBarCategoryAxis;
    nameAxis->append(names);
    nameAxis->setTruncateLabels(false);
    QValueAxis* topAxis = roundAxis(top.empty() ? 0 : top.front().seconds * topScale, topUnit, kHorizontalIntervals);
    connect(topSeries, &QHorizontalBarSeries::hovered, this, [fullNames, topUnit](bool on, int index, QBarSet* set) {
        if (on && index >= 0 && index < fullNames.size())
            QToolTip::showText(
                QCursor::pos(),
                QStringLiteral("%1\n%2 %3").arg(fullNames[index], QLocale().toString(set->at(index), 'g', 4), topUnit));
        else
            QToolTip::hideText();
    });
    topChart->addAxis(nameAxis, Qt::AlignLeft);
    topChart->addAxis(topAxis, Qt::AlignBottom);
    topSeries->attachAxis(nameAxis);
    topSeries->attachAxis(topAxis);
    replaceChart(m_top, topChart, tr("Top ops by time"));

    // Bytes per collective kind, summed over ranks, in the unit that fits the largest. Horizontal
    // bars keep the kinds' names whole; each bar carries its figure, so that a kind a hundred times
    // smaller than the largest still reads.
    double mostBytes = sendBytes;
    for (const auto& [kind, bytes] : bytesByKind)
        mostBytes = std::max(mostBytes, bytes);
    const ByteUnit kindBytes = byteUnit(mostBytes);
    const double kindScale = kindBytes.scale;
    const QString kindUnit = QString::fromLatin1(kindBytes.name);
    auto* kindSet = new QBarSet(tr("%1 of messages (all ranks)").arg(kindUnit));
    kindSet->setColor(colorOf(core::OpKind::Collective));
    kindSet->setLabelColor(palette().color(QPalette::WindowText));
    QStringList kinds;
    for (auto it = bytesByKind.rbegin(); it != bytesByKind.rend(); ++it) {
        *kindSet << it->second / kindScale;
        const auto name = core::displayName(it->first);
        kinds << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    if (sendBytes > 0) { // as the Communication tab's kinds list them
        *kindSet << sendBytes / kindScale;
        kinds << QStringLiteral("send/recv");
    }
    auto* kindSeries = new QHorizontalBarSeries;
    kindSeries->append(kindSet);
    kindSeries->setLabelsVisible(true);
    kindSeries->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    kindSeries->setLabelsPrecision(3);
    auto* kindChart = new QChart;
    kindChart->addSeries(kindSeries);
    auto* kindAxis = new QBarCategoryAxis;
    kindAxis->append(kinds);
    kindAxis->setTruncateLabels(false);
    QValueAxis* gbAxis = roundAxis(kLabelRoom * mostBytes / kindScale, kindUnit, kHorizontalIntervals);
    kindChart->addAxis(kindAxis, Qt::AlignLeft);
    kindChart->addAxis(gbAxis, Qt::AlignBottom);
    kindSeries->attachAxis(kindAxis);
    kindSeries->attachAxis(gbAxis);
    replaceChart(m_kinds, kindChart, tr("Bytes per collective kind"));

    // Traffic per topology dimension, each named by its links (innermost first).
    double mostCarried = 0;
    for (double bytes : result->bytesPerDim)
        mostCarried = std::max(mostCarried, bytes);
    const ByteUnit dimBytes = byteUnit(mostCarried);
    const double dimScale = dimBytes.scale;
    const QString dimUnit = QString::fromLatin1(dimBytes.name);
    auto* dimSet = new QBarSet(tr("%1 on the links (all ranks)").arg(dimUnit));
    dimSet->setColor(QColor(0x76, 0xb7, 0xb2));
    dimSet->setLabelColor(palette().color(QPalette::WindowText));
    QStringList dims;
    for (std::size_t d = result->bytesPerDim.size(); d-- > 0;) {
        *dimSet << result->bytesPerDim[d] / dimScale;
        dims << (static_cast<qsizetype>(d) < m_dimensionNames.size() ? m_dimensionNames[static_cast<qsizetype>(d)]
                                                                     : tr("dimension %1").arg(d + 1));
    }
    auto* dimSeries = new QHorizontalBarSeries;
    dimSeries->append(dimSet);
    dimSeries->setLabelsVisible(true);
    dimSeries->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    dimSeries->setLabelsPrecision(3);
    auto* dimChart = new QChart;
    dimChart->addSeries(dimSeries);
    auto* dimAxis = new QBarCategoryAxis;
    dimAxis->append(dims);
    dimAxis->setTruncateLabels(false);
    QValueAxis* dimValues = roundAxis(kLabelRoom * mostCarried / dimScale, dimUnit, kHorizontalIntervals);
    dimChart->addAxis(dimAxis, Qt::AlignLeft);
    dimChart->addAxis(dimValues, Qt::AlignBottom);
    dimSeries->attachAxis(dimAxis);
    dimSeries->attachAxis(dimValues);
    replaceChart(m_dims, dimChart, tr("Traffic per topology dimension"));
}

} // namespace flint::views
