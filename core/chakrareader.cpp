// SPDX-License-Identifier: MIT
#include "chakra_et.pb.h"
#include "core/chakra.h"
#include "core/detail/chakraattributes.h"
#include "core/detail/chakrawire.h"
#include "core/error.h"
#include "core/fileio.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

namespace fs = std::filesystem;

/// Walks the length-delimited message stream of one file, with byte offsets for errors.
class FrameReader {
public:
    FrameReader(std::string_view bytes, const std::string& file)
        : m_bytes(bytes)
        , m_file(file)
    {}

    bool atEnd() const { return m_pos >= m_bytes.size(); }
    std::uint64_t offset() const { return m_pos; }

    /// The next message body; throws on a bad or truncated length prefix or a body past the end.
    std::string_view next()
    {
        const std::uint64_t start = m_pos;
        // Ask for the bytes some messages ahead: each prefix read was a cache miss otherwise (the
        // hardware prefetcher stops at page boundaries), 40% of reading a many-rank trace.
        if (m_pos + kPrefetchAhead < m_bytes.size())
            __builtin_prefetch(m_bytes.data() + m_pos + kPrefetchAhead);
        std::uint64_t length = 0;
        int shift = 0;
        while (true) {
            if (m_pos >= m_bytes.size())
                throw InputError(m_file, start, std::nullopt, "truncated varint length prefix at end of file");
            const auto byte = static_cast<unsigned char>(m_bytes[m_pos++]);
            if (shift == 63 && byte > 1)
                throw InputError(m_file, start, std::nullopt, "bad varint length prefix: more than 64 bits");
            length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0)
                break;
            shift += 7;
            if (shift > 63)
                throw InputError(m_file, start, std::nullopt, "bad varint length prefix: longer than 10 bytes");
        }
        const std::uint64_t left = m_bytes.size() - m_pos;
        if (length > left)
            throw InputError(m_file, start, std::nullopt,
                             "message length " + std::to_string(length) + " runs past the end of the file (" +
                                 std::to_string(left) + " bytes left)");
        std::string_view body = m_bytes.substr(m_pos, length);
        m_pos += length;
        return body;
    }

private:
    static constexpr std::uint64_t kPrefetchAhead = 1024;

    std::string_view m_bytes;
    const std::string& m_file;
    std::uint64_t m_pos = 0;
};

bool hasUnknownFields(const google::protobuf::Message& message)
{
    return !message.GetReflection()->GetUnknownFields(message).empty();
}

void readMetadata(std::string_view body, Program& program, const std::string& file)
{
    ChakraProtoMsg::GlobalMetadata metadata;
    const bool parsed = metadata.ParseFromArray(body.data(), static_cast<int>(body.size()));
    if (!parsed || hasUnknownFields(metadata)) {
        ChakraProtoMsg::Node node;
        if (node.ParseFromArray(body.data(), static_cast<int>(body.size())) && !hasUnknownFields(node))
            throw InputError(file, 0, std::nullopt,
                             "the first message is a Node (\"" + node.name() +
                                 "\"), expected GlobalMetadata before any Node");
        throw InputError(file, 0, std::nullopt,
                         "the first message is not a valid GlobalMetadata (" + std::to_string(body.size()) + " bytes)");
    }
    program.schemaVersion = std::move(*metadata.mutable_version());
    program.metadataAttributes.resize(static_cast<std::size_t>(metadata.attr_size()));
    for (int i = 0; i < metadata.attr_size(); ++i)
        detail::fromProto(*metadata.mutable_attr(i), program.metadataAttributes[static_cast<std::size_t>(i)]);
}

struct RankFileName {
    std::string prefix;
    std::size_t rank = 0;
};

/// Splits "PREFIX.RANK.et" or "PREFIX.RANK.et.gz".
std::optional<RankFileName> splitRankFileName(const std::string& fileName)
{
    std::string_view name(fileName);
    if (name.ends_with(".gz"))
        name.remove_suffix(3);
    if (!name.ends_with(".et"))
        return std::nullopt;
    name.remove_suffix(3);
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size())
        return std::nullopt;
    const std::string_view digits = name.substr(dot + 1);
    RankFileName result;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), result.rank);
    if (ec != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    result.prefix = std::string(name.substr(0, dot));
    return result;
}

std::string describeRanks(const std::map<std::size_t, std::string>& files)
{
    std::string text;
    auto it = files.begin();
    while (it != files.end()) {
        const std::size_t first = it->first;
        std::size_t last = first;
        for (++it; it != files.end() && it->first == last + 1; ++it)
            last = it->first;
        if (!text.empty())
            text += ", ";
        text += first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
    }
    return text;
}

} // namespace

ChakraTraceFiles locateChakraTrace(const std::string& path)
{
    std::error_code ec;
    ChakraTraceFiles files;
    if (fs::is_regular_file(path, ec)) {
        files.prefix = path;
        files.rankFiles = {path};
        return files;
    }

    // A directory (one prefix inside it) or a prefix (PATH.0.et, PATH.1.et, ... beside it).
    const bool isDirectory = fs::is_directory(path, ec);
    const fs::path folder = isDirectory ? fs::path(path) : fs::path(path).parent_path();
    const std::string wantedPrefix = isDirectory ? std::string() : fs::path(path).filename().string();
    const fs::path scan = folder.empty() ? fs::path(".") : folder;
    if (!fs::is_directory(scan, ec))
        throw InputError(path, "no such file, directory or trace prefix");

    std::map<std::string, std::map<std::size_t, std::string>> byPrefix;
    for (const auto& entry : fs::directory_iterator(scan, ec)) {
        if (!entry.is_regular_file(ec))
            continue;
        const auto split = splitRankFileName(entry.path().filename().string());
        if (!split || (!isDirectory && split->prefix != wantedPrefix))
            continue;
        auto& ranks = byPrefix[split->prefix];
        if (!ranks.emplace(split->rank, entry.path().string()).second)
            throw InputError(entry.path().string(),
                             "rank " + std::to_string(split->rank) + " has both a plain and a gzip file");
    }
    if (ec)
        throw InputError(path, "cannot list " + scan.string() + ": " + ec.message());
    if (byPrefix.empty())
        throw InputError(path, isDirectory ? "the directory holds no Chakra rank files (PREFIX.RANK.et) and no "
                                             "profiler traces (PyTorch or JAX/XLA, a .json or .json.gz per rank)"
                                           : "no such file, directory or trace prefix (no " + path + ".0.et)");
    if (byPrefix.size() > 1) {
        std::string names;
        for (const auto& [prefix, ranks] : byPrefix)
            names += (names.empty() ? "" : ", ") + prefix;
        throw InputError(path, "the directory holds the traces of several prefixes (" + names +
                                   "); name one prefix, e.g. " + (folder / byPrefix.begin()->first).string());
    }
    const auto& [prefix, ranks] = *byPrefix.begin();
    files.prefix = (folder / prefix).string();
    const std::size_t count = ranks.rbegin()->first + 1;
    if (ranks.size() != count) {
        std::size_t missing = 0;
        while (ranks.count(missing))
            ++missing;
        throw InputError(path, "missing rank file " + files.prefix + "." + std::to_string(missing) +
                                   ".et (found ranks " + describeRanks(ranks) + ")");
    }
    for (const auto& [rank, file] : ranks)
        files.rankFiles.push_back(file);
    const std::string groups = files.prefix + std::string(kCommGroupsSuffix);
    if (fs::is_regular_file(groups, ec))
        files.commGroupsFile = groups;
    return files;
}

namespace {

/// One file's messages: GlobalMetadata, then the Nodes with their byte offsets (for errors).
struct TraceFrames {
    struct Frame {
        std::uint64_t offset;
        std::string_view body;
    };
    std::string_view metadata;
    std::vector<Frame> nodes;
};

/// Finds the message boundaries of one file (cheap: no decoding) into `out`, whose storage is reused.
/// Throws InputError.
void splitFrames(std::string_view bytes, const std::string& file, TraceFrames& out)
{
    out.nodes.clear();
    FrameReader frames(bytes, file);
    if (frames.atEnd())
        throw InputError(file, 0, std::nullopt, "empty file: expected a GlobalMetadata message");
    out.metadata = frames.next();
    while (!frames.atEnd()) {
        const std::uint64_t offset = frames.offset();
        out.nodes.push_back({offset, frames.next()});
        // An empty message is a node with no id, name, type or attribute: never written by a tool,
        // and runs of zero bytes would otherwise read as millions of nodes (10 MB of zeros: 3 GB).
        if (out.nodes.back().body.empty())
            throw InputError(file, offset, std::nullopt,
                             "an empty Node message (no id, name, type or attribute): not a Chakra trace node");
    }
}

/// Decodes the frames of one file into a Program.
Program parseFrames(const TraceFrames& frames, const std::string& file)
{
    Program program;
    program.name = fs::path(file).filename().string();
    readMetadata(frames.metadata, program, file);
    const auto& nodeFrames = frames.nodes;
    const std::size_t count = nodeFrames.size();
    program.ops.resize(count);

    // Each worker decodes a contiguous range into the ops' final places; pg_names are bound to slots
    // afterwards, in op order, so that slot numbering does not depend on scheduling. The first error
    // by file offset wins.
    std::vector<std::pair<std::uint32_t, std::string>> pgNames;
    const std::size_t workers = count < 20'000 ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    struct Chunk {
        std::vector<std::pair<std::uint32_t, std::string>> pgNames;
        std::optional<InputError> error;
    };
    std::vector<Chunk> chunks(workers);
    const auto decodeRange = [&](std::size_t worker) {
        Chunk& chunk = chunks[worker];
        const std::size_t begin = count * worker / workers;
        const std::size_t end = count * (worker + 1) / workers;
        std::string pgName;
        bool hasPgName = false;
        for (std::size_t i = begin; i < end; ++i) {
            try {
                detail::decodeNode(nodeFrames[i].body, program.ops[i], pgName, hasPgName);
            } catch (const detail::WireError& e) {
                chunk.error.emplace(file, nodeFrames[i].offset, std::nullopt,
                                    std::string("malformed Node message (") +
                                        std::to_string(nodeFrames[i].body.size()) + " bytes): " + e.what());
                return;
            }
            if (hasPgName)
                chunk.pgNames.emplace_back(static_cast<std::uint32_t>(i), pgName);
        }
    };
    if (workers == 1) {
        decodeRange(0);
    } else {
        std::vector<std::jthread> threads;
        for (std::size_t w = 1; w < workers; ++w)
            threads.emplace_back(decodeRange, w);
        decodeRange(0);
    }
    for (Chunk& chunk : chunks) {
        if (chunk.error)
            throw *chunk.error;
        for (auto& [index, name] : chunk.pgNames)
            program.ops[index].commSlot = program.commSlotFor(name);
    }
    return program;
}

/// A distinct program with the file it was read from, kept to compare later rank files against
/// without decoding them.
struct KnownFile {
    std::uint32_t program = 0;
    std::unique_ptr<FileContents> contents;
    std::string inflated;
    TraceFrames frames;
    /// The program's own recorded times, copied for each rank that has its own (built on first use:
    /// reading them op by op from 248-byte Ops for every such rank cost 8% of a 1,024-rank read).
    std::shared_ptr<const RecordedTimes> times;
};

/// How a rank file runs a known program: its names for the program's slots (slot s is called
/// names[s]), whether every message was byte-equal, and its own recorded times when they differ.
struct SameProgram {
    std::vector<std::string> names;
    bool identical = true;
    std::shared_ptr<RecordedTimes> times;
};

/// The recorded times of `program`'s ops, to be overridden per rank.
std::shared_ptr<RecordedTimes> timesOf(const Program& program)
{
    auto times = std::make_shared<RecordedTimes>();
    times->startMicros.reserve(program.ops.size());
    times->durationMicros.reserve(program.ops.size());
    for (const Op& op : program.ops) {
        times->startMicros.push_back(op.startTimeMicros);
        times->durationMicros.push_back(op.durationMicros);
    }
    return times;
}

/// When `frames` hold `known`'s program but for the values of pg_name and recorded times: how (see
/// SameProgram). nullopt when anything else differs or the names do not map one-to-one onto the
/// slots. Messages are compared as bytes; only those that differ are decoded.
std::optional<SameProgram> sameProgram(const TraceFrames& frames, KnownFile& known, const Program& program)
{
    if (frames.metadata != known.frames.metadata || frames.nodes.size() != known.frames.nodes.size())
        return std::nullopt;
    SameProgram same;
    same.names.resize(program.commSlots.size());
    std::vector<char> named(program.commSlots.size(), 0);
    std::unordered_map<std::string, std::int32_t> slotOfName;
    const auto bind = [&](std::int32_t slot, std::string_view name) {
        const auto s = static_cast<std::size_t>(slot);
        if (named[s])
            return same.names[s] == name;
        if (!slotOfName.try_emplace(std::string(name), slot).second)
            return false; // two slots of the program under one name: the file numbers its slots differently
        named[s] = 1;
        same.names[s] = std::string(name);
        return true;
    };
    // A message whose pg_name bytes are the known file's carries the program's own slot name.
    const auto bindOwnName = [&](const Op& expected) {
        return expected.commSlot < 0 ||
               bind(expected.commSlot, program.commSlots[static_cast<std::size_t>(expected.commSlot)]);
    };
    const auto recordTimes = [&](std::size_t i, std::uint64_t start, std::uint64_t duration) {
        const Op& expected = program.ops[i];
        if (start == expected.startTimeMicros && duration == expected.durationMicros)
            return;
        if (!same.times) {
            if (!known.times)
                known.times = timesOf(program);
            same.times = std::make_shared<RecordedTimes>(*known.times);
        }
        same.times->startMicros[i] = start;
        same.times->durationMicros[i] = duration;
    };
    Op op;
    std::string pgName;
    bool hasPgName = false;
    // Once a message has differed in its times alone, the file is a measured rank's: its messages
    // are compared field by field at once (a byte comparison would fail on most of them first).
    bool timesDiffer = false;
    for (std::size_t i = 0; i < frames.nodes.size(); ++i) {
        const Op& expected = program.ops[i];
        if (!timesDiffer && frames.nodes[i].body == known.frames.nodes[i].body) {
            if (!bindOwnName(expected))
                return std::nullopt;
            continue;
        }
        same.identical = false;
        std::uint64_t start = 0, duration = 0;
        bool timesOnly = false;
        try {
            timesOnly = detail::sameNodeExceptTimes(frames.nodes[i].body, known.frames.nodes[i].body, start, duration);
        } catch (const detail::WireError&) {
            return std::nullopt; // decoding the whole file reports it with its place
        }
        if (timesOnly) { // the common difference in a measured trace, found without decoding the node
            timesDiffer = true;
            if (!bindOwnName(expected))
                return std::nullopt;
            recordTimes(i, start, duration);
            continue;
        }
        op = Op{};
        try {
            detail::decodeNode(frames.nodes[i].body, op, pgName, hasPgName);
        } catch (const detail::WireError&) {
            return std::nullopt; // decoding the whole file reports it with its place
        }
        if (hasPgName != (expected.commSlot >= 0))
            return std::nullopt;
        op.commSlot = expected.commSlot;
        if (!sameExceptTiming(op, expected) || (hasPgName && !bind(expected.commSlot, pgName)))
            return std::nullopt;
        recordTimes(i, op.startTimeMicros, op.durationMicros);
    }
    return same;
}

} // namespace

Program parseChakraTrace(std::string_view bytes, const std::string& file)
{
    std::string inflated;
    if (isGzip(bytes)) {
        inflated = gunzip(bytes, file);
        bytes = inflated;
    }
    TraceFrames frames;
    splitFrames(bytes, file, frames);
    return parseFrames(frames, file);
}

namespace {

/// SAX reader of a comm-group file, {"id": [rank, ...], ...}: groups in file order, in one pass
/// (nlohmann's ordered_json looks every key up linearly: 100,000 groups took 8 s).
class CommGroupReader : public nlohmann::json::json_sax_t {
public:
    CommGroupReader(const std::string& path, std::string_view text)
        : m_path(path)
        , m_text(text)
    {}
    std::vector<CommGroup> groups;

    bool null() override { return fail("null"); }
    bool boolean(bool) override { return fail("a boolean"); }
    bool number_integer(number_integer_t value) override { return rank(value); }
    bool number_unsigned(number_unsigned_t value) override
    {
        return rank(value > static_cast<number_unsigned_t>(INT64_MAX) ? -1 : static_cast<std::int64_t>(value));
    }
    bool number_float(number_float_t, const string_t& text) override { return fail(text); }
    bool string(string_t& text) override { return fail("\"" + text + "\""); }
    bool binary(binary_t&) override { return fail("binary data"); }
    bool start_object(std::size_t) override
    {
        if (m_depth != 0)
            return fail("an object");
        ++m_depth;
        return true;
    }
    bool key(string_t& name) override
    {
        groups.push_back(CommGroup{name, {}});
        return true;
    }
    bool end_object() override
    {
        --m_depth;
        return true;
    }
    bool start_array(std::size_t) override
    {
        if (m_depth != 1)
            return fail("a list");
        ++m_depth;
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) override
    {
        throw InputError(m_path, position > 0 ? position - 1 : 0, std::nullopt,
                         std::string("invalid JSON: ") + e.what());
    }

private:
    bool rank(std::int64_t value)
    {
        if (m_depth != 2 || value < 0 || value > INT32_MAX)
            return fail(std::to_string(value));
        groups.back().ranks.push_back(static_cast<std::int32_t>(value));
        return true;
    }
    bool fail(const std::string& what)
    {
        if (m_depth == 0)
            throw InputError(m_path, 0, 1, "expected a JSON object mapping group ids to lists of ranks");
        const std::string name = groups.empty() ? std::string() : groups.back().name;
        if (groups.empty() || m_depth == 1)
            throw located(name, what, "group \"" + name + "\": expected a list of ranks");
        throw located(name, what, "group \"" + name + "\": " + what + " is not a rank number");
    }

    /// The SAX callbacks carry no position: the offending value is found again after the group's
    /// key (the last key of that name, as the reader takes the last group read).
    InputError located(const std::string& name, const std::string& what, const std::string& message) const
    {
        const std::string quoted = nlohmann::json(name).dump();
        std::size_t at = m_text.rfind(quoted);
        if (at == std::string_view::npos)
            return InputError(m_path, message);
        const std::size_t found = m_text.find(what, at + quoted.size());
        if (found != std::string_view::npos)
            at = found;
        const int line =
            1 + static_cast<int>(std::count(m_text.begin(), m_text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        return InputError(m_path, at, line, message);
    }

    const std::string& m_path;
    std::string_view m_text;
    int m_depth = 0;
};

} // namespace

std::vector<CommGroup> parseCommGroups(std::string_view text, const std::string& file)
{
    checkNesting(text, file);
    CommGroupReader reader(file, text);
    nlohmann::json::sax_parse(text, &reader);
    return std::move(reader.groups);
}

std::vector<CommGroup> readCommGroups(const std::string& path)
{
    return parseCommGroups(readFileBytes(path), path);
}

Workload readChakraWorkload(const std::string& path, const std::string& commGroupsPath, const JobControl& control,
                            ChakraSharing* sharing)
{
    const ChakraTraceFiles files = locateChakraTrace(path);
    Workload workload;
    const std::size_t rankCount = files.rankFiles.size();
    workload.ranks.resize(rankCount);
    ChakraSharing counts;
    counts.rankFiles = rankCount;

    // Ranks share a Program when their ops are equal and at most the names of their process groups
    // differ (every rank file of a trace exported per rank names its own groups); each rank keeps its
    // own slot names, bound to groups below. A file is first compared message by message with the
    // files of the few most recently used programs, decoding only the messages that differ, so that
    // a trace of identical ranks reads at the speed of memcmp; otherwise it is decoded and looked up
    // by content. A rank that differs only in recorded times shares the program and keeps its own
    // times (RankBinding::times), with which it is simulated.
    constexpr std::size_t kRecentFiles = 4;
    std::vector<KnownFile> recent; // most recently used first; their files stay mapped
    TraceFrames frames;
    std::unordered_map<std::size_t, std::vector<std::uint32_t>> byContent;
    std::unordered_map<std::size_t, std::uint32_t> byUntimedContent; // the first program of each
    std::vector<std::vector<std::string>> slotNames;                 // distinct lists of slot names
    std::map<std::vector<std::string>, std::uint32_t> slotNameIndex;
    std::vector<std::uint32_t> rankSlotNames; // per rank: index into slotNames
    const auto internNames = [&](std::vector<std::string> names) {
        const auto [known, added] = slotNameIndex.try_emplace(names, static_cast<std::uint32_t>(slotNames.size()));
        if (added)
            slotNames.push_back(std::move(names));
        return known->second;
    };
    for (std::size_t rank = 0; rank < rankCount; ++rank) {
        control.check();
        const std::string& file = files.rankFiles[rank];
        KnownFile current;
        current.contents = std::make_unique<FileContents>(file);
        if (isGzip(current.contents->bytes()))
            current.inflated = gunzip(current.contents->bytes(), file);
        // The frame list is reused from file to file (a fresh one per file faulted in 300 MB of pages
        // for the 128 files of a 70B model) and copied only for a file that is kept.
        splitFrames(current.inflated.empty() ? current.contents->bytes() : std::string_view(current.inflated), file,
                    frames);
        std::optional<std::uint32_t> shared;
        for (std::size_t k = 0; k < recent.size() && !shared; ++k) {
            const Program& candidate = *workload.programs[recent[k].program];
            if (auto same = sameProgram(frames, recent[k], candidate)) {
                shared = recent[k].program;
                ++(same->times       ? counts.sameExceptTiming
                   : same->identical ? counts.identicalFiles
                                     : counts.sameExceptGroupNames);
                workload.ranks[rank].times = std::move(same->times);
                rankSlotNames.push_back(internNames(std::move(same->names)));
                std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(k),
                            recent.begin() + static_cast<std::ptrdiff_t>(k) + 1);
            }
        }
        if (!shared) {
            Program program = parseFrames(frames, file);
            // Looked up by a hash of everything, so that only equal programs are compared in full; a
            // program like an earlier one but for its recorded times is found by a second hash without
            // them and checked against one such program (comparing it with every one made ranks that
            // all differ in their durations quadratic).
            const std::size_t hash = rankCount > 1 ? contentHash(program, true) : 0;
            for (std::uint32_t candidate : byContent[hash])
                if (!shared && matchPrograms(*workload.programs[candidate], program) == ProgramMatch::Same)
                    shared = candidate;
            if (!shared) {
                const std::size_t untimed = rankCount > 1 ? contentHash(program, false) : 0;
                const auto [alike, first] = byUntimedContent.try_emplace(untimed, 0);
                if (first)
                    alike->second = static_cast<std::uint32_t>(workload.programs.size());
                else if (matchPrograms(*workload.programs[alike->second], program) == ProgramMatch::SameExceptTiming) {
                    shared = alike->second;
                    workload.ranks[rank].times = timesOf(program);
                }
            }
            if (shared) {
                ++(workload.ranks[rank].times ? counts.sameExceptTiming : counts.sameExceptGroupNames);
                rankSlotNames.push_back(internNames(std::move(program.commSlots)));
            } else {
                shared = static_cast<std::uint32_t>(workload.programs.size());
                rankSlotNames.push_back(internNames(program.commSlots));
                workload.programs.push_back(std::make_shared<const Program>(std::move(program)));
                byContent[hash].push_back(*shared);
                current.program = *shared;
                current.frames = frames;
                if (recent.size() == kRecentFiles)
                    recent.pop_back();
                recent.insert(recent.begin(), std::move(current));
            }
        }
        workload.ranks[rank].program = *shared;
        control.report(0.9 * static_cast<double>(rank + 1) / static_cast<double>(rankCount));
    }
    recent.clear();
    counts.distinctPrograms = workload.programs.size();
    if (sharing)
        *sharing = counts;

    const std::string groupsFile = commGroupsPath.empty() ? files.commGroupsFile : commGroupsPath;
    if (!groupsFile.empty()) {
        workload.groups = readCommGroups(groupsFile);
        for (const CommGroup& group : workload.groups)
            for (std::int32_t r : group.ranks)
                if (static_cast<std::size_t>(r) >= rankCount)
                    throw InputError(groupsFile, "group \"" + group.name + "\" names rank " + std::to_string(r) +
                                                     " but the trace has " + std::to_string(rankCount) + " ranks");
    }

    // Bind every rank's pg_names to groups: the JSON's group of that name; else "" and "0" mean all
    // ranks (ASTRA-sim's convention), one group for both; else the group is the set of ranks whose
    // trace uses that name. Each group is its own communicator, whatever its members.
    std::map<std::string, std::vector<std::int32_t>> inferred;
    std::int64_t implicitWorld = -1;
    for (std::size_t rank = 0; rank < rankCount; ++rank)
        for (const std::string& slot : slotNames[rankSlotNames[rank]])
            inferred[slot].push_back(static_cast<std::int32_t>(rank));
    for (std::size_t rank = 0; rank < rankCount; ++rank) {
        for (const std::string& slot : slotNames[rankSlotNames[rank]]) {
            std::int64_t group = workload.findGroup(slot);
            if (group < 0 && (slot.empty() || slot == "0"))
                group = implicitWorld;
            if (group < 0) {
                CommGroup created{slot, inferred[slot]};
                if (slot.empty() || slot == "0") {
                    created.ranks.resize(rankCount);
                    for (std::size_t r = 0; r < rankCount; ++r)
                        created.ranks[r] = static_cast<std::int32_t>(r);
                }
                workload.groups.push_back(std::move(created));
                group = static_cast<std::int64_t>(workload.groups.size() - 1);
                if (slot.empty() || slot == "0")
                    implicitWorld = group;
            }
            workload.ranks[rank].slotGroups.push_back(static_cast<std::uint32_t>(group));
        }
    }
    control.report(1.0);
    return workload;
}

} // namespace flint::core
