// Decision and enumeration on the cpu skeleton (runtime/core/decision.hpp): goal = "find",
// --target, --list and --all-optimal, against brute force.
#include <catch2/catch.hpp>

#include <set>

#include "decision_support.hpp"
#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("listing writes the 92 solutions of N-Queens 8, each valid and distinct, as many as counted",
          "[e2e][decision]") {
  for (int threads : {1, 2}) {
    INFO("threads " << threads);
    SolveOptions o = listing(problem("nqueens.toml"), "cpu", "q8.txt");
    o.load.params = {"n=8"};
    o.load.ignore_symmetry = true;  // every solution, not one of each mirrored pair
    o.threads = threads;
    o.list = 0;
    const SolveResult r = solve(o);
    const std::vector<Perm> listed = read_listed(o.list_out);
    CHECK(r.solutions == 92);
    CHECK(r.listed == 92u);
    CHECK(!r.stopped);
    CHECK(!r.reached_limit);
    REQUIRE(listed.size() == 92);
    CHECK(std::set<Perm>(listed.begin(), listed.end()).size() == 92);
    for (const Perm& p : listed) {
      REQUIRE(p.size() == 8);
      CHECK(queens_valid(p));
    }
  }
}

TEST_CASE("listing N stops after N solutions: N listed, N counted", "[e2e][decision]") {
  SolveOptions o = listing(problem("nqueens.toml"), "cpu", "q10-first.txt");
  o.load.params = {"n=10"};
  o.load.ignore_symmetry = true;
  o.list = 7;
  const SolveResult r = solve(o);
  const std::vector<Perm> listed = read_listed(o.list_out);
  CHECK(r.reached_limit);
  CHECK(!r.stopped);  // it answered what was asked
  CHECK(r.solutions == 7);
  CHECK(r.listed == 7u);
  REQUIRE(listed.size() == 7);
  for (const Perm& p : listed) CHECK(queens_valid(p));
  CHECK(std::set<Perm>(listed.begin(), listed.end()).size() == 7);
}

TEST_CASE("goal = find returns a valid placement, or says that none exists", "[e2e][decision]") {
  const std::string spec = nqueens_find_spec();
  SolveOptions o = listing(spec, "cpu", "unused.txt");
  o.list_out.clear();
  o.load.params = {"n=27"};
  SolveResult r = solve(o);
  CHECK(r.found);
  CHECK(r.reached_limit);
  CHECK(r.solutions == 1);
  REQUIRE(r.permutation.size() == 27);
  CHECK(queens_valid(r.permutation));
  for (const char* n : {"n=2", "n=3"}) {
    o.load.params = {n};
    r = solve(o);
    CHECK(!r.found);
    CHECK(!r.stopped);  // the whole tree was searched: none exists
    CHECK(!r.reached_limit);
    CHECK(r.solutions == 0);
  }
}

TEST_CASE("a target stops at a permutation at least as good, or proves that none is", "[e2e][decision]") {
  for (unsigned seed : {3u, 4u, 5u}) {
    const Matrix d = random_matrix(8, 1, 40, seed);
    const std::string inst = temp_file("target" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long opt = brute_force_min(8, true, [&](const Perm& p) { return tour_cost(d, p); });
    INFO("seed " << seed << ", optimum " << opt);
    SolveOptions o = listing(problem("atsp.toml"), "cpu", "unused.txt");
    o.list_out.clear();
    o.load.instance_path = inst;
    for (long long target : {opt, opt + 25}) {
      o.target = target;
      const SolveResult r = solve(o);
      CHECK(r.found);
      CHECK(r.reached_limit);
      CHECK(r.objective <= target);
      CHECK(tour_cost(d, r.permutation) == r.objective);
    }
    o.target = opt - 1;
    const SolveResult none = solve(o);
    CHECK(!none.found);
    CHECK(!none.stopped);
    CHECK(!none.reached_limit);
  }
}

TEST_CASE("all-optimal lists every optimal tour of small ATSP instances", "[e2e][decision]") {
  for (unsigned seed : {11u, 12u, 13u}) {
    // Costs 1..4: many tours tie at the optimum.
    const Matrix d = random_matrix(7, 1, 4, seed);
    const std::string inst = temp_file("allopt" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const std::set<Perm> expect = brute_force_optimal(7, true, [&](const Perm& p) { return tour_cost(d, p); });
    INFO("seed " << seed << ", optimal tours " << expect.size());
    SolveOptions o = listing(problem("atsp.toml"), "cpu", "allopt.txt");
    o.load.instance_path = inst;
    o.all_optimal = true;
    const SolveResult r = solve(o);
    const std::vector<Perm> listed = read_listed(o.list_out);
    CHECK(r.found);
    CHECK(r.objective == tour_cost(d, *expect.begin()));
    CHECK(r.listed == expect.size());
    CHECK(listed.size() == expect.size());
    CHECK(std::set<Perm>(listed.begin(), listed.end()) == expect);
  }
}

TEST_CASE("all-optimal lists every optimal schedule of small flowshops, one end or two, every bound",
          "[e2e][decision]") {
  for (unsigned seed : {21u, 22u}) {
    // Times 1..5 on 7 jobs: ties at the optimum.
    const FlowshopInstance f = random_flowshop(7, 3, seed, 5);
    const std::string inst = temp_file("allopt-fs" + std::to_string(seed) + ".txt", taillard_text(f));
    const std::set<Perm> expect = brute_force_optimal(7, false, [&](const Perm& p) { return makespan(f, p); });
    for (const char* branching : {"branching=1", "branching=2"})
      for (const char* lb : {"lb=1", "lb=2", "lb=3"}) {
        INFO("seed " << seed << ", " << branching << ", " << lb << ", optimal schedules " << expect.size());
        SolveOptions o = listing(problem("flowshop.toml"), "cpu", "allopt-fs.txt");
        o.load.instance_path = inst;
        o.load.params = {branching, lb};
        o.all_optimal = true;
        const SolveResult r = solve(o);
        const std::vector<Perm> listed = read_listed(o.list_out);
        CHECK(r.objective == makespan(f, *expect.begin()));
        CHECK(std::set<Perm>(listed.begin(), listed.end()) == expect);
        CHECK(listed.size() == expect.size());
      }
  }
}

TEST_CASE("decision and listing options out of place are refused at their place", "[e2e][decision][options]") {
  SolveOptions count = listing(problem("nqueens.toml"), "cpu", "refused.txt");
  count.load.ignore_symmetry = true;
  count.target = 3;
  check_command_line_error([&] { solve(count); }, 1, "--target applies to minimize and maximize problems");
  count.target.reset();
  count.all_optimal = true;
  check_command_line_error([&] { solve(count); }, 1, "--all-optimal applies to minimize and maximize problems");
  count.all_optimal = false;
  check_command_line_error([&] { solve(count); }, 1, "--out is where --list or --all-optimal write");
  count.list = 0;
  count.list_format = "xml";
  check_command_line_error([&] { solve(count); }, 15, "unknown value 'xml' of --list-format");

  SolveOptions atsp = listing(problem("atsp.toml"), "cpu", "refused.txt");
  atsp.load.instance_path = instance("atsp/br17.atsp");
  atsp.list = 5;
  check_command_line_error([&] { solve(atsp); }, 1, "--list writes the solutions of a count or find problem");
  atsp.list.reset();
  atsp.target = LLONG_MAX;
  check_command_line_error([&] { solve(atsp); }, 10, "has no value one past it");
  atsp.all_optimal = true;
  atsp.target = 39;
  check_command_line_error([&] { solve(atsp); }, 1, "--target and --all-optimal ask different questions");
}

TEST_CASE("a list buffer without a list, and a checkpoint with a decision, are refused at their place",
          "[e2e][decision][options]") {
  SolveOptions o = listing(problem("nqueens.toml"), "dfs", "unused.txt");  // refused before it needs a GPU
  o.list_out.clear();
  o.list_buffer = 100;
  check_command_line_error([&] { solve(o); }, 1, "--list-buffer sizes the device buffer of --list");
  o.skeleton = "cpu";
  o.list_buffer = 0;
  o.load.ignore_symmetry = true;
  o.list = 0;
  o.checkpoint = temp_file("decision.ckpt", "");
  check_command_line_error([&] { solve(o); }, 1, "does not keep the solutions a run has listed");
}

TEST_CASE("goal = find on a skeleton that cannot stop at a solution is refused at the goal", "[e2e][decision]") {
  SolveOptions o = listing(nqueens_find_spec(), "offload", "unused.txt");
  o.list_out.clear();
  const Diagnostic d = first_user_error([&] { solve(o); });
  CHECK(d.loc.line == 11);  // goal = "find" in the copy of nqueens.toml
  CHECK_THAT(d.message, Catch::Contains("does not stop at a solution"));
}

TEST_CASE("an output file that cannot be written is refused before the search", "[e2e][decision]") {
  SolveOptions o = listing(problem("nqueens.toml"), "cpu", "unused.txt");
  o.load.ignore_symmetry = true;
  o.list = 0;
  o.list_out = "/nonexistent-dir/solutions.txt";
  check_command_line_error([&] { solve(o); }, 7, "cannot write '/nonexistent-dir/solutions.txt'");
}
