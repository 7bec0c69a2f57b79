// The host side of the `offload` skeleton, compiled into a CPU module with the problem
// (templates/cpu_offload.hpp) and loaded: the pool search, driven by a device that
// permjit provides (the GPU, or for tests the host itself).
#pragma once
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/host_library.hpp"
#include "templates/cpu_abi.h"
#include "templates/offload_abi.h"

namespace permjit {

struct OffloadOptions {
  bool branch_on_device = false;  // --offload branch
  // Totals over the host threads: each thread has 1/threads of the pool and batch sizes.
  unsigned long long pool_max = 1000000, pool_min = 200000, batch = 32768;
  int in_flight = 4;  // per host thread
  int threads = 1;    // host threads, each with its own pool and slots
  std::optional<long long> ub;

  int slots() const { return threads * in_flight; }
  // The arguments of the compiled search: one thread's share of the sizes.
  PjOffloadArgs per_thread() const;
};

// The end of a search: complete when device_rc is 0, else ended by the device's
// nonzero return (counts so far).
struct OffloadOutcome {
  PjCpuResult result{};
  PjOffloadStats stats{};
  int device_rc = 0;
};

class OffloadModule {
 public:
  // Compiles (or takes from the cache) and loads `host_unit` (offload_units' host unit).
  OffloadModule(const CompileUnit& host_unit, const ModuleCache& cache);
  OffloadModule(const OffloadModule&) = delete;
  OffloadModule& operator=(const OffloadModule&) = delete;

  bool cache_hit() const { return compiled_.cache_hit; }
  const HostModule& compiled() const { return compiled_; }
  OffloadOutcome search(const OffloadOptions& opts, const PjOffloadDevice& device) const;
  // The device's work done on the host: a synchronous device for tests.
  PjOffloadHostBoundsFn host_bounds() const { return host_bounds_; }

 private:
  HostModule compiled_;
  HostLibrary lib_;
  PjOffloadSearchFn search_ = nullptr;
  PjOffloadHostBoundsFn host_bounds_ = nullptr;
};

// A device that does the work on the host, in the calling thread (tests): each host
// thread uses its own slots, so nothing is shared.
class HostOffloadDevice {
 public:
  // `batches` > 0: the submit after that many batches returns kStopped, as the GPU's
  // does at the time limit (a stopped search's open work, in tests).
  explicit HostOffloadDevice(const OffloadModule& m, int slots, unsigned long long batches = 0);
  const PjOffloadDevice& device() const { return dev_; }
  static constexpr int kStopped = 2;

 private:
  unsigned long long budget_;
  std::atomic<unsigned long long> sent_{0};
  struct Slot {
    std::vector<int> bounds;
  };
  PjOffloadHostBoundsFn fn_;
  std::vector<Slot> slots_;
  PjOffloadDevice dev_;
  static int attach(void*) { return 0; }
  static int submit(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                    unsigned long long children, int best);
  static int finish(void* ctx, int slot, int* bounds);
};

}  // namespace permjit
