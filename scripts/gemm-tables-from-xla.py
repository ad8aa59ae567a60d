#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes core/estimator/gemmtables.cpp from OpenXLA's measured GEMM throughput table.

Run once by hand when the source table changes; the build never runs it and needs nothing from
XLA. The input is `xla/service/gpu/model/matmul_interpolator_data.h` (Apache-2.0, (c) The OpenXLA
Authors); the copy used was ROCm/xla at d02afb4fc18aa82cf9a8824672fc5eba298b66aa ("matmul and
collective interpolator data for gfx942"), which holds sm_90 (H100), sm_100 (B200) and gfx942
(MI300X). Only measured figures are taken, not code.

The table holds throughput (FLOP/s, 2 b m n k FLOPs per GEMM) for b in {1, 2, 4} and m, n, k in
{256, ..., 4096}. We keep b = 1 for M = m and fold the batch into M above 4,096 (b = 2 and 4 at
m = 4,096 give M = 8,192 and 16,384): the table shows b x m behaving as one M (b = 2, m = 2,048 and
b = 1, m = 4,096 differ by 0.3% on sm_90 at n = k = 2,048).

Usage: scripts/gemm-tables-from-xla.py matmul_interpolator_data.h > core/estimator/gemmtables.cpp
"""
import re
import sys

DIMS = [256, 512, 1024, 2048, 4096]
ROWS_M = [(1, m) for m in DIMS] + [(2, 4096), (4, 4096)]  # (b, m): M = 256 ... 16,384

# (device section in the XLA table, our table name, XLA's type key, our precision)
WANTED = [
    ("sm_90", "kSm90Bf16", "bf16xbf16->bf16", "BF16"),
    ("sm_90", "kSm90Tf32", "f32xf32->f32", "TF32"),
    ("sm_100_B200", "kSm100Bf16", "bf16xbf16->bf16", "BF16"),
    ("sm_100_B200", "kSm100Tf32", "f32xf32->f32", "TF32"),
    ("sm_100_B200", "kSm100Fp8", "f8e4m3fnxf8e4m3fn->bf16", "FP8"),
    ("gfx942", "kGfx942Bf16", "bf16xbf16->bf16", "BF16"),
    ("gfx942", "kGfx942Tf32", "f32xf32->f32", "TF32"),
]


def sections(text):
    """Device key -> {(type, b, m, n, k): flops} (the first entry wins where one repeats)."""
    out = {}
    parts = re.split(r'\n\s*key: "([A-Za-z0-9_]+)"\s*\n\s*value \{', text)
    for i in range(1, len(parts), 2):
        table = out.setdefault(parts[i], {})
        for entry in re.finditer(r"entries \{\s*b: (\d+)\s*m: (\d+)\s*n: (\d+)\s*k: (\d+)(.*?)\n      \}",
                                 parts[i + 1], re.S):
            b, m, n, k = (int(entry.group(j)) for j in range(1, 5))
            for key, value in re.findall(r'key: "([^"]+)"\s*value: (\d+)', entry.group(5)):
                table.setdefault((key, b, m, n, k), int(value))
    return out


def main():
    text = open(sys.argv[1]).read()
    data = sections(text)
    print("// SPDX-License-Identifier: MIT")
    print("// Measured GEMM throughput, TFLOP/s, from OpenXLA's xla/service/gpu/model/matmul_interpolator_data.h")
    print("// (Apache-2.0, (c) The OpenXLA Authors; ROCm/xla at d02afb4fc18aa82cf9a8824672fc5eba298b66aa).")
    print("// Written by scripts/gemm-tables-from-xla.py; see docs/estimator.md, \"Matmul efficiency by shape\".")
    print('#include "core/estimator/gemmtable.h"')
    print()
    print("// One row per M, as the script writes it.")
    print("// clang-format off")
    print("namespace flint::core::gemmdata {")
    print()
    for section, name, key, _ in WANTED:
        table = data[section]
        print(f"// {section}, {key}: [M][N][K], M = {', '.join(str(b * m) for b, m in ROWS_M)}; N, K = "
              f"{', '.join(map(str, DIMS))}.")
        print(f"const float {name}[kGemmM * kGemmN * kGemmK] = {{")
        for b, m in ROWS_M:
            row = []
            for n in DIMS:
                for k in DIMS:
                    row.append(f"{table[(key, b, m, n, k)] / 1e12:.1f}f")
            print("    " + ", ".join(row) + ",")
        print("};")
        print()
    print("} // namespace flint::core::gemmdata")
    print("// clang-format on")


if __name__ == "__main__":
    main()
