// The `cpu` skeleton run range by range over one frontier: in one process when it
// writes or resumes a checkpoint, or over MPI ranks (runtime/backtrack/cpu_mpi.hpp). Every
// process builds the same frontier from the module (it depends only on the start
// incumbent and the split depth); a coordinator hands out ranges of its indices
// (runtime/distributed/range_schedule.hpp), adds each finished range's counts, keeps the incumbent
// and writes the one checkpoint (runtime/distributed/range_checkpoint.hpp). The frontier's own
// counts are added once, by the coordinator. docs/scale.md says why and what it costs.
#pragma once
#include <chrono>
#include <optional>
#include <string>

#include "runtime/compile/cpu_module.hpp"
#include "runtime/distributed/range_checkpoint.hpp"
#include "runtime/distributed/range_schedule.hpp"

namespace permjit {

struct SkeletonRun;
struct SolveResult;

// What every process needs to build the same frontier: its depth (absolute; 0 for a
// fresh run: the coordinator's split decides) and the start incumbent.
struct FrontierPlan {
  int depth = 0;
  int has_ub = 0;
  long long ub = 0;
  unsigned long long nodes = 0;  // the coordinator's frontier size, checked by the others
};

class RangeCoordinator {
 public:
  // Reads and checks --resume (user errors located on it); `workers`: how many
  // processes ask for ranges, `threads`: each one's threads.
  RangeCoordinator(SkeletonRun& run, int workers, int threads);

  // The frontier to build: the checkpoint's depth and start incumbent, else the
  // options' (with enough subtrees for every worker's threads).
  FrontierPlan plan() const;
  unsigned long long min_nodes() const;
  // The frontier is built: the schedule starts, its counts are added (once: a resumed
  // run has them in the checkpoint).
  void start(const PjCpuResult& frontier);

  // The next range to search, or none: every subtree handed out, or the run stops.
  std::optional<Range> next();
  // A range searched (its `stopped`: left unfinished, not counted; the run stops).
  void report(Range r, const PjCpuResult& out);
  // The incumbent to search from.
  std::optional<long long> incumbent() const;
  // Seconds left of --time-limit (0: no limit); below 0 after it.
  double time_left() const;

  // The last checkpoint and the result (`interrupted` after a signal, as ivm's). A
  // stopped run's proven bound counts the subtrees of every range not finished, which
  // `frontier` (this process's copy of it) bounds.
  void finish(SolveResult& r, int ranks, const CpuRanges& frontier);

 private:
  void save();
  bool stopping() const;

  SkeletonRun& run_;
  int workers_, threads_;
  RangeRunIdentity id_;
  std::optional<RangeCheckpoint> resumed_;
  std::optional<RangeSchedule> schedule_;
  uint64_t expanded_ = 0, evaluated_ = 0, solutions_ = 0, donations_ = 0, ranges_ = 0;
  bool found_ = false;
  long long best_ = 0;
  std::vector<int> perm_;
  bool stop_ = false;
  std::optional<uint64_t> stop_after_;  // PERMJIT_STOP_AFTER_RANGES (tests)
  std::chrono::steady_clock::time_point started_, next_save_;
  double elapsed_before_ = 0;
  int frontier_depth_ = 0;
  uint64_t frontier_nodes_ = 0;
};

// The `cpu` skeleton in one process, range by range: --checkpoint or --resume.
void run_cpu_ranges(SkeletonRun& run);

// The options a search of one range takes: threads, incumbent, time left, stop flag.
CpuRunOptions range_options(int threads, std::optional<long long> incumbent, double time_left,
                            const volatile int* stop_request);

}  // namespace permjit
