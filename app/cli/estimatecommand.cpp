// SPDX-License-Identifier: MIT
// `flint estimate`: simulate a workload on a modelled cluster.
#include "cli/clusteroptions.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/workloadinput.h"
#include "core/chakra.h"
#include "core/error.h"
#include "core/estimator/commtraffic.h"
#include "core/estimator/estimate.h"
#include "core/estimator/estimateexport.h"
#include "core/fileio.h"
#include "core/measured/validation.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace flint::app {
namespace {

std::string seconds(double s)
{
    char buffer[64];
    if (s == 0)
        return "0 s";
    if (s >= 1)
        std::snprintf(buffer, sizeof buffer, "%.4f s", s);
    else if (s >= 1e-3)
        std::snprintf(buffer, sizeof buffer, "%.4f ms", s * 1e3);
    else
        std::snprintf(buffer, sizeof buffer, "%.3f us", s * 1e6);
    return buffer;
}

int runEstimate(const std::vector<std::string>& arguments)
{
    std::vector<OptionSpec> options = withClusterOptions(
        {{"timing", 0, "MODE", "compute times: auto (recorded if present, else roofline), roofline, recorded"},
         {"comm-timing", 0, "MODE",
          "communication times: model (the network model, default) or recorded (replay a measured run's)"},
         {"trace", 0, "FILE", "write a Perfetto/Chrome trace JSON (a process per rank)"},
         {"trace-ranks", 0, "N", "ranks in the trace (default: all, at most 256 unless given)"},
         {"csv", 0, "FILE", "write the per-rank breakdown as CSV"},
         {"matrix", 0, "FILE",
          "write the communication matrix as the algorithms move it (src,dst,bytes,seconds) as CSV"},
         {"logical-matrix", 0, "FILE",
          "write the logical communication matrix, in the collectives' semantics (src,dst,bytes), as CSV"},
         {"json", 0, {}, "print the estimate as JSON"},
         {"top", 0, "N", "top ops to list (default 10)"},
         {"no-symmetry", 0, {}, "simulate every rank instead of one per class of identical ranks"},
         {"lenient", 0, {}, "let members of a collective (or a send and its receive) disagree on the size"},
         {"list", 0, {}, "list cluster presets and devices"}},
        ModelAlias::Yes);
    CommandLine cli(
        "estimate",
        "WORKLOAD [--cluster PRESET|network.yml] [--system system.json] [--device NAME] [--cost-model flint|astrasim]\n"
        "       [--trace out.json] [--csv out.csv] [--json]",
        "Estimate how every rank of WORKLOAD spends one step on a modelled cluster. WORKLOAD is anything\n"
        "'flint inspect' reads (a Chakra trace as one .et file, a prefix or a directory; an XLA HLO module).\n"
        "A discrete-event simulation runs each rank's compute and communication streams, with collective\n"
        "algorithms costed per topology dimension. Prints the step time, the per-rank breakdown (compute,\n"
        "exposed communication, idle), the top ops and the traffic per dimension. A network .yml is\n"
        "ASTRA-sim's analytical format; --cost-model astrasim reproduces ASTRA-sim's congestion-unaware analytical\n"
        "backend. comm_size is read as ASTRA-sim does (for an all-gather: the bytes each rank contributes).\n"
        "See docs/estimator.md.",
        withWorkloadInputOptions(std::move(options)));
    cli.parse(arguments);
    if (cli.helpRequested()) {
        std::fputs(cli.helpText().c_str(), stdout);
        return ExitSuccess;
    }
    if (cli.has("list")) {
        std::fputs(presetList().c_str(), stdout);
        return ExitSuccess;
    }
    if (cli.positionals().size() != 1)
        throw UsageError(cli.positionals().empty() ? "missing WORKLOAD" : "expected one WORKLOAD");
    core::EstimateOptions estimateOptions;
    const std::string timing = cli.value("timing", "auto");
    if (timing == "auto")
        estimateOptions.timing = core::ComputeTiming::Auto;
    else if (timing == "roofline")
        estimateOptions.timing = core::ComputeTiming::Roofline;
    else if (timing == "recorded")
        estimateOptions.timing = core::ComputeTiming::Recorded;
    else
        throw UsageError("--timing must be auto, roofline or recorded");
    const std::string commTiming = cli.value("comm-timing", "model");
    if (commTiming != "model" && commTiming != "recorded")
        throw UsageError("--comm-timing must be model or recorded");
    estimateOptions.recordedCommunication = commTiming == "recorded";
    estimateOptions.exploitSymmetry = !cli.has("no-symmetry");
    estimateOptions.checkSizes = !cli.has("lenient");
    const std::uint64_t top = cli.number("top", 10);

    checkClusterNames(cli);
    core::LoadedWorkload loaded = loadWorkloadFromCli(cli.positionals().front(), cli, cli.has("json"));
    const core::Workload workload = std::move(loaded.workload);
    const core::Cluster cluster = makeCluster(cli, static_cast<std::int64_t>(workload.rankCount()), ModelAlias::Yes);
    // A profile keeps its measured compute times; what is modelled (communication, ops without a
    // time) is priced for the cluster's device, which may not be the one the run was measured on.
    // A replay of every time as measured prices nothing on the cluster: nothing to warn of then.
    const bool allRecorded =
        estimateOptions.timing == core::ComputeTiming::Recorded && estimateOptions.recordedCommunication;
    std::vector<core::Message> warnings = loaded.warnings; // for --json, which prints no notes
    if (const core::Message mismatch =
            core::measured::deviceMismatch(loaded.measuredDeviceKind, loaded.measuredDeviceName, cluster);
        !mismatch.text().empty() && !allRecorded) {
        if (cli.has("json"))
            warnings.push_back(mismatch);
        else
            std::fprintf(stderr, "warning: %s\n", mismatch.text().c_str());
    }
    const auto result = core::estimate(workload, cluster, estimateOptions);

    if (result->droppedDependencies > 0 && !cli.has("json"))
        std::fprintf(stderr, "warning: %llu dependencies closed cycles and were ignored (see docs/estimator.md)\n",
                     static_cast<unsigned long long>(result->droppedDependencies));

    // Write the files first, together, so that a failure leaves nothing behind.
    core::OutputTransaction outputs;
    if (cli.has("trace")) {
        const std::size_t traceRanks = cli.number("trace-ranks", 256);
        outputs.write(cli.value("trace"), core::chromeTraceJson(*result, workload, traceRanks, &cluster));
    }
    if (cli.has("csv"))
        outputs.write(cli.value("csv"), core::breakdownCsv(*result));
    if (cli.has("matrix"))
        outputs.write(cli.value("matrix"), core::commMatrixCsv(result->commMatrix));
    if (cli.has("logical-matrix"))
        outputs.write(cli.value("logical-matrix"), core::commMatrixCsv(core::logicalCommMatrix(workload)));
    outputs.commit();
    if (cli.has("trace"))
        noteTraceRanks(workload.rankCount(), cli.number("trace-ranks", 256));

    if (cli.has("json")) {
        // What the text output says on stderr goes into the document: the reader's notes and warnings.
        auto json = nlohmann::ordered_json::parse(core::estimateJson(*result, workload, cluster, top));
        json["notes"] = core::texts(loaded.notes);
        json["warnings"] = core::texts(warnings);
        std::fputs((json.dump(2) + "\n").c_str(), stdout);
        return ExitSuccess;
    }
    std::printf("cluster: %s, %s, %s (%lld NPUs), cost model %s\n", cluster.name.c_str(), cluster.device.name.c_str(),
                cluster.topology.describe().c_str(), static_cast<long long>(cluster.topology.npuCount()),
                result->costModel.c_str());
    std::printf("ranks: %zu (%zu distinct timeline%s)\n", result->ranks.size(), result->timelines.size(),
                result->timelines.size() == 1 ? "" : "s");
    std::printf("step time: %s\n", seconds(result->stepTime).c_str());
    const core::MeanBreakdown mean = core::meanBreakdown(*result);
    const double step = result->stepTime > 0 ? result->stepTime : 1;
    std::printf("mean per rank: compute %s (%.1f%%), exposed communication %s (%.1f%%), idle %s (%.1f%%)\n",
                seconds(mean.compute).c_str(), 100 * mean.compute / step, seconds(mean.exposedComm).c_str(),
                100 * mean.exposedComm / step, seconds(mean.idle).c_str(), 100 * mean.idle / step);
    if (mean.afterLastOp > 0.005 * step)
        std::printf("  idle includes %s after the rank's last op, waiting for the slowest rank\n",
                    seconds(mean.afterLastOp).c_str());
    if (mean.contention > 0)
        std::printf("  compute includes %s lost to communication running beside it (%.1f%% of the overlap; "
                    "--overlap-slowdown)\n",
                    seconds(mean.contention).c_str(), 100 * cluster.overlapSlowdown());
    if (mean.linkSharing > 0)
        std::printf("  communication includes %s lost to transfers beside it sharing their links "
                    "(--no-link-sharing)\n",
                    seconds(mean.linkSharing).c_str());
    if (mean.host > 0)
        std::printf("  host gaps: %s of the device waiting for its host (launch latency, Python, data loading), "
                    "as measured; counted as idle, or as exposed communication where a collective ran\n",
                    seconds(mean.host).c_str());
    if (result->ranks.size() <= 16) {
        std::printf("\n  rank      finish     compute     exposed comm   idle\n");
        for (std::size_t r = 0; r < result->ranks.size(); ++r) {
            const auto& b = result->ranks[r];
            std::printf("  %4zu  %12s %12s %12s %12s\n", r, seconds(b.finish).c_str(), seconds(b.compute).c_str(),
                        seconds(b.exposedComm).c_str(), seconds(b.idle).c_str());
        }
    }
    // The order of flint model estimate: the network, then the top ops.
    std::fputs(networkSummary(workload, cluster, *result).c_str(), stdout);
    std::fputs(("\n" + topOpsSummary(core::topOps(*result, workload, top), seconds)).c_str(), stdout);
    std::printf("\ncritical path: %zu ops\n", result->criticalPath.size());
    return ExitSuccess;
}

const bool registered =
    Commands::add({"estimate", "estimate each rank's step time on a modelled cluster (Chakra trace in, breakdown out)",
                   runEstimate, 30});

} // namespace
} // namespace flint::app
