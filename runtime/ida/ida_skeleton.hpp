// The path skeletons' entry points for the registry (runtime/skeletons.cpp): IDA* on the
// CPU (cpu_ida_skeleton.cpp) and on the GPU (ida_skeleton.cpp: `ida`, a warp per root, and
// `ida-thread`, a thread per root), each opened once and then run from start after start
// (runtime/core/path_solver.hpp).
#pragma once
#include <memory>

#include "runtime/compile/compile_unit.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/skeleton_run.hpp"

namespace permjit {

SkeletonUnits ida_units(const UnitInputs& in);  // one module holds both IDA* kernels
std::unique_ptr<PathSolver> open_cpu_ida(SkeletonRun& run);
std::unique_ptr<PathSolver> open_gpu_ida(SkeletonRun& run);
std::unique_ptr<PathSolver> open_gpu_ida_thread(SkeletonRun& run);
void run_cpu_ida_skeleton(SkeletonRun& run);  // the cpu skeleton on a path problem
void run_ida_skeleton(SkeletonRun& run);
void run_ida_thread_skeleton(SkeletonRun& run);

}  // namespace permjit
