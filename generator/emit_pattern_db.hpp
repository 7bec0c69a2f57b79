// The pattern databases' part of a path problem's source (dsl/pattern_db.hpp): the
// table pointers the loader fills, each pattern's index of a node (the rank of its
// values' positions), the estimate (the max over groups of the sum of their tables),
// and for the host's builder (templates/cpu_pdb.hpp) each pattern's values.
#pragma once
#include "generator/emit_parts.hpp"

namespace permjit {
void emit_pattern_databases(GenContext& g);
}
