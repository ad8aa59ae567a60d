// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hloimport.h"
#include "core/hlo/hlomodule.h"
#include "core/message.h"
#include "core/partition/logicalprogram.h"
#include "core/progress.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Facade of the MLIR frontend's lowering: StableHLO, MHLO and Shardy modules read with MLIR 19 and
// the reader dialects of flint_mlir, turned into the HLO frontend's Module, and lowered by the same
// code as HLO text (costs, device groups, loops, calls). Our own types only; no MLIR headers.
namespace flint::frontend {

/// Options of an MLIR import. Device counts, the trip count of loops without a static count and
/// the op limit mean what they mean for HLO (core::hlo::HloImportOptions).
struct MlirImportOptions {
    core::hlo::HloImportOptions hlo;
    /// Mesh to partition a module for that carries shardings but no collectives, as "x=2,y=4" (axis
    /// names as the module's shardings use them); default: the module's first `sdy.mesh`.
    std::string mesh;
};

/// A Shardy mesh of the module (`sdy.mesh @name = <["x"=2, "y"=4]>`).
struct MeshAxes {
    std::string name;                                       ///< symbol name without '@'
    std::vector<std::pair<std::string, std::int64_t>> axes; ///< axis name and size, in order
    std::vector<std::int64_t> deviceIds;                    ///< device_ids=[...]; empty: iota order
};

/// An MLIR module read and translated to the HLO frontend's Module (not yet lowered).
struct MlirModule {
    core::hlo::Module module;
    std::vector<MeshAxes> meshes;
    /// Values that carry an `sdy.sharding` or `mhlo.sharding` annotation outside manual computations.
    std::size_t shardedValues = 0;
    /// Collective ops outside manual computations (StableHLO/MHLO all_reduce, all_gather, ...).
    std::size_t collectives = 0;
    /// sdy.manual_computation ops (shard_map): the module is written before SPMD partitioning.
    std::size_t manualComputations = 0;
    std::vector<core::Message> warnings;
};

/// A lowered MLIR module: the same result as an HLO import, plus what the MLIR file declared.
struct MlirImport {
    core::hlo::HloImport imported;
    std::vector<MeshAxes> meshes;
    /// The mesh the module was partitioned for ("x=2,y=4"); empty when it was not partitioned.
    std::string partitionedFor;
    /// Collectives the partitioner inserted (0 when not partitioned).
    std::size_t insertedCollectives = 0;
};

/// Parses and verifies the MLIR file at `path` with upstream dialects and the reader dialects, and
/// translates it. Throws MlirParseError (file, line, column) for text MLIR rejects and
/// core::InputError for modules that cannot be lowered. Thread-safe (one MLIR context per call).
MlirModule readMlirModule(const std::string& path);
/// Same for text held in memory; `bufferName` is what locations report.
MlirModule readMlirModuleSource(std::string_view source, const std::string& bufferName);

/// Reads and lowers an MLIR file to per-rank workloads. A module that carries shardings but no
/// collectives is SPMD-partitioned first (core/partition/partitioner.h) for `options.mesh` or its
/// own mesh; without either it is lowered as one device's view of the program, with a warning.
/// Throws MlirParseError, core::InputError, core::Cancelled.
MlirImport importMlirFile(const std::string& path, const MlirImportOptions& options = {},
                          const core::JobControl& control = {});
MlirImport importMlirSource(std::string_view source, const std::string& bufferName,
                            const MlirImportOptions& options = {}, const core::JobControl& control = {});

/// Lowers a module already read: partitions it as importMlirFile does, then lowers it.
MlirImport lowerMlirModule(const MlirModule& module, const MlirImportOptions& options = {},
                           const core::JobControl& control = {});

} // namespace flint::frontend
