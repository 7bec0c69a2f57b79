// `ida --gpus N`: what the host decides between the GPUs of one IDA* iteration, apart
// from the devices (tests/unit/ida_gpus_test.cpp runs it without one). The upper tree is
// walked once on the host; its live roots are shared among the GPUs, each GPU searches
// below its share in one kernel, and the iteration's counts are their sums, its next
// limit the least of their next limits, its goal the first GPU's that met one.
#pragma once
#include <cstddef>
#include <vector>

#include "templates/ida_abi.h"

namespace permjit {

// Items taken in `order`, each onto the bin with the least expected work so far (ties:
// the lower bin): LPT when `order` is largest first. Shared by the GPUs' shares below and
// the warps' static lists of one GPU (ida_skeleton.cpp, balance).
std::vector<std::vector<unsigned>> least_loaded(const std::vector<unsigned>& order, const std::vector<double>& expected,
                                                std::size_t bins);

// The live roots (increasing) shared among `gpus` GPUs: largest expected work first,
// each onto the GPU with the least so far (LPT, as the static balance does for warps);
// each share in increasing order (the order split_roots takes). One GPU: `live` whole.
std::vector<std::vector<unsigned>> share_roots(const std::vector<unsigned>& live, const std::vector<double>& expected,
                                               int gpus);

// What one GPU's part of an iteration reports to the host.
struct IdaGpuPart {
  PjIdaCounts below{0, 0, 0, 0x7fffffff};  // its kernel's and its host split's counts
  unsigned long long max_work = 0;          // its busiest worker's expanded nodes
  unsigned long long work = 0;              // its workers' expanded nodes in all
  unsigned workers = 0;
  unsigned long long donated = 0;
  bool searched = false;                    // it had roots and launched a kernel
  bool stopped = false;                     // a time limit or a signal stopped its kernel
  double seconds = 0;                       // its part's wall time (split, transfers, kernel)
};

// The iteration below the roots, every GPU's part together.
struct IdaCombined {
  PjIdaCounts below{0, 0, 0, 0x7fffffff};
  unsigned long long max_work = 0;  // the busiest worker of any GPU
  double mean_work = 0;             // over every worker of every GPU that searched
  unsigned long long donated = 0;
  bool stopped = false;             // some GPU's kernel was stopped before its end
  int solved_gpu = -1;              // the first GPU with a goal, -1 if none
};
IdaCombined combine_parts(const std::vector<IdaGpuPart>& parts);

}  // namespace permjit
