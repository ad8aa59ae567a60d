// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "core/workload.h"

namespace flint::core {

/// The step's logical traffic: what each rank sends to each other rank in the semantics of its
/// collectives, whatever algorithm moves it (docs/estimator.md, "Logical and link traffic").
/// EstimateResult::commMatrix is the link traffic: what the chosen algorithms move between
/// neighbours. A ring all-to-all over n ranks moves everything between ring neighbours; logically
/// every rank sends a 1/n share to each of the others.
///
/// Per ordered pair (i, j) of a group of n ranks, with S the collective's Chakra comm_size:
///   - all-gather (S = the input per rank): S;
///   - all-to-all, reduce-scatter (S = the buffer per rank): S / n;
///   - all-reduce: 2 S / n (a reduce-scatter of its buffer, then an all-gather of the results);
///   - broadcast, scatter: S from the root (the group's lowest rank) to each other member;
///     reduce, gather: S from each other member to the root;
///   - collective-permute, send/recv: S from source to target, as written.
/// Each instance is counted once per group. Binned like CommMatrix above 1,024 ranks. Depends on
/// the workload only, not on the cluster: compute it once per workload. `seconds` and the layers'
/// `seconds` are left empty (link time is a property of an algorithm's transfers).
CommMatrix logicalCommMatrix(const Workload& workload);

} // namespace flint::core
