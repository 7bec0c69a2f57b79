#include "runtime/core/decision.hpp"

#include <algorithm>

#include "runtime/core/solve_options.hpp"

namespace permjit {

unsigned long long solution_limit(const SolveOptions& opts, Goal goal) {
  if (opts.list && *opts.list > 0) return *opts.list;
  if (goal == Goal::find || opts.target) return 1;
  return 0;
}

std::optional<long long> start_incumbent(const SolveOptions& opts, Goal goal) {
  if (!opts.target) return opts.ub;
  // Integers: "at least as good as V" is "better than one past V".
  const long long past = goal == Goal::minimize ? *opts.target + 1 : *opts.target - 1;
  if (!opts.ub) return past;
  return goal == Goal::minimize ? std::min(past, *opts.ub) : std::max(past, *opts.ub);
}

}  // namespace permjit
