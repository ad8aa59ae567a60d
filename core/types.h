// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flint::core {

/// What an op does on its device. The values mirror Chakra's NodeType order.
enum class OpKind : std::uint8_t {
    Invalid,    ///< Chakra INVALID_NODE: kept for lossless round trips
    Metadata,   ///< Chakra METADATA_NODE
    MemLoad,    ///< load from remote or host memory
    MemStore,   ///< store to remote or host memory
    Compute,    ///< kernel on the device (or CPU op when Op::isCpuOp)
    Send,       ///< point-to-point send
    Recv,       ///< point-to-point receive
    Collective, ///< a collective over a communicator group
};

/// Collective operation kinds. The first ten mirror Chakra's CollectiveCommType values.
enum class CollectiveKind : std::uint8_t {
    AllReduce,
    Reduce,
    AllGather,
    Gather,
    Scatter,
    Broadcast,
    AllToAll,
    ReduceScatter,
    ReduceScatterBlock,
    Barrier,
    CollectivePermute,   ///< no Chakra equivalent: written as matched send/recv nodes
    CollectiveBroadcast, ///< XLA collective-broadcast: written as Chakra BROADCAST
};

/// Element types of tensors, as ML compilers name them.
enum class DType : std::uint8_t {
    Unknown,
    Pred,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F8E4M3FN,
    F8E5M2,
    F8E4M3FNUZ,
    F8E5M2FNUZ,
    F8E4M3B11FNUZ,
    F8E4M3,
    F8E3M4,
    BF16,
    F16,
    F32,
    F64,
    C64,
    C128,
    Token,
};

/// `text` in lower case without the characters of `ignored`: the one way a name a user types (a
/// preset, device, model, algorithm, schedule or op kind) is matched, so that "All-Reduce",
/// "all_reduce" and "allreduce" agree.
std::string nameKey(std::string_view text, std::string_view ignored = "-_ ");

std::string_view displayName(OpKind kind);
/// Chakra spelling of an op kind ("COMP_NODE", ...).
std::string_view chakraName(OpKind kind);
std::optional<OpKind> opKindFromChakraName(std::string_view name);

std::string_view displayName(CollectiveKind kind);
/// Chakra spelling ("ALL_REDUCE", ...); the XLA kinds Chakra lacks say "COLLECTIVE_PERMUTE" and
/// "COLLECTIVE_BROADCAST".
std::string_view chakraName(CollectiveKind kind);
std::optional<CollectiveKind> collectiveKindFromChakraName(std::string_view name);
/// The Chakra CollectiveCommType value a collective is written as (CollectiveBroadcast as BROADCAST).
/// CollectivePermute has none (it is written as send/recv nodes) and gives -1.
int chakraCommType(CollectiveKind kind);

/// XLA spelling ("bf16", "f8e4m3fn", ...).
std::string_view displayName(DType type);
std::optional<DType> dtypeFromString(std::string_view name);
/// Storage size of one element in bits (pred is 8 bits, token 0).
int bitWidth(DType type);

} // namespace flint::core
