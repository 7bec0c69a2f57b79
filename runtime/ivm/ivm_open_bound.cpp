#include "runtime/ivm/ivm_open_bound.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <memory>

#include "dsl/diagnostics.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/run_time_data.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

namespace {
// pj_ivm_open_bound's least time per thread with every stage of the bound.
constexpr double kStagedBoundSeconds = 1.0;

// The kernel's view of the explorers (pj_ivm::layout::Explorers), as ivm_device.cpp
// passes it.
struct ExplorersArg {
  CUdeviceptr I, V, M, last, ends;
  unsigned long long T;
};
ExplorersArg arg_of(const ExplorerArrays& a, unsigned long long T) {
  return {a.I.ptr(), a.V.ptr(), a.M.ptr(), a.last.ptr(), a.ends.ptr(), T};
}
unsigned grid_for(unsigned long long threads, int block) {
  return static_cast<unsigned>((threads + static_cast<unsigned long long>(block) - 1) / static_cast<unsigned long long>(block));
}

// IDA* over the open work (templates/ivm_open_work.h, refine_key) from the least open
// key `key`, passes scheduled by IvmRefineSchedule while time is left. Each pass's least
// key is a proof, passed or not: the result is the highest.
long long refine(CUfunction k, const std::vector<std::unique_ptr<ExplorerArrays>>& images, const IvmShape& shape,
                 int best, bool maximise, long long key, double budget_s, IvmRefineDone& done) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto left = [&] { return budget_s - std::chrono::duration<double>(clock::now() - t0).count(); };
  const long long best_key = maximise ? -static_cast<long long>(best) : best;
  cuda::Buffer out(sizeof(PjIvmRefine));
  IvmRefineSchedule plan;
  while (left() > 0 && key < best_key) {
    const long long t = plan.target(key, best_key);
    PjIvmRefine sum{0, LLONG_MAX, 0, 0};
    const unsigned long long budget_ns = static_cast<unsigned long long>(left() * 1e9);
    for (const auto& img : images) {
      PjIvmRefine zero{0, LLONG_MAX, 0, 0};
      out.upload(&zero, sizeof zero);
      ExplorersArg e = arg_of(*img, shape.T);
      CUdeviceptr out_p = out.ptr();
      long long target = t;
      int d = plan.depth;
      unsigned long long ns = budget_ns;
      int b = best;
      void* args[] = {&e, &b, &target, &d, &ns, &out_p};
      cuda::check(cuda::api().LaunchKernel(k, grid_for(shape.T, shape.block), 1, 1, shape.block, 1, 1, 0, nullptr, args,
                                           nullptr),
                  "launching ivm kernel pj_ivm_open_refine");
      PjIvmRefine got{};
      out.download(&got, sizeof got);  // synchronises: a fault surfaces here
      sum.failed += got.failed;
      sum.nodes += got.nodes;
      sum.key = std::min(sum.key, got.key);
    }
    ++done.passes;
    done.nodes += sum.nodes;
    done.depth = std::max(done.depth, plan.depth);
    if (sum.key != LLONG_MAX) key = std::max(key, sum.key);  // LLONG_MAX: every child closed, left to the caller
    const bool passed = sum.failed == 0;
    if (passed && sum.key == LLONG_MAX) break;
    if (passed) done.proved_key = std::max(done.proved_key, t);
    if (!plan.after(passed)) break;
  }
  done.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return key;
}
}  // namespace

PjCpuResult ivm_open_work(const std::string& cubin, const std::vector<RunTimeArray>& data, const IvmShape& shape,
                          const std::vector<std::string>& images, int best, bool optimise, bool maximise,
                          const IvmRefineAsk& ask, IvmRefineDone* done) {
  // The open-work unit's module (runtime/ivm/ivm_skeleton.cpp, ivm_units), loaded here:
  // a fraction of a second against the seconds a stopped search ran. Compiled apart from
  // the search's, it must lay the explorers out as that one did.
  cuda::Module module(cubin);
  PJ_INTERNAL_ASSERT(module.read_int("pj_ivm_mask_bytes") == shape.mask_bytes &&
                         module.read_int("pj_ivm_explorer_bytes") == 1 + shape.levels * (2 + shape.mask_bytes) + 8,
                     "the open-work module lays the explorers out otherwise than the search's");
  upload_data(data, module);
  CUfunction k = module.function("pj_ivm_open_bound");
  // Each image on the device, kept there for the refinement's passes.
  std::vector<std::unique_ptr<ExplorerArrays>> on_device;
  for (const std::string& img : images) {
    on_device.push_back(std::make_unique<ExplorerArrays>(shape.T, shape.levels, shape.mask_bytes));
    on_device.back()->upload(img);
  }
  cuda::Buffer out(sizeof(PjIvmOpen));
  // Each thread's time with every stage of the bound (then the first alone): the
  // refinement's budget, at least kStagedBoundSeconds, so that cheap bounds are bounded
  // in full as before and a heavy one cannot hold the stop for minutes.
  unsigned long long bound_budget_ns =
      static_cast<unsigned long long>(std::max(ask.budget_s, kStagedBoundSeconds) * 1e9);
  PjCpuResult r{};
  bool any_key = false;
  long long key = LLONG_MAX;
  // With no image (nothing open) one launch over no explorer still gives the root's bound.
  const size_t launches = images.empty() ? 1 : images.size();
  ExplorerArrays none(1, shape.levels, shape.mask_bytes);
  for (size_t n = 0; n < launches; ++n) {
    ExplorersArg e = images.empty() ? arg_of(none, 0) : arg_of(*on_device[n], shape.T);
    PjIvmOpen zero{0, LLONG_MAX, 0};
    out.upload(&zero, sizeof zero);
    CUdeviceptr out_p = out.ptr();
    void* args[] = {&e, &best, &bound_budget_ns, &out_p};
    const unsigned long long threads = e.T ? e.T : 1;
    cuda::check(cuda::api().LaunchKernel(k, grid_for(threads, shape.block), 1, 1, shape.block, 1, 1, 0, nullptr, args,
                                         nullptr),
                "launching ivm kernel pj_ivm_open_bound");
    PjIvmOpen got{};
    out.download(&got, sizeof got);  // synchronises: a fault surfaces here
    r.open_subtrees += got.subtrees;
    r.root_bound = got.root_bound;
    if (got.subtrees && got.key < key) key = got.key, any_key = true;
  }
  if (optimise && any_key) {
    key = std::max(key, ask.floor_key);  // every leaf still open was at least the floor already
    IvmRefineDone mine;
    if (ask.budget_s > 0)
      key = refine(module.function("pj_ivm_open_refine"), on_device, shape, best, maximise, key, ask.budget_s, mine);
    if (done) *done = mine;
  }
  r.open_bound_known = optimise && any_key ? 1 : 0;
  r.open_bound = r.open_bound_known ? (maximise ? -key : key) : 0;
  return r;
}

}  // namespace permjit
