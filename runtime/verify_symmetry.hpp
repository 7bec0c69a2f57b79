// `permjit check --verify-symmetry`: a declared [symmetry] is the spec's claim that the
// problem is the same under the value map; a wrong one makes the search skip solutions
// without a word. This solves the spec with the `cpu` skeleton twice, with the symmetry
// and without it, and compares the answers (the count, or the optimum): on small
// parameters, a cheap check of the claim.
#pragma once
#include <string>

#include "dsl/load_spec.hpp"

namespace permjit {

struct SymmetryReport {
  bool declared = false;   // the spec has a [symmetry]
  bool agrees = false;
  bool counts = false;     // count and find: `with` and `without` are counts; else optima
  bool found_with = false, found_without = false;
  long long with = 0, without = 0;
  unsigned long long evaluated_with = 0, evaluated_without = 0;
};

SymmetryReport verify_symmetry(const LoadOptions& load, const std::string& cache_dir = {});

// What `check` prints when they agree.
std::string format_symmetry_report(const SymmetryReport& r);
// When they do not: a user error at the spec's [symmetry] value, with both answers.
[[noreturn]] void wrong_symmetry_error(const ProblemSpec& spec, const SymmetryReport& r);

}  // namespace permjit
