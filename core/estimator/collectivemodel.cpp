// SPDX-License-Identifier: MIT
// Collective cost models. Every formula is written out in docs/estimator.md; times here are in ns
// until the end, where they become seconds. Notation: n members of a phase, c bytes per rank and
// chunk entering it, B link bandwidth (bytes/ns), L latency per hop (ns), h hops, ED endpoint delay.
#include "core/estimator/collectivemodel.h"

#include "core/error.h"
#include "core/message.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include <queue>

namespace flint::core {
namespace {

constexpr double kNsPerSecond = 1e9;

/// The wires one phase runs over.
struct Link {
    double bytesPerNs = 1;
    double latencyNs = 0;
    std::int32_t neighbourHops = 1; ///< hops between logical ring neighbours
    std::int32_t maxHops = 1;       ///< hops to the farthest member
    TopologyKind kind = TopologyKind::Switch;
    std::int32_t dim = 0;
};

struct PhaseResult {
    double timeNs = 0;
    double sentPerRank = 0;
    double bytesOut = 0;
    std::int32_t steps = 0;
};

bool isPowerOfTwo(std::int64_t n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

std::int32_t log2i(std::int64_t n)
{
    return static_cast<std::int32_t>(std::bit_width(static_cast<std::uint64_t>(n)) - 1);
}

std::int32_t ceilLog2(std::int64_t n)
{
    return n <= 1 ? 0 : log2i(n - 1) + 1;
}

/// One of NCCL's protocols as NCCL's tuning model prices a ring (NVIDIA/nccl src/graph/tuning.cc at
/// 5067397: baseLatencies, hwLatencies and the bandwidth refinements of ncclTopoTuneModel), in us.
struct NcclProtocol {
    const char* name;
    double baseUs;         ///< baseLatencies[Ring]
    double nvlinkStepUs;   ///< hwLatencies[NVLINK][Ring]: a ring step inside a node
    double netStepUs;      ///< hwLatencies[NET][Ring]: a step between nodes
    double netSoloStepUs;  ///< hwLatencies[NET][Tree]: a step between nodes with one GPU per node
    double netOverheadUs;  ///< the least a step inside a node takes in a multi-node ring (x86 Intel)
    double bandwidthShare; ///< of the link bandwidth: LL moves 8 bytes of data per 16, LL128 120 per 128
    bool llLimit;          ///< capped at llMaxBws
    bool plateau;          ///< a multi-node all-reduce's latency x 1.4 (Simple: "plateau effect of ring")
};

constexpr NcclProtocol kNcclProtocols[] = {
    {"LL", 6.6, 0.6, 2.7, 5.0, 1.0, 0.5, true, false},
    {"LL128", 14.0, 1.9, 4.0, 8.5, 1.0, 0.92, false, false},
    {"Simple", 8.4, 3.4, 14.0, 14.0, 3.0, 1.0, false, true},
};

/// NCCL's tree all-reduce across nodes under one protocol (the same source): a chain inside each
/// node, a double binary tree between nodes. Its bus bandwidth is 0.92 of the link's (LL: then
/// divided by 3.8; LL128: then x 120/128), corrected by `correction[log2(bytes / 64)]` for the
/// medium sizes where NCCL's own measurements fall below its model (treeCorrectionFactor).
struct NcclTree {
    const char* name;
    double baseUs;         ///< baseLatencies[Tree]
    double nvlinkStepUs;   ///< hwLatencies[NVLINK][Tree]
    double netStepUs;      ///< hwLatencies[NET][Tree]
    double bandwidthShare; ///< of the link bandwidth
    bool llLimit;
    std::array<double, 24> correction; ///< by log2(bytes / 64), 64 B to 512 MiB; 1 beyond
};

// clang-format off
constexpr NcclTree kNcclTrees[] = {
    {"LL", 6.8, 0.6, 5.0, 0.92 / 3.8, true,
     {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {"LL128", 14.0, 1.25, 8.5, 0.92 * 120.0 / 128.0, false,
     {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0}},
    {"Simple", 8.4, 4.0, 14.0, 0.92, false,
     {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}},
};
// clang-format on

/// NCCL's LL limit on the bus bandwidth of a multi-node ring on x86 Intel hosts (llMaxBws, GB/s):
/// two nodes, more.
constexpr double kNcclLlTwoNodesGBps = 39.0;
constexpr double kNcclLlManyNodesGBps = 20.4;

class Costing {
public:
    Costing(const Cluster& cluster, bool insideSubgroup, const NcclProtocol* protocol = nullptr, double llCapGBps = 0)
        : m_cluster(cluster)
        , m_astra(cluster.model == CostModel::AstraSim)
        , m_protocol(protocol)
        , m_llCapBytesPerNs(llCapGBps)
    {
        // ASTRA-sim charges a fixed 10 ns per endpoint inside communicator groups smaller than the
        // world (its MemBus for comm groups ignores endpoint-delay); we take the configured value.
        m_endpointDelay = (m_astra && insideSubgroup) ? 10.0 : cluster.system.endpointDelayNs;
    }

    double endpointDelay() const { return m_endpointDelay; }

    /// One message of m bytes over h hops: h L + m / B (ASTRA-sim truncates to whole ns). Under an
    /// NCCL protocol the bytes move at the protocol's share of B, and the latency is the ring's,
    /// paid once for the collective (ncclLatency), not per message.
    double message(double bytes, std::int32_t hops, const Link& link) const
    {
        if (m_protocol)
            return transfer(bytes, link);
        const double t = hops * link.latencyNs + bytes / link.bytesPerNs;
        return m_astra ? std::floor(t) : t;
    }

    /// The time m bytes take on the wire of `link`, without latency: at B, or at the NCCL protocol's
    /// share of it. A reduction streams beside this transfer (reductionBeyond).
    double transfer(double bytes, const Link& link) const
    {
        if (!m_protocol)
            return bytes / link.bytesPerNs;
        double rate = link.bytesPerNs * m_protocol->bandwidthShare;
        if (m_protocol->llLimit && m_llCapBytesPerNs > 0)
            rate = std::min(rate, m_llCapBytesPerNs);
        return bytes / rate;
    }

    /// Reducing m received bytes into the local buffer: 3 m / local memory bandwidth (two reads,
    /// one write). ASTRA-sim: 3 trunc(m / local-mem-bw) with local-mem-bw in 10^9 bytes/s, and nothing
    /// when local-mem-bw is absent; we fall back to the device's memory bandwidth times its efficiency.
    double reduction(double bytes) const
    {
        const double localGBps = m_cluster.system.localMemBandwidthGBps;
        if (m_astra)
            return localGBps > 0 ? 3.0 * std::floor(bytes / localGBps) : 0.0;
        const double bytesPerSecond =
            localGBps > 0 ? localGBps * 1e9 : m_cluster.device.memoryBandwidth * m_cluster.compute.memoryEfficiency;
        return bytesPerSecond > 0 ? 3.0 * bytes / bytesPerSecond * kNsPerSecond : 0.0;
    }

    /// What reducing `bytes` adds to a step whose data takes `transferNs` on the wire. ASTRA-sim adds
    /// the whole reduction after the transfer; NCCL's kernels reduce the received data into the
    /// outgoing buffer as it streams, so (our model) the step takes the longer of the two: only the
    /// reduction's excess over the transfer is added (none on NVLink or InfiniBand, where 3 bytes of
    /// HBM traffic per byte moved take less time than the byte on the link).
    double reductionBeyond(double transferNs, double bytes) const
    {
        const double red = reduction(bytes);
        return m_astra ? red : std::max(0.0, red - transferNs);
    }

    /// Time of n - 1 messages of m bytes that a rank sends to distinct peers at once: ASTRA-sim (and a
    /// fully connected dimension) sends them in parallel; a Switch or Ring port serialises them.
    double directRound(double bytes, std::int32_t n, const Link& link) const
    {
        if (m_astra || link.kind == TopologyKind::FullyConnected)
            return message(bytes, link.maxHops, link);
        const double ports = link.kind == TopologyKind::Ring ? 2.0 : 1.0;
        return link.maxHops * link.latencyNs + (n - 1) * bytes / (ports * link.bytesPerNs);
    }

    PhaseResult phase(CollectiveKind kind, CollectiveAlgorithm algorithm, std::int32_t n, double c,
                      const Link& link) const
    {
        PhaseResult r;
        const double ed = m_endpointDelay;
        switch (algorithm) {
        case CollectiveAlgorithm::Ring: {
            double m = c / n;
            std::int32_t reductions = 0;
            r.bytesOut = c;
            switch (kind) {
            case CollectiveKind::AllReduce:
                r.steps = 2 * (n - 1);
                reductions = n - 1;
                break;
            case CollectiveKind::ReduceScatter:
            case CollectiveKind::ReduceScatterBlock:
                r.steps = n - 1;
                reductions = n - 1;
                r.bytesOut = c / n;
                break;
            case CollectiveKind::AllGather:
                r.steps = n - 1;
                m = c;
                r.bytesOut = c * n;
                break;
            case CollectiveKind::AllToAll:
                // Data for the peer k hops away travels k neighbour steps: n(n-1)/2 messages of c/n.
                r.steps = n * (n - 1) / 2;
                break;
            default:
                r.steps = n - 1;
                break;
            }
            // On a fully connected dimension NCCL and RCCL run a ring per link (as many channels as
            // a GPU has links to its n - 1 peers, each ring entering and leaving every GPU through
            // other links), so a step's m bytes leave on n - 1 links at once. ASTRA-sim sends each
            // step's message over one link.
            const double lanes = (!m_astra && link.kind == TopologyKind::FullyConnected) ? std::max(1, n - 1) : 1;
            // T = steps (h L + m/B) + (steps + 1) ED + reductions max(0, T_red(m) - m/B) (ASTRA-sim:
            // + reductions T_red(m))
            r.timeNs = r.steps * message(m / lanes, link.neighbourHops, link) + (r.steps + 1) * ed +
                       reductions * reductionBeyond(transfer(m / lanes, link), m);
            r.sentPerRank = r.steps * m;
            return r;
        }
        case CollectiveAlgorithm::Direct: {
            // One round of c/n to each peer, and the part of it that moves data (reductions overlap that).
            const double round = directRound(c / n, n, link);
            const double roundTransfer = round - link.maxHops * link.latencyNs;
            switch (kind) {
            case CollectiveKind::AllToAll:
                r.timeNs = 2 * ed + round;
                r.bytesOut = c;
                r.sentPerRank = (n - 1) * c / n;
                break;
            case CollectiveKind::ReduceScatter:
            case CollectiveKind::ReduceScatterBlock:
                r.timeNs = 2 * ed + round + reductionBeyond(roundTransfer, m_astra ? c / n : (n - 1) * c / n);
                r.bytesOut = c / n;
                r.sentPerRank = (n - 1) * c / n;
                break;
            case CollectiveKind::AllGather:
                r.timeNs = 2 * ed + directRound(c, n, link);
                r.bytesOut = c * n;
                r.sentPerRank = (n - 1) * c;
                break;
            default: // all-reduce: a reduce-scatter round, then an all-gather round of the reduced pieces
                r.timeNs =
                    2 * ed + round + reductionBeyond(roundTransfer, m_astra ? c / n : (n - 1) * c / n) + ed + round;
                r.bytesOut = c;
                r.sentPerRank = 2 * (n - 1) * c / n;
                break;
            }
            r.steps = kind == CollectiveKind::AllReduce ? 2 : 1;
            return r;
        }
        case CollectiveAlgorithm::HalvingDoubling: {
            const std::int32_t k = log2i(n);
            const auto hopsAt = [&](std::int64_t distance) {
                if (link.kind == TopologyKind::Ring) {
                    const std::int64_t d = distance * link.neighbourHops;
                    return static_cast<std::int32_t>(
                        std::min<std::int64_t>(d, std::max<std::int64_t>(1, n * link.neighbourHops - d)));
                }
                return link.maxHops;
            };
            double t = 0;
            double sent = 0;
            std::int32_t steps = 0;
            const bool reduce = kind == CollectiveKind::AllReduce || kind == CollectiveKind::ReduceScatter ||
                                kind == CollectiveKind::ReduceScatterBlock;
            if (reduce) {
                // Reduce-scatter: step s = 1..log2 n exchanges c / 2^s with the partner 2^(s-1) away.
                for (std::int32_t s = 1; s <= k; ++s) {
                    const double m = c / std::ldexp(1.0, s);
                    t += message(m, hopsAt(std::int64_t{1} << (s - 1)), link);
                    // ASTRA-sim charges the reduction only from the second step on.
                    if (!m_astra || s >= 2)
                        t += reductionBeyond(transfer(m, link), m);
                    sent += m;
                    ++steps;
                }
            }
            if (kind == CollectiveKind::AllReduce) {
                // ... then the mirror-image all-gather: c/n, 2c/n, ..., c/2 with partners n/2, ..., 1.
                for (std::int32_t s = k; s >= 1; --s) {
                    const double m = c / std::ldexp(1.0, s);
                    t += message(m, hopsAt(std::int64_t{1} << (s - 1)), link);
                    sent += m;
                    ++steps;
                }
                r.bytesOut = c;
            } else if (kind == CollectiveKind::AllGather) {
                // All-gather: step s sends 2^(s-1) c to the partner 2^(s-1) away.
                for (std::int32_t s = 1; s <= k; ++s) {
                    const double m = c * std::ldexp(1.0, s - 1);
                    t += message(m, hopsAt(std::int64_t{1} << (s - 1)), link);
                    sent += m;
                    ++steps;
                }
                r.bytesOut = c * n;
            } else if (kind == CollectiveKind::AllToAll) {
                // Pairwise exchange by XOR partner: n - 1 rounds of c/n.
                for (std::int32_t s = 1; s < n; ++s) {
                    t += message(c / n, link.maxHops, link);
                    sent += c / n;
                    ++steps;
                }
                r.bytesOut = c;
            } else {
                r.bytesOut = c / n;
            }
            r.timeNs = t + (steps + 1) * ed;
            r.sentPerRank = sent;
            r.steps = steps;
            return r;
        }
        case CollectiveAlgorithm::DoubleBinaryTree: {
            // Two complementary binary trees each carry half of the chunk up (reduce) and back down
            // (broadcast); every rank is interior in at most one tree, so its port carries both halves:
            // T = 2 D (h L + (c/2)/B + ED) + D T_red(c/2), D = ceil(log2(n + 1)) - 1 levels below the root.
            const std::int32_t depth = std::max(1, ceilLog2(n + 1) - 1);
            r.steps = 2 * depth;
            r.timeNs = 2 * depth * (message(c / 2, link.maxHops, link) + ed) +
                       depth * reductionBeyond(transfer(c / 2, link), c / 2) + ed;
            r.sentPerRank = 2 * c;
            r.bytesOut = c;
            return r;
        }
        }
        return r;
    }

private:
    const Cluster& m_cluster;
    bool m_astra = false;
    const NcclProtocol* m_protocol = nullptr;
    double m_llCapBytesPerNs = 0; ///< GB/s = bytes per ns
    double m_endpointDelay = 0;
};

/// How a group sits in the topology.
struct GroupShape {
    bool grid = false;                ///< members are a Cartesian product of per-dimension coordinates
    std::vector<std::int32_t> counts; ///< distinct coordinates per dimension (grid only)
    std::vector<Link> links;          ///< per dimension (grid only)
    Link flat;                        ///< the slowest neighbour link of the flat ring over the group
};

Link dimLink(const TopologyDim& dim, std::int32_t d)
{
    Link link;
    link.bytesPerNs = dim.bandwidthBytesPerSecond() / kNsPerSecond;
    link.latencyNs = dim.latencyNs;
    link.kind = dim.kind;
    link.dim = d;
    link.neighbourHops = dim.kind == TopologyKind::Ring ? 1 : (dim.kind == TopologyKind::Switch ? 2 : 1);
    link.maxHops = std::max(1, dim.maxHops());
    return link;
}

GroupShape analyse(const Topology& topology, std::span<const std::int32_t> members)
{
    GroupShape shape;
    const std::size_t dims = topology.dims.size();
    std::vector<std::vector<std::int32_t>> coords(dims);
    for (std::size_t d = 0; d < dims; ++d) {
        std::vector<char> seen(static_cast<std::size_t>(topology.dims[d].npus), 0);
        for (std::int32_t r : members)
            seen[static_cast<std::size_t>(topology.coordinate(r, d))] = 1;
        for (std::int32_t c = 0; c < topology.dims[d].npus; ++c)
            if (seen[static_cast<std::size_t>(c)])
                coords[d].push_back(c);
    }
    std::int64_t product = 1;
    for (const auto& c : coords)
        product *= static_cast<std::int64_t>(c.size());
    shape.grid = product == static_cast<std::int64_t>(members.size());
    shape.counts.resize(dims);
    shape.links.resize(dims);
    for (std::size_t d = 0; d < dims; ++d) {
        shape.counts[d] = static_cast<std::int32_t>(coords[d].size());
        Link link = dimLink(topology.dims[d], static_cast<std::int32_t>(d));
        if (topology.dims[d].kind == TopologyKind::Ring && coords[d].size() > 1) {
            // A ring over a subset of a physical ring: the logical neighbours' largest distance.
            std::int32_t worst = 1, far = 1;
            const auto& c = coords[d];
            for (std::size_t i = 0; i < c.size(); ++i) {
                worst = std::max(worst, topology.dims[d].hops(c[i], c[(i + 1) % c.size()]));
                for (std::size_t j = i + 1; j < c.size(); ++j)
                    far = std::max(far, topology.dims[d].hops(c[i], c[j]));
            }
            link.neighbourHops = worst;
            link.maxHops = far;
        }
        shape.links[d] = link;
    }
    // The flat logical ring over the sorted members: its slowest neighbour message sets the pace.
    Link flat;
    double worstTime = -1;
    const double probe = 1 << 20;
    for (std::size_t i = 0; i < members.size() && members.size() > 1; ++i) {
        const std::int32_t a = members[i];
        const std::int32_t b = members[(i + 1) % members.size()];
        const int d = topology.firstDifferingDim(a, b);
        if (d < 0)
            continue;
        Link link = dimLink(topology.dims[static_cast<std::size_t>(d)], d);
        link.neighbourHops = std::max(
            1, topology.dims[static_cast<std::size_t>(d)].hops(topology.coordinate(a, static_cast<std::size_t>(d)),
                                                               topology.coordinate(b, static_cast<std::size_t>(d))));
        const double t = link.neighbourHops * link.latencyNs + probe / link.bytesPerNs;
        if (t > worstTime) {
            worstTime = t;
            flat = link;
        }
    }
    flat.maxHops = std::max(flat.maxHops, flat.neighbourHops);
    shape.flat = flat;
    return shape;
}

/// Makespan of `chunks` identical chunks flowing through `phases` in order, each topology dimension
/// running at most `active` chunks at once in first-come order (ASTRA-sim's per-dimension queues).
double pipeline(const std::vector<std::pair<int, double>>& phases, std::uint64_t chunks, std::int32_t active)
{
    if (phases.empty() || chunks == 0)
        return 0;
    if (phases.size() == 1)
        return std::ceil(static_cast<double>(chunks) / active) * phases[0].second;
    struct Queue {
        std::deque<std::uint64_t> waiting;
        std::int32_t running = 0;
    };
    std::map<int, Queue> queues;
    std::vector<std::size_t> next(chunks, 0);
    using Event = std::pair<double, std::uint64_t>; // (time, chunk)
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
    for (std::uint64_t c = 0; c < chunks; ++c)
        queues[phases[0].first].waiting.push_back(c);
    double now = 0, end = 0;
    const auto startWaiting = [&]() {
        for (auto& [dim, q] : queues)
            while (q.running < active && !q.waiting.empty()) {
                const std::uint64_t c = q.waiting.front();
                q.waiting.pop_front();
                ++q.running;
                events.emplace(now + phases[next[c]].second, c);
            }
    };
    startWaiting();
    while (!events.empty()) {
        const auto [time, c] = events.top();
        events.pop();
        now = time;
        end = std::max(end, time);
        --queues[phases[next[c]].first].running;
        if (++next[c] < phases.size())
            queues[phases[next[c]].first].waiting.push_back(c);
        if (!events.empty() && events.top().first == now)
            continue; // finish every phase that ends now before starting new ones
        startWaiting();
    }
    return end;
}

bool isStagedKind(CollectiveKind kind)
{
    return kind == CollectiveKind::AllReduce || kind == CollectiveKind::AllGather ||
           kind == CollectiveKind::ReduceScatter || kind == CollectiveKind::ReduceScatterBlock ||
           kind == CollectiveKind::AllToAll;
}

/// ASTRA-sim's ring over a communicator group whose neighbour links differ: each rank sends step s + 1
/// once it has received step s (plus the endpoint delay and, on reducing steps, the reduction), so a
/// rank's end is set by the links on the path that feeds it. Chunk j starts on a rank when its chunk
/// j - active has ended there. Returns each member's end in ns, or an empty vector when the recurrence
/// would be too large to evaluate (then the slowest-link formula stands).
std::vector<double> ringRecurrence(const Cluster& cluster, CollectiveKind kind, std::span<const std::int32_t> members,
                                   double chunk, std::uint64_t chunks, double endpointDelay, const Costing& costing)
{
    const auto n = static_cast<std::int64_t>(members.size());
    std::int64_t steps = 0, reducing = 0;
    double m = chunk / static_cast<double>(n);
    switch (kind) {
    case CollectiveKind::AllReduce:
        steps = 2 * (n - 1);
        reducing = n - 1;
        break;
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::ReduceScatterBlock:
        steps = reducing = n - 1;
        break;
    case CollectiveKind::AllGather:
        steps = n - 1;
        m = chunk;
        break;
    default:
        steps = n * (n - 1) / 2;
        break;
    }
    if (static_cast<double>(steps) * static_cast<double>(n) * static_cast<double>(chunks) > 3e7)
        return {};
    const Topology& topology = cluster.topology;
    std::vector<double> link(static_cast<std::size_t>(n)); // time of the message from member i to i + 1
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int32_t a = members[static_cast<std::size_t>(i)];
        const std::int32_t b = members[static_cast<std::size_t>((i + 1) % n)];
        const int d = topology.firstDifferingDim(a, b);
        const auto du = static_cast<std::size_t>(std::max(d, 0));
        const TopologyDim& dim = topology.dims[du];
        Link l = dimLink(dim, d);
        link[static_cast<std::size_t>(i)] =
            costing.message(m, std::max(1, dim.hops(topology.coordinate(a, du), topology.coordinate(b, du))), l);
    }
    const double red = costing.reduction(m);
    const std::int32_t active = std::max(1, cluster.system.activeChunksPerDimension);
    std::vector<std::vector<double>> finish(chunks, std::vector<double>(static_cast<std::size_t>(n), 0.0));
    std::vector<double> send(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
    for (std::uint64_t j = 0; j < chunks; ++j) {
        for (std::int64_t i = 0; i < n; ++i) {
            const double start = j >= static_cast<std::uint64_t>(active)
                                     ? finish[j - static_cast<std::uint64_t>(active)][static_cast<std::size_t>(i)]
                                     : 0.0;
            send[static_cast<std::size_t>(i)] = start + endpointDelay;
        }
        for (std::int64_t s = 1; s <= steps; ++s) {
            for (std::int64_t i = 0; i < n; ++i) {
                const std::size_t from = static_cast<std::size_t>((i + n - 1) % n);
                const double received = send[from] + link[from];
                const double after = std::max(received, send[static_cast<std::size_t>(i)]) + endpointDelay;
                next[static_cast<std::size_t>(i)] = after + (s <= reducing ? red : 0.0);
            }
            send.swap(next);
        }
        finish[j] = send;
    }
    std::vector<double> end(static_cast<std::size_t>(n), 0.0);
    for (const auto& f : finish)
        for (std::size_t i = 0; i < end.size(); ++i)
            end[i] = std::max(end[i], f[i]);
    return end;
}

/// One of ASTRA-sim's two binary trees over n (a power of two) positions: a complete binary tree of
/// n - 1 nodes numbered in order, plus a root with that tree as its only child. Tree A (`rootAtEnd`)
/// spans positions 0..n-2 under root n-1, tree B positions 1..n-1 under root 0. The inner tree numbers
/// x = 1..n-1 in order: x's height is its count of trailing zero bits h, its children x -/+ 2^(h-1),
/// its parent x - 2^h when bit h + 1 is set, else x + 2^h; the top, n/2, hangs from the extra root.
struct BinaryTreeShape {
    std::int64_t root = 0;
    std::vector<std::int64_t> parent;                // by position; -1 for the root
    std::vector<std::vector<std::int64_t>> children; // by position
    std::vector<std::int64_t> byLevel;               // positions, leaves first, root last
};

BinaryTreeShape binaryTreeShape(std::int64_t n, bool rootAtEnd)
{
    BinaryTreeShape t;
    const std::int64_t shift = rootAtEnd ? 0 : 1;
    t.root = rootAtEnd ? n - 1 : 0;
    t.parent.assign(static_cast<std::size_t>(n), -1);
    t.children.resize(static_cast<std::size_t>(n));
    const std::int32_t levels = log2i(n); // heights 0 .. levels - 1 in the inner tree
    for (std::int32_t h = 0; h < levels; ++h) {
        for (std::int64_t x = std::int64_t{1} << h; x < n; x += std::int64_t{1} << (h + 1)) {
            const std::int64_t pos = x - 1 + shift;
            std::int64_t parentPos = t.root;
            if (x != n / 2) {
                const std::int64_t step = std::int64_t{1} << h;
                parentPos = ((x & (step << 1)) != 0 ? x - step : x + step) - 1 + shift;
            }
            t.parent[static_cast<std::size_t>(pos)] = parentPos;
            t.children[static_cast<std::size_t>(parentPos)].push_back(pos);
            t.byLevel.push_back(pos);
        }
    }
    t.byLevel.push_back(t.root);
    return t;
}

/// ASTRA-sim's double-binary-tree all-reduce over a power-of-two group (world, one dimension), event by
/// event. Two trees share the n members, labelled by position: in each, a complete binary tree of n - 1
/// nodes numbered in order, plus a root with that tree as its only child; tree A spans positions
/// 0..n-2 under root n-1, tree B positions 1..n-1 under root 0. Chunk j runs on tree A when j is even,
/// B when odd, and moves whole (c bytes) up, then down:
///   leaf:   sends c to its parent ED after it starts; ends ED after the parent's copy arrives.
///   inner:  each child's copy, once arrived (and the rank has started), costs ED + T_red(c); it sends
///           up when both are done, and ED + T_red(c) after the parent's copy arrives it sends to both
///           children and ends.
///   root:   ED + T_red(c) after its child's copy arrives it sends it back down and ends.
/// A rank starts chunk j when one of its `active` chunk slots is free (the earliest). Returns each
/// member's end in ns, or an empty vector when the schedule would be too large to evaluate.
std::vector<double> doubleBinaryTree(const Cluster& cluster, std::span<const std::int32_t> members, double chunk,
                                     std::uint64_t chunks, const Costing& costing)
{
    const auto n = static_cast<std::int64_t>(members.size());
    if (n < 2 || !isPowerOfTwo(n) || static_cast<double>(n) * static_cast<double>(chunks) > 3e7)
        return {};
    const auto un = static_cast<std::size_t>(n);
    const Topology& topology = cluster.topology;
    const auto messageNs = [&](std::int64_t a, std::int64_t b) {
        const std::int32_t ra = members[static_cast<std::size_t>(a)];
        const std::int32_t rb = members[static_cast<std::size_t>(b)];
        const int d = topology.firstDifferingDim(ra, rb);
        const auto du = static_cast<std::size_t>(std::max(d, 0));
        const TopologyDim& dim = topology.dims[du];
        const std::int32_t hops = std::max(1, dim.hops(topology.coordinate(ra, du), topology.coordinate(rb, du)));
        return costing.message(chunk, hops, dimLink(dim, d));
    };

    // Tree A (root n - 1) for even chunks, B (root 0) for odd ones, with each node's message time to
    // its parent.
    struct Tree : BinaryTreeShape {
        std::vector<double> up;
    };
    const auto build = [&](bool rootAtEnd) {
        Tree t{binaryTreeShape(n, rootAtEnd), std::vector<double>(un, 0.0)};
        for (std::int64_t pos = 0; pos < n; ++pos)
            if (const std::int64_t parent = t.parent[static_cast<std::size_t>(pos)]; parent >= 0)
                t.up[static_cast<std::size_t>(pos)] = messageNs(pos, parent);
        return t;
    };
    const Tree trees[2] = {build(true), build(false)};

    const double ed = costing.endpointDelay();
    const double red = costing.reduction(chunk);
    const auto active = static_cast<std::size_t>(std::max(1, cluster.system.activeChunksPerDimension));
    // Free times of each rank's chunk slots (min-heaps).
    std::vector<std::vector<double>> slots(un, std::vector<double>(active, 0.0));
    std::vector<double> start(un), sendUp(un), sendDown(un), childrenDone(un), end(un, 0.0);
    std::vector<int> children(un);
    for (std::uint64_t j = 0; j < chunks; ++j) {
        const Tree& t = trees[j % 2];
        for (std::size_t i = 0; i < un; ++i) {
            std::pop_heap(slots[i].begin(), slots[i].end(), std::greater<>());
            start[i] = slots[i].back();
            childrenDone[i] = start[i];
            children[i] = 0;
        }
        // Up: a node's send time is final once all its children (lower levels) have been visited.
        for (const std::int64_t pos : t.byLevel) {
            const auto i = static_cast<std::size_t>(pos);
            sendUp[i] = children[i] == 0 ? start[i] + ed : childrenDone[i] + ed + red;
            const std::int64_t p = t.parent[i];
            if (p >= 0) {
                const auto pi = static_cast<std::size_t>(p);
                childrenDone[pi] = std::max(childrenDone[pi], sendUp[i] + t.up[i]);
                ++children[pi];
            }
        }
        // Down, root first: the root's reduced copy leaves when its reduction is done.
        for (auto it = t.byLevel.rbegin(); it != t.byLevel.rend(); ++it) {
            const auto i = static_cast<std::size_t>(*it);
            const std::int64_t p = t.parent[i];
            double finish = 0;
            if (p < 0) {
                finish = sendDown[i] = sendUp[i];
            } else {
                const double arrived = std::max(sendDown[static_cast<std::size_t>(p)] + t.up[i], sendUp[i]);
                finish = sendDown[i] = children[i] == 0 ? arrived + ed : arrived + ed + red;
            }
            end[i] = std::max(end[i], finish);
            slots[i].back() = finish;
            std::push_heap(slots[i].begin(), slots[i].end(), std::greater<>());
        }
    }
    return end;
}

/// ASTRA-sim's staged all-reduce over the world with the double binary tree on some or all dimensions,
/// event by event. `phases` are one chunk's phases in order (makePlan's: times in ns). A tree phase is
/// a whole-chunk tree all-reduce of its bytesIn: localBWAware visits the dimensions up, the last one,
/// and back down (baseline: each once), and a tree phase keeps the chunk's size
/// (Sys::generate_collective_phase). A phase on dimension d spans the ranks that differ only in
/// coordinate d; a tree phase's tree is chosen by a counter per dimension that alternates on every tree
/// phase created (chunk by chunk: root at the highest position when even, at 0 when odd). Any other
/// phase (a ring, say) runs as one step of its whole group: it starts when its last member starts it
/// and ends for all `time` later. That is exact: its members differ only in that dimension's
/// coordinate, so they hold the same position in every tree and reach the phase together, as in
/// ASTRA-sim (whose ring then runs as its closed form). Each rank has one FIFO queue per
/// dimension, shared by all phases on it, running at most `active` phases at once; a rank moves a
/// chunk to its next phase's queue as soon as its own part of the phase ends. Messages between two
/// ranks pair first in, first out per chunk. Per-node rules as in doubleBinaryTree(). Returns each
/// rank's end in ns, or an empty vector when a tree dimension is not a power of two or the simulation
/// would be too large.
std::vector<double> stagedDoubleBinaryTree(const Cluster& cluster, const std::vector<CollectivePhase>& plan,
                                           std::uint64_t chunks, const Costing& costing)
{
    const Topology& topology = cluster.topology;
    const std::int64_t n = topology.npuCount();
    const auto isTree = [&](std::size_t p) { return plan[p].algorithm == CollectiveAlgorithm::DoubleBinaryTree; };
    std::vector<int> order; // the tree dimensions
    for (std::size_t p = 0; p < plan.size(); ++p) {
        if (plan[p].dim < 0)
            return {};
        if (isTree(p) && std::find(order.begin(), order.end(), plan[p].dim) == order.end()) {
            if (!isPowerOfTwo(topology.dims[static_cast<std::size_t>(plan[p].dim)].npus))
                return {};
            order.push_back(plan[p].dim);
        }
    }
    if (order.empty() || static_cast<double>(n) * static_cast<double>(chunks) * static_cast<double>(plan.size()) > 4e6)
        return {};
    // Phases of each chunk: (index into `plan`, root at the highest position?).
    std::vector<std::vector<std::pair<std::size_t, bool>>> phases(chunks);
    std::vector<std::uint64_t> counter(topology.dims.size(), 0);
    for (auto& list : phases)
        for (std::size_t p = 0; p < plan.size(); ++p)
            list.emplace_back(p, isTree(p) && counter[static_cast<std::size_t>(plan[p].dim)]++ % 2 == 0);
    std::vector<std::int64_t> stride(topology.dims.size(), 1);
    for (std::size_t d = 1; d < stride.size(); ++d)
        stride[d] = stride[d - 1] * topology.dims[d - 1].npus;
    // Both trees of every dimension, built once (tree A at index 0: root at the highest position).
    std::vector<std::array<BinaryTreeShape, 2>> shapes(topology.dims.size());
    for (int d : order)
        for (int k = 0; k < 2; ++k)
            shapes[static_cast<std::size_t>(d)][static_cast<std::size_t>(k)] =
                binaryTreeShape(topology.dims[static_cast<std::size_t>(d)].npus, k == 0);
    const auto coordinate = [&](std::int64_t rank, int d) {
        return (rank / stride[static_cast<std::size_t>(d)]) % topology.dims[static_cast<std::size_t>(d)].npus;
    };
    const auto rankAt = [&](std::int64_t rank, int d, std::int64_t pos) {
        return rank + (pos - coordinate(rank, d)) * stride[static_cast<std::size_t>(d)];
    };
    // Per tree phase: its message time between any pair (Switch and fully connected dimensions: every
    // pair the same hops; a ring's pairs are recomputed per message) and its reduction.
    std::vector<double> messageNs(plan.size()), reductionNs(plan.size());
    for (std::size_t p = 0; p < plan.size(); ++p) {
        const auto d = static_cast<std::size_t>(plan[p].dim);
        messageNs[p] = costing.message(plan[p].bytesIn, std::max(1, topology.dims[d].hops(0, 1)),
                                       dimLink(topology.dims[d], plan[p].dim));
        reductionNs[p] = costing.reduction(plan[p].bytesIn);
    }
    const auto messageTime = [&](std::int64_t a, std::int64_t b, std::size_t p) {
        const int d = plan[p].dim;
        const TopologyDim& dim = topology.dims[static_cast<std::size_t>(d)];
        if (dim.kind != TopologyKind::Ring)
            return messageNs[p];
        const std::int32_t hops = std::max(
            1, dim.hops(static_cast<std::int32_t>(coordinate(a, d)), static_cast<std::int32_t>(coordinate(b, d))));
        return costing.message(plan[p].bytesIn, hops, dimLink(dim, d));
    };
    const double ed = costing.endpointDelay();
    const auto active = static_cast<std::size_t>(std::max(1, cluster.system.activeChunksPerDimension));

    struct Event {
        double time;
        std::uint64_t seq;
        std::function<void(double)> action;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
    };
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
    std::uint64_t seq = 0;
    const auto at = [&](double t, std::function<void(double)> action) { events.push({t, seq++, std::move(action)}); };
    // Messages: (src, dst, chunk) -> arrivals not yet received, or receives posted before arrival.
    struct Mailbox {
        std::uint32_t arrived = 0;
        std::deque<std::function<void(double)>> waiting;
    };
    std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>, Mailbox> mail;
    const auto send = [&](double t, std::int64_t src, std::int64_t dst, std::uint64_t c, std::size_t phase) {
        at(t + messageTime(src, dst, phase), [&, src, dst, c](double when) {
            Mailbox& box = mail[{src, dst, c}];
            if (!box.waiting.empty()) {
                auto next = std::move(box.waiting.front());
                box.waiting.pop_front();
                next(when);
            } else {
                ++box.arrived;
            }
        });
    };
    const auto recv = [&](double t, std::int64_t src, std::int64_t dst, std::uint64_t c,
                          std::function<void(double)> then) {
        Mailbox& box = mail[{src, dst, c}];
        if (box.arrived > 0) {
            --box.arrived;
            at(t, std::move(then));
        } else {
            box.waiting.push_back(std::move(then));
        }
    };
    struct Queued {
        std::uint64_t chunk;
        bool running;
    };
    const auto un = static_cast<std::size_t>(n);
    std::vector<std::vector<std::deque<Queued>>> queues(un, std::vector<std::deque<Queued>>(topology.dims.size()));
    std::vector<std::vector<std::size_t>> phaseOf(un, std::vector<std::size_t>(chunks, 0));
    std::vector<std::uint64_t> chunksDone(un, 0);
    std::vector<double> end(un, 0.0);
    std::function<void(double, std::int64_t, int)> tryStart;
    std::function<void(double, std::int64_t, std::uint64_t)> startPhase;
    const auto leave = [&](double t, std::int64_t r, std::uint64_t c, int d) {
        auto& queue = queues[static_cast<std::size_t>(r)][static_cast<std::size_t>(d)];
        for (auto it = queue.begin(); it != queue.end(); ++it)
            if (it->chunk == c) {
                queue.erase(it);
                break;
            }
        std::size_t& p = phaseOf[static_cast<std::size_t>(r)][c];
        if (++p == phases[c].size()) {
            if (++chunksDone[static_cast<std::size_t>(r)] == chunks)
                end[static_cast<std::size_t>(r)] = t;
            tryStart(t, r, d);
            return;
        }
        const int next = plan[phases[c][p].first].dim;
        queues[static_cast<std::size_t>(r)][static_cast<std::size_t>(next)].push_back({c, false});
        tryStart(t, r, d);
        tryStart(t, r, next);
    };
    tryStart = [&](double t, std::int64_t r, int d) {
        auto& queue = queues[static_cast<std::size_t>(r)][static_cast<std::size_t>(d)];
        std::size_t running = 0;
        for (const Queued& q : queue)
            running += q.running ? 1 : 0;
        for (Queued& q : queue) {
            if (running >= active)
                break;
            if (!q.running) {
                q.running = true;
                ++running;
                startPhase(t, r, q.chunk);
            }
        }
    };
    // A phase other than a tree: its group's arrivals, keyed by (the group's rank at coordinate 0,
    // chunk, phase).
    struct Gathering {
        std::int32_t arrived = 0;
        double latest = 0;
    };
    std::map<std::tuple<std::int64_t, std::uint64_t, std::size_t>, Gathering> gatherings;
    startPhase = [&](double t, std::int64_t r, std::uint64_t c) {
        const auto [phase, rootMax] = phases[c][phaseOf[static_cast<std::size_t>(r)][c]];
        const int d = plan[phase].dim;
        if (!isTree(phase)) {
            const std::int64_t first = rankAt(r, d, 0);
            Gathering& g = gatherings[{first, c, phase}];
            g.latest = std::max(g.latest, t);
            if (++g.arrived < plan[phase].npus)
                return;
            const double done = g.latest + plan[phase].time;
            for (std::int64_t k = 0; k < plan[phase].npus; ++k)
                at(done, [&, member = rankAt(r, d, k), c, d](double when) { leave(when, member, c, d); });
            gatherings.erase({first, c, phase});
            return;
        }
        const double red = reductionNs[phase];
        const BinaryTreeShape& tree = shapes[static_cast<std::size_t>(d)][rootMax ? 0 : 1];
        const auto pos = static_cast<std::size_t>(coordinate(r, d));
        const std::int64_t parentPos = tree.parent[pos];
        const std::vector<std::int64_t>& kids = tree.children[pos];
        const std::int64_t parent = parentPos < 0 ? -1 : rankAt(r, d, parentPos);
        const auto exit = [&, r, c, d](double when) { leave(when, r, c, d); };
        if (parent < 0) { // root: one child
            const std::int64_t child = rankAt(r, d, kids.front());
            recv(t, child, r, c, [&, r, c, phase, red, child, exit](double got) {
                at(got + ed + red, [&, r, c, phase, child, exit](double reduced) {
                    send(reduced, r, child, c, phase);
                    exit(reduced);
                });
            });
        } else if (kids.empty()) { // leaf
            at(t + ed, [&, r, c, phase, parent, exit](double ready) {
                send(ready, r, parent, c, phase);
                recv(ready, parent, r, c, [&, exit](double back) { at(back + ed, exit); });
            });
        } else { // interior: both children's copies reduced, up, then the parent's copy down
            auto done = std::make_shared<int>(0);
            std::vector<std::int64_t> children;
            for (std::int64_t k : kids)
                children.push_back(rankAt(r, d, k));
            for (std::int64_t child : children)
                recv(t, child, r, c, [&, r, c, phase, red, parent, children, done, exit](double got) {
                    at(got + ed + red, [&, r, c, phase, red, parent, children, done, exit](double reduced) {
                        if (++*done < 2)
                            return;
                        send(reduced, r, parent, c, phase);
                        recv(reduced, parent, r, c, [&, r, c, phase, red, children, exit](double back) {
                            at(back + ed + red, [&, r, c, phase, children, exit](double down) {
                                for (std::int64_t child2 : children)
                                    send(down, r, child2, c, phase);
                                exit(down);
                            });
                        });
                    });
                });
        }
    };
    for (std::int64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < chunks; ++c) {
            const int first = plan[phases[c].front().first].dim;
            queues[static_cast<std::size_t>(r)][static_cast<std::size_t>(first)].push_back({c, false});
            tryStart(0, r, first);
        }
    while (!events.empty()) {
        Event e = events.top();
        events.pop();
        e.action(e.time);
    }
    for (std::size_t r = 0; r < un; ++r)
        if (chunksDone[r] != chunks)
            return {}; // ASTRA-sim deadlocks here too (three or more tree dimensions)
    return end;
}

/// The schedule of a staged-kind collective: chunking and one chunk's phases (times in ns).
struct Plan {
    std::uint64_t chunks = 1;
    double chunk = 0;
    bool staged = false;
    std::vector<CollectivePhase> phases;
    const char* note = ""; // FLINT_TRANSLATE_NOOP-marked: CollectiveCost::note
};

Plan makePlan(const Cluster& cluster, CollectiveKind kind, std::uint64_t bytes, std::int64_t n, const GroupShape& shape,
              const NcclProtocol* protocol = nullptr, double llCapGBps = 0)
{
    const Topology& topology = cluster.topology;
    const SystemConfig& system = cluster.system;
    const bool astra = cluster.model == CostModel::AstraSim;
    const bool world = n == topology.npuCount();
    Plan plan;

    // Chunking. ASTRA-sim: C = floor(S / splits); for all but all-gather C is raised to the NPU count
    // when smaller, and ceil(S / C) chunks of C bytes run. Flint: splits chunks of exactly S / splits.
    const std::int32_t splits = std::max(1, system.preferredDatasetSplits);
    if (astra) {
        std::uint64_t size = bytes;
        std::uint64_t c = size / static_cast<std::uint64_t>(splits);
        const auto total = static_cast<std::uint64_t>(topology.npuCount());
        if (kind != CollectiveKind::AllGather && total > c) {
            c = total;
            size = static_cast<std::uint64_t>(splits) * c;
        }
        plan.chunks = c > 0 ? (size + c - 1) / c : 1;
        plan.chunk = static_cast<double>(c);
    } else {
        plan.chunks = bytes > 0 ? static_cast<std::uint64_t>(splits) : 1;
        plan.chunk = static_cast<double>(bytes) / static_cast<double>(plan.chunks);
    }

    Costing costing(cluster, !world, protocol, llCapGBps);
    const auto add = [&](CollectiveKind phaseKind, int dim, std::int32_t npus, double in) {
        CollectiveAlgorithm algorithm = dim >= 0 ? system.algorithmFor(kind, static_cast<std::size_t>(dim))
                                                 : (astra ? CollectiveAlgorithm::Ring : system.algorithmFor(kind, 0));
        if (algorithm == CollectiveAlgorithm::HalvingDoubling && !isPowerOfTwo(npus)) {
            algorithm = CollectiveAlgorithm::Ring;
            plan.note = FLINT_TRANSLATE_NOOP("Diagnostics", "halving-doubling needs a power-of-two group; ring used");
        }
        const Link& link = dim >= 0 ? shape.links[static_cast<std::size_t>(dim)] : shape.flat;
        if (astra && algorithm == CollectiveAlgorithm::DoubleBinaryTree && kind == CollectiveKind::AllReduce &&
            dim >= 0 && world) {
            // ASTRA-sim takes every phase's algorithm of a staged all-reduce from the all-reduce list and,
            // for a tree dimension, builds a double-binary-tree all-reduce of the whole chunk whatever the
            // phase's kind (Sys::generate_collective_phase; its output keeps the chunk's size): the
            // reduce-scatter and all-gather phases on such a dimension are full all-reduces too. One
            // chunk's phase time: the event model over one tree along this dimension (rank 0's group),
            // whose whole-chunk messages the two-half-trees formula of Costing::phase would halve.
            std::int64_t stride = 1;
            for (int d = 0; d < dim; ++d)
                stride *= topology.dims[static_cast<std::size_t>(d)].npus;
            std::vector<std::int32_t> members(static_cast<std::size_t>(npus));
            for (std::int32_t k = 0; k < npus; ++k)
                members[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(k * stride);
            const std::vector<double> ends = doubleBinaryTree(cluster, members, in, 1, costing);
            if (!ends.empty()) {
                CollectivePhase p;
                p.kind = CollectiveKind::AllReduce;
                p.algorithm = algorithm;
                p.dim = dim;
                p.npus = npus;
                p.bytesIn = in;
                p.bytesOut = in;
                p.sentPerRank = 2 * in;
                p.steps = 2 * std::max(1, log2i(npus));
                p.time = *std::max_element(ends.begin(), ends.end());
                plan.phases.push_back(p);
                if (phaseKind != CollectiveKind::AllReduce)
                    plan.note = FLINT_TRANSLATE_NOOP(
                        "Diagnostics",
                        "ASTRA-sim runs a whole-chunk tree all-reduce in every phase on a tree dimension");
                return in;
            }
        }
        if (algorithm == CollectiveAlgorithm::DoubleBinaryTree && phaseKind != CollectiveKind::AllReduce) {
            algorithm = CollectiveAlgorithm::Ring;
            plan.note = FLINT_TRANSLATE_NOOP("Diagnostics", "double binary tree is an all-reduce algorithm; ring used");
        }
        const PhaseResult r = costing.phase(phaseKind, algorithm, npus, in, link);
        CollectivePhase p;
        p.kind = phaseKind;
        p.algorithm = algorithm;
        p.dim = dim;
        p.npus = npus;
        p.bytesIn = in;
        p.bytesOut = r.bytesOut;
        p.sentPerRank = r.sentPerRank;
        p.steps = r.steps;
        p.time = r.timeNs;
        plan.phases.push_back(p);
        return r.bytesOut;
    };

    const CollectiveKind plainKind = kind == CollectiveKind::ReduceScatterBlock ? CollectiveKind::ReduceScatter : kind;
    // Staging: ASTRA-sim stages only the world group; we stage any group that is a sub-grid.
    plan.staged = world || (!astra && shape.grid);
    if (!plan.staged) {
        // A flat logical ring over the sorted members (ASTRA-sim's communicator groups), paced by its
        // slowest neighbour link.
        if (!astra)
            plan.note = FLINT_TRANSLATE_NOOP(
                "Diagnostics", "group is not a sub-grid of the topology: one logical ring over its ranks");
        add(plainKind, -1, static_cast<std::int32_t>(n), plan.chunk);
        return plan;
    }
    std::vector<int> dims;
    for (std::size_t d = 0; d < topology.dims.size(); ++d)
        if (shape.counts[d] > 1)
            dims.push_back(static_cast<int>(d));
    const auto count = [&](int d) { return shape.counts[static_cast<std::size_t>(d)]; };
    double in = plan.chunk;
    if (kind == CollectiveKind::AllReduce && system.collectiveOptimization != "baseline") {
        // Reduce-scatter up the dimensions, all-reduce on the last, all-gather back down.
        for (std::size_t i = 0; i + 1 < dims.size(); ++i)
            in = add(CollectiveKind::ReduceScatter, dims[i], count(dims[i]), in);
        if (!dims.empty())
            in = add(CollectiveKind::AllReduce, dims.back(), count(dims.back()), in);
        for (std::size_t i = dims.size() - 1; i-- > 0;)
            in = add(CollectiveKind::AllGather, dims[i], count(dims[i]), in);
    } else {
        // One phase of the same kind per dimension; all-gather visits them outermost first.
        if (kind == CollectiveKind::AllGather)
            std::reverse(dims.begin(), dims.end());
        for (int d : dims)
            in = add(plainKind, d, count(d), in);
    }
    return plan;
}

/// Whether NCCL's protocols price the collective: the flint cost model on a cluster whose collectives
/// are NCCL's, an all-reduce, all-gather or reduce-scatter whose every phase is a ring.
bool ncclPrices(const Cluster& cluster, CollectiveKind kind, const Plan& plan)
{
    if (!cluster.nccl.enabled || cluster.model != CostModel::Flint || plan.phases.empty())
        return false;
    if (kind != CollectiveKind::AllReduce && kind != CollectiveKind::AllGather &&
        kind != CollectiveKind::ReduceScatter && kind != CollectiveKind::ReduceScatterBlock)
        return false;
    return std::all_of(plan.phases.begin(), plan.phases.end(),
                       [](const CollectivePhase& p) { return p.algorithm == CollectiveAlgorithm::Ring; });
}

/// Where a group sits among the nodes, as NCCL's tuning sees it: dimension 0 is the node.
struct NodeSpan {
    std::int64_t nodes = 1;
    bool onePerNode = false; ///< one member per node (NCCL's ppn = 1)
};

NodeSpan nodeSpan(const GroupShape& shape)
{
    NodeSpan span;
    if (shape.grid) {
        for (std::size_t d = 1; d < shape.counts.size(); ++d)
            span.nodes *= shape.counts[d];
        span.onePerNode = span.nodes > 1 && !shape.counts.empty() && shape.counts[0] == 1;
    } else if (shape.flat.dim > 0) {
        span.nodes = 2; // a flat ring over nodes: at least two
    }
    return span;
}

/// A ring's latency under `protocol` in ns, paid once for the collective: NCCL's base latency plus
/// a latency per ring step of every phase (inside a node; between nodes; between nodes with one GPU
/// per node), each step at least the link's own latency. NCCL counts its steps over one flat ring;
/// we count them per staged phase.
double ncclLatency(const NcclProtocol& protocol, CollectiveKind kind, const Plan& plan, const GroupShape& shape,
                   const NodeSpan& span)
{
    double t = protocol.baseUs * 1000;
    for (const CollectivePhase& p : plan.phases) {
        const Link& link = p.dim >= 0 ? shape.links[static_cast<std::size_t>(p.dim)] : shape.flat;
        const double stepUs = link.dim == 0
                                  ? std::max(protocol.nvlinkStepUs, span.nodes > 1 ? protocol.netOverheadUs : 0.0)
                                  : (span.onePerNode ? protocol.netSoloStepUs : protocol.netStepUs);
        t += p.steps * std::max(stepUs * 1000, link.latencyNs);
    }
    // NCCL's "plateau effect of ring": a multi-node Simple all-reduce's latency x 1.4 (Ampere on).
    if (kind == CollectiveKind::AllReduce && span.nodes > 1 && protocol.plateau)
        t *= 1.4;
    return t;
}

/// The fastest way NCCL moves a ring collective (Cluster::nccl): each protocol over the ring and,
/// for an all-reduce across nodes, over NCCL's tree, as NCCL's tuning picks among them.
struct NcclChoice {
    Plan plan;
    std::string protocol;
    double latencyNs = 0;
    double durationNs = std::numeric_limits<double>::infinity();
};

NcclChoice ncclChoice(const Cluster& cluster, CollectiveKind kind, std::uint64_t bytes, std::int64_t n,
                      const GroupShape& shape)
{
    const NodeSpan span = nodeSpan(shape);
    const double llCap = span.nodes > 2    ? kNcclLlManyNodesGBps
                         : span.nodes == 2 ? kNcclLlTwoNodesGBps
                                           : cluster.nccl.llMaxBusBandwidthGBps;
    const std::int32_t active = std::max(1, cluster.system.activeChunksPerDimension);
    NcclChoice best;
    const auto consider = [&best, active](Plan&& plan, std::string protocol, double latency) {
        std::vector<std::pair<int, double>> phases;
        for (const CollectivePhase& p : plan.phases)
            phases.emplace_back(p.dim, p.time);
        const double t = latency + pipeline(phases, plan.chunks, active);
        if (t < best.durationNs)
            best = {std::move(plan), std::move(protocol), latency, t};
    };
    for (const NcclProtocol& protocol : kNcclProtocols) {
        Plan priced = makePlan(cluster, kind, bytes, n, shape, &protocol, llCap);
        const double latency = ncclLatency(protocol, kind, priced, shape, span);
        consider(std::move(priced), protocol.name, latency);
    }
    // Across nodes NCCL may all-reduce with its tree: latency in log2 of the nodes, not in their
    // number, for a little less bandwidth. The phases inside the nodes stay as they are (NCCL's
    // chain there takes as many steps); the all-reduce between nodes becomes the tree: 2 c at the
    // tree's bandwidth, 2 log2(nodes) steps.
    const bool acrossNodes =
        std::any_of(best.plan.phases.begin(), best.plan.phases.end(),
                    [](const CollectivePhase& p) { return p.kind == CollectiveKind::AllReduce && p.dim > 0; });
    if (kind != CollectiveKind::AllReduce || !best.plan.staged || span.nodes <= 1 || !acrossNodes)
        return best;
    // NCCL's correction by size class, log2(bytes / 64), applies to classes 0 to 22 and changes in
    // steps at powers of two; interpolated here between the classes, so that a larger message
    // never takes less time.
    const double logSize = std::log2(std::max(1.0, static_cast<double>(bytes) / 64));
    const int k = static_cast<int>(logSize);
    for (const NcclTree& tree : kNcclTrees) {
        const auto factor = [&tree](int size) {
            return size <= 22 ? tree.correction[static_cast<std::size_t>(size)] : 1.0;
        };
        const double share = tree.bandwidthShare * (factor(k) + (logSize - k) * (factor(k + 1) - factor(k)));
        const NcclProtocol asRing{tree.name, 0, 0, 0, 0, 0, share, tree.llLimit, false};
        Plan priced = makePlan(cluster, kind, bytes, n, shape, &asRing, llCap);
        double latency = tree.baseUs * 1000;
        for (CollectivePhase& p : priced.phases) {
            const Link& link = shape.links[static_cast<std::size_t>(p.dim)];
            if (p.kind == CollectiveKind::AllReduce && p.dim > 0) {
                // The ring's 2 (n-1)/n c becomes the tree's 2 c.
                p.time *= static_cast<double>(p.npus) / std::max(1, p.npus - 1);
                p.steps = 2 * std::max(1, log2i(p.npus));
                p.algorithm = CollectiveAlgorithm::DoubleBinaryTree;
                latency += p.steps * std::max(tree.netStepUs * 1000, link.latencyNs);
            } else {
                latency += p.steps * std::max(tree.nvlinkStepUs * 1000, link.latencyNs);
            }
        }
        consider(std::move(priced), std::string(tree.name) + ", tree", latency);
    }
    return best;
}

/// Takes per-member end times in ns (empty: the model did not apply) as the collective's
/// duration, keeping them per member only when they differ.
void applyMemberEnds(std::vector<double> ends, CollectiveCost& cost)
{
    if (ends.empty())
        return;
    for (double& e : ends)
        e /= kNsPerSecond;
    cost.duration = *std::max_element(ends.begin(), ends.end());
    if (std::any_of(ends.begin(), ends.end(), [&](double e) { return e != cost.duration; }))
        cost.memberDuration = std::move(ends);
}

} // namespace

CollectiveModel::CollectiveModel(const Cluster& cluster)
    : m_cluster(cluster)
{}

CollectiveCost CollectiveModel::collective(CollectiveKind kind, std::uint64_t bytes,
                                           std::span<const std::int32_t> members,
                                           std::span<const std::pair<std::int32_t, std::int32_t>> pairs) const
{
    const Topology& topology = m_cluster.topology;
    const SystemConfig& system = m_cluster.system;
    const auto n = static_cast<std::int64_t>(members.size());
    CollectiveCost cost;
    cost.bytesPerDim.assign(topology.dims.size(), 0.0);
    if (n <= 1 && kind != CollectiveKind::CollectivePermute)
        return cost;
    const GroupShape shape = analyse(topology, members);

    if (isStagedKind(kind)) {
        Plan plan = makePlan(m_cluster, kind, bytes, n, shape);
        cost.chunks = plan.chunks;
        cost.chunkBytes = plan.chunk;
        cost.staged = plan.staged;
        cost.note = plan.note;
        if (ncclPrices(m_cluster, kind, plan)) {
            NcclChoice choice = ncclChoice(m_cluster, kind, bytes, n, shape);
            plan = std::move(choice.plan);
            cost.protocol = std::move(choice.protocol);
            cost.protocolLatency = choice.latencyNs / kNsPerSecond;
            cost.duration = choice.durationNs / kNsPerSecond;
        } else {
            std::vector<std::pair<int, double>> timeline;
            for (const CollectivePhase& p : plan.phases)
                timeline.emplace_back(p.dim, p.time);
            cost.duration =
                pipeline(timeline, plan.chunks, std::max(1, system.activeChunksPerDimension)) / kNsPerSecond;
        }
        if (plan.staged && m_cluster.model == CostModel::AstraSim && kind == CollectiveKind::AllReduce &&
            plan.phases.size() == 1 && plan.phases[0].algorithm == CollectiveAlgorithm::DoubleBinaryTree &&
            plan.phases[0].npus == n) {
            // ASTRA-sim's double binary tree, event by event (per-rank ends differ).
            const Costing costing(m_cluster, n != topology.npuCount());
            applyMemberEnds(doubleBinaryTree(m_cluster, members, plan.chunk, plan.chunks, costing), cost);
        } else if (plan.staged && m_cluster.model == CostModel::AstraSim && kind == CollectiveKind::AllReduce &&
                   n == topology.npuCount() && plan.phases.size() > 1 &&
                   std::any_of(plan.phases.begin(), plan.phases.end(), [](const CollectivePhase& p) {
                       return p.algorithm == CollectiveAlgorithm::DoubleBinaryTree;
                   })) {
            // Trees on some or every dimension: the staged phases event by event, rank by rank.
            const Costing costing(m_cluster, false);
            applyMemberEnds(stagedDoubleBinaryTree(m_cluster, plan.phases, plan.chunks, costing), cost);
        }
        if (!plan.staged && m_cluster.model == CostModel::AstraSim && n > 2) {
            // Uneven neighbour links: evaluate ASTRA-sim's per-rank ring exactly when affordable.
            const Costing costing(m_cluster, n != topology.npuCount());
            applyMemberEnds(
                ringRecurrence(m_cluster, kind, members, plan.chunk, plan.chunks, costing.endpointDelay(), costing),
                cost);
        }
        cost.phases = std::move(plan.phases);
        for (CollectivePhase& p : cost.phases)
            p.time /= kNsPerSecond;
    } else {
        // Rooted and other collectives over the group's slowest link (see docs/estimator.md).
        Costing costing(m_cluster, n != topology.npuCount());
        const double ed = costing.endpointDelay();
        const Link& link = shape.flat;
        const double s = static_cast<double>(bytes);
        const auto m = [&](double b, std::int32_t h) { return costing.message(b, h, link); };
        const CollectiveAlgorithm algorithm = system.algorithmFor(CollectiveKind::AllReduce, 0);
        const auto k = static_cast<double>(std::max(1, system.preferredDatasetSplits));
        const double logn = ceilLog2(n);
        const auto members32 = static_cast<std::int32_t>(n);
        double t = 0;
        switch (kind) {
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce: {
            const double red = kind == CollectiveKind::Reduce ? 1.0 : 0.0;
            if (algorithm == CollectiveAlgorithm::Ring) // pipelined chain of k pieces
                t = (static_cast<double>(n) - 2 + k) *
                    (m(s / k, link.neighbourHops) + ed + red * costing.reductionBeyond(s / k / link.bytesPerNs, s / k));
            else if (algorithm == CollectiveAlgorithm::Direct) // the root's port carries n - 1 copies
                t = 2 * ed + costing.directRound(s, members32, link) +
                    red * (static_cast<double>(n) - 1) * costing.reductionBeyond(s / link.bytesPerNs, s);
            else // binomial tree
                t = logn * (m(s, link.maxHops) + ed + red * costing.reductionBeyond(s / link.bytesPerNs, s)) + ed;
            break;
        }
        case CollectiveKind::Gather:
        case CollectiveKind::Scatter:
            t = 2 * ed + costing.directRound(s, members32, link);
            break;
        case CollectiveKind::Barrier:
            t = logn * (m(0, link.maxHops) + ed); // dissemination barrier
            break;
        case CollectiveKind::CollectivePermute: {
            double worst = 0;
            for (const auto& [src, dst] : pairs) {
                const int d = topology.firstDifferingDim(src, dst);
                if (d < 0)
                    continue;
                const auto du = static_cast<std::size_t>(d);
                const TopologyDim& dim = topology.dims[du];
                const std::int32_t hops = dim.hops(topology.coordinate(src, du), topology.coordinate(dst, du));
                worst = std::max(worst, costing.message(s, hops, dimLink(dim, d)));
            }
            if (pairs.empty() && n > 1)
                worst = m(s, link.neighbourHops);
            t = worst + 2 * ed;
            break;
        }
        default:
            break;
        }
        cost.duration = t / kNsPerSecond;
        CollectivePhase p;
        p.kind = kind;
        p.algorithm = algorithm;
        p.npus = members32;
        p.bytesIn = s;
        p.time = cost.duration;
        cost.phases.push_back(p);
    }

    // Traffic per dimension, summed over members and chunks.
    forEachFlow(kind, bytes, members, pairs, [&](std::int32_t src, std::int32_t dst, double b) {
        const int d = topology.firstDifferingDim(src, dst);
        if (d >= 0)
            cost.bytesPerDim[static_cast<std::size_t>(d)] += b;
    });
    return cost;
}

double CollectiveModel::sendRecv(std::int32_t src, std::int32_t dst, std::uint64_t bytes) const
{
    const Topology& topology = m_cluster.topology;
    const int d = topology.firstDifferingDim(src, dst);
    if (d < 0)
        return 0;
    const auto du = static_cast<std::size_t>(d);
    const TopologyDim& dim = topology.dims[du];
    Costing costing(m_cluster, false);
    const std::int32_t hops = dim.hops(topology.coordinate(src, du), topology.coordinate(dst, du));
    return (costing.message(static_cast<double>(bytes), hops, dimLink(dim, d)) + 2 * costing.endpointDelay()) /
           kNsPerSecond;
}

void CollectiveModel::forEachFlow(CollectiveKind kind, std::uint64_t bytes, std::span<const std::int32_t> members,
                                  std::span<const std::pair<std::int32_t, std::int32_t>> pairs,
                                  const std::function<void(std::int32_t, std::int32_t, double)>& flow) const
{
    const Topology& topology = m_cluster.topology;
    const auto n = static_cast<std::int64_t>(members.size());
    if (kind == CollectiveKind::CollectivePermute) {
        for (const auto& [src, dst] : pairs)
            if (src != dst)
                flow(src, dst, static_cast<double>(bytes));
        return;
    }
    if (n <= 1)
        return;
    const double s = static_cast<double>(bytes);
    if (!isStagedKind(kind)) {
        const std::int32_t root = members[0];
        for (std::int64_t i = 1; i < n; ++i) {
            const std::int32_t other = members[static_cast<std::size_t>(i)];
            if (kind == CollectiveKind::Broadcast || kind == CollectiveKind::Scatter)
                flow(root, other, s);
            else if (kind == CollectiveKind::Reduce || kind == CollectiveKind::Gather)
                flow(other, root, s);
        }
        return;
    }
    const Plan plan = makePlan(m_cluster, kind, bytes, n, analyse(topology, members));
    const double scale = static_cast<double>(plan.chunks);
    for (const CollectivePhase& p : plan.phases) {
        // The phase's instances: members that share every coordinate but p.dim, in coordinate order.
        std::map<std::int64_t, std::vector<std::int32_t>> instances;
        if (p.dim < 0) {
            instances[0].assign(members.begin(), members.end());
        } else {
            const auto du = static_cast<std::size_t>(p.dim);
            const std::int64_t stride = topology.stride(du);
            for (std::int32_t r : members)
                instances[r - topology.coordinate(r, du) * stride].push_back(r);
        }
        for (const auto& [key, ranks] : instances) {
            const auto m = static_cast<std::int64_t>(ranks.size());
            if (m <= 1)
                continue;
            const auto at = [&](std::int64_t i) { return ranks[static_cast<std::size_t>(i)]; };
            switch (p.algorithm) {
            case CollectiveAlgorithm::Ring:
            case CollectiveAlgorithm::DoubleBinaryTree:
                for (std::int64_t i = 0; i < m; ++i)
                    flow(at(i), at((i + 1) % m), p.sentPerRank * scale);
                break;
            case CollectiveAlgorithm::Direct:
                for (std::int64_t i = 0; i < m; ++i)
                    for (std::int64_t j = 0; j < m; ++j)
                        if (i != j)
                            flow(at(i), at(j), p.sentPerRank / static_cast<double>(m - 1) * scale);
                break;
            case CollectiveAlgorithm::HalvingDoubling: {
                const std::int32_t steps = log2i(m);
                for (std::int64_t i = 0; i < m; ++i) {
                    if (p.kind == CollectiveKind::AllToAll) {
                        for (std::int64_t x = 1; x < m; ++x)
                            flow(at(i), at(i ^ x), p.sentPerRank / static_cast<double>(m - 1) * scale);
                        continue;
                    }
                    for (std::int32_t st = 1; st <= steps; ++st) {
                        double b = 0;
                        if (p.kind == CollectiveKind::AllGather)
                            b = p.bytesIn * std::ldexp(1.0, st - 1);
                        else // reduce-scatter half; all-reduce sends the same again on the way back
                            b = p.bytesIn / std::ldexp(1.0, st) * (p.kind == CollectiveKind::AllReduce ? 2.0 : 1.0);
                        flow(at(i), at(i ^ (std::int64_t{1} << (st - 1))), b * scale);
                    }
                }
                break;
            }
            }
        }
    }
}

} // namespace flint::core
