// SPDX-License-Identifier: MIT
#pragma once

#include "core/progress.h"
#include "core/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core::measured {

/// What a profiler event is, from its category.
enum class ProfileEventKind : std::uint8_t {
    CpuOp,      ///< a framework operator on a host thread (Kineto "cpu_op", older "Operator")
    Runtime,    ///< a CUDA/HIP runtime or driver call (a kernel launch, a synchronisation)
    Kernel,     ///< a GPU kernel
    Memcpy,     ///< a GPU copy
    Memset,     ///< a GPU memset
    Annotation, ///< a user range on a host thread (record_function, ProfilerStep#N)
};

/// How a collective or transfer a profiler recorded is described by the framework (PyTorch's
/// record_param_comms arguments, or the kernel's name when the trace carries no metadata).
struct ProfileCollective {
    /// The framework's name ("allreduce", "all_gather", "_allgather_base", "send", ...), the backend
    /// op's ("nccl:all_reduce") or XLA's HLO category ("all-reduce").
    std::string name;
    std::int64_t inElements = -1;  ///< "In msg nelems"; -1 when not recorded
    std::int64_t outElements = -1; ///< "Out msg nelems"
    DType dtype = DType::Unknown;
    std::int32_t groupSize = -1;
    std::string groupName;                ///< "Process Group Name"
    std::string groupDescription;         ///< "Process Group Description"
    std::vector<std::int32_t> groupRanks; ///< "Process Group Ranks" (global ranks); empty when not recorded
    std::int64_t sequence = -1;           ///< "Seq"
    /// XLA: the instruction's HLO text (`long_name`), which holds its operand shapes and replica groups.
    std::string hloText;
    /// The event that carries the record is the collective itself on the device (an XLA op), not a
    /// host-side record of one.
    bool deviceOp = false;
};

/// One complete event ("ph": "X") of one rank's profile. Times in microseconds from the profiler's
/// clock, as written.
struct ProfileEvent {
    double start = 0;
    double duration = 0;
    std::int64_t correlation = -1; ///< links a launch to the kernel it launched
    std::int64_t externalId = -1;  ///< links a kernel or launch to its CPU op
    std::uint64_t bytes = 0;       ///< memcpy/memset bytes when recorded
    std::uint32_t name = 0;        ///< index into RankProfile::names
    std::uint32_t track = 0;       ///< index into RankProfile::tracks
    std::int32_t collective = -1;  ///< index into RankProfile::collectives, -1 when not a collective
    ProfileEventKind kind = ProfileEventKind::CpuOp;
};

/// A host thread or a GPU stream of a profile.
struct ProfileTrack {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool gpu = false;
};

/// A process group a profile describes (PyTorch's distributedInfo.pg_config).
struct ProfileProcessGroup {
    std::string name;
    std::string description;
    std::vector<std::int32_t> ranks;
};

/// One rank's profile as the profiler wrote it: events in file order, names interned.
struct RankProfile {
    std::string file;
    std::string producer;   ///< "PyTorch profiler (Kineto)"
    std::int32_t rank = -1; ///< distributedInfo.rank, -1 when not recorded
    std::int32_t worldSize = -1;
    std::string backend; ///< "nccl", "gloo", ...
    bool rocm = false;   ///< HIP runtime calls seen
    /// An XLA profiler trace (JAX, TensorFlow): processes named "/device:TPU:0", "/device:GPU:1", ...
    /// hold each device's ops. splitDevices() makes one rank of each.
    bool xla = false;
    /// XLA: the device index of each process that is a device (pid -> N of "/device:KIND:N").
    std::vector<std::pair<std::int64_t, std::int32_t>> devices;
    /// XLA: the devices' KIND ("TPU", "GPU"), empty when not recorded.
    std::string deviceKind;
    /// Kineto: the first GPU's name from deviceProperties ("NVIDIA A100-SXM4-80GB"), empty when absent.
    std::string deviceName;
    std::vector<ProfileProcessGroup> processGroups;
    std::vector<ProfileEvent> events;
    std::vector<std::string> names;
    std::vector<ProfileTrack> tracks;
    std::vector<ProfileCollective> collectives;
    std::uint64_t jsonBytes = 0; ///< size of the (inflated) JSON text read

    std::string_view nameOf(const ProfileEvent& e) const { return names[e.name]; }
};

/// True when `head`, the first bytes of a file (inflated if it is gzip), reads like a Chrome-trace
/// JSON profile: an object whose text soon names "traceEvents", or an array of events with "ph".
bool looksLikeProfile(std::string_view head);

/// Reads a PyTorch profiler (Kineto) trace, `.json` or `.json.gz`, also as written by ROCm builds.
/// Throws InputError with the file, the byte offset and line of the JSON text and the reason;
/// Cancelled.
RankProfile readProfile(const std::string& path, const JobControl& control = {});

/// Parses the JSON text of a profile (already inflated) named `file` in errors. Throws InputError,
/// Cancelled.
RankProfile parseProfile(std::string_view text, const std::string& file, const JobControl& control = {});

/// An XLA profiler trace's devices as ranks, by device index (the devices of the `fileIndex`-th
/// of `fileCount` files, `devicesPerFile` each, get ranks fileIndex x devicesPerFile + N): each
/// keeps its own device's op events. A profile that is not XLA's is returned as it is.
std::vector<RankProfile> splitDevices(RankProfile profile, std::size_t fileIndex = 0, std::size_t devicesPerFile = 0);

/// The profile files at `path`: the file itself, or a directory's `*.json` and `*.json.gz` files that
/// read like profiles, ordered by the rank they record (else by name). Throws InputError when there
/// are none.
std::vector<std::string> profileFiles(const std::string& path);

} // namespace flint::core::measured
