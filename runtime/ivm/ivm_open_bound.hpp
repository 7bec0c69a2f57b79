// What a stopped `ivm` search proves (docs/reliability.md, "Partial answers"): the open
// work of every image the stop took (each GPU's explorers, the pool's, other MPI ranks'),
// bounded on the device by pj_ivm_open_bound (templates/ivm_open_work.h) and handed over
// as the `cpu` skeleton hands over its open subtrees (PjCpuResult::open_*), which
// set_partial_bound (runtime/core/partial_bound.hpp) makes into the proven bound; then,
// for a time budget, refined by pj_ivm_open_refine (IDA* over the open work, below).
#pragma once
#include <climits>
#include <string>
#include <vector>

#include "generator/generate.hpp"  // RunTimeArray
#include "runtime/ivm/ivm_device.hpp"
#include "templates/cpu_abi.h"

namespace permjit {

// The refinement of the open work's bound: how long it may take, and a bound proven
// before on every leaf still open (a checkpoint's: the work left only shrinks), which
// it starts from.
struct IvmRefineAsk {
  double budget_s = 0;        // 0: the least open bound alone, as pj_ivm_open_bound gives it
  long long floor_key = LLONG_MIN;  // the earlier bound as a key (negated when maximising)
};
// What it did: passes over the open work, the deepest it searched below an open child,
// the children it bounded, the highest target every open child reached (LLONG_MIN:
// none), its seconds.
struct IvmRefineDone {
  int passes = 0, depth = 0;
  unsigned long long nodes = 0;
  long long proved_key = LLONG_MIN;
  double seconds = 0;
};

// The refinement's IDA* schedule (templates/ivm_open_work.h, refine_key): passes against
// rising targets while time is left. A pass in which every open child reached its
// target proves it, and the next target is twice as far above the bound; a failed pass
// first halves the step, then searches one level deeper, up to kDeepest.
struct IvmRefineSchedule {
  static constexpr int kDeepest = 8;  // pj_ivm::kRefineDepth, the refinement's frames
  long long step = 1;
  int depth = 2;
  // The next target above the bound `key`, at most the incumbent's key (reached: the
  // incumbent is proved optimal).
  long long target(long long key, long long best_key) const { return key + step < best_key ? key + step : best_key; }
  // After a pass: false when nothing is left to try (a failure at step 1 and kDeepest).
  bool after(bool passed) {
    if (passed) {
      if (step < (1ll << 40)) step *= 2;
    } else if (step > 1) {
      step /= 2;
    } else if (depth < kDeepest) {
      ++depth;
    } else {
      return false;
    }
    return true;
  }
};

// On the calling thread's current context: loads `cubin` (the run's open-work module,
// SkeletonUnits::deferred of ivm_units) with its
// run-time `data`, and bounds the explorers of each image (IvmShape's T, levels and set
// sizes) against the incumbent `best`. Returns the open children counted, their least
// bound (open_bound_known when some are open and the goal optimises) and the root's bound;
// with a refinement asked for, the bound is the highest the refinement proved (or the
// floor), never below the least open bound.
PjCpuResult ivm_open_work(const std::string& cubin, const std::vector<RunTimeArray>& data, const IvmShape& shape,
                          const std::vector<std::string>& images, int best, bool optimise, bool maximise,
                          const IvmRefineAsk& ask = {}, IvmRefineDone* done = nullptr);

}  // namespace permjit
