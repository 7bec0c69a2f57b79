// [branch] positions on the cpu skeleton (dsl/load_positions.cpp, runtime/core/
// problem_order.cpp): the search fills the positions in the spec's order, and what it
// reports and lists is in the problem's order, against brute force.
#include <catch2/catch.hpp>

#include <set>

#include "decision_support.hpp"
#include "runtime/core/problem_order.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/solve.hpp"

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

// The GPU skeletons take the warm start's incumbent in the search's order (ivm reports
// it as its own solution, and solve() falls back on it where the search finds nothing
// better), and solve() puts whatever it answers into the problem's order once. The warm
// start is a solve of its own, which answered in the problem's order: a GPU search from
// scratch that found nothing better than the warm start reported the permutation
// reordered twice (its objective right, the permutation another).
TEST_CASE("the warm start hands over its incumbent in the search's order of the positions",
          "[e2e][positions][qap][warm_start]") {
  const int n = 9;
  const Matrix a = random_matrix(n, 0, 9, 21), b = random_matrix(n, 0, 9, 71);
  SolveOptions o;
  o.load.spec_path = problem("qap.toml");
  o.load.instance_path = temp_file("positions_warm_qap9.dat", qaplib_text(a, b));
  o.load.params = {"order=1"};
  o.threads = 1;
  const PreparedSolve p = prepare_solve(o);
  REQUIRE(p.spec.positions);
  const std::vector<int>& order = p.spec.positions->order;
  REQUIRE_FALSE(std::is_sorted(order.begin(), order.end()));  // the two orders differ
  WarmStart warm(o, p.spec, false);
  const std::optional<WarmIncumbent>& found = warm.wait();
  REQUIRE(found);
  REQUIRE(found->permutation.size() == static_cast<size_t>(n));
  CHECK(qap_cost(a, b, in_problem_order(p.spec, found->permutation)) == found->value);
  CHECK(in_search_order(p.spec, in_problem_order(p.spec, found->permutation)) == found->permutation);
}
