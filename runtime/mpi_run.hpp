// The `cpu` skeleton over MPI ranks (`mpirun -np K permjit solve ... --backend cpu`):
// rank 0 coordinates (runtime/range_run.hpp's RangeCoordinator) and the other ranks
// search the frontier ranges it hands out, each with its threads. Compiled only where
// CMake finds MPI (mpi_run.cpp); elsewhere mpi_absent.cpp says so when it is needed.
#pragma once

namespace permjit {

struct SkeletonRun;

// True when this process was started by mpirun (or another launcher that sets the
// usual variables) as one of several ranks.
bool launched_as_mpi_ranks();
// Whether this permjit was built with MPI.
bool built_with_mpi();
// Runs the search on every rank; rank 0 fills the result, the others mark it silent.
void run_cpu_mpi(SkeletonRun& run);

}  // namespace permjit
