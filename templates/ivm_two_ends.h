// IVM explorers over a two-ended tree (branch.ends = 2): a value goes to the first free
// position from the left or from the right, one end for all the children of a node,
// chosen by the rule of the `cpu` skeleton (docs/spec-language.md, "Two ends"). Same
// interval arithmetic and counting as templates/ivm_explorer.h, which holds the one-end
// explorer; what differs is written here.
//
// Numbering. A node has as many children at either end, so a leaf's factoradic digit at
// level l is still the rank of its value among the free ones; the end of each node on a
// path says where the value goes. An explorer keeps the ends of its current path as bits
// (`ends`), saved with its state (a checkpoint resumes exactly).
//
// Ends are decided once. The end of a node depends on the incumbent, so two explorers
// that each decided it could disagree, and the permutations below it would be lost or
// found twice. Here no node is ever decided by two explorers: the search starts with one
// explorer holding every leaf (the root is decided once), and a thief takes whole
// subtrees from a row of its victim -- the upper half of the victim's shallowest
// non-empty row -- so its interval starts at a child of a node on the victim's path. The
// nodes the two then share are that path's, decided already; the thief copies their
// ends. The split point is still a factoradic number, so intervals, their lengths and
// the hypercube's victim selection work as with one end; the cut is at a row, not at the
// exact middle (templates/cpu_work_pool.hpp gives away half of a level the same way).
//
// Counting. A node's expansion -- generating its children at both ends, bounding them
// (both ends count as evaluated), choosing the end -- happens when the node is popped
// from a row, by the explorer that pops it, after its refinement when the bounds are
// staged; the root's, when the search starts. Rows hold the children kept by the first
// bound. With the incumbent fixed the totals equal the `cpu` skeleton's.
#pragma once

namespace pj_ivm {

using EndBits = unsigned long long;
static_assert(problem::kEnds == 1 || L <= 64, "an explorer's ends are one bit per level (runtime/ivm refuses more)");

PJ_HD int end_at(EndBits bits, int k) { return static_cast<int>((bits >> k) & 1ull); }
PJ_HD EndBits with_end(EndBits bits, int k, int end) {
  return (bits & ~(1ull << k)) | (static_cast<EndBits>(end) << k);
}

// Whether a bound prunes against the incumbent `best` (never when counting).
PJ_HD bool prunes(int bound, int best) {
  if constexpr (problem::kGoal == pj::Goal::count) return false;
  else return pj::prunes<problem::kGoal>(bound, best);
}

// The values of a path in the order of their positions: the front values left to right,
// then the back values (the last placed is the leftmost of the back).
PJ_HD void by_position(const int* vals, EndBits ends, int* out) {
  int front = 0, back = L - 1;
  for (int k = 0; k < L; ++k) {
    if (end_at(ends, k)) out[back--] = vals[k];
    else out[front++] = vals[k];
  }
}

// The first bound of a node. Called, not inlined, on the device: the explorer asks it
// from several places, and one copy of a large bound compiles in a fraction of the time.
// A template, like children_two_ends: a one-ended search never instantiates them, so
// its module holds no copy.
template <class N>
PJ_HEAVY int bound_of(const N& n) {
  return problem::bound(n);
}

// The first bound of a child of a parent whose reductions are in `prep`: bound_of(child)
// exactly, with what the children share computed once (generator/emit_child_bound.cpp).
template <class N>
PJ_HEAVY int child_bound_of(const N& child, const problem::ParentReductions& prep, int v) {
  return problem::child_bound(child, prep, v);
}

// The children of `parent` (a node whose children are not leaves) to expand, and their
// end: the end with fewer children kept (by the first bound); on a tie the end whose
// keys -- bounds, negated when maximising: smaller is better -- sum higher, then the
// front. The caller counts the 2 x candidates evaluated. One loop over the ends, not
// unrolled: one copy of the bound.
//
// With staged bounds the end is chosen on the first bound and the kept children are
// refined later, each when it is popped from its row (pruned_when_popped), not here. The
// same children are refined and pruned (with the incumbent fixed, the tree is the `cpu`
// skeleton's), but the explorers of a warp then run the same code at the same time: a
// popped child's refinement in every lane, where refining an expansion's survivors here
// looped a different number of times in each lane (H100, ta029: 6 of 32 lanes active
// per instruction, most cycles waiting for instructions; docs/performance.md).
template <class N>
PJ_HEAVY Mask children_two_ends(const N& parent, Mask cand, int best, int& end) {
  Mask kept[2] = {0, 0};
  int count[2] = {0, 0};
  long long key_sum[2] = {0, 0};
  // The 2 x candidates children share their parent's reductions over its free values.
  problem::ParentReductions prep;
  if constexpr (problem::kParentReductions > 0) problem::prepare_children(parent, prep);
#pragma unroll 1
  for (int e = 0; e < 2; ++e) {
    for (Mask rem = cand; rem; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      if constexpr (problem::kGoal == pj::Goal::count) {
        kept[e] |= pj::bit<Mask>(v);
        ++count[e];
      } else {
        Node child;
        problem::place_at(parent, v, e, child);
        // Without reductions to share, child_bound is bound(): the module's one copy of it.
        const int b = problem::kParentReductions > 0 ? child_bound_of(child, prep, v) : bound_of(child);
        key_sum[e] += problem::kGoal == pj::Goal::maximize ? -static_cast<long long>(b) : b;
        if (prunes(b, best)) continue;
        kept[e] |= pj::bit<Mask>(v);
        ++count[e];
      }
    }
  }
  end = count[1] < count[0] || (count[1] == count[0] && key_sum[1] > key_sum[0]) ? 1 : 0;
  return kept[end];
}

// Whether a child popped from a row (not a leaf) is pruned now: its first bound against
// the incumbent as it is now (it may have improved since the child was kept), then, with
// staged bounds, its refinement. Rows hold the children their parent's expansion kept by
// the first bound; each is refined here, once, by the explorer that pops it (a thief or
// a resumed run included), so the refinement is computed for exactly the children the
// first bound does not prune. A template for the reason bound_of is one.
template <class N>
PJ_HD bool pruned_when_popped(const N& child, int best) {
  if constexpr (problem::kGoal == pj::Goal::count) {
    (void)child, (void)best;
    return false;
  } else {
    const int b = bound_of(child);
    if (prunes(b, best)) return true;
    if constexpr (problem::kStages == 2) return prunes(problem::refined_bound(child, b), best);
    return false;
  }
}

// A node at level k has children that are leaves when one value is left.
PJ_HD bool leaf_children(int k) { return k + 1 == L; }

// The whole tree to one explorer: the root expanded (its end decided, its children at
// both ends counted as evaluated) and its kept children in row 0. Its last leaf is the
// last of all.
PJ_HD void enter_root(Ref x, int best, Counters& c) {
  Node root;
  problem::root(root);
  for (int l = 0; l < L; ++l) x.last(l) = static_cast<layout::Digit>(base_of(l, L) - 1);
  const Mask cand = problem::candidates(root);
  int end = 0;
  Mask kept = cand;  // a root with one value left has a leaf child: evaluated when popped
  if (!leaf_children(0)) {
    kept = children_two_ends(root, cand, best, end);
    c.evaluated += 2ull * static_cast<unsigned long long>(pj::popcount(cand));
  }
  x.I() = 0;
  x.M(0) = kept;
  x.ends() = with_end(0, 0, end);
}

// Explores the interval depth-first, as explore() in templates/ivm_explorer.h does with
// one end; a popped child was kept when its parent was expanded, and is expanded in turn
// (its first bound is checked again first: the incumbent may have improved since).
template <class Hooks>
// The path's restore and save repeat explore()'s on purpose: shared through one struct
// of the running state, they cost the one-end kernel 40% (H100, ta022: 145 registers
// became 96 with spills).
PJ_HD bool explore_two_ends(Ref x, layout::Level* stack, int stride, Hooks& hooks, Counters& c) {
  if (is_empty(x)) return true;
  int vals[L];
  EndBits ends = x.ends();
  Node cur;
  problem::root(cur);
  int top = x.I();
  for (int k = 0; k < top; ++k) {
    stack[k * stride].node = problem::stack_node(cur);
    stack[k * stride].rem = x.M(k);
    vals[k] = x.V(k);
    Node next;
    problem::place_at(cur, vals[k], end_at(ends, k), next);
    cur = next;
  }
  Mask rem = x.M(top);
  Node root;  // what a popped row at level 0 takes its fixed fields from (problem::from_stack)
  problem::root(root);
  int tight = 0;  // as in explore(): the node at level k is on last's path when tight >= k
  while (tight < top && rank_of(problem::stack_free(stack[tight * stride].node), vals[tight]) == x.last(tight))
    ++tight;

  unsigned since_poll = 0;
  bool done = false;
  while (true) {
    // Back up to the deepest row with a child left, in a loop of its own: the lanes of a
    // warp then bound their popped children (and refine them) together, whatever the
    // number of rows each climbs.
    while (rem == 0 && top > 0) {
      --top;
      cur = problem::from_stack(stack[top * stride].node, top == 0 ? root : cur);
      rem = stack[top * stride].rem;
      tight = tight < top ? tight : top;
    }
    if (rem == 0) {
      done = true;
      break;
    }
    if (++since_poll == Hooks::kPeriod) {
      since_poll = 0;
      if (hooks.poll()) break;
    }
    const int v = pj::lowest(rem);
    rem &= rem - 1;
    Node child;
    problem::place_at(cur, v, end_at(ends, top), child);
    vals[top] = v;
    if (top + 1 == L) {
      ++c.evaluated;
      int ordered[L];
      by_position(vals, ends, ordered);
      if (!hooks.leaf(child, ordered, c)) {  // not taken (a full solution buffer): next round
        rem |= pj::bit<Mask>(v);
        --c.evaluated;
        break;
      }
      continue;
    }
    if (pruned_when_popped(child, hooks.best)) continue;
    ++c.expanded;
    const int k = top + 1;
    const bool on_last = tight == top && rank_of(cur.free, v) == x.last(top);
    const Mask cand = problem::candidates(child);
    Mask child_rem = cand;
    int end = 0;
    if (!leaf_children(k)) {
      child_rem = children_two_ends(child, cand, hooks.best, end);
      c.evaluated += 2ull * static_cast<unsigned long long>(pj::popcount(cand));
    }
    ends = with_end(ends, k, end);
    if (on_last) {
      tight = k;
      child_rem &= lowest_n(child.free, x.last(k) + 1);
    }
    stack[top * stride].node = problem::stack_node(cur);
    stack[top * stride].rem = rem;
    ++top;
    cur = child;
    rem = child_rem;
  }
  x.I() = static_cast<layout::Digit>(top);
  for (int k = 0; k < top; ++k) {
    x.V(k) = static_cast<layout::Digit>(vals[k]);
    x.M(k) = stack[k * stride].rem;
  }
  x.M(top) = rem;
  x.ends() = ends;
  normalize(x);
  return done;
}

// A thief's steal over a two-ended tree: the upper half of the victim's shallowest
// non-empty row (all of it when a deeper row is left to the victim; a last row keeps at
// least its lowest value), as whole subtrees of a node both now have on their path.
// False (nothing changes) when the victim has a single subtree left.
PJ_HD bool steal_row_two_ends(Ref thief, Ref victim) {
  if (is_empty(victim)) return false;
  const int top = victim.I();
  int j = 0;
  while (j < top && victim.M(j) == 0) ++j;
  const Mask row = victim.M(j);
  const int left = pj::popcount(row);
  const int give = j < top ? (left + 1) / 2 : left / 2;
  if (give == 0) return false;
  const Mask kept = lowest_n(row, left - give);  // the victim keeps the lowest values
  const Mask given = row & ~kept;
  // The thief: the victim's path above row j, its ends, the given values; the victim's
  // last leaf. Its interval starts at the first leaf below the lowest given value.
  Mask free = root_free();
  Digit mid[L];
  for (int l = 0; l < j; ++l) {
    const int v = victim.V(l);
    mid[l] = static_cast<Digit>(rank_of(free, v));
    free &= ~pj::bit<Mask>(v);
    thief.V(l) = static_cast<layout::Digit>(v);
    thief.M(l) = 0;
  }
  mid[j] = static_cast<Digit>(rank_of(free, pj::lowest(given)));
  for (int l = j + 1; l < L; ++l) mid[l] = 0;
  for (int l = 0; l < L; ++l) thief.last(l) = victim.last(l);
  thief.M(j) = given;
  thief.I() = static_cast<layout::Digit>(j);
  thief.ends() = victim.ends();
  // The victim ends just before the thief's first leaf.
  victim.M(j) = kept;
  step(mid, -1, L);
  for (int l = 0; l < L; ++l) victim.last(l) = mid[l];
  clip_to_last(victim);
  return true;
}

}  // namespace pj_ivm
