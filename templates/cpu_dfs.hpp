// CPU skeleton: multi-threaded depth-first search over the generated problem.
// The oracle of every other skeleton. The tree is split at a frontier depth; threads
// take frontier nodes from a shared counter and search each depth-first. Node counts
// do not depend on the split or the number of threads whenever the incumbent cannot
// change (counting, or an upper bound at the optimum).
//
// Two ends (branch.ends = 2): a node's values sit at its first `lo` positions and at its
// last `depth - lo`; a child takes the next free position at the front or at the back,
// and the node chooses one end for all its children (see `children_of`).
//
// Counting rules (docs/spec-language.md, "Node counts"): a node is *evaluated* when it is generated as a
// child (its bound computed, or, at a leaf, its objective); it is *expanded* when its
// children are generated. The root is expanded, never evaluated.
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace cpu_skeleton {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;

struct Counters {
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
};

struct Shared {
  std::atomic<long long> best;
  std::atomic<bool> stop{false};  // the time limit passed: every search returns
  std::atomic<bool> cut{false};   // a search returned with work left: the result is partial
  std::mutex lock;
  int found = 0;
  int perm[problem::kSize] = {};
};

// True when a node with this bound cannot lead to a leaf better than `best`.
inline bool pruned(long long bound, long long best) {
  if constexpr (kGoal == pj::Goal::minimize) return bound >= best;
  else return bound <= best;
}
inline bool improves(long long value, long long best) {
  if constexpr (kGoal == pj::Goal::minimize) return value < best;
  else return value > best;
}

inline void record_leaf(const Node& leaf, const int* perm, Shared& sh, Counters& c) {
  if constexpr (kGoal == pj::Goal::count) {
    ++c.solutions;
  } else {
    long long value = problem::objective(leaf);
    if (!improves(value, sh.best.load(std::memory_order_relaxed))) return;
    std::lock_guard<std::mutex> g(sh.lock);
    if (!improves(value, sh.best.load(std::memory_order_relaxed))) return;
    sh.best.store(value, std::memory_order_relaxed);
    sh.found = 1;
    for (int i = 0; i < problem::kSize; ++i) sh.perm[i] = perm[i];
  }
}

// Evaluates `child`, which placed v at position `pos` of a parent holding `depth`
// values: counts it, records it if it is a leaf, and says whether it is to be expanded
// (not a leaf, not pruned). The one place where the counting rules live; frontier
// building and depth-first search both use it. `bound_out`, if given, receives the
// child's bound (when it was computed).
inline bool visit(const Node& child, int depth, int pos, int v, int* perm, Shared& sh, Counters& c,
                  long long* bound_out = nullptr) {
  perm[pos] = v;
  ++c.evaluated;
  if (depth + 1 == problem::kSize) {
    record_leaf(child, perm, sh, c);
    return false;
  }
  if constexpr (kGoal != pj::Goal::count) {
    long long b = problem::bound(child);
    if (bound_out) *bound_out = b;
    if (pruned(b, sh.best.load(std::memory_order_relaxed))) return false;
  }
  return true;
}

// A child kept for expansion: its node, its sort key, the value and the position it
// placed, and how many of its values are at the front.
struct Kid {
  Node node;
  long long key;  // the bound, negated when maximising: smaller is better (0 when counting)
  int v, pos, lo;
};

// The children of `parent` (holding `depth` values, `lo` of them at the front) into
// `out`, those to be expanded only, in increasing value; returns how many. With two
// ends, the children at the front and at the back are all generated and evaluated (both
// count), and the node keeps the end with fewer children to expand; on a tie, the end
// whose bounds sum higher (minimising; lower, maximising: the end that says more), then
// the front. The last position is the same from both ends: only the front is tried.
inline int children_of(const Node& parent, int depth, int lo, int* perm, Shared& sh, Counters& c, Kid* out) {
  ++c.expanded;
  const Mask cand = problem::candidates(parent);
  auto one_end = [&](bool back, Kid* kids, long long& key_sum) {
    const int pos = back ? problem::kSize - 1 - (depth - lo) : lo;
    int n = 0;
    key_sum = 0;
    for (Mask rem = cand; rem; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      Kid& kid = kids[n];
#ifdef PJ_TWO_ENDS
      if (back) problem::place_back(parent, v, kid.node);
      else
#endif
        problem::place(parent, v, kid.node);
      long long b = 0;
      const bool keep = visit(kid.node, depth, pos, v, perm, sh, c, &b);
      const long long key = kGoal == pj::Goal::minimize ? b : -b;
      key_sum += key;
      if (!keep) continue;
      kid.key = key;
      kid.v = v;
      kid.pos = pos;
      kid.lo = back ? lo : lo + 1;
      ++n;
    }
    return n;
  };
  long long front_sum = 0;
  const int front = one_end(false, out, front_sum);
  if constexpr (problem::kEnds == 2) {
    if (depth + 1 < problem::kSize) {
      Kid back_kids[problem::kSize];
      long long back_sum = 0;
      const int back = one_end(true, back_kids, back_sum);
      if (back < front || (back == front && back_sum > front_sum)) {
        for (int i = 0; i < back; ++i) out[i] = back_kids[i];
        return back;
      }
    }
  }
  return front;
}

// Generates the children of `parent` (see children_of); those to be expanded are handed
// to `keep` in increasing value.
template <class Keep>
inline void expand(const Node& parent, int depth, int lo, int* perm, Shared& sh, Counters& c, Keep&& keep) {
  Kid kids[problem::kSize];
  const int n = children_of(parent, depth, lo, perm, sh, c, kids);
  for (int i = 0; i < n; ++i) keep(kids[i]);
}

// Depth-first search of the subtree below `start`, at `start_depth` (expanded here), for
// counting with values placed from the left: no bounds, so no children to sort.
// The skeleton tracks depth itself: the node carries `d` only if the spec reads it.
inline void dfs(const Node& start, int start_depth, const int* start_perm, Shared& sh, Counters& c) {
  Node stack[problem::kSize + 1];
  Mask rem[problem::kSize + 1];
  int perm[problem::kSize];
  for (int i = 0; i < problem::kSize; ++i) perm[i] = start_perm[i];
  stack[0] = start;
  rem[0] = problem::candidates(start);
  ++c.expanded;
  int top = 0;
  while (top >= 0 && !sh.stop.load(std::memory_order_relaxed)) {
    if (rem[top] == 0) {
      --top;
      continue;
    }
    const Node& parent = stack[top];
    int v = pj::lowest(rem[top]);
    rem[top] &= rem[top] - 1;
    Node& child = stack[top + 1];
    problem::place(parent, v, child);
    if (!visit(child, start_depth + top, start_depth + top, v, perm, sh, c)) continue;
    ++c.expanded;
    rem[top + 1] = problem::candidates(child);
    ++top;
  }
  if (top >= 0) sh.cut.store(true);
}

// Optimisation: the children of a node are generated and bounded together, then
// searched best bound first (ties by value), so that good leaves, and the pruning they
// bring, come early in a search from scratch. A kept child is checked again against the
// incumbent when its turn comes. With the incumbent fixed (--ub at the optimum) the
// order changes nothing: the same children are generated, bounded and pruned.
inline void dfs_best_child_first(const Node& start, int start_depth, int start_lo, const int* start_perm, Shared& sh,
                                 Counters& c) {
  const int levels = problem::kSize - start_depth;
  std::vector<Kid> kids(static_cast<size_t>(levels) * problem::kSize);
  std::vector<int> count(levels, 0), next(levels, 0);
  int perm[problem::kSize];
  for (int i = 0; i < problem::kSize; ++i) perm[i] = start_perm[i];
  // Children of `parent` (at depth start_depth + k) into level k, sorted (stable).
  auto expand_into = [&](const Node& parent, int lo, int k) {
    Kid* level = &kids[static_cast<size_t>(k) * problem::kSize];
    const int n = children_of(parent, start_depth + k, lo, perm, sh, c, level);
    for (int i = 1; i < n; ++i) {
      Kid kid = level[i];
      int at = i;
      for (; at > 0 && level[at - 1].key > kid.key; --at) level[at] = level[at - 1];
      level[at] = kid;
    }
    count[k] = n;
    next[k] = 0;
  };
  expand_into(start, start_lo, 0);
  int k = 0;
  while (k >= 0 && !sh.stop.load(std::memory_order_relaxed)) {
    if (next[k] == count[k]) {
      --k;
      continue;
    }
    const Kid& kid = kids[static_cast<size_t>(k) * problem::kSize + next[k]++];
    long long b = kGoal == pj::Goal::minimize ? kid.key : -kid.key;
    if (kGoal != pj::Goal::count && pruned(b, sh.best.load(std::memory_order_relaxed))) continue;
    perm[kid.pos] = kid.v;
    expand_into(kid.node, kid.lo, k + 1);
    ++k;
  }
  if (k >= 0) sh.cut.store(true);
}

struct FrontierNode {
  Node node;
  int lo;  // values at the front (all of them, unless two ends)
  int perm[problem::kSize];
};

// Expands level[begin, end) at `depth` into `next`, in order.
inline void expand_range(std::vector<FrontierNode>& level, size_t begin, size_t end, int depth, Shared& sh,
                         Counters& c, std::vector<FrontierNode>& next) {
  for (size_t k = begin; k < end; ++k) {
    FrontierNode& f = level[k];
    expand(f.node, depth, f.lo, f.perm, sh, c, [&](const Kid& kid) {
      FrontierNode n{kid.node, kid.lo, {}};
      for (int i = 0; i < problem::kSize; ++i) n.perm[i] = f.perm[i];
      n.perm[kid.pos] = kid.v;
      next.push_back(n);
    });
  }
}

// Breadth-first from the root until `stop(depth, level size)` says the level is deep
// enough (or no node is left, or the next level would hold leaves only). Counts and
// leaves are handled exactly as the depth-first search handles them. A large level is
// expanded by `threads` threads over contiguous slices, joined in order, so the
// frontier is the same node sequence whatever the thread count.
template <class Stop>
std::vector<FrontierNode> build_frontier(Shared& sh, Counters& total, int& depth, int threads, Stop&& stop) {
  Node root;
  problem::root(root);
  FrontierNode first{root, problem::kPrefixLength, {}};
  problem::prefix_values(first.perm);
  std::vector<FrontierNode> level{first};
  depth = problem::kPrefixLength;
  while (!level.empty() && depth < problem::kSize - 1 && !stop(depth, level.size())) {
    std::vector<FrontierNode> next;
    size_t parts = level.size() >= 1024 ? static_cast<size_t>(threads > 1 ? threads : 1) : 1;
    if (parts == 1) {
      expand_range(level, 0, level.size(), depth, sh, total, next);
    } else {
      std::vector<std::vector<FrontierNode>> out(parts);
      std::vector<Counters> counts(parts);
      std::vector<std::thread> pool;
      for (size_t t = 0; t < parts; ++t)
        pool.emplace_back([&, t] {
          size_t b = level.size() * t / parts, e = level.size() * (t + 1) / parts;
          expand_range(level, b, e, depth, sh, counts[t], out[t]);
        });
      for (auto& th : pool) th.join();
      size_t total_size = 0;
      for (const auto& o : out) total_size += o.size();
      next.reserve(total_size);
      for (size_t t = 0; t < parts; ++t) {
        next.insert(next.end(), out[t].begin(), out[t].end());
        total.expanded += counts[t].expanded;
        total.evaluated += counts[t].evaluated;
        total.solutions += counts[t].solutions;
      }
    }
    level.swap(next);
    ++depth;
  }
  return level;
}

inline void start_incumbent(Shared& sh, const PjCpuArgs* args) {
  long long start = kGoal == pj::Goal::maximize ? LLONG_MIN : LLONG_MAX;
  sh.best.store(args->has_ub ? args->ub : start);
}

inline void fill_result(PjCpuResult* out, const Counters& total, const Shared& sh) {
  out->expanded = total.expanded;
  out->evaluated = total.evaluated;
  out->solutions = total.solutions;
  out->found = sh.found;
  out->best = sh.best.load();
  out->size = problem::kSize;
  for (int i = 0; i < problem::kSize; ++i) out->perm[i] = sh.perm[i];
}

}  // namespace cpu_skeleton

extern "C" int pj_cpu_abi(void) { return PJ_CPU_ABI; }

extern "C" int pj_cpu_search(const PjCpuArgs* args, PjCpuResult* out) {
  using namespace cpu_skeleton;
  Shared sh;
  start_incumbent(sh, args);
  Counters total;
  int threads = args->threads > 0 ? args->threads : 1;

  // The time limit: a watcher sets `stop`, which every search loop reads (relaxed: a
  // stale read only costs a few more nodes), unless the search ends first.
  std::mutex done_lock;
  std::condition_variable done_cv;
  bool done = false;
  std::thread watcher;
  if (args->time_limit_s > 0)
    watcher = std::thread([&] {
      std::unique_lock<std::mutex> g(done_lock);
      auto limit = std::chrono::duration<double>(args->time_limit_s);
      if (!done_cv.wait_for(g, limit, [&] { return done; })) sh.stop.store(true);
    });
  // Enough subtrees for the threads to share, or the depth asked for (below the root).
  int depth = 0;
  size_t want = static_cast<size_t>(threads) * 64;
  int root_depth = problem::kPrefixLength;
  std::vector<FrontierNode> level = build_frontier(sh, total, depth, threads, [&](int dd, size_t n) {
    return args->split_depth > 0 ? dd >= root_depth + args->split_depth : n >= want;
  });
  out->frontier_depth = depth;
  out->frontier_nodes = level.size();

  std::atomic<size_t> cursor{0};
  std::vector<Counters> per_thread(threads);
  auto worker = [&](int t) {
    for (size_t i; !sh.stop.load(std::memory_order_relaxed) && (i = cursor.fetch_add(1)) < level.size();) {
      const FrontierNode& f = level[i];
      if constexpr (kGoal == pj::Goal::count && problem::kEnds == 1) dfs(f.node, depth, f.perm, sh, per_thread[t]);
      else dfs_best_child_first(f.node, depth, f.lo, f.perm, sh, per_thread[t]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (watcher.joinable()) {
    {
      std::lock_guard<std::mutex> g(done_lock);
      done = true;
    }
    done_cv.notify_all();
    watcher.join();
  }
  for (const auto& c : per_thread) {
    total.expanded += c.expanded;
    total.evaluated += c.evaluated;
    total.solutions += c.solutions;
  }
  fill_result(out, total, sh);
  // Partial when a search stopped inside its subtree or subtrees were never taken.
  out->stopped = sh.cut.load() || cursor.load() < level.size() ? 1 : 0;
  return 0;
}

extern "C" int pj_cpu_frontier(const PjCpuArgs* args, int depth, unsigned long long min_nodes, int with_prefix,
                               PjFrontier* out) {
  using namespace cpu_skeleton;
  // The frontier's interface hands out prefixes: values placed from the left only.
  if constexpr (problem::kEnds == 2) return 2;
  Shared sh;
  start_incumbent(sh, args);
  Counters total;
  int reached = 0;
  std::vector<FrontierNode> level = build_frontier(sh, total, reached, args->threads, [&](int dd, size_t n) {
    return depth > 0 ? dd >= depth : n >= min_nodes;
  });
  out->count = level.size();
  out->depth = reached;
  out->node_bytes = static_cast<int>(sizeof(Node));
  out->nodes = std::malloc(level.size() * sizeof(Node) + 1);
  out->prefix = with_prefix ? static_cast<unsigned char*>(std::malloc(level.size() * problem::kSize + 1)) : nullptr;
  if (!out->nodes || (with_prefix && !out->prefix)) return 1;
  Node* nodes = static_cast<Node*>(out->nodes);
  auto copy = [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      nodes[i] = level[i].node;
      if (with_prefix)
        for (int j = 0; j < problem::kSize; ++j)
          out->prefix[i * problem::kSize + j] = static_cast<unsigned char>(j < reached ? level[i].perm[j] : 0);
    }
  };
  size_t parts = level.size() >= 65536 && args->threads > 1 ? static_cast<size_t>(args->threads) : 1;
  std::vector<std::thread> pool;
  for (size_t t = 1; t < parts; ++t) pool.emplace_back(copy, level.size() * t / parts, level.size() * (t + 1) / parts);
  copy(0, level.size() / parts);
  for (auto& th : pool) th.join();
  fill_result(&out->counts, total, sh);
  out->counts.frontier_depth = reached;
  out->counts.frontier_nodes = level.size();
  return 0;
}

extern "C" void pj_cpu_frontier_free(PjFrontier* f) {
  std::free(f->nodes);
  std::free(f->prefix);
  f->nodes = nullptr;
  f->prefix = nullptr;
}
