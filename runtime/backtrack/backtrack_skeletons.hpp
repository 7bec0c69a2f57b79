// The backtracking skeletons' entry points for the registry (runtime/skeletons.cpp): the
// units each compiles and its search. `cpu` searches on the host's threads (over ranges
// and MPI ranks: cpu_mpi.hpp); `dfs` finishes a CPU frontier on the GPU, a thread per
// node; `cdp` and `rec` add an intermediate GPU level (kernels launching kernels, or
// launched from the host); `offload` keeps the tree on the CPU and bounds on the GPU.
#pragma once
#include "runtime/compile/compile_unit.hpp"
#include "runtime/core/skeleton_run.hpp"

namespace permjit {

SkeletonUnits cpu_units(const UnitInputs& in);
void run_cpu_skeleton(SkeletonRun& run);
SkeletonUnits dfs_units(const UnitInputs& in);
void run_dfs_skeleton(SkeletonRun& run);
SkeletonUnits cdp_units(const UnitInputs& in);
void run_cdp_skeleton(SkeletonRun& run);
SkeletonUnits rec_units(const UnitInputs& in);
void run_rec_skeleton(SkeletonRun& run);
SkeletonUnits offload_units(const UnitInputs& in);
void run_offload_skeleton(SkeletonRun& run);

}  // namespace permjit
