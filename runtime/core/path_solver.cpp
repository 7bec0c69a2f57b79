#include "runtime/core/path_solver.hpp"

#include "runtime/core/skeleton_run.hpp"

namespace permjit {

void run_path_once(OpenPathSolver open, SkeletonRun& run) {
  StartValues start = start_values(run.spec);
  open(run)->solve(start, run.result);
}

}  // namespace permjit
