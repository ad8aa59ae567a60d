// SPDX-License-Identifier: MIT
#pragma once

#include "cli/commandline.h"
#include "engine/workloadloader.h"

#include <vector>

namespace flint::app {

/// A command's own options followed by those every command that reads a workload accepts
/// (--comm-groups, --replicas, --partitions, --while-trip-count).
std::vector<OptionSpec> withWorkloadInputOptions(std::vector<OptionSpec> own);

/// Loads the workload at `path` with the options given on `cli`. Warnings go to standard error
/// (prefixed "warning: ") unless `quiet`. Throws UsageError, core::InputError.
core::LoadedWorkload loadWorkloadFromCli(const std::string& path, const CommandLine& cli, bool quiet = false);

} // namespace flint::app
