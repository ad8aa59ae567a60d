// SPDX-License-Identifier: MIT
#include "core/partition/gspmdsharding.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

namespace flint::core::partition {
namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

/// Reads a comma-separated list of integers starting at `text[at]`, stopping at the first other
/// character; advances `at`.
std::vector<std::int64_t> integers(std::string_view text, std::size_t& at)
{
    std::vector<std::int64_t> values;
    while (at < text.size()) {
        while (at < text.size() && (text[at] == ' ' || text[at] == ','))
            ++at;
        if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at])))
            break;
        // Saturates at INT64_MAX: a 2^64 tile size must stay too large, not wrap.
        std::int64_t value = 0;
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
            const int digit = text[at++] - '0';
            value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
        }
        values.push_back(value);
    }
    return values;
}

} // namespace

std::optional<GspmdSharding> parseGspmdSharding(std::string_view text, std::string* invalid)
{
    text = trimmed(text);
    if (text.size() < 2 || text.front() != '{' || text.back() != '}')
        return std::nullopt;
    text = trimmed(text.substr(1, text.size() - 2));
    if (!text.empty() && text.front() == '{') {
        // A tuple sharding: the first element's.
        int depth = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
            if (depth == 0)
                return parseGspmdSharding(text.substr(0, i + 1), invalid);
        }
        return std::nullopt;
    }
    GspmdSharding sharding;
    if (text == "replicated")
        return sharding;
    if (text.rfind("maximal", 0) == 0) {
        sharding.kind = GspmdSharding::Kind::Maximal;
        return sharding;
    }
    if (text == "manual") {
        sharding.kind = GspmdSharding::Kind::Manual;
        return sharding;
    }
    if (text.rfind("devices=[", 0) != 0)
        return std::nullopt;
    sharding.kind = GspmdSharding::Kind::Tiled;
    std::size_t at = 9;
    sharding.tiles = integers(text, at);
    if (at >= text.size() || text[at] != ']' || sharding.tiles.empty())
        return std::nullopt;
    ++at;
    // Tile and reshape sizes are device counts: each at least 1, their products at most 2^31 (a
    // 2^64 tiling would wrap to 0 and divide by it below).
    constexpr std::int64_t kMaxDevices = std::int64_t{1} << 31;
    const auto product = [&](const std::vector<std::int64_t>& sizes) -> std::optional<std::int64_t> {
        std::int64_t n = 1;
        for (std::int64_t size : sizes) {
            if (size < 1 || size > kMaxDevices || n > kMaxDevices / size)
                return std::nullopt;
            n *= size;
        }
        return n;
    };
    const auto tiled = product(sharding.tiles);
    if (!tiled) {
        if (invalid != nullptr)
            *invalid = "its tile sizes must each be at least 1 and multiply to at most 2^31 devices";
        return std::nullopt;
    }
    const std::int64_t devices = *tiled;
    const std::string_view rest = trimmed(text.substr(at));
    if (rest.rfind("<=[", 0) == 0) {
        std::size_t k = 3;
        sharding.reshape = integers(rest, k);
        const std::size_t transpose = rest.find("T(", k);
        if (transpose != std::string_view::npos) {
            std::size_t t = transpose + 2;
            sharding.permutation = integers(rest, t);
        }
    } else {
        std::size_t k = 0;
        const std::vector<std::int64_t> ids = integers(rest, k);
        if (static_cast<std::int64_t>(ids.size()) != devices)
            return std::nullopt;
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (ids[i] != static_cast<std::int64_t>(i))
                sharding.iotaOrder = false;
        sharding.reshape = {devices};
    }
    const auto listed = product(sharding.reshape);
    if (!listed || *listed != devices || sharding.reshape.empty()) {
        if (invalid != nullptr)
            *invalid = "its device list does not name the " + std::to_string(devices) + " devices its tiles need";
        return std::nullopt;
    }
    if (sharding.permutation.empty())
        for (std::size_t i = 0; i < sharding.reshape.size(); ++i)
            sharding.permutation.push_back(static_cast<std::int64_t>(i));
    if (sharding.permutation.size() != sharding.reshape.size())
        return std::nullopt;
    std::vector<bool> seen(sharding.permutation.size(), false);
    for (std::int64_t p : sharding.permutation) {
        if (p < 0 || static_cast<std::size_t>(p) >= seen.size() || seen[static_cast<std::size_t>(p)])
            return std::nullopt; // not a permutation of the reshape dimensions
        seen[static_cast<std::size_t>(p)] = true;
    }
    if (rest.find("last_tile_dim_replicate") != std::string_view::npos) {
        sharding.subgroupDims = 1;
    } else if (const std::size_t types = rest.find("last_tile_dims={"); types != std::string_view::npos) {
        const std::size_t close = rest.find('}', types);
        const std::string_view list = rest.substr(types + 16, close == std::string_view::npos ? 0 : close - types - 16);
        sharding.subgroupDims =
            list.empty() ? 0 : 1 + static_cast<std::size_t>(std::count(list.begin(), list.end(), ','));
        sharding.manualSubgroup = list.find("manual") != std::string_view::npos;
    }
    if (sharding.subgroupDims >= sharding.tiles.size())
        return std::nullopt;
    return sharding;
}

std::vector<std::string_view> gspmdTupleElements(std::string_view text)
{
    text = trimmed(text);
    if (text.size() < 2 || text.front() != '{' || text.back() != '}')
        return {text};
    const std::string_view inner = trimmed(text.substr(1, text.size() - 2));
    if (inner.empty() || inner.front() != '{')
        return {text};
    std::vector<std::string_view> elements;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < inner.size(); ++i) {
        if (inner[i] == '{' && depth++ == 0)
            start = i;
        else if (inner[i] == '}' && --depth == 0)
            elements.push_back(inner.substr(start, i - start + 1));
        if (depth < 0)
            return {};
    }
    return elements;
}

namespace {

/// Mesh axis indices, major to minor, that enumerate `sharding`'s device order: each reshape
/// dimension is a run of consecutive axes, listed in permutation order. nullopt when a reshape
/// dimension does not fall on axis boundaries.
std::optional<std::vector<std::size_t>> deviceOrderAxes(const GspmdSharding& sharding, const MeshShape& mesh)
{
    std::vector<std::pair<std::size_t, std::size_t>> runs; // [first, last) axes per reshape dimension
    std::size_t axis = 0;
    for (std::int64_t size : sharding.reshape) {
        const std::size_t first = axis;
        std::int64_t product = 1;
        while (product < size && axis < mesh.axes.size())
            product *= mesh.axes[axis++].second;
        if (product != size)
            return std::nullopt;
        runs.emplace_back(first, axis);
    }
    if (axis != mesh.axes.size())
        return std::nullopt;
    std::vector<std::size_t> order;
    for (std::int64_t dim : sharding.permutation) {
        if (dim < 0 || static_cast<std::size_t>(dim) >= runs.size())
            return std::nullopt;
        for (std::size_t a = runs[static_cast<std::size_t>(dim)].first; a < runs[static_cast<std::size_t>(dim)].second;
             ++a)
            order.push_back(a);
    }
    return order;
}

/// Axis indices per tensor dimension of a rank-`rank` value.
std::optional<std::vector<std::vector<std::size_t>>> axesPerDimension(const GspmdSharding& sharding, std::size_t rank,
                                                                      const MeshShape& mesh)
{
    const std::size_t tiled = sharding.tiles.size() - sharding.subgroupDims;
    if (!sharding.iotaOrder || tiled != rank)
        return std::nullopt;
    const auto order = deviceOrderAxes(sharding, mesh);
    if (!order)
        return std::nullopt;
    std::vector<std::vector<std::size_t>> dims(rank);
    std::size_t next = 0;
    for (std::size_t d = 0; d < rank; ++d) {
        std::int64_t product = 1;
        while (product < sharding.tiles[d] && next < order->size()) {
            product *= mesh.axes[(*order)[next]].second;
            dims[d].push_back((*order)[next++]);
        }
        if (product != sharding.tiles[d])
            return std::nullopt;
    }
    return dims;
}

} // namespace

std::optional<MeshShape> meshForTilings(const std::vector<GspmdSharding>& shardings, std::int64_t devices)
{
    // Boundaries of every reshape dimension, in device-id order; each span between two is split into
    // its prime factors, so that any tile falls on axis boundaries if it can at all.
    std::set<std::int64_t> boundaries{1, devices};
    std::vector<const GspmdSharding*> tiled;
    for (const GspmdSharding& sharding : shardings) {
        if (sharding.kind != GspmdSharding::Kind::Tiled || !sharding.iotaOrder)
            continue;
        std::int64_t product = 1;
        for (std::int64_t size : sharding.reshape) {
            product *= size;
            if (product > devices || devices % product != 0)
                return std::nullopt;
            boundaries.insert(product);
        }
        tiled.push_back(&sharding);
    }
    std::vector<std::int64_t> factors;
    std::int64_t previous = 1;
    for (std::int64_t boundary : boundaries) {
        if (boundary == 1)
            continue;
        if (boundary % previous != 0)
            return std::nullopt;
        std::int64_t span = boundary / previous;
        for (std::int64_t p = 2; span > 1; ++p)
            while (span % p == 0) {
                factors.push_back(p);
                span /= p;
            }
        previous = boundary;
    }
    const auto meshOf = [](const std::vector<std::int64_t>& sizes) {
        MeshShape mesh;
        for (std::int64_t size : sizes)
            mesh.axes.emplace_back("d" + std::to_string(mesh.axes.size()), size);
        return mesh;
    };
    // Merge neighbouring axes that every tiling uses together (adjacent, in order) or not at all.
    bool merged = true;
    while (merged && factors.size() > 1) {
        merged = false;
        const MeshShape mesh = meshOf(factors);
        for (std::size_t a = 0; a + 1 < factors.size() && !merged; ++a) {
            bool together = true;
            for (const GspmdSharding* sharding : tiled) {
                const std::size_t rank = sharding->tiles.size() - sharding->subgroupDims;
                const auto order = deviceOrderAxes(*sharding, mesh);
                const auto dims = axesPerDimension(*sharding, rank, mesh);
                // Both must stay adjacent in the device order and in any dimension that uses them.
                if (order) {
                    const auto at = std::find(order->begin(), order->end(), a);
                    together = together && at + 1 != order->end() && *(at + 1) == a + 1;
                }
                if (dims)
                    for (const auto& axes : *dims) {
                        const auto first = std::find(axes.begin(), axes.end(), a);
                        const auto second = std::find(axes.begin(), axes.end(), a + 1);
                        if ((first == axes.end()) != (second == axes.end()) ||
                            (first != axes.end() && first + 1 != second))
                            together = false;
                    }
            }
            if (together) {
                factors[a] *= factors[a + 1];
                factors.erase(factors.begin() + static_cast<std::ptrdiff_t>(a) + 1);
                merged = true;
            }
        }
    }
    return meshOf(factors);
}

std::optional<TensorSharding> toTensorSharding(const GspmdSharding& sharding, std::size_t rank, const MeshShape& mesh)
{
    TensorSharding spec;
    spec.dims.resize(rank);
    if (sharding.kind != GspmdSharding::Kind::Tiled)
        return spec;
    const auto dims = axesPerDimension(sharding, rank, mesh);
    if (!dims)
        return std::nullopt;
    for (std::size_t d = 0; d < rank; ++d)
        for (std::size_t axis : (*dims)[d])
            spec.dims[d].push_back(mesh.axes[axis].first);
    return spec;
}

} // namespace flint::core::partition
