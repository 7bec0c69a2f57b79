// Which minprod() calls inside an assign() cost can be computed per row and per column
// instead of per pair. In Gilmore-Lawler's cost of (f, l) the first list depends on f
// only and the second on l only: sorted once per facility and once per location, each
// pair's minimal scalar product is then one pass over two sorted lists, O(k) instead
// of gathering and sorting both (docs/spec-language.md, "Two-set reductions").
// Test: tests/lit/assign-source.test (GL prefix).
#pragma once
#include <vector>

#include "dsl/ast.hpp"

namespace permjit {

struct HoistedMinprod {
  const Expr* minprod;
  bool first_per_row;  // its first list reads the assign's row name (not the column's); else swapped
};

// The minprod calls of `assign`'s cost (not inside a nested assign) whose one list reads
// none of the cost's locals but the row name and the other none but the column name.
std::vector<HoistedMinprod> hoistable_minprods(const Expr& assign);

}  // namespace permjit
