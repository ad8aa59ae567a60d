// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace flint::core {

void retainFreedMemory()
{
#if defined(__GLIBC__)
    // Serve large blocks from the heap (not mmap) and do not trim its top on free: memory freed by
    // one estimate is reused by the next without page faults.
    // glibc accepts at most 32 MiB (4 MiB x sizeof(long)) here; larger values are ignored.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

} // namespace flint::core
