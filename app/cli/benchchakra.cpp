// SPDX-License-Identifier: MIT
// `flint bench chakra`: Chakra trace write and read speed on a synthetic trace.
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/chakra.h"
#include "core/synthetictrace.h"
#include "engine/workloadloader.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace flint::app {
namespace {

/// Writes `workload` as rank files under `prefix`, then reads them back `repeat` times and prints the
/// best read's speed and the reader's peak memory per node.
void manyRankRead(const char* label, const core::Workload& workload, const std::string& prefix, std::uint64_t repeat)
{
    core::writeChakraWorkload(workload, prefix);
    std::uint64_t nodes = 0;
    for (std::size_t r = 0; r < workload.rankCount(); ++r)
        nodes += workload.programOf(r).ops.size();
    double best = 1e300, held = 0;
    core::ChakraSharing sharing;
    for (std::uint64_t run = 0; run < repeat; ++run) {
        const double before = heapInUseMiB();
        const auto start = BenchClock::now();
        const core::Workload read = core::readChakraWorkload(prefix, {}, {}, &sharing);
        best = std::min(best, secondsSince(start));
        held = heapInUseMiB() - before;
        if (read.rankCount() != workload.rankCount())
            throw core::OutputError("benchmark read back the wrong number of ranks");
    }
    std::printf("  %-34s %6zu ranks %10llu nodes  read %7.3f s  %6.2f M nodes/s  held %8.1f MiB (%5.1f B/node)  "
                "%zu distinct programs\n",
                label, workload.rankCount(), static_cast<unsigned long long>(nodes), best,
                static_cast<double>(nodes) / best / 1e6, held, held * 1048576.0 / static_cast<double>(nodes),
                sharing.distinctPrograms);
}

int runChakraBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench chakra", "[--nodes N] [--ranks R] [--rank-nodes N] [--module FILE] [--dir DIR] [--repeat R]",
                    "Benchmark Chakra trace I/O on a synthetic transformer-like trace of one rank: generate it,\n"
                    "write it (serialize + file), read it back (file + parse + model). Prints nodes per second for\n"
                    "each phase (best of --repeat runs) and the peak resident memory of each phase. Then many-rank\n"
                    "traces read back: an SPMD export of --ranks ranks (each file names its own groups), the same\n"
                    "with every rank's recorded durations its own, and --module (HLO or MLIR) exported per rank.",
                    {{"nodes", 0, "N", "nodes in the trace (default 1000000)"},
                     {"ranks", 0, "R", "ranks of the many-rank traces (default 1024; 0 skips them)"},
                     {"rank-nodes", 0, "N", "nodes per rank of the many-rank traces (default 1001)"},
                     {"module", 0, "FILE", "also export this module per rank and read it back"},
                     {"dir", 0, "DIR", "folder for the trace file (default: a fresh folder in /tmp)"},
                     {"repeat", 0, "R", "runs of each phase; the best is reported (default 3)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    if (!cli.positionals().empty())
        throw UsageError("unexpected argument '" + cli.positionals().front() + "'");
    const std::uint64_t nodes = cli.number("nodes", 1'000'000);
    const std::uint64_t repeat = std::max<std::uint64_t>(1, cli.number("repeat", 3));
    if (nodes == 0)
        throw UsageError("--nodes must be at least 1");

    namespace fs = std::filesystem;
    std::string dir = cli.value("dir");
    bool ownDir = false;
    if (dir.empty()) {
        std::string pattern = (fs::temp_directory_path() / "flint-bench-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw core::OutputError("cannot create a folder in " + fs::temp_directory_path().string());
        dir = pattern;
        ownDir = true;
    }
    const std::string prefix = (fs::path(dir) / "synthetic").string();

    const double baseline = currentMemoryMiB();
    resetPeakMemory();
    auto start = BenchClock::now();
    auto program = std::make_shared<core::Program>(core::makeSyntheticProgram(nodes));
    const double generateSeconds = secondsSince(start);
    core::Workload workload =
        core::Workload::spmd(program, 1, [](std::size_t, std::size_t) { return std::vector<std::int32_t>{0}; });
    const double modelMiB = peakMemoryMiB() - baseline;

    double serializeSeconds = 1e300, writeSeconds = 1e300, readSeconds = 1e300, parseSeconds = 1e300;
    std::size_t fileBytes = 0;
    double writePeak = 0, readPeak = 0;
    for (std::uint64_t run = 0; run < repeat; ++run) {
        start = BenchClock::now();
        const std::string bytes = core::serializeChakraRank(workload, 0);
        serializeSeconds = std::min(serializeSeconds, secondsSince(start));
        fileBytes = bytes.size();

        resetPeakMemory();
        const double before = currentMemoryMiB();
        start = BenchClock::now();
        core::writeChakraWorkload(workload, prefix);
        writeSeconds = std::min(writeSeconds, secondsSince(start));
        writePeak = std::max(writePeak, peakMemoryMiB() - before);

        start = BenchClock::now();
        const core::Program parsed = core::parseChakraTrace(bytes, "synthetic");
        parseSeconds = std::min(parseSeconds, secondsSince(start));
        if (parsed.ops.size() != nodes)
            throw core::OutputError("benchmark read back " + std::to_string(parsed.ops.size()) + " nodes of " +
                                    std::to_string(nodes));
    }
    // Read from disk with the generated program released, so that the peak is the reader's own.
    workload = {};
    program.reset();
    for (std::uint64_t run = 0; run < repeat; ++run) {
        resetPeakMemory();
        const double before = currentMemoryMiB();
        start = BenchClock::now();
        const core::Workload read = core::readChakraWorkload(prefix + ".0.et");
        readSeconds = std::min(readSeconds, secondsSince(start));
        readPeak = std::max(readPeak, peakMemoryMiB() - before);
        if (read.programOf(0).ops.size() != nodes)
            throw core::OutputError("benchmark read back the wrong number of nodes");
    }
    const auto manyRanks = static_cast<std::int32_t>(std::min<std::uint64_t>(cli.number("ranks", 1024), 1 << 20));
    const std::uint64_t rankNodes = std::max<std::uint64_t>(2, cli.number("rank-nodes", 1001));
    const std::string module = cli.value("module");
    const auto runManyRanks = [&] {
        if (manyRanks > 0) {
            const core::Workload spmd =
                core::makeSyntheticSpmdWorkload(rankNodes, manyRanks, std::min(manyRanks, 8), 256ull << 20);
            manyRankRead("SPMD export", spmd, (fs::path(dir) / "spmd").string(), repeat);
            core::Workload timed = spmd;
            core::giveEveryRankItsOwnTimes(timed);
            manyRankRead("ranks with their own durations", timed, (fs::path(dir) / "timed").string(), repeat);
        }
        if (!module.empty()) {
            const core::LoadedWorkload loaded = core::loadWorkload(module);
            manyRankRead(fs::path(module).filename().string().substr(0, 34).c_str(), loaded.workload,
                         (fs::path(dir) / "module").string(), repeat);
        }
    };

    const auto rate = [nodes](double seconds) { return static_cast<double>(nodes) / seconds / 1e6; };
    std::printf("chakra trace benchmark: %llu nodes, %.1f MiB on disk, best of %llu runs\n",
                static_cast<unsigned long long>(nodes), static_cast<double>(fileBytes) / 1048576.0,
                static_cast<unsigned long long>(repeat));
    std::printf("  generate model       %8.3f s   %7.2f M nodes/s   model %7.1f MiB (%.0f B/node)\n", generateSeconds,
                rate(generateSeconds), modelMiB, modelMiB * 1048576.0 / static_cast<double>(nodes));
    std::printf("  serialize            %8.3f s   %7.2f M nodes/s\n", serializeSeconds, rate(serializeSeconds));
    std::printf("  write (file)         %8.3f s   %7.2f M nodes/s   peak +%.1f MiB\n", writeSeconds, rate(writeSeconds),
                writePeak);
    std::printf("  parse (memory)       %8.3f s   %7.2f M nodes/s\n", parseSeconds, rate(parseSeconds));
    std::printf("  read (file + parse)  %8.3f s   %7.2f M nodes/s   peak +%.1f MiB\n", readSeconds, rate(readSeconds),
                readPeak);
    std::printf("  process peak RSS     %.1f MiB\n", peakMemoryMiB());
    if (manyRanks > 0 || !module.empty())
        std::printf("many-rank traces, best of %llu reads:\n", static_cast<unsigned long long>(repeat));
    try {
        runManyRanks();
    } catch (...) {
        if (ownDir)
            fs::remove_all(dir);
        throw;
    }
    if (ownDir)
        fs::remove_all(dir);
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"chakra", "Chakra trace write and read speed on a synthetic 1,000,000-node trace", runChakraBenchmark, 10});

} // namespace
} // namespace flint::app
