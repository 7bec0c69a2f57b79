// Reads [symmetry] (docs/spec-language.md, "Symmetry"): a map of the values that leaves
// the problem invariant (`value`), or generators of a group of symmetries of the
// permutation's matrix (`generators`, dsl/symmetry_group.hpp), or tables whose
// automorphisms permute the positions (`position_automorphisms`,
// dsl/position_automorphisms.hpp). Called by load_spec once the size, the branch and the prefix are
// known; checks what can be checked (an int expression of v, a map onto 0..size-1 that
// is its own inverse, the fixed prefix left in place, values placed from the left) and
// reports every error at its place in the .toml. That the problem is invariant is the
// spec's claim: `permjit check --verify-symmetry` compares with and without it.
#pragma once
#include <toml++/toml.h>

#include "dsl/diagnostics.hpp"
#include "dsl/load_path.hpp"  // TomlReading
#include "dsl/spec.hpp"

namespace permjit {

// `only` >= 0 keeps that one of the generators (check --verify-symmetry checks each).
void read_symmetry(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r, bool ignore,
                   int only = -1);

}  // namespace permjit
