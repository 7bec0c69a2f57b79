// The options of one solve, as the CLI, the Python module and the tests set them. Every
// wing of runtime/ reads them; which skeleton takes which option is the registry's
// (runtime/option_table.hpp, where every option is declared).
#pragma once
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "dsl/load_spec.hpp"
#include "runtime/core/progress.hpp"
#include "runtime/core/solution_list.hpp"

namespace permjit {

struct SolveOptions {
  LoadOptions load;
  std::string backend = "auto";  // auto | cpu | gpu
  std::string skeleton;          // empty: the backend's default
  int threads = 0;               // 0: all hardware threads
  int split_depth = 0;           // 0: chosen from the thread count
  int dcpu = 0;                  // GPU: cutoff depth of the CPU search; 0: chosen from the device
  int block_size = 0;            // GPU: threads per block; 0: kDefaultBlockSize
  unsigned long long max_chunk = 0;  // GPU: most frontier nodes per launch; 0: what fits in memory
  int dgpu = 0;                  // cdp, rec: cutoff depth of the intermediate GPU search; 0: d_cpu + 2
  int child_block_size = 0;      // cdp, rec: threads per block of the final search; 0: 128
  int child_grids = 0;           // cdp: child grids per block of the intermediate search; 0: 2
  unsigned long long pending_launches = 0;  // cdp: the device runtime's pending-launch buffer; 0: what a chunk needs
  std::string offload;            // offload skeleton: bound (default) | branch
  unsigned long long pool_max = 0, pool_min = 0, batch = 0;  // offload: 0 chooses
  int in_flight = 0;             // offload: batches on the device at once; 0 chooses
  std::optional<long long> ub;
  std::optional<double> warm_start;  // GPU, optimisation: seconds of the cpu skeleton before the search (runtime/core/warm_start.hpp)
  double time_limit = 0;             // cpu skeleton, > 0: stop the search after this many seconds
  std::optional<double> improve;     // cpu, optimisation: seconds of local search from the best leaf of a stopped search
  bool check_indices = false;        // cpu: a checked build that reports a clamped index read that counts (PJ_INDEX)
  bool all_solutions = false;        // path problems: finish the last IDA* iteration
  unsigned long long roots = 0;      // path problems: roots of the upper tree; 0: chosen by the skeleton
  std::string ida_balance;           // ida, ida-thread: static | dynamic | donate (ida); default donate for ida, dynamic for ida-thread
  std::optional<unsigned> donate_after;  // ida --balance donate: steps a warp searches its work before it gives
  unsigned ida_stack = 0;            // ida: entries of a warp's shared-memory stack (>= kMinIdaStack); 0: 32 warps per SM
  std::string cache_dir;         // empty: default_cache_dir()

  // Decision and enumeration (runtime/core/decision.hpp; goal = "find" is the spec's).
  std::optional<long long> target;             // optimisation: stop at a permutation at least this good
  std::optional<unsigned long long> list;      // --list [N]: write the solutions; 0: all, N: the first N
  bool all_optimal = false;                    // optimisation: list every optimal permutation
  std::string list_out;                        // --out FILE: where they go; empty: stdout
  std::string list_format;                     // lines (when empty) | json
  unsigned long long list_buffer = 0;          // dfs, ivm: solutions the device buffer holds at first; 0: 65,536
  // A program's own taker of the listed solutions (runtime/core/solution_list.hpp), instead
  // of list_out: --list and --all-optimal hand it every solution.
  SolutionList::Sink list_sink;

  // ivm skeleton (docs/skeletons.md)
  unsigned long long explorers = 0;  // 0: as many as the device holds at once
  unsigned long long trigger = 0;    // 0: a quarter of the explorers
  // The cpu skeleton searches in this process even under mpirun: rank 0's warm start
  // for a GPU skeleton over MPI ranks (runtime/warm_start.cpp).
  bool one_process = false;
  std::string gpus;                  // ivm, ida, ida-thread: all | N | LIST (runtime/device/gpu_list.hpp); empty: the first GPU
  std::string ivm_rows;              // where explorers keep their rows: auto (when empty) | shared | local
  std::string checkpoint;            // write checkpoints to this file
  std::optional<double> checkpoint_every;  // seconds between checkpoints; unset: kDefaultCheckpointEvery
  std::string resume;                // continue from this checkpoint
  enum class Progress { automatic, on, off } progress = Progress::automatic;
  // A program's own progress display: called with each sample instead of a line on
  // stderr, whether or not stderr is a terminal (unless progress is off).
  std::function<void(const ProgressSample&)> on_progress;

  // The defaults of the options above, named once.
  static constexpr int kDefaultBlockSize = 128;
  static constexpr double kDefaultCheckpointEvery = 60;
  static constexpr double kDefaultWarmStart = 0.3;
  int block() const { return block_size > 0 ? block_size : kDefaultBlockSize; }
  double seconds_between_checkpoints() const { return checkpoint_every.value_or(kDefaultCheckpointEvery); }
  double warm_start_seconds() const { return warm_start.value_or(kDefaultWarmStart); }
};

constexpr unsigned kMinIdaStack = 8;  // --ida-stack: a warp's stack must hold a few pops

// A search stopped by SIGINT or SIGTERM after saving a checkpoint.
struct SearchInterrupted : std::runtime_error {
  int signal;
  SearchInterrupted(const std::string& what, int sig) : std::runtime_error(what), signal(sig) {}
};

}  // namespace permjit
