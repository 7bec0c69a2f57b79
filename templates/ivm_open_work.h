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
// (templates/gpu_ivm.cuh) and the host tests (tests/ivm/ivm_host_sim.hpp) run it.
#pragma once

namespace pj_ivm {

// The open work so far: how many children are open (not pruned by the incumbent) and the
// least sort key among them (the bound, negated when maximising; kNoKey: none).
constexpr long long kNoKey = 0x7fffffffffffffffll;
struct OpenWork {
  unsigned long long subtrees = 0;
  long long key = kNoKey;
};

// Adds explorer x's open work. `bound_of(child)`: the bound the search would compare
// with its incumbent when it pops the child (any lower bound on the leaves below it,
// minimising, is exact-safe); a leaf child counts with its objective. A child whose
// bound prunes against `best` is closed: the search would drop it when popped, and the
// incumbent already bounds its leaves. Counting: every child in a row is open.
template <class BoundOf>
PJ_HD void add_open_work(Ref x, int best, BoundOf&& bound_of, OpenWork& w) {
  if (is_empty(x)) return;
  Node node;  // the path's node at level l
  problem::root(node);
  const int top = x.I();
  for (int l = 0; l <= top; ++l) {
    const Mask row = x.M(l);
    if constexpr (problem::kGoal == pj::Goal::count) {
      w.subtrees += static_cast<unsigned long long>(pj::popcount(row));
    } else {
      for (Mask rem = row; rem; rem &= rem - 1) {
        const int v = pj::lowest(rem);
        Node child;
        problem::place_at(node, v, end_at(x.ends(), l), child);  // one end: the front
        const long long b = l + 1 == L ? static_cast<long long>(problem::objective(child))
                                       : static_cast<long long>(bound_of(child));
        if (problem::kGoal == pj::Goal::minimize ? b >= best : b <= best) continue;
        ++w.subtrees;
        const long long key = problem::kGoal == pj::Goal::maximize ? -b : b;
        if (key < w.key) w.key = key;
      }
    }
    if (l == top) break;
    Node next;
    problem::place_at(node, x.V(l), end_at(x.ends(), l), next);
    node = next;
  }
}

}  // namespace pj_ivm
