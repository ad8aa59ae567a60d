// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/message.h"
#include "core/partition/logicalprogram.h"
#include "core/partition/partitioner.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// HLO text written before XLA's SPMD partitioner ran (`--xla_dump_to` "before_optimizations"
// files, `jax.jit(...).lower(...).as_text(dialect="hlo")`): global shapes, shardings as annotations
// (GSPMD `sharding={devices=[...]...}` and Shardy's round-trip frontend attributes), no collectives
// outside manual regions. Such a module is partitioned by the same partitioner as MLIR modules
// (docs/hlo-frontend.md, "Unpartitioned modules").
namespace flint::core::partition {

/// What an HLO module says about its partitioning.
struct SpmdEvidence {
    std::size_t tiledShardings = 0; ///< instructions whose sharding (GSPMD or Shardy) splits a dimension
    /// Custom calls only the SPMD partitioner removes: Sharding, SPMDFullToShardShape,
    /// SPMDShardToFullShape and Shardy's xla.sdy.* round-trip calls.
    std::size_t partitionerCalls = 0;
    std::size_t collectives = 0;    ///< all-reduce, all-gather, ... anywhere in the module
    std::int64_t tilingDevices = 1; ///< the most devices a GSPMD tiling names (1: none)
    /// True when the module has not been through the SPMD partitioner: it has partitioner calls, or
    /// tiled shardings and no collectives.
    bool unpartitioned() const { return partitionerCalls > 0 || (tiledShardings > 0 && collectives == 0); }
};

SpmdEvidence spmdEvidenceOf(const hlo::Module& module);

/// An unpartitioned module made ready for partitionForMesh: every annotation rewritten into the
/// partitioner's mesh-axis form (the "sharding" attribute, see shardingText; tuple elements joined
/// by ';'), `Sharding` and `xla.sdy.FuncResultSharding` custom calls as sharding constraints.
struct PreparedHlo {
    hlo::Module module;
    /// The mesh the annotations are expressed on: the module's Shardy mesh (`xla.sdy.meshes`), else
    /// one over its device count ("d0", "d1", ... major to minor) that refines every GSPMD tiling.
    MeshShape mesh;
    std::vector<Message> warnings;
};

/// Rewrites `module`'s annotations for `devices` devices. Throws std::invalid_argument when the
/// tilings do not fit one mesh of that many devices.
PreparedHlo prepareUnpartitionedHlo(const hlo::Module& module, std::int64_t devices);

/// The value of frontend attribute `key` in a printed `frontend_attributes={...}` text, unquoted and
/// unescaped; empty when absent.
std::string frontendAttribute(std::string_view attributes, std::string_view key);

/// Shardy shardings as the HLO round trip prints them (`#sdy.sharding<@mesh, [{"x"}, {}]>`, or
/// `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`), one per value, on mesh axes; sub-axes
/// (`"x":(1)2`) are dropped with a note in `dropped`.
std::vector<TensorSharding> parseSdyShardings(std::string_view text, std::string* dropped = nullptr);

/// The meshes of a Shardy round-trip attribute `{mesh = #sdy.mesh<["x"=2, "y"=4], device_ids=[...]>,
/// ...}`, in order (device ids kept); meshes without axes (maximal meshes) are left out.
std::vector<std::pair<std::string, MeshShape>> parseSdyMeshes(std::string_view text);

} // namespace flint::core::partition
