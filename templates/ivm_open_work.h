// What a stopped `ivm` search left open, for its proven bound (docs/reliability.md,
// "Partial answers"). An explorer's rows are its open work: row l holds the values still
// to try below the node at level l of its path (its later siblings, clipped to the
// interval's last leaf), so every leaf it has not searched lies below one of the
// children those values make. The least bound over these children, over every
// explorer (and every image a checkpoint holds), is at most every leaf not yet
// searched. A child on the last leaf's path has part of its subtree outside the
// interval: its bound covers more leaves than the interval's, which can only lower it.
//
// Host-and-device code over the generated problem and IVM layout, after
// templates/ivm_explorer.h and templates/ivm_two_ends.h: the kernel pj_ivm_open_bound
// (templates/gpu_ivm_open.cuh, the open-work unit) and the host tests (tests/ivm/ivm_host_sim.hpp) run it.
#pragma once

namespace pj_ivm {

// The open work so far: how many children are open (not pruned by the incumbent) and the
// least sort key among them (the bound, negated when maximising; kNoKey: none).
constexpr long long kNoKey = 0x7fffffffffffffffll;
struct OpenWork {
  unsigned long long subtrees = 0;
  long long key = kNoKey;
};

// Calls f(child, level) for every child in explorer x's rows (level: the child's, one
// below its row's), placed at the end its node chose (one end: the front).
template <class F>
PJ_HD void for_each_open_child(Ref x, F&& f) {
  if (is_empty(x)) return;
  Node node;  // the path's node at level l
  problem::root(node);
  const int top = x.I();
  for (int l = 0; l <= top; ++l) {
    for (Mask rem = x.M(l); rem; rem &= rem - 1) {
      Node child;
      problem::place_at(node, pj::lowest(rem), end_at(x.ends(), l), child);
      f(child, l + 1);
    }
    if (l == top) break;
    Node next;
    problem::place_at(node, x.V(l), end_at(x.ends(), l), next);
    node = next;
  }
}

// Adds explorer x's open work. `bound_of(child)`: the bound the search would compare
// with its incumbent when it pops the child (any lower bound on the leaves below it,
// minimising, is exact-safe); a leaf child counts with its objective. A child whose
// bound prunes against `best` is closed: the search would drop it when popped, and the
// incumbent already bounds its leaves. Counting: every child in a row is open.
template <class BoundOf>
PJ_HD void add_open_work(Ref x, int best, BoundOf&& bound_of, OpenWork& w) {
  if constexpr (problem::kGoal == pj::Goal::count) {
    if (is_empty(x)) return;
    for (int l = 0; l <= x.I(); ++l) w.subtrees += static_cast<unsigned long long>(pj::popcount(x.M(l)));
  } else {
    for_each_open_child(x, [&](const Node& child, int level) {
      const long long b = level == L ? static_cast<long long>(problem::objective(child))
                                     : static_cast<long long>(bound_of(child));
      if (problem::kGoal == pj::Goal::minimize ? b >= best : b <= best) return;
      ++w.subtrees;
      const long long key = problem::kGoal == pj::Goal::maximize ? -b : b;
      if (key < w.key) w.key = key;
    });
  }
}

// Refining the open work (docs/reliability.md, "Partial answers"). An open child whose
// key is below a target t does not bound the leaves below it by t; its children may:
// every leaf below a node lies below one of its children (either end's: both cut the
// node's leaves), so the least key over a node's children, and over theirs below, is
// also a lower bound on its leaves. refine_key asks, depth-first and at most `depth`
// levels down, whether every leaf below `c` is at least t: the children with a key
// below t are expanded in turn, at the end (two ends) with fewer of them, and the
// search fails as soon as one is a leaf or lies `depth` levels down, or `late()` says
// the time is up. It returns the least key of the cut it reached, which is then at
// least t, or, failing, `key_c` (c's own key: what is proved without it). A child whose
// key reaches the incumbent's `best_key` is closed, as in add_open_work.
//
// This is IDA* over the open work: a host loop (runtime/ivm/ivm_open_bound.cpp) raises
// t from the least open key while every open child passes, deepening when one fails,
// until its time is spent; each pass proves its least key, passed or not.
// The deepest refinement: frames of nodes on a thread's stack (the host's schedule,
// runtime/ivm/ivm_open_bound.hpp IvmRefineSchedule::kDeepest, asks no deeper).
constexpr int kRefineDepth = 8;

// A node's children at one end or the other, for refine_key: those with a key below t
// to expand (`below`, at `end`), the least key at or above t among the kept end's
// others (`least`). False when neither end can pass: a child below t is a leaf, or
// would need a level past the depth allowed (`may_expand` false).
template <class KeyOf>
PJ_HD bool refine_children(const Node& n, int level, long long t, long long best_key, bool may_expand, KeyOf& key_of,
                           Mask& below, int& end, long long& least, unsigned long long& nodes) {
  const Mask cand = problem::candidates(n);
  bool any = false;
#pragma unroll 1
  for (int e = 0; e < problem::kEnds; ++e) {
    Mask b = 0;
    long long lst = kNoKey;
    bool ok = true;
    for (Mask rem = cand; rem && ok; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      Node child;
      problem::place_at(n, v, e, child);
      ++nodes;
      const long long k = key_of(child, level + 1);
      if (k >= best_key) continue;  // closed by the incumbent
      if (k >= t) {
        lst = k < lst ? k : lst;
      } else if (level + 1 == L || !may_expand) {
        ok = false;
      } else {
        b |= pj::bit<Mask>(v);
      }
    }
    if (!ok) continue;
    if (!any || pj::popcount(b) < pj::popcount(below) || (pj::popcount(b) == pj::popcount(below) && lst > least)) {
      below = b;
      end = e;
      least = lst;
    }
    any = true;
  }
  return any;
}

template <class KeyOf, class Late>
PJ_HD long long refine_key(const Node& c, int level, long long key_c, long long t, int depth, long long best_key,
                           KeyOf&& key_of, Late&& late, unsigned long long& nodes) {
  if (key_c >= t || level >= L || depth <= 0) return key_c;
  depth = depth < kRefineDepth ? depth : kRefineDepth;
  struct Frame {
    Node node;
    Mask below;
    int end;
  };
  Frame st[kRefineDepth];
  long long least = kNoKey;
  st[0].node = c;
  long long lst = kNoKey;
  if (!refine_children(c, level, t, best_key, depth > 1, key_of, st[0].below, st[0].end, lst, nodes)) return key_c;
  least = lst < least ? lst : least;
  int top = 0;
  while (top >= 0) {
    if (st[top].below == 0) {
      --top;
      continue;
    }
    if (late()) return key_c;
    const int v = pj::lowest(st[top].below);
    st[top].below &= st[top].below - 1;
    Frame& f = st[top + 1];
    problem::place_at(st[top].node, v, st[top].end, f.node);
    lst = kNoKey;
    if (!refine_children(f.node, level + top + 1, t, best_key, top + 2 < depth, key_of, f.below, f.end, lst, nodes))
      return key_c;
    least = lst < least ? lst : least;
    ++top;
  }
  return least;
}

// The open work of explorer x refined against target t (refine_key, each open child
// whose key is below t): as add_open_work, the least key now that of the refined cut;
// `failed` counts the children that could not be shown to reach t, `nodes` the
// children bounded.
struct RefinedWork {
  unsigned long long subtrees = 0, failed = 0, nodes = 0;
  long long key = kNoKey;
};
template <class KeyOf, class Late>
PJ_HD void add_refined_work(Ref x, long long best_key, long long t, int depth, KeyOf&& key_of, Late&& late,
                            RefinedWork& w) {
  for_each_open_child(x, [&](const Node& child, int level) {
    const long long k0 = key_of(child, level);
    if (k0 >= best_key) return;
    ++w.subtrees;
    const long long k = k0 < t ? refine_key(child, level, k0, t, depth, best_key, key_of, late, w.nodes) : k0;
    if (k < t) ++w.failed;
    if (k < w.key) w.key = k;
  });
}

}  // namespace pj_ivm
