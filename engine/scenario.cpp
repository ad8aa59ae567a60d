// SPDX-License-Identifier: MIT
#include "engine/scenario.h"

#include "core/error.h"

#include <algorithm>
#include <optional>

namespace flint::engine {
namespace {

/// The cluster `evaluation` is estimated on: sized for its ranks, with the streams its framework
/// runs collectives on unless the user fixed them.
void settleCluster(Evaluation& evaluation)
{
    Scenario& s = evaluation.scenario;
    s.cluster = fitCluster(s.cluster, s.ranks());
    if (evaluation.compiled && !s.commStreamsFixed)
        s.cluster.commStreams = std::max(s.cluster.commStreams, evaluation.compiled->commStreams);
}

} // namespace

std::int64_t Scenario::ranks() const
{
    if (model)
        return parallel.ranks();
    return workload ? static_cast<std::int64_t>(workload->workload.rankCount()) : 0;
}

std::string Evaluation::status() const
{
    if (!problem.empty())
        return problem;
    if (figures && figures->outOfMemory)
        return "out of memory";
    return {};
}

std::optional<Objective> parseObjective(std::string_view text)
{
    if (text == "throughput" || text == "tokens")
        return Objective::Throughput;
    if (text == "mfu")
        return Objective::Mfu;
    return std::nullopt;
}

double score(const Evaluation& evaluation, Objective objective)
{
    if (!evaluation.figures)
        return 0;
    const core::model::StepFigures& f = *evaluation.figures;
    if (objective == Objective::Mfu)
        return f.mfu;
    const auto ranks = static_cast<double>(std::max<std::int64_t>(1, evaluation.scenario.ranks()));
    return f.tokensPerSecond / ranks;
}

int bestIndex(const std::vector<Evaluation>& evaluations, Objective objective)
{
    int best = -1;
    for (std::size_t i = 0; i < evaluations.size(); ++i) {
        if (!evaluations[i].feasible())
            continue;
        if (best < 0 ||
            score(evaluations[i], objective) > score(evaluations[static_cast<std::size_t>(best)], objective))
            best = static_cast<int>(i);
    }
    return best;
}

void scaleBandwidth(core::Cluster& cluster, double factor)
{
    for (core::TopologyDim& dim : cluster.topology.dims)
        dim.bandwidthGBps *= factor;
}

core::Cluster fitCluster(const core::Cluster& cluster, std::int64_t ranks)
{
    // A network file's cluster is named after the file and is no preset: clusterPreset refuses it.
    const std::optional<core::Cluster> shaped = ranks < 1 ? std::nullopt : core::clusterPreset(cluster.name, ranks);
    if (!shaped)
        return cluster;
    core::Cluster fitted = cluster;
    std::vector<core::TopologyDim> dims = shaped->topology.dims;
    // Dimensions both shapes have keep the user's kind, bandwidth and latency; only the NPU counts
    // follow the ranks. A dimension the new shape adds comes from the preset.
    for (std::size_t d = 0; d < dims.size() && d < cluster.topology.dims.size(); ++d) {
        const std::int32_t npus = dims[d].npus;
        dims[d] = cluster.topology.dims[d];
        dims[d].npus = npus;
    }
    fitted.topology.dims = std::move(dims);
    return fitted;
}

namespace {

/// What a compiled strategy warns about on `cluster` beyond its compile warnings: HybridEP forwards
/// inside an NVLink domain, and a domain wider than the cluster's scale-up dimension sends that hop
/// over the network, which HybridEP does not do. Empty when nothing.
std::optional<core::Message> clusterWarning(const core::model::CompiledModel& compiled, const core::Cluster* cluster)
{
    const core::model::ParallelConfig& p = compiled.parallel;
    if (!cluster || !p.dispatchesByHybridEp() || cluster->topology.dims.size() < 2 ||
        p.nvlinkDomain <= cluster->topology.dims.front().npus)
        return {};
    return core::Message(FLINT_TRANSLATE_NOOP("Diagnostics",
                                              "HybridEP's NVLink domain of %1 ranks is wider than the cluster's "
                                              "scale-up dimension of %2 ranks: its in-domain hop crosses the "
                                              "network here"),
                         {std::to_string(p.nvlinkDomain), std::to_string(cluster->topology.dims.front().npus)});
}

} // namespace

std::shared_ptr<const core::LoadedWorkload> asLoadedWorkload(const core::model::CompiledModel& compiled,
                                                             const core::Cluster* cluster)
{
    auto loaded = std::make_shared<core::LoadedWorkload>();
    loaded->kind = core::InputKind::BuiltinModel;
    loaded->workload = compiled.workload;
    loaded->name = compiled.model.title + " — " + compiled.parallel.describe();
    loaded->warnings = compiled.warnings;
    if (std::optional<core::Message> warning = clusterWarning(compiled, cluster))
        loaded->warnings.push_back(std::move(*warning));
    // One template per plural form: a count that decides a plural picks its template (translations/README.md).
    loaded->notes.emplace_back(
        compiled.parallel.pp == 1
            ? FLINT_TRANSLATE_NOOP("Diagnostics", "generated as StableHLO blocks, partitioned for the stage "
                                                  "mesh %1 and composed into %2 pipeline stage program "
                                                  "(docs/models.md)")
            : FLINT_TRANSLATE_NOOP("Diagnostics", "generated as StableHLO blocks, partitioned for the stage "
                                                  "mesh %1 and composed into %2 pipeline stage programs "
                                                  "(docs/models.md)"),
        std::vector<std::string>{compiled.meshText, std::to_string(compiled.parallel.pp)});
    loaded->numPartitions = static_cast<std::int64_t>(compiled.workload.rankCount());
    return loaded;
}

Evaluation prepare(const Scenario& scenario, core::model::ModelCompiler* compiler, const core::JobControl& control)
{
    Evaluation e;
    e.scenario = scenario;
    if (scenario.model) {
#if defined(FLINT_HAVE_MODELS)
        const auto problems = core::model::validateStrategy(*scenario.model, scenario.parallel);
        if (!problems.empty()) {
            e.problem = problems.front().message;
            return e;
        }
        if (compiler == nullptr)
            throw std::logic_error("engine::prepare: a model scenario needs a model compiler");
        e.compiled = std::make_shared<const core::model::CompiledModel>(
            compiler->compile(*scenario.model, scenario.parallel, control));
        settleCluster(e);
        e.workload = asLoadedWorkload(*e.compiled, &e.scenario.cluster);
#else
        (void)compiler;
        (void)control;
        throw core::InputError("model", "this build has no MLIR frontend (FLINT_BUILD_MLIR=OFF), which built-in "
                                        "models compile through");
#endif
    } else {
        if (!scenario.workload)
            throw std::logic_error("engine::prepare: a scenario needs a model or a workload");
        e.workload = scenario.workload;
        settleCluster(e);
    }
    return e;
}

Evaluation rebind(const Evaluation& prepared, const core::Cluster& cluster)
{
    Evaluation e = prepared;
    e.result.reset();
    e.figures.reset();
    e.scenario.cluster = cluster;
    settleCluster(e);
#if defined(FLINT_HAVE_MODELS)
    // The warnings that depend on the cluster follow it (the workload itself does not change, so it
    // is copied only when they do).
    if (e.compiled &&
        clusterWarning(*e.compiled, &e.scenario.cluster) != clusterWarning(*e.compiled, &prepared.scenario.cluster))
        e.workload = asLoadedWorkload(*e.compiled, &e.scenario.cluster);
#endif
    return e;
}

void estimate(Evaluation& prepared, const core::JobControl& control)
{
    if (!prepared.problem.empty() || !prepared.workload)
        return;
    prepared.result =
        core::estimate(prepared.workload->workload, prepared.scenario.cluster, prepared.scenario.options, control);
#if defined(FLINT_HAVE_MODELS)
    if (prepared.compiled)
        prepared.figures = core::model::stepFigures(*prepared.compiled, *prepared.result, prepared.scenario.cluster);
#endif
}

Evaluation evaluate(const Scenario& scenario, core::model::ModelCompiler* compiler, const core::JobControl& control)
{
    Evaluation e = prepare(scenario, compiler, control);
    estimate(e, control);
    return e;
}

std::vector<Evaluation> evaluateAll(const std::vector<Scenario>& scenarios, core::model::ModelCompiler* compiler,
                                    const core::JobControl& control,
                                    const std::function<void(std::size_t, const Evaluation&)>& each)
{
    std::vector<Evaluation> out;
    out.reserve(scenarios.size());
    core::JobControl point; // progress is reported per point, not within one
    point.cancel = control.cancel;
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        control.check();
        Evaluation e;
        try {
            e = evaluate(scenarios[i], compiler, point);
        } catch (const core::Cancelled&) {
            throw;
        } catch (const std::exception& error) {
            e = Evaluation{};
            e.scenario = scenarios[i];
            e.problem = error.what();
        }
        // A sweep keeps its points' figures, not their workloads (a point is re-evaluated to be shown).
        e.compiled.reset();
        e.workload.reset();
        control.report(static_cast<double>(i + 1) / static_cast<double>(scenarios.size()));
        if (each)
            each(i, e);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace flint::engine
