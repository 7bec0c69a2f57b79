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
