// SPDX-License-Identifier: MIT
#pragma once

#include "core/rankpartition.h"

#include <QString>

namespace flint::views {

/// A rank partition as menus show it: "mesh axis: 16 groups of 8 ranks (all-reduce, all-gather)",
/// "programs: 2 of 4 ranks" (translated).
QString partitionLabel(const core::RankPartition& partition);

} // namespace flint::views
