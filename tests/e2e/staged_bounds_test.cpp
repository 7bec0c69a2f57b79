// Staged bounds (docs/spec-language.md, "Staged bounds") on the CPU backend, with
// problems/flowshop.toml's lb = 3: LB1 as the cheap bound, LB2 as its refinement.
// Optima equal brute force with one end and with two; with one end, at a fixed --ub,
// the search prunes and counts exactly as lb = 2 (max(LB1, LB2) for every child); the
// offload skeleton's host side bounds in two stages against the incumbent it sends;
// `check --verify-bound` checks the refinement and reports a bad one at `refine`.
// Modules dominate the time here: the random instances share one shape and read their
// values at run time.
#include <catch2/catch.hpp>

#include <fstream>
#include <optional>
#include <sstream>

#include "dsl/load_spec.hpp"
#include "flowshop_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/offload_module.hpp"
#include "runtime/verify_bound.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// The cpu skeleton with the instance's values read at run time: one module serves every
// instance of a shape (the random instances below share one).
SolveResult run_shape(const std::string& inst, std::vector<std::string> params, int threads = 2,
                      std::optional<long long> ub = {}, int split_depth = 0) {
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = inst;
  o.load.params = std::move(params);
  o.load.data = "run-time";
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = threads;
  o.ub = ub;
  o.split_depth = split_depth;
  o.cache_dir = cache_dir();
  return solve(o);
}

}  // namespace

TEST_CASE("flowshop lb=3 (LB1, then LB2): brute-force optima, and lb=2's tree with one end",
          "[e2e][flowshop][stages]") {
  const int jobs = 7, machines = 4;
  for (unsigned seed : {31u, 32u, 33u}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed);
    std::string inst = temp_file("staged" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (const char* branching : {"branching=1", "branching=2"}) {
      INFO("seed " << seed << " " << branching);
      SolveResult r = run_shape(inst, {"lb=3", branching});
      REQUIRE(r.found);
      CHECK(r.objective == best);
      CHECK(makespan(f, r.permutation) == best);
      SolveResult above = run_shape(inst, {"lb=3", branching}, 2, best + 1);
      REQUIRE(above.found);
      CHECK(makespan(f, above.permutation) == best);
      SolveResult staged = run_shape(inst, {"lb=3", branching}, 2, best);
      CHECK_FALSE(staged.found);
      if (std::string(branching) == "branching=1") {
        // One end: LB2 refines exactly the children LB1 does not prune, and max(LB1, LB2)
        // prunes a child iff one of them does: the same tree as lb=2.
        SolveResult both = run_shape(inst, {"lb=2", branching}, 1, best);
        CHECK(staged.expanded == both.expanded);
        CHECK(staged.evaluated == both.evaluated);
      } else {
        // Two ends, the end chosen on LB1: the counts at the optimum still do not
        // depend on threads or the split.
        for (auto [threads, split] : {std::pair{1, 0}, std::pair{2, 3}}) {
          SolveResult other = run_shape(inst, {"lb=3", branching}, threads, best, split);
          CHECK(other.expanded == staged.expanded);
          CHECK(other.evaluated == staged.evaluated);
        }
      }
    }
  }
}

TEST_CASE("offload's host side bounds in two stages: the cpu skeleton's totals at the optimum",
          "[e2e][offload][stages]") {
  FlowshopInstance f = random_flowshop(7, 4, 31);
  std::string inst = temp_file("staged_offload.txt", taillard_text(f));
  long long best = brute_force_min(7, false, [&](const std::vector<int>& order) { return makespan(f, order); });
  SolveResult cpu = run_shape(inst, {"branching=1", "lb=3"}, 2, best);
  ProblemSpec spec = load(problem("flowshop.toml"), inst, {"branching=1", "lb=3"});
  OffloadModule m(units_of("offload", spec, generate_problem(spec)).host.value(), ModuleCache(cache_dir()));
  for (bool branch : {false, true}) {
    OffloadOptions o;
    o.branch_on_device = branch;
    o.batch = 16;
    o.ub = best;
    HostOffloadDevice dev(m, o.slots());
    OffloadOutcome out = m.search(o, dev.device());
    INFO((branch ? "branch" : "bound"));
    CHECK(out.device_rc == 0);
    CHECK(out.result.found == 0);
    CHECK(out.result.expanded == cpu.expanded);
    CHECK(out.result.evaluated == cpu.evaluated);
  }
}

TEST_CASE("verify-bound checks the refinement, and reports a bad one at refine", "[verify-bound][stages]") {
  VerifyBoundOptions o;
  o.cache_dir = cache_dir();
  const std::string inst = source_dir() + "/tests/e2e/inputs/flowshop_8x3.txt";
  // LB2 one too high: LB1 stays valid, the refined bound passes a leaf's makespan (at a
  // node with one job free, LB2 is that leaf's makespan).
  std::ifstream in(problem("flowshop.toml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string spec = text.str();
  const std::string ret = "return max(bound, lb2)\n";
  const size_t at = spec.find(ret);
  REQUIRE(at != std::string::npos);
  spec.replace(at, ret.size(), "return max(bound, lb2 + 1)\n");
  const int line = 1 + static_cast<int>(std::count(spec.begin(), spec.begin() + static_cast<long>(at), '\n'));
  const std::string path = temp_file("flowshop_bad_refine.toml", spec);
  ProblemSpec bad_spec = load(path, inst, {"lb=3"});
  BoundReport bad = verify_bound(bad_spec, o);
  REQUIRE(bad.bad);
  CHECK(bad.stage == 2);
  CHECK(bad.bound > bad.best);
  try {
    invalid_bound_error(bad_spec, bad);
    FAIL("no error");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.all().size() == 1);
    const Diagnostic& d = e.diags.all()[0];
    CHECK(d.loc.file->path == path);
    CHECK(d.loc.line == line);
    CHECK_THAT(d.message, Catch::Contains("not a valid refinement of the bound"));
  }
}
