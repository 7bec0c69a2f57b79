// One GPU of the `ivm` skeleton: its T explorers, their kernels, and the loop of rounds
// (Carneiro Pessoa et al. 2016 Algorithm 1) that runs them, asking the other GPUs (runtime/ivm/ivm_exchange.hpp)
// for work when its explorers are all empty and giving half of its work when asked.
// With one GPU the loop is the same; nobody asks, and when it is dry the search is over.
#pragma once
#include <cuda.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generator/generate.hpp"  // RunTimeArray
#include "runtime/device/cuda_driver.hpp"
#include "runtime/ivm/ivm_exchange.hpp"
#include "runtime/ivm/ivm_idle.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

class DeviceSolutions;
class KernelInterrupter;

// The device arrays of T explorers with L levels and sets of mask_bytes; their byte
// image (the arrays one after the other) is what checkpoints hold and GPUs exchange.
struct ExplorerArrays {
  unsigned long long T;
  size_t L, mask_bytes;
  cuda::Buffer I, V, M, last, ends;
  ExplorerArrays(unsigned long long t, int levels, int mb);
  std::string download() const;
  void upload(const std::string& image);
  size_t bytes() const;
  // The image's size for T explorers of L levels (what bytes() returns).
  static size_t bytes_for(unsigned long long T, int levels, int mask_bytes);
};

// How a GPU's idle explorers take work from its busy ones between rounds (balance()):
// which explorers qualify as victims, and how many select-and-steal passes a phase
// makes. In pass k > 1 the thieves that found nothing try again, and the explorers that
// gave or took in pass k-1 may be robbed again: a phase can spread one explorer's work
// over 2^passes explorers rather than two. Read from PERMJIT_IVM_BALANCE (for
// measuring; docs/decisions.md, "Work sharing among one GPU's explorers").
struct IvmBalance {
  // Victims qualify above the mean of all T explorers' lengths (the seed's rule,
  // Carneiro Pessoa et al. 2016 §3.2) or above the geometric mean of those with work.
  enum class Victims { mean, log } victims = Victims::mean;
  int passes = 1;
  // Rounds cut after this many seconds rather than the default's (0: one GPU's rounds
  // are cut only for progress lines, checkpoints and --time-limit, as they were).
  std::optional<double> slice;
  // > 0: a round ends once this share of the explorers is empty (else --trigger, or a quarter).
  double trigger = 0;
  std::string describe() const;
};
// "victims=mean|log,passes=N,slice=S,trigger=F" (any part may be left out); an unknown part is the
// user's error, naming the variable.
IvmBalance parse_ivm_balance(const std::string& text);
// What a victim must have left: the mean of the `T` explorers' `remaining` leaves, or 2
// to the mean of log2 of what the `active` ones have left (log_remaining).
double victim_threshold(IvmBalance::Victims rule, double remaining, double log_remaining, unsigned long long active,
                        unsigned long long T);

// What every GPU of a run shares: the explorers' shape, the kernels' launch shape and
// the run's options that the loop reads.
struct IvmShape {
  unsigned long long T = 0, trigger = 0;
  int levels = 0, mask_bytes = 0, block = 0;
  bool shared_rows = false;
  size_t shared_bytes = 0;  // dynamic shared memory per block of the exploration kernel
  bool optimise = false;  // incumbents travel between GPUs
  // Bytes of one problem::AssignStart (0: the spec keeps none): each explorer has one per
  // level, which its assign() starts from (templates/gpu_ivm.cuh, Hooks::pruned_child).
  size_t assign_start_bytes = 0;
  // Rounds are cut after this many seconds (0: never), so that the worker reports and
  // can give work, show progress or checkpoint that often.
  double slice = 0;
  IvmBalance balance;
};

// A GPU's share of the run's statistics.
struct IvmDeviceStats {
  unsigned long long rounds = 0, steals = 0;
  double t_kernels = 0, t_balance = 0;
  IvmIdleSample idle;  // the rounds' totals (runtime/ivm/ivm_idle.hpp)
};

class IvmDevice : public IvmWorkerOps {
 public:
  // On the calling thread's current context (`ctx`): `module` loaded there, or `cubin`
  // loaded now; `data` fills the module's run-time arrays.
  IvmDevice(CUcontext ctx, std::unique_ptr<cuda::Module> module, const std::string& cubin, const IvmShape& shape,
            const std::vector<RunTimeArray>& data);
  ~IvmDevice();
  IvmDevice(const IvmDevice&) = delete;
  IvmDevice& operator=(const IvmDevice&) = delete;

  // The start of a fresh run: this GPU's results block (counts, incumbent, the warm
  // start's solution) and its explorers' work. One end: its T explorers are explorers
  // [offset, offset + T) of the `parts` among which the leaves are cut (pj_ivm_init
  // computes each one's interval). Two ends: `root` gives explorer 0 the whole tree.
  // Neither (two ends, not `root`): the GPU waits for work.
  void start(const PjGpuResults& results, unsigned long long offset, unsigned long long parts, bool root);
  // The start of a resumed run or of a GPU that waits for work: its results only.
  void start_results(const PjGpuResults& results);
  // Decision and enumeration (one GPU): the solution buffer, drained after each round.
  void attach(DeviceSolutions* solutions) { solutions_ = solutions; }
  // Lets `peers` cut this GPU's round short when it is asked to give, until the returned
  // object goes.
  std::shared_ptr<void> interruptible_by(IvmPeers& peers, int worker);

  bool has_work() const override { return !dry_; }
  IvmRound explore() override;
  void balance() override;
  void set_best(int best) override;
  std::string export_half() override;
  std::string image() override { return ex_.download(); }
  std::string merge(const std::string& image) override;
  PjGpuResults results() override;

  const IvmDeviceStats& stats() const { return stats_; }
  // The idle share, round by round; also added to `totals` while the run goes on.
  IvmIdleSummary idle() const { return idle_.summary(); }
  void report_idle_to(IvmIdleTotals* totals) { idle_.report_to(totals); }

 private:
  CUcontext ctx_;
  IvmShape shape_;
  std::unique_ptr<cuda::Module> module_;
  CUfunction k_init_, k_explore_, k_select_, k_steal_, k_export_, k_free_slots_, k_merge_;
  ExplorerArrays ex_;
  std::optional<ExplorerArrays> out_;  // the exported halves (allocated when first asked)
  std::optional<ExplorerArrays> in_;   // work from another GPU, merged into the empty explorers
  cuda::Buffer results_, control_, lengths_, victim_, claimed_;
  cuda::Buffer starts_;  // the explorers' AssignStarts (IvmShape::assign_start_bytes), T x levels
  cuda::Buffer counts_;  // what pj_ivm_export and pj_ivm_free_slots/pj_ivm_merge count
  cuda::Buffer slots_;   // the empty explorers pj_ivm_merge fills
  std::unique_ptr<KernelInterrupter> interrupter_;
  cuda::EventTimer timer_;  // kernel seconds (one pair of events for the run, not per round)
  int hypercube_dims_;      // of pj_ivm_select's virtual hypercube over the T explorers
  IvmDeviceStats stats_;
  IvmIdleMeter idle_;
  // From the last exploration kernel, for the victims' threshold.
  double remaining_ = 0, log_remaining_ = 0;
  unsigned active_ = 0;
  bool dry_ = true;
  DeviceSolutions* solutions_ = nullptr;
};

}  // namespace permjit
