// Host side of the `ida` (BPIDA*, Horie and Fukunaga 2017 §5) and `ida-thread` (PStaticLB) skeletons:
// the CPU module builds the upper tree once; each iteration the host walks it at the
// limit (templates/cpu_ida.hpp), shares the alive roots among the GPUs (--gpus; one
// GPU by default), and on each GPU hands its roots to blocks (one warp each) or
// threads, balanced by the work each root took in the previous iteration (static load
// balancing, largest first onto the least loaded), launches one kernel, and takes the
// next limit as the smallest f above the limit seen on any side.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <numeric>
#include <thread>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/compile/ida_module.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/gpu_list.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals
#include "runtime/ida/ida_device.hpp"
#include "runtime/ida/ida_donation.hpp"
#include "runtime/ida/ida_gpus.hpp"
#include "runtime/ida/ida_report.hpp"
#include "runtime/ida/ida_skeleton.hpp"
#include "runtime/ida/ida_split.hpp"
#include "runtime/ida/pattern_db.hpp"
#include "templates/ida_abi.h"

namespace permjit {

namespace {
constexpr int kMaxLevels = 128;  // PJ_IDA_MAX_LEVELS of the ida-thread kernel
}  // namespace

// One module holds both kernels (pj_ida_warp and pj_ida_thread); the host module builds
// the upper tree.
SkeletonUnits ida_units(const UnitInputs& in) {
  return {host_unit(in, cpu_ida_templates()),
          device_unit(in, {"ida_abi.h", "gpu_ida.cuh"}, {"-DPJ_IDA_MAX_LEVELS=" + std::to_string(kMaxLevels)})};
}

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

constexpr double kPiecesPerWorker = 8;  // at most, from a split: the host's splitting time grows with them
constexpr double kSplitFrom = 2e6;        // expanded nodes of the previous iteration below which no root is split
constexpr unsigned kDonateAfter = 1024;      // steps a warp searches its work before it gives (--donate-after)
constexpr int kWorkersPerRootWithTables = 4;  // ida with pattern databases: fewer roots (see solve())

struct Assignment {
  std::vector<unsigned> order;  // alive roots, grouped by worker
  std::vector<unsigned> begin;  // workers + 1 offsets into order
};

// Item positions by expected work, largest first. Bucketed by powers of two (a sort of
// the whole list each iteration cost more host time than some kernels took).
std::vector<unsigned> by_work(const std::vector<double>& expected) {
  constexpr int kBuckets = 64;
  std::vector<std::vector<unsigned>> bucket(kBuckets);
  for (unsigned i = 0; i < expected.size(); ++i) {
    int e = 0;
    std::frexp(expected[i], &e);
    bucket[std::clamp(kBuckets - 1 - e, 0, kBuckets - 1)].push_back(i);
  }
  std::vector<unsigned> out;
  out.reserve(expected.size());
  for (const auto& b : bucket) out.insert(out.end(), b.begin(), b.end());
  return out;
}

Assignment largest_first(const std::vector<double>& expected) { return Assignment{by_work(expected), {}}; }

// The live roots (their indices), largest expected first.
Assignment live_first(const std::vector<unsigned>& live, const std::vector<double>& expected) {
  std::vector<double> e(live.size());
  for (size_t i = 0; i < live.size(); ++i) e[i] = expected[live[i]];
  Assignment a{by_work(e), {}};
  for (unsigned& k : a.order) k = live[k];
  return a;
}

// Largest expected work first, each onto the least loaded worker (LPT).
Assignment balance(const std::vector<double>& expected, unsigned workers) {
  const std::vector<std::vector<unsigned>> lists = least_loaded(by_work(expected), expected, workers);
  Assignment a;
  a.begin.push_back(0);
  for (const auto& l : lists) {
    a.order.insert(a.order.end(), l.begin(), l.end());
    a.begin.push_back(static_cast<unsigned>(a.order.size()));
  }
  return a;
}

// What one solve() keeps from iteration to iteration, for every GPU: what the host knows
// of each root's work (each GPU writes the entries of the roots it searched), and, when
// donating, the roots themselves as the items (the same on every GPU).
struct IdaSolveState {
  IdaSolveState(const PjIdaRoots& roots, bool donating_, bool dynamic_, int threads)
      : rt(roots),
        donating(donating_),
        dynamic(dynamic_),
        count(roots.count),
        expected(count, 1.0),
        skew(count, 1.0),
        largest(count, 0.0),
        pieces(count, 0.0),
        split_threads(threads) {}
  const PjIdaRoots& rt;
  const bool donating, dynamic;
  const size_t count;
  std::vector<double> expected;  // per root: its work in the last iteration that reached it
  std::vector<double> skew, largest, pieces;  // its pieces' largest / mean
  const int split_threads;  // host threads of one GPU's split
  IdaItems root_items;
};

// One GPU's part of an iteration: its share of the live roots, the items below them, its
// kernel's counts read back, and its times.
struct IdaGpuIteration {
  IdaGpuIteration() {
    dev.solved_root = ~0ull;
    dev.next_limit = INT_MAX;
    split_items.split.next_limit = INT_MAX;
  }
  std::vector<unsigned> live;
  double live_work = 0;
  PjIdaDeviceCounts dev{};
  IdaItems split_items;
  std::vector<unsigned char> report;  // report_buf, read back
  std::vector<unsigned long long> per_worker, work;
  IdaGpuPart part;
  double t_host = 0, t_split = 0, t_kernels = 0, t_transfers = 0;
  // The items searched below the roots: the roots themselves when donating, else the split's.
  const IdaItems& items(const IdaSolveState& s) const { return s.donating ? s.root_items : split_items; }
};

// What the GPUs of one iteration share while their kernels run: a goal met (first
// solution: the others stop) and when --time-limit ends the search.
struct IterationStop {
  std::atomic<bool> solved{false};
  clock_type::time_point deadline = clock_type::time_point::max();
};

// One iteration at a limit: the upper tree's search, then each GPU's part below the live roots.
struct IdaIteration {
  clock_type::time_point ti = clock_type::now();
  long long upper_goal = -1;
  PjIdaCounts upper{};
  std::vector<unsigned> live;
  std::vector<IdaGpuIteration> gpus;
};

// The GPUs --gpus names (the first by default); more than the host has is the user's error.
std::vector<int> ida_gpu_list(const SolveOptions& opts) {
  if (opts.gpus.empty()) return {0};
  return parse_gpu_list(opts.gpus, cuda::device_count(nullptr));
}

// The device, its context and both modules live as long as the object, with each
// GPU's tables and buffers; each solve() builds its start's upper tree and runs the
// iterations.
class GpuIdaSolver : public PathSolver {
 public:
  GpuIdaSolver(SkeletonRun& run, bool warp_per_root)
      : opts_(run.opts),
        warp_per_root_(warp_per_root),
        name_(run.result.skeleton),
        ordinals_(ida_gpu_list(run.opts)),
        g_(run),
        kernel_name_(warp_per_root ? "pj_ida_warp" : "pj_ida_thread"),
        ida_(g_.host),
        tables_(run.spec, ida_, run.units.host->text, run.cache(), host_threads(run.opts)),
        moves_(static_cast<int>(run.spec.path.moves.size())),
        balance_(balance_of(run.opts.ida_balance, warp_per_root)) {
    double upload_s = 0;
    for (size_t k = 0; k < ordinals_.size(); ++k) {
      // The first GPU listed is GpuStart's when it is device 0; the others have their own
      // context and load the same image (their kind is checked: one image for all).
      const bool use_start = k == 0 && ordinals_[0] == g_.dev.ordinal;
      devices_.push_back(std::make_unique<IdaDevice>(run, g_, ordinals_[k], use_start, tables_, warp_per_root, balance_));
      const cuda::Device& d = devices_.back()->dev;
      if (d.arch() != g_.dev.arch() || d.sm_count != g_.dev.sm_count)
        command_line_error("--gpus " + opts_.gpus, 8,
                           "the GPUs differ (" + g_.dev.name + ", " + d.name + "); the " + name_ +
                               " skeleton runs on GPUs of one kind",
                           "name GPUs of one kind, e.g. --gpus 0,1");
      upload_s += devices_.back()->table_seconds;
    }
    devices_[0]->make_current();  // this thread's: the first GPU's
    device_ = devices_[0]->dev.name + " (" + devices_[0]->dev.arch() + ", " +
              std::to_string(devices_[0]->dev.sm_count) + " SMs)";
    if (devices_.size() > 1) device_ = std::to_string(devices_.size()) + " x " + device_;
    run.result.device = device_;
    if (!tables_.empty()) {
      SolveResult::PatternDbs stage = tables_.stage();
      stage.seconds += upload_s;
      run.result.pattern_dbs = stage;
    }
  }
  ~GpuIdaSolver() override {
    while (!devices_.empty()) devices_.pop_back();
    cuda::api().CtxSetCurrent(g_.context.handle());  // GpuStart's module goes in its context
  }

  void solve(const StartValues& start, SolveResult& r) override;

 private:
  // solve()'s steps (below the class).
  void describe_roots(const PjIdaRoots& rt, unsigned long long want, double roots_per_worker,
                      SolveResult& r) const;
  void upload_roots(IdaSolveState& s);
  void iterate(IdaModule::Roots& roots, IdaSolveState& s, clock_type::time_point t1, SolveResult& r);
  template <class F>
  void on_gpus(F&& f);
  void search_below(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, int limit, IterationStop& stop);
  void launch(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, unsigned n_items, int limit, IterationStop& stop);
  void learn_work(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, size_t n, int limit);
  std::vector<int> goal_path(const IdaModule::Roots& roots, const IdaSolveState& s, const IdaIteration& iter,
                             int solved_gpu, int limit);
  unsigned all_workers() const {
    unsigned w = 0;
    for (const auto& d : devices_) w += d->workers;
    return w;
  }

  const SolveOptions& opts_;
  bool warp_per_root_;
  std::string name_;  // the registry's name of the skeleton, for messages
  std::vector<int> ordinals_;  // the GPUs (--gpus), checked before anything compiles
  GpuStart g_;
  const char* kernel_name_;  // for messages
  IdaModule ida_;
  PatternTables tables_;  // read by ida_'s heuristic (the upper tree); uploaded to every GPU
  std::string device_;  // as the result names it
  int moves_;
  Balance balance_;
  std::vector<std::unique_ptr<IdaDevice>> devices_;  // after g_: freed before its context
};

void GpuIdaSolver::solve(const StartValues& start, SolveResult& r) {
  auto t1 = clock_type::now();
  r.device = device_;
  r.iterations.clear();
  // Roots: with the host split, 8 per worker (with 2, Korf 88's kernels took 1.29 s
  // instead of 1.06 s: the split's pieces of a few large roots balance less well than
  // many roots). Donating, 1 per worker: the warps divide the large ones, and each root
  // costs host time every iteration (Korf's 100: 4.4 s with 1, 5.0 s with 4).
  // With pattern databases, a root per kWorkersPerRootWithTables workers: the host
  // computes h of every node of the upper tree with the tables' lookups (cache misses),
  // which took most of a small instance's time, while the warps divide a root's work
  // among themselves anyway (Korf's 100 on the H100: 0.38-0.48 s of search with 1 per 4,
  // 0.44-0.49 with 1 per 8, 0.53 with 1 per 2, 0.62-0.78 with 1 per worker;
  // docs/performance.md, issue 46). The workers are every GPU's.
  const bool donating = warp_per_root_ && balance_ == Balance::donate;
  const double roots_per_worker = !donating ? 8 : tables_.empty() ? 1 : 1.0 / kWorkersPerRootWithTables;
  unsigned long long want = opts_.roots > 0 ? opts_.roots
                                            : static_cast<unsigned long long>(std::ceil(roots_per_worker * all_workers()));
  IdaStart from(start);
  IdaModule::Roots roots(ida_, from, want);
  const PjIdaRoots& rt = roots.get();
  describe_roots(rt, want, roots_per_worker, r);
  // The host threads split roots for all GPUs at once: a share each.
  const int split_threads = std::max(1, host_threads(opts_) / static_cast<int>(devices_.size()));
  IdaSolveState s(rt, donating, balance_ != Balance::static_lists, split_threads);
  for (const auto& d : devices_) {
    d->make_current();
    d->reserve(rt.count, rt.node_bytes);
  }
  devices_[0]->make_current();
  if (donating) upload_roots(s);
  r.t_prepare = since(t1);
  r.t_host += r.t_prepare;
  iterate(roots, s, t1, r);
}

// The roots and the stacks, as the result reports them.
void GpuIdaSolver::describe_roots(const PjIdaRoots& rt, unsigned long long want, double roots_per_worker,
                                  SolveResult& r) const {
  const SolveOptions& opts = opts_;
  const WarpStack& stack = devices_[0]->stack;
  r.frontier_depth = rt.depth;
  r.frontier_nodes = rt.count;
  r.start_h = rt.start_h;
  r.threads = 1;
  r.dcpu_reason = opts.roots > 0 ? "--roots"
                                  : "first depth with >= " + std::to_string(want) + " paths (" +
                                        (roots_per_worker >= 1 ? std::to_string(static_cast<int>(roots_per_worker)) +
                                                                     " per worker)"
                                                               : "1 per " +
                                                                     std::to_string(static_cast<int>(
                                                                         std::lround(1 / roots_per_worker))) +
                                                                     " workers)");
  r.block_size = warp_per_root_ ? 32 : 128;
  if (warp_per_root_)
    r.memory_plan = "a stack of " + std::to_string(stack.entries) + " entries (" + std::to_string(stack.bytes) +
                    " bytes) per warp in shared memory, " + std::to_string(stack.blocks_per_sm) + " warps per SM" +
                    (devices_.size() > 1 ? " on each of " + std::to_string(devices_.size()) + " GPUs" : "");
  if (devices_.size() > 1) {
    r.ida_gpus = SolveResult::IdaGpus{};
    r.ida_gpus->ordinals = ordinals_;
    r.ida_gpus->expanded.assign(devices_.size(), 0);
    r.ida_gpus->kernel_s.assign(devices_.size(), 0.0);
  }
}

// Donating, the items are the roots themselves, uploaded once to every GPU: the warps
// divide large roots, and the host only orders each GPU's live ones by their last work
// each iteration.
void GpuIdaSolver::upload_roots(IdaSolveState& s) {
  const PjIdaRoots& rt = s.rt;
  const size_t count = s.count;
  std::vector<unsigned> every(count);
  std::iota(every.begin(), every.end(), 0u);
  s.root_items = split_roots(ida_, rt, moves_, every, s.expected, s.skew, HUGE_VAL, 0, rt.start_h, 1);
  for (const auto& d : devices_) {
    d->make_current();
    IdaDeviceBuffers& b = *d->buffers;
    b.nodes.upload(s.root_items.nodes.data(), s.root_items.nodes.size());
    b.gs.upload(s.root_items.g.data(), count * sizeof(int));
    b.lasts.upload(s.root_items.last.data(), count * sizeof(int));
  }
  devices_[0]->make_current();
}

// f(k) for every GPU k, each on a host thread of its own with its context current; one
// GPU on this thread. The first error is rethrown here once all are done.
template <class F>
void GpuIdaSolver::on_gpus(F&& f) {
  if (devices_.size() == 1) {
    f(size_t{0});
    return;
  }
  std::vector<std::exception_ptr> errors(devices_.size());
  std::vector<std::thread> threads;
  for (size_t k = 0; k < devices_.size(); ++k)
    threads.emplace_back([&, k] {
      try {
        devices_[k]->make_current();
        f(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// The iterations, each at the smallest f above the last's limit, until a goal is met,
// nothing is left, or --time-limit or a signal stops the search (between two
// iterations, or inside one: the kernels are asked to return, and the limit of the
// stopped iteration is proven).
void GpuIdaSolver::iterate(IdaModule::Roots& roots, IdaSolveState& s, clock_type::time_point t1, SolveResult& r) {
  const SolveOptions& opts = opts_;
  IdaModule& ida = ida_;
  int limit = s.rt.start_h;
  std::vector<unsigned char> alive;
  StopSignals signals;
  r.time_limit = opts.time_limit;
  const auto names = [&](int m) { return ida.move_name(m); };
  for (int it = 0; it < PJ_IDA_MAX_ITERATIONS; ++it) {
    if (it > 0 && (StopSignals::requested() || (opts.time_limit > 0 && since(t1) >= opts.time_limit))) {
      r.interrupted = StopSignals::signal_number();
      stopped_before_iteration(r, limit);
      finish_path(r, false, 0, {}, names);
      r.t_search = since(t1);
      return;
    }
    IdaIteration iter;
    iter.upper = roots.upper(limit, alive, iter.upper_goal);
    const double t_upper = since(iter.ti);
    r.t_upper += t_upper;
    for (size_t i = 0; i < s.count; ++i)
      if (alive[i]) iter.live.push_back(static_cast<unsigned>(i));
    iter.gpus.resize(devices_.size());
    std::vector<IdaGpuPart> parts(devices_.size());
    if (!iter.live.empty() && (opts.all_solutions || iter.upper_goal < 0)) {
      const auto shares = share_roots(iter.live, s.expected, static_cast<int>(devices_.size()));
      IterationStop stop;
      if (opts.time_limit > 0)
        stop.deadline = t1 + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opts.time_limit));
      on_gpus([&](size_t k) {
        IdaGpuIteration& gi = iter.gpus[k];
        gi.live = shares[k];
        for (unsigned root : gi.live) gi.live_work += s.expected[root];
        if (!gi.live.empty()) search_below(*devices_[k], s, gi, limit, stop);
        gi.part.below = PjIdaCounts{gi.dev.expanded + gi.split_items.split.expanded,
                                    gi.dev.evaluated + gi.split_items.split.evaluated,
                                    gi.dev.solutions + gi.split_items.split.solutions,
                                    std::min(gi.dev.next_limit, gi.split_items.split.next_limit)};
        gi.part.donated = gi.dev.donated;
      });
      // The times: the GPUs' parts ran side by side, so the longest of each.
      double host = 0, split = 0, kernels = 0, transfers = 0;
      for (size_t k = 0; k < iter.gpus.size(); ++k) {
        const IdaGpuIteration& gi = iter.gpus[k];
        parts[k] = gi.part;
        host = std::max(host, gi.t_host);
        split = std::max(split, gi.t_split);
        kernels = std::max(kernels, gi.t_kernels);
        transfers = std::max(transfers, gi.t_transfers);
        if (r.ida_gpus) {
          r.ida_gpus->expanded[k] += gi.part.below.expanded;
          r.ida_gpus->kernel_s[k] += gi.t_kernels;
        }
      }
      r.t_host += t_upper + host;
      r.t_split += split;
      r.t_kernels += kernels;
      r.t_transfers += transfers;
    } else {
      for (auto& p : parts) p.below.next_limit = INT_MAX;
    }
    const IdaCombined c = combine_parts(parts);
    add_iteration(r, limit, iter.upper, c.below, c.max_work, c.mean_work, since(iter.ti));
    r.iterations.back().donated = c.donated;
    if (devices_.size() > 1)
      for (const IdaGpuPart& p : parts) r.iterations.back().gpu_expanded.push_back(p.below.expanded);
    if (iter.upper.solutions + c.below.solutions > 0) {
      auto tp = clock_type::now();
      std::vector<int> path_moves = goal_path(roots, s, iter, c.solved_gpu, limit);
      r.t_host += since(tp);
      finish_path(r, true, limit, path_moves, names);
      // A goal at this limit is optimal even if the iteration was stopped; with
      // --all-solutions the count of a stopped one is partial.
      if (c.stopped && opts.all_solutions) {
        r.stopped = true;
        r.interrupted = StopSignals::signal_number();
      }
      r.t_search = since(t1);
      return;
    }
    if (c.stopped) {  // --time-limit or a signal inside the iteration: no path costs less than its limit
      r.stopped = true;
      r.interrupted = StopSignals::signal_number();
      finish_path(r, false, 0, {}, names);
      stopped_in_iteration(r);
      r.t_search = since(t1);
      return;
    }
    int next = std::min(iter.upper.next_limit, c.below.next_limit);
    if (next == INT_MAX) break;
    limit = next;
  }
  if (r.iterations.size() >= PJ_IDA_MAX_ITERATIONS)
    throw std::runtime_error(name_ + ": no goal after " + std::to_string(PJ_IDA_MAX_ITERATIONS) + " iterations");
  finish_path(r, false, 0, {}, names);
  r.t_search = since(t1);
}

// Below one GPU's live roots at `limit`: the items (split roots, or the roots when
// donating), their order onto the workers, one kernel, and what each item's work
// teaches the next iteration.
void GpuIdaSolver::search_below(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, int limit, IterationStop& stop) {
  const auto t0 = clock_type::now();
  const unsigned workers = d.workers;
  const bool donating = s.donating, dynamic = s.dynamic;
  IdaDeviceBuffers& b = *d.buffers;
  gi.dev.active = donating ? static_cast<int>(workers) : 0;  // every block holds work until its items are done
  // Roots expected to take more than a sixteenth of a worker's share are split (a
  // piece's real work varies a lot around its expected share: small pieces let the
  // dynamic balancing even it out). Iterations that are small anyway are not split:
  // the host's split would take longer than the imbalance it saves.
  if (!donating) {
    const double share = gi.live_work < kSplitFrom ? HUGE_VAL : gi.live_work / (16.0 * workers);
    auto ts = clock_type::now();
    gi.split_items = split_roots(ida_, s.rt, moves_, gi.live, s.expected, s.skew, share, kPiecesPerWorker * workers,
                                 limit, s.split_threads);
    gi.t_split += since(ts);
    if (gi.split_items.split.solutions > 0) stop.solved = true;  // first solution: the other GPUs may stop
  }
  const IdaItems& items = gi.items(s);
  int min_g = INT_MAX;
  for (int g : items.g) min_g = std::min(min_g, g);
  if (!warp_per_root_ && !items.g.empty() && limit - min_g > kMaxLevels)
    throw std::runtime_error("ida-thread: the limit " + std::to_string(limit) + " reaches deeper than " +
                             std::to_string(kMaxLevels) + " levels below a root; use the ida skeleton");
  const size_t n = items.size();
  // Static: each worker's list, largest expected first onto the least loaded (LPT).
  // Dynamic: one list, largest expected first, taken from a counter by free workers.
  // Donating: the live roots, largest expected first.
  Assignment a = donating  ? live_first(gi.live, s.expected)
                 : dynamic ? largest_first(items.expected)
                           : balance(items.expected, workers);
  if (!donating) {
    b.nodes.upload(items.nodes.data(), items.nodes.size());
    b.gs.upload(items.g.data(), n * sizeof(int));
    b.lasts.upload(items.last.data(), n * sizeof(int));
  }
  b.order_buf.upload(a.order.data(), a.order.size() * sizeof(unsigned));
  if (!dynamic) b.begin_buf.upload(a.begin.data(), a.begin.size() * sizeof(unsigned));
  b.work_buf.reserve(n * sizeof(unsigned long long));
  cuda::check(cuda::api().MemsetD8(b.work_buf.ptr(), 0, n * sizeof(unsigned long long)),
              "cuMemsetD8(the ida work per item)");  // the kernels add to it
  b.report_buf.upload(&gi.dev, sizeof gi.dev);
  gi.t_host += since(t0);
  launch(d, s, gi, static_cast<unsigned>(a.order.size()), limit, stop);
  learn_work(d, s, gi, n, limit);
  if (gi.dev.solutions > 0) stop.solved = true;
  gi.part.searched = true;
  gi.part.seconds = since(t0);
}

// The iteration's one kernel on GPU `d` over the `n_items` items in its order_buf. While
// it runs the host watches: another GPU's goal (first solution), --time-limit or a
// signal writes its stop word.
void GpuIdaSolver::launch(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, unsigned n_items, int limit,
                          IterationStop& stop) {
  const SolveOptions& opts = opts_;
  const unsigned workers = d.workers;
  const bool donating = s.donating, dynamic = s.dynamic;
  const IdaDeviceBuffers& b = *d.buffers;
  CUdeviceptr np = b.nodes.ptr(), gp = b.gs.ptr(), lp = b.lasts.ptr(), op = b.order_buf.ptr(),
              bp = dynamic ? 0 : b.begin_buf.ptr(), wp = b.work_buf.ptr(), ww = b.worker_work_ptr(),
              cp = b.counts_ptr();
  int all_flag = opts.all_solutions ? 1 : 0, cap = d.stack.entries;
  unsigned n_workers = workers;
  CUdeviceptr qp = donating ? d.queue.slots->ptr() : 0, rp = donating ? d.queue.ready->ptr() : 0;
  unsigned q_cap = donating ? d.queue.capacity : 0;
  unsigned stamp = donating ? ++d.queue.stamp : 0;
  unsigned donate_after = opts.donate_after.value_or(kDonateAfter);
  cuda::EventTimer& timer = *d.timer;
  timer.start();
  if (warp_per_root_) {
    void* args[] = {&np,    &gp, &lp, &op,           &bp, &n_items, &limit, &all_flag, &cap,
                    &qp,    &rp, &q_cap, &stamp, &donate_after, &wp,  &ww,     &cp};
    cuda::check(cuda::api().LaunchKernel(d.kernel, workers, 1, 1, 32, 1, 1, d.stack.bytes, nullptr, args, nullptr),
                "launching the ida kernel pj_ida_warp");
  } else {
    void* args[] = {&np, &gp, &lp, &op, &bp, &n_items, &n_workers, &limit, &all_flag, &wp, &ww, &cp};
    cuda::check(cuda::api().LaunchKernel(d.kernel, (workers + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr),
                "launching the ida-thread kernel pj_ida_thread");
  }
  try {
    timer.stop();
    const auto t0 = clock_type::now();
    bool asked = false;
    while (!timer.ended()) {
      if (!asked) {
        const bool late = clock_type::now() >= stop.deadline || StopSignals::requested();
        if (late || (!opts.all_solutions && stop.solved.load())) {
          d.request_stop();
          asked = true;
          gi.part.stopped = late;
        }
      }
      // Short kernels (Korf's instances: 0.1 ms on average) are waited for closely.
      if (clock_type::now() - t0 < std::chrono::milliseconds(2))
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    d.finish_stop();  // the word has landed before the next iteration rewrites it
    gi.t_kernels += timer.seconds();
  } catch (const cuda::Error& e) {
    throw cuda::Error(std::string("the ") + name_ + " kernel " + kernel_name_ + " failed: " + e.what());
  }
}

// The kernel's counts and each item's and worker's work, read back: the load balance,
// and what the next iteration expects of each live root of this GPU.
void GpuIdaSolver::learn_work(IdaDevice& d, IdaSolveState& s, IdaGpuIteration& gi, size_t n, int limit) {
  const unsigned workers = d.workers;
  const IdaItems& items = gi.items(s);
  IdaDeviceBuffers& b = *d.buffers;
  auto tt = clock_type::now();
  // The counts and the work per worker in one transfer, the work per item in another.
  const size_t worker_bytes = workers * sizeof(unsigned long long);
  gi.report.resize(b.workers_offset + worker_bytes);
  b.report_buf.download(gi.report.data(), gi.report.size());
  std::memcpy(&gi.dev, gi.report.data(), sizeof gi.dev);
  gi.per_worker.resize(workers);
  std::memcpy(gi.per_worker.data(), gi.report.data() + b.workers_offset, worker_bytes);
  gi.work.resize(n);
  b.work_buf.download(gi.work.data(), n * sizeof(unsigned long long));
  gi.t_transfers += since(tt);
  PJ_INTERNAL_ASSERT(!gi.dev.overflow, "a " + name_ + " stack overflowed at limit " + std::to_string(limit));
  // Load balance: the work of each worker, and what the next iteration expects per root.
  gi.part.max_work = *std::max_element(gi.per_worker.begin(), gi.per_worker.end());
  gi.part.work = std::accumulate(gi.per_worker.begin(), gi.per_worker.end(), 0ull);
  gi.part.workers = workers;
  // A root's pieces of very different sizes are cut finer next time: by their
  // largest over their mean (1 for a root searched whole). Only this GPU's roots are
  // written (the others' GPUs write theirs at the same time).
  for (unsigned root : gi.live) {
    s.expected[root] = static_cast<double>(items.split_expanded[root]);
    s.largest[root] = 0;
    s.pieces[root] = 0;
  }
  auto add = [&](size_t i) {
    const unsigned root = items.root[i];
    s.expected[root] += static_cast<double>(gi.work[i]);
    s.largest[root] = std::max(s.largest[root], static_cast<double>(gi.work[i]));
    ++s.pieces[root];
  };
  if (s.donating) {
    for (unsigned root : gi.live) add(root);  // the items are the roots
  } else {
    for (size_t i = 0; i < n; ++i) add(i);
  }
  for (unsigned root : gi.live) {
    s.expected[root] = std::max(1.0, s.expected[root]);
    s.skew[root] = s.pieces[root] > 1 ? std::clamp(s.largest[root] * s.pieces[root] / s.expected[root], 1.0, 8.0) : 1.0;
  }
}

// One optimal path: to a goal above the roots; else below the item GPU `solved_gpu`'s
// kernel reports (the smallest with a goal: a search of that piece, not of its whole
// root); else below the root whose split met a goal.
std::vector<int> GpuIdaSolver::goal_path(const IdaModule::Roots& roots, const IdaSolveState& s,
                                         const IdaIteration& iter, int solved_gpu, int limit) {
  if (iter.upper_goal >= 0) return roots.path(-1, iter.upper_goal, limit);
  PJ_INTERNAL_ASSERT(solved_gpu >= 0, "an iteration met a goal that no GPU reports");
  const IdaGpuIteration& gi = iter.gpus[static_cast<size_t>(solved_gpu)];
  IdaDevice& d = *devices_[static_cast<size_t>(solved_gpu)];
  const IdaItems& items = gi.items(s);
  const PjIdaDeviceCounts& dev = gi.dev;
  if (donated(dev.solved_root)) {
    d.make_current();
    auto read_slot = [&](unsigned slot, unsigned char* out) {
      d.queue.slots->download(out, static_cast<size_t>(d.layout.bytes), static_cast<size_t>(slot) * d.layout.bytes);
    };
    const Retraced t = retrace_donation(ida_, items, d.layout, read_slot, dev.solved_root, limit);
    devices_[0]->make_current();
    return roots.path_via(items.root.at(t.item), t.via, t.node.data(), t.g, t.last, limit);
  }
  if (dev.solved_root != ~0ull) {
    const size_t k = static_cast<size_t>(dev.solved_root);
    return roots.path_via(items.root.at(k), items.moves_to(k), items.nodes.data() + k * items.node_bytes, items.g[k],
                          items.last[k], limit);
  }
  return roots.path(items.goal_root, -1, limit);
}
}  // namespace

std::unique_ptr<PathSolver> open_gpu_ida(SkeletonRun& run) { return std::make_unique<GpuIdaSolver>(run, true); }
std::unique_ptr<PathSolver> open_gpu_ida_thread(SkeletonRun& run) { return std::make_unique<GpuIdaSolver>(run, false); }

void run_ida_skeleton(SkeletonRun& run) { run_path_once(open_gpu_ida, run); }
void run_ida_thread_skeleton(SkeletonRun& run) { run_path_once(open_gpu_ida_thread, run); }

}  // namespace permjit
