// The assignment bounds of problems/atsp.toml (lb = 1) and problems/qap.toml (lb = 2,
// Gilmore-Lawler) on small random instances: every bound holds below sampled nodes
// (`check --verify-bound`), the optimum equals brute force, and at --ub = the optimum
// the node counts do not depend on the cpu skeleton's threads or split depth. Values
// are read at run time, so the instances of one shape share a module.
#include "dsl/load_spec.hpp"
#include "e2e_support.hpp"
#include "runtime/verify_bound.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// One module per shape: the instances of a size share it.
SolveResult run_cpu(const std::string& spec, const std::string& inst, const std::string& param, int threads,
                    std::optional<long long> ub = {}, int split_depth = 0) {
  return run(spec, inst, {param}, threads, ub, split_depth, "run-time");
}

// The optimum equals `best`, and at --ub = best nothing is found and the node counts
// are the same for 1 and 2 threads and two split depths.
void check_optimum_and_counts(const std::string& spec, const std::string& inst, const std::string& param,
                              long long best) {
  SolveResult r = run_cpu(spec, inst, param, 2);
  REQUIRE(r.found);
  CHECK(r.objective == best);
  SolveResult one = run_cpu(spec, inst, param, 1, best);
  CHECK_FALSE(one.found);
  for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 3}}) {
    INFO(threads << " threads, split depth " << split);
    SolveResult other = run_cpu(spec, inst, param, threads, best, split);
    CHECK(other.expanded == one.expanded);
    CHECK(other.evaluated == one.evaluated);
  }
}

VerifyBoundOptions samples(int n) {
  VerifyBoundOptions o;
  o.samples = n;
  o.cache_dir = cache_dir();
  return o;
}

}  // namespace

TEST_CASE("atsp and qap bounds of every lb hold below sampled nodes", "[e2e][assign][verify-bound]") {
  for (unsigned seed : {61u, 62u}) {
    const std::string atsp =
        temp_file("assign_verify_atsp" + std::to_string(seed) + ".atsp", tsplib_text(random_matrix(10, 1, 60, seed)));
    for (const char* lb : {"lb=0", "lb=1", "lb=2", "lb=3", "lb=4"}) {
      INFO("atsp seed " << seed << " " << lb);
      BoundReport r = verify_bound(load(problem("atsp.toml"), atsp, {lb}), samples(16));
      CHECK_FALSE(r.bad);
      CHECK(r.sampled == 16);
    }
    const std::string qap = temp_file("assign_verify_qap" + std::to_string(seed) + ".dat",
                                      qaplib_text(random_matrix(9, 0, 9, seed), random_matrix(9, 0, 9, seed + 50)));
    for (const char* lb : {"lb=0", "lb=1", "lb=2"}) {
      INFO("qap seed " << seed << " " << lb);
      BoundReport r = verify_bound(load(problem("qap.toml"), qap, {lb}), samples(16));
      CHECK_FALSE(r.bad);
      CHECK(r.sampled == 16);
    }
  }
}

TEST_CASE("an asymmetric qap with zero diagonals: Gilmore-Lawler holds at every node", "[e2e][assign][verify-bound]") {
  // Size 8: the whole tree is checked. Asymmetric flows and distances, diagonals 0.
  Matrix a = random_matrix(8, 0, 20, 71), b = random_matrix(8, 0, 20, 72);
  for (int i = 0; i < 8; ++i) a[i][i] = b[i][i] = 0;
  const std::string qap = temp_file("assign_verify_qap8.dat", qaplib_text(a, b));
  BoundReport r = verify_bound(load(problem("qap.toml"), qap, {"lb=2"}), samples(4));
  CHECK_FALSE(r.bad);
  CHECK(r.whole_tree);
}

TEST_CASE("atsp lb=1..4: brute-force optima, and counts that do not depend on threads", "[e2e][assign]") {
  for (unsigned seed : {81u, 82u, 83u}) {
    INFO("seed " << seed);
    const Matrix d = random_matrix(8, 1, 60, seed);
    const std::string inst = temp_file("assign_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long best = brute_force_min(8, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    // Every bound on the first instance; the assignment (lb=1) and the default on all.
    for (const char* lb : {"lb=1", "lb=2", "lb=3", "lb=4"}) {
      if (seed != 81u && lb != std::string("lb=1") && lb != std::string("lb=4")) continue;
      INFO(lb);
      check_optimum_and_counts(problem("atsp.toml"), inst, lb, best);
    }
  }
}

TEST_CASE("atsp with 0-cost groups: the arborescence prunes what the assignment cannot", "[e2e][assign]") {
  // Four groups of two cities at distance 0 from each other, 30 apart (with noise): the
  // assignment closes each pair into a 0-cost cycle (its bound at the root is 0), the
  // arborescence pays to enter each group; lb=4 takes it.
  Matrix d = random_matrix(8, 30, 40, 85);
  for (int i = 0; i < 8; ++i) d[i][i ^ 1] = 0;
  const std::string inst = temp_file("assign_atsp_groups.atsp", tsplib_text(d));
  const long long best = brute_force_min(8, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  const uint64_t assignment = run_cpu(problem("atsp.toml"), inst, "lb=1", 1, best).evaluated;
  const uint64_t arborescence = run_cpu(problem("atsp.toml"), inst, "lb=2", 1, best).evaluated;
  CHECK(arborescence < assignment);
  CHECK(run_cpu(problem("atsp.toml"), inst, "lb=4", 1, best).evaluated == arborescence);
  CHECK(run_cpu(problem("atsp.toml"), inst, "lb=3", 1, best).evaluated <= arborescence);
}

TEST_CASE("qap lb=2: brute-force optima, and counts that do not depend on threads", "[e2e][assign]") {
  for (unsigned seed : {91u, 92u}) {
    INFO("seed " << seed);
    const Matrix a = random_matrix(8, 0, 9, seed), b = random_matrix(8, 0, 9, seed + 50);
    const std::string inst = temp_file("assign_qap" + std::to_string(seed) + ".dat", qaplib_text(a, b));
    const long long best = brute_force_min(8, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
    check_optimum_and_counts(problem("qap.toml"), inst, "lb=2", best);
  }
}

TEST_CASE("the assignment bounds prune more than the bounds they tighten", "[e2e][assign]") {
  const Matrix d = random_matrix(9, 1, 60, 84);
  const std::string atsp = temp_file("assign_atsp_prune.atsp", tsplib_text(d));
  const long long tour = brute_force_min(9, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  CHECK(run_cpu(problem("atsp.toml"), atsp, "lb=1", 1, tour).evaluated <
        run_cpu(problem("atsp.toml"), atsp, "lb=0", 1, tour).evaluated);
  const Matrix a = random_matrix(8, 0, 9, 93), b = random_matrix(8, 0, 9, 94);
  const std::string qap = temp_file("assign_qap_prune.dat", qaplib_text(a, b));
  const long long best = brute_force_min(8, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
  CHECK(run_cpu(problem("qap.toml"), qap, "lb=2", 1, best).evaluated <
        run_cpu(problem("qap.toml"), qap, "lb=1", 1, best).evaluated);
}
