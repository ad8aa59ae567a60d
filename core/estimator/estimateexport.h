// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <cstddef>
#include <string>
#include <vector>

namespace flint::core {

/// Time an op took summed over every rank that runs it (by op name), for "top ops" lists.
struct OpTotal {
    std::string name;
    OpKind kind = OpKind::Compute;
    CollectiveKind collective = CollectiveKind::AllReduce;
    std::uint64_t count = 0; ///< executions over all ranks
    double seconds = 0;      ///< summed end - start over all ranks
};

/// How the mean rank spends the step, in seconds. Idle runs to the end of the step, not to the rank's
/// last op: a rank that finishes early waits for the slowest (the next step starts together), so
/// compute + exposedComm + idle is the step time.
struct MeanBreakdown {
    double compute = 0;
    double exposedComm = 0;
    double idle = 0;
    double afterLastOp = 0; ///< of idle: from the rank's last op to the end of the step
    double contention = 0;  ///< of compute: RankBreakdown::contention
    double linkSharing = 0; ///< RankBreakdown::linkSharing
    double host = 0;        ///< RankBreakdown::host: host gaps, in idle or exposed communication
};
MeanBreakdown meanBreakdown(const EstimateResult& result);

/// The `limit` ops with the most time summed over ranks, longest first.
std::vector<OpTotal> topOps(const EstimateResult& result, const Workload& workload, std::size_t limit);

/// Perfetto / Chrome trace-event JSON: a process per rank (at most `maxRanks`, the lowest ones), a
/// thread per stream, a slice per op (times in microseconds), and flow arrows joining the members of
/// each collective instance and each send/recv pair. With the `cluster` the estimate ran on, each
/// collective's slice names the NCCL protocol that priced it (args.protocol: "LL128", "Simple, tree";
/// CollectiveCost::protocol) where one did.
std::string chromeTraceJson(const EstimateResult& result, const Workload& workload,
                            std::size_t maxRanks = static_cast<std::size_t>(-1), const Cluster* cluster = nullptr);

/// CSV of the per-rank breakdown: rank,finish_s,compute_s,exposed_comm_s,idle_s,comm_s,contention_s,
/// link_sharing_s.
std::string breakdownCsv(const EstimateResult& result);

/// CSV of a communication matrix: one row per (source, destination) block with bytes > 0:
/// src,dst,bytes,seconds (ranks, or the first rank of each block when ranks are binned; seconds as
/// CommMatrix::seconds). A matrix without seconds (logicalCommMatrix) writes src,dst,bytes.
std::string commMatrixCsv(const CommMatrix& matrix);

/// The estimate as JSON: step_time_s, ranks [{rank, finish_s, compute_s, exposed_comm_s, idle_s,
/// comm_s, contention_s, link_sharing_s}], top_ops, critical_path, traffic_per_dim_bytes and the cluster it ran on.
std::string estimateJson(const EstimateResult& result, const Workload& workload, const Cluster& cluster,
                         std::size_t topLimit = 10);

} // namespace flint::core
