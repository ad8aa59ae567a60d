// SPDX-License-Identifier: MIT
#pragma once

#include "engine/mpisupport.h"

#include <functional>
#include <string>

namespace flint::app {

/// Runs `prepare` on every process of an MPI command before any traffic. All stop together when one
/// cannot go on: the first problem (by rank) is printed once, by rank 0, as the command's error (a
/// usage error with the --help hint), and every process gets the exit status to return. Returns 0
/// when every process prepared.
int prepareTogether(const engine::mpi::Session& session, const std::string& command,
                    const std::function<void()>& prepare);

} // namespace flint::app
