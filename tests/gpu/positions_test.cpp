// [branch] positions on the GPU skeletons (qap.toml's default order, decreasing flow):
// each reports the optimum with a permutation in the instance's order, and at the
// optimum explores the cpu skeleton's tree.
#include <catch2/catch.hpp>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("QAP by decreasing flow: every GPU skeleton reports the instance's order and the cpu's tree",
          "[gpu][positions][qap]") {
  const int n = 9;
  const Matrix a = random_matrix(n, 0, 9, 61), b = random_matrix(n, 0, 9, 62);
  const std::string inst = temp_file("gpu_positions_qap9.dat", qaplib_text(a, b));
  const long long best = brute_force_min(n, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
  for (const char* lb : {"lb=1", "lb=2"}) {
    INFO(lb);
    const Run scratch{problem("qap.toml"), inst, {lb, "order=1"}, {}};
    const Run at_opt{problem("qap.toml"), inst, {lb, "order=1"}, best};
    const SolveResult cpu = solve_with(at_opt, "cpu");
    for (const char* sk : {"dfs", "ivm", "cdp", "rec", "offload"}) {
      INFO(sk);
      const SolveResult r = solve_with(scratch, sk);
      REQUIRE(r.found);
      CHECK(r.objective == best);
      REQUIRE(r.permutation.size() == static_cast<size_t>(n));
      CHECK(qap_cost(a, b, r.permutation) == r.objective);  // put back in the instance's order
      same_tree(cpu, solve_with(at_opt, sk), sk);
    }
  }
}

// From scratch with the warm start on: its incumbent (here the optimum: the cpu search
// finishes a 9-facility instance) is what the GPU search cannot beat, so the answer is
// the warm start's leaf, which must come out in the instance's order once (it came out
// reordered twice: the objective right, the permutation another).
TEST_CASE("QAP by decreasing flow with the warm start: the answer in the instance's order",
          "[gpu][positions][qap][warm_start]") {
  const int n = 9;
  const Matrix a = random_matrix(n, 0, 9, 21), b = random_matrix(n, 0, 9, 71);
  const std::string inst = temp_file("gpu_positions_warm_qap9.dat", qaplib_text(a, b));
  const long long best = brute_force_min(n, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
  for (const char* sk : {"dfs", "ivm", "offload"}) {
    INFO(sk);
    SolveOptions o = options_for(Run{problem("qap.toml"), inst, {"order=1"}, {}}, sk);
    o.warm_start = 0.3;
    const SolveResult r = solve(o);
    REQUIRE(r.found);
    CHECK(r.objective == best);
    REQUIRE(r.warm_start);
    REQUIRE(r.permutation.size() == static_cast<size_t>(n));
    CHECK(qap_cost(a, b, r.permutation) == r.objective);
  }
}
