// Decision and enumeration on the GPU skeletons that take them (dfs, ivm, cdp, rec): the same
// answers as the cpu skeleton and brute force, with nothing lost or listed twice when the
// device's solution buffer fills.
#include <catch2/catch.hpp>

#include <unordered_set>

#include "../e2e/decision_support.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
const char* const kListing[] = {"dfs", "ivm", "cdp", "rec"};

std::string key_of(const Perm& p) { return std::string(p.begin(), p.end()); }

// N-Queens n listed by `sk` to a file of its own: every solution (the whole tree, not
// one of each mirrored pair), the first `limit` with a limit.
SolveOptions queens_list(const char* sk, int n, unsigned long long limit = 0) {
  SolveOptions o = listing(problem("nqueens.toml"), sk,
                           "gpu-q" + std::to_string(n) + "-" + std::to_string(limit) + "-" + sk + ".txt");
  o.load.params = {"n=" + std::to_string(n)};
  o.load.ignore_symmetry = true;
  o.list = limit;
  return o;
}
}  // namespace

TEST_CASE("the GPU skeletons list the 92 solutions of N-Queens 8, each valid and distinct", "[decision]") {
  for (const char* sk : kListing) {
    INFO(sk);
    const SolveOptions o = queens_list(sk, 8);
    const SolveResult r = solve(o);
    const std::vector<Perm> listed = read_listed(o.list_out);
    CHECK(r.skeleton == sk);
    CHECK(r.solutions == 92);
    CHECK(r.listed == 92u);
    REQUIRE(listed.size() == 92);
    CHECK(std::set<Perm>(listed.begin(), listed.end()).size() == 92);
    for (const Perm& p : listed) CHECK(queens_valid(p));
  }
}

TEST_CASE("a list larger than the device buffer (N-Queens 14: 365,596) loses nothing and repeats nothing",
          "[decision]") {
  for (const char* sk : kListing) {
    INFO(sk);
    SolveOptions o = queens_list(sk, 14);
    o.list_buffer = 1000;  // full many times over: dfs, cdp and rec search chunks again, ivm keeps leaves for the next round
    const SolveResult r = solve(o);
    const std::vector<Perm> listed = read_listed(o.list_out);
    CHECK(r.solutions == 365596);
    CHECK(r.listed == 365596u);
    REQUIRE(listed.size() == 365596);
    std::unordered_set<std::string> distinct;
    size_t invalid = 0;
    for (const Perm& p : listed) {
      distinct.insert(key_of(p));
      if (!queens_valid(p)) ++invalid;
    }
    CHECK(distinct.size() == 365596);
    CHECK(invalid == 0);
  }
}

TEST_CASE("the GPU skeletons stop after --list N with N listed and counted", "[decision]") {
  for (const char* sk : kListing) {
    INFO(sk);
    const SolveOptions o = queens_list(sk, 12, 1000);
    const SolveResult r = solve(o);
    const std::vector<Perm> listed = read_listed(o.list_out);
    CHECK(r.reached_limit);
    CHECK(!r.stopped);
    CHECK(r.solutions == 1000);
    REQUIRE(listed.size() == 1000);
    CHECK(std::set<Perm>(listed.begin(), listed.end()).size() == 1000);
    for (const Perm& p : listed) CHECK(queens_valid(p));
  }
}

TEST_CASE("goal = find on the GPU skeletons: a valid N-Queens 27 placement; none for n = 3", "[decision]") {
  const std::string spec = nqueens_find_spec();
  for (const char* sk : kListing) {
    INFO(sk);
    SolveOptions o = listing(spec, sk, "unused.txt");
    o.list_out.clear();
    o.load.params = {"n=27"};
    SolveResult r = solve(o);
    CHECK(r.found);
    CHECK(r.reached_limit);
    REQUIRE(r.permutation.size() == 27);
    CHECK(queens_valid(r.permutation));
    WARN(sk << ": N-Queens 27 found in " << r.t_search << " s of search (" << r.t_total
            << " s in all), the search stopped " << r.find_to_exit << " s after the find");
    o.load.params = {"n=3"};
    r = solve(o);
    CHECK(!r.found);
    CHECK(!r.stopped);
    CHECK(!r.reached_limit);
  }
}

TEST_CASE("a target on the GPU skeletons: a tour at least as good, or proof that none is", "[decision]") {
  for (unsigned seed : {41u, 42u}) {
    const Matrix d = random_matrix(10, 1, 60, seed);
    const std::string inst = temp_file("gpu-target" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long opt = brute_force_min(10, true, [&](const Perm& p) { return tour_cost(d, p); });
    for (const char* sk : kListing) {
      INFO(sk << ", seed " << seed << ", optimum " << opt);
      SolveOptions o = listing(problem("atsp.toml"), sk, "unused.txt");
      o.list_out.clear();
      o.load.instance_path = inst;
      o.load.params = {"lb=0"};  // the partial cost: the bound these tests were written for
      o.warm_start = 0;
      o.target = opt;
      SolveResult r = solve(o);
      CHECK(r.found);
      CHECK(r.objective == opt);
      CHECK(tour_cost(d, r.permutation) == opt);
      CHECK(r.reached_limit);
      o.target = opt - 1;
      r = solve(o);
      CHECK(!r.found);
      CHECK(!r.stopped);
      CHECK(!r.reached_limit);
    }
  }
}
