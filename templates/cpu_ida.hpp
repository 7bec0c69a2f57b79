// CPU skeleton of path problems: IDA* with f-limited iterations, multi-threaded over the
// roots of an upper tree. The oracle of the GPU IDA* skeletons (ida, ida-thread), which
// start from the same upper tree (pj_ida_roots / pj_ida_upper) and count by the same rules:
// a node is *evaluated* when it is generated (its heuristic computed), *expanded* when its
// children are generated, which happens when its f = g + h is within the limit and it
// is not a goal. A goal within the limit is a solution of cost = limit (h is admissible).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace cpu_ida {

using problem::Node;

struct Counts {
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  int next_limit = INT_MAX;
  void add(const Counts& o) {
    expanded += o.expanded;
    evaluated += o.evaluated;
    solutions += o.solutions;
    next_limit = next_limit < o.next_limit ? next_limit : o.next_limit;
  }
};

inline bool skip(int m, int last) { return last >= 0 && m == problem::inverse_move(last); }

// Depth-first, f-limited, below `n` (expanded here). `path` receives the moves from n;
// on_goal(path, length) returns true to stop the search. Returns true when stopped.
template <class OnGoal>
bool dfs(const Node& n, int g, int last, int limit, Counts& c, int* path, int depth, OnGoal&& on_goal,
         const std::atomic<bool>* stop, const std::atomic<bool>* halt = nullptr) {
  ++c.expanded;
  for (int m = 0; m < problem::kMoves; ++m) {
    if (!problem::applicable(n, m) || skip(m, last)) continue;
    Node child;
    problem::apply_move(n, m, child);
    ++c.evaluated;
    int cg = g + problem::move_cost(m);
    int f = cg + child.h;
    if (f > limit) {
      if (f < c.next_limit) c.next_limit = f;
      continue;
    }
    if (depth >= PJ_IDA_MAX_PATH) std::abort();  // cannot happen: costs are >= 1 and limits < 2^31
    path[depth] = m;
    if (problem::is_goal(child)) {
      ++c.solutions;
      if (on_goal(path, depth + 1)) return true;
      continue;
    }
    if (dfs(child, cg, m, limit, c, path, depth + 1, on_goal, stop, halt)) return true;
    if (stop && stop->load(std::memory_order_relaxed)) return true;
    if (halt && halt->load(std::memory_order_relaxed)) return true;
  }
  return false;
}

// Every path of `depth` moves from the start, level by level (parents before children).
struct UpperTree {
  std::vector<Node> nodes;
  std::vector<long long> parent;
  std::vector<int> g, last, depth;
  std::vector<unsigned char> goal;
  int roots_depth = 0;
  size_t first_root = 0;
  // The roots, copied out for PjIdaRoots.
  std::vector<Node> root_nodes;
  std::vector<int> root_g, root_last;
};

// Whether `s` is what the module's root() reads (see PjIdaStart).
inline bool start_fits(const PjIdaStart& s) {
  if (s.items != problem::kStartItems) return false;
  for (int k = 0; k < s.items; ++k)
    if (!s.data || !s.lengths || !s.data[k] || s.lengths[k] != problem::kStartLengths[k]) return false;
  return true;
}

inline void build(UpperTree& t, const PjIdaStart& from, unsigned long long min_roots) {
  Node start;
  problem::root(start, from.data);
  t.nodes.push_back(start);
  t.parent.push_back(-1);
  t.g.push_back(0);
  t.last.push_back(-1);
  t.depth.push_back(0);
  t.goal.push_back(problem::is_goal(start) ? 1 : 0);
  size_t level_begin = 0, level_end = 1;
  int d = 0;
  // A level of at least min_roots nodes, and never deeper than half the longest path.
  while (level_end - level_begin < min_roots && d < PJ_IDA_MAX_PATH / 2) {
    size_t before = t.nodes.size();
    for (size_t i = level_begin; i < level_end; ++i) {
      if (t.goal[i]) continue;
      for (int m = 0; m < problem::kMoves; ++m) {
        if (!problem::applicable(t.nodes[i], m) || skip(m, t.last[i])) continue;
        Node child;
        problem::apply_move(t.nodes[i], m, child);
        t.nodes.push_back(child);
        t.parent.push_back(static_cast<long long>(i));
        t.g.push_back(t.g[i] + problem::move_cost(m));
        t.last.push_back(m);
        t.depth.push_back(d + 1);
        t.goal.push_back(problem::is_goal(child) ? 1 : 0);
      }
    }
    if (t.nodes.size() == before) break;  // no level below: the roots are this level
    level_begin = before;
    level_end = t.nodes.size();
    ++d;
  }
  t.roots_depth = d;
  t.first_root = level_begin;
  for (size_t i = level_begin; i < level_end; ++i) {
    t.root_nodes.push_back(t.nodes[i]);
    t.root_g.push_back(t.g[i]);
    t.root_last.push_back(t.last[i]);
  }
}

// The iteration at `limit` on the upper tree: see PjIdaUpperFn.
inline Counts upper(const UpperTree& t, int limit, unsigned char* alive, long long& upper_goal) {
  Counts c;
  upper_goal = -1;
  std::vector<unsigned char> expanded(t.nodes.size(), 0);
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    bool is_root = i >= t.first_root;
    if (is_root) alive[i - t.first_root] = 0;
    if (i > 0 && !expanded[t.parent[i]]) continue;  // never generated in this iteration
    if (i > 0) ++c.evaluated;
    int f = t.g[i] + t.nodes[i].h;
    if (f > limit) {
      if (f < c.next_limit) c.next_limit = f;
      continue;
    }
    if (t.goal[i]) {
      ++c.solutions;
      if (upper_goal < 0) upper_goal = static_cast<long long>(i);
      continue;
    }
    expanded[i] = 1;
    if (is_root) alive[i - t.first_root] = 1;  // expanded below, by whoever searches the root
    else ++c.expanded;
  }
  return c;
}

// The moves from the start to upper-tree node i.
inline int tree_path(const UpperTree& t, long long i, int* moves) {
  int n = t.depth[i];
  for (long long k = i; k > 0; k = t.parent[k]) moves[t.depth[k] - 1] = t.last[k];
  return n;
}

// One path of cost `limit`: the upper tree's moves to root `root`, then `via` (the moves
// from it to `node`, of cost g, reached by `last`), then a depth-first search below `node`.
inline int path_via(const UpperTree& t, long long root, const int* via, int via_moves, const Node& node, int g,
                    int last, int limit, int* moves, int* n) {
  int prefix = tree_path(t, static_cast<long long>(t.first_root + static_cast<size_t>(root)), moves);
  for (int k = 0; k < via_moves; ++k) moves[prefix++] = via[k];
  Counts c;
  int found = 0;
  dfs(node, g, last, limit, c, moves + prefix, 0,
      [&](const int*, int len) {
        found = len;
        return true;
      },
      nullptr);
  if (!found) return 1;
  *n = prefix + found;
  return 0;
}

inline int path_through(const UpperTree& t, long long root, long long upper_goal, int limit, int* moves, int* n) {
  if (root < 0) {
    if (upper_goal < 0) return 1;
    *n = tree_path(t, upper_goal, moves);
    return 0;
  }
  size_t i = t.first_root + static_cast<size_t>(root);
  return path_via(t, root, nullptr, 0, t.nodes[i], t.g[i], t.last[i], limit, moves, n);
}

// See PjIdaMovesToFn; `depth` moves are already in `moves`.
inline bool moves_to(const Node& from, int g, int last, const Node& to, int to_g, int limit, int* moves, int depth,
                     int* n) {
  if (g == to_g && problem::same_node(from, to)) {
    *n = depth;
    return true;
  }
  if (depth >= PJ_IDA_MAX_PATH) return false;
  for (int m = 0; m < problem::kMoves; ++m) {
    if (!problem::applicable(from, m) || skip(m, last)) continue;
    const int cg = g + problem::move_cost(m);
    if (cg > to_g) continue;
    Node child;
    problem::apply_move(from, m, child);
    if (cg + child.h > limit || problem::is_goal(child)) continue;
    moves[depth] = m;
    if (moves_to(child, cg, m, to, to_g, limit, moves, depth + 1, n)) return true;
  }
  return false;
}

}  // namespace cpu_ida

extern "C" int pj_ida_abi(void) { return PJ_IDA_ABI; }

extern "C" int pj_ida_moves_to(const void* from, int g, int last, const void* to, int to_g, int limit, int* moves,
                               int* n) {
  return cpu_ida::moves_to(*static_cast<const problem::Node*>(from), g, last, *static_cast<const problem::Node*>(to),
                           to_g, limit, moves, 0, n)
             ? 0
             : 1;
}

extern "C" const char* pj_ida_move_name(int m) {
  return m >= 0 && m < problem::kMoves ? problem::kMoveNames[m] : "?";
}

extern "C" int pj_ida_roots(const PjIdaStart* start, unsigned long long min_roots, PjIdaRoots* out) {
  if (!cpu_ida::start_fits(*start)) return PJ_IDA_BAD_START;
  auto* t = new cpu_ida::UpperTree;
  cpu_ida::build(*t, *start, min_roots);
  out->count = t->root_nodes.size();
  out->depth = t->roots_depth;
  out->node_bytes = static_cast<int>(sizeof(problem::Node));
  out->nodes = t->root_nodes.data();
  out->g = t->root_g.data();
  out->last = t->root_last.data();
  out->start_h = t->nodes[0].h;
  out->tree = t;
  return 0;
}

extern "C" void pj_ida_roots_free(PjIdaRoots* r) {
  delete static_cast<cpu_ida::UpperTree*>(r->tree);
  r->tree = nullptr;
}

extern "C" int pj_ida_upper(const PjIdaRoots* r, int limit, PjIdaCounts* out, unsigned char* alive,
                            long long* upper_goal) {
  cpu_ida::Counts c = cpu_ida::upper(*static_cast<const cpu_ida::UpperTree*>(r->tree), limit, alive, *upper_goal);
  *out = PjIdaCounts{c.expanded, c.evaluated, c.solutions, c.next_limit};
  return 0;
}

extern "C" int pj_ida_expand(const void* node, int g, int last, int limit, void* children, int* child_g,
                             int* child_last, int* kept, PjIdaCounts* counts) {
  using problem::Node;
  const Node& n = *static_cast<const Node*>(node);
  Node* out = static_cast<Node*>(children);
  ++counts->expanded;
  *kept = 0;
  for (int m = 0; m < problem::kMoves; ++m) {
    if (!problem::applicable(n, m) || cpu_ida::skip(m, last)) continue;
    Node child;
    problem::apply_move(n, m, child);
    ++counts->evaluated;
    const int cg = g + problem::move_cost(m);
    const int f = cg + child.h;
    if (f > limit) {
      if (f < counts->next_limit) counts->next_limit = f;
    } else if (problem::is_goal(child)) {
      ++counts->solutions;
    } else {
      out[*kept] = child;
      child_g[*kept] = cg;
      child_last[*kept] = m;
      ++*kept;
    }
  }
  return 0;
}

extern "C" int pj_ida_path_via(const PjIdaRoots* r, long long root, const int* via, int via_moves, const void* node,
                               int g, int last, int limit, int* moves, int* n) {
  return cpu_ida::path_via(*static_cast<const cpu_ida::UpperTree*>(r->tree), root, via, via_moves,
                           *static_cast<const problem::Node*>(node), g, last, limit, moves, n);
}

extern "C" int pj_ida_path(const PjIdaRoots* r, long long root, long long upper_goal, int limit, int* moves, int* n) {
  return cpu_ida::path_through(*static_cast<const cpu_ida::UpperTree*>(r->tree), root, upper_goal, limit, moves, n);
}

extern "C" int pj_ida_search(const PjIdaArgs* args, PjIdaResult* out) {
  using namespace cpu_ida;
  if (!start_fits(args->start)) return PJ_IDA_BAD_START;
  int threads = args->threads > 0 ? args->threads : 1;
  UpperTree t;
  build(t, args->start, args->min_roots > 0 ? args->min_roots : 64ull * static_cast<unsigned long long>(threads));
  const size_t roots = t.root_nodes.size();
  out->start_h = t.nodes[0].h;
  out->root_depth = t.roots_depth;
  out->roots = roots;
  std::vector<unsigned char> alive(roots);
  int limit = t.nodes[0].h;
  // The time limit and the host's stop request: a watcher raises `halt`, which the
  // searches read as they return from each child (a few microseconds apart), and
  // which ends the iterations; an unsolvable start (a board of the wrong parity) has
  // no goal, and each iteration is longer than the one before.
  std::atomic<bool> halt{false};
  std::mutex done_lock;
  std::condition_variable done_cv;
  bool done = false;
  std::thread watcher;
  using clock = std::chrono::steady_clock;
  // The deadline counts from here, not from when the watcher thread first runs (late on
  // a loaded host).
  const auto until =
      args->time_limit_s > 0 ? pj::deadline_after<clock>(clock::now(), args->time_limit_s) : clock::time_point::max();
  if (args->time_limit_s > 0 || args->stop_request)
    watcher = std::thread([&] {
      const auto poll = std::chrono::milliseconds(10);  // a signal handler cannot wake this thread
      std::unique_lock<std::mutex> g(done_lock);
      for (;;) {
        const auto now = clock::now();
        if (now >= until || (args->stop_request && *args->stop_request)) break;
        const auto next = args->stop_request && until - now > poll ? now + poll : until;
        if (done_cv.wait_until(g, next, [&] { return done; })) return;
      }
      halt.store(true);
    });
  struct StopWatcher {  // ends the watcher on every return below
    std::mutex& lock;
    std::condition_variable& cv;
    bool& done;
    std::thread& th;
    ~StopWatcher() {
      if (!th.joinable()) return;
      {
        std::lock_guard<std::mutex> g(lock);
        done = true;
      }
      cv.notify_all();
      th.join();
    }
  } stop_watcher{done_lock, done_cv, done, watcher};
  for (out->iterations = 0; out->iterations < PJ_IDA_MAX_ITERATIONS; ++out->iterations) {
    long long upper_goal = -1;
    Counts total = upper(t, limit, alive.data(), upper_goal);
    std::atomic<bool> stop{!args->all_solutions && upper_goal >= 0};
    std::atomic<long long> solved_root{LLONG_MAX};  // the smallest root with a goal below it
    std::atomic<size_t> cursor{0};
    std::vector<Counts> per_thread(threads);
    auto worker = [&](int w) {
      int path[PJ_IDA_MAX_PATH];
      for (size_t i; !stop.load(std::memory_order_relaxed) && !halt.load(std::memory_order_relaxed) &&
                     (i = cursor.fetch_add(1)) < roots;) {
        if (!alive[i]) continue;
        size_t k = t.first_root + i;
        dfs(t.nodes[k], t.g[k], t.last[k], limit, per_thread[w], path, 0,
            [&](const int*, int) {
              long long seen = solved_root.load();
              while (static_cast<long long>(i) < seen && !solved_root.compare_exchange_weak(seen, static_cast<long long>(i))) {
              }
              if (!args->all_solutions) stop.store(true);
              return !args->all_solutions;
            },
            &stop, &halt);
      }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < threads; ++w) pool.emplace_back(worker, w);
    worker(0);
    for (auto& th : pool) th.join();
    for (const auto& c : per_thread) total.add(c);
    out->limits[out->iterations] = limit;
    out->per_iteration[out->iterations] = PjIdaCounts{total.expanded, total.evaluated, total.solutions, total.next_limit};
    // Stopped inside this iteration: unless it met a goal in first-solution mode (then
    // the goal's cost is the limit, and the answer is whole), it is not complete;
    // `iterations` then counts it, and limits[iterations - 1] is a proven lower bound.
    if (halt.load() && !(total.solutions > 0 && !args->all_solutions)) {
      ++out->iterations;
      out->interrupted = 1;
      if (total.solutions > 0) {  // --all-solutions: the cost is proven, the count is not
        out->found = 1;
        out->cost = limit;
        long long root = upper_goal >= 0 ? -1 : solved_root.load();
        if (path_through(t, root, upper_goal, limit, out->moves, &out->path_moves) != 0) return 2;
      }
      return 0;
    }
    if (total.solutions > 0) {
      ++out->iterations;
      out->found = 1;
      out->cost = limit;
      long long root = upper_goal >= 0 ? -1 : solved_root.load();
      if (path_through(t, root, upper_goal, limit, out->moves, &out->path_moves) != 0) return 2;
      return 0;
    }
    if (total.next_limit == INT_MAX) {  // nothing above the limit: no goal can be reached
      ++out->iterations;
      return 0;
    }
    limit = total.next_limit;
  }
  out->stopped = 1;
  return 0;
}
