// SPDX-License-Identifier: MIT
#include "engine/mpicalibrate.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <mpi.h>

namespace flint::engine::mpi {

std::vector<core::replay::DimensionMeasurement>
measureDimensions(const Session& session, const core::Topology& topology, const CalibrationOptions& options)
{
    std::vector<core::replay::DimensionMeasurement> out;
    const std::uint64_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
    if (largest > 0x7fffffff)
        throw std::runtime_error("message sizes must be below 2 GiB");
    std::vector<unsigned char> buffer(std::max<std::uint64_t>(1, largest));
    constexpr int kTag = 7;
    for (std::size_t d = 0; d < topology.dims.size(); ++d) {
        const std::int32_t peer = core::replay::peerAcross(topology, d, session.size());
        if (peer < 0)
            continue;
        core::replay::DimensionMeasurement m;
        m.dim = d;
        m.peer = peer;
        if (session.rank() == 0 || session.rank() == peer) {
            const int other = session.root() ? peer : 0;
            for (std::uint64_t size : options.sizes) {
                const int count = static_cast<int>(size);
                const int repetitions =
                    size >= (1u << 20) ? std::max(3, options.repetitions / 4) : std::max(1, options.repetitions);
                std::vector<double> oneWay;
                for (int r = -2; r < repetitions; ++r) { // two unmeasured rounds first
                    if (session.root()) {
                        const double start = MPI_Wtime();
                        check(MPI_Send(buffer.data(), count, MPI_BYTE, other, kTag, MPI_COMM_WORLD), "MPI_Send");
                        check(MPI_Recv(buffer.data(), count, MPI_BYTE, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                              "MPI_Recv");
                        if (r >= 0)
                            oneWay.push_back((MPI_Wtime() - start) / 2);
                    } else {
                        check(MPI_Recv(buffer.data(), count, MPI_BYTE, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                              "MPI_Recv");
                        check(MPI_Send(buffer.data(), count, MPI_BYTE, other, kTag, MPI_COMM_WORLD), "MPI_Send");
                    }
                }
                if (session.root()) {
                    std::nth_element(oneWay.begin(), oneWay.begin() + static_cast<std::ptrdiff_t>(oneWay.size() / 2),
                                     oneWay.end());
                    m.samples.push_back({size, oneWay[oneWay.size() / 2]});
                }
            }
        }
        // Give each process a core when calibrating: the idle ranks wait here, and with more
        // processes than cores their waiting competes with the pair being measured.
        check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        if (session.root())
            out.push_back(std::move(m));
    }
    return out;
}

} // namespace flint::engine::mpi
