// The GPU skeletons under a symmetry group (problems/nqueens_symmetries.toml: the eight
// symmetries of the board) against the cpu oracle: the same counts (OEIS A000170) and
// the same node totals, since every skeleton searches the tree candidates() gives.
#include <catch2/catch.hpp>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult ivm(const Run& r) {
  SolveOptions o = options_for(r, "ivm");
  o.progress = SolveOptions::Progress::off;
  return solve(o);
}
}  // namespace

TEST_CASE("dfs, ivm, cdp and rec count N-Queens under its eight symmetries like the CPU",
          "[gpu][symmetry][nqueens_symmetries]") {
  const unsigned long long expect[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
  for (int n : {1, 4, 5, 6, 7, 8, 11, 12}) {
    Run r{problem("nqueens_symmetries.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    CHECK(cpu.solutions == expect[n - 1]);
    same_tree(cpu, solve_with(r, "dfs"), "dfs");
    if (n >= 4) same_tree(cpu, solve_with(r, "dfs", 2), "dfs");
    same_tree(cpu, ivm(r), "ivm");
    same_tree(cpu, solve_with(r, "cdp"), "cdp");
    same_tree(cpu, solve_with(r, "rec"), "rec");
  }
}

// The border is a field of the node that changes along a path, kept in ivm's rows and
// carried by the work stolen between explorers: the same tree at any number of
// explorers and any trigger.
TEST_CASE("ivm counts N-Queens under its eight symmetries like the CPU, for any explorers and trigger",
          "[gpu][ivm][symmetry][nqueens_symmetries]") {
  for (int n : {5, 8, 10, 12}) {
    Run r{problem("nqueens_symmetries.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    for (auto [T, trigger] : {std::pair{1ull, 1ull}, std::pair{64ull, 1ull}, std::pair{1000ull, 999ull},
                              std::pair{4096ull, 100000ull}}) {
      INFO("explorers " << T << ", trigger " << trigger);
      SolveOptions o = options_for(r, "ivm");
      o.progress = SolveOptions::Progress::off;
      o.explorers = T;
      o.trigger = trigger;
      same_tree(cpu, solve(o), "ivm");
    }
  }
}
