// SPDX-License-Identifier: MIT
// `flint bench hlo`: parse, cost and expand a synthetic HLO module to many ranks.
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/hlo/hloimport.h"
#include "core/hlo/hloparser.h"
#include "core/hlo/synthetichlo.h"
#include "core/workloadsummary.h"

#include <cstdio>

namespace flint::app {
namespace {

int runHloBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench hlo", "[--instructions N] [--ranks R] [--repeat K]",
                    "Benchmark the HLO frontend on a synthetic SPMD transformer module: parse the text, then lower\n"
                    "it (cost every instruction, derive every collective's device groups) and expand it to R ranks.\n"
                    "Prints the time of each phase (best of --repeat) and the memory the workload holds, once for\n"
                    "one rank and once for R ranks, to show that it does not grow with ranks x program size.",
                    {{"instructions", 0, "N", "instructions in the module (default 100000)"},
                     {"ranks", 0, "R", "devices to expand to: 8 x a power of two (default 1024)"},
                     {"repeat", 0, "K", "runs of each phase; the best is reported (default 3)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    if (!cli.positionals().empty())
        throw UsageError("unexpected argument '" + cli.positionals().front() + "'");
    const std::uint64_t instructions = cli.number("instructions", 100'000);
    const std::uint64_t ranks = cli.number("ranks", 1024);
    const std::uint64_t repeat = std::max<std::uint64_t>(1, cli.number("repeat", 3));
    if (ranks < 8 || ranks > 16384 || ranks % 8 != 0 || ((ranks / 8) & (ranks / 8 - 1)) != 0)
        throw UsageError("--ranks must be 8 times a power of two, up to 16384");
    if (instructions < 16)
        throw UsageError("--instructions must be at least 16");

    const std::string text = core::hlo::makeSyntheticHloModule(instructions, static_cast<std::int64_t>(ranks));
    double parseSeconds = 1e300, lowerSeconds = 1e300;
    std::size_t parsedInstructions = 0;
    double peakMiB = 0;
    core::hlo::HloImport imported;
    for (std::uint64_t run = 0; run < repeat; ++run) {
        imported = {};
        resetPeakMemory();
        const double before = currentMemoryMiB();
        auto start = BenchClock::now();
        const core::hlo::Module module = core::hlo::parseHlo(text, "synthetic.hlo");
        parseSeconds = std::min(parseSeconds, secondsSince(start));
        parsedInstructions = 0;
        for (const auto& computation : module.computations)
            parsedInstructions += computation.instructions.size();
        start = BenchClock::now();
        imported = core::hlo::lowerHlo(module);
        lowerSeconds = std::min(lowerSeconds, secondsSince(start));
        peakMiB = std::max(peakMiB, peakMemoryMiB() - before);
    }
    const core::Workload& workload = imported.workload;
    const core::Program& program = workload.programOf(0);
    std::size_t bindingBytes = 0;
    for (const core::RankBinding& binding : workload.ranks)
        bindingBytes += sizeof binding + binding.slotGroups.capacity() * sizeof(std::uint32_t);
    std::size_t groupBytes = 0;
    for (const core::CommGroup& group : workload.groups)
        groupBytes += sizeof group + group.ranks.capacity() * sizeof(std::int32_t) + group.name.capacity();
    const core::WorkloadSummary summary = core::summarizePerRank(workload);

    std::printf("hlo frontend benchmark: %zu instructions (%.1f MiB of text), %llu ranks, best of %llu runs\n",
                parsedInstructions, static_cast<double>(text.size()) / 1048576.0,
                static_cast<unsigned long long>(ranks), static_cast<unsigned long long>(repeat));
    std::printf("  parse                     %8.3f s   %6.2f M instructions/s\n", parseSeconds,
                static_cast<double>(parsedInstructions) / parseSeconds / 1e6);
    std::printf("  lower + cost + expand     %8.3f s   (%zu ops per rank, %zu comm slots, %zu groups)\n", lowerSeconds,
                program.ops.size(), program.commSlots.size(), workload.groups.size());
    std::printf("  total                     %8.3f s\n", parseSeconds + lowerSeconds);
    std::printf("  programs held             %zu (shared by all %zu ranks)\n", workload.programs.size(),
                workload.rankCount());
    std::printf("  rank bindings + groups    %.2f MiB (%.0f B per rank)\n",
                static_cast<double>(bindingBytes + groupBytes) / 1048576.0,
                static_cast<double>(bindingBytes + groupBytes) / static_cast<double>(ranks));
    std::printf("  peak memory of a run      +%.1f MiB\n", peakMiB);
    std::printf("  per rank: %llu FLOPs, %llu collectives\n", static_cast<unsigned long long>(summary.flops),
                static_cast<unsigned long long>(
                    !summary.collectives.empty() ? summary.ops - summary.opsByKind.at(core::OpKind::Compute) : 0));
    return ExitSuccess;
}

const bool registered =
    Benchmarks::add({"hlo", "HLO parse, cost and expansion of a synthetic 100,000-instruction module to 1,024 ranks",
                     runHloBenchmark, 20});

} // namespace
} // namespace flint::app
