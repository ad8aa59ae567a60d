// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flint::core {

/// The value kind of a Chakra AttributeProto: one of its 30 oneof alternatives, scalar or list.
/// The numbering matches the protobuf field numbers, so a kind converts to the wire field directly.
enum class AttributeKind : std::uint8_t {
    None = 0,
    Double = 3,
    DoubleList,
    Float,
    FloatList,
    Int32,
    Int32List,
    Int64,
    Int64List,
    Uint32,
    Uint32List,
    Uint64,
    Uint64List,
    Sint32,
    Sint32List,
    Sint64,
    Sint64List,
    Fixed32,
    Fixed32List,
    Fixed64,
    Fixed64List,
    Sfixed32,
    Sfixed32List,
    Sfixed64,
    Sfixed64List,
    Bool,
    BoolList,
    String,
    StringList,
    Bytes,
    BytesList,
};

/// A named attribute with a typed value, lossless for every Chakra value kind. Signed integer and
/// bool kinds store in `ints`, unsigned in `uints`, floating kinds in `reals` (a float converts to
/// double and back exactly), string and bytes in `strings`; a scalar is a one-element list.
struct Attribute {
    std::string name;
    std::string docString;
    AttributeKind kind = AttributeKind::None;
    std::vector<std::int64_t> ints;
    std::vector<std::uint64_t> uints;
    std::vector<double> reals;
    std::vector<std::string> strings;

    bool isList() const;
    /// The first value as an integer, whatever integral kind it has; 0 when it has none.
    std::int64_t asInt() const;
    /// The first string value; empty when it has none.
    std::string asString() const;

    static Attribute makeInt64(std::string name, std::int64_t value);
    static Attribute makeUint64(std::string name, std::uint64_t value);
    static Attribute makeBool(std::string name, bool value);
    static Attribute makeString(std::string name, std::string value);

    friend bool operator==(const Attribute&, const Attribute&) = default;
};

} // namespace flint::core
