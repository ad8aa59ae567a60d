// SPDX-License-Identifier: MIT
#include "cli/workloadinput.h"

#include "core/error.h"

#include <cstdio>

#include <unistd.h>

namespace flint::app {

std::vector<OptionSpec> withWorkloadInputOptions(std::vector<OptionSpec> own)
{
    own.push_back({"comm-groups", 0, "FILE", "Chakra: comm-group JSON (default: PREFIX.json beside the trace)"});
    own.push_back({"replicas", 0, "N", "HLO/MLIR: replica count (default: the module's, else inferred)"});
    own.push_back({"partitions", 0, "N", "HLO/MLIR: partition count (default: the module's, else inferred)"});
    own.push_back({"while-trip-count", 0, "N", "HLO/MLIR: iterations of while loops whose count is unknown"});
    own.push_back(
        {"max-trip-count", 0, "N",
         "HLO/MLIR: lower at most N iterations of any loop (e.g. 1 for one step of an on-device training loop)"});
    own.push_back({"mesh", 0, "x=2,y=4",
                   "HLO/MLIR: mesh to partition a module for that has shardings but is not partitioned yet"});
    own.push_back({"max-ops", 0, "N", "HLO/MLIR: refuse to unroll loops into more ops per rank (default 5,000,000)"});
    own.push_back(
        {"step", 0, "N",
         "profiles: the ProfilerStep#N to read (default: the first step every rank completed); XLA traces: the "
         "execution N (from 0) of the program with the most device time (default: the first when it ran more than "
         "once, else the whole trace)"});
    return own;
}

core::LoadedWorkload loadWorkloadFromCli(const std::string& path, const CommandLine& cli, bool quiet)
{
    core::LoadOptions options;
    options.commGroupsPath = cli.value("comm-groups");
    const auto positive = [&cli](const char* name) -> std::optional<std::int64_t> {
        if (!cli.has(name))
            return std::nullopt;
        const std::uint64_t n = cli.number(name, 0);
        if (n == 0 || n > (1u << 30))
            throw UsageError(std::string("--") + name + " must be between 1 and 2^30");
        return static_cast<std::int64_t>(n);
    };
    options.hlo.replicaCount = positive("replicas");
    options.hlo.numPartitions = positive("partitions");
    if (cli.has("while-trip-count"))
        options.hlo.whileTripCount = static_cast<std::int64_t>(cli.number("while-trip-count", 0));
    options.hlo.maxTripCount = positive("max-trip-count");
    if (cli.has("max-ops")) {
        const std::uint64_t n = cli.number("max-ops", 0);
        if (n == 0 || n > (std::uint64_t{1} << 34))
            throw UsageError("--max-ops must be between 1 and 2^34");
        options.hlo.maxOps = n;
    }
    options.mesh = cli.value("mesh");
    if (cli.has("step")) {
        const std::uint64_t n = cli.number("step", 0);
        if (n > (std::uint64_t{1} << 40))
            throw UsageError("--step must be a profiler step number");
        options.profilerStep = static_cast<std::int64_t>(n);
    }
    core::LoadedWorkload loaded = core::loadWorkload(path, options);
    if (!quiet) {
        for (const core::Message& note : loaded.notes)
            std::fprintf(stderr, "note: %s\n", note.text().c_str());
        for (const core::Message& warning : loaded.warnings)
            std::fprintf(stderr, "warning: %s\n", warning.text().c_str());
    }
    return loaded;
}

void noteTraceRanks(std::size_t ranks, std::size_t traceRanks)
{
    if (traceRanks == 0)
        std::fprintf(stderr, "note: the trace holds none of the %zu ranks (--trace-ranks 0)\n", ranks);
    else if (ranks > traceRanks)
        std::fprintf(stderr, "note: the trace holds ranks 0-%zu of %zu (--trace-ranks N for more)\n", traceRanks - 1,
                     ranks);
}

namespace {

/// The outermost folder of `folder` (itself included) that does not exist: what creating `folder`
/// creates first. Empty when `folder` is empty or exists.
std::filesystem::path topmostMissing(const std::filesystem::path& folder)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (folder.empty() || fs::exists(folder, ec))
        return {};
    fs::path topmost = folder;
    while (topmost.has_parent_path() && topmost.parent_path() != topmost && !fs::exists(topmost.parent_path(), ec))
        topmost = topmost.parent_path();
    return topmost;
}

} // namespace

void requireCreatableFolder(const std::string& output)
{
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(output).parent_path();
    std::error_code ec;
    if (folder.empty() || fs::is_directory(folder, ec))
        return;
    const fs::path missing = topmostMissing(folder);
    fs::path existing = missing.empty() ? folder : missing.parent_path();
    if (existing.empty())
        existing = fs::current_path(ec); // a relative path whose first component is missing
    if (!fs::is_directory(existing, ec))
        throw core::OutputError("cannot write " + output + ": " + existing.string() + " is not a folder");
    if (::access(existing.c_str(), W_OK) != 0)
        throw core::OutputError("cannot write " + output + ": cannot create " + folder.string() + " in " +
                                existing.string() + " (no permission)");
}

OutputFolder::OutputFolder(const std::string& output)
{
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(output).parent_path();
    const fs::path topmost = topmostMissing(folder);
    if (topmost.empty())
        return;
    std::error_code ec;
    if (!fs::create_directories(folder, ec))
        throw core::OutputError("cannot create " + folder.string() + ": " + ec.message());
    m_created = topmost;
}

OutputFolder::~OutputFolder()
{
    if (!m_keep && !m_created.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_created, ec);
    }
}

} // namespace flint::app
