// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/device.h"
#include "core/estimator/systemconfig.h"
#include "core/estimator/topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core {

/// Which collective cost conventions the estimate follows (see docs/estimator.md).
enum class CostModel : std::uint8_t {
    /// Our default: times in fractional ns, chunks of exactly size / splits, reductions at the
    /// device's memory bandwidth, injection-limited direct algorithms, sub-grid groups staged per
    /// dimension with the configured algorithms.
    Flint,
    /// ASTRA-sim's congestion-unaware analytical backend (at 518bd513): message times truncated to
    /// whole ns, chunks raised to the NPU count, its halving-doubling and endpoint-delay quirks,
    /// groups other than the world run as one logical ring. Use it to compare with ASTRA-sim.
    AstraSim,
};

std::string_view displayName(CostModel model);

/// How an op's compute time is found from its costs (roofline).
struct ComputeModel {
    static constexpr double kDefaultFlopEfficiency = 0.7;
    /// Fraction of peak FLOP/s a kernel reaches. Unset: the device's measured matmul efficiency for
    /// the op's precision (DeviceSpec::matmulEfficiencyFor), or kDefaultFlopEfficiency without one.
    std::optional<double> flopEfficiency;
    /// Matmuls (compute ops of GEMM-like arithmetic intensity with a known result shape) follow the
    /// device's measured throughput table by shape (DeviceSpec::gemm, gemmtable.h) where it has one;
    /// false: every matmul at the device's best measured efficiency, as on devices without a table.
    /// An explicit flopEfficiency overrides both.
    bool gemmByShape = true;
    double memoryEfficiency = 0.8; ///< fraction of peak memory bandwidth a kernel reaches
    double launchOverhead = 2e-6;  ///< seconds added to every device compute op (kernel launch)
    /// The fused-attention implementation whose measured throughput prices attention kernels
    /// (KernelClass::Attention*); Default: the device's usual one (DeviceSpec::defaultAttention).
    AttentionKernel attentionKernel = AttentionKernel::Default;
    Precision defaultPrecision = Precision::BF16; ///< for ops whose element type is unknown
    bool allowTf32 = true;                        ///< f32 matmuls run on TF32 tensor cores
    /// How much longer a modelled compute op runs for the time a collective or transfer of its rank
    /// runs alongside it (0.189: 18.9% of the overlap). Unset: the device's measured figure
    /// (DeviceSpec::overlapSlowdown). Ops with recorded durations already contain it.
    std::optional<double> overlapSlowdown;
    /// Matmuls run at the throughput the device sustains power-saturated, as through a training step
    /// (DeviceSpec::sustainedMatmul), rather than at the burst throughput of short benchmarks. An
    /// explicit flopEfficiency overrides it.
    bool sustainedClocks = true;

    /// The FLOP efficiency on `device` at `precision`: flopEfficiency when set, else the device's
    /// measured one.
    double flopEfficiencyFor(const DeviceSpec& device, Precision precision = Precision::BF16) const
    {
        if (flopEfficiency)
            return *flopEfficiency;
        const double measured = device.matmulEfficiencyFor(precision);
        return measured > 0 ? measured : kDefaultFlopEfficiency;
    }
    /// The slowdown of compute overlapped with communication on `device`: overlapSlowdown when set,
    /// else the device's.
    double overlapSlowdownOn(const DeviceSpec& device) const
    {
        return overlapSlowdown.value_or(device.overlapSlowdown);
    }
    /// The implementation attention kernels run on `device`.
    AttentionKernel attentionKernelOn(const DeviceSpec& device) const
    {
        return attentionKernel == AttentionKernel::Default ? device.defaultAttention : attentionKernel;
    }
    /// The FLOP efficiency of a fused attention kernel on `device` (forward or backward pass):
    /// flopEfficiency when set, else the measured throughput of attentionKernelOn(device), else (not
    /// measured there) the matmul efficiency at BF16.
    double attentionEfficiencyFor(const DeviceSpec& device, bool backward) const
    {
        if (flopEfficiency)
            return *flopEfficiency;
        const AttentionEfficiency& a = device.attention[static_cast<std::size_t>(attentionKernelOn(device))];
        const double measured = backward ? a.backward : a.forward;
        return measured > 0 ? measured : flopEfficiencyFor(device, Precision::BF16);
    }

    friend bool operator==(const ComputeModel&, const ComputeModel&) = default;
};

/// NCCL's protocols, as NCCL's own tuning model prices them (NVIDIA/nccl src/graph/tuning.cc):
/// a ring collective takes a base latency plus a latency per ring step, paid once (the ring pipelines
/// its chunks), plus its bytes at the protocol's share of the link bandwidth; NCCL runs the protocol
/// that finishes first (LL for small messages, LL128 for medium, Simple for large). Where set, the
/// flint cost model prices ring all-reduces, all-gathers and reduce-scatters so (docs/estimator.md,
/// "NCCL's protocols"); otherwise every chunk pays the per-hop latency (ASTRA-sim's convention).
struct NcclProtocols {
    bool enabled = false;
    /// The LL protocol's bus bandwidth limit inside one node, GB/s (NCCL's llMaxBws by GPU
    /// generation: Ampere 87.7, Hopper 141, Blackwell 282).
    double llMaxBusBandwidthGBps = 0;
};

/// Devices, network and collective choices: everything the estimate needs besides the workload.
struct Cluster {
    /// The preset the cluster was made from ("dgx-h100-ib"), or a network file's name.
    std::string name;
    /// Changed by the user after it was made from `name` (a what-if edit): it is no longer the
    /// preset as shipped, and views say so.
    bool edited = false;
    DeviceSpec device;
    Topology topology;
    SystemConfig system;
    ComputeModel compute;
    CostModel model = CostModel::Flint;
    /// Communication streams per rank: collectives and send/recv that may run at once.
    std::int32_t commStreams = 1;
    /// NCCL's protocol latencies for ring collectives (the NVIDIA GPU presets); off: per-chunk
    /// latencies. Ignored under CostModel::AstraSim.
    NcclProtocols nccl;
    /// Transfers that overlap in time share the links they cross (docs/estimator.md, "Links shared
    /// by overlapping transfers"); off: each runs at the links' full bandwidth, as ASTRA-sim's
    /// congestion-unaware analytical backend prices them. Ignored under CostModel::AstraSim.
    bool linkSharing = true;

    /// Checks the topology and settings; returns the first problem or "".
    std::string validate() const;
    /// The slowdown of compute overlapped with communication this cluster applies: the compute
    /// model's (or device's) figure, 0 under ASTRA-sim's conventions, whose compute does not see
    /// its communication.
    double overlapSlowdown() const { return model == CostModel::AstraSim ? 0.0 : compute.overlapSlowdownOn(device); }
    /// Whether overlapping transfers share their links' bandwidth (linkSharing; never under ASTRA-sim's
    /// conventions).
    bool sharesLinks() const { return linkSharing && model != CostModel::AstraSim; }
};

struct ClusterPresetInfo {
    std::string name;
    std::string description;
};

/// The built-in systems (8-GPU NVSwitch nodes with InfiniBand or RoCE scale-out, a TPU v5p torus,
/// ASTRA-sim's sample networks).
std::vector<ClusterPresetInfo> clusterPresets();

/// The preset `name`, sized to hold at least `ranks` NPUs (the outermost dimension grows), or nullopt
/// when there is no such preset.
std::optional<Cluster> clusterPreset(std::string_view name, std::int64_t ranks);

/// A cluster that reproduces ASTRA-sim's analytical backend for `topology` and `system`: CostModel
/// AstraSim, one communication stream, compute nodes replayed from their recorded durations.
Cluster astraSimCluster(Topology topology, SystemConfig system);

} // namespace flint::core
