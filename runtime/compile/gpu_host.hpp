// The host half that the GPU skeletons share: the device and its context, the two
// compiled modules, the CPU search to d_cpu that builds the frontier (the CPU module of
// templates/cpu_dfs.hpp), its structure-of-arrays layout for the kernels, the results
// block's starting incumbent, and the merge of the device's counts with the frontier's.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "runtime/compile/cpu_module.hpp"
#include "runtime/compile/gpu_compile.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/core/skeleton_run.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

// The first device, or std::runtime_error("the <skeleton> skeleton needs a GPU: why");
// r.device says which it is.
cuda::Device open_device(const std::string& skeleton, SolveResult& r);

// What a GPU skeleton starts with: the device and its context, the CPU module that
// builds the frontier and the GPU module (run.units' host and device units) compiled
// through the cache and loaded. Sets r.device, r.cache_hit and r.t_compile.
struct GpuStart {
  explicit GpuStart(SkeletonRun& run);
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  cuda::Device dev;
  cuda::Context context;
  HostModule host;
  GpuModuleImage image;
  std::chrono::steady_clock::time_point loading = std::chrono::steady_clock::now();  // before `module`
  cuda::Module module;
};

// r.compile's stages of a host module, a device module and its load.
void add_compile_stages(SolveResult& r, const HostModule* host, const GpuModuleImage* device, double load_s);

// Host threads for the CPU search: --threads, else every hardware thread.
int host_threads(const SolveOptions& opts);

// The frontier at d_cpu, built by the compiled CPU module and freed with the object:
// --dcpu when given, else the first depth with at least `want` nodes (`why_want` says
// where that number comes from, for r.dcpu_reason), pruned against `ub` (--ub or the
// warm start's incumbent). Fills r's frontier fields.
class GpuFrontier {
 public:
  GpuFrontier(const HostModule& host_module, const SolveOptions& opts, std::optional<long long> ub, bool with_prefix,
              unsigned long long want, const std::string& why_want, int size, SolveResult& r);
  ~GpuFrontier();
  GpuFrontier(const GpuFrontier&) = delete;
  GpuFrontier& operator=(const GpuFrontier&) = delete;

  const PjFrontier& get() const { return f_; }
  unsigned long long count() const { return f_.count; }
  int depth() const { return f_.depth; }
  size_t words() const { return static_cast<size_t>(f_.node_bytes) / 4; }
  // Nodes [first, first + n) into `nodes` as structure of arrays (word k of node i at
  // k * n + i) and, when the frontier keeps them, their placed values into `prefix`
  // (size bytes each). The layout counts as r.t_host, the copies as r.t_transfers.
  void upload(unsigned long long first, unsigned long long n, cuda::Buffer& nodes, cuda::Buffer& prefix,
              SolveResult& r) const;
  // Asserts that the module's kernels lay a node out as the host does (pj_node_bytes).
  void check_layout(const cuda::Module& m) const;
  // The incumbent the device starts from: the frontier's best leaf, else `ub`, else
  // the goal's worst value (prepare_solve refused a --ub outside 32 bits).
  int start_incumbent(Goal goal) const;
  // r's nodes and best solution: the frontier's and the device's together.
  void merge(const PjGpuResults& device, SolveResult& r) const;

 private:
  CpuModule cpu_;
  PjFrontier f_{};
  std::optional<long long> ub_;
  int size_;
  mutable std::vector<unsigned> soa_;  // the layout of the last chunk uploaded
};

}  // namespace permjit
