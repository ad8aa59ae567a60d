// SPDX-License-Identifier: MIT
// `flint bench mlir`: parse, translate and lower a StableHLO module (default: the 1 MB ResNet-50
// training step of the shared samples).
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/mlir/mlirimport.h"
#include "core/workloadsummary.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace flint::app {
namespace {

/// A jax.jit-style module of `layers` Megatron MLP blocks (dot, maximum, dot, tanh: 4 ops each)
/// with shardings on its arguments and no collectives.
std::string syntheticShardedModule(std::uint64_t layers)
{
    std::string text =
        "module @synthetic_sharded {\n  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
        "  func.func public @main(%x: tensor<128x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, "
        "[{\"x\"}, {}]>}, %w1: tensor<1024x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, "
        "{\"y\"}]>}, %w2: tensor<4096x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, "
        "{}]>}) -> tensor<128x1024xf32> {\n"
        "    %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<128x4096xf32>\n";
    std::string previous = "%x";
    for (std::uint64_t l = 0; l < layers; ++l) {
        const std::string n = std::to_string(l);
        text += "    %h" + n + " = stablehlo.dot_general " + previous +
                ", %w1, contracting_dims = [1] x [0] : (tensor<128x1024xf32>, tensor<1024x4096xf32>) -> "
                "tensor<128x4096xf32>\n";
        text += "    %a" + n + " = stablehlo.maximum %h" + n + ", %zb : tensor<128x4096xf32>\n";
        text += "    %y" + n + " = stablehlo.dot_general %a" + n +
                ", %w2, contracting_dims = [1] x [0] : (tensor<128x4096xf32>, tensor<4096x1024xf32>) -> "
                "tensor<128x1024xf32>\n";
        text += "    %t" + n + " = stablehlo.tanh %y" + n + " : tensor<128x1024xf32>\n";
        previous = "%t" + n;
    }
    return text + "    return " + previous + " : tensor<128x1024xf32>\n  }\n}\n";
}

/// The ResNet-50 training step of the shared samples: under $FLINT_SHARED_DATA, else under
/// ../shared/data as seen from a checkout (no build-tree path is compiled into the program).
std::string defaultBenchFile()
{
    const char* shared = std::getenv("FLINT_SHARED_DATA");
    const std::string root = shared != nullptr && *shared != '\0' ? shared : "../shared/data";
    return root + "/stablehlo/resnet_50_train_step_4_devices_1024_batch.mlir";
}

int runMlirBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench mlir", "[FILE.mlir] [--repeat K]",
                    "Benchmark the MLIR frontend: parse and verify FILE with MLIR 19 and the reader dialects,\n"
                    "translate it to the HLO frontend's module, then lower it (cost every op, unroll loops, inline\n"
                    "calls, bind every collective's groups). Prints the time of each phase, best of --repeat.\n"
                    "FILE defaults to the ResNet-50 training step of the shared samples:\n"
                    "$FLINT_SHARED_DATA/stablehlo/resnet_50_train_step_4_devices_1024_batch.mlir, where\n"
                    "FLINT_SHARED_DATA defaults to ../shared/data (run from the checkout).",
                    {{"repeat", 0, "K", "runs of each phase; the best is reported (default 5)"},
                     {"partition-ops", 0, "N", "ops of the synthetic sharded module to re-partition (default 10000)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    if (cli.positionals().size() > 1)
        throw UsageError("expected at most one FILE");
    const std::string path = cli.positionals().empty() ? defaultBenchFile() : cli.positionals()[0];
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
        const frontend::MlirModule module = frontend::readMlirModule(path);
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

    // Re-partitioning: a sharded module read once, partitioned and lowered for one mesh after another.
    const std::uint64_t layers = std::max<std::uint64_t>(1, cli.number("partition-ops", 10'000) / 4);
    const frontend::MlirModule sharded =
        frontend::readMlirModuleSource(syntheticShardedModule(layers), "synthetic.mlir");
    std::printf("re-partition benchmark: %llu ops with shardings, no collectives\n",
                static_cast<unsigned long long>(layers) * 4);
    for (const char* mesh : {"x=2,y=4", "x=8,y=16", "x=64,y=4"}) {
        double seconds = 1e300;
        frontend::MlirImport partitioned;
        for (std::uint64_t run = 0; run < repeat; ++run) {
            frontend::MlirImportOptions options;
            options.mesh = mesh;
            const auto start = BenchClock::now();
            partitioned = frontend::lowerMlirModule(sharded, options);
            seconds = std::min(seconds, secondsSince(start));
        }
        std::printf("  partition + lower %-10s %8.3f s   (%zu ranks, %zu ops per rank, %zu collectives inserted)\n",
                    mesh, seconds, partitioned.imported.workload.rankCount(),
                    partitioned.imported.workload.programOf(0).ops.size(), partitioned.insertedCollectives);
    }
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"mlir", "MLIR parse and lowering of the 1 MB ResNet-50 StableHLO module (shared samples)", runMlirBenchmark, 25});

} // namespace
} // namespace flint::app
