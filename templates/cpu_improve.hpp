// Local search from a leaf (`permjit solve --improve`, and the warm start of the GPU
// skeletons, runtime/core/warm_start.hpp): an iterated local search over complete
// permutations that needs nothing from the spec but `place`, `candidates` and
// `objective`, so it serves every placement problem that minimises or maximises.
//
// A move takes the value at one position, or the block of 2 or 3 values it starts, and
// puts it at another (the insertion neighbourhood of scheduling heuristics, and Or-opt's
// blocks: a run of values that belong together, a tour's stretch or a batch of jobs,
// moves as one); the local search tries every value, in a random order, at every
// position and keeps the best, until no value or block has a better place. (Blocks of 2
// and 3, 2 threads, 2 s from the greedy leaf: TSPLIB ft53 7,092 -> 6,905, the optimum,
// reached in 0.3 s; ftv55 1,644 -> 1,614 of 1,608; ry48p 14,507 both; Taillard ta051
// 3,920 -> 3,908 in 1 s; one run each, docs/skeletons.md.)
// A kick then moves a few random values to random places, the local search runs again,
// and the result is kept if it is better, as good, or (with a probability that falls
// with how much worse it is: the acceptance of simulated annealing at a fixed
// temperature) worse. Each thread runs its own chain from the start leaf with its own
// seed; the best leaf of all is the answer.
//
// A permutation is evaluated by placing its values from the front in position order, as
// `permjit check --verify-bound` does: a spec's objective is a function of the
// permutation whichever end took each value. A value outside its node's candidates makes
// the permutation infeasible: such a move is never taken. The spec's fixed prefix stays.
//
// The cost of one local-search pass is about 3 size^3 / 2 calls of `place` (three block
// lengths): the nodes of a permutation's prefixes are kept, so a block moved to position
// j replaces only the places from j on.
//
// Without a start (a time-limited search that met no leaf: a heavy bound, many threads,
// a short limit), the start is the greedy leaf: from the root, each position takes the
// candidate whose child has the best first-stage `bound()` (the cheap one; ties to the
// smaller value), which for a path's partial cost is the nearest neighbour. It costs
// about size^2 calls of `place` and `bound`.
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#pragma GCC visibility push(hidden)
namespace cpu_improve {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;
constexpr int kSize = problem::kSize;
constexpr int kFirst = problem::kPrefixLength;  // positions before it hold the fixed prefix
constexpr long long kInfeasible = kGoal == pj::Goal::maximize ? LLONG_MIN : LLONG_MAX;

inline bool better(long long a, long long b) { return pj::improves<kGoal>(a, b); }
inline bool allowed(Mask cand, int v) { return (cand >> v) & 1; }

using Rng = pj_host::SplitMix64;  // templates/host_rng.h

struct Stop {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* optimal;  // some thread reached the root's bound
  const volatile int* asked;         // PjImproveArgs::stop (may be null)
  bool now() const {
    return optimal->load(std::memory_order_relaxed) || (asked && *asked) ||
           std::chrono::steady_clock::now() >= deadline;
  }
};

// Hands each leaf better than all before it, over every chain, to PjImproveArgs::on_better.
class Publisher {
 public:
  Publisher(const PjImproveArgs& a, long long start) : args_(a), best_(start) {}
  void offer(const int* perm, long long value) {
    if (!args_.on_better) return;
    std::lock_guard<std::mutex> g(lock_);
    if (!better(value, best_)) return;
    best_ = value;
    args_.on_better(args_.ctx, perm, kSize, value);
  }

 private:
  const PjImproveArgs& args_;
  std::mutex lock_;
  long long best_;
};

// One chain of the iterated local search.
class Chain {
 public:
  Chain(const int* start, long long value, unsigned long long seed) : rng_{seed} {
    for (int i = 0; i < kSize; ++i) cur_[i] = best_[i] = start[i];
    cur_value_ = best_value_ = value;
    problem::root(prefix_[kFirst]);
  }

  // Runs until `stop`; `bound` is the root's bound: a leaf that reaches it is optimal.
  void run(const Stop& stop, long long bound, std::atomic<bool>& optimal, double temperature, Publisher& publish) {
    // Kicks move 1 to 4 values (fewer when few are free to move).
    const int free = kSize - kFirst;
    const int max_kick = free < 8 ? (free > 2 ? free / 2 : 1) : 4;
    while (!stop.now()) {
      int trial[kSize];
      for (int i = 0; i < kSize; ++i) trial[i] = cur_[i];
      const int kick = 1 + rng_.below(max_kick);
      for (int k = 0; k < kick; ++k)
        move(trial, kFirst + rng_.below(free), kFirst + rng_.below(free));
      long long value = complete(prefix_[kFirst], trial, kFirst, kSize);
      if (value == kInfeasible) continue;
      value = descend(trial, value, stop);
      ++iterations;
      const long long worse = kGoal == pj::Goal::minimize ? value - cur_value_ : cur_value_ - value;
      if (worse <= 0 || rng_.unit() < std::exp(-static_cast<double>(worse) / temperature)) {
        for (int i = 0; i < kSize; ++i) cur_[i] = trial[i];
        cur_value_ = value;
      }
      if (better(value, best_value_)) {
        for (int i = 0; i < kSize; ++i) best_[i] = trial[i];
        best_value_ = value;
        publish.offer(best_, value);
        if (pj::prunes<kGoal>(bound, value)) optimal.store(true);  // nothing better than value exists
      }
    }
  }

  const int* best() const { return best_; }
  long long best_value() const { return best_value_; }
  unsigned long long iterations = 0, evaluations = 0;

 private:
  // Moves the value at position `from` to position `to`, shifting those between.
  static void move(int* perm, int from, int to) {
    const int v = perm[from];
    if (from < to)
      for (int i = from; i < to; ++i) perm[i] = perm[i + 1];
    else
      for (int i = from; i > to; --i) perm[i] = perm[i - 1];
    perm[to] = v;
  }

  // The objective of the leaf that places seq[from..end) after `node`, or kInfeasible.
  long long complete(Node a, const int* seq, int from, int end) {
    ++evaluations;
    Node b;
    for (int k = from; k < end; ++k) {
      if (!allowed(problem::candidates(a), seq[k])) return kInfeasible;
      problem::place(a, seq[k], b);
      a = b;
    }
    return problem::objective(a);
  }

  // prefix_[k] for k in (kFirst, n]: the nodes after seq[0..k), as far as seq is
  // feasible (seq holds n values). Returns the last k filled.
  int prefixes(const int* seq, int n) {
    for (int k = kFirst; k < n; ++k) {
      if (!allowed(problem::candidates(prefix_[k]), seq[k])) return k;
      problem::place(prefix_[k], seq[k], prefix_[k + 1]);
    }
    return n;
  }

  // The block perm[at..at+len) moved to its best place, if one is better than `value`
  // (perm's): perm and value are updated, and true returned.
  bool move_block(int* perm, int at, int len, long long& value) {
    int rest[kSize];  // the permutation without the block
    int n = 0;
    for (int i = 0; i < kSize; ++i)
      if (i < at || i >= at + len) rest[n++] = perm[i];
    const int limit = prefixes(rest, n);  // prefix_[kFirst..limit] hold rest's prefixes
    long long best = value;
    int best_to = at;
    for (int to = kFirst; to <= limit; ++to) {
      if (to == at) continue;
      Node a = prefix_[to], b;  // the block at position `to`, then rest[to..]
      bool feasible = true;
      for (int k = 0; k < len && feasible; ++k) {
        feasible = allowed(problem::candidates(a), perm[at + k]);
        if (feasible) problem::place(a, perm[at + k], b), a = b;
      }
      if (!feasible) continue;
      const long long x = complete(a, rest, to, n);
      if (better(x, best)) {
        best = x;
        best_to = to;
      }
    }
    if (best_to == at) return false;
    int moved[kSize];
    for (int i = 0; i < best_to; ++i) moved[i] = rest[i];
    for (int k = 0; k < len; ++k) moved[best_to + k] = perm[at + k];
    for (int i = best_to; i < n; ++i) moved[i + len] = rest[i];
    for (int i = 0; i < kSize; ++i) perm[i] = moved[i];
    value = best;
    return true;
  }

  // Local search: every value, in a random order, moved to its best position, and so
  // the blocks of 2 and 3 values it starts (Or-opt: a run of values that belong
  // together moves as one); until a whole round moves nothing to a better place.
  // Returns perm's value.
  long long descend(int* perm, long long value, const Stop& stop) {
    constexpr int kLongestBlock = 3;
    int order[kSize];
    for (int i = 0; i < kSize; ++i) order[i] = perm[i];
    for (bool moved = true; moved && !stop.now();) {
      moved = false;
      for (int i = kSize - 1; i > kFirst; --i) {  // a random order of the free values
        const int j = kFirst + rng_.below(i - kFirst + 1);
        const int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      for (int r = kFirst; r < kSize; ++r) {
        for (int len = 1; len <= kLongestBlock; ++len) {
          int at = kFirst;
          while (perm[at] != order[r]) ++at;
          if (at + len > kSize) break;
          moved |= move_block(perm, at, len, value);
        }
      }
    }
    return value;
  }

  Rng rng_;
  int cur_[kSize], best_[kSize];
  long long cur_value_, best_value_;
  Node prefix_[kSize + 1];
};

// The greedy leaf (see the top of the file) into `perm`, its objective into `value`;
// false where a node on the way has no candidates.
inline bool greedy_leaf(int* perm, long long& value) {
  Node a, c, best_child;
  problem::root(a);
  problem::prefix_values(perm);
  for (int k = kFirst; k < kSize; ++k) {
    const Mask cand = problem::candidates(a);
    int best_v = -1;
    long long best_b = 0;
    for (int v = 0; v < kSize; ++v) {
      if (!allowed(cand, v)) continue;
      problem::place(a, v, c);
      const long long b = problem::bound(c);
      if (best_v < 0 || better(b, best_b)) best_v = v, best_b = b, best_child = c;
    }
    if (best_v < 0) return false;
    perm[k] = best_v;
    a = best_child;
  }
  value = problem::objective(a);
  return true;
}

}  // namespace cpu_improve
#pragma GCC visibility pop

extern "C" int pj_cpu_improve(const PjImproveArgs* args, PjImproveResult* out) {
  return pj::guarded([&]() -> int {
    using namespace cpu_improve;
    *out = PjImproveResult{};
    if constexpr (kGoal != pj::Goal::minimize && kGoal != pj::Goal::maximize) {
      return 3;  // nothing to improve
    } else {
      if (!args->no_start && args->size != kSize) return 2;
      const auto t0 = std::chrono::steady_clock::now();
      int start[kSize];
      long long start_value = args->value;
      if (args->no_start) {
        if (!greedy_leaf(start, start_value)) return 4;
      } else {
        for (int i = 0; i < kSize; ++i) start[i] = args->perm[i];
      }
      out->start = start_value;
      if (kSize - kFirst < 2) {  // at most one value free to move: the start is the only leaf
        out->size = kSize;
        out->best = start_value;
        out->found = args->no_start;
        for (int i = 0; i < kSize; ++i) out->perm[i] = start[i];
        return 0;
      }
      std::atomic<bool> optimal{false};
      Stop stop{pj::deadline_after<std::chrono::steady_clock>(t0, args->seconds), &optimal, args->stop};
      Publisher publish(*args, start_value);
      if (args->no_start) publish.offer(start, start_value);  // the greedy leaf is a leaf found
      // The root's bound: a leaf that reaches it cannot be improved on.
      Node root;
      problem::root(root);
      const long long bound = problem::staged_bound(root, kInfeasible);  // kInfeasible: no incumbent yet
      // Worse results are accepted with probability exp(-worse / temperature): a
      // thousandth of the start's value, a small step of a typical objective.
      const double temperature = std::fmax(1e-9, std::fabs(static_cast<double>(start_value)) * 1e-3);
      const int threads = args->threads > 0 ? args->threads : 1;
      std::vector<std::unique_ptr<Chain>> chains;
      for (int t = 0; t < threads; ++t)
        chains.push_back(std::make_unique<Chain>(start, start_value, args->seed + static_cast<unsigned long long>(t)));
      pj::run_team(threads, [&](int t) { chains[t]->run(stop, bound, optimal, temperature, publish); });
      const Chain* best = chains[0].get();
      for (const auto& c : chains) {
        out->iterations += c->iterations;
        out->evaluations += c->evaluations;
        if (better(c->best_value(), best->best_value())) best = c.get();
      }
      out->size = kSize;
      out->best = best->best_value();
      out->found = args->no_start || better(out->best, start_value) ? 1 : 0;
      for (int i = 0; i < kSize; ++i) out->perm[i] = best->best()[i];
      out->optimal = optimal.load() ? 1 : 0;
      out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return 0;
    }
  });
}
