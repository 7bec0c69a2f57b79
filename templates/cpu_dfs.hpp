// CPU skeleton: multi-threaded depth-first search over the generated problem.
// The oracle of every other skeleton. The tree is split at a frontier depth; threads
// take frontier subtrees from a cursor and search each depth-first; a thread that runs
// out of work gets half of the shallowest open level of a busy thread's stack
// (templates/cpu_work_pool.hpp). Node counts do not depend on the split, the number of
// threads or who searches what whenever the incumbent cannot change (counting, or an
// upper bound at the optimum).
//
// Each thread keeps its counters and its copy of the incumbent in its own registers
// and cache lines; what threads share is written per subtree, per donation or per
// improvement of the incumbent, never per node.
//
// Two ends (branch.ends = 2): a node's values sit at its first `lo` positions and at its
// last `depth - lo`; a child takes the next free position at the front or at the back,
// and the node chooses one end for all its children (see `children_of`).
//
// This file is the machinery; the module's entry points that run it are
// templates/cpu_entries.hpp, which follows it in the cpu skeleton's unit.
//
// Counting rules (docs/spec-language.md, "Node counts"): a node is *evaluated* when it is generated as a
// child (its bound computed, or, at a leaf, its objective); it is *expanded* when its
// children are generated. The root is expanded, never evaluated.
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <memory>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

// Hidden: the module exports its extern "C" entry points only, so calls between these
// functions (the recursive search above all) are direct, not through the PLT.
#pragma GCC visibility push(hidden)
namespace cpu_skeleton {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;

struct Counters {
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  void add(const Counters& o) {
    expanded += o.expanded;
    evaluated += o.evaluated;
    solutions += o.solutions;
  }
};

// What the threads share. The incumbent, the flags and the recorded leaf each have
// their own cache line: the incumbent is read by every thread at its periodic check and
// written only when it improves.
struct Shared {
  alignas(64) std::atomic<long long> best;
  alignas(64) std::atomic<bool> stop{false};  // the time limit passed: every search returns
  std::atomic<bool> cut{false};               // a search returned with work left: the result is partial
  alignas(64) std::mutex lock;
  int found = 0;
  int perm[problem::kSize] = {};

  // Decision and enumeration (docs/spec-language.md): solutions recorded one by one,
  // under `lock`, and handed to the host; at `limit` the search stops.
  const PjCpuArgs* args = nullptr;
  WorkPool* pool = nullptr;  // to wake the threads that wait for work when it stops
  bool recording = false;    // every solution is recorded (not only counted)
  unsigned long long recorded = 0;
  bool reached = false;
  std::chrono::steady_clock::time_point reached_at;

  // The work a stopped search left (PjCpuResult::open_*): the least sort key (the bound,
  // negated when maximising) over it, whether a subtree without a bound was among it,
  // and how many subtrees.
  std::atomic<long long> open_key{LLONG_MAX};
  std::atomic<bool> open_unknown{false};
  std::atomic<unsigned long long> open_subtrees{0};

  // Called (under `lock`) with each leaf that improves the incumbent: offload hands its
  // leaves to the local search beside the search (PjOffloadDevice::found). May be null.
  void (*on_improvement)(void* ctx, long long value, const int* perm) = nullptr;
  void* on_improvement_ctx = nullptr;
};

// The search reached its solution limit (under sh.lock): every search returns.
inline void reach_limit(Shared& sh) {
  sh.reached = true;
  sh.reached_at = std::chrono::steady_clock::now();
  sh.stop.store(true);
  sh.pool->wake_all();
}

// Records one solution (a leaf counted, or one better than a fixed incumbent): handed to
// the host when it lists, kept as the result's permutation when it is the first.
// False when the limit was reached before it: the solution is not taken. Out of line,
// like record_improvement.
[[gnu::noinline]] inline bool record_solution(const int* perm, long long value, Shared& sh) {
  std::lock_guard<std::mutex> g(sh.lock);
  if (sh.reached) return false;
  const PjCpuArgs& a = *sh.args;
  if (a.on_solution && a.on_solution(a.solution_ctx, perm, problem::kSize, value) != 0) {
    reach_limit(sh);
    return false;
  }
  ++sh.recorded;
  if (!sh.found) {
    sh.found = 1;
    for (int i = 0; i < problem::kSize; ++i) sh.perm[i] = perm[i];
  }
  if (a.solution_limit > 0 && sh.recorded >= a.solution_limit) reach_limit(sh);
  return true;
}

// True when a node with this bound cannot lead to a leaf better than `best`.
inline bool pruned(long long bound, long long best) { return pj::prunes<kGoal>(bound, best); }
inline bool improves(long long value, long long best) { return pj::improves<kGoal>(value, best); }

// Notes `count` subtrees left open by a stopped search, whose least sort key is `key`.
inline void note_open(Shared& sh, unsigned long long count, long long key) {
  if (count == 0) return;
  sh.open_subtrees.fetch_add(count, std::memory_order_relaxed);
  long long seen = sh.open_key.load(std::memory_order_relaxed);
  while (key < seen && !sh.open_key.compare_exchange_weak(seen, key)) {
  }
}
// A bound that prunes nothing (a subtree root whose bound was never computed).
constexpr long long kNoBound = kGoal == pj::Goal::maximize ? LLONG_MAX : LLONG_MIN;

// A leaf better than this thread's incumbent: recorded if it is still better than the
// shared one. Returns the incumbent after it. Out of line: it is rare, and it keeps the
// lock out of the search loops.
[[gnu::noinline]] inline long long record_improvement(long long value, const int* perm, Shared& sh) {
  std::lock_guard<std::mutex> g(sh.lock);
  long long best = sh.best.load(std::memory_order_relaxed);
  if (!improves(value, best) || sh.reached) return best;
  sh.best.store(value, std::memory_order_relaxed);
  sh.found = 1;
  for (int i = 0; i < problem::kSize; ++i) sh.perm[i] = perm[i];
  if (sh.on_improvement) sh.on_improvement(sh.on_improvement_ctx, value, perm);
  // --target: the start was one past the target, so any improvement meets it.
  if (sh.args->solution_limit > 0 && ++sh.recorded >= sh.args->solution_limit) reach_limit(sh);
  return value;
}

// `best` is the calling thread's copy of the incumbent: never better than the shared
// one (which only improves), so pruning with it is safe, and with a fixed incumbent it
// is the shared one exactly.
// With a fixed incumbent (--all-optimal), every leaf better than it is a solution and
// `best` stays.
inline void record_leaf(const Node& leaf, const int* perm, long long& best, Shared& sh, Counters& c) {
  if constexpr (kGoal == pj::Goal::count) {
    // A recorded solution is one permutation; a counted leaf stands for its mirror image
    // too when the spec declares a symmetry (problem::leaf_weight).
    if (!sh.recording) c.solutions += problem::leaf_weight(leaf);
    else if (record_solution(perm, 0, sh)) ++c.solutions;
  } else {
    long long value = problem::objective(leaf);
    if (!improves(value, best)) return;
    if (sh.args->fixed_incumbent) record_solution(perm, value, sh);
    else best = record_improvement(value, perm, sh);
  }
}

// Which stages of the bound `visit` computes (docs/spec-language.md, "Staged bounds"):
// both (problem::staged_bound), or the cheap bound alone, for the first pass of two ends
// with two stages, whose end is chosen on the cheap bounds (see children_of).
enum class Stages { both, cheap };

// Evaluates `child`, which placed v at position `pos` of a parent holding `depth`
// values: counts it, records it if it is a leaf, and says whether it is to be expanded
// (not a leaf, not pruned). The one place where the counting rules live; frontier
// building, depth-first search and donation all use it. `bound_out`, if given, receives
// the child's bound (when it was computed). Counting problems keep no permutation.
// `prep`, if given, holds the reductions of the child's parent (problem::prepare_children):
// the same bound, computed from them (problem::child_bound). `from` and `to`: the
// parent's problem::AssignStart and where the child's goes (problem::kAssignStart; null:
// none), written when the child is refined.
inline bool visit(const Node& child, int depth, int pos, int v, int* perm, long long& best, Shared& sh,
                  Counters& c, long long* bound_out = nullptr, Stages stages = Stages::both,
                  const problem::ParentReductions* prep = nullptr, const problem::AssignStart* from = nullptr,
                  problem::AssignStart* to = nullptr) {
  if (kGoal != pj::Goal::count || sh.recording) perm[pos] = v;
  ++c.evaluated;
  if (depth + 1 == problem::kSize) {
    record_leaf(child, perm, best, sh, c);
    return false;
  }
  if constexpr (kGoal != pj::Goal::count) {
    const auto cheap = prep ? problem::child_bound(child, *prep, v) : problem::bound(child);
    long long b = stages == Stages::cheap ? cheap
                  : to                    ? problem::staged_bound_from(child, cheap, best, from, to)
                                          : problem::staged_bound_from(child, cheap, best);
    if (bound_out) *bound_out = b;
    if (pruned(b, best)) return false;
  }
  return true;
}

// The same, reading the shared incumbent (callers outside this skeleton's loops).
inline bool visit(const Node& child, int depth, int pos, int v, int* perm, Shared& sh, Counters& c,
                  long long* bound_out = nullptr) {
  long long best = sh.best.load(std::memory_order_relaxed);
  return visit(child, depth, pos, v, perm, best, sh, c, bound_out);
}

// A child kept for expansion: its node, its sort key, the value and the position it
// placed, how many of its values are at the front, and which of its level's
// problem::AssignStart slots holds its own (children_of's `starts`; the slots stay put
// while the kids are sorted).
struct Kid {
  Node node;
  long long key;  // the bound, negated when maximising: smaller is better (0 when counting)
  int v, pos, lo, slot;
};
inline long long bound_of(const Kid& kid) { return kGoal == pj::Goal::maximize ? -kid.key : kid.key; }

// The children of `parent` (holding `depth` values, `lo` of them at the front) into
// `out`, those to be expanded only, in increasing value; returns how many. With two
// ends, the children at the front and at the back are all generated and evaluated (both
// count), and the node keeps the end with fewer children to expand; on a tie, the end
// whose bounds sum higher (minimising; lower, maximising: the end that says more), then
// the front. The last position is the same from both ends: only the front is tried.
// With two ends and two stages, the ends are bounded and chosen on the cheap bounds;
// then the kept end's children are refined, and those the refinement prunes dropped.
// With one end and problem::kAssignStart, `starts` (if given; a slot per child) receives
// each kept child's AssignStart, started from `parent_start` (the parent's, or null).
inline int children_of(const Node& parent, int depth, int lo, int* perm, long long& best, Shared& sh, Counters& c,
                       Kid* out, const problem::AssignStart* parent_start = nullptr,
                       problem::AssignStart* starts = nullptr) {
  ++c.expanded;
  const Mask cand = problem::candidates(parent);
  const bool both_ends = problem::kEnds == 2 && depth + 1 < problem::kSize;
  const Stages stages = both_ends && problem::kStages == 2 ? Stages::cheap : Stages::both;
  // The children share their parent's reductions over its free values (computed once).
  problem::ParentReductions prep;
  const bool bounded = problem::kParentReductions > 0 && depth + 1 < problem::kSize;  // a leaf has no bound
  if (bounded) problem::prepare_children(parent, prep);
  const problem::ParentReductions* parent_reductions = bounded ? &prep : nullptr;
  auto one_end = [&](bool back, Kid* kids, long long& key_sum) {
    const int pos = back ? problem::kSize - 1 - (depth - lo) : lo;
    int n = 0;
    key_sum = 0;
    for (Mask rem = cand; rem; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      Kid& kid = kids[n];
      problem::place_at(parent, v, back, kid.node);
      long long b = 0;
      problem::AssignStart* to = problem::kAssignStart && !both_ends && starts ? &starts[n] : nullptr;
      const bool keep = visit(kid.node, depth, pos, v, perm, best, sh, c, &b, stages, parent_reductions,
                              parent_start, to);
      const long long key = kGoal == pj::Goal::minimize ? b : -b;
      key_sum += key;
      if (!keep) continue;
      kid.key = key;
      kid.v = v;
      kid.pos = pos;
      kid.lo = back ? lo : lo + 1;
      kid.slot = n;
      ++n;
    }
    return n;
  };
  long long front_sum = 0;
  int kept = one_end(false, out, front_sum);
  if constexpr (problem::kEnds == 2) {
    if (both_ends) {
      Kid back_kids[problem::kSize];
      long long back_sum = 0;
      const int back = one_end(true, back_kids, back_sum);
      if (back < kept || (back == kept && back_sum > front_sum)) {
        for (int i = 0; i < back; ++i) out[i] = back_kids[i];
        kept = back;
      }
    }
  }
  if constexpr (kGoal != pj::Goal::count && problem::kStages == 2) {
    if (stages == Stages::cheap) {
      int n = 0;
      for (int i = 0; i < kept; ++i) {
        const long long b =
            problem::refined_bound(out[i].node, static_cast<decltype(problem::bound(out[i].node))>(bound_of(out[i])));
        if (pruned(b, best)) continue;
        out[n] = out[i];
        out[n].key = kGoal == pj::Goal::minimize ? b : -b;
        ++n;
      }
      kept = n;
    }
  }
  return kept;
}

// A donation is worth its cost only if the subtree below the donated node has at least
// two levels.
inline bool worth_donating(int child_depth) { return child_depth + 2 < problem::kSize; }

// The highest value of a nonempty set.
inline int highest(Mask m) { return 63 - __builtin_clzll(static_cast<unsigned long long>(m)); }

// One search thread: its counters, its copy of the incumbent and its stacks, alone on
// its cache lines. Subtrees come from the pool; when another thread waits for work, it
// gives away half of the shallowest open level of its stack.
class alignas(64) Searcher {
 public:
  Searcher(Shared& sh, WorkPool& pool) : sh_(sh), pool_(pool) {}
  Counters counts;  // this thread's totals, added to once per subtree
  unsigned long long donations = 0;  // subtrees given to other threads

  void run() {
    // Allocated here, by the thread that uses them, away from the other threads' lines.
    kids_.resize(static_cast<size_t>(problem::kSize) * problem::kSize);
    if constexpr (problem::kAssignStart) starts_.resize(kids_.size());
    count_.resize(problem::kSize);
    next_.resize(problem::kSize);
    Subtree s;
    while (pool_.take(s, sh_.stop)) {
      best_ = sh_.best.load(std::memory_order_relaxed);
      // Solutions recorded one by one need the permutation, which the count's loop
      // does not keep: they are searched as two ends are (the same tree, in value order).
      if (kGoal == pj::Goal::count && problem::kEnds == 1 && !sh_.recording) search_in_value_order(s);
      else search_best_first(s);
    }
  }

 private:
  // Expansions between two looks at the shared state (the time limit, the incumbent, a
  // thread waiting for work): counting nodes cost nanoseconds, bounded ones more.
  static constexpr int kPollValues = 64, kPollBounded = 16;
  // Counting searches the last levels recursively: measured on N-Queens 15, the
  // recursion (which the compiler inlines into itself, giving each level its own
  // branches) took 0.90 s where the iterative loop took 1.10 s, and a hand-written
  // counter 0.80 s. Eight levels hold at most 8! leaves, a millisecond or so between
  // two looks at the shared state; the levels above stay iterative, where a thread can
  // give work away.
  static constexpr int kRecursiveLevels = 8;
  static constexpr int kRecursiveFrom = problem::kSize - kRecursiveLevels;

  // Counting with values placed from the left: no bounds, so no children to sort. The
  // node being expanded and its remaining candidates stay in registers; ancestors are
  // pushed when the search descends and popped when it backtracks.
  void search_in_value_order(const Subtree& s) {
    // Ancestors' nodes and remaining values in two arrays, indexed by depth.
    Node nodes[problem::kSize + 1];
    Mask rems[problem::kSize + 1];
    Counters c;
    const int base = s.depth;
    int depth = base;  // values in `cur`; its ancestors are at [base, depth)
    Node cur = s.node;
    Mask rem = problem::candidates(cur);
    ++c.expanded;
    int poll = kPollValues;
    for (;;) {
      if (rem == 0) {
        if (depth == base) break;
        --depth;
        cur = nodes[depth];
        rem = rems[depth];
        continue;
      }
      const int v = pj::lowest(rem);
      rem &= rem - 1;
      Node child;
      const Mask child_rem = counted_child(cur, v, depth, child, c);
      if (child_rem == 0) continue;
      if (depth + 1 >= kRecursiveFrom) {
        count_below(child, child_rem, depth + 1, c);
      } else {
        ++c.expanded;
        nodes[depth] = cur;
        rems[depth] = rem;
        ++depth;
        cur = child;
        rem = child_rem;
      }
      if (--poll == 0) {
        poll = kPollValues;
        if (sh_.stop.load(std::memory_order_relaxed)) {
          sh_.cut.store(true);
          // Left open: the values not yet placed below the current node and its ancestors.
          unsigned long long open = static_cast<unsigned long long>(pj::popcount(rem));
          for (int at = base; at < depth; ++at) open += static_cast<unsigned long long>(pj::popcount(rems[at]));
          note_open(sh_, open, LLONG_MAX);
          break;
        }
        if (pool_.hungry()) {
          // The shallowest level with values left: an ancestor's (the thread keeps its
          // path below it), or the current node's (the thread keeps half).
          int at = base;
          while (at < depth && rems[at] == 0) ++at;
          if (at < depth) {
            rems[at] = donate_values(nodes[at], at, rems[at], true);
          } else {
            nodes[depth] = cur;  // passed through memory: `cur` itself stays in registers
            rem = donate_values(nodes[depth], depth, rem, false);
          }
        }
      }
    }
    counts.add(c);
  }

  // Expands `node` (at `depth`, with candidates `cand`) and counts its whole subtree,
  // with the rules of the loop above.
  static void count_below(const Node& node, Mask cand, int depth, Counters& c) {
    ++c.expanded;
    for (; cand; cand &= cand - 1) {
      Node child;
      const Mask child_rem = counted_child(node, pj::lowest(cand), depth, child, c);
      if (child_rem != 0) count_below(child, child_rem, depth + 1, c);
    }
  }

  // `visit`'s rules for counting a child of a counting search, with one test on the
  // common path: a child is evaluated; a leaf (no value left, so no candidates) is a
  // solution; any other child is expanded, and one with no candidates is done here,
  // without a push and a pop. Returns the child's candidates: 0 when it is done.
  static inline __attribute__((always_inline)) Mask counted_child(const Node& parent, int v, int depth, Node& child,
                                                                  Counters& c) {
    problem::place(parent, v, child);
    ++c.evaluated;
    const Mask child_rem = problem::candidates(child);
    if (child_rem == 0) {
      if (depth + 1 == problem::kSize) c.solutions += problem::leaf_weight(child);
      else ++c.expanded;
    }
    return child_rem;
  }

  // Gives away the highest half of `open`, the values left to place below `parent` (at
  // `depth`): the children are generated and evaluated here, those kept are donated.
  // Returns the values the thread keeps. Out of line, with its own counters, so that
  // the search loop's node and counters stay in registers.
  [[gnu::noinline]] Mask donate_values(const Node& parent, int depth, Mask open, bool below_path) {
    if (!worth_donating(depth + 1)) return open;
    const int left = pj::popcount(open);
    Counters c;
    long long best = best_;
    for (int give = below_path ? (left + 1) / 2 : left / 2; give > 0; --give) {
      const int v = highest(open);
      open &= ~pj::bit<Mask>(v);
      Subtree part;
      problem::place(parent, v, part.node);
      if (!visit(part.node, depth, depth, v, nullptr, best, sh_, c)) continue;
      part.bound = kNoBound;
      part.depth = part.lo = depth + 1;
      gift_.push_back(part);
    }
    counts.add(c);
    donations += gift_.size();
    pool_.give(gift_);
    gift_.clear();
    return open;
  }

  // Optimisation (and two ends): the children of a node are generated and bounded
  // together, then searched best bound first (ties by value), so that good leaves, and
  // the pruning they bring, come early in a search from scratch. A kept child is checked
  // again against the incumbent when its turn comes. With the incumbent fixed (--ub at
  // the optimum) the order changes nothing: the same children are generated, bounded
  // and pruned.
  void search_best_first(const Subtree& s) {
    Counters c;
    long long best = best_;
    if (kGoal != pj::Goal::count && pruned(s.bound, best)) return;
    int perm[problem::kSize];
    for (int i = 0; i < problem::kSize; ++i) perm[i] = s.perm[i];
    const int base = s.depth;
    // Level k holds the children of a node at depth base + k, sorted (stable), and their
    // AssignStarts (problem::kAssignStart), which the children's children start from. The
    // subtree's root has none: it came from the pool.
    auto expand_into = [&](const Node& parent, int lo, int k, const problem::AssignStart* parent_start) {
      Kid* level = &kids_[static_cast<size_t>(k) * problem::kSize];
      problem::AssignStart* starts = starts_.empty() ? nullptr : &starts_[static_cast<size_t>(k) * problem::kSize];
      const int n = children_of(parent, base + k, lo, perm, best, sh_, c, level, parent_start, starts);
      for (int i = 1; i < n; ++i) {
        Kid kid = level[i];
        int at = i;
        for (; at > 0 && level[at - 1].key > kid.key; --at) level[at] = level[at - 1];
        level[at] = kid;
      }
      count_[k] = n;
      next_[k] = 0;
    };
    expand_into(s.node, s.lo, 0, nullptr);
    int k = 0;
    int poll = kPollBounded;
    while (k >= 0) {
      if (next_[k] == count_[k]) {
        --k;
        continue;
      }
      const Kid& kid = kids_[static_cast<size_t>(k) * problem::kSize + next_[k]++];
      if (kGoal != pj::Goal::count && pruned(bound_of(kid), best)) continue;
      perm[kid.pos] = kid.v;
      expand_into(kid.node, kid.lo, k + 1,
                  starts_.empty() ? nullptr : &starts_[static_cast<size_t>(k) * problem::kSize + kid.slot]);
      ++k;
      if (--poll == 0) {
        poll = kPollBounded;
        if (sh_.stop.load(std::memory_order_relaxed)) {
          sh_.cut.store(true);
          note_open_levels(k, best);
          break;
        }
        best = sh_.best.load(std::memory_order_relaxed);
        if (pool_.hungry()) donate_level(k, base, perm);
      }
    }
    counts.add(c);
  }

  // The search stopped with levels 0..deepest on its stack: every leaf it did not reach
  // lies below a child not yet taken from one of them (the children taken are searched
  // whole, or are on the path, whose children are the next level). Those the incumbent
  // prunes are not open.
  void note_open_levels(int deepest, long long best) {
    unsigned long long open = 0;
    long long key = LLONG_MAX;
    for (int k = 0; k <= deepest; ++k)
      for (int i = next_[k]; i < count_[k]; ++i) {
        const Kid& kid = kids_[static_cast<size_t>(k) * problem::kSize + i];
        if (kGoal != pj::Goal::count && pruned(bound_of(kid), best)) continue;
        ++open;
        if (kid.key < key) key = kid.key;
      }
    note_open(sh_, open, key);
  }

  // Gives away the worst half of the shallowest level with children left (all of them
  // below the path the thread is on: it keeps that path). The children were evaluated
  // here; the thief expands them.
  void donate_level(int deepest, int base, const int* perm) {
    int k = 0;
    while (k <= deepest && next_[k] == count_[k]) ++k;
    if (k > deepest || !worth_donating(base + k + 1)) return;
    const int left = count_[k] - next_[k];
    const int give = k < deepest ? (left + 1) / 2 : left / 2;
    for (int i = count_[k] - give; i < count_[k]; ++i) {
      const Kid& kid = kids_[static_cast<size_t>(k) * problem::kSize + i];
      Subtree part;
      part.node = kid.node;
      part.bound = bound_of(kid);
      part.depth = base + k + 1;
      part.lo = kid.lo;
      // The path's values sit at their positions; the others are written as the thief
      // descends (a leaf has every position written).
      for (int j = 0; j < problem::kSize; ++j) part.perm[j] = perm[j];
      part.perm[kid.pos] = kid.v;
      gift_.push_back(part);
    }
    count_[k] -= give;
    donations += gift_.size();
    pool_.give(gift_);
    gift_.clear();
  }

  Shared& sh_;
  WorkPool& pool_;
  long long best_ = 0;  // the incumbent when the current subtree started
  std::vector<Kid> kids_;
  std::vector<problem::AssignStart> starts_;  // kids_' AssignStarts, by slot (problem::kAssignStart)
  std::vector<int> count_, next_;
  std::vector<Subtree> gift_;
};

// Generates the children of `parent` (see children_of); those to be expanded are handed
// to `keep` in increasing value.
template <class Keep>
inline void expand(const Node& parent, int depth, int lo, int* perm, long long& best, Shared& sh, Counters& c,
                   Keep&& keep) {
  Kid kids[problem::kSize];
  const int n = children_of(parent, depth, lo, perm, best, sh, c, kids);
  for (int i = 0; i < n; ++i) keep(kids[i]);
}

// Expands level[begin, end) at `depth` onto the end of `out`, in order. The counters
// and the vector grown are locals, handed back once: slices run on threads whose
// results sit side by side. When `interrupted(0)` says so (asked every 256 parents) the
// parents not expanded yet follow their slice's children unexpanded: each is a subtree
// of its own depth, so the frontier stays exact, only shallower in places. More than
// `room` children end it too, returning false (the frontier does not fit in memory).
template <class Interrupted>
inline bool expand_range(std::vector<Subtree>& level, size_t begin, size_t end, int depth, Shared& sh,
                         Counters& total, std::vector<Subtree>& out, size_t room, Interrupted&& interrupted) {
  Counters c;
  std::vector<Subtree> next;
  next.swap(out);
  long long best = sh.best.load(std::memory_order_relaxed);
  const size_t had = next.size();
  bool fits = true;
  size_t k = begin;
  for (; k < end; ++k) {
    if ((k - begin) % 256 == 0) {
      if (next.size() - had > room) {
        fits = false;
        break;
      }
      if (interrupted(0.0)) break;
    }
    Subtree& f = level[k];
    expand(f.node, depth, f.lo, f.perm, best, sh, c, [&](const Kid& kid) {
      Subtree n{kid.node, bound_of(kid), depth + 1, kid.lo, {}};
      for (int i = 0; i < problem::kSize; ++i) n.perm[i] = f.perm[i];
      n.perm[kid.pos] = kid.v;
      next.push_back(n);
    });
  }
  if (fits) next.insert(next.end(), level.begin() + static_cast<long>(k), level.begin() + static_cast<long>(end));
  total.add(c);
  out.swap(next);
  return fits;
}

// Breadth-first from the root until `stop(depth, level size)` says the level is deep
// enough (or no node is left, or the next level would hold leaves only). Counts and
// leaves are handled exactly as the depth-first search handles them. A large level is
// expanded by `threads` threads over contiguous slices, joined in order, so the
// frontier is the same node sequence whatever the thread count.
// `interrupted(seconds)` says whether to stop now rather than spend `seconds` more: it is
// asked before each level with the level's expected time (the last level's time per
// parent, times its parents), since a level that cannot end before the deadline only
// fills memory that the search then walks through; and inside a level with 0 (see
// expand_range). A frontier that must have one depth (the ranges of a distributed run)
// passes one that never fires.
template <class Stop, class Interrupted>
std::vector<Subtree> build_frontier(Shared& sh, Counters& total, int& depth, int threads, Stop&& stop,
                                    Interrupted&& interrupted) {
  Node root;
  problem::root(root);
  Subtree first{root, kNoBound, problem::kPrefixLength, problem::kPrefixLength, {}};
  problem::prefix_values(first.perm);
  std::vector<Subtree> level{first};
  depth = problem::kPrefixLength;
  // Nodes the build may hold (pj::frontier_capacity): the level and the next together.
  const size_t capacity = pj::frontier_capacity(sizeof(Subtree));
  double seconds_per_parent = 0;
  while (!level.empty() && depth < problem::kSize - 1 && !stop(depth, level.size()) &&
         !interrupted(seconds_per_parent * static_cast<double>(level.size()))) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<Subtree> next;
    size_t parts = level.size() >= 1024 ? static_cast<size_t>(threads > 1 ? threads : 1) : 1;
    const size_t room = capacity > level.size() ? (capacity - level.size()) / parts : 0;
    if (parts == 1) {
      if (!expand_range(level, 0, level.size(), depth, sh, total, next, room, interrupted)) throw std::bad_alloc();
    } else {
      std::vector<std::vector<Subtree>> out(parts);
      std::vector<Counters> counts(parts);
      std::atomic<bool> fits{true};
      pj::run_team(static_cast<int>(parts), [&](int t) {
        size_t b = level.size() * t / parts, e = level.size() * (t + 1) / parts;
        // No exception may leave a team thread (std::terminate): the calling thread
        // throws once the team has joined.
        try {
          if (!expand_range(level, b, e, depth, sh, counts[t], out[t], room, interrupted)) fits = false;
        } catch (const std::bad_alloc&) {
          fits = false;
        }
      });
      if (!fits) throw std::bad_alloc();
      size_t total_size = 0;
      for (const auto& o : out) total_size += o.size();
      next.reserve(total_size);
      for (size_t t = 0; t < parts; ++t) {
        next.insert(next.end(), out[t].begin(), out[t].end());
        total.add(counts[t]);
      }
    }
    seconds_per_parent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / static_cast<double>(level.size());
    level.swap(next);
    ++depth;
  }
  return level;
}

inline void start_incumbent(Shared& sh, const PjCpuArgs* args) {
  long long start = kGoal == pj::Goal::maximize ? LLONG_MIN : LLONG_MAX;
  sh.best.store(args->has_ub ? args->ub : start);
  sh.args = args;
  sh.recording = args->on_solution != nullptr || args->solution_limit > 0;
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
#pragma GCC visibility pop

#pragma GCC visibility push(hidden)
namespace cpu_skeleton {

using SearchClock = std::chrono::steady_clock;

// When a search that starts now must stop: --time-limit counts from the call's start, so
// the frontier's build and the search below it share one deadline.
inline SearchClock::time_point search_deadline(const PjCpuArgs* args) {
  return args->time_limit_s > 0 ? pj::deadline_after<SearchClock>(SearchClock::now(), args->time_limit_s)
                                : SearchClock::time_point::max();
}

// The frontier's split: args->split_depth levels below the root, else the first level
// with at least `want` nodes. A deep --split-depth builds a frontier for long: it stops
// where it is, inside a level too, when the deadline passes or the host asks it to
// stop, and the search below it then stops at once, partial, as it would have inside
// the tree.
inline std::vector<Subtree> split(const PjCpuArgs* args, SearchClock::time_point until, Shared& sh,
                                  Counters& total, int& depth, int threads, size_t want) {
  const int root_depth = problem::kPrefixLength;
  auto interrupted = [args, until](double seconds) {
    if (args->stop_request && *args->stop_request) return true;
    const auto now = SearchClock::now();
    return now >= until || std::chrono::duration<double>(until - now).count() <= seconds;
  };
  return build_frontier(
      sh, total, depth, threads,
      [&](int dd, size_t n) { return args->split_depth > 0 ? dd >= root_depth + args->split_depth : n >= want; },
      interrupted);
}

// A frontier at depth `depth_at`, or of at least `want` nodes when it is 0: built whole,
// whatever the clock says, since a distributed run numbers its ranges in it and every
// rank must build the same one. Only the host's request (a signal, `stop_request`) ends
// it early, and the caller, seeing the request raised, does not use the frontier.
inline std::vector<Subtree> whole_frontier(Shared& sh, Counters& total, int& depth, int threads, int depth_at,
                                           size_t want, const volatile int* stop_request) {
  return build_frontier(
      sh, total, depth, threads, [&](int dd, size_t n) { return depth_at > 0 ? dd >= depth_at : n >= want; },
      [&](double) { return stop_request && *stop_request; });
}

// The open work noted in `sh` (note_open) into `out`, and the root's bound, which holds
// for every leaf: what a stopped search proves (runtime/core/partial_bound.cpp).
inline void fill_open(const Shared& sh, PjCpuResult* out) {
  out->open_subtrees = sh.open_subtrees.load();
  const long long key = sh.open_key.load();
  out->open_bound_known = kGoal != pj::Goal::count && !sh.open_unknown.load() && key != LLONG_MAX ? 1 : 0;
  out->open_bound = out->open_bound_known ? (kGoal == pj::Goal::maximize ? -key : key) : 0;
  out->root_bound = 0;
  if constexpr (kGoal != pj::Goal::count) {
    Node root;
    problem::root(root);
    // No incumbent: the bound's stages all run (problem::staged_bound_from skips none).
    out->root_bound = problem::staged_bound(root, kGoal == pj::Goal::maximize ? LLONG_MIN : LLONG_MAX);
  }
}

// The open work of a stopped search into `out`: the subtrees the threads left on their
// stacks (noted as they returned) and those never taken from the pool; and the root's
// bound, which holds for every leaf.
inline void note_left(Shared& sh, WorkPool& pool, PjCpuResult* out) {
  const long long best = sh.best.load();
  pool.for_each_left([&](const Subtree& s) {
    if (kGoal == pj::Goal::count) {
      note_open(sh, 1, LLONG_MAX);
    } else if (s.bound == kNoBound) {
      sh.open_unknown.store(true);
      note_open(sh, 1, LLONG_MAX);
    } else if (!pruned(s.bound, best)) {
      note_open(sh, 1, kGoal == pj::Goal::maximize ? -s.bound : s.bound);
    }
  });
  fill_open(sh, out);
}

// Searches the pool's subtrees with `threads` threads, adding their counts to `total`
// and writing the result. A watcher stops the search at the time limit or when the host
// asks (stop_request), and wakes the threads that wait for work; unless it ends first.
inline void search_pool(const PjCpuArgs* args, SearchClock::time_point until, Shared& sh, WorkPool& pool,
                        int threads, Counters& total, PjCpuResult* out) {
  std::mutex done_lock;
  std::condition_variable done_cv;
  bool done = false;
  std::thread watcher;
  if (args->time_limit_s > 0 || args->stop_request)
    watcher = std::thread([&] {
      // A host's request is read every 10 ms: a signal handler cannot wake this thread.
      const auto poll = std::chrono::milliseconds(10);
      std::unique_lock<std::mutex> g(done_lock);
      for (;;) {
        const auto now = SearchClock::now();
        if (now >= until || (args->stop_request && *args->stop_request)) break;
        const auto next = args->stop_request && until - now > poll ? now + poll : until;
        if (done_cv.wait_until(g, next, [&] { return done; })) return;
      }
      sh.stop.store(true);
      pool.wake_all();
    });

  auto stop_watcher = [&] {
    if (!watcher.joinable()) return;
    {
      std::lock_guard<std::mutex> g(done_lock);
      done = true;
    }
    done_cv.notify_all();
    watcher.join();
  };
  std::vector<Searcher> searchers;
  searchers.reserve(threads);
  for (int t = 0; t < threads; ++t) searchers.emplace_back(sh, pool);
  try {
    pj::run_team(threads, [&searchers](int t) { searchers[t].run(); });
  } catch (const pj::NoThreads&) {
    stop_watcher();
    throw;
  }
  stop_watcher();
  out->donations = 0;
  for (const auto& s : searchers) {
    total.add(s.counts);
    out->donations += s.donations;
  }
  const auto returned = std::chrono::steady_clock::now();
  fill_result(out, total, sh);
  // Partial when a search stopped inside its subtree or subtrees were never taken.
  out->stopped = sh.cut.load() || pool.left() ? 1 : 0;
  if (out->stopped) note_left(sh, pool, out);
  out->reached_limit = sh.reached ? 1 : 0;
  out->find_to_exit_s = sh.reached ? std::chrono::duration<double>(returned - sh.reached_at).count() : 0;
}

// One search on the work pool's threads: the pool exists before the frontier is built,
// since a leaf reached while building it may reach the solution limit and wake the pool.
struct PoolSearch {
  Shared sh;
  Counters total;  // what building the frontier counted, then the whole search
  int threads;
  WorkPool pool;
  SearchClock::time_point until;  // the time limit's deadline, from the call's start
  explicit PoolSearch(const PjCpuArgs* args)
      : threads(args->threads > 0 ? args->threads : 1), pool(threads), until(search_deadline(args)) {
    start_incumbent(sh, args);
    sh.pool = &pool;
  }
  void run(const PjCpuArgs* args, std::vector<Subtree> frontier, PjCpuResult* out) {
    pool.set_frontier(std::move(frontier));
    search_pool(args, until, sh, pool, threads, total, out);
  }
};

// The frontier kept between range searches (pj_cpu_ranges_*).
struct Ranges {
  std::vector<Subtree> frontier;
};

}  // namespace cpu_skeleton
#pragma GCC visibility pop
