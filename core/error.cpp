// SPDX-License-Identifier: MIT
#include "core/error.h"

namespace flint::core {
namespace {

std::string describe(const std::string& file, std::optional<std::uint64_t> byteOffset, std::optional<int> line,
                     const std::string& reason)
{
    std::string text = file;
    if (line)
        text.append(":").append(std::to_string(*line));
    if (byteOffset)
        text.append(": byte offset ").append(std::to_string(*byteOffset));
    text.append(": ").append(reason);
    return text;
}

} // namespace

InputError::InputError(std::string file, std::string reason)
    : InputError(std::move(file), std::nullopt, std::nullopt, std::move(reason))
{}

InputError::InputError(std::string file, std::optional<std::uint64_t> byteOffset, std::optional<int> line,
                       std::string reason)
    : std::runtime_error(describe(file, byteOffset, line, reason))
    , m_file(std::move(file))
    , m_byteOffset(byteOffset)
    , m_line(line)
    , m_reason(std::move(reason))
{}

} // namespace flint::core
