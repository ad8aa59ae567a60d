// SPDX-License-Identifier: MIT
#include "core/types.h"

#include <array>
#include <cctype>
#include <utility>

namespace flint::core {

std::string nameKey(std::string_view text, std::string_view ignored)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text)
        if (ignored.find(c) == std::string_view::npos)
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
namespace {

constexpr std::array kOpKindNames{
    std::pair{OpKind::Invalid, std::string_view("invalid")},
    std::pair{OpKind::Metadata, std::string_view("metadata")},
    std::pair{OpKind::MemLoad, std::string_view("mem-load")},
    std::pair{OpKind::MemStore, std::string_view("mem-store")},
    std::pair{OpKind::Compute, std::string_view("compute")},
    std::pair{OpKind::Send, std::string_view("send")},
    std::pair{OpKind::Recv, std::string_view("recv")},
    std::pair{OpKind::Collective, std::string_view("collective")},
};

constexpr std::array kOpKindChakra{
    std::string_view("INVALID_NODE"),   std::string_view("METADATA_NODE"),  std::string_view("MEM_LOAD_NODE"),
    std::string_view("MEM_STORE_NODE"), std::string_view("COMP_NODE"),      std::string_view("COMM_SEND_NODE"),
    std::string_view("COMM_RECV_NODE"), std::string_view("COMM_COLL_NODE"),
};

constexpr std::array kCollectiveNames{
    std::string_view("all-reduce"),
    std::string_view("reduce"),
    std::string_view("all-gather"),
    std::string_view("gather"),
    std::string_view("scatter"),
    std::string_view("broadcast"),
    std::string_view("all-to-all"),
    std::string_view("reduce-scatter"),
    std::string_view("reduce-scatter-block"),
    std::string_view("barrier"),
    std::string_view("collective-permute"),
    std::string_view("collective-broadcast"),
};

constexpr std::array kCollectiveChakra{
    std::string_view("ALL_REDUCE"),
    std::string_view("REDUCE"),
    std::string_view("ALL_GATHER"),
    std::string_view("GATHER"),
    std::string_view("SCATTER"),
    std::string_view("BROADCAST"),
    std::string_view("ALL_TO_ALL"),
    std::string_view("REDUCE_SCATTER"),
    std::string_view("REDUCE_SCATTER_BLOCK"),
    std::string_view("BARRIER"),
    std::string_view("COLLECTIVE_PERMUTE"),
    std::string_view("COLLECTIVE_BROADCAST"),
};

struct DTypeInfo {
    DType type;
    std::string_view name;
    int bits;
};

constexpr std::array kDTypes{
    DTypeInfo{DType::Unknown, "unknown", 0},
    DTypeInfo{DType::Pred, "pred", 8},
    DTypeInfo{DType::S2, "s2", 2},
    DTypeInfo{DType::S4, "s4", 4},
    DTypeInfo{DType::S8, "s8", 8},
    DTypeInfo{DType::S16, "s16", 16},
    DTypeInfo{DType::S32, "s32", 32},
    DTypeInfo{DType::S64, "s64", 64},
    DTypeInfo{DType::U2, "u2", 2},
    DTypeInfo{DType::U4, "u4", 4},
    DTypeInfo{DType::U8, "u8", 8},
    DTypeInfo{DType::U16, "u16", 16},
    DTypeInfo{DType::U32, "u32", 32},
    DTypeInfo{DType::U64, "u64", 64},
    DTypeInfo{DType::F8E4M3FN, "f8e4m3fn", 8},
    DTypeInfo{DType::F8E5M2, "f8e5m2", 8},
    DTypeInfo{DType::F8E4M3FNUZ, "f8e4m3fnuz", 8},
    DTypeInfo{DType::F8E5M2FNUZ, "f8e5m2fnuz", 8},
    DTypeInfo{DType::F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    DTypeInfo{DType::F8E4M3, "f8e4m3", 8},
    DTypeInfo{DType::F8E3M4, "f8e3m4", 8},
    DTypeInfo{DType::BF16, "bf16", 16},
    DTypeInfo{DType::F16, "f16", 16},
    DTypeInfo{DType::F32, "f32", 32},
    DTypeInfo{DType::F64, "f64", 64},
    DTypeInfo{DType::C64, "c64", 64},
    DTypeInfo{DType::C128, "c128", 128},
    DTypeInfo{DType::Token, "token", 0},
};

} // namespace

std::string_view displayName(OpKind kind)
{
    for (const auto& [k, name] : kOpKindNames)
        if (k == kind)
            return name;
    return "invalid";
}

std::string_view chakraName(OpKind kind)
{
    return kOpKindChakra.at(static_cast<std::size_t>(kind));
}

std::optional<OpKind> opKindFromChakraName(std::string_view name)
{
    for (std::size_t i = 0; i < kOpKindChakra.size(); ++i)
        if (kOpKindChakra[i] == name)
            return static_cast<OpKind>(i);
    return std::nullopt;
}

std::string_view displayName(CollectiveKind kind)
{
    return kCollectiveNames.at(static_cast<std::size_t>(kind));
}

std::string_view chakraName(CollectiveKind kind)
{
    return kCollectiveChakra.at(static_cast<std::size_t>(kind));
}

std::optional<CollectiveKind> collectiveKindFromChakraName(std::string_view name)
{
    for (std::size_t i = 0; i < kCollectiveChakra.size(); ++i)
        if (kCollectiveChakra[i] == name)
            return static_cast<CollectiveKind>(i);
    return std::nullopt;
}

int chakraCommType(CollectiveKind kind)
{
    switch (kind) {
    case CollectiveKind::CollectivePermute:
        return -1;
    case CollectiveKind::CollectiveBroadcast:
        return static_cast<int>(CollectiveKind::Broadcast);
    default:
        return static_cast<int>(kind);
    }
}

std::string_view displayName(DType type)
{
    return kDTypes.at(static_cast<std::size_t>(type)).name;
}

std::optional<DType> dtypeFromString(std::string_view name)
{
    for (const auto& info : kDTypes)
        if (info.name == name)
            return info.type;
    return std::nullopt;
}

int bitWidth(DType type)
{
    return kDTypes.at(static_cast<std::size_t>(type)).bits;
}

} // namespace flint::core
