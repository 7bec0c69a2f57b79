#include "runtime/ida/ida_device.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>

#include "dsl/diagnostics.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/run_time_data.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

constexpr unsigned kMaxBlocksPerSm = 32;    // resident blocks an SM holds (sm_50 to sm_90)
constexpr unsigned kQueueSlots = 1u << 20;  // ida --balance donate: nodes in flight between warps per launch

// ida: a warp's stack in shared memory. By default the largest that keeps an SM's 32
// one-warp blocks resident at once (a stack of 40 KiB, the first choice, left 5 warps
// per SM and the GPU latency-bound). A deeper stack allows wider pops deep in the tree.
WarpStack plan_warp_stack(const cuda::Device& dev, int entry_bytes, unsigned requested) {
  const int per_block = dev.max_shared_per_sm / static_cast<int>(kMaxBlocksPerSm) - dev.reserved_shared_per_block;
  WarpStack w;
  w.entries = requested ? static_cast<int>(requested) : per_block / entry_bytes;
  w.bytes = w.entries * entry_bytes;
  if (requested && w.bytes > dev.max_shared_per_block) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--ida-stack " + std::to_string(requested)), 1, 13},
            "a stack of " + std::to_string(requested) + " entries (" + std::to_string(entry_bytes) +
                " bytes each) does not fit: a block holds at most " + std::to_string(dev.max_shared_per_block) +
                " bytes of shared memory");
    throw UserErrors(std::move(d));
  }
  w.blocks_per_sm = std::min<unsigned>(
      kMaxBlocksPerSm, static_cast<unsigned>(dev.max_shared_per_sm / (w.bytes + dev.reserved_shared_per_block)));
  return w;
}
}  // namespace

// The default: donation for ida (Korf's 100: 4.4 s of search against 6.7 s with the
// host split and a counter, docs/performance.md), the counter for ida-thread.
Balance balance_of(const std::string& name, bool warp_per_root) {
  if (name.empty()) return warp_per_root ? Balance::donate : Balance::counter;
  return name == "static" ? Balance::static_lists : name == "donate" ? Balance::donate : Balance::counter;
}

void GrowingBuffer::reserve(size_t bytes) {
  if (buf_ && bytes <= size_) return;
  buf_.reset();
  size_ = std::max<size_t>(bytes, 2 * size_);
  buf_ = std::make_unique<cuda::Buffer>(size_ ? size_ : 1);
}

void GrowingBuffer::upload(const void* data, size_t bytes) {
  reserve(bytes);
  if (bytes) buf_->upload(data, bytes);
}

IdaDeviceBuffers::IdaDeviceBuffers(unsigned workers)
    : workers_offset((sizeof(PjIdaDeviceCounts) + 255) / 256 * 256),
      begin_buf((workers + 1) * sizeof(unsigned)),
      report_buf(workers_offset + workers * sizeof(unsigned long long)) {}

IdaDevice::IdaDevice(SkeletonRun& run, GpuStart& g, int ordinal, bool use_start, const PatternTables& tables,
                     bool warp_per_root, Balance balance) {
  if (use_start) {
    dev = g.dev;
    ctx_ = g.context.handle();
    module_ = &g.module;
  } else {
    dev = cuda::describe_device(ordinal);
    own_context_ = std::make_unique<cuda::Context>(dev);  // current on this thread from here
    ctx_ = own_context_->handle();
    own_module_ = std::make_unique<cuda::Module>(g.image.cubin);
    upload_data(run.units.device.value().data, *own_module_);
    module_ = own_module_.get();
  }
  make_current();
  const cuda::Module& m = *module_;
  kernel = m.function(warp_per_root ? "pj_ida_warp" : "pj_ida_thread");
  upload_tables(run, tables);
  // Workers: blocks of one warp as many as the SMs hold at once, or every thread slot.
  const int entry_bytes = m.read_int("pj_ida_entry_bytes");  // gpu_ida::Entry, as the device lays it out
  stack = plan_warp_stack(dev, entry_bytes, run.opts.ida_stack);
  workers = warp_per_root ? static_cast<unsigned>(dev.sm_count) * stack.blocks_per_sm
                          : static_cast<unsigned>(dev.sm_count * dev.max_threads_per_sm);
  if (warp_per_root) cuda::allow_dynamic_shared(kernel, static_cast<size_t>(stack.bytes), "pj_ida_warp");
  if (warp_per_root && balance == Balance::donate) {
    // Waiting warps wait for the others (gpu_ida::Queue): all must be resident at once,
    // so no more blocks than the occupancy calculator says an SM holds.
    int resident = 0;
    cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, 32, stack.bytes),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor(pj_ida_warp)");
    if (resident < 1) throw std::runtime_error("ida: no block of pj_ida_warp fits an SM");
    stack.blocks_per_sm = std::min(stack.blocks_per_sm, static_cast<unsigned>(resident));
    workers = static_cast<unsigned>(dev.sm_count) * stack.blocks_per_sm;
    layout = DonationLayout{m.read_int("pj_ida_donation_bytes"), m.read_int("pj_ida_entry_g_offset"),
                            m.read_int("pj_ida_entry_last_offset"), m.read_int("pj_ida_donation_parent_offset")};
    queue.slots = std::make_unique<cuda::Buffer>(static_cast<size_t>(kQueueSlots) * layout.bytes);
    queue.ready = std::make_unique<cuda::Buffer>(kQueueSlots * sizeof(unsigned));
    queue.ready->zero();
    queue.capacity = kQueueSlots;
  }
  buffers = std::make_unique<IdaDeviceBuffers>(workers);
  timer = std::make_unique<cuda::EventTimer>();
  // The stop word is written from a stream that does not wait for the kernel's (the
  // legacy stream): a copy engine moves it while the kernel runs.
  cuda::check(cuda::api().StreamCreate(&stop_stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate (ida stop)");
  cuda::check(cuda::api().MemAllocHost(reinterpret_cast<void**>(&stop_word_), sizeof(int)), "cuMemAllocHost");
  *stop_word_ = 1;
}

IdaDevice::~IdaDevice() {
  // Everything on this GPU goes with its context current; the context last.
  if (cuda::api().CtxSetCurrent(ctx_) != CUDA_SUCCESS) return;  // the context is gone: nothing to free in it
  if (stop_stream_) cuda::api().StreamDestroy(stop_stream_);
  if (stop_word_) cuda::api().MemFreeHost(stop_word_);
  timer.reset();
  buffers.reset();
  queue.slots.reset();
  queue.ready.reset();
  tables_.clear();
  own_module_.reset();
  own_context_.reset();
}

void IdaDevice::make_current() const { cuda::check(cuda::api().CtxSetCurrent(ctx_), "cuCtxSetCurrent (ida GPU)"); }

void IdaDevice::reserve(size_t items, int node_bytes) {
  const size_t room = items + 32ull * workers;
  buffers->nodes.reserve(room * static_cast<size_t>(node_bytes));
  buffers->gs.reserve(room * sizeof(int));
  buffers->lasts.reserve(room * sizeof(int));
  buffers->order_buf.reserve(room * sizeof(unsigned));
  buffers->work_buf.reserve(room * sizeof(unsigned long long));
}

void IdaDevice::request_stop() {
  cuda::check(cuda::api().MemcpyHtoDAsync(buffers->counts_ptr() + offsetof(PjIdaDeviceCounts, stop), stop_word_,
                                          sizeof(int), stop_stream_),
              "cuMemcpyHtoDAsync (ida stop word)");
  stop_pending_ = true;
}

void IdaDevice::finish_stop() {
  if (!stop_pending_) return;
  cuda::check(cuda::api().StreamSynchronize(stop_stream_), "cuStreamSynchronize (ida stop word)");
  stop_pending_ = false;
}

// The pattern databases into this GPU's global memory, their addresses into its
// module's pj_pdb_tables (the upper tree, on the host, reads the host's copies).
void IdaDevice::upload_tables(SkeletonRun& run, const PatternTables& tables) {
  if (tables.empty()) return;
  auto t0 = clock_type::now();
  size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cuda::api().MemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
  const auto& p = run.spec.path.databases;
  size_t held = 0;
  std::vector<CUdeviceptr> ptrs;
  for (size_t k = 0; k < tables.tables().size(); ++k) {
    const auto& t = tables.tables()[k];
    held += t.size();
    if (held + (256u << 20) > free_bytes) {  // room left for the search's own buffers
      Diagnostics d;
      d.error(p.patterns[k].loc, "the pattern tables up to this one need " + std::to_string(held >> 20) +
                                     " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free" +
                                     (dev.ordinal ? " on GPU " + std::to_string(dev.ordinal) : std::string()),
              "use smaller patterns");
      throw UserErrors(std::move(d));
    }
    tables_.push_back(std::make_unique<cuda::Buffer>(t.size()));
    tables_.back()->upload(t.data(), t.size());
    ptrs.push_back(tables_.back()->ptr());
  }
  size_t bytes = 0;
  const CUdeviceptr at = module_->global("pj_pdb_tables", &bytes);
  PJ_INTERNAL_ASSERT(bytes == ptrs.size() * sizeof(CUdeviceptr),
                     "pj_pdb_tables has room for " + std::to_string(bytes / sizeof(CUdeviceptr)) + " tables");
  cuda::check(cuda::api().MemcpyHtoD(at, ptrs.data(), bytes), "uploading the pattern table addresses");
  table_seconds = since(t0);
}

}  // namespace permjit
