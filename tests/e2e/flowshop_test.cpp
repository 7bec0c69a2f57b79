// Flowshop (problems/flowshop.toml, LB1 and LB2 written in the spec) on the CPU
// backend, with forward branching and with jobs placed at both ends (branching=2):
// optima equal brute force on random instances, Taillard 20x5 optima from scratch, and
// with --ub at the optimum the proof explores the same tree for any thread count and
// split depth.
#include <catch2/catch.hpp>

#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

std::string taillard(const std::string& name) { return instance("flowshop/" + name + ".txt"); }

// From scratch: the optimum, and a permutation whose makespan is the optimum.
void solves_to_optimum(const std::string& name, const std::vector<std::string>& params) {
  long long opt = taillard_optimum(name);
  REQUIRE(opt > 0);
  SolveResult r = run(problem("flowshop.toml"), taillard(name), params);
  INFO(name << " " << params.back());
  REQUIRE(r.found);
  CHECK(r.objective == opt);
  CHECK(makespan(read_taillard(taillard(name)), r.permutation) == opt);
}

// --ub at the optimum: nothing better; the same counts for every threads/split.
void proof_counts_agree(const std::string& name, const std::vector<std::string>& params) {
  long long opt = taillard_optimum(name);
  REQUIRE(opt > 0);
  SolveResult one = run(problem("flowshop.toml"), taillard(name), params, 1, opt);
  CHECK_FALSE(one.found);
  for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 3}}) {
    SolveResult r = run(problem("flowshop.toml"), taillard(name), params, threads, opt, split);
    INFO(name << " " << params.back() << ", threads " << threads << ", split " << split);
    CHECK_FALSE(r.found);
    CHECK(r.expanded == one.expanded);
    CHECK(r.evaluated == one.evaluated);
  }
}

}  // namespace

TEST_CASE("flowshop optimum equals brute force, with LB1 and with LB2", "[e2e][flowshop]") {
  for (auto [jobs, machines, seed] : {std::tuple{7, 3, 1u}, std::tuple{8, 4, 2u}, std::tuple{8, 6, 3u}}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed);
    std::string inst = temp_file("flowshop" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (const char* branching : {"branching=1", "branching=2"}) {
      for (const char* lb : {"lb=1", "lb=2"}) {
        SolveResult r = run(problem("flowshop.toml"), inst, {lb, branching});
        INFO(jobs << "x" << machines << " " << lb << " " << branching);
        REQUIRE(r.found);
        CHECK(r.objective == best);
        CHECK(makespan(f, r.permutation) == best);
        SolveResult at_opt = run(problem("flowshop.toml"), inst, {lb, branching}, 2, best);
        CHECK_FALSE(at_opt.found);
        // --ub one above: an optimal schedule, whichever end its jobs were placed at.
        SolveResult above = run(problem("flowshop.toml"), inst, {lb, branching}, 2, best + 1);
        REQUIRE(above.found);
        CHECK(makespan(f, above.permutation) == best);
      }
      // LB2 is max(LB1, LB2): never more nodes than LB1 alone at the optimum.
      SolveResult lb1 = run(problem("flowshop.toml"), inst, {"lb=1", branching}, 1, best);
      SolveResult lb2 = run(problem("flowshop.toml"), inst, {"lb=2", branching}, 1, best);
      CHECK(lb2.evaluated <= lb1.evaluated);
    }
  }
}

// The instances that a 2-core machine solves from scratch in seconds with forward
// branching (ta001, ta005, ta006, ta008 and ta010 take minutes; see the [slow] case).
TEST_CASE("Taillard ta002, ta007 from scratch reach their optima", "[e2e][flowshop]") {
  for (const char* name : {"ta002", "ta007"}) solves_to_optimum(name, {"lb=2"});
}

// Jobs at both ends, the end chosen per node: every 20x5 instance in well under a second.
TEST_CASE("Taillard ta001-ta010 from scratch with jobs placed at both ends", "[e2e][flowshop]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta005", "ta006", "ta007", "ta008", "ta009", "ta010"})
    solves_to_optimum(name, {"lb=2", "branching=2"});
}

TEST_CASE("Taillard 20x5 proofs at the optimum: counts agree across threads and splits", "[e2e][flowshop][counts]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta007", "ta009"}) proof_counts_agree(name, {"lb=2"});
  for (const char* name : {"ta001", "ta005", "ta006"}) proof_counts_agree(name, {"lb=2", "branching=2"});
}

// Minutes on two cores; run with: permjit_e2e_tests "[slow]"
TEST_CASE("Taillard ta001-ta010 from scratch and every proof", "[.][e2e][flowshop][slow]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta005", "ta006", "ta007", "ta008", "ta009", "ta010"})
    solves_to_optimum(name, {"lb=2"});
  for (const char* name : {"ta005", "ta006", "ta008", "ta010"}) proof_counts_agree(name, {"lb=2"});
}

// --time-limit on a search that needs minutes (ta001 forward from scratch): it stops,
// says so, and reports what it did: a feasible schedule and the nodes it searched. A
// search that ends first is complete.
TEST_CASE("a time limit stops the cpu search and marks the result partial", "[e2e][flowshop][time_limit]") {
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = taillard("ta001");
  o.backend = "cpu";
  o.threads = 2;
  o.time_limit = 1;
  o.cache_dir = cache_dir();
  SolveResult r = solve(o);
  CHECK(r.stopped);
  CHECK(r.evaluated > 0);
  REQUIRE(r.found);
  CHECK(r.objective >= taillard_optimum("ta001"));
  CHECK(makespan(read_taillard(taillard("ta001")), r.permutation) == r.objective);
  CHECK_THAT(format_json(r), Catch::Contains("\"complete\":false"));
  o.load.params = {"branching=2"};
  o.time_limit = 600;
  SolveResult done = solve(o);
  CHECK_FALSE(done.stopped);
  CHECK(done.objective == taillard_optimum("ta001"));
}
