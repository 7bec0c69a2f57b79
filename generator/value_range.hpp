// Interval analysis of int expressions at generation time. It gives loops whose range
// is known only at the node a constant trip count that provably covers the range, and
// tells which dynamic array indices are provably in bounds (the others are clamped, so
// the untaken arm of a select can never read outside an array).
#pragma once
#include <cstdint>
#include <map>

#include "dsl/spec.hpp"

namespace permjit {

struct ValueRange {
  bool known = false;  // false: nothing is known (e.g. a state variable)
  int64_t lo = 0, hi = 0;  // inclusive
  static ValueRange exact(int64_t v) { return {true, v, v}; }
  static ValueRange between(int64_t lo, int64_t hi) { return {true, lo, hi}; }
  bool within(int64_t a, int64_t b) const { return known && lo >= a && hi <= b; }
};

struct RangeEnv {
  int size = 0;
  int depth_lo = 0, depth_hi = 0;  // what `d` can be where the expression is evaluated
  std::map<const Symbol*, ValueRange> locals;
};

ValueRange value_range(const Expr& e, const RangeEnv& env);

}  // namespace permjit
