// dualassign() (templates/pair_dual.h; problems/qap.toml lb = 3) on the GPU against the
// CPU: the same value, and the same trees. On dfs and ivm its solver runs in one thread
// per node with its tables in local memory (a k^4 table: 40 KiB at size 10), so those
// are small instances; on offload a block computes each child's (refine_block,
// templates/pair_dual_block.h), its tables in global memory.
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

// A path of kProbeShape nodes (candidates = bit(d)) whose second stage is dualassign()
// over random costs, the same at every node, and whose first stage never prunes: with
// --ub at that value the first child is pruned, with one more it is not, so a skeleton
// that explores the cpu's tree at both bounds computes that value exactly.
const char* kRefineProbe = R"spec([problem]
name = "gpu_dualassign_refine_probe"
goal = "minimize"
size = "n"

[data]
n = "int"
dims = "int[4]"
c = "int[n][n]"

[instance]
format = "layout"
read = ["n", "dims", "c"]

[branch]
candidates = "bit(d)"
bound = "-1000000"
stages = "2"
refine = '''
dualassign(i in ~(all << dims[0]), j in ~(all << dims[1]): c[i][j],
           k, l: c[i][k] - c[l][j] + 2 * c[k][l], dims[2])
'''
objective = "1000000"
)spec";

SolveResult solve_offload(const Run& r, const std::string& mode, unsigned long long batch = 0, int threads = 0) {
  SolveOptions o = options_for(r, "offload");
  o.offload = mode;
  o.batch = batch;
  o.threads = threads;
  return solve(o);
}

}  // namespace

TEST_CASE("dualassign() by a block (offload): the CPU's value on square and padded sides",
          "[gpu][dualassign][offload]") {
  const std::string spec = temp_file("gpu_dualassign_refine_probe.toml", kRefineProbe);
  unsigned seed = 730;
  for (auto [rows, cols] : {std::pair{4, 4}, std::pair{7, 7}, std::pair{9, 9}, std::pair{3, 6}, std::pair{6, 2}}) {
    const Matrix c = random_matrix(kProbeShape, -20, 40, ++seed);
    for (int rounds : {0, 3}) {
      INFO(rows << " x " << cols << ", seed " << seed << ", rounds " << rounds);
      std::string text = std::to_string(kProbeShape) + "\n" + std::to_string(rows) + " " + std::to_string(cols) +
                         " " + std::to_string(rounds) + " 15\n";
      for (int i = 0; i < kProbeShape; ++i) {
        for (int j = 0; j < kProbeShape; ++j)
          text += std::to_string(i == kProbeShape - 1 && j == kProbeShape - 1 ? -64 : c[i][j]) + " ";
        text += "\n";
      }
      Run r{spec, temp_file("gpu_dualassign_refine_probe.txt", text), {}, {}};
      // The value: the cpu's objective of the probe whose objective is the same call.
      const long long value = probe_on("cpu", rows, cols, rounds, c);
      r.ub = value;
      const SolveResult cpu_at = solve_with(r, "cpu");
      r.ub = value + 1;
      const SolveResult cpu_above = solve_with(r, "cpu");
      REQUIRE(cpu_at.evaluated < cpu_above.evaluated);  // the bound decides: the test discriminates
      for (const char* mode : {"bound", "branch"}) {
        INFO("offload " << mode);
        r.ub = value;
        same_tree(cpu_at, solve_offload(r, mode), "offload");
        r.ub = value + 1;
        same_tree(cpu_above, solve_offload(r, mode), "offload");
      }
    }
  }
}

TEST_CASE("QAP with the dual-ascent bound on offload (a block per child): the CPU's optimum and totals",
          "[gpu][dualassign][offload]") {
  Matrix a = random_matrix(10, 0, 9, 151), b = random_matrix(10, 0, 9, 152);  // as the test below
  Run r{problem("qap.toml"), temp_file("gpu_dualassign_offload_qap10.dat", qaplib_text(a, b)), {"lb=3", "rounds=3"},
        {}};
  SolveResult cpu = solve_with(r, "cpu");
  REQUIRE(cpu.found);
  for (const char* mode : {"bound", "branch"}) {
    INFO("offload " << mode);
    SolveResult gpu = solve_offload(r, mode);
    REQUIRE(gpu.found);
    CHECK(gpu.objective == cpu.objective);
  }
  r.ub = cpu.objective;
  SolveResult cpu_ub = solve_with(r, "cpu");
  for (const char* mode : {"bound", "branch"}) {
    INFO("offload " << mode);
    same_tree(cpu_ub, solve_offload(r, mode), "offload");
    same_tree(cpu_ub, solve_offload(r, mode, 16, 3), "offload");  // small batches, three host threads
  }
  // nug12 at its optimum (qap_optimal.csv), 5 rounds.
  Run nug{problem("qap.toml"), instance("qap/nug12.dat"), {"lb=3", "rounds=5"}, 578};
  SolveResult cpu_nug = solve_with(nug, "cpu");
  INFO("nug12");
  same_tree(cpu_nug, solve_offload(nug, "bound"), "offload");
}

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

// A batch of the dual ascent at size 20 takes seconds: at --time-limit the refine kernels
// in flight leave their remaining children (pj_offload_stop), so the search ends near the
// limit (it ran 64 s past a limit of 20 s before), and the warm start's solution is the
// best found it reports (none was reported before).
TEST_CASE("offload --time-limit with the dual ascent at size 20: stops near the limit, reports the best found",
          "[gpu][dualassign][offload][time_limit]") {
  check_stops_near_limit(options_for(Run{problem("qap.toml"), instance("qap/rou20.dat"), {"lb=3"}, {}}, "offload"), 3,
                         725522);  // QAPLIB's optimum
}
