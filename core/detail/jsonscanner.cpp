// SPDX-License-Identifier: MIT
#include "core/detail/jsonscanner.h"

#include "core/error.h"
#include "core/fileio.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

namespace flint::core::detail {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

void appendUtf8(std::string& out, std::uint32_t code)
{
    if (code < 0x80) {
        out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code >> 6)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (code >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (code >> 18)));
        out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
}

std::optional<double> parseDouble(std::string_view token)
{
    if (token.empty())
        return std::nullopt;
    if (token.front() == '+')
        token.remove_prefix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace

JsonScanner::JsonScanner(std::string_view text, std::string file)
    : m_text(text)
    , m_file(std::move(file))
{
    if (m_text.starts_with("\xEF\xBB\xBF"))
        m_at = 3;
}

void JsonScanner::failAt(std::size_t at, const std::string& reason) const
{
    at = std::min(at, m_text.size());
    const auto line = 1 + std::count(m_text.begin(), m_text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    throw InputError(m_file, at, static_cast<int>(std::min<std::ptrdiff_t>(line, INT32_MAX)), reason);
}

void JsonScanner::fail(const std::string& reason) const
{
    failAt(m_at, reason);
}

void JsonScanner::skipSpace()
{
    while (m_at < m_text.size() && isSpace(m_text[m_at]))
        ++m_at;
}

bool JsonScanner::atEnd()
{
    skipSpace();
    return m_at >= m_text.size();
}

char JsonScanner::peek()
{
    skipSpace();
    return m_at < m_text.size() ? m_text[m_at] : '\0';
}

void JsonScanner::expect(char c)
{
    if (peek() != c) {
        if (m_at >= m_text.size())
            fail(std::string("the JSON text ends where '") + c + "' was expected (a truncated file?)");
        fail(std::string("expected '") + c + "' in JSON, found '" + m_text[m_at] + "'");
    }
    ++m_at;
}

bool JsonScanner::nextMember(bool& first, std::string_view& key, std::string& scratch)
{
    const char c = peek();
    if (c == '}') {
        ++m_at;
        return false;
    }
    if (!first) {
        if (c != ',')
            c == '\0' ? fail("the JSON text ends inside an object (a truncated file?)")
                      : fail("expected ',' or '}' after an object member");
        ++m_at;
    }
    if (peek() != '"')
        fail("expected a quoted member name in JSON object");
    key = string(scratch);
    expect(':');
    first = false;
    return true;
}

bool JsonScanner::nextElement(bool& first)
{
    const char c = peek();
    if (c == ']') {
        ++m_at;
        return false;
    }
    if (!first) {
        if (c != ',')
            c == '\0' ? fail("the JSON text ends inside an array (a truncated file?)")
                      : fail("expected ',' or ']' after an array element");
        ++m_at;
    }
    first = false;
    if (peek() == '\0')
        fail("the JSON text ends inside an array (a truncated file?)");
    return true;
}

void JsonScanner::skipString()
{
    // m_at is at the opening quote.
    const std::size_t open = m_at;
    std::size_t at = m_at + 1;
    for (;;) {
        const void* found = std::memchr(m_text.data() + at, '"', m_text.size() - at);
        if (!found)
            failAt(open, "a JSON string is not closed (a truncated file?)");
        const std::size_t quote = static_cast<std::size_t>(static_cast<const char*>(found) - m_text.data());
        std::size_t backslashes = 0;
        while (quote - backslashes > at && m_text[quote - backslashes - 1] == '\\')
            ++backslashes;
        at = quote + 1;
        if (backslashes % 2 == 0)
            break;
    }
    m_at = at;
}

std::string_view JsonScanner::string(std::string& scratch)
{
    if (peek() != '"')
        fail("expected a JSON string");
    const std::size_t begin = m_at + 1;
    skipString();
    const std::string_view raw = m_text.substr(begin, m_at - 1 - begin);
    if (raw.find('\\') == std::string_view::npos)
        return raw;
    scratch.clear();
    scratch.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\') {
            scratch.push_back(raw[i]);
            continue;
        }
        if (++i >= raw.size())
            failAt(begin + i, "a JSON escape is cut off");
        switch (raw[i]) {
        case '"':
            scratch.push_back('"');
            break;
        case '\\':
            scratch.push_back('\\');
            break;
        case '/':
            scratch.push_back('/');
            break;
        case 'b':
            scratch.push_back('\b');
            break;
        case 'f':
            scratch.push_back('\f');
            break;
        case 'n':
            scratch.push_back('\n');
            break;
        case 'r':
            scratch.push_back('\r');
            break;
        case 't':
            scratch.push_back('\t');
            break;
        case 'u': {
            std::uint32_t code = 0;
            if (raw.size() - i < 5)
                failAt(begin + i, "a JSON \\u escape needs four hexadecimal digits");
            const auto [end, ec] = std::from_chars(raw.data() + i + 1, raw.data() + i + 5, code, 16);
            if (ec != std::errc() || end != raw.data() + i + 5)
                failAt(begin + i, "a JSON \\u escape needs four hexadecimal digits");
            i += 4;
            appendUtf8(scratch, code); // a lone surrogate half becomes its own code point: names only
            break;
        }
        default:
            failAt(begin + i - 1, std::string("unknown JSON escape '\\") + raw[i] + "'");
        }
    }
    return scratch;
}

std::string_view JsonScanner::stringOrSkip(std::string& scratch)
{
    if (peek() == '"')
        return string(scratch);
    skipValue();
    return {};
}

std::string_view JsonScanner::numberToken()
{
    const std::size_t begin = m_at;
    while (m_at < m_text.size() && isNumberChar(m_text[m_at]))
        ++m_at;
    return m_text.substr(begin, m_at - begin);
}

double JsonScanner::number()
{
    const char c = peek();
    const std::size_t at = m_at;
    std::string scratch;
    const std::string_view token = c == '"' ? string(scratch) : numberToken();
    const std::optional<double> value = parseDouble(token);
    if (!value && at >= m_text.size())
        failAt(at, "the JSON text ends where a number was expected (a truncated file?)");
    if (!value)
        failAt(at, token.empty() ? "expected a number in JSON"
                                 : "'" + std::string(token.substr(0, 40)) + "' is not a finite number");
    return *value;
}

std::int64_t JsonScanner::integer()
{
    const char c = peek();
    const std::size_t at = m_at;
    std::string scratch;
    std::string_view token = c == '"' ? string(scratch) : numberToken();
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc() && end == token.data() + token.size())
        return value;
    // 12.0 and 1e3 are integers too; 1.5 and 1e30 are not.
    const std::optional<double> real = parseDouble(token);
    if (real && *real == std::floor(*real) && std::fabs(*real) < 9.2e18)
        return static_cast<std::int64_t>(*real);
    if (at >= m_text.size())
        failAt(at, "the JSON text ends where a number was expected (a truncated file?)");
    failAt(at, token.empty() ? "expected an integer in JSON"
                             : "'" + std::string(token.substr(0, 40)) + "' is not an integer in range");
}

double JsonScanner::numberOr(double fallback)
{
    const char c = peek();
    if (c == '-' || (c >= '0' && c <= '9')) {
        const std::size_t at = m_at;
        const std::optional<double> value = parseDouble(numberToken());
        if (!value)
            failAt(at, "not a finite number");
        return *value;
    }
    if (c == '"') {
        std::string scratch;
        const std::optional<double> value = parseDouble(string(scratch));
        return value ? *value : fallback;
    }
    skipValue();
    return fallback;
}

bool JsonScanner::isNull()
{
    if (peek() == 'n' && m_text.substr(m_at, 4) == "null") {
        m_at += 4;
        return true;
    }
    return false;
}

void JsonScanner::skipValue()
{
    m_stack.clear();
    for (;;) {
        const char c = peek();
        switch (c) {
        case '"':
            skipString();
            break;
        case '{':
        case '[':
            if (m_stack.size() >= kMaxNesting)
                fail("JSON nested deeper than " + std::to_string(kMaxNesting) + " levels");
            m_stack.push_back(c == '{' ? '}' : ']');
            ++m_at;
            if (c == '{') {
                if (peek() == '}') {
                    m_stack.pop_back();
                    ++m_at;
                    break;
                }
                if (peek() != '"')
                    fail("expected a quoted member name in JSON object");
                skipString();
                expect(':');
            } else if (peek() == ']') {
                m_stack.pop_back();
                ++m_at;
                break;
            }
            continue; // the first member's or element's value
        case 't':
        case 'f':
        case 'n': {
            const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
            if (m_text.substr(m_at, word.size()) != word)
                fail("unexpected characters in JSON");
            m_at += word.size();
            break;
        }
        case '\0':
            fail("the JSON text ends where a value was expected (a truncated file?)");
        default:
            if (c != '-' && (c < '0' || c > '9'))
                fail(std::string("unexpected character '") + c + "' where a JSON value was expected");
            numberToken();
        }
        // A value is complete: close the levels it ends, or move to the next member or element.
        for (;;) {
            if (m_stack.empty())
                return;
            const char next = peek();
            if (next == m_stack.back()) {
                m_stack.pop_back();
                ++m_at;
                continue;
            }
            if (next != ',')
                next == '\0' ? fail("the JSON text ends inside an object or array (a truncated file?)")
                             : fail(std::string("expected ',' or '") + m_stack.back() + "' in JSON");
            ++m_at;
            if (m_stack.back() == '}') {
                if (peek() != '"')
                    fail("expected a quoted member name in JSON object");
                skipString();
                expect(':');
            }
            break;
        }
    }
}

} // namespace flint::core::detail
