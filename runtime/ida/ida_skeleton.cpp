// Host side of the `ida` (BPIDA*, Horie and Fukunaga 2017 §5) and `ida-thread` (PStaticLB) skeletons:
// the CPU module builds the upper tree once; each iteration the host walks it at the
// limit (templates/cpu_ida.hpp), hands the alive roots to blocks (one warp each) or
// threads, balanced by the work each root took in the previous iteration (static load
// balancing, largest first onto the least loaded), launches one kernel, and takes the
// next limit as the smallest f above the limit seen on either side.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <queue>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/compile/ida_module.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals
#include "runtime/ida/ida_donation.hpp"
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

constexpr unsigned kMaxBlocksPerSm = 32;  // resident blocks an SM holds (sm_50 to sm_90)
constexpr double kPiecesPerWorker = 8;  // at most, from a split: the host's splitting time grows with them
constexpr double kSplitFrom = 2e6;        // expanded nodes of the previous iteration below which no root is split
constexpr unsigned kQueueSlots = 1u << 20;  // ida --balance donate: nodes in flight between warps per launch
constexpr unsigned kDonateAfter = 1024;      // steps a warp searches its work before it gives (--donate-after)
constexpr int kWorkersPerRootWithTables = 4;  // ida with pattern databases: fewer roots (see solve())

// ida: a warp's stack in shared memory. By default the largest that keeps an SM's 32
// one-warp blocks resident at once (a stack of 40 KiB, the first choice, left 5 warps
// per SM and the GPU latency-bound). A deeper stack allows wider pops deep in the tree.
struct WarpStack {
  int entries = 0, bytes = 0;
  unsigned blocks_per_sm = 0;
};

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

struct Assignment {
  std::vector<unsigned> order;  // alive roots, grouped by worker
  std::vector<unsigned> begin;  // workers + 1 offsets into order
};

// Device memory that is reallocated when an iteration needs more than it holds.
class GrowingBuffer {
 public:
  void reserve(size_t bytes) {
    if (buf_ && bytes <= size_) return;
    buf_.reset();
    size_ = std::max<size_t>(bytes, 2 * size_);
    buf_ = std::make_unique<cuda::Buffer>(size_ ? size_ : 1);
  }
  void upload(const void* data, size_t bytes) {
    reserve(bytes);
    if (bytes) buf_->upload(data, bytes);
  }
  void download(void* data, size_t bytes) const { buf_->download(data, bytes); }
  CUdeviceptr ptr() const { return buf_->ptr(); }

 private:
  std::unique_ptr<cuda::Buffer> buf_;
  size_t size_ = 0;
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
  using Load = std::pair<double, unsigned>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (unsigned w = 0; w < workers; ++w) least.push({0.0, w});
  std::vector<std::vector<unsigned>> lists(workers);
  for (unsigned i : by_work(expected)) {
    Load l = least.top();
    least.pop();
    lists[l.second].push_back(i);
    least.push({l.first + expected[i], l.second});
  }
  Assignment a;
  a.begin.push_back(0);
  for (const auto& l : lists) {
    a.order.insert(a.order.end(), l.begin(), l.end());
    a.begin.push_back(static_cast<unsigned>(a.order.size()));
  }
  return a;
}

// How the items (roots, or pieces of them) reach the workers: see docs/skeletons.md.
enum class Balance {
  static_lists,  // PStaticLB: a list per worker, largest expected first onto the least loaded; large roots split
  counter,       // the same order, each worker takes the next item from a device counter; large roots split
  donate,        // a counter, then warps give nodes from their stacks to warps without work; no split
};

// The default: donation for ida (Korf's 100: 4.4 s of search against 6.7 s with the
// host split and a counter, docs/performance.md), the counter for ida-thread.
Balance balance_of(const std::string& name, bool warp_per_root) {
  if (name.empty()) return warp_per_root ? Balance::donate : Balance::counter;
  return name == "static" ? Balance::static_lists : name == "donate" ? Balance::donate : Balance::counter;
}

// The device's queue of donated nodes, with the stamp that marks a slot filled in this
// launch (flags are never cleared: each launch has a new stamp).
struct DonationQueue {
  std::unique_ptr<cuda::Buffer> slots, ready;
  unsigned stamp = 0;
};

// The device buffers of the iterations, kept by the solver from start to start
// (--records): allocating and freeing them for each start (cuMemFree waits for the
// device) would be host time in every instance, where a small one searches for a few
// milliseconds in all. The kernel's counts and the work of each worker share one
// allocation, read back at once.
struct IdaDeviceBuffers {
  explicit IdaDeviceBuffers(unsigned workers)
      : workers_offset((sizeof(PjIdaDeviceCounts) + 255) / 256 * 256),
        begin_buf((workers + 1) * sizeof(unsigned)),
        report_buf(workers_offset + workers * sizeof(unsigned long long)) {}
  const size_t workers_offset;  // of the per-worker work in report_buf
  GrowingBuffer nodes, gs, lasts, order_buf, work_buf;
  cuda::Buffer begin_buf;
  cuda::Buffer report_buf;  // PjIdaDeviceCounts, then a work count per worker
  CUdeviceptr counts_ptr() const { return report_buf.ptr(); }
  CUdeviceptr worker_work_ptr() const { return report_buf.ptr() + workers_offset; }
};

// What one solve() keeps from iteration to iteration: the device buffers, sized for
// every root and a split's pieces, what the host knows of each root's work, and, when
// donating, the roots themselves as the items.
struct IdaSolveState {
  IdaSolveState(const PjIdaRoots& roots, IdaDeviceBuffers& buffers, bool donating_, bool dynamic_, unsigned workers,
                int threads)
      : rt(roots),
        donating(donating_),
        count(roots.count),
        buf(buffers),
        per_worker(workers),
        dynamic(dynamic_),
        expected(count, 1.0),
        skew(count, 1.0),
        largest(count, 0.0),
        pieces(count, 0.0),
        split_threads(threads) {
    // Room for every root and a split's pieces: reallocating device memory (cuMemFree
    // waits for the device) between iterations cost milliseconds each time.
    const size_t room = count + 32ull * workers;
    buf.nodes.reserve(room * rt.node_bytes);
    buf.gs.reserve(room * sizeof(int));
    buf.lasts.reserve(room * sizeof(int));
    buf.order_buf.reserve(room * sizeof(unsigned));
    buf.work_buf.reserve(room * sizeof(unsigned long long));
  }
  const PjIdaRoots& rt;
  const bool donating;
  const size_t count;
  IdaDeviceBuffers& buf;
  std::vector<unsigned char> report;  // report_buf, read back
  std::vector<unsigned long long> per_worker;
  const bool dynamic;
  std::vector<double> expected;  // per root: its work in the last iteration that reached it
  std::vector<double> skew, largest, pieces;  // its pieces' largest / mean
  std::vector<unsigned long long> work;
  const int split_threads;
  IdaItems root_items;
};

// One iteration at a limit: the upper tree's search, then the items below the live roots.
struct IdaIteration {
  clock_type::time_point ti = clock_type::now();
  long long upper_goal = -1;
  PjIdaCounts upper{};
  std::vector<unsigned> live;
  double live_work = 0;
  PjIdaDeviceCounts dev{};
  unsigned long long max_work = 0;
  double mean_work = 0;
  IdaItems split_items;
  // The items searched below the roots: the roots themselves when donating, else the split's.
  const IdaItems& items(const IdaSolveState& s) const { return s.donating ? s.root_items : split_items; }
};

// The device, its context and both modules live as long as the object; each solve()
// builds its start's upper tree and buffers and runs the iterations.
class GpuIdaSolver : public PathSolver {
 public:
  GpuIdaSolver(SkeletonRun& run, bool warp_per_root)
      : opts_(run.opts),
        warp_per_root_(warp_per_root),
        name_(run.result.skeleton),
        g_(run),
        kernel_name_(warp_per_root ? "pj_ida_warp" : "pj_ida_thread"),
        kernel_(g_.module.function(kernel_name_)),
        ida_(g_.host),
        tables_(run.spec, ida_, run.units.host->text, run.cache(), host_threads(run.opts)),
        device_(run.result.device),
        moves_(static_cast<int>(run.spec.path.moves.size())),
        balance_(balance_of(run.opts.ida_balance, warp_per_root)) {
    upload_tables(run);
    // Workers: blocks of one warp as many as the SMs hold at once, or every thread slot.
    const int entry_bytes = g_.module.read_int("pj_ida_entry_bytes");  // gpu_ida::Entry, as the device lays it out
    stack_ = plan_warp_stack(g_.dev, entry_bytes, opts_.ida_stack);
    workers_ = warp_per_root ? static_cast<unsigned>(g_.dev.sm_count) * stack_.blocks_per_sm
                             : static_cast<unsigned>(g_.dev.sm_count * g_.dev.max_threads_per_sm);
    if (warp_per_root) cuda::allow_dynamic_shared(kernel_, static_cast<size_t>(stack_.bytes), "pj_ida_warp");
    if (warp_per_root && balance_ == Balance::donate) {
      // Waiting warps wait for the others (gpu_ida::Queue): all must be resident at once,
      // so no more blocks than the occupancy calculator says an SM holds.
      int resident = 0;
      cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel_, 32, stack_.bytes),
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor(pj_ida_warp)");
      if (resident < 1) throw std::runtime_error("ida: no block of pj_ida_warp fits an SM");
      stack_.blocks_per_sm = std::min(stack_.blocks_per_sm, static_cast<unsigned>(resident));
      workers_ = static_cast<unsigned>(g_.dev.sm_count) * stack_.blocks_per_sm;
      layout_ = DonationLayout{g_.module.read_int("pj_ida_donation_bytes"), g_.module.read_int("pj_ida_entry_g_offset"),
                               g_.module.read_int("pj_ida_entry_last_offset"),
                               g_.module.read_int("pj_ida_donation_parent_offset")};
      queue_.slots = std::make_unique<cuda::Buffer>(static_cast<size_t>(kQueueSlots) * layout_.bytes);
      queue_.ready = std::make_unique<cuda::Buffer>(kQueueSlots * sizeof(unsigned));
      queue_.ready->zero();
    }
    buffers_ = std::make_unique<IdaDeviceBuffers>(workers_);
  }

  void solve(const StartValues& start, SolveResult& r) override;

 private:
  // solve()'s steps (below the class).
  void describe_roots(const PjIdaRoots& rt, unsigned long long want, double roots_per_worker,
                      SolveResult& r) const;
  void upload_roots(IdaSolveState& s);
  void iterate(IdaModule::Roots& roots, IdaSolveState& s, clock_type::time_point t1, SolveResult& r);
  void search_below(IdaSolveState& s, IdaIteration& iter, int limit, cuda::EventTimer& timer, SolveResult& r);
  void launch(IdaSolveState& s, unsigned n_items, int limit, cuda::EventTimer& timer, SolveResult& r);
  void learn_work(IdaSolveState& s, IdaIteration& iter, size_t n, int limit, SolveResult& r);
  std::vector<int> goal_path(const IdaModule::Roots& roots, const IdaSolveState& s, const IdaIteration& iter, int limit);

  // The pattern databases into global memory, their addresses into the module's
  // pj_pdb_tables (the upper tree, on the host, reads tables_ itself).
  void upload_tables(SkeletonRun& run) {
    if (tables_.empty()) return;
    auto t0 = clock_type::now();
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cuda::api().MemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
    const auto& p = run.spec.path.databases;
    size_t held = 0;
    std::vector<CUdeviceptr> ptrs;
    for (size_t k = 0; k < tables_.tables().size(); ++k) {
      const auto& t = tables_.tables()[k];
      held += t.size();
      if (held + (256u << 20) > free_bytes) {  // room left for the search's own buffers
        Diagnostics d;
        d.error(p.patterns[k].loc, "the pattern tables up to this one need " + std::to_string(held >> 20) +
                                       " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free",
                "use smaller patterns");
        throw UserErrors(std::move(d));
      }
      device_tables_.push_back(std::make_unique<cuda::Buffer>(t.size()));
      device_tables_.back()->upload(t.data(), t.size());
      ptrs.push_back(device_tables_.back()->ptr());
    }
    size_t bytes = 0;
    const CUdeviceptr at = g_.module.global("pj_pdb_tables", &bytes);
    PJ_INTERNAL_ASSERT(bytes == ptrs.size() * sizeof(CUdeviceptr), "pj_pdb_tables has room for " +
                                                                      std::to_string(bytes / sizeof(CUdeviceptr)) +
                                                                      " tables");
    cuda::check(cuda::api().MemcpyHtoD(at, ptrs.data(), bytes), "uploading the pattern table addresses");
    SolveResult::PatternDbs stage = tables_.stage();
    stage.seconds += since(t0);
    run.result.pattern_dbs = stage;
  }

  const SolveOptions& opts_;
  bool warp_per_root_;
  std::string name_;  // the registry's name of the skeleton, for messages
  GpuStart g_;
  const char* kernel_name_;  // for messages; declared before kernel_, which is looked up by it
  CUfunction kernel_;
  IdaModule ida_;
  PatternTables tables_;  // read by ida_'s heuristic (the upper tree); uploaded below
  std::vector<std::unique_ptr<cuda::Buffer>> device_tables_;
  std::string device_;  // as open_device named it
  int moves_;
  Balance balance_;
  WarpStack stack_;
  unsigned workers_ = 0;
  DonationLayout layout_;
  DonationQueue queue_;  // allocated when donating
  std::unique_ptr<IdaDeviceBuffers> buffers_;  // for every start (after workers_ is known)
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
  // docs/performance.md, issue 46).
  const bool donating = warp_per_root_ && balance_ == Balance::donate;
  const double roots_per_worker = !donating ? 8 : tables_.empty() ? 1 : 1.0 / kWorkersPerRootWithTables;
  unsigned long long want = opts_.roots > 0 ? opts_.roots
                                            : static_cast<unsigned long long>(std::ceil(roots_per_worker * workers_));
  IdaStart from(start);
  IdaModule::Roots roots(ida_, from, want);
  const PjIdaRoots& rt = roots.get();
  describe_roots(rt, want, roots_per_worker, r);
  IdaSolveState s(rt, *buffers_, donating, balance_ != Balance::static_lists, workers_, host_threads(opts_));
  if (donating) upload_roots(s);
  r.t_prepare = since(t1);
  r.t_host += r.t_prepare;
  iterate(roots, s, t1, r);
}

// The roots and the stacks, as the result reports them.
void GpuIdaSolver::describe_roots(const PjIdaRoots& rt, unsigned long long want, double roots_per_worker,
                                  SolveResult& r) const {
  const SolveOptions& opts = opts_;
  const bool warp_per_root = warp_per_root_;
  const WarpStack& stack = stack_;
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
  r.block_size = warp_per_root ? 32 : 128;
  if (warp_per_root)
    r.memory_plan = "a stack of " + std::to_string(stack.entries) + " entries (" + std::to_string(stack.bytes) +
                    " bytes) per warp in shared memory, " + std::to_string(stack.blocks_per_sm) + " warps per SM";
}

// Donating, the items are the roots themselves, uploaded once: the warps divide large
// roots, and the host only orders the live ones by their last work each iteration.
void GpuIdaSolver::upload_roots(IdaSolveState& s) {
  const PjIdaRoots& rt = s.rt;
  const size_t count = s.count;
  std::vector<unsigned> every(count);
  std::iota(every.begin(), every.end(), 0u);
  s.root_items = split_roots(ida_, rt, moves_, every, s.expected, s.skew, HUGE_VAL, 0, rt.start_h, 1);
  s.buf.nodes.upload(s.root_items.nodes.data(), s.root_items.nodes.size());
  s.buf.gs.upload(s.root_items.g.data(), count * sizeof(int));
  s.buf.lasts.upload(s.root_items.last.data(), count * sizeof(int));
}

// The iterations, each at the smallest f above the last's limit, until a goal is met,
// nothing is left, or --time-limit or a signal stops the search between two of them.
void GpuIdaSolver::iterate(IdaModule::Roots& roots, IdaSolveState& s, clock_type::time_point t1, SolveResult& r) {
  const SolveOptions& opts = opts_;
  const std::string& name = name_;
  IdaModule& ida = ida_;
  cuda::EventTimer timer;
  int limit = s.rt.start_h;
  std::vector<unsigned char> alive;
  // --time-limit and SIGINT/SIGTERM are checked between iterations (a kernel is not
  // stopped inside one): a stop then proves that no path costs less than `limit`.
  StopSignals signals;
  r.time_limit = opts.time_limit;
  for (int it = 0; it < PJ_IDA_MAX_ITERATIONS; ++it) {
    if (it > 0 && (StopSignals::requested() || (opts.time_limit > 0 && since(t1) >= opts.time_limit))) {
      r.interrupted = StopSignals::signal_number();
      stopped_before_iteration(r, limit);
      finish_path(r, false, 0, {}, [&](int m) { return ida.move_name(m); });
      r.t_search = since(t1);
      return;
    }
    IdaIteration iter;
    iter.upper = roots.upper(limit, alive, iter.upper_goal);
    r.t_upper += since(iter.ti);
    for (size_t i = 0; i < s.count; ++i)
      if (alive[i]) {
        iter.live.push_back(static_cast<unsigned>(i));
        iter.live_work += s.expected[i];
      }
    iter.dev.solved_root = ~0ull;
    iter.dev.next_limit = INT_MAX;
    iter.dev.active = s.donating ? static_cast<int>(workers_) : 0;  // every block holds work until its items are done
    iter.split_items.split.next_limit = INT_MAX;
    if (!iter.live.empty() && (opts.all_solutions || iter.upper_goal < 0)) search_below(s, iter, limit, timer, r);
    const PjIdaCounts& sp = iter.items(s).split;
    PjIdaCounts below{iter.dev.expanded + sp.expanded, iter.dev.evaluated + sp.evaluated,
                      iter.dev.solutions + sp.solutions, std::min(iter.dev.next_limit, sp.next_limit)};
    add_iteration(r, limit, iter.upper, below, iter.max_work, iter.mean_work, since(iter.ti));
    r.iterations.back().donated = iter.dev.donated;
    if (iter.upper.solutions + below.solutions > 0) {
      auto tp = clock_type::now();
      std::vector<int> path_moves = goal_path(roots, s, iter, limit);
      r.t_host += since(tp);
      finish_path(r, true, limit, path_moves, [&](int m) { return ida.move_name(m); });
      r.t_search = since(t1);
      return;
    }
    int next = std::min(iter.upper.next_limit, below.next_limit);
    if (next == INT_MAX) break;
    limit = next;
  }
  if (r.iterations.size() >= PJ_IDA_MAX_ITERATIONS)
    throw std::runtime_error(std::string(name) + ": no goal after " + std::to_string(PJ_IDA_MAX_ITERATIONS) + " iterations");
  finish_path(r, false, 0, {}, [&](int m) { return ida.move_name(m); });
  r.t_search = since(t1);
}

// Below the live roots at `limit`: the items (split roots, or the roots when donating),
// their order onto the workers, one kernel, and what each item's work teaches the next
// iteration.
void GpuIdaSolver::search_below(IdaSolveState& s, IdaIteration& iter, int limit, cuda::EventTimer& timer,
                                SolveResult& r) {
  const bool warp_per_root = warp_per_root_;
  const unsigned workers = workers_;
  const bool donating = s.donating, dynamic = s.dynamic;
  // Roots expected to take more than a sixteenth of a worker's share are split (a
  // piece's real work varies a lot around its expected share: small pieces let the
  // dynamic balancing even it out). Iterations that are small anyway are not split:
  // the host's split would take longer than the imbalance it saves.
  if (!donating) {
    const double share = iter.live_work < kSplitFrom ? HUGE_VAL : iter.live_work / (16.0 * workers);
    auto ts = clock_type::now();
    iter.split_items = split_roots(ida_, s.rt, moves_, iter.live, s.expected, s.skew, share, kPiecesPerWorker * workers,
                                   limit, s.split_threads);
    r.t_split += since(ts);
  }
  const IdaItems& items = iter.items(s);
  int min_g = INT_MAX;
  for (int gi : items.g) min_g = std::min(min_g, gi);
  if (!warp_per_root && !items.g.empty() && limit - min_g > kMaxLevels)
    throw std::runtime_error("ida-thread: the limit " + std::to_string(limit) + " reaches deeper than " +
                             std::to_string(kMaxLevels) + " levels below a root; use the ida skeleton");
  const size_t n = items.size();
  // Static: each worker's list, largest expected first onto the least loaded (LPT).
  // Dynamic: one list, largest expected first, taken from a counter by free workers.
  // Donating: the live roots, largest expected first.
  Assignment a = donating  ? live_first(iter.live, s.expected)
                 : dynamic ? largest_first(items.expected)
                           : balance(items.expected, workers);
  if (!donating) {
    s.buf.nodes.upload(items.nodes.data(), items.nodes.size());
    s.buf.gs.upload(items.g.data(), n * sizeof(int));
    s.buf.lasts.upload(items.last.data(), n * sizeof(int));
  }
  s.buf.order_buf.upload(a.order.data(), a.order.size() * sizeof(unsigned));
  if (!dynamic) s.buf.begin_buf.upload(a.begin.data(), a.begin.size() * sizeof(unsigned));
  s.buf.work_buf.reserve(n * sizeof(unsigned long long));
  cuda::check(cuda::api().MemsetD8(s.buf.work_buf.ptr(), 0, n * sizeof(unsigned long long)),
              "cuMemsetD8(the ida work per item)");  // the kernels add to it
  s.buf.report_buf.upload(&iter.dev, sizeof iter.dev);
  r.t_host += since(iter.ti);
  launch(s, static_cast<unsigned>(a.order.size()), limit, timer, r);
  learn_work(s, iter, n, limit, r);
}

// The iteration's one kernel over the `n_items` items in order_buf.
void GpuIdaSolver::launch(IdaSolveState& s, unsigned n_items, int limit, cuda::EventTimer& timer, SolveResult& r) {
  const SolveOptions& opts = opts_;
  const unsigned workers = workers_;
  const bool donating = s.donating, dynamic = s.dynamic;
  CUfunction kernel = kernel_;
  const IdaDeviceBuffers& b = s.buf;
  CUdeviceptr np = b.nodes.ptr(), gp = b.gs.ptr(), lp = b.lasts.ptr(), op = b.order_buf.ptr(),
              bp = dynamic ? 0 : b.begin_buf.ptr(), wp = b.work_buf.ptr(), ww = b.worker_work_ptr(),
              cp = b.counts_ptr();
  int all_flag = opts.all_solutions ? 1 : 0, cap = stack_.entries;
  unsigned n_workers = workers;
  CUdeviceptr qp = donating ? queue_.slots->ptr() : 0, rp = donating ? queue_.ready->ptr() : 0;
  unsigned q_cap = donating ? kQueueSlots : 0, stamp = donating ? ++queue_.stamp : 0;
  unsigned donate_after = opts.donate_after.value_or(kDonateAfter);
  timer.start();
  if (warp_per_root_) {
    void* args[] = {&np,    &gp, &lp, &op,           &bp, &n_items, &limit, &all_flag, &cap,
                    &qp,    &rp, &q_cap, &stamp, &donate_after, &wp,  &ww,     &cp};
    cuda::check(cuda::api().LaunchKernel(kernel, workers, 1, 1, 32, 1, 1, stack_.bytes, nullptr, args, nullptr),
                "launching the ida kernel pj_ida_warp");
  } else {
    void* args[] = {&np, &gp, &lp, &op, &bp, &n_items, &n_workers, &limit, &all_flag, &wp, &ww, &cp};
    cuda::check(cuda::api().LaunchKernel(kernel, (workers + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr),
                "launching the ida-thread kernel pj_ida_thread");
  }
  try {
    r.t_kernels += timer.stop_seconds();
  } catch (const cuda::Error& e) {
    throw cuda::Error(std::string("the ") + name_ + " kernel " + kernel_name_ + " failed: " + e.what());
  }
}

// The kernel's counts and each item's and worker's work, read back: the load balance,
// and what the next iteration expects of each live root.
void GpuIdaSolver::learn_work(IdaSolveState& s, IdaIteration& iter, size_t n, int limit, SolveResult& r) {
  const unsigned workers = workers_;
  const IdaItems& items = iter.items(s);
  auto tt = clock_type::now();
  // The counts and the work per worker in one transfer, the work per item in another.
  const size_t worker_bytes = workers * sizeof(unsigned long long);
  s.report.resize(s.buf.workers_offset + worker_bytes);
  s.buf.report_buf.download(s.report.data(), s.report.size());
  std::memcpy(&iter.dev, s.report.data(), sizeof iter.dev);
  std::memcpy(s.per_worker.data(), s.report.data() + s.buf.workers_offset, worker_bytes);
  s.work.resize(n);
  s.buf.work_buf.download(s.work.data(), n * sizeof(unsigned long long));
  r.t_transfers += since(tt);
  PJ_INTERNAL_ASSERT(!iter.dev.overflow, "a " + name_ + " stack overflowed at limit " + std::to_string(limit));
  // Load balance: the work of each worker, and what the next iteration expects per root.
  iter.max_work = *std::max_element(s.per_worker.begin(), s.per_worker.end());
  iter.mean_work = static_cast<double>(std::accumulate(s.per_worker.begin(), s.per_worker.end(), 0ull)) / workers;
  // A root's pieces of very different sizes are cut finer next time: by their
  // largest over their mean (1 for a root searched whole).
  for (unsigned root : iter.live) {
    s.expected[root] = static_cast<double>(items.split_expanded[root]);
    s.largest[root] = 0;
    s.pieces[root] = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    const unsigned root = items.root[i];
    s.expected[root] += static_cast<double>(s.work[i]);
    s.largest[root] = std::max(s.largest[root], static_cast<double>(s.work[i]));
    ++s.pieces[root];
  }
  for (unsigned root : iter.live) {
    s.expected[root] = std::max(1.0, s.expected[root]);
    s.skew[root] = s.pieces[root] > 1 ? std::clamp(s.largest[root] * s.pieces[root] / s.expected[root], 1.0, 8.0) : 1.0;
  }
}

// One optimal path: to a goal above the roots; else below the item the kernel reports
// (the smallest with a goal: a search of that piece, not of its whole root); else below
// the root whose split met a goal.
std::vector<int> GpuIdaSolver::goal_path(const IdaModule::Roots& roots, const IdaSolveState& s,
                                         const IdaIteration& iter, int limit) {
  const IdaItems& items = iter.items(s);
  const PjIdaDeviceCounts& dev = iter.dev;
  if (iter.upper_goal >= 0) return roots.path(-1, iter.upper_goal, limit);
  if (donated(dev.solved_root)) {
    auto read_slot = [&](unsigned slot, unsigned char* out) {
      queue_.slots->download(out, static_cast<size_t>(layout_.bytes), static_cast<size_t>(slot) * layout_.bytes);
    };
    const Retraced d = retrace_donation(ida_, items, layout_, read_slot, dev.solved_root, limit);
    return roots.path_via(items.root.at(d.item), d.via, d.node.data(), d.g, d.last, limit);
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
