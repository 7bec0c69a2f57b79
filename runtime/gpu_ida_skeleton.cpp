// Host side of the `ida` (BPIDA*, seed 003 §5) and `ida-thread` (PStaticLB) skeletons:
// opened once (device, context, both modules), then per start: the CPU module builds
// the upper tree once; each iteration the host walks it at the
// limit (templates/cpu_ida.hpp), hands the alive roots to blocks (one warp each) or
// threads, balanced by the work each root took in the previous iteration (static load
// balancing, largest first onto the least loaded), launches one kernel, and takes the
// next limit as the smallest f above the limit seen on either side.
#include <algorithm>
#include <chrono>
#include <climits>
#include <numeric>
#include <queue>

#include "runtime/cuda_driver.hpp"
#include "runtime/gpu_host.hpp"
#include "runtime/ida_module.hpp"
#include "runtime/ida_report.hpp"
#include "runtime/path_solver.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "templates/ida_abi.h"

namespace permjit {

std::vector<std::string> gpu_ida_templates() { return {"ida_abi.h", "gpu_ida.cuh"}; }

namespace {
constexpr int kMaxLevels = 128;      // PJ_IDA_MAX_LEVELS of the ida-thread kernel
}  // namespace

std::vector<std::string> gpu_ida_defines() { return {"-DPJ_IDA_MAX_LEVELS=" + std::to_string(kMaxLevels)}; }

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

constexpr int kStackBytes = 40 * 1024;  // ida: a block's shared-memory stack (under the 48 KiB default)

struct Assignment {
  std::vector<unsigned> order;  // alive roots, grouped by worker
  std::vector<unsigned> begin;  // workers + 1 offsets into order
};

// Largest expected work first, each onto the least loaded worker (LPT).
Assignment balance(const std::vector<unsigned>& alive, const std::vector<double>& expected, unsigned workers) {
  std::vector<unsigned> by_work(alive);
  std::stable_sort(by_work.begin(), by_work.end(), [&](unsigned a, unsigned b) { return expected[a] > expected[b]; });
  using Load = std::pair<double, unsigned>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (unsigned w = 0; w < workers; ++w) least.push({0.0, w});
  std::vector<std::vector<unsigned>> lists(workers);
  for (unsigned r : by_work) {
    Load l = least.top();
    least.pop();
    lists[l.second].push_back(r);
    least.push({l.first + expected[r], l.second});
  }
  Assignment a;
  a.begin.push_back(0);
  for (const auto& l : lists) {
    a.order.insert(a.order.end(), l.begin(), l.end());
    a.begin.push_back(static_cast<unsigned>(a.order.size()));
  }
  return a;
}

// The device, its context and both modules live as long as the object; each solve()
// builds its start's upper tree and buffers and runs the iterations.
class GpuIdaSolver : public PathSolver {
 public:
  GpuIdaSolver(SkeletonRun& run, bool warp_per_root)
      : opts_(run.opts),
        warp_per_root_(warp_per_root),
        name_(warp_per_root ? "ida" : "ida-thread"),
        g_(run, name_, gpu_ida_templates(), run.spec.name + ".ida.cu", gpu_ida_defines(), false, cpu_ida_templates()),
        kernel_(g_.module.function(warp_per_root ? "pj_ida_warp" : "pj_ida_thread")),
        ida_(g_.host.path),
        device_(run.result.device) {
    // Workers: blocks of one warp as many as the SMs hold at once, or every thread slot.
    unsigned blocks_per_sm = 32;
    workers_ = warp_per_root ? static_cast<unsigned>(g_.dev.sm_count) * blocks_per_sm
                             : static_cast<unsigned>(g_.dev.sm_count * g_.dev.max_threads_per_sm);
  }

  void solve(const StartValues& start, SolveResult& r) override;

 private:
  const SolveOptions& opts_;
  bool warp_per_root_;
  const char* name_;
  GpuStart g_;
  CUfunction kernel_;
  IdaModule ida_;
  std::string device_;  // as open_device named it
  unsigned workers_ = 0;
};

void GpuIdaSolver::solve(const StartValues& start, SolveResult& r) {
  const SolveOptions& opts = opts_;
  const bool warp_per_root = warp_per_root_;
  const char* name = name_;
  const unsigned workers = workers_;
  CUfunction kernel = kernel_;
  IdaModule& ida = ida_;
  auto t1 = clock_type::now();
  r.device = device_;
  r.iterations.clear();
  unsigned long long want = opts.roots > 0 ? opts.roots : 8ull * workers;
  IdaStart from(start);
  IdaModule::Roots roots(ida, from, want);
  const PjIdaRoots& rt = roots.get();
  r.frontier_depth = rt.depth;
  r.frontier_nodes = rt.count;
  r.start_h = rt.start_h;
  r.threads = 1;
  r.dcpu_reason = opts.roots > 0 ? "--roots" : "first depth with >= " + std::to_string(want) + " paths (8 per worker)";
  r.block_size = warp_per_root ? 32 : 128;

  const size_t count = rt.count;
  cuda::Buffer nodes(count * rt.node_bytes), gs(count * sizeof(int)), lasts(count * sizeof(int));
  nodes.upload(rt.nodes, count * rt.node_bytes);
  gs.upload(rt.g, count * sizeof(int));
  lasts.upload(rt.last, count * sizeof(int));
  cuda::Buffer order_buf(count * sizeof(unsigned) + 4), begin_buf((workers + 1) * sizeof(unsigned));
  cuda::Buffer work_buf(count * sizeof(unsigned long long)), counts_buf(sizeof(PjIdaDeviceCounts));
  std::vector<double> expected(count, 1.0);
  std::vector<unsigned long long> work(count);
  const int entry_bytes = rt.node_bytes + 8;
  const int capacity = kStackBytes / entry_bytes;
  r.t_host += since(t1);

  cuda::EventTimer timer;
  int limit = rt.start_h;
  std::vector<unsigned char> alive;
  for (int it = 0; it < PJ_IDA_MAX_ITERATIONS; ++it) {
    auto ti = clock_type::now();
    long long upper_goal = -1;
    PjIdaCounts upper = roots.upper(limit, alive, upper_goal);
    std::vector<unsigned> live;
    int min_g = INT_MAX;
    for (size_t i = 0; i < count; ++i)
      if (alive[i]) {
        live.push_back(static_cast<unsigned>(i));
        min_g = std::min(min_g, rt.g[i]);
      }
    if (!warp_per_root && !live.empty() && limit - min_g > kMaxLevels)
      throw std::runtime_error("ida-thread: the limit " + std::to_string(limit) + " reaches deeper than " +
                               std::to_string(kMaxLevels) + " levels below a root; use the ida skeleton");
    PjIdaDeviceCounts dev{};
    dev.solved_root = ~0ull;
    dev.next_limit = INT_MAX;
    unsigned long long max_work = 0;
    double mean_work = 0;
    if (!live.empty() && (opts.all_solutions || upper_goal < 0)) {
      Assignment a = balance(live, expected, workers);
      order_buf.upload(a.order.data(), a.order.size() * sizeof(unsigned));
      begin_buf.upload(a.begin.data(), a.begin.size() * sizeof(unsigned));
      counts_buf.upload(&dev, sizeof dev);
      CUdeviceptr np = nodes.ptr(), gp = gs.ptr(), lp = lasts.ptr(), op = order_buf.ptr(), bp = begin_buf.ptr(),
                  wp = work_buf.ptr(), cp = counts_buf.ptr();
      int all = opts.all_solutions ? 1 : 0, cap = capacity;
      unsigned n_workers = workers;
      timer.start();
      if (warp_per_root) {
        void* args[] = {&np, &gp, &lp, &op, &bp, &limit, &all, &cap, &wp, &cp};
        cuda::check(cuda::api().LaunchKernel(kernel, workers, 1, 1, 32, 1, 1, capacity * entry_bytes, nullptr, args,
                                             nullptr),
                    "launching the ida kernel pj_ida_warp");
      } else {
        void* args[] = {&np, &gp, &lp, &op, &bp, &n_workers, &limit, &all, &wp, &cp};
        cuda::check(cuda::api().LaunchKernel(kernel, (workers + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr),
                    "launching the ida-thread kernel pj_ida_thread");
      }
      try {
        r.t_kernels += timer.stop_seconds();
      } catch (const cuda::Error& e) {
        throw cuda::Error(std::string("the ") + name + " kernel failed: " + e.what());
      }
      auto tt = clock_type::now();
      counts_buf.download(&dev, sizeof dev);
      work_buf.download(work.data(), count * sizeof(unsigned long long));
      r.t_transfers += since(tt);
      if (dev.overflow)
        throw std::runtime_error(std::string("internal error: a ") + name + " stack overflowed at limit " +
                                 std::to_string(limit));
      // Load balance: the work of each worker, and what the next iteration expects per root.
      std::vector<unsigned long long> per_worker(workers, 0);
      for (unsigned w = 0; w < workers; ++w)
        for (unsigned k = a.begin[w]; k < a.begin[w + 1]; ++k) per_worker[w] += work[a.order[k]];
      max_work = *std::max_element(per_worker.begin(), per_worker.end());
      mean_work = static_cast<double>(std::accumulate(per_worker.begin(), per_worker.end(), 0ull)) / workers;
      for (unsigned root : live) expected[root] = static_cast<double>(std::max<unsigned long long>(1, work[root]));
    }
    PjIdaCounts below{dev.expanded, dev.evaluated, dev.solutions, dev.next_limit};
    add_iteration(r, limit, upper, below, max_work, mean_work, since(ti));
    if (upper.solutions + dev.solutions > 0) {
      long long root = upper_goal >= 0 ? -1 : static_cast<long long>(dev.solved_root);
      std::vector<int> moves = roots.path(root, upper_goal, limit);
      finish_path(r, true, limit, moves, [&](int m) { return ida.move_name(m); });
      r.t_search = since(t1);
      return;
    }
    int next = std::min(upper.next_limit, dev.next_limit);
    if (next == INT_MAX) break;
    limit = next;
  }
  if (r.iterations.size() >= PJ_IDA_MAX_ITERATIONS)
    throw std::runtime_error(std::string(name) + ": no goal after " + std::to_string(PJ_IDA_MAX_ITERATIONS) + " iterations");
  finish_path(r, false, 0, {}, [&](int m) { return ida.move_name(m); });
  r.t_search = since(t1);
}
}  // namespace

std::unique_ptr<PathSolver> open_gpu_ida(SkeletonRun& run) { return std::make_unique<GpuIdaSolver>(run, true); }
std::unique_ptr<PathSolver> open_gpu_ida_thread(SkeletonRun& run) { return std::make_unique<GpuIdaSolver>(run, false); }

void run_gpu_ida_skeleton(SkeletonRun& run) { run_path_once(open_gpu_ida, run); }
void run_gpu_ida_thread_skeleton(SkeletonRun& run) { run_path_once(open_gpu_ida_thread, run); }

}  // namespace permjit
