// SPDX-License-Identifier: MIT
// flint: the command-line front end of Flint Explorer.
#include "cli/commandline.h"
#include "cli/commands.h"
#include "core/error.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#include <google/protobuf/stubs/logging.h>

namespace {

constexpr const char* kUsage = R"(Usage: flint COMMAND [OPTIONS] ...

Explore distributed ML workloads without a cluster.

Commands:
  inspect PATH     summarize a Chakra trace (a .et file, a prefix or a directory of rank files)
                   or list the operations of an MLIR file
  convert IN       convert a trace to Chakra rank files, JSON or Graphviz DOT
  bench chakra     measure Chakra trace read and write speed on a synthetic trace

Run 'flint COMMAND --help' for a command's options.
Exit status: 0 success, 1 usage error, 2 bad input, 3 output could not be written.
)";

} // namespace

int main(int argc, char** argv)
{
    using namespace flint::app;
    // Protobuf logs parse failures to stderr itself; our errors say more, with the byte offset.
    google::protobuf::SetLogHandler(nullptr);

    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return ExitUsage;
    }
    const std::string command = argv[1];
    const std::vector<std::string> arguments(argv + 2, argv + argc);
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(kUsage, stdout);
        return ExitSuccess;
    }
    if (command == "--version") {
        std::printf("flint %s\n", FLINT_VERSION);
        return ExitSuccess;
    }
    try {
        if (command == "inspect")
            return runInspect(arguments);
        if (command == "convert")
            return runConvert(arguments);
        if (command == "bench")
            return runBench(arguments);
        std::fprintf(stderr, "flint: unknown command '%s'\n\n%s", command.c_str(), kUsage);
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
