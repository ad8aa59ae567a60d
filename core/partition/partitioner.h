// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/message.h"
#include "core/partition/logicalprogram.h"

#include <cstddef>
#include <string>
#include <vector>

namespace flint::core::partition {

/// A logical program partitioned for one mesh: the per-device program as an HLO-shaped module
/// (local shapes, explicit collectives with flattened-id replica groups, 1 replica x mesh devices
/// partitions), ready for hlo::lowerHlo.
struct PartitionedModule {
    hlo::Module module;
    std::size_t collectivesInserted = 0;
    std::vector<Message> warnings;
};

/// SPMD-partitions `program` for `mesh` (GSPMD/Shardy style, forward propagation):
/// - annotated ops (parameters, sharding constraints) take their sharding; axes the mesh lacks are
///   dropped with a warning;
/// - elementwise ops follow their most sharded operand, the others are resharded to it;
///   broadcast, transpose and reshape (where dimensions split or merge cleanly) carry shardings
///   through; dot keeps batch and free dimensions' shardings, and a contracting dimension sharded
///   on both sides (the other side is sliced to match when only one is) gives a partial sum; reduce
///   over a sharded dimension gives a partial sum; all other ops run on replicated operands;
/// - resharding inserts all-reduce (partial -> complete), reduce-scatter (partial -> sharded on the
///   same axes), all-gather (sharded -> replicated), all-to-all (axes moving between dimensions) and
///   free local slices (replicated -> sharded); returned values are completed.
/// The mesh is a parameter: the same program partitions for any mesh whose axis names it uses.
/// A dimension that its axes do not divide is padded to the next multiple (as XLA does), with a
/// warning. Pure; throws std::invalid_argument for dimension numbers outside their operands.
PartitionedModule partitionForMesh(const LogicalProgram& program, const MeshShape& mesh, const std::string& file);

} // namespace flint::core::partition
