#include "runtime/verify_symmetry.hpp"

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {
SolveResult solve_on_cpu(const LoadOptions& load, bool ignore, const std::string& cache_dir) {
  SolveOptions o;
  o.load = load;
  o.load.ignore_symmetry = ignore;
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.cache_dir = cache_dir;
  o.progress = SolveOptions::Progress::off;
  return solve(o);
}
}  // namespace

SymmetryReport verify_symmetry(const LoadOptions& load, const std::string& cache_dir) {
  SymmetryReport r;
  const SolveResult with = solve_on_cpu(load, false, cache_dir);
  const SolveResult without = solve_on_cpu(load, true, cache_dir);
  r.counts = counts_leaves(with.goal);
  r.evaluated_with = with.evaluated;
  r.evaluated_without = without.evaluated;
  if (with.goal == Goal::count) {
    r.with = static_cast<long long>(with.solutions);
    r.without = static_cast<long long>(without.solutions);
    r.agrees = r.with == r.without;
  } else {
    // find: whether one exists; minimize, maximize: the optimum.
    r.found_with = with.found;
    r.found_without = without.found;
    r.with = with.objective;
    r.without = without.objective;
    r.agrees = r.found_with == r.found_without && (r.counts || !r.found_with || r.with == r.without);
  }
  return r;
}

std::string format_symmetry_report(const SymmetryReport& r) {
  const std::string answer = r.counts ? fmt::format("{} solutions", r.with)
                                      : r.found_with ? fmt::format("optimum {}", r.with) : std::string("no solution");
  return fmt::format("symmetry: agrees: {} with [symmetry] ({} nodes evaluated) and without it ({}: {:.0f}%)\n", answer,
                     r.evaluated_with, r.evaluated_without,
                     r.evaluated_without ? 100.0 * static_cast<double>(r.evaluated_with) /
                                               static_cast<double>(r.evaluated_without)
                                         : 0.0);
}

void wrong_symmetry_error(const ProblemSpec& spec, const SymmetryReport& r) {
  auto said = [&](bool found, long long v) {
    if (r.counts && spec.goal == Goal::count) return fmt::format("{} solutions", v);
    if (!found) return std::string("no solution");
    return r.counts ? std::string("a solution") : fmt::format("optimum {}", v);
  };
  Diagnostics d;
  d.error(spec.symmetry->loc,
          "the declared symmetry is wrong: with it the search finds " + said(r.found_with, r.with) + ", without it " +
              said(r.found_without, r.without),
          "the problem must be the same under the map: every solution's mirror image a solution (of the same "
          "objective)");
  throw UserErrors(std::move(d));
}

}  // namespace permjit
