// SPDX-License-Identifier: MIT
#pragma once

#include "core/allocator.h"
#include "core/estimator/cluster.h"
#include "core/estimator/gemmtable.h"
#include "core/progress.h"
#include "core/workload.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace flint::core {

/// Where compute times come from.
enum class ComputeTiming : std::uint8_t {
    Auto,     ///< an op's recorded duration_micros when it has one, else the roofline
    Roofline, ///< always the roofline of the cluster's device
    Recorded, ///< always the recorded duration (replay mode); ops without one take no time
};

class EstimateCache;

struct EstimateOptions {
    ComputeTiming timing = ComputeTiming::Auto;
    /// Give CPU ops (Chakra is_cpu_op) their recorded duration on the compute stream. ASTRA-sim skips
    /// them, and so do we by default (they take no time but keep their dependencies).
    bool includeCpuOps = false;
    /// Simulate one representative per class of ranks whose timelines are provably identical (same
    /// program, collectives of equal cost, member classes alike; see docs/estimator.md). Results are
    /// exact per rank either way; off simulates every rank.
    bool exploitSymmetry = true;
    /// Keep every op's event (start, end) per class of ranks; off keeps only the breakdown.
    bool recordEvents = true;
    /// Build the rank-to-rank communication matrix and per-dimension traffic.
    bool commMatrix = true;
    /// Dependency cycles (real PyTorch traces have them): drop the dependencies that point from a later
    /// op to an earlier one among the ops on or behind cycles, and count them in EstimateResult::droppedDependencies.
    /// Off, a cycle is an error.
    bool breakCycles = true;
    /// The members of a collective must agree on its size (comm_size), and a send on the size of the
    /// receive it pairs with: a disagreement is an InputError naming the ranks, ops and bytes. Off
    /// (`flint estimate --lenient`), each member's own size is used. All-to-all (all-to-all-v in
    /// measured MoE traces) and collective-permute may differ per rank and are not checked.
    bool checkSizes = true;
    /// Replay measured communication: a collective or send/recv with a recorded duration takes that
    /// long once its members have arrived (a measured workload records a collective's transfer time,
    /// the shortest of its members' measured durations) instead of the network model's time. Ranks
    /// are then simulated one by one (the symmetry classes assume modelled collectives).
    bool recordedCommunication = false;
    /// What estimates of the same workload can share (see EstimateCache); null: nothing is kept.
    std::shared_ptr<EstimateCache> cache;
};

/// What the estimator works out from a program and the compute model alone (its dependency graph,
/// every compute op's time, its collectives and transfers by slot), kept between estimates: a
/// what-if edit of the network or the collective algorithms changes none of it, and for GPT-3 175B
/// on 1,024 ranks it is a quarter of an estimate. Entries are found by the program's address (the
/// program is held while cached) and used only under the same device, compute model, cost model
/// and timing options; the programs of the last three estimates are kept. Thread-safe: estimates on
/// several threads may share one.
class EstimateCache {
public:
    EstimateCache();
    ~EstimateCache();
    EstimateCache(const EstimateCache&) = delete;
    EstimateCache& operator=(const EstimateCache&) = delete;

    /// Program infos taken from the cache instead of worked out, over its life (tests).
    std::uint64_t hits() const;

    /// The estimator's own (estimate.cpp).
    struct State;
    State& state() const { return *m_state; }

private:
    std::unique_ptr<State> m_state;
};

/// Where an op ran on its rank, in seconds from the step start.
struct OpEvent {
    std::uint32_t op = 0;     ///< index into the rank's Program::ops
    std::uint16_t stream = 0; ///< 0 = compute stream, 1.. = communication streams
    double ready = 0;         ///< the stream took the op (for a collective: this rank arrived)
    double start = 0;         ///< the op started (a collective: every member had arrived)
    double end = 0;
};

/// How one rank spent the step, in seconds. finish = compute + exposedComm + idle.
struct RankBreakdown {
    double finish = 0;      ///< end of the rank's last op
    double compute = 0;     ///< compute stream busy
    double exposedComm = 0; ///< a collective or transfer running while the compute stream is idle
    double idle = 0;        ///< neither: waiting for dependencies or for peers to reach a collective
    double comm = 0;        ///< communication running (overlapped or not)
    /// Of `compute`: the time compute ops ran longer because communication ran alongside them
    /// (ComputeModel::overlapSlowdown).
    double contention = 0;
    /// Of `comm`: the time collectives and transfers ran longer because transfers beside them shared
    /// their links (Cluster::linkSharing), summed over the rank's ops.
    double linkSharing = 0;
    /// The device waiting for its host: a measured run's host gaps (isHostGap), not counted in
    /// `compute`; in `idle`, or in `exposedComm` where communication ran meanwhile.
    double host = 0;
};

/// One link of the critical path.
struct CriticalStep {
    enum class Reason : std::uint8_t {
        Start,      ///< the first op of the path
        Dependency, ///< started when this predecessor ended
        Stream,     ///< waited for this op to free its stream
        Peer,       ///< a collective or transfer that waited for this rank's op to arrive
    };
    std::int32_t rank = 0; ///< a rank on the path (the representative of its class)
    std::uint32_t op = 0;  ///< index into that rank's Program::ops
    double start = 0;
    double end = 0;
    Reason reason = Reason::Start; ///< how this step's start was set by the step before it
};

/// Bytes sent from rank to rank as the chosen algorithms move them (EstimateResult::commMatrix), or
/// in the collectives' semantics (logicalCommMatrix). Exact for up to 1,024 ranks; above that ranks
/// are binned in blocks of `blockSize` consecutive ranks.
struct CommMatrix {
    /// One collective kind's share of the matrix, sparse: most kinds touch few cells (tensor-parallel
    /// groups near the diagonal, pipeline neighbours), and a dense copy per kind would cost 16 MB
    /// at 1,024 ranks.
    struct Layer {
        /// Chakra spelling of the kind ("ALL_REDUCE", "COLLECTIVE_PERMUTE", ...); "SEND_RECV" for
        /// point-to-point transfers.
        std::string kind;
        std::vector<std::uint32_t> cells; ///< cell indices (CommMatrix::index), ascending
        std::vector<double> bytes;        ///< per cell in `cells`
        std::vector<double> seconds;      ///< per cell in `cells`, as CommMatrix::seconds

        /// The layer as dense blocks x blocks matrices (row = source block).
        std::vector<double> denseBytes(std::int32_t blockCount) const { return dense(bytes, blockCount); }
        std::vector<double> denseSeconds(std::int32_t blockCount) const { return dense(seconds, blockCount); }

    private:
        std::vector<double> dense(const std::vector<double>& values, std::int32_t blockCount) const
        {
            const auto side = static_cast<std::size_t>(blockCount);
            std::vector<double> out(side * side, 0.0);
            for (std::size_t i = 0; i < cells.size() && i < values.size(); ++i)
                out[cells[i]] = values[i];
            return out;
        }
    };

    std::int32_t ranks = 0;
    std::int32_t blockSize = 1;
    std::int32_t blocks = 0;
    std::vector<double> bytes; ///< blocks x blocks, row = source block
    /// blocks x blocks (empty for logical traffic): seconds the cell's bytes take on the link that carries them, bytes
    /// over the bandwidth of the first topology dimension where source and destination differ (serialisation time,
    /// without latency or contention), summed over the step.
    std::vector<double> seconds;
    /// The same matrices per collective kind, for the kinds that moved bytes, in CollectiveKind order
    /// with point-to-point last. Their sums are `bytes` and `seconds`.
    std::vector<Layer> layers;

    /// Ranks per block for a workload of `rankCount` ranks: 1 up to 1,024 ranks, then at most 1,024
    /// blocks.
    static std::int32_t blockSizeFor(std::int32_t rankCount)
    {
        return std::max<std::int32_t>(1, (rankCount + 1023) / 1024);
    }
    /// Empty blocks x blocks matrices for `rankCount` ranks; `withSeconds` sizes `seconds` too.
    void reset(std::int32_t rankCount, bool withSeconds)
    {
        ranks = rankCount;
        blockSize = blockSizeFor(rankCount);
        blocks = (rankCount + blockSize - 1) / blockSize;
        const std::size_t cells = static_cast<std::size_t>(blocks) * static_cast<std::size_t>(blocks);
        bytes.assign(cells, 0.0);
        seconds.assign(withSeconds ? cells : 0, 0.0);
        layers.clear();
    }

    std::size_t index(std::int32_t srcBlock, std::int32_t dstBlock) const
    {
        return static_cast<std::size_t>(srcBlock) * static_cast<std::size_t>(blocks) +
               static_cast<std::size_t>(dstBlock);
    }
    double at(std::int32_t srcBlock, std::int32_t dstBlock) const { return bytes[index(srcBlock, dstBlock)]; }
};

/// The estimate of one step. Immutable once built; share it as std::shared_ptr<const EstimateResult>.
struct EstimateResult {
    double stepTime = 0; ///< seconds: the last rank's finish
    std::vector<RankBreakdown> ranks;
    /// Ranks with identical timelines share one: rank r's events are timelines[rankTimeline[r]],
    /// each in order of start (then op). Empty spans when EstimateOptions::recordEvents is off.
    std::vector<std::span<const OpEvent>> timelines;
    /// Holds the events the timelines show (one block for all: see LargeBuffer).
    std::shared_ptr<const LargeBuffer> eventStorage;
    std::vector<std::uint32_t> rankTimeline;
    /// The representative rank each timeline was simulated for.
    std::vector<std::int32_t> timelineRank;
    /// Per timeline: 1 for each op (by index) that is a host gap (isHostGap), the device waiting for
    /// its host; an empty vector for a timeline without any (every workload but a measured run).
    std::vector<std::vector<char>> hostGapOps;
    /// From the first op to the op that ends last, in time order.
    std::vector<CriticalStep> criticalPath;
    CommMatrix commMatrix;
    /// Bytes carried by each topology dimension over the step (all ranks).
    std::vector<double> bytesPerDim;
    std::uint64_t simulatedOps = 0; ///< ops the simulator processed (over representatives)
    /// Dependencies dropped to break cycles, summed over distinct programs (see breakCycles).
    std::uint64_t droppedDependencies = 0;
    std::string costModel; ///< "flint" or "astrasim"

    std::span<const OpEvent> eventsOf(std::size_t rank) const { return timelines[rankTimeline[rank]]; }
};

/// Estimates how every rank of `workload` spends one step on `cluster`: a discrete-event simulation of
/// each rank's compute stream and communication streams, collectives starting when all members have
/// arrived, send/recv pairing. Throws InputError when the workload does not fit the cluster or
/// deadlocks (the message names the op and the ranks that never arrive), Cancelled when cancelled.
std::shared_ptr<const EstimateResult> estimate(const Workload& workload, const Cluster& cluster,
                                               const EstimateOptions& options = {}, const JobControl& control = {});

/// The dependencies of `program`'s ops as the estimator follows them, by op index: ids resolved
/// (the first op of a repeated id), dangling dependencies and an op's dependency on itself ignored,
/// duplicates merged, and with `breakCycles` the edges that close a cycle dropped (see
/// EstimateOptions::breakCycles). Compressed rows: the predecessors of op i are
/// preds[predStart[i] .. predStart[i + 1]), its successors likewise.
struct DependencyGraph {
    std::vector<std::uint32_t> predStart, preds;
    std::vector<std::uint32_t> succStart, succs;
    std::uint64_t droppedDependencies = 0;
};
DependencyGraph dependencyGraph(const Program& program, bool breakCycles);

/// How the roofline prices an op's arithmetic on `cluster`: the precision it runs at, that
/// precision's peak, and the efficiency applied (a fused attention kernel's measured one, else the
/// matmul efficiency).
struct ComputeRate {
    Precision precision = Precision::BF16;
    double peak = 0;       ///< FLOP/s
    double efficiency = 0; ///< fraction of `peak`
    KernelClass kernelClass = KernelClass::Generic;
    /// The GEMM the op was priced as when the device's measured table by shape set `efficiency`
    /// (ComputeModel::gemmByShape); invalid otherwise.
    GemmShape gemm;
    /// The fraction of its burst throughput the op keeps at the sustained clock, included in
    /// `efficiency` (ComputeModel::sustainedClocks); 1 when not applied.
    double sustained = 1;
};
ComputeRate computeRate(const Op& op, const Cluster& cluster);

/// Whether a compute op with recorded duration `durationMicros` takes that duration under
/// `options` (replay, CPU ops) rather than the roofline.
bool usesRecordedTime(const Op& op, std::uint64_t durationMicros, const EstimateOptions& options);
/// Seconds one op takes on `cluster` outside communication (roofline or recorded, per `options`).
double computeTime(const Op& op, const Cluster& cluster, const EstimateOptions& options = {});
/// The same with `durationMicros` as the op's recorded duration (a rank's own: Workload::durationOf).
double computeTime(const Op& op, std::uint64_t durationMicros, const Cluster& cluster,
                   const EstimateOptions& options = {});

} // namespace flint::core
