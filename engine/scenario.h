// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/model/modelconfig.h"
#include "core/progress.h"
#include "engine/modelcompiler.h"
#include "engine/workloadloader.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The scenario engine (docs/architecture.md, "One engine"): what a what-if evaluates, and the one
// way it is evaluated. The explorer's session and sweep page, `flint model estimate`, `flint sweep`
// and `flint bench validation` all go through evaluate(); none of them sizes a cluster, picks
// communication streams, scales bandwidth or chooses a best point on its own.
namespace flint::engine {

/// What a what-if evaluates: a workload source (a built-in model with its strategy, or a workload
/// read from a file), the cluster and the estimator's options.
struct Scenario {
    /// A built-in model, compiled for `parallel`; unset when the source is `workload`.
    std::optional<core::model::TransformerConfig> model;
    core::model::ParallelConfig parallel;
    /// The source when `model` is unset: a workload read from a file or built in memory.
    std::shared_ptr<const core::LoadedWorkload> workload;
    core::Cluster cluster;
    /// The user set the communication streams (`--comm-streams`): keep them. Otherwise a built-in
    /// model's framework gets at least the streams it runs collectives on (CompiledModel::commStreams).
    bool commStreamsFixed = false;
    core::EstimateOptions options;

    bool isModel() const { return model.has_value(); }
    /// The ranks the scenario runs on: the strategy's for a model, the workload's otherwise.
    std::int64_t ranks() const;
};

/// A scenario as evaluated. `scenario` is exactly what was computed: its cluster is the one the
/// estimate ran on (sized for the ranks, with the framework's streams), so views and explanations
/// describe that and nothing else.
struct Evaluation {
    Scenario scenario;
    /// The compiled model (built-in models only).
    std::shared_ptr<const core::model::CompiledModel> compiled;
    /// What is estimated: the loaded workload, or the compiled model's as a LoadedWorkload.
    std::shared_ptr<const core::LoadedWorkload> workload;
    /// Null until estimated, and when the scenario is infeasible before estimating.
    std::shared_ptr<const core::EstimateResult> result;
    /// Built-in models: step time, tokens/s, MFU, bubble, exposed communication, memory.
    std::optional<core::model::StepFigures> figures;
    /// Why the scenario was not estimated (an invalid strategy, an option out of range); "" else.
    std::string problem;

    /// Estimated and fits in memory. A point of a distributed sweep that another process evaluated
    /// arrives with its figures alone (`flint sweep` under mpirun): that counts as estimated.
    bool estimated() const { return result != nullptr || figures.has_value(); }
    bool feasible() const { return problem.empty() && estimated() && !(figures && figures->outOfMemory); }
    /// "" when feasible, else the problem or "out of memory".
    std::string status() const;
};

/// What "best" means in a sweep.
enum class Objective {
    /// Most tokens per second per GPU: the fastest step when the GPU count is fixed, and a fair
    /// comparison when a sweep varies it.
    Throughput,
    /// Highest model FLOPs utilisation.
    Mfu,
};
std::optional<Objective> parseObjective(std::string_view text);
/// The objective's figure for a feasible evaluation (larger is better).
double score(const Evaluation& evaluation, Objective objective);
/// The index of the best feasible evaluation, or -1 when none is feasible.
int bestIndex(const std::vector<Evaluation>& evaluations, Objective objective);

/// The one bandwidth-scaling rule: every network dimension's bandwidth times `factor` (> 0).
void scaleBandwidth(core::Cluster& cluster, double factor);

/// The one cluster-sizing rule: a preset cluster takes the preset's shape for `ranks` (the
/// outermost dimension grows or shrinks; dimensions come and go at node boundaries) and keeps what
/// the user set on the dimensions both shapes share (kind, bandwidth, latency) and everything else
/// (device, collective algorithms, cost model, streams). A cluster that is no preset (a network
/// file) is left as it is: its size is the user's.
core::Cluster fitCluster(const core::Cluster& cluster, std::int64_t ranks);

/// A compiled model as the LoadedWorkload the views and exports take; with the cluster it will run
/// on, warnings about choices the cluster does not fit (a HybridEP NVLink domain wider than a node).
std::shared_ptr<const core::LoadedWorkload> asLoadedWorkload(const core::model::CompiledModel& compiled,
                                                             const core::Cluster* cluster = nullptr);

/// First stage: compiles a model (with `compiler`, whose lowered blocks are reused between calls;
/// required for models) or takes the workload, then settles the cluster (fitCluster, streams). An
/// invalid strategy is reported in Evaluation::problem, not thrown. Throws Cancelled, and the
/// compiler's and loader's errors for anything else.
Evaluation prepare(const Scenario& scenario, core::model::ModelCompiler* compiler,
                   const core::JobControl& control = {});
/// `prepared` on another cluster, settled as prepare() settles it; not estimated yet.
Evaluation rebind(const Evaluation& prepared, const core::Cluster& cluster);
/// Second stage: estimates a prepared evaluation and derives its figures. Throws InputError (the
/// workload does not fit the cluster), Cancelled.
void estimate(Evaluation& prepared, const core::JobControl& control = {});
/// prepare() then estimate(): the one way a scenario is evaluated.
Evaluation evaluate(const Scenario& scenario, core::model::ModelCompiler* compiler,
                    const core::JobControl& control = {});

/// Evaluates `scenarios` in order with one compiler (blocks shared between points). A point that
/// fails (an invalid strategy, a cluster that does not fit) records its problem and the sweep goes
/// on; Cancelled ends it. Points keep their figures and results but not their compiled workloads
/// (re-evaluate one to look at it); `each` is called after every point with its index and evaluation.
std::vector<Evaluation> evaluateAll(const std::vector<Scenario>& scenarios, core::model::ModelCompiler* compiler,
                                    const core::JobControl& control = {},
                                    const std::function<void(std::size_t, const Evaluation&)>& each = {});

} // namespace flint::engine
