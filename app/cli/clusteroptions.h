// SPDX-License-Identifier: MIT
#pragma once

#include "cli/commandline.h"
#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/estimator/estimateexport.h"
#include "core/workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flint::app {

/// Whether a command also takes `--model NAME` as the older spelling of `--cost-model NAME` (flint
/// estimate and flint validate took it before every command had --cost-model). Commands where
/// `--model` names a built-in model take only --cost-model.
enum class ModelAlias { No, Yes };

/// The cluster options (--cluster, --system, --device, --cost-model, --comm-streams,
/// --bandwidth-scale, --scale-out-bandwidth) followed by a command's own.
std::vector<OptionSpec> withClusterOptions(std::vector<OptionSpec> own, ModelAlias alias = ModelAlias::No);

/// The cluster the options on `cli` describe, sized for `ranks`. Throws UsageError, core::InputError.
core::Cluster makeCluster(const CommandLine& cli, std::int64_t ranks, ModelAlias alias = ModelAlias::No);
/// Refuses an unknown --cluster preset or --device name before a workload is read (makeCluster,
/// which needs the rank count, refuses them too, later).
void checkClusterNames(const CommandLine& cli);

/// The cluster presets and devices, one per line (for --list).
std::string presetList();

/// What an estimate sent over each topology dimension and how busy that kept its links, one line
/// per dimension named by how it is wired ("dimension 1, Switch of 8 NPUs at 370.8 GB/s: 62.7 TB sent;
/// links busy 6.2 % of the step on average, 15.3 % for the busiest rank at its peak"), for the text
/// output of flint estimate and flint model estimate (core::linkUtilisation).
std::string networkSummary(const core::Workload& workload, const core::Cluster& cluster,
                           const core::EstimateResult& result);

/// The top ops of an estimate under the heading "top ops (time summed over ranks):", one per line,
/// times written by `format`; names longer than a line (a demangled CUDA kernel's several
/// kilobytes) cut at 100 characters with "...".
std::string topOpsSummary(const std::vector<core::OpTotal>& tops, std::string (*format)(double));

} // namespace flint::app
