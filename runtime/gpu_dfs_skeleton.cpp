// Host side of the `dfs` skeleton (BP-DFS, seed 000 §2.2 and Algorithms 3-4 in spirit):
// compile the CPU module (for the frontier) and the GPU module, search serially on the
// CPU to the cutoff depth d_cpu, lay the frontier out structure-of-arrays, and search it
// on the GPU in chunks that fit the device's free memory.
#include <chrono>
#include <climits>
#include <thread>
#include <cstring>
#include <vector>

#include "runtime/cache.hpp"
#include "runtime/cpu_module.hpp"
#include "runtime/cuda_driver.hpp"
#include "runtime/gpu_compile.hpp"
#include "runtime/host_compiler.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "runtime/unit.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Every SM several times over: subtrees differ in size by orders of magnitude, so many
// more roots than threads keep the SMs busy to the end.
unsigned long long default_frontier_nodes(const cuda::Device& d) {
  return 4ull * static_cast<unsigned long long>(d.sm_count) * static_cast<unsigned long long>(d.max_threads_per_sm);
}
}  // namespace

std::vector<std::string> gpu_dfs_templates() { return {"gpu_abi.h", "gpu_common.cuh", "gpu_dfs.cuh"}; }

void run_gpu_dfs_skeleton(SkeletonRun& run) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  const bool optimise = spec.goal != Goal::count;
  auto t0 = clock_type::now();

  cuda::Device dev = cuda::require_device("the dfs skeleton");
  cuda::Context context(dev);
  r.device = dev.describe();

  ModuleCache cache(opts.cache_dir.empty() ? default_cache_dir() : opts.cache_dir);
  HostModule host = compile_host_module(assemble_unit(run.source, {"cpu_abi.h", "cpu_dfs.hpp"}), cache);
  int block = opts.block_size > 0 ? opts.block_size : 128;
  GpuModuleImage image = compile_gpu_module(assemble_unit(run.source, gpu_dfs_templates()), spec.name + ".cu",
                                            dev.arch(), {"-DPJ_BLOCK=" + std::to_string(block)}, cache);
  cuda::Module module(image.cubin);
  CUfunction kernel = module.function("pj_dfs");
  r.cache_hit = host.cache_hit && image.cache_hit;
  r.t_compile = since(t0);

  // The CPU search to d_cpu.
  auto t1 = clock_type::now();
  CpuModule cpu(host.path);
  unsigned long long want = default_frontier_nodes(dev);
  int host_threads = opts.threads > 0 ? opts.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PjFrontier f = cpu.frontier(opts.ub, opts.dcpu, want, optimise, host_threads);
  r.threads = host_threads;  // host threads that built the frontier
  struct FreeFrontier {
    const CpuModule& m;
    PjFrontier& f;
    ~FreeFrontier() { m.free_frontier(f); }
  } free_frontier{cpu, f};
  r.dcpu_reason = opts.dcpu > 0 ? "--dcpu" : "first depth with >= " + std::to_string(want) + " nodes (4 x SMs x threads/SM)";
  r.frontier_depth = f.depth;
  r.frontier_nodes = f.count;
  int device_node_bytes = module.read_int("pj_node_bytes");
  if (device_node_bytes != f.node_bytes)
    throw std::runtime_error("node layout differs between the host (" + std::to_string(f.node_bytes) +
                             " bytes) and the device (" + std::to_string(device_node_bytes) + " bytes)");
  const size_t words = static_cast<size_t>(f.node_bytes) / 4;
  const size_t prefix_bytes = optimise ? static_cast<size_t>(spec.size) : 0;

  // Chunks that fit half of the free device memory (the rest is the kernels' stacks).
  size_t free_b = 0, total_b = 0;
  cuda::check(cuda::api().MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
  size_t per_node = static_cast<size_t>(f.node_bytes) + prefix_bytes;
  unsigned long long chunk = std::max<unsigned long long>(1, std::min<unsigned long long>(f.count, free_b / 2 / per_node));
  if (opts.max_chunk > 0) chunk = std::min(chunk, opts.max_chunk);

  PjGpuResults init{};
  long long start = f.counts.found ? f.counts.best
                                   : opts.ub ? *opts.ub : (spec.goal == Goal::maximize ? INT_MIN : INT_MAX);
  if (start < INT_MIN || start > INT_MAX) throw std::runtime_error("--ub does not fit the 32-bit objective");
  init.best = static_cast<int>(start);
  init.recorded = init.best;
  cuda::Buffer results(sizeof(PjGpuResults));
  results.upload(&init, sizeof init);
  cuda::Buffer nodes(std::max<size_t>(1, chunk * words * 4));
  cuda::Buffer prefix(std::max<size_t>(1, chunk * prefix_bytes));
  r.t_host += since(t1);

  std::vector<unsigned> soa(chunk * words);
  cuda::EventTimer timer;
  const unsigned* aos = static_cast<const unsigned*>(f.nodes);
  for (unsigned long long first = 0; first < f.count; first += chunk) {
    unsigned long long n = std::min(chunk, f.count - first);
    auto th = clock_type::now();
    for (unsigned long long i = 0; i < n; ++i)
      for (size_t k = 0; k < words; ++k) soa[k * n + i] = aos[(first + i) * words + k];
    r.t_host += since(th);
    auto tt = clock_type::now();
    nodes.upload(soa.data(), n * words * 4);
    if (optimise) prefix.upload(f.prefix + first * prefix_bytes, n * prefix_bytes);
    r.t_transfers += since(tt);

    CUdeviceptr nodes_p = nodes.ptr(), prefix_p = prefix.ptr(), results_p = results.ptr();
    unsigned long long count = n, stride = n;
    int depth = f.depth;
    void* args[] = {&nodes_p, &prefix_p, &count, &stride, &depth, &results_p};
    unsigned grid = static_cast<unsigned>((n + block - 1) / block);
    timer.start();
    cuda::check(cuda::api().LaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr),
                "launching dfs kernel pj_dfs");
    try {
      r.t_kernels += timer.stop_seconds();
    } catch (const cuda::Error& e) {
      throw cuda::Error(std::string("the dfs kernel pj_dfs failed: ") + e.what());
    }
    ++r.chunks;
  }
  PjGpuResults out{};
  auto tt = clock_type::now();
  results.download(&out, sizeof out);
  r.t_transfers += since(tt);

  r.block_size = block;
  r.expanded = f.counts.expanded + out.expanded;
  r.evaluated = f.counts.evaluated + out.evaluated;
  r.solutions = f.counts.solutions + out.solutions;
  if (out.found) {
    r.found = true;
    r.objective = out.recorded;
    r.permutation.assign(out.perm, out.perm + spec.size);
  } else if (f.counts.found) {
    r.found = true;
    r.objective = f.counts.best;
    r.permutation.assign(f.counts.perm, f.counts.perm + spec.size);
  }
  r.t_search = since(t1);
}

}  // namespace permjit
