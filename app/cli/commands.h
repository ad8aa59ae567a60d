// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace flint::app {

/// Exit statuses of the flint command (documented in docs/cli.md).
enum ExitStatus : int {
    ExitSuccess = 0,
    ExitUsage = 1,    ///< wrong or missing arguments
    ExitBadInput = 2, ///< an input file that cannot be read or parsed
    ExitOutput = 3,   ///< an output that cannot be written (nothing was left behind)
};

int runInspect(const std::vector<std::string>& arguments);
int runConvert(const std::vector<std::string>& arguments);
int runBench(const std::vector<std::string>& arguments);

} // namespace flint::app
