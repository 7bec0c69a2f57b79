// Decision and enumeration: what `goal = "find"`, `--target`, `--list` and
// `--all-optimal` ask of a search (docs/spec-language.md, "Decision and enumeration").
//
// Every question is a solution limit, an incumbent and a list:
//   goal find           a count that stops at its first solution (limit 1);
//   --list N            a count that hands every solution to the list, stopping at N;
//   --target V          an optimisation started one past V (V + 1 when minimising), so
//                       every leaf it records meets V: it stops at the first (limit 1);
//                       a complete search that records none proves no permutation does;
//   --all-optimal       the optimum first (a plain search), then a second search whose
//                       incumbent stays one past it: every leaf it meets is optimal and
//                       listed.
#pragma once
#include <optional>

#include "dsl/spec.hpp"

namespace permjit {

class SolutionList;
struct SolveOptions;

// What one skeleton run records beyond its counts.
struct Decision {
  unsigned long long solution_limit = 0;  // stop after this many solutions recorded (0: never)
  bool fixed_incumbent = false;           // leaves better than the start are solutions; it never tightens
  SolutionList* list = nullptr;           // where solutions go; null: none listed
  unsigned long long device_buffer = 0;   // GPU: solutions its buffer holds at first (0: the default)
  bool records() const { return solution_limit > 0 || list != nullptr; }
};

// The run's solution limit: find 1, --list N, --target 1; 0 otherwise.
unsigned long long solution_limit(const SolveOptions& opts, Goal goal);

// The start incumbent: --target's (one past it), or --ub, whichever prunes more.
std::optional<long long> start_incumbent(const SolveOptions& opts, Goal goal);

}  // namespace permjit
