// Whether this process is one of several ranks an MPI launcher started, and whether this
// permjit can share a search among them (CMake found MPI: PERMJIT_WITH_MPI). The skeletons
// that run over ranks (runtime/backtrack/cpu_mpi.hpp, runtime/ivm/ivm_ranks.hpp) and the
// option checks that refuse the others ask here.
#pragma once

namespace permjit {

// True when this process was started by mpirun (or another launcher that sets the
// usual variables) as one of several ranks.
bool launched_as_mpi_ranks();
// Whether this permjit was built with MPI.
bool built_with_mpi();

}  // namespace permjit
