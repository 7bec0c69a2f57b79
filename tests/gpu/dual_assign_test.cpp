// dualassign() (templates/pair_dual.h; problems/qap.toml lb = 3) on the GPU against the
// CPU: the same value, and the same trees. Its solver runs in one thread per node with
// its tables in local memory (a k^4 table: 40 KiB at size 10), so these are small
// instances.
#include <catch2/catch.hpp>

#include "../e2e/reduction_probe.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// One leaf (candidates = bit(d)) whose objective is dualassign() over random costs: the
// value the device computes, when the kernel reaches the leaf (dfs: the CPU frontier
// stops at depth 1).
const char* kObjective = R"(dualassign(i in ~(all << dims[0]), j in ~(all << dims[1]): c[i][j],
                      k, l: c[i][k] - c[l][j] + 2 * c[k][l], dims[2])
)";

long long probe_on(const std::string& skeleton, int rows, int cols, int rounds, const Matrix& c) {
  static const std::string spec =
      temp_file("gpu_dualassign_probe.toml", reduction_probe_spec("gpu_dualassign_probe", 1, 4, kObjective));
  std::string text = std::to_string(kProbeShape) + "\n" + std::to_string(rows) + " " + std::to_string(cols) + " " +
                     std::to_string(rounds) + " 15\n";
  for (int i = 0; i < kProbeShape; ++i) {
    for (int j = 0; j < kProbeShape; ++j)
      text += std::to_string(i == kProbeShape - 1 && j == kProbeShape - 1 ? -64 : c[i][j]) + " ";
    text += "\n";
  }
  Run r{spec, temp_file("gpu_dualassign_probe.txt", text), {}, {}};
  SolveResult s = solve_with(r, skeleton, skeleton == "dfs" ? 1 : 0);  // --dcpu is an option of dfs alone
  REQUIRE(s.found);
  return s.objective;
}

}  // namespace

TEST_CASE("dualassign(): the device computes the CPU's value", "[gpu][dualassign]") {
  unsigned seed = 490;
  for (auto [rows, cols] : {std::pair{4, 4}, std::pair{7, 7}, std::pair{9, 9}, std::pair{3, 6}, std::pair{6, 2}}) {
    const Matrix c = random_matrix(kProbeShape, -20, 40, ++seed);
    for (int rounds : {0, 3}) {
      INFO(rows << " x " << cols << ", seed " << seed << ", rounds " << rounds);
      const long long cpu = probe_on("cpu", rows, cols, rounds, c);
      CHECK(probe_on("dfs", rows, cols, rounds, c) == cpu);
      CHECK(probe_on("ivm", rows, cols, rounds, c) == cpu);
    }
  }
}

TEST_CASE("QAP with the dual-ascent bound: dfs and ivm prove the optimum with the CPU's node totals",
          "[gpu][dualassign]") {
  Matrix a = random_matrix(10, 0, 9, 151), b = random_matrix(10, 0, 9, 152);  // assignment_bounds_test's
  Run r{problem("qap.toml"), temp_file("gpu_dualassign_qap10.dat", qaplib_text(a, b)), {"lb=3", "rounds=3"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  REQUIRE(cpu.found);
  CHECK(cpu.objective == 1633);
  for (const char* skeleton : {"dfs", "ivm"}) {
    INFO(skeleton);
    SolveResult gpu = solve_with(r, skeleton);
    REQUIRE(gpu.found);
    CHECK(gpu.objective == cpu.objective);
  }
  r.ub = cpu.objective;
  SolveResult cpu_ub = solve_with(r, "cpu");
  for (const char* skeleton : {"dfs", "ivm"}) same_tree(cpu_ub, solve_with(r, skeleton), skeleton);
}
