// SPDX-License-Identifier: MIT
#include "engine/mpisupport.h"

#include <cstdlib>
#include <stdexcept>

#include <mpi.h>

namespace flint::engine::mpi {
void check(int code, const char* what)
{
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string(what) + ": " + std::string(text, static_cast<std::size_t>(length)));
}

bool launchedByLauncher()
{
    // Open MPI's mpirun, PMIx launchers (Open MPI 5, Slurm's srun --mpi=pmix), Hydra (MPICH) and
    // Slurm's PMI-1/2.
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(name) != nullptr)
            return true;
    return false;
}

Session::Session()
{
    check(MPI_Init(nullptr, nullptr), "MPI_Init");
    // Errors come back as codes that check() turns into exceptions, not as an abort inside MPI.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    MPI_Comm local;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local), "MPI_Comm_split_type");
    MPI_Comm_size(local, &m_localSize);
    MPI_Comm_free(&local);
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_Get_processor_name(name, &length);
    m_processor.assign(name, static_cast<std::size_t>(length));
}

Session::~Session()
{
    MPI_Finalize();
}

std::vector<std::string> Session::gather(const std::string& text) const
{
    const int length = static_cast<int>(text.size());
    std::vector<int> lengths(root() ? static_cast<std::size_t>(m_size) : 0);
    check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::vector<int> offsets(lengths.size(), 0);
    long long total = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        offsets[i] = static_cast<int>(total);
        total += lengths[i];
    }
    if (total > 0x7fffffff)
        throw std::runtime_error("more than 2 GiB of results to gather on rank 0");
    std::string all(static_cast<std::size_t>(total), '\0');
    check(MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                      MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < lengths.size(); ++i)
        out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
    return out;
}

std::string Session::broadcast(const std::string& text) const
{
    int length = static_cast<int>(text.size());
    check(MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    std::string out = root() ? text : std::string(static_cast<std::size_t>(length), '\0');
    check(MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return out;
}

std::string Session::firstProblem(const std::string& problem) const
{
    std::string first;
    for (const std::string& p : gather(problem)) // rank 0 holds them all
        if (first.empty() && !p.empty())
            first = p;
    return broadcast(first);
}

void Session::abort(int code) const
{
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

} // namespace flint::engine::mpi
