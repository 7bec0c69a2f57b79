// How idle a GPU's explorers are, round by round (issues 43 and 50): the share of the
// explorer-seconds of the exploration kernels in which an explorer had nothing to do,
// and the steals and node rate beside it, as a series over the run.
//
// Each exploration kernel reports (templates/gpu_ivm.cuh, PjIvmControl) the explorers
// that had work when it started and the nanoseconds from their block's start to their
// return, summed; an explorer without work, or whose interval ran out, is idle for the
// rest of the kernel. The kernel's own seconds times T is the whole: idle share = 1 -
// busy / (T x kernel seconds). Counted from the kernels' totals the host reads after
// every round anyway: nothing on the explorers' path.
#pragma once
#include <atomic>
#include <chrono>
#include <vector>

#include "runtime/core/result.hpp"

namespace permjit {

// What several GPUs' meters add up to, read by the progress line while they run.
struct IvmIdleTotals {
  std::atomic<unsigned long long> busy_ns{0}, explorer_ns{0};
};

class IvmIdleMeter {
 public:
  explicit IvmIdleMeter(unsigned long long T) : T_(T) {}
  // Also added to `totals` (none: only this meter's).
  void report_to(IvmIdleTotals* totals) { totals_ = totals; }
  // One exploration kernel: its seconds, the explorers with work when it started and
  // their busy nanoseconds, the steals and evaluated nodes counted so far.
  void add_round(double kernel_s, unsigned busy_start, unsigned long long busy_ns, unsigned long long steals,
                 unsigned long long evaluated);
  // The run's totals and the series: at most kMaxSamples samples, each of a period that
  // doubles (two neighbours merged) whenever the series is full.
  IvmIdleSummary summary() const;
  // The totals alone (after every round: no copy of the series).
  IvmIdleSample total() const;

  static constexpr size_t kMaxSamples = 64;
  static constexpr double kFirstPeriod = 0.05;  // seconds of the first samples

 private:
  using clock_type = std::chrono::steady_clock;
  void close_sample(double now);

  unsigned long long T_;
  IvmIdleTotals* totals_ = nullptr;
  bool started_ = false;
  clock_type::time_point t0_;
  double period_ = kFirstPeriod;
  IvmIdleSample open_{};  // the sample being filled
  IvmIdleSample total_{};
  unsigned long long last_steals_ = 0, last_evaluated_ = 0;
  std::vector<IvmIdleSample> samples_;
};

}  // namespace permjit
