// SPDX-License-Identifier: MIT
#include "core/attribute.h"

namespace flint::core {

bool Attribute::isList() const
{
    // List kinds are the even field numbers of the oneof.
    return kind != AttributeKind::None && static_cast<int>(kind) % 2 == 0;
}

std::int64_t Attribute::asInt() const
{
    if (!ints.empty())
        return ints.front();
    if (!uints.empty())
        return static_cast<std::int64_t>(uints.front());
    if (!reals.empty())
        return static_cast<std::int64_t>(reals.front());
    return 0;
}

std::string Attribute::asString() const
{
    return strings.empty() ? std::string() : strings.front();
}

Attribute Attribute::makeInt64(std::string name, std::int64_t value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = AttributeKind::Int64;
    a.ints = {value};
    return a;
}

Attribute Attribute::makeUint64(std::string name, std::uint64_t value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = AttributeKind::Uint64;
    a.uints = {value};
    return a;
}

Attribute Attribute::makeBool(std::string name, bool value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = AttributeKind::Bool;
    a.ints = {value ? 1 : 0};
    return a;
}

Attribute Attribute::makeString(std::string name, std::string value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = AttributeKind::String;
    a.strings = {std::move(value)};
    return a;
}

} // namespace flint::core
