// SPDX-License-Identifier: MIT
// `flint bench mlir`: parse, translate and lower a StableHLO module (default: the 1 MB ResNet-50
// training step of the shared samples).
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/mlir/mlirimport.h"
#include "core/workloadsummary.h"

#include <cstdio>
#include <filesystem>

namespace flint::app {
namespace {

int runMlirBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench mlir", "[FILE.mlir] [--repeat K]",
                    "Benchmark the MLIR frontend: parse and verify FILE with MLIR 19 and the reader dialects,\n"
                    "translate it to the HLO frontend's module, then lower it (cost every op, unroll loops, inline\n"
                    "calls, bind every collective's groups). Prints the time of each phase, best of --repeat.\n"
                    "FILE defaults to the ResNet-50 training step of the shared samples (" FLINT_BENCH_MLIR_FILE ").",
                    {{"repeat", 0, "K", "runs of each phase; the best is reported (default 5)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    if (cli.positionals().size() > 1)
        throw UsageError("expected at most one FILE");
    const std::string path = cli.positionals().empty() ? std::string(FLINT_BENCH_MLIR_FILE) : cli.positionals()[0];
    const std::uint64_t repeat = std::max<std::uint64_t>(1, cli.number("repeat", 5));
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec)
        throw UsageError("cannot read " + path + ": " + ec.message());

    double readSeconds = 1e300;
    double lowerSeconds = 1e300;
    std::size_t instructions = 0;
    core::hlo::HloImport imported;
    for (std::uint64_t run = 0; run < repeat; ++run) {
        auto start = BenchClock::now();
        const mlir::MlirModule module = mlir::readMlirModule(path);
        readSeconds = std::min(readSeconds, secondsSince(start));
        instructions = 0;
        for (const auto& computation : module.module.computations)
            instructions += computation.instructions.size();
        start = BenchClock::now();
        imported = core::hlo::lowerHlo(module.module);
        lowerSeconds = std::min(lowerSeconds, secondsSince(start));
    }
    const core::WorkloadSummary summary = core::summarizePerRank(imported.workload);
    std::printf("mlir frontend benchmark: %s (%.2f MiB), best of %llu runs\n",
                std::filesystem::path(path).filename().c_str(), static_cast<double>(bytes) / 1048576.0,
                static_cast<unsigned long long>(repeat));
    std::printf("  parse + verify + translate %8.3f s   (%zu HLO instructions)\n", readSeconds, instructions);
    std::printf("  lower + cost + expand      %8.3f s   (%zu ops per rank, %zu ranks, %zu groups)\n", lowerSeconds,
                imported.workload.programOf(0).ops.size(), imported.workload.rankCount(),
                imported.workload.groups.size());
    std::printf("  total                      %8.3f s\n", readSeconds + lowerSeconds);
    std::uint64_t collectives = 0;
    for (const auto& [kind, stats] : summary.collectives)
        collectives += stats.count;
    std::printf("  per rank: %llu FLOPs, %llu collectives\n", static_cast<unsigned long long>(summary.flops),
                static_cast<unsigned long long>(collectives));
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"mlir", "MLIR parse and lowering of the 1 MB ResNet-50 StableHLO module (shared samples)", runMlirBenchmark, 25});

} // namespace
} // namespace flint::app
