// What a placement search stopped before its end (time limit, signal) proves: the
// module's account of the work it left (PjCpuResult::open_*) and the incumbent, made
// into SolveResult's proven bound (docs/reliability.md, "Partial answers").
#pragma once
#include <optional>

#include "runtime/core/result.hpp"
#include "templates/cpu_abi.h"

namespace permjit {

// Minimising, every leaf not searched lies below an open subtree, so it is at least
// the least bound over them, and at least the root's bound; a leaf searched is at least
// the incumbent. The optimum is the least of those two: the proven bound is
// min(incumbent, max(least open bound, root bound)) (maximising, the mirror). Without
// an incumbent it is the open work's bound alone. `incumbent`: the best leaf found, or
// the starting bound (--ub, a warm start) that pruned the tree.
void set_partial_bound(SolveResult& r, const PjCpuResult& out, std::optional<long long> incumbent);

}  // namespace permjit
