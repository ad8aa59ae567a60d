// SPDX-License-Identifier: MIT
#include "core/estimator/gemmtable.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace flint::core {
namespace {

using gemmdata::kGemmK;
using gemmdata::kGemmM;
using gemmdata::kGemmN;

constexpr double kLowestDim = 256; // the grid's first point in every dimension
constexpr double kTera = 1e12;

const float* tableFor(GemmFamily family, Precision precision)
{
    // FP16 runs at BF16's tensor-core rate on all three families; the tables measured BF16.
    const bool half = precision == Precision::BF16 || precision == Precision::FP16;
    switch (family) {
    case GemmFamily::Sm90:
        // sm_90's FP8 figures are not used: up to 2,593 TFLOP/s, 31% above the H100's dense FP8
        // peak (1,979), so they cannot be dense FP8 GEMM throughput as our FLOPs count it.
        return half ? gemmdata::kSm90Bf16 : precision == Precision::TF32 ? gemmdata::kSm90Tf32 : nullptr;
    case GemmFamily::Sm100:
        return half                           ? gemmdata::kSm100Bf16
               : precision == Precision::TF32 ? gemmdata::kSm100Tf32
               : precision == Precision::FP8  ? gemmdata::kSm100Fp8
                                              : nullptr;
    case GemmFamily::Gfx942:
        // gfx942's one FP8 figure (100 TFLOP/s at 4096^3, below its BF16) is not an FP8 GEMM path.
        return half ? gemmdata::kGfx942Bf16 : precision == Precision::TF32 ? gemmdata::kGfx942Tf32 : nullptr;
    case GemmFamily::None:
        break;
    }
    return nullptr;
}

/// Position of `value` on a grid 256 * 2^i, i = 0 .. points-1, as a fractional index, clamped.
double gridIndex(double value, int points)
{
    return std::clamp(std::log2(value / kLowestDim), 0.0, static_cast<double>(points - 1));
}

/// Throughput (FLOP/s) at m, n, k (each at least 256), trilinear in the grid's log2 coordinates.
double throughput(const float* table, double m, double n, double k)
{
    const double fm = gridIndex(m, kGemmM), fn = gridIndex(n, kGemmN), fk = gridIndex(k, kGemmK);
    const int im = std::min(static_cast<int>(fm), kGemmM - 2);
    const int in = std::min(static_cast<int>(fn), kGemmN - 2);
    const int ik = std::min(static_cast<int>(fk), kGemmK - 2);
    const double wm = fm - im, wn = fn - in, wk = fk - ik;
    double sum = 0;
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 2; ++c) {
                const double w = (a ? wm : 1 - wm) * (b ? wn : 1 - wn) * (c ? wk : 1 - wk);
                if (w > 0)
                    sum += w * table[((im + a) * kGemmN + in + b) * kGemmK + ik + c];
            }
    return sum * kTera;
}

/// Seconds at m, n, k: on or above the grid from its throughput; a dimension below the grid's first
/// point takes the time at that point less the slope to the second (time affine in the dimension),
/// but never a throughput above the first point's (where the measured throughput falls from the
/// first point to the second, the slope alone would extrapolate to nothing).
double seconds(const float* table, double m, double n, double k)
{
    const auto below = [&](double value, auto at) {
        const double first = at(kLowestDim), second = at(2 * kLowestDim);
        return std::max(first * value / kLowestDim, first + (second - first) * (value - kLowestDim) / kLowestDim);
    };
    if (m < kLowestDim)
        return below(m, [&](double x) { return seconds(table, x, n, k); });
    if (n < kLowestDim)
        return below(n, [&](double x) { return seconds(table, m, x, k); });
    if (k < kLowestDim)
        return below(k, [&](double x) { return seconds(table, m, n, x); });
    return 2 * m * n * k / throughput(table, m, n, k);
}

} // namespace

GemmShape gemmShapeOf(const std::vector<std::int64_t>& shape, std::uint64_t flops, std::uint64_t memoryBytes)
{
    if (shape.empty() || flops == 0 ||
        static_cast<double>(flops) < kGemmIntensity * static_cast<double>(std::max<std::uint64_t>(1, memoryBytes)))
        return {};
    double elements = 1;
    for (std::int64_t d : shape) {
        if (d <= 0)
            return {};
        elements *= static_cast<double>(d);
    }
    GemmShape g;
    g.n = shape.back();
    g.m = static_cast<std::int64_t>(elements / static_cast<double>(g.n));
    g.k = std::max<std::int64_t>(1, std::llround(static_cast<double>(flops) / (2 * elements)));
    return g;
}

double gemmTableSeconds(GemmFamily family, Precision precision, const GemmShape& shape)
{
    const float* table = tableFor(family, precision);
    if (!table || !shape.valid())
        return 0;
    return seconds(table, static_cast<double>(shape.m), static_cast<double>(shape.n), static_cast<double>(shape.k));
}

double gemmTablePeak(GemmFamily family, Precision precision)
{
    // Each table's largest figure, found once: FP8 GEMMs on sm_90 ask for the BF16 one op by op.
    static const std::map<const float*, double> peaks = [] {
        std::map<const float*, double> found;
        for (const float* table : {gemmdata::kSm90Bf16, gemmdata::kSm90Tf32, gemmdata::kSm100Bf16, gemmdata::kSm100Tf32,
                                   gemmdata::kSm100Fp8, gemmdata::kGfx942Bf16, gemmdata::kGfx942Tf32})
            found[table] = *std::max_element(table, table + kGemmM * kGemmN * kGemmK) * kTera;
        return found;
    }();
    const float* table = tableFor(family, precision);
    return table ? peaks.at(table) : 0.0;
}

} // namespace flint::core
