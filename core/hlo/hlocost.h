// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"
#include "core/message.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flint::core::hlo {

/// What one execution of an instruction costs on its device. Counts follow XLA's HloCostAnalysis
/// conventions unless hlocost.cpp says otherwise: a multiply-add is 2 FLOPs, an elementwise op
/// (convert and compare included) 1 FLOP per output element, and transcendental ops count in
/// `transcendentals` only, not in `flops`. Bytes are device-memory traffic with sub-byte types packed.
struct InstructionCost {
    std::uint64_t flops = 0;           ///< floating-point and integer arithmetic operations (FLOPs)
    std::uint64_t transcendentals = 0; ///< elements through exp, log, tanh, rsqrt, sqrt, power, sine, ... (count)
    std::uint64_t bytesRead = 0;       ///< bytes of operands read from device memory
    std::uint64_t bytesWritten = 0;    ///< bytes of the result written to device memory

    /// Saturating sum (no counter wraps around).
    InstructionCost& operator+=(const InstructionCost& other);
    friend bool operator==(const InstructionCost&, const InstructionCost&) = default;
};

/// True for opcodes that do no work of their own (parameter, constant, tuple, get-tuple-element,
/// bitcast, after-all, partition-id, replica-id, the -done halves of async pairs, ...): they cost
/// nothing and the lowering passes their operands' dependencies through.
bool isFreeOpcode(std::string_view opcode);

/// True for opcodes applied element by element, with the shape of their operands: arithmetic,
/// comparisons, conversions, transcendentals and map. The one list of them (hlocost.cpp's opcode
/// table), shared by the cost model and the partitioner.
bool isElementwiseOpcode(std::string_view opcode);

/// Costs every instruction of a Module as a standalone kernel (the granularity the lowering emits).
///
/// All costs are computed in the constructor, which keeps no reference to the module; afterwards the
/// object is immutable and safe to read from several threads. Memory is 32 bytes per instruction.
///
/// Rules in brief (details and sources in hlocost.cpp):
/// - dot, convolution, cuBLAS/cuBLASLt GEMM and cuDNN convolution custom calls: 2 FLOPs per
///   multiply-add; convolutions count only taps that land on real input (XLA's rule: padding and
///   base-dilation holes excluded).
/// - fusion: FLOPs and transcendentals summed over the fused computation (nested fusions included);
///   bytes only for the fusion's operands and results, where an operand read only through (dynamic-)
///   slices or gathers counts the sliced bytes, and an operand updated in place by a dynamic-update-
///   slice or scatter root counts neither its read nor a full write.
/// - free (0 FLOPs, 0 bytes): parameter, constant, get-tuple-element, tuple, bitcast, after-all,
///   partition-id, replica-id, add-dependency, opt-barrier, domain, the -done halves of async pairs,
///   and reshapes/transposes that are bitcasts under their layouts.
/// - while, conditional and call cost 0: the lowering unrolls and inlines their computations.
/// - collectives: operand bytes read and result bytes written; all-reduce and reduce-scatter add their
///   reduction FLOPs. Communication itself is the lowering's business.
/// - unknown custom-call targets and unknown opcodes: bytes only, with a warning.
class CostModel {
public:
    explicit CostModel(const Module& module);

    /// One execution of instruction `instruction` of computation `computation` as a standalone kernel.
    /// Throws std::out_of_range for indices outside the module.
    InstructionCost cost(std::uint32_t computation, std::uint32_t instruction) const;

    /// Sum of cost() over every instruction of `computation` (each as a standalone kernel). For a
    /// fused computation this is what the fusion computes, but not its memory traffic: use cost() on
    /// the fusion instruction for that. Throws std::out_of_range.
    InstructionCost computationCost(std::uint32_t computation) const;

    /// Deduplicated warnings in the order found, e.g. "line 12: custom-call target 'foo' is unknown;
    /// costed by its bytes only". One warning per unknown target or opcode, with how many there are.
    std::vector<Message> warnings() const { return m_warnings; }

private:
    std::vector<std::vector<InstructionCost>> m_costs; ///< [computation][instruction]
    std::vector<InstructionCost> m_computationCosts;
    std::vector<Message> m_warnings;
};

} // namespace flint::core::hlo
