// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core {

/// Arithmetic precisions a device datasheet quotes peak throughput for.
enum class Precision : std::uint8_t { FP64, FP32, TF32, BF16, FP16, FP8, Count };

std::string_view displayName(Precision precision);

/// The precision whose peak an op of element type `type` runs at: f64 -> FP64, f32 -> FP32 (TF32 when
/// `allowTf32`), bf16 -> BF16, f16 -> FP16, the f8 family and 8-bit integers -> FP8; unknown -> `fallback`.
Precision precisionOf(DType type, Precision fallback = Precision::BF16, bool allowTf32 = false);

/// Which implementation runs fused (flash) attention. The frameworks differ: Megatron-LM and NeMo use
/// Transformer Engine, which calls cuDNN's fused attention on Hopper; PyTorch's SDPA and libraries
/// built on flash-attn use FlashAttention-2; FlashAttention-3 is Hopper-only.
enum class AttentionKernel : std::uint8_t { Default, FlashAttention2, CuDnn, FlashAttention3, Count };

std::string_view displayName(AttentionKernel kernel);                       ///< "default", "fa2", "cudnn", "fa3"
std::optional<AttentionKernel> parseAttentionKernel(std::string_view text); ///< the display names

/// Measured throughput of a fused attention kernel, as fractions of the dense BF16 peak, for the
/// forward and the backward pass (FLOPs counted as the FlashAttention papers count them: 4 s^2 d per
/// head forward, 2.5x that backward, halved when causal). 0: not measured.
struct AttentionEfficiency {
    double forward = 0;
    double backward = 0;
    friend bool operator==(const AttentionEfficiency&, const AttentionEfficiency&) = default;
};

/// Which measured GEMM throughput table prices a device's matmuls by shape (gemmtable.h): NVIDIA
/// Hopper (sm_90: H100, H200), Blackwell (sm_100: B200), AMD CDNA3 (gfx942: MI300X); None: no table,
/// one efficiency per precision.
enum class GemmFamily : std::uint8_t { None, Sm90, Sm100, Gfx942 };

/// One accelerator: peak dense throughput per precision, memory bandwidth and capacity.
///
/// Figures are dense (no structured sparsity) peaks from the vendor's datasheet, cited in devices.cpp.
/// A zero peak means the datasheet quotes none; peakFlops() then falls back to the next precision
/// that has one (FP64 -> FP32 -> TF32 -> BF16, FP8 -> BF16, FP16 <-> BF16).
struct DeviceSpec {
    std::string name;   ///< preset key, e.g. "H100"
    std::string title;  ///< full product name, e.g. "NVIDIA H100 SXM5 80GB"
    std::string source; ///< where the figures come from
    /// Peak dense throughput in FLOP/s, indexed by Precision.
    std::array<double, static_cast<std::size_t>(Precision::Count)> peak{};
    double memoryBandwidth = 0; ///< device memory (HBM) bandwidth, bytes/s (decimal datasheet figure)
    double memoryCapacity = 0;  ///< device memory, bytes
    /// Fraction of the dense peak of each precision that matrix multiplications reach on this device
    /// at their best, as measured and published (0: no measurement); see matmulEfficiencyFor().
    std::array<double, static_cast<std::size_t>(Precision::Count)> matmulEfficiency{};
    std::string matmulEfficiencySource;
    /// The measured table of GEMM throughput by shape this device's matmuls follow (None: the
    /// efficiencies above for every shape).
    GemmFamily gemm = GemmFamily::None;
    /// Fraction of the burst throughput above (efficiencies and tables measured in short runs, at the
    /// boost clock) that a matmul keeps under sustained full load, when the device draws its rated
    /// power and the clock settles below boost, by precision (0: not measured); see
    /// sustainedMatmulFor() and ComputeModel::sustainedClocks.
    std::array<double, static_cast<std::size_t>(Precision::Count)> sustainedMatmul{};
    std::string sustainedMatmulSource;

    /// Measured fused-attention throughput per implementation (index AttentionKernel), and the one the
    /// device's usual software stack runs (AttentionKernel::Default resolves to it).
    std::array<AttentionEfficiency, static_cast<std::size_t>(AttentionKernel::Count)> attention{};
    AttentionKernel defaultAttention = AttentionKernel::FlashAttention2;
    std::string attentionSource;

    /// How much longer a compute kernel takes while a communication kernel (NCCL, RCCL) runs on the
    /// same device, as a fraction of the time they overlap: the communication kernels hold SMs
    /// (one thread block per channel) and memory bandwidth that the compute kernels then lack.
    /// 0: not slowed (no measurement, or collectives on separate engines).
    double overlapSlowdown = 0;
    std::string overlapSlowdownSource;

    /// The measured matmul efficiency for `precision`: its own, else (FP16, TF32, FP32, FP64, and FP8
    /// without a measurement) the BF16 one, whose tensor-core pipeline they share; 0 when the device
    /// has no measurement at all.
    double matmulEfficiencyFor(Precision precision) const;

    /// The sustained fraction for `precision`: its own, else the BF16 one (the same tensor-core
    /// pipeline), else 1 (no measurement: the burst throughput).
    double sustainedMatmulFor(Precision precision) const;

    /// Peak FLOP/s for `precision`, with the fallback described above. Never 0 for a preset.
    double peakFlops(Precision precision) const;

    friend bool operator==(const DeviceSpec&, const DeviceSpec&) = default;
};

/// The built-in devices: A100 (80GB SXM), H100 (SXM), H200, B200, MI300X, TPU v5p.
const std::vector<DeviceSpec>& devicePresets();

/// A preset by name, case-insensitively, accepting common aliases ("h100-sxm", "a100-80gb",
/// "tpuv5p", "v5p"); nullptr when unknown.
const DeviceSpec* findDevice(std::string_view name);

} // namespace flint::core
