// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelconfig.h"
#include "engine/scenario.h"

#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace flint::app {

class Session;

/// The sweep view: one parameter of the current built-in model (TP, PP, DP, microbatch size, or the
/// network's bandwidth) over a list of values, each point compiled and estimated on a worker with
/// the session's model compiler, step time or MFU plotted against the value (QtCharts), infeasible
/// points (invalid strategy, out of memory) marked, the best feasible point highlighted. Clicking a
/// point, or double-clicking its row, asks the window to open that configuration.
class SweepPage : public QWidget {
    Q_OBJECT

public:
    enum class Parameter { TP, PP, DP, MicrobatchSize, BandwidthScale };
    enum class Metric { StepTime, Mfu };

    /// One point of a sweep: the swept value and the scenario as the engine evaluated it.
    struct Point {
        double value = 0;
        engine::Evaluation evaluation;
        const core::model::ParallelConfig& parallel() const { return evaluation.scenario.parallel; }
        bool feasible() const { return evaluation.feasible(); }
        /// The figures of an estimated point (zero when it was not estimated).
        core::model::StepFigures figures() const { return evaluation.figures.value_or(core::model::StepFigures{}); }
    };

    explicit SweepPage(Session& session, QWidget* parent = nullptr);
    ~SweepPage() override;

    /// Sweeps `parameter` over `values` from the session's current model; GPUs stay as they are when
    /// TP or PP change (DP follows). Does nothing when the session shows no built-in model.
    void run(Parameter parameter, const std::vector<double>& values);
    void cancel();
    bool isRunning() const { return m_running; }
    const std::vector<Point>& points() const { return m_points; }
    /// Index of the best feasible point (engine::Objective::Throughput: most tokens/s per GPU), or -1.
    int bestIndex() const { return m_best; }
    void setMetric(Metric metric);
    QChart* chart() const { return m_chart; }
    QString status() const;

Q_SIGNALS:
    /// A sweep finished (or was cancelled); points() holds what was estimated.
    void finished();
    /// The user chose a point: open this scenario (model, strategy, cluster) in the other views.
    void pointChosen(const flint::engine::Scenario& scenario);

private:
    void startFromControls();
    /// The scenarios of a sweep of `parameter` over `values` from `base`; a value that cannot be
    /// built into a strategy is a point with its problem.
    static std::vector<Point> scenarios(const engine::Scenario& base, Parameter parameter,
                                        const std::vector<double>& values);
    void pointDone(std::size_t index, const engine::Evaluation& evaluation);
    void redraw();
    void choose(int index);

    /// Whether `scenario` is the sweep's own: the configuration it swept around or one of its points
    /// (chosen from the table), on the cluster it ran on.
    bool holds(const engine::Scenario& scenario) const;

    Session& m_session;
    engine::Scenario m_base; ///< the configuration the points were swept around
    core::model::TransformerConfig m_model;
    Parameter m_parameter = Parameter::TP;
    Metric m_metric = Metric::StepTime;
    std::vector<Point> m_points;
    int m_best = -1;
    bool m_running = false;
    bool m_sweepable = true; ///< the open workload is a model (a file fixes its parallelism)
    quint64 m_sweep = 0;     ///< the sweep points belong to; a point of an older one is dropped

    QComboBox* m_parameterBox = nullptr;
    QLineEdit* m_values = nullptr;
    QComboBox* m_metricBox = nullptr;
    QPushButton* m_runButton = nullptr;
    QLabel* m_status = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_chartView = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace flint::app
