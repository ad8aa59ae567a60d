// SPDX-License-Identifier: MIT
// The multi-rank discrete-event simulator. See docs/estimator.md for the model; the notes here cover
// how it is made fast: ranks whose timelines are provably identical are simulated once.
#include "core/estimator/estimate.h"

#include "core/error.h"
#include "core/estimator/collectivemodel.h"
#include "core/estimator/linktraffic.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstring>
#include <exception>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>

#include <queue>

namespace flint::core {

struct EstimateCache::State {
    /// One program's ProgramInfo (type-erased: the type is estimate.cpp's own) with what it was
    /// worked out under.
    struct Entry {
        std::shared_ptr<const Program> program; ///< held, so that its address names it while cached
        DeviceSpec device;
        ComputeModel compute;
        CostModel model = CostModel::Flint;
        ComputeTiming timing = ComputeTiming::Auto;
        bool includeCpuOps = false;
        bool breakCycles = true;
        std::shared_ptr<const void> info;
        std::uint64_t used = 0; ///< the estimate that last used it

        bool matches(const Cluster& cluster, const EstimateOptions& options) const
        {
            return device == cluster.device && compute == cluster.compute && model == cluster.model &&
                   timing == options.timing && includeCpuOps == options.includeCpuOps &&
                   breakCycles == options.breakCycles;
        }
    };

    mutable std::mutex mutex;
    std::unordered_map<const Program*, Entry> entries;
    std::uint64_t estimates = 0;
    std::uint64_t hits = 0;
};

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr double kNotArrived = -1.0;

bool onCommStream(const Op& op)
{
    return op.kind == OpKind::Collective || op.kind == OpKind::Send || op.kind == OpKind::Recv;
}

/// Runs `work(i, thread)` for every i below `count`, on the machine's cores (`thread` numbers them
/// from 0) when `ops`, the size of the work, pays for starting threads; the first exception is
/// rethrown once every thread has stopped (the others stop at their next index).
template <typename Work>
void forEachIndex(std::size_t count, std::size_t ops, Work&& work)
{
    const std::size_t threads =
        ops < 100'000 || count < 2 ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, count);
    std::atomic<std::size_t> next{0};
    const auto run = [&](std::size_t thread) {
        for (std::size_t i = next++; i < count; i = next++)
            work(i, thread);
    };
    std::vector<std::future<void>> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.push_back(std::async(std::launch::async, run, t));
    std::exception_ptr failure;
    try {
        run(0);
    } catch (...) {
        failure = std::current_exception();
        next = count;
    }
    for (auto& helper : helpers)
        helper.wait();
    if (failure)
        std::rethrow_exception(failure);
    for (auto& helper : helpers)
        helper.get(); // rethrows a helper's Cancelled or error
}

/// What the simulator needs from one Program, built once per program.
struct ProgramInfo {
    const Program* program = nullptr;
    std::vector<std::uint32_t> predStart, preds; ///< CSR: predecessors of each op (deduplicated)
    std::vector<std::uint32_t> succStart, succs; ///< CSR: successors
    std::vector<double> computeSeconds;          ///< per op (compute-stream ops)
    std::vector<std::uint32_t> commIndex;        ///< per op: index among comm ops, or kNone
    std::uint32_t commOps = 0;
    /// What the simulation needs of a collective or transfer, per comm op. It reads this, not the op:
    /// a stage of a big pipeline holds tens of megabytes of ops, and reading one is a cache miss.
    struct CommOp {
        std::uint64_t bytes;
        std::int32_t slot;
        CollectiveKind collective;
        bool copyEngines; ///< runsOnCopyEngines: holds no SMs, so slows no compute beside it
    };
    std::vector<CommOp> commOpInfo;
    /// Per op: 1 when it takes a modelled (not a recorded) time on the compute stream, with the
    /// program's own recorded durations.
    std::vector<char> modelledCompute;
    /// Per op: 1 for a host gap (isHostGap), which the breakdown counts as idle; empty without any.
    std::vector<char> hostGap;
    std::vector<std::uint32_t> slotOrdinal; ///< per op: ordinal within its slot sequence
    /// Per slot sequence (index 0 = all ranks, s + 1 = slot s): op indices in program order.
    std::vector<std::vector<std::uint32_t>> slotOps;
    /// Send/recv that name their peer by global rank (commSlot -1): each rank running the program
    /// then stands alone in the symmetry classes.
    bool hasGlobalP2P = false;
    std::uint64_t droppedDependencies = 0;
    /// Every send and recv, in program order (their peers resolve per rank: Workload::peerOf).
    std::vector<std::uint32_t> p2pOps;
    std::vector<std::uint32_t> p2pIndex; ///< per op: index into p2pOps, or kNone
    /// Slots that slot-relative send/recv use.
    std::vector<std::int32_t> p2pSlots;
    /// Every send, for the communication matrix.
    std::vector<std::uint32_t> sends;
    /// Slot-relative send/recv grouped by (slot, peer position): on any one rank, every op of a bucket
    /// has the same peer. Pipelines have two buckets per stage (the stages before and after), so the
    /// pairing of sends with receives, the transfer times and the matrix are worked out per bucket
    /// rather than per op and rank. Empty when the program has send/recv with global peers.
    struct P2pBucket {
        std::int32_t slot = 0;
        std::int32_t position = 0;
        std::vector<std::uint32_t> ops;                          ///< op indices, in program order
        std::vector<std::pair<OpKind, std::uint64_t>> transfers; ///< distinct (kind, bytes)
        double sendBytes = 0.0; ///< summed as double: hostile traces can exceed 2^64 bytes in total
        bool hasSends = false;
    };
    std::vector<P2pBucket> p2pBuckets;
};

ProgramInfo buildProgramInfo(const Program& program, const Cluster& cluster, const EstimateOptions& options)
{
    ProgramInfo info;
    info.program = &program;
    const std::size_t n = program.ops.size();
    DependencyGraph graph = dependencyGraph(program, options.breakCycles);
    info.predStart = std::move(graph.predStart);
    info.preds = std::move(graph.preds);
    info.succStart = std::move(graph.succStart);
    info.succs = std::move(graph.succs);
    info.droppedDependencies = graph.droppedDependencies;

    info.computeSeconds.resize(n, 0.0);
    info.modelledCompute.assign(n, 0);
    info.commIndex.assign(n, kNone);
    info.p2pIndex.assign(n, kNone);
    info.slotOrdinal.assign(n, 0);
    info.slotOps.resize(program.commSlots.size() + 1);
    for (std::uint32_t i = 0; i < n; ++i) {
        const Op& op = program.ops[i];
        if (!onCommStream(op)) {
            info.computeSeconds[i] = computeTime(op, cluster, options);
            info.modelledCompute[i] = usesRecordedTime(op, op.durationMicros, options) ? 0 : 1;
            if (isHostGap(op)) {
                info.hostGap.resize(n, 0);
                info.hostGap[i] = 1;
            }
            continue;
        }
        info.commIndex[i] = info.commOps++;
        info.commOpInfo.push_back({op.commBytes, op.commSlot, op.collective, runsOnCopyEngines(op)});
        if (op.kind == OpKind::Collective) {
            const auto s = static_cast<std::size_t>(op.commSlot) + 1;
            if (s >= info.slotOps.size())
                info.slotOps.resize(s + 1);
            info.slotOrdinal[i] = static_cast<std::uint32_t>(info.slotOps[s].size());
            info.slotOps[s].push_back(i);
        } else {
            info.p2pIndex[i] = static_cast<std::uint32_t>(info.p2pOps.size());
            info.p2pOps.push_back(i);
            if (op.kind == OpKind::Send)
                info.sends.push_back(i);
            if (op.commSlot < 0)
                info.hasGlobalP2P = true;
            else if (std::find(info.p2pSlots.begin(), info.p2pSlots.end(), op.commSlot) == info.p2pSlots.end())
                info.p2pSlots.push_back(op.commSlot);
        }
    }
    if (!info.hasGlobalP2P) {
        std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> bucketOf;
        for (std::uint32_t i : info.p2pOps) {
            const Op& op = program.ops[i];
            const std::int32_t position = op.kind == OpKind::Send ? op.commDst : op.commSrc;
            const auto [it, inserted] = bucketOf.try_emplace({op.commSlot, position}, info.p2pBuckets.size());
            if (inserted)
                info.p2pBuckets.push_back({op.commSlot, position, {}, {}, 0.0, false});
            ProgramInfo::P2pBucket& bucket = info.p2pBuckets[it->second];
            bucket.ops.push_back(i);
            if (op.kind == OpKind::Send) {
                bucket.sendBytes += static_cast<double>(op.commBytes);
                bucket.hasSends = true;
            }
            bucket.transfers.emplace_back(op.kind, op.commBytes);
        }
        for (ProgramInfo::P2pBucket& bucket : info.p2pBuckets) {
            std::sort(bucket.transfers.begin(), bucket.transfers.end());
            bucket.transfers.erase(std::unique(bucket.transfers.begin(), bucket.transfers.end()),
                                   bucket.transfers.end());
        }
    }
    return info;
}

struct CostKey {
    std::uint32_t group; ///< group index, or kWorld
    CollectiveKind kind;
    std::uint64_t bytes;
    const Op* permute; ///< the op, for collective-permutes (their pairs); nullptr otherwise
    bool operator==(const CostKey&) const = default;
};
struct CostKeyHash {
    std::size_t operator()(const CostKey& k) const noexcept
    {
        std::size_t h = std::hash<std::uint64_t>()(k.bytes);
        h ^= (static_cast<std::size_t>(k.group) << 8 | static_cast<std::size_t>(k.kind)) + 0x9e3779b97f4a7c15ull +
             (h << 6) + (h >> 2);
        h ^= std::hash<const void*>()(k.permute) + (h << 6);
        return h;
    }
};

/// Interns vectors of ids to dense ids.
class Interner {
public:
    std::uint32_t id(const std::vector<std::uint64_t>& key)
    {
        const auto [it, inserted] = m_ids.try_emplace(key, static_cast<std::uint32_t>(m_ids.size()));
        return it->second;
    }
    std::size_t size() const { return m_ids.size(); }

private:
    struct Hash {
        std::size_t operator()(const std::vector<std::uint64_t>& v) const noexcept
        {
            std::uint64_t h = 1469598103934665603ull;
            for (std::uint64_t x : v) {
                h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
                h *= 1099511628211ull;
            }
            return static_cast<std::size_t>(h);
        }
    };
    std::unordered_map<std::vector<std::uint64_t>, std::uint32_t, Hash> m_ids;
};

class Simulator {
public:
    Simulator(const Workload& workload, const Cluster& cluster, const EstimateOptions& options,
              const JobControl& control)
        : m_workload(workload)
        , m_cluster(cluster)
        , m_options(options)
        , m_control(control)
        , m_model(cluster)
        , m_ranks(static_cast<std::int32_t>(workload.rankCount()))
        , m_world(static_cast<std::uint32_t>(workload.groups.size()))
    {}

    std::shared_ptr<const EstimateResult> run();

private:
    // ---- setup
    void validate() const;
    void buildProgramInfos();
    void bindGroups();
    void matchPointToPoint();
    /// The rank that `bucket`'s ops address on `rank`, or -1 when the position is out of the group.
    std::int32_t bucketPeer(std::size_t rank, const ProgramInfo::P2pBucket& bucket) const;
    void classify();
    const CollectiveCost& cost(std::uint32_t group, const Op& op);
    /// The cost of a collective of `kind` and `bytes` on `group`; `permute` is the op of a
    /// collective-permute (its pairs), else null.
    const CollectiveCost& cost(std::uint32_t group, CollectiveKind kind, std::uint64_t bytes, const Op* permute);
    const std::vector<std::int32_t>& membersOf(std::uint32_t group) const
    {
        return group == m_world ? m_allRanks : m_workload.groups[group].ranks;
    }
    std::uint32_t groupOf(std::int32_t rank, const Op& op) const { return groupOfSlot(rank, op.commSlot); }
    std::uint32_t groupOfSlot(std::int32_t rank, std::int32_t slot) const
    {
        if (slot < 0)
            return m_world;
        return m_rankSlotGroup[static_cast<std::size_t>(rank)][static_cast<std::size_t>(slot)];
    }

    /// A member's time in a collective: the common duration, or its own when members differ.
    double memberSeconds(const CollectiveCost& cost, std::uint32_t group, std::int32_t rank) const
    {
        if (cost.memberDuration.empty())
            return cost.duration;
        std::vector<std::int32_t> members = membersOf(group);
        std::sort(members.begin(), members.end());
        const auto it = std::lower_bound(members.begin(), members.end(), rank);
        return cost.memberDuration[static_cast<std::size_t>(it - members.begin())];
    }

    // ---- simulation
    /// An op of a class running with a known end.
    struct Running {
        double end;
        std::uint32_t op;
        bool operator>(const Running& o) const { return end != o.end ? end > o.end : op > o.op; }
    };
    /// A collective or transfer this class has reached whose peers have not all arrived: it cannot
    /// end before `bound` (its own arrival plus its duration), which is how far the class may run
    /// ahead of it.
    struct Blocked {
        double bound;
        std::uint32_t op;
        bool operator>(const Blocked& o) const { return bound != o.bound ? bound > o.bound : op > o.op; }
    };
    /// A class that stopped with an op ending at `time` still to handle (see runClass).
    struct Stalled {
        double time;
        std::uint32_t cls;
        bool operator>(const Stalled& o) const { return time != o.time ? time > o.time : cls > o.cls; }
    };
    /// What the simulation keeps per op besides its OpEvent: 16 bytes (the event 32 more, and a
    /// collective or transfer a CommState).
    struct OpState {
        std::uint32_t pending; ///< unfinished predecessors
        /// Until the op starts, the predecessor that ended last (kNone: none); then the op of the same
        /// class that set its start, or kNone.
        std::uint32_t cause;
        /// Of `pending`: sends and receives that have waited for their peer (CommState::external).
        std::uint32_t external;
        CriticalStep::Reason causeReason; ///< how `cause` set the start
    };
    static_assert(sizeof(OpState) == 16);
    struct CommState {
        double arrival;          ///< when this rank reached it, or kNotArrived
        std::uint64_t peerCause; ///< (class << 32 | op) of a peer that set its start, or ~0
        double seconds;          ///< its duration, once it waits for peers
        std::uint32_t missing;   ///< members (or the peer) not yet arrived
        bool waiting;            ///< arrived and waiting for peers
        /// In ClassState::blocked: a collective that waited (it holds a stream), or a send or receive
        /// that waited once a successor depends on nothing else unfinished (see runClass()).
        bool constraining;
        /// A send or receive that waited for its peer, counted in its successors' OpState::external
        /// until it ends.
        bool external;
    };
    struct ClassState {
        std::int32_t rep = 0;
        const ProgramInfo* info = nullptr;
        /// The representative's own recorded times, or null: its ops take info->computeSeconds.
        const RecordedTimes* times = nullptr;
        const std::vector<std::vector<std::uint32_t>>* slotOps = nullptr;
        const std::vector<std::uint32_t>* slotOrdinal = nullptr;
        /// Per op (in m_eventBlock and m_stateBlock: one block each for all classes, see LargeBuffer).
        OpEvent* events = nullptr;
        OpState* ops = nullptr;
        CommState* comm = nullptr; ///< per comm op (ProgramInfo::commIndex)
        std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> computeReady, commReady;
        /// Send/recv whose dependencies are done: they wait for their peer without holding a stream.
        std::vector<std::uint32_t> p2pReady;
        bool computeBusy = false;
        std::uint32_t lastComputeOp = kNone;
        std::vector<std::uint32_t> commStreamOp; ///< per comm stream: running op or kNone
        std::vector<std::uint32_t> lastCommOp;
        std::vector<Running> running; ///< min-heap by end
        /// Min-heap by bound of the ops waiting for peers that hold the class back
        /// (CommState::constraining); entries of released ops are dropped when they reach the top.
        std::vector<Blocked> blocked;
        bool scheduled = false; ///< on the worklist or being run
        /// The instant this pass has handled last for the class: what it does from now on happens
        /// no earlier.
        double clock = 0;
        std::uint64_t done = 0;
        double finish = 0;
        /// Per comm op (ProgramInfo::commIndex): its commSeconds, NaN until first asked.
        std::vector<double> commSeconds;
        /// Per op: seconds a modelled compute op runs longer because communication of this rank
        /// runs alongside it (see contend()); empty in the first pass and without contention.
        std::vector<double> contention;
        /// Per comm op (ProgramInfo::commIndex): seconds it runs longer because transfers beside it
        /// share its links (see shareLinks()); empty in the first pass and when no link was shared.
        std::vector<double> linkShare;
    };

    /// Runs `cls` in time order for as long as nothing it waits for could change what it does: up
    /// to the earliest end its blocked ops could have. `force` handles its next instant regardless
    /// (safe when it is the earliest instant of all classes, see run()).
    void runClass(std::uint32_t cls, bool force);
    /// `op` of `cls` has started at its event.start and runs `seconds`.
    void begin(std::uint32_t cls, std::uint32_t op, double seconds);
    /// `op` of `cls`, blocked until now, has every peer: it starts at its event.start.
    void release(std::uint32_t cls, std::uint32_t op);
    /// `op` of `cls` arrived at `now` and waits for peers; once they are there it runs its
    /// duration plus `shared` (the link sharing of the slowest participant, see shareOf()).
    void block(std::uint32_t cls, std::uint32_t op, double now, double shared = 0)
    {
        ClassState& c = m_classes[cls];
        CommState& state = commOf(c, op);
        state.seconds = commSeconds(cls, op) + shared;
        state.waiting = true;
        if (c.info->p2pIndex[op] == kNone) {
            state.constraining = true;
            c.blocked.push_back(Blocked{now + state.seconds, op});
            std::push_heap(c.blocked.begin(), c.blocked.end(), std::greater<>());
            return;
        }
        state.external = true;
        const ProgramInfo& info = *c.info;
        for (std::uint32_t k = info.succStart[op]; k < info.succStart[op + 1]; ++k) {
            OpState& next = c.ops[info.succs[k]];
            if (++next.external == next.pending)
                constrainBy(c, info.succs[k]);
        }
    }
    /// Every send or receive that `next` of `c` waits for and that waits for its peer now holds its
    /// class back (ClassState::blocked): `next` depends on nothing else unfinished, so when they
    /// end decides when it can start.
    static void constrainBy(ClassState& c, std::uint32_t next)
    {
        const ProgramInfo& info = *c.info;
        for (std::uint32_t k = info.predStart[next]; k < info.predStart[next + 1]; ++k) {
            const std::uint32_t p = info.preds[k];
            if (info.p2pIndex[p] == kNone)
                continue;
            CommState& state = commOf(c, p);
            if (!state.waiting || state.constraining)
                continue;
            state.constraining = true;
            c.blocked.push_back(Blocked{c.events[p].start + state.seconds, p});
            std::push_heap(c.blocked.begin(), c.blocked.end(), std::greater<>());
        }
    }
    /// Records that `op` of `cls`, waiting for a peer's op, learns that op arrived at `time`: the
    /// latest arrival sets the start (and is the peer blamed for it when it is later than its own).
    void seePeer(std::uint32_t cls, std::uint32_t op, std::uint32_t peerClass, std::uint32_t peerOp, double time)
    {
        ClassState& c = m_classes[cls];
        if (time > c.events[op].start) {
            c.events[op].start = time;
            commOf(c, op).peerCause = (static_cast<std::uint64_t>(peerClass) << 32) | peerOp;
        }
    }
    static CommState& commOf(ClassState& c, std::uint32_t op) { return c.comm[c.info->commIndex[op]]; }
    static const CommState& commOf(const ClassState& c, std::uint32_t op) { return c.comm[c.info->commIndex[op]]; }
    /// Seconds `op` of `cls` takes on the compute stream.
    double computeSeconds(const ClassState& c, std::uint32_t op) const
    {
        if (!c.times)
            return c.info->computeSeconds[op];
        return computeTime(c.info->program->ops[op], c.times->durationMicros[op], m_cluster, m_options);
    }
    void startReady(std::uint32_t cls, double now);
    static void setCause(ClassState& c, std::uint32_t op, double now, std::uint32_t streamPredecessor)
    {
        OpState& s = c.ops[op];
        const std::uint32_t readyCause = s.cause;
        const double readyTime = readyCause == kNone ? 0.0 : c.events[readyCause].end;
        if (now > readyTime && streamPredecessor != kNone) {
            s.cause = streamPredecessor;
            s.causeReason = CriticalStep::Reason::Stream;
        } else {
            s.causeReason = readyCause == kNone ? CriticalStep::Reason::Start : CriticalStep::Reason::Dependency;
        }
    }
    void arrive(std::uint32_t cls, std::uint32_t op, std::uint16_t stream, double now);
    /// Counts `op` of `cls` as arrived for the walked rendezvous that wait for it.
    void wakeWaiters(std::uint32_t cls, std::uint32_t op, double now);
    /// Throws when `op` of `cls` and `otherOp` of `otherClass`, the same collective of one group,
    /// differ in kind or (unless lenient) in size.
    void checkAgainst(std::uint32_t cls, std::uint32_t op, std::uint32_t otherClass, std::uint32_t otherOp,
                      std::uint32_t ordinal) const;
    /// `op` of `cls` ended at `end`, handled at the class's instant `now` (later than `end` only for
    /// a transfer whose end did not hold the class back).
    void finishOp(std::uint32_t cls, std::uint32_t op, double end, double now);
    /// Seconds `op` of `cls`, a collective or transfer, takes once every peer is there.
    double commSeconds(std::uint32_t cls, std::uint32_t op);
    double modelledCommSeconds(std::uint32_t cls, std::uint32_t op);
    /// The op of its peer's program that pairs with send/recv `op` of `cls`, or kNone.
    std::uint32_t matchingP2p(std::uint32_t cls, std::uint32_t op) const
    {
        const ClassState& c = m_classes[cls];
        const std::uint32_t id = m_p2pMatchOf[static_cast<std::size_t>(c.rep)];
        if (id == kNone)
            return kNone;
        const auto& match = m_p2pMatches[id];
        const std::uint32_t k = c.info->p2pIndex[op];
        return k < match.size() ? match[k] : kNone;
    }
    bool isP2p(const Op& o) const { return o.kind == OpKind::Send || o.kind == OpKind::Recv; }
    /// Places every class's per-op state in one block each (m_eventBlock, m_stateBlock).
    void allocateOpState(std::uint64_t commOps);
    /// Sets every class's per-op state to the step's start and runs the step to its end (a pass).
    void simulate();
    /// After a pass: the extra time of each class's modelled compute ops from the communication that
    /// ran alongside them (ClassState::contention); false when nothing overlapped.
    bool contend(double slowdown);
    /// After a pass: the extra time of each class's modelled collectives and transfers from the
    /// others that shared their links with them (ClassState::linkShare); false when no link
    /// carried more than it can.
    bool shareLinks();
    /// Seconds `op` of `cls` (a collective or transfer) runs longer for sharing its links. A
    /// collective or transfer ends together for all its participants: each takes the largest of
    /// theirs (a ring runs at the pace of its slowest link).
    static double shareOf(const ClassState& c, std::uint32_t op)
    {
        return c.linkShare.empty() ? 0.0 : c.linkShare[c.info->commIndex[op]];
    }
    /// Whether `op` of `c` takes a modelled time (not a recorded one) on the compute stream.
    bool modelledCompute(const ClassState& c, std::uint32_t op) const;
    [[noreturn]] void reportDeadlock();
    std::string describeOp(std::uint32_t cls, std::uint32_t op) const;
    std::string rankList(const std::vector<std::int32_t>& ranks) const;

    // ---- results
    void buildResult(EstimateResult& result);
    void buildCommMatrix(EstimateResult& result);
    /// Leaves this estimate's program infos in `cache` for the next estimate (EstimateOptions::cache).
    void keepInCache(EstimateCache& cache) const;
    void buildCriticalPath(EstimateResult& result);

    const Workload& m_workload;
    const Cluster& m_cluster;
    const EstimateOptions& m_options;
    const JobControl& m_control;
    CollectiveModel m_model;
    /// The last pass ran with transfers lengthened for sharing their links (shareLinks()).
    bool m_linksShared = false;
    std::int32_t m_ranks;
    std::uint32_t m_world;
    std::vector<std::int32_t> m_allRanks;

    std::vector<std::shared_ptr<const ProgramInfo>> m_programs;
    LargeBuffer m_eventBlock; ///< every class's OpEvents, class after class (the result keeps it)
    LargeBuffer m_stateBlock; ///< every class's CommStates, then every class's OpStates
    /// Per rank and slot: group index.
    std::vector<std::vector<std::uint32_t>> m_rankSlotGroup;
    /// Slot sequences for ranks whose slots share a group (merged in program order), by rank.
    std::vector<std::shared_ptr<std::vector<std::vector<std::uint32_t>>>> m_mergedSlotOps;
    std::vector<std::shared_ptr<std::vector<std::uint32_t>>> m_mergedOrdinal;
    /// Per rank: its slot sequence index for each group it uses (sIdx), via a small map.
    std::vector<std::uint32_t> m_rankClass;
    /// Distinct pairings of send/recv: per send/recv of a program (ProgramInfo::p2pIndex), the op of
    /// the peer's program that pairs with it, or kNone.
    std::vector<std::vector<std::uint32_t>> m_p2pMatches;
    /// Per rank: its pairing in m_p2pMatches, or kNone for ranks whose program has no send/recv.
    std::vector<std::uint32_t> m_p2pMatchOf;
    /// Per rank: whether its send/recv were paired bucket by bucket (each bucket its own peer).
    std::vector<char> m_p2pByBucket;
    std::vector<ClassState> m_classes;
    /// What a collective's arrival needs to know of its group, built on its first collective.
    struct GroupMembers {
        bool built = false;
        /// Whether its rendezvous can be counted (every class appears once among its members, at the
        /// slot sequence its representative binds the group to).
        bool countable = false;
        /// Distinct (class, slot sequence) among its members.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> classes;
    };
    /// Per group (m_world last): indexed, not hashed, since every collective of the step looks here.
    std::vector<GroupMembers> m_groupMembers;
    /// A collective of a countable group in flight: arrivals so far, in order, and the first one
    /// (what later ones are checked against). Keyed by group << 32 | ordinal.
    struct Rendezvous {
        std::uint32_t expected = 0;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> arrived;
        double latest = 0; ///< the latest arrival so far (classes run ahead: not always the last one)
        std::pair<std::uint32_t, std::uint32_t> latestBy;
    };
    std::unordered_map<std::uint64_t, Rendezvous> m_rendezvous;
    std::unordered_map<CostKey, CollectiveCost, CostKeyHash> m_costs;
    std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_waiters;
    /// Classes to run (see runClass); classes that stopped with work left, by their next instant.
    std::vector<std::uint32_t> m_worklist;
    std::priority_queue<Stalled, std::vector<Stalled>, std::greater<>> m_stalled;
    std::uint64_t m_processed = 0;
    std::uint64_t m_totalOps = 0;
    /// Progress reported over a pass: from m_progressBase, m_progressSpan for all of m_totalOps.
    double m_progressBase = 0.05, m_progressSpan = 0.85;

    std::uint32_t sequenceOf(std::int32_t rank, std::uint32_t group) const;
};

void Simulator::validate() const
{
    if (const std::string problem = m_cluster.validate(); !problem.empty())
        throw InputError(m_cluster.name.empty() ? "cluster" : m_cluster.name, problem);
    if (const std::string problem = m_workload.validate(); !problem.empty())
        throw InputError("workload", problem);
    if (m_workload.rankCount() == 0)
        throw InputError("workload", "the workload has no ranks");
    if (static_cast<std::int64_t>(m_workload.rankCount()) > m_cluster.topology.npuCount())
        throw InputError(m_cluster.name.empty() ? "cluster" : m_cluster.name,
                         "the workload has " + std::to_string(m_workload.rankCount()) +
                             " ranks but the topology holds " + std::to_string(m_cluster.topology.npuCount()) +
                             " NPUs (" + m_cluster.topology.describe() + ")");
}

void Simulator::bindGroups()
{
    m_allRanks.resize(static_cast<std::size_t>(m_ranks));
    std::iota(m_allRanks.begin(), m_allRanks.end(), 0);
    // A group is a communicator: collectives match in issue order within one group index only.
    // Readers that know identical device sets to be one communicator (HLO, built-in models) give
    // them one index; a Chakra trace's process groups stay apart even with the same members (two
    // NCCL communicators over all ranks are two), and neither is folded into the implicit world of
    // ops without a group.
    m_rankSlotGroup.resize(static_cast<std::size_t>(m_ranks));
    m_mergedSlotOps.resize(static_cast<std::size_t>(m_ranks));
    m_mergedOrdinal.resize(static_cast<std::size_t>(m_ranks));
    // Ranks with the same program and the same pattern of slots sharing a group share merged sequences.
    std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>,
             std::pair<std::shared_ptr<std::vector<std::vector<std::uint32_t>>>,
                       std::shared_ptr<std::vector<std::uint32_t>>>>
        merged;
    for (std::int32_t r = 0; r < m_ranks; ++r) {
        const RankBinding& binding = m_workload.ranks[static_cast<std::size_t>(r)];
        auto& groups = m_rankSlotGroup[static_cast<std::size_t>(r)];
        groups.resize(binding.slotGroups.size());
        for (std::size_t s = 0; s < groups.size(); ++s)
            groups[s] = binding.slotGroups[s];
        // Canonical sequence per slot: the first sequence index with the same group.
        std::vector<std::uint32_t> canonical(groups.size() + 1);
        bool collision = false;
        canonical[0] = 0;
        for (std::size_t s = 0; s < groups.size(); ++s) {
            canonical[s + 1] = static_cast<std::uint32_t>(s + 1);
            for (std::size_t t = 0; t < s; ++t)
                if (groups[t] == groups[s]) {
                    canonical[s + 1] = canonical[t + 1];
                    collision = true;
                    break;
                }
        }
        if (!collision)
            continue;
        auto& entry = merged[{binding.program, canonical}];
        if (!entry.first) {
            const ProgramInfo& info = *m_programs[binding.program];
            const Program& program = *info.program;
            entry.first = std::make_shared<std::vector<std::vector<std::uint32_t>>>(info.slotOps.size());
            entry.second = std::make_shared<std::vector<std::uint32_t>>(program.ops.size(), 0);
            for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
                const Op& op = program.ops[i];
                if (op.kind != OpKind::Collective)
                    continue;
                const std::uint32_t seq = canonical[static_cast<std::size_t>(op.commSlot) + 1];
                (*entry.second)[i] = static_cast<std::uint32_t>((*entry.first)[seq].size());
                (*entry.first)[seq].push_back(i);
            }
        }
        m_mergedSlotOps[static_cast<std::size_t>(r)] = entry.first;
        m_mergedOrdinal[static_cast<std::size_t>(r)] = entry.second;
    }
}

std::uint32_t Simulator::sequenceOf(std::int32_t rank, std::uint32_t group) const
{
    // The first slot sequence of `rank` bound to `group` (0 = its ops over all ranks).
    if (group == m_world)
        return 0;
    const auto& groups = m_rankSlotGroup[static_cast<std::size_t>(rank)];
    for (std::size_t s = 0; s < groups.size(); ++s)
        if (groups[s] == group)
            return static_cast<std::uint32_t>(s + 1);
    return kNone;
}

const CollectiveCost& Simulator::cost(std::uint32_t group, const Op& op)
{
    const bool permute = op.collective == CollectiveKind::CollectivePermute;
    return cost(group, op.collective, op.commBytes, permute ? &op : nullptr);
}

const CollectiveCost& Simulator::cost(std::uint32_t group, CollectiveKind kind, std::uint64_t bytes, const Op* permute)
{
    CostKey key{group, kind, bytes, permute};
    auto it = m_costs.find(key);
    if (it == m_costs.end()) {
        std::vector<std::int32_t> members = membersOf(group);
        std::sort(members.begin(), members.end());
        static const std::vector<std::pair<std::int32_t, std::int32_t>> noPairs;
        it = m_costs
                 .emplace(key, m_model.collective(kind, bytes, members,
                                                  permute ? permute->extras.get().sourceTargetPairs : noPairs))
                 .first;
    }
    return it->second;
}

void Simulator::buildProgramInfos()
{
    // Programs are independent: a pipeline's stages (or a trace's distinct ranks) on the machine's
    // cores once there is enough work to pay for the threads.
    const auto& programs = m_workload.programs;
    m_programs.resize(programs.size());
    // What an earlier estimate worked out for the same program under the same compute model (a
    // what-if edit of the network changes neither): taken as it is.
    if (m_options.cache) {
        EstimateCache::State& cache = m_options.cache->state();
        const std::lock_guard lock(cache.mutex);
        for (std::size_t p = 0; p < programs.size(); ++p)
            if (const auto it = cache.entries.find(programs[p].get());
                it != cache.entries.end() && it->second.matches(m_cluster, m_options)) {
                m_programs[p] = std::static_pointer_cast<const ProgramInfo>(it->second.info);
                ++cache.hits;
            }
    }
    std::size_t ops = 0; // to work out: the cached programs cost nothing
    for (std::size_t p = 0; p < programs.size(); ++p)
        ops += m_programs[p] ? 0 : programs[p]->ops.size();
    forEachIndex(programs.size(), ops, [&](std::size_t p, std::size_t) {
        m_control.check();
        if (!m_programs[p])
            m_programs[p] = std::make_shared<const ProgramInfo>(buildProgramInfo(*programs[p], m_cluster, m_options));
    });
    if (m_options.cache)
        keepInCache(*m_options.cache);
}

void Simulator::keepInCache(EstimateCache& cache) const
{
    EstimateCache::State& state = cache.state();
    const std::lock_guard lock(state.mutex);
    ++state.estimates;
    const auto& programs = m_workload.programs;
    for (std::size_t p = 0; p < programs.size(); ++p) {
        EstimateCache::State::Entry& e = state.entries[programs[p].get()];
        if (e.info != m_programs[p])
            e = EstimateCache::State::Entry{programs[p],           m_cluster.device, m_cluster.compute,
                                            m_cluster.model,       m_options.timing, m_options.includeCpuOps,
                                            m_options.breakCycles, m_programs[p],    0};
        e.used = state.estimates;
    }
    // The programs of the last three estimates stay (the explorer's current workload and the two
    // before, which an undo, a redo or an A/B toggle bring back: the model compiler keeps as many
    // compiled models); older ones go, with their memory.
    std::erase_if(state.entries, [&state](const auto& entry) { return entry.second.used + 3 <= state.estimates; });
}

std::int32_t Simulator::bucketPeer(std::size_t rank, const ProgramInfo::P2pBucket& bucket) const
{
    const RankBinding& binding = m_workload.ranks[rank];
    const auto slot = static_cast<std::size_t>(bucket.slot);
    if (slot >= binding.slotGroups.size())
        return -1;
    const auto& members = m_workload.groups[binding.slotGroups[slot]].ranks;
    if (bucket.position < 0 || static_cast<std::size_t>(bucket.position) >= members.size())
        return -1;
    return members[static_cast<std::size_t>(bucket.position)];
}

void Simulator::matchPointToPoint()
{
    // The k-th send from a to b with tag t pairs with the k-th recv on b from a with tag t, peers
    // resolved to global ranks: which op pairs with which depends on the rank for slot-relative peers.
    //
    // Where each bucket of a rank (ProgramInfo::P2pBucket) has its own peer and that peer has exactly
    // one bucket whose ops address the rank, a k-th (kind, peer, tag) is a k-th (kind, tag) of the
    // bucket: the pairing is that of two buckets, worked out once per pair and shared by every rank
    // with the same pairs (all ranks of a pipeline stage). Other ranks are paired op by op.
    constexpr std::size_t kMaxBuckets = 16; // beyond this, pairing buckets could cost more than ops
    const std::size_t ranks = static_cast<std::size_t>(m_ranks);
    struct Endpoint {
        std::tuple<int, std::int32_t, std::int32_t, std::uint32_t> key; ///< (kind, peer, tag, ordinal)
        std::uint32_t op;
        bool operator<(const Endpoint& o) const { return key < o.key; }
    };
    std::vector<std::vector<Endpoint>> endpoints(ranks);
    std::vector<char> listed(ranks, 0);
    const auto endpointsOf = [&](std::size_t r) -> const std::vector<Endpoint>& {
        if (listed[r])
            return endpoints[r];
        listed[r] = 1;
        const ProgramInfo& info = *m_programs[m_workload.ranks[r].program];
        std::map<std::tuple<int, std::int32_t, std::int32_t>, std::uint32_t> seen;
        auto& list = endpoints[r];
        list.reserve(info.p2pOps.size());
        for (std::uint32_t i : info.p2pOps) {
            const Op& op = info.program->ops[i];
            const std::int32_t peer = m_workload.peerOf(r, op);
            const std::uint32_t ordinal = seen[{static_cast<int>(op.kind), peer, op.commTag}]++;
            list.push_back({{static_cast<int>(op.kind), peer, op.commTag, ordinal}, i});
        }
        std::sort(list.begin(), list.end());
        return list;
    };
    const auto opposite = [](int kind) {
        return static_cast<int>(kind == static_cast<int>(OpKind::Send) ? OpKind::Recv : OpKind::Send);
    };
    const auto matchOneByOne = [&](std::size_t r) {
        const ProgramInfo& info = *m_programs[m_workload.ranks[r].program];
        std::vector<std::uint32_t> match(info.p2pOps.size(), kNone);
        for (const Endpoint& e : endpointsOf(r)) {
            const auto& [kind, peer, tag, ordinal] = e.key;
            if (peer < 0 || peer >= m_ranks || static_cast<std::size_t>(peer) == r)
                continue;
            const auto& theirs = endpointsOf(static_cast<std::size_t>(peer));
            const Endpoint probe{{opposite(kind), static_cast<std::int32_t>(r), tag, ordinal}, 0};
            const auto it = std::lower_bound(theirs.begin(), theirs.end(), probe);
            if (it != theirs.end() && it->key == probe.key)
                match[info.p2pIndex[e.op]] = it->op;
        }
        return match;
    };
    // Bucket `b` of program `p` against bucket `c` of program `q`: per op of b, the op of q, or kNone.
    std::map<std::array<std::uint32_t, 4>, std::vector<std::uint32_t>> bucketPairs;
    const auto pairBuckets = [&](std::uint32_t p, std::uint32_t b, std::uint32_t q,
                                 std::uint32_t c) -> const std::vector<std::uint32_t>& {
        const auto [it, inserted] = bucketPairs.try_emplace({p, b, q, c});
        if (!inserted)
            return it->second;
        using Key = std::tuple<int, std::int32_t, std::uint32_t>; // (kind, tag, ordinal)
        const auto keyed = [](const ProgramInfo& info, const ProgramInfo::P2pBucket& bucket) {
            std::vector<std::pair<Key, std::uint32_t>> list;
            std::map<std::pair<int, std::int32_t>, std::uint32_t> seen;
            list.reserve(bucket.ops.size());
            for (std::uint32_t i : bucket.ops) {
                const Op& op = info.program->ops[i];
                list.push_back(
                    {{static_cast<int>(op.kind), op.commTag, seen[{static_cast<int>(op.kind), op.commTag}]++}, i});
            }
            return list;
        };
        const auto mine = keyed(*m_programs[p], m_programs[p]->p2pBuckets[b]);
        auto theirs = keyed(*m_programs[q], m_programs[q]->p2pBuckets[c]);
        std::sort(theirs.begin(), theirs.end());
        std::vector<std::uint32_t>& paired = it->second;
        paired.assign(mine.size(), kNone);
        for (std::size_t k = 0; k < mine.size(); ++k) {
            const auto& [kind, tag, ordinal] = mine[k].first;
            const std::pair<Key, std::uint32_t> probe{{opposite(kind), tag, ordinal}, 0};
            const auto found = std::lower_bound(theirs.begin(), theirs.end(), probe);
            if (found != theirs.end() && found->first == probe.first)
                paired[k] = found->second;
        }
        return paired;
    };
    // Distinct pairings by content, and by (program, per bucket: peer's program and bucket).
    std::map<std::vector<std::uint32_t>, std::uint32_t> byContent;
    const auto intern = [&](std::vector<std::uint32_t> match) {
        const auto [it, inserted] =
            byContent.try_emplace(std::move(match), static_cast<std::uint32_t>(m_p2pMatches.size()));
        if (inserted)
            m_p2pMatches.push_back(it->first);
        return it->second;
    };
    std::map<std::vector<std::uint32_t>, std::uint32_t> byBuckets;
    m_p2pMatchOf.assign(ranks, kNone);
    m_p2pByBucket.assign(ranks, 0);
    std::vector<std::uint32_t> key;
    std::vector<std::int32_t> peers;
    for (std::size_t r = 0; r < ranks; ++r) {
        const std::uint32_t p = m_workload.ranks[r].program;
        const ProgramInfo& info = *m_programs[p];
        if (info.p2pOps.empty())
            continue;
        if ((r & 1023) == 0)
            m_control.check();
        const auto valid = [&](std::int32_t peer) {
            return peer >= 0 && peer < m_ranks && static_cast<std::size_t>(peer) != r;
        };
        bool byBucket = !info.hasGlobalP2P && info.p2pBuckets.size() <= kMaxBuckets;
        peers.clear();
        for (std::size_t b = 0; byBucket && b < info.p2pBuckets.size(); ++b) {
            const std::int32_t peer = bucketPeer(r, info.p2pBuckets[b]);
            byBucket = !valid(peer) || std::find(peers.begin(), peers.end(), peer) == peers.end();
            peers.push_back(peer);
        }
        key.assign(1, p);
        for (std::size_t b = 0; byBucket && b < info.p2pBuckets.size(); ++b) {
            const std::int32_t peer = peers[b];
            if (!valid(peer)) {
                key.insert(key.end(), {kNone, kNone});
                continue;
            }
            const std::uint32_t q = m_workload.ranks[static_cast<std::size_t>(peer)].program;
            const ProgramInfo& theirs = *m_programs[q];
            byBucket = !theirs.hasGlobalP2P && theirs.p2pBuckets.size() <= kMaxBuckets;
            std::uint32_t back = kNone;
            for (std::uint32_t c = 0; byBucket && c < theirs.p2pBuckets.size(); ++c)
                if (bucketPeer(static_cast<std::size_t>(peer), theirs.p2pBuckets[c]) == static_cast<std::int32_t>(r)) {
                    byBucket = back == kNone;
                    back = c;
                }
            key.insert(key.end(), {q, back});
        }
        if (!byBucket) {
            m_p2pMatchOf[r] = intern(matchOneByOne(r));
            continue;
        }
        m_p2pByBucket[r] = 1;
        const auto [it, inserted] = byBuckets.try_emplace(key, 0);
        if (inserted) {
            std::vector<std::uint32_t> match(info.p2pOps.size(), kNone);
            for (std::uint32_t b = 0; b < info.p2pBuckets.size(); ++b) {
                const std::uint32_t q = key[1 + 2 * b], c = key[2 + 2 * b];
                if (c == kNone)
                    continue;
                const auto& ops = info.p2pBuckets[b].ops;
                const std::vector<std::uint32_t>& paired = pairBuckets(p, b, q, c);
                for (std::size_t k = 0; k < ops.size(); ++k)
                    match[info.p2pIndex[ops[k]]] = paired[k];
            }
            it->second = intern(std::move(match));
        }
        m_p2pMatchOf[r] = it->second;
    }
}

void Simulator::classify()
{
    const std::size_t ranks = static_cast<std::size_t>(m_ranks);
    m_rankClass.assign(ranks, 0);
    if (!m_options.exploitSymmetry || m_options.recordedCommunication) {
        std::iota(m_rankClass.begin(), m_rankClass.end(), 0u);
        return;
    }
    // Colour refinement. Initial colour: program, merged-sequence pattern, and the rank itself for
    // programs with send/recv that name peers by global rank (each such rank stands alone). For
    // slot-relative send/recv, the transfer times (they depend on where the peer sits in the topology)
    // and the op of the peer's program each one pairs with; who the peer is follows from the rank's
    // position and its group's ordered colours, added in every round below.
    std::vector<std::uint32_t> colour(ranks);
    {
        Interner interner;
        Interner transfers;
        std::vector<std::uint64_t> signature;
        for (std::size_t r = 0; r < ranks; ++r) {
            const RankBinding& b = m_workload.ranks[r];
            const ProgramInfo& info = *m_programs[b.program];
            std::uint64_t p2p = ~std::uint64_t{0};
            if (info.hasGlobalP2P) {
                p2p = r;
            } else if (!info.p2pOps.empty()) {
                const auto self = static_cast<std::int32_t>(r);
                const auto seconds = [&](OpKind kind, std::int32_t peer, std::uint64_t bytes) {
                    const bool valid = peer >= 0 && peer < m_ranks && peer != self;
                    const double s = !valid                 ? -1.0
                                     : kind == OpKind::Send ? m_model.sendRecv(self, peer, bytes)
                                                            : m_model.sendRecv(peer, self, bytes);
                    std::uint64_t bits;
                    std::memcpy(&bits, &s, sizeof bits);
                    signature.push_back(bits);
                };
                signature.assign({m_p2pByBucket[r] ? 1u : 0u, m_p2pMatchOf[r]});
                if (m_p2pByBucket[r]) {
                    // A bucket's ops share their peer: one time per distinct (kind, bytes).
                    for (const ProgramInfo::P2pBucket& bucket : info.p2pBuckets) {
                        const std::int32_t peer = bucketPeer(r, bucket);
                        for (const auto& [kind, bytes] : bucket.transfers)
                            seconds(kind, peer, bytes);
                    }
                } else {
                    for (std::uint32_t i : info.p2pOps) {
                        const Op& op = info.program->ops[i];
                        seconds(op.kind, m_workload.peerOf(r, op), op.commBytes);
                    }
                }
                p2p = std::uint64_t{1} << 63 | transfers.id(signature);
            }
            // Ranks with their own recorded times are alike only when they share them.
            colour[r] = interner.id({b.program, reinterpret_cast<std::uintptr_t>(m_mergedSlotOps[r].get()), p2p,
                                     reinterpret_cast<std::uintptr_t>(b.times.get())});
        }
    }
    // Per program and slot sequence: the distinct (kind, bytes) of its collectives, so that a slot's
    // cost signature is the list of their durations on the rank's group.
    std::vector<std::vector<std::vector<const Op*>>> usage(m_programs.size());
    for (std::size_t p = 0; p < m_programs.size(); ++p) {
        const Program& program = *m_programs[p]->program;
        usage[p].resize(m_programs[p]->slotOps.size());
        std::vector<std::map<std::pair<int, std::uint64_t>, const Op*>> seen(usage[p].size());
        for (const Op& op : program.ops)
            if (op.kind == OpKind::Collective) {
                const auto s = static_cast<std::size_t>(op.commSlot) + 1;
                const bool permute = op.collective == CollectiveKind::CollectivePermute;
                const std::pair<int, std::uint64_t> k{static_cast<int>(op.collective),
                                                      permute ? reinterpret_cast<std::uintptr_t>(&op) : op.commBytes};
                if (seen[s].emplace(k, &op).second)
                    usage[p][s].push_back(&op);
            }
    }
    std::size_t classes = 0;
    for (std::size_t r = 0; r < ranks; ++r)
        classes = std::max<std::size_t>(classes, colour[r] + 1);
    // Per rank: its position in the group of each slot its slot-relative send/recv use.
    std::vector<std::vector<std::uint32_t>> p2pPosition(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
        const RankBinding& b = m_workload.ranks[r];
        for (std::int32_t slot : m_programs[b.program]->p2pSlots) {
            const auto& members = m_workload.groups[b.slotGroups[static_cast<std::size_t>(slot)]].ranks;
            p2pPosition[r].push_back(static_cast<std::uint32_t>(
                std::find(members.begin(), members.end(), static_cast<std::int32_t>(r)) - members.begin()));
        }
    }
    Interner durationSigs;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::size_t>, std::uint32_t> slotSig; // (group, program, seq)
    for (int iteration = 0; iteration < 64; ++iteration) {
        m_control.check();
        // Member multiset of every group, by colour.
        std::vector<std::uint32_t> groupSig(m_workload.groups.size() + 1);
        Interner multisets;
        std::vector<std::uint64_t> key;
        for (std::uint32_t g = 0; g <= m_workload.groups.size(); ++g) {
            const auto& members = membersOf(g);
            key.assign(members.size(), 0);
            for (std::size_t i = 0; i < members.size(); ++i)
                key[i] = colour[static_cast<std::size_t>(members[i])];
            std::sort(key.begin(), key.end());
            groupSig[g] = multisets.id(key);
        }
        // Member colours in group order, for groups that slot-relative send/recv use (on first use).
        std::unordered_map<std::uint32_t, std::uint32_t> orderedSig;
        Interner sequences;
        Interner next;
        std::vector<std::uint32_t> refined(ranks);
        for (std::size_t r = 0; r < ranks; ++r) {
            const RankBinding& b = m_workload.ranks[r];
            const ProgramInfo& info = *m_programs[b.program];
            key.clear();
            key.push_back(colour[r]);
            for (std::size_t s = 0; s < info.slotOps.size(); ++s) {
                if (info.slotOps[s].empty())
                    continue;
                const std::uint32_t g = s == 0 ? m_world : m_rankSlotGroup[r][s - 1];
                const auto sigKey = std::make_tuple(g, b.program, s);
                auto it = slotSig.find(sigKey);
                if (it == slotSig.end()) {
                    // The durations of the slot's collectives for this rank; shared by every rank of the
                    // group unless some member's duration differs (then kept per rank).
                    std::vector<std::uint64_t> durations;
                    bool uniform = true;
                    for (const Op* op : usage[b.program][s]) {
                        const CollectiveCost& c = cost(g, *op);
                        uniform = uniform && c.memberDuration.empty();
                        const double d = memberSeconds(c, g, static_cast<std::int32_t>(r));
                        std::uint64_t bits;
                        std::memcpy(&bits, &d, sizeof bits);
                        durations.push_back(bits);
                    }
                    const std::uint32_t sig = durationSigs.id(durations);
                    if (!uniform) {
                        key.push_back(sig);
                        key.push_back(groupSig[g]);
                        continue;
                    }
                    it = slotSig.emplace(sigKey, sig).first;
                }
                key.push_back(it->second);
                key.push_back(groupSig[g]);
            }
            // Slot-relative send/recv: the rank's position in the group and its members' colours in
            // order (a transfer's peer is the member at a position, not just one of the multiset).
            for (std::size_t k = 0; k < info.p2pSlots.size(); ++k) {
                const std::uint32_t g = b.slotGroups[static_cast<std::size_t>(info.p2pSlots[k])];
                auto [it, inserted] = orderedSig.try_emplace(g, 0);
                if (inserted) {
                    std::vector<std::uint64_t> ordered;
                    ordered.reserve(m_workload.groups[g].ranks.size());
                    for (std::int32_t m : m_workload.groups[g].ranks)
                        ordered.push_back(colour[static_cast<std::size_t>(m)]);
                    it->second = sequences.id(ordered);
                }
                key.push_back(p2pPosition[r][k]);
                key.push_back(it->second);
            }
            refined[r] = next.id(key);
        }
        const bool stable = next.size() == classes;
        classes = next.size();
        colour.swap(refined);
        if (stable)
            break;
    }
    m_rankClass = colour;
}

std::string Simulator::rankList(const std::vector<std::int32_t>& ranks) const
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(ranks.size(), 16);
    for (std::size_t i = 0; i < shown; ++i)
        out += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > shown)
        out += ", ... (" + std::to_string(ranks.size()) + " ranks)";
    return out;
}

std::string Simulator::describeOp(std::uint32_t cls, std::uint32_t op) const
{
    const ClassState& c = m_classes[cls];
    const Op& o = c.info->program->ops[op];
    std::string text = "'" + o.name + "' (id " + std::to_string(o.id) + ", ";
    if (o.kind == OpKind::Collective)
        text += std::string(chakraName(o.collective));
    else
        text += std::string(chakraName(o.kind));
    return text + ")";
}

double Simulator::commSeconds(std::uint32_t cls, std::uint32_t op)
{
    // The same in every pass: worked out once per op of a class.
    ClassState& c = m_classes[cls];
    double& cached = c.commSeconds[c.info->commIndex[op]];
    if (std::isnan(cached))
        cached = modelledCommSeconds(cls, op);
    return cached;
}

double Simulator::modelledCommSeconds(std::uint32_t cls, std::uint32_t op)
{
    ClassState& c = m_classes[cls];
    const ProgramInfo::CommOp& info = c.info->commOpInfo[c.info->commIndex[op]];
    if (!m_options.recordedCommunication && c.info->p2pIndex[op] == kNone &&
        info.collective != CollectiveKind::CollectivePermute) {
        // The common case, without reading the op.
        const std::uint32_t group = groupOfSlot(c.rep, info.slot);
        return memberSeconds(cost(group, info.collective, info.bytes, nullptr), group, c.rep);
    }
    const Op& o = c.info->program->ops[op];
    if (m_options.recordedCommunication) {
        const std::uint64_t micros = c.times ? c.times->durationMicros[op] : o.durationMicros;
        if (micros > 0)
            return static_cast<double>(micros) * 1e-6;
    }
    if (o.kind == OpKind::Collective)
        return memberSeconds(cost(groupOf(c.rep, o), o), groupOf(c.rep, o), c.rep);
    const std::int32_t peer = m_workload.peerOf(static_cast<std::size_t>(c.rep), o);
    return o.kind == OpKind::Send ? m_model.sendRecv(c.rep, peer, o.commBytes)
                                  : m_model.sendRecv(peer, c.rep, o.commBytes);
}

void Simulator::startReady(std::uint32_t cls, double now)
{
    ClassState& c = m_classes[cls];
    if (!c.computeBusy && !c.computeReady.empty()) {
        const std::uint32_t op = c.computeReady.top();
        c.computeReady.pop();
        c.computeBusy = true;
        OpEvent& e = c.events[op];
        e.stream = 0;
        e.ready = now;
        e.start = now;
        setCause(c, op, now, c.lastComputeOp);
        begin(cls, op, computeSeconds(c, op) + (c.contention.empty() ? 0.0 : c.contention[op]));
    }
    // Send/recv start waiting for their peer at once, on no collective stream.
    if (!c.p2pReady.empty()) {
        std::vector<std::uint32_t> ready;
        ready.swap(c.p2pReady);
        std::sort(ready.begin(), ready.end());
        for (std::uint32_t op : ready) {
            setCause(c, op, now, kNone);
            arrive(cls, op, static_cast<std::uint16_t>(c.commStreamOp.size() + 1), now);
        }
    }
    for (std::size_t s = 0; s < c.commStreamOp.size() && !c.commReady.empty(); ++s) {
        if (c.commStreamOp[s] != kNone)
            continue;
        const std::uint32_t op = c.commReady.top();
        c.commReady.pop();
        c.commStreamOp[s] = op;
        setCause(c, op, now, c.lastCommOp[s]);
        arrive(cls, op, static_cast<std::uint16_t>(s + 1), now);
    }
}

void Simulator::checkAgainst(std::uint32_t cls, std::uint32_t op, std::uint32_t otherClass, std::uint32_t otherOp,
                             std::uint32_t ordinal) const
{
    // Name the lower rank first, whichever arrived first.
    if (m_classes[otherClass].rep < m_classes[cls].rep) {
        std::swap(cls, otherClass);
        std::swap(op, otherOp);
    }
    const ClassState& c = m_classes[cls];
    const ClassState& other = m_classes[otherClass];
    const Op& o = c.info->program->ops[op];
    const Op& theirs = other.info->program->ops[otherOp];
    if (theirs.collective != o.collective)
        throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                         "collective mismatch: rank " + std::to_string(c.rep) + " reaches " + describeOp(cls, op) +
                             " as collective #" + std::to_string(ordinal + 1) + " of its group while rank " +
                             std::to_string(other.rep) + " reaches " + describeOp(otherClass, otherOp) + " there");
    if (m_options.checkSizes && theirs.commBytes != o.commBytes && o.collective != CollectiveKind::AllToAll &&
        o.collective != CollectiveKind::CollectivePermute)
        throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                         "collective size mismatch: rank " + std::to_string(c.rep) + "'s " + describeOp(cls, op) +
                             " has comm_size " + std::to_string(o.commBytes) + " bytes, rank " +
                             std::to_string(other.rep) + "'s " + describeOp(otherClass, otherOp) + " " +
                             std::to_string(theirs.commBytes) +
                             " (members must agree; --lenient uses each member's own)");
}

void Simulator::arrive(std::uint32_t cls, std::uint32_t op, std::uint16_t stream, double now)
{
    ClassState& c = m_classes[cls];
    OpEvent& e = c.events[op];
    e.stream = stream;
    e.ready = now;
    e.start = now;
    CommState& state = commOf(c, op);
    state.arrival = now;

    // Which ops of which classes this op waits for: (class, op) pairs. A peer that arrived already
    // may have arrived later than now: classes run ahead of each other.
    std::uint32_t missing = 0;
    double shared = shareOf(c, op);
    const auto need = [&](std::uint32_t otherClass, std::uint32_t otherOp) {
        if (otherClass == cls && otherOp == op)
            return;
        shared = std::max(shared, shareOf(m_classes[otherClass], otherOp));
        if (const double arrival = commOf(m_classes[otherClass], otherOp).arrival; arrival != kNotArrived) {
            seePeer(cls, op, otherClass, otherOp, arrival);
            return;
        }
        ++missing;
        m_waiters[(static_cast<std::uint64_t>(otherClass) << 32) | otherOp].emplace_back(cls, op);
    };
    if (c.info->p2pIndex[op] == kNone) { // a collective
        const std::uint32_t group = groupOfSlot(c.rep, c.info->commOpInfo[c.info->commIndex[op]].slot);
        GroupMembers& members = m_groupMembers[group];
        if (!members.built) {
            std::vector<std::pair<std::uint32_t, std::uint32_t>> list;
            for (std::int32_t m : membersOf(group))
                list.emplace_back(m_rankClass[static_cast<std::size_t>(m)], sequenceOf(m, group));
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
            bool countable = true;
            for (std::size_t k = 0; k < list.size() && countable; ++k)
                countable = (k == 0 || list[k].first != list[k - 1].first) && list[k].second != kNone &&
                            sequenceOf(m_classes[list[k].first].rep, group) == list[k].second;
            members = {true, countable, std::move(list)};
        }
        const std::uint32_t ordinal = (*c.slotOrdinal)[op];
        if (members.countable && members.classes.size() == 1) {
            // Every member runs this class's program (a tensor-parallel group of one stage): nobody
            // to wait for.
            state.missing = 0;
            begin(cls, op, commSeconds(cls, op) + shared);
            wakeWaiters(cls, op, now);
            return;
        }
        if (members.countable) {
            // Each member class arrives once, with the op its own view of the group gives: count
            // arrivals instead of asking every member about every arrival (group size squared).
            Rendezvous& r = m_rendezvous[(static_cast<std::uint64_t>(group) << 32) | ordinal];
            if (r.arrived.empty()) {
                r.expected = static_cast<std::uint32_t>(members.classes.size());
                r.latest = now;
                r.latestBy = {cls, op};
            } else {
                checkAgainst(cls, op, r.arrived.front().first, r.arrived.front().second, ordinal);
                if (now > r.latest) {
                    r.latest = now;
                    r.latestBy = {cls, op};
                }
            }
            r.arrived.emplace_back(cls, op);
            state.missing = r.expected - static_cast<std::uint32_t>(r.arrived.size());
            if (state.missing == 0) {
                const auto waiting = std::move(r.arrived);
                const auto [latestClass, latestOp] = r.latestBy;
                const double latest = r.latest;
                m_rendezvous.erase((static_cast<std::uint64_t>(group) << 32) | ordinal);
                for (const auto& [waiterClass, waiterOp] : waiting)
                    shared = std::max(shared, shareOf(m_classes[waiterClass], waiterOp));
                for (const auto& [waiterClass, waiterOp] : waiting) {
                    CommState& waiter = commOf(m_classes[waiterClass], waiterOp);
                    waiter.missing = 0;
                    seePeer(waiterClass, waiterOp, latestClass, latestOp, latest);
                    if (waiterClass == cls && waiterOp == op) {
                        begin(cls, op, commSeconds(cls, op) + shared);
                    } else {
                        waiter.seconds = commSeconds(waiterClass, waiterOp) + shared;
                        release(waiterClass, waiterOp);
                    }
                }
            } else {
                block(cls, op, now);
            }
            wakeWaiters(cls, op, now); // walked rendezvous of other groups may wait for this op too
            return;
        }
        for (const auto& [otherClass, sequence] : members.classes) {
            const ClassState& other = m_classes[otherClass];
            const auto& seqs = *other.slotOps;
            if (sequence == kNone || sequence >= seqs.size() || ordinal >= seqs[sequence].size()) {
                ++missing;
                continue;
            }
            const std::uint32_t otherOp = seqs[sequence][ordinal];
            checkAgainst(cls, op, otherClass, otherOp, ordinal);
            need(otherClass, otherOp);
        }
    } else {
        const Op& o = c.info->program->ops[op];
        const std::int32_t peer = m_workload.peerOf(static_cast<std::size_t>(c.rep), o);
        if (peer < 0 || peer >= m_ranks || peer == c.rep) {
            throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                             "rank " + std::to_string(c.rep) + ": " + describeOp(cls, op) + " names peer rank " +
                                 std::to_string(peer) + " (ranks 0.." + std::to_string(m_ranks - 1) + ")");
        }
        if (const std::uint32_t theirs = matchingP2p(cls, op); theirs != kNone) {
            const std::uint32_t peerClass = m_rankClass[static_cast<std::size_t>(peer)];
            const Op& other = m_classes[peerClass].info->program->ops[theirs];
            if (m_options.checkSizes && other.commBytes != o.commBytes)
                throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                                 "send/receive size mismatch: rank " + std::to_string(c.rep) + "'s " +
                                     describeOp(cls, op) + " moves " + std::to_string(o.commBytes) +
                                     " bytes, its partner on rank " + std::to_string(peer) + ", " +
                                     describeOp(peerClass, theirs) + ", " + std::to_string(other.commBytes) +
                                     " (--lenient uses each side's own)");
            need(peerClass, theirs);
        } else {
            ++missing;
        }
    }
    state.missing = missing;
    if (missing == 0)
        begin(cls, op, commSeconds(cls, op) + shared);
    else
        block(cls, op, now, shared);
    wakeWaiters(cls, op, now);
}

void Simulator::wakeWaiters(std::uint32_t cls, std::uint32_t op, double now)
{
    // This arrival may complete others' rendezvous.
    const auto w = m_waiters.find((static_cast<std::uint64_t>(cls) << 32) | op);
    if (w == m_waiters.end())
        return;
    const auto waiting = std::move(w->second);
    m_waiters.erase(w);
    for (const auto& [waiterClass, waiterOp] : waiting) {
        seePeer(waiterClass, waiterOp, cls, op, now);
        if (--commOf(m_classes[waiterClass], waiterOp).missing == 0)
            release(waiterClass, waiterOp);
    }
}

void Simulator::begin(std::uint32_t cls, std::uint32_t op, double seconds)
{
    ClassState& c = m_classes[cls];
    c.running.push_back(Running{c.events[op].start + seconds, op});
    std::push_heap(c.running.begin(), c.running.end(), std::greater<>());
    if (!c.scheduled) {
        c.scheduled = true;
        m_worklist.push_back(cls);
    }
}

void Simulator::release(std::uint32_t cls, std::uint32_t op)
{
    CommState& state = commOf(m_classes[cls], op);
    assert(state.waiting && "released an op that was not waiting");
    state.waiting = false;
    begin(cls, op, state.seconds);
}

void Simulator::runClass(std::uint32_t cls, bool force)
{
    ClassState& c = m_classes[cls];
    c.scheduled = true;
    const ProgramInfo& info = *c.info;
    while (!c.running.empty()) {
        // A send or receive that waited without holding the class back may end before the instant
        // the class has reached (see below): it is handled at that instant, with its own end.
        const double now = std::max(c.running.front().end, c.clock);
        if (!force) {
            // An op that ends now and on which a successor waits with a send or receive still
            // waiting for its peer: that transfer decides the successor's start from now on.
            for (const Running& r : c.running)
                if (r.end <= now && !(info.commIndex[r.op] != kNone && commOf(c, r.op).external))
                    for (std::uint32_t k = info.succStart[r.op]; k < info.succStart[r.op + 1]; ++k)
                        if (c.ops[info.succs[k]].external > 0)
                            constrainBy(c, info.succs[k]);
        }
        while (!c.blocked.empty() && !commOf(c, c.blocked.front().op).waiting) {
            std::pop_heap(c.blocked.begin(), c.blocked.end(), std::greater<>());
            c.blocked.pop_back();
        }
        if (!force && !c.blocked.empty()) {
            if (now >= c.blocked.front().bound) {
                // A blocked op might end at or before `now`: wait until it is released, or until
                // every class is held like this one.
                m_stalled.push(Stalled{now, cls});
                break;
            }
        }
        force = false;
        c.clock = now;
        // Finish everything that ends at this instant before starting new work, so that the
        // choice among ready ops does not depend on the order of ends.
        do {
            std::pop_heap(c.running.begin(), c.running.end(), std::greater<>());
            const Running ended = c.running.back();
            c.running.pop_back();
            finishOp(cls, ended.op, ended.end, now);
            if (++m_processed % (1 << 16) == 0) {
                m_control.check();
                m_control.report(m_progressBase +
                                 m_progressSpan * static_cast<double>(m_processed) / static_cast<double>(m_totalOps));
            }
        } while (!c.running.empty() && c.running.front().end <= now);
        startReady(cls, now);
    }
    c.scheduled = false;
}

void Simulator::finishOp(std::uint32_t cls, std::uint32_t op, double end, double now)
{
    ClassState& c = m_classes[cls];
    c.events[op].end = end;
    c.finish = std::max(c.finish, end);
    ++c.done;
    if (c.info->commIndex[op] == kNone) {
        c.computeBusy = false;
        c.lastComputeOp = op;
    } else {
        for (std::size_t s = 0; s < c.commStreamOp.size(); ++s)
            if (c.commStreamOp[s] == op) {
                c.commStreamOp[s] = kNone;
                c.lastCommOp[s] = op;
                break;
            }
    }
    const ProgramInfo& info = *c.info;
    const bool external = info.commIndex[op] != kNone && commOf(c, op).external;
    for (std::uint32_t k = info.succStart[op]; k < info.succStart[op + 1]; ++k) {
        const std::uint32_t next = info.succs[k];
        OpState& state = c.ops[next];
        if (external)
            --state.external;
        if (--state.pending > 0) {
            if (state.pending == state.external)
                constrainBy(c, next);
            continue;
        }
        // A transfer handled after its end never completes an op's predecessors: once the op
        // depended on nothing else unfinished, the transfer held the class back (runClass). Checked,
        // since the op would otherwise start late.
        if (end < now)
            throw std::logic_error(
                "estimator: a transfer that ended in its class's past completed the predecessors of " +
                describeOp(cls, next));
        state.cause = op; // the predecessor that ended last, until the op starts
        if (info.commIndex[next] == kNone)
            c.computeReady.push(next);
        else if (info.p2pIndex[next] != kNone) // a send or recv (not reading the op: a cache miss)
            c.p2pReady.push_back(next);
        else
            c.commReady.push(next);
    }
}

void Simulator::reportDeadlock()
{
    // Name a blocked collective or transfer and the ranks that never reach it.
    for (std::uint32_t cls = 0; cls < m_classes.size(); ++cls) {
        ClassState& c = m_classes[cls];
        for (std::size_t s = 0; s < c.commStreamOp.size(); ++s) {
            const std::uint32_t op = c.commStreamOp[s];
            if (op == kNone)
                continue;
            const Op& o = c.info->program->ops[op];
            std::vector<std::int32_t> absent;
            std::string groupText;
            if (o.kind == OpKind::Collective) {
                const std::uint32_t group = groupOf(c.rep, o);
                const auto& members = membersOf(group);
                groupText = group == m_world ? " over all ranks"
                                             : " on group '" + m_workload.groups[group].name + "' (ranks [" +
                                                   rankList(members) + "])";
                const std::uint32_t ordinal = (*c.slotOrdinal)[op];
                for (std::int32_t m : members) {
                    const ClassState& other = m_classes[m_rankClass[static_cast<std::size_t>(m)]];
                    const std::uint32_t seq = sequenceOf(m, group);
                    const auto& seqs = *other.slotOps;
                    if (seq == kNone || seq >= seqs.size() || ordinal >= seqs[seq].size() ||
                        commOf(other, seqs[seq][ordinal]).arrival == kNotArrived)
                        absent.push_back(m);
                }
            } else {
                absent.push_back(m_workload.peerOf(static_cast<std::size_t>(c.rep), o));
            }
            std::vector<std::int32_t> waiting;
            for (std::int32_t r = 0; r < m_ranks; ++r)
                if (m_rankClass[static_cast<std::size_t>(r)] == cls)
                    waiting.push_back(r);
            // Where the first absent rank is held instead: two communicators used in opposite orders
            // show up as each rank waiting in the other's collective.
            std::string elsewhere;
            if (!absent.empty()) {
                const std::uint32_t otherClass = m_rankClass[static_cast<std::size_t>(absent.front())];
                const ClassState& other = m_classes[otherClass];
                for (const std::uint32_t held : other.commStreamOp) {
                    if (held == kNone)
                        continue;
                    const Op& h = other.info->program->ops[held];
                    const std::uint32_t heldGroup = h.kind == OpKind::Collective ? groupOf(absent.front(), h) : m_world;
                    elsewhere = "; rank " + std::to_string(absent.front()) + " waits in " +
                                describeOp(otherClass, held) +
                                (h.kind != OpKind::Collective ? std::string()
                                 : heldGroup == m_world       ? " over all ranks"
                                                        : " on group '" + m_workload.groups[heldGroup].name + "'");
                    break;
                }
            }
            throw InputError(
                c.info->program->name.empty() ? "workload" : c.info->program->name,
                "deadlock: " + describeOp(cls, op) + groupText + " on rank" + (waiting.size() > 1 ? "s " : " ") +
                    rankList(waiting) + " waits for rank" + (absent.size() > 1 ? "s " : " ") + rankList(absent) +
                    (absent.size() > 1 ? ", which never reach it" : ", which never reaches it") + elsewhere +
                    " (a missing op, collectives issued in different orders, or a dependency cycle)");
        }
    }
    for (std::uint32_t cls = 0; cls < m_classes.size(); ++cls) {
        const ClassState& c = m_classes[cls];
        for (std::uint32_t op = 0; op < c.info->program->ops.size(); ++op) {
            const Op& o = c.info->program->ops[op];
            const std::uint32_t k = c.info->commIndex[op];
            if (!isP2p(o) || k == kNone || c.comm[k].arrival == kNotArrived || c.comm[k].missing == 0)
                continue;
            throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                             "deadlock: " + describeOp(cls, op) + " on rank " + std::to_string(c.rep) +
                                 " waits for rank " +
                                 std::to_string(m_workload.peerOf(static_cast<std::size_t>(c.rep), o)) +
                                 ", which never reaches the matching " + (o.kind == OpKind::Send ? "receive" : "send") +
                                 " (tag " + std::to_string(o.commTag) + ")");
        }
        const std::size_t total = c.info->program->ops.size();
        if (c.done < total) {
            std::size_t first = 0;
            while (first < total && c.events[first].end > 0)
                ++first;
            throw InputError(c.info->program->name.empty() ? "workload" : c.info->program->name,
                             "rank " + std::to_string(c.rep) + ": " + std::to_string(total - c.done) +
                                 " ops never become ready (a dependency cycle), e.g. " +
                                 describeOp(cls, static_cast<std::uint32_t>(std::min(first, total - 1))));
        }
    }
    throw InputError("workload", "the simulation stopped early");
}

void Simulator::allocateOpState(std::uint64_t commOps)
{
    m_eventBlock = LargeBuffer(m_totalOps * sizeof(OpEvent));
    m_stateBlock = LargeBuffer(commOps * sizeof(CommState) + m_totalOps * sizeof(OpState));
    OpEvent* events = m_eventBlock.as<OpEvent>();
    CommState* comm = m_stateBlock.as<CommState>();
    OpState* ops = reinterpret_cast<OpState*>(comm + commOps);
    for (ClassState& c : m_classes) {
        const std::size_t n = c.info->program->ops.size();
        c.events = events;
        c.comm = comm;
        c.ops = ops;
        events += n;
        comm += c.info->commOps;
        ops += n;
    }
}

std::shared_ptr<const EstimateResult> Simulator::run()
{
    validate();
    buildProgramInfos();
    bindGroups();
    matchPointToPoint();
    classify();
    m_control.report(0.05);

    // One state per class, simulated for its lowest rank.
    std::uint32_t classCount = 0;
    for (std::uint32_t c : m_rankClass)
        classCount = std::max(classCount, c + 1);
    m_classes.resize(classCount);
    std::vector<char> seen(classCount, 0);
    std::uint64_t totalCommOps = 0;
    for (std::int32_t r = 0; r < m_ranks; ++r) {
        const std::uint32_t cls = m_rankClass[static_cast<std::size_t>(r)];
        if (seen[cls])
            continue;
        seen[cls] = 1;
        ClassState& c = m_classes[cls];
        c.rep = r;
        const RankBinding& binding = m_workload.ranks[static_cast<std::size_t>(r)];
        c.info = m_programs[binding.program].get();
        c.times = binding.times.get();
        const auto& merged = m_mergedSlotOps[static_cast<std::size_t>(r)];
        c.slotOps = merged ? merged.get() : &c.info->slotOps;
        c.slotOrdinal = merged ? m_mergedOrdinal[static_cast<std::size_t>(r)].get() : &c.info->slotOrdinal;
        m_totalOps += c.info->program->ops.size();
        totalCommOps += c.info->commOps;
        c.commSeconds.assign(c.info->commOps, std::numeric_limits<double>::quiet_NaN());
    }
    allocateOpState(totalCommOps);
    m_groupMembers.assign(static_cast<std::size_t>(m_world) + 1, {});
    // Compute kernels slowed by the communication kernels beside them (DeviceSpec::overlapSlowdown),
    // and transfers slowed by those that share their links (Cluster::linkSharing): which ops overlap
    // is known only once the step has run, so a first pass runs the step with neither, each compute
    // op is lengthened by the slowdown times the communication it overlapped and each transfer by
    // the excess of what its links carried, and a second pass runs the step with those times (a
    // first-order correction: the overlaps of the second pass are not fed back again). ASTRA-sim's
    // model has neither effect.
    const double slowdown = m_cluster.overlapSlowdown();
    if (slowdown > 0 || m_cluster.sharesLinks())
        m_progressSpan = 0.425;
    simulate();
    const bool contended = slowdown > 0 && contend(slowdown);
    const bool shared = m_cluster.sharesLinks() && shareLinks();
    m_linksShared = shared;
    if (contended || shared) {
        m_progressBase = 0.475;
        simulate();
    }

    auto result = std::make_shared<EstimateResult>();
    buildResult(*result);
    m_control.report(1.0);
    return result;
}

void Simulator::simulate()
{
    m_processed = 0;
    m_rendezvous.clear();
    m_waiters.clear();
    m_stalled = {};
    const auto classCount = static_cast<std::uint32_t>(m_classes.size());
    for (std::uint32_t cls = 0; cls < classCount; ++cls) {
        ClassState& c = m_classes[cls];
        c.running.clear();
        c.blocked.clear();
        c.p2pReady.clear();
        c.computeReady = {};
        c.commReady = {};
        c.computeBusy = false;
        c.lastComputeOp = kNone;
        c.done = 0;
        c.finish = 0;
        c.clock = 0;
        const std::uint32_t n = static_cast<std::uint32_t>(c.info->program->ops.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            OpEvent& e = c.events[i];
            e = OpEvent{};
            e.op = i;
            c.ops[i] = OpState{c.info->predStart[i + 1] - c.info->predStart[i], kNone, 0, CriticalStep::Reason::Start};
        }
        std::fill_n(c.comm, c.info->commOps, CommState{kNotArrived, ~std::uint64_t{0}, 0.0, 0, false, false, false});
        c.commStreamOp.assign(static_cast<std::size_t>(m_cluster.commStreams), kNone);
        c.lastCommOp.assign(static_cast<std::size_t>(m_cluster.commStreams), kNone);
        for (std::uint32_t i = 0; i < n; ++i)
            if (c.ops[i].pending == 0) {
                if (c.info->commIndex[i] == kNone)
                    c.computeReady.push(i);
                else if (c.info->p2pIndex[i] != kNone)
                    c.p2pReady.push_back(i);
                else
                    c.commReady.push(i);
            }
    }
    for (std::uint32_t cls = 0; cls < classCount; ++cls)
        startReady(cls, 0.0);

    // Classes interact only where a collective or transfer starts at the latest arrival of its
    // members, so each class runs ahead on its own (its ops stay in cache) until it waits for a
    // peer, instead of all classes advancing through one global event queue. When every class is
    // held, the earliest pending instant of all is safe to handle: anything a peer has yet to do
    // happens at or after it.
    while (true) {
        while (!m_worklist.empty()) {
            const std::uint32_t cls = m_worklist.back();
            m_worklist.pop_back();
            runClass(cls, false);
        }
        bool progressed = false;
        while (!m_stalled.empty() && !progressed) {
            const Stalled s = m_stalled.top();
            m_stalled.pop();
            const ClassState& c = m_classes[s.cls];
            if (c.scheduled || c.running.empty() || std::max(c.running.front().end, c.clock) != s.time)
                continue; // outdated: the class has run since
            runClass(s.cls, true);
            progressed = true;
        }
        if (!progressed)
            break;
    }
    for (const ClassState& c : m_classes)
        if (c.done < c.info->program->ops.size())
            reportDeadlock();
}

bool Simulator::modelledCompute(const ClassState& c, std::uint32_t op) const
{
    if (!c.times)
        return c.info->modelledCompute[op] != 0;
    const Op& o = c.info->program->ops[op];
    return !onCommStream(o) && !usesRecordedTime(o, c.times->durationMicros[op], m_options);
}

/// Sorts `intervals` (start, end) and merges those that overlap or touch into their union.
void mergeIntervals(std::vector<std::pair<double, double>>& intervals)
{
    if (intervals.empty())
        return;
    std::sort(intervals.begin(), intervals.end());
    std::size_t merged = 0;
    for (std::size_t k = 1; k < intervals.size(); ++k) {
        if (intervals[k].first <= intervals[merged].second)
            intervals[merged].second = std::max(intervals[merged].second, intervals[k].second);
        else
            intervals[++merged] = intervals[k];
    }
    intervals.resize(merged + 1);
}

bool Simulator::contend(double slowdown)
{
    // Classes are independent here: on the machine's cores, each thread with its own intervals.
    std::vector<std::vector<std::pair<double, double>>> scratch(std::max(1u, std::thread::hardware_concurrency()));
    forEachIndex(m_classes.size(), m_totalOps, [&](std::size_t cls, std::size_t thread) {
        ClassState& c = m_classes[cls];
        auto& comm = scratch[thread];
        const auto n = static_cast<std::uint32_t>(c.info->program->ops.size());
        // The union of the rank's communication intervals (collectives and transfers from their
        // start, when every member is there, to their end), but for those on copy engines, which
        // hold no SMs.
        comm.clear();
        for (std::uint32_t i = 0; i < n; ++i)
            if (c.info->commIndex[i] != kNone && c.events[i].end > c.events[i].start &&
                !c.info->commOpInfo[c.info->commIndex[i]].copyEngines)
                comm.emplace_back(c.events[i].start, c.events[i].end);
        if (comm.empty())
            return;
        mergeIntervals(comm);
        for (std::uint32_t i = 0; i < n; ++i) {
            const OpEvent& e = c.events[i];
            if (c.info->commIndex[i] != kNone || e.end <= e.start)
                continue;
            auto k =
                static_cast<std::size_t>(std::upper_bound(comm.begin(), comm.end(),
                                                          std::make_pair(e.start, std::numeric_limits<double>::max())) -
                                         comm.begin());
            if (k > 0 && comm[k - 1].second > e.start)
                --k;
            double overlap = 0;
            for (; k < comm.size() && comm[k].first < e.end; ++k)
                overlap += std::min(e.end, comm[k].second) - std::max(e.start, comm[k].first);
            // Whether the op's time is modelled reads the op: asked last, of the few that overlap.
            if (overlap <= 0 || !modelledCompute(c, i))
                continue;
            if (c.contention.empty())
                c.contention.assign(n, 0.0);
            c.contention[i] = slowdown * overlap;
        }
    });
    return std::any_of(m_classes.begin(), m_classes.end(), [](const ClassState& c) { return !c.contention.empty(); });
}

bool Simulator::shareLinks()
{
    const std::size_t dims = m_cluster.topology.dims.size();
    std::vector<double> capacity(dims);
    for (std::size_t d = 0; d < dims; ++d)
        capacity[d] = m_cluster.topology.dims[d].bandwidthBytesPerSecond();
    // A rank's link in dimension d, each direction on its own (links are full duplex), carries
    // every transfer of the rank that crosses it. A transfer alone on it runs as the cost model
    // prices it, asking for `demand` of the link: its bytes there over bandwidth x its duration
    // (at most 1). Where the transfers on a link ask for U > 1 together, the link serves each in
    // proportion to what it asks, so all of them progress U times slower (processor sharing): each
    // runs longer by the integral of U - 1 over its interval (two equal transfers side by side both
    // take twice as long). A transfer crossing several dimensions (a hierarchical collective) is
    // taken to spend its time on each in proportion to its bytes there over the bandwidth.
    struct Load {
        double start;
        double end;
        double demand;
        std::uint32_t comm; ///< ProgramInfo::commIndex
        std::uint16_t lane; ///< its stream (OpEvent::stream)
    };
    // Classes are independent here: on the machine's cores, each thread with its own account of
    // the traffic and its own scratch.
    struct Scratch {
        explicit Scratch(const Workload& workload, const Cluster& cluster, std::size_t dims)
            : traffic(workload, cluster)
            , loads(2 * dims)
        {}
        LinkTraffic traffic;
        std::vector<std::vector<Load>> loads;            // [d * 2 + direction]
        std::vector<double> excess, linkSeconds;         // [comm * dims + d]
        std::vector<Load> shared;                        // the loads of one link that may meet others
        std::vector<std::pair<double, double>> windows;  // where loads off the busiest lane run
        std::vector<std::pair<double, double>> steps;    // (time, +/- demand)
        std::vector<std::pair<double, double>> excessAt; // (time, integral of max(0, U - 1) up to it)
        std::vector<std::size_t> perLane;
    };
    std::vector<std::unique_ptr<Scratch>> scratch(std::max(1u, std::thread::hardware_concurrency()));
    forEachIndex(m_classes.size(), m_totalOps, [&](std::size_t cls, std::size_t thread) {
        ClassState& c = m_classes[cls];
        c.linkShare.clear();
        // One stream and no sends or receives: its transfers run one at a time.
        if (c.commStreamOp.size() <= 1 && c.info->p2pOps.empty())
            return;
        if (!scratch[thread])
            scratch[thread] = std::make_unique<Scratch>(m_workload, m_cluster, dims);
        auto& [traffic, loads, excess, linkSeconds, shared, windows, steps, excessAt, perLane] = *scratch[thread];
        const auto rank = static_cast<std::size_t>(c.rep);
        const auto n = static_cast<std::uint32_t>(c.info->program->ops.size());
        const auto p2pLane = static_cast<std::uint16_t>(c.commStreamOp.size() + 1);
        for (auto& list : loads)
            list.clear();
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t comm = c.info->commIndex[i];
            const OpEvent& e = c.events[i];
            if (comm == kNone || e.end <= e.start)
                continue;
            const ProgramInfo::CommOp& info = c.info->commOpInfo[comm];
            const bool plain = c.info->p2pIndex[i] == kNone && info.collective != CollectiveKind::CollectivePermute;
            std::span<const double> both;
            if (plain) { // the common case, without reading the op
                const std::uint32_t group = groupOfSlot(c.rep, info.slot);
                both = traffic.collectiveSent(rank, group == m_world ? nullptr : &m_workload.groups[group],
                                              info.collective, info.bytes);
            }
            for (int direction = 0; direction < 2; ++direction) {
                const Op* o = plain ? nullptr : &c.info->program->ops[i];
                const std::span<const double> bytes = plain            ? both
                                                      : direction == 0 ? traffic.sent(rank, *o)
                                                                       : traffic.received(rank, *o);
                for (std::size_t d = 0; d < bytes.size(); ++d)
                    if (bytes[d] > 0 && capacity[d] > 0)
                        loads[d * 2 + static_cast<std::size_t>(direction)].push_back(
                            Load{e.start, e.end, std::min(1.0, bytes[d] / (capacity[d] * (e.end - e.start))), comm,
                                 e.stream});
            }
        }
        bool overloaded = false;
        for (std::size_t link = 0; link < loads.size(); ++link) {
            const auto& list = loads[link];
            // Collectives receive what they send: without sends and receives, a dimension's two
            // directions carry the same loads, and the second one's excess is the first one's.
            const auto hasP2p = [&](const std::vector<Load>& l) {
                return std::any_of(l.begin(), l.end(), [&](const Load& x) { return x.lane == p2pLane; });
            };
            if (link % 2 == 1 && !hasP2p(list) && !hasP2p(loads[link - 1]))
                continue;
            // A stream runs one transfer at a time, so U > 1 needs a transfer off the stream with
            // the most of them (another stream's, or a send or receive, which hold none) at that
            // instant: only where those run, and only the loads that meet them there, need the sweep
            // (a step's bulk, the tensor-parallel collectives of one stream, is left unsorted).
            perLane.assign(static_cast<std::size_t>(p2pLane) + 1, 0);
            for (const Load& l : list)
                ++perLane[l.lane];
            const auto busiest = static_cast<std::uint16_t>(
                std::max_element(perLane.begin(), perLane.begin() + p2pLane) - perLane.begin());
            windows.clear();
            for (const Load& l : list)
                if (l.lane != busiest)
                    windows.emplace_back(l.start, l.end);
            if (windows.empty())
                continue;
            mergeIntervals(windows);
            shared.clear();
            for (const Load& l : list) {
                if (l.lane == busiest) {
                    // The first window ending after the load starts: does it begin before it ends?
                    const auto w = std::upper_bound(windows.begin(), windows.end(), l.start,
                                                    [](double t, const auto& window) { return t < window.second; });
                    if (w == windows.end() || w->first >= l.end)
                        continue;
                }
                shared.push_back(l);
            }
            steps.clear();
            for (const Load& l : shared) {
                steps.emplace_back(l.start, l.demand);
                steps.emplace_back(l.end, -l.demand);
            }
            std::sort(steps.begin(), steps.end());
            excessAt.clear();
            double demand = 0, integral = 0;
            std::size_t active = 0;
            bool seen = false;
            for (std::size_t k = 0; k < steps.size();) {
                const double t = steps[k].first;
                if (!excessAt.empty())
                    integral += std::max(0.0, demand - 1.0) * (t - excessAt.back().first);
                for (; k < steps.size() && steps[k].first == t; ++k) {
                    demand += steps[k].second;
                    active += steps[k].second > 0 ? 1 : std::size_t{0};
                    active -= steps[k].second < 0 ? 1 : std::size_t{0};
                }
                if (active == 0)
                    demand = 0; // no drift from adding and taking away
                excessAt.emplace_back(t, integral);
                seen = seen || demand > 1.0 + 1e-9;
            }
            if (!seen)
                continue;
            if (!overloaded) {
                overloaded = true;
                excess.assign(static_cast<std::size_t>(c.info->commOps) * dims, 0.0);
                linkSeconds.assign(static_cast<std::size_t>(c.info->commOps) * dims, 0.0);
            }
            const auto integralAt = [&](double t) {
                return std::lower_bound(excessAt.begin(), excessAt.end(), std::make_pair(t, -1.0))->second;
            };
            const std::size_t d = link / 2;
            for (const Load& l : shared) {
                double& e = excess[l.comm * dims + d];
                e = std::max(e, integralAt(l.end) - integralAt(l.start));
            }
        }
        if (!overloaded)
            return;
        // Per transfer: its dimensions' excess weighted by the time it spends on each (its bytes
        // there over the bandwidth).
        for (std::size_t link = 0; link < loads.size(); ++link)
            for (const Load& l : loads[link]) {
                double& s = linkSeconds[l.comm * dims + link / 2];
                s = std::max(s, l.demand * (l.end - l.start));
            }
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t comm = c.info->commIndex[i];
            if (comm == kNone || c.events[i].end <= c.events[i].start)
                continue;
            double weighted = 0, weights = 0;
            for (std::size_t d = 0; d < dims; ++d) {
                weighted += linkSeconds[comm * dims + d] * excess[comm * dims + d];
                weights += linkSeconds[comm * dims + d];
            }
            if (weighted <= 0)
                continue;
            const Op& o = c.info->program->ops[i];
            if (m_options.recordedCommunication && (c.times ? c.times->durationMicros[i] : o.durationMicros) > 0)
                continue; // a measured duration already holds what sharing cost it
            if (c.linkShare.empty())
                c.linkShare.assign(c.info->commOps, 0.0);
            c.linkShare[comm] = weighted / weights;
        }
    });
    return std::any_of(m_classes.begin(), m_classes.end(), [](const ClassState& c) { return !c.linkShare.empty(); });
}

void Simulator::buildResult(EstimateResult& result)
{
    result.costModel = std::string(displayName(m_cluster.model));
    result.simulatedOps = m_totalOps;
    for (const auto& info : m_programs)
        result.droppedDependencies += info->droppedDependencies;
    result.rankTimeline = m_rankClass;
    result.timelineRank.resize(m_classes.size());
    result.hostGapOps.resize(m_classes.size());
    for (std::size_t cls = 0; cls < m_classes.size(); ++cls)
        result.hostGapOps[cls] = m_classes[cls].info->hostGap;
    buildCriticalPath(result); // while events are still in op order
    std::vector<RankBreakdown> perClass(m_classes.size());
    // Classes are independent here: on the machine's cores, each thread with its own intervals.
    struct Scratch {
        std::vector<std::pair<double, double>> compute, merged;
    };
    std::vector<Scratch> scratch(std::max(1u, std::thread::hardware_concurrency()));
    forEachIndex(m_classes.size(), m_totalOps, [&](std::size_t cls, std::size_t thread) {
        ClassState& c = m_classes[cls];
        auto& [compute, merged] = scratch[thread];
        result.timelineRank[cls] = c.rep;
        // Events in order of start: the compute stream's intervals then come in order, and the
        // communication intervals can be merged as they come.
        const std::span<OpEvent> events(c.events, c.info->program->ops.size());
        const auto byStart = [](const OpEvent& a, const OpEvent& b) {
            return a.start != b.start ? a.start < b.start : a.op < b.op;
        };
        if (!std::is_sorted(events.begin(), events.end(), byStart))
            std::sort(events.begin(), events.end(), byStart);
        RankBreakdown& b = perClass[cls];
        b.finish = c.finish;
        compute.clear();
        merged.clear();
        for (const OpEvent& e : events) {
            if (e.end <= e.start)
                continue;
            if (e.stream == 0 && !c.info->hostGap.empty() && c.info->hostGap[e.op])
                b.host += e.end - e.start; // the device waiting for its host: idle, not compute
            else if (e.stream == 0)
                compute.emplace_back(e.start, e.end);
            else if (!merged.empty() && e.start <= merged.back().second)
                merged.back().second = std::max(merged.back().second, e.end);
            else
                merged.emplace_back(e.start, e.end);
        }
        for (const auto& [s, t] : compute)
            b.compute += t - s;
        for (double extra : c.contention)
            b.contention += extra;
        // What sharing links added to the rank's collectives and transfers: each ran its priced
        // duration plus the largest extra of its participants.
        if (m_linksShared)
            for (const OpEvent& e : events)
                if (e.end > e.start && c.info->commIndex[e.op] != kNone) {
                    const double extra = e.end - e.start - commSeconds(static_cast<std::uint32_t>(cls), e.op);
                    if (extra > 1e-9 * (e.end - e.start))
                        b.linkSharing += extra;
                }
        // The part of the union of communication intervals outside compute.
        std::size_t k = 0;
        for (const auto& [s, t] : merged) {
            b.comm += t - s;
            double covered = 0;
            while (k < compute.size() && compute[k].second <= s)
                ++k;
            for (std::size_t j = k; j < compute.size() && compute[j].first < t; ++j)
                covered += std::max(0.0, std::min(t, compute[j].second) - std::max(s, compute[j].first));
            b.exposedComm += (t - s) - covered;
        }
        b.idle = std::max(0.0, b.finish - b.compute - b.exposedComm);
    });
    result.ranks.resize(static_cast<std::size_t>(m_ranks));
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        result.ranks[r] = perClass[m_rankClass[r]];
        result.stepTime = std::max(result.stepTime, result.ranks[r].finish);
    }
    if (m_options.commMatrix)
        buildCommMatrix(result);
    result.timelines.resize(m_classes.size());
    if (m_options.recordEvents) {
        for (std::size_t cls = 0; cls < m_classes.size(); ++cls)
            result.timelines[cls] = {m_classes[cls].events, m_classes[cls].info->program->ops.size()};
        result.eventStorage = std::make_shared<const LargeBuffer>(std::move(m_eventBlock));
    }
}

void Simulator::buildCriticalPath(EstimateResult& result)
{
    // Start from the op that ends last and follow what set each start back to the beginning.
    std::uint32_t cls = 0, op = kNone;
    double latest = -1;
    for (std::uint32_t c = 0; c < m_classes.size(); ++c)
        for (std::uint32_t i = 0; i < m_classes[c].info->program->ops.size(); ++i)
            if (m_classes[c].events[i].end > latest) {
                latest = m_classes[c].events[i].end;
                cls = c;
                op = i;
            }
    std::vector<CriticalStep> path;
    std::uint64_t guard = 0;
    while (op != kNone && guard++ <= m_totalOps) {
        const ClassState& c = m_classes[cls];
        const OpEvent& e = c.events[op];
        CriticalStep step{c.rep, op, e.start, e.end, c.ops[op].causeReason};
        std::uint32_t nextClass = cls, next = c.ops[op].cause;
        const std::uint64_t peerCause = c.info->commIndex[op] == kNone ? ~std::uint64_t{0} : commOf(c, op).peerCause;
        if (peerCause != ~std::uint64_t{0}) {
            step.reason = CriticalStep::Reason::Peer;
            nextClass = static_cast<std::uint32_t>(peerCause >> 32);
            next = static_cast<std::uint32_t>(peerCause & 0xffffffffu);
        }
        path.push_back(step);
        cls = nextClass;
        op = next;
    }
    std::reverse(path.begin(), path.end());
    result.criticalPath = std::move(path);
}

void Simulator::buildCommMatrix(EstimateResult& result)
{
    CommMatrix& matrix = result.commMatrix;
    matrix.reset(m_ranks, true);
    result.bytesPerDim.assign(m_cluster.topology.dims.size(), 0.0);
    // Per collective kind, and point-to-point in the slot after the last kind; filled on first use.
    constexpr std::size_t pointToPoint = static_cast<std::size_t>(CollectiveKind::CollectiveBroadcast) + 1;
    std::vector<CommMatrix::Layer> layers(pointToPoint + 1);
    // Per kind: cell -> (bytes, seconds), made sparse layers at the end.
    std::vector<std::unordered_map<std::uint32_t, std::pair<double, double>>> perKind(pointToPoint + 1);
    const auto add = [&](std::size_t layer, std::int32_t src, std::int32_t dst, double bytes) {
        const std::size_t i = matrix.index(src / matrix.blockSize, dst / matrix.blockSize);
        const int d = m_cluster.topology.firstDifferingDim(src, dst);
        double seconds = 0;
        if (d >= 0) {
            result.bytesPerDim[static_cast<std::size_t>(d)] += bytes;
            const double bandwidth = m_cluster.topology.dims[static_cast<std::size_t>(d)].bandwidthBytesPerSecond();
            seconds = bandwidth > 0 ? bytes / bandwidth : 0.0;
        }
        matrix.bytes[i] += bytes;
        matrix.seconds[i] += seconds;
        auto& cell = perKind[layer][static_cast<std::uint32_t>(i)];
        cell.first += bytes;
        cell.second += seconds;
    };
    // Each collective instance is counted once, by the lowest rank of its group: per (group, kind,
    // bytes) the number of instances, then the algorithm's flows times that count.
    struct Count {
        const Op* op;
        std::uint64_t count;
    };
    std::unordered_map<CostKey, Count, CostKeyHash> instances;
    // Per program and slot sequence: (kind, bytes) -> count, so ranks sharing programs cost little.
    // From the compact per-op arrays, not the ops: a pipeline stage holds tens of MB of ops.
    std::vector<std::vector<std::map<std::pair<int, std::uint64_t>, Count>>> histogram(m_programs.size());
    for (std::size_t p = 0; p < m_programs.size(); ++p) {
        const ProgramInfo& info = *m_programs[p];
        histogram[p].resize(info.slotOps.size());
        for (std::size_t s = 0; s < info.slotOps.size(); ++s)
            for (const std::uint32_t i : info.slotOps[s]) {
                const ProgramInfo::CommOp& comm = info.commOpInfo[info.commIndex[i]];
                const Op* op = &info.program->ops[i];
                const bool permute = comm.collective == CollectiveKind::CollectivePermute;
                auto& entry = histogram[p][s][{static_cast<int>(comm.collective),
                                               permute ? reinterpret_cast<std::uintptr_t>(op) : comm.bytes}];
                entry.op = op;
                ++entry.count;
            }
    }
    // The lowest member of each group (m_world last), found once: per rank and slot a lookup.
    std::vector<std::int32_t> lowest(m_workload.groups.size() + 1, -1);
    for (std::uint32_t g = 0; g <= m_world; ++g) {
        const auto& members = membersOf(g);
        if (!members.empty())
            lowest[g] = *std::min_element(members.begin(), members.end());
    }
    for (std::int32_t r = 0; r < m_ranks; ++r) {
        const RankBinding& b = m_workload.ranks[static_cast<std::size_t>(r)];
        const ProgramInfo& info = *m_programs[b.program];
        for (std::size_t s = 0; s < info.slotOps.size(); ++s) {
            if (info.slotOps[s].empty())
                continue;
            const std::uint32_t g = s == 0 ? m_world : m_rankSlotGroup[static_cast<std::size_t>(r)][s - 1];
            if (lowest[g] != r)
                continue;
            for (const auto& [key, count] : histogram[b.program][s]) {
                const Op& op = *count.op;
                const bool permute = op.collective == CollectiveKind::CollectivePermute;
                auto& entry = instances[CostKey{g, op.collective, op.commBytes, permute ? &op : nullptr}];
                entry.op = &op;
                entry.count += count.count;
            }
        }
        if (m_p2pByBucket[static_cast<std::size_t>(r)]) {
            for (const ProgramInfo::P2pBucket& bucket : info.p2pBuckets) {
                const std::int32_t dst = bucketPeer(static_cast<std::size_t>(r), bucket);
                if (bucket.hasSends && dst >= 0 && dst < m_ranks && dst != r)
                    add(pointToPoint, r, dst, bucket.sendBytes);
            }
            continue;
        }
        for (std::uint32_t i : info.sends) {
            const Op& op = info.program->ops[i];
            const std::int32_t dst = m_workload.peerOf(static_cast<std::size_t>(r), op);
            if (dst >= 0 && dst < m_ranks && dst != r)
                add(pointToPoint, r, dst, static_cast<double>(op.commBytes));
        }
    }
    for (const auto& [key, count] : instances) {
        std::vector<std::int32_t> members = membersOf(key.group);
        std::sort(members.begin(), members.end());
        const double times = static_cast<double>(count.count);
        m_model.forEachFlow(key.kind, key.bytes, members, count.op->extras.get().sourceTargetPairs,
                            [&](std::int32_t src, std::int32_t dst, double bytes) {
                                add(static_cast<std::size_t>(key.kind), src, dst, bytes * times);
                            });
    }
    for (std::size_t k = 0; k < layers.size(); ++k) {
        std::vector<std::pair<std::uint32_t, std::pair<double, double>>> sorted(perKind[k].begin(), perKind[k].end());
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [cell, value] : sorted) {
            layers[k].cells.push_back(cell);
            layers[k].bytes.push_back(value.first);
            layers[k].seconds.push_back(value.second);
        }
    }
    for (std::size_t k = 0; k < layers.size(); ++k)
        if (!layers[k].bytes.empty()) {
            layers[k].kind = k == pointToPoint ? "SEND_RECV" : std::string(chakraName(static_cast<CollectiveKind>(k)));
            matrix.layers.push_back(std::move(layers[k]));
        }
}

} // namespace

ComputeRate computeRate(const Op& op, const Cluster& cluster)
{
    const ComputeModel& m = cluster.compute;
    ComputeRate rate;
    rate.kernelClass = kernelClassOf(op);
    if (rate.kernelClass == KernelClass::Generic) {
        rate.precision = precisionOf(op.dtype, m.defaultPrecision, m.allowTf32);
        rate.efficiency = m.flopEfficiencyFor(cluster.device, rate.precision);
        if (m.gemmByShape && !m.flopEfficiency && cluster.device.gemm != GemmFamily::None)
            if (const GemmShape g = gemmShapeOf(op.shape, op.flops, op.memoryBytes()); g.valid()) {
                const double peak = cluster.device.peakFlops(rate.precision);
                const double flops = static_cast<double>(op.flops);
                // Never above the peak, whatever an extrapolation below the grid gives.
                if (const double t = gemmTableSeconds(cluster.device.gemm, rate.precision, g); t > 0 && peak > 0) {
                    rate.efficiency = std::min(1.0, flops / (t * peak));
                    rate.gemm = g;
                } else if (const double bf16 = gemmTableSeconds(cluster.device.gemm, Precision::BF16, g);
                           bf16 > 0 && rate.precision == Precision::FP8) {
                    // No trustworthy FP8 table: the device's best FP8 efficiency, scaled by how far
                    // this shape's BF16 throughput falls below the BF16 table's best.
                    rate.efficiency *=
                        std::min(1.0, flops / bf16 / gemmTablePeak(cluster.device.gemm, Precision::BF16));
                    rate.gemm = g;
                }
            }
    } else {
        // Fused attention runs its matmuls in BF16 (FP8 recipes keep attention in BF16).
        rate.precision = Precision::BF16;
        rate.efficiency = m.attentionEfficiencyFor(cluster.device, rate.kernelClass == KernelClass::AttentionBackward);
    }
    // The burst figures above (matmul tables and attention benchmarks: short runs at the boost clock)
    // at the clock a power-saturated device settles to, where a training step keeps it; not under an
    // explicit efficiency, which states the answer itself.
    if (m.sustainedClocks && !m.flopEfficiency) {
        rate.sustained = cluster.device.sustainedMatmulFor(rate.precision);
        rate.efficiency *= rate.sustained;
    }
    rate.peak = cluster.device.peakFlops(rate.precision);
    return rate;
}

DependencyGraph dependencyGraph(const Program& program, bool breakCycles)
{
    DependencyGraph g;
    const std::size_t n = program.ops.size();
    // Op ids -> indices: a table when the ids are dense (generated programs), else a hash map.
    std::uint64_t maxId = 0;
    for (const Op& op : program.ops)
        maxId = std::max(maxId, op.id);
    const bool dense = maxId < 4 * static_cast<std::uint64_t>(n) + 1024;
    std::vector<std::uint32_t> table;
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    if (dense) {
        table.assign(maxId + 1, kNone);
        for (std::uint32_t i = n; i-- > 0;)
            table[program.ops[i].id] = i; // first op of an id wins when ids repeat
    } else {
        index.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i)
            index.emplace(program.ops[i].id, i);
    }
    const auto find = [&](std::uint64_t id) -> std::uint32_t {
        if (dense)
            return id <= maxId ? table[id] : kNone;
        const auto it = index.find(id);
        return it == index.end() ? kNone : it->second;
    };
    g.predStart.resize(n + 1, 0);
    std::vector<std::uint32_t> scratch;
    for (std::uint32_t i = 0; i < n; ++i) {
        const Op& op = program.ops[i];
        scratch.clear();
        for (const auto* deps : {&op.dataDeps, &op.ctrlDeps})
            for (std::uint64_t id : *deps) {
                const std::uint32_t p = find(id);
                if (p != kNone && p != i)
                    scratch.push_back(p);
            }
        std::sort(scratch.begin(), scratch.end());
        scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
        g.preds.insert(g.preds.end(), scratch.begin(), scratch.end());
        g.predStart[i + 1] = static_cast<std::uint32_t>(g.preds.size());
    }
    const auto buildSuccessors = [&g, n] {
        g.succStart.assign(n + 1, 0);
        for (std::uint32_t p : g.preds)
            ++g.succStart[p + 1];
        for (std::size_t i = 0; i < n; ++i)
            g.succStart[i + 1] += g.succStart[i];
        g.succs.resize(g.preds.size());
        std::vector<std::uint32_t> fill(g.succStart.begin(), g.succStart.end() - 1);
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t k = g.predStart[i]; k < g.predStart[i + 1]; ++k)
                g.succs[fill[g.preds[k]]++] = i;
    };
    buildSuccessors();
    if (breakCycles) {
        // Kahn's algorithm finds the ops on or behind a cycle; every cycle among them has an edge from
        // a later op to an earlier one, so dropping those edges breaks them all.
        std::vector<std::uint32_t> pending(n), order;
        order.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            pending[i] = g.predStart[i + 1] - g.predStart[i];
            if (pending[i] == 0)
                order.push_back(i);
        }
        for (std::size_t k = 0; k < order.size(); ++k)
            for (std::uint32_t j = g.succStart[order[k]]; j < g.succStart[order[k] + 1]; ++j)
                if (--pending[g.succs[j]] == 0)
                    order.push_back(g.succs[j]);
        if (order.size() < n) {
            std::vector<std::uint32_t> kept, keptStart(n + 1, 0);
            for (std::uint32_t i = 0; i < n; ++i) {
                for (std::uint32_t k = g.predStart[i]; k < g.predStart[i + 1]; ++k) {
                    const std::uint32_t p = g.preds[k];
                    if (pending[i] > 0 && pending[p] > 0 && p > i)
                        ++g.droppedDependencies;
                    else
                        kept.push_back(p);
                }
                keptStart[i + 1] = static_cast<std::uint32_t>(kept.size());
            }
            g.preds.swap(kept);
            g.predStart.swap(keptStart);
            buildSuccessors();
        }
    }
    return g;
}

bool usesRecordedTime(const Op& op, std::uint64_t durationMicros, const EstimateOptions& options)
{
    return op.isCpuOp || options.timing == ComputeTiming::Recorded ||
           (options.timing == ComputeTiming::Auto && durationMicros > 0);
}

double computeTime(const Op& op, const Cluster& cluster, const EstimateOptions& options)
{
    return computeTime(op, op.durationMicros, cluster, options);
}

double computeTime(const Op& op, std::uint64_t durationMicros, const Cluster& cluster, const EstimateOptions& options)
{
    if (onCommStream(op) || op.kind == OpKind::Metadata || op.kind == OpKind::Invalid)
        return 0;
    const double recorded = static_cast<double>(durationMicros) * 1e-6;
    if (op.isCpuOp)
        return options.includeCpuOps ? recorded : 0.0;
    if (options.timing == ComputeTiming::Recorded && cluster.model == CostModel::AstraSim)
        return std::max(recorded, 1e-9); // ASTRA-sim replays a node without duration_micros for 1 ns
                                         // (Workload::issue_replay, astra-sim 518bd513)
    if (usesRecordedTime(op, durationMicros, options))
        return recorded;
    const ComputeModel& m = cluster.compute;
    const double bytes = static_cast<double>(op.memoryBytes());
    const double flops = static_cast<double>(op.flops);
    if (bytes == 0 && flops == 0)
        return 0;
    // Roofline: the slower of arithmetic and memory traffic, plus the launch overhead.
    const ComputeRate rate = computeRate(op, cluster);
    const double peak = rate.peak * rate.efficiency;
    const double bandwidth = cluster.device.memoryBandwidth * m.memoryEfficiency;
    return std::max(peak > 0 ? flops / peak : 0.0, bandwidth > 0 ? bytes / bandwidth : 0.0) + m.launchOverhead;
}

EstimateCache::EstimateCache()
    : m_state(std::make_unique<State>())
{}

EstimateCache::~EstimateCache() = default;

std::uint64_t EstimateCache::hits() const
{
    const std::lock_guard lock(m_state->mutex);
    return m_state->hits;
}

std::shared_ptr<const EstimateResult> estimate(const Workload& workload, const Cluster& cluster,
                                               const EstimateOptions& options, const JobControl& control)
{
    Simulator simulator(workload, cluster, options, control);
    return simulator.run();
}

} // namespace flint::core
