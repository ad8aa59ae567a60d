// SPDX-License-Identifier: MIT
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/workloadinput.h"
#include "core/workloadsummary.h"

#ifdef FLINT_HAVE_MLIR
#include "core/mlir/mlirreader.h"
#endif

#include <cstdio>

#include <nlohmann/json.hpp>

namespace flint::app {
namespace {

bool isMlirFile(const std::string& path)
{
    return path.ends_with(".mlir");
}

int inspectMlir(const std::string& path, bool json)
{
#ifdef FLINT_HAVE_MLIR
    mlir::MlirSummary summary;
    try {
        summary = mlir::summarizeMlirFile(path);
    } catch (const mlir::MlirParseError& e) {
        const mlir::MlirError& error = e.error();
        std::string reason = error.message;
        if (error.column > 0)
            reason = "column " + std::to_string(error.column) + ": " + reason;
        throw core::InputError(error.file.empty() ? path : error.file, std::nullopt,
                               error.line > 0 ? std::optional<int>(error.line) : std::nullopt, reason);
    }
    if (json) {
        nlohmann::ordered_json out;
        out["file"] = path;
        auto& operations = out["operations"] = nlohmann::ordered_json::object();
        for (const auto& op : summary.operations)
            operations[op.name] = op.count;
        out["total_operations"] = summary.totalOperations;
        out["dialects"] = summary.dialects;
        std::fputs((out.dump(2) + "\n").c_str(), stdout);
    } else {
        std::printf("%s: %llu operations\n", path.c_str(), static_cast<unsigned long long>(summary.totalOperations));
        for (const auto& op : summary.operations)
            std::printf("  %-32s %llu\n", op.name.c_str(), static_cast<unsigned long long>(op.count));
    }
    return ExitSuccess;
#else
    (void)json;
    throw core::InputError(path, "this flint was built without the MLIR frontend");
#endif
}

int runInspect(const std::vector<std::string>& arguments)
{
    std::vector<OptionSpec> options{{"json", 0, {}, "print the summary as JSON"}};
    CommandLine cli("inspect", "PATH [--json] [OPTIONS]",
                    "Summarize a workload. PATH is a Chakra trace (one .et file, a prefix PATH.0.et, PATH.1.et, ...\n"
                    "or a directory holding one prefix's rank files) or an XLA HLO module (text). Prints the number\n"
                    "of ranks, nodes per type, collectives per kind with count and bytes, FLOPs, communicator\n"
                    "groups and the longest dependency chain. For a trace, counts are summed over its ranks; for\n"
                    "an HLO module they are one rank's, for one execution of the entry computation.\n"
                    "For a .mlir file, lists its operations by name.",
                    withWorkloadInputOptions(std::move(options)));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::string& path = cli.onePositional("PATH");
    if (isMlirFile(path))
        return inspectMlir(path, cli.has("json"));

    const bool json = cli.has("json");
    const core::LoadedWorkload loaded = loadWorkloadFromCli(path, cli, json);
    const bool perRank = loaded.kind == core::InputKind::HloModule;
    const core::WorkloadSummary summary =
        perRank ? core::summarizePerRank(loaded.workload) : core::summarize(loaded.workload);
    std::string text;
    if (json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::parse(core::toJson(summary));
        if (perRank) {
            out["replica_count"] = loaded.replicaCount;
            out["num_partitions"] = loaded.numPartitions;
        }
        out["warnings"] = loaded.warnings;
        text = out.dump(2) + "\n";
    } else {
        text = core::toText(summary);
    }
    std::fputs(text.c_str(), stdout);
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"inspect", "summarize a workload (Chakra trace: .et file, prefix or directory) or list an MLIR file's ops",
     runInspect, 10});

} // namespace
} // namespace flint::app
