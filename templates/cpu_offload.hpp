// Host side of the `offload` skeleton (Chakroun et al. 2013 §5, Melab et al. 2019 §3.3): the CPU keeps the
// open nodes (offload_pool.hpp), selects parents, sorts each batch by tree position
// (Chakroun et al. 2013 §5.2), offloads it, and prunes what comes back. The device bounds the
// children the host generated (bound mode), or branches the parents itself, one child
// per thread (branch mode). Several batches are in flight at once (Melab et al. 2019 §5.1).
//
// One host thread cannot keep a GPU busy: the pool work per child costs about what the
// device's bound costs. So several threads run this loop, each with its own pool and
// its own slots; they share the incumbent, and a thread with nothing left takes half of
// another's pool. Counting follows cpu_dfs.hpp's `visit`: a node taken from a pool is
// expanded, each child generated is evaluated; a node is in exactly one pool, batch or
// thief's hands at a time, so with --ub at the optimum the totals equal the cpu and dfs
// skeletons' for any thread count.
#include <chrono>
#include <climits>
#include <deque>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

namespace cpu_offload {

using cpu_skeleton::Counters;
using cpu_skeleton::Shared;

// One batch on its way to the device and back.
struct Batch {
  std::vector<OpenNode> parents;  // sorted by tree position
  std::vector<Node> send;         // children (bound mode) or parents (branch mode)
  std::vector<unsigned> offsets;  // branch mode
  std::vector<int> bounds;
  unsigned long long children = 0;
};

class Worker;

// What the host threads share.
struct Team {
  Team(const PjOffloadArgs& a, const PjOffloadDevice& d, Shared& s) : args(a), dev(d), sh(s) {}
  const PjOffloadArgs& args;
  const PjOffloadDevice& dev;
  Shared& sh;
  std::vector<std::unique_ptr<Worker>> workers;
  std::atomic<int> idle{0};   // threads with an empty pool and no batch in flight
  std::atomic<int> rc{0};     // the first nonzero device return: every thread stops
  std::atomic<long long> pooled{0};
  std::atomic<unsigned long long> max_pool{0};

  void fail(int code) {
    int none = 0;
    rc.compare_exchange_strong(none, code);
  }
  void pool_changed(long long delta) {
    unsigned long long now = static_cast<unsigned long long>(pooled.fetch_add(delta) + delta);
    for (unsigned long long seen = max_pool.load(); now > seen && !max_pool.compare_exchange_weak(seen, now);) {
    }
  }
};

// Sorts by tree position: depth, then the values placed (lexicographic), so that a
// warp's threads work on neighbouring subproblems.
inline bool before_in_tree(const OpenNode& a, const OpenNode& b) {
  if (a.depth != b.depth) return a.depth < b.depth;
  return std::lexicographical_compare(a.perm, a.perm + a.depth, b.perm, b.perm + b.depth);
}

class Worker {
 public:
  Worker(Team& team, int id) : team_(team), id_(id) {}
  Counters counters;
  PjOffloadStats stats{};

  void push_root() {
    OpenNode root;
    problem::root(root.node);
    int prefix[kSize] = {};
    problem::prefix_values(prefix);
    for (int i = 0; i < kSize; ++i) root.perm[i] = static_cast<unsigned char>(prefix[i]);
    root.depth = problem::kPrefixLength;
    // The root has no bound: the goal's best value never prunes it.
    root.bound = problem::kGoal == pj::Goal::maximize ? INT_MAX : INT_MIN;
    pool_.push(root);
    pool_size_ = 1;
    team_.pool_changed(1);
  }

  // The thread's loop: fill every free slot from the pool, then take back the oldest
  // batch; with neither a node nor a batch, find work in another pool or stop. A device's
  // nonzero return (the time limit) stops every thread, each noting what it leaves open.
  void run() {
    const PjOffloadDevice& dev = team_.dev;
    if (int rc = dev.attach(dev.ctx)) return team_.fail(rc);
    const int slots = team_.args.in_flight, first = id_ * slots;
    std::vector<Batch> batch(slots);
    std::deque<int> busy, free_slots;
    for (int s = 0; s < slots; ++s) free_slots.push_back(s);
    int unsent = -1;  // a batch selected but refused by the device: its parents are still open
    auto stop = [&](int rc) {
      team_.fail(rc);
      note_open(batch, busy, unsent);
    };
    while (team_.rc.load(std::memory_order_relaxed) == 0) {
      while (!free_slots.empty() && select(batch[free_slots.front()])) {
        int s = free_slots.front();
        Batch& b = batch[s];
        if (b.children == 0) continue;  // only leaves below: done on the host
        if (int rc = dev.submit(dev.ctx, first + s, b.send.data(), b.send.size(),
                                team_.args.branch_on_device ? b.offsets.data() : nullptr, b.children, best32())) {
          unsent = s;
          return stop(rc);
        }
        ++stats.batches;
        stats.device_children += b.children;
        free_slots.pop_front();
        busy.push_back(s);
      }
      if (!busy.empty()) {
        int s = busy.front();
        Batch& b = batch[s];
        b.bounds.resize(b.children);
        if (int rc = dev.finish(dev.ctx, first + s, b.bounds.data())) return stop(rc);
        busy.pop_front();
        integrate(b);
        free_slots.push_back(s);
        continue;
      }
      if (!steal()) break;
    }
    if (team_.rc.load() != 0) note_open(batch, busy, unsent);  // another thread's stop
  }

 private:
  Team& team_;
  const int id_;
  std::mutex lock_;  // the pool: its thread selects and integrates, thieves split
  Pool pool_;
  std::atomic<unsigned long long> pool_size_{0};  // for thieves to look without the lock
  std::vector<OpenNode> kept_;                    // children of the last batch, to push
  std::vector<unsigned> order_;

  long long best() const { return team_.sh.best.load(std::memory_order_relaxed); }

  // What this thread leaves when the search stops (docs/reliability.md, "Partial
  // answers"): the nodes of its pool, and the parents of its batches whose bounds it did
  // not take back, each with its subtree's bound; those the incumbent prunes are closed.
  // A parent whose children are leaves was finished on the host when it was selected.
  void note_open(const std::vector<Batch>& batch, const std::deque<int>& busy, int unsent) {
    const long long b = best();
    auto add = [&](const OpenNode& n) {
      if (cpu_skeleton::pruned(n.bound, b)) return;
      cpu_skeleton::note_open(team_.sh, 1, problem::kGoal == pj::Goal::maximize ? -static_cast<long long>(n.bound) : n.bound);
    };
    auto add_parents = [&](const Batch& x) {
      for (const OpenNode& p : x.parents)
        if (p.depth + 1 < kSize) add(p);
    };
    for (int s : busy) add_parents(batch[s]);
    if (unsent >= 0) add_parents(batch[unsent]);
    std::lock_guard<std::mutex> g(lock_);
    pool_.for_each(add);
  }
  // The incumbent as the device's 32-bit bounds see it: none (the 64-bit start value)
  // becomes the int that prunes nothing the device can bound.
  int best32() const {
    const long long b = best();
    return static_cast<int>(b < INT_MIN ? INT_MIN : b > INT_MAX ? INT_MAX : b);
  }

  // Takes up to `batch` parents (hybrid selection), expands them: leaves below a parent
  // are evaluated here; the other children go to the device. False when the pool held
  // nothing worth expanding.
  bool select(Batch& b) {
    take_outside_leaf();
    b.parents.clear();
    b.send.clear();
    b.offsets.clear();
    b.children = 0;
    const PjOffloadArgs& a = team_.args;
    unsigned long long taken = 0;
    {
      std::lock_guard<std::mutex> g(lock_);
      OpenNode n;
      while (b.parents.size() < a.batch) {
        if (pool_.size() >= a.pool_max) pool_.set_best_first(false);
        if (pool_.size() <= a.pool_min) pool_.set_best_first(true);
        if (!pool_.pop(n)) break;
        ++taken;
        // The incumbent may have improved since the node was bounded.
        if (cpu_skeleton::pruned(n.bound, best())) continue;
        b.parents.push_back(n);
      }
      pool_size_.store(pool_.size(), std::memory_order_relaxed);
    }
    if (taken) team_.pool_changed(-static_cast<long long>(taken));
    if (b.parents.empty()) return false;
    sort_by_tree_position(b.parents);
    if (a.branch_on_device) b.offsets.push_back(0);
    Counters& c = counters;
    for (const OpenNode& p : b.parents) {
      ++c.expanded;
      Mask cand = problem::candidates(p.node);
      if (p.depth + 1 == kSize) {  // every child is a leaf
        int perm[kSize];
        for (int i = 0; i < kSize; ++i) perm[i] = p.perm[i];
        for (Mask m = cand; m; m &= m - 1) {
          Node child;
          problem::place(p.node, pj::lowest(m), child);
          cpu_skeleton::visit(child, p.depth, p.depth, pj::lowest(m), perm, team_.sh, c);  // one end: position = depth
        }
        continue;  // nothing to send
      }
      int kids = pj::popcount(cand);
      b.children += kids;
      if (a.branch_on_device) {
        b.send.push_back(p.node);
        b.offsets.push_back(b.offsets.back() + kids);
      } else {
        for (Mask m = cand; m; m &= m - 1) {
          b.send.emplace_back();
          problem::place(p.node, pj::lowest(m), b.send.back());
        }
      }
    }
    if (a.branch_on_device && b.children == 0) b.send.clear();
    return true;
  }

  // A leaf better than the incumbent found outside the search (PjOffloadDevice::outside)
  // becomes the incumbent as a leaf of the search's own would.
  void take_outside_leaf() {
    const PjOffloadDevice& d = team_.dev;
    if (!d.outside) return;
    long long value = 0;
    int perm[PJ_MAX_SIZE];
    if (d.outside(d.ctx, best(), &value, perm)) cpu_skeleton::record_improvement(value, perm, team_.sh);
  }

  // Sorting indices moves 4 bytes per step instead of a whole OpenNode.
  void sort_by_tree_position(std::vector<OpenNode>& parents) {
    order_.resize(parents.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::sort(order_.begin(), order_.end(),
              [&](unsigned x, unsigned y) { return before_in_tree(parents[x], parents[y]); });
    kept_.clear();
    for (unsigned i : order_) kept_.push_back(parents[i]);
    parents.swap(kept_);
  }

  // The device's bounds: each child is evaluated; those not pruned join the pool, a
  // parent's children worst first (ties by value), so that depth-first takes its best
  // child next.
  // Bound mode keeps the child the host sent; branch mode places it again (only the
  // bounds came back).
  void integrate(const Batch& b) {
    kept_.clear();
    const bool branch = team_.args.branch_on_device;
    struct Kid {
      int bound, v;
      size_t k;  // its place in the batch
    };
    Kid kids[kSize];
    size_t k = 0;
    for (const OpenNode& p : b.parents) {
      if (p.depth + 1 == kSize) continue;
      int n = 0;
      for (Mask m = problem::candidates(p.node); m; m &= m - 1, ++k) {
        ++counters.evaluated;
        Kid kid{b.bounds[k], pj::lowest(m), k};
        if (cpu_skeleton::pruned(kid.bound, best())) continue;
        int at = n++;
        for (; at > 0 && better_bound(kids[at - 1].bound, kid.bound); --at) kids[at] = kids[at - 1];
        kids[at] = kid;
      }
      for (int i = 0; i < n; ++i) {
        kept_.emplace_back();
        OpenNode& child = kept_.back();
        if (branch) problem::place(p.node, kids[i].v, child.node);
        else child.node = b.send[kids[i].k];
        child.bound = kids[i].bound;
        child.depth = p.depth + 1;
        std::copy(p.perm, p.perm + kSize, child.perm);
        child.perm[p.depth] = static_cast<unsigned char>(kids[i].v);
      }
    }
    {
      std::lock_guard<std::mutex> g(lock_);
      for (const OpenNode& n : kept_) pool_.push(n);
      pool_size_.store(pool_.size(), std::memory_order_relaxed);
    }
    team_.pool_changed(static_cast<long long>(kept_.size()));
  }

  // With an empty pool and no batch in flight: take half of another thread's pool.
  // False when every thread is in the same state (nothing is left anywhere: a node is
  // only ever held by a thread that is not idle) or the search failed. The thief stops
  // being idle before the victim's lock is released, so the count never says "all
  // idle" while a node is in transit.
  bool steal() {
    const int n = static_cast<int>(team_.workers.size());
    team_.idle.fetch_add(1);
    std::vector<OpenNode> loot;
    while (team_.rc.load(std::memory_order_relaxed) == 0) {
      for (int i = 1; i < n && loot.empty(); ++i) {
        Worker& v = *team_.workers[(id_ + i) % n];
        if (v.pool_size_.load(std::memory_order_relaxed) == 0) continue;
        std::lock_guard<std::mutex> g(v.lock_);
        if (v.pool_.size() == 0) continue;
        v.pool_.split(loot);
        v.pool_size_.store(v.pool_.size(), std::memory_order_relaxed);
        team_.idle.fetch_sub(1);
      }
      if (!loot.empty()) {
        std::lock_guard<std::mutex> g(lock_);
        for (const OpenNode& x : loot) pool_.push(x);
        pool_size_.store(pool_.size(), std::memory_order_relaxed);
        ++stats.steals;
        return true;
      }
      if (team_.idle.load() == n) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return false;
  }
};

// What the device computes, done on the host (PjOffloadHostBoundsFn).
inline void host_bounds(int branch_on_device, const void* nodes, unsigned long long count, const unsigned* offsets,
                        unsigned long long children, int best, int* bounds) {
  const Node* in = static_cast<const Node*>(nodes);
  if (!branch_on_device) {
    for (unsigned long long i = 0; i < children; ++i) bounds[i] = problem::staged_bound(in[i], best);
    return;
  }
  for (unsigned long long p = 0; p < count; ++p) {
    unsigned k = offsets[p];
    for (Mask m = problem::candidates(in[p]); m; m &= m - 1) {
      Node child;
      problem::place(in[p], pj::lowest(m), child);
      bounds[k++] = problem::staged_bound(child, best);
    }
  }
}

}  // namespace cpu_offload

extern "C" int pj_offload_abi(void) { return PJ_OFFLOAD_ABI; }

extern "C" int pj_offload_search(const PjOffloadArgs* args, const PjOffloadDevice* dev, PjCpuResult* out,
                                 PjOffloadStats* stats) {
  using namespace cpu_skeleton;
  Shared sh;
  PjCpuArgs cpu_args{1, 0, args->has_ub, args->ub};
  start_incumbent(sh, &cpu_args);
  sh.on_improvement = dev->found;
  sh.on_improvement_ctx = dev->ctx;
  cpu_offload::Team team{*args, *dev, sh};
  const int threads = args->threads > 0 ? args->threads : 1;
  for (int t = 0; t < threads; ++t) team.workers.push_back(std::make_unique<cpu_offload::Worker>(team, t));
  team.workers[0]->push_root();
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&, t] { team.workers[t]->run(); });
  team.workers[0]->run();
  for (auto& th : pool) th.join();
  Counters total;
  *stats = PjOffloadStats{};
  for (const auto& w : team.workers) {
    total.expanded += w->counters.expanded;
    total.evaluated += w->counters.evaluated;
    stats->batches += w->stats.batches;
    stats->device_children += w->stats.device_children;
    stats->steals += w->stats.steals;
  }
  stats->max_pool = team.max_pool.load();
  fill_result(out, total, sh);
  if (team.rc.load() != 0) fill_open(sh, out);  // stopped: what its open work proves
  return team.rc.load();
}

extern "C" void pj_offload_host_bounds(int branch_on_device, const void* nodes, unsigned long long count,
                                       const unsigned* offsets, unsigned long long children, int best, int* bounds) {
  cpu_offload::host_bounds(branch_on_device, nodes, count, offsets, children, best, bounds);
}
