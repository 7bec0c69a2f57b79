// The cpu skeleton's work stealing (templates/cpu_work_pool.hpp): a thread that runs
// out of subtrees takes half of the shallowest open level of a busy thread's stack. The
// trees here are unbalanced on purpose (split at depth 1: a few subtrees of very
// different sizes for more threads than cores), so threads go idle and busy ones give
// work away; the counts must be those of one thread, and the runs must have donated.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// problems/nqueens.toml without its [symmetry]: the whole tree, whose first level's
// subtrees differ most in size.
std::string nqueens_whole_tree() {
  std::ifstream in(problem("nqueens.toml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const size_t at = s.find("\n[symmetry]");
  REQUIRE(at != std::string::npos);
  return temp_file("nqueens_whole_tree.toml", s.substr(0, at + 1));
}

struct Case {
  std::string name, spec, inst;
  std::vector<std::string> params;
  std::optional<long long> ub;
};

}  // namespace

TEST_CASE("cpu work stealing: idle threads take subtrees from busy ones, counts as one thread", "[e2e][counts]") {
  auto ta = [](const std::string& name) { return instance("flowshop/" + name + ".txt"); };
  const std::vector<Case> cases = {
      {"N-Queens 12", nqueens_whole_tree(), "", {"n=12"}, {}},
      {"flowshop ta004 forward, LB2, at the optimum", problem("flowshop.toml"), ta("ta004"), {"branching=1", "lb=2"},
       taillard_optimum("ta004")},
      {"flowshop ta014 two ends, LB2, at the optimum", problem("flowshop.toml"), ta("ta014"),
       {"lb=2", "branching=2"}, taillard_optimum("ta014")},
  };
  for (const Case& c : cases) {
    SolveResult one = run(c.spec, c.inst, c.params, 1, c.ub);
    REQUIRE(one.expanded > 1000);
    // Whether a thread runs dry while another is busy depends on the scheduler: on a
    // loaded 2-core machine (ctest -j2 beside a build) the threads of N-Queens 12 once ran
    // one after another and gave nothing. So a case gets three tries to show a donation;
    // the totals are checked on every run.
    unsigned long long donated = 0;
    for (int attempt = 0; attempt < 3 && donated == 0; ++attempt) {
      for (int threads : {3, 4}) {
        SolveResult r = run(c.spec, c.inst, c.params, threads, c.ub, 1);
        INFO(c.name << ", threads " << threads << ", split 1, " << r.donations << " donations");
        CHECK_FALSE(r.stopped);
        CHECK(r.found == one.found);
        CHECK(r.solutions == one.solutions);
        CHECK(r.expanded == one.expanded);
        CHECK(r.evaluated == one.evaluated);
        donated += r.donations;
      }
    }
    INFO(c.name);
    CHECK(donated > 0);
  }
}
