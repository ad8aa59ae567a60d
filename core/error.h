// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace flint::core {

/// Bad input: a file that cannot be read or does not hold what it should. Carries the file, the
/// position (byte offset for binary formats, line for text) and the reason, so that every front end
/// can say exactly what is wrong. Thrown by readers; never leaves a partial output behind.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string reason);
    InputError(std::string file, std::optional<std::uint64_t> byteOffset, std::optional<int> line, std::string reason);

    const std::string& file() const { return m_file; }
    /// Byte offset into the (decompressed) file, when the format is binary.
    std::optional<std::uint64_t> byteOffset() const { return m_byteOffset; }
    /// 1-based line, when the format is text.
    std::optional<int> line() const { return m_line; }
    const std::string& reason() const { return m_reason; }

private:
    std::string m_file;
    std::optional<std::uint64_t> m_byteOffset;
    std::optional<int> m_line;
    std::string m_reason;
};

/// A failure to write an output (disk full, permission). The output is left untouched.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Thrown by long-running functions when their CancellationToken is set.
class Cancelled : public std::runtime_error {
public:
    Cancelled()
        : std::runtime_error("cancelled")
    {}
};

} // namespace flint::core
