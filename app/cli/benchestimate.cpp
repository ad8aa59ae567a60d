// SPDX-License-Identifier: MIT
// `flint bench estimate`: simulator speed and memory on large SPMD workloads.
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/estimator/estimate.h"
#include "core/synthetictrace.h"

#include <cstdio>
#include <string>

namespace flint::app {
namespace {

struct Case {
    std::int32_t ranks;
    std::uint64_t ops;
    double secondsTarget;
    double mibTarget;
    std::int32_t tp = 8; ///< ranks per tensor-parallel group; = ranks: every all-reduce spans all ranks
    /// Every rank with its own recorded durations (RankBinding::times), as a measured trace has them:
    /// no two ranks alike, so every rank is simulated whatever the symmetry option.
    bool ownTimes = false;
};

/// The kind of case `--only` selects: symmetric, all-ranks, world or own-times.
std::string g_only;

std::string kindOf(const Case& c, bool symmetry)
{
    if (c.ownTimes)
        return "own-times";
    if (symmetry)
        return "symmetric";
    return c.tp == c.ranks ? "world" : "all-ranks";
}

void runCase(const Case& c, const std::string& preset, bool symmetry, bool events)
{
    if (!g_only.empty() && g_only != kindOf(c, symmetry))
        return;
    resetPeakMemory();
    const double baseline = currentMemoryMiB();
    auto start = BenchClock::now();
    core::Workload workload = core::makeSyntheticSpmdWorkload(c.ops, c.ranks, c.tp, 256ull << 20);
    if (c.ownTimes)
        core::giveEveryRankItsOwnTimes(workload);
    const double buildSeconds = secondsSince(start);
    const core::Cluster cluster = *core::clusterPreset(preset, c.ranks);
    core::EstimateOptions options;
    options.exploitSymmetry = symmetry;
    options.recordEvents = events;
    start = BenchClock::now();
    const auto result = core::estimate(workload, cluster, options);
    const double seconds = secondsSince(start);
    const double peak = peakMemoryMiB();
    const double totalOps = static_cast<double>(c.ranks) * static_cast<double>(c.ops);
    char target[64] = "no target";
    if (c.secondsTarget > 0)
        std::snprintf(target, sizeof target, "target < %.0f s, < %.0f MiB", c.secondsTarget, c.mibTarget);
    std::printf(
        "  %6d ranks x %6llu ops  groups of %5d  %-9s  estimate %8.3f s  %8.1f M rank-ops/s  %5zu timelines  %9llu ops "
        "simulated  step %.4f s  workload %.2f s  peak RSS %7.1f MiB (+%.1f)  [%s]\n",
        c.ranks, static_cast<unsigned long long>(c.ops), c.tp,
        c.ownTimes ? "own times"
        : symmetry ? "symmetric"
                   : "all ranks",
        seconds, totalOps / seconds / 1e6, result->timelines.size(),
        static_cast<unsigned long long>(result->simulatedOps), result->stepTime, buildSeconds, peak, peak - baseline,
        target);
}

int runEstimateBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench estimate", "[--cluster PRESET] [--quick] [--only KIND]",
                    "Benchmark the estimator on synthetic SPMD transformer steps (tensor parallel 8, data parallel\n"
                    "over the rest) on a modelled cluster: 1,024 ranks x 10,000 ops (target < 1 s) and 16,384\n"
                    "ranks x 2,000 ops (target < 10 s, < 4 GiB), with symmetry, then the raw discrete-event speed\n"
                    "simulating every rank (1,024 x 10,000 and 1,024 x 2,000), and every rank with collectives\n"
                    "over all ranks (1,024 and 8,192 x 1,001, as ASTRA-sim-shaped traces have them), and every rank\n"
                    "with its own recorded durations (1,024 x 10,000, target < 1 s and 1 GiB; 16,384 x 2,000,\n"
                    "target < 10 s and 4 GiB). Prints time, rank-ops per second, distinct timelines and peak\n"
                    "resident memory.",
                    {{"cluster", 0, "PRESET", "cluster preset (default dgx-h100-ib)"},
                     {"quick", 0, {}, "smaller cases (for tests)"},
                     {"only", 0, "KIND", "only the cases of one kind: symmetric, all-ranks, world or own-times"}});
    cli.parse(arguments);
    if (cli.helpRequested()) {
        std::fputs(cli.helpText().c_str(), stdout);
        return ExitSuccess;
    }
    if (!cli.positionals().empty())
        throw UsageError("unexpected argument '" + cli.positionals().front() + "'");
    const std::string preset = cli.value("cluster", "dgx-h100-ib");
    if (!core::clusterPreset(preset, 8))
        throw UsageError("unknown cluster preset '" + preset + "'");
    const bool quick = cli.has("quick");
    g_only = cli.value("only", "");
    if (!g_only.empty() && g_only != "symmetric" && g_only != "all-ranks" && g_only != "world" && g_only != "own-times")
        throw UsageError("--only takes symmetric, all-ranks, world or own-times, not '" + g_only + "'");
    std::printf("estimator benchmark on %s\n", preset.c_str());
    if (quick) {
        runCase({64, 1'000, 0, 0}, preset, true, true);
        runCase({64, 1'000, 0, 0}, preset, false, true);
        runCase({64, 1'001, 0, 0, 64}, preset, false, true);
        runCase({64, 1'000, 0, 0, 8, true}, preset, true, true);
        return ExitSuccess;
    }
    runCase({1'024, 10'000, 1, 4096}, preset, true, true);
    runCase({16'384, 2'000, 10, 4096}, preset, true, true);
    runCase({1'024, 2'000, 0, 0}, preset, false, true);
    runCase({1'024, 10'000, 0, 0}, preset, false, false);
    runCase({1'024, 1'001, 0, 0, 1'024}, preset, false, false);
    runCase({8'192, 1'001, 0, 0, 8'192}, preset, false, false);
    // Issue 21's hard cases: every rank different (its own recorded durations), events kept.
    runCase({1'024, 1'001, 0, 0, 8, true}, preset, true, true); // the explorer's what-if case
    runCase({1'024, 10'000, 1, 1024, 8, true}, preset, true, true);
    runCase({16'384, 2'000, 10, 4096, 8, true}, preset, true, true);
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"estimate", "estimator speed: 1,024 ranks x 10,000 ops and 16,384 ranks x 2,000 ops", runEstimateBenchmark, 20});

} // namespace
} // namespace flint::app
