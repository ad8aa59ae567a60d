// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

/// Marks `text`, a message template of the Qt-free layers, for the explorer's translations: lupdate
/// reads it as QT_TRANSLATE_NOOP(context, text) (app/CMakeLists.txt, -tr-function-alias), and the
/// explorer looks the template up in `context` (docs/translations.md). It expands to `text`.
#define FLINT_TRANSLATE_NOOP(context, text) text

namespace flint::core {

/// A note or warning for the user, kept as its English template and arguments, so that the command
/// line prints the English text while the explorer translates the template and fills in the same
/// arguments. `%1`..`%9` in the template stand for the arguments, which are names, numbers and
/// quoted source text (never words to translate). A message built from text alone (verbatim) has no
/// template: it reads the same in every language.
class Message {
public:
    /// The translation context every template is marked in (FLINT_TRANSLATE_NOOP).
    static constexpr const char* context = "Diagnostics";

    Message() = default;
    /// `source`: a string literal marked with FLINT_TRANSLATE_NOOP(Message::context, ...).
    Message(const char* source, std::vector<std::string> arguments);
    /// Text that is not translated (it comes from elsewhere: an exception's message, a tool's output).
    static Message verbatim(std::string text);

    /// The English text, arguments filled in.
    const std::string& text() const { return m_text; }
    /// The English template; empty for a verbatim message.
    const char* source() const { return m_source; }
    const std::vector<std::string>& arguments() const { return m_arguments; }

    /// `prefix` + this message: a verbatim prefix (a block's name, "line 12: ") joined to the front;
    /// the template keeps its translation and the prefix is shown before it as it is.
    Message prefixed(const std::string& prefix) const;
    /// The verbatim text before the template (prefixed()); empty when none.
    const std::string& prefix() const { return m_prefix; }

    bool operator==(const Message& other) const { return m_text == other.m_text; }

private:
    const char* m_source = "";
    std::vector<std::string> m_arguments;
    std::string m_text;
    std::string m_prefix; ///< verbatim text before the template (prefixed())
};

/// `source` with `%1`..`%9` replaced by `arguments` (a `%` not followed by a digit stays).
std::string fillArguments(const char* source, const std::vector<std::string>& arguments);

/// The English texts of `messages`, in order.
std::vector<std::string> texts(const std::vector<Message>& messages);

} // namespace flint::core
