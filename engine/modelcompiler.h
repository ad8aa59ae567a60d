// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/message.h"
#include "core/model/modelconfig.h"
#include "core/model/modelgenerator.h"
#include "core/progress.h"
#include "core/workload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The model compiler (issue 7): generated blocks (core/model/modelgenerator.h) through the MLIR
// frontend's partitioner and lowering, then the pipeline layer above them: one program per pipeline
// stage with the blocks in schedule order, point-to-point transfers between stages, gradient
// synchronisation after the last microbatch and the optimizer step. docs/models.md.
namespace flint::core::model {

/// A model and strategy compiled to per-rank workloads, with what the strategy implies analytically.
struct CompiledModel {
    TransformerConfig model;
    ParallelConfig parallel;
    Workload workload;
    MemoryBreakdown memory;    ///< the busiest rank's peak
    double modelFlops = 0;     ///< per step (modelFlopsPerStep)
    double bubbleFraction = 0; ///< by the schedule alone
    double tokensPerStep = 0;  ///< trained or processed tokens (decode: generated tokens)
    std::string meshText;      ///< the stage mesh the blocks were partitioned for ("dp=16,tp=8")
    /// Communication streams the framework runs collectives on: Megatron-LM reduces data-parallel
    /// gradients on a stream (communicator) of its own beside the tensor-parallel collectives, so an
    /// estimate should give the cluster at least this many (Cluster::commStreams).
    std::int32_t commStreams = 2;
    std::size_t blocksLowered = 0; ///< blocks parsed, partitioned and lowered for this build
    std::size_t blocksReused = 0;  ///< blocks taken from the cache (all of them for a model kept whole)
    std::vector<Message> warnings;
};

/// Compiles models. Keeps lowered blocks by their text, so that a change that leaves a block's text
/// alone (a different PP or schedule, say) reuses it, and the last few compiled models, so that going
/// back to a strategy (undo, redo, a history entry, an A/B toggle) returns the same programs, which
/// the estimator's EstimateCache then finds too. Thread-safe.
class ModelCompiler {
public:
    ModelCompiler();
    ~ModelCompiler();

    /// Throws InputError("strategy", why and what to try) when validateStrategy finds problems, and
    /// Cancelled.
    CompiledModel compile(const TransformerConfig& model, const ParallelConfig& parallel,
                          const JobControl& control = {});
    /// The StableHLO text of every distinct block compile() would lower, by a display name.
    static std::vector<std::pair<std::string, std::string>> blockTexts(const TransformerConfig& model,
                                                                       const ParallelConfig& parallel);

    struct LoweredBlock;

private:
    /// A compiled model kept for this strategy, or null (moved to the front when found).
    std::shared_ptr<const CompiledModel> recent(const TransformerConfig& model, const ParallelConfig& parallel);
    /// Keeps `compiled` as the most recent, dropping the oldest beyond the limits below.
    void keep(const CompiledModel& compiled);
    std::shared_ptr<const LoweredBlock> lower(const std::string& text, const std::string& mesh, bool& reused);

    /// Compiled models kept for a return to their strategy: at most this many, and together at most
    /// kRecentOps ops (240 bytes each: GPT-3 175B with PP 8 is 411,572 ops, about 94 MiB).
    static constexpr std::size_t kRecentModels = 3;
    static constexpr std::size_t kRecentOps = 1'500'000;

    std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<const LoweredBlock>> m_cache;
    std::vector<std::shared_ptr<const CompiledModel>> m_recent; ///< most recently used first
};

/// The figures of issue 7 for one estimate of a compiled model.
struct StepFigures {
    double stepTime = 0; ///< seconds
    double tokensPerSecond = 0;
    /// Model FLOPs utilisation: model FLOPs per step / (step time x ranks x the device's dense BF16
    /// peak) (Chowdhery et al. 2022, PaLM, Appendix B; BF16 peak for FP8 runs too, as Llama 3's
    /// Table 4 reports "BF16 MFU", so that FP8 and BF16 runs compare).
    double mfu = 0;
    double bubbleFraction = 0;      ///< the schedule's (pipelineBubbleFraction)
    double exposedCommFraction = 0; ///< the busiest rank's exposed communication / step time
    double memoryBytes = 0;         ///< the busiest rank's peak
    double memoryCapacity = 0;      ///< the device's
    bool outOfMemory = false;
};
StepFigures stepFigures(const CompiledModel& compiled, const EstimateResult& estimate, const Cluster& cluster);

} // namespace flint::core::model
