// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>

namespace flint::app {

/// Helpers that every `flint bench` benchmark measures with.
using BenchClock = std::chrono::steady_clock;

/// Seconds elapsed since `start`.
double secondsSince(BenchClock::time_point start);

/// Peak resident set size of this process in MiB since the last resetPeakMemory() (VmHWM).
double peakMemoryMiB();

/// Current resident set size in MiB (VmRSS).
double currentMemoryMiB();

/// Starts a new peak-memory measurement (Linux 4.0 and later; otherwise the peak is the process's).
void resetPeakMemory();

} // namespace flint::app
