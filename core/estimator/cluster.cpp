// SPDX-License-Identifier: MIT
#include "core/estimator/cluster.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace flint::core {
namespace {

std::int32_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int32_t>(std::max<std::int64_t>(1, (a + b - 1) / b));
}

struct NodePreset {
    const char* name;
    const char* description;
    const char* device;
    TopologyKind scaleUpKind;
    double scaleUpDecimalGBps; ///< per GPU, one direction, vendor (decimal) GB/s
    double scaleUpLatencyNs;
    double scaleOutDecimalGBps; ///< per GPU NIC, one direction
    double scaleOutLatencyNs;
    /// NCCL's LL bus bandwidth limit inside a node for the GPU generation (GB/s), 0 where the
    /// collectives are not NCCL's (RCCL on MI300X keeps per-chunk latencies).
    double ncclLlMaxGBps;
};

// Scale-up: the NVLink bandwidth per GPU and direction that NCCL delivers, as NCCL models it itself
// (NVIDIA/nccl src/graph/topo.h: 20 GB/s per NVLink on A100 x 12 links = 240 GB/s, 20.6 on Hopper x 18
// = 370.8, 40.1 on Blackwell x 18 = 721.8), not the datasheet's 300 / 450 / 900 GB/s. Measured
// nccl-tests bus bandwidth on 8-GPU nodes agrees for large messages: H100 all-gather 352.7 GB/s at
// 1 GiB (Azure/msccl, NCCL 2.18.3), A100 all-reduce 228.1 (Azure AI benchmarking guide); NVIDIA's
// reference figures are 370 and 232 (tst_estimate ncclMeasuredBusBandwidth). NVLink SHARP (NVLS)
// all-reduce on Hopper (about 470 GB/s) is not modelled. NVSwitch latency 936.25 ns is ASTRA-sim's
// validated HGX-H100 figure
// (examples/network/analytical/HGX-H100-validated.yml). MI300X: 7 Infinity Fabric links of
// 128 GB/s bidirectional each (AMD MI300X data sheet, 896 GB/s aggregate): a fully connected
// dimension at the 48 GB/s per link and direction that remain after CRC and protocol overhead (75%
// of the 64 rated; AMD ROCm blog "Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct
// MI300X", 2025-03-02), a ring collective on all 7 links at once (collectivemodel.cpp). Scale-out: one NIC per GPU, HDR
// 200 Gb/s = 25 GB/s or NDR/400GbE 400 Gb/s = 50 GB/s; the 2 us (InfiniBand) and 3 us (RoCE) end-to-end latencies are
// typical measured figures, an assumption to adjust per site. NCCL's LL protocol limit on the bus bandwidth inside one
// node, by GPU generation (NVIDIA/nccl src/graph/tuning.cc at 5067397, llMaxBws: Ampere 87.7, Hopper 141, Blackwell 2 x
// 141 GB/s).
constexpr double kNcclLlAmpere = 87.7;
constexpr double kNcclLlHopper = 141.0;
constexpr double kNcclLlBlackwell = 282.0;

constexpr NodePreset kNodePresets[] = {
    {"dgx-a100-ib", "8 x A100 per node on NVSwitch (NVLink3), HDR InfiniBand 200 Gb/s per GPU", "A100",
     TopologyKind::Switch, 240, 936.25, 25, 2000, kNcclLlAmpere},
    {"dgx-h100-ib", "8 x H100 SXM per node on NVSwitch (NVLink4), NDR InfiniBand 400 Gb/s per GPU", "H100",
     TopologyKind::Switch, 370.8, 936.25, 50, 2000, kNcclLlHopper},
    {"dgx-h100-roce", "8 x H100 SXM per node on NVSwitch (NVLink4), RoCE 400 GbE per GPU", "H100", TopologyKind::Switch,
     370.8, 936.25, 50, 3000, kNcclLlHopper},
    {"hgx-h200-ib", "8 x H200 per node on NVSwitch (NVLink4), NDR InfiniBand 400 Gb/s per GPU", "H200",
     TopologyKind::Switch, 370.8, 936.25, 50, 2000, kNcclLlHopper},
    {"dgx-b200-ib", "8 x B200 per node on NVSwitch (NVLink5), NDR InfiniBand 400 Gb/s per GPU", "B200",
     TopologyKind::Switch, 721.8, 936.25, 50, 2000, kNcclLlBlackwell},
    {"mi300x-roce", "8 x MI300X per node, fully connected Infinity Fabric, RoCE 400 GbE per GPU", "MI300X",
     TopologyKind::FullyConnected, 48, 1000, 50, 3000, 0},
};

SystemConfig defaultSystem()
{
    SystemConfig system;
    system.preferredDatasetSplits = 4;
    system.activeChunksPerDimension = 1;
    system.endpointDelayNs = 10;
    return system;
}

} // namespace

std::string_view displayName(CostModel model)
{
    return model == CostModel::AstraSim ? "astrasim" : "flint";
}

std::string Cluster::validate() const
{
    if (std::string problem = topology.validate(); !problem.empty())
        return problem;
    if (device.peakFlops(Precision::BF16) <= 0 || device.memoryBandwidth <= 0)
        return "device '" + device.name + "' has no peak FLOP/s or memory bandwidth";
    if (commStreams < 1)
        return "a rank needs at least one communication stream";
    if (!(compute.flopEfficiencyFor(device) > 0 && compute.flopEfficiencyFor(device) <= 1) ||
        !(compute.memoryEfficiency > 0 && compute.memoryEfficiency <= 1))
        return "efficiencies must be in (0, 1]";
    if (compute.launchOverhead < 0)
        return "launch overhead must not be negative";
    if (!(compute.overlapSlowdownOn(device) >= 0 && compute.overlapSlowdownOn(device) <= 10))
        return "the slowdown of compute overlapped with communication must be in [0, 10]";
    return {};
}

std::vector<ClusterPresetInfo> clusterPresets()
{
    std::vector<ClusterPresetInfo> out;
    for (const NodePreset& p : kNodePresets)
        out.push_back({p.name, p.description});
    out.push_back({"tpu-v5p-torus", "TPU v5p slice: 3-D torus of ICI rings (4 x 4 x N chips)"});
    out.push_back({"astrasim-ring", "ASTRA-sim sample: one Ring, 50 GB/s, 500 ns, Ring_4chunks system (ASTRA model)"});
    out.push_back({"astrasim-hgx-h100",
                   "ASTRA-sim sample: one Switch, 400 GB/s, 936.25 ns, HGX-H100-validated system (ASTRA model)"});
    return out;
}

std::optional<Cluster> clusterPreset(std::string_view name, std::int64_t ranks)
{
    const std::string wanted = nameKey(name);
    ranks = std::max<std::int64_t>(ranks, 1);
    for (const NodePreset& p : kNodePresets) {
        if (wanted != nameKey(p.name))
            continue;
        Cluster c;
        c.name = p.name;
        c.device = *findDevice(p.device);
        const std::int32_t perNode = static_cast<std::int32_t>(std::min<std::int64_t>(8, ranks));
        c.topology.dims.push_back({p.scaleUpKind, perNode, fromDecimalGBps(p.scaleUpDecimalGBps), p.scaleUpLatencyNs});
        if (ranks > 8)
            c.topology.dims.push_back(
                {TopologyKind::Switch, ceilDiv(ranks, 8), fromDecimalGBps(p.scaleOutDecimalGBps), p.scaleOutLatencyNs});
        c.system = defaultSystem();
        // An all-to-all on GPUs is NCCL point-to-point: PyTorch's all_to_all_single and XLA's GPU
        // all-to-all post one ncclSend and one ncclRecv per peer inside one NCCL group
        // (pytorch/pytorch torch/csrc/cuda/nccl.cpp, all2all_single_equal_split), so every
        // message goes straight to its peer through the switch, where a ring would forward the
        // data for the peer k away through k - 1 others ((n - 1) / 2 times the bytes per port).
        c.system.allToAll = {CollectiveAlgorithm::Direct};
        c.nccl.enabled = p.ncclLlMaxGBps > 0;
        c.nccl.llMaxBusBandwidthGBps = p.ncclLlMaxGBps;
        return c;
    }
    if (wanted == "tpuv5ptorus" || wanted == "tpuv5p") {
        Cluster c;
        c.name = "tpu-v5p-torus";
        c.device = *findDevice("TPUv5p");
        // Google Cloud TPU v5p documentation: 4,800 Gbps ICI per chip over six links (3-D torus), i.e.
        // 100 GB/s per link and direction. The 1 us per hop is an assumption.
        const TopologyDim ring{TopologyKind::Ring, 4, fromDecimalGBps(100), 1000};
        if (ranks <= 4) {
            c.topology.dims.push_back(ring);
            c.topology.dims.back().npus = static_cast<std::int32_t>(ranks);
        } else if (ranks <= 16) {
            c.topology.dims = {ring, ring};
            c.topology.dims[1].npus = ceilDiv(ranks, 4);
        } else {
            c.topology.dims = {ring, ring, ring};
            c.topology.dims[2].npus = ceilDiv(ranks, 16);
        }
        c.system = defaultSystem();
        return c;
    }
    if (wanted == "astrasimring" || wanted == "astrasimhgxh100") {
        // ASTRA-sim examples/network/analytical/Ring_8npus.yml + examples/system/native_collectives/
        // Ring_4chunks.json, and HGX-H100-validated.yml/.json (518bd513).
        const bool ring = wanted == "astrasimring";
        Topology topology;
        topology.dims.push_back(ring ? TopologyDim{TopologyKind::Ring, 8, 50.0, 500.0}
                                     : TopologyDim{TopologyKind::Switch, 8, 400.0, 936.25});
        topology.dims[0].npus = static_cast<std::int32_t>(std::max<std::int64_t>(ranks, 1));
        SystemConfig system;
        system.activeChunksPerDimension = ring ? 1 : 2;
        system.preferredDatasetSplits = 4;
        system.localMemBandwidthGBps = ring ? 1600 : 3350;
        Cluster c = astraSimCluster(topology, system);
        c.name = ring ? "astrasim-ring" : "astrasim-hgx-h100";
        c.device = *findDevice("H100");
        return c;
    }
    return std::nullopt;
}

Cluster astraSimCluster(Topology topology, SystemConfig system)
{
    Cluster c;
    c.name = "astrasim";
    c.device = *findDevice("H100");
    c.topology = std::move(topology);
    c.system = std::move(system);
    c.model = CostModel::AstraSim;
    c.commStreams = 1;
    c.compute.launchOverhead = 0;
    return c;
}

} // namespace flint::core
