// IVM explorers over a two-ended tree (branch.ends = 2): a value goes to the first free
// position from the left or from the right, one end for all the children of a node,
// chosen by the rule of the `cpu` skeleton (docs/spec-language.md, "Two ends"). Same
// interval arithmetic and counting as templates/ivm_explorer.h, which holds the one-end
// explorer; what differs is written here.
//
// Numbering. A node has as many children at either end, so a leaf's factoradic digit at
// level l is still the rank of its value among the free ones; the end of each node on a
// path says where the value goes. An explorer keeps the ends of its current path as bits
// (`ends`).
//
// Ends that several explorers share. The end of a node depends on the incumbent, so two
// explorers that each decided it could disagree, and the permutations of the node's
// subtree would be lost or found twice. A node is shared by the intervals that hold its
// leaves: an explorer decides the end of a node only when no other explorer holds it, and
// otherwise takes the end from whoever decided it first:
//   - at the start all explorers decide the ends on their first and last paths with the
//     same incumbent (nothing is found during the init kernel), so neighbours agree;
//   - a thief takes the ends of the victim's path where its first path follows it, the
//     victim's `last_ends` where it follows the victim's last path (those become the
//     thief's), and decides the others; the victim's new last path is the thief's first
//     path up to the node where the thief's interval starts, so the victim's `last_ends`
//     become the thief's decisions;
//   - an explorer expanding a node on its last path below `last_known` uses `last_ends`.
// The ends travel with the explorer's state, so a checkpoint resumes exactly.
//
// Counting. A node's expansion -- generating its children at both ends, bounding them
// (both ends count as evaluated), choosing the end -- is counted by the explorer that
// owns the node's first leaf, as in the one-end explorer; the children of a node whose
// children are leaves (one value left) are evaluated when popped. The root's expansion is
// counted by the explorer whose interval starts at leaf 0. With the incumbent fixed the
// totals equal the `cpu` skeleton's.
#pragma once

namespace problem {  // MERGE-SHIM: until staged bounds land
constexpr int kStages = 1;
PJ_HD int refine(const Node&, int b) { return b; }
}  // namespace problem

namespace pj_ivm {

using EndBits = unsigned long long;
static_assert(L <= 64, "an explorer's ends are one bit per level");

PJ_HD int end_at(EndBits bits, int k) { return static_cast<int>((bits >> k) & 1ull); }
PJ_HD EndBits with_end(EndBits bits, int k, int end) {
  return (bits & ~(1ull << k)) | (static_cast<EndBits>(end) << k);
}

// The child of `parent` with value v at `end` (0: the front, 1: the back).
PJ_HD void place_at(const Node& parent, int v, int end, Node& child) {
#ifdef PJ_TWO_ENDS
  if (end) {
    problem::place_back(parent, v, child);
    return;
  }
#endif
  (void)end;
  problem::place(parent, v, child);
}

// Whether a bound prunes against the incumbent `best` (never when counting).
PJ_HD bool prunes(int bound, int best) {
  if constexpr (problem::kGoal == pj::Goal::minimize) return bound >= best;
  if constexpr (problem::kGoal == pj::Goal::maximize) return bound <= best;
  return false;
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
PJ_HEAVY int bound_of(const Node& n) { return problem::bound(n); }

// Staged bounds: the kept children of one end that the refinement keeps too. Only the
// survivors of the first bound are refined, one after the other.
PJ_HD Mask refine_kept(const Node& parent, Mask kept, int end, int best, const int* first_bound) {
  if constexpr (problem::kStages == 2) {
    Mask out = 0;
    for (Mask rem = kept; rem; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      Node child;
      place_at(parent, v, end, child);
      const int first = first_bound[v], refined = problem::refine(child, first);
      // The better informed of the two (docs/spec-language.md, "Staged bounds").
      const int b = problem::kGoal == pj::Goal::maximize ? (refined < first ? refined : first)
                                                          : (refined > first ? refined : first);
      if (!prunes(b, best)) out |= pj::bit<Mask>(v);
    }
    return out;
  }
  (void)parent, (void)end, (void)best, (void)first_bound;
  return kept;
}

// The children of `parent` (a node whose children are not leaves) to expand, and their
// end: `forced` when it is 0 or 1 (a decided end), else the end with fewer children
// kept (by the first bound); on a tie the end whose keys -- bounds, negated when
// maximising: smaller is better -- sum higher, then the front. With staged bounds the
// choice is made on the first bound, and only the kept end's children are refined.
// Evaluates both ends unless the end is forced; the caller counts 2 x candidates either
// way. One loop over the ends, not unrolled: one copy of the bound.
PJ_HEAVY Mask children_two_ends(const Node& parent, Mask cand, int forced, int best, int& end) {
  int first_bound[2][problem::kSize];
  Mask kept[2] = {0, 0};
  int count[2] = {0, 0};
  long long key_sum[2] = {0, 0};
  const int from = forced >= 0 ? forced : 0, to = forced >= 0 ? forced : 1;
#pragma unroll 1
  for (int e = from; e <= to; ++e) {
    for (Mask rem = cand; rem; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      if constexpr (problem::kGoal == pj::Goal::count) {
        kept[e] |= pj::bit<Mask>(v);
        ++count[e];
      } else {
        Node child;
        place_at(parent, v, e, child);
        const int b = bound_of(child);
        key_sum[e] += problem::kGoal == pj::Goal::maximize ? -static_cast<long long>(b) : b;
        if (prunes(b, best)) continue;
        kept[e] |= pj::bit<Mask>(v);
        ++count[e];
        first_bound[e][v] = b;
      }
    }
  }
  if (forced >= 0) end = forced;
  else end = count[1] < count[0] || (count[1] == count[0] && key_sum[1] > key_sum[0]) ? 1 : 0;
  return refine_kept(parent, kept[end], end, best, first_bound[end]);
}

// A node at level k has children that are leaves when one value is left.
PJ_HD bool leaf_children(int k) { return k + 1 == L; }

// Decides the ends of the nodes on the explorer's last path that it shares with the
// next interval (those whose subtree holds a leaf after `last`), at the start of the
// search, as the next explorer's enter_two_ends() decides them: same nodes, same
// incumbent. Stops where the path leaves the kept children.
PJ_HD void decide_last_ends(Ref x, int best) {
  Node node;
  problem::root(node);
  EndBits ends = 0;
  int k = 0;
  for (; k + 1 < L; ++k) {
    bool shared = false;  // the node's subtree goes on after `last`
    for (int l = k; l < L; ++l) shared = shared || x.last(l) != base_of(l, L) - 1;
    if (!shared) break;
    int end = 0;
    const Mask kept = children_two_ends(node, problem::candidates(node), -1, best, end);
    ends = with_end(ends, k, end);
    const int c = value_of_rank(node.free, x.last(k));
    if (!pj::test(kept, c)) {
      ++k;
      break;
    }
    Node child;
    place_at(node, c, end, child);
    node = child;
  }
  x.last_ends() = ends;
  x.last_known() = static_cast<layout::Digit>(k);
}

// Makes the explorer start at leaf `first` (its last leaf, last_ends and last_known are
// already set): the walk of enter() in templates/ivm_explorer.h, where each row holds
// the kept children of the path node at its end. The end of a path node comes from
// `other` (a victim whose current path the walk follows; may be null), from the
// explorer's last_ends where the walk follows its last path, or is decided here.
// `root_counts` receives the root's expansion when `first` is leaf 0. Returns how many
// levels from the root had their end set (the rest of the path was not reached).
PJ_HD int enter_two_ends(Ref x, const Digit* first, int best, const Ref* other, Counters* root_counts) {
  Node node;
  problem::root(node);
  EndBits ends = 0;
  bool on_last_path = true;  // the path so far equals last's digits
  bool on_other_path = other != nullptr;
  const int other_top = other ? other->I() : -1;
  int decided = 0;
  int l = 0;
  for (;; ++l) {
    const Mask cand = problem::candidates(node);
    const Mask free = node.free;
    const int d = first[l], e = x.last(l);
    Mask kept = cand;
    int end = 0;
    if (!leaf_children(l)) {
      int forced = -1;
      if (on_other_path && l <= other_top) forced = end_at(other->ends(), l);
      else if (on_last_path && l < x.last_known()) forced = end_at(x.last_ends(), l);
      kept = children_two_ends(node, cand, forced, best, end);
      if (l == 0 && root_counts && is_zero_from(first, 0, L))
        root_counts->evaluated += 2ull * static_cast<unsigned long long>(pj::popcount(cand));
    }
    ends = with_end(ends, l, end);
    decided = l + 1;
    Mask row = kept & ~lowest_n(free, d + 1);  // later siblings
    if (on_last_path) row &= lowest_n(free, e + 1);
    const int c = value_of_rank(free, d);
    const bool is_child = pj::test(kept, c);
    if (is_zero_from(first, l + 1, L)) {  // the path node's first leaf is `first`
      if (is_child) row |= pj::bit<Mask>(c);
      x.M(l) = row;
      break;
    }
    x.M(l) = row;
    if (!is_child) break;
    Node child;
    place_at(node, c, end, child);
    x.V(l) = static_cast<layout::Digit>(c);
    on_last_path = on_last_path && d == e;
    on_other_path = on_other_path && l < other_top && other->V(l) == c;
    node = child;
  }
  x.I() = static_cast<layout::Digit>(l);
  x.ends() = ends;
  normalize(x);
  return decided;
}

// Explores the interval depth-first, as explore() in templates/ivm_explorer.h does with
// one end; a popped child was kept when its parent was expanded, and is expanded in turn
// (its first bound is checked again first: the incumbent may have improved since).
template <class Hooks>
PJ_HD bool explore_two_ends(Ref x, layout::Level* stack, int stride, Hooks& hooks, Counters& c) {
  if (is_empty(x)) return true;
  int vals[L];
  EndBits ends = x.ends();
  Node cur;
  problem::root(cur);
  int top = x.I();
  for (int k = 0; k < top; ++k) {
    stack[k * stride].node = cur;
    stack[k * stride].rem = x.M(k);
    vals[k] = x.V(k);
    Node next;
    place_at(cur, vals[k], end_at(ends, k), next);
    cur = next;
  }
  Mask rem = x.M(top);
  int tight = 0;  // as in explore(): the node at level k is on last's path when tight >= k
  while (tight < top && rank_of(stack[tight * stride].node.free, vals[tight]) == x.last(tight)) ++tight;
  const int last_known = x.last_known();
  const EndBits last_ends = x.last_ends();

  unsigned since_poll = 0;
  bool done = false;
  while (true) {
    if (rem == 0) {
      if (top == 0) {
        done = true;
        break;
      }
      --top;
      cur = stack[top * stride].node;
      rem = stack[top * stride].rem;
      tight = tight < top ? tight : top;
      continue;
    }
    if (++since_poll == Hooks::kPeriod) {
      since_poll = 0;
      if (hooks.poll()) break;
    }
    const int v = pj::lowest(rem);
    rem &= rem - 1;
    Node child;
    place_at(cur, v, end_at(ends, top), child);
    vals[top] = v;
    if (top + 1 == L) {
      ++c.evaluated;
      int ordered[L];
      by_position(vals, ends, ordered);
      hooks.leaf(child, ordered, c);
      continue;
    }
    if constexpr (problem::kGoal != pj::Goal::count) {
      if (prunes(bound_of(child), hooks.best)) continue;
    }
    ++c.expanded;
    const int k = top + 1;
    const bool on_last = tight == top && rank_of(cur.free, v) == x.last(top);
    const Mask cand = problem::candidates(child);
    Mask child_rem = cand;
    int end = 0;
    if (!leaf_children(k)) {
      const int forced = on_last && k < last_known ? end_at(last_ends, k) : -1;
      child_rem = children_two_ends(child, cand, forced, hooks.best, end);
      c.evaluated += 2ull * static_cast<unsigned long long>(pj::popcount(cand));
    }
    ends = with_end(ends, k, end);
    if (on_last) {
      tight = k;
      child_rem &= lowest_n(child.free, x.last(k) + 1);
    }
    stack[top * stride].node = cur;
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

// A thief's steal over a two-ended tree: steal_half() of templates/ivm_explorer.h, the
// ends passed on as the header says. The victim's state is read before it is clipped.
PJ_HD bool steal_half_two_ends(Ref thief, Ref victim, int best) {
  if (is_empty(victim)) return false;
  Digit pos[L], last[L], mid[L];
  position(victim, pos);
  load_last(victim, last);
  if (compare(pos, last, L) >= 0) return false;
  split_half(pos, last, mid, L);
  for (int l = 0; l < L; ++l) thief.last(l) = last[l];
  thief.last_ends() = victim.last_ends();
  thief.last_known() = victim.last_known();
  const int decided = enter_two_ends(thief, mid, best, &victim, nullptr);
  // The nodes both now hold: the thief's first path above the node its interval starts
  // at (levels whose digits of `mid` are not all zero below).
  int shared = 0;
  while (shared < L && !is_zero_from(mid, shared, L)) ++shared;
  victim.last_ends() = thief.ends();
  victim.last_known() = static_cast<layout::Digit>(decided < shared ? decided : shared);
  step(mid, -1, L);  // the victim's new last leaf
  for (int l = 0; l < L; ++l) victim.last(l) = mid[l];
  clip_to_last(victim);
  return true;
}

}  // namespace pj_ivm
