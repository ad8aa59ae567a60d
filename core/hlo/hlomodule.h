// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flint::core::hlo {

/// An XLA shape: an array of one element type with dimensions (and layout), a tuple of shapes, or
/// a token. Sizes are in elements; byteSize() in bytes.
struct Shape {
    DType elementType = DType::Unknown; ///< DType::Token for tokens; Unknown for tuples
    bool isTuple = false;
    std::vector<std::int64_t> dims; ///< for a dynamic dimension, its upper bound
    std::vector<bool> dynamicDims;  ///< empty, or one flag per dimension ("<=N" or "?")
    std::vector<Shape> tupleElements;
    std::vector<std::int64_t> minorToMajor; ///< layout, when printed
    std::int64_t memorySpace = 0;           ///< layout S(n), when printed

    bool isArray() const { return !isTuple && elementType != DType::Token && elementType != DType::Unknown; }
    /// Elements of an array (1 for a scalar); 0 for tuples and tokens.
    std::int64_t elementCount() const;
    /// Bytes of an array (sub-byte types packed), or the sum over a tuple's elements.
    std::uint64_t byteSize() const;
    /// Number of leaf arrays (1 for an array, summed over tuples).
    std::size_t leafCount() const;
    /// XLA's spelling without layout, e.g. "bf16[8,128]" or "(f32[], s32[2])".
    std::string toString() const;

    friend bool operator==(const Shape&, const Shape&) = default;
};

/// Replica groups as lists of ids (what the ids name depends on the collective's GroupMode).
using ReplicaGroupList = std::vector<std::vector<std::int64_t>>;

/// Metadata of an instruction (metadata={op_type=... op_name=... source_file=... source_line=...}).
struct Metadata {
    std::string opType;
    std::string opName; ///< e.g. "jit(train_step)/transformer/layer_3/attn/dot_general"
    std::string sourceFile;
    std::int64_t sourceLine = 0;
};

/// dot dimension numbers (lhs_batch_dims=..., lhs_contracting_dims=..., ...).
struct DotDimensions {
    std::vector<std::int64_t> lhsBatch;
    std::vector<std::int64_t> lhsContracting;
    std::vector<std::int64_t> rhsBatch;
    std::vector<std::int64_t> rhsContracting;
};

/// One dimension of a window (window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=... rhs_dilate=...}).
struct WindowDimension {
    std::int64_t size = 1;
    std::int64_t stride = 1;
    std::int64_t paddingLow = 0;
    std::int64_t paddingHigh = 0;
    std::int64_t lhsDilation = 1; ///< base dilation
    std::int64_t rhsDilation = 1; ///< window dilation
};

/// An instruction `[ROOT] name = shape opcode(operands), attr=value, ...`.
///
/// Operands and control predecessors are indices into the same computation's instructions; called
/// computations are indices into Module::computations. Attributes the frontend uses are parsed into
/// fields; the others (and the parsed ones that are short, such as direction= or index=) are also
/// kept as raw text in `attributes` (name, value as printed). metadata, backend_config,
/// replica_groups and source_target_pairs are kept only in their parsed fields.
struct Instruction {
    std::string name; ///< without the leading '%'
    Shape shape;
    std::string opcode; ///< as printed: "dot", "fusion", "all-reduce-start", "custom-call", ...
    std::vector<std::uint32_t> operands;
    std::vector<std::uint32_t> controlPredecessors;
    std::vector<std::pair<std::string, std::string>> attributes;
    int line = 0;   ///< 1-based line of the instruction in the file
    int column = 0; ///< 1-based column of its name

    // Parsed attributes (absent ones keep their defaults).
    std::optional<std::int64_t> parameterNumber; ///< parameter(N)
    std::string literal;                         ///< constant(...) text, e.g. "80" or "{1, 2}"
    std::optional<std::int64_t> tupleIndex;      ///< get-tuple-element index=N
    std::vector<std::int64_t> dimensions;        ///< dimensions={...}
    std::optional<std::int64_t> channelId;
    std::optional<bool> useGlobalDeviceIds;
    /// replica_groups, expanded from the iota form; null when not printed, empty for "{}". Equal
    /// texts share one list (a module repeats a handful of patterns thousands of times).
    std::shared_ptr<const ReplicaGroupList> replicaGroups;
    std::vector<std::pair<std::int64_t, std::int64_t>> sourceTargetPairs;
    std::optional<std::uint32_t> toApply;
    std::optional<std::uint32_t> condition;
    std::optional<std::uint32_t> body;
    std::vector<std::uint32_t> calls;              ///< calls= (fusion, call, async ops)
    std::vector<std::uint32_t> branchComputations; ///< conditional branches (or true/false computations)
    DotDimensions dot;
    std::vector<WindowDimension> window;
    std::string dimLabels; ///< convolution dim_labels, e.g. "b01f_01io->b01f"
    std::int64_t featureGroupCount = 1;
    std::int64_t batchGroupCount = 1;
    std::string customCallTarget;
    std::string fusionKind;    ///< kLoop, kInput, kOutput, kCustom
    std::string backendConfig; ///< unescaped text (usually JSON)
    Metadata metadata;
    bool isRoot = false;

    /// The raw value of attribute `key`, or nullptr.
    const std::string* attribute(std::string_view key) const;
};

/// A computation: `[ENTRY] name (params) -> shape { instructions }`.
struct Computation {
    std::string name;
    std::vector<Instruction> instructions;
    std::uint32_t root = 0;
    bool isEntry = false;
    int line = 0;
    /// Instruction index of parameter(N) at position N.
    std::vector<std::uint32_t> parameters;
};

/// A parsed HLO module. `replicaCount` and `numPartitions` are 1 unless the header says otherwise;
/// `hasReplicaCount`/`hasNumPartitions` tell whether it did.
struct Module {
    std::string name;
    std::string file;
    std::vector<Computation> computations;
    std::uint32_t entry = 0;
    std::int64_t replicaCount = 1;
    std::int64_t numPartitions = 1;
    bool hasReplicaCount = false;
    bool hasNumPartitions = false;
    std::vector<std::pair<std::string, std::string>> attributes; ///< header attributes, raw

    const Computation& entryComputation() const { return computations.at(entry); }
    /// Index of the computation called `name`, or nullopt.
    std::optional<std::uint32_t> findComputation(std::string_view name) const;
};

} // namespace flint::core::hlo
