// The host side of a GPU skeleton's solution buffer (PjGpuSolutions, templates/gpu_abi.h):
// armed before each launch, read after it, and its solutions handed, in the order the
// device took them, to the run's list. Used by `dfs` and `ivm` for goal = "find",
// --list and --target (runtime/decision.hpp).
#pragma once
#include <memory>
#include <vector>

#include "runtime/cuda_driver.hpp"
#include "runtime/decision.hpp"
#include "runtime/result.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

class DeviceSolutions {
 public:
  DeviceSolutions(const Decision& decision, int size);
  CUdeviceptr block() const { return block_.ptr(); }

  // Before a launch: nothing handed out yet, no flag set.
  void arm();
  // After it: what the launch did. `taken` solutions sit in the buffer; `full` says
  // some found it full and were not taken; `stopped` that the limit was reached.
  struct Launch {
    unsigned long long taken = 0;
    bool full = false, stopped = false;
  };
  Launch read();
  // The solutions of the launch read last go to the list (the first one is kept as the
  // run's answer); they count from now on.
  void commit(const Launch& l);
  // A launch that found the buffer full and is searched again (dfs): a buffer that
  // holds what it asked for, within the device's memory. False when that is more than
  // the buffer may take: the caller searches a smaller piece.
  bool grow_for(const Launch& l);

  // A chunk of a frontier (dfs, cdp, rec) whose solutions found the buffer full: its
  // counts are put back as they were before it (`before` into `results`), and it is to
  // be searched again with a larger buffer or, past the largest, as a half (`chunk`,
  // when the chunk had `n` nodes).
  void redo_chunk(const Launch& l, cuda::Buffer& results, const PjGpuResults& before, unsigned long long n,
                  unsigned long long& chunk);
  // The run's answer to its question: r.reached_limit and the time to exit, and for a
  // count (find) the first solution as the permutation found.
  void report(SolveResult& r, bool optimise) const;

  unsigned long long taken() const { return drained_; }
  bool stopped() const { return stopped_; }
  // The first solution committed (values by position); empty if none.
  const std::vector<int>& first() const { return first_; }
  // Seconds from the solution that reached the limit to the last block's return.
  double find_to_exit() const { return find_to_exit_; }

 private:
  void allocate(unsigned long long capacity);

  Decision decision_;
  int size_;
  cuda::Buffer block_{sizeof(PjGpuSolutions)};
  std::unique_ptr<cuda::Buffer> perms_;
  unsigned long long capacity_ = 0, max_capacity_ = 0, drained_ = 0, requested_ = 0;
  bool stopped_ = false;
  double find_to_exit_ = 0;
  std::vector<unsigned char> host_;
  std::vector<int> first_;
};

}  // namespace permjit
