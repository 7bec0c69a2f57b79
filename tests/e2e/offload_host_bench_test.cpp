// How fast the offload skeleton's host side is, without a GPU: the pool search on
// Taillard ta021 (20x20, LB2, --ub at the optimum) with a device that bounds on the
// host, times itself and ends the search after a fixed number of children. The host's
// share is the threads' time less the device's, per child. Hidden from ctest (it only
// measures); run it with
//   permjit_e2e_tests "[.offload-bench]"
#include <atomic>
#include <chrono>
#include <cstdio>

#include <catch2/catch.hpp>

#include "dsl/load_spec.hpp"
#include "flowshop_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/offload_module.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

using clock_type = std::chrono::steady_clock;

// Bounds on the host like HostOffloadDevice, and also counts the children and the
// seconds spent bounding them; once `budget` children were bounded, submit returns 2,
// which ends the search.
class TimedHostDevice {
 public:
  TimedHostDevice(const OffloadModule& m, int slots, unsigned long long budget)
      : fn_(m.host_bounds()), bounds_(slots), budget_(budget) {}
  PjOffloadDevice device() { return PjOffloadDevice{this, &attach, &submit, &finish, nullptr}; }
  std::atomic<unsigned long long> children{0}, device_ns{0};

 private:
  PjOffloadHostBoundsFn fn_;
  std::vector<std::vector<int>> bounds_;
  unsigned long long budget_;

  static int attach(void*) { return 0; }
  static int submit(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                    unsigned long long n, int best) {
    auto* self = static_cast<TimedHostDevice*>(ctx);
    if (self->children.fetch_add(n) >= self->budget_) return 2;
    auto t = clock_type::now();
    self->bounds_[slot].resize(n);
    self->fn_(offsets != nullptr, nodes, count, offsets, n, best, self->bounds_[slot].data());
    self->device_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now() - t).count();
    return 0;
  }
  static int finish(void* ctx, int slot, int* bounds) {
    auto& b = static_cast<TimedHostDevice*>(ctx)->bounds_[slot];
    std::copy(b.begin(), b.end(), bounds);
    return 0;
  }
};

}  // namespace

TEST_CASE("offload host throughput on ta021 (measurement)", "[.offload-bench]") {
  LoadOptions lo;
  lo.spec_path = problem("flowshop.toml");
  lo.instance_path = instance("flowshop/ta021.txt");
  lo.params = {"branching=1", "lb=2"};
  ProblemSpec spec = load_spec(lo);
  OffloadModule m(units_of("offload", spec, generate_problem(spec)).host.value(), ModuleCache(cache_dir()));
  const unsigned long long budget = 1000000;
  for (bool branch : {false, true})
    for (int threads : {1, 2}) {
      OffloadOptions o;
      o.branch_on_device = branch;
      o.ub = taillard_optimum("ta021");
      o.threads = threads;
      o.batch = 4096;
      TimedHostDevice dev(m, threads * o.in_flight, budget);
      auto t = clock_type::now();
      OffloadOutcome out = m.search(o, dev.device());
      double wall = std::chrono::duration<double>(clock_type::now() - t).count();
      CHECK(out.device_rc == 2);
      double device = dev.device_ns.load() * 1e-9;
      double host = threads * wall - device;  // thread-seconds not spent bounding
      unsigned long long n = std::min(dev.children.load(), budget);
      std::printf("%s, %d host thread(s): %llu children, wall %.2f s, bounding %.2f s, host %.1f ns/child "
                  "(thread time), so %.3g children/s per host thread\n",
                  branch ? "branch" : "bound", threads, n, wall, device, host / n * 1e9, n / host);
    }
}
