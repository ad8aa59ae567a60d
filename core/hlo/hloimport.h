// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/message.h"
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
    /// Lower at most this many iterations of any loop, with a warning naming the loop and its count:
    /// TPU programs run many training steps in one on-device loop (`--max-trip-count`).
    std::optional<std::int64_t> maxTripCount;
    /// Refuse to unroll into more ops per rank than this (a guard against runaway loops): 5 million
    /// ops take about 1 GB; the largest real modules we read unroll to some 45,000 (`--max-ops`).
    std::uint64_t maxOps = 5'000'000;
    /// A module not yet SPMD-partitioned (core/partition/hlopartition.h) is partitioned for this mesh
    /// ("d0=2,d1=4", axis names as the module's mesh has them); empty: its own device count.
    std::string mesh;
};

/// Who partitioned the module a workload was lowered from.
enum class Partitioning {
    None,       ///< one device, no shardings: nothing to partition
    ByCompiler, ///< per-device shapes and collectives as the compiler's SPMD partitioner wrote them
    ByFlint,    ///< global shapes with shardings, partitioned by core::partition
    Failed,     ///< global shapes with shardings that could not be partitioned (see the warnings)
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
    std::vector<Message> warnings;
    Partitioning partitioning = Partitioning::None;
    /// ByFlint: the mesh ("d0=2,d1=4") and the number of collectives the partitioner inserted.
    std::string partitionedFor;
    std::size_t insertedCollectives = 0;
};

/// Lowers a parsed module: one op per instruction that does work (fusions and custom calls costed as
/// one kernel; parameters, constants, tuples, bitcasts and -done halves are free and pass their
/// dependencies through), while loops unrolled with each iteration as a scope, calls and async
/// wrappers inlined, the most expensive branch of a conditional taken, async collective pairs as one
/// collective, collective-permute with global source-target pairs. Throws InputError (file and
/// line) for modules whose collectives are inconsistent, and Cancelled.
HloImport lowerHlo(const Module& module, const HloImportOptions& options = {}, const JobControl& control = {});

/// Lowers a module as a user's file: one not yet SPMD-partitioned (global shapes, shardings,
/// `Sharding` custom calls) is partitioned first for `options.mesh` or its own device count; one
/// that cannot be is lowered as it is, with a warning that says so (Partitioning::Failed).
HloImport importHloModule(const Module& module, const HloImportOptions& options = {}, const JobControl& control = {});

/// Reads, parses and lowers an HLO text file (importHloModule).
HloImport importHloFile(const std::string& path, const HloImportOptions& options = {}, const JobControl& control = {});

} // namespace flint::core::hlo
