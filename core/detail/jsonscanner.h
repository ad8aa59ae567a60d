// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core::detail {

/// A pull scanner over JSON text for readers of large files (profiler traces of a gigabyte): the
/// caller walks objects and arrays, reads the members it knows and skips the rest without building
/// a document. Skipping is iterative and bounded by kMaxNesting, so hostile nesting cannot overflow
/// the stack. Every error is an InputError naming the file, the byte offset and the line.
///
/// Strings are returned as views into the text when they hold no escape, otherwise decoded into a
/// scratch buffer the caller passes (valid until that buffer is reused). Not thread-safe.
class JsonScanner {
public:
    JsonScanner(std::string_view text, std::string file);

    std::size_t offset() const { return m_at; }
    bool atEnd();
    /// The next character after white space, without consuming it; '\0' at the end of the text.
    char peek();
    /// Consumes `c` (after white space) or fails naming what was expected.
    void expect(char c);

    /// Walks an object: call `enterObject()`, then `nextMember(first, key)` until it returns false;
    /// after each true the caller reads or skips the member's value. `first` starts true.
    void enterObject() { expect('{'); }
    bool nextMember(bool& first, std::string_view& key, std::string& scratch);
    /// Walks an array the same way: `enterArray()`, then `nextElement(first)` until false.
    void enterArray() { expect('['); }
    bool nextElement(bool& first);

    std::string_view string(std::string& scratch);
    /// The value when it is a string (empty ones included); any other value is skipped and gives "".
    std::string_view stringOrSkip(std::string& scratch);
    /// A number, or a string that holds one (profilers write some numbers as strings).
    double number();
    /// An integer (a number without fraction, or a string that holds one); fails on anything else.
    std::int64_t integer();
    /// A number, or nullopt-like `fallback` when the value is null, a boolean, or not a number.
    double numberOr(double fallback);
    bool isNull();
    void skipValue();

    /// Throws InputError at the current offset (or `at`).
    [[noreturn]] void fail(const std::string& reason) const;
    [[noreturn]] void failAt(std::size_t at, const std::string& reason) const;

    const std::string& file() const { return m_file; }

private:
    void skipSpace();
    void skipString();
    std::string_view numberToken();

    std::string_view m_text;
    std::string m_file;
    std::size_t m_at = 0;
    std::vector<char> m_stack; ///< closing brackets of skipValue's open levels, reused
};

} // namespace flint::core::detail
