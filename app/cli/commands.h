// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace flint::app {

/// Exit statuses of the flint command (documented in docs/cli.md).
enum ExitStatus : int {
    ExitSuccess = 0,
    ExitUsage = 1,    ///< wrong or missing arguments
    ExitBadInput = 2, ///< an input file that cannot be read or parsed
    ExitOutput = 3,   ///< an output that cannot be written (nothing was left behind)
};

/// Runs a subcommand (or a benchmark) on the arguments after its name; returns an ExitStatus.
/// Throws UsageError, core::InputError, core::OutputError; main() turns them into exit statuses.
using CommandFunction = int (*)(const std::vector<std::string>& arguments);

/// A subcommand of `flint`, or a benchmark of `flint bench`.
struct CommandInfo {
    std::string_view name;
    std::string_view summary; ///< one line for the overview help
    CommandFunction run = nullptr;
    int order = 0; ///< position in the overview help
};

/// The subcommands (Kind = struct CommandTag) or benchmarks (Kind = struct BenchmarkTag) that the
/// files of app/cli register at static initialisation, so that adding one is adding a file:
///
///     namespace { const bool registered = Registry<CommandTag>::add({"inspect", "...", runInspect, 10}); }
template <typename Kind>
class Registry {
public:
    static bool add(CommandInfo info)
    {
        entries().push_back(info);
        return true;
    }
    /// Every entry, by `order` then name.
    static std::vector<CommandInfo> all()
    {
        std::vector<CommandInfo> sorted = entries();
        std::sort(sorted.begin(), sorted.end(), [](const CommandInfo& a, const CommandInfo& b) {
            return a.order != b.order ? a.order < b.order : a.name < b.name;
        });
        return sorted;
    }
    static const CommandInfo* find(std::string_view name)
    {
        for (const CommandInfo& info : entries())
            if (info.name == name)
                return &info;
        return nullptr;
    }

private:
    static std::vector<CommandInfo>& entries()
    {
        static std::vector<CommandInfo> list;
        return list;
    }
};

struct CommandTag;
struct BenchmarkTag;
using Commands = Registry<CommandTag>;
using Benchmarks = Registry<BenchmarkTag>;

} // namespace flint::app
