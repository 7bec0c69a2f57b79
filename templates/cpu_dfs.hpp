// CPU skeleton: multi-threaded depth-first search over the generated problem.
// The oracle of every other skeleton. The tree is split at a frontier depth; threads
// take frontier nodes from a shared counter and search each depth-first. Node counts
// do not depend on the split or the number of threads whenever the incumbent cannot
// change (counting, or an upper bound at the optimum).
//
// Counting rules (docs/spec-language.md, "Node counts"): a node is *evaluated* when it is generated as a
// child (its bound computed, or, at a leaf, its objective); it is *expanded* when its
// children are generated. The root is expanded, never evaluated.
#include <atomic>
#include <climits>
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

// Generates the children of `parent` (perm holds its placed values); a leaf child is
// recorded, a pruned one dropped, every other one handed to `keep`.
template <class Keep>
inline void expand(const Node& parent, int* perm, Shared& sh, Counters& c, Keep&& keep) {
  ++c.expanded;
  Mask rem = problem::candidates(parent);
  while (rem) {
    int v = pj::lowest(rem);
    rem &= rem - 1;
    Node child;
    problem::place(parent, v, child);
    perm[parent.d] = v;
    ++c.evaluated;
    if (child.d == problem::kSize) {
      record_leaf(child, perm, sh, c);
      continue;
    }
    if constexpr (kGoal != pj::Goal::count)
      if (pruned(problem::bound(child), sh.best.load(std::memory_order_relaxed))) continue;
    keep(child, perm);
  }
}

// Depth-first search of the subtree below `start` (which is expanded here).
inline void dfs(const Node& start, const int* start_perm, Shared& sh, Counters& c) {
  Node stack[problem::kSize + 1];
  Mask rem[problem::kSize + 1];
  int perm[problem::kSize];
  for (int i = 0; i < problem::kSize; ++i) perm[i] = start_perm[i];
  stack[0] = start;
  rem[0] = problem::candidates(start);
  ++c.expanded;
  int top = 0;
  while (top >= 0) {
    if (rem[top] == 0) {
      --top;
      continue;
    }
    const Node& parent = stack[top];
    int v = pj::lowest(rem[top]);
    rem[top] &= rem[top] - 1;
    Node& child = stack[top + 1];
    problem::place(parent, v, child);
    perm[parent.d] = v;
    ++c.evaluated;
    if (child.d == problem::kSize) {
      record_leaf(child, perm, sh, c);
      continue;
    }
    if constexpr (kGoal != pj::Goal::count)
      if (pruned(problem::bound(child), sh.best.load(std::memory_order_relaxed))) continue;
    ++c.expanded;
    rem[top + 1] = problem::candidates(child);
    ++top;
  }
}

struct FrontierNode {
  Node node;
  int perm[problem::kSize];
};

}  // namespace cpu_skeleton

extern "C" int pj_cpu_abi(void) { return PJ_CPU_ABI; }

extern "C" int pj_cpu_search(const PjCpuArgs* args, PjCpuResult* out) {
  using namespace cpu_skeleton;
  Shared sh;
  long long start = kGoal == pj::Goal::maximize ? LLONG_MIN : LLONG_MAX;
  sh.best.store(args->has_ub ? args->ub : start);
  Counters total;
  int threads = args->threads > 0 ? args->threads : 1;

  Node root;
  problem::root(root);
  int root_perm[problem::kSize] = {};
  problem::prefix_values(root_perm);  // the fixed prefix that root() placed

  // Breadth-first to the split depth: enough subtrees for the threads to share.
  std::vector<FrontierNode> level{FrontierNode{root, {}}};
  for (int i = 0; i < problem::kSize; ++i) level[0].perm[i] = root_perm[i];
  int depth = root.d;
  int target = args->split_depth > 0 ? root.d + args->split_depth : -1;
  size_t want = static_cast<size_t>(threads) * 64;
  while (!level.empty() && depth < problem::kSize - 1 && (target < 0 ? level.size() < want : depth < target)) {
    std::vector<FrontierNode> next;
    for (auto& f : level) {
      expand(f.node, f.perm, sh, total, [&](const Node& child, const int* perm) {
        FrontierNode n{child, {}};
        for (int i = 0; i < problem::kSize; ++i) n.perm[i] = perm[i];
        next.push_back(n);
      });
    }
    level.swap(next);
    ++depth;
  }
  out->frontier_depth = depth;
  out->frontier_nodes = level.size();

  std::atomic<size_t> cursor{0};
  std::vector<Counters> per_thread(threads);
  auto worker = [&](int t) {
    for (size_t i; (i = cursor.fetch_add(1)) < level.size();) dfs(level[i].node, level[i].perm, sh, per_thread[t]);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  for (const auto& c : per_thread) {
    total.expanded += c.expanded;
    total.evaluated += c.evaluated;
    total.solutions += c.solutions;
  }
  out->expanded = total.expanded;
  out->evaluated = total.evaluated;
  out->solutions = total.solutions;
  out->found = sh.found;
  out->best = sh.best.load();
  out->size = problem::kSize;
  for (int i = 0; i < problem::kSize; ++i) out->perm[i] = sh.perm[i];
  return 0;
}
