// What a solve reports, printed for people or as one JSON object.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/spec.hpp"

namespace permjit {

// The ivm skeleton's idle share (runtime/ivm/ivm_idle.hpp): one stretch of a GPU's rounds.
// Plain numbers: the totals travel between MPI ranks as bytes.
struct IvmIdleSample {
  double t = 0;       // seconds since the GPU's first round, at the stretch's end
  double wall_s = 0;  // the stretch's length
  unsigned long long rounds = 0, steals = 0, evaluated = 0;
  double explorer_s = 0;  // T x the exploration kernels' seconds
  double busy_s = 0;      // of which explorers had work
  double busy_start = 0;  // explorers with work when a round started, summed over its rounds
  double idle() const { return explorer_s > 0 ? 1.0 - busy_s / explorer_s : 0.0; }
};
struct IvmIdleSummary {
  IvmIdleSample total;                 // every GPU's rounds
  std::vector<IvmIdleSample> samples;  // the first GPU's, in order
};

struct SolveResult {
  std::string problem, spec_path, instance_path;
  int record = 0;  // > 0: the instance is this line of instance_path (--record, --records)
  std::vector<std::pair<std::string, int64_t>> params;
  Goal goal = Goal::count;
  int size = 0;
  std::string backend, skeleton, device, backend_reason;
  // Where the instance's values live: "compiled" or "run-time" ("" without instance
  // arrays), and with --data auto why (generator/choose_data.hpp).
  std::string data_mode, data_reason;
  int threads = 1;
  int frontier_depth = 0;
  uint64_t frontier_nodes = 0;

  bool has_ub = false;
  long long ub = 0;
  double time_limit = 0;  // --time-limit, seconds (0: none)
  bool stopped = false;   // the time limit ended the search: the counts and the best are partial
  int interrupted = 0;    // the signal (SIGINT, SIGTERM) that stopped the search, 0 if none: stopped as by a time limit
  // A stopped search's proof (docs/reliability.md, "Partial answers"): minimize/maximize
  // and path, no solution is better than proven_bound (the least bound over the work
  // left, or the root's, or the IDA* limit reached), and `bound_from` says which;
  // counting, `open_subtrees` subtrees were left unexplored (0: not known).
  std::optional<long long> proven_bound;
  std::string bound_from;
  std::optional<long long> root_bound;  // the placement root's bound, which the proven bound is never worse than
  uint64_t open_subtrees = 0;
  uint64_t solutions = 0;      // count, find
  bool found = false;          // minimize / maximize: a solution better than the start; find: one
  long long objective = 0;
  std::vector<int> permutation;

  // Local search from the best leaf of a search stopped at its time limit (--improve,
  // and the warm start's; templates/cpu_improve.hpp): the leaf's value before it, its
  // seconds, its kicks and complete permutations evaluated (all threads), and whether it
  // reached the root's bound (then nothing is better).
  struct ImproveReport {
    long long from = 0;
    double seconds = 0;
    uint64_t iterations = 0, evaluations = 0;
    bool optimal = false;
    bool greedy = false;  // `from` is the greedy leaf's: the search met no leaf (templates/cpu_improve.hpp)
  };
  std::optional<ImproveReport> improve;

  // The local search beside a search (runtime/core/warm_start.hpp): its threads, seconds
  // and kicks, how many times it started (once, and again from each better leaf of the
  // search's), how many better leaves it offered the search, and the best of them.
  struct BesideReport {
    int threads = 0;
    double seconds = 0;
    uint64_t iterations = 0;
    int starts = 0;
    int improvements = 0;
    std::optional<long long> best;
  };

  // The incumbent found before a GPU search (runtime/core/warm_start.hpp): its value, if
  // any, the cpu search's seconds (its local search's included), whether it finished,
  // why it failed, and its local search.
  struct WarmStartReport {
    std::optional<long long> objective;
    double seconds = 0;
    bool complete = false;
    std::string failure;
    std::optional<ImproveReport> improve;
    double waited = 0;  // how long the GPU skeleton waited for it after its compile (in no other time)
    std::optional<BesideReport> beside;
  };
  std::optional<WarmStartReport> warm_start;

  // Decision and enumeration (runtime/core/decision.hpp).
  std::optional<long long> target;   // --target
  bool all_optimal = false;          // --all-optimal: `listed` are the optimal permutations
  bool reached_limit = false;        // the search stopped at its solution limit (find, --target, --list N)
  double find_to_exit = 0;           // then: seconds from the solution that reached it to the search's end
  std::optional<uint64_t> listed;    // --list, --all-optimal: the solutions written
  std::string listed_to;             // where: "stdout" or the file

  uint64_t expanded = 0, evaluated = 0;
  double t_generate = 0, t_compile = 0, t_search = 0, t_total = 0;
  // t_compile by stage: the host compiler, NVRTC, nvJitLink, loading the device module
  // (each with its cache lookup; a hit costs the lookup alone).
  struct CompileStages {
    double host = 0, nvrtc = 0, link = 0, load = 0;
  } compile;
  // GPU skeletons: the search time split (host work includes the CPU frontier).
  double t_host = 0, t_transfers = 0, t_kernels = 0;
  double t_prepare = 0;  // of t_host: what comes before the first kernel (ida: the upper tree, buffers)
  double t_upper = 0, t_split = 0;  // of t_host, ida: the walks of the upper tree, the splits of large roots
  int block_size = 0;
  int chunks = 0;
  std::string dcpu_reason;
  // cdp, rec: the intermediate GPU search to d_gpu and the final search below it.
  int dgpu = 0;                      // 0: the skeleton has no intermediate search
  std::string dgpu_reason;
  uint64_t gpu_frontier_nodes = 0;   // nodes the intermediate search stored at d_gpu
  uint64_t child_launches = 0;       // grids of the final search (launched from the device for cdp)
  int child_block_size = 0;
  int child_grids = 0;               // cdp: per block of the intermediate search
  uint64_t max_block_load = 0;       // the fullest block active set
  uint64_t pending_launch_limit = 0; // cdp: the device runtime's pending-launch buffer, in launches
  std::string memory_plan;           // the memory analysis, in words
  std::string offload_mode;  // offload skeleton: bound | branch
  uint64_t max_pool = 0;     // offload skeleton: the largest the pool grew
  bool cache_hit = false;

  // ivm skeleton: explorers, trigger, exploration rounds, steals, time in the
  // work-stealing phases (kernels), and the checkpoint resumed from. Set by a search
  // that splits the leaves on the device: it has no host threads and no frontier.
  struct Ivm {
    unsigned long long explorers = 0, trigger = 0, rounds = 0, steals = 0;
    int gpus = 1;                      // --gpus, or the MPI ranks (a GPU each)
    unsigned long long transfers = 0;  // images of work moved between GPUs
    // Over MPI (0 ranks: one process): rank 0's messages for the other ranks and the
    // seconds its threads spent answering them (docs/scale.md).
    int ranks = 0;
    unsigned long long messages = 0;
    double coordinator_busy = 0;
    double t_balance = 0;
    double t_open_bound = 0;  // a stopped search: seconds to bound its open work (runtime/ivm/ivm_open_bound.hpp)
    // Of which the refinement of that bound (IDA* over the open work): its passes, the
    // deepest it searched below an open child, the children it bounded, the bound every
    // open child was shown to reach (none: no pass passed), and the bound a checkpoint
    // resumed from had proved (its floor).
    double t_refine = 0;
    int refine_passes = 0, refine_depth = 0;
    unsigned long long refine_nodes = 0;
    std::optional<long long> refine_proved, resumed_floor;
    // The progress line's proven bounds while the search ran: how many, their seconds.
    int bound_samples = 0;
    double t_bound_samples = 0;
    // The open-work unit (runtime/compile/deferred_module.hpp): how it came ("cached",
    // "ahead": compiled beside the search, "at need": when a stop first needed it, "not
    // needed"), its NVRTC seconds, and the seconds the run waited for it (not in t_search).
    std::string open_unit = "not needed";
    double t_open_compile = 0, t_open_wait = 0;
    std::string rows;  // "shared (32 KiB per block)" or "local"
    std::string resumed_from;
    // How the explorers' time went (runtime/ivm/ivm_idle.hpp), and how work was shared
    // among them (runtime/ivm/ivm_device.hpp, IvmBalance).
    IvmIdleSummary idle;
    std::string balance;
  };
  std::optional<Ivm> ivm;
  uint64_t donations = 0;  // cpu skeleton: subtrees its threads gave to idle ones
  // cpu skeleton run range by range (runtime/distributed/range_run.hpp): the processes (MPI ranks)
  // that searched, the frontier ranges finished, the subtrees a checkpoint had already
  // finished; `silent`: a rank other than 0, which prints nothing.
  int ranks = 0;
  uint64_t ranges = 0, resumed_subtrees = 0;
  bool silent = false;
  // Over MPI: the messages the coordinator received and sent, and the seconds it spent
  // outside its wait for the next one (docs/scale.md).
  uint64_t messages = 0;
  double coordinator_busy = 0;

  // Path problems (IDA*): the optimal cost and one optimal path, per-iteration counts.
  struct Iteration {
    int limit = 0;
    uint64_t expanded = 0, evaluated = 0, solutions = 0;
    uint64_t max_block_expanded = 0;  // GPU: the busiest block's (or thread's) work
    double mean_block_expanded = 0;   //      and the mean over blocks
    uint64_t donated = 0;             // ida --balance donate: nodes handed between warps
    double seconds = 0;
    std::vector<uint64_t> gpu_expanded;  // ida --gpus N (N > 1): each GPU's expanded below the roots
  };
  // ida --gpus N (N > 1): the GPUs, and each one's expanded nodes below the roots and
  // kernel seconds over the iterations (the upper tree's nodes are the host's).
  struct IdaGpus {
    std::vector<int> ordinals;
    std::vector<uint64_t> expanded;
    std::vector<double> kernel_s;
  };
  std::optional<IdaGpus> ida_gpus;
  // Pattern databases ([pattern_databases]): a stage of its own, before the searches.
  struct PatternDbs {
    int patterns = 0, built = 0;         // tables, and how many of them were built (not loaded)
    uint64_t entries = 0;                // a byte each, in host memory (and on the GPU)
    double seconds = 0;                  // loading or building them all
    double build_seconds = 0;            // of which building
  };
  std::optional<PatternDbs> pattern_dbs;
  bool all_solutions = false;
  int start_h = 0;
  std::vector<std::string> path;  // move names
  std::vector<Iteration> iterations;
};

std::string format_human(const SolveResult& r);
std::string format_json(const SolveResult& r);

// `solve --records`: the whole run, after the records' own results.
struct RecordsSummary {
  std::string problem, skeleton, device;
  size_t records = 0;
  uint64_t expanded = 0;
  double t_generate = 0, t_compile = 0, t_search = 0, t_wall = 0;  // t_search: the records' sum
  bool cache_hit = false;
  std::optional<SolveResult::PatternDbs> pattern_dbs;  // loaded or built once, before the records
};

// One record's result in one line: record, cost and path length, nodes, search seconds.
std::string format_record_line(const SolveResult& r);
// The summary, as a line of text or as one JSON object {"summary": {...}}.
std::string format_records_summary(const RecordsSummary& s, bool json);

}  // namespace permjit
