// SPDX-License-Identifier: MIT
#include "core/measured/measuredworkload.h"

#include "core/error.h"
#include "core/hlo/hloparser.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace flint::core::measured {
namespace {

/// A device op that starts at most this long after a collective it may wait for ended, on a stream
/// that was idle when the collective ended, waited for it (cudaStreamWaitEvent after an NCCL kernel
/// takes a few microseconds; the traces we have do not record which event a wait named).
constexpr double kSyncSlackMicros = 20;

struct CollectiveName {
    OpKind kind = OpKind::Collective;
    CollectiveKind collective = CollectiveKind::AllReduce;
};

/// The collective a framework or NCCL kernel name stands for: PyTorch's record_param_comms names
/// ("allreduce", "_allgather_base", "reduce_scatter_tensor_coalesced", "all_to_allv", "send"),
/// gloo's and NCCL's ops ("gloo:all_reduce", "nccl:broadcast") and NCCL kernels
/// ("ncclDevKernel_AllGather_RING_LL", "ncclKernel_SendRecv").
std::optional<CollectiveName> collectiveOfName(std::string_view name)
{
    std::string key = nameKey(name.substr(0, 120), "-_ :");
    for (std::string_view prefix : {"c10d", "gloo", "nccl", "rccl", "recordparamcomms"})
        if (key.starts_with(prefix))
            key.erase(0, prefix.size());
    for (std::string_view kernel : {"devkernel", "kernel"})
        if (key.starts_with(kernel))
            key.erase(0, kernel.size());
    const auto has = [&](std::string_view part) { return key.starts_with(part); };
    if (has("allreduce"))
        return CollectiveName{OpKind::Collective, CollectiveKind::AllReduce};
    if (has("reducescatter"))
        return CollectiveName{OpKind::Collective, CollectiveKind::ReduceScatter};
    if (has("allgather"))
        return CollectiveName{OpKind::Collective, CollectiveKind::AllGather};
    if (has("collectivepermute"))
        return CollectiveName{OpKind::Send, CollectiveKind::CollectivePermute}; // pairs not in the trace
    if (has("alltoall") || has("raggedalltoall") || has("sendrecv"))
        return CollectiveName{OpKind::Collective, CollectiveKind::AllToAll};
    if (has("broadcast"))
        return CollectiveName{OpKind::Collective, CollectiveKind::Broadcast};
    if (has("barrier"))
        return CollectiveName{OpKind::Collective, CollectiveKind::Barrier};
    if (has("reduce"))
        return CollectiveName{OpKind::Collective, CollectiveKind::Reduce};
    if (has("gather"))
        return CollectiveName{OpKind::Collective, CollectiveKind::Gather};
    if (has("scatter"))
        return CollectiveName{OpKind::Collective, CollectiveKind::Scatter};
    if (has("send"))
        return CollectiveName{OpKind::Send, CollectiveKind::AllReduce};
    if (has("recv"))
        return CollectiveName{OpKind::Recv, CollectiveKind::AllReduce};
    return std::nullopt;
}

/// What an XLA collective's HLO text (`%all-reduce.1 = bf16[1024,5120]{...} all-reduce(bf16[1024,5120]{...}
/// %x), channel_id=3, replica_groups=[1,2]<=[2], ...`) says: the bytes of its operands (what the rank
/// contributes, Chakra's comm_size), their element type, and its groups as global device ids (XLA's
/// SPMD programs use global ids, use_global_device_ids=true; no groups or `{}` is every device).
struct XlaCollective {
    std::uint64_t operandBytes = 0;
    DType dtype = DType::Unknown;
    bool sized = false;
    std::vector<std::vector<std::int32_t>> groups;
};

XlaCollective parseXlaCollective(std::string_view text, std::size_t world)
{
    XlaCollective out;
    // The operand list: the parenthesis after the opcode, which follows the result shape (a layout
    // such as {1,0:T(8,128)(2,1)} or a tuple holds parentheses of its own: skip to the first space
    // outside brackets).
    const std::size_t equals = text.find(" = ");
    std::size_t open = std::string_view::npos;
    if (equals != std::string_view::npos) {
        int depth = 0;
        std::size_t at = equals + 3;
        for (; at < text.size(); ++at) {
            const char c = text[at];
            if (c == '(' || c == '[' || c == '{')
                ++depth;
            else if (c == ')' || c == ']' || c == '}')
                --depth;
            else if (c == ' ' && depth == 0)
                break;
        }
        open = text.find('(', at);
    }
    if (open != std::string_view::npos) {
        int depth = 0;
        std::size_t start = open + 1;
        for (std::size_t at = open + 1; at < text.size(); ++at) {
            const char c = text[at];
            if (c == '(' || c == '[' || c == '{')
                ++depth;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                --depth;
            else if (c == ')' || (c == ',' && depth == 0)) {
                // One operand: "bf16[1024,5120]{1,0:...} %name".
                std::string_view operand = text.substr(start, at - start);
                while (!operand.empty() && operand.front() == ' ')
                    operand.remove_prefix(1);
                const std::size_t bracket = operand.find('[');
                if (bracket != std::string_view::npos) {
                    const std::optional<DType> type = dtypeFromString(operand.substr(0, bracket));
                    const std::size_t close = operand.find(']', bracket);
                    if (type && close != std::string_view::npos) {
                        std::uint64_t elements = 1;
                        std::string_view dims = operand.substr(bracket + 1, close - bracket - 1);
                        while (!dims.empty()) {
                            while (!dims.empty() && (dims.front() == ',' || dims.front() == ' ' ||
                                                     dims.front() == '<' || dims.front() == '='))
                                dims.remove_prefix(1);
                            std::uint64_t dim = 0;
                            const auto [end, ec] = std::from_chars(dims.data(), dims.data() + dims.size(), dim);
                            if (ec != std::errc())
                                break;
                            elements = dim != 0 && elements > (std::uint64_t{1} << 50) / dim ? (std::uint64_t{1} << 50)
                                                                                             : elements * dim;
                            dims.remove_prefix(static_cast<std::size_t>(end - dims.data()));
                        }
                        out.operandBytes += elements * static_cast<std::uint64_t>(bitWidth(*type)) / 8;
                        out.dtype = *type;
                        out.sized = true;
                    }
                }
                start = at + 1;
                if (c == ')')
                    break;
            }
        }
    }
    const std::size_t groupsAt = text.find("replica_groups=");
    if (groupsAt != std::string_view::npos) {
        std::string_view rest = text.substr(groupsAt + 15);
        std::size_t end = 0;
        int depth = 0;
        for (; end < rest.size(); ++end) {
            const char c = rest[end];
            if (c == '{' || c == '[' || c == '(')
                ++depth;
            else if (c == '}' || c == ']' || c == ')')
                --depth;
            else if (depth == 0 && (c == ',' || c == ' '))
                break;
        }
        try {
            for (const std::vector<std::int64_t>& group : hlo::parseReplicaGroups(rest.substr(0, end))) {
                std::vector<std::int32_t> members;
                for (std::int64_t id : group)
                    if (id >= 0 && static_cast<std::size_t>(id) < world)
                        members.push_back(static_cast<std::int32_t>(id));
                if (members.size() == group.size() && !members.empty())
                    out.groups.push_back(std::move(members));
            }
        } catch (const std::exception&) {
            out.groups.clear(); // unreadable groups: every device, as with none
        }
    }
    return out;
}

bool isNcclKernel(std::string_view name)
{
    return name.find("ncclKernel") != std::string_view::npos || name.find("ncclDevKernel") != std::string_view::npos ||
           name.find("rcclKernel") != std::string_view::npos;
}

std::optional<std::int64_t> profilerStepNumber(std::string_view name)
{
    constexpr std::string_view kPrefix = "ProfilerStep#";
    if (!name.starts_with(kPrefix))
        return std::nullopt;
    std::int64_t step = 0;
    const auto [end, ec] = std::from_chars(name.data() + kPrefix.size(), name.data() + name.size(), step);
    if (ec != std::errc() || end != name.data() + name.size())
        return std::nullopt;
    return step;
}

std::string rankList(const std::vector<std::int32_t>& ranks)
{
    std::string text = "[";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i == 8 && ranks.size() > 10) {
            text += ", ... " + std::to_string(ranks.size()) + " ranks";
            break;
        }
        text += (i ? ", " : "") + std::to_string(ranks[i]);
    }
    return text + "]";
}

const OpExtrasPtr& measuredExtras(MeasuredKind kind)
{
    // One shared extras block per kind: a million measured ops carry the attribute without a million
    // allocations (OpExtrasPtr copies share until changed).
    static const std::vector<OpExtrasPtr> extras = [] {
        std::vector<OpExtrasPtr> all;
        for (int k = 0; k <= static_cast<int>(MeasuredKind::Communication); ++k) {
            OpExtrasPtr p;
            p.mutate().attributes.push_back(
                Attribute::makeString(kMeasuredAttribute, std::string(displayName(static_cast<MeasuredKind>(k)))));
            all.push_back(p);
        }
        return all;
    }();
    return extras[static_cast<std::size_t>(kind)];
}

/// A timed span of one rank's step, before it becomes an op.
struct Span {
    double start = 0;
    double end = 0;
    double launch = 0; ///< when the host asked for it (a kernel's launch call), else its start
    std::uint32_t name = 0;
    std::uint32_t track = 0;
    MeasuredKind kind = MeasuredKind::Kernel;
    std::int32_t collective = -1; ///< communication: index into RankProfile::collectives, -1: by name only
};

struct RankCut {
    MeasuredRank info;
    std::int32_t rank = -1;
    double stepStart = 0, stepEnd = 0;
    std::vector<Span> compute; ///< by start
    std::vector<Span> comms;   ///< by start
};

/// Index of the step markers of a profile: step number -> (start, end, track).
struct StepMarker {
    double start = 0, end = 0;
    std::uint32_t track = 0;
};

std::map<std::int64_t, StepMarker> stepMarkers(const RankProfile& p)
{
    std::map<std::int64_t, StepMarker> steps;
    for (const ProfileEvent& e : p.events) {
        if (e.kind != ProfileEventKind::CpuOp && e.kind != ProfileEventKind::Annotation)
            continue;
        if (const std::optional<std::int64_t> n = profilerStepNumber(p.nameOf(e)))
            steps[*n] = StepMarker{e.start, e.start + e.duration, e.track};
    }
    return steps;
}

/// XLA: the program ("XLA Modules" event name) with the most device time on `p`; empty when none.
std::string dominantProgram(const RankProfile& p)
{
    std::unordered_map<std::uint32_t, double> time;
    for (const ProfileEvent& e : p.events)
        if (e.kind == ProfileEventKind::Annotation)
            time[e.name] += e.duration;
    std::uint32_t best = 0;
    double most = -1;
    for (const auto& [name, seconds] : time)
        if (seconds > most || (seconds == most && name < best)) {
            best = name;
            most = seconds;
        }
    return most < 0 ? std::string() : std::string(p.names[best]);
}

/// XLA: the periods of `program` on `p`, from each execution's start to the next one's (the last
/// to the end of the rank's last event), in microseconds.
std::vector<std::pair<double, double>> executionPeriods(const RankProfile& p, std::string_view program)
{
    std::vector<double> starts;
    double last = -1e300;
    for (const ProfileEvent& e : p.events) {
        last = std::max(last, e.start + e.duration);
        if (e.kind == ProfileEventKind::Annotation && p.nameOf(e) == program)
            starts.push_back(e.start);
    }
    std::sort(starts.begin(), starts.end());
    std::vector<std::pair<double, double>> periods;
    for (std::size_t k = 0; k < starts.size(); ++k)
        periods.emplace_back(starts[k], k + 1 < starts.size() ? starts[k + 1] : std::nextafter(last, 1e300));
    return periods;
}

/// The outermost of `spans` (sorted by start, then longest first): those not inside an earlier one.
template <typename Get>
std::vector<std::size_t> outermost(const std::vector<std::size_t>& sorted, Get span)
{
    std::vector<std::size_t> out;
    double coveredTo = -1e300;
    for (std::size_t i : sorted) {
        const auto [start, end] = span(i);
        if (start >= coveredTo) {
            out.push_back(i);
            coveredTo = end;
        } else {
            coveredTo = std::max(coveredTo, end);
        }
    }
    return out;
}

class Cutter {
public:
    Cutter(const RankProfile& profile, double stepStart, double stepEnd, std::uint32_t stepTrack, bool hasStep)
        : m_p(profile)
        , m_stepStart(stepStart)
        , m_stepEnd(stepEnd)
        , m_stepTrack(stepTrack)
        , m_hasStep(hasStep)
    {}

    RankCut cut()
    {
        RankCut cut;
        cut.stepStart = m_stepStart;
        cut.stepEnd = m_stepEnd;
        cut.info.file = m_p.file;
        std::unordered_map<std::int64_t, std::uint32_t> launchOf; // correlation -> runtime event
        std::unordered_map<std::int64_t, std::int32_t> collectiveOfExternal;
        std::vector<std::vector<std::uint32_t>> hostCollectives(m_p.tracks.size());
        for (std::uint32_t i = 0; i < m_p.events.size(); ++i) {
            const ProfileEvent& e = m_p.events[i];
            if (e.kind == ProfileEventKind::Runtime && e.correlation >= 0)
                launchOf.emplace(e.correlation, i);
            if ((e.kind == ProfileEventKind::CpuOp || e.kind == ProfileEventKind::Annotation) && e.collective >= 0 &&
                collectiveOfName(m_p.collectives[static_cast<std::size_t>(e.collective)].name)) {
                if (e.externalId >= 0)
                    collectiveOfExternal.emplace(e.externalId, e.collective);
                hostCollectives[e.track].push_back(i);
            }
        }
        for (auto& list : hostCollectives)
            std::sort(list.begin(), list.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return m_p.events[a].start < m_p.events[b].start; });
        // The collective record of a launch: by the launch's external id, else the innermost host op with
        // collective arguments around the launch on its thread.
        const auto hostCollectiveAt = [&](const ProfileEvent& launch) -> std::int32_t {
            if (launch.externalId >= 0) {
                const auto it = collectiveOfExternal.find(launch.externalId);
                if (it != collectiveOfExternal.end())
                    return it->second;
            }
            const std::vector<std::uint32_t>& list = hostCollectives[launch.track];
            auto it = std::upper_bound(list.begin(), list.end(), launch.start,
                                       [&](double t, std::uint32_t i) { return t < m_p.events[i].start; });
            while (it != list.begin()) {
                --it;
                const ProfileEvent& host = m_p.events[*it];
                if (host.start + host.duration >= launch.start)
                    return host.collective;
                if (launch.start - host.start > 1e6)
                    break;
            }
            return -1;
        };

        for (const ProfileEvent& e : m_p.events) {
            if (e.kind != ProfileEventKind::Kernel && e.kind != ProfileEventKind::Memcpy &&
                e.kind != ProfileEventKind::Memset)
                continue;
            const ProfileEvent* launch = nullptr;
            if (e.correlation >= 0) {
                const auto it = launchOf.find(e.correlation);
                if (it != launchOf.end())
                    launch = &m_p.events[it->second];
            }
            const double launchTime = launch ? launch->start : e.start;
            if (launchTime < m_stepStart || launchTime >= m_stepEnd)
                continue;
            Span span{e.start, e.start + e.duration, launchTime, e.name, e.track, MeasuredKind::Kernel, -1};
            const bool deviceCollective =
                e.collective >= 0 && m_p.collectives[static_cast<std::size_t>(e.collective)].deviceOp;
            if (e.kind == ProfileEventKind::Kernel && (deviceCollective || isNcclKernel(m_p.nameOf(e)))) {
                span.kind = MeasuredKind::Communication;
                span.collective = e.collective >= 0 ? e.collective : launch ? hostCollectiveAt(*launch) : -1;
                cut.comms.push_back(span);
                continue;
            }
            span.kind = e.kind == ProfileEventKind::Memcpy   ? MeasuredKind::Memcpy
                        : e.kind == ProfileEventKind::Memset ? MeasuredKind::Memset
                                                             : MeasuredKind::Kernel;
            (span.kind == MeasuredKind::Kernel   ? cut.info.kernels
             : span.kind == MeasuredKind::Memcpy ? cut.info.memcpys
                                                 : cut.info.memsets)++;
            cut.compute.push_back(span);
        }
        cut.info.device = !cut.compute.empty() || !cut.comms.empty();
        if (!cut.info.device)
            cutHost(cut);
        cut.info.collectives = cut.comms.size();
        const auto byStart = [](const Span& a, const Span& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        };
        std::sort(cut.compute.begin(), cut.compute.end(), byStart);
        std::sort(cut.comms.begin(), cut.comms.end(), byStart);
        double busyTo = -1e300;
        for (const Span& s : cut.compute) {
            if (s.start < busyTo)
                cut.info.concurrentComputeSeconds += (std::min(busyTo, s.end) - s.start) * 1e-6;
            busyTo = std::max(busyTo, s.end);
        }
        return cut;
    }

private:
    /// A CPU-only run (gloo): the step's top-level operators on the thread of the step marker are the
    /// compute, less the time they spend inside collectives; collectives on any thread are the
    /// communication.
    void cutHost(RankCut& cut)
    {
        std::uint32_t mainTrack = m_stepTrack;
        if (!m_hasStep) {
            std::vector<double> busy(m_p.tracks.size(), 0.0);
            for (const ProfileEvent& e : m_p.events)
                if (e.kind == ProfileEventKind::CpuOp)
                    busy[e.track] += e.duration;
            mainTrack = static_cast<std::uint32_t>(std::max_element(busy.begin(), busy.end()) - busy.begin());
        }
        std::vector<std::size_t> ops, comms;
        for (std::size_t i = 0; i < m_p.events.size(); ++i) {
            const ProfileEvent& e = m_p.events[i];
            if ((e.kind != ProfileEventKind::CpuOp && e.kind != ProfileEventKind::Annotation) ||
                e.start < m_stepStart || e.start >= m_stepEnd)
                continue;
            const std::string_view name = m_p.nameOf(e);
            if (profilerStepNumber(name))
                continue;
            if (isCollectiveOperator(name) && collectiveOfName(name))
                comms.push_back(i);
            if (e.track == mainTrack && e.kind == ProfileEventKind::CpuOp)
                ops.push_back(i);
        }
        const auto order = [&](std::size_t a, std::size_t b) {
            const ProfileEvent& x = m_p.events[a];
            const ProfileEvent& y = m_p.events[b];
            if (x.track != y.track)
                return x.track < y.track;
            return x.start != y.start ? x.start < y.start : x.duration > y.duration;
        };
        std::sort(ops.begin(), ops.end(), order);
        std::sort(comms.begin(), comms.end(), order);
        const auto spanOf = [&](std::size_t i) {
            return std::pair(m_p.events[i].start, m_p.events[i].start + m_p.events[i].duration);
        };
        // Outermost collectives per thread; their record is the first one with arguments inside.
        std::vector<std::size_t> outer;
        for (std::size_t begin = 0; begin < comms.size();) {
            std::size_t end = begin;
            while (end < comms.size() && m_p.events[comms[end]].track == m_p.events[comms[begin]].track)
                ++end;
            const std::vector<std::size_t> slice(comms.begin() + static_cast<std::ptrdiff_t>(begin),
                                                 comms.begin() + static_cast<std::ptrdiff_t>(end));
            for (std::size_t i : outermost(slice, spanOf))
                outer.push_back(i);
            begin = end;
        }
        std::vector<std::pair<double, double>> blocked; // collective time on the main thread
        for (std::size_t i : outer) {
            const ProfileEvent& e = m_p.events[i];
            Span span{e.start, e.start + e.duration,        e.start,     e.name,
                      e.track, MeasuredKind::Communication, e.collective};
            if (span.collective < 0)
                for (std::size_t j : comms) {
                    const ProfileEvent& inner = m_p.events[j];
                    if (inner.track == e.track && inner.collective >= 0 && j != i && inner.start >= e.start &&
                        inner.start + inner.duration <= e.start + e.duration) {
                        span.collective = inner.collective;
                        break;
                    }
                }
            if (span.collective < 0)
                span.collective = enqueuedCollective(e);
            cut.comms.push_back(span);
            if (e.track == mainTrack)
                blocked.emplace_back(span.start, span.end);
        }
        std::sort(blocked.begin(), blocked.end());
        for (std::size_t i : outermost(ops, spanOf)) {
            const ProfileEvent& e = m_p.events[i];
            double from = e.start;
            const double to = e.start + e.duration;
            for (const auto& [bStart, bEnd] : blocked) {
                if (bEnd <= from || bStart >= to)
                    continue;
                if (bStart > from)
                    cut.compute.push_back(Span{from, bStart, from, e.name, e.track, MeasuredKind::HostOp, -1});
                from = std::max(from, bEnd);
            }
            if (to > from)
                cut.compute.push_back(Span{from, to, from, e.name, e.track, MeasuredKind::HostOp, -1});
            ++cut.info.hostOps;
        }
    }

    /// The arguments of a backend op that records none: those of the latest record_param_comms of the
    /// same kind that started before it (PyTorch 2 records them when the collective is enqueued).
    std::int32_t enqueuedCollective(const ProfileEvent& backendOp)
    {
        if (!m_enqueuedIndexed) {
            for (const ProfileEvent& e : m_p.events)
                if (e.collective >= 0 && m_p.nameOf(e) == "record_param_comms")
                    m_enqueued.push_back(&e);
            std::sort(m_enqueued.begin(), m_enqueued.end(),
                      [](const ProfileEvent* a, const ProfileEvent* b) { return a->start < b->start; });
            m_enqueuedIndexed = true;
        }
        const std::optional<CollectiveName> kind = collectiveOfName(m_p.nameOf(backendOp));
        auto it = std::upper_bound(m_enqueued.begin(), m_enqueued.end(), backendOp.start,
                                   [](double t, const ProfileEvent* e) { return t < e->start; });
        while (kind && it != m_enqueued.begin()) {
            --it;
            const ProfileCollective& c = m_p.collectives[static_cast<std::size_t>((*it)->collective)];
            const std::optional<CollectiveName> enqueued = collectiveOfName(c.name);
            if (enqueued && enqueued->kind == kind->kind && enqueued->collective == kind->collective)
                return (*it)->collective;
        }
        return -1;
    }

    static bool isCollectiveOperator(std::string_view name)
    {
        // The backend's op is the collective itself (gloo runs it on its own threads); c10d:: ops and
        // record_param_comms on the calling thread only enqueue it.
        return name.starts_with("gloo:") || name.starts_with("nccl:");
    }

    const RankProfile& m_p;
    std::vector<const ProfileEvent*> m_enqueued;
    bool m_enqueuedIndexed = false;
    double m_stepStart, m_stepEnd;
    std::uint32_t m_stepTrack;
    bool m_hasStep;
};

/// Runs `work(i)` for i in [0, count) on all cores; when some throw, rethrows the exception of the
/// lowest i, so that the error does not depend on scheduling.
template <typename Work>
void forEachIndex(std::size_t count, Work work)
{
    std::vector<std::exception_ptr> failures(count);
    std::atomic<std::size_t> next{0};
    {
        std::vector<std::jthread> workers;
        const std::size_t threads = std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
        for (std::size_t t = 0; t < threads; ++t)
            workers.emplace_back([&] {
                for (std::size_t i = next++; i < count; i = next++) {
                    try {
                        work(i);
                    } catch (...) {
                        failures[i] = std::current_exception();
                    }
                }
            });
    }
    for (const std::exception_ptr& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
}

struct CommPlacement {
    std::int32_t rank = 0;
    std::uint32_t op = 0; ///< index into the rank's program, so in the rank's issue order
    double micros = 0;    ///< the rank's own measured duration
    double end = 0;       ///< when it ended, on the trace's clock
};

/// How far apart (on the traces' clocks) the ends of one collective's kernels may be on two ranks:
/// an NCCL kernel returns when the last peer's data has arrived, so the members of one collective
/// end together but for the last chunk's hop (microseconds) and the hosts' clock offset (NTP keeps
/// a cluster's clocks within about a millisecond). HTA's sampled DLRM trace pairs within 332 us.
constexpr double kPairSlackMicros = 2000;

/// The collectives of a group whose members were not recorded (no process-group metadata: taken
/// as all ranks), where the world was recorded on some ranks only. Such a "group" mixes
/// collectives of several real groups (a recommendation model's all-to-alls run on groups that
/// hold one of the recorded ranks but not the other), so the k-th collective of one rank need not
/// be the k-th of another. Where issue order does not pair them (counts differ, or the k-th ends
/// more than kPairSlackMicros off the run's clock offset between the two ranks), they are paired by
/// end time: each member against the member recording most, nearest ends within the slack first,
/// keeping every member's issue order. Leaves `perMember` aligned (the k-th of each one collective)
/// and returns the collectives that found no partner on some recorded member.
std::vector<CommPlacement> pairByEndTime(std::vector<std::vector<CommPlacement>>& perMember,
                                         const std::vector<bool>& recordedMember)
{
    std::vector<std::size_t> recorded;
    for (std::size_t m = 0; m < perMember.size(); ++m)
        if (recordedMember[m])
            recorded.push_back(m);
    if (recorded.size() < 2)
        return {};
    const std::size_t ref = *std::max_element(recorded.begin(), recorded.end(), [&](std::size_t a, std::size_t b) {
        return perMember[a].size() < perMember[b].size();
    });
    const std::vector<CommPlacement>& base = perMember[ref];
    // In issue order, with one clock offset per member (the median difference of ends).
    const auto inOrder = [&](const std::vector<CommPlacement>& list) {
        if (list.size() != base.size())
            return false;
        std::vector<double> offsets(list.size());
        for (std::size_t k = 0; k < list.size(); ++k)
            offsets[k] = list[k].end - base[k].end;
        if (offsets.empty())
            return true;
        std::vector<double> sorted = offsets;
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
        const double median = sorted[sorted.size() / 2];
        return std::all_of(offsets.begin(), offsets.end(),
                           [median](double o) { return std::abs(o - median) <= kPairSlackMicros; });
    };
    if (std::all_of(recorded.begin(), recorded.end(), [&](std::size_t m) { return inOrder(perMember[m]); }))
        return {};

    // matched[j][i]: the index in member recorded[j]'s list of the collective ending with base[i].
    const auto byEnd = [](const std::vector<CommPlacement>& list) {
        std::vector<std::size_t> order(list.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return list[a].end < list[b].end; });
        return order;
    };
    const std::vector<std::size_t> baseByEnd = byEnd(base);
    constexpr std::size_t kNone = SIZE_MAX;
    std::vector<std::vector<std::size_t>> matched(recorded.size(), std::vector<std::size_t>(base.size(), kNone));
    for (std::size_t j = 0; j < recorded.size(); ++j) {
        const std::vector<CommPlacement>& list = perMember[recorded[j]];
        if (recorded[j] == ref) {
            for (std::size_t i = 0; i < base.size(); ++i)
                matched[j][i] = i;
            continue;
        }
        const std::vector<std::size_t> listByEnd = byEnd(list);
        const auto gap = [&](std::size_t a, std::size_t b) {
            return std::abs(list[listByEnd[b]].end - base[baseByEnd[a]].end);
        };
        std::size_t a = 0, b = 0;
        while (a < baseByEnd.size() && b < listByEnd.size()) {
            const double d = gap(a, b);
            if (d > kPairSlackMicros) {
                (base[baseByEnd[a]].end < list[listByEnd[b]].end ? a : b) += 1;
            } else if (a + 1 < baseByEnd.size() && gap(a + 1, b) < d) {
                ++a; // the next one ends nearer: this one has no partner
            } else if (b + 1 < listByEnd.size() && gap(a, b + 1) < d) {
                ++b;
            } else {
                matched[j][baseByEnd[a++]] = listByEnd[b++];
            }
        }
    }
    // A collective kept is matched on every recorded member, in every member's issue order.
    std::vector<std::vector<bool>> kept(perMember.size());
    for (std::size_t m : recorded)
        kept[m].assign(perMember[m].size(), false);
    std::vector<std::vector<CommPlacement>> aligned(perMember.size());
    std::vector<std::size_t> last(recorded.size(), kNone);
    for (std::size_t i = 0; i < base.size(); ++i) {
        bool ok = true;
        for (std::size_t j = 0; j < recorded.size() && ok; ++j)
            ok = matched[j][i] != kNone && (last[j] == kNone || matched[j][i] > last[j]);
        if (!ok)
            continue;
        for (std::size_t j = 0; j < recorded.size(); ++j) {
            last[j] = matched[j][i];
            kept[recorded[j]][matched[j][i]] = true;
            aligned[recorded[j]].push_back(perMember[recorded[j]][matched[j][i]]);
        }
    }
    std::vector<CommPlacement> unpaired;
    for (std::size_t m : recorded)
        for (std::size_t k = 0; k < perMember[m].size(); ++k)
            if (!kept[m][k])
                unpaired.push_back(perMember[m][k]);
    perMember = std::move(aligned);
    return unpaired;
}

/// Ranks without a profile run the program of recorded rank (m mod recorded count), in rank order, and
/// take part in the groups it was bound to; one that is not a member of them cannot be placed.
void mirrorMissingRanks(MeasuredWorkload& out, const std::vector<std::int32_t>& fileOfRank,
                        const std::vector<RankProfile>& profiles)
{
    Workload& w = out.workload;
    std::vector<std::size_t> recordedRanks;
    for (std::size_t r = 0; r < fileOfRank.size(); ++r)
        if (fileOfRank[r] >= 0)
            recordedRanks.push_back(r);
    if (recordedRanks.size() == fileOfRank.size())
        return;
    for (std::size_t m = 0; m < fileOfRank.size(); ++m) {
        if (fileOfRank[m] >= 0)
            continue;
        const std::size_t source = recordedRanks[m % recordedRanks.size()];
        w.ranks[m] = w.ranks[source];
        out.ranks[m] = out.ranks[source];
        out.ranks[m].file.clear();
        for (std::uint32_t g : w.ranks[m].slotGroups) {
            const std::vector<std::int32_t>& members = w.groups[g].ranks;
            if (!std::binary_search(members.begin(), members.end(), static_cast<std::int32_t>(m)))
                throw InputError(profiles[static_cast<std::size_t>(fileOfRank[source])].file,
                                 "rank " + std::to_string(m) + " has no profile, and rank " + std::to_string(source) +
                                     "'s groups, which it would mirror, do not include it: give every rank's profile");
        }
    }
    std::string recordedText;
    for (std::size_t i = 0; i < recordedRanks.size() && i < 8; ++i)
        recordedText += (i ? ", " : "") + std::to_string(recordedRanks[i]);
    if (recordedRanks.size() > 8)
        recordedText += ", ...";
    const std::vector<std::string> arguments{std::to_string(recordedRanks.size()), std::to_string(fileOfRank.size()),
                                             recordedText};
    out.notes.push_back(
        recordedRanks.size() == 1
            ? Message(
                  FLINT_TRANSLATE_NOOP("Diagnostics", "%1 of %2 ranks recorded (%3): the others run as rank %3 does"),
                  arguments)
            : Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                           "%1 of %2 ranks recorded (%3): each other rank m runs as recorded "
                                           "rank number m mod %1 does"),
                      arguments));
}

/// Pairs the collectives of groups the trace does not name (pairByEndTime) where the world was
/// recorded on some ranks only. A collective with no partner on another recorded rank runs on a
/// group the other recorded ranks are not in; the ranks that mirror its rank (mirrorMissingRanks)
/// are the only ones the recording lets us put in it, so it runs on those: it gets a slot of its
/// own, bound to that group. Adds a note saying how many were paired and how many were not.
void pairUnnamedGroups(std::map<std::vector<std::int32_t>, std::vector<std::vector<CommPlacement>>>& byGroup,
                       const std::set<std::vector<std::int32_t>>& guessedGroups,
                       const std::vector<std::int32_t>& fileOfRank, const Workload& w,
                       const std::vector<std::shared_ptr<Program>>& programs, std::vector<Message>& notes)
{
    std::vector<std::size_t> recordedRanks;
    for (std::size_t r = 0; r < fileOfRank.size(); ++r)
        if (fileOfRank[r] >= 0)
            recordedRanks.push_back(r);
    if (recordedRanks.size() < 2 || recordedRanks.size() == fileOfRank.size())
        return;
    std::size_t paired = 0, alone = 0;
    std::map<std::vector<std::int32_t>, std::vector<std::vector<CommPlacement>>> mirrored;
    std::map<std::int32_t, std::vector<std::int32_t>> mirrorGroups; // recorded rank -> it and its mirrors
    for (const std::vector<std::int32_t>& members : guessedGroups) {
        auto& perMember = byGroup.at(members);
        std::vector<bool> recordedMember(members.size());
        for (std::size_t m = 0; m < members.size(); ++m)
            recordedMember[m] = fileOfRank[static_cast<std::size_t>(members[m])] >= 0;
        const std::vector<CommPlacement> unpaired = pairByEndTime(perMember, recordedMember);
        if (unpaired.empty())
            continue;
        std::size_t instances = 0;
        for (const auto& list : perMember)
            instances = std::max(instances, list.size());
        paired += instances;
        alone += unpaired.size();
        for (const CommPlacement& c : unpaired) {
            // Each recorded rank's group once (a world of a million ranks, thousands of collectives).
            auto [found, added] = mirrorGroups.try_emplace(c.rank);
            std::vector<std::int32_t>& group = found->second;
            if (added) {
                const auto q = static_cast<std::size_t>(
                    std::find(recordedRanks.begin(), recordedRanks.end(), static_cast<std::size_t>(c.rank)) -
                    recordedRanks.begin());
                group.push_back(c.rank);
                for (std::size_t m = q; m < fileOfRank.size(); m += recordedRanks.size())
                    if (fileOfRank[m] < 0)
                        group.push_back(static_cast<std::int32_t>(m));
                std::sort(group.begin(), group.end());
            }
            Program& program = *programs[w.ranks[static_cast<std::size_t>(c.rank)].program];
            program.ops[c.op].commSlot =
                program.commSlotFor("mirrors of rank " + std::to_string(c.rank) + " " + rankList(group));
            auto& lists = mirrored[group];
            lists.resize(group.size());
            lists[static_cast<std::size_t>(std::lower_bound(group.begin(), group.end(), c.rank) - group.begin())]
                .push_back(c);
        }
    }
    for (auto& [group, lists] : mirrored) {
        auto& into = byGroup[group]; // a group the trace names may have these members too
        into.resize(group.size());
        for (std::size_t m = 0; m < group.size(); ++m) {
            into[m].insert(into[m].end(), lists[m].begin(), lists[m].end());
            std::sort(into[m].begin(), into[m].end(),
                      [](const CommPlacement& a, const CommPlacement& b) { return a.op < b.op; });
        }
    }
    if (alone > 0)
        notes.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                "the trace names no process group for its collectives, and the "
                                                "recorded ranks do not issue them in the same order: paired by end "
                                                "time instead. %1 collectives end together on every recorded rank; "
                                                "%2 (counted on each rank) have no partner on another recorded rank "
                                                "and run on a group of their rank and the unrecorded ranks that copy "
                                                "it"),
                           std::vector<std::string>{std::to_string(paired), std::to_string(alone)});
}

} // namespace

std::string_view displayName(MeasuredKind kind)
{
    switch (kind) {
    case MeasuredKind::Kernel:
        return "kernel";
    case MeasuredKind::Memcpy:
        return "memcpy";
    case MeasuredKind::Memset:
        return "memset";
    case MeasuredKind::HostOp:
        return "host op";
    case MeasuredKind::HostGap:
        return "host gap";
    case MeasuredKind::Communication:
        return "communication";
    }
    return "kernel";
}

std::optional<MeasuredKind> measuredKindOf(const Op& op)
{
    if (!op.extras.has())
        return std::nullopt;
    for (const Attribute& a : op.extras.get().attributes)
        if (a.name == kMeasuredAttribute) {
            const std::string value = a.asString();
            for (int k = 0; k <= static_cast<int>(MeasuredKind::Communication); ++k)
                if (value == displayName(static_cast<MeasuredKind>(k)))
                    return static_cast<MeasuredKind>(k);
        }
    return std::nullopt;
}

double MeasuredWorkload::stepSeconds() const
{
    double slowest = 0;
    for (const MeasuredRank& r : ranks)
        slowest = std::max(slowest, r.stepSeconds);
    return slowest;
}

MeasuredWorkload measuredWorkload(std::vector<RankProfile> profiles, const MeasuredOptions& options)
{
    if (profiles.empty())
        throw InputError("profile", "no profile to read");
    for (const RankProfile& p : profiles)
        if (p.events.empty())
            throw InputError(p.file, "holds no trace events of a kind read here (kernels, copies, host operators, "
                                     "annotations): the profiler recorded nothing to read");
    MeasuredWorkload out;
    out.producer = profiles.front().producer + (profiles.front().rocm ? " on ROCm" : "");
    out.deviceKind = profiles.front().deviceKind;
    out.deviceName = profiles.front().deviceName;
    if (!out.deviceKind.empty())
        out.producer += " on " + out.deviceKind;
    const std::size_t count = profiles.size();

    // Ranks: as each profile records itself, else in the order given. A run may be recorded on some
    // ranks only (a profile of rank 0 is common): the others are taken to run as a recorded rank does.
    std::vector<std::int32_t> rankOf(count);
    const bool recorded =
        std::all_of(profiles.begin(), profiles.end(), [](const RankProfile& p) { return p.rank >= 0; });
    std::size_t world = count;
    for (const RankProfile& p : profiles)
        world = std::max(world, static_cast<std::size_t>(std::max(p.worldSize, 0)));
    constexpr std::size_t kMaxWorld = std::size_t{1} << 20;
    if (world > kMaxWorld)
        throw InputError(profiles.front().file, "records a world of " + std::to_string(world) + " ranks; at most " +
                                                    std::to_string(kMaxWorld) + " are modelled");
    for (std::size_t i = 0; i < count; ++i)
        rankOf[i] = recorded ? profiles[i].rank : static_cast<std::int32_t>(i);
    std::vector<std::int32_t> fileOfRank(world, -1);
    for (std::size_t i = 0; i < count; ++i) {
        const std::int32_t r = rankOf[i];
        if (r < 0 || static_cast<std::size_t>(r) >= world)
            throw InputError(profiles[i].file, "records rank " + std::to_string(r) + " of a world of " +
                                                   std::to_string(world) + " ranks");
        if (fileOfRank[static_cast<std::size_t>(r)] >= 0)
            throw InputError(profiles[i].file,
                             "records rank " + std::to_string(r) + ", as " +
                                 profiles[static_cast<std::size_t>(fileOfRank[static_cast<std::size_t>(r)])].file +
                                 " does");
        fileOfRank[static_cast<std::size_t>(r)] = static_cast<std::int32_t>(i);
    }

    // The step to cut.
    std::vector<std::map<std::int64_t, StepMarker>> markers(count);
    for (std::size_t i = 0; i < count; ++i)
        markers[i] = stepMarkers(profiles[i]);
    const bool anyMarkers = std::any_of(markers.begin(), markers.end(), [](const auto& m) { return !m.empty(); });
    std::int64_t step = -1;
    if (anyMarkers) {
        if (options.step >= 0) {
            step = options.step;
        } else {
            for (const auto& [n, marker] : markers.front())
                if (std::all_of(markers.begin(), markers.end(),
                                [wanted = n](const auto& m) { return m.contains(wanted); })) {
                    step = n;
                    break;
                }
            if (step < 0) {
                // Name the profile at fault: one without any step marker, else the first.
                std::size_t unmarked = 0;
                while (unmarked < count && !markers[unmarked].empty())
                    ++unmarked;
                if (unmarked < count)
                    throw InputError(profiles[unmarked].file,
                                     "has no ProfilerStep#N markers, which the other ranks' profiles have");
                throw InputError(profiles.front().file, "the ranks' profiles have no ProfilerStep#N in common");
            }
        }
        for (std::size_t i = 0; i < count; ++i)
            if (!markers[i].contains(step)) {
                std::string have;
                for (const auto& [n, marker] : markers[i])
                    have += (have.empty() ? "" : ", ") + std::to_string(n);
                throw InputError(profiles[i].file,
                                 "has no ProfilerStep#" + std::to_string(step) +
                                     (have.empty() ? " (no step markers)" : " (steps: " + have + ")"));
            }
    }
    // XLA traces have no ProfilerStep markers. A training or serving loop runs one program per step
    // (its step function), so a step is one period of the program with the most device time: from
    // the start of its Nth execution to the start of the next (after the last, the end of the trace),
    // the programs run between them included. A program run once leaves the whole trace the step.
    std::vector<std::vector<std::pair<double, double>>> xlaPeriods;
    const bool allXla =
        count > 0 && std::all_of(profiles.begin(), profiles.end(), [](const RankProfile& p) { return p.xla; });
    if (!anyMarkers && allXla) {
        const std::string program = dominantProgram(profiles.front());
        std::size_t fewest = SIZE_MAX, fewestRank = 0;
        if (!program.empty()) {
            xlaPeriods.resize(count);
            for (std::size_t i = 0; i < count; ++i) {
                xlaPeriods[i] = executionPeriods(profiles[i], program);
                if (xlaPeriods[i].size() < fewest) {
                    fewest = xlaPeriods[i].size();
                    fewestRank = i;
                }
            }
        }
        if (!program.empty() && (options.step >= 0 || fewest >= 2)) {
            step = std::max<std::int64_t>(options.step, 0);
            if (static_cast<std::uint64_t>(step) >= fewest)
                throw InputError(profiles[fewestRank].file,
                                 "runs the step program " + program + " " + std::to_string(fewest) +
                                     (fewest == 1 ? " time" : " times") +
                                     (fewest == 0 ? "" : "; --step takes 0 to " + std::to_string(fewest - 1)));
            // Said in full: the step runs past the program's own end, to the next execution.
            out.stepName = "execution " + std::to_string(step) + " of " + program +
                           (static_cast<std::uint64_t>(step) + 1 < fewest
                                ? " to the start of execution " + std::to_string(step + 1)
                                : std::string(" to the end of the trace"));
        } else {
            xlaPeriods.clear();
        }
    }
    if (step < 0 && options.step >= 0)
        throw InputError(profiles.front().file, "has no ProfilerStep#N markers; --step needs them");
    if (anyMarkers)
        out.stepName = "ProfilerStep#" + std::to_string(step);
    out.step = step;

    // Cut each rank's step on both cores.
    std::vector<RankCut> cuts(count);
    const auto cutRank = [&](std::size_t i) {
        const RankProfile& p = profiles[i];
        double start = 0, end = 0;
        std::uint32_t track = 0;
        if (!xlaPeriods.empty()) {
            std::tie(start, end) = xlaPeriods[i][static_cast<std::size_t>(step)];
        } else if (step >= 0) {
            const StepMarker& m = markers[i].at(step);
            start = m.start;
            end = m.end;
            track = m.track;
        } else {
            start = 1e300;
            end = -1e300;
            for (const ProfileEvent& e : p.events) {
                start = std::min(start, e.start);
                end = std::max(end, e.start + e.duration);
            }
            if (p.events.empty())
                start = end = 0;
            end = std::nextafter(end, 1e300);
        }
        cuts[i] = Cutter(p, start, end, track, step >= 0).cut();
        cuts[i].rank = rankOf[i];
    };
    forEachIndex(count, [&](std::size_t i) { cutRank(i); });

    // Ops per rank.
    Workload& w = out.workload;
    w.ranks.resize(world);
    out.ranks.resize(world);
    std::map<std::vector<std::int32_t>, std::vector<std::vector<CommPlacement>>> byGroup; // members -> per member rank
    std::set<std::vector<std::int32_t>> guessedGroups; // taken as all ranks: the trace names no group
    std::uint64_t unsized = 0, ungrouped = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const RankProfile& p = profiles[i];
        RankCut& cut = cuts[i];
        const auto r = static_cast<std::size_t>(cut.rank);
        auto program = std::make_shared<Program>();
        program->name = std::filesystem::path(p.file).filename().string();
        std::vector<Op>& ops = program->ops;
        ops.reserve(cut.compute.size() * 2 + cut.comms.size() + 1);
        const double s0 = cut.stepStart;
        const auto at = [s0](double t) { return static_cast<std::uint64_t>(std::llround(std::max(0.0, t - s0))); };
        const auto addOp = [&](MeasuredKind kind, std::uint32_t name, std::string_view scope, double start,
                               double end) {
            Op op;
            op.id = ops.size();
            op.kind = kind == MeasuredKind::Communication ? OpKind::Collective : OpKind::Compute;
            op.name = kind == MeasuredKind::HostGap ? std::string("host gap") : std::string(p.names[name]);
            op.scope = std::string(scope);
            op.startTimeMicros = at(start);
            op.durationMicros = at(end) - std::min(at(end), op.startTimeMicros);
            op.extras = measuredExtras(kind);
            ops.push_back(std::move(op));
            return static_cast<std::uint32_t>(ops.size() - 1);
        };
        const auto scopeOf = [&](const Span& s) {
            const ProfileTrack& t = p.tracks[s.track];
            return t.gpu ? "stream " + std::to_string(t.tid) : std::string("thread ") + std::to_string(t.tid);
        };
        // Communication ends, for finding the collective a device op waited for.
        std::vector<std::pair<double, std::uint32_t>> commEnds; // (end, op), sorted as ops are made
        std::vector<std::uint32_t> computeOps;                  // compute and gap ops, in order
        std::vector<double> computeLaunch;
        std::unordered_map<std::uint32_t, std::uint32_t> lastCommOnTrack;
        std::vector<std::uint32_t> commOps(cut.comms.size());
        double lastComputeEnd = s0;
        std::uint32_t lastCompute = UINT32_MAX;
        std::size_t nextComm = 0;
        std::vector<std::pair<double, std::uint32_t>> pendingEnds; // comm ops made, by end
        const auto makeComm = [&](std::size_t k) {
            const Span& s = cut.comms[k];
            const std::uint32_t op = addOp(MeasuredKind::Communication, s.name, scopeOf(s), s.start, s.end);
            Op& o = ops[op];
            // The collective waits for the compute launched before it (ProcessGroupNCCL makes its stream
            // wait for the current stream) and for the previous collective on its stream.
            for (std::size_t c = computeOps.size(); c-- > 0;)
                if (computeLaunch[c] <= s.launch) {
                    o.dataDeps.push_back(computeOps[c]);
                    break;
                }
            // Stream order, not data: a control dependency (dashed in the graph view).
            const auto prev = lastCommOnTrack.find(s.track);
            if (prev != lastCommOnTrack.end())
                o.ctrlDeps.push_back(prev->second);
            lastCommOnTrack[s.track] = op;
            const ProfileCollective* info =
                s.collective >= 0 ? &p.collectives[static_cast<std::size_t>(s.collective)] : nullptr;
            std::optional<CollectiveName> what = info ? collectiveOfName(info->name) : std::nullopt;
            const std::optional<CollectiveName> kernel = collectiveOfName(p.names[s.name]);
            // A record that names another collective than the NCCL kernel does belongs to something else
            // (a trace with events left out), but for SendRecv kernels: NCCL runs all-to-all, send,
            // recv, gather and scatter on them, and builds that implement collectives with
            // point-to-point kernels run the others on them too (HTA's DLRM trace: its nccl:all_reduce
            // of 19,618,307 floats and its _all_gather_base launch SendRecv kernels, which end together
            // with the same collective's kernel on the other rank). Then the framework's record, which
            // says what was asked for and how big, is taken.
            if (what && kernel && isNcclKernel(p.names[s.name]) &&
                (what->kind != kernel->kind || what->collective != kernel->collective) &&
                kernel->collective != CollectiveKind::AllToAll) {
                info = nullptr;
                what = kernel;
            }
            if (!what)
                what = kernel;
            if (!what)
                what = CollectiveName{};
            o.kind = what->kind == OpKind::Collective ? OpKind::Collective : OpKind::Compute;
            o.collective = what->collective;
            std::vector<std::int32_t> members;
            bool sized = true; // a collective without its size is counted below, a send or recv is not
            if (info && !info->hloText.empty()) {
                const XlaCollective xla = parseXlaCollective(info->hloText, world);
                o.commBytes = xla.operandBytes;
                o.dtype = xla.dtype;
                sized = xla.sized;
                for (const std::vector<std::int32_t>& group : xla.groups)
                    if (std::find(group.begin(), group.end(), cut.rank) != group.end())
                        members = group;
            } else if (info) {
                const int bits = bitWidth(info->dtype);
                if (info->inElements > (std::int64_t{1} << 50))
                    throw InputError(p.file, "a collective of " + std::to_string(info->inElements) +
                                                 " elements (\"In msg nelems\"): more than 2^50 is no real message");
                if (info->inElements >= 0 && bits > 0)
                    o.commBytes = static_cast<std::uint64_t>(info->inElements) * static_cast<std::uint64_t>(bits) / 8;
                else
                    sized = false;
                o.dtype = info->dtype;
                members = info->groupRanks;
                if (members.empty() && !info->groupName.empty())
                    for (const ProfileProcessGroup& g : p.processGroups)
                        if (g.name == info->groupName)
                            members = g.ranks;
                if (info->groupSize > 0 && static_cast<std::size_t>(info->groupSize) > world)
                    throw InputError(p.file, "a collective's group of " + std::to_string(info->groupSize) +
                                                 " ranks (\"Group size\") is larger than the world of " +
                                                 std::to_string(world));
                if (members.empty() && info->groupSize > 0 && static_cast<std::size_t>(info->groupSize) != world)
                    ++ungrouped;
            } else {
                sized = false;
            }
            const bool guessed = members.empty();
            if (guessed)
                for (std::size_t m = 0; m < world; ++m)
                    members.push_back(static_cast<std::int32_t>(m));
            if (what->kind != OpKind::Collective) {
                // Send/recv without the peer recorded: kept as a device op of its measured time.
                o.kind = OpKind::Compute;
            } else {
                unsized += sized ? 0 : 1;
                std::sort(members.begin(), members.end());
                if (const auto twice = std::adjacent_find(members.begin(), members.end()); twice != members.end())
                    throw InputError(p.file, "a collective's group " + rankList(members) + " lists rank " +
                                                 std::to_string(*twice) + " twice");
                std::string slot =
                    info && !info->groupName.empty() ? "pg " + info->groupName : "ranks " + rankList(members);
                o.commSlot = program->commSlotFor(slot + " " + rankList(members));
                auto& perMember = byGroup[members];
                perMember.resize(members.size());
                const auto pos = std::lower_bound(members.begin(), members.end(), cut.rank) - members.begin();
                if (static_cast<std::size_t>(pos) >= members.size() ||
                    members[static_cast<std::size_t>(pos)] != cut.rank)
                    throw InputError(p.file, "rank " + std::to_string(cut.rank) + " records " +
                                                 std::string(p.names[s.name].substr(0, 80)) +
                                                 " on a group it is not in: " + rankList(members));
                perMember[static_cast<std::size_t>(pos)].push_back(CommPlacement{cut.rank, op, s.end - s.start, s.end});
                if (guessed)
                    guessedGroups.insert(members);
            }
            commOps[k] = op;
            pendingEnds.emplace_back(s.end, op);
        };
        for (const Span& s : cut.compute) {
            while (nextComm < cut.comms.size() && cut.comms[nextComm].start <= s.start)
                makeComm(nextComm++);
            // A collective that ended while this stream was idle, shortly before this op: a wait for it.
            std::optional<std::pair<double, std::uint32_t>> waitedFor;
            for (const auto& [end, op] : pendingEnds)
                if (end > lastComputeEnd && end <= s.start + 1 && s.start - end <= kSyncSlackMicros &&
                    (!waitedFor || end > waitedFor->first))
                    waitedFor = std::pair(end, op);
            std::erase_if(pendingEnds, [&](const auto& e) { return e.first <= lastComputeEnd; });
            const double ready = std::max(lastComputeEnd, waitedFor ? waitedFor->first : lastComputeEnd);
            // The op before on the stream is order (a control dependency); a collective it waited for
            // is data it reads.
            std::vector<std::uint64_t> order, data;
            if (lastCompute != UINT32_MAX)
                order.push_back(lastCompute);
            if (waitedFor)
                data.push_back(waitedFor->second);
            if (at(s.start) > at(ready)) {
                // In the scope of the op it delayed: a stream's ops and its gaps stay one chain in the
                // graph view (a scope "host" of every gap went back and forth with every stream).
                const std::uint32_t gap = addOp(MeasuredKind::HostGap, 0, scopeOf(s), ready, s.start);
                ops[gap].ctrlDeps = std::move(order);
                ops[gap].dataDeps = std::move(data);
                out.ranks[r].hostGapSeconds += (s.start - ready) * 1e-6;
                computeOps.push_back(gap);
                computeLaunch.push_back(ready);
                order.assign(1, gap);
                data.clear();
            }
            const std::uint32_t op = addOp(s.kind, s.name, scopeOf(s), s.start, s.end);
            ops[op].ctrlDeps = std::move(order);
            ops[op].dataDeps = std::move(data);
            computeOps.push_back(op);
            computeLaunch.push_back(s.launch);
            lastCompute = op;
            lastComputeEnd = std::max(lastComputeEnd, s.end);
        }
        while (nextComm < cut.comms.size())
            makeComm(nextComm++);
        // The step ends with the later of its marker and its last op; host time after the last device op
        // (the optimizer's host side, a synchronisation) is a last gap.
        double lastEnd = lastComputeEnd;
        std::uint32_t lastCommOp = UINT32_MAX;
        for (std::size_t k = 0; k < cut.comms.size(); ++k)
            if (cut.comms[k].end > lastEnd) {
                lastEnd = cut.comms[k].end;
                lastCommOp = commOps[k];
            }
        const double stepEnd = std::max(cut.stepEnd, lastEnd);
        // A step marker with nothing in it on the device (a host-only step) still took its time.
        if (at(stepEnd) > at(lastEnd) && (cut.info.device || !cut.compute.empty() || !cut.comms.empty() || step >= 0)) {
            // In the scope of the op it follows (a copy: adding the gap may move the ops).
            const std::string scope = lastCommOp != UINT32_MAX    ? ops[lastCommOp].scope
                                      : lastCompute != UINT32_MAX ? ops[lastCompute].scope
                                                                  : std::string("host");
            const std::uint32_t gap = addOp(MeasuredKind::HostGap, 0, scope, lastEnd, stepEnd);
            if (lastCompute != UINT32_MAX)
                ops[gap].ctrlDeps.push_back(lastCompute);
            if (lastCommOp != UINT32_MAX)
                ops[gap].ctrlDeps.push_back(lastCommOp);
            out.ranks[r].hostGapSeconds += (stepEnd - lastEnd) * 1e-6;
        }
        cut.info.stepStartMicros = s0;
        cut.info.stepSeconds = (stepEnd - s0) * 1e-6;
        const double gaps = out.ranks[r].hostGapSeconds;
        out.ranks[r] = cut.info;
        out.ranks[r].hostGapSeconds = gaps;
        w.programs.push_back(std::move(program));
        w.ranks[r].program = static_cast<std::uint32_t>(w.programs.size() - 1);
    }

    std::vector<std::shared_ptr<Program>> mutablePrograms(w.programs.size());
    for (std::size_t i = 0; i < w.programs.size(); ++i)
        mutablePrograms[i] = std::const_pointer_cast<Program>(w.programs[i]);
    pairUnnamedGroups(byGroup, guessedGroups, fileOfRank, w, mutablePrograms, out.notes);

    // Bind slots to groups, and give each collective its transfer time: the shortest of its members'
    // measured durations (the others include waiting for the last member to arrive).
    for (std::size_t r = 0; r < world; ++r)
        if (fileOfRank[r] >= 0)
            w.ranks[r].slotGroups.assign(w.programs[w.ranks[r].program]->commSlots.size(), 0);
    for (auto& [members, perMember] : byGroup) {
        const std::uint32_t group = w.groupFor(members);
        std::size_t expected = SIZE_MAX;
        std::int32_t expectedRank = -1;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const std::vector<CommPlacement>& list = perMember[m];
            const auto r = static_cast<std::size_t>(members[m]);
            if (r >= world)
                throw InputError(profiles.front().file, "a collective's group " + rankList(members) +
                                                            " names a rank outside the world of " +
                                                            std::to_string(world));
            if (fileOfRank[r] < 0)
                continue; // not recorded: runs as the rank it mirrors
            if (expected == SIZE_MAX) {
                expected = list.size();
                expectedRank = members[m];
            } else if (list.size() != expected) {
                throw InputError(profiles[static_cast<std::size_t>(fileOfRank[r])].file,
                                 "ranks disagree: rank " + std::to_string(members[m]) + " records " +
                                     std::to_string(list.size()) + " collectives on group " + rankList(members) +
                                     (step >= 0 ? " in " + out.stepName : std::string()) + ", rank " +
                                     std::to_string(expectedRank) + " records " + std::to_string(expected));
            }
            Program& program = *mutablePrograms[w.ranks[r].program];
            for (const CommPlacement& c : list)
                w.ranks[r].slotGroups[static_cast<std::size_t>(program.ops[c.op].commSlot)] = group;
        }
        for (std::size_t k = 0; k < expected && expected != SIZE_MAX; ++k) {
            double transfer = 1e300;
            for (std::size_t m = 0; m < members.size(); ++m)
                if (!perMember[m].empty())
                    transfer = std::min(transfer, perMember[m][k].micros);
            const auto micros = static_cast<std::uint64_t>(std::max<long long>(1, std::llround(transfer)));
            for (std::size_t m = 0; m < members.size(); ++m) {
                if (perMember[m].empty())
                    continue;
                const auto r = static_cast<std::size_t>(members[m]);
                mutablePrograms[w.ranks[r].program]->ops[perMember[m][k].op].durationMicros = micros;
            }
        }
    }
    mirrorMissingRanks(out, fileOfRank, profiles);
    if (unsized > 0)
        out.warnings.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                       "%1 collectives carry no message size (recent PyTorch versions "
                                                       "record it with record_param_comms): they count 0 bytes and "
                                                       "the network model prices them as latency only"),
                                  std::vector<std::string>{std::to_string(unsized)});
    if (ungrouped > 0)
        out.warnings.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                       "%1 collectives name a group smaller than the world without its "
                                                       "ranks: taken as all ranks"),
                                  std::vector<std::string>{std::to_string(ungrouped)});
    double concurrent = 0;
    for (const MeasuredRank& mr : out.ranks)
        concurrent = std::max(concurrent, mr.concurrentComputeSeconds);
    if (concurrent > 0.01 * out.stepSeconds() && concurrent > 0)
        out.notes.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                    "device compute overlaps itself on more than one stream for up to "
                                                    "%1 us per rank; the workload runs compute on one stream, so a "
                                                    "replay serialises it"),
                               std::vector<std::string>{std::to_string(std::llround(concurrent * 1e6))});
    out.name = std::filesystem::path(profiles.front().file).parent_path().filename().string();
    if (count == 1 || out.name.empty())
        out.name = std::filesystem::path(profiles.front().file).filename().string();
    return out;
}

MeasuredWorkload measuredFromRecorded(Workload workload, const std::string& name)
{
    MeasuredWorkload out;
    out.name = name;
    out.producer = "recorded times";
    out.ranks.resize(workload.rankCount());
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const Program& program = workload.programOf(r);
        MeasuredRank& m = out.ranks[r];
        m.file = name;
        m.device = true;
        std::uint64_t end = 0;
        bool recorded = false;
        for (std::size_t i = 0; i < program.ops.size(); ++i) {
            const Op& op = program.ops[i];
            const std::uint64_t start = workload.startOf(r, i);
            const std::uint64_t duration = workload.durationOf(r, i);
            recorded = recorded || duration > 0 || start > 0;
            end = std::max(end, start + duration);
            if (op.isCommunication())
                ++m.collectives;
            else if (op.isCpuOp)
                ++m.hostOps;
            else if (op.kind == OpKind::MemLoad || op.kind == OpKind::MemStore)
                ++m.memcpys;
            else if (op.kind == OpKind::Compute)
                ++m.kernels;
        }
        if (!recorded && !program.ops.empty())
            throw InputError(name, "rank " + std::to_string(r) +
                                       " records no times (no duration_micros): not a measured run");
        m.stepSeconds = static_cast<double>(end) * 1e-6;
    }
    out.workload = std::move(workload);
    return out;
}

MeasuredWorkload readMeasuredWorkload(const std::string& path, const MeasuredOptions& options,
                                      const JobControl& control)
{
    const std::vector<std::string> files = profileFiles(path);
    std::vector<RankProfile> profiles(files.size());
    forEachIndex(files.size(), [&](std::size_t i) {
        profiles[i] = readProfile(files[i], JobControl{control.cancel, nullptr});
    });
    // An XLA trace holds every device of its host: one rank each, numbered host by host.
    std::size_t devicesPerFile = 0;
    for (const RankProfile& p : profiles)
        for (const auto& [pid, index] : p.devices)
            devicesPerFile = std::max(devicesPerFile, static_cast<std::size_t>(index) + 1);
    if (devicesPerFile > 0) {
        std::vector<RankProfile> ranks;
        for (std::size_t i = 0; i < profiles.size(); ++i)
            for (RankProfile& device : splitDevices(std::move(profiles[i]), i, devicesPerFile))
                ranks.push_back(std::move(device));
        for (RankProfile& r : ranks)
            r.worldSize = static_cast<std::int32_t>(files.size() * devicesPerFile);
        profiles = std::move(ranks);
    }
    control.report(1.0);
    MeasuredWorkload out = measuredWorkload(std::move(profiles), options);
    if (std::filesystem::is_directory(path))
        out.name = std::filesystem::path(path).filename().string();
    return out;
}

} // namespace flint::core::measured
