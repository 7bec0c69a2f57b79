// A path skeleton opened once and then run from one start after another: opening
// compiles and loads the modules (and, on the GPU, makes the device's context), so
// `permjit solve --records 1-100` on Korf's 100 compiles once and searches a hundred
// times. The start is run-time data of the module (dsl/start_data.hpp).
#pragma once
#include <memory>

#include "dsl/start_data.hpp"
#include "runtime/core/result.hpp"

namespace permjit {

struct SkeletonRun;

class PathSolver {
 public:
  virtual ~PathSolver() = default;
  // Searches from `start`: fills r's answer, iterations, nodes, upper tree and search times.
  virtual void solve(const StartValues& start, SolveResult& r) = 0;
};

// What a path skeleton's registry row opens; it sets run.result's device, cache_hit
// and t_compile.
using OpenPathSolver = std::unique_ptr<PathSolver> (*)(SkeletonRun& run);

// A path skeleton's single solve: open, then search from the instance's start.
void run_path_once(OpenPathSolver open, SkeletonRun& run);

}  // namespace permjit
