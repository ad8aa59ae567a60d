// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/message.h"
#include "core/workload.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace flint::core {

/// How the estimator arrives at one op's time, for the explorer's details panel.
struct OpExplanation {
    /// Seconds the op takes once it can run (for a collective: from the members' common start, per
    /// execution, without waiting for peers).
    double seconds = 0;
    /// The formula with its symbols, then the same with this op's figures (one line each; the symbols
    /// are those of docs/estimator.md). Messages, so that the explorer shows the words in the user's
    /// language and the figures in its notation; Message::text() is the English.
    std::vector<Message> lines;
};

/// Explains the time of op `opIndex` of the program `rank` runs on `cluster`: the roofline (or the
/// recorded duration) for compute, the algorithm, phases and per-phase formula for a collective,
/// the message time for send/recv. Throws std::out_of_range for a bad rank or op index.
OpExplanation explainOp(const Workload& workload, const Cluster& cluster, std::size_t rank, std::uint32_t opIndex,
                        const EstimateOptions& options = {});

/// Calls `flow(src, dst, bytes)` for every transfer one execution of op `opIndex` makes on every rank
/// that runs it: the ranks running `rank`'s program, each of its groups once (as the communication
/// matrix counts them), or each send's bytes. Nothing for ops that do not communicate.
void forEachOpFlow(const Workload& workload, const Cluster& cluster, std::size_t rank, std::uint32_t opIndex,
                   const std::function<void(std::int32_t src, std::int32_t dst, double bytes)>& flow);

/// An op on a rank, with the bytes it accounts for.
struct OpOnRank {
    std::int32_t rank = -1; ///< -1: none found
    std::uint32_t op = 0;   ///< index into the rank's Program::ops
    double bytes = 0;       ///< bytes this op (all its executions) sends from the source to the destination ranks
};

/// The op that sends the most bytes from ranks [srcFirst, srcFirst + srcCount) to ranks
/// [dstFirst, dstFirst + dstCount) over the step, as the communication matrix counts them (at most
/// the first 64 source ranks are searched). Collectives with the same group, kind and size count
/// together and are reported by their first op. For selecting an op from a matrix cell.
OpOnRank heaviestOpBetween(const Workload& workload, const Cluster& cluster, std::int32_t srcFirst,
                           std::int32_t srcCount, std::int32_t dstFirst, std::int32_t dstCount);

} // namespace flint::core
