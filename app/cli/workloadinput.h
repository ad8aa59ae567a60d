// SPDX-License-Identifier: MIT
#pragma once

#include "cli/commandline.h"
#include "engine/workloadloader.h"

#include <filesystem>
#include <string>
#include <vector>

namespace flint::app {

/// A command's own options followed by those every command that reads a workload accepts
/// (--comm-groups, --replicas, --partitions, --while-trip-count).
std::vector<OptionSpec> withWorkloadInputOptions(std::vector<OptionSpec> own);

/// Loads the workload at `path` with the options given on `cli`. Warnings go to standard error
/// (prefixed "warning: ") unless `quiet`. Throws UsageError, core::InputError.
core::LoadedWorkload loadWorkloadFromCli(const std::string& path, const CommandLine& cli, bool quiet = false);

/// Says on standard error when a trace of `ranks` ranks kept only the lowest `traceRanks` of them
/// (--trace-ranks), so that a pipeline's later stages are not missing without a word.
void noteTraceRanks(std::size_t ranks, std::size_t traceRanks);

/// Throws core::OutputError when the folder of `output` (a file, or a prefix of rank files) neither
/// exists nor can be created: its nearest existing ancestor is not a folder this process may write.
/// For commands that run long before they write.
void requireCreatableFolder(const std::string& output);

/// The folder an output (a file, or a prefix of rank files) lands in, created when it is missing.
/// Unless keep() is called, the folders it created are removed again when it goes out of scope, so
/// that a command that fails leaves nothing behind. Throws core::OutputError when it cannot create it.
class OutputFolder {
public:
    explicit OutputFolder(const std::string& output);
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;
    void keep() { m_keep = true; }

private:
    std::filesystem::path m_created; ///< the topmost folder created; empty when none was
    bool m_keep = false;
};

} // namespace flint::app
