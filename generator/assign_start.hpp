// Which assign() of a spec starts from its parent's solution (docs/spec-language.md,
// "Two-set reductions"): the first one in `refine`, the second stage of the bound, which
// skeletons compute one child at a time from a parent whose own refine they computed
// just before. Its solver keeps the columns' potentials and the matching in a
// problem::AssignStart that the skeleton holds for each node on its path
// (templates/pair_reductions.h, assign_min_from).
#pragma once

#include "dsl/spec.hpp"

namespace permjit {

// The assign() that refine's code starts from the parent's, or null: none in refine, or
// one stage.
const Expr* started_assign(const Branch& b);

// Whether refine (the second stage) holds a dualassign(): it then has a block form,
// refine_block (generator/emit_branch.cpp), for the skeletons that bound a node with a
// whole CUDA block.
bool has_dual_assign(const Branch& b);

}  // namespace permjit
