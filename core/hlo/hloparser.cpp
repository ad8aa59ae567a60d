// SPDX-License-Identifier: MIT
#include "core/hlo/hloparser.h"

#include "core/error.h"
#include "core/fileio.h"
#include "core/hlo/hlocost.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace flint::core::hlo {
namespace {

/// Elementwise opcodes whose operands all have the result's dimensions (XLA's shape inference):
/// the cost model's elementwise, transcendental and map opcodes (hlocost.h), but select and clamp,
/// which may take scalars.
bool sameDimensionsOpcode(std::string_view opcode)
{
    return isElementwiseOpcode(opcode) && opcode != "select" && opcode != "clamp";
}

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-' || c == '$';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// Character cursor over the module text with line and column for errors.
class Cursor {
public:
    Cursor(std::string_view text, const std::string& file)
        : m_text(text)
        , m_file(file)
    {
        // A UTF-8 byte-order mark (some editors write one) is skipped; offsets stay the file's.
        if (m_text.starts_with("\xEF\xBB\xBF"))
            m_pos = 3;
    }

    [[noreturn]] void fail(const std::string& what) const { fail(m_pos, what); }

    [[noreturn]] void fail(std::size_t at, const std::string& what) const
    {
        int line = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i < at && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                lineStart = i + 1;
            }
        }
        throw InputError(m_file, std::nullopt, line,
                         "column " + std::to_string(at - lineStart + 1) + ": " + what + ", found " + describe(at));
    }

    /// Skips spaces, newlines and /* ... */ comments.
    void skipSpace()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                if (c == '\n') {
                    ++m_line;
                    m_lineStart = m_pos + 1;
                }
                ++m_pos;
            } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '*') {
                const auto end = m_text.find("*/", m_pos + 2);
                if (end == std::string_view::npos)
                    fail("expected the end of a /* comment */");
                for (std::size_t i = m_pos; i < end; ++i)
                    if (m_text[i] == '\n') {
                        ++m_line;
                        m_lineStart = i + 1;
                    }
                m_pos = end + 2;
            } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else {
                break;
            }
        }
    }

    bool atEnd()
    {
        skipSpace();
        return m_pos >= m_text.size();
    }
    char peek()
    {
        skipSpace();
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }
    /// The next character without skipping space.
    char peekRaw() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool consume(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    void expect(char c, const char* what)
    {
        if (!consume(c))
            fail(std::string("expected '") + c + "' " + what);
    }
    bool consumeWord(std::string_view word)
    {
        skipSpace();
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        const std::size_t after = m_pos + word.size();
        if (after < m_text.size() && isNameChar(m_text[after]))
            return false;
        m_pos = after;
        return true;
    }

    /// An identifier or instruction name; a leading '%' is dropped.
    std::string_view name(const char* what)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '%')
            ++m_pos;
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
            ++m_pos;
        if (m_pos == start)
            fail(std::string("expected ") + what);
        return m_text.substr(start, m_pos - start);
    }

    std::int64_t integer(const char* what)
    {
        skipSpace();
        const std::size_t start = m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == '-')
            ++m_pos;
        while (m_pos < m_text.size() && isDigit(m_text[m_pos]))
            ++m_pos;
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(m_text.data() + start, m_text.data() + m_pos, value);
        if (ec != std::errc() || end != m_text.data() + m_pos || m_pos == start) {
            m_pos = start;
            fail(std::string("expected ") + what);
        }
        return value;
    }

    /// The raw text of an attribute value: up to the next ',' or end of line at nesting depth 0,
    /// with quoted strings, (), [] and {} balanced.
    std::string_view rawValue()
    {
        skipSpace();
        const std::size_t start = m_pos;
        int depth = 0;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\\' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '"') {
                // An escaped quote outside a string (Shardy's round-trip attributes print
                // `{xla.sdy.meshes={mesh = #sdy.mesh<[\"x\"=8]>}}`) opens no string.
                m_pos += 2;
                continue;
            }
            if (c == '"') {
                skipString();
                continue;
            }
            if (c == '{' || c == '(' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ')' || c == ']') {
                if (depth == 0)
                    break;
                --depth;
            } else if (depth == 0 && (c == ',' || c == '\n')) {
                break;
            } else if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            }
            ++m_pos;
        }
        if (depth != 0)
            fail(start, "unbalanced brackets in an attribute value");
        std::size_t end = m_pos;
        while (end > start && (m_text[end - 1] == ' ' || m_text[end - 1] == '\r' || m_text[end - 1] == '\t'))
            --end;
        return m_text.substr(start, end - start);
    }

    /// Skips a "..." string with backslash escapes.
    void skipString()
    {
        const std::size_t start = m_pos;
        ++m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != '"') {
            if (m_text[m_pos] == '\\')
                ++m_pos;
            ++m_pos;
        }
        if (m_pos >= m_text.size())
            fail(start, "expected the end of a string");
        ++m_pos;
    }

    /// Skips the rest of a balanced () group whose '(' was consumed; returns its content.
    std::string_view balancedUntilClose(char open, char close)
    {
        const std::size_t start = m_pos;
        int depth = 1;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '"') {
                skipString();
                continue;
            }
            if (c == open)
                ++depth;
            else if (c == close && --depth == 0)
                break;
            else if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            }
            ++m_pos;
        }
        if (m_pos >= m_text.size())
            fail(start, std::string("expected '") + close + "'");
        const std::string_view inner = m_text.substr(start, m_pos - start);
        ++m_pos;
        return inner;
    }

    std::size_t position() const { return m_pos; }
    void setPosition(std::size_t pos) { m_pos = pos; }
    int line() const { return m_line; }
    int column() const { return static_cast<int>(m_pos - m_lineStart) + 1; }
    std::string_view text() const { return m_text; }
    const std::string& file() const { return m_file; }

private:
    std::string describe(std::size_t at) const
    {
        if (at >= m_text.size())
            return "the end of the file";
        std::size_t end = at;
        while (end < m_text.size() && end - at < 24 && m_text[end] != '\n' && (isNameChar(m_text[end]) || end == at))
            ++end;
        return "'" + std::string(m_text.substr(at, end - at)) + "'";
    }

    std::string_view m_text;
    const std::string& m_file;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
};

/// Element type names as XLA prints them.
std::optional<DType> elementType(std::string_view name)
{
    if (auto t = dtypeFromString(name))
        return t;
    return std::nullopt;
}

void parseLayout(Cursor& in, Shape& shape)
{
    // {1,0}, {1,0:T(8,128)(2,1)S(1)}, {0,1:E(4)} ... : minor-to-major numbers, then ':' details.
    const std::string_view inner = in.balancedUntilClose('{', '}');
    std::size_t i = 0;
    while (i < inner.size() && inner[i] != ':') {
        if (isDigit(inner[i])) {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(inner.data() + i, inner.data() + inner.size(), v);
            (void)ec;
            shape.minorToMajor.push_back(v);
            i = static_cast<std::size_t>(end - inner.data());
        } else {
            ++i;
        }
    }
    const auto memory = inner.find("S(", i);
    if (memory != std::string_view::npos) {
        std::int64_t v = 0;
        std::from_chars(inner.data() + memory + 2, inner.data() + inner.size(), v);
        shape.memorySpace = v;
    }
}

Shape parseShape(Cursor& in)
{
    Shape shape;
    if (in.consume('(')) {
        shape.isTuple = true;
        if (!in.consume(')')) {
            do
                shape.tupleElements.push_back(parseShape(in));
            while (in.consume(','));
            in.expect(')', "to close a tuple shape");
        }
        return shape;
    }
    const std::size_t start = in.position();
    const std::string_view typeName = in.name("a shape (an element type such as f32[...] or a tuple)");
    const auto type = elementType(typeName);
    if (!type) {
        in.setPosition(start);
        in.fail("expected an element type (pred, s8..s64, u8..u64, f8e4m3fn, bf16, f16, f32, f64, c64, c128, "
                "token)");
    }
    shape.elementType = *type;
    if (*type == DType::Token) {
        if (in.peekRaw() == '[') {
            in.consume('[');
            in.expect(']', "after token[");
        }
        return shape;
    }
    if (in.peekRaw() != '[')
        in.fail("expected '[' and the dimensions of the shape");
    in.consume('[');
    if (!in.consume(']')) {
        do {
            bool dynamic = false;
            if (in.consume('?')) {
                shape.dims.push_back(0);
                dynamic = true;
            } else {
                if (in.peek() == '<') {
                    in.consume('<');
                    in.expect('=', "in a bounded dynamic dimension '<=N'");
                    dynamic = true;
                }
                const std::size_t at = in.position();
                const std::int64_t size = in.integer("a dimension size");
                if (size < 0) {
                    in.setPosition(at);
                    in.fail("a dimension size must not be negative");
                }
                shape.dims.push_back(size);
            }
            if (dynamic || !shape.dynamicDims.empty()) {
                shape.dynamicDims.resize(shape.dims.size(), false);
                shape.dynamicDims.back() = dynamic;
            }
        } while (in.consume(','));
        // Sizes feed byte and FLOP counts: an array of more than 2^48 elements (256 TiB of f8) is no
        // real tensor, and larger products would overflow 64-bit arithmetic downstream.
        constexpr std::int64_t kMaxElements = std::int64_t{1} << 48;
        std::int64_t elements = 1;
        for (std::int64_t size : shape.dims) {
            if (size > 0 && elements > kMaxElements / size)
                in.fail("the shape has more than 2^48 elements");
            elements *= size > 0 ? size : 1;
        }
        in.expect(']', "to close the dimensions");
    }
    if (in.peekRaw() == '{') {
        in.consume('{');
        parseLayout(in, shape);
    }
    return shape;
}

/// True when the cursor is at something that starts a shape (an element type name or a tuple).
bool atShape(Cursor& in)
{
    const char c = in.peek();
    if (c == '(')
        return true;
    const std::size_t start = in.position();
    std::size_t end = start;
    const std::string_view text = in.text();
    while (end < text.size() && isNameChar(text[end]))
        ++end;
    if (end == start || end >= text.size())
        return false;
    const std::string_view word = text.substr(start, end - start);
    return (text[end] == '[' || word == "token") && elementType(word).has_value();
}

std::string unescape(std::string_view quoted)
{
    std::string out;
    out.reserve(quoted.size());
    for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
        char c = quoted[i];
        if (c == '\\' && i + 2 < quoted.size()) {
            const char e = quoted[++i];
            switch (e) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            default:
                c = e;
                break;
            }
        }
        out.push_back(c);
    }
    return out;
}

/// Parses "{1,2,3}" or "{}" (or a bare "1") into integers.
std::vector<std::int64_t> parseIntList(std::string_view text)
{
    std::vector<std::int64_t> values;
    std::size_t i = 0;
    while (i < text.size()) {
        if (isDigit(text[i]) || (text[i] == '-' && i + 1 < text.size() && isDigit(text[i + 1]))) {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
            if (ec != std::errc())
                throw std::invalid_argument("number out of range in '" + std::string(text) + "'");
            values.push_back(v);
            i = static_cast<std::size_t>(end - text.data());
        } else if (text[i] == '{' || text[i] == '}' || text[i] == ',' || text[i] == ' ') {
            ++i;
        } else {
            throw std::invalid_argument("expected a list of integers like {0,1}, got '" + std::string(text) + "'");
        }
    }
    return values;
}

/// Parses "{{0,1},{2,3}}" into nested lists.
std::vector<std::vector<std::int64_t>> parseNestedIntLists(std::string_view text)
{
    std::vector<std::vector<std::int64_t>> lists;
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ')
        ++i;
    if (i >= text.size() || text[i] != '{')
        throw std::invalid_argument("expected a list of lists like {{0,1},{2,3}}");
    ++i;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '{') {
            const auto close = text.find('}', i);
            if (close == std::string_view::npos)
                throw std::invalid_argument("unclosed '{' in '" + std::string(text) + "'");
            lists.push_back(parseIntList(text.substr(i + 1, close - i - 1)));
            i = close + 1;
        } else if (c == '}') {
            if (text.find_first_not_of(' ', i + 1) != std::string_view::npos)
                throw std::invalid_argument("unexpected text after '}' in '" + std::string(text) + "'");
            return lists;
        } else if (c == ',' || c == ' ') {
            ++i;
        } else {
            throw std::invalid_argument("expected a list of lists like {{0,1},{2,3}}, got '" + std::string(text) + "'");
        }
    }
    throw std::invalid_argument("unclosed '{' in '" + std::string(text) + "'");
}

/// The positions 0..N-1 of an array of `dims` (major to minor), read in the order of the array
/// transposed by `perm` and cut into groups of `groupSize` (which divides N): the replica groups of
/// an iota tile assignment, and of a mesh's devices grouped over some of its axes.
std::vector<std::vector<std::int64_t>> transposedGroups(const std::vector<std::int64_t>& dims,
                                                        const std::vector<std::int64_t>& perm, std::int64_t groupSize)
{
    const std::size_t rank = dims.size();
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t d = rank; d-- > 1;)
        strides[d - 1] = strides[d] * dims[d];
    const std::int64_t total = rank == 0 ? 1 : strides[0] * dims[0];
    std::vector<std::vector<std::int64_t>> groups(static_cast<std::size_t>(total / groupSize));
    std::vector<std::int64_t> index(rank, 0); // the transposed array's index
    for (std::int64_t n = 0; n < total; ++n) {
        std::int64_t position = 0;
        for (std::size_t d = 0; d < rank; ++d)
            position += index[d] * strides[static_cast<std::size_t>(perm[d])];
        groups[static_cast<std::size_t>(n / groupSize)].push_back(position);
        for (std::size_t d = rank; d-- > 0;) {
            if (++index[d] < dims[static_cast<std::size_t>(perm[d])])
                break;
            index[d] = 0;
        }
    }
    return groups;
}

/// `[G,S]<=[d0,d1,...]` optionally followed by `T(p0,p1,...)`: iota over dims, transposed by the
/// permutation, reshaped into G groups of S devices (XLA's IotaReplicaGroupList).
std::vector<std::vector<std::int64_t>> parseIotaGroups(std::string_view text)
{
    const auto arrow = text.find("<=");
    const auto parseBracket = [&text](std::string_view part) {
        const auto open = part.find('[');
        const auto close = part.find(']');
        if (open == std::string_view::npos || close == std::string_view::npos || close < open)
            throw std::invalid_argument("expected [...] in iota replica groups '" + std::string(text) + "'");
        return parseIntList(part.substr(open + 1, close - open - 1));
    };
    const std::vector<std::int64_t> groupShape = parseBracket(text.substr(0, arrow));
    std::string_view rest = text.substr(arrow + 2);
    const std::vector<std::int64_t> reshape = parseBracket(rest);
    std::vector<std::int64_t> perm(reshape.size());
    std::iota(perm.begin(), perm.end(), 0);
    if (const auto t = rest.find("T("); t != std::string_view::npos) {
        const auto close = rest.find(')', t);
        perm = parseIntList(rest.substr(t + 2, close - t - 2));
    }
    if (groupShape.size() != 2)
        throw std::invalid_argument("iota replica groups need a [groups,size] shape");
    if (perm.size() != reshape.size())
        throw std::invalid_argument("iota replica groups: the transpose does not match the reshape dimensions");
    std::int64_t total = 1;
    for (auto d : reshape) {
        if (d <= 0)
            throw std::invalid_argument("iota replica groups: dimension sizes must be positive");
        total *= d;
    }
    if (groupShape[0] * groupShape[1] != total)
        throw std::invalid_argument("iota replica groups: " + std::to_string(groupShape[0]) + "x" +
                                    std::to_string(groupShape[1]) + " groups do not hold " + std::to_string(total) +
                                    " devices");
    std::vector<bool> seen(perm.size(), false);
    for (auto p : perm) {
        if (p < 0 || static_cast<std::size_t>(p) >= perm.size() || seen[static_cast<std::size_t>(p)])
            throw std::invalid_argument("iota replica groups: T(...) is not a permutation");
        seen[static_cast<std::size_t>(p)] = true;
    }
    return transposedGroups(reshape, perm, groupShape[1]);
}

/// XLA's replica groups over named mesh axes (MeshAxesReplicaGroupList, in recent releases):
/// `mesh['x'=2,'y'=4] {'y'}`, optionally `mesh[...], device_ids=(...)` for a mesh whose devices are
/// not in iota order, and sub-axes `'y':(2)2` (the part of size 2 after the first 2 of axis y). The
/// devices, laid out on the mesh (major to minor), are split into the listed axes and the others;
/// each combination of the others is one group, its members in the order of the listed axes.
std::vector<std::vector<std::int64_t>> parseMeshAxesGroups(std::string_view text)
{
    const auto bad = [&text](const std::string& why) {
        return std::invalid_argument(why + " in mesh replica groups '" + std::string(text) + "'");
    };
    const auto unquote = [](std::string_view name) {
        while (!name.empty() && (name.front() == ' ' || name.front() == '\'' || name.front() == '"'))
            name.remove_prefix(1);
        while (!name.empty() && (name.back() == ' ' || name.back() == '\'' || name.back() == '"'))
            name.remove_suffix(1);
        return name;
    };
    const auto close = text.find(']');
    if (close == std::string_view::npos)
        throw bad("expected ']' after the mesh axes");
    // The mesh: name=size, ...
    std::vector<std::string_view> names;
    std::vector<std::int64_t> sizes;
    for (std::string_view rest = text.substr(5, close - 5); !rest.empty();) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const auto eq = item.rfind('=');
        if (eq == std::string_view::npos)
            throw bad("expected name=size for a mesh axis");
        names.push_back(unquote(item.substr(0, eq)));
        const std::vector<std::int64_t> size = parseIntList(item.substr(eq + 1));
        if (size.size() != 1 || size[0] < 1)
            throw bad("expected a positive axis size");
        sizes.push_back(size[0]);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    std::int64_t devices = 1;
    for (std::int64_t size : sizes) {
        if (devices > (std::int64_t{1} << 24) / size)
            throw bad("too many devices");
        devices *= size;
    }
    std::vector<std::int64_t> deviceIds(static_cast<std::size_t>(devices));
    std::iota(deviceIds.begin(), deviceIds.end(), std::int64_t{0});
    std::string_view tail = text.substr(close + 1);
    if (const auto ids = tail.find("device_ids="); ids != std::string_view::npos) {
        const auto open = tail.find('(', ids);
        const auto end = tail.find(')', ids);
        if (open == std::string_view::npos || end == std::string_view::npos || end < open)
            throw bad("expected device_ids=(...)");
        std::string digits(tail.substr(open + 1, end - open - 1));
        for (char& c : digits)
            if (c == '[' || c == ']')
                c = ' ';
        deviceIds = parseIntList(digits);
        if (deviceIds.size() != static_cast<std::size_t>(devices))
            throw bad("device_ids do not hold one id per mesh position");
        tail = tail.substr(end + 1);
    }
    // The grouped axes: name or name:(pre)size, in order.
    const auto open = tail.find('{');
    const auto shut = tail.rfind('}');
    if (open == std::string_view::npos || shut == std::string_view::npos || shut < open)
        throw bad("expected {axes} after the mesh");
    struct Part {
        std::size_t axis;
        std::int64_t pre, size;
    };
    std::vector<Part> parts;
    for (std::string_view rest = tail.substr(open + 1, shut - open - 1); !rest.empty();) {
        const auto comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        std::int64_t pre = 1, size = 0;
        if (const auto colon = item.find(':'); colon != std::string_view::npos) {
            const auto paren = item.find(')', colon);
            if (item.substr(colon + 1, 1) != "(" || paren == std::string_view::npos)
                throw bad("expected name:(pre)size for a sub-axis");
            const std::vector<std::int64_t> p = parseIntList(item.substr(colon + 2, paren - colon - 2));
            const std::vector<std::int64_t> n = parseIntList(item.substr(paren + 1));
            if (p.size() != 1 || n.size() != 1 || p[0] < 1 || n[0] < 1)
                throw bad("expected name:(pre)size for a sub-axis");
            pre = p[0];
            size = n[0];
            item = item.substr(0, colon);
        }
        const auto found = std::find(names.begin(), names.end(), unquote(item));
        if (found == names.end())
            throw bad("axis '" + std::string(unquote(item)) + "' is not in the mesh");
        const auto axis = static_cast<std::size_t>(found - names.begin());
        if (size == 0)
            size = sizes[axis];
        if (sizes[axis] % (pre * size) != 0)
            throw bad("sub-axis (" + std::to_string(pre) + ")" + std::to_string(size) + " does not divide axis '" +
                      std::string(names[axis]) + "'");
        parts.push_back({axis, pre, size});
    }
    if (parts.empty())
        throw bad("expected at least one axis");
    // Split every mesh axis into the pieces the parts name (and the pieces between them), major to
    // minor: a mesh position is then a coordinate per piece.
    struct Piece {
        std::int64_t size;
        int part; ///< index into parts, or -1
    };
    std::vector<Piece> pieces;
    for (std::size_t axis = 0; axis < sizes.size(); ++axis) {
        std::vector<std::pair<std::int64_t, int>> mine; // (pre, part)
        for (std::size_t k = 0; k < parts.size(); ++k)
            if (parts[k].axis == axis)
                mine.emplace_back(parts[k].pre, static_cast<int>(k));
        std::sort(mine.begin(), mine.end());
        std::int64_t covered = 1;
        for (const auto& [pre, k] : mine) {
            if (pre % covered != 0)
                throw bad("overlapping sub-axes");
            if (pre > covered)
                pieces.push_back({pre / covered, -1});
            pieces.push_back({parts[static_cast<std::size_t>(k)].size, k});
            covered = pre * parts[static_cast<std::size_t>(k)].size;
        }
        if (covered < sizes[axis])
            pieces.push_back({sizes[axis] / covered, -1});
    }
    // Groups: every combination of the unnamed pieces (major to minor), its members every
    // combination of the named ones in the order the axes are listed.
    std::vector<std::size_t> outer, inner(parts.size());
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].part < 0)
            outer.push_back(i);
        else
            inner[static_cast<std::size_t>(pieces[i].part)] = i;
    }
    std::vector<std::int64_t> dims, order(outer.begin(), outer.end());
    order.insert(order.end(), inner.begin(), inner.end());
    std::int64_t groupSize = 1;
    for (const Piece& piece : pieces)
        dims.push_back(piece.size);
    for (std::size_t i : inner)
        groupSize *= pieces[i].size;
    std::vector<std::vector<std::int64_t>> groups = transposedGroups(dims, order, groupSize);
    for (auto& group : groups)
        for (std::int64_t& member : group)
            member = deviceIds[static_cast<std::size_t>(member)]; // mesh position -> device
    return groups;
}

/// Splits "{%a, %b}" or "%a" into names.
std::vector<std::string_view> parseNameList(std::string_view text)
{
    std::vector<std::string_view> names;
    std::size_t i = 0;
    while (i < text.size()) {
        if (isNameChar(text[i])) {
            const std::size_t start = i;
            while (i < text.size() && isNameChar(text[i]))
                ++i;
            names.push_back(text.substr(start, i - start));
        } else {
            ++i;
        }
    }
    return names;
}

/// metadata={op_type="add" op_name="..." source_file="..." source_line=38 ...}
Metadata parseMetadata(std::string_view text)
{
    Metadata metadata;
    std::size_t i = text.find('{');
    i = i == std::string_view::npos ? 0 : i + 1;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ','))
            ++i;
        const std::size_t keyStart = i;
        while (i < text.size() && text[i] != '=' && text[i] != '}' && text[i] != ' ')
            ++i;
        if (i >= text.size() || text[i] != '=')
            break;
        const std::string_view key = text.substr(keyStart, i - keyStart);
        ++i;
        std::string value;
        if (i < text.size() && text[i] == '"') {
            const std::size_t start = i++;
            while (i < text.size() && text[i] != '"') {
                if (text[i] == '\\')
                    ++i;
                ++i;
            }
            value = unescape(text.substr(start, i + 1 - start));
            ++i;
        } else {
            const std::size_t start = i;
            while (i < text.size() && text[i] != ' ' && text[i] != '}')
                ++i;
            value = std::string(text.substr(start, i - start));
        }
        if (key == "op_type")
            metadata.opType = std::move(value);
        else if (key == "op_name")
            metadata.opName = std::move(value);
        else if (key == "source_file")
            metadata.sourceFile = std::move(value);
        else if (key == "source_line")
            std::from_chars(value.data(), value.data() + value.size(), metadata.sourceLine);
    }
    return metadata;
}

/// window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1}
std::vector<WindowDimension> parseWindow(std::string_view text)
{
    std::vector<WindowDimension> window;
    const auto field = [&text](std::string_view key) -> std::string_view {
        std::size_t at = 0;
        while ((at = text.find(key, at)) != std::string_view::npos) {
            if ((at == 0 || text[at - 1] == '{' || text[at - 1] == ' ') && at + key.size() < text.size() &&
                text[at + key.size()] == '=')
                break;
            ++at;
        }
        if (at == std::string_view::npos)
            return {};
        const std::size_t start = at + key.size() + 1;
        std::size_t end = start;
        while (end < text.size() && text[end] != ' ' && text[end] != '}')
            ++end;
        return text.substr(start, end - start);
    };
    const auto splitX = [](std::string_view value) {
        std::vector<std::string_view> parts;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= value.size(); ++i)
            if (i == value.size() || value[i] == 'x') {
                parts.push_back(value.substr(start, i - start));
                start = i + 1;
            }
        return parts;
    };
    const auto toInt = [](std::string_view v) {
        std::int64_t n = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc())
            throw std::invalid_argument("expected a number in window, got '" + std::string(v) + "'");
        (void)end;
        return n;
    };
    const std::string_view size = field("size");
    if (size.empty())
        return window;
    const auto sizes = splitX(size);
    window.resize(sizes.size());
    for (std::size_t d = 0; d < sizes.size(); ++d)
        window[d].size = toInt(sizes[d]);
    const auto fill = [&](std::string_view key, auto setter) {
        const std::string_view value = field(key);
        if (value.empty())
            return;
        const auto parts = splitX(value);
        if (parts.size() != window.size())
            throw std::invalid_argument("window " + std::string(key) + " has " + std::to_string(parts.size()) +
                                        " dimensions, size has " + std::to_string(window.size()));
        for (std::size_t d = 0; d < parts.size(); ++d)
            setter(window[d], parts[d]);
    };
    fill("stride", [&](WindowDimension& w, std::string_view v) { w.stride = toInt(v); });
    fill("lhs_dilate", [&](WindowDimension& w, std::string_view v) { w.lhsDilation = toInt(v); });
    fill("rhs_dilate", [&](WindowDimension& w, std::string_view v) { w.rhsDilation = toInt(v); });
    fill("pad", [&](WindowDimension& w, std::string_view v) {
        const auto underscore = v.find('_');
        if (underscore == std::string_view::npos)
            throw std::invalid_argument("window pad expects low_high, got '" + std::string(v) + "'");
        w.paddingLow = toInt(v.substr(0, underscore));
        w.paddingHigh = toInt(v.substr(underscore + 1));
    });
    return window;
}

struct PendingCall {
    std::uint32_t computation;
    std::uint32_t instruction;
    enum class Slot { ToApply, Condition, Body, Calls, Branches } slot;
    std::string_view name;
    std::size_t position;
};

class Parser {
public:
    Parser(std::string_view text, const std::string& file)
        : m_in(text, file)
    {}

    Module parse()
    {
        m_module.file = m_in.file();
        if (!m_in.consumeWord("HloModule"))
            m_in.fail("expected 'HloModule' at the start of an HLO module");
        m_module.name = std::string(m_in.name("the module name"));
        while (m_in.consume(',')) {
            const std::string key(m_in.name("a module attribute name"));
            m_in.expect('=', "after a module attribute name");
            const std::size_t at = m_in.position();
            const std::string value(m_in.rawValue());
            if (key == "replica_count" || key == "num_partitions") {
                std::int64_t n = 0;
                const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
                if (ec != std::errc() || end != value.data() + value.size() || n < 1)
                    m_in.fail(at, "expected a positive " + key);
                (key == "replica_count" ? m_module.replicaCount : m_module.numPartitions) = n;
                (key == "replica_count" ? m_module.hasReplicaCount : m_module.hasNumPartitions) = true;
            }
            m_module.attributes.emplace_back(key, value);
        }
        skipStackFrameIndex();
        bool haveEntry = false;
        while (!m_in.atEnd()) {
            const std::size_t start = m_in.position();
            parseComputation();
            if (m_module.computations.back().isEntry) {
                if (haveEntry)
                    m_in.fail(start, "expected one ENTRY computation, this is a second one");
                haveEntry = true;
                m_module.entry = static_cast<std::uint32_t>(m_module.computations.size() - 1);
            }
        }
        if (m_module.computations.empty())
            m_in.fail("expected at least one computation");
        if (!haveEntry) {
            m_module.entry = static_cast<std::uint32_t>(m_module.computations.size() - 1);
            m_module.computations.back().isEntry = true;
        }
        resolveCalls();
        return std::move(m_module);
    }

private:
    /// Recent XLA printers write the module's stack-frame index between the header and the
    /// computations: sections `FileNames`, `FunctionNames`, `FileLocations` and `StackFrames` of
    /// numbered entries (`1 "file.py"`, `1 {file_name_id=1 function_name_id=1 line=198 ...}`), which
    /// instructions cite as `metadata={... stack_frame_id=9}`. They name source lines only: read past.
    void skipStackFrameIndex()
    {
        while (m_in.consumeWord("FileNames") || m_in.consumeWord("FunctionNames") ||
               m_in.consumeWord("FileLocations") || m_in.consumeWord("StackFrames")) {
            while (isDigit(m_in.peek())) {
                m_in.integer("a stack-frame index entry number");
                const char next = m_in.peek();
                if (next != '"' && next != '{')
                    m_in.fail("expected a \"name\" or {...} after the entry number");
                m_in.rawValue();
            }
        }
    }

    void parseComputation()
    {
        Computation computation;
        computation.line = m_in.line();
        computation.isEntry = m_in.consumeWord("ENTRY");
        computation.name = std::string(m_in.name("a computation name"));
        if (m_in.peek() == '(') {
            // Signature: (p: f32[], ...) -> shape. Parameters are instructions inside; skip it.
            m_in.consume('(');
            m_in.balancedUntilClose('(', ')');
        }
        if (m_in.consume('-')) {
            m_in.expect('>', "in '->' before the result shape");
            parseShape(m_in);
        }
        // Newer printers put attributes such as execution_thread="..." before the body.
        while (m_in.peek() != '{' && !m_in.atEnd()) {
            m_in.name("'{' to open the computation body");
            if (m_in.consume('='))
                m_in.rawValue();
            m_in.consume(',');
        }
        m_in.expect('{', "to open the computation body");
        const auto computationIndex = static_cast<std::uint32_t>(m_module.computations.size());
        std::unordered_map<std::string_view, std::uint32_t> byName;
        std::vector<std::pair<std::uint32_t, std::vector<std::pair<std::string_view, std::size_t>>>> operandNames;
        std::vector<std::pair<std::uint32_t, std::vector<std::pair<std::string_view, std::size_t>>>> predecessorNames;
        bool haveRoot = false;
        while (!m_in.consume('}')) {
            if (m_in.atEnd())
                m_in.fail("expected '}' to close computation " + computation.name);
            Instruction instruction;
            instruction.isRoot = m_in.consumeWord("ROOT");
            m_in.skipSpace();
            instruction.line = m_in.line();
            instruction.column = m_in.column();
            const std::size_t namePosition = m_in.position();
            const std::string_view name = m_in.name("an instruction name");
            instruction.name = std::string(name);
            m_in.expect('=', "after the instruction name");
            instruction.shape = parseShape(m_in);
            instruction.opcode = std::string(m_in.name("an opcode"));
            const auto index = static_cast<std::uint32_t>(computation.instructions.size());
            m_in.expect('(', "to open the operand list");
            auto names = parseOperands(instruction);
            if (!names.empty())
                operandNames.emplace_back(index, std::move(names));
            std::vector<std::pair<std::string_view, std::size_t>> predecessors;
            while (m_in.consume(',')) {
                m_in.skipSpace();
                const std::size_t keyPosition = m_in.position();
                const std::string_view key = m_in.name("an attribute name");
                m_in.expect('=', "after the attribute name");
                const std::size_t valuePosition = m_in.position();
                const std::string_view value = m_in.rawValue();
                try {
                    applyAttribute(instruction, key, value, computationIndex, index, valuePosition, predecessors);
                } catch (const std::invalid_argument& e) {
                    m_in.fail(valuePosition, "bad " + std::string(key) + " (" + e.what() + ")");
                }
                (void)keyPosition;
                if (key != "metadata" && key != "backend_config" && key != "replica_groups" &&
                    key != "source_target_pairs")
                    instruction.attributes.emplace_back(std::string(key), std::string(value));
            }
            if (!predecessors.empty())
                predecessorNames.emplace_back(index, std::move(predecessors));
            if (!byName.emplace(name, index).second)
                m_in.fail(namePosition,
                          "expected a new instruction name, '" + std::string(name) + "' is defined twice");
            if (instruction.isRoot) {
                if (haveRoot)
                    m_in.fail(namePosition, "expected one ROOT instruction per computation");
                haveRoot = true;
                computation.root = index;
            }
            if (instruction.opcode == "parameter") {
                if (!instruction.parameterNumber)
                    m_in.fail(namePosition, "expected parameter(N)");
                const auto number = static_cast<std::size_t>(*instruction.parameterNumber);
                if (number >= 100000)
                    m_in.fail(namePosition, "expected a parameter number below 100000");
                if (computation.parameters.size() <= number)
                    computation.parameters.resize(number + 1, UINT32_MAX);
                computation.parameters[number] = index;
            }
            computation.instructions.push_back(std::move(instruction));
        }
        // Attributes after the body: `}, execution_thread="name"` for non-main threads.
        while (m_in.peek() == ',') {
            m_in.consume(',');
            m_in.name("a computation attribute");
            m_in.expect('=', "after a computation attribute name");
            m_in.rawValue();
        }
        if (computation.instructions.empty())
            m_in.fail("expected instructions in computation " + computation.name);
        if (!haveRoot)
            computation.root = static_cast<std::uint32_t>(computation.instructions.size() - 1);
        const auto resolve = [&](std::string_view name, std::size_t position) {
            const auto it = byName.find(name);
            if (it == byName.end())
                m_in.fail(position, "expected an instruction of computation " + computation.name + ", '" +
                                        std::string(name) + "' is not defined there");
            return it->second;
        };
        for (auto& [index, names] : operandNames) {
            Instruction& instruction = computation.instructions[index];
            // Elementwise operands have the result's dimensions (broadcasts are explicit in HLO): a
            // file that says otherwise is not what a compiler wrote, and its costs would be the
            // result's, silently.
            const bool sameDimensions = instruction.shape.isArray() && sameDimensionsOpcode(instruction.opcode);
            for (const auto& [name, position] : names) {
                instruction.operands.push_back(resolve(name, position));
                const Shape& operand = computation.instructions[instruction.operands.back()].shape;
                if (sameDimensions && operand.isArray() && operand.dims != instruction.shape.dims)
                    m_in.fail(position, "expected an operand of " + instruction.opcode +
                                            " with the dimensions of its result " + instruction.shape.toString() +
                                            ", '" + std::string(name) + "' is " + operand.toString());
            }
        }
        for (auto& [index, names] : predecessorNames)
            for (const auto& [name, position] : names)
                computation.instructions[index].controlPredecessors.push_back(resolve(name, position));
        m_module.computations.push_back(std::move(computation));
    }

    /// Operands up to the closing ')'. Returns operand names with their positions (resolved later).
    std::vector<std::pair<std::string_view, std::size_t>> parseOperands(Instruction& instruction)
    {
        std::vector<std::pair<std::string_view, std::size_t>> names;
        const std::string& opcode = instruction.opcode;
        if (opcode == "constant") {
            // A literal, not operands. Keep short ones (scalars) for trip-count analysis.
            const std::string_view literal = m_in.balancedUntilClose('(', ')');
            if (literal.size() <= 64)
                instruction.literal = std::string(literal);
            return names;
        }
        if (opcode == "parameter") {
            instruction.parameterNumber = m_in.integer("a parameter number");
            m_in.expect(')', "after the parameter number");
            return names;
        }
        if (m_in.consume(')'))
            return names;
        do {
            if (atShape(m_in))
                parseShape(m_in);
            m_in.skipSpace();
            const std::size_t position = m_in.position();
            names.emplace_back(m_in.name("an operand name"), position);
        } while (m_in.consume(','));
        m_in.expect(')', "to close the operand list");
        return names;
    }

    void applyAttribute(Instruction& instruction, std::string_view key, std::string_view value,
                        std::uint32_t computation, std::uint32_t index, std::size_t position,
                        std::vector<std::pair<std::string_view, std::size_t>>& predecessors)
    {
        using Slot = PendingCall::Slot;
        // `index=1`, `channel_id=3`, ...: exactly one integer.
        const auto single = [&value] {
            const std::vector<std::int64_t> values = parseIntList(value);
            if (values.size() != 1)
                throw std::invalid_argument("expected one integer, found " + std::to_string(values.size()));
            return values.front();
        };
        const auto call = [&](Slot slot) {
            for (std::string_view name : parseNameList(value))
                m_pending.push_back({computation, index, slot, name, position});
        };
        if (key == "index") {
            instruction.tupleIndex = single();
        } else if (key == "dimensions") {
            instruction.dimensions = parseIntList(value);
        } else if (key == "channel_id") {
            instruction.channelId = single();
        } else if (key == "use_global_device_ids") {
            instruction.useGlobalDeviceIds = value == "true";
        } else if (key == "replica_groups") {
            auto& shared = m_replicaGroups[value];
            if (!shared)
                shared = std::make_shared<const ReplicaGroupList>(parseReplicaGroups(value));
            instruction.replicaGroups = shared;
        } else if (key == "source_target_pairs") {
            for (const auto& pair : parseNestedIntLists(value)) {
                if (pair.size() != 2)
                    throw std::invalid_argument("each source-target pair needs two ids");
                instruction.sourceTargetPairs.emplace_back(pair[0], pair[1]);
            }
        } else if (key == "to_apply") {
            call(Slot::ToApply);
        } else if (key == "condition") {
            call(Slot::Condition);
        } else if (key == "body") {
            call(Slot::Body);
        } else if (key == "calls") {
            call(Slot::Calls);
        } else if (key == "branch_computations" || key == "true_computation" || key == "false_computation") {
            call(Slot::Branches);
        } else if (key == "lhs_batch_dims") {
            instruction.dot.lhsBatch = parseIntList(value);
        } else if (key == "lhs_contracting_dims") {
            instruction.dot.lhsContracting = parseIntList(value);
        } else if (key == "rhs_batch_dims") {
            instruction.dot.rhsBatch = parseIntList(value);
        } else if (key == "rhs_contracting_dims") {
            instruction.dot.rhsContracting = parseIntList(value);
        } else if (key == "window") {
            instruction.window = parseWindow(value);
        } else if (key == "dim_labels") {
            instruction.dimLabels = std::string(value);
        } else if (key == "feature_group_count") {
            instruction.featureGroupCount = single();
        } else if (key == "batch_group_count") {
            instruction.batchGroupCount = single();
        } else if (key == "custom_call_target") {
            instruction.customCallTarget = value.starts_with('"') ? unescape(value) : std::string(value);
        } else if (key == "kind") {
            instruction.fusionKind = std::string(value);
        } else if (key == "backend_config") {
            instruction.backendConfig = value.starts_with('"') ? unescape(value) : std::string(value);
        } else if (key == "metadata") {
            instruction.metadata = parseMetadata(value);
        } else if (key == "control-predecessors") {
            const auto names = parseNameList(value);
            for (std::string_view name : names)
                predecessors.emplace_back(name, position);
        }
    }

    void resolveCalls()
    {
        std::unordered_map<std::string_view, std::uint32_t> byName;
        for (std::uint32_t c = 0; c < m_module.computations.size(); ++c)
            byName.emplace(m_module.computations[c].name, c);
        for (const PendingCall& call : m_pending) {
            const auto it = byName.find(call.name);
            if (it == byName.end())
                m_in.fail(call.position,
                          "expected the name of a computation, '" + std::string(call.name) + "' is not one");
            Instruction& instruction = m_module.computations[call.computation].instructions[call.instruction];
            switch (call.slot) {
            case PendingCall::Slot::ToApply:
                instruction.toApply = it->second;
                break;
            case PendingCall::Slot::Condition:
                instruction.condition = it->second;
                break;
            case PendingCall::Slot::Body:
                instruction.body = it->second;
                break;
            case PendingCall::Slot::Calls:
                instruction.calls.push_back(it->second);
                break;
            case PendingCall::Slot::Branches:
                instruction.branchComputations.push_back(it->second);
                break;
            }
        }
    }

    Cursor m_in;
    Module m_module;
    std::vector<PendingCall> m_pending;
    std::unordered_map<std::string_view, std::shared_ptr<const ReplicaGroupList>> m_replicaGroups;
};

} // namespace

std::vector<std::vector<std::int64_t>> parseReplicaGroups(std::string_view text)
{
    if (text.starts_with("mesh["))
        return parseMeshAxesGroups(text);
    if (text.find("<=") != std::string_view::npos)
        return parseIotaGroups(text);
    return parseNestedIntLists(text);
}

Module parseHlo(std::string_view text, const std::string& file)
{

    checkNesting(text, file); // the shape and literal parsers recurse
    return Parser(text, file).parse();
}

Module readHloFile(const std::string& path)
{
    const FileContents contents(path);
    // XLA dumps are large and compress well: `--xla_dump_to` users keep them as .gz.
    if (isGzip(contents.bytes()))
        return parseHlo(gunzip(contents.bytes(), path), path);
    return parseHlo(contents.bytes(), path);
}

bool looksLikeHlo(std::string_view text)
{
    const auto start = text.find_first_not_of(" \t\r\n");
    return start != std::string_view::npos && text.substr(start, 9) == "HloModule";
}

} // namespace flint::core::hlo
