// SPDX-License-Identifier: MIT
// `flint replay`: a workload's communication run for real over MPI, compute replaced by waits
// (docs/replay.md).
#include "cli/clusteroptions.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/mpicommand.h"
#include "cli/workloadinput.h"
#include "core/chakra.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#include "core/estimator/estimateexport.h"
#include "core/fileio.h"
#include "core/measured/validation.h"
#include "core/replay/replayplan.h"
#include "engine/mpireplay.h"
#include "engine/mpisupport.h"

#ifdef FLINT_HAVE_MLIR
#include "cli/modeloptions.h"
#include "engine/scenario.h"
#endif

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

namespace flint::app {
namespace {

constexpr std::uint64_t kDefaultMaxBuffer = 256ull << 20;

/// "268435456", "256M", "1G", "64k": bytes.
std::uint64_t parseBytes(const std::string& text, const std::string& option)
{
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    std::string unit = text.substr(used);
    double scale = 1;
    if (unit == "k" || unit == "K" || unit == "KiB")
        scale = 1024.0;
    else if (unit == "M" || unit == "MiB")
        scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GiB")
        scale = 1024.0 * 1024 * 1024;
    else if (!unit.empty())
        used = 0;
    const double bytes = value * scale;
    if (used == 0 || !(bytes >= 1) || bytes > 2147483647.0)
        throw UsageError("--" + option + " must be a byte count from 1 to 2G - 1 (e.g. 268435456, 256M, 1G)");
    return static_cast<std::uint64_t>(bytes);
}

double parseFactor(const CommandLine& cli, const std::string& option, double fallback, bool zeroAllowed)
{
    if (!cli.has(option))
        return fallback;
    const std::string text = cli.value(option);
    std::size_t used = 0;
    double value = -1;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !std::isfinite(value) || value < 0 || (!zeroAllowed && value == 0) ||
        (option == "byte-scale" && value > 1) || value > 1e6)
        throw UsageError("--" + option + (option == "byte-scale" ? " must be in (0, 1]" : " must be 0 or more"));
    return value;
}

std::string formatFactor(double f)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", f);
    return text;
}

/// What every process knows before any traffic: the workload, the cluster its estimate ran on,
/// the estimate, and this process's plan.
struct Prepared {
    std::string name;
    core::Workload workload;
    /// What the replay is held against: the workload, or with a compute or byte scale the workload
    /// as scaled (core::replay::plannedWorkload).
    core::Workload reference;
    core::Cluster cluster;
    core::replay::ReplayOptions options;
    std::shared_ptr<const core::EstimateResult> estimate;
    core::replay::RankPlan plan;
    std::vector<std::string> notes;
    std::vector<std::string> warnings;
    double stallSeconds = 60;
};

Prepared prepare(const CommandLine& cli, const engine::mpi::Session& session)
{
    Prepared p;
    const std::string timing = cli.value("timing", "auto");
    if (timing == "auto")
        p.options.timing = core::ComputeTiming::Auto;
    else if (timing == "roofline")
        p.options.timing = core::ComputeTiming::Roofline;
    else if (timing == "recorded")
        p.options.timing = core::ComputeTiming::Recorded;
    else
        throw UsageError("--timing must be auto, roofline or recorded");
    p.options.computeScale = parseFactor(cli, "compute-scale", 1.0, true);
    p.options.byteScale = parseFactor(cli, "byte-scale", 1.0, false);
    p.stallSeconds = parseFactor(cli, "stall-timeout", 60.0, false);
    const std::uint64_t maxBuffer =
        cli.has("max-buffer") ? parseBytes(cli.value("max-buffer"), "max-buffer") : kDefaultMaxBuffer;

    if (cli.has("model")) {
#ifdef FLINT_HAVE_MLIR
        if (!cli.positionals().empty())
            throw UsageError("give WORKLOAD or --model NAME, not both");
        engine::Scenario scenario;
        scenario.model = modelFromArgument(cli.value("model"));
        scenario.parallel = strategyFromCli(cli, {});
        if (const auto problems = core::model::validateStrategy(*scenario.model, scenario.parallel); !problems.empty())
            throw core::InputError("strategy", "cannot run " + scenario.model->title + " as " +
                                                   scenario.parallel.describe() + ": " + problems.front().message +
                                                   "; try " + problems.front().suggestion);
        scenario.cluster = makeCluster(cli, scenario.parallel.ranks());
        scenario.commStreamsFixed = cli.has("comm-streams");
        scenario.options.commMatrix = false;
        core::model::ModelCompiler compiler;
        engine::Evaluation evaluation = engine::evaluate(scenario, &compiler);
        if (!evaluation.problem.empty())
            throw core::InputError("strategy", evaluation.problem);
        p.name = scenario.model->title + " (" + scenario.parallel.describe() + ")";
        p.workload = evaluation.workload->workload;
        p.cluster = evaluation.scenario.cluster;
        p.estimate = evaluation.result;
#else
        throw UsageError("--model needs the MLIR frontend, which this flint was built without");
#endif
    } else {
        if (cli.positionals().size() != 1)
            throw UsageError(cli.positionals().empty() ? "missing WORKLOAD (or --model NAME)"
                                                       : "expected one WORKLOAD");
        const core::LoadedWorkload loaded = loadWorkloadFromCli(cli.positionals()[0], cli, true);
        p.name = loaded.name;
        p.notes = core::texts(loaded.notes);
        p.warnings = core::texts(loaded.warnings);
        p.workload = loaded.workload;
        p.cluster = makeCluster(cli, static_cast<std::int64_t>(p.workload.rankCount()));
        core::EstimateOptions options;
        options.commMatrix = false;
        options.timing = p.options.timing;
        // The estimator finds what MPI would hang on, with the ranks and ops named: a collective
        // some member never reaches, a send without its receive, sizes that members disagree on.
        p.estimate = core::estimate(p.workload, p.cluster, options);
    }
    p.reference = p.workload;
    if (p.options.computeScale != 1.0 || p.options.byteScale != 1.0) {
        // Held against an estimate of the same scaled waits and messages, the network modelled.
        p.reference = core::replay::plannedWorkload(p.workload, p.cluster, p.options);
        core::EstimateOptions options;
        options.commMatrix = false;
        options.timing = core::ComputeTiming::Recorded;
        p.estimate = core::estimate(p.reference, p.cluster, options);
        p.notes.push_back("compute scaled by " + formatFactor(p.options.computeScale) + ", bytes by " +
                          formatFactor(p.options.byteScale) +
                          ": the estimate prices the replay's waits (in whole microseconds) and messages");
    }
    const auto ranks = static_cast<int>(p.workload.rankCount());
    if (session.size() != ranks)
        throw UsageError("the workload has " + std::to_string(ranks) + " ranks and the replay runs one MPI process " +
                         "per rank, but " + std::to_string(session.size()) + " were started: run it as 'mpirun -np " +
                         std::to_string(ranks) + (ranks > 4 ? " --oversubscribe" : "") + " flint replay ...'" +
                         (cli.has("model") ? ", or choose --ranks " + std::to_string(session.size()) : ""));
    if (cli.number("rank", 0) >= static_cast<std::uint64_t>(ranks))
        throw UsageError("--rank must be below " + std::to_string(ranks));
    const core::replay::LargestBuffer largest = core::replay::largestBuffer(p.workload, p.cluster, p.options);
    if (largest.bytes > maxBuffer)
        throw UsageError("'" + largest.op + "' on rank " + std::to_string(largest.rank) + " needs a buffer of " +
                         std::to_string(largest.bytes) + " bytes, above --max-buffer " + std::to_string(maxBuffer) +
                         ": raise --max-buffer (each process holds such buffers per communication stream) or "
                         "scale every message down with --byte-scale (written into the output)");
    p.plan = core::replay::planRank(p.workload, static_cast<std::size_t>(session.rank()), p.cluster, p.options);
    // A missing output folder is created when the run is written (as convert and import do); one
    // that cannot be is refused now, before the replay runs, not after it.
    if (cli.has("output") && session.root())
        requireCreatableFolder(cli.value("output"));
    return p;
}

/// The replayed workload with what was replayed written into its metadata, so that a reader of the
/// Chakra files knows they hold a replay and how it was scaled.
core::Workload withReplayMetadata(core::Workload workload, const Prepared& p, const engine::mpi::ReplayResult& result)
{
    char text[256];
    std::snprintf(text, sizeof text, "MPI replay of %s: compute scale %g, byte scale %g, clock error %.2g s",
                  p.name.c_str(), p.options.computeScale, p.options.byteScale, result.stats.clockError);
    for (auto& program : workload.programs) {
        auto copy = std::make_shared<core::Program>(*program);
        copy->metadataAttributes.push_back(core::Attribute::makeString("flint_replay", text));
        program = std::move(copy);
    }
    return workload;
}

int report(const CommandLine& cli, const Prepared& p, const engine::mpi::Session& session,
           const engine::mpi::ReplayResult& result, const std::set<std::string>& hosts)
{
    core::replay::ReplayedRun run = core::replay::replayedRun(p.workload, p.cluster, p.options, result.ranks);
    const core::Workload replayed = withReplayMetadata(std::move(run.workload), p, result);
    const auto& timelines = run.timelines;

    // The run is written first: a comparison that fails must not lose it.
    core::OutputTransaction outputs;
    std::vector<std::string> written;
    OutputFolder folder(cli.value("output", ""));
    if (cli.has("output")) {
        const std::string prefix = cli.value("output");
        written = core::writeChakraWorkload(replayed, prefix, outputs);
        outputs.write(prefix + ".trace.json", core::chromeTraceJson(*timelines, replayed));
        written.push_back(prefix + ".trace.json");
    }
    outputs.commit();
    folder.keep();

    std::printf("replayed %s: %zu ranks on %d MPI processes (%zu machine%s), compute scale %g%s\n", p.name.c_str(),
                p.workload.rankCount(), session.size(), hosts.size(), hosts.size() == 1 ? "" : "s",
                p.options.computeScale,
                p.options.byteScale == 1.0 ? "" : (", bytes scaled by " + formatFactor(p.options.byteScale)).c_str());
    const engine::mpi::ReplayStats& s = result.stats;
    std::printf("executor: %.2f us per compute op beyond its wait (mean over %llu ops, max %.1f us); clocks agree "
                "within %.2f us%s\n",
                s.overheadMean * 1e6, static_cast<unsigned long long>(s.computeOps), s.overheadMax * 1e6,
                s.clockError * 1e6, s.yielding ? "; more processes than cores: waits yield the core" : "");
    std::printf("cluster of the estimate: %s, %s (%lld NPUs)\n", p.cluster.name.c_str(), p.cluster.device.name.c_str(),
                static_cast<long long>(p.cluster.topology.npuCount()));

    // The replay as a measured run, held against the estimate as `flint validate` would.
    const core::measured::MeasuredWorkload measured = core::measured::measuredFromRecorded(replayed, p.name);
    try {
        core::EstimateOptions measuredCompute;
        measuredCompute.commMatrix = false;
        measuredCompute.timing = core::ComputeTiming::Recorded;
        const auto computeMeasured = core::estimate(measured.workload, p.cluster, measuredCompute);
        core::EstimateOptions replayOptions = measuredCompute;
        replayOptions.recordedCommunication = true;
        const auto rereplayed = core::estimate(measured.workload, p.cluster, replayOptions);
        const core::measured::Validation v =
            core::measured::validate(p.reference, *p.estimate, measured, *rereplayed, *computeMeasured,
                                     static_cast<std::int32_t>(cli.number("rank", 0)));
        std::fputs(core::measured::validationText(v, cli.number("top", 10)).c_str(), stdout);
        if (cli.has("json")) {
            core::OutputTransaction json;
            json.write(cli.value("json"), core::measured::validationJson(v));
            json.commit();
            written.push_back(cli.value("json"));
        }
    } catch (const core::InputError& e) {
        // The estimator can deadlock on the run's own times where it did not on modelled ones: with
        // few communication streams, the order in which collectives of overlapping groups take them
        // depends on timing.
        std::printf("step time: replayed %s, estimated %s\n",
                    core::measured::formatSeconds(measured.stepSeconds()).c_str(),
                    core::measured::formatSeconds(p.estimate->stepTime).c_str());
        std::fprintf(stderr, "warning: the replayed run could not be re-estimated for the comparison: %s\n", e.what());
    }
    for (const std::string& path : written)
        std::printf("wrote %s\n", path.c_str());
    return ExitSuccess;
}

int runReplay(const std::vector<std::string>& arguments)
{
    std::vector<OptionSpec> own = {
        {"output", 'o', "PREFIX",
         "write PREFIX.RANK.et (the workload with the replayed times), PREFIX.json (groups) and "
         "PREFIX.trace.json (Perfetto)"},
        {"timing", 0, "MODE", "compute times: auto (recorded, else roofline; default), roofline, recorded"},
        {"compute-scale", 0, "F", "each wait is F x its op's time (default 1; 0: communication alone)"},
        {"byte-scale", 0, "F", "each message is F x its bytes, 0 < F <= 1 (default 1; written into the output)"},
        {"max-buffer", 0, "BYTES", "refuse ops whose buffer is larger (default 256M, at most 2G - 1)"},
        {"stall-timeout", 0, "SECONDS", "end the job when a rank waits this long with nothing moving (default 60)"},
        {"json", 0, "FILE", "write the comparison with the estimate as JSON"},
        {"rank", 0, "N", "the rank whose ops are compared (default 0)"},
        {"top", 0, "N", "collectives listed (default 10)"}};
#ifdef FLINT_HAVE_MLIR
    own.push_back({"model", 0, "NAME", "replay a built-in model (with the strategy options) instead of WORKLOAD"});
    own = withStrategyOptions(std::move(own));
#endif
    CommandLine cli("replay", "WORKLOAD | --model NAME [STRATEGY]  (under mpirun -np RANKS) [-o PREFIX]",
                    "Runs WORKLOAD's communication for real over MPI, one process per rank: each walks its rank's\n"
                    "graph in dependency order, compute ops become waits of their estimated (or recorded) time and\n"
                    "collectives and sends become MPI calls of the same kind and byte count on communicators of the\n"
                    "workload's groups, so that the network, MPI's algorithms and the machines' contention show.\n"
                    "Every op's times are taken on a common clock; rank 0 prints the replay against the estimate\n"
                    "(as 'flint validate') and with -o writes the run as Chakra files with recorded times, which\n"
                    "'flint validate' and the explorer read as a measured run. See docs/replay.md.",
                    withWorkloadInputOptions(withClusterOptions(std::move(own))));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;

    engine::mpi::Session session;
    // Every process prepares alone; all stop together, before any traffic, when one cannot go on,
    // and the first problem is reported once, by rank 0.
    Prepared prepared;
    if (const int status = prepareTogether(session, "replay", [&] { prepared = prepare(cli, session); }))
        return status;
    if (session.root()) {
        for (const std::string& note : prepared.notes)
            std::fprintf(stderr, "note: %s\n", note.c_str());
        for (const std::string& warning : prepared.warnings)
            std::fprintf(stderr, "warning: %s\n", warning.c_str());
    }

    engine::mpi::ReplayResult result;
    try {
        result = engine::mpi::runReplay(session, prepared.workload, prepared.plan, prepared.stallSeconds);
    } catch (const std::exception& e) {
        // The other processes wait on this one: end them all.
        std::fprintf(stderr, "flint replay: error: rank %d: %s\n", session.rank(), e.what());
        session.abort(ExitBadInput);
    }
    std::set<std::string> hosts;
    for (const std::string& host : session.gather(session.processorName()))
        hosts.insert(host);
    // From here on rank 0 works alone: the others are done.
    if (!session.root())
        return ExitSuccess;
    return report(cli, prepared, session, result, hosts);
}

const bool registered = Commands::add(
    {"replay", "run a workload's communication for real over MPI (under mpirun); held against the estimate", runReplay,
     37});

} // namespace
} // namespace flint::app
