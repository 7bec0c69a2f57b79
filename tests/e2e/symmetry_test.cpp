// Declared symmetry ([symmetry], generator/emit_symmetry.cpp): the same answers with
// fewer nodes, and `check --verify-symmetry` catches a declaration that is wrong.
#include <catch2/catch.hpp>

#include <set>
#include <span>

#include "dsl/diagnostics.hpp"
#include "e2e_support.hpp"
#include "runtime/verify_symmetry.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
// nqueens.toml declares the mirror; nqueens_symmetries.toml the eight symmetries of the board.
SolveResult queens(int n, bool ignore, int threads = 2, const char* spec = "nqueens.toml") {
  SolveOptions o;
  o.load.spec_path = problem(spec);
  o.load.params = {"n=" + std::to_string(n)};
  o.load.ignore_symmetry = ignore;
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = threads;
  o.cache_dir = cache_dir();
  return solve(o);
}

// A minimisation invariant under v -> n - 1 - v: the cost of a step is the distance
// between consecutive values, weighted by the position.
const char* kZigzag = R"spec(
[problem]
name = "zigzag"
goal = "minimize"
size = "n"
[params]
n = { type = "int", default = 8, range = [2, 10] }
w = { type = "int", default = 3, range = [0, 9] }
[state]
cost = { type = "int", init = "0" }
[branch]
place = { cost = "d == 0 ? 0 : cost + (d % w + 1) * abs(v - last) + (v == d ? 5 : 0) + (n - 1 - v == d ? 5 : 0)" }
bound = "cost"
objective = "cost"
[symmetry]
value = "n - 1 - v"
)spec";
}  // namespace

TEST_CASE("N-Queens with its declared symmetry counts every n exactly, and n = 12 on half the nodes",
          "[e2e][symmetry]") {
  const unsigned long long expect[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
  for (int n = 1; n <= 12; ++n) {
    INFO("n = " << n);
    const SolveResult with = queens(n, false), without = queens(n, true);
    CHECK(with.solutions == expect[n - 1]);
    CHECK(without.solutions == expect[n - 1]);
    CHECK(with.evaluated <= without.evaluated);
  }
  // The bar: at most 60% of the whole tree's 856,188 evaluated nodes.
  const SolveResult q12 = queens(12, false);
  CHECK(queens(12, true).evaluated == 856188);
  CHECK(q12.evaluated * 10 <= 856188ull * 6);
  // The same tree whatever the threads.
  CHECK(queens(12, false, 1).evaluated == q12.evaluated);
}

TEST_CASE("N-Queens under the eight symmetries of the board counts every n exactly, n = 12 on at most 30% of the nodes",
          "[e2e][symmetry]") {
  const char* spec = "nqueens_symmetries.toml";
  const unsigned long long expect[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
  for (int n = 1; n <= 12; ++n) {
    INFO("n = " << n);
    const SolveResult with = queens(n, false, 2, spec);
    CHECK(with.solutions == expect[n - 1]);
  }
  // The bar: at most 30% of the whole tree's 856,188 evaluated nodes (the mirror
  // alone: 50%).
  const SolveResult q12 = queens(12, false, 2, spec);
  CHECK(queens(12, true, 2, spec).evaluated == 856188);
  CHECK(q12.solutions == 14200);
  CHECK(q12.evaluated * 10 <= 856188ull * 3);
  // The same tree whatever the threads.
  CHECK(queens(12, false, 1, spec).evaluated == q12.evaluated);
}

TEST_CASE("a minimisation with a declared symmetry keeps its optimum", "[e2e][symmetry]") {
  const std::string spec = temp_file("zigzag.toml", kZigzag);
  for (const char* n : {"n=5", "n=8"})
    for (const char* w : {"w=1", "w=3"}) {
      INFO(n << " " << w);
      SolveOptions o;
      o.load.spec_path = spec;
      o.load.params = {n, w};
      o.backend = "cpu";
      o.cache_dir = cache_dir();
      const SolveResult with = solve(o);
      o.load.ignore_symmetry = true;
      const SolveResult without = solve(o);
      CHECK(with.found);
      CHECK(with.objective == without.objective);
      CHECK(with.evaluated < without.evaluated);
      SymmetryReport r = verify_symmetry(LoadOptions{spec, {n, w}}, cache_dir());
      CHECK(r.agrees);
    }
}

TEST_CASE("check --verify-symmetry finds a symmetry that is wrong, at its place", "[e2e][symmetry]") {
  // Derangements (no value at its own position) are not the same under v -> n - 1 - v.
  const std::string spec = temp_file("derange_sym.toml", R"([problem]
name = "derange"
goal = "count"
size = "n"
[params]
n = { type = "int", default = 6, range = [1, 9] }
[branch]
filter = "v != d"
[symmetry]
value = "n - 1 - v"
)");
  LoadOptions load{spec, {"n=6"}};
  const SymmetryReport r = verify_symmetry(load, cache_dir());
  CHECK(!r.agrees);
  CHECK(r.without == 265);  // the derangements of 6
  ProblemSpec s = load_spec(load);
  try {
    wrong_symmetry_error(s, r);
    FAIL("no error");
  } catch (const UserErrors& e) {
    const Diagnostic& d = e.diags.all().front();
    CHECK(d.loc.line == 10);
    CHECK_THAT(d.message, Catch::Contains("the declared symmetry is wrong"));
    CHECK_THAT(d.message, Catch::Contains("without it 265 solutions"));
  }
}

TEST_CASE("listing N-Queens 8 under its symmetries writes the 92 solutions, each once", "[e2e][symmetry][decision]") {
  for (const char* spec : {"nqueens.toml", "nqueens_symmetries.toml"}) {
    INFO(spec);
    auto listed = [&](bool ignore, std::optional<unsigned long long> limit) {
      SolveOptions o;
      o.load.spec_path = problem(spec);
      o.load.params = {"n=8"};
      o.load.ignore_symmetry = ignore;
      o.backend = "cpu";
      o.cache_dir = cache_dir();
      o.list = limit.value_or(0);
      std::vector<std::vector<int>> got;
      o.list_sink = [&](std::span<const int> p, long long) {
        got.emplace_back(p.begin(), p.end());
        return true;
      };
      const SolveResult r = solve(o);
      return std::pair{r, got};
    };
    const auto [with, perms] = listed(false, std::nullopt);
    const auto [without, all] = listed(true, std::nullopt);
    CHECK(with.solutions == 92);
    CHECK(perms.size() == 92);
    CHECK(std::set<std::vector<int>>(perms.begin(), perms.end()) == std::set<std::vector<int>>(all.begin(), all.end()));
    CHECK(with.evaluated < without.evaluated);
    // A limit counts lines: the first 10, and the run says it stopped there.
    const auto [ten, first] = listed(false, 10);
    CHECK(first.size() == 10);
    CHECK(ten.reached_limit);
    CHECK(ten.solutions == 10);
  }
}
