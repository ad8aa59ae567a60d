// SPDX-License-Identifier: MIT
#include "app/explorer/sweeppage.h"

#include "app/explorer/session.h"
#include "app/explorer/stepsummary.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#if defined(FLINT_HAVE_MODELS)
#include "engine/modelcompiler.h"
#include "views/roundaxis.h"
#endif

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace flint::app {
namespace {

QString parameterName(SweepPage::Parameter p)
{
    switch (p) {
    case SweepPage::Parameter::TP:
        return SweepPage::tr("TP");
    case SweepPage::Parameter::PP:
        return SweepPage::tr("PP");
    case SweepPage::Parameter::DP:
        return SweepPage::tr("DP");
    case SweepPage::Parameter::MicrobatchSize:
        return SweepPage::tr("Microbatch size");
    case SweepPage::Parameter::BandwidthScale:
        return SweepPage::tr("Bandwidth scale");
    }
    return {};
}

} // namespace

SweepPage::SweepPage(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_parameterBox = new QComboBox(this);
    for (Parameter p :
         {Parameter::TP, Parameter::PP, Parameter::DP, Parameter::MicrobatchSize, Parameter::BandwidthScale})
        m_parameterBox->addItem(parameterName(p), static_cast<int>(p));
    m_values = new QLineEdit(QStringLiteral("1, 2, 4, 8"), this);
    m_values->setToolTip(tr("Values to try, separated by commas, semicolons or spaces"));
    m_metricBox = new QComboBox(this);
    m_metricBox->addItem(tr("Step time"), static_cast<int>(Metric::StepTime));
    m_metricBox->addItem(tr("MFU"), static_cast<int>(Metric::Mfu));
    m_runButton = new QPushButton(tr("Run sweep"), this);
    controls->addWidget(new QLabel(tr("Sweep"), this));
    controls->addWidget(m_parameterBox);
    controls->addWidget(m_values, 1);
    controls->addWidget(new QLabel(tr("Plot"), this));
    controls->addWidget(m_metricBox);
    controls->addWidget(m_runButton);
    layout->addLayout(controls);
    const QString sweepsTheModel =
        tr("Sweeps the model shown in the Parallelism panel; GPUs stay fixed when TP or PP change.");
    m_status = new QLabel(sweepsTheModel, this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_chart = new QChart;
    m_chart->setLocalizeNumbers(true); // axis labels in the page's language: "2,5" in German
    m_chart->legend()->setVisible(true);
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(260);
    layout->addWidget(m_chartView, 2);
    m_table = new QTableWidget(0, 7, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Value"), tr("Strategy"), tr("Step time"), tr("Tokens/s"), tr("MFU"), tr("Memory GiB"), tr("Note")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_table, 1);

    connect(m_runButton, &QPushButton::clicked, this, [this] {
        if (m_running)
            cancel();
        else
            startFromControls();
    });
    // Each parameter offers values of its own kind to start from: degrees, or factors around 1.
    connect(m_parameterBox, &QComboBox::currentIndexChanged, this, [this] {
        const bool factor = static_cast<Parameter>(m_parameterBox->currentData().toInt()) == Parameter::BandwidthScale;
        m_values->setText(factor ? QLocale().toString(0.5) + QStringLiteral(", 1, 2, 4")
                                 : QStringLiteral("1, 2, 4, 8"));
    });
    connect(m_metricBox, &QComboBox::currentIndexChanged, this,
            [this] { setMetric(static_cast<Metric>(m_metricBox->currentData().toInt())); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { choose(row); });
    redraw(); // the empty plot's prompt
    // A file's parallelism is fixed: say so before the user clicks, rather than on the click.
    connect(&m_session, &Session::scenarioChanged, this, [this, sweepsTheModel](const engine::Scenario& scenario) {
        if (m_running)
            return;
        m_sweepable = scenario.isModel();
        m_runButton->setEnabled(m_sweepable);
        for (QWidget* control : std::initializer_list<QWidget*>{m_parameterBox, m_values, m_metricBox})
            control->setEnabled(m_sweepable);
        if (m_points.empty())
            redraw(); // the empty plot's prompt follows
        m_status->setText(scenario.isModel()
                              ? sweepsTheModel
                              : tr("The open file's parallelism is fixed, so there is no strategy to sweep: choose a "
                                   "built-in model in the Parallelism panel (or read a model file) to sweep one."));
        // Points swept around another configuration stay on screen, said to be out of date.
        if (!m_points.empty() && scenario.isModel() && !holds(scenario))
            m_status->setText(
                tr("The plot shows the sweep around %1 on %2; the configuration has changed since: "
                   "Run sweep to sweep the current one.")
                    .arg(StepSummary::strategy(m_base.parallel), QString::fromStdString(m_base.cluster.name)));
    });
}

QString SweepPage::status() const
{
    return m_status->text();
}

bool SweepPage::holds(const engine::Scenario& scenario) const
{
    // The same network and devices: a point's cluster is sized for its ranks, so NPU counts may differ.
    const auto sameCluster = [](const core::Cluster& a, const core::Cluster& b) {
        const auto links = [](const core::Cluster& c) {
            std::vector<std::tuple<core::TopologyKind, double, double>> out;
            for (const core::TopologyDim& d : c.topology.dims)
                out.emplace_back(d.kind, d.bandwidthGBps, d.latencyNs);
            return out;
        };
        return a.name == b.name && a.device.name == b.device.name && a.commStreams == b.commStreams &&
               a.model == b.model && links(a) == links(b);
    };
    if (!scenario.model || !m_base.model || scenario.model->name != m_base.model->name ||
        !sameCluster(scenario.cluster, m_base.cluster))
        return false;
    if (scenario.parallel == m_base.parallel)
        return true;
    return std::any_of(m_points.begin(), m_points.end(),
                       [&](const Point& p) { return p.evaluation.scenario.parallel == scenario.parallel; });
}

SweepPage::~SweepPage()
{
    cancel();
}

void SweepPage::startFromControls()
{
    // Values separated by commas, semicolons or spaces, each in C's notation or the user's ("0,5"
    // in German: there a comma followed by a digit is a decimal comma, so "0,5, 1, 2" is three
    // values and "1,2,4,8" four).
    const bool decimalComma = QLocale().decimalPoint() == QStringLiteral(",");
    const auto number = [decimalComma](const QString& text) -> std::optional<double> {
        bool ok = false;
        double v = text.toDouble(&ok);
        if (!ok && decimalComma)
            v = QLocale().toDouble(text, &ok);
        return ok ? std::optional<double>(v) : std::nullopt;
    };
    std::vector<double> values;
    for (const QString& token :
         m_values->text().split(QRegularExpression(QStringLiteral("[;\\s]+|,\\s+")), Qt::SkipEmptyParts)) {
        // A token that is no number is a list written without spaces.
        const QStringList parts =
            number(token) ? QStringList{token} : token.split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString& part : parts) {
            const std::optional<double> v = number(part);
            if (!v || *v <= 0) {
                m_status->setText(tr("'%1' is not a positive number").arg(part));
                return;
            }
            values.push_back(*v);
        }
    }
    run(static_cast<Parameter>(m_parameterBox->currentData().toInt()), values);
}

void SweepPage::cancel()
{
    if (!m_running)
        return;
    m_session.jobs().cancel(views::JobRunner::Kind::Sweep);
    m_running = false;
    ++m_sweep; // what the cancelled sweep still sends is dropped
    m_runButton->setText(tr("Run sweep"));
    m_status->setText(tr("Cancelled after %n point(s)", nullptr, static_cast<int>(m_points.size())));
    Q_EMIT finished();
}

void SweepPage::setMetric(Metric metric)
{
    m_metric = metric;
    const int index = m_metricBox->findData(static_cast<int>(metric));
    if (index >= 0 && index != m_metricBox->currentIndex()) {
        const QSignalBlocker blocker(m_metricBox);
        m_metricBox->setCurrentIndex(index);
    }
    redraw();
}

std::vector<SweepPage::Point> SweepPage::scenarios(const engine::Scenario& base, Parameter parameter,
                                                   const std::vector<double>& values)
{
    std::vector<Point> points;
    for (const double value : values) {
        Point point;
        point.value = value;
        engine::Scenario& s = point.evaluation.scenario;
        s = base;
        s.options.commMatrix = false;
        s.options.recordEvents = false;
        const auto v = static_cast<std::int64_t>(std::llround(value));
        const std::int64_t ranks = base.parallel.ranks();
        switch (parameter) {
        case Parameter::TP:
        case Parameter::PP: {
            // GPUs stay as they are; DP follows.
            (parameter == Parameter::TP ? s.parallel.tp : s.parallel.pp) = v;
            const std::int64_t others = s.parallel.tp * s.parallel.pp * s.parallel.cp;
            if (ranks % others != 0)
                point.evaluation.problem =
                    tr("TP x PP x CP = %1 does not divide %2 GPUs").arg(others).arg(ranks).toStdString();
            else
                s.parallel.dp = ranks / others;
            break;
        }
        case Parameter::DP:
            s.parallel.dp = v;
            break;
        case Parameter::MicrobatchSize:
            s.parallel.microbatchSize = v;
            break;
        case Parameter::BandwidthScale:
            engine::scaleBandwidth(s.cluster, value);
            s.cluster.edited = true;
            break;
        }
        points.push_back(std::move(point));
    }
    return points;
}

void SweepPage::run(Parameter parameter, const std::vector<double>& values)
{
    const auto evaluation = m_session.evaluation();
    if (!evaluation || !evaluation->compiled || !evaluation->scenario.isModel() || values.empty()) {
        m_status->setText(tr("Open a built-in model first (Parallelism panel)."));
        return;
    }
    m_parameter = parameter;
    m_base = evaluation->scenario;
    m_model = *evaluation->scenario.model;
    m_points = scenarios(evaluation->scenario, parameter, values);
    m_best = -1;
    m_running = true;
    ++m_sweep;
    m_runButton->setText(tr("Cancel"));
    redraw();
    // Points the controls could not build keep their problem; the engine evaluates the others.
    std::vector<engine::Scenario> todo;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < m_points.size(); ++i)
        if (m_points[i].evaluation.problem.empty()) {
            todo.push_back(m_points[i].evaluation.scenario);
            index.push_back(i);
        }
    QPointer<SweepPage> self(this);
    const auto compiler = m_session.compiler();
    m_session.jobs().start(
        views::JobRunner::Kind::Sweep, tr("Sweeping %1…").arg(parameterName(parameter)),
        [self, todo, index, compiler, sweep = m_sweep](const core::JobControl& control) -> std::function<void()> {
            engine::evaluateAll(todo, compiler.get(), control, [&](std::size_t i, const engine::Evaluation& e) {
                // Each point as it arrives, unless the sweep was cancelled or replaced meanwhile.
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, at = index[i], e, sweep] {
                        if (self && self->m_running && self->m_sweep == sweep)
                            self->pointDone(at, e);
                    },
                    Qt::QueuedConnection);
            });
            return [self, sweep] {
                if (!self || !self->m_running || self->m_sweep != sweep)
                    return;
                self->m_running = false;
                self->m_runButton->setText(tr("Run sweep"));
                Q_EMIT self->finished();
            };
        });
}

void SweepPage::pointDone(std::size_t index, const engine::Evaluation& evaluation)
{
    m_points[index].evaluation = evaluation;
    std::vector<engine::Evaluation> all;
    std::size_t done = 0;
    for (const Point& p : m_points) {
        all.push_back(p.evaluation);
        done += p.evaluation.result || !p.evaluation.problem.empty() ? 1 : 0;
    }
    m_best = engine::bestIndex(all, engine::Objective::Throughput);
    m_status->setText(tr("%1 of %2 points estimated").arg(done).arg(m_points.size()));
    redraw();
}

void SweepPage::redraw()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis); // releases ownership without deleting
        delete axis;
    }
    m_table->setRowCount(static_cast<int>(m_points.size()));
    if (m_points.empty()) {
        // An empty plot says what it is for, rather than stay a blank frame.
        m_chart->setTitle(m_sweepable ? tr("No sweep yet: choose a parameter and its values above, then Run sweep.<br>"
                                           "Each point re-estimates the model with that one value changed.")
                                      : tr("Nothing to sweep: the open file fixes its parallelism."));
        return;
    }
    const bool mfu = m_metric == Metric::Mfu;
    auto* line = new QLineSeries;
    line->setName(mfu ? tr("MFU (%)") : tr("Step time (s)"));
    auto* feasible = new QScatterSeries;
    feasible->setName(tr("feasible"));
    feasible->setMarkerSize(9);
    auto* infeasible = new QScatterSeries;
    infeasible->setName(tr("invalid or out of memory"));
    infeasible->setColor(QColor(0xc0, 0x39, 0x2b));
    infeasible->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    infeasible->setMarkerSize(9);
    auto* best = new QScatterSeries;
    best->setName(tr("best"));
    best->setColor(QColor(0x27, 0xae, 0x60));
    best->setMarkerSize(16);
    double top = 0;
    for (const Point& p : m_points)
        if (p.figures().stepTime > 0)
            top = std::max(top, mfu ? 100 * p.figures().mfu : p.figures().stepTime);
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const Point& point = m_points[i];
        const core::model::StepFigures p = point.figures();
        const bool pending = !point.evaluation.result && point.evaluation.problem.empty();
        const double y = mfu ? 100 * p.mfu : p.stepTime;
        if (point.feasible()) {
            line->append(point.value, y);
            feasible->append(point.value, y);
        } else if (!pending) {
            infeasible->append(point.value, p.stepTime > 0 ? y : 0);
        }
        if (static_cast<int>(i) == m_best)
            best->append(point.value, y);
        const auto row = static_cast<int>(i);
        const auto cell = [this, row](int column, const QString& text) {
            m_table->setItem(row, column, new QTableWidgetItem(text));
        };
        cell(0, QLocale().toString(point.value, 'g', 6));
        cell(1, StepSummary::strategy(point.parallel()));
        cell(2, p.stepTime > 0 ? QLocale().toString(p.stepTime, 'f', 3) + QStringLiteral(" s") : QString());
        cell(3, p.tokensPerSecond > 0 ? QLocale().toString(p.tokensPerSecond, 'f', 0) : QString());
        cell(4, p.mfu > 0 ? QLocale().toString(100 * p.mfu, 'f', 1) + QStringLiteral("%") : QString());
        cell(5, p.memoryBytes > 0 ? QLocale().toString(p.memoryBytes / 1073741824.0, 'f', 1) : QString());
        cell(6, static_cast<int>(i) == m_best ? tr("best")
                : pending                     ? tr("…")
                                              : QString::fromStdString(point.evaluation.status()));
    }
    for (QXYSeries* series : std::initializer_list<QXYSeries*>{line, feasible, infeasible, best})
        m_chart->addSeries(series);
    double lo = m_points.front().value, hi = lo;
    for (const Point& p : m_points) {
        lo = std::min(lo, p.value);
        hi = std::max(hi, p.value);
    }
    // Round ticks in the page's locale with a margin around the points (a "%g" format, which the
    // chart's localised numbers do not take, left the axis without labels).
    const double margin = hi > lo ? 0.05 * (hi - lo) : std::max(0.5, 0.1 * hi);
    QValueAxis* x = views::roundAxis(std::max(0.0, lo - margin), hi + margin, parameterName(m_parameter), 8);
    // Round ticks in the page's locale ("2,5" in German), with room above the highest point.
    QValueAxis* y = views::roundAxis(top > 0 ? top * 1.1 : 1, mfu ? tr("MFU (%)") : tr("Step time (s)"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : m_chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    m_chart->setTitle(
        tr("%1: %2 against %3")
            .arg(QString::fromStdString(m_model.title), mfu ? tr("MFU") : tr("step time"), parameterName(m_parameter)));
    for (QScatterSeries* series : {feasible, infeasible, best})
        connect(series, &QScatterSeries::clicked, this, [this](const QPointF& at) {
            int nearest = -1;
            for (std::size_t i = 0; i < m_points.size(); ++i)
                if (nearest < 0 || std::abs(m_points[i].value - at.x()) <
                                       std::abs(m_points[static_cast<std::size_t>(nearest)].value - at.x()))
                    nearest = static_cast<int>(i);
            choose(nearest);
        });
}

void SweepPage::choose(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_points.size())
        return;
    const Point& p = m_points[static_cast<std::size_t>(index)];
    if (!p.evaluation.result)
        return; // not estimated: nothing to open
    Q_EMIT pointChosen(p.evaluation.scenario);
}

} // namespace flint::app
