// SPDX-License-Identifier: MIT
#pragma once

// Internal to flint_mlir (includes MLIR): turns a parsed StableHLO / MHLO / Shardy module into the
// HLO frontend's Module, so that both frontends share one cost model, one set of device-group
// rules and one lowering to Programs (core/hlo/hloimport.h).

#include "core/hlo/hlomodule.h"
#include "core/message.h"
#include "core/mlir/moduleparser.h"

#include <string>
#include <vector>

#include <mlir/IR/BuiltinOps.h>

namespace flint::frontend::detail {

/// A Shardy mesh declared by `sdy.mesh`.
struct MeshDeclaration {
    std::string name;
    std::vector<std::pair<std::string, std::int64_t>> axes;
    std::vector<std::int64_t> deviceIds; ///< device_ids=[...]; empty: iota
};

struct TranslatedModule {
    core::hlo::Module module;
    std::vector<core::Message> warnings;
    std::vector<MeshDeclaration> meshes;
    /// Values of the entry function or ops outside manual computations that carry a sharding.
    std::size_t shardedValues = 0;
    /// Collectives outside manual computations (those inside are the program's own).
    std::size_t collectives = 0;
    /// sdy.manual_computation ops: written before SPMD partitioning, like shardings.
    std::size_t manualComputations = 0;
};

/// Translates `module` (read from `file`). Every operation becomes an instruction; operations the
/// cost model does not know keep their MLIR name as opcode, so the HLO lowering names them in a
/// warning instead of dropping them. Throws core::InputError with file and line for operations that
/// cannot be represented (a function call to a missing symbol, a malformed attribute).
TranslatedModule translateToHlo(mlir::ModuleOp module, const std::string& file, const SourcePositions& positions);

} // namespace flint::frontend::detail
