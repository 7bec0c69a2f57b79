// The IDA* schedule of the ivm bound's refinement (runtime/ivm/ivm_open_bound.hpp): from
// the least open key it reaches the highest target a pass at the deepest search can
// prove, never asks past the incumbent or deeper than the refinement's frames, and ends.
#include <catch2/catch.hpp>

#include "runtime/ivm/ivm_open_bound.hpp"

using namespace permjit;

namespace {
// Drives the schedule as ivm_open_bound.cpp's refine() does, against passes that reach a
// target t at depth d when t <= provable(d); returns the bound reached.
template <class Provable>
long long run_schedule(long long key, long long best_key, Provable provable, int& passes, int& deepest) {
  IvmRefineSchedule plan;
  passes = 0;
  deepest = 0;
  while (key < best_key && passes < 1000) {
    const long long t = plan.target(key, best_key);
    CHECK(t > key);
    CHECK(t <= best_key);
    deepest = std::max(deepest, plan.depth);
    ++passes;
    const bool passed = t <= provable(plan.depth);
    if (passed) key = std::max(key, t);
    if (!plan.after(passed)) break;
  }
  return key;
}
}  // namespace

TEST_CASE("the refinement's schedule reaches what its deepest pass can prove", "[ivm][partial]") {
  int passes = 0, deepest = 0;
  // Each level deeper proves 10 more above 100: the deepest frames (8) prove 180.
  CHECK(run_schedule(100, 1000, [](int d) { return 100 + 10 * d; }, passes, deepest) == 180);
  CHECK(deepest == IvmRefineSchedule::kDeepest);
  CHECK(passes < 100);
  // Targets doubling reach a far bound in few passes.
  CHECK(run_schedule(100, 100000, [](int) { return 50000; }, passes, deepest) == 50000);
  CHECK(passes < 60);
  CHECK(deepest == IvmRefineSchedule::kDeepest);
  // At the incumbent's key it stops: every open child reaches the incumbent.
  CHECK(run_schedule(100, 130, [](int) { return 1000; }, passes, deepest) == 130);
  // Nothing provable: it ends at the bound it started from.
  CHECK(run_schedule(100, 1000, [](int) { return 100; }, passes, deepest) == 100);
  CHECK(passes == IvmRefineSchedule::kDeepest - 1);  // step 1 at depths 2..8
}
