// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

/// Marks `text`, a message template of the Qt-free layers, for the explorer's translations: lupdate
/// reads it as QT_TRANSLATE_NOOP(context, text) (app/CMakeLists.txt, -tr-function-alias), and the
/// explorer looks the template up in `context` (translations/README.md). It expands to `text`.
#define FLINT_TRANSLATE_NOOP(context, text) text

namespace flint::core {

/// A note or warning for the user, kept as English templates and their arguments, so that the
/// command line prints the English text while the explorer translates each template and fills in
/// the same arguments. `%1`..`%9` in a template stand for its arguments, which are names, numbers and
/// quoted source text (never words to translate). A message is a sequence of parts: templates, and
/// verbatim text that reads the same in every language (a block's name in front, an exception's
/// message).
class Message {
public:
    /// The translation context every template is marked in (FLINT_TRANSLATE_NOOP).
    static constexpr const char* context = "Diagnostics";

    /// One template with its arguments, or (`source` empty) verbatim text in `arguments[0]`.
    struct Part {
        const char* source = "";
        std::vector<std::string> arguments;
    };

    Message() = default;
    /// `source`: a string literal marked with FLINT_TRANSLATE_NOOP(Message::context, ...).
    Message(const char* source, std::vector<std::string> arguments);
    /// Text that is not translated (it comes from elsewhere: an exception's message, a tool's output).
    static Message verbatim(std::string text);

    /// The English text, arguments filled in.
    const std::string& text() const { return m_text; }
    const std::vector<Part>& parts() const { return m_parts; }

    /// `prefix` (verbatim: a block's name, "line 12: ") + this message.
    Message prefixed(const std::string& prefix) const;
    /// This message + `more` (another message's parts: " (3 instructions)").
    Message followedBy(const Message& more) const;

    bool operator==(const Message& other) const { return m_text == other.m_text; }

private:
    std::vector<Part> m_parts;
    std::string m_text;
};

/// `source` with `%1`..`%9` replaced by `arguments` (a `%` not followed by a digit it has stays).
std::string fillArguments(const char* source, const std::vector<std::string>& arguments);

/// The English texts of `messages`, in order.
std::vector<std::string> texts(const std::vector<Message>& messages);

} // namespace flint::core
