// SPDX-License-Identifier: MIT
#include "core/message.h"

#include <utility>

namespace flint::core {

std::string fillArguments(const char* source, const std::vector<std::string>& arguments)
{
    std::string out;
    for (const char* c = source; *c != '\0'; ++c) {
        if (c[0] == '%' && c[1] >= '1' && c[1] <= '9') {
            const auto index = static_cast<std::size_t>(c[1] - '1');
            if (index < arguments.size()) {
                out += arguments[index];
                ++c;
                continue;
            }
        }
        out += *c;
    }
    return out;
}

Message::Message(const char* source, std::vector<std::string> arguments)
    : m_parts{Part{source, std::move(arguments)}}
    , m_text(fillArguments(source, m_parts.front().arguments))
{}

Message Message::verbatim(std::string text)
{
    Message m;
    m.m_text = text;
    m.m_parts.push_back(Part{"", {std::move(text)}});
    return m;
}

Message Message::prefixed(const std::string& prefix) const
{
    return verbatim(prefix).followedBy(*this);
}

Message Message::followedBy(const Message& more) const
{
    Message m = *this;
    m.m_parts.insert(m.m_parts.end(), more.m_parts.begin(), more.m_parts.end());
    m.m_text += more.m_text;
    return m;
}

std::vector<std::string> texts(const std::vector<Message>& messages)
{
    std::vector<std::string> out;
    out.reserve(messages.size());
    for (const Message& m : messages)
        out.push_back(m.text());
    return out;
}

} // namespace flint::core
