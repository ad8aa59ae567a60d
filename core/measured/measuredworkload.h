// SPDX-License-Identifier: MIT
#pragma once

#include "core/measured/profile.h"
#include "core/message.h"
#include "core/progress.h"
#include "core/workload.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core::measured {

/// What an op of a measured workload was in the profile: the Op attribute kMeasuredAttribute (a
/// string), so that it survives a Chakra export.
enum class MeasuredKind : std::uint8_t {
    Kernel,  ///< a GPU kernel (not communication)
    Memcpy,  ///< a GPU copy
    Memset,  ///< a GPU memset
    HostOp,  ///< a framework operator of a CPU-only run: the host is the device
    HostGap, ///< time the device stream waited for the host (launch latency, Python, data loading)
    Communication,
};

/// The kind an op of a measured workload was; nullopt for an op of any other workload.
std::optional<MeasuredKind> measuredKindOf(const Op& op);
std::string_view displayName(MeasuredKind kind);

struct MeasuredOptions {
    /// The profiler step (ProfilerStep#N) to cut; -1: the first step that every rank completed. XLA
    /// traces: the execution (0-based) of the program with the most device time; -1: the first when
    /// it ran more than once, else the whole trace.
    std::int64_t step = -1;
};

/// One rank of a measured workload, as it ran.
struct MeasuredRank {
    std::string file;
    /// The step's start on this rank's profiler clock, in microseconds (op start times are relative).
    double stepStartMicros = 0;
    /// The step as measured, in seconds: from the step marker's start to the later of its end and the
    /// end of the last device op the step launched.
    double stepSeconds = 0;
    bool device = false; ///< GPU activity recorded (else a CPU-only run: host operators are the compute)
    std::uint64_t kernels = 0, memcpys = 0, memsets = 0, hostOps = 0, collectives = 0;
    double hostGapSeconds = 0; ///< time the device stream waited for the host
    /// Compute the trace shows on more than one stream at once, in seconds: the workload runs compute
    /// on one stream, so a replay serialises it.
    double concurrentComputeSeconds = 0;
};

/// A measured run as a workload: every rank's step as the profile recorded it, compute ops with
/// their measured durations, collectives with their bytes and groups, dependencies from stream order,
/// launches and waits. Times are whole microseconds (Chakra's unit); start and end are rounded, not
/// the duration, so that a chain of ops keeps its measured span.
struct MeasuredWorkload {
    Workload workload;
    std::string name;
    std::string producer;
    /// The devices' kind where the profile names it (XLA: "TPU", "GPU"); empty otherwise.
    std::string deviceKind;
    /// The GPU the run was measured on, as the profile names it ("NVIDIA A100-PG509-200"); empty
    /// when not recorded.
    std::string deviceName;
    /// The step cut: a ProfilerStep number, or for XLA traces an execution of the step program
    /// (0-based); -1 when the whole trace is the step.
    std::int64_t step = -1;
    /// What `step` names: "ProfilerStep#3", "execution 2 of jit_train_step(…) to the
    /// start of execution 3"; empty when -1.
    std::string stepName;
    std::vector<MeasuredRank> ranks;
    std::vector<Message> warnings;
    std::vector<Message> notes;

    /// The measured step time: the slowest rank's, in seconds.
    double stepSeconds() const;
};

/// Builds the workload of `profiles` (one per rank; ranks from their distributedInfo, else in the
/// given order). Throws InputError naming the file and the reason when ranks disagree (the step
/// is missing on a rank, a rank is recorded twice, a group's members record different collectives).
MeasuredWorkload measuredWorkload(std::vector<RankProfile> profiles, const MeasuredOptions& options = {});

/// A workload whose ops carry recorded times (a Chakra trace with duration_micros, such as a
/// communication replay writes, or a converted profile) as a measured run: each rank's step runs
/// from time 0 of the trace to the end of its last op, its counts from its ops' kinds. Collective
/// durations are taken as written (a replay writes transfer times). Throws InputError naming
/// `name` when a rank records no time at all.
MeasuredWorkload measuredFromRecorded(Workload workload, const std::string& name);

/// Reads the profile at `path` (a file, or a folder of one file per rank) and builds its workload.
/// Throws InputError, Cancelled.
MeasuredWorkload readMeasuredWorkload(const std::string& path, const MeasuredOptions& options = {},
                                      const JobControl& control = {});

} // namespace flint::core::measured
