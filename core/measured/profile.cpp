// SPDX-License-Identifier: MIT
#include "core/measured/profile.h"

#include "core/detail/jsonscanner.h"
#include "core/error.h"
#include "core/fileio.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>

namespace flint::core::measured {
namespace {

using detail::JsonScanner;

std::optional<ProfileEventKind> kindOfCategory(std::string_view category)
{
    // Kineto's categories (libkineto/include/ActivityType.h names them); older traces say "Operator"
    // and "Runtime", ROCm traces use the CUDA names for HIP activities.
    std::string key(category);
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (key == "kernel")
        return ProfileEventKind::Kernel;
    if (key == "gpu_memcpy" || key == "memcpy")
        return ProfileEventKind::Memcpy;
    if (key == "gpu_memset" || key == "memset")
        return ProfileEventKind::Memset;
    if (key == "cuda_runtime" || key == "cuda_driver" || key == "runtime" || key == "hip_runtime")
        return ProfileEventKind::Runtime;
    if (key == "cpu_op" || key == "operator")
        return ProfileEventKind::CpuOp;
    if (key == "user_annotation")
        return ProfileEventKind::Annotation;
    return std::nullopt; // python_function, gpu_user_annotation, Trace, overhead, ...: not kept
}

std::optional<DType> dtypeOfTorchName(std::string_view name)
{
    // c10::ScalarType names as PyTorch's record_param_comms writes them.
    static const std::pair<std::string_view, DType> kNames[] = {
        {"Float", DType::F32},
        {"Double", DType::F64},
        {"Half", DType::F16},
        {"BFloat16", DType::BF16},
        {"Byte", DType::U8},
        {"Char", DType::S8},
        {"Short", DType::S16},
        {"Int", DType::S32},
        {"Long", DType::S64},
        {"Bool", DType::Pred},
        {"ComplexFloat", DType::C64},
        {"ComplexDouble", DType::C128},
        {"Float8_e4m3fn", DType::F8E4M3FN},
        {"Float8_e5m2", DType::F8E5M2},
        {"Float8_e4m3fnuz", DType::F8E4M3FNUZ},
        {"Float8_e5m2fnuz", DType::F8E5M2FNUZ},
        {"UInt16", DType::U16},
        {"UInt32", DType::U32},
        {"UInt64", DType::U64},
    };
    for (const auto& [text, type] : kNames)
        if (name == text)
            return type;
    return dtypeFromString(name);
}

/// XLA's HLO categories (and opcodes) of collectives.
bool isXlaCollective(std::string_view category)
{
    for (std::string_view kind : {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
                                  "collective-broadcast", "ragged-all-to-all"})
        if (category == kind)
            return true;
    return false;
}

/// `value` as an integer when it is one in range (ids, counts), else -1: hostile files write 6e48.
std::int64_t wholeOr(double value)
{
    return value >= -9.2e18 && value <= 9.2e18 ? static_cast<std::int64_t>(value) : -1;
}

/// Timestamps beyond this (microseconds; Unix-epoch times are about 1.7e15) and durations beyond
/// kMaxDuration are not a profile's.
constexpr double kMaxTimestamp = 1e17;
constexpr double kMaxDuration = 1e12; // 11.6 days

/// C++ element type names as the profiler's "Input type" writes them.
DType dtypeOfCppName(std::string_view name)
{
    static const std::pair<std::string_view, DType> kNames[] = {
        {"float", DType::F32},
        {"double", DType::F64},
        {"c10::Half", DType::F16},
        {"c10::BFloat16", DType::BF16},
        {"unsigned char", DType::U8},
        {"signed char", DType::S8},
        {"short", DType::S16},
        {"int", DType::S32},
        {"long", DType::S64},
        {"long int", DType::S64},
        {"bool", DType::Pred},
        {"c10::complex<float>", DType::C64},
        {"c10::Float8_e4m3fn", DType::F8E4M3FN},
        {"c10::Float8_e5m2", DType::F8E5M2},
    };
    for (const auto& [text, type] : kNames)
        if (name == text)
            return type;
    return dtypeOfTorchName(name).value_or(DType::Unknown);
}

/// "[0, 1, 2]" (or a JSON array already walked into `out`) as global ranks.
bool parseRankList(std::string_view text, std::vector<std::int32_t>& out)
{
    out.clear();
    std::size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (c >= '0' && c <= '9') {
            std::int32_t value = 0;
            const auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
            if (ec != std::errc())
                return false;
            out.push_back(value);
            at = static_cast<std::size_t>(end - text.data());
        } else if (c == '[' || c == ']' || c == ',' || c == ' ') {
            ++at;
        } else {
            return false;
        }
    }
    return true;
}

void readRanks(JsonScanner& json, std::string& scratch, std::vector<std::int32_t>& ranks)
{
    ranks.clear();
    if (json.peek() == '[') {
        json.enterArray();
        bool first = true;
        while (json.nextElement(first)) {
            const std::int64_t rank = json.integer();
            if (rank < 0 || rank > INT32_MAX)
                json.fail("a process group rank out of range");
            ranks.push_back(static_cast<std::int32_t>(rank));
        }
        return;
    }
    if (json.peek() == '"') {
        const std::size_t at = json.offset();
        if (!parseRankList(json.string(scratch), ranks))
            json.failAt(at, "a process group's ranks are not a list of rank numbers");
        return;
    }
    json.skipValue();
}

class ProfileReader {
public:
    ProfileReader(std::string_view text, const std::string& path, const JobControl& control)
        : m_json(text, path)
        , m_control(control)
        , m_size(text.size())
    {
        m_profile.file = path;
        m_profile.producer = "PyTorch profiler";
        m_profile.jsonBytes = text.size();
    }

    RankProfile read()
    {
        if (m_json.peek() == '[') {
            readEvents();
        } else {
            m_json.enterObject();
            bool first = true;
            std::string_view key;
            bool sawEvents = false;
            while (m_json.nextMember(first, key, m_keyScratch)) {
                if (key == "deviceProperties" && m_json.peek() == '[') {
                    m_profile.producer = "PyTorch profiler (Kineto)";
                    readDeviceProperties();
                } else if (key == "schemaVersion" || key == "deviceProperties") {
                    m_profile.producer = "PyTorch profiler (Kineto)";
                    m_json.skipValue();
                } else if (key == "traceEvents") {
                    readEvents();
                    sawEvents = true;
                } else if (key == "distributedInfo") {
                    readDistributedInfo();
                } else {
                    m_json.skipValue();
                }
            }
            if (!sawEvents)
                m_json.failAt(0, "a JSON object without \"traceEvents\": not a Chrome-trace profile");
        }
        if (!m_json.atEnd())
            m_json.fail("text after the end of the JSON value");
        classifyXla();
        m_profile.names.reserve(m_nameOrder.size());
        for (std::string_view name : m_nameOrder)
            m_profile.names.emplace_back(name);
        return std::move(m_profile);
    }

private:
    std::uint32_t intern(std::string_view name, bool inText)
    {
        const auto found = m_nameIndex.find(name);
        if (found != m_nameIndex.end())
            return found->second;
        if (!inText)
            name = m_escapedNames.emplace_back(name);
        const auto index = static_cast<std::uint32_t>(m_nameOrder.size());
        m_nameOrder.push_back(name);
        m_nameIndex.emplace(name, index);
        return index;
    }

    std::int64_t trackId(std::string_view text)
    {
        // Some producers name processes and threads with strings ("Spans", "PyTorch Profiler").
        const auto [it, inserted] =
            m_textIds.try_emplace(std::string(text), -1 - static_cast<std::int64_t>(m_textIds.size()));
        return it->second;
    }

    std::int64_t readId()
    {
        if (m_json.peek() == '"') {
            std::string scratch;
            const std::string_view text = m_json.string(scratch);
            std::int64_t value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            return ec == std::errc() && end == text.data() + text.size() ? value : trackId(text);
        }
        return m_json.integer();
    }

    std::uint32_t track(std::int64_t pid, std::int64_t tid, bool gpu)
    {
        const auto [it, inserted] =
            m_tracks.try_emplace({pid, tid}, static_cast<std::uint32_t>(m_profile.tracks.size()));
        if (inserted)
            m_profile.tracks.push_back(ProfileTrack{pid, tid, gpu});
        return it->second;
    }

    /// Kineto's deviceProperties: the GPUs the run used; the first one's name ("NVIDIA A100-SXM4-80GB").
    void readDeviceProperties()
    {
        m_json.enterArray();
        bool first = true;
        while (m_json.nextElement(first)) {
            if (m_json.peek() != '{' || !m_profile.deviceName.empty()) {
                m_json.skipValue();
                continue;
            }
            m_json.enterObject();
            bool firstField = true;
            std::string_view key;
            while (m_json.nextMember(firstField, key, m_keyScratch)) {
                if (key == "name" && m_json.peek() == '"')
                    m_profile.deviceName = std::string(m_json.string(m_scratch));
                else
                    m_json.skipValue();
            }
        }
    }

    void readDistributedInfo()
    {
        if (m_json.isNull())
            return;
        m_json.enterObject();
        bool first = true;
        std::string_view key;
        while (m_json.nextMember(first, key, m_keyScratch)) {
            if (key == "rank") {
                m_profile.rank = static_cast<std::int32_t>(std::clamp<std::int64_t>(m_json.integer(), -1, INT32_MAX));
            } else if (key == "world_size") {
                m_profile.worldSize =
                    static_cast<std::int32_t>(std::clamp<std::int64_t>(m_json.integer(), -1, INT32_MAX));
            } else if (key == "backend") {
                m_profile.backend = std::string(m_json.stringOrSkip(m_scratch));
            } else if (key == "pg_config" && m_json.peek() == '[') {
                m_json.enterArray();
                bool firstGroup = true;
                while (m_json.nextElement(firstGroup)) {
                    if (m_json.peek() != '{') {
                        m_json.skipValue();
                        continue;
                    }
                    ProfileProcessGroup group;
                    m_json.enterObject();
                    bool firstField = true;
                    while (m_json.nextMember(firstField, key, m_keyScratch)) {
                        if (key == "pg_name" && m_json.peek() == '"')
                            group.name = std::string(m_json.string(m_scratch));
                        else if (key == "pg_desc" && m_json.peek() == '"')
                            group.description = std::string(m_json.string(m_scratch));
                        else if (key == "ranks")
                            readRanks(m_json, m_scratch, group.ranks);
                        else
                            m_json.skipValue();
                    }
                    m_profile.processGroups.push_back(std::move(group));
                }
            } else {
                m_json.skipValue();
            }
        }
    }

    void readEvents()
    {
        m_json.enterArray();
        bool first = true;
        std::uint64_t index = 0;
        while (m_json.nextElement(first)) {
            if ((index & 0xFFFF) == 0) {
                m_control.check();
                m_control.report(static_cast<double>(m_json.offset()) /
                                 static_cast<double>(std::max<std::size_t>(m_size, 1)));
            }
            readEvent(index++);
        }
    }

    void readEvent(std::uint64_t index)
    {
        const std::size_t at = m_json.offset();
        if (m_json.peek() != '{')
            m_json.fail("trace event " + std::to_string(index) + " is not a JSON object");
        m_json.enterObject();
        std::string_view key;
        bool first = true;
        std::string_view phase, category, name;
        bool nameInText = true;
        std::int64_t pid = 0, tid = 0;
        std::optional<double> ts, dur;
        ProfileEvent event;
        m_collective = ProfileCollective{};
        m_hasCollective = false;
        m_firstInputElements = -1;
        m_firstInputType.clear();
        m_argName.clear();
        m_hloCategory.clear();
        m_longName = {};
        std::int64_t stream = -1;
        while (m_json.nextMember(first, key, m_keyScratch)) {
            if (key == "ph") {
                phase = m_json.string(m_phaseScratch);
            } else if (key == "cat") {
                category = m_json.stringOrSkip(m_categoryScratch);
            } else if (key == "name") {
                if (m_json.peek() == '"') {
                    name = m_json.string(m_nameScratch);
                    nameInText = name.data() != m_nameScratch.data();
                } else {
                    m_json.skipValue();
                }
            } else if (key == "pid") {
                pid = readId();
            } else if (key == "tid") {
                tid = readId();
            } else if (key == "ts") {
                ts = m_json.number();
            } else if (key == "dur") {
                dur = m_json.number();
            } else if (key == "args" && m_json.peek() == '{') {
                readArgs(event, stream);
            } else {
                m_json.skipValue();
            }
        }
        if (phase == "M") {
            if (name == "process_name")
                m_processNames.emplace_back(pid, m_argName);
            else if (name == "thread_name")
                m_threadNames[{pid, tid}] = m_argName;
            return;
        }
        if (phase != "X")
            return; // flows, instants, counters: not part of a timeline
        // The legacy autograd profiler's export (PyTorch builds without Kineto, as Debian's) writes host
        // operators with no category.
        const std::optional<ProfileEventKind> kind =
            category.empty() ? ProfileEventKind::CpuOp : kindOfCategory(category);
        if (!kind)
            return;
        if (!ts)
            m_json.failAt(at, "trace event " + std::to_string(index) + " (\"" + std::string(name.substr(0, 80)) +
                                  "\") is a complete event without \"ts\"");
        if (!dur)
            m_json.failAt(at, "trace event " + std::to_string(index) + " (\"" + std::string(name.substr(0, 80)) +
                                  "\") is a complete event (\"ph\": \"X\") without \"dur\"");
        if (*dur < 0)
            m_json.failAt(at, "trace event " + std::to_string(index) + " (\"" + std::string(name.substr(0, 80)) +
                                  "\") has a negative duration");
        if (std::fabs(*ts) > kMaxTimestamp || *dur > kMaxDuration)
            m_json.failAt(at, "trace event " + std::to_string(index) + " (\"" + std::string(name.substr(0, 80)) +
                                  "\") has a timestamp or duration out of range (at most 1e17 and 1e12 microseconds)");
        event.kind = *kind;
        event.start = *ts;
        event.duration = *dur;
        event.name = intern(name, nameInText);
        const bool gpu =
            *kind == ProfileEventKind::Kernel || *kind == ProfileEventKind::Memcpy || *kind == ProfileEventKind::Memset;
        event.track = track(pid, gpu && stream >= 0 ? stream : tid, gpu);
        if (*kind == ProfileEventKind::Runtime && name.starts_with("hip"))
            m_profile.rocm = true;
        if (!m_hasCollective && isXlaCollective(m_hloCategory)) {
            // An XLA device op that is a collective: its HLO text says what it moves and between whom.
            m_collective.name = m_hloCategory;
            m_collective.hloText = std::string(m_longName);
            m_collective.deviceOp = true;
            m_hasCollective = true;
        }
        if (!m_hasCollective && (name.starts_with("nccl:") || name.starts_with("gloo:")) && m_firstInputElements >= 0) {
            // PyTorch before 2.0 records no collective arguments, but with record_shapes the backend's
            // op ("nccl:all_reduce") carries its input tensor's shape and element type.
            m_collective.name = std::string(name);
            m_collective.inElements = m_firstInputElements;
            m_collective.dtype = dtypeOfCppName(m_firstInputType);
            m_hasCollective = true;
        }
        if (m_hasCollective) {
            event.collective = static_cast<std::int32_t>(m_profile.collectives.size());
            m_profile.collectives.push_back(std::move(m_collective));
        }
        m_profile.events.push_back(event);
    }

    void readArgs(ProfileEvent& event, std::int64_t& stream)
    {
        m_json.enterObject();
        std::string_view key;
        bool first = true;
        while (m_json.nextMember(first, key, m_argScratch)) {
            if (key == "correlation") {
                event.correlation = wholeOr(m_json.numberOr(-1));
            } else if (key == "External id") {
                event.externalId = wholeOr(m_json.numberOr(-1));
            } else if (key == "stream") {
                stream = wholeOr(m_json.numberOr(-1));
            } else if (key == "bytes") {
                event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, wholeOr(m_json.numberOr(0))));
            } else if (key == "Collective name") {
                m_collective.name = std::string(m_json.stringOrSkip(m_scratch));
                m_hasCollective = !m_collective.name.empty();
            } else if (key == "In msg nelems") {
                m_collective.inElements = wholeOr(m_json.numberOr(-1));
            } else if (key == "Out msg nelems") {
                m_collective.outElements = wholeOr(m_json.numberOr(-1));
            } else if (key == "Group size") {
                m_collective.groupSize = static_cast<std::int32_t>(std::clamp(m_json.numberOr(-1), -1.0, 2e9));
            } else if (key == "dtype") {
                if (m_json.peek() == '"')
                    m_collective.dtype = dtypeOfTorchName(m_json.string(m_scratch)).value_or(DType::Unknown);
                else
                    m_json.skipValue();
            } else if (key == "Process Group Name") {
                m_collective.groupName = std::string(m_json.stringOrSkip(m_scratch));
            } else if (key == "Process Group Description") {
                m_collective.groupDescription = std::string(m_json.stringOrSkip(m_scratch));
            } else if (key == "Process Group Ranks") {
                readRanks(m_json, m_scratch, m_collective.groupRanks);
            } else if (key == "Seq") {
                m_collective.sequence = wholeOr(m_json.numberOr(-1));
            } else if (key == "name" && m_json.peek() == '"') { // a metadata event's process or thread name
                m_argName = std::string(m_json.string(m_scratch));
            } else if (key == "hlo_category" && m_json.peek() == '"') {
                m_hloCategory = std::string(m_json.string(m_scratch));
            } else if (key == "long_name" && m_json.peek() == '"') {
                m_longName = m_json.string(m_longScratch); // a view: copied only for collectives
            } else if (key == "Input Dims" && m_json.peek() == '[') {
                m_firstInputElements = firstTensorElements();
            } else if (key == "Input type" && m_json.peek() == '[') {
                m_json.enterArray();
                bool firstType = true;
                while (m_json.nextElement(firstType)) {
                    if (m_firstInputType.empty() && m_json.peek() == '"')
                        m_firstInputType = std::string(m_json.string(m_scratch));
                    else
                        m_json.skipValue();
                }
            } else {
                m_json.skipValue();
            }
        }
    }

    /// An XLA trace names its device processes "/device:TPU:0" and their op thread "XLA Ops": those
    /// events are the device's ops, "XLA Modules" events its program executions; the other threads
    /// of a device (counters, TraceMe, overlays) are dropped, host threads stay host events.
    void classifyXla()
    {
        for (const auto& [pid, processName] : m_processNames) {
            constexpr std::string_view kDevice = "/device:";
            if (!processName.starts_with(kDevice))
                continue;
            const std::size_t colon = processName.rfind(':');
            std::int32_t index = -1;
            if (colon != std::string::npos && colon > kDevice.size()) {
                const auto [end, ec] =
                    std::from_chars(processName.data() + colon + 1, processName.data() + processName.size(), index);
                if (ec != std::errc() || end != processName.data() + processName.size())
                    index = -1;
            }
            if (index >= 0 && index < (1 << 20)) {
                m_profile.devices.emplace_back(pid, index);
                if (m_profile.deviceKind.empty())
                    m_profile.deviceKind = processName.substr(kDevice.size(), colon - kDevice.size());
            }
        }
        if (m_profile.devices.empty())
            return;
        m_profile.xla = true;
        m_profile.producer = "XLA profiler (JAX/TensorFlow)";
        std::sort(m_profile.devices.begin(), m_profile.devices.end());
        const auto isDevice = [&](std::int64_t pid) {
            return std::binary_search(m_profile.devices.begin(), m_profile.devices.end(), std::pair(pid, INT32_MIN),
                                      [](const auto& a, const auto& b) { return a.first < b.first; });
        };
        std::vector<int> role(m_profile.tracks.size(), 0); // 0 host, 1 ops, 2 modules, 3 dropped
        for (std::size_t t = 0; t < m_profile.tracks.size(); ++t) {
            ProfileTrack& track = m_profile.tracks[t];
            if (!isDevice(track.pid))
                continue;
            const auto thread = m_threadNames.find({track.pid, track.tid});
            const std::string threadName = thread == m_threadNames.end() ? std::string() : thread->second;
            role[t] = threadName == "XLA Ops" ? 1 : threadName == "XLA Modules" ? 2 : 3;
            track.gpu = role[t] == 1;
        }
        std::erase_if(m_profile.events, [&](const ProfileEvent& e) { return role[e.track] == 3; });
        for (ProfileEvent& e : m_profile.events)
            if (role[e.track] == 1)
                e.kind = ProfileEventKind::Kernel;
            else if (role[e.track] == 2)
                e.kind = ProfileEventKind::Annotation;
    }

    /// The element count of the first tensor of an "Input Dims" list ([[4096, 1024], [], ...]); -1 when
    /// the first input is not a tensor.
    std::int64_t firstTensorElements()
    {
        std::int64_t elements = -1;
        m_json.enterArray();
        bool first = true;
        bool firstInput = true;
        while (m_json.nextElement(first)) {
            if (!firstInput || m_json.peek() != '[') {
                m_json.skipValue();
                firstInput = false;
                continue;
            }
            firstInput = false;
            m_json.enterArray();
            bool firstDim = true;
            std::int64_t product = 1;
            bool any = false;
            while (m_json.nextElement(firstDim)) {
                if (m_json.peek() == '[') { // a list of tensors: not one tensor
                    m_json.skipValue();
                    product = -1;
                    continue;
                }
                const double dim = m_json.numberOr(-1);
                any = true;
                if (product >= 0 && dim >= 0 && dim < 9e18 && (dim == 0 || static_cast<double>(product) * dim < 9e18))
                    product *= static_cast<std::int64_t>(dim);
                else
                    product = -1;
            }
            elements = any ? product : -1;
        }
        return elements;
    }

    JsonScanner m_json;
    const JobControl& m_control;
    std::size_t m_size = 0;
    RankProfile m_profile;
    std::unordered_map<std::string_view, std::uint32_t> m_nameIndex;
    std::vector<std::string_view> m_nameOrder;
    std::deque<std::string> m_escapedNames;
    std::unordered_map<std::string, std::int64_t> m_textIds;
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const noexcept
        {
            return std::hash<std::int64_t>()(p.first * 0x9E3779B97F4A7C15LL ^ p.second);
        }
    };
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::uint32_t, PairHash> m_tracks;
    ProfileCollective m_collective;
    bool m_hasCollective = false;
    std::int64_t m_firstInputElements = -1;
    std::string m_firstInputType;
    std::string m_argName, m_hloCategory, m_longScratch;
    std::string_view m_longName;
    std::vector<std::pair<std::int64_t, std::string>> m_processNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_threadNames;
    std::string m_keyScratch, m_argScratch, m_scratch, m_phaseScratch, m_categoryScratch, m_nameScratch;
};

} // namespace

bool looksLikeProfile(std::string_view head)
{
    std::size_t at = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (at < head.size() && (head[at] == ' ' || head[at] == '\n' || head[at] == '\r' || head[at] == '\t'))
        ++at;
    if (at >= head.size())
        return false;
    if (head[at] == '{')
        return head.find("\"traceEvents\"") != std::string_view::npos ||
               head.find("\"schemaVersion\"") != std::string_view::npos ||
               head.find("\"distributedInfo\"") != std::string_view::npos;
    return head[at] == '[' && head.find("\"ph\"") != std::string_view::npos;
}

RankProfile readProfile(const std::string& path, const JobControl& control)
{
    const FileContents contents(path);
    std::string inflated;
    std::string_view text = contents.bytes();
    if (isGzip(text)) {
        inflated = gunzip(text, path);
        text = inflated;
    }
    return parseProfile(text, path, control);
}

RankProfile parseProfile(std::string_view text, const std::string& file, const JobControl& control)
{
    if (text.empty())
        throw InputError(file, "an empty file, not a profile");
    ProfileReader reader(text, file, control);
    return reader.read();
}

std::vector<RankProfile> splitDevices(RankProfile profile, std::size_t fileIndex, std::size_t devicesPerFile)
{
    std::vector<RankProfile> ranks;
    if (!profile.xla) {
        ranks.push_back(std::move(profile));
        return ranks;
    }
    std::int32_t highest = 0;
    for (const auto& [pid, index] : profile.devices)
        highest = std::max(highest, index);
    const std::size_t perFile = std::max<std::size_t>(devicesPerFile, static_cast<std::size_t>(highest) + 1);
    for (const auto& [pid, index] : profile.devices) {
        RankProfile device;
        device.file = profile.file;
        device.producer = profile.producer;
        device.xla = true;
        device.deviceKind = profile.deviceKind;
        device.rank = static_cast<std::int32_t>(fileIndex * perFile + static_cast<std::size_t>(index));
        device.names = profile.names;
        device.tracks = profile.tracks;
        device.collectives = profile.collectives;
        device.jsonBytes = profile.jsonBytes;
        for (const ProfileEvent& e : profile.events)
            if (profile.tracks[e.track].pid == pid)
                device.events.push_back(e);
        ranks.push_back(std::move(device));
    }
    return ranks;
}

std::vector<std::string> profileFiles(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return {path};
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file(ec) || !(name.ends_with(".json") || name.ends_with(".json.gz")))
            continue;
        std::string head;
        try {
            const std::string bytes = [&] {
                std::FILE* file = std::fopen(entry.path().c_str(), "rb");
                std::string out(4096, '\0');
                if (!file)
                    return std::string();
                out.resize(std::fread(out.data(), 1, out.size(), file));
                std::fclose(file);
                return out;
            }();
            head = isGzip(bytes) ? gunzipPrefix(bytes, 1 << 16) : bytes;
        } catch (const std::exception&) {
            continue;
        }
        if (looksLikeProfile(head))
            files.push_back(entry.path().string());
    }
    if (ec)
        throw InputError(path, "cannot list the folder: " + ec.message());
    if (files.empty())
        throw InputError(path, "a folder without profiler traces (*.json, *.json.gz holding \"traceEvents\")");
    // Rank files are usually named with their rank; order by the numbers in the name, then by name.
    const auto numberIn = [](const std::string& file) {
        const std::string name = fs::path(file).filename().string();
        std::int64_t last = -1;
        for (std::size_t i = 0; i < name.size();) {
            if (name[i] >= '0' && name[i] <= '9') {
                std::int64_t value = 0;
                const auto [end, ec2] = std::from_chars(name.data() + i, name.data() + name.size(), value);
                last = ec2 == std::errc() ? value : last;
                i = static_cast<std::size_t>(end - name.data());
                if (ec2 != std::errc())
                    ++i;
            } else {
                ++i;
            }
        }
        return last;
    };
    std::sort(files.begin(), files.end(), [&](const std::string& a, const std::string& b) {
        const std::int64_t na = numberIn(a), nb = numberIn(b);
        return na != nb ? na < nb : a < b;
    });
    return files;
}

} // namespace flint::core::measured
