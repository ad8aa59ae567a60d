// SPDX-License-Identifier: MIT
#pragma once

namespace flint::core {

/// Asks the C library to keep freed memory for reuse instead of returning it to the kernel. An
/// estimate of a large workload allocates and frees some hundred MB (programs, timelines, the
/// communication matrix); with glibc's defaults every large block is a fresh mmap that the next
/// estimate faults in page by page again, which under virtualisation costs more than the
/// simulation itself. Programs that estimate repeatedly (the explorer, `flint sweep`, `flint bench`)
/// call this once at start-up. No effect outside glibc.
void retainFreedMemory();

} // namespace flint::core
