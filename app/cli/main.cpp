// SPDX-License-Identifier: MIT
// flint: the command-line front end of Flint Explorer.
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/allocator.h"
#include "core/error.h"
#include "core/fileio.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#include <google/protobuf/stubs/logging.h>

namespace {

std::string usage()
{
    std::string text = "Usage: flint COMMAND [OPTIONS] ...\n\nExplore distributed ML workloads without a cluster.\n\n"
                       "Commands:\n";
    for (const auto& command : flint::app::Commands::all()) {
        std::string name(command.name);
        text += "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + std::string(command.summary) +
                "\n";
    }
    text += "\nRun 'flint COMMAND --help' for a command's options.\n"
            "Exit status: 0 success, 1 usage error, 2 bad input, 3 output could not be written.\n";
    return text;
}

} // namespace

int main(int argc, char** argv)
{
    // First: restarts the program when it applies; not for a usage line, --help or --version.
    if (argc >= 2 && argv[1][0] != '-' && std::strcmp(argv[1], "help") != 0)
        flint::core::useHugePageHeap(argv);
    using namespace flint::app;
    // Protobuf logs parse failures to stderr itself; our errors say more, with the byte offset.
    google::protobuf::SetLogHandler(nullptr);
    flint::core::retainFreedMemory();
    flint::core::removeTemporaryFilesOnSignal();

    if (argc < 2) {
        std::fputs(usage().c_str(), stderr);
        return ExitUsage;
    }
    const std::string command = argv[1];
    const std::vector<std::string> arguments(argv + 2, argv + argc);
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(usage().c_str(), stdout);
        return ExitSuccess;
    }
    if (command == "--version") {
        std::printf("flint %s\n", FLINT_VERSION);
        return ExitSuccess;
    }
    try {
        if (const CommandInfo* info = Commands::find(command)) {
            const int status = info->run(arguments);
            // A full disk or a closed pipe on standard output must not pass for success.
            if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
                std::fprintf(stderr, "flint %s: error: cannot write standard output: %s\n", command.c_str(),
                             std::strerror(errno));
                return ExitOutput;
            }
            return status;
        }
        std::fprintf(stderr, "flint: unknown command '%s'\n\n%s", command.c_str(), usage().c_str());
        return ExitUsage;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "flint %s: %s\nTry 'flint %s --help'.\n", command.c_str(), e.what(), command.c_str());
        return ExitUsage;
    } catch (const flint::core::InputError& e) {
        std::fprintf(stderr, "flint %s: error: %s\n", command.c_str(), e.what());
        return ExitBadInput;
    } catch (const flint::core::OutputError& e) {
        std::fprintf(stderr, "flint %s: error: %s\n", command.c_str(), e.what());
        return ExitOutput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "flint %s: internal error: %s\n", command.c_str(), e.what());
        return ExitBadInput;
    }
}
