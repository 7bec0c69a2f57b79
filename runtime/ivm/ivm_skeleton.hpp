// The `ivm` skeleton's entry points for the registry (runtime/skeletons.cpp): the units
// it compiles and its search, on one GPU, several (--gpus) or MPI ranks (ivm_ranks.hpp).
#pragma once
#include "runtime/compile/compile_unit.hpp"
#include "runtime/core/skeleton_run.hpp"

namespace permjit {

SkeletonUnits ivm_units(const UnitInputs& in);
void run_ivm_skeleton(SkeletonRun& run);

}  // namespace permjit
