// SPDX-License-Identifier: MIT
// `flint bench profile`: read speed of a large PyTorch profiler (Kineto) trace.
#include "cli/benchsupport.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/measured/measuredworkload.h"
#include "core/measured/profile.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace flint::app {
namespace {

/// Writes a Kineto-shaped trace of about `megabytes` MiB to `path`: per unit of work a host operator,
/// its launch, a kernel with the arguments CUPTI records and a flow pair, as in a real trace (the
/// event mix of HTA's 2-rank DDP sample); every 40th unit an NCCL all-reduce with PyTorch's
/// collective arguments; one ProfilerStep over all. Returns the complete events written.
std::uint64_t writeSyntheticTrace(const std::string& path, std::uint64_t megabytes)
{
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file)
        throw core::OutputError("cannot write " + path);
    std::string chunk;
    chunk.reserve(1 << 22);
    const std::uint64_t target = megabytes << 20;
    std::uint64_t written = 0, events = 0;
    const auto flush = [&] {
        if (std::fwrite(chunk.data(), 1, chunk.size(), file) != chunk.size()) {
            std::fclose(file);
            throw core::OutputError("cannot write " + path);
        }
        written += chunk.size();
        chunk.clear();
    };
    chunk += "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1, "
             "\"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"ranks\": [0]}]},\n"
             "\"traceEvents\": [\n";
    char line[2048];
    double ts = 1000.0;
    std::uint64_t unit = 0;
    while (written + chunk.size() < target) {
        const std::uint64_t id = unit + 1;
        std::snprintf(line, sizeof line,
                      "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 2910249, \"tid\": "
                      "2910249, \"ts\": %.3f, \"dur\": 21.504, \"args\": {\"External id\": %llu, \"Record function "
                      "id\": %llu, \"Ev Idx\": %llu, \"Input Dims\": [[4096], [4096, 1024], [1024, 4096], [], []], "
                      "\"Input type\": [\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]}},\n",
                      ts, static_cast<unsigned long long>(id), static_cast<unsigned long long>(id),
                      static_cast<unsigned long long>(unit));
        chunk += line;
        std::snprintf(
            line, sizeof line,
            "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 2910249, "
            "\"tid\": 2910249, \"ts\": %.3f, \"dur\": 5.120, \"args\": {\"External id\": %llu, \"cbid\": 211, "
            "\"correlation\": %llu}},\n"
            "  {\"ph\": \"s\", \"id\": %llu, \"pid\": 2910249, \"tid\": 2910249, \"ts\": %.3f, \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\"},\n",
            ts + 10, static_cast<unsigned long long>(id), static_cast<unsigned long long>(id),
            static_cast<unsigned long long>(id), ts + 10);
        chunk += line;
        const bool nccl = unit % 40 == 39;
        if (nccl)
            std::snprintf(
                line, sizeof line,
                "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce_RING_LL_Sum_float("
                "ncclDevComm*, unsigned long, ncclWork*)\", \"pid\": 0, \"tid\": 40, \"ts\": %.3f, \"dur\": "
                "96.250, \"args\": {\"External id\": %llu, \"queued\": 0, \"device\": 0, \"context\": 1, "
                "\"stream\": 40, \"correlation\": %llu, \"registers per thread\": 96, \"shared memory\": 87568, "
                "\"blocks per SM\": 0.074074, \"warps per SM\": 1.259259, \"grid\": [8, 1, 1], \"block\": "
                "[544, 1, 1], \"est. achieved occupancy %%\": 0, \"Collective name\": \"allreduce\", \"In msg "
                "nelems\": 6637568, \"Out msg nelems\": 6637568, \"Group size\": 1, \"dtype\": \"Float\", "
                "\"In split size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": \"0\", "
                "\"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"[0]\"}},\n",
                ts + 20, static_cast<unsigned long long>(id), static_cast<unsigned long long>(id));
        else
            std::snprintf(
                line, sizeof line,
                "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void cutlass::Kernel<cutlass_80_tensorop_"
                "s1688gemm_256x64_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)"
                "\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": 17.376, \"args\": {\"External id\": %llu, "
                "\"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": %llu, "
                "\"registers per thread\": 232, \"shared memory\": 65536, \"blocks per SM\": 1.185185, "
                "\"warps per SM\": 9.481481, \"grid\": [16, 8, 1], \"block\": [256, 1, 1], \"est. achieved "
                "occupancy %%\": 12}},\n",
                ts + 20, static_cast<unsigned long long>(id), static_cast<unsigned long long>(id));
        chunk += line;
        std::snprintf(line, sizeof line,
                      "  {\"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": %d, \"ts\": %.3f, \"cat\": \"ac2g\", "
                      "\"name\": \"ac2g\", \"bp\": \"e\"},\n",
                      static_cast<unsigned long long>(id), nccl ? 40 : 7, ts + 20);
        chunk += line;
        events += 3;
        ts += nccl ? 120 : 40;
        ++unit;
        if (chunk.size() > (1 << 22) - 4096)
            flush();
    }
    std::snprintf(line, sizeof line,
                  "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 2910249, "
                  "\"tid\": 2910249, \"ts\": 999.000, \"dur\": %.3f, \"args\": {\"External id\": 0}}\n]}\n",
                  ts - 999 + 200);
    chunk += line;
    ++events;
    flush();
    std::fclose(file);
    return events;
}

int runProfileBenchmark(const std::vector<std::string>& arguments)
{
    CommandLine cli("bench profile", "[--megabytes N] [--dir DIR] [--repeat R]",
                    "Benchmark reading a PyTorch profiler (Kineto) trace: write a synthetic trace of --megabytes MiB\n"
                    "of JSON with the event mix of a real one (host ops, launches, kernels with CUPTI's arguments,\n"
                    "flows, NCCL collectives with PyTorch's arguments), then read it (best of --repeat) and build\n"
                    "its workload. Prints MB/s (target: at least 200 MB/s of JSON, issue 16) and events per second.\n"
                    "Exits 1 when the read finds other events than were written.",
                    {{"megabytes", 0, "N", "size of the trace (default 1024)"},
                     {"dir", 0, "DIR", "folder for the trace file (default: a fresh folder in /tmp)"},
                     {"repeat", 0, "R", "reads; the best is reported (default 3)"}});
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    const std::uint64_t megabytes = cli.number("megabytes", 1024);
    const std::uint64_t repeat = std::max<std::uint64_t>(1, cli.number("repeat", 3));
    std::string dir = cli.value("dir");
    bool ownDir = false;
    if (dir.empty()) {
        char pattern[] = "/tmp/flint-bench-profile-XXXXXX";
        if (!mkdtemp(pattern))
            throw core::OutputError("cannot create a folder in /tmp");
        dir = pattern;
        ownDir = true;
    }
    const std::string path = dir + "/trace.json";
    auto start = BenchClock::now();
    const std::uint64_t expected = writeSyntheticTrace(path, megabytes);
    const double bytes = static_cast<double>(std::filesystem::file_size(path));
    std::printf("wrote %.0f MiB (%llu complete events) in %.2f s\n", bytes / 1048576.0,
                static_cast<unsigned long long>(expected), secondsSince(start));
    double best = 1e300;
    core::measured::RankProfile profile;
    resetPeakMemory();
    for (std::uint64_t run = 0; run < repeat; ++run) {
        profile = {};
        start = BenchClock::now();
        profile = core::measured::readProfile(path);
        best = std::min(best, secondsSince(start));
    }
    const double readPeak = peakMemoryMiB();
    std::printf("read:  %.3f s  %.0f MB/s  %.2f M events/s  peak %.0f MiB  (best of %llu)\n", best, bytes / best / 1e6,
                static_cast<double>(profile.events.size()) / best / 1e6, readPeak,
                static_cast<unsigned long long>(repeat));
    const std::size_t events = profile.events.size();
    start = BenchClock::now();
    std::vector<core::measured::RankProfile> profiles;
    profiles.push_back(std::move(profile));
    const core::measured::MeasuredWorkload workload = core::measured::measuredWorkload(std::move(profiles));
    std::printf("workload: %.3f s  %zu ops  measured step %.3f s\n", secondsSince(start),
                workload.workload.programOf(0).ops.size(), workload.stepSeconds());
    if (ownDir)
        std::filesystem::remove_all(dir);
    if (events != expected) {
        std::fprintf(stderr, "read %zu events, wrote %llu\n", events, static_cast<unsigned long long>(expected));
        return 1;
    }
    return ExitSuccess;
}

const bool registered = Benchmarks::add(
    {"profile", "read speed of a large PyTorch profiler trace (MB/s, events/s)", runProfileBenchmark, 45});

} // namespace
} // namespace flint::app
