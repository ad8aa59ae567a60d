// SPDX-License-Identifier: MIT
#include "core/fileio.h"

#include "core/error.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace flint::core {

std::string readFileBytes(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path, "is a directory, expected a file");
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
    // Read in one go when the size is known (regular files); fall back to chunks for pipes.
    std::string bytes;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > 0) {
        bytes.resize(size);
        bytes.resize(std::fread(bytes.data(), 1, size, file));
    }
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0)
        bytes.append(buffer, got);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed)
        throw InputError(path, "read error");
    return bytes;
}

FileContents::FileContents(const std::string& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > 0 && std::filesystem::is_regular_file(path, ec)) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
        if (size <= kReadLimit) {
            // Small files (a rank of a many-rank trace) are read into memory the allocator reuses:
            // the kernel's copy leaves them in cache, where bytes reached through a fresh mapping are
            // each a cache and TLB miss (a 1,024-rank trace read 40% slower mapped, on a VM).
            m_buffer = std::make_unique_for_overwrite<char[]>(size);
            std::size_t done = 0;
            while (done < size) {
                const ssize_t got = ::read(fd, m_buffer.get() + done, size - done);
                if (got < 0 && errno == EINTR)
                    continue;
                if (got <= 0) {
                    const int error = errno;
                    ::close(fd);
                    throw InputError(path, got == 0 ? std::string("the file shrank while being read")
                                                    : std::string("read error: ") + std::strerror(error));
                }
                done += static_cast<std::size_t>(got);
            }
            ::close(fd);
            m_view = std::string_view(m_buffer.get(), size);
            return;
        }
        // MAP_POPULATE maps every page up front (read ahead from disk if needed): on a VM, faulting
        // a 1 GB trace in page by page cost more than decoding it. The readers read every byte anyway.
        void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        ::close(fd);
        if (map != MAP_FAILED) {
            ::madvise(map, size, MADV_SEQUENTIAL);
            m_map = map;
            m_mapSize = size;
            m_view = std::string_view(static_cast<const char*>(map), size);
            return;
        }
    }
    m_copy = readFileBytes(path);
    m_view = m_copy;
}

FileContents::~FileContents()
{
    if (m_map)
        ::munmap(m_map, m_mapSize);
}

std::size_t skipStringOrComment(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return at;
    if (text[at] == '"') {
        std::size_t i = at + 1;
        for (; i < text.size() && text[i] != '"'; ++i)
            if (text[i] == '\\')
                ++i;
        return std::min(i, text.size());
    }
    if (text[at] == '/' && at + 1 < text.size() && text[at + 1] == '/')
        return std::min(text.find('\n', at), text.size());
    return at;
}

std::optional<std::uint64_t> excessiveNesting(std::string_view text, std::size_t limit, bool angleBrackets)
{
    std::size_t depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (const std::size_t skipped = skipStringOrComment(text, i); skipped != i) {
            i = skipped;
        } else if (c == '(' || c == '[' || c == '{' ||
                   (angleBrackets && c == '<' && (i + 1 >= text.size() || text[i + 1] != '='))) {
            if (++depth > limit)
                return i;
        } else if (c == ')' || c == ']' || c == '}' ||
                   (angleBrackets && c == '>' && (i == 0 || text[i - 1] != '-') &&
                    (i + 1 >= text.size() || text[i + 1] != '='))) {
            depth = depth > 0 ? depth - 1 : 0;
        }
    }
    return std::nullopt;
}

void checkNesting(std::string_view text, const std::string& file, std::size_t limit)
{
    const auto at = excessiveNesting(text, limit);
    if (!at)
        return;
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*at), '\n'));
    throw InputError(file, at, line,
                     "brackets nest deeper than " + std::to_string(limit) +
                         " levels here; refused before parsing (no real input nests so deep)");
}

bool isGzip(std::string_view bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzipPrefix(std::string_view bytes, std::size_t limit)
{
    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return {};
    std::string out(limit, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(limit);
    (void)inflate(&stream, Z_SYNC_FLUSH);
    out.resize(limit - stream.avail_out);
    inflateEnd(&stream);
    return out;
}

std::string gunzip(std::string_view bytes, const std::string& file)
{
    z_stream stream{};
    // 16 + MAX_WBITS: expect a gzip header and trailer.
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        throw InputError(file, "cannot initialise zlib");
    std::string out;
    out.reserve(bytes.size() * 4);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    char buffer[1 << 16];
    int status = Z_OK;
    // A gzip bomb (9.7 KB of zeros inflating to 3 GB) is refused as it inflates: past 64 MiB, more than
    // 200 times the compressed size (protobuf traces compress 5-20 times; DEFLATE allows 1,032), or
    // past 16 GiB whatever the ratio.
    constexpr std::uint64_t kRatioFloor = 64ull << 20, kMaxRatio = 200, kMaxInflated = 16ull << 30;
    while (true) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
        if ((out.size() > kRatioFloor && out.size() > kMaxRatio * bytes.size()) || out.size() > kMaxInflated) {
            const auto offset = static_cast<std::uint64_t>(bytes.size() - stream.avail_in);
            inflateEnd(&stream);
            throw InputError(file, offset, std::nullopt,
                             "gzip: " + std::to_string(bytes.size()) + " compressed bytes inflate to more than " +
                                 std::to_string(out.size()) +
                                 ": refused as a decompression bomb (limits: 200 times the compressed size past "
                                 "64 MiB, 16 GiB in all)");
        }
        if (status == Z_STREAM_END) {
            // Concatenated gzip members are one stream to gzip(1); accept them too.
            if (stream.avail_in == 0)
                break;
            inflateReset(&stream);
            continue;
        }
        if (status != Z_OK) {
            const auto offset = static_cast<std::uint64_t>(bytes.size() - stream.avail_in);
            std::string reason = stream.msg ? stream.msg : "corrupt data";
            inflateEnd(&stream);
            if (status == Z_BUF_ERROR)
                reason = "gzip stream is truncated";
            throw InputError(file, offset, std::nullopt, "gzip: " + reason);
        }
    }
    inflateEnd(&stream);
    return out;
}

namespace {

// Temporary files of open OutputTransactions, for the signal handler installed by
// removeTemporaryFilesOnSignal(): it may only call async-signal-safe functions, so the paths sit in
// a fixed table of atomic pointers. A path is never freed once published (a handler on another
// thread may be reading it); only programs that install the handler publish, and they are short.
constexpr std::size_t kTemporarySlots = 1 << 14;
std::atomic<const char*> g_temporaries[kTemporarySlots];
std::atomic<bool> g_handlerInstalled{false};

void publishTemporary(const std::string& path)
{
    if (!g_handlerInstalled.load())
        return;
    const char* copy = ::strdup(path.c_str());
    if (!copy)
        return;
    for (auto& slot : g_temporaries) {
        const char* expected = nullptr;
        if (slot.compare_exchange_strong(expected, copy))
            return;
    }
}

// Retracted paths stay allocated (see above) and listed here, so that they remain reachable:
// LeakSanitizer then does not take them for leaks. The list is never destroyed (a static vector's
// destructor would run before the leak check at exit).
std::mutex g_retiredMutex;
auto* const g_retired = new std::vector<const char*>;

void retractTemporary(const std::string& path)
{
    if (!g_handlerInstalled.load())
        return;
    for (auto& slot : g_temporaries) {
        const char* current = slot.load();
        if (current && path == current) {
            if (slot.compare_exchange_strong(current, nullptr)) {
                const std::lock_guard lock(g_retiredMutex);
                g_retired->push_back(current);
            }
            return;
        }
    }
}

extern "C" void removeTemporariesAndReraise(int signal)
{
    for (auto& slot : g_temporaries)
        if (const char* path = slot.load())
            ::unlink(path);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

} // namespace

void removeTemporaryFilesOnSignal()
{
    if (g_handlerInstalled.exchange(true))
        return;
    for (int signal : {SIGINT, SIGTERM, SIGHUP})
        ::signal(signal, removeTemporariesAndReraise);
}

OutputTransaction::~OutputTransaction()
{
    if (m_committed)
        return;
    for (const Pending& p : m_pending) {
        std::remove(p.temporary.c_str());
        retractTemporary(p.temporary);
    }
}

void OutputTransaction::write(const std::string& path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    const fs::path destination(path);
    // Renaming over a device, a FIFO or a socket would replace it with a regular file.
    std::error_code ec;
    const fs::file_status existing = fs::status(destination, ec); // follows a link: /dev/stdout is no file
    if (!ec && fs::exists(existing) && !fs::is_regular_file(existing))
        throw OutputError("refusing to replace " + path + ": it exists and is not a regular file");
    fs::path folder = destination.parent_path();
    if (folder.empty())
        folder = ".";
    std::string pattern = (folder / ("." + destination.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        throw OutputError("cannot create " + path + ": " + std::strerror(errno));
    m_pending.push_back({pattern, path});
    publishTemporary(pattern);
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t wrote = ::write(fd, data, left);
        if (wrote < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            ::close(fd);
            throw OutputError("cannot write " + path + ": " + std::strerror(error));
        }
        data += wrote;
        left -= static_cast<std::size_t>(wrote);
    }
    // mkstemp creates 0600; output files should have the usual permissions.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (::close(fd) != 0)
        throw OutputError("cannot write " + path + ": " + std::strerror(errno));
}

void OutputTransaction::commit()
{
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        if (std::rename(m_pending[i].temporary.c_str(), m_pending[i].destination.c_str()) != 0) {
            const int error = errno;
            for (std::size_t j = i; j < m_pending.size(); ++j) {
                std::remove(m_pending[j].temporary.c_str());
                retractTemporary(m_pending[j].temporary);
            }
            m_committed = true;
            throw OutputError("cannot move " + m_pending[i].destination + " into place: " + std::strerror(error));
        }
        retractTemporary(m_pending[i].temporary);
    }
    m_committed = true;
}

} // namespace flint::core
