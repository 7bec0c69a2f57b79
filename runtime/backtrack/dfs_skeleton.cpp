// Host side of the `dfs` skeleton (BP-DFS, Carneiro Pessoa et al. 2018 §2.2 and Algorithms 3-4 in spirit):
// compile the CPU module (for the frontier) and the GPU module, search on the CPU to the
// cutoff depth d_cpu, lay the frontier out structure-of-arrays, and search it on the GPU
// in chunks that fit the device's free memory.
#include <chrono>
#include <optional>
#include <stdexcept>
#include <vector>

#include "runtime/backtrack/backtrack_skeletons.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/device_solutions.hpp"
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

SkeletonUnits dfs_units(const UnitInputs& in) {
  return {host_unit(in, cpu_search_templates()),
          device_unit(in, {"gpu_abi.h", "gpu_search.cuh", "gpu_dfs.cuh"},
                      {"-DPJ_BLOCK=" + std::to_string(in.opts.block())})};
}

void run_dfs_skeleton(SkeletonRun& run) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  const bool optimise = optimises(spec.goal);
  // Decision and enumeration: the kernel that records solutions and stops at a limit.
  const bool records = run.decision.records();
  const int block = opts.block();
  GpuStart g(run);
  const char* kernel_name = records ? "pj_dfs_record" : "pj_dfs";
  CUfunction kernel = g.module.function(kernel_name);

  // The CPU search to d_cpu. A solution's values start with its frontier node's.
  // The warm start's incumbent, waited for before the search's clock starts.
  const std::optional<long long> start = run.start_bound();
  auto t1 = clock_type::now();
  const bool with_prefix = optimise || records;
  GpuFrontier f(g.host, opts, start, with_prefix, default_frontier_nodes(g.dev), "4 x SMs x threads/SM",
                spec.size, r);
  f.check_layout(g.module);
  const size_t words = f.words();
  const size_t prefix_bytes = with_prefix ? static_cast<size_t>(spec.size) : 0;

  // Chunks that fit half of the free device memory (the rest is the kernels' stacks).
  size_t free_b = 0, total_b = 0;
  cuda::check(cuda::api().MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
  size_t per_node = words * 4 + prefix_bytes;
  unsigned long long chunk = std::max<unsigned long long>(1, std::min<unsigned long long>(f.count(), free_b / 2 / per_node));
  if (opts.max_chunk > 0) chunk = std::min(chunk, opts.max_chunk);
  // --time-limit is checked between launches: at least 32 of them, so a stop comes
  // within about 1/32 of the search's time past the limit.
  // Solutions are drained between launches, and a stop is seen there: 32 of them too.
  if (opts.time_limit > 0 || records) chunk = std::min(chunk, std::max<unsigned long long>(1, (f.count() + 31) / 32));
  std::optional<DeviceSolutions> solutions;
  if (records) solutions.emplace(run.decision, spec.size);

  PjGpuResults init{};
  init.best = f.start_incumbent(spec.goal);
  init.recorded = init.best;
  cuda::Buffer results(sizeof(PjGpuResults));
  results.upload(&init, sizeof init);
  cuda::Buffer nodes(std::max<size_t>(1, chunk * words * 4));
  cuda::Buffer prefix(std::max<size_t>(1, chunk * prefix_bytes));
  r.t_host += since(t1);

  cuda::EventTimer timer;
  for (unsigned long long first = 0; first < f.count();) {
    if (opts.time_limit > 0 && since(t1) >= opts.time_limit) {
      r.stopped = true;  // the subtrees of the chunks not launched are not searched
      break;
    }
    unsigned long long n = std::min(chunk, f.count() - first);
    f.upload(first, n, nodes, prefix, r);

    CUdeviceptr nodes_p = nodes.ptr(), prefix_p = prefix.ptr(), results_p = results.ptr();
    CUdeviceptr solutions_p = solutions ? solutions->block() : 0;
    unsigned long long count = n, stride = n;
    int depth = f.depth();
    void* args[] = {&nodes_p, &prefix_p, &count, &stride, &depth, &results_p, &solutions_p};
    PjGpuResults before{};  // a chunk searched again starts from the same counts
    if (solutions) {
      results.download(&before, sizeof before);
      solutions->arm();
    }
    unsigned grid = static_cast<unsigned>((n + block - 1) / block);
    timer.start();
    cuda::check(cuda::api().LaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr),
                std::string("launching dfs kernel ") + kernel_name);
    try {
      r.t_kernels += timer.stop_seconds();
    } catch (const cuda::Error& e) {
      throw cuda::Error(std::string("the dfs kernel ") + kernel_name + " failed: " + e.what());
    }
    ++r.chunks;
    if (solutions) {
      if (solutions->after_chunk(results, before, n, chunk)) continue;  // the buffer filled: the chunk again
      if (solutions->stopped()) break;  // the question is answered
    }
    first += n;
  }
  PjGpuResults out{};
  auto tt = clock_type::now();
  results.download(&out, sizeof out);
  r.t_transfers += since(tt);

  r.block_size = block;
  r.time_limit = opts.time_limit;
  f.merge(out, r);
  if (solutions) solutions->report(r, optimise);
  r.t_search = since(t1);
}

}  // namespace permjit
