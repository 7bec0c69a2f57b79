// Host side of the `offload` skeleton (Chakroun et al. 2013; Melab et al. 2019): the pool search runs in the
// compiled CPU module (templates/cpu_offload.hpp); this file is its device. Each slot
// has its own stream, pinned staging buffers and device buffers, so that while one
// batch is copied in, another is bounded and a third copied back (Melab et al. 2019 §5.1).
// Where the spec's second stage has a block form (dualassign()), a second kernel computes
// it, a block per child that the first stage leaves, with tables of its own per block.
// Several host threads call in at once, each with its own slots: a slot's state is
// touched by its thread only; what they share (the first error) has a lock.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "runtime/backtrack/backtrack_skeletons.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/gpu_compile.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/compile/offload_module.hpp"
#include "runtime/core/partial_bound.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/run_time_data.hpp"
#include "templates/host_deadline.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Page-locked host memory: asynchronous copies need it to overlap with kernels.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes, unsigned flags = 0) : bytes_(bytes ? bytes : 1) {
    cuda::check(cuda::api().MemHostAlloc(&ptr_, bytes_, flags), "cuMemHostAlloc(" + std::to_string(bytes_) + " bytes)");
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

// The second stage computed by a block per child (templates/gpu_offload.cuh,
// pj_offload_refine), where the module has it: its kernel, its block and grid per slot,
// and the scratch each block takes.
struct BlockRefine {
  CUfunction kernel = nullptr;  // null: the bound kernels compute both stages
  int block = 0;
  unsigned grid = 0;
  size_t scratch_bytes = 0;  // per block
};

// Blocks per slot: the blocks the GPU holds at once, shared by the slots (which run at
// once), and at least one per multiprocessor. Each takes its scratch in every slot.
BlockRefine block_refine(const cuda::Module& module, const cuda::Device& dev, int slots) {
  BlockRefine r;
  const int bytes = module.read_int("pj_refine_scratch_bytes");
  if (bytes <= 0) return r;
  r.kernel = module.function("pj_offload_refine");
  r.block = module.read_int("pj_refine_block");
  r.scratch_bytes = (static_cast<size_t>(bytes) + 255) / 256 * 256;
  int per_sm = 0;
  cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r.kernel, r.block, 0),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor (pj_offload_refine)");
  const long long resident = static_cast<long long>(std::max(per_sm, 1)) * dev.sm_count;
  r.grid = static_cast<unsigned>(std::max<long long>(dev.sm_count, (resident + slots - 1) / slots));
  return r;
}

// Calls `on_deadline` at `deadline` unless it is destroyed before: the time limit reached
// while the pool's threads wait on their batches. Not the ivm skeleton's
// KernelInterrupter (runtime/device/kernel_interrupter.hpp): that one writes a device
// word with a copy, which here would queue behind the slots' kernels (docs/decisions.md).
class DeadlineWatch {
 public:
  template <class F>
  DeadlineWatch(clock_type::time_point deadline, F on_deadline)
      : thread_([this, deadline, on_deadline] {
          std::unique_lock<std::mutex> l(lock_);
          if (!wake_.wait_until(l, deadline, [this] { return done_; })) on_deadline();
        }) {}
  ~DeadlineWatch() {
    {
      std::lock_guard<std::mutex> g(lock_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  DeadlineWatch(const DeadlineWatch&) = delete;
  DeadlineWatch& operator=(const DeadlineWatch&) = delete;

 private:
  std::mutex lock_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members it reads exist
};

// The GPU as the pool search's device: one slot per batch in flight.
class GpuOffloadDevice {
 public:
  GpuOffloadDevice(const cuda::Module& module, CUcontext context, bool branch, int slots, size_t node_bytes,
                   size_t max_nodes, size_t max_children, int block, const BlockRefine& refine)
      : context_(context), branch_(branch), node_bytes_(node_bytes), block_(block),
        kernel_name_(branch ? "pj_offload_branch" : "pj_offload_bound"), kernel_(module.function(kernel_name_)),
        refine_(refine), stop_flag_(sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) {
    // The module's pointer to the flag: host memory the kernels read across the bus.
    *static_cast<volatile int*>(stop_flag_.get()) = 0;
    CUdeviceptr flag = 0;
    cuda::check(cuda::api().MemHostGetDevicePointer(&flag, stop_flag_.get(), 0), "cuMemHostGetDevicePointer");
    size_t bytes = 0;
    const CUdeviceptr global = module.global("pj_offload_stop", &bytes);
    PJ_INTERNAL_ASSERT(bytes == sizeof(flag), "pj_offload_stop is not a pointer");
    cuda::check(cuda::api().MemcpyHtoD(global, &flag, sizeof(flag)), "cuMemcpyHtoD (pj_offload_stop)");
    for (int s = 0; s < slots; ++s)
      slots_.emplace_back(std::make_unique<Slot>(node_bytes * max_nodes, max_nodes + 1, max_children,
                                                 refine.kernel ? refine.grid * refine.scratch_bytes : 0));
    // Kernel times are taken from this event, so that those of all slots can be merged.
    cuda::check(cuda::api().EventCreate(&origin_, CU_EVENT_DEFAULT), "cuEventCreate");
    cuda::check(cuda::api().EventRecord(origin_, slots_[0]->stream.get()), "cuEventRecord");
    cuda::check(cuda::api().EventSynchronize(origin_), "cuEventSynchronize");
    dev_ = PjOffloadDevice{this, &attach, &submit, &finish, &outside, &found};
  }
  ~GpuOffloadDevice() {
    for (auto& s : slots_) {
      if (s->start) cuda::api().EventDestroy(s->start);
      if (s->stop) cuda::api().EventDestroy(s->stop);
    }
    cuda::api().EventDestroy(origin_);
  }
  const PjOffloadDevice& device() const { return dev_; }
  // --time-limit: no batch is sent after `deadline`; the search then ends with
  // kTimeLimitReached, its counts those of the batches bounded.
  static constexpr int kTimeLimitReached = 2;
  void stop_at(clock_type::time_point deadline) { deadline_ = deadline; }
  // Before the search: the leaves the warm start's local search finds beside it become
  // the search's incumbent (PjOffloadDevice::outside), and the search's own leaves of
  // `size` values its new starts (PjOffloadDevice::found).
  void take_outside_leaves(WarmStart* warm, int size) {
    warm_ = warm;
    size_ = static_cast<size_t>(size);
  }
  // At the time limit: no batch is sent or taken back from now on, and the refine
  // kernels in flight leave the children they have not started (pj_offload_stop). Set
  // before the flag is written, `stopping_` is seen by every finish() whose batch the flag
  // may have cut short. Called from the deadline's watcher thread, or after the search
  // when the threads saw the deadline first; the second call does nothing.
  void stop_now() {
    if (stopping_.exchange(true)) return;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *static_cast<volatile int*>(stop_flag_.get()) = 1;
  }
  std::string error() {
    std::lock_guard<std::mutex> g(error_lock_);
    return error_;
  }
  // Seconds during which at least one kernel ran: the union of the kernels' intervals.
  double kernel_seconds() const {
    std::vector<std::pair<float, float>> all;
    for (const auto& s : slots_) all.insert(all.end(), s->kernels.begin(), s->kernels.end());
    std::sort(all.begin(), all.end());
    double busy = 0, end = -1;
    for (auto [b, e] : all) {
      if (b > end) busy += e - b;
      else if (e > end) busy += e - end;
      end = std::max<double>(end, e);
    }
    return busy / 1000.0;
  }

 private:
  struct Slot {
    Slot(size_t node_bytes, size_t offsets, size_t children, size_t scratch)
        : nodes_h(node_bytes), offsets_h(offsets * 4), bounds_h(children * 4), nodes_d(node_bytes),
          offsets_d(offsets * 4), bounds_d(children * 4), scratch_d(scratch ? scratch : 1) {}
    Stream stream;
    PinnedBuffer nodes_h, offsets_h, bounds_h;
    cuda::Buffer nodes_d, offsets_d, bounds_d;
    cuda::Buffer scratch_d;  // the block refine's tables, BlockRefine::scratch_bytes per block
    unsigned long long children = 0;
    CUevent start = nullptr, stop = nullptr;
    std::vector<std::pair<float, float>> kernels;  // ms after origin_
  };
  CUcontext context_;
  bool branch_;
  size_t node_bytes_;
  int block_;
  const char* kernel_name_;  // for messages; declared before kernel_, which is looked up by it
  CUfunction kernel_;
  BlockRefine refine_;
  std::vector<std::unique_ptr<Slot>> slots_;
  CUevent origin_ = nullptr;
  clock_type::time_point deadline_ = clock_type::time_point::max();
  std::atomic<bool> stopping_{false};
  WarmStart* warm_ = nullptr;
  size_t size_ = 0;
  PinnedBuffer stop_flag_;  // what the module's pj_offload_stop points to: 1 once stopping
  PjOffloadDevice dev_;
  std::mutex error_lock_;
  std::string error_;  // the first driver error that stopped the search

  int fail(const std::exception& e) {
    std::lock_guard<std::mutex> g(error_lock_);
    if (error_.empty()) error_ = e.what();
    return 1;
  }

  static int attach(void* ctx) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    try {
      cuda::check(cuda::api().CtxSetCurrent(self->context_), "cuCtxSetCurrent (offload host thread)");
      return 0;
    } catch (const std::exception& e) {
      return self->fail(e);
    }
  }

  static int submit(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                    unsigned long long children, int best) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    if (self->stopping_.load() || clock_type::now() >= self->deadline_) return kTimeLimitReached;
    try {
      self->launch(*self->slots_.at(slot), nodes, count, offsets, children, best);
      return 0;
    } catch (const std::exception& e) {
      return self->fail(e);
    }
  }

  // The local search beside the search (WarmStart::better_than) offers its better leaves.
  static int outside(void* ctx, long long best, long long* value, int* perm) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    if (!self->warm_) return 0;
    const std::optional<WarmIncumbent> leaf = self->warm_->better_than(best);
    if (!leaf) return 0;
    *value = leaf->value;
    std::copy(leaf->permutation.begin(), leaf->permutation.end(), perm);
    return 1;
  }

  // The search's better leaves: the local search beside it starts over from them.
  static void found(void* ctx, long long value, const int* perm) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    if (self->warm_) self->warm_->restart_from(std::span<const int>(perm, self->size_), value);
  }

  static int finish(void* ctx, int slot, int* bounds) {
    auto* self = static_cast<GpuOffloadDevice*>(ctx);
    try {
      Slot& s = *self->slots_.at(slot);
      const cuda::Api& api = cuda::api();
      cuda::check(api.StreamSynchronize(s.stream.get()), std::string("the offload kernel ") + self->kernel_name_);
      if (self->stopping_.load()) return kTimeLimitReached;  // the flag may have cut this batch short
      float b = 0, e = 0;
      cuda::check(api.EventElapsedTime(&b, self->origin_, s.start), "cuEventElapsedTime");
      cuda::check(api.EventElapsedTime(&e, self->origin_, s.stop), "cuEventElapsedTime");
      s.kernels.emplace_back(b, e);
      std::memcpy(bounds, s.bounds_h.get(), s.children * 4);
      return 0;
    } catch (const std::exception& e) {
      return self->fail(e);
    }
  }

  void launch(Slot& s, const void* nodes, unsigned long long count, const unsigned* offsets,
              unsigned long long children, int best) {
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
    void* bound_args[] = {&nodes_p, &children, &best, &bounds_p};
    void* branch_args[] = {&nodes_p, &offsets_p, &count, &children, &best, &bounds_p};
    cuda::check(api.EventRecord(s.start, st), "cuEventRecord");
    cuda::check(api.LaunchKernel(kernel_, grid, 1, 1, block_, 1, 1, 0, st, branch_ ? branch_args : bound_args, nullptr),
                std::string("launching ") + kernel_name_);
    if (refine_.kernel && children > 0) {
      CUdeviceptr scratch_p = s.scratch_d.ptr();
      int branch = branch_ ? 1 : 0;
      unsigned long long parents = branch_ ? count : 0;
      void* refine_args[] = {&nodes_p, &offsets_p, &parents, &children, &branch, &best, &bounds_p, &scratch_p};
      const unsigned grid2 = static_cast<unsigned>(std::min<unsigned long long>(refine_.grid, children));
      cuda::check(api.LaunchKernel(refine_.kernel, grid2, 1, 1, refine_.block, 1, 1, 0, st, refine_args, nullptr),
                  "launching pj_offload_refine");
    }
    cuda::check(api.EventRecord(s.stop, st), "cuEventRecord");
    cuda::check(api.MemcpyDtoHAsync(s.bounds_h.get(), s.bounds_d.ptr(), children * 4, st), "cuMemcpyDtoHAsync");
  }
};

}  // namespace

SkeletonUnits offload_units(const UnitInputs& in) {
  if (in.spec.goal == Goal::count)
    command_line_error("--skeleton offload", 12,
                       "the offload skeleton bounds nodes; '" + in.spec.name + "' counts and has no bound",
                       "use --skeleton dfs or cpu");
  // The cpu search's machinery without its entry points and local search: the pool uses
  // the first, never the others, and they would double the host compile's time.
  std::vector<std::string> host = cpu_search_machinery();
  host.insert(host.end(), {"offload_abi.h", "offload_pool.hpp", "cpu_offload.hpp"});
  return {host_unit(in, std::move(host)),
          device_unit(in, {"gpu_offload.cuh"}, {"-DPJ_BLOCK=" + std::to_string(in.opts.block())})};
}

void run_offload_skeleton(SkeletonRun& run) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  auto t0 = clock_type::now();
  cuda::Device dev = open_device(r.skeleton, r);
  cuda::Context context(dev);

  OffloadModule host(run.units.host.value(), run.cache());
  const int block = opts.block();
  GpuModuleImage image = compile_gpu_module(run.units.device.value(), dev.arch(), run.cache());
  const auto t_load = clock_type::now();
  cuda::Module module(image.cubin);
  upload_data(run.units.device.value().data, module);
  add_compile_stages(r, &host.compiled(), &image, since(t_load));
  r.cache_hit = host.cache_hit() && image.cache_hit;
  r.t_compile = since(t0);

  OffloadOptions o;
  o.branch_on_device = opts.offload == "branch";
  if (opts.pool_max > 0) o.pool_max = opts.pool_max;
  if (opts.pool_min > 0) o.pool_min = opts.pool_min;
  if (opts.batch > 0) o.batch = opts.batch;
  if (opts.in_flight > 0) o.in_flight = opts.in_flight;
  o.threads = host_threads(opts);
  o.ub = run.start_bound();  // within 32 bits: prepare_solve refused others

  auto t1 = clock_type::now();
  size_t node_bytes = static_cast<size_t>(module.read_int("pj_node_bytes"));
  size_t batch = o.per_thread().batch;  // parents per batch of one host thread
  size_t max_children = batch * static_cast<size_t>(spec.size);
  const BlockRefine refine = block_refine(module, dev, o.slots());
  GpuOffloadDevice gpu(module, context.handle(), o.branch_on_device, o.slots(), node_bytes,
                       o.branch_on_device ? batch : max_children, max_children, block, refine);
  if (run.warm) gpu.take_outside_leaves(run.warm, spec.size);
  std::optional<DeadlineWatch> watch;
  if (opts.time_limit > 0) {
    const auto deadline = pj::deadline_after<clock_type>(t1, opts.time_limit);
    gpu.stop_at(deadline);
    watch.emplace(deadline, [&gpu] { gpu.stop_now(); });
  }
  OffloadOutcome out = host.search(o, gpu.device());
  watch.reset();
  r.time_limit = opts.time_limit;
  r.stopped = out.device_rc == GpuOffloadDevice::kTimeLimitReached;  // the counts and the best are partial
  // Stopped, the threads leave batches in flight untaken: they end before their buffers
  // go, told to leave their remaining children first (the threads may have seen the
  // deadline before the watcher did).
  if (r.stopped) {
    gpu.stop_now();
    cuda::check(cuda::api().CtxSynchronize(), "the offload kernels in flight at the time limit");
  }
  if (out.device_rc != 0 && !r.stopped) throw std::runtime_error("the offload skeleton failed: " + gpu.error());
  r.t_search = since(t1);
  r.t_kernels = gpu.kernel_seconds();
  r.t_host = r.t_search - r.t_kernels;  // no kernel running: the device waited for the host (or copies)
  r.threads = o.threads;
  r.block_size = block;
  r.chunks = static_cast<int>(out.stats.batches);
  r.offload_mode = opts.offload;
  r.max_pool = out.stats.max_pool;
  r.expanded = out.result.expanded;
  r.evaluated = out.result.evaluated;
  r.found = out.result.found != 0;
  r.objective = out.result.best;
  if (r.found) r.permutation.assign(out.result.perm, out.result.perm + out.result.size);
  // What the stopped search proves: the least bound over the nodes its threads left
  // (templates/cpu_offload.hpp, note_open), the root's, and the incumbent.
  if (r.stopped) {
    std::optional<long long> incumbent;
    if (r.found) incumbent = r.objective;
    else if (o.ub) incumbent = *o.ub;
    set_partial_bound(r, out.result, incumbent);
  }
}

}  // namespace permjit
