// SPDX-License-Identifier: MIT
#pragma once

#include "cli/commandline.h"
#include "core/estimator/cluster.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flint::app {

/// The cluster options (--cluster, --system, --device, the cost-model option, --comm-streams,
/// --bandwidth-scale, --scale-out-bandwidth) followed by a command's own. `costModelOption` names the
/// option that picks flint or astrasim conventions ("model" for flint estimate).
std::vector<OptionSpec> withClusterOptions(std::vector<OptionSpec> own, const std::string& costModelOption = "model");

/// The cluster the options on `cli` describe, sized for `ranks`. Throws UsageError, core::InputError.
core::Cluster makeCluster(const CommandLine& cli, std::int64_t ranks, const std::string& costModelOption = "model");

/// The cluster presets and devices, one per line (for --list).
std::string presetList();

} // namespace flint::app
