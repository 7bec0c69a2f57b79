// Host side of the `offload` skeleton (seed 002 §5, seed 004 §3.3): the CPU keeps the
// pool of open nodes, selects parents (best-first until the pool reaches pool_max, then
// depth-first until it is down to pool_min: seed 002 §5.1), sorts each batch by tree
// position (seed 002 §5.2), offloads it, and prunes what comes back. The device bounds
// the children the host generated (bound mode), or branches the parents itself, one
// child per thread (branch mode). Several batches are in flight at once (seed 004
// §5.1). Counting follows cpu_dfs.hpp's `visit`: a node taken from the pool is expanded,
// each child generated is evaluated, so with --ub at the optimum the totals equal the
// cpu and dfs skeletons'.
#include <algorithm>
#include <deque>

namespace cpu_offload {

using cpu_skeleton::Counters;
using cpu_skeleton::Shared;
using problem::Mask;
using problem::Node;
constexpr int kSize = problem::kSize;

struct OpenNode {
  Node node;
  long long bound;
  int depth;  // values placed
  unsigned char perm[kSize];
};

// The pool, one bucket per depth; each bucket a heap, best bound on top. Best-first
// takes the best top over the depths, depth-first the top of the deepest bucket.
class Pool {
 public:
  void push(const OpenNode& n) {
    auto& b = buckets_[n.depth];
    b.push_back(n);
    std::push_heap(b.begin(), b.end(), worse);
    ++size_;
  }
  bool pop(bool best_first, OpenNode& out) {
    int pick = -1;
    for (int d = kSize - 1; d >= 0; --d) {
      if (buckets_[d].empty()) continue;
      if (!best_first) {
        pick = d;
        break;
      }
      if (pick < 0 || worse(buckets_[pick].front(), buckets_[d].front())) pick = d;
    }
    if (pick < 0) return false;
    auto& b = buckets_[pick];
    std::pop_heap(b.begin(), b.end(), worse);
    out = b.back();
    b.pop_back();
    --size_;
    return true;
  }
  unsigned long long size() const { return size_; }

 private:
  std::vector<OpenNode> buckets_[kSize];
  unsigned long long size_ = 0;
  // Heap order: a is below b when b's bound is better.
  static bool worse(const OpenNode& a, const OpenNode& b) {
    return problem::kGoal == pj::Goal::maximize ? a.bound < b.bound : a.bound > b.bound;
  }
};

// One batch on its way to the device and back.
struct Batch {
  std::vector<OpenNode> parents;  // sorted by tree position
  std::vector<Node> send;         // children (bound mode) or parents (branch mode)
  std::vector<unsigned> offsets;  // branch mode
  std::vector<int> bounds;
  unsigned long long children = 0;
};

// Sorts by tree position: depth, then the values placed (lexicographic), so that a
// warp's threads work on neighbouring subproblems.
inline bool before_in_tree(const OpenNode& a, const OpenNode& b) {
  if (a.depth != b.depth) return a.depth < b.depth;
  return std::lexicographical_compare(a.perm, a.perm + a.depth, b.perm, b.perm + b.depth);
}

class Search {
 public:
  Search(const PjOffloadArgs& args, const PjOffloadDevice& dev, Shared& sh, Counters& c)
      : args_(args), dev_(dev), sh_(sh), c_(c) {}

  int run(PjOffloadStats& stats) {
    OpenNode root;
    problem::root(root.node);
    int prefix[kSize] = {};
    problem::prefix_values(prefix);
    for (int i = 0; i < kSize; ++i) root.perm[i] = static_cast<unsigned char>(prefix[i]);
    root.depth = problem::kPrefixLength;
    root.bound = 0;
    pool_.push(root);
    const int slots = std::max(1, args_.in_flight);
    std::vector<Batch> batch(slots);
    std::deque<int> busy, free_slots;
    for (int s = 0; s < slots; ++s) free_slots.push_back(s);
    bool root_taken = false;
    while (true) {
      // Fill every free slot from the pool; then take back the oldest batch.
      while (!free_slots.empty() && pool_.size() > 0) {
        int s = free_slots.front();
        if (!select(batch[s], !root_taken)) break;
        root_taken = true;
        if (batch[s].children == 0) continue;  // only leaves below: done on the host
        if (dev_.submit(dev_.ctx, s, batch[s].send.data(), batch[s].send.size(),
                        args_.branch_on_device ? batch[s].offsets.data() : nullptr, batch[s].children) != 0)
          return 1;
        ++stats.batches;
        stats.device_children += batch[s].children;
        free_slots.pop_front();
        busy.push_back(s);
      }
      if (busy.empty()) break;
      int s = busy.front();
      busy.pop_front();
      batch[s].bounds.resize(batch[s].children);
      if (dev_.finish(dev_.ctx, s, batch[s].bounds.data()) != 0) return 1;
      integrate(batch[s]);
      free_slots.push_back(s);
      stats.max_pool = std::max(stats.max_pool, pool_.size());
    }
    return 0;
  }

 private:
  const PjOffloadArgs& args_;
  const PjOffloadDevice& dev_;
  Shared& sh_;
  Counters& c_;
  Pool pool_;
  bool best_first_ = true;

  long long best() const { return sh_.best.load(std::memory_order_relaxed); }

  // Takes up to `batch` parents (hybrid selection), expands them: leaves below a parent
  // are evaluated here; the other children go to the device. False when the pool held
  // nothing worth expanding.
  bool select(Batch& b, bool is_root) {
    b.parents.clear();
    b.send.clear();
    b.offsets.clear();
    b.children = 0;
    OpenNode n;
    while (b.parents.size() < args_.batch) {
      if (pool_.size() >= args_.pool_max) best_first_ = false;
      if (pool_.size() <= args_.pool_min) best_first_ = true;
      if (!pool_.pop(best_first_, n)) break;
      // The incumbent may have improved since the node was bounded (the root has none).
      if constexpr (problem::kGoal != pj::Goal::count)
        if (!is_root && cpu_skeleton::pruned(n.bound, best())) continue;
      b.parents.push_back(n);
    }
    if (b.parents.empty()) return false;
    std::sort(b.parents.begin(), b.parents.end(), before_in_tree);
    if (args_.branch_on_device) b.offsets.push_back(0);
    for (const OpenNode& p : b.parents) {
      ++c_.expanded;
      Mask cand = problem::candidates(p.node);
      if (p.depth + 1 == kSize) {  // every child is a leaf
        int perm[kSize];
        for (int i = 0; i < kSize; ++i) perm[i] = p.perm[i];
        for (Mask m = cand; m; m &= m - 1) {
          Node child;
          problem::place(p.node, pj::lowest(m), child);
          cpu_skeleton::visit(child, p.depth, pj::lowest(m), perm, sh_, c_);
        }
        continue;  // nothing to send
      }
      int kids = pj::popcount(cand);
      b.children += kids;
      if (args_.branch_on_device) {
        b.send.push_back(p.node);
        b.offsets.push_back(b.offsets.back() + kids);
      } else {
        for (Mask m = cand; m; m &= m - 1) {
          Node child;
          problem::place(p.node, pj::lowest(m), child);
          b.send.push_back(child);
        }
      }
    }
    if (args_.branch_on_device && b.children == 0) b.send.clear();
    return true;
  }

  // The device's bounds: each child is evaluated; those not pruned join the pool.
  void integrate(const Batch& b) {
    size_t k = 0;
    for (const OpenNode& p : b.parents) {
      if (p.depth + 1 == kSize) continue;
      for (Mask m = problem::candidates(p.node); m; m &= m - 1, ++k) {
        int v = pj::lowest(m);
        ++c_.evaluated;
        long long bound = b.bounds[k];
        if constexpr (problem::kGoal != pj::Goal::count)
          if (cpu_skeleton::pruned(bound, best())) continue;
        OpenNode child;
        problem::place(p.node, v, child.node);
        child.bound = bound;
        child.depth = p.depth + 1;
        for (int i = 0; i < kSize; ++i) child.perm[i] = p.perm[i];
        child.perm[p.depth] = static_cast<unsigned char>(v);
        pool_.push(child);
      }
    }
  }
};

// What the device computes, done on the host (PjOffloadHostBoundsFn).
inline void host_bounds(int branch_on_device, const void* nodes, unsigned long long count, const unsigned* offsets,
                        unsigned long long children, int* bounds) {
  const Node* in = static_cast<const Node*>(nodes);
  if (!branch_on_device) {
    for (unsigned long long i = 0; i < children; ++i) bounds[i] = problem::bound(in[i]);
    return;
  }
  for (unsigned long long p = 0; p < count; ++p) {
    unsigned k = offsets[p];
    for (Mask m = problem::candidates(in[p]); m; m &= m - 1) {
      Node child;
      problem::place(in[p], pj::lowest(m), child);
      bounds[k++] = problem::bound(child);
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
  Counters total;
  *stats = PjOffloadStats{};
  int rc = cpu_offload::Search(*args, *dev, sh, total).run(*stats);
  fill_result(out, total, sh);
  return rc;
}

extern "C" void pj_offload_host_bounds(int branch_on_device, const void* nodes, unsigned long long count,
                                       const unsigned* offsets, unsigned long long children, int* bounds) {
  cpu_offload::host_bounds(branch_on_device, nodes, count, offsets, children, bounds);
}
