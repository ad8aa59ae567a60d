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

/// Bytes of heap memory this process has allocated and not freed, in MiB (glibc's mallinfo2; the
/// resident size elsewhere). Unlike the resident size it shrinks on free, so a difference measures
/// what a structure holds even where freed memory is kept for reuse (core::retainFreedMemory).
double heapInUseMiB();

/// Starts a new peak-memory measurement (Linux 4.0 and later; otherwise the peak is the process's).
void resetPeakMemory();

} // namespace flint::app
