#include "runtime/core/partial_bound.hpp"

#include <algorithm>

namespace permjit {

void set_partial_bound(SolveResult& r, const PjCpuResult& out, std::optional<long long> incumbent) {
  r.open_subtrees = out.open_subtrees;
  if (r.goal != Goal::minimize && r.goal != Goal::maximize) return;  // counting: the count so far and the open work
  const bool minimise = r.goal == Goal::minimize;
  r.root_bound = out.root_bound;
  // The better of two values as the goal ranks them, and the worse.
  auto better = [&](long long a, long long b) { return minimise ? std::min(a, b) : std::max(a, b); };
  auto worse = [&](long long a, long long b) { return minimise ? std::max(a, b) : std::min(a, b); };
  if (out.open_subtrees == 0) {  // nothing left open: the incumbent is the answer, if there is one
    if (incumbent) {
      r.proven_bound = *incumbent;
      r.bound_from = "the incumbent (no subtree was left open)";
    }
    return;
  }
  long long open = out.root_bound;
  r.bound_from = "the root's bound";
  if (out.open_bound_known && worse(out.open_bound, out.root_bound) != out.root_bound) {
    open = out.open_bound;
    r.bound_from = "the least bound over the open subtrees";
  }
  if (incumbent && better(*incumbent, open) == *incumbent && *incumbent != open) {
    r.proven_bound = *incumbent;
    r.bound_from = "the incumbent (every open subtree's bound is past it)";
    return;
  }
  r.proven_bound = open;
}

}  // namespace permjit
