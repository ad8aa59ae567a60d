// SPDX-License-Identifier: MIT
#pragma once

#include "core/workload.h"

#include <string>

namespace flint::core {

/// The whole workload as JSON: programs with every op field, rank bindings and groups. Shared
/// programs appear once; ranks refer to them by index.
std::string workloadToJson(const Workload& workload);

/// Graphviz DOT of the graph `rank` runs: one node per op, coloured by kind, solid data edges and
/// dashed control edges; ops are clustered by the first element of their scope.
std::string rankToDot(const Workload& workload, std::size_t rank);

} // namespace flint::core
