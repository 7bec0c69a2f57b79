// `permjit check --verify-bound`: is the spec's bound a valid bound? For random nodes at
// depth size - below (each reached by a random walk from the root, choosing a free value
// and, with two ends, an end at each level) and every node below them, the bound is
// compared with the best objective of the leaves below the node, found by brute force
// with nothing pruned. Minimising, a bound above that best would prune the optimum
// (maximising, below). The first such node is reported with its placed values.
//
// With two stages of bound (problem::kStages == 2) both are checked at every node: the
// cheap bound, then the value a search bounds a child by when the cheap bound does not
// prune it, the tighter of the cheap bound and refine(). A search refines only below
// its incumbent, but the incumbent can be anything, so the refinement is checked as if
// the cheap bound never pruned.
//
// Below a sampled node values are placed from the front only: the leaves below a node are
// the same permutations whichever end takes them, and a spec's objective is a function
// of the permutation.
namespace verify_bound {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;
constexpr int kSize = problem::kSize;

using Rng = pj_host::SplitMix64;  // templates/host_rng.h

inline bool better(long long a, long long b) { return pj::improves<kGoal>(a, b); }
// A bound that would prune a leaf below it worth `best`.
inline bool invalid(long long bound, long long best) {
  return pj::improves<kGoal>(best, bound);  // the leaf is better than the bound allows
}

struct Walk {
  Node node;
  int depth, lo;  // values placed, and how many of them at the front
  int perm[kSize];
};

inline void start(Walk& w) {
  problem::root(w.node);
  w.depth = w.lo = problem::kPrefixLength;
  for (int i = 0; i < kSize; ++i) w.perm[i] = -1;
  problem::prefix_values(w.perm);
}

// A random node at depth `target`; false at a node with no candidates before it.
inline bool random_node(Rng& rng, int target, Walk& w) {
  start(w);
  while (w.depth < target) {
    const Mask cand = problem::candidates(w.node);
    const int n = pj::popcount(cand);
    if (n == 0) return false;
    Mask rem = cand;
    for (int k = static_cast<int>(rng.next() % static_cast<unsigned long long>(n)); k > 0; --k) rem &= rem - 1;
    const int v = pj::lowest(rem);
    Node child;
    const bool back = problem::kEnds == 2 && w.depth + 1 < kSize && (rng.next() & 1);
    problem::place_at(w.node, v, back, child);
    w.perm[back ? kSize - 1 - (w.depth - w.lo) : w.lo] = v;
    if (!back) ++w.lo;
    ++w.depth;
    w.node = child;
  }
  return true;
}

struct Checker {
  PjVerifyResult* out;
  int perm[kSize];

  // The best leaf below `node` (depth values placed, `lo` at the front) into `best`;
  // false when no leaf lies below it. Compares the bound of `node` and of every node
  // below it (the root has none) and stops at the first invalid one.
  bool best_below(const Node& node, int depth, int lo, long long& best) {
    if (depth == kSize) {
      best = problem::objective(node);
      return true;
    }
    bool any = false;
    long long b = 0;
    for (Mask rem = problem::candidates(node); rem && !out->bad; rem &= rem - 1) {
      const int v = pj::lowest(rem);
      Node child;
      problem::place(node, v, child);
      perm[lo] = v;
      long long cb = 0;
      if (!best_below(child, depth + 1, lo + 1, cb)) continue;
      if (!any || better(cb, b)) b = cb;
      any = true;
    }
    perm[lo] = -1;
    if (!any || out->bad || depth == problem::kPrefixLength) {
      best = b;
      return any && !out->bad;
    }
    ++out->checked;
    const auto cheap = problem::bound(node);
    if (invalid(cheap, b)) return bad(depth, cheap, b, 1);
    if (problem::kStages == 2) {
      const long long refined = problem::refined_bound(node, cheap);
      if (invalid(refined, b)) return bad(depth, refined, b, 2);
    }
    best = b;
    return true;
  }

  bool bad(int depth, long long bound, long long best, int stage) {
    out->bad = 1;
    out->depth = depth;
    for (int i = 0; i < kSize; ++i) out->placed[i] = perm[i];
    out->bound = bound;
    out->best = best;
    out->stage = stage;
    return false;
  }
};

}  // namespace verify_bound

extern "C" int pj_verify_abi(void) { return PJ_VERIFY_ABI; }

extern "C" int pj_verify_bound(const PjVerifyArgs* args, PjVerifyResult* out) {
  using namespace verify_bound;
  *out = PjVerifyResult{};
  out->size = kSize;
  if constexpr (kGoal == pj::Goal::count) return 1;  // no bound to verify
  else {
    const int below = args->below > 0 ? args->below : 1;
    Checker check{out, {}};
    Walk w;
    long long best = 0;
    if (kSize - problem::kPrefixLength <= below) {
      // The whole tree is small: every node is checked, once.
      out->whole_tree = 1;
      out->sample_depth = problem::kPrefixLength;
      start(w);
      for (int i = 0; i < kSize; ++i) check.perm[i] = w.perm[i];
      out->sampled = 1;
      check.best_below(w.node, w.depth, w.lo, best);
      return 0;
    }
    out->sample_depth = kSize - below;
    Rng rng{args->seed};
    // Walks may end early at nodes without candidates; a bounded number of tries.
    for (long long tries = 0; out->sampled < static_cast<unsigned long long>(args->samples) && !out->bad &&
                              tries < 16LL * args->samples + 16;
         ++tries) {
      if (!random_node(rng, out->sample_depth, w)) continue;
      ++out->sampled;
      for (int i = 0; i < kSize; ++i) check.perm[i] = w.perm[i];
      check.best_below(w.node, w.depth, w.lo, best);
    }
    return 0;
  }
}
