// The cpu skeleton in one process with a checkpoint (runtime/range_run.hpp): a run
// stopped after a few ranges (the PERMJIT_STOP_AFTER_RANGES hook) and resumed, perhaps
// several times, reaches the totals of a plain run; a checkpoint of another run is
// refused with its place. Runs without MPI (tests/mpi covers the ranks).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveOptions cpu(const std::string& spec, const std::string& instance = {}) {
  SolveOptions o;
  o.load.spec_path = problem(spec);
  o.load.instance_path = instance;
  o.cache_dir = cache_dir();
  o.backend = "cpu";
  o.threads = 2;
  return o;
}

// Stops after `ranges` ranges while it is set.
struct StopAfter {
  explicit StopAfter(int ranges) { setenv("PERMJIT_STOP_AFTER_RANGES", std::to_string(ranges).c_str(), 1); }
  ~StopAfter() { unsetenv("PERMJIT_STOP_AFTER_RANGES"); }
};
}  // namespace

TEST_CASE("a cpu run stopped and resumed from its checkpoint has a plain run's totals", "[e2e][ranges]") {
  const std::string ck = "range_checkpoint_e2e.ckpt";
  std::remove(ck.c_str());
  SolveOptions plain = cpu("nqueens.toml");
  plain.load.params = {"n=11"};
  const SolveResult want = solve(plain);

  SolveOptions o = plain;
  o.checkpoint = ck;
  {
    StopAfter hook(2);
    SolveResult first = solve(o);
    CHECK(first.stopped);
    CHECK(first.ranges == 2);
    o.resume = ck;
    SolveResult second = solve(o);  // stopped again, from the checkpoint
    CHECK(second.stopped);
    CHECK(second.resumed_subtrees > 0);
  }
  SolveResult last = solve(o);
  CHECK_FALSE(last.stopped);
  CHECK(last.solutions == want.solutions);
  CHECK(last.expanded == want.expanded);
  CHECK(last.evaluated == want.evaluated);

  // Another instance of the spec is another frontier: refused, on --resume.
  SolveOptions other = plain;
  other.load.params = {"n=10"};
  other.resume = ck;
  CHECK_THROWS_WITH(solve(other), Catch::Contains("--resume") && Catch::Contains("generated code differs"));
  std::remove(ck.c_str());
}

TEST_CASE("an optimisation stopped and resumed finds the optimum, and --ub totals match", "[e2e][ranges]") {
  const std::string ck = "range_checkpoint_e2e_atsp.ckpt";
  std::remove(ck.c_str());
  const std::string inst = temp_file("ranges_r10.atsp", tsplib_text(random_matrix(10, 1, 100, 16)));
  SolveOptions plain = cpu("atsp.toml", inst);
  const SolveResult best = solve(plain);
  REQUIRE(best.found);
  plain.ub = best.objective;
  const SolveResult want = solve(plain);

  SolveOptions o = cpu("atsp.toml", inst);
  o.checkpoint = ck;
  {
    StopAfter hook(1);
    CHECK(solve(o).stopped);
  }
  o.resume = ck;
  CHECK(solve(o).objective == best.objective);

  std::remove(ck.c_str());
  o = plain;
  o.resume.clear();
  o.checkpoint = ck;
  {
    StopAfter hook(3);
    solve(o);
  }
  o.resume = ck;
  const SolveResult last = solve(o);
  CHECK(last.expanded == want.expanded);
  CHECK(last.evaluated == want.evaluated);
  std::remove(ck.c_str());
}
