// SPDX-License-Identifier: MIT
#include "cli/mpicommand.h"

#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/error.h"

#include <cstdio>

namespace flint::app {

int prepareTogether(const engine::mpi::Session& session, const std::string& command,
                    const std::function<void()>& prepare)
{
    std::string problem;
    int code = ExitSuccess;
    try {
        prepare();
    } catch (const UsageError& e) {
        problem = e.what();
        code = ExitUsage;
    } catch (const core::InputError& e) {
        problem = e.what();
        code = ExitBadInput;
    } catch (const core::OutputError& e) {
        problem = e.what();
        code = ExitOutput;
    } catch (const std::exception& e) {
        problem = std::string("internal error: ") + e.what();
        code = ExitBadInput;
    }
    // The status travels as the problem's first character.
    const std::string first = session.firstProblem(problem.empty() ? "" : std::to_string(code) + problem);
    if (first.empty())
        return ExitSuccess;
    const int status = first[0] - '0';
    if (session.root()) {
        std::fprintf(stderr, "flint %s: %s%s\n", command.c_str(),
                     status == ExitUsage ? "" : "error: ", first.c_str() + 1);
        if (status == ExitUsage)
            std::fprintf(stderr, "Try 'flint %s --help'.\n", command.c_str());
    }
    return status;
}

} // namespace flint::app
