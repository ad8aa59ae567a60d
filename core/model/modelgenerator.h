// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelconfig.h"

#include <cstdint>
#include <string>

// The model generator (issue 7): a built-in model and a parallel strategy as StableHLO modules with
// Shardy shardings, one module per block of a training or inference step. Each block is an SPMD
// program over the mesh of one pipeline stage; the MLIR frontend's partitioner turns it into the
// per-device program, inserting the tensor-, sequence-, context-, expert- and data-parallel
// collectives. Pipeline stages and schedules cannot be expressed as shardings: the composer
// (engine/modelcompiler.h) builds them above the blocks. docs/models.md describes every block.
namespace flint::core::model {

/// The blocks a step is made of. Each is a complete module with one function `@main`.
enum class Block : std::uint8_t {
    EmbeddingForward,  ///< token (and learned position) embedding, vocabulary-parallel
    EmbeddingBackward, ///< its weight gradient (a scatter-add), a partial sum over the data axes
    LayerForward,      ///< one transformer layer (dense or MoE per `moe`)
    LayerBackward,     ///< its backward pass with the chosen recomputation; weight gradients partial
    LayerGradientSync, ///< completes one layer's weight gradients: all-reduce or reduce-scatter
    HeadForward,       ///< final norm, vocabulary-parallel logits and cross-entropy
    HeadBackward,      ///< their backward pass
    HeadGradientSync,  ///< completes the output layer's (and under tying, the embedding's) gradients
    EmbeddingGradientSync,
    Optimizer, ///< fused Adam over one stage's parameters (ZeRO: this rank's shard, then all-gather)
    /// ZeRO-3 / FSDP: all-gathers a unit's flat, padded parameter (bf16) before the unit computes.
    LayerParameterGather,
    HeadParameterGather,
    EmbeddingParameterGather,
    /// FP8 training: casts a layer's matrices to FP8 (row-wise and transposed) for the step's
    /// microbatches, before the first one's forward pass (under ZeRO-3 after every gather).
    LayerWeightCast,
};

/// Mesh axes of a stage's program: "dp" (data-parallel replicas per expert group), "ep", "cp", "tp";
/// rank order tp fastest (ParallelConfig). Axes of size 1 are left out of shardings. Under hybrid
/// sharding (ParallelConfig::hsdpShard) the data-parallel ranks are "dpr" (replica groups, major) x
/// "dp" (one shard group, minor).
struct StageMesh {
    std::int64_t dpr = 1; ///< HSDP replica groups; 1 otherwise
    std::int64_t dp = 1;  ///< ParallelConfig::dp / ep (under HSDP: the shard group)
    std::int64_t ep = 1;
    /// HybridEP: the EP ranks inside one NVLink domain. When 1 < epi < ep the module's mesh names two
    /// axes, "epo" (across domains, ep / epi) and "epi" (inside one), in place of "ep".
    std::int64_t epi = 1;
    std::int64_t cp = 1;
    std::int64_t tp = 1;

    std::int64_t devices() const { return dpr * dp * ep * cp * tp; }
    bool splitsExperts() const { return epi > 1 && epi < ep; }
    /// "dp=16,tp=8": the axes of size > 1 in mesh order ("dp=1" when every size is 1).
    std::string text() const;
};
StageMesh stageMesh(const ParallelConfig& parallel);

/// Generates the StableHLO + Shardy text of `block` for `model` under `parallel`. `moe` selects the
/// MoE form of a layer block; `stageParameters` is the parameter count of the stage an Optimizer
/// block updates (before tensor parallelism). Deterministic: equal inputs give equal text, so the
/// text is a cache key. Expects validateStrategy(model, parallel) to be empty.
std::string generateBlock(Block block, const TransformerConfig& model, const ParallelConfig& parallel, bool moe = false,
                          double stageParameters = 0);

std::string_view displayName(Block block);

} // namespace flint::core::model
