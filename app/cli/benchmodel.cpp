// SPDX-License-Identifier: MIT
// `flint bench model`: the time from a parallelism change to an updated estimate (issue 7).
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/estimator/estimate.h"
#include "engine/modelcompiler.h"
#include "engine/scenario.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace flint::app {
namespace {

/// Compiles `parallel` with a compiler that has seen `warm` before (its blocks cached, as in the
/// explorer after the first estimate), estimates it, and prints the times.
void runCase(core::model::ModelCompiler& compiler, const core::model::TransformerConfig& model,
             const core::model::ParallelConfig& parallel, double target)
{
    resetPeakMemory();
    auto start = BenchClock::now();
    engine::Scenario scenario;
    scenario.model = model;
    scenario.parallel = parallel;
    scenario.cluster = *core::clusterPreset("dgx-h100-ib", parallel.ranks());
    engine::Evaluation evaluation = engine::prepare(scenario, &compiler);
    const double compileSeconds = secondsSince(start);
    start = BenchClock::now();
    engine::estimate(evaluation);
    const double estimateSeconds = secondsSince(start);
    const core::model::CompiledModel& compiled = *evaluation.compiled;
    const auto& result = evaluation.result;
    std::size_t ops = 0;
    for (const auto& p : compiled.workload.programs)
        ops += p->ops.size();
    char targetText[48] = "no target";
    if (target > 0)
        std::snprintf(targetText, sizeof targetText, "target < %.1f s", target);
    std::printf("  %-44s %6lld ranks  compile %7.3f s (%zu blocks lowered, %zu reused)  estimate %7.3f s  total "
                "%7.3f s  %8zu ops in %zu programs  %4zu timelines  step %.3f s  peak RSS %.0f MiB  [%s]\n",
                parallel.describe().c_str(), static_cast<long long>(parallel.ranks()), compileSeconds,
                compiled.blocksLowered, compiled.blocksReused, estimateSeconds, compileSeconds + estimateSeconds, ops,
                compiled.workload.programs.size(), result->timelines.size(), result->stepTime, peakMemoryMiB(),
                targetText);
}

int runModelBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench model", "[--quick]",
                    "Benchmark a parallelism change on GPT-3 175B: the time to recompile the step (generated\n"
                    "blocks through the partitioner, pipeline composition) and re-estimate it. First a cold\n"
                    "compile of TP 8 x PP 8 x DP 16 on 1,024 H100s, then changes as the explorer makes them: TP 4\n"
                    "(new blocks), back to TP 8 with PP 16 (blocks reused), 1,024 ranks (target < 0.2 s), and\n"
                    "16,384 ranks: TP 8 x PP 8 x DP 256 (target < 2 s).",
                    {{"quick", 0, {}, "a small case (for tests)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const auto* model = core::model::findModel("gpt3-175b");
    core::model::ModelCompiler compiler;
    core::model::ParallelConfig p;
    p.tp = 8;
    p.pp = 8;
    p.dp = 16;
    p.globalBatch = 1536;
    if (cli.has("quick")) {
        p.dp = 1;
        p.globalBatch = 16;
        std::printf("model benchmark (quick): %s\n", model->title.c_str());
        runCase(compiler, *model, p, 0);
        return ExitSuccess;
    }
    std::printf("model benchmark: %s on dgx-h100-ib\n", model->title.c_str());
    runCase(compiler, *model, p, 0); // cold: every block parsed, partitioned and lowered
    core::model::ParallelConfig tp4 = p;
    tp4.tp = 4;
    tp4.dp = 32;
    runCase(compiler, *model, tp4, 0.2);
    core::model::ParallelConfig pp16 = p;
    pp16.pp = 16;
    pp16.dp = 8;
    runCase(compiler, *model, pp16, 0.2);
    runCase(compiler, *model, p, 0.2);
    core::model::ParallelConfig big = p;
    big.dp = 256;
    big.globalBatch = 1536 * 16;
    runCase(compiler, *model, big, 2.0);
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"model", "GPT-3 175B: parallelism change to updated estimate, 1,024 and 16,384 ranks", runModelBenchmark, 40});

} // namespace
} // namespace flint::app
