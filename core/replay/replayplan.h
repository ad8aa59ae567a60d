// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// What one process of a communication replay (`flint replay` under mpirun, docs/replay.md) does for
// its rank, worked out from the workload alone, without MPI: which ops are timed waits and how long,
// which are collectives on which group and in which order, which messages go to which peer under
// which tag. The MPI executor (engine/mpireplay) only carries the plan out; everything that decides
// what is sent, and so every byte count, is here and tested without MPI.
namespace flint::core::replay {

/// What a process does for one op of its rank.
enum class Action : std::uint8_t {
    Wait,       ///< an op of the compute stream: a timed wait of `seconds`
    Collective, ///< a collective on the communicator of `group`, on a communication stream
    Send,       ///< a message of `bytes` to `peer`, on no stream (as the estimator runs it)
    Recv,       ///< a message of `bytes` from `peer`
};

/// One op of a rank as the replay runs it. Indexed like the rank's Program::ops.
struct PlannedOp {
    Action action = Action::Wait;
    CollectiveKind collective = CollectiveKind::AllReduce;
    double seconds = 0;      ///< Wait: the op's estimated or recorded time times the compute scale
    std::uint64_t bytes = 0; ///< communication: Op::commBytes (comm_size) times the byte scale
    /// Collective: index into Workload::groups; -1 for an op that spans all ranks.
    std::int32_t group = -1;
    /// Collective: its position among this rank's collectives on `group`, in program order. MPI needs
    /// every member to start a communicator's collectives in one order; this is the order the
    /// estimator matches them in.
    std::uint32_t ordinal = 0;
    std::int32_t peer = -1; ///< Send/Recv: the global rank at the other end
    /// Send/Recv: the message's number among those from the sender to the receiver, ordered by
    /// (Op::commTag, ordinal within the tag), the same on both ends: the k-th send from a to b with
    /// tag t pairs with the k-th receive on b from a with tag t whatever order they are posted in, as
    /// the estimator pairs them.
    std::int32_t tag = 0;
    /// Collective-permute: the global ranks this rank sends to and receives from (-1: none).
    std::int32_t sendTo = -1;
    std::int32_t recvFrom = -1;
    /// All-to-all: every member's bytes, in group order (all-to-all-v: members may differ), so that
    /// each knows what it receives. Collective-permute: the source's bytes, at index 0.
    std::vector<std::uint64_t> memberBytes;
};

struct ReplayOptions {
    /// Where compute times come from (as EstimateOptions::timing): recorded when an op has one, else
    /// the roofline of the cluster's device.
    ComputeTiming timing = ComputeTiming::Auto;
    double computeScale = 1.0; ///< every wait times this (0: communication alone)
    double byteScale = 1.0;    ///< every message times this (rounded to whole bytes), (0, 1]
};

/// What one rank runs, in the order the estimator would run it.
struct RankPlan {
    std::int32_t rank = 0;
    std::vector<PlannedOp> ops;
    DependencyGraph graph;
    /// The groups whose communicators this rank needs, ascending; -1 (all ranks) first when used.
    std::vector<std::int32_t> groups;
    std::int32_t commStreams = 1; ///< collectives in flight at once (Cluster::commStreams)
};

/// The plan of `rank`. Throws InputError for what MPI cannot carry out: a send or receive whose peer
/// is not a rank of the workload, a collective-permute pair outside its group.
RankPlan planRank(const Workload& workload, std::size_t rank, const Cluster& cluster, const ReplayOptions& options);

/// `workload` as the replay runs it: every compute op's recorded duration set to its wait (whole
/// microseconds, Chakra's unit), so that an estimate with ComputeTiming::Recorded prices compute as
/// the replay runs it, and comm_size scaled by the byte scale. What the replay is held against when
/// it scales compute or bytes.
Workload plannedWorkload(const Workload& workload, const Cluster& cluster, const ReplayOptions& options);

/// Bytes one MPI call of `op` needs in its send and receive buffers (`members` ranks in its group).
struct BufferBytes {
    std::uint64_t send = 0;
    std::uint64_t receive = 0;
};
BufferBytes bufferBytes(const PlannedOp& op, std::size_t members);

/// The largest buffer the replay of `workload` needs for one op, over every rank: what the limit on
/// message size (flint replay --max-buffer) is checked against before any traffic.
struct LargestBuffer {
    std::uint64_t bytes = 0;
    std::int32_t rank = -1;
    std::string op; ///< the op's name
};
LargestBuffer largestBuffer(const Workload& workload, const Cluster& cluster, const ReplayOptions& options);

/// One op as a process ran it, in seconds on the common clock from the replay's start.
struct MeasuredOp {
    double ready = 0; ///< its predecessors were done (a collective: it could be started)
    double start = 0; ///< it took its stream (a communication op: it was handed to MPI)
    double end = 0;
    std::uint64_t bytes = 0; ///< bytes handed to MPI as this rank's buffer (count x type size)
};

/// The replayed run as a workload with recorded times, as a profile of a real run would be read
/// (core/measured): every rank keeps `workload`'s ops; a compute op's time is its wait as it ran; a
/// collective's and a transfer's duration is its transfer time, the shortest of its members' (the
/// others include waiting for the last member), ending when it ended on that rank; comm_size is the
/// bytes that were moved. Times are whole microseconds from the replay's start.
Workload replayedWorkload(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                          const std::vector<std::vector<MeasuredOp>>& measured);

/// The measured timelines as an estimate-shaped result (one timeline per rank, stream 0 for waits,
/// 1.. for the communication streams, the last for point-to-point), so that the estimate's exports
/// (Perfetto JSON, breakdown) take them. No critical path or communication matrix.
std::shared_ptr<const EstimateResult> replayTimelines(const Workload& workload, const Cluster& cluster,
                                                      const ReplayOptions& options,
                                                      const std::vector<std::vector<MeasuredOp>>& measured);

/// Both of the above, the plans and transfer times worked out once.
struct ReplayedRun {
    Workload workload;
    std::shared_ptr<const EstimateResult> timelines;
};
ReplayedRun replayedRun(const Workload& workload, const Cluster& cluster, const ReplayOptions& options,
                        const std::vector<std::vector<MeasuredOp>>& measured);

} // namespace flint::core::replay
