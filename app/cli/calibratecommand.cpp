// SPDX-License-Identifier: MIT
// `flint calibrate`: the cluster description's per-dimension latency and bandwidth fitted to
// messages measured over MPI (docs/replay.md).
#include "cli/clusteroptions.h"
#include "cli/commandline.h"
#include "cli/commands.h"
#include "cli/mpicommand.h"
#include "core/error.h"
#include "core/estimator/topology.h"
#include "core/fileio.h"
#include "core/replay/calibration.h"
#include "engine/mpicalibrate.h"
#include "engine/mpisupport.h"

#include <cstdio>

namespace flint::app {
namespace {

int runCalibrate(const std::vector<std::string>& arguments)
{
    CommandLine cli(
        "calibrate", "(under mpirun -np N) [--cluster PRESET|network.yml] -o network.yml",
        "Measures messages between rank 0 and the rank one coordinate away in each dimension of the\n"
        "cluster's topology (sized for --ranks, default the N processes; place the processes as the\n"
        "cluster's ranks would be, one per core),\n"
        "from 8 bytes to 16 MiB, fits each dimension's latency and bandwidth so that the estimator's\n"
        "message time matches (hops x latency + bytes / bandwidth + 2 x endpoint delay), and writes\n"
        "the topology as an ASTRA-sim network YAML that --cluster reads. Dimensions without such a\n"
        "rank in this world keep their values. See docs/replay.md.",
        withClusterOptions({{"output", 'o', "FILE", "the network YAML to write"},
                            {"ranks", 0, "N", "size the topology for N ranks (default: the processes)"},
                            {"repetitions", 0, "N", "round trips per size (default 20; a quarter from 1 MiB)"}}));
    if (!cli.parseOrShowHelp(arguments))
        return ExitSuccess;
    engine::mpi::Session session;
    core::Cluster cluster;
    const int status = prepareTogether(session, "calibrate", [&] {
        if (!cli.has("output"))
            throw UsageError("give -o network.yml");
        if (!cli.positionals().empty())
            throw UsageError("calibrate takes no positional arguments");
        if (session.size() < 2)
            throw UsageError("run it under mpirun with 2 or more processes, placed as the cluster's ranks would be");
        const std::uint64_t ranks = cli.number("ranks", static_cast<std::uint64_t>(session.size()));
        if (ranks < static_cast<std::uint64_t>(session.size()) || ranks > (1u << 24))
            throw UsageError("--ranks must be at least the number of processes (and at most 2^24)");
        cluster = makeCluster(cli, static_cast<std::int64_t>(ranks));
    });
    if (status != ExitSuccess)
        return status;
    engine::mpi::CalibrationOptions options;
    if (cli.has("repetitions"))
        options.repetitions = static_cast<int>(std::min<std::uint64_t>(cli.number("repetitions", 20), 10000));
    const auto measured = engine::mpi::measureDimensions(session, cluster.topology, options);
    if (!session.root())
        return ExitSuccess;
    if (measured.empty())
        throw core::InputError(cluster.name, "no dimension of " + cluster.topology.describe() +
                                                 " has a rank one "
                                                 "coordinate away from rank 0 among " +
                                                 std::to_string(session.size()) + " processes");
    std::vector<std::string> report;
    const core::Topology fitted =
        core::replay::calibratedTopology(cluster.topology, measured, cluster.system.endpointDelayNs, &report);
    core::OutputTransaction output;
    output.write(cli.value("output"), core::toNetworkYaml(fitted));
    output.commit();
    std::printf(
        "calibrated %s (%lld NPUs) on %d MPI processes (endpoint delay %.1f ns at each end, from the system):\n",
        cluster.topology.describe().c_str(), static_cast<long long>(cluster.topology.npuCount()), session.size(),
        cluster.system.endpointDelayNs);
    for (const auto& m : measured) {
        // Dimensions counted from 1, innermost first, as every other output names them.
        std::printf("  dimension %zu, rank 0 <-> %d, one-way time:", m.dim + 1, m.peer);
        for (const auto& s : m.samples)
            std::printf(" %llu B %.2f us;", static_cast<unsigned long long>(s.bytes), s.seconds * 1e6);
        std::printf("\n");
    }
    for (const std::string& line : report)
        std::printf("%s\n", line.c_str());
    std::printf("wrote %s (use it with --cluster %s)\n", cli.value("output").c_str(), cli.value("output").c_str());
    return ExitSuccess;
}

const bool registered =
    Commands::add({"calibrate", "fit the network's latency and bandwidth to messages measured over MPI (under mpirun)",
                   runCalibrate, 38});

} // namespace
} // namespace flint::app
