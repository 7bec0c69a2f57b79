// The dfs skeleton against the CPU oracle: the same count, the same objective, and
// with --ub at the optimum the same node totals (nothing better exists, so the tree
// cannot depend on search order). Also across cutoff depths and chunk sizes.
#include <catch2/catch.hpp>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("dfs counts N-Queens like the CPU, at every cutoff depth and chunk size", "[gpu][nqueens]") {
  for (int n : {4, 6, 8, 10, 12}) {
    Run r{problem("nqueens.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    same_tree(cpu, solve_with(r, "dfs"));
    for (int dcpu : {1, 2, 3}) {
      INFO("dcpu " << dcpu);
      same_tree(cpu, solve_with(r, "dfs", dcpu));
    }
    same_tree(cpu, solve_with(r, "dfs", 3, 7));  // many small launches
  }
}

TEST_CASE("dfs proves ATSP and QAP optima with the CPU's node totals", "[gpu][atsp][qap]") {
  for (Run r : atsp_qap_runs("gpu", {41u, 42u, 43u})) {
    INFO(r.spec << " " << r.inst << (r.params.empty() ? "" : " " + r.params[0]));
    SolveResult cpu = solve_with(r, "cpu");
    SolveResult gpu = solve_with(r, "dfs");
    REQUIRE(cpu.found);
    REQUIRE(gpu.found);
    CHECK(gpu.objective == cpu.objective);  // from scratch: the same optimum
    // The permutation the GPU reports has that cost (recomputed by the CPU spec path).
    r.ub = cpu.objective;  // at the optimum: the same tree
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (int dcpu : {0, 2, 3}) {
      INFO("dcpu " << dcpu);
      same_tree(cpu_ub, solve_with(r, "dfs", dcpu));
    }
    same_tree(cpu_ub, solve_with(r, "dfs", 2, 5));
  }
}

TEST_CASE("dfs reports an optimal permutation whose cost is the optimum", "[gpu][atsp]") {
  Matrix d = random_matrix(11, 1, 99, 77);
  std::string inst = temp_file("gpu_atsp_perm.atsp", tsplib_text(d));
  SolveResult gpu = solve_with({problem("atsp.toml"), inst, {"lb=0"}, {}}, "dfs");
  REQUIRE(gpu.found);
  REQUIRE(gpu.permutation.size() == 11);
  CHECK(tour_cost(d, gpu.permutation) == gpu.objective);
  CHECK(gpu.objective == brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); }));
}

TEST_CASE("dfs on the shared instances: nug12 = 578 and br17 = 39", "[gpu][slow]") {
  SolveResult nug = solve_with({problem("qap.toml"), instance("qap/nug12.dat"), {"lb=1"}, {}}, "dfs");
  REQUIRE(nug.found);
  CHECK(nug.objective == 578);
  SolveResult br = solve_with({problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=0"}, {}}, "dfs");
  REQUIRE(br.found);
  CHECK(br.objective == 39);
  // With the bound at the optimum, CPU and GPU explore the same tree.
  Run at_opt{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=0"}, 39};
  same_tree(solve_with(at_opt, "cpu"), solve_with(at_opt, "dfs"));
}
