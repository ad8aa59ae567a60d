// SPDX-License-Identifier: MIT
// flint-explorer-bench: the explorer's interactive speed, measured on its real widgets (offscreen).
//   1. a 50,000-op program opens collapsed in the DAG view (scope tree, collapse, Graphviz layout);
//   2. an expanded group of 2,000 ops lays out;
//   3. the timeline repaints a full-window frame with 1,024 ranks x 10,000 events;
//   4. a what-if edit reaches updated views (debounce included): GPT-3 175B on 1,024 ranks, a
//      1,024-rank workload, symmetric and with every rank different (its own recorded durations);
//   5. a parallelism edit of GPT-3 175B (TP, PP, back to cached blocks) reaches updated views, on
//      1,024 and 16,384 ranks.
// Prints each figure with its target. A benchmark, not a test: it never fails on time.
#include "app/explorer/mainwindow.h"
#include "app/explorer/session.h"
#include "core/allocator.h"
#include "core/estimator/estimate.h"
#include "core/synthetictrace.h"
#include "engine/workloadloader.h"
#include "views/commmatrixpage.h"
#include "views/commmatrixview.h"
#include "views/daglayoutengine.h"
#include "views/dagscopetree.h"
#include "views/dagview.h"
#include "views/parallelismpanel.h"
#include "views/timelineview.h"
#include "views/whatifpanel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QMap>
#include <QPainter>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>

using namespace flint;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Runs the event loop until `spy` has a signal or `timeoutMs` passes; false on timeout.
template <typename Spy>
bool waitFor(Spy& spy, int timeoutMs)
{
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

struct Stats {
    double median = 0, worst = 0;
};

Stats statsOf(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples.back()};
}

/// Events a case waited for and did not get (an estimate, a layout): the benchmark then exits 1, as a
/// measurement of something that did not happen is no measurement.
int g_missedEvents = 0;

void missed(const char* what)
{
    std::printf("  %s\n", what);
    ++g_missedEvents;
}

void report(const char* what, double ms, double targetMs)
{
    std::printf("  %-66s %8.1f ms  target < %4.0f ms  %s\n", what, ms, targetMs, ms < targetMs ? "ok" : "MISSED");
    std::fflush(stdout);
}

void benchDag(int runs)
{
    std::printf("DAG view (Graphviz dot through cgraph/gvc)\n");
    auto big = std::make_shared<const core::Program>(core::makeSyntheticProgram(50'000));
    std::vector<double> open;
    for (int i = 0; i < runs; ++i) {
        views::DagView view; // a fresh view: no cached layout
        view.resize(1600, 1000);
        QSignalSpy ready(&view, &views::DagView::layoutReady);
        const auto start = Clock::now();
        view.setProgram(big);
        if (!waitFor(ready, 60'000)) {
            missed("the 50,000-op layout did not finish");
            return;
        }
        open.push_back(msSince(start));
        if (i == 0)
            std::printf("  50,000 ops open as %zu nodes\n", view.currentLayout()->nodes.size());
    }
    report("open 50,000 ops collapsed (median)", statsOf(open).median, 2000);

    // The same program with its repeated layers unfolded: one node per layer.
    {
        auto tree = views::DagScopeTree::build(*big);
        views::DagCollapseState state = tree->initialState(200);
        for (const auto& group : tree->groups())
            if (group.runLength > 1)
                state.unfolded.insert(group.path);
        std::vector<double> unfold;
        std::size_t nodes = 0;
        for (int i = 0; i < runs; ++i) {
            const auto start = Clock::now();
            views::DagLayout graph = tree->buildGraph(state);
            nodes = graph.nodes.size();
            if (!views::DagLayoutEngine::layout(graph))
                break;
            unfold.push_back(msSince(start));
        }
        if (unfold.empty()) {
            std::printf("  50,000 ops unfolded: %zu nodes, over the layout limit\n", nodes);
        } else {
            char label[128];
            std::snprintf(label, sizeof label, "50,000 ops, repeated layers unfolded (%zu nodes)", nodes);
            report(label, statsOf(unfold).median, 2000);
        }
    }

    // A real module: the bundled Llama-3.1 70B step, rank 0.
    const QString example =
        QStringLiteral(FLINT_SOURCE_DIR "/resources/examples/hlo/llama31_70b_train_step_128_devices.hlo");
    if (QFileInfo::exists(example)) {
        auto loaded = std::make_shared<const core::LoadedWorkload>(core::loadWorkload(example.toStdString()));
        std::shared_ptr<const core::Workload> workload(loaded, &loaded->workload);
        std::vector<double> real;
        std::size_t nodes = 0;
        for (int i = 0; i < runs; ++i) {
            views::DagView view;
            view.resize(1600, 1000);
            QSignalSpy ready(&view, &views::DagView::layoutReady);
            const auto start = Clock::now();
            view.setWorkload(workload, 0);
            if (!waitFor(ready, 60'000))
                break;
            real.push_back(msSince(start));
            nodes = view.currentLayout()->nodes.size();
        }
        if (!real.empty()) {
            char label[160];
            std::snprintf(label, sizeof label, "open Llama-3.1 70B rank 0 (%zu ops) collapsed (%zu nodes)",
                          workload->programOf(0).ops.size(), nodes);
            report(label, statsOf(real).median, 2000);
        }
    }

    // An expanded group of 2,000 ops: every group of a 2,000-op program open.
    auto program = std::make_shared<const core::Program>(core::makeSyntheticProgram(2'000));
    auto tree = views::DagScopeTree::build(*program);
    views::DagCollapseState all;
    for (const auto& group : tree->groups()) {
        all.expanded.insert(group.path);
        if (group.runFirst >= 0)
            all.unfolded.insert(tree->groups()[static_cast<std::size_t>(group.runFirst)].path);
    }
    std::vector<double> expand;
    std::size_t nodes = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        views::DagLayout graph = tree->buildGraph(all);
        if (!views::DagLayoutEngine::layout(graph)) {
            std::printf("  the 2,000-op layout failed (%zu nodes)\n", graph.nodes.size());
            ++g_missedEvents;
            return;
        }
        expand.push_back(msSince(start));
        nodes = graph.nodes.size();
    }
    std::printf("  2,000 ops expanded show %zu nodes\n", nodes);
    report("lay out an expanded group of 2,000 ops (median)", statsOf(expand).median, 2000);
}

void benchTimeline(int frames, bool everyRank)
{
    std::printf("Timeline (1,024 ranks x 10,000 events, 1920 x 1080 window)\n");
    auto workload =
        std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(10'000, 1024, 8, 256ull << 20));
    const core::Cluster cluster = *core::clusterPreset("dgx-h100-ib", 1024);
    core::EstimateOptions options;
    options.exploitSymmetry = !everyRank; // every rank simulated: 1,024 distinct timelines to draw
    auto result = core::estimate(*workload, cluster, options);
    std::size_t events = 0;
    for (std::size_t r = 0; r < result->ranks.size(); ++r)
        events += result->eventsOf(r).size();
    std::printf("  %zu events over %zu ranks (%zu distinct timelines)\n", events, result->ranks.size(),
                result->timelines.size());
    views::TimelineView view;
    view.resize(1920, 1080);
    view.setData(workload, result, 8);
    QImage frame(view.size(), QImage::Format_ARGB32_Premultiplied);
    // Every frame pans the window by 1% of its width, as dragging does, so no frame repeats the
    // previous one; three zoom levels: the whole step, a quarter of it and 1/64 of it.
    const double step = result->stepTime;
    const auto measure = [&](const char* what) {
        for (const double zoom : {1.0, 4.0, 64.0}) {
            std::vector<double> ms;
            const double window = step / zoom;
            for (int i = 0; i < frames; ++i) {
                const double from = zoom == 1.0 ? 0.0 : std::fmod(0.3 * step + i * 0.01 * window, step - window);
                view.showTimeRange(from, from + window);
                QPainter painter(&frame);
                const auto start = Clock::now();
                view.render(&painter);
                painter.end();
                ms.push_back(msSince(start));
            }
            const Stats s = statsOf(ms);
            char label[160];
            std::snprintf(label, sizeof label, "%s, %s (worst %.1f ms)", what,
                          zoom == 1.0   ? "whole step"
                          : zoom == 4.0 ? "1/4 of it"
                                        : "1/64 of it",
                          s.worst);
            report(label, s.median, 16);
        }
    };
    measure("summary lanes");
    for (int node = 0; node < 128; ++node)
        view.setGroupCollapsed(node, false);
    measure("every rank's lane");
    view.highlightOp(static_cast<int>(workload->programOf(0).ops.size()) - 1, 0);
    measure("a collective highlighted");
}

/// The Communication tab switched from link to logical traffic: the logical matrix is found from
/// the workload (core::logicalCommMatrix) and drawn, on a page that has not shown it before.
void benchMatrix(int runs)
{
    std::printf("Communication matrix (switch to logical traffic: found from the workload and drawn)\n");
    struct Case {
        const char* label;
        std::int32_t ranks;
        std::uint64_t ops;
    };
    for (const Case& c : {Case{"1,024 ranks x 10,000 ops, TP 8 (median)", 1024, 10'000},
                          Case{"16,384 ranks x 1,001 ops, TP 8, binned (median)", 16'384, 1'001}}) {
        auto workload =
            std::make_shared<const core::Workload>(core::makeSyntheticSpmdWorkload(c.ops, c.ranks, 8, 256ull << 20));
        core::Cluster cluster = *core::clusterPreset("dgx-h100-ib", c.ranks);
        core::EstimateOptions options;
        options.recordEvents = false;
        auto result = core::estimate(*workload, cluster, options);
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            views::CommMatrixPage page; // a fresh page: nothing found yet
            page.resize(1000, 800);
            page.setData(workload, result, 8);
            QComboBox* traffic = page.trafficChooser();
            const auto start = Clock::now();
            traffic->setCurrentIndex(traffic->findData(int(views::CommMatrixView::Traffic::Logical)));
            QImage frame(page.size(), QImage::Format_ARGB32_Premultiplied);
            QPainter painter(&frame);
            page.view()->render(&painter);
            painter.end();
            ms.push_back(msSince(start));
            if (page.view()->traffic() != views::CommMatrixView::Traffic::Logical || !page.view()->matrix() ||
                page.view()->matrix()->layers.empty()) {
                missed("the logical matrix was not shown");
                return;
            }
        }
        report(c.label, statsOf(ms).median, 200);
    }
}

/// Shows `window` with the timeline in front (as a user watching what an edit does would have it),
/// runs `open` and waits for its estimate; false (and counted as missed) when it does not arrive.
template <typename Open>
bool showFirstEstimate(app::MainWindow& window, Open open)
{
    window.resize(1600, 1000);
    window.show();
    if (auto* tabs = window.findChild<QTabWidget*>())
        tabs->setCurrentWidget(window.findChild<QWidget*>(QStringLiteral("timeline")));
    // Scoped: a spy keeps every emission's arguments, and with them every result.
    QSignalSpy first(&window.session(), &app::Session::estimateAvailable);
    open();
    if (!waitFor(first, 120'000)) {
        missed("the first estimate did not arrive");
        return false;
    }
    return true;
}

/// Bandwidth edits in the What-if panel of a window showing its first estimate (`open` shows it).
void benchWhatIf(int runs, const char* title, const std::function<void(app::MainWindow&)>& open)
{
    std::printf("What-if (%s; edit -> debounce -> estimate -> every view updated)\n", title);
    app::MainWindow window;
    if (!showFirstEstimate(window, [&] { open(window); }))
        return;
    QApplication::processEvents();
    const auto boxes = window.whatIf()->findChildren<QDoubleSpinBox*>();
    if (boxes.isEmpty()) {
        missed("no bandwidth control in the what-if panel");
        return;
    }
    QDoubleSpinBox* bandwidth = boxes.front();
    std::vector<double> total;
    for (int i = 0; i < runs; ++i) {
        QSignalSpy updated(&window.session(), &app::Session::estimateAvailable);
        const auto start = Clock::now();
        bandwidth->setValue(bandwidth->value() * (i % 2 ? 2.0 : 0.5)); // as a user's edit
        if (!waitFor(updated, 10'000)) {
            missed("an estimate did not arrive");
            return;
        }
        // The window's own slot ran first (connected first); now paint what changed (the timeline
        // is in front; hidden pages catch up when shown).
        window.timeline()->repaint();
        total.push_back(msSince(start));
    }
    const Stats s = statsOf(total);
    char label[160];
    std::snprintf(label, sizeof label, "edit to updated views, %d ms debounce included (median; worst %.0f)",
                  views::WhatIfPanel::kDebounceMs, s.worst);
    report(label, s.median, 200);
}

/// Edits of the Parallelism panel's spin boxes, made within its debounce as a user types them.
struct StrategyEdit {
    const char* label;
    QMap<QString, int> values; ///< spin box object name -> value
};

void benchParallelism(int rounds)
{
    std::printf("Parallelism edit (GPT-3 175B on dgx-h100-ib; edit -> debounce -> compile -> estimate -> views)\n");
    app::MainWindow window;
    // TP 8 x PP 8 x DP 16 = 1,024 ranks, global batch 1,536.
    if (!showFirstEstimate(window, [&] { window.openDefaultModel(); }))
        return;
    QApplication::processEvents();
    const std::vector<StrategyEdit> edits{
        {"TP 8 -> 4 (DP 32)", {{QStringLiteral("tp"), 4}, {QStringLiteral("dp"), 32}}},
        {"TP 4 -> 8, PP 8 -> 16 (DP 8)",
         {{QStringLiteral("tp"), 8}, {QStringLiteral("pp"), 16}, {QStringLiteral("dp"), 8}}},
        {"PP 16 -> 8 (DP 16)", {{QStringLiteral("pp"), 8}, {QStringLiteral("dp"), 16}}},
    };
    std::vector<std::vector<double>> times(edits.size());
    const auto apply = [&window](const StrategyEdit& edit) {
        for (auto it = edit.values.begin(); it != edit.values.end(); ++it)
            window.parallelism()->findChild<QSpinBox*>(it.key())->setValue(it.value());
    };
    const auto measure = [&](const StrategyEdit& edit, std::vector<double>& into) {
        QSignalSpy updated(&window.session(), &app::Session::estimateAvailable);
        const auto start = Clock::now();
        apply(edit);
        if (!waitFor(updated, 60'000)) {
            missed("an estimate did not arrive");
            return false;
        }
        window.timeline()->repaint();
        into.push_back(msSince(start));
        return true;
    };
    for (int round = 0; round < rounds; ++round)
        for (std::size_t e = 0; e < edits.size(); ++e)
            if (!measure(edits[e], times[e]))
                return;
    // The first round lowers blocks never seen (except for the last edit, back to the start); later
    // rounds find every block cached, as a user going back and forth does.
    for (std::size_t e = 0; e < edits.size(); ++e) {
        char label[160];
        std::snprintf(label, sizeof label, "%s, first time", edits[e].label);
        report(label, times[e].front(), 200);
        if (times[e].size() < 2)
            continue;
        const Stats s = statsOf({times[e].begin() + 1, times[e].end()});
        std::snprintf(label, sizeof label, "%s, again (median; worst %.0f)", edits[e].label, s.worst);
        report(label, s.median, 200);
    }
    // 16,384 ranks: DP 256 with the global batch grown with it (96 microbatches per replica, as above).
    const StrategyEdit big{"", {{QStringLiteral("dp"), 256}, {QStringLiteral("globalBatch"), 1536 * 16}}};
    std::vector<double> bigTimes;
    for (int round = 0; round < rounds; ++round) {
        if (!measure(big, bigTimes))
            return;
        const StrategyEdit back{"", {{QStringLiteral("dp"), 16}, {QStringLiteral("globalBatch"), 1536}}};
        std::vector<double> ignored;
        if (!measure(back, ignored))
            return;
    }
    const Stats s = statsOf(bigTimes);
    char label[160];
    std::snprintf(label, sizeof label, "DP 16 -> 256 (16,384 ranks) (median; worst %.0f)", s.worst);
    report(label, s.median, 1000);
}

} // namespace

int main(int argc, char** argv)
{
    flint::core::useHugePageHeap(argv); // as the explorer does
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    core::retainFreedMemory(); // as the explorer does
    QApplication::setApplicationName(QStringLiteral("flint-explorer-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Benchmark the explorer's views on synthetic workloads."));
    parser.addHelpOption();
    const QCommandLineOption quick(QStringLiteral("quick"), QStringLiteral("One run of each case (for tests)."));
    parser.addOption(quick);
    const QCommandLineOption only(QStringLiteral("only"),
                                  QStringLiteral("Only the cases of one kind: dag, timeline, matrix, what-if or "
                                                 "parallelism."),
                                  QStringLiteral("KIND"));
    parser.addOption(only);
    parser.process(app);
    const bool once = parser.isSet(quick);
    const QString kind = parser.value(only);
    if (!kind.isEmpty() && kind != QLatin1String("dag") && kind != QLatin1String("timeline") &&
        kind != QLatin1String("matrix") && kind != QLatin1String("what-if") && kind != QLatin1String("parallelism")) {
        std::fprintf(stderr, "--only takes dag, timeline, matrix, what-if or parallelism\n");
        return 2;
    }
    const auto wanted = [&](const char* name) { return kind.isEmpty() || kind == QLatin1String(name); };
    if (wanted("dag"))
        benchDag(once ? 1 : 3);
    if (wanted("timeline")) {
        benchTimeline(once ? 2 : 20, false);
        if (!once)
            benchTimeline(20, true);
    }
    if (wanted("matrix"))
        benchMatrix(once ? 1 : 5);
    if (wanted("parallelism"))
        benchParallelism(once ? 1 : 5);
    if (!wanted("what-if"))
        return g_missedEvents > 0 ? 1 : 0;
    const auto openTrace = [](const char* title, core::Workload workload) {
        auto loaded = std::make_shared<core::LoadedWorkload>();
        loaded->kind = core::InputKind::ChakraTrace;
        loaded->name = title;
        loaded->workload = std::move(workload);
        return
            [loaded](app::MainWindow& window) { window.session().openWorkload(loaded, QStringLiteral("synthetic")); };
    };
    // The default model (GPT-3 175B, TP 8 x PP 8 x DP 16 on 1,024 H100s, 411,572 ops in 8 stages):
    // a network edit re-estimates the compiled step without compiling it again.
    benchWhatIf(once ? 2 : 7, "GPT-3 175B on 1,024 ranks", [](app::MainWindow& window) { window.openDefaultModel(); });
    benchWhatIf(once ? 2 : 7, "1,024 ranks x 10,000 ops",
                openTrace("1,024 ranks x 10,000 ops", core::makeSyntheticSpmdWorkload(10'000, 1024, 8, 256ull << 20)));
    // A trace whose ranks all differ (each its own recorded durations): every rank is simulated.
    core::Workload measured = core::makeSyntheticSpmdWorkload(1'001, 1024, 8, 256ull << 20);
    core::giveEveryRankItsOwnTimes(measured);
    benchWhatIf(once ? 2 : 7, "1,024 ranks x 1,001 ops, every rank its own durations",
                openTrace("1,024 ranks x 1,001 ops, every rank its own durations", std::move(measured)));
    return g_missedEvents > 0 ? 1 : 0;
}
