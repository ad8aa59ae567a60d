// SPDX-License-Identifier: MIT
#pragma once

#include "core/replay/replayplan.h"
#include "engine/mpisupport.h"

#include <vector>

// The communication replay's executor (docs/replay.md): one MPI process per rank walks its rank's
// plan (core/replay/replayplan.h) in dependency order; waits stand for compute, real MPI collectives
// and messages of the workload's sizes for communication; every op's times are taken on a clock
// common to all processes and gathered on rank 0.
namespace flint::engine::mpi {

struct ReplayStats {
    /// Time the executor added to each compute op, over every rank: from the moment the op could start
    /// (its predecessors done and the compute stream free) to its start, plus the wait beyond the time
    /// asked for. Seconds.
    double overheadMean = 0;
    double overheadMax = 0;
    std::uint64_t computeOps = 0;
    /// Half the shortest round trip of the clock synchronisation, the largest over the processes: how
    /// far apart two processes' clocks may be. Seconds.
    double clockError = 0;
    bool yielding = false; ///< more processes than cores on some machine: waits yield the core
};

struct ReplayResult {
    /// Per rank (rank 0 only; empty elsewhere), per op of its program.
    std::vector<std::vector<core::replay::MeasuredOp>> ranks;
    ReplayStats stats;
};

/// Runs the replay of `workload` with `session.size()` == ranks processes, each running the rank of
/// its own number. `plan` is this process's rank's plan. Collective over the processes; throws
/// std::runtime_error for an MPI failure and when the rank cannot go on: its collectives on one
/// group are ordered against its dependencies, or nothing started or ended for `stallSeconds` while
/// it waited for peers. The caller then aborts the job, since the other processes wait for it.
ReplayResult runReplay(const Session& session, const core::Workload& workload, const core::replay::RankPlan& plan,
                       double stallSeconds = 60);

} // namespace flint::engine::mpi
