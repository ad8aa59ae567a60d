// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelconfig.h"

#include <cstdint>
#include <vector>

namespace flint::core::model {

/// One unit of a pipeline rank's work: the forward or backward pass of one microbatch through one
/// of the rank's model chunks (chunk 0 unless the schedule is interleaved).
struct PipelineStep {
    bool backward = false;
    std::int64_t microbatch = 0;
    std::int64_t chunk = 0;

    friend bool operator==(const PipelineStep&, const PipelineStep&) = default;
};

/// The order in which pipeline stage `stage` (0-based, of `stages`) runs its steps:
/// - GPipe: every forward, then every backward (Huang et al. 2019);
/// - 1F1B: `stages - stage - 1` warm-up forwards, then one forward and one backward in turn, then
///   the remaining backwards (PipeDream-Flush; Narayanan et al. 2021, Sec. 2.2.1);
/// - interleaved 1F1B: the rank holds `virtualStages` chunks; forwards visit microbatches in groups
///   of `stages` per chunk, with (stages - stage - 1) * 2 + (virtualStages - 1) * stages warm-up
///   forwards (Narayanan et al. 2021, Sec. 2.2.2, as Megatron-LM schedules it). Needs
///   microbatches % stages == 0.
/// Without `training` only the forwards are listed (inference: prefill or decode).
std::vector<PipelineStep> pipelineOrder(PipelineSchedule schedule, std::int64_t stages, std::int64_t virtualStages,
                                        std::int64_t microbatches, std::int64_t stage, bool training = true);

/// The most chunk-forwards whose activations are held at once (forwards done, backwards not yet)
/// over `order`.
std::int64_t peakChunksInFlight(const std::vector<PipelineStep>& order);

/// A step of an idealised schedule, in units of one microbatch's forward pass through a whole stage.
struct TimedStep {
    PipelineStep step;
    double start = 0;
    double end = 0;
};

/// Every stage's steps in pipelineOrder's order, timed as if a forward pass through a chunk took
/// `forward` / virtualStages, a backward pass `backward` / virtualStages, and nothing else did (no
/// communication, equal stages): each step starts once the stage is free and the step it needs has
/// ended (a forward the same microbatch's forward one virtual stage earlier, a backward the one a
/// virtual stage later, or on the last its own forward). The idle time it leaves is the schedule's
/// bubble, the textbook picture of a pipeline (Narayanan et al. 2021, Fig. 3 and 4). Training only.
std::vector<std::vector<TimedStep>> idealPipeline(PipelineSchedule schedule, std::int64_t stages,
                                                  std::int64_t virtualStages, std::int64_t microbatches,
                                                  double forward = 1.0, double backward = 2.0);

} // namespace flint::core::model
