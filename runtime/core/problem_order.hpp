// A spec with [branch] positions (dsl/load_positions.hpp) searches the problem's
// positions in its own order: every skeleton, the warm start and the list see
// permutations in that order, and solve() puts each one back in the problem's order
// where it leaves permjit (the result, the listed solutions), once.
#pragma once
#include <span>
#include <vector>

#include "dsl/spec.hpp"
#include "runtime/core/symmetry_orbit.hpp"  // SymmetryExpansion

namespace permjit {

// The permutation of the problem whose position order[d] holds searched[d]; `searched`
// itself when the spec declares no order.
std::vector<int> in_problem_order(const ProblemSpec& spec, std::span<const int> searched);

// The inverse: the permutation as the search holds it, searched[d] = problem[order[d]];
// `problem` itself when the spec declares no order. (The warm start is a solve of its
// own, whose result is in the problem's order; the search it starts takes it in its own.)
std::vector<int> in_search_order(const ProblemSpec& spec, std::span<const int> problem);

// What a listed solution is written as: under a declared symmetry the orbit it stands
// for (symmetry_expansion), under a declared order the permutation in the problem's
// order, both when both are declared (automorphisms of the positions: the images in the
// search's order, then each in the problem's); empty (the solution as found) otherwise.
SymmetryExpansion listed_expansion(const ProblemSpec& spec);

}  // namespace permjit
