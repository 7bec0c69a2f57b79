// What a solution found under a declared [symmetry] stands for (`--list`,
// `--all-optimal`): the search visits one member of each orbit (of the value map's
// mirrored pairs, of a group's borders, dsl/symmetry_group.hpp, or of the first
// position's orbit under the automorphisms of the positions) and counts it with its
// weight; a list writes the member and the images it was counted for, so that every
// solution is listed once and the list's length is the count.
#pragma once
#include <functional>
#include <span>
#include <vector>

#include "dsl/spec.hpp"

namespace permjit {

using SymmetryExpansion = std::function<std::vector<std::vector<int>>(std::span<const int>)>;

// Empty when the spec (as loaded: --no-symmetry drops it) declares no symmetry.
SymmetryExpansion symmetry_expansion(const ProblemSpec& spec);

}  // namespace permjit
