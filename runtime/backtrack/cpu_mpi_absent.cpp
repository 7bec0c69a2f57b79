// Built without MPI: a run under mpirun would be K separate searches, each printing
// its result, so it is refused.
#include <stdexcept>

#include "runtime/backtrack/cpu_mpi.hpp"

namespace permjit {

void run_cpu_mpi(SkeletonRun&) {
  throw std::runtime_error(
      "this permjit was built without MPI (CMake found no MPI: install libopenmpi-dev and build again), so it "
      "cannot share one search among the ranks mpirun started");
}

}  // namespace permjit
