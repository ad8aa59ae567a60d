// SPDX-License-Identifier: MIT
#include "core/message.h"

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
    : m_source(source)
    , m_arguments(std::move(arguments))
    , m_text(fillArguments(source, m_arguments))
{
}

Message Message::verbatim(std::string text)
{
    Message m;
    m.m_text = std::move(text);
    return m;
}

Message Message::prefixed(const std::string& prefix) const
{
    Message m = *this;
    m.m_prefix = prefix + m.m_prefix;
    m.m_text = prefix + m.m_text;
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
