// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core {

/// Reads a whole file. Throws InputError naming the file when it cannot be opened or read.
std::string readFileBytes(const std::string& path);

/// A read-only view of a whole file: read into memory up to kReadLimit bytes, memory-mapped above
/// (no copy), read where mapping fails. Throws InputError naming the file. Not copyable; the view
/// lives as long as the object.
class FileContents {
public:
    explicit FileContents(const std::string& path);
    FileContents(const FileContents&) = delete;
    FileContents& operator=(const FileContents&) = delete;
    ~FileContents();

    std::string_view bytes() const { return m_view; }

    static constexpr std::uint64_t kReadLimit = std::uint64_t{16} << 20;

private:
    std::unique_ptr<char[]> m_buffer;
    void* m_map = nullptr;
    std::size_t m_mapSize = 0;
    std::string m_copy;
    std::string_view m_view;
};

/// Deepest bracket nesting a text reader accepts. Deeper input is refused before any recursive parser
/// (ours, MLIR's, or a JSON writer building a message) sees it: 30,000 nested HLO tuples or 10,000
/// nested MLIR attributes overflow the stack. Real modules stay below a few dozen levels.
inline constexpr std::size_t kMaxNesting = 1000;

/// When `text[at]` opens a "..." string (backslash escapes honoured) or a `//` comment, the index
/// of its last character: the closing quote, or the newline after the comment (text.size() when
/// the text ends first). Otherwise `at`. For scanners that skip what brackets inside do not mean.
std::size_t skipStringOrComment(std::string_view text, std::size_t at);

/// The byte offset of the first bracket ( [ { that opens a level deeper than `limit`, outside "..."
/// strings and // comments; nullopt when the text stays within it. With `angleBrackets` (MLIR, whose
/// types and attributes nest in < >), < and > count too, except in "->", "<=" and ">=" (HLO's
/// "<=[8]" iota tilings would never close). One pass, no allocation.
std::optional<std::uint64_t> excessiveNesting(std::string_view text, std::size_t limit = kMaxNesting,
                                              bool angleBrackets = false);

/// Throws InputError naming `file`, the byte offset (and line) and the limit when `text` nests deeper
/// than `limit` brackets (( [ { only).
void checkNesting(std::string_view text, const std::string& file, std::size_t limit = kMaxNesting);

/// True when `bytes` start with the gzip magic (1f 8b).
bool isGzip(std::string_view bytes);

/// Inflates a gzip stream (all members). Throws InputError naming `file` and the compressed byte
/// offset where the stream is corrupt or truncated.
std::string gunzip(std::string_view bytes, const std::string& file);

/// The first up to `limit` bytes a gzip stream inflates to, for telling what a compressed file
/// holds; stops quietly at the end of `bytes` or at corrupt data (empty when nothing inflates).
std::string gunzipPrefix(std::string_view bytes, std::size_t limit);

/// Removes the temporary files of every open OutputTransaction when the process receives SIGINT,
/// SIGTERM or SIGHUP, then dies of the signal as it would have. For command-line programs; call once
/// at start (the explorer does not: it cancels its jobs instead).
void removeTemporaryFilesOnSignal();

/// A set of output files that appear together or not at all.
///
/// Each write() goes to a temporary file in the destination's folder; commit() renames them all into
/// place. If commit() is never reached (an error, an exception, cancellation) the destructor removes
/// the temporary files and the destinations are untouched. Not thread-safe.
class OutputTransaction {
public:
    OutputTransaction() = default;
    OutputTransaction(const OutputTransaction&) = delete;
    OutputTransaction& operator=(const OutputTransaction&) = delete;
    ~OutputTransaction();

    /// Writes `bytes` to a temporary file that becomes `path` on commit(). Throws OutputError.
    void write(const std::string& path, std::string_view bytes);
    /// Moves every written file into place. Throws OutputError (then nothing was moved, or, if a
    /// rename failed half-way, the files already moved stay and the rest are removed).
    void commit();

private:
    struct Pending {
        std::string temporary;
        std::string destination;
    };
    std::vector<Pending> m_pending;
    bool m_committed = false;
};

} // namespace flint::core
