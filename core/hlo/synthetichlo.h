// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace flint::core::hlo {

/// HLO text of a synthetic SPMD-partitioned transformer step with about `instructions` instructions
/// for `devices` devices (8 times a power of two, at most 16,384): per layer, GEMMs, elementwise ops and a fusion, a
/// tensor-parallel all-reduce over groups of 8 (iota replica groups) and a data-parallel
/// reduce-scatter across them. For benchmarks and scale tests; deterministic.
std::string makeSyntheticHloModule(std::uint64_t instructions, std::int64_t devices);

} // namespace flint::core::hlo
