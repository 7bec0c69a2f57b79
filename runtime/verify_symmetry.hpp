// `permjit check --verify-symmetry`: a declared [symmetry] is the spec's claim that the
// problem is the same under the value map, or under each of the group's generators; a
// wrong one makes the search skip (or count twice) solutions without a word. This
// solves the spec with the `cpu` skeleton without the symmetry, then with it: with the
// value map, or with each generator alone and then with the whole group, and compares
// the answers (the count, or the optimum): on small parameters, a cheap check of the
// claim.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "dsl/load_spec.hpp"

namespace permjit {

struct SymmetryCheck {
  std::string what;        // "[symmetry]", "generator 'invert'", "the group (8 elements)"
  std::optional<Loc> loc;  // where a wrong one is written; none: [symmetry]'s own place
  bool agrees = false;
  bool found_with = false;
  long long with = 0;
  unsigned long long evaluated_with = 0;
};

struct SymmetryReport {
  bool agrees = false;  // every check agrees
  bool counts = false;  // count and find: answers are counts; else optima
  bool found_without = false;
  long long without = 0;
  unsigned long long evaluated_without = 0;
  std::vector<SymmetryCheck> checks;  // in order; the first that disagrees ends them
};

SymmetryReport verify_symmetry(const LoadOptions& load, const std::string& cache_dir = {});

// What `check` prints when they agree.
std::string format_symmetry_report(const SymmetryReport& r);
// When they do not: a user error at the wrong generator (or [symmetry] value), with both answers.
[[noreturn]] void wrong_symmetry_error(const ProblemSpec& spec, const SymmetryReport& r);

}  // namespace permjit
