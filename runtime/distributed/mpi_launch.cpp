#include "runtime/distributed/mpi_launch.hpp"

#include <cstdlib>
#include <string>

namespace permjit {

bool launched_as_mpi_ranks() {
  // OpenMPI, then the PMI and PMIx launchers (MPICH's hydra, Slurm's srun).
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* v = std::getenv(name);
    if (v && std::atoi(v) > 1) return true;
  }
  return false;
}

bool built_with_mpi() {
#ifdef PERMJIT_WITH_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace permjit
