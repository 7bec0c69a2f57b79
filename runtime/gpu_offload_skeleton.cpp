// Host side of the `offload` skeleton (seeds 002 and 004): the pool search runs in the
// compiled CPU module (templates/cpu_offload.hpp); this file is its device. Each slot
// has its own stream, pinned staging buffers and device buffers, so that while one
// batch is copied in, another is bounded and a third copied back (seed 004 §5.1).
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "runtime/cache.hpp"
#include "runtime/cuda_driver.hpp"
#include "runtime/gpu_compile.hpp"
#include "runtime/gpu_host.hpp"
#include "runtime/offload_module.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "runtime/unit.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Page-locked host memory: asynchronous copies need it to overlap with kernels.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes) : bytes_(bytes ? bytes : 1) {
    cuda::check(cuda::api().MemHostAlloc(&ptr_, bytes_, 0), "cuMemHostAlloc(" + std::to_string(bytes_) + " bytes)");
  }
  ~PinnedBuffer() { cuda::api().MemFreeHost(ptr_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_;
};

class Stream {
 public:
  Stream() { cuda::check(cuda::api().StreamCreate(&s_, CU_STREAM_NON_BLOCKING), "cuStreamCreate"); }
  ~Stream() { cuda::api().StreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  CUstream get() const { return s_; }

 private:
  CUstream s_ = nullptr;
};

// The GPU as the pool search's device: one slot per batch in flight.
class GpuOffloadDevice {
 public:
  GpuOffloadDevice(const cuda::Module& module, bool branch, int slots, size_t node_bytes, size_t max_nodes,
                   size_t max_children, int block)
      : branch_(branch), node_bytes_(node_bytes), block_(block),
        kernel_(module.function(branch ? "pj_offload_branch" : "pj_offload_bound")) {
    for (int s = 0; s < slots; ++s) slots_.emplace_back(std::make_unique<Slot>(node_bytes * max_nodes, max_nodes + 1,
                                                                               max_children));
    dev_ = PjOffloadDevice{this, &submit, &finish};
  }
  const PjOffloadDevice& device() const { return dev_; }
  double kernel_seconds = 0;
  std::string error;  // the driver error that stopped the search, if any

 private:
  struct Slot {
    Slot(size_t node_bytes, size_t offsets, size_t children)
        : nodes_h(node_bytes), offsets_h(offsets * 4), bounds_h(children * 4), nodes_d(node_bytes),
          offsets_d(offsets * 4), bounds_d(children * 4) {}
    Stream stream;
    PinnedBuffer nodes_h, offsets_h, bounds_h;
    cuda::Buffer nodes_d, offsets_d, bounds_d;
    unsigned long long children = 0;
    CUevent start = nullptr, stop = nullptr;
  };
  bool branch_;
  size_t node_bytes_;
  int block_;
  CUfunction kernel_;
  std::vector<std::unique_ptr<Slot>> slots_;
  PjOffloadDevice dev_;

  static int submit(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                    unsigned long long children) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    try {
      self->launch(*self->slots_.at(slot), nodes, count, offsets, children);
      return 0;
    } catch (const std::exception& e) {
      self->error = e.what();
      return 1;
    }
  }

  static int finish(void* ctx, int slot, int* bounds) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    try {
      Slot& s = *self->slots_.at(slot);
      cuda::check(cuda::api().StreamSynchronize(s.stream.get()), "the offload kernel");
      float ms = 0;
      cuda::check(cuda::api().EventElapsedTime(&ms, s.start, s.stop), "cuEventElapsedTime");
      self->kernel_seconds += ms / 1000.0;
      std::memcpy(bounds, s.bounds_h.get(), s.children * 4);
      return 0;
    } catch (const std::exception& e) {
      self->error = e.what();
      return 1;
    }
  }

  void launch(Slot& s, const void* nodes, unsigned long long count, const unsigned* offsets,
              unsigned long long children) {
    const cuda::Api& api = cuda::api();
    CUstream st = s.stream.get();
    if (!s.start) {
      cuda::check(api.EventCreate(&s.start, CU_EVENT_DEFAULT), "cuEventCreate");
      cuda::check(api.EventCreate(&s.stop, CU_EVENT_DEFAULT), "cuEventCreate");
    }
    s.children = children;
    unsigned long long sent = branch_ ? count : children;
    std::memcpy(s.nodes_h.get(), nodes, sent * node_bytes_);
    cuda::check(api.MemcpyHtoDAsync(s.nodes_d.ptr(), s.nodes_h.get(), sent * node_bytes_, st), "cuMemcpyHtoDAsync");
    if (branch_) {
      std::memcpy(s.offsets_h.get(), offsets, (count + 1) * 4);
      cuda::check(api.MemcpyHtoDAsync(s.offsets_d.ptr(), s.offsets_h.get(), (count + 1) * 4, st), "cuMemcpyHtoDAsync");
    }
    CUdeviceptr nodes_p = s.nodes_d.ptr(), offsets_p = s.offsets_d.ptr(), bounds_p = s.bounds_d.ptr();
    unsigned grid = static_cast<unsigned>((children + block_ - 1) / block_);
    void* bound_args[] = {&nodes_p, &children, &bounds_p};
    void* branch_args[] = {&nodes_p, &offsets_p, &count, &children, &bounds_p};
    cuda::check(api.EventRecord(s.start, st), "cuEventRecord");
    cuda::check(api.LaunchKernel(kernel_, grid, 1, 1, block_, 1, 1, 0, st, branch_ ? branch_args : bound_args, nullptr),
                branch_ ? "launching pj_offload_branch" : "launching pj_offload_bound");
    cuda::check(api.EventRecord(s.stop, st), "cuEventRecord");
    cuda::check(api.MemcpyDtoHAsync(s.bounds_h.get(), s.bounds_d.ptr(), children * 4, st), "cuMemcpyDtoHAsync");
  }
};

}  // namespace

std::vector<std::string> gpu_offload_templates() { return {"gpu_offload.cuh"}; }

void run_gpu_offload_skeleton(SkeletonRun& run) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  if (spec.goal == Goal::count) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--skeleton offload"), 1, 12},
            "the offload skeleton bounds nodes; '" + spec.name + "' counts and has no bound", "use --skeleton dfs or cpu");
    throw UserErrors(std::move(d));
  }
  auto t0 = clock_type::now();
  cuda::Device dev = open_device("offload", r);
  cuda::Context context(dev);

  ModuleCache cache(opts.cache_dir.empty() ? default_cache_dir() : opts.cache_dir);
  OffloadModule host(run.source, cache);
  int block = opts.block_size > 0 ? opts.block_size : 128;
  GpuModuleImage image = compile_gpu_module(assemble_unit(run.source, gpu_offload_templates()),
                                            spec.name + ".offload.cu", dev.arch(),
                                            {"-DPJ_BLOCK=" + std::to_string(block)}, cache);
  cuda::Module module(image.cubin);
  r.cache_hit = host.cache_hit() && image.cache_hit;
  r.t_compile = since(t0);

  OffloadOptions o;
  o.branch_on_device = opts.offload == "branch";
  if (opts.pool_max > 0) o.pool_max = opts.pool_max;
  if (opts.pool_min > 0) o.pool_min = opts.pool_min;
  if (opts.batch > 0) o.batch = opts.batch;
  if (opts.in_flight > 0) o.in_flight = opts.in_flight;
  o.ub = opts.ub;
  if (o.ub && (*o.ub < INT_MIN || *o.ub > INT_MAX)) throw std::runtime_error("--ub does not fit the 32-bit objective");

  auto t1 = clock_type::now();
  size_t node_bytes = static_cast<size_t>(module.read_int("pj_node_bytes"));
  size_t max_children = o.batch * static_cast<size_t>(spec.size);
  GpuOffloadDevice gpu(module, o.branch_on_device, o.in_flight, node_bytes,
                       o.branch_on_device ? o.batch : max_children, max_children, block);
  PjOffloadStats stats{};
  PjCpuResult out{};
  try {
    out = host.search(o, gpu.device(), stats);
  } catch (const std::runtime_error&) {
    throw std::runtime_error("the offload skeleton failed: " + gpu.error);
  }
  r.t_search = since(t1);
  r.t_kernels = gpu.kernel_seconds;
  r.t_host = r.t_search - r.t_kernels;
  r.threads = 1;
  r.block_size = block;
  r.chunks = static_cast<int>(stats.batches);
  r.offload_mode = opts.offload;
  r.max_pool = stats.max_pool;
  r.expanded = out.expanded;
  r.evaluated = out.evaluated;
  r.found = out.found != 0;
  r.objective = out.best;
  if (r.found) r.permutation.assign(out.perm, out.perm + out.size);
}

}  // namespace permjit
