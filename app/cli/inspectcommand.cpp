// SPDX-License-Identifier: MIT
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/chakra.h"
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
    CommandLine cli("inspect", "PATH [--json] [--comm-groups FILE]",
                    "Summarize a Chakra execution trace: PATH is one .et file, a prefix (PATH.0.et, PATH.1.et, ...)\n"
                    "or a directory holding one prefix's rank files. Prints the number of ranks, nodes per type,\n"
                    "collectives per kind with count and bytes (summed over ranks), communicator groups and the\n"
                    "longest dependency chain. For a .mlir file, lists its operations by name.",
                    {{"json", 0, {}, "print the summary as JSON"},
                     {"comm-groups", 0, "FILE", "comm-group JSON (default: PREFIX.json if present)"}});
    cli.parse(arguments);
    if (cli.helpRequested()) {
        std::fputs(cli.helpText().c_str(), stdout);
        return ExitSuccess;
    }
    if (cli.positionals().size() != 1)
        throw UsageError(cli.positionals().empty() ? "missing PATH" : "expected one PATH");
    const std::string& path = cli.positionals().front();
    if (isMlirFile(path))
        return inspectMlir(path, cli.has("json"));

    const core::Workload workload = core::readChakraWorkload(path, cli.value("comm-groups"));
    const core::WorkloadSummary summary = core::summarize(workload);
    const std::string text = cli.has("json") ? core::toJson(summary) : core::toText(summary);
    std::fputs(text.c_str(), stdout);
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"inspect", "summarize a workload (Chakra trace: .et file, prefix or directory) or list an MLIR file's ops",
     runInspect, 10});

} // namespace
} // namespace flint::app
