// The `cpu` skeleton over MPI ranks (`mpirun -np K permjit solve ... --backend cpu`):
// rank 0 coordinates (runtime/distributed/range_run.hpp's RangeCoordinator) and the other ranks
// search the frontier ranges it hands out, each with its threads. Compiled only where
// CMake finds MPI (cpu_mpi.cpp); elsewhere cpu_mpi_absent.cpp says so when it is needed.
#pragma once

namespace permjit {

struct SkeletonRun;

// Runs the search on every rank; rank 0 fills the result, the others mark it silent.
void run_cpu_mpi(SkeletonRun& run);

}  // namespace permjit
