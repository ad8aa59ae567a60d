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

    namespace fs = std::filesystem;
    const fs::path folder = fs::path(output).parent_path();
    std::error_code ec;
    const bool createFolder = !folder.empty() && !fs::exists(folder, ec);
    if (createFolder && !fs::create_directories(folder, ec))
        throw core::OutputError("cannot create " + folder.string() + ": " + ec.message());
    try {
        const auto written = core::writeChakraWorkload(loaded.workload, output);
        const auto plural = [](std::int64_t n, const char* word) {
            return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
        };
        std::printf("%s: %zu ranks (%s x %s), %zu ops per rank, %zu communicator groups\n", loaded.name.c_str(),
                    loaded.workload.rankCount(), plural(loaded.replicaCount, "replica").c_str(),
                    plural(loaded.numPartitions, "partition").c_str(), loaded.workload.programOf(0).ops.size(),
                    loaded.workload.groups.size());
        std::printf("wrote %zu files: %s ... %s\n", written.size(), written.front().c_str(), written.back().c_str());
    } catch (...) {
        if (createFolder)
            fs::remove(folder, ec);
        throw;
    }
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"import", "lower an HLO or MLIR module to per-rank Chakra traces (PREFIX.RANK.et + PREFIX.json)", runImport, 15});

} // namespace
} // namespace flint::app
