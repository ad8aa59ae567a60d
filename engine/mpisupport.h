// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The little of MPI that the commands share (docs/replay.md): starting MPI only when a launcher
// started the process, and moving text between the processes. Built only with MPI (flint_mpi).
namespace flint::engine::mpi {

/// Throws std::runtime_error naming `what` and MPI's description of `code` unless it is MPI_SUCCESS.
/// (MPI's errors return as codes: Session sets MPI_ERRORS_RETURN.)
void check(int code, const char* what);

/// True when an MPI launcher (mpirun, mpiexec, srun) started this process: its environment names the
/// process's rank. Without one, commands that can run under MPI run alone and never start MPI.
bool launchedByLauncher();

/// MPI for the lifetime of the object (MPI_Init, MPI_Finalize). One per process.
class Session {
public:
    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    bool root() const { return m_rank == 0; }
    /// Processes on this process's machine: more than its cores means waits must yield.
    int localSize() const { return m_localSize; }
    std::string processorName() const { return m_processor; }

    /// Every process's `text`, in rank order, on rank 0 (empty elsewhere).
    std::vector<std::string> gather(const std::string& text) const;
    /// Rank 0's `text` on every process.
    std::string broadcast(const std::string& text) const;
    /// The first non-empty `problem` of any process (by rank), on every process; "" when none. A
    /// collective: every process calls it, so that all stop together before any traffic.
    std::string firstProblem(const std::string& problem) const;
    /// Ends every process of the job (after a failure that others cannot know of).
    [[noreturn]] void abort(int code) const;

private:
    int m_rank = 0;
    int m_size = 1;
    int m_localSize = 1;
    std::string m_processor;
};

} // namespace flint::engine::mpi
