// Pattern databases, built on the host (the module's side of runtime/pattern_db.cpp).
// An abstract state of pattern k keeps the positions of its values and of the tracked
// ones (problem::kPdbValues[k], in that order), ranked as the generated pdb_index_k ranks them.
// The table is filled from the goal's abstract state by a breadth-first search by cost
// (Dial's buckets: a move that moves none of the pattern's own values costs 0, so the
// search is 0-1 BFS for unit costs), each bucket's states expanded by several threads.
// An abstract state is expanded as a concrete node: its kept values at their positions,
// the others in increasing order in the positions left, the state from root_state().
// The state must follow from the kept positions: it
// is compared with the state of the opposite order of the other values, and each
// child's state (by the move's `set`) with the one its own abstract state gives, so that
// a spec whose state depends on more than the kept positions is refused, never given a
// wrong table.
#include <cstring>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace cpu_pdb {

using problem::Node;

constexpr unsigned char kUnknown = 255;

struct Abstract {
  int k = 0;              // kept values
  const int* values;      // problem::kPdbValues[pattern]
  bool own[problem::kSize], kept[problem::kSize];
  bool shared_group = false;  // other patterns add to this one's table
};

inline unsigned long long entries(int k) {
  unsigned long long r = 1;
  for (int i = 0; i < k; ++i) r *= static_cast<unsigned long long>(problem::kSize - i);
  return r;
}

inline unsigned rank(const int* pos, int k) {
  unsigned long long used = 0;
  unsigned idx = 0;
  for (int i = 0; i < k; ++i) {
    const int q = pos[i];
    idx = i == 0 ? static_cast<unsigned>(q)
                 : idx * static_cast<unsigned>(problem::kSize - i) +
                       static_cast<unsigned>(q - pj::popcount(used & ((1ull << q) - 1ull)));
    used |= 1ull << q;
  }
  return idx;
}

inline void unrank(unsigned idx, int k, int* pos) {
  int digit[problem::kSize];
  for (int i = k - 1; i >= 0; --i) {
    const unsigned r = static_cast<unsigned>(problem::kSize - i);
    digit[i] = static_cast<int>(idx % r);
    idx /= r;
  }
  unsigned long long used = 0;
  for (int i = 0; i < k; ++i) {
    int c = digit[i], q = 0;
    for (;; ++q)
      if (!((used >> q) & 1ull) && c-- == 0) break;
    pos[i] = q;
    used |= 1ull << q;
  }
}

// The concrete node of an abstract state: kept values at `pos`, the others in
// increasing order (or, `reversed`, in decreasing order) in the positions left.
inline void node_of(const Abstract& a, const int* pos, Node& s, bool reversed = false) {
  int perm[problem::kSize];
  for (int i = 0; i < problem::kSize; ++i) perm[i] = -1;
  for (int i = 0; i < a.k; ++i) perm[pos[i]] = a.values[i];
  int next = reversed ? problem::kSize - 1 : 0;
  for (int i = 0; i < problem::kSize; ++i) {
    if (perm[i] >= 0) continue;
    while (a.kept[next]) next += reversed ? -1 : 1;
    perm[i] = next;
    next += reversed ? -1 : 1;
  }
  const int* start[1] = {perm};
  problem::root_state(s, start);
}

// One abstract state's expansion at cost d (its table entry): each child whose entry it
// lowers (an atomic compare-and-swap: threads expand the same bucket side by side) is
// handed to push(cost, index). Returns a PJ_PDB_* code, and the move it is about in `move`.
template <class Push>
int expand(const Abstract& a, unsigned idx, int d, unsigned char* table, int& move, Push&& push) {
  int pos[problem::kSize];
  unrank(idx, a.k, pos);
  Node s, other;
  node_of(a, pos, s);
  // The state must not depend on where the forgotten values are: the same kept
  // positions with the others in the opposite order give the same state.
  node_of(a, pos, other, true);
  if (!problem::same_state(s, other)) return PJ_PDB_STATE;
  for (int m = 0; m < problem::kMoves; ++m) {
    if (!problem::applicable(s, m)) continue;
    Node c, check;
    int x, y;
    problem::apply_state(s, m, c, x, y);
    const int vx = s.perm[x], vy = s.perm[y];
    if (x == y || (!a.kept[vx] && !a.kept[vy])) continue;  // the abstract state stays
    const bool counted = a.own[vx] || a.own[vy];
    if (a.shared_group && ((a.own[vx] && !a.kept[vy]) || (a.own[vy] && !a.kept[vx]))) {
      move = m;
      return PJ_PDB_SHARED_MOVE;
    }
    int child[problem::kSize];
    for (int j = 0; j < a.k; ++j) child[j] = pos[j] == x ? y : pos[j] == y ? x : pos[j];
    node_of(a, child, check);
    if (!problem::same_state(c, check)) {
      move = m;
      return PJ_PDB_STATE;
    }
    const int nd = d + (counted ? problem::move_cost(m) : 0);
    const unsigned cidx = rank(child, a.k);
    unsigned char cur = __atomic_load_n(table + cidx, __ATOMIC_RELAXED);
    if (nd > 254) {
      if (cur != kUnknown) continue;
      move = m;
      return PJ_PDB_FAR;
    }
    bool lowered = false;
    while (nd < cur && !(lowered = __atomic_compare_exchange_n(table + cidx, &cur, static_cast<unsigned char>(nd),
                                                               false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))) {
    }
    if (lowered) push(nd, cidx);
  }
  return PJ_PDB_OK;
}

// Items of a round below which its expansion stays on one thread (starting threads
// would cost more than the work).
constexpr size_t kParallelRound = 4096;

inline int build(int pattern, const int* goal, unsigned char* table, int threads, PjPdbBuildInfo* info) {
  Abstract a;
  a.k = problem::kPdbKept[pattern];
  a.values = problem::kPdbValues[pattern];
  a.shared_group = problem::kPdbGroupSize[pattern] > 1;
  for (int v = 0; v < problem::kSize; ++v) a.own[v] = a.kept[v] = false;
  for (int i = 0; i < a.k; ++i) {
    a.kept[a.values[i]] = true;
    if (i < problem::kPdbOwn[pattern]) a.own[a.values[i]] = true;
  }
  info->move = -1;
  info->reached = 0;
  info->max_cost = 0;
  const unsigned long long n = entries(a.k);
  std::memset(table, kUnknown, n);
  // The goal's abstract state.
  int pos[problem::kSize], where[problem::kSize];
  for (int p = 0; p < problem::kSize; ++p) where[goal[p]] = p;
  for (int i = 0; i < a.k; ++i) pos[i] = where[a.values[i]];
  {
    Node s;
    const int* start[1] = {goal};
    problem::root_state(s, start);
    if (!problem::goal_test(s)) return PJ_PDB_NOT_GOAL;
  }
  if (threads < 1) threads = 1;
  // Bucket d holds the states first reached at cost d. It is expanded in rounds: a
  // round's moves of cost 0 append to it, and the next round expands those, until none
  // is added; the rounds' items are shared out among the threads, each of which keeps
  // what it reaches in its own lists until the round ends.
  std::vector<std::vector<unsigned>> bucket(256);
  struct Worker {
    std::vector<std::vector<unsigned>> out;
    unsigned long long reached = 0;
    int code = PJ_PDB_OK, move = -1;
  };
  std::vector<Worker> workers(static_cast<size_t>(threads));
  try {
    for (auto& w : workers) w.out.resize(256);
    const unsigned first = rank(pos, a.k);
    table[first] = 0;
    bucket[0].push_back(first);
    for (int d = 0; d < 255; ++d) {
      std::vector<unsigned>& here = bucket[d];
      for (size_t begin = 0; begin < here.size();) {
        const size_t end = here.size();
        const int used = end - begin < kParallelRound ? 1 : threads;
        auto run = [&](int t) {
          Worker& w = workers[static_cast<size_t>(t)];
          const size_t chunk = (end - begin + static_cast<size_t>(used) - 1) / static_cast<size_t>(used);
          const size_t lo = begin + chunk * static_cast<size_t>(t), hi = lo + chunk < end ? lo + chunk : end;
          for (size_t i = lo; i < hi && w.code == PJ_PDB_OK; ++i) {
            const unsigned idx = here[i];
            if (__atomic_load_n(table + idx, __ATOMIC_RELAXED) != d) continue;  // reached again more cheaply
            ++w.reached;
            w.code = expand(a, idx, d, table, w.move, [&](int nd, unsigned c) { w.out[nd].push_back(c); });
          }
        };
        if (used == 1) {
          run(0);
        } else {
          std::vector<std::thread> pool;
          for (int t = 1; t < used; ++t) pool.emplace_back(run, t);
          run(0);
          for (auto& th : pool) th.join();
        }
        begin = end;
        for (auto& w : workers) {
          if (w.code != PJ_PDB_OK) {
            info->move = w.move;
            return w.code;
          }
          for (int c = d; c < 256; ++c) {
            bucket[c].insert(bucket[c].end(), w.out[c].begin(), w.out[c].end());
            if (w.out[c].capacity() > (1u << 20)) std::vector<unsigned>().swap(w.out[c]);  // no second copy held
            else w.out[c].clear();
          }
        }
      }
      std::vector<unsigned>().swap(here);
      unsigned long long reached = 0;
      for (const auto& w : workers) reached += w.reached;
      if (reached > info->reached) info->max_cost = d;
      info->reached = reached;
    }
  } catch (const std::bad_alloc&) {
    return PJ_PDB_NO_MEMORY;
  } catch (const std::system_error&) {  // a thread could not start
    return PJ_PDB_NO_MEMORY;
  }
  return PJ_PDB_OK;
}

// The reflected node: reflect.values[v] at reflect.positions[p] for v at p.
inline void reflect_node(const Node& s, Node& r) {
  int perm[problem::kSize];
  for (int q = 0; q < problem::kSize; ++q)
    perm[problem::kPdbReflectPositions[q]] = problem::kPdbReflectValues[s.perm[q]];
  const int* start[1] = {perm};
  problem::root_state(r, start);
}

inline int check_reflection(const int* goal, int steps, PjPdbBuildInfo* info) {
  info->move = -1;
  if (!problem::kPdbReflect) return PJ_PDB_OK;
  Node s;
  const int* start[1] = {goal};
  problem::root_state(s, start);
  unsigned long long rng = 0x9e3779b97f4a7c15ull;
  for (int step = 0; step < steps; ++step) {
    Node r;
    reflect_node(s, r);
    Node mine[problem::kMoves], theirs[problem::kMoves];
    int cost_mine[problem::kMoves], cost_theirs[problem::kMoves], n_mine = 0, n_theirs = 0;
    for (int m = 0; m < problem::kMoves; ++m) {
      int x, y;
      Node c;
      if (problem::applicable(s, m)) {
        problem::apply_state(s, m, c, x, y);
        reflect_node(c, mine[n_mine]);
        cost_mine[n_mine++] = problem::move_cost(m);
      }
      if (problem::applicable(r, m)) {
        problem::apply_state(r, m, theirs[n_theirs], x, y);
        cost_theirs[n_theirs++] = problem::move_cost(m);
      }
    }
    if (n_mine != n_theirs) return PJ_PDB_NOT_SYMMETRIC;
    for (int i = 0; i < n_mine; ++i) {
      bool found = false;
      for (int j = 0; j < n_theirs && !found; ++j)
        found = cost_mine[i] == cost_theirs[j] && problem::same_node(mine[i], theirs[j]);
      if (!found) return PJ_PDB_NOT_SYMMETRIC;
    }
    if (n_mine == 0) break;
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    // The next node of the walk: a child of s (unreflected).
    int pick = static_cast<int>(rng % static_cast<unsigned long long>(n_mine)), seen = 0;
    for (int m = 0; m < problem::kMoves; ++m) {
      if (!problem::applicable(s, m)) continue;
      if (seen++ == pick) {
        int x, y;
        Node c;
        problem::apply_state(s, m, c, x, y);
        s = c;
        break;
      }
    }
  }
  return PJ_PDB_OK;
}

}  // namespace cpu_pdb

extern "C" int pj_pdb_check_reflection(const int* goal, int steps, PjPdbBuildInfo* info) {
  return cpu_pdb::check_reflection(goal, steps, info);
}

extern "C" int pj_pdb_count(void) { return problem::kPdbPatterns; }

extern "C" unsigned long long pj_pdb_entries(int k) {
  return k >= 0 && k < problem::kPdbPatterns ? cpu_pdb::entries(problem::kPdbKept[k]) : 0;
}

extern "C" int pj_pdb_build(int k, const int* goal, unsigned char* table, int threads, PjPdbBuildInfo* info) {
  if (k < 0 || k >= problem::kPdbPatterns) return PJ_PDB_NOT_GOAL;
  return cpu_pdb::build(k, goal, table, threads, info);
}
