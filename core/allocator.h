// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace flint::core {

/// Asks the C library to keep freed memory for reuse instead of returning it to the kernel. An
/// estimate of a large workload allocates and frees some hundred MB (programs, timelines, the
/// communication matrix); with glibc's defaults every large block is a fresh mmap that the next
/// estimate faults in page by page again, which under virtualisation costs more than the
/// simulation itself. Programs that estimate repeatedly (the explorer, `flint sweep`, `flint bench`)
/// call this once at start-up; LargeBuffer then keeps a few freed blocks for reuse as well. No
/// effect on the C library outside glibc.
void retainFreedMemory();

/// Restarts the program (execv of /proc/self/exe with the same arguments) with glibc's heap asking
/// for transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35 and later), unless
/// that is already set, the kernel's transparent huge pages are "never", FLINT_NO_REEXEC is set, an
/// MPI launcher started the process, the build uses AddressSanitizer (whose allocator is not
/// glibc's) or the program runs under valgrind. Call it first thing in main(): a tunable is read only when a
/// program starts. On the 2-core development VM, where faulting in fresh 4 KiB pages costs more than
/// the work, `flint bench model`'s cold compile and estimate of GPT-3 175B on 1,024 GPUs took
/// 0.54-0.69 s with 4 KiB pages and 0.20-0.43 s with the tunable. The restart costs one more load
/// of the program's libraries (about 80 ms), so quick commands (--help, --version) skip it. Returns
/// only when it did not restart.
void useHugePageHeap(char** argv);

/// Uninitialised memory for arrays of some MB to some GB (the estimator's per-op state and
/// timelines). Blocks of 2 MiB and more are mapped on their own and asked to be backed by 2 MiB
/// pages (madvise MADV_HUGEPAGE, which Linux honours when transparent huge pages are "always" or
/// "madvise"): touching fresh memory page by page is what large estimates spend most time on under
/// virtualisation. Measured on the 2-core development VM (THP "madvise"), first touch of 1 GiB: 2.8 s
/// with 4 KiB pages, 0.14-0.8 s with 2 MiB pages. After retainFreedMemory(), freed blocks are kept
/// (a few, newest first) and handed out again for requests they fit.
class LargeBuffer {
public:
    LargeBuffer() = default;
    explicit LargeBuffer(std::size_t bytes);
    ~LargeBuffer();
    LargeBuffer(LargeBuffer&& other) noexcept;
    LargeBuffer& operator=(LargeBuffer&& other) noexcept;
    LargeBuffer(const LargeBuffer&) = delete;
    LargeBuffer& operator=(const LargeBuffer&) = delete;

    void* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    /// The block as an array of T, suitably aligned (blocks are aligned to 64 bytes at least).
    template <class T>
    T* as() const
    {
        return static_cast<T*>(m_data);
    }

private:
    void release() noexcept;

    void* m_data = nullptr;
    std::size_t m_size = 0;     ///< what was asked for
    std::size_t m_capacity = 0; ///< what is held (mapped blocks: whole 2 MiB pages); 0 = from malloc
};

} // namespace flint::core
