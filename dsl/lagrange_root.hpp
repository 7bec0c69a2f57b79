// The host's side of `assign(i in S, j in T: cost then arborescence steps K multiplier x)`
// (docs/spec-language.md, "Multipliers optimised once"): the Lagrangian multipliers of
// "each element of S is the tail of exactly one arc" over the cheapest forest of arcs
// S -> T (arborescence()), optimised once before the search, for a [derived] table that
// the search's `... then arborescence steps K from table[i]` starts every node from.
//
// Any multipliers give a valid bound, so nothing here has to converge: the rule only
// decides how tight the table makes the bound. It runs on the host alone (its result is
// instance data), so it may use floating point; the multipliers it returns are integers.
#pragma once
#include <cstdint>
#include <vector>

namespace permjit {

// The multipliers mu (one per element of s, in its order) of the largest bound
// arborescence(cost + mu[tail]) - sum(mu) met in `steps` subgradient steps, over the
// forests of arborescence() (dsl/pair_solvers.hpp). Where the sides differ in size, are
// empty or S has no element outside T, all 0 (the search's chain then takes the
// assignment alone, docs/spec-language.md). Costs must fit 32-bit ints (checked by the
// caller); each multiplier stays within twice the largest cost's magnitude.
//
// The start is the better of mu = 0 (the arborescence of the costs) and mu = -u, u the
// rows' potentials of an optimal assignment (the additive bound: the assignment plus the
// arborescence of its reduced costs). The steps are Polyak's towards a target `gap`
// above the best bound met, t = (best + gap - L) / |g|^2 with g the out-degrees less 1:
// `gap` starts at the sum of the rows' median costs less the start's bound and halves after 20 steps
// without progress, each halving restarting from the best multipliers met; the steps
// stop when the gap falls below one.
std::vector<int64_t> root_multipliers(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                                      const std::vector<std::vector<int64_t>>& cost, int64_t steps);

// The same, also giving the largest bound met (tests, and `permjit` tracing).
std::vector<int64_t> root_multipliers(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                                      const std::vector<std::vector<int64_t>>& cost, int64_t steps, int64_t& bound);

}  // namespace permjit
