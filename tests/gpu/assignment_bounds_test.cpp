// The assignment bounds (problems/atsp.toml lb = 1, its arborescence bound lb = 2 and
// both lb = 3, problems/qap.toml lb = 2: assign(), arborescence() and minprod(),
// templates/pair_reductions.h) on the GPU against the CPU oracle: with
// --ub at the optimum, dfs, ivm and cdp explore the cpu skeleton's tree (same node
// totals), and from scratch they reach its optimum. Their solvers loop over the set
// sizes and keep their arrays in local memory: the only node code with data-dependent
// trip counts, so this is where a device-only mistake would show.
#include <catch2/catch.hpp>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
std::vector<Run> assignment_runs() {
  std::vector<Run> runs;
  for (unsigned seed : {141u, 142u}) {
    Matrix d = random_matrix(11 + static_cast<int>(seed % 2), 1, 60, seed);
    const std::string inst = temp_file("gpu_assign_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    for (const char* lb : {"lb=1", "lb=2", "lb=3"}) runs.push_back({problem("atsp.toml"), inst, {lb}, {}});
  }
  Matrix a = random_matrix(10, 0, 9, 151), b = random_matrix(10, 0, 9, 152);
  runs.push_back({problem("qap.toml"), temp_file("gpu_assign_qap10.dat", qaplib_text(a, b)), {"lb=2"}, {}});
  return runs;
}
}  // namespace

TEST_CASE("assignment bounds: dfs, ivm and cdp prove the optimum with the CPU's node totals", "[gpu][assign]") {
  for (Run r : assignment_runs()) {
    INFO(r.spec << " " << r.inst << " " << r.params[0]);
    SolveResult cpu = solve_with(r, "cpu");
    REQUIRE(cpu.found);
    for (const char* skeleton : {"dfs", "ivm"}) {
      INFO(skeleton);
      SolveResult gpu = solve_with(r, skeleton);
      REQUIRE(gpu.found);
      CHECK(gpu.objective == cpu.objective);
    }
    r.ub = cpu.objective;
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (const char* skeleton : {"dfs", "ivm", "cdp"}) {
      INFO(skeleton << " at --ub " << *r.ub);
      same_tree(cpu_ub, solve_with(r, skeleton), skeleton);
    }
  }
}

TEST_CASE("br17 with the assignment bound at --ub 39: ivm explores dfs's tree", "[gpu][assign][slow]") {
  Run r{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=1"}, 39};
  SolveResult dfs = solve_with(r, "dfs");
  CHECK_FALSE(dfs.found);
  CHECK(dfs.evaluated == 223419666);  // the cpu skeleton's count on br17 (docs/performance.md)
  same_tree(dfs, solve_with(r, "ivm"), "ivm");
}

TEST_CASE("br17 with the arborescence bound (lb = 2) at --ub 39: dfs and ivm explore the cpu's tree",
          "[gpu][assign]") {
  Run r{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=2"}, 39};
  SolveResult cpu = solve_with(r, "cpu");
  CHECK_FALSE(cpu.found);
  CHECK(cpu.evaluated == 3048256);  // docs/performance.md, "Assignment bounds"
  for (const char* skeleton : {"dfs", "ivm"}) same_tree(cpu, solve_with(r, skeleton), skeleton);
}

// The QAP of size 10 with Gilmore-Lawler (the instance of assignment_runs, also
// bench/qap10_test.dat) in both of ivm's row placements, with one explorer and with the
// default number, at --ub at the optimum: the cpu skeleton's tree. With bound() inlined
// into the local-rows explorer, one explorer reported 807 after 56 nodes and the default
// 466 (the optimum is 1633); bound() is now called (generator/code_writer.hpp,
// require_call).
TEST_CASE("QAP with Gilmore-Lawler: ivm with its rows in local and in shared memory explores the cpu's tree",
          "[gpu][assign][ivm]") {
  Matrix a = random_matrix(10, 0, 9, 151), b = random_matrix(10, 0, 9, 152);
  Run r{problem("qap.toml"), temp_file("gpu_assign_qap10_rows.dat", qaplib_text(a, b)), {"lb=2"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  REQUIRE(cpu.found);
  CHECK(cpu.objective == 1633);
  r.ub = cpu.objective;
  SolveResult cpu_ub = solve_with(r, "cpu");
  for (const char* rows : {"local", "shared"})
    for (unsigned long long explorers : {1ull, 0ull}) {
      INFO(rows << " rows, " << explorers << " explorers (0: the default)");
      SolveOptions o = options_for(r, "ivm");
      o.ivm_rows = rows;
      o.explorers = explorers;
      same_tree(cpu_ub, solve(o), "ivm");
    }
}

// From size 24 (PJ_IVM_ASSIGN_START_FROM) ivm's explorers keep an AssignStart per level
// and start each child's assign() from its parent's: the node totals must stay the cpu's,
// from scratch and at the optimum (ATSP lb=1 on 26 random cities; the cpu's starts are
// its own, kept per kid).
TEST_CASE("ivm's assign() started from the parent's keeps the cpu's node totals", "[gpu][assign][ivm]") {
  Matrix d = random_matrix(26, 1, 1000, 161);
  Run r{problem("atsp.toml"), temp_file("gpu_assign_start26.atsp", tsplib_text(d)), {"lb=1"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  REQUIRE(cpu.found);
  SolveResult ivm = solve_with(r, "ivm");
  REQUIRE(ivm.found);
  CHECK(ivm.objective == cpu.objective);
  r.ub = cpu.objective;
  same_tree(solve_with(r, "cpu"), solve_with(r, "ivm"), "ivm");
}
