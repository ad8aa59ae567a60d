// SPDX-License-Identifier: MIT
#include "cli/benchsupport.h"

#include <fstream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

double heapInUseMiB()
{
#if defined(__GLIBC__)
    const struct mallinfo2 info = mallinfo2();
    return static_cast<double>(info.uordblks + info.hblkhd) / 1048576.0;
#else
    return currentMemoryMiB();
#endif
}

void resetPeakMemory()
{
    // Writing "5" to clear_refs resets the peak RSS (VmHWM) of the process.
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

} // namespace flint::app
