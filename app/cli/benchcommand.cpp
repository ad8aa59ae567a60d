// SPDX-License-Identifier: MIT
// `flint bench NAME ...`: runs one of the registered benchmarks (see Benchmarks in commands.h).
#include "cli/commandline.h"
#include "cli/commands.h"

#include <cstdio>

namespace flint::app {
namespace {

std::string benchmarkList()
{
    std::string text;
    for (const CommandInfo& bench : Benchmarks::all()) {
        std::string name(bench.name);
        text +=
            "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + std::string(bench.summary) + "\n";
    }
    return text;
}

int runBench(const std::vector<std::string>& arguments)
{
    if (arguments.empty() || arguments.front() == "--help" || arguments.front() == "-h") {
        const std::string text = "Usage: flint bench NAME [OPTIONS]\n\nBenchmarks (run from a release build; "
                                 "'flint bench NAME --help' for options):\n" +
                                 benchmarkList();
        std::fputs(text.c_str(), arguments.empty() ? stderr : stdout);
        return arguments.empty() ? ExitUsage : ExitSuccess;
    }
    const CommandInfo* bench = Benchmarks::find(arguments.front());
    if (!bench)
        throw UsageError("unknown benchmark '" + arguments.front() + "'; the benchmarks are:\n" + benchmarkList());
    return bench->run({arguments.begin() + 1, arguments.end()});
}

const bool registered =
    Commands::add({"bench", "measure speed and memory: 'flint bench --help' lists the benchmarks", runBench, 90});

} // namespace
} // namespace flint::app
