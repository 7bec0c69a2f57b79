// One IVM explorer of the `ivm` skeleton (Carneiro Pessoa et al. 2016 §3): entering an interval, exploring
// it depth-first, shrinking it when a thief takes its right part, and its position.
// Host-and-device code over the generated problem and IVM layout, so the kernels of
// templates/gpu_ivm.cuh and the host tests run the same lines.
//
// An explorer's state is its IVM: the depth I of its deepest row, the values V placed on
// the path to it, the rows M (values still to try at each level, restricted to the
// interval) and the last leaf of its interval. Its next leaf -- the start of what is
// left -- is the path's digits followed by the digit of the deepest row's lowest value.
//
// Counting: a node is counted (evaluated, and expanded unless pruned or a leaf) by the
// explorer whose interval holds the node's first leaf, the number with the node's path
// digits followed by zeros. An explorer entering an interval at `first` walks down
// first's path without counting the nodes whose first leaf lies before `first` (another
// interval's explorer counts them) and leaves the node whose first leaf is `first` in
// its row, to be evaluated as usual. Every node is then counted exactly once however the
// intervals are cut, so the node totals equal the `cpu` skeleton's whenever the
// incumbent cannot change (counting, or `--ub` at the optimum).
#pragma once

// The explorers' memory, over the generated layout's kLevels and Digit
// (generator/emit_ivm.cpp).
namespace pj_ivm::layout {

// Row l of an explorer while it runs: the node at level l (as a stack keeps it:
// problem::from_stack; its free set is problem::stack_free) and row l of M, the values
// still to try there, as a bitset (the row of the paper's triangular byte matrix holds
// the same set; a bitset makes the next value one find-first-set).
struct LevelFields {
  problem::StackNode node;
  problem::Mask rem;
};
// Aligned to the largest of 16 and 8 bytes that divides its size, so that a push or pop
// is vector accesses without padding: padding a 20-byte row to 32 took the rows of
// N-Queens 19 with its symmetry out of shared memory, and its search 2x slower.
constexpr unsigned long kLevelAlign = sizeof(LevelFields) % 16 == 0  ? 16
                                      : sizeof(LevelFields) % 8 == 0 ? 8
                                                                     : alignof(LevelFields);
struct alignas(kLevelAlign) Level : LevelFields {};
static_assert(sizeof(Level) == sizeof(LevelFields), "a row without padding");

// The T explorers' IVMs between kernels, structure of arrays: entry l of explorer
// i is at [l * T + i], so a warp saving or restoring one entry is coalesced.
struct Explorers {
  Digit* I;          // [T]: the level of the deepest row
  Digit* V;          // [kLevels][T]: the value placed at each level of the current path
  problem::Mask* M;  // [kLevels][T]: row l, the values still to try at level l
  Digit* last;       // [kLevels][T]: the factoradic digits of the interval's last leaf
  unsigned long long* ends;  // [T]: two ends (templates/ivm_two_ends.h; unused with one end),
                            // bit l the end (1: back) of the node at level l of the path
  unsigned long long T;
};
constexpr int kExplorerBytes =
    1 + kLevels * (2 * int(sizeof(Digit)) + int(sizeof(problem::Mask))) + 8;

}  // namespace pj_ivm::layout

namespace pj_ivm {

using problem::Mask;
using problem::Node;
constexpr int L = layout::kLevels;
static_assert(sizeof(layout::Digit) == sizeof(Digit), "digits are bytes (sizes up to 64)");

// The rank of value v among the values of `free` (its factoradic digit).
PJ_HD int rank_of(Mask free, int v) { return pj::popcount(free & (pj::bit<Mask>(v) - 1)); }
// The n lowest values of `set`.
PJ_HD Mask lowest_n(Mask set, int n) {
  Mask rest = set;
  for (int j = 0; j < n; ++j) rest &= rest - 1;
  return set & ~rest;
}
// The value of rank r in `free`.
PJ_HD int value_of_rank(Mask free, int r) { return pj::lowest(free & ~lowest_n(free, r)); }

// One explorer's entries in the structure-of-arrays state.
struct Ref {
  const layout::Explorers& e;
  unsigned long long i;
  PJ_HD layout::Digit& I() const { return e.I[i]; }
  PJ_HD layout::Digit& V(int l) const { return e.V[l * e.T + i]; }
  PJ_HD Mask& M(int l) const { return e.M[l * e.T + i]; }
  PJ_HD layout::Digit& last(int l) const { return e.last[l * e.T + i]; }
  PJ_HD unsigned long long& ends() const { return e.ends[i]; }
};

PJ_HD bool is_empty(Ref x) { return x.I() == 0 && x.M(0) == 0; }

// Drops empty rows below the deepest non-empty one.
PJ_HD void normalize(Ref x) {
  int top = x.I();
  while (top > 0 && x.M(top) == 0) --top;
  x.I() = static_cast<layout::Digit>(top);
}

PJ_HD Mask root_free() {
  Node r;
  problem::root(r);
  return r.free;
}

// The factoradic number of the explorer's next leaf; the explorer is not empty.
PJ_HD void position(Ref x, Digit* pos) {
  Mask free = root_free();
  const int top = x.I();
  for (int l = 0; l < top; ++l) {
    const int v = x.V(l);
    pos[l] = static_cast<Digit>(rank_of(free, v));
    free &= ~pj::bit<Mask>(v);
  }
  pos[top] = static_cast<Digit>(rank_of(free, pj::lowest(x.M(top))));
  for (int l = top + 1; l < L; ++l) pos[l] = 0;
}

PJ_HD void load_last(Ref x, Digit* last) {
  for (int l = 0; l < L; ++l) last[l] = x.last(l);
}

// What is left of the interval, approximately (0 when empty).
PJ_HD double remaining(Ref x) {
  if (is_empty(x)) return 0;
  Digit pos[L], last[L];
  position(x, pos);
  load_last(x, last);
  return length_of(pos, last, L);
}

// Removes from the rows every leaf after the (new, smaller) last leaf. Only the rows on
// last's path change: above the first level where the path turns below last's digit
// everything is before last; where it would turn above it, nothing below is left.
PJ_HD void clip_to_last(Ref x) {
  Mask free = root_free();
  const int top = x.I();
  for (int l = 0; l <= top; ++l) {
    const int e = x.last(l);
    x.M(l) &= lowest_n(free, e + 1);
    if (l == top) break;
    const int v = x.V(l);
    const int d = rank_of(free, v);
    if (d < e) break;
    if (d > e) {
      for (int k = l + 1; k <= top; ++k) x.M(k) = 0;
      break;
    }
    free &= ~pj::bit<Mask>(v);
  }
  normalize(x);
}

// Makes the explorer start at leaf `first` (its last leaf is already set, and first <=
// last). Walks down first's path: at each level the row holds the later siblings (within
// last); the node on the path is entered without being counted while its first leaf is
// before `first`, and is left in the row, to be counted, once its first leaf is `first`.
// A path node that is not a candidate or is pruned (`Pruned` says, from its bound) ends
// the walk: its subtree holds no work.
template <class Pruned>
PJ_HD void enter(Ref x, const Digit* first, Pruned&& pruned) {
  Node node;
  problem::root(node);
  bool on_last_path = true;  // the path so far equals last's digits
  int l = 0;
  for (;; ++l) {
    const Mask cand = problem::candidates(node);
    const Mask free = node.free;
    const int d = first[l], e = x.last(l);
    Mask row = cand & ~lowest_n(free, d + 1);  // later siblings
    if (on_last_path) row &= lowest_n(free, e + 1);
    const int c = value_of_rank(free, d);
    const bool is_child = pj::test(cand, c);
    if (is_zero_from(first, l + 1, L)) {  // the path node's first leaf is `first`
      if (is_child) row |= pj::bit<Mask>(c);
      x.M(l) = row;
      break;
    }
    x.M(l) = row;
    if (!is_child) break;
    Node child;
    problem::place(node, c, child);
    if (pruned(child)) break;
    x.V(l) = static_cast<layout::Digit>(c);
    on_last_path = on_last_path && d == e;
    node = child;
  }
  x.I() = static_cast<layout::Digit>(l);
  normalize(x);
}

// An explorer with nothing left.
PJ_HD void set_empty(Ref x) {
  x.I() = 0;
  x.M(0) = 0;
  x.ends() = 0;
}

struct Counters {
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
};

// The values placed on the path to the node being expanded (`cur`, at level `top`): the
// value of level k is the one that the next level's node no longer has free. Read only
// where a leaf is recorded or the state saved, so that the loop writes no per-level
// array of its own (an indexed array lives in local memory: a store per child).
PJ_HD void path_values(const layout::Level* stack, int stride, int top, const Node& cur, int* vals) {
  for (int k = 0; k < top; ++k) {
    const Mask below = k + 1 < top ? problem::stack_free(stack[(k + 1) * stride].node) : cur.free;
    vals[k] = pj::lowest(problem::stack_free(stack[k * stride].node) & ~below);
  }
}

// The levels of the layout as a set (bit k: level k).
using LevelSet = pj::LevelSet<L>;

// The rows' nodes along the explorer's path, rebuilt from its values (placing, not
// counting: they were counted); cur becomes the node at its deepest row. Returns the
// levels below it whose rows have values left.
PJ_HD LevelSet rebuild_rows(Ref x, layout::Level* stack, int stride, Node& cur) {
  problem::root(cur);
  const int top = x.I();
  LevelSet live = 0;
  for (int k = 0; k < top; ++k) {
    stack[k * stride].node = problem::stack_node(cur);
    stack[k * stride].rem = x.M(k);
    live |= LevelSet(x.M(k) != 0) << k;
    Node next;
    problem::place(cur, x.V(k), next);
    cur = next;
  }
  return live;
}

// Saves the IVM: the path's values and every row, then drops the empty deepest rows.
PJ_HD void save_rows(Ref x, const layout::Level* stack, int stride, int top, const Node& cur, Mask rem) {
  int vals[L];
  path_values(stack, stride, top, cur, vals);
  x.I() = static_cast<layout::Digit>(top);
  for (int k = 0; k < top; ++k) {
    x.V(k) = static_cast<layout::Digit>(vals[k]);
    x.M(k) = stack[k * stride].rem;
  }
  x.M(top) = rem;
  normalize(x);
}

// Explores the interval depth-first from the explorer's state, exactly as the `dfs`
// kernel searches a subtree, until it is exhausted (returns true) or `hooks.poll()`
// says stop (the state is saved). `stack` holds the rows while it runs, entry k at
// stack[k * stride]. Hooks: `best` (the incumbent as last read), `poll()`,
// `pruned(child)`, `leaf(child, vals)` for a complete permutation (vals[0..L-1]) and
// `leaves_by_mask()`: whether the leaves may be counted without being visited;
// explore_popping asks `pruned_child(child, level)` of a child of the node at `level`,
// the same question, where the hooks may keep an AssignStart per level
// (problem::kAssignStart): the child's assign() starts from its parent's, and leaves its
// own at the child's level for the children it may have. The entry of a level is its
// node's while the explorer's path runs through it; after a steal or a rebuild the
// entries are another path's, which costs the next assign() some augmenting paths,
// never exactness (templates/pair_reductions.h, assign_min_from).
//
// Two shortcuts keep a child off the stack: a child without candidates is expanded and
// done (a push and a pop saved), and, when counting, the leaves below a child at the
// last level but one are counted from its candidate set (problem::leaf_children_weight)
// rather than placed one by one. The counts are those of the plain search: every leaf is
// evaluated, the child expanded.
//
// A row is written at every push (its node is needed to save the path), also when its
// values are spent. The two explorers below differ in how a backtrack finds the deepest
// row with values left, and in their turn:
//   explore_popping  pops the spent rows one by one; the kernels with their rows in
//                    local memory (heavy nodes) run it;
//   explore_jumping  keeps every node in its row, the deepest with values left found in
//                    a register set of the levels; its turn reads the node from the row,
//                    and pushes and backtracks without a branch; the kernels with their
//                    rows in shared memory (light nodes) run it.
// Measured on the H100 (docs/performance.md): the pops were a loop of their own, of a
// length that differs from lane to lane (N-Queens 18: 4.6 pops per turn, run with 3.8 of
// 32 lanes active, a third of the warp's instructions; jumping made N-Queens 19 1.4x
// faster, a shorter turn with the node in registers 1.8x more, the node in its row 1.6x
// more), while forward flowshop ta029 (rows in local memory, heavy nodes, few spent
// rows) ran 1.3x slower jumping, and 1.2x slower with the shorter turn (its register
// spills grew from 36 to 52 bytes).

// The earlier turn, with a pop loop (above).
template <class Hooks>
PJ_HD bool explore_popping(Ref x, layout::Level* stack, int stride, Hooks& hooks, Counters& c) {
  if (is_empty(x)) return true;
  Node cur;
  rebuild_rows(x, stack, stride, cur);  // the levels with values left are found by popping
  int top = x.I();
  Mask rem = x.M(top);
  // A popped row's node takes what is fixed along the path from the node below it, or
  // from the root at level 0 (problem::from_stack).
  Node root;
  problem::root(root);
  // The backtrack to the deepest row with values left, written out twice in the same
  // words: the kernels' code is sensitive to its layout (forward flowshop ta029 ran 6%
  // slower on the H100 with the pops in a lambda).
  while (rem == 0 && top > 0) {  // saved rows are normalised; this keeps the loop's invariant regardless
    --top;
    cur = problem::from_stack(stack[top * stride].node, top == 0 ? root : cur);
    rem = stack[top * stride].rem;
  }
  // tight: how many levels of the path follow last's digits. The node at level k is on
  // last's path when tight >= k; only there are its children clipped to last.
  int tight = 0;
  while (tight < top && rank_of(problem::stack_free(stack[tight * stride].node), x.V(tight)) == x.last(tight))
    ++tight;
  const bool by_mask = hooks.leaves_by_mask();

  // Each turn starts at a node with values left, places one, and either descends into
  // the child or backtracks at once to the deepest level with values left. So every
  // lane of a warp runs the long part (place, candidates) in every turn and only the
  // short push or pop diverges: when a pop took a turn of its own, the lanes that popped
  // idled through the others' placing (N-Queens 18 on the H100: 12.5 of 32 lanes active).
  //
  // The turns' counts are 32-bit and go to c's 64-bit counters at each poll and at the
  // end (a 64-bit increment is two instructions, and the loop's turn is some forty):
  // between polls at most kPeriod turns, each adding at most 2 * kSize.
  static_assert(Hooks::kPeriod <= 1u << 20, "32-bit counts between polls");
  unsigned evaluated = 0, expanded = 0, solutions = 0;
  auto add_counts = [&] {
    c.evaluated += evaluated;
    c.expanded += expanded;
    c.solutions += solutions;
    evaluated = expanded = solutions = 0;
  };
  unsigned since_poll = 0;
  bool done = rem == 0;
  while (!done) {
    if (++since_poll == Hooks::kPeriod) {
      since_poll = 0;
      add_counts();
      if (hooks.poll()) break;
    }
    const int v = pj::lowest(rem);
    rem &= rem - 1;
    Node child;
    problem::place(cur, v, child);
    ++evaluated;
    Mask child_rem = 0;  // what is pushed: nothing for a leaf, a pruned child or a dead end
    bool on_last_path = false;
    if (top + 1 == L) {
      int vals[L];
      path_values(stack, stride, top, cur, vals);
      vals[top] = v;
      if (!hooks.leaf(child, vals, c)) {  // not taken (a full solution buffer): next round
        rem |= pj::bit<Mask>(v);
        --evaluated;
        break;
      }
    } else if (!hooks.pruned_child(child, top)) {
      ++expanded;
      child_rem = problem::candidates_below_root(child);
      on_last_path = tight == top && rank_of(cur.free, v) == x.last(top);
      if (on_last_path) child_rem &= lowest_n(child.free, x.last(top + 1) + 1);
      if (by_mask && top + 2 == L) {  // the child's children are leaves: count them
        evaluated += static_cast<unsigned>(pj::popcount(child_rem));
        solutions += static_cast<unsigned>(problem::leaf_children_weight(child, child_rem));
        child_rem = 0;
      }
    }
    if (child_rem != 0) {
      if (on_last_path) tight = top + 1;
      stack[top * stride].node = problem::stack_node(cur);
      stack[top * stride].rem = rem;
      ++top;
      cur = child;
      rem = child_rem;
      continue;
    }
    while (rem == 0 && top > 0) {
      --top;
      cur = problem::from_stack(stack[top * stride].node, top == 0 ? root : cur);
      rem = stack[top * stride].rem;
    }
    tight = tight < top ? tight : top;
    done = rem == 0;
  }
  add_counts();
  save_rows(x, stack, stride, top, cur, rem);
  return done;
}

// The turn that reads its node from its row, with a jump (above). kLeavesByMask:
// counting, with no solution to record (the caller knows), a template argument because,
// read at run time from a kernel parameter, the compiler recomputed it in every turn.
template <bool kLeavesByMask, class Hooks>
PJ_HD bool explore_jumping(Ref x, layout::Level* stack, int stride, Hooks& hooks, Counters& c) {
  if (is_empty(x)) return true;
  Node cur;
  LevelSet live = rebuild_rows(x, stack, stride, cur);
  int top = x.I();
  Mask rem = x.M(top);
  // The counts: every turn below evaluates a child (`turns`), and expands it unless it
  // is a leaf or pruned (`not_expanded`); `below` are the leaves counted from candidate
  // sets. 32-bit, added to c's 64-bit counters at each poll and at the end (a 64-bit
  // increment is two instructions).
  unsigned turns = 0, not_expanded = 0, below = 0, solutions = 0;
  // Leaves counted by mask are never placed: a saved row of leaves (enter() leaves one
  // where an interval starts at a leaf) is counted here, and the loop pushes no row at
  // the last level, so its turns never place a leaf.
  if (kLeavesByMask && top + 1 == L) {
    below += static_cast<unsigned>(pj::popcount(rem));
    solutions += static_cast<unsigned>(problem::leaf_children_weight(cur, rem));
    rem = 0;
  }
  // tight: how many levels of the path follow last's digits. The node at level k is on
  // last's path when tight >= k; only there are its children clipped to last. The one
  // child of the node at level `tight` that stays on last's path places the value in
  // last_bit: a turn at that level tests its value against it, and only the rare turns on
  // last's path read last's digits. A jump never lands above level `tight` with values
  // left: the values are taken in the order of their digits, and a row on last's path
  // holds none after last's digit, so once its value on last's path is taken it is spent.
  int tight = 0;
  while (tight < top && rank_of(problem::stack_free(stack[tight * stride].node), x.V(tight)) == x.last(tight))
    ++tight;
  Mask last_bit =
      pj::bit<Mask>(value_of_rank(tight == top ? cur.free : problem::stack_free(stack[tight * stride].node),
                                  x.last(tight)));
  // The deepest row joins the others: from here on every node lives in its row.
  stack[top * stride].node = problem::stack_node(cur);
  stack[top * stride].rem = rem;
  live |= LevelSet(rem != 0) << top;
  // A row's node takes what is fixed along the path from `path`, the node at level 1 of
  // the path (or any below it), or from the root at level 0 (problem::from_stack).
  Node root;
  problem::root(root);
  Node path = cur;

  // Each turn takes the deepest level with values left (the highest in `live`), reads
  // its node and values from its row, places the lowest value, writes the values left
  // back, and writes the child into the row above when it has values to try. So a turn
  // is the same instructions on every lane, with the push and the backtrack as
  // predicated stores and a set operation rather than branches: N-Queens 18 on the H100
  // ran with 27 of 32 lanes active per turn when the node was kept in registers, every
  // turn paying for the push (moving the child into place), the backtrack (a load) and
  // the branches that joined them.
  //
  // The turns run kPeriod at a time, with a poll between: the lanes of a warp that run
  // together count their turns together, and so poll with one load. (Asked after the
  // turns that do not descend, the lanes polled one by one: N-Queens 18 on the H100 ran
  // 1.3x slower, a third of its time waiting on the polls' loads.) Between polls at most
  // kPeriod turns, each adding at most 2 * kSize to the 32-bit counts. The loop ends when
  // no level has values left, or with values left at the poll or at a leaf not taken.
  static_assert(Hooks::kPeriod <= 1u << 20, "32-bit counts between polls");
  auto add_counts = [&] {
    c.evaluated += turns + below;
    c.expanded += turns - not_expanded;
    c.solutions += solutions;
    turns = not_expanded = below = solutions = 0;
  };
  bool refused = false;  // a leaf was not taken
  // The rows as bytes: a row's address is one multiply-add from its level (as elements,
  // the compiler kept the thread's offset apart and added it in every turn).
  char* const rows = reinterpret_cast<char*>(stack);
  const int row_bytes = stride * static_cast<int>(sizeof(layout::Level));
  // One turn at level `top`. at_root (a constant where it is called): top is 0, where the
  // child takes the fields fixed below the root (problem::place), which the deeper turns
  // read from `path`. False when a leaf was not taken.
  auto turn = [&](const bool at_root) -> bool {
    const LevelSet at = LevelSet(1) << top;
    layout::Level* const row = reinterpret_cast<layout::Level*>(rows + top * row_bytes);
    const layout::Level here = *row;
    const Node node = problem::from_stack(here.node, at_root ? root : path);
    const Mask vb = here.rem & (Mask(0) - here.rem);  // the lowest value left, as a set
    const int v = pj::lowest(vb);  // its index, computed where it is read
    row->rem = here.rem ^ vb;
    if (here.rem == vb) live ^= at;  // spent
    Node child;
    if (at_root) {
      problem::place(node, v, vb, child);
      path = child;  // the fields fixed below the root, for the rows above
    } else {
      problem::place_below_root(node, v, vb, child);
    }
    ++turns;
    Mask child_rem = 0;  // what is pushed: nothing for a leaf, a pruned child or a dead end
    if (!kLeavesByMask && top + 1 == L) {
      int vals[L];
      path_values(stack, stride, top, node, vals);
      vals[top] = v;
      if (!hooks.leaf(child, vals, c)) {  // not taken (a full solution buffer): next round
        row->rem = here.rem;
        live |= at;
        --turns;
        return false;
      }
      ++not_expanded;
    } else if (!hooks.pruned(child)) {
      child_rem = problem::candidates_below_root(child);
      const bool count_leaves = kLeavesByMask && top + 2 == L;  // the child's children are leaves
      if (tight == top && (last_bit & vb) != 0) {  // the child is on last's path: clipped to last
        const int e = x.last(top + 1);
        child_rem &= lowest_n(child.free, e + 1);
        if (child_rem != 0 && !count_leaves) {  // it is pushed (below)
          tight = top + 1;
          last_bit = pj::bit<Mask>(value_of_rank(child.free, e));
        }
      }
      if (count_leaves) {  // counted from the child's candidates
        below += static_cast<unsigned>(pj::popcount(child_rem));
        solutions += static_cast<unsigned>(problem::leaf_children_weight_below_root(child, child_rem));
        child_rem = 0;
      }
    } else {
      ++not_expanded;
    }
    if (child_rem != 0) {
      row[stride].node = problem::stack_node(child);
      row[stride].rem = child_rem;
      live |= at << 1;
    }
    return true;
  };
  // The root's turns are taken out of the loop (a level 0 left alone in `live`): the
  // loop's turns then read the fixed fields from `path` without a select, and place
  // below the root.
  for (;;) {
    while (live > 1 && turns != Hooks::kPeriod) {
      top = pj::highest(live);
      if (!turn(false)) {
        refused = true;
        break;
      }
    }
    if (live == 1 && turns != Hooks::kPeriod && !refused) {
      top = 0;
      if (turn(true)) continue;
      refused = true;
    }
    if (live == 0 || refused) break;
    add_counts();
    if (hooks.poll()) break;
  }
  const bool done = live == 0;
  add_counts();
  top = 0;
  rem = 0;
  if (!done) {  // the deepest row with values left is where the explorer stands
    top = pj::highest(live);
    cur = problem::from_stack(stack[top * stride].node, top == 0 ? root : path);
    rem = stack[top * stride].rem;
  }
  save_rows(x, stack, stride, top, cur, rem);
  return done;
}

// Both steals' last step: the victim keeps its interval up to `mid` (a leaf after its
// position), the thief takes the rest from `mid` on and walks down to it, `pruned`
// saying which nodes of the walk end it.
template <class Pruned>
PJ_HD void cut_at(Ref thief, Ref victim, Digit* mid, Pruned&& pruned) {
  for (int l = 0; l < L; ++l) thief.last(l) = victim.last(l);
  step(mid, -1, L);  // the victim's new last leaf
  for (int l = 0; l < L; ++l) victim.last(l) = mid[l];
  clip_to_last(victim);
  step(mid, 1, L);
  enter(thief, mid, pruned);
}

// The seed's steal (stealWork; the kernels run it under -DPJ_IVM_STEAL_HALF): the right
// half of what the victim has left becomes the thief's interval, the victim keeps the
// left half. False (nothing changes) when the victim has a single leaf left.
template <class Pruned>
PJ_HD bool steal_half(Ref thief, Ref victim, Pruned&& pruned) {
  if (is_empty(victim)) return false;
  Digit pos[L], last[L], mid[L];
  position(victim, pos);
  load_last(victim, last);
  if (compare(pos, last, L) >= 0) return false;
  split_half(pos, last, mid, L);
  cut_at(thief, victim, mid, pruned);
  return true;
}

// A thief's steal at a node boundary: the thief takes the upper half of the values left
// in the victim's shallowest row that has one to give (a row above the deepest gives
// from its later siblings, rounding up; the deepest keeps at least its lowest value), as
// the `cpu` skeleton's threads donate (templates/cpu_dfs.hpp). The cut between the two
// intervals is the first leaf of the lowest value given, so the thief's walk down to it
// (enter) passes only nodes on the victim's path, which the victim has expanded, and ends
// at the given node, which the thief evaluates as usual: the steal computes no bound.
// steal_half cuts where the leaves halve, and its thief evaluates a bound at every level
// of the walk below the victim's path, one after another: with an arborescence per bound
// (ATSP br17) the steals took longer than the exploration they fed (docs/performance.md,
// "Heavy nodes on `ivm`"). False (nothing changes) when the victim has a single
// value left in its deepest row and none above.
PJ_HD bool steal_row(Ref thief, Ref victim) {
  if (is_empty(victim)) return false;
  const int top = victim.I();
  Mask free = root_free();
  Digit mid[L];
  int l = 0;
  for (;; ++l) {
    const Mask row = victim.M(l);
    const int n = pj::popcount(row);
    const int give = l < top ? (n + 1) / 2 : n / 2;
    if (give > 0) {
      mid[l] = static_cast<Digit>(rank_of(free, pj::lowest(row & ~lowest_n(row, n - give))));
      break;
    }
    if (l == top) return false;
    const int v = victim.V(l);
    mid[l] = static_cast<Digit>(rank_of(free, v));
    free &= ~pj::bit<Mask>(v);
  }
  for (int k = l + 1; k < L; ++k) mid[k] = 0;
  // The nodes above level l are the victim's expanded path: none is pruned.
  cut_at(thief, victim, mid, [](const Node&) { return false; });
  return true;
}

// The victim of thief i on the virtual hypercube of Carneiro Pessoa et al. 2016 §3.2: explorers are the
// vertices of a `dims`-dimensional p-ary hypercube (labels >= T are absent); neighbours
// differ in one base-p digit and are tried in the paper's order (digit, then offset).
// A neighbour qualifies when it has more than `threshold` left (the mean, or the
// geometric mean: runtime/ivm/ivm_device.cpp, victim_threshold) and two leaves at least;
// `claim(v)` makes the choice exclusive (no explorer is robbed twice in one pass). -1: no
// victim.
//
// When no neighbour qualifies, the thief also tries kFarProbes explorers anywhere,
// chosen by hashing (i, salt), where salt changes from phase to phase: once the work
// has gathered in few explorers, few thieves have one among their neighbours, and
// rounds ended with almost nothing stolen (N-Queens 21 on the H100: 212,473 rounds of
// 0.75 ms with 3.8 steals each).
constexpr int kFarProbes = 8;
PJ_HD unsigned long long mix64(unsigned long long x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
template <class Claim>
PJ_HD long long pick_victim(unsigned long long i, unsigned long long T, unsigned p, int dims, const double* lengths,
                            double threshold, unsigned long long salt, Claim&& claim) {
  auto qualifies = [&](unsigned long long v) { return v < T && lengths[v] > threshold && lengths[v] >= 2; };
  unsigned long long weight = 1;
  for (int dim = 0; dim < dims; ++dim, weight *= p) {
    const unsigned long long digit = (i / weight) % p;
    for (unsigned j = 1; j < p; ++j) {
      const unsigned long long nd = (digit + j) % p;
      const unsigned long long v = i - digit * weight + nd * weight;
      if (!qualifies(v)) continue;
      if (claim(v)) return static_cast<long long>(v);
    }
  }
  for (int k = 0; k < kFarProbes; ++k) {
    const unsigned long long v = mix64(i * kFarProbes + static_cast<unsigned long long>(k) + (salt << 40)) % T;
    if (v != i && qualifies(v) && claim(v)) return static_cast<long long>(v);
  }
  return -1;
}

}  // namespace pj_ivm
