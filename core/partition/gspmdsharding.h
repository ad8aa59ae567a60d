// SPDX-License-Identifier: MIT
#pragma once

#include "core/partition/logicalprogram.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// GSPMD shardings as MHLO and HLO print them (`mhlo.sharding = "{devices=[2,1,4]<=[8]
// last_tile_dim_replicate}"`), read into the partitioner's mesh-axis form. A tile assignment names
// no mesh, so the module gets an implicit one whose axes refine every tiling it uses.
namespace flint::core::partition {

/// A parsed GSPMD sharding. `tiles` has one entry per tensor dimension plus `subgroupDims` trailing
/// ones that replicate the value (`last_tile_dim_replicate`: one; `last_tile_dims={manual,
/// replicated}`: one per entry; `manualSubgroup` when one of them is manual). The tile assignment lists devices in the
/// order of an iota reshaped to `reshape` and transposed by `permutation` (`<=[2,4]T(1,0)`; plain `<=[8]` or an
/// explicit 0, 1, ..., N-1 is reshape [N], identity permutation).
struct GspmdSharding {
    enum class Kind : std::uint8_t { Replicated, Maximal, Manual, Tiled };
    Kind kind = Kind::Replicated;
    std::vector<std::int64_t> tiles;
    std::size_t subgroupDims = 0;
    bool manualSubgroup = false;
    std::vector<std::int64_t> reshape;
    std::vector<std::int64_t> permutation;
    /// False for an explicit device list that is no transposed iota: the partitioner cannot express
    /// it and treats the value as replicated.
    bool iotaOrder = true;
};

/// Parses "{replicated}", "{maximal device=0}", "{manual}", "{devices=[2,1]0,1}", "{devices=[2,1,4]<=[8]
/// last_tile_dim_replicate}", "{devices=[2,2]<=[2,2]T(1,0)}"; a tuple "{{...}, {...}}" gives its first
/// element. nullopt for text that is none of these; when `invalid` is given and the text is a
/// tiling that no device count allows (a tile size below 1, products beyond 2^31, a device list of
/// another size), it also receives the reason, so that a reader can refuse the module rather than
/// take the value as replicated.
std::optional<GspmdSharding> parseGspmdSharding(std::string_view text, std::string* invalid = nullptr);

/// The elements of a tuple sharding "{{...}, {...}}" as texts ("{...}" each), or the text itself
/// when it is no tuple.
std::vector<std::string_view> gspmdTupleElements(std::string_view text);

/// A mesh over `devices` devices (axes "d0", "d1", ..., major to minor) on which every tiling in
/// `shardings` is a run of axes per dimension: the prime factors of each tiling's device order,
/// merged where no tiling splits them. nullopt when the device orders do not nest.
std::optional<MeshShape> meshForTilings(const std::vector<GspmdSharding>& shardings, std::int64_t devices);

/// `sharding` as mesh axes per dimension of a rank-`rank` tensor on `mesh` (from meshForTilings);
/// nullopt when it cannot be expressed (other device order, tiles that are not runs of axes).
std::optional<TensorSharding> toTensorSharding(const GspmdSharding& sharding, std::size_t rank, const MeshShape& mesh);

} // namespace flint::core::partition
