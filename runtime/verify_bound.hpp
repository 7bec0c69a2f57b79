// `permjit check --verify-bound`: samples nodes of a spec on an instance and compares
// each node's bound with the best leaf below it, found by brute force in a module
// compiled from the generated problem and templates/cpu_verify_bound.hpp. A bound that
// overestimates (minimising) prunes the optimum and the search returns a worse answer
// without a word; this finds such a node and names it.
#pragma once
#include <string>
#include <vector>

#include "dsl/spec.hpp"

namespace permjit {

struct VerifyBoundOptions {
  int below = 8;          // levels searched by brute force below each sampled node (≤ 8! leaves)
  int samples = 64;       // random nodes at depth size - below
  unsigned long long seed = 1;
  std::string cache_dir;  // empty: default_cache_dir()
};

struct BoundReport {
  int sample_depth = 0;
  bool whole_tree = false;          // the tree is no deeper than `below`: every node was checked
  unsigned long long sampled = 0, checked = 0;
  bool bad = false;                 // a node whose bound is not a valid bound:
  int depth = 0;                    //   its values placed,
  std::vector<int> placed;          //   the value at each position, -1 where free,
  long long bound = 0, best = 0;    //   its bound and the best leaf below it,
  int stage = 1;                    //   1: the bound; 2: the bound refined (branch.refine)
};

// For an optimisation spec whose size is known (count and path specs have no bound to
// verify: the caller says so). Throws CompileError if the module does not compile.
BoundReport verify_bound(const ProblemSpec& spec, const VerifyBoundOptions& opts);

// What `check` prints for a bound found valid: how many nodes, which.
std::string format_bound_report(const BoundReport& r);
// For a report with `bad`: a user error at the spec's bound (or its refine), naming the
// node (its placed values), its bound and its best completion.
[[noreturn]] void invalid_bound_error(const ProblemSpec& spec, const BoundReport& r);

}  // namespace permjit
