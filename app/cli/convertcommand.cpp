// SPDX-License-Identifier: MIT
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/workloadinput.h"
#include "core/chakra.h"
#include "core/fileio.h"
#include "core/workloadexport.h"

#include <cstdio>

namespace flint::app {
namespace {

void writeText(const std::string& path, const std::string& text)
{
    if (path == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return;
    }
    core::OutputTransaction output;
    output.write(path, text);
    output.commit();
}

int runConvert(const std::vector<std::string>& arguments)
{
    std::vector<OptionSpec> options{{"to", 0, "FORMAT", "chakra, json or dot"},
                                    {"output", 'o', "OUT", "output file or prefix"},
                                    {"rank", 0, "N", "rank to draw for --to dot (default 0)"}};
    CommandLine cli("convert", "IN --to chakra|json|dot -o OUT [--rank N] [OPTIONS]",
                    "Convert a workload. IN is anything 'flint inspect' reads: a Chakra trace (a .et file, a prefix\n"
                    "or a directory of rank files) or an XLA HLO module.\n"
                    "  chakra  OUT is a prefix: writes OUT.RANK.et for every rank and OUT.json when\n"
                    "          collectives name groups; a one-rank workload may name OUT.et directly.\n"
                    "  json    the whole workload (programs, ops, rank bindings, groups) as JSON; OUT may be '-'.\n"
                    "  dot     Graphviz DOT of one rank's graph (--rank, default 0); OUT may be '-'.\n"
                    "Outputs appear whole or not at all: an error leaves no partial file behind.",
                    withWorkloadInputOptions(std::move(options)));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::string& input = cli.onePositional("IN");
    const std::string format = cli.value("to");
    if (format != "chakra" && format != "json" && format != "dot")
        throw UsageError(format.empty() ? "missing --to FORMAT" : "unknown format '" + format + "' for --to");
    const std::string out = cli.value("output");
    if (out.empty())
        throw UsageError("missing -o OUT");
    const std::uint64_t rank = cli.number("rank", 0);

    const core::Workload workload = loadWorkloadFromCli(input, cli).workload;
    // The folder of -o is created when missing (and removed again if writing fails), as import does.
    OutputFolder folder(out == "-" ? std::string() : out);
    if (format == "json") {
        writeText(out, core::workloadToJson(workload));
    } else if (format == "dot") {
        if (rank >= workload.rankCount())
            throw UsageError("--rank " + std::to_string(rank) + " is out of range: the workload has " +
                             std::to_string(workload.rankCount()) + " ranks");
        writeText(out, core::rankToDot(workload, rank));
    } else if (out.ends_with(".et") && workload.rankCount() == 1) {
        core::OutputTransaction output;
        output.write(out, core::serializeChakraRank(workload, 0));
        output.commit();
    } else {
        if (out == "-")
            throw UsageError("--to chakra writes files; '-' is not a prefix");
        const auto written = core::writeChakraWorkload(workload, out);
        std::fprintf(stderr, "wrote %zu file%s (%s ... %s)\n", written.size(), written.size() == 1 ? "" : "s",
                     written.front().c_str(), written.back().c_str());
    }
    folder.keep();
    return ExitSuccess;
}

const bool registered =
    Commands::add({"convert", "convert a workload to Chakra rank files, JSON or Graphviz DOT", runConvert, 20});

} // namespace
} // namespace flint::app
