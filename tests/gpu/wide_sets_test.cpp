// Sets in a 128-bit word on the GPU skeletons: at small sizes with LoadOptions::wide_sets
// the cpu skeleton's narrow-word tree, node for node; above 64 values (a 70-city ATSP
// whose one tour of unit arcs is the optimum) the optimum and its tour.
#include <catch2/catch.hpp>

#include <numeric>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult solve_wide(const Run& r, const std::string& skeleton) {
  SolveOptions o = options_for(r, skeleton);
  o.load.wide_sets = true;
  o.load.ignore_symmetry = true;  // [symmetry] keeps its tables in 64 bits
  return solve(o);
}
}  // namespace

TEST_CASE("128-bit sets: every GPU skeleton explores the cpu's narrow-word tree", "[gpu][wide]") {
  const std::string atsp = temp_file("gpu_wide_atsp10.atsp", tsplib_text(random_matrix(10, 1, 60, 8)));
  const Run queens{problem("nqueens.toml"), "", {"n=10"}, {}};
  SolveOptions narrow = options_for(queens, "cpu");
  narrow.load.ignore_symmetry = true;
  const SolveResult cpu_queens = solve(narrow);
  CHECK(cpu_queens.solutions == 724);
  for (const char* sk : {"dfs", "ivm", "cdp", "rec"}) {
    INFO(sk);
    same_tree(cpu_queens, solve_wide(queens, sk), sk);
  }
  for (const char* lb : {"lb=1", "lb=9"}) {
    const Run scratch{problem("atsp.toml"), atsp, {lb}, {}};
    const SolveResult best = solve_with(scratch, "cpu");
    REQUIRE(best.found);
    const Run at_opt{problem("atsp.toml"), atsp, {lb}, best.objective + 1};
    const SolveResult cpu = solve_with(at_opt, "cpu");
    for (const char* sk : {"dfs", "ivm", "offload"}) {
      INFO(lb << " " << sk);
      same_tree(cpu, solve_wide(at_opt, sk), sk);
      CHECK(solve_wide(scratch, sk).objective == best.objective);
    }
  }
}

// ivm takes up to 64 levels (runtime/ivm/ivm_skeleton.cpp says why).
TEST_CASE("a 70-city ATSP: dfs and offload find its one tour of unit arcs", "[gpu][wide]") {
  const int n = 70;
  Matrix d = random_matrix(n, 2, 99, 87);
  for (int i = 0; i < n; ++i) d[i][(i + 1) % n] = 1;
  const std::string inst = temp_file("gpu_unit_tour70.atsp", tsplib_text(d));
  std::vector<int> tour(n);
  std::iota(tour.begin(), tour.end(), 0);
  // From an incumbent one above the optimum: without one (the GPU runs of these tests
  // have no warm start) offload's pool would fill before it reached a leaf.
  for (const char* lb : {"lb=1", "lb=9"})
    for (const char* sk : {"dfs", "offload"}) {
      INFO(lb << " " << sk);
      const SolveResult r = solve_with(Run{problem("atsp.toml"), inst, {lb}, n + 1}, sk);
      REQUIRE(r.found);
      CHECK(r.objective == n);
      CHECK(r.permutation == tour);
    }
}
