// SPDX-License-Identifier: MIT
#include "engine/mpireplay.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>

#include <queue>

#include <mpi.h>
#include <sched.h>

namespace flint::engine::mpi {
namespace {

using core::CollectiveKind;
using core::replay::Action;
using core::replay::MeasuredOp;
using core::replay::PlannedOp;
using core::replay::RankPlan;

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// This process's monotonic clock, in seconds.
double localNow()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int count(std::uint64_t bytes)
{
    if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        throw std::runtime_error("a message of " + std::to_string(bytes) + " bytes is above MPI's 2^31 - 1 count");
    return static_cast<int>(bytes);
}

/// `total` bytes split over `parts` as evenly as whole bytes allow, the first ones one larger.
int share(std::uint64_t total, std::size_t parts, std::size_t index)
{
    const std::uint64_t n = std::max<std::size_t>(1, parts);
    return count(total / n + (index < total % n ? 1 : 0));
}

/// The offset between this process's clock and rank 0's (rank 0's = local + offset), by Cristian's
/// method: the exchange with the shortest round trip of several, its error at most half that trip.
std::pair<double, double> clockOffset(const Session& session, MPI_Comm comm)
{
    constexpr int kRounds = 16;
    double offset = 0, error = 0;
    for (int peer = 1; peer < session.size(); ++peer) {
        if (session.rank() != 0 && session.rank() != peer)
            continue;
        double best = std::numeric_limits<double>::infinity();
        for (int round = 0; round < kRounds; ++round) {
            if (session.root()) {
                double dummy = 0;
                check(MPI_Recv(&dummy, 1, MPI_DOUBLE, peer, 1, comm, MPI_STATUS_IGNORE), "MPI_Recv");
                const double now = localNow();
                check(MPI_Send(&now, 1, MPI_DOUBLE, peer, 2, comm), "MPI_Send");
            } else {
                const double sent = localNow();
                check(MPI_Send(&sent, 1, MPI_DOUBLE, 0, 1, comm), "MPI_Send");
                double rootTime = 0;
                check(MPI_Recv(&rootTime, 1, MPI_DOUBLE, 0, 2, comm, MPI_STATUS_IGNORE), "MPI_Recv");
                const double received = localNow();
                if (received - sent < best) {
                    best = received - sent;
                    offset = rootTime - (sent + received) / 2;
                    error = best / 2;
                }
            }
        }
    }
    return {offset, error};
}

class Executor {
public:
    Executor(const Session& session, const core::Workload& workload, const RankPlan& plan, double stallSeconds)
        : m_session(session)
        , m_workload(workload)
        , m_plan(plan)
        , m_stallSeconds(stallSeconds)
        , m_yield(session.localSize() > static_cast<int>(std::max(1u, std::thread::hardware_concurrency())))
        , m_everyRank(static_cast<std::size_t>(session.size()))
    {
        std::iota(m_everyRank.begin(), m_everyRank.end(), 0);
    }
    ~Executor();

    ReplayResult run();

private:
    void createCommunicators();
    /// Sets up every connection the replay will use, so that no op's time includes it.
    void warmUp();
    void allocateBuffers();
    void makeReady(std::uint32_t op, double now);
    void finish(std::uint32_t op, double now);
    void issueCollective(std::uint32_t op, std::size_t stream, double now);
    void postTransfer(std::uint32_t op, double now);
    void handleCompleted(int completed, const std::vector<int>& indices, double now);
    bool step(double now);
    /// Waits until `until` (this process's clock), testing MPI requests meanwhile when any are open.
    void waitUntil(double until);
    /// Lets the other processes of this machine run while waiting until `until`, when there are more
    /// of them than cores and the wait is long enough to pay for it (a yield costs a time slice).
    void relax(double until) const
    {
        if (m_yield && until - now() > kShortestYield)
            sched_yield();
    }
    static constexpr double kShortestYield = 20e-6;
    /// The group's members in group order (-1: every rank); no copy, as it runs for every collective.
    const std::vector<std::int32_t>& membersOf(std::int32_t group) const;
    /// The names of the ops waiting for MPI, for an error message.
    std::string inFlight() const;
    MPI_Comm commOf(std::int32_t group) const { return group < 0 ? m_all : m_groupComm.at(group); }
    double now() const { return localNow() - m_start; }

    const Session& m_session;
    const core::Workload& m_workload;
    const RankPlan& m_plan;
    const double m_stallSeconds;
    const bool m_yield;
    /// Tags run from 0 to MPI_TAG_UB (at least 32767; Open MPI's is 2^31 - 1): tags are taken modulo this.
    std::uint32_t m_tagModulus = 32768;

    MPI_Comm m_all = MPI_COMM_NULL; ///< every rank: collectives over all ranks
    MPI_Comm m_p2p = MPI_COMM_NULL; ///< every rank: sends and receives (their own tag space)
    std::map<std::int32_t, MPI_Comm> m_groupComm;
    std::map<std::int32_t, int> m_positionIn; ///< this rank's position in each group
    std::vector<std::int32_t> m_everyRank;    ///< 0 .. ranks - 1: the members of an op over all ranks

    // Buffers: per communication stream for collectives, one pair shared by transfers. Their contents
    // are never read: the replay moves bytes, not values.
    std::vector<std::vector<unsigned char>> m_streamSend, m_streamReceive;
    std::vector<unsigned char> m_p2pSend, m_p2pReceive;
    // Per op in flight: argument arrays MPI may read until the op completes.
    std::map<std::uint32_t, std::vector<int>> m_counts;

    double m_start = 0; ///< this process's clock at the common start
    std::vector<MeasuredOp> m_record;
    std::vector<std::uint32_t> m_pending;
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> m_computeReady, m_issuable;
    std::map<std::int32_t, std::map<std::uint32_t, std::uint32_t>> m_heldCollectives; ///< group -> ordinal -> op
    std::map<std::int32_t, std::uint32_t> m_nextOrdinal;
    std::vector<std::uint32_t> m_transfersReady;
    bool m_computeBusy = false;
    std::uint32_t m_computeOp = kNone;
    double m_computeEnd = 0;
    double m_lastComputeEnd = 0;
    double m_lastOverheadStart = 0; ///< the running compute op's delay before it started
    std::vector<std::uint32_t> m_streamOp;
    std::vector<std::size_t> m_streamOfOp;
    std::vector<MPI_Request> m_requests;
    std::vector<int> m_completed; ///< MPI_Testsome's indices, kept to spare an allocation per poll
    std::vector<std::uint32_t> m_requestOp;
    std::vector<int> m_outstanding;
    std::size_t m_done = 0;
    double m_overheadSum = 0, m_overheadMax = 0;
    double m_lastProgress = 0; ///< when an op last started or ended
    std::uint64_t m_computeOps = 0;
};

Executor::~Executor()
{
    for (auto& [group, comm] : m_groupComm)
        if (comm != MPI_COMM_NULL)
            MPI_Comm_free(&comm);
    if (m_all != MPI_COMM_NULL)
        MPI_Comm_free(&m_all);
    if (m_p2p != MPI_COMM_NULL)
        MPI_Comm_free(&m_p2p);
}

const std::vector<std::int32_t>& Executor::membersOf(std::int32_t group) const
{
    return group >= 0 ? m_workload.groups[static_cast<std::size_t>(group)].ranks : m_everyRank;
}

std::string Executor::inFlight() const
{
    std::set<std::uint32_t> ops(m_requestOp.begin(), m_requestOp.end());
    std::string names;
    std::size_t listed = 0;
    for (std::uint32_t op : ops) {
        if (++listed > 5) {
            names += ", ...";
            break;
        }
        names += (names.empty() ? "'" : ", '") +
                 m_workload.programOf(static_cast<std::size_t>(m_plan.rank)).ops[op].name + "'";
    }
    return names;
}

void Executor::createCommunicators()
{
    check(MPI_Comm_dup(MPI_COMM_WORLD, &m_all), "MPI_Comm_dup");
    check(MPI_Comm_dup(MPI_COMM_WORLD, &m_p2p), "MPI_Comm_dup");
    int* tagUpperBound = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, static_cast<void*>(&tagUpperBound), &found); // MPI returns int*
    if (found && tagUpperBound)
        m_tagModulus = static_cast<std::uint32_t>(*tagUpperBound) + 1u;
    m_positionIn[-1] = m_plan.rank;
    // Only a group's members create its communicator; every process takes its groups in ascending
    // order, so the members of the lowest group still being created are all at it: no deadlock.
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (std::int32_t group : m_plan.groups) {
        if (group < 0)
            continue;
        const std::vector<std::int32_t>& members = membersOf(group);
        MPI_Group g;
        check(MPI_Group_incl(world, static_cast<int>(members.size()), members.data(), &g), "MPI_Group_incl");
        MPI_Comm comm = MPI_COMM_NULL;
        check(MPI_Comm_create_group(MPI_COMM_WORLD, g,
                                    static_cast<int>(static_cast<std::uint32_t>(group) % m_tagModulus), &comm),
              "MPI_Comm_create_group");
        MPI_Group_free(&g);
        m_groupComm[group] = comm;
        m_positionIn[group] =
            static_cast<int>(std::find(members.begin(), members.end(), m_plan.rank) - members.begin());
    }
    MPI_Group_free(&world);
}

void Executor::warmUp()
{
    // MPI libraries connect process pairs on first use; collective algorithms may use pairs that
    // no single exchange here covers, so each communicator also runs a small collective.
    unsigned char byte = 0;
    for (MPI_Comm comm : {m_all, m_p2p}) {
        check(MPI_Barrier(comm), "MPI_Barrier");
        check(MPI_Allreduce(MPI_IN_PLACE, &byte, 1, MPI_BYTE, MPI_BAND, comm), "MPI_Allreduce");
    }
    for (const auto& [group, comm] : m_groupComm) {
        check(MPI_Barrier(comm), "MPI_Barrier");
        check(MPI_Allreduce(MPI_IN_PLACE, &byte, 1, MPI_BYTE, MPI_BAND, comm), "MPI_Allreduce");
    }
    // An empty message each way between the ranks that exchange messages (sends, receives,
    // collective-permutes): the sets mirror each other across ranks, as the estimator checked.
    std::set<std::int32_t> sendTo, receiveFrom;
    for (const PlannedOp& op : m_plan.ops) {
        if (op.action == Action::Send)
            sendTo.insert(op.peer);
        else if (op.action == Action::Recv)
            receiveFrom.insert(op.peer);
        if (op.sendTo >= 0)
            sendTo.insert(op.sendTo);
        if (op.recvFrom >= 0)
            receiveFrom.insert(op.recvFrom);
    }
    std::vector<MPI_Request> requests;
    std::vector<unsigned char> sink(receiveFrom.size() + 1);
    std::size_t k = 0;
    for (std::int32_t peer : receiveFrom) {
        requests.emplace_back();
        check(MPI_Irecv(&sink[k++], 1, MPI_BYTE, peer, 0, m_p2p, &requests.back()), "MPI_Irecv");
    }
    for (std::int32_t peer : sendTo) {
        requests.emplace_back();
        check(MPI_Isend(&byte, 1, MPI_BYTE, peer, 0, m_p2p, &requests.back()), "MPI_Isend");
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    check(MPI_Barrier(m_p2p), "MPI_Barrier");
}

void Executor::allocateBuffers()
{
    std::uint64_t collectiveSend = 0, collectiveReceive = 0;
    for (const PlannedOp& op : m_plan.ops) {
        if (op.action == Action::Send)
            m_p2pSend.resize(std::max<std::size_t>(m_p2pSend.size(), op.bytes));
        else if (op.action == Action::Recv)
            m_p2pReceive.resize(std::max<std::size_t>(m_p2pReceive.size(), op.bytes));
        else if (op.action == Action::Collective) {
            const core::replay::BufferBytes b = core::replay::bufferBytes(op, membersOf(op.group).size());
            collectiveSend = std::max(collectiveSend, b.send);
            collectiveReceive = std::max(collectiveReceive, b.receive);
        }
    }
    const auto streams = static_cast<std::size_t>(m_plan.commStreams);
    m_streamSend.assign(streams, std::vector<unsigned char>(collectiveSend));
    m_streamReceive.assign(streams, std::vector<unsigned char>(collectiveReceive));
    // MPI wants a valid address even for zero bytes.
    for (auto* buffers : {&m_streamSend, &m_streamReceive})
        for (auto& b : *buffers)
            b.resize(std::max<std::size_t>(b.size(), 1));
    m_p2pSend.resize(std::max<std::size_t>(m_p2pSend.size(), 1));
    m_p2pReceive.resize(std::max<std::size_t>(m_p2pReceive.size(), 1));
}

void Executor::makeReady(std::uint32_t op, double now)
{
    m_record[op].ready = now;
    const PlannedOp& p = m_plan.ops[op];
    switch (p.action) {
    case Action::Wait:
        m_computeReady.push(op);
        break;
    case Action::Collective:
        // MPI wants a communicator's collectives started in one order on every member: the k-th waits
        // for the (k-1)-th to be started.
        if (p.ordinal == m_nextOrdinal[p.group])
            m_issuable.push(op);
        else
            m_heldCollectives[p.group][p.ordinal] = op;
        break;
    case Action::Send:
    case Action::Recv:
        m_transfersReady.push_back(op);
        break;
    }
}

void Executor::finish(std::uint32_t op, double now)
{
    m_record[op].end = now;
    ++m_done;
    if (m_plan.ops[op].action == Action::Collective)
        m_streamOp[m_streamOfOp[op]] = kNone;
    m_counts.erase(op);
    const core::DependencyGraph& g = m_plan.graph;
    for (std::uint32_t k = g.succStart[op]; k < g.succStart[op + 1]; ++k)
        if (--m_pending[g.succs[k]] == 0)
            makeReady(g.succs[k], now);
}

void Executor::issueCollective(std::uint32_t op, std::size_t stream, double now)
{
    const PlannedOp& p = m_plan.ops[op];
    m_streamOp[stream] = op;
    m_streamOfOp[op] = stream;
    m_record[op].start = now;
    // The next collective of the group may now start, if it is ready.
    const std::uint32_t next = ++m_nextOrdinal[p.group];
    if (auto held = m_heldCollectives.find(p.group); held != m_heldCollectives.end()) {
        if (auto it = held->second.find(next); it != held->second.end()) {
            m_issuable.push(it->second);
            held->second.erase(it);
        }
    }

    const MPI_Comm comm = commOf(p.group);
    const std::vector<std::int32_t>& members = membersOf(p.group);
    const std::size_t n = members.size();
    const auto me = static_cast<std::size_t>(m_positionIn.at(p.group));
    unsigned char* send = m_streamSend[stream].data();
    unsigned char* receive = m_streamReceive[stream].data();
    const int s = count(p.bytes);
    std::uint64_t moved = p.bytes;
    const auto inFlight = [&](MPI_Request request) {
        m_requests.push_back(request);
        m_requestOp.push_back(op);
        ++m_outstanding[op];
    };
    MPI_Request request = MPI_REQUEST_NULL;
    // Bytes are moved as MPI_BYTE and reduced with MPI_BAND, which MPI defines for bytes.
    switch (p.collective) {
    case CollectiveKind::AllReduce:
        check(MPI_Iallreduce(send, receive, s, MPI_BYTE, MPI_BAND, comm, &request), "MPI_Iallreduce");
        break;
    case CollectiveKind::Reduce:
        check(MPI_Ireduce(send, receive, s, MPI_BYTE, MPI_BAND, 0, comm, &request), "MPI_Ireduce");
        break;
    case CollectiveKind::Broadcast:
    case CollectiveKind::CollectiveBroadcast:
        check(MPI_Ibcast(send, s, MPI_BYTE, 0, comm, &request), "MPI_Ibcast");
        break;
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::ReduceScatterBlock: {
        std::vector<int>& counts = m_counts[op];
        counts.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            counts[i] = share(p.bytes, n, i);
        check(MPI_Ireduce_scatter(send, receive, counts.data(), MPI_BYTE, MPI_BAND, comm, &request),
              "MPI_Ireduce_scatter");
        break;
    }
    case CollectiveKind::AllGather:
        check(MPI_Iallgather(send, s, MPI_BYTE, receive, s, MPI_BYTE, comm, &request), "MPI_Iallgather");
        break;
    case CollectiveKind::Gather:
        check(MPI_Igather(send, s, MPI_BYTE, receive, s, MPI_BYTE, 0, comm, &request), "MPI_Igather");
        break;
    case CollectiveKind::Scatter:
        check(MPI_Iscatter(send, s, MPI_BYTE, receive, s, MPI_BYTE, 0, comm, &request), "MPI_Iscatter");
        break;
    case CollectiveKind::AllToAll: {
        // All-to-all-v: this rank's buffer split over the members, and from each member its share of
        // that member's buffer.
        std::vector<int>& a = m_counts[op];
        a.assign(4 * n, 0);
        int* sendCounts = a.data();
        int* sendOffsets = sendCounts + n;
        int* receiveCounts = sendOffsets + n;
        int* receiveOffsets = receiveCounts + n;
        moved = 0;
        for (std::size_t j = 0; j < n; ++j) {
            sendCounts[j] = share(p.bytes, n, j);
            moved += static_cast<std::uint64_t>(sendCounts[j]);
            receiveCounts[j] = share(j < p.memberBytes.size() ? p.memberBytes[j] : p.bytes, n, me);
            if (j > 0) {
                sendOffsets[j] = sendOffsets[j - 1] + sendCounts[j - 1];
                receiveOffsets[j] = receiveOffsets[j - 1] + receiveCounts[j - 1];
            }
        }
        check(MPI_Ialltoallv(send, sendCounts, sendOffsets, MPI_BYTE, receive, receiveCounts, receiveOffsets, MPI_BYTE,
                             comm, &request),
              "MPI_Ialltoallv");
        break;
    }
    case CollectiveKind::Barrier:
        moved = 0;
        check(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
        break;
    case CollectiveKind::CollectivePermute: {
        // A message to this rank's target and one from its source, on the group's communicator,
        // tagged with the permute's ordinal so that two permutes of the group never pair across.
        const int tag = static_cast<int>(p.ordinal % m_tagModulus);
        const auto position = [&](std::int32_t rank) {
            return static_cast<int>(std::find(members.begin(), members.end(), rank) - members.begin());
        };
        moved = 0;
        if (p.recvFrom >= 0) {
            MPI_Request r = MPI_REQUEST_NULL;
            check(MPI_Irecv(receive, count(p.memberBytes.empty() ? p.bytes : p.memberBytes[0]), MPI_BYTE,
                            position(p.recvFrom), tag, comm, &r),
                  "MPI_Irecv");
            inFlight(r);
        }
        if (p.sendTo >= 0) {
            moved = p.bytes;
            check(MPI_Isend(send, s, MPI_BYTE, position(p.sendTo), tag, comm, &request), "MPI_Isend");
        } else if (p.recvFrom >= 0) {
            moved = p.memberBytes.empty() ? p.bytes : p.memberBytes[0];
        }
        break;
    }
    }
    if (request != MPI_REQUEST_NULL)
        inFlight(request);
    m_record[op].bytes = moved;
    if (m_outstanding[op] == 0) // a permute this rank takes no part in
        finish(op, now);
}

void Executor::postTransfer(std::uint32_t op, double now)
{
    const PlannedOp& p = m_plan.ops[op];
    m_record[op].start = now;
    m_record[op].bytes = p.bytes;
    const int tag = static_cast<int>(static_cast<std::uint32_t>(p.tag) % m_tagModulus);
    MPI_Request request = MPI_REQUEST_NULL;
    if (p.action == Action::Send)
        check(MPI_Isend(m_p2pSend.data(), count(p.bytes), MPI_BYTE, p.peer, tag, m_p2p, &request), "MPI_Isend");
    else
        check(MPI_Irecv(m_p2pReceive.data(), count(p.bytes), MPI_BYTE, p.peer, tag, m_p2p, &request), "MPI_Irecv");
    m_requests.push_back(request);
    m_requestOp.push_back(op);
    ++m_outstanding[op];
}

void Executor::handleCompleted(int completed, const std::vector<int>& indices, double now)
{
    if (completed == MPI_UNDEFINED || completed <= 0)
        return;
    for (int k = 0; k < completed; ++k) {
        const std::uint32_t op = m_requestOp[static_cast<std::size_t>(indices[static_cast<std::size_t>(k)])];
        if (--m_outstanding[op] == 0)
            finish(op, now);
    }
    // Completed requests are MPI_REQUEST_NULL now: drop them.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_requests.size(); ++i) {
        if (m_requests[i] == MPI_REQUEST_NULL)
            continue;
        m_requests[kept] = m_requests[i];
        m_requestOp[kept] = m_requestOp[i];
        ++kept;
    }
    m_requests.resize(kept);
    m_requestOp.resize(kept);
}

bool Executor::step(double t)
{
    bool progressed = false;
    if (!m_requests.empty()) {
        int completed = 0;
        m_completed.resize(m_requests.size());
        check(MPI_Testsome(static_cast<int>(m_requests.size()), m_requests.data(), &completed, m_completed.data(),
                           MPI_STATUSES_IGNORE),
              "MPI_Testsome");
        if (completed > 0 && completed != MPI_UNDEFINED) {
            handleCompleted(completed, m_completed, t);
            progressed = true;
        }
    }
    if (m_computeBusy && t >= m_computeEnd) {
        m_computeBusy = false;
        m_lastComputeEnd = t;
        const MeasuredOp& r = m_record[m_computeOp];
        const double overhead = (t - r.start - m_plan.ops[m_computeOp].seconds) + m_lastOverheadStart;
        m_overheadSum += overhead;
        m_overheadMax = std::max(m_overheadMax, overhead);
        ++m_computeOps;
        finish(m_computeOp, t);
        progressed = true;
    }
    while (!m_computeBusy && !m_computeReady.empty()) {
        const std::uint32_t op = m_computeReady.top();
        m_computeReady.pop();
        m_record[op].start = t;
        m_lastOverheadStart = t - std::max(m_record[op].ready, m_lastComputeEnd);
        m_computeOp = op;
        m_computeEnd = t + m_plan.ops[op].seconds;
        m_computeBusy = true;
        progressed = true;
        if (m_plan.ops[op].seconds <= 0) { // metadata, CPU ops: no time, but in stream order
            m_computeBusy = false;
            m_lastComputeEnd = t;
            finish(op, t);
        }
    }
    for (std::size_t s = 0; s < m_streamOp.size() && !m_issuable.empty(); ++s) {
        if (m_streamOp[s] != kNone)
            continue;
        const std::uint32_t op = m_issuable.top();
        m_issuable.pop();
        issueCollective(op, s, t);
        progressed = true;
    }
    if (!m_transfersReady.empty()) {
        std::vector<std::uint32_t> ready;
        ready.swap(m_transfersReady);
        std::sort(ready.begin(), ready.end());
        for (std::uint32_t op : ready)
            postTransfer(op, t);
        progressed = true;
    }
    return progressed;
}

void Executor::waitUntil(double until)
{
    // Sleep through all but the last half millisecond when nothing needs MPI's progress (the kernel
    // wakes a sleeper up to ~60 us late), then poll.
    if (!m_requests.empty()) { // step() tests them
        relax(until);
        return;
    }
    if (until - now() > 1e-3)
        std::this_thread::sleep_for(std::chrono::duration<double>(until - now() - 5e-4));
    while (now() < until)
        relax(until);
}

ReplayResult Executor::run()
{
    createCommunicators();
    allocateBuffers();
    warmUp();
    const std::size_t n = m_plan.ops.size();
    m_record.assign(n, MeasuredOp{-1.0, -1.0, -1.0, 0});
    m_pending.resize(n);
    m_outstanding.assign(n, 0);
    m_streamOp.assign(static_cast<std::size_t>(m_plan.commStreams), kNone);
    m_streamOfOp.assign(n, 0);
    const core::DependencyGraph& g = m_plan.graph;
    for (std::size_t i = 0; i < n; ++i)
        m_pending[i] = g.predStart[i + 1] - g.predStart[i];

    // A common clock: rank 0's. Every process starts at the same instant of it.
    ReplayStats stats;
    const auto [offset, error] = clockOffset(m_session, m_p2p);
    double clockError = error;
    check(MPI_Allreduce(MPI_IN_PLACE, &clockError, 1, MPI_DOUBLE, MPI_MAX, m_p2p), "MPI_Allreduce");
    int yield = m_yield ? 1 : 0;
    check(MPI_Allreduce(MPI_IN_PLACE, &yield, 1, MPI_INT, MPI_MAX, m_p2p), "MPI_Allreduce");
    double startAt = localNow() + 0.01 + 0.001 * m_session.size(); // rank 0's clock
    check(MPI_Bcast(&startAt, 1, MPI_DOUBLE, 0, m_p2p), "MPI_Bcast");
    m_start = startAt - offset;
    while (localNow() < m_start)
        relax(0.0); // the start is time 0

    for (std::uint32_t i = 0; i < n; ++i)
        if (m_pending[i] == 0)
            makeReady(i, 0.0);
    m_lastProgress = 0.0;
    while (m_done < n) {
        if (step(now())) {
            m_lastProgress = now();
            continue;
        }
        if (m_computeBusy) {
            waitUntil(m_computeEnd);
        } else if (!m_requests.empty()) {
            // Waiting for peers (step() tests the requests). Collectives that hold communication
            // streams while their groups overlap can wait on each other in a cycle when the ranks
            // took them in different orders: that is reported, never waited out.
            if (now() - m_lastProgress > m_stallSeconds) {
                char seconds[32];
                std::snprintf(seconds, sizeof seconds, "%g", m_stallSeconds);
                throw std::runtime_error(std::string("made no progress for ") + seconds + " s, waiting in " +
                                         inFlight() +
                                         ": peers never joined (collectives holding the communication streams in a "
                                         "cycle: try more --comm-streams), or a message takes longer than "
                                         "--stall-timeout");
            }
            relax(now() + 1.0);
        } else {
            // Nothing runs, nothing can start: a collective waits for an earlier one of its group
            // that waits for it in turn. The estimator (run first) matches collectives in program
            // order too, so this is the workload's order against its dependencies.
            std::string held;
            for (const auto& [group, ops] : m_heldCollectives)
                for (const auto& [ordinal, op] : ops)
                    held += (held.empty() ? "" : ", ") +
                            m_workload.programOf(static_cast<std::size_t>(m_plan.rank)).ops[op].name;
            throw std::runtime_error("cannot go on: collectives " + held +
                                     " wait for earlier collectives of their group that depend on them");
        }
    }

    // Every rank's records on rank 0, as [ready, start, end, bytes] per op.
    std::vector<double> mine;
    mine.reserve(4 * n);
    for (const MeasuredOp& r : m_record) {
        mine.push_back(r.ready);
        mine.push_back(r.start);
        mine.push_back(r.end);
        mine.push_back(static_cast<double>(r.bytes));
    }
    const int length = count(mine.size());
    std::vector<int> lengths(m_session.root() ? static_cast<std::size_t>(m_session.size()) : 0);
    check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, m_p2p), "MPI_Gather");
    std::vector<int> offsets(lengths.size(), 0);
    long long total = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        offsets[i] = count(static_cast<std::uint64_t>(total));
        total += lengths[i];
    }
    std::vector<double> all(static_cast<std::size_t>(total));
    check(
        MPI_Gatherv(mine.data(), length, MPI_DOUBLE, all.data(), lengths.data(), offsets.data(), MPI_DOUBLE, 0, m_p2p),
        "MPI_Gatherv");
    double sums[2] = {m_overheadSum, static_cast<double>(m_computeOps)};
    double worst = m_overheadMax;
    check(MPI_Reduce(m_session.root() ? MPI_IN_PLACE : sums, sums, 2, MPI_DOUBLE, MPI_SUM, 0, m_p2p), "MPI_Reduce");
    check(MPI_Reduce(m_session.root() ? MPI_IN_PLACE : &worst, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, m_p2p), "MPI_Reduce");

    ReplayResult result;
    stats.clockError = clockError;
    stats.yielding = yield != 0;
    stats.computeOps = static_cast<std::uint64_t>(sums[1]);
    stats.overheadMean = sums[1] > 0 ? sums[0] / sums[1] : 0.0;
    stats.overheadMax = worst;
    result.stats = stats;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        std::vector<MeasuredOp> ops(static_cast<std::size_t>(lengths[r]) / 4);
        const double* at = all.data() + offsets[r];
        for (std::size_t i = 0; i < ops.size(); ++i)
            ops[i] = MeasuredOp{at[4 * i], at[4 * i + 1], at[4 * i + 2], static_cast<std::uint64_t>(at[4 * i + 3])};
        result.ranks.push_back(std::move(ops));
    }
    return result;
}

} // namespace

ReplayResult runReplay(const Session& session, const core::Workload& workload, const RankPlan& plan,
                       double stallSeconds)
{
    if (static_cast<std::size_t>(session.size()) != workload.rankCount())
        throw std::runtime_error("the replay needs one process per rank");
    Executor executor(session, workload, plan, stallSeconds);
    return executor.run();
}

} // namespace flint::engine::mpi
