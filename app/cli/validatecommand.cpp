// SPDX-License-Identifier: MIT
// `flint validate`: hold a workload and its estimate against a measured run.
#include "cli/clusteroptions.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/workloadinput.h"
#include "core/error.h"
#include "core/estimator/estimate.h"
#include "core/fileio.h"
#include "core/measured/validation.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace flint::app {
namespace {

int runValidate(const std::vector<std::string>& arguments)
{
    CommandLine cli(
        "validate",
        "WORKLOAD MEASURED [--cluster PRESET] [--json FILE] [--csv FILE] [--ops-csv FILE] [--rank N] [--step N]",
        "Hold WORKLOAD (anything 'flint inspect' reads) and its estimate against MEASURED, a profile of a\n"
        "real run of it: PyTorch profiler JSON (Kineto or legacy), one file per rank or a folder of them,\n"
        ".json or .json.gz, an XLA profiler trace (JAX, TensorFlow), or a Chakra trace with recorded times\n"
        "(what 'flint replay' writes). Prints the step time as measured\n"
        "and as estimated three ways: the workload on the cluster; the measured run with its measured\n"
        "compute and modelled communication (the network and scheduling model judged alone); the measured\n"
        "run replayed with everything measured (how well the run was read). Then, on one rank, the\n"
        "operations per category (kernels, copies, each collective kind) counted on both sides with their\n"
        "measured and estimated time, the collectives paired by kind and order, and the ops paired by name\n"
        "(an XLA trace names its ops by HLO instruction, as the module XLA dumped does). See\n"
        "docs/measured-traces.md.",
        withWorkloadInputOptions(withClusterOptions({{"json", 0, "FILE", "write the comparison as JSON"},
                                                     {"csv", 0, "FILE", "write the category table as CSV"},
                                                     {"ops-csv", 0, "FILE", "write the ops by name as CSV"},
                                                     {"rank", 0, "N", "the rank whose ops are compared (default 0)"},
                                                     {"top", 0, "N", "collectives and ops listed (default 10)"}},
                                                    ModelAlias::Yes)));
    cli.parse(arguments);
    if (cli.helpRequested()) {
        std::fputs(cli.helpText().c_str(), stdout);
        return ExitSuccess;
    }
    if (cli.positionals().size() != 2)
        throw UsageError("expected WORKLOAD and MEASURED");
    const std::string measuredPath = cli.positionals()[1];
    core::LoadOptions measuredOptions;
    if (cli.has("step"))
        measuredOptions.profilerStep = static_cast<std::int64_t>(cli.number("step", 0));
    const core::measured::MeasuredWorkload measured = core::loadMeasuredRun(measuredPath, measuredOptions);
    checkClusterNames(cli);
    const core::LoadedWorkload workload = loadWorkloadFromCli(cli.positionals()[0], cli);
    for (const core::Message& note : measured.notes)
        std::fprintf(stderr, "note: %s\n", note.text().c_str());
    for (const core::Message& warning : measured.warnings)
        std::fprintf(stderr, "warning: %s\n", warning.text().c_str());

    // The sizes first: a run of more ranks than the workload would otherwise be reported as a
    // cluster too small for it.
    core::measured::requireSameRanks(workload.workload, measured);
    const core::Cluster cluster =
        makeCluster(cli, static_cast<std::int64_t>(workload.workload.rankCount()), ModelAlias::Yes);
    // A run measured on another device than the cluster's compares two different machines.
    const core::Message mismatch = core::measured::deviceMismatch(measured, cluster);
    if (!mismatch.text().empty())
        std::fprintf(stderr, "warning: %s\n", mismatch.text().c_str());
    core::EstimateOptions options;
    options.commMatrix = false;
    const auto estimate = core::estimate(workload.workload, cluster, options);
    core::EstimateOptions measuredCompute = options;
    measuredCompute.timing = core::ComputeTiming::Recorded;
    const auto computeMeasured = core::estimate(measured.workload, cluster, measuredCompute);
    core::EstimateOptions replayOptions = measuredCompute;
    replayOptions.recordedCommunication = true;
    const auto replay = core::estimate(measured.workload, cluster, replayOptions);

    const std::uint64_t rank = cli.number("rank", 0);
    if (rank >= measured.workload.rankCount())
        throw UsageError("--rank must be below " + std::to_string(measured.workload.rankCount()));
    const core::measured::Validation v = core::measured::validate(workload.workload, *estimate, measured, *replay,
                                                                  *computeMeasured, static_cast<std::int32_t>(rank));
    core::OutputTransaction outputs;
    if (cli.has("json")) {
        // The document says which step of the run it holds and what the readers noted.
        auto json = nlohmann::ordered_json::parse(core::measured::validationJson(v));
        json["measured_step"] = measured.stepName;
        std::vector<core::Message> notes = measured.notes, warnings = measured.warnings;
        notes.insert(notes.end(), workload.notes.begin(), workload.notes.end());
        warnings.insert(warnings.end(), workload.warnings.begin(), workload.warnings.end());
        if (!mismatch.text().empty())
            warnings.push_back(mismatch);
        json["notes"] = core::texts(notes);
        json["warnings"] = core::texts(warnings);
        outputs.write(cli.value("json"), json.dump(2) + "\n");
    }
    if (cli.has("csv"))
        outputs.write(cli.value("csv"), core::measured::validationCsv(v));
    if (cli.has("ops-csv"))
        outputs.write(cli.value("ops-csv"), core::measured::validationOpsCsv(v));
    outputs.commit();
    std::printf("cluster: %s, %s (%lld NPUs)\n", cluster.name.c_str(), cluster.device.name.c_str(),
                static_cast<long long>(cluster.topology.npuCount()));
    std::fputs(core::measured::validationText(v, cli.number("top", 10)).c_str(), stdout);
    return ExitSuccess;
}

const bool registered = Commands::add(
    {"validate",
     "hold a workload and its estimate against a measured run (PyTorch or XLA profiler traces, Chakra with recorded "
     "times)",
     runValidate, 35});

} // namespace
} // namespace flint::app
