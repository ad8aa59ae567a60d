// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace flint::core {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kKeptBlocks = 4;

/// Freed mapped blocks kept for reuse (after retainFreedMemory), newest last.
struct BlockCache {
    std::mutex mutex;
    bool enabled = false;
    std::vector<std::pair<void*, std::size_t>> blocks;
};

BlockCache& cache()
{
    static BlockCache instance;
    return instance;
}

#if defined(__linux__)
/// A block of at least `capacity` bytes (a whole number of huge pages); sets `capacity` to what it holds.
void* mapBlock(std::size_t& capacity)
{
    {
        BlockCache& c = cache();
        const std::lock_guard lock(c.mutex);
        // The smallest kept block that fits without holding more than twice what is asked for.
        auto best = c.blocks.end();
        for (auto it = c.blocks.begin(); it != c.blocks.end(); ++it)
            if (it->second >= capacity && it->second <= 2 * capacity &&
                (best == c.blocks.end() || it->second < best->second))
                best = it;
        if (best != c.blocks.end()) {
            void* data = best->first;
            capacity = best->second;
            c.blocks.erase(best);
            return data;
        }
    }
    // Over-map by one huge page and trim, so that the block starts on a 2 MiB boundary (a huge
    // page can only back an aligned 2 MiB range).
    const std::size_t mapped = capacity + kHugePage;
    void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    // Aligning a mapping is integer arithmetic on its address (NOLINTs: the casts are the point).
    const auto address = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (address + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > address)
        munmap(raw, aligned - address);
    if (const std::uintptr_t tail = address + mapped - (aligned + capacity); tail > 0)
        munmap(reinterpret_cast<void*>(aligned + capacity), tail); // NOLINT(performance-no-int-to-ptr)
    void* data = reinterpret_cast<void*>(aligned);                 // NOLINT(performance-no-int-to-ptr)
    madvise(data, capacity, MADV_HUGEPAGE);                        // advice only: without it the block still works
    return data;
}

void unmapBlock(void* data, std::size_t capacity) noexcept
{
    BlockCache& c = cache();
    {
        const std::lock_guard lock(c.mutex);
        if (c.enabled) {
            c.blocks.emplace_back(data, capacity);
            if (c.blocks.size() <= kKeptBlocks)
                return;
            std::tie(data, capacity) = c.blocks.front();
            c.blocks.erase(c.blocks.begin());
        }
    }
    munmap(data, capacity);
}
#endif

} // namespace

void useHugePageHeap(char** argv)
{
#if defined(__GLIBC__) && defined(__linux__)
#if defined(__SANITIZE_ADDRESS__)
    constexpr bool kSanitized = true; // AddressSanitizer's allocator is not glibc's: nothing to gain
#else
    constexpr bool kSanitized = false;
#endif
    constexpr const char* kTunable = "glibc.malloc.hugetlb=1";
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (kSanitized || argv == nullptr || argv[0] == nullptr || std::getenv("FLINT_NO_REEXEC") != nullptr ||
        (tunables != nullptr && std::strstr(tunables, "glibc.malloc.hugetlb") != nullptr))
        return;
    // Processes started by an MPI launcher are left as they were started.
    if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr)
        return;
    // Valgrind runs the program inside its own: /proc/self/exe would be valgrind's tool.
    if (const char* preload = std::getenv("LD_PRELOAD"); preload != nullptr && std::strstr(preload, "vgpreload"))
        return;
    {
        std::FILE* mode = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
        if (mode == nullptr)
            return;
        char text[128] = {};
        const std::size_t read = std::fread(text, 1, sizeof text - 1, mode);
        std::fclose(mode);
        text[read] = '\0';
        if (std::strstr(text, "[never]") != nullptr)
            return;
    }
    const std::string value =
        tunables != nullptr && *tunables != '\0' ? std::string(tunables) + ":" + kTunable : std::string(kTunable);
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Not restarted (no /proc, say): go on with the default heap; the variable is harmless.
#else
    (void)argv;
#endif
}

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
    BlockCache& c = cache();
    const std::lock_guard lock(c.mutex);
    c.enabled = true;
}

LargeBuffer::LargeBuffer(std::size_t bytes)
    : m_size(bytes)
{
#if defined(__linux__)
    if (bytes >= kHugePage) {
        m_capacity = (bytes + kHugePage - 1) & ~(kHugePage - 1);
        m_data = mapBlock(m_capacity);
        return;
    }
#endif
    m_data = std::aligned_alloc(64, std::max<std::size_t>(64, (bytes + 63) & ~std::size_t{63}));
    if (!m_data)
        throw std::bad_alloc();
}

LargeBuffer::~LargeBuffer()
{
    release();
}

LargeBuffer::LargeBuffer(LargeBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr))
    , m_size(std::exchange(other.m_size, 0))
    , m_capacity(std::exchange(other.m_capacity, 0))
{}

LargeBuffer& LargeBuffer::operator=(LargeBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
    }
    return *this;
}

void LargeBuffer::release() noexcept
{
    if (!m_data)
        return;
#if defined(__linux__)
    if (m_capacity > 0) {
        unmapBlock(m_data, m_capacity);
        m_data = nullptr;
        return;
    }
#endif
    std::free(m_data);
    m_data = nullptr;
}

} // namespace flint::core
