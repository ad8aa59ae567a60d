// SPDX-License-Identifier: MIT
#include "app/explorer/validationpage.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace flint::app {
namespace {

/// Seconds in the unit that suits them, in the user's number format.
QString formatSeconds(double s)
{
    const QLocale locale;
    if (s >= 1)
        return locale.toString(s, 'f', 3) + QStringLiteral(" s");
    if (s >= 1e-3)
        return locale.toString(s * 1e3, 'f', 3) + QStringLiteral(" ms");
    return locale.toString(s * 1e6, 'f', 1) + QStringLiteral(" µs");
}

QString formatError(double estimated, double measured)
{
    if (measured <= 0)
        return estimated > 0 ? ValidationPage::tr("only estimated") : QStringLiteral("–");
    if (estimated <= 0) // nothing on the workload's side: not an error of -100 %
        return ValidationPage::tr("only measured");
    const double error = 100.0 * (estimated - measured) / measured;
    return (error >= 0 ? QStringLiteral("+") : QString()) + QLocale().toString(error, 'f', 1) + QStringLiteral(" %");
}

QString formatBytes(std::uint64_t bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(std::min<std::uint64_t>(bytes, INT64_MAX)), 1,
                                       QLocale::DataSizeSIFormat);
}

/// A cell of a row counted on both sides (a category, an op name): label, counts, times, error.
template <class Row>
QVariant countedCell(int column, const std::string& label, const Row& row)
{
    switch (column) {
    case 0:
        return QString::fromStdString(label);
    case 1:
        return QLocale().toString(static_cast<qulonglong>(row.measuredCount));
    case 2:
        return QLocale().toString(static_cast<qulonglong>(row.workloadCount));
    case 3:
        return formatSeconds(row.measuredSeconds);
    case 4:
        return formatSeconds(row.estimatedSeconds);
    case 5:
        return formatError(row.estimatedSeconds, row.measuredSeconds);
    default:
        return {};
    }
}

} // namespace

ValidationTableModel::ValidationTableModel(Rows rows, QObject* parent)
    : QAbstractTableModel(parent)
    , m_rows(rows)
{}

void ValidationTableModel::setReport(std::shared_ptr<const ValidationReport> report)
{
    beginResetModel();
    m_report = std::move(report);
    m_collectives.clear();
    m_ops.clear();
    if (m_report && m_report->problem.isEmpty()) {
        for (const core::measured::OpRow& op : m_report->validation.ops)
            if (op.matched())
                m_ops.push_back(op);
        std::stable_sort(m_ops.begin(), m_ops.end(), core::measured::largerDifferenceFirst<core::measured::OpRow>);
        m_collectives = m_report->validation.collectives;
        std::stable_sort(m_collectives.begin(), m_collectives.end(),
                         core::measured::largerDifferenceFirst<core::measured::CollectiveRow>);
    }
    endResetModel();
}

int ValidationTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_report || !m_report->problem.isEmpty())
        return 0;
    switch (m_rows) {
    case Rows::Categories:
        return static_cast<int>(m_report->validation.categories.size());
    case Rows::Collectives:
        return static_cast<int>(m_collectives.size());
    case Rows::Ops:
        return static_cast<int>(m_ops.size());
    }
    return 0;
}

int ValidationTableModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_rows == Rows::Collectives ? 7 : 6;
}

QVariant ValidationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        if (m_rows == Rows::Collectives && section == 1)
            return tr("The collective's number among those of its kind on this rank, in the order they ran (from 0)");
        if (m_rows != Rows::Collectives && (section == 1 || section == 2))
            return section == 1 ? tr("How many the measured run has on this rank")
                                : tr("How many the workload has on this rank");
        return {};
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (m_rows != Rows::Collectives) {
        switch (section) {
        case 0:
            return m_rows == Rows::Categories ? tr("Category") : tr("Op");
        case 1:
            return tr("Measured");
        case 2:
            return tr("Workload");
        case 3:
            return tr("Measured\ntime");
        case 4:
            return tr("Estimated\ntime");
        case 5:
            return tr("Error");
        default:
            return {};
        }
    }
    switch (section) {
    case 0:
        return tr("Collective");
    case 1:
        return tr("#");
    case 2:
        return tr("Measured\nsize");
    case 3:
        return tr("Workload\nsize");
    case 4:
        return tr("Measured\ntime");
    case 5:
        return tr("Estimated\ntime");
    case 6:
        return tr("Error");
    default:
        return {};
    }
}

QVariant ValidationTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == 0 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (m_rows == Rows::Categories) {
        const core::measured::CategoryRow& c = m_report->validation.categories[row];
        if (role != Qt::DisplayRole)
            return {};
        return countedCell(index.column(), c.category, c);
    }
    if (m_rows == Rows::Ops) {
        const core::measured::OpRow& o = m_ops[row];
        if (role == WorkloadOpRole)
            return static_cast<qlonglong>(o.workloadOp);
        if (role == Qt::ToolTipRole && index.column() == 0)
            return QString::fromStdString(o.name);
        if (role != Qt::DisplayRole)
            return {};
        return countedCell(index.column(), o.name, o);
    }
    const core::measured::CollectiveRow& c = m_collectives[row];
    if (role == WorkloadOpRole)
        return static_cast<qlonglong>(c.workloadOp);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case 0:
        return QString::fromStdString(c.category);
    case 1:
        return QLocale().toString(static_cast<qulonglong>(c.index));
    case 2:
        return formatBytes(c.measuredBytes);
    case 3:
        return formatBytes(c.workloadBytes);
    case 4:
        return formatSeconds(c.measuredSeconds);
    case 5:
        return formatSeconds(c.estimatedSeconds);
    case 6:
        return formatError(c.estimatedSeconds, c.measuredSeconds);
    default:
        return {};
    }
}

namespace {

/// Rows a line of text high (the style's default is taller), so that more of a table shows.
void compactRows(QTableView* table)
{
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
}

} // namespace

ValidationPage::ValidationPage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open measured run…"), this);
    open->setObjectName(QStringLiteral("openMeasured"));
    open->setToolTip(tr("A profile of a real run of this workload: PyTorch profiler traces (.json or .json.gz, "
                        "one per rank, or a folder of them) or an XLA profiler trace (JAX, TensorFlow)"));
    m_stop = new QPushButton(tr("Stop comparing"), this);
    m_stop->setObjectName(QStringLiteral("stopMeasured"));
    m_stop->setEnabled(false);
    buttons->addWidget(open);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(open, &QPushButton::clicked, this, &ValidationPage::openRequested);
    connect(m_stop, &QPushButton::clicked, this, &ValidationPage::stopRequested);

    m_intro = new QLabel(tr("Hold the estimate against what really ran: open a profile of a real run of this "
                            "workload (PyTorch profiler traces, Kineto or legacy, NVIDIA or ROCm; XLA profiler "
                            "traces of JAX or TensorFlow). The step "
                            "time is then compared as measured, as estimated, with the run's measured compute "
                            "and modelled communication, and replayed as measured; the ops are counted per "
                            "category on both sides, the collectives paired by kind and order and the ops by "
                            "name."),
                         this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, split);
    m_categoryModel = new ValidationTableModel(ValidationTableModel::Rows::Categories, this);
    m_categoryTable = new QTableView(top);
    m_categoryTable->setModel(m_categoryModel);
    m_categoryTable->verticalHeader()->hide();
    m_categoryTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_categoryTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_chart = new QChartView(top);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumWidth(170); // its labels turned: readable at this width; the table takes the rest
    top->addWidget(m_categoryTable);
    top->addWidget(m_chart);
    top->setStretchFactor(0, 4);
    top->setStretchFactor(1, 1);
    m_top = top;
    m_collectiveModel = new ValidationTableModel(ValidationTableModel::Rows::Collectives, this);
    // The lists below: one row chosen at a time, each explained in the other views.
    const auto list = [split](QAbstractItemModel* model, const QString& name) {
        auto* table = new QTableView(split);
        table->setObjectName(name);
        table->setModel(model);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
        compactRows(table);
        return table;
    };
    compactRows(m_categoryTable);
    m_collectiveTable = list(m_collectiveModel, QStringLiteral("validationCollectives"));
    m_opModel = new ValidationTableModel(ValidationTableModel::Rows::Ops, this);
    m_opTable = list(m_opModel, QStringLiteral("validationOps"));
    // Kernel names run to hundreds of characters: the name column keeps a readable width, elided in
    // the middle (both ends tell kernels apart), the whole name in its tooltip.
    m_opTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_opTable->setColumnWidth(0, 380);
    m_opTable->setTextElideMode(Qt::ElideMiddle);
    m_opTable->setWordWrap(false);
    // Times and their error before the counts, which agree on most rows: what a narrow page shows
    // first (the model keeps its columns; only the view orders them).
    for (QTableView* table : {m_categoryTable, m_opTable})
        for (int k = 0; k < 2; ++k)
            table->horizontalHeader()->moveSection(1, 5);
    auto* lists = new QTabWidget(split);
    lists->setObjectName(QStringLiteral("validationLists"));
    lists->addTab(m_collectiveTable, tr("Collectives"));
    lists->addTab(m_opTable, tr("Ops by name"));
    lists->setTabToolTip(1, tr("Ops paired by name: an XLA trace names its ops by HLO instruction, as the module "
                               "XLA dumped does; a PyTorch trace's kernels share no names with a compiler's "
                               "workload."));
    split->addWidget(top);
    split->addWidget(lists);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_body = split;
    layout->addWidget(split, 1);
    const auto choose = [this](const QModelIndex& current) {
        if (!current.isValid() || !m_report)
            return;
        const qlonglong op = current.data(ValidationTableModel::WorkloadOpRole).toLongLong();
        if (op >= 0)
            Q_EMIT opChosen(m_report->validation.rank, static_cast<int>(op));
    };
    connect(m_collectiveTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, choose);
    connect(m_opTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, choose);
    setReport(nullptr);
}

QString ValidationPage::summaryHtml() const
{
    return m_summary->text();
}

void ValidationPage::fitCategoryTable()
{
    // The table's columns first (the error is its point), the scatter in what is left: on a
    // 1,280-pixel screen the two do not fit side by side at the splitter's proportions.
    const int total = m_top->width();
    if (total <= 0)
        return;
    const int wanted = m_categoryTable->horizontalHeader()->length() + 2 * m_categoryTable->frameWidth() +
                       m_categoryTable->verticalScrollBar()->sizeHint().width();
    const int table = std::max(0, std::min(wanted, total - m_chart->minimumWidth()));
    m_top->setSizes({table, total - table});
}

void ValidationPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_report)
        fitCategoryTable();
}

void ValidationPage::setReport(std::shared_ptr<const ValidationReport> report)
{
    m_report = std::move(report);
    m_categoryModel->setReport(m_report);
    m_collectiveModel->setReport(m_report);
    m_opModel->setReport(m_report);
    m_stop->setEnabled(m_report != nullptr);
    m_intro->setVisible(!m_report);
    m_body->setVisible(m_report && m_report->problem.isEmpty());
    if (!m_report) {
        m_summary->clear();
        m_points = 0;
        return;
    }
    m_categoryTable->resizeColumnsToContents();
    fitCategoryTable();
    const core::measured::MeasuredWorkload& run = *m_report->run;
    QString html = tr("<b>Measured run</b> %1: %2; ranks: %3")
                       .arg(m_report->path.toHtmlEscaped(), QString::fromStdString(run.producer).toHtmlEscaped(),
                            QLocale().toString(static_cast<qulonglong>(run.workload.rankCount())));
    if (run.step >= 0)
        html += tr("; step: %1").arg(QString::fromStdString(run.stepName).toHtmlEscaped());
    if (!m_report->problem.isEmpty()) {
        m_summary->setText(html + QStringLiteral("<br>") + m_report->problem.toHtmlEscaped());
        m_points = 0;
        return;
    }
    const core::measured::Validation& v = m_report->validation;
    const auto row = [&](const QString& label, double value, bool reference) {
        return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td><td align=right>&nbsp;%3</td></tr>")
            .arg(label, formatSeconds(value), reference ? QString() : formatError(value, v.measuredStep));
    };
    html += QStringLiteral("<table>") + row(tr("Step time as measured"), v.measuredStep, true) +
            row(tr("Estimated (this workload on %1)")
                    .arg(QString::fromStdString(m_report->evaluation->scenario.cluster.name).toHtmlEscaped()),
                v.estimatedStep, false) +
            row(tr("Measured compute, modelled communication"), v.measuredComputeStep, false) +
            row(tr("Replayed as measured"), v.replayedStep, false) + QStringLiteral("</table>") +
            tr("Ops of rank %1; the device waited %2 for the host.").arg(v.rank).arg(formatSeconds(v.hostGapSeconds));
    // Why two rows agree, and why measured collectives look slow: both puzzle a first reading.
    if (std::abs(v.estimatedStep - v.measuredComputeStep) <= 1e-9 * std::max(1.0, v.measuredStep))
        html += QStringLiteral("<br><small>") +
                tr("The workload is a measured run: its estimate already takes the measured compute, so the "
                   "estimated rows with and without it agree.") +
                QStringLiteral("</small>");
    html += QStringLiteral("<br><small>") +
            tr("A collective's measured time is its kernel's on this rank, from its start: it includes waiting for "
               "the group's last member to arrive. The estimated time starts when all members are there.") +
            QStringLiteral("</small>");
    if (!m_report->deviceMismatch.isEmpty())
        html += QStringLiteral("<br><span style='color:#c0392b'>") +
                tr("Warning: %1").arg(m_report->deviceMismatch.toHtmlEscaped()) + QStringLiteral("</span>");
    m_summary->setText(html);
    rebuildChart();
}

void ValidationPage::rebuildChart()
{
    auto* chart = new QChart;
    chart->setTitle(tr("Collective time (ms)"));
    chart->legend()->hide(); // the axes say it: the line is estimated = measured
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* points = new QScatterSeries;
    points->setName(tr("collective"));
    points->setMarkerSize(9);
    double low = 1e300, high = 0;
    m_points = 0;
    std::vector<std::int64_t> opOf;
    for (const core::measured::CollectiveRow& c : m_report->validation.collectives) {
        if (c.measuredSeconds <= 0 || c.estimatedSeconds <= 0)
            continue;
        const double x = c.measuredSeconds * 1e3, y = c.estimatedSeconds * 1e3;
        points->append(x, y);
        opOf.push_back(c.workloadOp);
        low = std::min({low, x, y});
        high = std::max({high, x, y});
        ++m_points;
    }
    chart->addSeries(points);
    auto* xAxis = new QLogValueAxis;
    auto* yAxis = new QLogValueAxis;
    xAxis->setTitleText(tr("measured"));
    yAxis->setTitleText(tr("estimated"));
    m_chart->setToolTip(tr("Each point is a collective of the validated rank; on the line the estimate equals "
                           "the measurement, above it the estimate is slower."));
    for (QLogValueAxis* axis : {xAxis, yAxis}) {
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setBase(10);
        axis->setMinorTickCount(-1);
    }
    xAxis->setLabelsAngle(-90); // a decade per label: "0.001" beside "0.01" does not fit a narrow chart
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    points->attachAxis(xAxis);
    points->attachAxis(yAxis);
    if (m_points > 0) {
        // Whole decades around the points, and the y = x line across them.
        const double from = std::pow(10.0, std::floor(std::log10(low)));
        const double to = std::pow(10.0, std::ceil(std::log10(high)) + (high == low ? 1 : 0));
        xAxis->setRange(from, to);
        yAxis->setRange(from, to);
        auto* diagonal = new QLineSeries;
        diagonal->setName(tr("estimated = measured"));
        diagonal->append(from, from);
        diagonal->append(to, to);
        chart->addSeries(diagonal);
        diagonal->attachAxis(xAxis);
        diagonal->attachAxis(yAxis);
    }
    connect(points, &QScatterSeries::clicked, this, [this, points, opOf](const QPointF& at) {
        const QList<QPointF> all = points->points();
        int best = -1;
        double bestDistance = 1e300;
        for (int i = 0; i < all.size(); ++i) {
            const double d = std::hypot(std::log10(all[i].x() / at.x()), std::log10(all[i].y() / at.y()));
            if (d < bestDistance) {
                bestDistance = d;
                best = i;
            }
        }
        if (best >= 0 && opOf[static_cast<std::size_t>(best)] >= 0 && m_report)
            Q_EMIT opChosen(m_report->validation.rank, static_cast<int>(opOf[static_cast<std::size_t>(best)]));
    });
    QChart* old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

} // namespace flint::app
