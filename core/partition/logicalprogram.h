// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flint::core::partition {

/// A logical device mesh: named axes with sizes, major to minor. Device d has coordinates given by
/// d in row-major order over the axes (Shardy's and JAX's convention without explicit device ids).
struct MeshShape {
    std::vector<std::pair<std::string, std::int64_t>> axes;
    /// The device at each mesh position, row-major (Shardy's `device_ids=[...]`); empty: position
    /// p is device p.
    std::vector<std::int64_t> deviceIds;

    std::int64_t devices() const;
    /// Size of axis `name`; 0 when the mesh has no such axis.
    std::int64_t sizeOf(const std::string& name) const;
    /// Parses "x=2,y=4". Throws std::invalid_argument for bad text (empty name, size < 1, repeats).
    static MeshShape parse(const std::string& text);
    std::string toString() const;
};

/// How a tensor is laid out over a mesh: for each dimension the mesh axes it is split over (major
/// first; empty: replicated along that dimension), and the axes over which it is a pending partial
/// sum (each device holds an addend, an all-reduce over those axes completes it).
struct TensorSharding {
    std::vector<std::vector<std::string>> dims;
    std::vector<std::string> partial;

    bool isReplicated() const;
    friend bool operator==(const TensorSharding&, const TensorSharding&) = default;
};

/// The text the MLIR translation writes into an instruction's "sharding" attribute: one bracket per
/// dimension with its axes, then the partial (Shardy: unreduced) axes after a bar, "[x,y][]|z";
/// parseShardingText reads it back (empty text: unsharded).
std::string shardingText(const TensorSharding& sharding);
TensorSharding parseShardingText(const std::string& text, std::size_t rank);

/// One op of a logical (unpartitioned) program, on global shapes. `instruction` carries the op's
/// opcode (HLO spelling), dimension attributes and dot numbers, exactly as a frontend gives them;
/// its operands index `LogicalProgram::ops` (the op producing each operand), and its shape is the
/// global result shape. `sharding`, when set, is a user annotation the result must have.
struct LogicalProgram;

struct LogicalOp {
    hlo::Instruction instruction;
    std::vector<std::uint32_t> operands;
    std::optional<TensorSharding> sharding;
    /// A while loop: its condition and body, each a program whose parameters are the elements of the
    /// loop state (parameterNumber = element) and whose results are the next state (the body) or
    /// the predicate (the condition). The loop's operands are the initial state's elements.
    std::vector<std::shared_ptr<const LogicalProgram>> regions;
};

/// A straight-line program of logical ops in def-before-use order: what a model generator builds or
/// what a frontend gives for a module that carries shardings but no collectives. Parameters are ops
/// with opcode "parameter"; `results` lists the ops whose values the program returns.
struct LogicalProgram {
    std::string name;
    std::vector<LogicalOp> ops;
    std::vector<std::uint32_t> results;
    /// Per result, the sharding the caller asked for (the entry root's annotation); may be shorter.
    std::vector<std::optional<TensorSharding>> resultShardings;
};

/// The logical program of an HLO-shaped module's entry computation, with calls inlined and each
/// instruction's "sharding" attribute (see shardingText; for a tuple, its elements' joined by ';',
/// "-" for none) as its annotation. Entry parameters of tuple shape become one parameter per
/// element; Shardy's xla.sdy.GlobalToLocalShape / LocalToGlobalShape calls one
/// SPMDFullToShardShape / SPMDShardToFullShape call per value. A while loop whose state is a tuple
/// gets its condition and body as regions, followed by one get-tuple-element op per state element;
/// conditionals and other ops keep their opcode and are partitioned as opaque ops.
LogicalProgram logicalProgramOf(const hlo::Module& module);

} // namespace flint::core::partition
