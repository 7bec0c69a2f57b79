// The additive and Lagrangian bounds of problems/atsp.toml (lb = 5: `assign(... then
// arborescence)`, lb = 6: `... steps K`, templates/lagrange_bounds.h) through the
// generated CPU code: every bound holds below sampled nodes (`check --verify-bound`),
// the optimum equals brute force, the node counts at --ub = the optimum do not depend on
// the cpu skeleton's threads or split depth (the bound is a function of the node), and
// the Lagrangian steps prune more than the bounds they start from. A Lagrangian bound
// written by hand with a broken multiplier update is caught by --verify-bound at a node
// whose best completion the test computes itself.
#include <algorithm>

#include "dsl/load_spec.hpp"
#include "e2e_support.hpp"
#include "runtime/verify_bound.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

VerifyBoundOptions samples(int n) {
  VerifyBoundOptions o;
  o.samples = n;
  o.cache_dir = cache_dir();
  return o;
}

SolveResult run_cpu(const std::string& inst, std::vector<std::string> params, int threads,
                    std::optional<long long> ub = {}, int split_depth = 0) {
  return run(problem("atsp.toml"), inst, std::move(params), threads, ub, split_depth, "run-time");
}

}  // namespace

TEST_CASE("atsp lb=5, 6, 8 and 9 hold below sampled nodes", "[e2e][lagrange][verify-bound]") {
  for (unsigned seed : {61u, 62u}) {
    const std::string atsp =
        temp_file("lagrange_verify_atsp" + std::to_string(seed) + ".atsp", tsplib_text(random_matrix(10, 1, 60, seed)));
    for (auto params : {std::vector<std::string>{"lb=5"}, std::vector<std::string>{"lb=6"},
                        std::vector<std::string>{"lb=6", "steps=40"}, std::vector<std::string>{"lb=8"},
                        std::vector<std::string>{"lb=8", "steps=0"}, std::vector<std::string>{"lb=9"},
                        std::vector<std::string>{"lb=9", "steps=0"}}) {
      INFO("seed " << seed << " " << params.back());
      BoundReport r = verify_bound(load(problem("atsp.toml"), atsp, params), samples(16));
      CHECK_FALSE(r.bad);
      CHECK(r.sampled == 16);
    }
  }
}

TEST_CASE("atsp lb=5, 6, 8 and 9: brute-force optima, and counts that do not depend on threads", "[e2e][lagrange]") {
  for (unsigned seed : {81u, 82u, 83u}) {
    const Matrix d = random_matrix(8, 1, 60, seed);
    const std::string inst = temp_file("lagrange_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long best = brute_force_min(8, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    for (const char* lb : {"lb=5", "lb=6", "lb=8", "lb=9"}) {
      INFO("seed " << seed << " " << lb);
      SolveResult r = run_cpu(inst, {lb}, 2);
      REQUIRE(r.found);
      CHECK(r.objective == best);
      SolveResult one = run_cpu(inst, {lb}, 1, best);
      CHECK_FALSE(one.found);
      for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 3}}) {
        INFO(threads << " threads, split depth " << split);
        SolveResult other = run_cpu(inst, {lb}, threads, best, split);
        CHECK(other.expanded == one.expanded);
        CHECK(other.evaluated == one.evaluated);
      }
    }
  }
}

TEST_CASE("the Lagrangian steps prune more than the assignment and additive bounds", "[e2e][lagrange]") {
  const Matrix d = random_matrix(10, 1, 60, 84);
  const std::string inst = temp_file("lagrange_atsp_prune.atsp", tsplib_text(d));
  const long long tour = brute_force_min(10, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  const uint64_t assignment = run_cpu(inst, {"lb=1"}, 1, tour).evaluated;
  const uint64_t additive = run_cpu(inst, {"lb=5"}, 1, tour).evaluated;
  const uint64_t lagrangian = run_cpu(inst, {"lb=6"}, 1, tour).evaluated;
  CHECK(additive <= assignment);
  CHECK(lagrangian < additive);
}

TEST_CASE("a hand-written Lagrangian bound holds, and --verify-bound catches a broken multiplier update",
          "[e2e][lagrange][verify-bound]") {
  const std::string spec_path = source_dir() + "/tests/e2e/inputs/atsp_lagrange_by_hand.toml";
  const Matrix d = random_matrix(8, 1, 60, 86);
  const std::string inst = temp_file("lagrange_by_hand8.atsp", tsplib_text(d));
  BoundReport good = verify_bound(load(spec_path, inst, {"broken=0"}), samples(64));
  CHECK_FALSE(good.bad);
  CHECK(good.whole_tree);
  ProblemSpec spec = load(spec_path, inst, {"broken=1"});
  BoundReport r = verify_bound(spec, samples(64));
  REQUIRE(r.bad);
  CHECK(r.stage == 2);
  CHECK(r.bound > r.best);
  // The node's best completion, by the test's own brute force over its free cities.
  std::vector<int> prefix, rest;
  for (int i = 0; i < r.depth; ++i) prefix.push_back(r.placed[size_t(i)]);
  for (int c = 0; c < 8; ++c)
    if (std::find(prefix.begin(), prefix.end(), c) == prefix.end()) rest.push_back(c);
  std::sort(rest.begin(), rest.end());
  long long best = LLONG_MAX;
  do {
    std::vector<int> tour = prefix;
    tour.insert(tour.end(), rest.begin(), rest.end());
    best = std::min(best, tour_cost(d, tour));
  } while (std::next_permutation(rest.begin(), rest.end()));
  CHECK(r.best == best);
  try {
    invalid_bound_error(spec, r);
    FAIL("no error");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.all().size() == 1);
    const Diagnostic& d0 = e.diags.all()[0];
    CHECK(d0.loc.file->path == spec_path);
    CHECK_THAT(d0.message, Catch::Contains("not a valid refinement of the bound") && Catch::Contains(std::to_string(r.best)));
  }
}

// `... from E` with multipliers that have nothing to do with the instance (large,
// arbitrary) is still a bound: any multipliers are (docs/spec-language.md, "Multipliers
// optimised once"); and the root's multipliers (atsp.toml lb = 8) prune more at the node
// than the steps from 0 (lb = 6) at the same steps per node.
TEST_CASE("a chain started from arbitrary multipliers holds; the root's prune more than 0", "[e2e][lagrange][verify-bound]") {
  const std::string spec_path = source_dir() + "/tests/e2e/inputs/atsp_lagrange_from.toml";
  for (unsigned seed : {91u, 92u}) {
    const std::string inst =
        temp_file("lagrange_from" + std::to_string(seed) + ".atsp", tsplib_text(random_matrix(9, 1, 60, seed)));
    for (const char* scale : {"scale=1", "scale=1000", "scale=100000000"}) {
      INFO("seed " << seed << " " << scale);
      BoundReport r = verify_bound(load(spec_path, inst, {scale}), samples(24));
      CHECK_FALSE(r.bad);
    }
  }
  // Pairs of cities at distance 0 both ways (as br17's): the assignment closes them into
  // 0-cost cycles, and the additive bound stays weak where the root's multipliers do not.
  Matrix d = random_matrix(12, 20, 60, 93);
  for (size_t k = 0; k + 1 < d.size(); k += 2) d[k][k + 1] = d[k + 1][k] = 0;
  const std::string inst = temp_file("lagrange_root_prune.atsp", tsplib_text(d));
  const SolveResult best = run_cpu(inst, {"lb=6"}, 2);
  REQUIRE(best.found);
  const uint64_t from_zero = run_cpu(inst, {"lb=6", "steps=0"}, 1, best.objective).evaluated;
  const uint64_t from_root = run_cpu(inst, {"lb=8", "steps=0"}, 1, best.objective).evaluated;
  CHECK(from_root < from_zero);
}

// A cluster of cities that only dear arcs leave (TSPLIB's p43: its arcs out of {38..42}
// cost 5000, the others 0-446): every tour pays to leave it once. The forward forest
// (lb = 8) only enters cities and never needs to leave the cluster; the reversed one
// (lb = 9) must, so it prunes far more, and both keep the brute-force optimum.
TEST_CASE("atsp lb=9, the reversed forest, sees the price of leaving a cluster", "[e2e][lagrange]") {
  Matrix d = random_matrix(10, 1, 40, 95);
  for (int a : {6, 7, 8, 9})
    for (int b = 0; b < 6; ++b) d[size_t(a)][size_t(b)] = 1000 + 7 * b + a;
  const std::string inst = temp_file("lagrange_cluster.atsp", tsplib_text(d));
  const long long best = brute_force_min(10, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  for (const char* lb : {"lb=8", "lb=9"}) {
    INFO(lb);
    const SolveResult r = run_cpu(inst, {lb}, 2);
    REQUIRE(r.found);
    CHECK(r.objective == best);
  }
  // No steps at the root or the node: the two additive bounds, one each way.
  const uint64_t forward = run_cpu(inst, {"lb=8", "steps=0", "root_steps=0"}, 1, best).evaluated;
  const uint64_t reversed = run_cpu(inst, {"lb=9", "steps=0", "root_steps=0"}, 1, best).evaluated;
  CHECK(reversed * 4 < forward);
}
