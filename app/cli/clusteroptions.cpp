// SPDX-License-Identifier: MIT
// Cluster options shared by `flint estimate`, `flint model` and `flint sweep`.
#include "cli/clusteroptions.h"

#include "core/error.h"
#include "core/estimator/linkutilisation.h"

#include <cstdio>
#include <filesystem>

namespace flint::app {

std::vector<OptionSpec> withClusterOptions(std::vector<OptionSpec> own, ModelAlias alias)
{
    std::vector<OptionSpec> options = {
        {"cluster", 0, "PRESET|FILE", "cluster preset (default dgx-h100-ib, sized to the workload) or network YAML"},
        {"system", 0, "FILE", "ASTRA-sim system JSON: collective algorithms, chunks, endpoint delay"},
        {"device", 0, "NAME",
         "device preset: A100, H100, H200, B200, MI300X, TPUv5p (default: the preset's, H100 for a YAML)"},
        {"cost-model", 0, "NAME", "collective cost conventions: flint (default) or astrasim"},
        {"attention-kernel", 0, "NAME",
         "fused attention implementation whose measured speed prices attention: fa2, cudnn, fa3 (default: the "
         "device's usual one)"},
        {"gemm-efficiency", 0, "MODE",
         "how matmuls are priced: shape (default: the device's measured GEMM throughput by M, N, K where it has a "
         "table) or best (every matmul at the device's best measured efficiency)"},
        {"burst-clocks",
         0,
         {},
         "matmuls at the burst throughput of short benchmarks (the boost clock), not at the throughput the device "
         "sustains power-saturated through a training step (the default where it is measured)"},
        {"overlap-slowdown", 0, "X",
         "compute runs X times the overlap longer while communication runs beside it (default: the device's "
         "measured 0.189 on GPUs; 0 turns it off)"},
        {"no-link-sharing",
         0,
         {},
         "transfers that overlap in time each run at the links' full bandwidth instead of sharing it (to see what "
         "sharing changes; ASTRA-sim's conventions never share)"},
        {"comm-streams", 0, "N",
         "communication streams per rank (default 1; built-in models 2: data-parallel gradients on a stream of "
         "their own)"},
        {"bandwidth-scale", 0, "X", "multiply every network dimension's bandwidth by X (e.g. 0.5)"},
        {"scale-out-bandwidth", 0, "GBPS", "set the outermost (inter-node) dimension's bandwidth, GB/s per GPU"}};
    if (alias == ModelAlias::Yes)
        options.push_back({"model", 0, "NAME", "the older spelling of --cost-model"});
    options.insert(options.end(), own.begin(), own.end());
    return options;
}

std::string presetList()
{
    std::string text = "Cluster presets:\n";
    for (const auto& p : core::clusterPresets())
        text += "  " + p.name + std::string(p.name.size() < 20 ? 20 - p.name.size() : 1, ' ') + p.description + "\n";
    text += "Devices:\n";
    for (const auto& d : core::devicePresets()) {
        char line[256];
        // Capacity as the driver reports it, in GiB as every memory figure of the estimates.
        std::snprintf(line, sizeof line, "  %-8s %-26s bf16 %7.1f TFLOP/s  HBM %6.0f GB/s  %5.1f GiB  (%s)\n",
                      d.name.c_str(), d.title.c_str(), d.peakFlops(core::Precision::BF16) / 1e12,
                      d.memoryBandwidth / 1e9, d.memoryCapacity / (1024.0 * 1024 * 1024), d.source.c_str());
        text += line;
    }
    return text;
}

namespace {

UsageError unknownCluster(const std::string& spec)
{
    std::string names;
    for (const auto& p : core::clusterPresets())
        names += (names.empty() ? "" : ", ") + p.name;
    return UsageError("unknown cluster '" + spec + "' (a network .yml file or one of " + names +
                      "; 'flint estimate --list' describes them)");
}

UsageError unknownDevice(const std::string& name)
{
    std::string names;
    for (const auto& d : core::devicePresets())
        names += (names.empty() ? "" : ", ") + d.name;
    return UsageError("unknown device '" + name + "' (one of " + names + "; 'flint estimate --list' describes them)");
}

bool isNetworkFile(const std::string& spec)
{
    return spec.ends_with(".yml") || spec.ends_with(".yaml") || std::filesystem::exists(spec);
}

} // namespace

void checkClusterNames(const CommandLine& cli)
{
    const std::string spec = cli.value("cluster", "dgx-h100-ib");
    if (!isNetworkFile(spec) && !core::clusterPreset(spec, 1))
        throw unknownCluster(spec);
    if (cli.has("device") && !core::findDevice(cli.value("device")))
        throw unknownDevice(cli.value("device"));
}

core::Cluster makeCluster(const CommandLine& cli, std::int64_t ranks, ModelAlias alias)
{
    const std::string spec = cli.value("cluster", "dgx-h100-ib");
    core::Cluster cluster;
    const bool isFile = isNetworkFile(spec);
    if (isFile) {
        cluster.name = std::filesystem::path(spec).stem().string();
        cluster.device = *core::findDevice("H100");
        cluster.topology = core::readNetworkYaml(spec);
    } else if (auto preset = core::clusterPreset(spec, ranks)) {
        cluster = *preset;
    } else {
        throw unknownCluster(spec);
    }
    if (cli.has("system"))
        cluster.system = core::readSystemJson(cli.value("system"));
    if (cli.has("device")) {
        const core::DeviceSpec* device = core::findDevice(cli.value("device"));
        if (!device)
            throw unknownDevice(cli.value("device"));
        if (!isFile && device->name != cluster.device.name) {
            // The preset's network stays: say so, and name a preset built around the device.
            std::string own;
            for (const auto& p : core::clusterPresets())
                if (const auto candidate = core::clusterPreset(p.name, 1);
                    candidate && candidate->device.name == device->name)
                    own = p.name;
            std::fprintf(
                stderr, "note: %s keeps the network of %s (built around %s)%s\n", device->name.c_str(), spec.c_str(),
                cluster.device.name.c_str(),
                own.empty() ? "" : ("; --cluster " + own + " is a system built around the " + device->name).c_str());
        }
        cluster.device = *device;
    }
    if (cli.has("attention-kernel")) {
        const auto kernel = core::parseAttentionKernel(cli.value("attention-kernel"));
        if (!kernel)
            throw BadOptionValue("--attention-kernel must be fa2, cudnn, fa3 or default");
        cluster.compute.attentionKernel = *kernel;
    }
    if (cli.has("gemm-efficiency")) {
        const std::string mode = cli.value("gemm-efficiency");
        if (mode != "shape" && mode != "best")
            throw BadOptionValue("--gemm-efficiency must be shape or best");
        cluster.compute.gemmByShape = mode == "shape";
    }
    if (cli.has("burst-clocks"))
        cluster.compute.sustainedClocks = false;
    if (cli.has("overlap-slowdown")) {
        const double slowdown = cli.decimal("overlap-slowdown", 0);
        if (!(slowdown >= 0 && slowdown <= 10))
            throw BadOptionValue("--overlap-slowdown must be a number from 0 to 10");
        cluster.compute.overlapSlowdown = slowdown;
    }
    if (cli.has("no-link-sharing"))
        cluster.linkSharing = false;
    const bool older = alias == ModelAlias::Yes && cli.has("model");
    if (older && cli.has("cost-model") && cli.value("model") != cli.value("cost-model"))
        throw UsageError("--model and --cost-model name the same setting; give one");
    if (cli.has("cost-model") || older) {
        const std::string option = cli.has("cost-model") ? "cost-model" : "model";
        const std::string model = cli.value(option);
        if (model == "astrasim" || model == "astra-sim")
            cluster.model = core::CostModel::AstraSim;
        else if (model == "flint")
            cluster.model = core::CostModel::Flint;
        else
            throw BadOptionValue("--" + option + " must be 'flint' or 'astrasim'");
    }
    if (cli.has("comm-streams")) {
        const std::uint64_t streams = cli.number("comm-streams", 1);
        if (streams < 1 || streams > 64)
            throw BadOptionValue("--comm-streams must be 1..64");
        cluster.commStreams = static_cast<std::int32_t>(streams);
    }
    if (cli.has("bandwidth-scale")) {
        const double scale = cli.decimal("bandwidth-scale", 1);
        if (!(scale > 0))
            throw BadOptionValue("--bandwidth-scale must be a positive number");
        for (core::TopologyDim& dim : cluster.topology.dims)
            dim.bandwidthGBps *= scale;
    }
    if (cli.has("scale-out-bandwidth")) {
        const double gbps = cli.decimal("scale-out-bandwidth", 0);
        if (!(gbps > 0) || cluster.topology.dims.empty())
            throw BadOptionValue("--scale-out-bandwidth must be a positive number of GB/s");
        if (!isFile && cluster.topology.dims.size() < 2)
            // A preset of one node has no scale-out network: its one dimension is the node's own.
            std::fprintf(stderr, "warning: %lld ranks fit in one node of %s; --scale-out-bandwidth changes nothing\n",
                         static_cast<long long>(ranks), cluster.name.c_str());
        else
            cluster.topology.dims.back().bandwidthGBps = core::fromDecimalGBps(gbps);
    }
    return cluster;
}

std::string networkSummary(const core::Workload& workload, const core::Cluster& cluster,
                           const core::EstimateResult& result)
{
    const core::LinkUtilisation links = core::linkUtilisation(workload, cluster, result);
    const auto& dims = cluster.topology.dims;
    if (result.bytesPerDim.empty())
        return {};
    std::string text = "network (dimensions counted from 1, innermost first, as the explorer names them; busy = bytes "
                       "sent over what the links could carry, the peak "
                       "over 1/" +
                       std::to_string(links.dims.empty() ? 240 : links.dims.front().mean.size()) + " of the step):\n";
    for (std::size_t d = 0; d < result.bytesPerDim.size() && d < dims.size(); ++d) {
        static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        double bytes = result.bytesPerDim[d];
        std::size_t unit = 0;
        while (bytes >= 1000 && unit + 1 < std::size(units)) {
            bytes /= 1000;
            ++unit;
        }
        char line[256];
        std::snprintf(line, sizeof line, "  dimension %zu, %s of %d NPUs at %.4g GB/s: %.3g %s sent", d + 1,
                      std::string(core::displayName(dims[d].kind)).c_str(), dims[d].npus, dims[d].decimalGBps(), bytes,
                      units[unit]);
        text += line;
        if (d < links.dims.size()) {
            std::snprintf(line, sizeof line, "; links busy %.1f%% of the step on average, %.1f%% for the busiest rank",
                          100 * links.dims[d].average, 100 * links.dims[d].peak);
            text += line;
        }
        text += "\n";
    }
    return text;
}

std::string topOpsSummary(const std::vector<core::OpTotal>& tops, std::string (*format)(double))
{
    if (tops.empty())
        return {};
    constexpr std::size_t kLongestName = 100;
    std::string text = "top ops (time summed over ranks):\n";
    for (const core::OpTotal& t : tops) {
        const std::string kind(t.kind == core::OpKind::Collective ? core::chakraName(t.collective)
                                                                  : core::chakraName(t.kind));
        std::string name = t.name;
        if (name.size() > kLongestName) {
            name.resize(kLongestName - 3);
            while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80)
                name.pop_back(); // not inside a UTF-8 sequence
            if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0)
                name.pop_back();
            name += "...";
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %12s  %8llu x  %-16s ", format(t.seconds).c_str(),
                      static_cast<unsigned long long>(t.count), kind.c_str());
        text += line + name + "\n";
    }
    return text;
}

} // namespace flint::app
