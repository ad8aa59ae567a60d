// SPDX-License-Identifier: MIT
#include "views/chartspage.h"

#include "core/estimator/estimateexport.h"
#include "views/viewpalette.h"

#include <algorithm>
#include <map>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QShowEvent>
#include <QStackedBarSeries>
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

void replaceChart(QChartView* view, QChart* chart, const QString& title)
{
    chart->setTitle(title);
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
    (void)grid;
}

QChartView* ChartsPage::addChart(const QString& title, int row, int column)
{
    auto* view = new QChartView(this); // comes with an empty chart of its own
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(240, 180);
    view->chart()->setTitle(title);
    static_cast<QGridLayout*>(layout())->addWidget(view, row, column);
    return view;
}

void ChartsPage::setData(std::shared_ptr<const core::Workload> workload,
                         std::shared_ptr<const core::EstimateResult> result)
{
    m_workload = std::move(workload);
    m_result = std::move(result);
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
    const std::size_t groups = std::min<std::size_t>(m_baseline ? 6 : 8, ranks); // two more bars with a baseline
    const std::size_t perGroup = (ranks + groups - 1) / groups;
    const auto [scale, unit] =
        timeUnit(m_baseline ? std::max(result->stepTime, m_baseline->stepTime) : result->stepTime);
    auto* compute = new QBarSet(tr("compute"));
    auto* exposed = new QBarSet(tr("exposed communication"));
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
    rankAxis->setTitleText(perGroup == 1 ? tr("rank")
                                         : tr("first rank of each group of %n rank(s)", nullptr, int(perGroup)));
    auto* timeAxis = new QValueAxis;
    timeAxis->setTitleText(unit);
    chart->addAxis(rankAxis, Qt::AlignBottom);
    chart->addAxis(timeAxis, Qt::AlignLeft);
    stacked->attachAxis(rankAxis);
    stacked->attachAxis(timeAxis);
    m_breakdownCategories = categories;
    replaceChart(m_breakdown, chart,
                 m_baseline ? tr("Step-time breakdown (%1 per rank; means first)").arg(unit)
                            : tr("Step-time breakdown (%1 per rank)").arg(unit));

    // Top ops: time summed over all ranks, by op name.
    const std::vector<core::OpTotal> top = core::topOps(*result, *workload, 10);
    const auto [topScale, topUnit] = timeUnit(top.empty() ? 0 : top.front().seconds);
    auto* topSet = new QBarSet(tr("time over all ranks (%1)").arg(topUnit));
    topSet->setColor(colorOf(core::OpKind::Compute));
    QStringList names;
    for (std::size_t i = top.size(); i-- > 0;) {
        *topSet << top[i].seconds * topScale;
        QString name = QString::fromStdString(top[i].name);
        if (name.size() > 28)
            name = name.left(26) + QStringLiteral("…");
        names << name;
    }
    for (const core::OpTotal& op : top)
        m_topOps << QString::fromStdString(op.name);
    // Each distinct program once, weighted by the ranks that run it (SPMD ranks share one).
    std::vector<double> ranksPerProgram(workload->programs.size(), 0.0);
    for (const core::RankBinding& binding : workload->ranks)
        ranksPerProgram[binding.program] += 1;
    std::map<core::CollectiveKind, double> bytesByKind;
    for (std::size_t p = 0; p < workload->programs.size(); ++p)
        for (const core::Op& op : workload->programs[p]->ops)
            if (op.kind == core::OpKind::Collective)
                bytesByKind[op.collective] += static_cast<double>(op.commBytes) * ranksPerProgram[p];
    auto* topSeries = new QHorizontalBarSeries;
    topSeries->append(topSet);
    auto* topChart = new QChart;
    topChart->addSeries(topSeries);
    auto* nameAxis = new QBarCategoryAxis;
    nameAxis->append(names);
    auto* topAxis = new QValueAxis;
    topChart->addAxis(nameAxis, Qt::AlignLeft);
    topChart->addAxis(topAxis, Qt::AlignBottom);
    topSeries->attachAxis(nameAxis);
    topSeries->attachAxis(topAxis);
    replaceChart(m_top, topChart, tr("Top ops by time"));

    // Bytes per collective kind, summed over ranks, in GB.
    auto* kindSet = new QBarSet(tr("GB over all ranks"));
    kindSet->setColor(colorOf(core::OpKind::Collective));
    QStringList kinds;
    for (const auto& [kind, bytes] : bytesByKind) {
        *kindSet << bytes / 1e9;
        const auto name = core::displayName(kind);
        kinds << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    auto* kindSeries = new QBarSeries;
    kindSeries->append(kindSet);
    auto* kindChart = new QChart;
    kindChart->addSeries(kindSeries);
    auto* kindAxis = new QBarCategoryAxis;
    kindAxis->append(kinds);
    auto* gbAxis = new QValueAxis;
    gbAxis->setTitleText(QStringLiteral("GB"));
    kindChart->addAxis(kindAxis, Qt::AlignBottom);
    kindChart->addAxis(gbAxis, Qt::AlignLeft);
    kindSeries->attachAxis(kindAxis);
    kindSeries->attachAxis(gbAxis);
    replaceChart(m_kinds, kindChart, tr("Bytes per collective kind"));

    // Traffic per topology dimension.
    auto* dimSet = new QBarSet(tr("GB carried"));
    dimSet->setColor(QColor(0x76, 0xb7, 0xb2));
    QStringList dims;
    for (std::size_t d = 0; d < result->bytesPerDim.size(); ++d) {
        *dimSet << result->bytesPerDim[d] / 1e9;
        dims << tr("dim %1").arg(d);
    }
    auto* dimSeries = new QBarSeries;
    dimSeries->append(dimSet);
    auto* dimChart = new QChart;
    dimChart->addSeries(dimSeries);
    auto* dimAxis = new QBarCategoryAxis;
    dimAxis->append(dims);
    auto* dimValues = new QValueAxis;
    dimValues->setTitleText(QStringLiteral("GB"));
    dimChart->addAxis(dimAxis, Qt::AlignBottom);
    dimChart->addAxis(dimValues, Qt::AlignLeft);
    dimSeries->attachAxis(dimAxis);
    dimSeries->attachAxis(dimValues);
    replaceChart(m_dims, dimChart, tr("Traffic per topology dimension"));
}

} // namespace flint::views
