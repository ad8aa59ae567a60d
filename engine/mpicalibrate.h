// SPDX-License-Identifier: MIT
#pragma once

#include "core/replay/calibration.h"
#include "engine/mpisupport.h"

#include <cstdint>
#include <vector>

// The measuring half of `flint calibrate` (docs/replay.md): ping-pong between rank 0 and the rank one
// coordinate away in each dimension of the topology, over the real network. The fit is
// core/replay/calibration.
namespace flint::engine::mpi {

struct CalibrationOptions {
    /// Message sizes in bytes; the smallest gives the latency, those of 64 KiB and more the bandwidth.
    std::vector<std::uint64_t> sizes = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304, 16777216};
    int repetitions = 20; ///< per size below 1 MiB; a quarter of them (at least 3) above
};

/// One-way message times (median of the repetitions, half the round trip) per dimension that has a
/// rank one coordinate away from rank 0 in this world. Collective over the processes; the
/// measurements are returned on rank 0 (empty elsewhere). Throws std::runtime_error on MPI failure.
std::vector<core::replay::DimensionMeasurement>
measureDimensions(const Session& session, const core::Topology& topology, const CalibrationOptions& options = {});

} // namespace flint::engine::mpi
