// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace flint::app {

/// A usage error: wrong or missing arguments. The command prints it with a hint and exits 1.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A value an option can never take (not a number, out of its range, not one of its choices): a
/// typo, never a combination that does not fit. A sweep refuses it instead of listing it as an
/// infeasible point.
class BadOptionValue : public UsageError {
public:
    using UsageError::UsageError;
};

/// One option of a subcommand.
struct OptionSpec {
    std::string name;      ///< long name without dashes ("json")
    char shortName = 0;    ///< 'o' for -o, or 0
    std::string valueName; ///< empty for a flag, else what the value is ("FILE")
    std::string help;
};

/// A minimal GNU-style parser: `--name value`, `--name=value`, `-o value`, flags, positionals, `--`.
class CommandLine {
public:
    CommandLine(std::string command, std::string synopsis, std::string description, std::vector<OptionSpec> options);

    /// Parses the arguments after the subcommand name. Throws UsageError.
    void parse(const std::vector<std::string>& arguments);
    /// parse(), then prints the help to standard output when --help was given. Returns false when
    /// it did (the command is done), true when the command should run.
    bool parseOrShowHelp(const std::vector<std::string>& arguments);
    /// The single positional argument; throws UsageError naming `what` when there is none or more.
    const std::string& onePositional(const std::string& what) const;

    bool helpRequested() const { return m_help; }
    bool has(const std::string& name) const { return m_values.count(name) != 0; }
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    /// An option's value as a non-negative integer. Throws UsageError.
    std::uint64_t number(const std::string& name, std::uint64_t fallback) const;
    /// An option's value as a finite decimal number ("0.5", "1e3"). Throws UsageError.
    double decimal(const std::string& name, double fallback) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }

    std::string helpText() const;
    const std::string& command() const { return m_command; }

private:
    const OptionSpec* find(const std::string& name) const;
    const OptionSpec* findShort(char name) const;
    /// " (did you mean --NAME?)" for an unknown option close to a known one, else "".
    std::string suggestion(const std::string& argument) const;

    std::string m_command;
    std::string m_synopsis;
    std::string m_description;
    std::vector<OptionSpec> m_options;
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_positionals;
    bool m_help = false;
};

} // namespace flint::app
