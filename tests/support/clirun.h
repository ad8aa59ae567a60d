// SPDX-License-Identifier: MIT
#pragma once

// Runs the flint command (FLINT_CLI, the built binary) for end-to-end tests.
#include <QProcess>
#include <QStringList>

namespace flint::tests {

/// What one run of the command gave: exit status (-1 when it did not finish in time, -2 when it
/// crashed), standard output and standard error.
struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs `flint ARGUMENTS...`, waiting at most `timeoutMs`.
inline CliRun runFlint(const QStringList& arguments, int timeoutMs = 300'000)
{
    QProcess process;
    process.start(QStringLiteral(FLINT_CLI), arguments);
    if (!process.waitForFinished(timeoutMs))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

} // namespace flint::tests
