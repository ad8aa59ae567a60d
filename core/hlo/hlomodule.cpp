// SPDX-License-Identifier: MIT
#include "core/hlo/hlomodule.h"

#include <numeric>

namespace flint::core::hlo {

std::int64_t Shape::elementCount() const
{
    if (!isArray())
        return 0;
    std::int64_t count = 1;
    for (std::int64_t d : dims)
        count *= d;
    return count;
}

std::uint64_t Shape::byteSize() const
{
    if (isTuple) {
        std::uint64_t total = 0;
        for (const Shape& element : tupleElements)
            total += element.byteSize();
        return total;
    }
    if (!isArray())
        return 0;
    // Sub-byte types (s4, u2, ...) are packed, as XLA stores them.
    const auto bits = static_cast<std::uint64_t>(elementCount()) * static_cast<std::uint64_t>(bitWidth(elementType));
    return (bits + 7) / 8;
}

std::size_t Shape::leafCount() const
{
    if (!isTuple)
        return 1;
    std::size_t count = 0;
    for (const Shape& element : tupleElements)
        count += element.leafCount();
    return count;
}

std::string Shape::toString() const
{
    if (isTuple) {
        std::string text = "(";
        for (std::size_t i = 0; i < tupleElements.size(); ++i)
            text += (i ? ", " : "") + tupleElements[i].toString();
        return text + ")";
    }
    std::string text(displayName(elementType));
    if (elementType == DType::Token)
        return text;
    text += "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            text += ",";
        const bool dynamic = i < dynamicDims.size() && dynamicDims[i];
        if (dynamic && dims[i] == 0) {
            text += "?"; // unbounded
            continue;
        }
        if (dynamic)
            text += "<=";
        text += std::to_string(dims[i]);
    }
    return text + "]";
}

const std::string* Instruction::attribute(std::string_view key) const
{
    for (const auto& [attributeName, value] : attributes)
        if (attributeName == key)
            return &value;
    return nullptr;
}

std::optional<std::uint32_t> Module::findComputation(std::string_view computationName) const
{
    for (std::uint32_t i = 0; i < computations.size(); ++i)
        if (computations[i].name == computationName)
            return i;
    return std::nullopt;
}

} // namespace flint::core::hlo
