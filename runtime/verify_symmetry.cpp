#include "runtime/verify_symmetry.hpp"

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "dsl/symmetry_group.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {
// `generator` >= 0: that generator of the group alone.
SolveResult solve_on_cpu(const LoadOptions& load, bool ignore, int generator, const std::string& cache_dir) {
  SolveOptions o;
  o.load = load;
  o.load.ignore_symmetry = ignore;
  o.load.symmetry_generator = generator;
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.cache_dir = cache_dir;
  o.progress = SolveOptions::Progress::off;
  return solve(o);
}

const char* generator_name(int code) {
  return code == kReflectValues ? "reflect-values" : code == kReversePositions ? "reverse-positions" : "invert";
}

SymmetryCheck compare(const SolveResult& with, const SymmetryReport& r, std::string what, std::optional<Loc> loc) {
  SymmetryCheck c{std::move(what), loc};
  c.evaluated_with = with.evaluated;
  if (r.counts && with.goal == Goal::count) {
    c.with = static_cast<long long>(with.solutions);
    c.agrees = c.with == r.without;
  } else {
    // find: whether one exists; minimize, maximize: the optimum.
    c.found_with = with.found;
    c.with = with.objective;
    c.agrees = c.found_with == r.found_without && (r.counts || !c.found_with || c.with == r.without);
  }
  return c;
}
}  // namespace

SymmetryReport verify_symmetry(const LoadOptions& load, const std::string& cache_dir) {
  SymmetryReport r;
  const SolveResult without = solve_on_cpu(load, true, -1, cache_dir);
  r.counts = counts_leaves(without.goal);
  r.evaluated_without = without.evaluated;
  r.found_without = without.found;
  r.without = r.counts && without.goal == Goal::count ? static_cast<long long>(without.solutions) : without.objective;
  const ProblemSpec spec = load_spec(load);
  r.agrees = true;
  auto check = [&](int generator, std::string what, std::optional<Loc> loc) {
    if (!r.agrees) return;
    r.checks.push_back(compare(solve_on_cpu(load, false, generator, cache_dir), r, std::move(what), loc));
    r.agrees = r.checks.back().agrees;
  };
  if (spec.symmetry_group) {
    const auto& gens = spec.symmetry_group->generators;
    for (size_t k = 0; k < gens.size(); ++k)
      check(static_cast<int>(k), fmt::format("generator '{}'", generator_name(gens[k].code)), gens[k].loc);
    if (gens.size() > 1)
      check(-1, fmt::format("the group ({} elements)", spec.symmetry_group->elements.size()), std::nullopt);
  } else {
    check(-1, "[symmetry]", std::nullopt);
  }
  return r;
}

std::string format_symmetry_report(const SymmetryReport& r) {
  const std::string answer = r.counts          ? fmt::format("{} solutions", r.without)
                             : r.found_without ? fmt::format("optimum {}", r.without)
                                               : std::string("no solution");
  std::string s =
      fmt::format("symmetry: agrees: {} without it ({} nodes evaluated) and with\n", answer, r.evaluated_without);
  for (const SymmetryCheck& c : r.checks)
    s += fmt::format("  {}: {} nodes evaluated ({:.0f}%)\n", c.what, c.evaluated_with,
                     r.evaluated_without
                         ? 100.0 * static_cast<double>(c.evaluated_with) / static_cast<double>(r.evaluated_without)
                         : 0.0);
  return s;
}

void wrong_symmetry_error(const ProblemSpec& spec, const SymmetryReport& r) {
  PJ_INTERNAL_ASSERT(!r.checks.empty() && !r.checks.back().agrees, "wrong_symmetry_error needs a check that disagrees");
  const SymmetryCheck& c = r.checks.back();
  auto said = [&](bool found, long long v) {
    if (r.counts && spec.goal == Goal::count) return fmt::format("{} solutions", v);
    if (!found) return std::string("no solution");
    return r.counts ? std::string("a solution") : fmt::format("optimum {}", v);
  };
  const Loc loc = c.loc ? *c.loc : spec.symmetry_group ? spec.symmetry_group->loc : spec.symmetry->loc;
  Diagnostics d;
  d.error(loc,
          "the declared symmetry is wrong: with " + (c.what == "[symmetry]" ? std::string("it") : c.what) +
              " the search finds " + said(c.found_with, c.with) + ", without it " + said(r.found_without, r.without),
          spec.symmetry_group
              ? "the problem must be the same under each generator: every solution's image a solution (of the same "
                "objective)"
              : "the problem must be the same under the map: every solution's mirror image a solution (of the same "
                "objective)");
  throw UserErrors(std::move(d));
}

}  // namespace permjit
