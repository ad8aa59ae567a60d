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

int listMlirOperations(const std::string& path, bool json)
{
#ifdef FLINT_HAVE_MLIR
    frontend::MlirSummary summary;
    try {
        summary = frontend::summarizeMlirFile(path);
    } catch (const frontend::MlirParseError& e) {
        const frontend::MlirError& error = e.error();
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
    std::vector<OptionSpec> options{{"json", 0, {}, "print the summary as JSON"},
                                    {"ops", 0, {}, "MLIR: list the file's operations by name instead of lowering it"}};
    CommandLine cli("inspect", "PATH [--json] [OPTIONS]",
                    "Summarize a workload. PATH is a Chakra trace (one .et file, a prefix PATH.0.et, PATH.1.et, ...\n"
                    "or a directory holding one prefix's rank files), an XLA HLO module (text) or an MLIR module\n"
                    "(StableHLO, MHLO, Shardy; .mlir). Prints the number of ranks, nodes per type, collectives per\n"
                    "kind with count and bytes, FLOPs, communicator groups and the longest dependency chain. For a\n"
                    "trace, counts are summed over its ranks; for an HLO or MLIR module they are one rank's, for\n"
                    "one execution of the entry function. With --ops, an MLIR file's operations are listed by name.",
                    withWorkloadInputOptions(std::move(options)));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::string& path = cli.onePositional("PATH");
    if (cli.has("ops"))
        return listMlirOperations(path, cli.has("json"));

    const bool json = cli.has("json");
    const core::LoadedWorkload loaded = loadWorkloadFromCli(path, cli, json);
    const bool perRank = loaded.kind == core::InputKind::HloModule || loaded.kind == core::InputKind::MlirModule;
    const core::WorkloadSummary summary =
        perRank ? core::summarizePerRank(loaded.workload) : core::summarize(loaded.workload);
    std::string text;
    if (json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::parse(core::toJson(summary));
        if (perRank) {
            out["replica_count"] = loaded.replicaCount;
            out["num_partitions"] = loaded.numPartitions;
            // Who made the per-device program: the compiler, flint's partitioner, nobody (one
            // device), or nobody although it needed it ("failed"; the warnings say why).
            static constexpr const char* kPartitioning[] = {"none", "compiler", "flint", "failed"};
            out["partitioned_by"] = kPartitioning[static_cast<int>(loaded.partitioning)];
        }
        if (!loaded.meshes.empty()) {
            auto& meshes = out["meshes"] = nlohmann::ordered_json::object();
            for (const core::MeshDeclaration& mesh : loaded.meshes) {
                auto& axes = meshes[mesh.name] = nlohmann::ordered_json::object();
                for (const auto& [axis, size] : mesh.axes)
                    axes[axis] = size;
            }
        }
        out["notes"] = core::texts(loaded.notes);
        out["warnings"] = core::texts(loaded.warnings);
        text = out.dump(2) + "\n";
    } else {
        text = core::toText(summary);
    }
    std::fputs(text.c_str(), stdout);
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"inspect", "summarize a workload (Chakra trace, HLO or MLIR module) or list an MLIR file's ops", runInspect, 10});

} // namespace
} // namespace flint::app
