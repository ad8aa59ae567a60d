// SPDX-License-Identifier: MIT
#include "core/measured/validation.h"

#include "core/error.h"
#include "core/estimator/cluster.h"
#include "core/estimator/device.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace flint::core::measured {
namespace {

/// Categories in the order the table lists them: device work first, then communication.
int categoryRank(const std::string& category)
{
    static const char* const kOrder[] = {"kernel", "memcpy", "memset", "host op"};
    for (int i = 0; i < 4; ++i)
        if (category == kOrder[i])
            return i;
    if (category == "send")
        return 100;
    if (category == "recv")
        return 101;
    return 10;
}

bool counted(const Op& op)
{
    if (op.kind == OpKind::Metadata || op.kind == OpKind::Invalid)
        return false;
    const std::optional<MeasuredKind> kind = measuredKindOf(op);
    return !kind || *kind != MeasuredKind::HostGap;
}

std::vector<double> eventSeconds(const EstimateResult& result, std::size_t rank, std::size_t ops)
{
    std::vector<double> seconds(ops, 0.0);
    if (rank >= result.rankTimeline.size())
        return seconds;
    for (const OpEvent& e : result.eventsOf(rank))
        if (e.op < ops)
            seconds[e.op] = e.end - e.start;
    return seconds;
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. Kernel names do.
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// An op's name as both sides spell it: HLO text writes `%fusion.3`, a trace `fusion.3`.
std::string opKey(const std::string& name)
{
    return name.starts_with('%') ? name.substr(1) : name;
}

double errorPercent(double estimated, double measured)
{
    return measured > 0 ? 100.0 * (estimated - measured) / measured : 0.0;
}

/// `name` in at most `width` characters: its start and end with "..." between, as kernel names
/// differ in their template arguments more than in their first characters.
std::string elided(const std::string& name, std::size_t width)
{
    if (name.size() <= width)
        return name;
    const std::size_t tail = (width - 3) / 3;
    return name.substr(0, width - 3 - tail) + "..." + name.substr(name.size() - tail);
}

std::string formatError(double estimated, double measured)
{
    if (measured <= 0)
        return estimated > 0 ? "only estimated" : "-";
    if (estimated <= 0) // nothing on the workload's side to compare: not an error of -100%
        return "only measured";
    char buffer[32];
    const double error = errorPercent(estimated, measured);
    std::snprintf(buffer, sizeof buffer, "%+.1f%%", std::abs(error) < 0.05 ? 0.0 : error); // no "-0.0%"
    return buffer;
}

/// Rows counted on both sides (categories, ops by name) as JSON objects: `key` names the label.
template <class Row, class Label>
nlohmann::ordered_json countedJson(const std::vector<Row>& rows, const char* key, Label label)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Row& row : rows) {
        nlohmann::ordered_json item = {{key, label(row)},
                                       {"measured_count", row.measuredCount},
                                       {"workload_count", row.workloadCount},
                                       {"measured_s", row.measuredSeconds},
                                       {"estimated_s", row.estimatedSeconds}};
        // null where only one side has the row, as the CSV leaves the field empty.
        item["error_pct"] = row.measuredCount > 0 && row.workloadCount > 0 && row.measuredSeconds > 0
                                ? nlohmann::ordered_json(errorPercent(row.estimatedSeconds, row.measuredSeconds))
                                : nlohmann::ordered_json(nullptr);
        out.push_back(std::move(item));
    }
    return out;
}

/// The same rows as CSV, `key` the first column's name and `label` its (already quoted) field.
template <class Row, class Label>
std::string countedCsv(const std::vector<Row>& rows, const char* key, Label label)
{
    std::string out = std::string(key) + ",measured_count,workload_count,measured_s,estimated_s,error_pct\n";
    char line[256];
    for (const Row& row : rows) {
        std::snprintf(line, sizeof line, ",%llu,%llu,%.9g,%.9g,", static_cast<unsigned long long>(row.measuredCount),
                      static_cast<unsigned long long>(row.workloadCount), row.measuredSeconds, row.estimatedSeconds);
        out += label(row) + line;
        // Only on one side: no error to give (an empty field, not 0 or -100).
        if (row.measuredCount > 0 && row.workloadCount > 0 && row.measuredSeconds > 0) {
            std::snprintf(line, sizeof line, "%.3f", errorPercent(row.estimatedSeconds, row.measuredSeconds));
            out += line;
        }
        out += '\n';
    }
    return out;
}

} // namespace

std::string formatSeconds(double s)
{
    char buffer[64];
    if (s >= 1)
        std::snprintf(buffer, sizeof buffer, "%.3f s", s);
    else if (s >= 1e-3)
        std::snprintf(buffer, sizeof buffer, "%.3f ms", s * 1e3);
    else
        std::snprintf(buffer, sizeof buffer, "%.1f us", s * 1e6);
    return buffer;
}

std::string categoryOf(const Op& op)
{
    const std::optional<MeasuredKind> kind = measuredKindOf(op);
    if (kind && *kind != MeasuredKind::Communication)
        return std::string(displayName(*kind));
    if (kind && op.kind == OpKind::Compute) { // measured point-to-point transfers whose peers were not recorded
        if (op.name.find("permute") != std::string::npos)
            return "collective-permute";
        return op.name.find("send") != std::string::npos ? "send" : "recv";
    }
    switch (op.kind) {
    case OpKind::Collective:
        return std::string(core::displayName(op.collective));
    case OpKind::Send:
        return "send";
    case OpKind::Recv:
        return "recv";
    case OpKind::MemLoad:
    case OpKind::MemStore:
        return "memcpy";
    default:
        return op.isCpuOp ? "host op" : "kernel";
    }
}

void requireSameRanks(const Workload& workload, const MeasuredWorkload& measured)
{
    if (workload.rankCount() != measured.workload.rankCount())
        throw InputError(measured.name, "the workload has " + std::to_string(workload.rankCount()) +
                                            " ranks, the measured run " +
                                            std::to_string(measured.workload.rankCount()) +
                                            ": validate a workload against a run of the same size");
}

Validation validate(const Workload& workload, const EstimateResult& estimate, const MeasuredWorkload& measured,
                    const EstimateResult& replay, const EstimateResult& measuredCompute, std::int32_t rank)
{
    const Workload& m = measured.workload;
    requireSameRanks(workload, measured);
    if (rank < 0 || static_cast<std::size_t>(rank) >= m.rankCount())
        throw InputError(measured.name, "rank " + std::to_string(rank) + " is not a rank of the run");
    Validation v;
    v.rank = rank;
    const auto r = static_cast<std::size_t>(rank);

    std::map<std::string, CategoryRow> rows;
    std::map<std::string, OpRow> byName;
    std::map<std::string, std::vector<CollectiveRow>> measuredColl, workloadColl;
    const Program& mp = m.programOf(r);
    for (std::size_t i = 0; i < mp.ops.size(); ++i) {
        const Op& op = mp.ops[i];
        if (!counted(op)) {
            v.hostGapSeconds += static_cast<double>(m.durationOf(r, i)) * 1e-6;
            continue;
        }
        const std::string category = categoryOf(op);
        CategoryRow& row = rows[category];
        row.category = category;
        ++row.measuredCount;
        const double seconds = static_cast<double>(m.durationOf(r, i)) * 1e-6;
        row.measuredSeconds += seconds;
        OpRow& named = byName[opKey(op.name)];
        ++named.measuredCount;
        named.measuredSeconds += seconds;
        if (op.isCommunication()) {
            CollectiveRow c;
            c.category = category;
            c.index = measuredColl[category].size();
            c.measuredBytes = op.commBytes;
            c.measuredSeconds = seconds;
            c.measuredOp = static_cast<std::int64_t>(i);
            measuredColl[category].push_back(c);
        }
    }
    const Program& wp = workload.programOf(r);
    const std::vector<double> estimated = eventSeconds(estimate, r, wp.ops.size());
    for (std::size_t i = 0; i < wp.ops.size(); ++i) {
        const Op& op = wp.ops[i];
        if (!counted(op))
            continue;
        const std::string category = categoryOf(op);
        CategoryRow& row = rows[category];
        row.category = category;
        ++row.workloadCount;
        row.estimatedSeconds += estimated[i];
        OpRow& named = byName[opKey(op.name)];
        if (named.workloadCount == 0)
            named.workloadOp = static_cast<std::int64_t>(i);
        ++named.workloadCount;
        named.estimatedSeconds += estimated[i];
        if (op.isCommunication()) {
            CollectiveRow c;
            c.category = category;
            c.index = workloadColl[category].size();
            c.workloadBytes = op.commBytes;
            c.estimatedSeconds = estimated[i];
            c.workloadOp = static_cast<std::int64_t>(i);
            workloadColl[category].push_back(c);
        }
    }
    for (auto& [category, row] : rows)
        v.categories.push_back(row);
    for (auto& [name, row] : byName) {
        row.name = name;
        v.ops.push_back(std::move(row));
    }
    std::stable_sort(v.ops.begin(), v.ops.end(), [](const OpRow& a, const OpRow& b) {
        if (a.matched() != b.matched())
            return a.matched();
        return a.measuredSeconds + a.estimatedSeconds > b.measuredSeconds + b.estimatedSeconds;
    });
    std::stable_sort(v.categories.begin(), v.categories.end(), [](const CategoryRow& a, const CategoryRow& b) {
        return categoryRank(a.category) < categoryRank(b.category);
    });
    for (auto& [category, list] : measuredColl) {
        const std::vector<CollectiveRow>& other = workloadColl[category];
        for (std::size_t k = 0; k < std::max(list.size(), other.size()); ++k) {
            CollectiveRow c = k < list.size() ? list[k] : other[k];
            if (k < other.size()) {
                c.workloadBytes = other[k].workloadBytes;
                c.estimatedSeconds = other[k].estimatedSeconds;
                c.workloadOp = other[k].workloadOp;
            }
            v.collectives.push_back(c);
        }
    }
    for (auto& [category, list] : workloadColl)
        if (!measuredColl.contains(category))
            for (const CollectiveRow& c : list)
                v.collectives.push_back(c);

    for (std::size_t i = 0; i < m.rankCount(); ++i) {
        RankRow row;
        row.rank = static_cast<std::int32_t>(i);
        row.recorded = i < measured.ranks.size() && !measured.ranks[i].file.empty();
        row.measured = i < measured.ranks.size() ? measured.ranks[i].stepSeconds : 0;
        row.estimated = i < estimate.ranks.size() ? estimate.ranks[i].finish : 0;
        row.replayed = i < replay.ranks.size() ? replay.ranks[i].finish : 0;
        row.measuredCompute = i < measuredCompute.ranks.size() ? measuredCompute.ranks[i].finish : 0;
        v.ranks.push_back(row);
    }
    v.measuredStep = measured.stepSeconds();
    v.estimatedStep = estimate.stepTime;
    v.replayedStep = replay.stepTime;
    v.measuredComputeStep = measuredCompute.stepTime;
    return v;
}

namespace {

/// The ops matched by name, largest differences first, and what each side has that the other does
/// not; one line when the two sides share no names (a PyTorch trace's kernels against an HLO module).
std::string opsText(const Validation& v, std::size_t rows)
{
    std::vector<OpRow> matched;
    std::uint64_t onlyMeasuredOps = 0, onlyWorkloadOps = 0;
    double onlyMeasuredSeconds = 0, onlyWorkloadSeconds = 0;
    std::vector<std::string> onlyMeasured, onlyWorkload;
    for (const OpRow& row : v.ops) {
        if (row.matched()) {
            matched.push_back(row);
        } else if (row.measuredCount > 0) {
            onlyMeasuredOps += row.measuredCount;
            onlyMeasuredSeconds += row.measuredSeconds;
            onlyMeasured.push_back(row.name);
        } else {
            onlyWorkloadOps += row.workloadCount;
            onlyWorkloadSeconds += row.estimatedSeconds;
            onlyWorkload.push_back(row.name);
        }
    }
    std::string out;
    char line[512];
    if (matched.empty()) {
        std::snprintf(line, sizeof line,
                      "\nops by name on rank %d: no name on both sides (compare the categories above)\n", v.rank);
        return line;
    }
    std::stable_sort(matched.begin(), matched.end(), largerDifferenceFirst<OpRow>);
    std::snprintf(line, sizeof line,
                  "\nops by name on rank %d: %zu names on both sides, largest differences first:\n"
                  "  %-44s %9s %9s %12s %12s %9s\n",
                  v.rank, matched.size(), "name", "measured", "workload", "measured", "estimated", "error");
    out += line;
    for (std::size_t i = 0; i < matched.size() && i < rows; ++i) {
        const OpRow& row = matched[i];
        std::snprintf(line, sizeof line, "  %-44s %9llu %9llu %12s %12s %9s\n", elided(row.name, 44).c_str(),
                      static_cast<unsigned long long>(row.measuredCount),
                      static_cast<unsigned long long>(row.workloadCount), formatSeconds(row.measuredSeconds).c_str(),
                      formatSeconds(row.estimatedSeconds).c_str(),
                      formatError(row.estimatedSeconds, row.measuredSeconds).c_str());
        out += line;
    }
    const auto only = [&](const char* label, const std::vector<std::string>& names, std::uint64_t ops, double s) {
        if (names.empty())
            return;
        std::snprintf(line, sizeof line, "  only %s: %llu ops of %zu names, %s:", label,
                      static_cast<unsigned long long>(ops), names.size(), formatSeconds(s).c_str());
        out += line;
        for (std::size_t i = 0; i < names.size() && i < 5; ++i)
            out += " " + names[i] + (i + 1 < names.size() && i < 4 ? "," : "");
        out += names.size() > 5 ? ", ...\n" : "\n";
    };
    only("measured", onlyMeasured, onlyMeasuredOps, onlyMeasuredSeconds);
    only("in the workload", onlyWorkload, onlyWorkloadOps, onlyWorkloadSeconds);
    return out;
}

} // namespace

std::string validationText(const Validation& v, std::size_t collectiveRows)
{
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "step time (slowest rank):\n  measured                         %12s\n",
                  formatSeconds(v.measuredStep).c_str());
    out += line;
    const auto stepLine = [&](const char* label, double value) {
        std::snprintf(line, sizeof line, "  %-32s %12s  %s\n", label, formatSeconds(value).c_str(),
                      formatError(value, v.measuredStep).c_str());
        out += line;
    };
    stepLine("estimated (workload, cluster)", v.estimatedStep);
    stepLine("measured compute, modelled comm", v.measuredComputeStep);
    stepLine("replayed (all measured)", v.replayedStep);

    const bool copied = v.rank >= 0 && static_cast<std::size_t>(v.rank) < v.ranks.size() &&
                        !v.ranks[static_cast<std::size_t>(v.rank)].recorded;
    std::snprintf(line, sizeof line, "\nops on rank %d%s:\n  %-26s %9s %9s %12s %12s %9s\n", v.rank,
                  copied ? " (no profile of this rank: it runs as a recorded rank does)" : "", "category", "measured",
                  "workload", "measured", "estimated", "error");
    out += line;
    std::vector<std::string> onlyMeasured, onlyWorkload;
    for (const CategoryRow& row : v.categories) {
        std::snprintf(line, sizeof line, "  %-26s %9llu %9llu %12s %12s %9s\n", row.category.c_str(),
                      static_cast<unsigned long long>(row.measuredCount),
                      static_cast<unsigned long long>(row.workloadCount), formatSeconds(row.measuredSeconds).c_str(),
                      formatSeconds(row.estimatedSeconds).c_str(),
                      formatError(row.estimatedSeconds, row.measuredSeconds).c_str());
        out += line;
        if (row.workloadCount == 0)
            onlyMeasured.push_back(row.category);
        if (row.measuredCount == 0)
            onlyWorkload.push_back(row.category);
    }
    std::snprintf(line, sizeof line, "  %-26s %9s %9s %12s\n", "(device waiting for host)", "", "",
                  formatSeconds(v.hostGapSeconds).c_str());
    out += line;
    const auto list = [&](const char* label, const std::vector<std::string>& names) {
        if (names.empty())
            return;
        out += std::string("  only ") + label + ":";
        for (const std::string& n : names)
            out += " " + n + (&n == &names.back() ? "" : ",");
        out += "\n";
    };
    list("measured", onlyMeasured);
    list("in the workload", onlyWorkload);

    if (!v.collectives.empty()) {
        std::vector<CollectiveRow> worst = v.collectives;
        std::stable_sort(worst.begin(), worst.end(), largerDifferenceFirst<CollectiveRow>);
        std::snprintf(line, sizeof line,
                      "\ncollectives on rank %d, largest differences first:\n  %-16s %5s %14s %14s %12s %12s %9s\n",
                      v.rank, "kind", "#", "measured B", "workload B", "measured", "estimated", "error");
        out += line;
        for (std::size_t i = 0; i < worst.size() && i < collectiveRows; ++i) {
            const CollectiveRow& c = worst[i];
            std::snprintf(line, sizeof line, "  %-16s %5llu %14llu %14llu %12s %12s %9s\n", c.category.c_str(),
                          static_cast<unsigned long long>(c.index), static_cast<unsigned long long>(c.measuredBytes),
                          static_cast<unsigned long long>(c.workloadBytes), formatSeconds(c.measuredSeconds).c_str(),
                          formatSeconds(c.estimatedSeconds).c_str(),
                          formatError(c.estimatedSeconds, c.measuredSeconds).c_str());
            out += line;
        }
    }
    out += opsText(v, collectiveRows);
    if (v.ranks.size() <= 16) {
        out += "\nper rank:\n  rank     measured    estimated  meas.compute     replayed\n";
        for (const RankRow& row : v.ranks) {
            std::snprintf(line, sizeof line, "  %4d%s %12s %12s %12s %12s\n", row.rank, row.recorded ? " " : "*",
                          formatSeconds(row.measured).c_str(), formatSeconds(row.estimated).c_str(),
                          formatSeconds(row.measuredCompute).c_str(), formatSeconds(row.replayed).c_str());
            out += line;
        }
        if (std::any_of(v.ranks.begin(), v.ranks.end(), [](const RankRow& row) { return !row.recorded; }))
            out += "  * no profile of this rank: it runs as a recorded rank does\n";
    } else {
        std::snprintf(line, sizeof line, "\nper rank: %zu ranks, listed in --json (\"ranks\")\n", v.ranks.size());
        out += line;
    }
    return out;
}

std::string validationJson(const Validation& v)
{
    nlohmann::ordered_json j;
    j["rank"] = v.rank;
    j["step"] = {{"measured_s", v.measuredStep},
                 {"estimated_s", v.estimatedStep},
                 {"measured_compute_s", v.measuredComputeStep},
                 {"replayed_s", v.replayedStep},
                 {"estimated_error_pct", errorPercent(v.estimatedStep, v.measuredStep)},
                 {"measured_compute_error_pct", errorPercent(v.measuredComputeStep, v.measuredStep)},
                 {"replayed_error_pct", errorPercent(v.replayedStep, v.measuredStep)}};
    j["host_gap_s"] = v.hostGapSeconds;
    j["categories"] = countedJson(v.categories, "category", [](const CategoryRow& row) { return row.category; });
    nlohmann::ordered_json collectives = nlohmann::ordered_json::array();
    for (const CollectiveRow& c : v.collectives)
        collectives.push_back({{"category", c.category},
                               {"index", c.index},
                               {"measured_bytes", c.measuredBytes},
                               {"workload_bytes", c.workloadBytes},
                               {"measured_s", c.measuredSeconds},
                               {"estimated_s", c.estimatedSeconds}});
    j["collectives"] = std::move(collectives);
    j["ops"] = countedJson(v.ops, "name", [](const OpRow& row) { return row.name; });
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    for (const RankRow& row : v.ranks)
        ranks.push_back({{"rank", row.rank},
                         {"recorded", row.recorded},
                         {"measured_s", row.measured},
                         {"estimated_s", row.estimated},
                         {"measured_compute_s", row.measuredCompute},
                         {"replayed_s", row.replayed}});
    j["ranks"] = std::move(ranks);
    return j.dump(2) + "\n";
}

std::string validationCsv(const Validation& v)
{
    return countedCsv(v.categories, "category", [](const CategoryRow& row) { return row.category; });
}

std::string validationOpsCsv(const Validation& v)
{
    return countedCsv(v.ops, "name", [](const OpRow& row) { return csvField(row.name); });
}

Message deviceMismatch(const MeasuredWorkload& measured, const Cluster& cluster)
{
    return deviceMismatch(measured.deviceKind, measured.deviceName, cluster);
}

Message deviceMismatch(std::string_view deviceKind, std::string_view deviceName, const Cluster& cluster)
{
    if (deviceKind == "TPU" && cluster.device.name.find("TPU") == std::string::npos)
        return Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                            "the run was measured on TPUs, the estimate is for %1 on %2: choose a TPU "
                                            "cluster (%3, or a network YAML with %4)"),
                       {cluster.device.name, cluster.name, "--cluster tpu-v5p-torus", "--device TPUv5p"});
    if (deviceName.empty())
        return {};
    // The preset whose name the profile's device name holds ("NVIDIA A100-PG509-200" -> A100).
    const auto upper = [](std::string_view view) {
        std::string text(view);
        std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
        return text;
    };
    const std::string recordedName = upper(deviceName);
    std::string recorded;
    for (const DeviceSpec& d : devicePresets()) {
        if (recordedName.find(upper(d.name)) != std::string::npos)
            recorded = d.name;
    }
    if (recorded.empty() || recorded == cluster.device.name)
        return {};
    return Message(FLINT_TRANSLATE_NOOP("Diagnostics", "the run was measured on %1, the estimate prices modelled "
                                                       "work on %2 (%3): %4 (or a cluster built around it) compares "
                                                       "like with like"),
                   {std::string(deviceName), cluster.device.name, cluster.name, "--device " + recorded});
}

} // namespace flint::core::measured
