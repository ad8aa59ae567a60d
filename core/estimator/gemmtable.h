// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/device.h"

#include <cstdint>

namespace flint::core {

namespace gemmdata {
inline constexpr int kGemmM = 7; ///< M = 256, 512, ..., 16,384
inline constexpr int kGemmN = 5; ///< N = 256, ..., 4,096
inline constexpr int kGemmK = 5; ///< K = 256, ..., 4,096
extern const float kSm90Bf16[kGemmM * kGemmN * kGemmK];
extern const float kSm90Tf32[kGemmM * kGemmN * kGemmK];
extern const float kSm100Bf16[kGemmM * kGemmN * kGemmK];
extern const float kSm100Tf32[kGemmM * kGemmN * kGemmK];
extern const float kSm100Fp8[kGemmM * kGemmN * kGemmK];
extern const float kGfx942Bf16[kGemmM * kGemmN * kGemmK];
extern const float kGfx942Tf32[kGemmM * kGemmN * kGemmK];
} // namespace gemmdata

/// A GEMM's shape: C[M x N] = A[M x K] B[K x N], batch dimensions folded into M.
struct GemmShape {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    bool valid() const { return m > 0 && n > 0 && k > 0; }
    friend bool operator==(const GemmShape&, const GemmShape&) = default;
};

/// The GEMM an op with result `shape` and `flops` performs, when its arithmetic intensity says it is
/// one (at least kGemmIntensity FLOPs per byte of memory traffic; elementwise kernels and reductions
/// do about one): N is the result's last dimension, M the product of the others, K = flops / 2MN.
/// Invalid (all 0) for anything else, or when the shape is unknown.
inline constexpr double kGemmIntensity = 4.0;
GemmShape gemmShapeOf(const std::vector<std::int64_t>& shape, std::uint64_t flops, std::uint64_t memoryBytes);

/// Seconds a GEMM of `shape` takes on `family` hardware at `precision`, by the measured table
/// (docs/estimator.md, "Matmul efficiency by shape"), or 0 when the family has no table for that
/// precision. Between grid points the throughput is interpolated linearly in log2 M, log2 N,
/// log2 K; above the grid it stays at the edge's; below it (a dimension under 256) the time is
/// extrapolated linearly from the edge's first two points, as a kernel's fixed cost dominates there.
double gemmTableSeconds(GemmFamily family, Precision precision, const GemmShape& shape);

/// The largest throughput (FLOP/s) in `family`'s table for `precision`, 0 without one.
double gemmTablePeak(GemmFamily family, Precision precision);

} // namespace flint::core
