// A compiled CPU search module (shared object), loaded: the CPU search, and the
// frontier a GPU skeleton starts from. Both run the generated problem on the host.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/host_library.hpp"
#include "runtime/core/solution_list.hpp"
#include "templates/cpu_abi.h"

namespace permjit {

struct CpuRunOptions {
  int threads = 1;
  int split_depth = 0;  // 0: the module chooses
  std::optional<long long> ub;
  double time_limit_s = 0;  // > 0: stop after this many seconds (the result says so)
  // Decision and enumeration (runtime/core/solution_list.hpp): stop after this many
  // solutions (0: never); leaves better than `ub` are solutions and `ub` stays; where
  // each solution goes.
  unsigned long long solution_limit = 0;
  bool fixed_incumbent = false;
  SolutionList* list = nullptr;
  const volatile int* stop_request = nullptr;  // non-null: the search stops once it is nonzero
};

// Local search from a leaf (templates/cpu_improve.hpp).
struct ImproveOptions {
  int threads = 1;
  double seconds = 0;
  unsigned long long seed = 1;
  // Beside a search: it also ends once *stop is nonzero, and each leaf better than all
  // before it goes to on_better (permutation, value) as it is found.
  const volatile int* stop = nullptr;
  std::function<void(std::span<const int>, long long)> on_better;
};

class CpuModule;

// A frontier kept by a loaded module and searched range by range (runtime/distributed/range_run.cpp):
// the same subtrees in the same order in every process that opens it with the same start
// incumbent and split.
// The host asked (opts.stop_request) a frontier's build to stop before it ended.
struct FrontierStopped {};

class CpuRanges {
 public:
  // Splits at `depth` (absolute) if above 0, else at opts.split_depth below the root,
  // else at the first depth with min_nodes nodes; from the start incumbent opts.ub.
  // Throws FrontierStopped when opts.stop_request is raised during the build.
  CpuRanges(const CpuModule& module, const CpuRunOptions& opts, int depth, unsigned long long min_nodes);
  ~CpuRanges();
  CpuRanges(const CpuRanges&) = delete;
  CpuRanges& operator=(const CpuRanges&) = delete;

  // What building the frontier counted, its depth (absolute) and size.
  const PjCpuResult& frontier() const { return frontier_; }
  // Searches subtrees [begin, end) from the incumbent opts.ub: that range's counts.
  PjCpuResult search(unsigned long long begin, unsigned long long end, const CpuRunOptions& opts) const;
  // The open work of subtrees [begin, end) that `incumbent` does not prune (PjCpuRangesOpenWorkFn).
  PjCpuResult open_work(unsigned long long begin, unsigned long long end, std::optional<long long> incumbent) const;

 private:
  const CpuModule& module_;
  void* handle_ = nullptr;
  PjCpuResult frontier_{};
};

class CpuModule {
 public:
  // Loads the compiled module and writes its run-time data; throws std::runtime_error.
  explicit CpuModule(const HostModule& compiled);
  CpuModule(const CpuModule&) = delete;
  CpuModule& operator=(const CpuModule&) = delete;

  PjCpuResult search(const CpuRunOptions& opts) const;
  // The frontier at `depth` (absolute; <= 0: the first depth with min_nodes nodes).
  // Free it with free_frontier.
  PjFrontier frontier(std::optional<long long> ub, int depth, unsigned long long min_nodes, bool with_prefix,
                      int threads) const;
  void free_frontier(PjFrontier& f) const;
  // The best leaf local search finds from `perm` (worth `value`) within opts.seconds.
  PjImproveResult improve(std::span<const int> perm, long long value, const ImproveOptions& opts) const;
  // The same from the greedy leaf (templates/cpu_improve.hpp), for a search that met no
  // leaf; nullopt where the greedy dive meets a node without candidates.
  std::optional<PjImproveResult> improve_greedy(const ImproveOptions& opts) const;
  // A checked build's first clamped index read that counted (templates/prelude.h,
  // PJ_INDEX): the site's number and the index; nullopt when there was none, or the
  // module is not a checked build.
  struct IndexFault {
    int site;
    long long value;
  };
  std::optional<IndexFault> index_fault() const;

 private:
  friend class CpuRanges;
  HostLibrary lib_;
  PjCpuSearchFn search_ = nullptr;
  PjCpuFrontierFn frontier_ = nullptr;
  PjCpuFrontierFreeFn frontier_free_ = nullptr;
  PjCpuRangesOpenFn ranges_open_ = nullptr;
  PjCpuRangesSearchFn ranges_search_ = nullptr;
  PjCpuRangesCloseFn ranges_close_ = nullptr;
  PjCpuRangesOpenWorkFn ranges_open_work_ = nullptr;
  PjCpuImproveFn improve_ = nullptr;
};

}  // namespace permjit
