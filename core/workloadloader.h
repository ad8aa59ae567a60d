// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hloimport.h"
#include "core/progress.h"
#include "core/workload.h"

#include <string>
#include <vector>

namespace flint::core {

/// What a workload was read from.
enum class InputKind {
    ChakraTrace, ///< .et rank files (a file, a prefix or a directory)
    HloModule,   ///< XLA HLO text
};

/// Options for every input kind; each reader uses its own.
struct LoadOptions {
    std::string commGroupsPath; ///< Chakra: comm-group JSON (default: PREFIX.json beside the trace)
    hlo::HloImportOptions hlo;  ///< HLO: device counts and while trip counts
};

/// A workload and what the user should know about how it was derived.
struct LoadedWorkload {
    InputKind kind = InputKind::ChakraTrace;
    Workload workload;
    std::string name;
    std::vector<std::string> warnings;
    /// HLO modules: the device space (global device id = replica * partitions + partition).
    std::int64_t replicaCount = 1;
    std::int64_t numPartitions = 1;
};

/// The kind of input at `path`: a regular file whose text starts with `HloModule` is HLO; anything
/// else is taken for a Chakra trace (a file, prefix or directory).
InputKind detectInputKind(const std::string& path);

/// Reads any supported input into a Workload. Throws InputError, Cancelled.
LoadedWorkload loadWorkload(const std::string& path, const LoadOptions& options = {}, const JobControl& control = {});

} // namespace flint::core
