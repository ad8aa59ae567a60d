// SPDX-License-Identifier: MIT
#include "core/estimator/topology.h"

#include "core/error.h"
#include "core/fileio.h"
#include "core/types.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

namespace flint::core {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::string_view unquote(std::string_view s)
{
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
        return s.substr(1, s.size() - 2);
    return s;
}

/// Strips a comment that starts with '#' outside quotes.
std::string_view stripComment(std::string_view line)
{
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#') {
            return line.substr(0, i);
        }
    }
    return line;
}

struct YamlValue {
    int line = 0;
    std::vector<std::string> items; ///< a list's items, or one item for a scalar
    bool isList = false;
};

std::string formatNumber(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    // Prefer the shortest text that reads back exactly.
    for (int precision = 1; precision <= 17; ++precision) {
        char candidate[64];
        std::snprintf(candidate, sizeof candidate, "%.*g", precision, value);
        if (std::strtod(candidate, nullptr) == value) {
            std::string text = candidate;
            if (text.find_first_of(".eE") == std::string::npos)
                text += ".0";
            return text;
        }
    }
    return buffer;
}

} // namespace

std::string_view displayName(TopologyKind kind)
{
    switch (kind) {
    case TopologyKind::Ring:
        return "Ring";
    case TopologyKind::Switch:
        return "Switch";
    case TopologyKind::FullyConnected:
        return "FullyConnected";
    }
    return "?";
}

std::optional<TopologyKind> topologyKindFromName(std::string_view name)
{
    const std::string key = nameKey(name, "-_");
    if (key == "ring")
        return TopologyKind::Ring;
    if (key == "switch")
        return TopologyKind::Switch;
    if (key == "fullyconnected")
        return TopologyKind::FullyConnected;
    return std::nullopt;
}

std::int32_t TopologyDim::hops(std::int32_t a, std::int32_t b) const
{
    if (a == b)
        return 0;
    switch (kind) {
    case TopologyKind::Ring: {
        const std::int32_t d = std::abs(a - b);
        return std::min(d, npus - d);
    }
    case TopologyKind::Switch:
        return 2;
    case TopologyKind::FullyConnected:
        return 1;
    }
    return 1;
}

std::int32_t TopologyDim::maxHops() const
{
    if (npus <= 1)
        return 0;
    switch (kind) {
    case TopologyKind::Ring:
        return npus / 2;
    case TopologyKind::Switch:
        return 2;
    case TopologyKind::FullyConnected:
        return 1;
    }
    return 1;
}

std::int64_t Topology::npuCount() const
{
    std::int64_t n = 1;
    for (const TopologyDim& d : dims)
        n *= d.npus;
    return dims.empty() ? 0 : n;
}

std::int64_t Topology::stride(std::size_t dim) const
{
    std::int64_t s = 1;
    for (std::size_t d = 0; d < dim && d < dims.size(); ++d)
        s *= dims[d].npus;
    return s;
}

std::int32_t Topology::coordinate(std::int64_t rank, std::size_t dim) const
{
    return static_cast<std::int32_t>((rank / stride(dim)) % dims[dim].npus);
}

std::vector<std::int32_t> Topology::coordinates(std::int64_t rank) const
{
    std::vector<std::int32_t> out(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        out[d] = static_cast<std::int32_t>(rank % dims[d].npus);
        rank /= dims[d].npus;
    }
    return out;
}

int Topology::firstDifferingDim(std::int64_t a, std::int64_t b) const
{
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (a % dims[d].npus != b % dims[d].npus)
            return static_cast<int>(d);
        a /= dims[d].npus;
        b /= dims[d].npus;
    }
    return -1;
}

std::string Topology::validate() const
{
    if (dims.empty())
        return "the topology has no dimension";
    for (std::size_t d = 0; d < dims.size(); ++d) {
        const TopologyDim& dim = dims[d];
        const std::string where = "dimension " + std::to_string(d) + ": ";
        if (dim.npus < 1)
            return where + "npus_count must be at least 1";
        if (!(dim.bandwidthGBps > 0) || !std::isfinite(dim.bandwidthGBps))
            return where + "bandwidth must be a positive number of GB/s";
        if (!(dim.latencyNs >= 0) || !std::isfinite(dim.latencyNs))
            return where + "latency must be a non-negative number of ns";
    }
    if (npuCount() > (std::int64_t{1} << 31))
        return "the topology has more than 2^31 NPUs";
    return {};
}

std::string Topology::describe() const
{
    std::string out;
    for (const TopologyDim& d : dims) {
        if (!out.empty())
            out += " x ";
        char buffer[160];
        // Decimal GB/s, as the command line's options and the explorer take bandwidth (the network
        // unit, GiB/s, is ASTRA-sim's YAML convention).
        std::snprintf(buffer, sizeof buffer, "%s(%d, %.4g GB/s, %g ns)", std::string(displayName(d.kind)).c_str(),
                      d.npus, d.decimalGBps(), d.latencyNs);
        out += buffer;
    }
    return out;
}

Topology parseNetworkYaml(std::string_view text, const std::string& file)
{
    std::map<std::string, YamlValue> values;
    std::string openList; // key of a block list being read ("key:" followed by "- item" lines)
    int lineNumber = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const std::string_view content = trim(stripComment(line));
        if (content.empty() || content == "---" || content == "...") {
            if (end == text.size())
                break;
            continue;
        }
        if (content.front() == '-') {
            if (openList.empty())
                throw InputError(file, std::nullopt, lineNumber, "a list item outside a list");
            values[openList].items.emplace_back(unquote(trim(content.substr(1))));
            continue;
        }
        const std::size_t colon = content.find(':');
        if (colon == std::string_view::npos)
            throw InputError(file, std::nullopt, lineNumber, "expected 'key: value'");
        const std::string key(trim(content.substr(0, colon)));
        const std::string_view value = trim(content.substr(colon + 1));
        if (key.empty())
            throw InputError(file, std::nullopt, lineNumber, "empty key");
        if (values.count(key))
            throw InputError(file, std::nullopt, lineNumber, "'" + key + "' given twice");
        YamlValue& entry = values[key];
        entry.line = lineNumber;
        openList.clear();
        if (value.empty()) {
            entry.isList = true;
            openList = key;
        } else if (value.front() == '[') {
            entry.isList = true;
            if (value.back() != ']')
                throw InputError(file, std::nullopt, lineNumber,
                                 "unterminated list (flow lists must end on their line)");
            std::string_view inner = trim(value.substr(1, value.size() - 2));
            while (!inner.empty()) {
                const std::size_t comma = inner.find(',');
                const std::string_view item = trim(inner.substr(0, comma));
                if (item.empty())
                    throw InputError(file, std::nullopt, lineNumber, "empty list item");
                entry.items.emplace_back(unquote(item));
                if (comma == std::string_view::npos)
                    break;
                inner = trim(inner.substr(comma + 1));
                if (inner.empty())
                    throw InputError(file, std::nullopt, lineNumber, "empty list item");
            }
        } else {
            entry.items.emplace_back(unquote(value));
        }
        if (end == text.size())
            break;
    }

    const auto require = [&](const char* key) -> const YamlValue& {
        const auto it = values.find(key);
        if (it == values.end())
            throw InputError(file, std::string("missing '") + key +
                                       "' (an ASTRA-sim network file needs topology, "
                                       "npus_count, bandwidth and latency)");
        if (it->second.items.empty())
            throw InputError(file, std::nullopt, it->second.line, std::string("'") + key + "' is empty");
        return it->second;
    };
    const YamlValue& kinds = require("topology");
    const YamlValue& npus = require("npus_count");
    const YamlValue& bandwidth = require("bandwidth");
    const YamlValue& latency = require("latency");
    const std::size_t dims = kinds.items.size();
    // Real networks have a handful of dimensions (ASTRA-sim's examples up to 4); the collective
    // model's per-dimension work grows with their square. 100,000 Ring dimensions took minutes.
    constexpr std::size_t kMaxDimensions = 16;
    if (dims > kMaxDimensions)
        throw InputError(file, std::nullopt, kinds.line,
                         std::to_string(dims) + " network dimensions; at most " + std::to_string(kMaxDimensions) +
                             " are modelled");
    for (const YamlValue* v : {&npus, &bandwidth, &latency})
        if (v->items.size() != dims)
            throw InputError(file, std::nullopt, v->line,
                             "has " + std::to_string(v->items.size()) + " entries but 'topology' has " +
                                 std::to_string(dims));

    const auto number = [&](const YamlValue& v, std::size_t i, const char* what) {
        const std::string& item = v.items[i];
        double out = 0;
        const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), out);
        if (ec != std::errc() || ptr != item.data() + item.size() || !std::isfinite(out))
            throw InputError(file, std::nullopt, v.line, std::string(what) + " '" + item + "' is not a number");
        return out;
    };
    Topology topology;
    for (std::size_t d = 0; d < dims; ++d) {
        TopologyDim dim;
        const auto kind = topologyKindFromName(kinds.items[d]);
        if (!kind)
            throw InputError(file, std::nullopt, kinds.line,
                             "unknown topology '" + kinds.items[d] + "' (expected Ring, Switch or FullyConnected)");
        dim.kind = *kind;
        const double count = number(npus, d, "npus_count");
        if (count < 1 || count != std::floor(count) || count > 1e9)
            throw InputError(file, std::nullopt, npus.line, "npus_count must be a positive whole number");
        dim.npus = static_cast<std::int32_t>(count);
        dim.bandwidthGBps = number(bandwidth, d, "bandwidth");
        if (!(dim.bandwidthGBps > 0))
            throw InputError(file, std::nullopt, bandwidth.line, "bandwidth must be positive (GB/s)");
        dim.latencyNs = number(latency, d, "latency");
        if (dim.latencyNs < 0)
            throw InputError(file, std::nullopt, latency.line, "latency must not be negative (ns)");
        topology.dims.push_back(dim);
    }
    double total = 1;
    for (const TopologyDim& dim : topology.dims)
        total *= dim.npus;
    if (total > static_cast<double>(std::int64_t{1} << 31))
        throw InputError(file, std::nullopt, npus.line, "the network has more than 2^31 NPUs");
    if (const std::string problem = topology.validate(); !problem.empty())
        throw InputError(file, problem);
    return topology;
}

Topology readNetworkYaml(const std::string& path)
{
    return parseNetworkYaml(readFileBytes(path), path);
}

std::string toNetworkYaml(const Topology& topology)
{
    std::string kinds, npus, bandwidth, latency;
    for (const TopologyDim& d : topology.dims) {
        const char* sep = kinds.empty() ? "" : ", ";
        kinds += sep + std::string(displayName(d.kind));
        npus += sep + std::to_string(d.npus);
        bandwidth += sep + formatNumber(d.bandwidthGBps);
        latency += sep + formatNumber(d.latencyNs);
    }
    return "topology: [ " + kinds + " ]\nnpus_count: [ " + npus + " ]\nbandwidth: [ " + bandwidth +
           " ]  # GB/s\nlatency: [ " + latency + " ]  # ns\n";
}

} // namespace flint::core
