// Anytime answers (docs/reliability.md, "Partial answers"): a search stopped by its time
// limit reports the best found, a proven bound and the gap, and the bound is valid: at
// most the optimum (from brute force, which shares no code with permjit) and at least
// the root's bound; an IDA* search stopped inside an iteration proves that no path costs
// less than the limit it reached, also on a board with no path at all.
#include <catch2/catch.hpp>
#include <fstream>

#include "e2e_support.hpp"
#include "runtime/core/result.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

SolveOptions cpu_options(const std::string& spec, const std::string& instance, std::vector<std::string> params,
                         int threads, double seconds) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.instance_path = instance;
  o.load.params = std::move(params);
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = threads;
  o.time_limit = seconds;
  o.cache_dir = cache_dir();
  return o;
}

// Limits from a fraction of a millisecond to a second: the short ones stop the search
// at different places (the frontier, inside a subtree), the long one lets it finish.
const double kLimits[] = {0.0002, 0.001, 0.003, 0.01, 0.03, 0.1, 1.0};

}  // namespace

TEST_CASE("a stopped ATSP search proves a bound between the root's and the brute-force optimum",
          "[e2e][partial][time_limit]") {
  int partial = 0, from_open = 0;
  for (unsigned seed : {11u, 12u}) {
    // Arcs of 50 to 60: the partial-cost bound (lb=0) prunes little, and the search
    // takes a few tenths of a second, so that the short limits stop it inside the tree.
    const Matrix d = random_matrix(11, 50, 60, seed);
    const std::string inst = temp_file("partial_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long optimum = brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    for (const char* lb : {"lb=0", "lb=1"})
      for (double limit : kLimits) {
        INFO("seed " << seed << ", " << lb << ", --time-limit " << limit);
        SolveResult r = solve(cpu_options(problem("atsp.toml"), inst, {lb}, 1, limit));
        if (!r.stopped) {
          CHECK(r.objective == optimum);
          CHECK_FALSE(r.proven_bound);
          continue;
        }
        ++partial;
        check_proven_bound(r, optimum);
        if (r.found) CHECK(tour_cost(d, r.permutation) == r.objective);
        if (r.bound_from.find("open subtrees") != std::string::npos) ++from_open;
        const std::string json = format_json(r);
        CHECK_THAT(json, Catch::Contains("\"proven_bound\":" + std::to_string(*r.proven_bound)));
        CHECK_THAT(format_human(r), Catch::Contains("bound       " + std::to_string(*r.proven_bound)));
      }
  }
  // The limits stopped some searches, and some inside the tree, where the open
  // subtrees' bounds count (not only the root's): else this test checked little.
  CHECK(partial > 0);
  CHECK(from_open > 0);
}

TEST_CASE("a time limit that stops the frontier's build inside a level leaves a valid bound",
          "[e2e][partial][time_limit]") {
  // --split-depth 8 asks for a frontier of 1.8 million nodes of an 11-city tour, built
  // breadth-first on two threads: the limits stop the build inside a level, where the
  // parents not expanded yet stay in the frontier beside the children of the others.
  const Matrix d = random_matrix(11, 50, 60, 13u);
  const std::string inst = temp_file("partial_atsp_split.atsp", tsplib_text(d));
  const long long optimum = brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  int partial = 0;
  for (double limit : {0.003, 0.01, 0.03, 0.1}) {
    INFO("--time-limit " << limit);
    // lb=0 (the partial tour's cost) prunes nothing this shallow: the frontier is whole.
    SolveOptions o = cpu_options(problem("atsp.toml"), inst, {"lb=0"}, 2, limit);
    o.split_depth = 8;
    SolveResult r = solve(o);
    if (!r.stopped) {
      CHECK(r.objective == optimum);
      continue;
    }
    ++partial;
    REQUIRE(r.proven_bound);
    CHECK(*r.proven_bound <= optimum);
    CHECK(*r.proven_bound >= *r.root_bound);
    if (r.found) CHECK(tour_cost(d, r.permutation) == r.objective);
  }
  CHECK(partial > 0);
}

TEST_CASE("the time limit counts the frontier's build: a deep --split-depth stops near the limit",
          "[e2e][partial][time_limit]") {
  // N-Queens 17 split 11 levels down would build a frontier of hundreds of millions of
  // nodes. The frontier and the search below it share the one deadline, and a level
  // that cannot be built in the time left is not started: the search stops within a
  // fraction of the limit (the frontier's build used to take the limit and the search
  // the limit again, after levels of gigabytes).
  SolveOptions o = cpu_options(problem("nqueens.toml"), "", {"n=17"}, 2, 0.5);
  o.split_depth = 11;
  SolveResult r = solve(o);
  REQUIRE(r.stopped);
  CHECK(r.open_subtrees > 0);
  CHECK(r.t_search < 1.0);
}

TEST_CASE("a stopped count reports the count so far and the subtrees left", "[e2e][partial][time_limit]") {
  SolveOptions o = cpu_options(problem("nqueens.toml"), "", {"n=13"}, 1, 0.01);
  SolveResult r = solve(o);
  REQUIRE(r.stopped);
  CHECK(r.solutions < 73712);  // N-Queens 13 has 73,712 solutions
  CHECK(r.open_subtrees > 0);
  CHECK_FALSE(r.proven_bound);
  CHECK_THAT(format_json(r), Catch::Contains("\"open_subtrees\":" + std::to_string(r.open_subtrees)));
}

TEST_CASE("IDA* with a time limit: an unsolvable 8-puzzle ends partial with the limit reached",
          "[e2e][partial][path][time_limit]") {
  // Two tiles swapped: the wrong parity, no path to the goal; each iteration is longer
  // than the one before, and without a limit the search would not end.
  const std::string board = temp_file("partial_p8_unsolvable.txt", "1 2 3 4 5 6 8 7 0\n");
  SolveOptions o = cpu_options(problem("puzzle15.toml"), board, {"w=3"}, 2, 0.3);
  SolveResult r = solve(o);
  REQUIRE(r.stopped);
  CHECK_FALSE(r.found);
  REQUIRE(r.proven_bound);
  REQUIRE_FALSE(r.iterations.empty());
  CHECK(*r.proven_bound == r.iterations.back().limit);
  CHECK(*r.proven_bound >= r.start_h);
  CHECK(r.iterations.size() >= 2);  // 0.3 s reach past the first iterations
  CHECK_THAT(format_human(r), Catch::Contains("cost        none found before the search stopped"));
  CHECK_THAT(format_json(r), Catch::Contains("\"complete\":false"));
}

TEST_CASE("IDA* with a time limit: a stopped search's bound is at most the optimal length",
          "[e2e][partial][path][time_limit]") {
  // Korf's 15-puzzle instance 1: 57 moves, minutes of IDA* with Manhattan alone (pdb=0:
  // the pattern databases prove it in well under a second) on two cores; each limit
  // stops it in an iteration, and the limit reached is at most 57.
  std::vector<int> optimal;
  std::ifstream in(instance("15puzzle/korf100_optimal.txt"));
  for (int x; in >> x;) optimal.push_back(x);
  REQUIRE(optimal.size() == 100);
  for (double limit : {0.001, 0.01, 0.1, 0.5}) {
    INFO("--time-limit " << limit);
    SolveOptions o = cpu_options(problem("puzzle15.toml"), instance("15puzzle/korf100.txt"), {"pdb=0"}, 2, limit);
    o.load.instance_record = 1;
    SolveResult r = solve(o);
    REQUIRE(r.stopped);
    CHECK_FALSE(r.found);
    REQUIRE(r.proven_bound);
    CHECK(*r.proven_bound <= optimal[0]);
    CHECK(*r.proven_bound >= r.start_h);
    CHECK(*r.proven_bound == r.iterations.back().limit);
  }
}
