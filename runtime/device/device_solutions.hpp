// The host side of a GPU skeleton's solution buffer (PjGpuSolutions, templates/gpu_abi.h):
// armed before each launch, read after it, and its solutions handed, in the order the
// device took them, to the run's list. Used by `dfs` and `ivm` for goal = "find",
// --list and --target (runtime/core/decision.hpp).
#pragma once
#include <memory>
#include <vector>

#include "runtime/core/decision.hpp"
#include "runtime/core/result.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

class DeviceSolutions {
 public:
  DeviceSolutions(const Decision& decision, int size);
  CUdeviceptr block() const { return block_.ptr(); }

  // Before a launch: nothing handed out yet, no flag set.
  void arm();
  // After an `ivm` round: its solutions go to the list (the first kept as the run's
  // answer); those that found the buffer full are still in the explorers' rows, so the
  // buffer only grows for the next round.
  void after_round();
  // After a chunk of a frontier (dfs, cdp, rec): its solutions go to the list and false
  // is returned; or, when some found the buffer full, true: the chunk is to be searched
  // again, its counts put back as they were before it (`before` into `results`), with a
  // larger buffer or, past the largest, as a half (`chunk`, the chunk having `n` nodes).
  bool after_chunk(cuda::Buffer& results, const PjGpuResults& before, unsigned long long n,
                   unsigned long long& chunk);
  // The limit was reached: the question is answered.
  bool stopped() const { return stopped_; }
  // The run's answer to its question: r.reached_limit and the time to exit, and for a
  // count (find) the first solution as the permutation found.
  void report(SolveResult& r, bool optimise) const;

 private:
  // What a launch did: `taken` solutions sit in the buffer; `full`: some found it full
  // and were not taken; `stopped`: the limit was reached.
  struct Launch {
    unsigned long long taken = 0;
    bool full = false, stopped = false;
  };
  Launch read();
  void commit(const Launch& l);
  // A buffer that holds what the last launch asked for, within the device's memory;
  // false when that is more than the buffer may take.
  bool grow();
  void allocate(unsigned long long capacity);

  Decision decision_;
  int size_;
  cuda::Buffer block_{sizeof(PjGpuSolutions)};
  std::unique_ptr<cuda::Buffer> perms_;
  unsigned long long capacity_ = 0, max_capacity_ = 0, drained_ = 0, requested_ = 0;
  bool stopped_ = false;
  double find_to_exit_ = 0;  // seconds from the solution that reached the limit to the last block's return
  std::vector<unsigned char> host_;
  std::vector<int> first_;  // the first solution committed (values by position)
};

}  // namespace permjit
