#include "runtime/compile/gpu_host.hpp"

#include <chrono>
#include <climits>
#include <thread>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/gpu_compile.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/run_time_data.hpp"

namespace permjit {

GpuStart::GpuStart(SkeletonRun& run)
    : dev(open_device(run.result.skeleton, run.result)),
      context(dev),
      host(compile_host_module(run.units.host.value(), run.cache())),
      image(compile_gpu_module(run.units.device.value(), dev.arch(), run.cache())),
      module(image.cubin) {
  upload_data(run.units.device.value().data, module);
  add_compile_stages(run.result, &host, &image,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count());
  run.result.cache_hit = host.cache_hit && image.cache_hit;
  run.result.t_compile = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void add_compile_stages(SolveResult& r, const HostModule* host, const GpuModuleImage* device, double load_s) {
  if (host) r.compile.host += host->seconds;
  if (device) {
    r.compile.nvrtc += device->nvrtc_s;
    r.compile.link += device->link_s;
  }
  r.compile.load += load_s;
}

cuda::Device open_device(const std::string& skeleton, SolveResult& r) {
  std::string why;
  cuda::Device dev;
  if (!cuda::first_device(dev, &why)) throw std::runtime_error("the " + skeleton + " skeleton needs a GPU: " + why);
  r.device = dev.name + " (" + dev.arch() + ", " + std::to_string(dev.sm_count) + " SMs)";
  return dev;
}

int host_threads(const SolveOptions& opts) {
  return opts.threads > 0 ? opts.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

GpuFrontier::GpuFrontier(const HostModule& host_module, const SolveOptions& opts, std::optional<long long> ub,
                         bool with_prefix, unsigned long long want, const std::string& why_want, int size, SolveResult& r)
    : cpu_(host_module), ub_(ub), size_(size) {
  int threads = host_threads(opts);
  f_ = cpu_.frontier(ub, opts.dcpu, want, with_prefix, threads);
  r.threads = threads;  // host threads that built the frontier
  r.dcpu_reason = opts.dcpu > 0 ? "--dcpu" : "first depth with >= " + std::to_string(want) + " nodes (" + why_want + ")";
  r.frontier_depth = f_.depth;
  r.frontier_nodes = f_.count;
}

GpuFrontier::~GpuFrontier() { cpu_.free_frontier(f_); }

void GpuFrontier::upload(unsigned long long first, unsigned long long n, cuda::Buffer& nodes, cuda::Buffer& prefix,
                         SolveResult& r) const {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  const size_t w = words();
  const unsigned* aos = static_cast<const unsigned*>(f_.nodes);
  soa_.resize(n * w);
  for (unsigned long long i = 0; i < n; ++i)
    for (size_t k = 0; k < w; ++k) soa_[k * n + i] = aos[(first + i) * w + k];
  auto t1 = clock::now();
  nodes.upload(soa_.data(), n * w * 4);
  const size_t bytes = static_cast<size_t>(size_);
  if (f_.prefix) prefix.upload(f_.prefix + first * bytes, n * bytes);
  r.t_host += std::chrono::duration<double>(t1 - t0).count();
  r.t_transfers += std::chrono::duration<double>(clock::now() - t1).count();
}

void GpuFrontier::check_layout(const cuda::Module& m) const {
  int device_node_bytes = m.read_int("pj_node_bytes");
  PJ_INTERNAL_ASSERT(device_node_bytes == f_.node_bytes,
                     "node layout differs between the host (" + std::to_string(f_.node_bytes) +
                         " bytes) and the device (" + std::to_string(device_node_bytes) + " bytes)");
}

int GpuFrontier::start_incumbent(Goal goal) const {
  long long start = f_.counts.found ? f_.counts.best : ub_ ? *ub_ : (goal == Goal::maximize ? INT_MIN : INT_MAX);
  // prepare_solve refused a --ub outside 32 bits; the frontier's best is a 32-bit objective.
  PJ_INTERNAL_ASSERT(start >= INT_MIN && start <= INT_MAX, "the starting incumbent does not fit 32 bits");
  return static_cast<int>(start);
}

void GpuFrontier::merge(const PjGpuResults& out, SolveResult& r) const {
  const int size = size_;
  r.expanded = f_.counts.expanded + out.expanded;
  r.evaluated = f_.counts.evaluated + out.evaluated;
  r.solutions = f_.counts.solutions + out.solutions;
  if (out.found) {
    r.found = true;
    r.objective = out.recorded;
    r.permutation.assign(out.perm, out.perm + size);
  } else if (f_.counts.found) {
    r.found = true;
    r.objective = f_.counts.best;
    r.permutation.assign(f_.counts.perm, f_.counts.perm + size);
  }
}

}  // namespace permjit
