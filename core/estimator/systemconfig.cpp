// SPDX-License-Identifier: MIT
#include "core/estimator/systemconfig.h"

#include "core/error.h"
#include "core/fileio.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace flint::core {
namespace {

const char* const kAlgorithmKeys[] = {"all-reduce-implementation", "all-gather-implementation",
                                      "reduce-scatter-implementation", "all-to-all-implementation"};

std::vector<CollectiveAlgorithm>* listFor(SystemConfig& config, std::size_t index)
{
    switch (index) {
    case 0:
        return &config.allReduce;
    case 1:
        return &config.allGather;
    case 2:
        return &config.reduceScatter;
    default:
        return &config.allToAll;
    }
}

std::string astraName(CollectiveAlgorithm algorithm)
{
    switch (algorithm) {
    case CollectiveAlgorithm::Ring:
        return "ring";
    case CollectiveAlgorithm::Direct:
        return "direct";
    case CollectiveAlgorithm::HalvingDoubling:
        return "halvingDoubling";
    case CollectiveAlgorithm::DoubleBinaryTree:
        return "doubleBinaryTree";
    }
    return "ring";
}

} // namespace

std::string_view displayName(CollectiveAlgorithm algorithm)
{
    switch (algorithm) {
    case CollectiveAlgorithm::Ring:
        return "ring";
    case CollectiveAlgorithm::Direct:
        return "direct";
    case CollectiveAlgorithm::HalvingDoubling:
        return "halving-doubling";
    case CollectiveAlgorithm::DoubleBinaryTree:
        return "double-binary-tree";
    }
    return "?";
}

std::optional<CollectiveAlgorithm> collectiveAlgorithmFromName(std::string_view name)
{
    const std::string key = nameKey(name, "-_");
    if (key == "ring" || key == "onering")
        return CollectiveAlgorithm::Ring;
    if (key.starts_with("direct") || key.starts_with("onedirect"))
        return CollectiveAlgorithm::Direct;
    if (key == "halvingdoubling" || key == "onehalvingdoubling" || key == "hd")
        return CollectiveAlgorithm::HalvingDoubling;
    if (key == "doublebinarytree" || key == "dbt")
        return CollectiveAlgorithm::DoubleBinaryTree;
    return std::nullopt;
}

CollectiveAlgorithm SystemConfig::algorithmFor(CollectiveKind kind, std::size_t dim) const
{
    const std::vector<CollectiveAlgorithm>* list = &allReduce;
    switch (kind) {
    case CollectiveKind::AllGather:
        list = &allGather;
        break;
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::ReduceScatterBlock:
        list = &reduceScatter;
        break;
    case CollectiveKind::AllToAll:
        list = &allToAll;
        break;
    default:
        break;
    }
    if (list->empty())
        return CollectiveAlgorithm::Ring;
    return (*list)[std::min(dim, list->size() - 1)];
}

SystemConfig parseSystemJson(std::string_view text, const std::string& file)
{
    checkNesting(text, file); // otherKeys keeps value.dump(), which recurses
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(file, e.byte > 0 ? std::optional<std::uint64_t>(e.byte - 1) : std::nullopt, std::nullopt,
                         std::string("invalid JSON: ") + e.what());
    } catch (const nlohmann::json::exception& e) { // a number too large for a double (out_of_range 406)
        throw InputError(file, std::string("invalid JSON: ") + e.what());
    }
    if (!json.is_object())
        throw InputError(file, "a system configuration must be a JSON object");
    SystemConfig config;
    // The parsed JSON keeps no positions: an error names the line of the key's first appearance.
    const auto at = [&](const std::string& key, const std::string& message) {
        const std::string quoted = nlohmann::json(key).dump();
        const std::size_t offset = text.find(quoted);
        if (offset == std::string_view::npos)
            return InputError(file, message);
        const int line =
            1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
        return InputError(file, offset, line, message);
    };
    const auto number = [&](const nlohmann::json& value, const std::string& key) {
        if (!value.is_number())
            throw at(key, "'" + key + "' must be a number");
        return value.get<double>();
    };
    for (auto it = json.begin(); it != json.end(); ++it) {
        const std::string& key = it.key();
        const nlohmann::json& value = it.value();
        bool handled = false;
        for (std::size_t i = 0; i < 4; ++i) {
            if (key != kAlgorithmKeys[i])
                continue;
            handled = true;
            if (!value.is_array() || value.empty())
                throw at(key, "'" + key + "' must be a non-empty list of algorithm names");
            std::vector<CollectiveAlgorithm>& list = *listFor(config, i);
            list.clear();
            for (const nlohmann::json& item : value) {
                if (!item.is_string())
                    throw at(key, "'" + key + "' must list algorithm names");
                const auto algorithm = collectiveAlgorithmFromName(item.get<std::string>());
                if (!algorithm)
                    throw at(key, "'" + key + "': unknown algorithm '" + item.get<std::string>() +
                                      "' (expected ring, direct, halvingDoubling or doubleBinaryTree)");
                list.push_back(*algorithm);
            }
        }
        if (handled)
            continue;
        if (key == "scheduling-policy") {
            if (!value.is_string() || (value != "LIFO" && value != "FIFO"))
                throw at(key, "'scheduling-policy' must be \"LIFO\" or \"FIFO\"");
            config.schedulingPolicy = value.get<std::string>();
        } else if (key == "collective-optimization") {
            if (!value.is_string())
                throw at(key, "'collective-optimization' must be a string");
            config.collectiveOptimization = value.get<std::string>();
        } else if (key == "endpoint-delay") {
            config.endpointDelayNs = number(value, key);
            if (config.endpointDelayNs < 0)
                throw at(key, "'endpoint-delay' must not be negative");
        } else if (key == "active-chunks-per-dimension") {
            const double v = number(value, key);
            if (v < 1 || v > 1e6)
                throw at(key, "'active-chunks-per-dimension' must be at least 1");
            config.activeChunksPerDimension = static_cast<std::int32_t>(v);
        } else if (key == "preferred-dataset-splits") {
            const double v = number(value, key);
            if (v < 1 || v > 1e6)
                throw at(key, "'preferred-dataset-splits' must be at least 1");
            config.preferredDatasetSplits = static_cast<std::int32_t>(v);
        } else if (key == "local-mem-bw") {
            config.localMemBandwidthGBps = number(value, key);
            if (config.localMemBandwidthGBps < 0)
                throw at(key, "'local-mem-bw' must not be negative");
        } else {
            config.otherKeys.emplace_back(key, value.dump());
        }
    }
    return config;
}

SystemConfig readSystemJson(const std::string& path)
{
    return parseSystemJson(readFileBytes(path), path);
}

std::string toSystemJson(const SystemConfig& config)
{
    nlohmann::ordered_json json;
    json["scheduling-policy"] = config.schedulingPolicy;
    json["endpoint-delay"] = config.endpointDelayNs;
    json["active-chunks-per-dimension"] = config.activeChunksPerDimension;
    json["preferred-dataset-splits"] = config.preferredDatasetSplits;
    const std::vector<CollectiveAlgorithm>* lists[] = {&config.allReduce, &config.allGather, &config.reduceScatter,
                                                       &config.allToAll};
    for (std::size_t i = 0; i < 4; ++i) {
        auto& array = json[kAlgorithmKeys[i]] = nlohmann::ordered_json::array();
        for (CollectiveAlgorithm a : *lists[i])
            array.push_back(astraName(a));
    }
    json["collective-optimization"] = config.collectiveOptimization;
    if (config.localMemBandwidthGBps > 0)
        json["local-mem-bw"] = config.localMemBandwidthGBps;
    for (const auto& [key, text] : config.otherKeys)
        json[key] = nlohmann::ordered_json::parse(text);
    return json.dump(4) + "\n";
}

} // namespace flint::core
