// SPDX-License-Identifier: MIT
#include "core/estimator/device.h"

#include <algorithm>
#include <cctype>

namespace flint::core {
namespace {

constexpr double kTera = 1e12;
constexpr double kGB = 1e9;

DeviceSpec make(std::string name, std::string title, std::string source, double fp64, double fp32, double tf32,
                double bf16, double fp16, double fp8, double bandwidthGBps, double capacityGB)
{
    DeviceSpec d;
    d.name = std::move(name);
    d.title = std::move(title);
    d.source = std::move(source);
    d.peak = {fp64 * kTera, fp32 * kTera, tf32 * kTera, bf16 * kTera, fp16 * kTera, fp8 * kTera};
    d.memoryBandwidth = bandwidthGBps * kGB;
    d.memoryCapacity = capacityGB * kGB;
    return d;
}

constexpr double kMiB = 1024.0 * 1024.0;

/// The device memory its driver reports (nvidia-smi's total, rocm-smi's VRAM total), in bytes: what
/// the frameworks allocate from. HBM stacks hold powers of two, so a datasheet's "80 GB" is about 80
/// GiB, not 80e9 bytes (7% more); the CUDA context, NCCL's buffers and the allocator's fragmentation
/// take part of it, which the memory estimate does not model (docs/models.md).
DeviceSpec withVisibleMemory(DeviceSpec d, double bytes)
{
    d.memoryCapacity = bytes;
    return d;
}

/// `bf16` and `fp8`: measured fractions of the dense BF16 and FP8 peaks (0: none measured).
DeviceSpec withMatmulEfficiency(DeviceSpec d, double bf16, double fp8, const char* source,
                                GemmFamily gemm = GemmFamily::None)
{
    d.gemm = gemm;
    d.matmulEfficiency[static_cast<std::size_t>(Precision::BF16)] = bf16;
    d.matmulEfficiency[static_cast<std::size_t>(Precision::FP8)] = fp8;
    d.matmulEfficiencySource = source;
    return d;
}

// Maximum achievable matmul throughput (MAMF) as measured with torch.mm over a brute-force scan of
// shapes, 50 warm-up and 100 timed iterations each, L2 flushed between them: S. Bekman, "Machine
// Learning Engineering Open Book", compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS
// comparison table" (github.com/stas00/ml-engineering at 7bc7c30). BF16 / FP8 (e4m3) TFLOP/s and the
// fraction of the dense datasheet peak:
//   A100 SXM 271.2 / - (0.869; not applied, see the A100 entry), H100 SXM 794.5 (0.803) / 1402.6 (0.709), H200 SXM as
//   H100 in BF16 / 1453.4 (0.734), B200 SXM 1745.0 (0.776) / 3432.5 (0.763), MI300X 668.4 (0.514) / not measured.
// OpenXLA's measured sm_90 table (xla/service/gpu/model/matmul_interpolator_data.h) agrees for H100
// BF16: 780.2 TFLOP/s at 4096^3 (0.79). These are the best shapes' figures: the GEMMs of large-model
// training (thousands of tokens by thousands of features) run near them. Smaller GEMMs follow the
// measured throughput by shape of OpenXLA's tables where a device has one (DeviceSpec::gemm,
// gemmtables.cpp: sm_90 for H100 and H200, sm_100 for B200, gfx942 for MI300X). No device-level GEMM
// measurement was found for TPU v5p; it keeps the compute model's default.
constexpr const char* kMamfSource = "Bekman, ML Engineering Open Book: maximum achievable matmul FLOPS (torch.mm)";

// The figures above are burst figures: short runs at the boost clock. Under the sustained load of a
// training step a GPU draws its rated power and its clock settles lower. S. Bekman, "Machine Learning
// Engineering Open Book", compute/accelerator/README.md, "Maximum Achievable and Sustainable Matmul
// FLOPS comparison table" (github.com/stas00/ml-engineering at 082816f, 2026-08-10; torch
// 2.13.0+cu130, one GPU at a time with its siblings idle) measures both on the same device: the burst
// MAMF (boost clock) and the MSMF, the throughput a shape holds over a 2 s window power-saturated,
// "the number that matches sustained training throughput". TFLOP/s, MSMF / MAMF:
//   H200 SXM BF16 708.5 / 841.9 (~693 W at 1,465 MHz), FP8 1,288.7 / 1,491.9 (~693 W at 1,374 MHz);
//   B200 SXM BF16 1,456.3 / 1,770.9 (~994 W at 1,339 MHz), FP8 2,795.7 / 3,435.2 (~990 W at 1,331 MHz).
// H100 SXM has no MSMF in the table; it is the H200's compute die at the same 700 W, so it takes the
// H200's fractions (an assumption: the H200's faster HBM3e draws its own share of the power). A100,
// MI300X and TPU v5p have none measured and keep their burst figures.
constexpr double kHopperSustainedBf16 = 708.5 / 841.9;
constexpr double kHopperSustainedFp8 = 1288.7 / 1491.9;
constexpr const char* kMsmfSource = "Bekman, ML Engineering Open Book: maximum sustainable matmul FLOPS (082816f)";

/// `d` with the fractions of its burst matmul throughput it sustains under full load.
DeviceSpec withSustainedMatmul(DeviceSpec d, double bf16, double fp8)
{
    d.sustainedMatmul[static_cast<std::size_t>(Precision::BF16)] = bf16;
    d.sustainedMatmul[static_cast<std::size_t>(Precision::FP8)] = fp8;
    d.sustainedMatmulSource = kMsmfSource;
    return d;
}

// Fused attention on Hopper, head dimension 128, causal forward and the backward pass at 4k tokens
// (batch x sequence 16k, hidden 2,048, FP16/BF16): J. Shah et al., "FlashAttention-3: Fast and
// Accurate Attention with Asynchrony and Low-precision", 2024, attention speed figures (H100 80GB SXM5),
// TFLOP/s as the FlashAttention benchmarks count them (4 s^2 d per head forward, halved when causal;
// backward 2.5x): FlashAttention-2 319 / 310, cuDNN 518 / 499, FlashAttention-3 579 / 542, of a
// 989.5 TFLOP/s dense peak. The figures rise 5-20% from 1k to 4k tokens and level off above;
// shorter sequences and head dimension 64 (10-35% slower) are not distinguished. H200 has the
// same compute die. cuDNN is the default: Transformer Engine calls it on Hopper (Megatron-LM, NeMo).
// For A100 the FlashAttention-2 paper's figures were not available to us (its abstract: 50-73% of
// the A100's peak), and B200 and MI300X have no published figure we found: their attention kernels
// take the matmul efficiency.
// Compute kernels overlapped with collectives on the same GPU run slower: NCCL and RCCL launch one
// thread block per channel, which holds an SM for the whole collective (an H100 all-gather of FSDP's
// prefetch takes 24 of 132 SMs, pushing a one-wave GEMM into a second wave), and the transfers share
// HBM bandwidth. S. Lee et al., "Characterizing Compute-Communication Overlap in GPU-Accelerated
// Distributed Deep Learning: Performance and Power Implications", 2025 (arXiv:2507.03114), measured
// GPT and Llama training steps on A100, H100, MI250 and MI210: compute overlapped with communication
// is 18.9% slower on average (40% at most) than the same compute alone. The paper's abstract gives
// the average over the four devices, not one per device, so every GPU preset takes it (H200, B200 and
// MI300X run the same NCCL/RCCL design and are not measured). TPU collectives run on the chip's
// ICI DMA engines; no figure was found and TPU v5p keeps 0.
constexpr double kOverlapSlowdown = 0.189;
constexpr const char* kOverlapSource =
    "Lee et al. 2025, Characterizing Compute-Communication Overlap (arXiv:2507.03114)";

DeviceSpec withOverlapSlowdown(DeviceSpec d)
{
    d.overlapSlowdown = kOverlapSlowdown;
    d.overlapSlowdownSource = kOverlapSource;
    return d;
}

DeviceSpec withHopperAttention(DeviceSpec d)
{
    const double peakTflops = d.peakFlops(Precision::BF16) / 1e12;
    const auto measured = [&](double forwardTflops, double backwardTflops) {
        return AttentionEfficiency{forwardTflops / peakTflops, backwardTflops / peakTflops};
    };
    d.attention[static_cast<std::size_t>(AttentionKernel::FlashAttention2)] = measured(319, 310);
    d.attention[static_cast<std::size_t>(AttentionKernel::CuDnn)] = measured(518, 499);
    d.attention[static_cast<std::size_t>(AttentionKernel::FlashAttention3)] = measured(579, 542);
    d.defaultAttention = AttentionKernel::CuDnn;
    d.attentionSource =
        "Shah et al. 2024, FlashAttention-3, attention speed figures (H100 SXM5, head dim 128, 4k tokens)";
    return d;
}

/// An SXM Hopper: the H100's compute (dense peaks from its datasheet), its measured BF16 matmul
/// efficiency, sm_90 GEMM tables, attention kernels and sustained clock; its own HBM (decimal GB/s
/// and datasheet GB), measured FP8 matmul throughput (TFLOP/s) and driver-reported memory (MiB).
DeviceSpec hopperSxm(std::string name, std::string title, std::string source, double bandwidthGBps, double capacityGB,
                     double fp8MatmulTflops, double visibleMiB)
{
    DeviceSpec d = make(std::move(name), std::move(title), std::move(source), 67, 67, 494.5, 989.5, 989.5, 1979,
                        bandwidthGBps, capacityGB);
    d = withMatmulEfficiency(std::move(d), 794.5 / 989.5, fp8MatmulTflops / 1979, kMamfSource, GemmFamily::Sm90);
    d = withSustainedMatmul(withHopperAttention(std::move(d)), kHopperSustainedBf16, kHopperSustainedFp8);
    return withVisibleMemory(std::move(d), visibleMiB * kMiB);
}

std::vector<DeviceSpec> makePresets()
{
    // All peaks are dense TFLOP/s; datasheets quote tensor-core figures "with sparsity", which are
    // halved here. FP64 is the tensor-core (matrix) figure where the datasheet gives one.
    std::vector<DeviceSpec> presets = {
        // NVIDIA A100 Tensor Core GPU datasheet (2021), SXM 80GB column: FP64 Tensor Core 19.5,
        // FP32 19.5, TF32 156, BF16/FP16 312 TFLOP/s; no FP8; HBM2e 2,039 GB/s, 80 GB.
        // Its measured matmul ceiling (271.2 TFLOP/s, 0.869) is not applied yet: with it every A100 row
        // of docs/validation.md comes out 2-38% faster than measured, which says that costs of the
        // frameworks behind those rows (unfused kernels of eager PyTorch, communication kernels
        // sharing the SMs) are missing from the model; until they are modelled the A100 keeps the
        // compute model's default.
        // nvidia-smi reports 81,920 MiB on an A100-SXM4-80GB.
        withVisibleMemory(make("A100", "NVIDIA A100 SXM4 80GB", "NVIDIA A100 datasheet (SXM 80GB)", 19.5, 19.5, 156,
                               312, 312, 0, 2039, 80),
                          81920 * kMiB),
        // NVIDIA H100 Tensor Core GPU datasheet, SXM column: FP64 Tensor Core 67, FP32 67, TF32 989*,
        // BF16/FP16 1,979*, FP8 3,958* (* with sparsity); HBM3 3.35 TB/s, 80 GB. nvidia-smi reports
        // 81,559 MiB on an H100 80GB HBM3.
        hopperSxm("H100", "NVIDIA H100 SXM5 80GB", "NVIDIA H100 datasheet (SXM)", 3350, 80, 1402.6, 81559),
        // NVIDIA H200 Tensor Core GPU datasheet, SXM column: compute as H100 SXM; HBM3e 4.8 TB/s, 141 GB.
        // nvidia-smi reports 143,771 MiB on an H200.
        hopperSxm("H200", "NVIDIA H200 SXM 141GB", "NVIDIA H200 datasheet (SXM)", 4800, 141, 1453.4, 143771),
        // NVIDIA HGX B200 specifications, 8-GPU figures divided by 8: FP64 296 TF -> 37, FP32 600 TF -> 75,
        // TF32 18 PF* -> 1,125, BF16/FP16 36 PF* -> 2,250, FP8 72 PF* -> 4,500 (* sparse, halved);
        // HBM3e 64 TB/s -> 8 TB/s and 1,440 GB -> 180 GB per GPU.
        // nvidia-smi reports 183,359 MiB on a B200.
        withVisibleMemory(
            withSustainedMatmul(
                withMatmulEfficiency(make("B200", "NVIDIA B200 (HGX)", "NVIDIA HGX B200 specifications (per GPU)", 37,
                                          75, 1125, 2250, 2250, 4500, 8000, 180),
                                     1745.0 / 2250, 3432.5 / 4500, kMamfSource, GemmFamily::Sm100),
                1456.3 / 1770.9, 2795.7 / 3435.2),
            183359 * kMiB),
        // AMD Instinct MI300X data sheet: FP64 matrix 163.4, FP32 163.4, TF32 653.7, BF16/FP16 1,307.4,
        // FP8 2,614.9 TFLOP/s (dense); HBM3 5.3 TB/s, 192 GB.
        // rocm-smi reports a VRAM total of 205,822,885,888 bytes on an MI300X.
        withVisibleMemory(withMatmulEfficiency(make("MI300X", "AMD Instinct MI300X", "AMD Instinct MI300X data sheet",
                                                    163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 5300, 192),
                                               668.4 / 1307.4, 0, kMamfSource, GemmFamily::Gfx942),
                          205822885888.0),
        // Google Cloud TPU v5p documentation (system architecture): 459 TFLOP/s BF16, 918 TOPS INT8,
        // HBM 95 GB at 2,765 GB/s. No FP64/FP32/FP8 figures: those fall back to BF16 (XLA runs f32
        // matmuls as bf16 passes), which is optimistic for f32.
        make("TPUv5p", "Google TPU v5p", "Google Cloud TPU v5p documentation", 0, 0, 0, 459, 459, 0, 2765, 95),
    };
    for (DeviceSpec& d : presets)
        if (d.name != "TPUv5p") // every GPU: their collectives run as kernels on the SMs
            d = withOverlapSlowdown(std::move(d));
    return presets;
}

} // namespace

std::string_view displayName(Precision precision)
{
    switch (precision) {
    case Precision::FP64:
        return "fp64";
    case Precision::FP32:
        return "fp32";
    case Precision::TF32:
        return "tf32";
    case Precision::BF16:
        return "bf16";
    case Precision::FP16:
        return "fp16";
    case Precision::FP8:
        return "fp8";
    case Precision::Count:
        break;
    }
    return "?";
}

Precision precisionOf(DType type, Precision fallback, bool allowTf32)
{
    switch (type) {
    case DType::F64:
    case DType::C128:
        return Precision::FP64;
    case DType::F32:
    case DType::C64:
        return allowTf32 ? Precision::TF32 : Precision::FP32;
    case DType::BF16:
        return Precision::BF16;
    case DType::F16:
        return Precision::FP16;
    case DType::F8E4M3FN:
    case DType::F8E5M2:
    case DType::F8E4M3FNUZ:
    case DType::F8E5M2FNUZ:
    case DType::F8E4M3B11FNUZ:
    case DType::F8E4M3:
    case DType::F8E3M4:
    case DType::S8:
    case DType::U8:
    case DType::S4:
    case DType::U4:
        return Precision::FP8;
    case DType::S16:
    case DType::U16:
        return Precision::FP16;
    case DType::S32:
    case DType::U32:
    case DType::S64:
    case DType::U64:
        return Precision::FP32;
    default:
        return fallback;
    }
}

double DeviceSpec::peakFlops(Precision precision) const
{
    const auto at = [this](Precision p) { return peak[static_cast<std::size_t>(p)]; };
    if (at(precision) > 0)
        return at(precision);
    static constexpr Precision kChain[] = {Precision::FP64, Precision::FP32, Precision::TF32, Precision::BF16};
    switch (precision) {
    case Precision::FP64:
    case Precision::FP32:
    case Precision::TF32: {
        bool started = false;
        for (Precision p : kChain) {
            started = started || p == precision;
            if (started && at(p) > 0)
                return at(p);
        }
        break;
    }
    case Precision::FP8:
    case Precision::FP16:
        if (at(Precision::BF16) > 0)
            return at(Precision::BF16);
        break;
    case Precision::BF16:
        if (at(Precision::FP16) > 0)
            return at(Precision::FP16);
        break;
    case Precision::Count:
        break;
    }
    for (double p : peak)
        if (p > 0)
            return p;
    return 0;
}

std::string_view displayName(AttentionKernel kernel)
{
    switch (kernel) {
    case AttentionKernel::Default:
        return "default";
    case AttentionKernel::FlashAttention2:
        return "fa2";
    case AttentionKernel::CuDnn:
        return "cudnn";
    case AttentionKernel::FlashAttention3:
        return "fa3";
    case AttentionKernel::Count:
        break;
    }
    return "?";
}

std::optional<AttentionKernel> parseAttentionKernel(std::string_view text)
{
    for (int k = 0; k < static_cast<int>(AttentionKernel::Count); ++k)
        if (text == displayName(static_cast<AttentionKernel>(k)))
            return static_cast<AttentionKernel>(k);
    return std::nullopt;
}

double DeviceSpec::sustainedMatmulFor(Precision precision) const
{
    const double own = sustainedMatmul[static_cast<std::size_t>(precision)];
    const double bf16 = sustainedMatmul[static_cast<std::size_t>(Precision::BF16)];
    return own > 0 ? own : (bf16 > 0 ? bf16 : 1.0);
}

double DeviceSpec::matmulEfficiencyFor(Precision precision) const
{
    const double own = matmulEfficiency[static_cast<std::size_t>(precision)];
    return own > 0 ? own : matmulEfficiency[static_cast<std::size_t>(Precision::BF16)];
}

const std::vector<DeviceSpec>& devicePresets()
{
    static const std::vector<DeviceSpec> presets = makePresets();
    return presets;
}

const DeviceSpec* findDevice(std::string_view name)
{
    std::string key = nameKey(name);
    struct Alias {
        std::string_view alias;
        std::string_view name;
    };
    static constexpr Alias kAliases[] = {
        {"a10080gb", "a100"}, {"a100sxm", "a100"}, {"a100sxm480gb", "a100"}, {"h100sxm", "h100"},
        {"h100sxm5", "h100"}, {"h200sxm", "h200"}, {"b200hgx", "b200"},      {"mi300", "mi300x"},
        {"tpu5p", "tpuv5p"},  {"v5p", "tpuv5p"},   {"tpuv5", "tpuv5p"},
    };
    for (const Alias& a : kAliases)
        if (key == a.alias)
            key = a.name;
    for (const DeviceSpec& d : devicePresets())
        if (nameKey(d.name) == key)
            return &d;
    return nullptr;
}

} // namespace flint::core
