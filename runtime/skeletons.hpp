// The registry of search skeletons: one row per skeleton, so that callers look a name
// up instead of repeating an if/else chain.
#pragma once
#include <span>
#include <string>
#include <vector>
#include <string_view>

#include "dsl/spec.hpp"
#include "generator/generate.hpp"
#include "runtime/path_solver.hpp"
#include "runtime/result.hpp"

namespace permjit {

struct SolveOptions;

struct SkeletonRun {
  const ProblemSpec& spec;
  const ProblemSource& source;
  const SolveOptions& opts;
  SolveResult& result;  // fill nodes, objective, times of compile and search
};

struct Skeleton {
  std::string_view name;
  std::string_view backend;  // "cpu" or "gpu"
  std::string_view summary;
  void (*run)(SkeletonRun&);
  bool intermediate_search = false;  // takes --dgpu, --child-block-size, --child-grids, --pending-launches
  // The problem shapes it searches: placement (count, minimize, maximize) and/or path.
  bool placement = true;
  bool path = false;
  // Path skeletons: opened once, then solved from start after start (solve --records).
  OpenPathSolver open_path = nullptr;
  // Searches specs whose values go to either end (branch.ends = 2).
  bool two_ends = false;
};

std::span<const Skeleton> skeletons();
const Skeleton* find_skeleton(std::string_view name);

// The CPU skeleton (templates/cpu_dfs.hpp), and the templates of its translation unit.
void run_cpu_skeleton(SkeletonRun& run);
std::vector<std::string> cpu_dfs_templates();
// The cpu skeleton on a path problem: IDA* (templates/cpu_ida.hpp).
void run_cpu_ida_skeleton(SkeletonRun& run);
std::vector<std::string> cpu_ida_templates();
// BPIDA* (a warp per subtree) and PStaticLB (a thread per subtree) on the GPU
// (templates/gpu_ida.cuh), and the templates of their translation unit.
void run_gpu_ida_skeleton(SkeletonRun& run);
void run_gpu_ida_thread_skeleton(SkeletonRun& run);
std::vector<std::string> gpu_ida_templates();
std::vector<std::string> gpu_ida_defines();  // the NVRTC -D options of their unit
// BP-DFS on the GPU (templates/gpu_dfs.cuh).
void run_gpu_dfs_skeleton(SkeletonRun& run);
// The templates/ files of the dfs kernel's translation unit, after the problem.
std::vector<std::string> gpu_dfs_templates();
// IVM work stealing on the GPU (templates/gpu_ivm.cuh).
void run_gpu_ivm_skeleton(SkeletonRun& run);
// The ivm skeleton's translation unit: problem, IVM layout, templates.
std::string gpu_ivm_unit(const ProblemSpec& spec, const ProblemSource& source);
// CDP-BP on the GPU: the final search launched from the device (templates/gpu_cdp.cuh).
void run_gpu_cdp_skeleton(SkeletonRun& run);
// REC-CDP: the same searches, both launched from the host.
void run_gpu_rec_skeleton(SkeletonRun& run);
// The templates/ files of the cdp and rec kernels' translation unit.
std::vector<std::string> gpu_cdp_templates();
// The offload skeleton (templates/cpu_offload.hpp on the host, gpu_offload.cuh).
void run_gpu_offload_skeleton(SkeletonRun& run);
std::vector<std::string> gpu_offload_templates();

}  // namespace permjit
