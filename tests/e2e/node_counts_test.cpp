// With the upper bound fixed at the optimum nothing better exists, so the explored
// tree cannot depend on search order: node counts must be the same for any number of
// threads and any split depth. For counting problems the tree is fixed anyway.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("N-Queens node counts do not depend on threads or split", "[e2e][counts]") {
  SolveResult one = run(problem("nqueens.toml"), "", {"n=10"}, 1);
  for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 4}, std::pair{1, 2}}) {
    SolveResult r = run(problem("nqueens.toml"), "", {"n=10"}, threads, {}, split);
    INFO("threads " << threads << ", split " << split);
    CHECK(r.solutions == one.solutions);
    CHECK(r.expanded == one.expanded);
    CHECK(r.evaluated == one.evaluated);
  }
}

TEST_CASE("ATSP and QAP node counts with --ub at the optimum", "[e2e][counts]") {
  Matrix d = random_matrix(9, 1, 40, 21);
  std::string atsp = temp_file("atsp_counts.atsp", tsplib_text(d));
  Matrix a = random_matrix(8, 0, 9, 31), b = random_matrix(8, 0, 9, 32);
  std::string qap = temp_file("qap_counts.dat", qaplib_text(a, b));
  struct Case {
    std::string spec, inst;
  };
  for (const Case& c : {Case{problem("atsp.toml"), atsp}, Case{problem("qap.toml"), qap}}) {
    SolveResult scratch = run(c.spec, c.inst);
    REQUIRE(scratch.found);
    long long opt = scratch.objective;
    SolveResult one = run(c.spec, c.inst, {}, 1, opt);
    // Nothing is better than the optimum: no solution is reported, only the proof.
    CHECK_FALSE(one.found);
    CHECK(one.expanded > 0);
    for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 3}}) {
      SolveResult r = run(c.spec, c.inst, {}, threads, opt, split);
      INFO(c.spec << ", threads " << threads << ", split " << split);
      CHECK_FALSE(r.found);
      CHECK(r.expanded == one.expanded);
      CHECK(r.evaluated == one.evaluated);
    }
    // One above the optimum: an optimal solution is found and proved.
    SolveResult above = run(c.spec, c.inst, {}, 2, opt + 1);
    CHECK(above.found);
    CHECK(above.objective == opt);
  }
}

// Two ends (branch.ends = 2), counting: a node's children are all of one end, so every
// permutation is reached once; both ends are evaluated except at the last position.
// Counts, for 5 values: expanded 1 + 5 + 20 + 60 + 120 = 206 (depths 0 to 4); evaluated
// at the front as with one end, 5 + 20 + 60 + 120 + 120 = 325, and at the back for
// depths 0 to 3 (the last position is the same from both ends), 5 + 20 + 60 + 120 = 205.
TEST_CASE("two ends: every permutation once, both ends evaluated", "[e2e][counts]") {
  std::string spec = temp_file("two_ends_count.toml", R"(
[problem]
name = "two_ends_count"
goal = "count"
size = "5"

[state]
placed = "int"

[branch]
ends = 2
place = { placed = "placed + 1" }
place_back = { placed = "placed + 1" }
)");
  for (auto [threads, split] : {std::pair{1, 0}, std::pair{2, 0}, std::pair{2, 2}}) {
    SolveResult r = run(spec, "", {}, threads, {}, split);
    INFO("threads " << threads << ", split " << split);
    CHECK(r.solutions == 120);
    CHECK(r.expanded == 206);
    CHECK(r.evaluated == 325 + 205);
  }
}
