// [branch] positions on the cpu skeleton (dsl/load_positions.cpp, runtime/core/
// problem_order.cpp): the search fills the positions in the spec's order, and what it
// reports and lists is in the problem's order, against brute force.
#include <catch2/catch.hpp>

#include <set>

#include "decision_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// Permutations of size n with p[d] != d at the depth d that fills position n-1-d: in the
// problem's order, p[i] != n-1-i. Listed in the problem's order only if the order is applied.
std::string reversed_spec(int n) {
  return temp_file("positions_rev.toml",
                   "[problem]\nname = \"rev\"\ngoal = \"count\"\nsize = \"" + std::to_string(n) +
                       "\"\n"
                       "[derived]\n"
                       "rev = { type = \"int[" + std::to_string(n) + "]\", index = [\"i\"], value = \"" +
                       std::to_string(n - 1) + " - i\" }\n"
                       "[branch]\n"
                       "positions = \"rev\"\n"
                       "filter = \"v != d\"\n");
}

}  // namespace

TEST_CASE("listing under branch.positions writes each solution in the problem's order", "[e2e][positions]") {
  const int n = 6;
  SolveOptions o = listing(reversed_spec(n), "cpu", "positions_rev.txt");
  o.list = 0;
  const SolveResult r = solve(o);
  const std::vector<Perm> listed = read_listed(o.list_out);
  std::set<Perm> want;
  Perm p(n);
  std::iota(p.begin(), p.end(), 0);
  do {
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && p[i] != n - 1 - i;
    if (ok) want.insert(p);
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(r.solutions == static_cast<uint64_t>(want.size()));  // 265 derangements of 6
  CHECK(std::set<Perm>(listed.begin(), listed.end()) == want);
  CHECK(listed.size() == want.size());
}

TEST_CASE("qap.toml by decreasing flow: the instance's optimum and its optimal assignments, in its order",
          "[e2e][positions][qap]") {
  for (unsigned seed : {3u, 11u}) {
    const int n = 7;
    const Matrix a = random_matrix(n, 0, 9, seed), b = random_matrix(n, 0, 9, seed + 50);
    INFO("seed " << seed);
    const std::set<Perm> want = brute_force_optimal(n, false, [&](const Perm& p) { return qap_cost(a, b, p); });
    const std::string inst = temp_file("positions_qap" + std::to_string(seed) + ".dat", qaplib_text(a, b));
    std::set<Perm> by_order[2];
    for (int order : {0, 1}) {
      INFO("order " << order);
      SolveOptions o = listing(problem("qap.toml"), "cpu", "positions_qap" + std::to_string(order) + ".txt");
      o.load.instance_path = inst;
      o.load.params = {"order=" + std::to_string(order)};
      o.all_optimal = true;
      const SolveResult r = solve(o);
      REQUIRE(r.found);
      CHECK(r.objective == qap_cost(a, b, *want.begin()));
      CHECK(qap_cost(a, b, r.permutation) == r.objective);  // the instance's order, not the search's
      const std::vector<Perm> listed = read_listed(o.list_out);
      by_order[order] = std::set<Perm>(listed.begin(), listed.end());
      CHECK(by_order[order] == want);
    }
  }
}
