// What every IDA* skeleton reports the same way: iterations summed from their upper-tree
// and below-the-roots parts, and the answer (cost, moves by name, totals).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "runtime/core/result.hpp"
#include "templates/ida_abi.h"

namespace permjit {

// Appends the iteration at `limit` whose counts are upper + below.
inline void add_iteration(SolveResult& r, int limit, const PjIdaCounts& upper, const PjIdaCounts& below,
                          unsigned long long max_work, double mean_work, double seconds = 0) {
  SolveResult::Iteration it;
  it.limit = limit;
  it.expanded = upper.expanded + below.expanded;
  it.evaluated = upper.evaluated + below.evaluated;
  it.solutions = upper.solutions + below.solutions;
  it.max_block_expanded = max_work;
  it.mean_block_expanded = mean_work;
  it.seconds = seconds;
  r.iterations.push_back(it);
}

// Totals over the iterations, the cost and the path's move names.
inline void finish_path(SolveResult& r, bool found, int cost, const std::vector<int>& moves,
                        const std::function<std::string(int)>& name) {
  r.found = found;
  r.objective = cost;
  r.expanded = r.evaluated = 0;
  for (const auto& it : r.iterations) {
    r.expanded += it.expanded;
    r.evaluated += it.evaluated;
  }
  r.solutions = found && !r.iterations.empty() ? r.iterations.back().solutions : 0;
  r.path.clear();
  for (int m : moves) r.path.push_back(name(m));
}

// A search stopped inside its last iteration (r.iterations' last): no iteration before
// it met a goal, so no path costs less than its limit, which is the proven bound.
inline void stopped_in_iteration(SolveResult& r) {
  if (r.iterations.empty()) return;
  r.proven_bound = r.iterations.back().limit;
  r.bound_from = "the IDA* limit reached";
}

// A search stopped between iterations, before the one at `limit`: the iterations before
// met no goal, and the smallest f above their limits is `limit`.
inline void stopped_before_iteration(SolveResult& r, int limit) {
  r.stopped = true;
  r.proven_bound = limit;
  r.bound_from = "the IDA* limit reached";
}

}  // namespace permjit
