// Whether a node is heavy: its code solves an assignment or an arborescence, O(k^3) for
// the k items left, against a few dozen instructions for a light node. The ivm kernels
// place their rows by it (templates/gpu_ivm.cuh, "The rows where they are placed").
#pragma once
#include "dsl/spec.hpp"

namespace permjit {

// True when the values node code computes (candidates, filter, bound, objective, refine
// with two stages, with their preludes) or the placements in use call `assign` or
// `arborescence`, with the conditions known before the search folded as the emitter
// folds them: a parameter that selects a cheaper bound leaves the node light.
bool solves_matching(const ProblemSpec& s);

}  // namespace permjit
