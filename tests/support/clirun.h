// SPDX-License-Identifier: MIT
#pragma once

// Runs the flint command (FLINT_CLI, the built binary) for end-to-end tests.
#include <QProcess>
#include <QStringList>

#include <sys/resource.h>

namespace flint::tests {

/// What one run of the command gave: exit status (-1 when it did not finish in time, -2 when it
/// crashed), standard output and standard error.
struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// What a started `process` gave, waiting at most `timeoutMs` for it to end.
inline CliRun waitForRun(QProcess& process, int timeoutMs)
{
    if (!process.waitForFinished(timeoutMs))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

/// Runs `flint ARGUMENTS...`, waiting at most `timeoutMs`; with `addressSpaceBytes`, the child's
/// address space is limited to that (RLIMIT_AS), so that a run needing more fails with bad_alloc.
/// Sanitizer builds reserve terabytes of shadow memory and run without the limit.
inline CliRun runFlint(const QStringList& arguments, int timeoutMs = 300'000, rlim_t addressSpaceBytes = 0)
{
    QProcess process;
#if !defined(__SANITIZE_ADDRESS__)
    if (addressSpaceBytes > 0)
        process.setChildProcessModifier([addressSpaceBytes] {
            const rlimit limit{addressSpaceBytes, addressSpaceBytes};
            setrlimit(RLIMIT_AS, &limit);
        });
#else
    (void)addressSpaceBytes;
#endif
    process.start(QStringLiteral(FLINT_CLI), arguments);
    return waitForRun(process, timeoutMs);
}

} // namespace flint::tests
