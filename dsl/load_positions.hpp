// Reads [branch] positions (docs/spec-language.md, "The order of the positions"): the
// name of a [derived] table of `size` ints, a permutation of 0..size-1, whose element d
// is the problem's position that the search fills at depth d. A QAP searched facility by
// facility in decreasing order of flow, say, instead of the instance's order: the tree
// of a bound such as Gilmore-Lawler depends on it by an order of magnitude.
#pragma once
#include <toml++/toml.h>

#include "dsl/diagnostics.hpp"
#include "dsl/load_path.hpp"  // TomlReading
#include "dsl/spec.hpp"

namespace permjit {

// After [derived] (computed when the instance is loaded), the problem's size and
// [symmetry]: a declared symmetry acts on the search's positions, which `positions`
// renames, so the two are refused together.
void read_positions(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r);

}  // namespace permjit
