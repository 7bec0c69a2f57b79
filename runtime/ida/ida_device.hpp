// One GPU of the `ida` and `ida-thread` skeletons: its context, the module loaded on it,
// the pattern tables in its memory, its workers (warps or threads) and their stacks,
// the donation queue, the buffers an iteration uses, the timer of its kernels, and the
// stream that writes its stop word while a kernel runs. `--gpus N` opens N of them; the
// first GPU's context and module are GpuStart's.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/compile/gpu_host.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/ida/ida_donation.hpp"
#include "runtime/ida/pattern_db.hpp"
#include "templates/ida_abi.h"

namespace permjit {

// How the items (roots, or pieces of them) reach the workers: see docs/skeletons.md.
enum class Balance {
  static_lists,  // PStaticLB: a list per worker, largest expected first onto the least loaded; large roots split
  counter,       // the same order, each worker takes the next item from a device counter; large roots split
  donate,        // a counter, then warps give nodes from their stacks to warps without work; no split
};
Balance balance_of(const std::string& name, bool warp_per_root);

// ida: a warp's stack in shared memory (see plan_warp_stack in ida_device.cpp).
struct WarpStack {
  int entries = 0, bytes = 0;
  unsigned blocks_per_sm = 0;
};

// Device memory that is reallocated when an iteration needs more than it holds.
class GrowingBuffer {
 public:
  void reserve(size_t bytes);
  void upload(const void* data, size_t bytes);
  void download(void* data, size_t bytes) const { buf_->download(data, bytes); }
  CUdeviceptr ptr() const { return buf_->ptr(); }

 private:
  std::unique_ptr<cuda::Buffer> buf_;
  size_t size_ = 0;
};

// The device buffers of the iterations, kept from start to start (--records):
// allocating and freeing them for each start (cuMemFree waits for the device) would be
// host time in every instance, where a small one searches for a few milliseconds in
// all. The kernel's counts and the work of each worker share one allocation, read back
// at once.
struct IdaDeviceBuffers {
  explicit IdaDeviceBuffers(unsigned workers);
  const size_t workers_offset;  // of the per-worker work in report_buf
  GrowingBuffer nodes, gs, lasts, order_buf, work_buf;
  cuda::Buffer begin_buf;
  cuda::Buffer report_buf;  // PjIdaDeviceCounts, then a work count per worker
  CUdeviceptr counts_ptr() const { return report_buf.ptr(); }
  CUdeviceptr worker_work_ptr() const { return report_buf.ptr() + workers_offset; }
};

// The device's queue of donated nodes, with the stamp that marks a slot filled in this
// launch (flags are never cleared: each launch has a new stamp).
struct DonationQueue {
  std::unique_ptr<cuda::Buffer> slots, ready;
  unsigned capacity = 0;  // slots
  unsigned stamp = 0;
};

class IdaDevice {
 public:
  // GPU `ordinal`; with `start` (the run's first GPU) its context and module, else a
  // context of its own and the same image loaded on it. Uploads the tables.
  IdaDevice(SkeletonRun& run, GpuStart& g, int ordinal, bool use_start, const PatternTables& tables,
            bool warp_per_root, Balance balance);
  ~IdaDevice();
  IdaDevice(const IdaDevice&) = delete;
  IdaDevice& operator=(const IdaDevice&) = delete;

  void make_current() const;
  // Room in the buffers for `items` items and a split's pieces, once per start:
  // reallocating device memory (cuMemFree waits for the device) between iterations cost
  // milliseconds each time.
  void reserve(size_t items, int node_bytes);
  // Asks the running kernel to return (its stop word, written from another stream),
  // and then waits until the write has landed (before the word is read or rewritten).
  void request_stop();
  void finish_stop();

  cuda::Device dev;
  CUfunction kernel = nullptr;
  WarpStack stack;
  unsigned workers = 0;
  DonationLayout layout;
  DonationQueue queue;  // allocated when donating
  std::unique_ptr<IdaDeviceBuffers> buffers;
  std::unique_ptr<cuda::EventTimer> timer;
  double table_seconds = 0;  // uploading the tables

 private:
  void upload_tables(SkeletonRun& run, const PatternTables& tables);

  std::unique_ptr<cuda::Context> own_context_;
  CUcontext ctx_ = nullptr;
  std::unique_ptr<cuda::Module> own_module_;
  const cuda::Module* module_ = nullptr;
  std::vector<std::unique_ptr<cuda::Buffer>> tables_;
  CUstream stop_stream_ = nullptr;
  int* stop_word_ = nullptr;  // pinned: the 1 the stream copies
  bool stop_pending_ = false;
};

}  // namespace permjit
