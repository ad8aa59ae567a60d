// SPDX-License-Identifier: MIT
#include "cli/commandline.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace flint::app {

CommandLine::CommandLine(std::string command, std::string synopsis, std::string description,
                         std::vector<OptionSpec> options)
    : m_command(std::move(command))
    , m_synopsis(std::move(synopsis))
    , m_description(std::move(description))
    , m_options(std::move(options))
{
    m_options.push_back({"help", 'h', {}, "show this help and exit"});
}

const OptionSpec* CommandLine::find(const std::string& name) const
{
    for (const OptionSpec& o : m_options)
        if (o.name == name)
            return &o;
    return nullptr;
}

const OptionSpec* CommandLine::findShort(char name) const
{
    for (const OptionSpec& o : m_options)
        if (o.shortName == name)
            return &o;
    return nullptr;
}

std::string CommandLine::suggestion(const std::string& argument) const
{
    // The closest long option by edit distance (a swap of two letters counts one), when it is close:
    // "--clsuter" -> "--cluster".
    std::string name = argument.substr(argument.find_first_not_of('-'));
    name = name.substr(0, name.find('='));
    const auto distance = [](const std::string& a, const std::string& b) {
        std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
        for (std::size_t i = 0; i <= a.size(); ++i)
            d[i][0] = i;
        for (std::size_t j = 0; j <= b.size(); ++j)
            d[0][j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i)
            for (std::size_t j = 1; j <= b.size(); ++j) {
                d[i][j] =
                    std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        return d[a.size()][b.size()];
    };
    const OptionSpec* best = nullptr;
    std::size_t bestDistance = 0;
    for (const OptionSpec& o : m_options) {
        const std::size_t dist = distance(name, o.name);
        if (!best || dist < bestDistance) {
            best = &o;
            bestDistance = dist;
        }
    }
    if (!best || name.empty() || bestDistance > std::max<std::size_t>(1, name.size() / 3))
        return {};
    return " (did you mean --" + best->name + "?)";
}

void CommandLine::parse(const std::vector<std::string>& arguments)
{
    bool onlyPositionals = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& arg = arguments[i];
        if (onlyPositionals || arg.size() < 2 || arg[0] != '-') {
            m_positionals.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyPositionals = true;
            continue;
        }
        const OptionSpec* spec = nullptr;
        std::string inlineValue;
        bool hasInlineValue = false;
        if (arg.starts_with("--")) {
            std::string name = arg.substr(2);
            if (const auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                hasInlineValue = true;
                name.resize(eq);
            }
            spec = find(name);
        } else if (arg.size() == 2) {
            spec = findShort(arg[1]);
        }
        if (!spec)
            throw UsageError("unknown option " + arg + suggestion(arg));
        if (spec->name == "help") {
            m_help = true;
            continue;
        }
        if (spec->valueName.empty()) {
            if (hasInlineValue)
                throw UsageError("option --" + spec->name + " takes no value");
            m_values[spec->name] = "1";
            continue;
        }
        if (!hasInlineValue) {
            if (i + 1 >= arguments.size())
                throw UsageError("option --" + spec->name + " needs a value (" + spec->valueName + ")");
            inlineValue = arguments[++i];
        }
        m_values[spec->name] = inlineValue;
    }
}

bool CommandLine::parseOrShowHelp(const std::vector<std::string>& arguments)
{
    parse(arguments);
    if (!m_help)
        return true;
    std::fputs(helpText().c_str(), stdout);
    return false;
}

const std::string& CommandLine::onePositional(const std::string& what) const
{
    if (m_positionals.size() != 1)
        throw UsageError(m_positionals.empty() ? "missing " + what : "expected one " + what);
    return m_positionals.front();
}

std::string CommandLine::value(const std::string& name, const std::string& fallback) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

std::uint64_t CommandLine::number(const std::string& name, std::uint64_t fallback) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    std::uint64_t result = 0;
    const std::string& text = it->second;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
    if (ec != std::errc() || end != text.data() + text.size())
        throw BadOptionValue("option --" + name + " expects a non-negative integer, got '" + text + "'");
    return result;
}

double CommandLine::decimal(const std::string& name, double fallback) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    double result = 0;
    const std::string& text = it->second;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(result))
        throw BadOptionValue("option --" + name + " expects a number, got '" + text + "'");
    return result;
}

std::string CommandLine::helpText() const
{
    std::string text = "Usage: flint " + m_command + " " + m_synopsis + "\n\n" + m_description + "\n\nOptions:\n";
    for (const OptionSpec& o : m_options) {
        std::string left = o.shortName ? std::string("-") + o.shortName + ", " : "    ";
        left += "--" + o.name;
        if (!o.valueName.empty())
            left += " " + o.valueName;
        text += "  " + left + std::string(left.size() < 26 ? 26 - left.size() : 1, ' ') + o.help + "\n";
    }
    return text;
}

} // namespace flint::app
