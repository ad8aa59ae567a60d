// SPDX-License-Identifier: MIT
// `flint import`: an IR module to Chakra execution traces, one file per rank.
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/workloadinput.h"
#include "core/chakra.h"
#include "core/error.h"

#include <cstdio>
#include <filesystem>

namespace flint::app {
namespace {

int runImport(const std::vector<std::string>& arguments)
{
    std::vector<OptionSpec> options{{"output", 'o', "OUTDIR/PREFIX", "where to write PREFIX.RANK.et and PREFIX.json"}};
    CommandLine cli("import", "MODULE -o OUTDIR/PREFIX [OPTIONS]",
                    "Lower an XLA HLO module or an MLIR module (StableHLO, MHLO, Shardy) to per-rank workloads and "
                    "write them as Chakra execution traces in the\n"
                    "form ASTRA-sim reads: OUTDIR/PREFIX.RANK.et for every device and OUTDIR/PREFIX.json with the\n"
                    "communicator groups the nodes' pg_name attributes name. OUTDIR is created when missing. All\n"
                    "files appear together or none does.",
                    withWorkloadInputOptions(std::move(options)));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::string output = cli.value("output");
    if (output.empty())
        throw UsageError("missing -o OUTDIR/PREFIX");
    const std::string& input = cli.onePositional("MODULE");
    const core::InputKind kind = core::detectInputKind(input);
    if (kind != core::InputKind::HloModule && kind != core::InputKind::MlirModule)
        throw core::InputError(input, "expected an XLA HLO module (text starting with 'HloModule') or an MLIR "
                                      "module (.mlir); for Chakra traces use 'flint convert --to chakra'");
    const core::LoadedWorkload loaded = loadWorkloadFromCli(input, cli);

    OutputFolder folder(output);
    {
        const auto written = core::writeChakraWorkload(loaded.workload, output);
        const auto plural = [](std::int64_t n, const char* word) {
            return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
        };
        std::printf("%s: %s (%s x %s), %zu ops per rank, %s\n", loaded.name.c_str(),
                    plural(static_cast<std::int64_t>(loaded.workload.rankCount()), "rank").c_str(),
                    plural(loaded.replicaCount, "replica").c_str(), plural(loaded.numPartitions, "partition").c_str(),
                    loaded.workload.programOf(0).ops.size(),
                    plural(static_cast<std::int64_t>(loaded.workload.groups.size()), "communicator group").c_str());
        std::printf("wrote %s: %s ... %s\n", plural(static_cast<std::int64_t>(written.size()), "file").c_str(),
                    written.front().c_str(), written.back().c_str());
    }
    folder.keep();
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"import", "lower an HLO or MLIR module to per-rank Chakra traces (PREFIX.RANK.et + PREFIX.json)", runImport, 15});

} // namespace
} // namespace flint::app
