// SPDX-License-Identifier: MIT
#include "cli/benchsupport.h"

#include <fstream>
#include <string>

namespace flint::app {
namespace {

double statusFieldMiB(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line))
        if (line.starts_with(prefix))
            return std::stod(line.substr(prefix.size())) / 1024.0;
    return 0.0;
}

} // namespace

double secondsSince(BenchClock::time_point start)
{
    return std::chrono::duration<double>(BenchClock::now() - start).count();
}

double peakMemoryMiB()
{
    return statusFieldMiB("VmHWM");
}

double currentMemoryMiB()
{
    return statusFieldMiB("VmRSS");
}

void resetPeakMemory()
{
    // Writing "5" to clear_refs resets the peak RSS (VmHWM) of the process.
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

} // namespace flint::app
