// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/progress.h"
#include "core/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flint::core::hlo {

/// Choices the module does not make itself.
struct HloImportOptions {
    /// Override the module's replica_count / num_partitions (otherwise: the header, else inferred
    /// from the collectives' device ids, with a warning).
    std::optional<std::int64_t> replicaCount;
    std::optional<std::int64_t> numPartitions;
    /// Trip count for while loops whose count is neither in backend_config (known_trip_count) nor
    /// derivable from the loop's condition; without it such loops run once, with a warning.
    std::optional<std::int64_t> whileTripCount;
    /// Refuse to unroll into more ops per rank than this (a guard against runaway loops): 5 million
    /// ops take about 1 GB; the largest real modules we read unroll to some 45,000 (`--max-ops`).
    std::uint64_t maxOps = 5'000'000;
};

/// A module lowered to per-rank workloads.
struct HloImport {
    /// One Program shared by every device (global device id = replica * partitions + partition),
    /// each collective bound per rank to the group XLA's rules give it.
    Workload workload;
    std::string moduleName;
    std::int64_t replicaCount = 1;
    std::int64_t numPartitions = 1;
    /// What the user should know: inferred device counts, guessed trip counts, unknown opcodes and
    /// custom calls, branches chosen. Each once, with the line it concerns.
    std::vector<std::string> warnings;
};

/// Lowers a parsed module: one op per instruction that does work (fusions and custom calls costed as
/// one kernel; parameters, constants, tuples, bitcasts and -done halves are free and pass their
/// dependencies through), while loops unrolled with each iteration as a scope, calls and async
/// wrappers inlined, the most expensive branch of a conditional taken, async collective pairs as one
/// collective, collective-permute with global source-target pairs. Throws InputError (file and
/// line) for modules whose collectives are inconsistent, and Cancelled.
HloImport lowerHlo(const Module& module, const HloImportOptions& options = {}, const JobControl& control = {});

/// Reads, parses and lowers an HLO text file.
HloImport importHloFile(const std::string& path, const HloImportOptions& options = {}, const JobControl& control = {});

} // namespace flint::core::hlo
