// Built without MPI: a run under mpirun would be K separate searches, each printing
// its result, so it is refused.
#include <stdexcept>

#include "runtime/ivm/ivm_ranks.hpp"

namespace permjit {

void run_ivm_mpi(SkeletonRun&) {
  throw std::runtime_error(
      "this permjit was built without MPI (CMake found no MPI: install libopenmpi-dev and build again), so its "
      "ranks cannot share one ivm search");
}

}  // namespace permjit
