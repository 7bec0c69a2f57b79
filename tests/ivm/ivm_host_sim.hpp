// The `ivm` skeleton's rounds run on the host, one explorer after another, over the
// same explorer code as the kernels (templates/ivm_explorer.h): initial split, rounds
// of bounded exploration, hypercube victim selection, steal-half. Compiled by the tests
// together with a generated problem and its IVM layout; it checks in CI, without a GPU,
// that every node is counted once however the intervals are cut, stolen and resumed.
#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace ivm_sim {

using pj_ivm::L;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;

constexpr bool kTwoEnds = problem::kEnds == 2;

struct World {
  unsigned long long T;
  std::vector<pj_ivm::layout::Digit> I, V, last;
  std::vector<problem::Mask> M;
  std::vector<unsigned long long> ends;
  pj_ivm::Counters c;
  int best;
  unsigned long long rounds = 0, steals = 0;
  std::map<std::string, int> visits;  // each leaf reached, by its values in position order
  int refuse_every = 0;               // > 0: every so many leaves, one is refused, as a full solution buffer does
  unsigned long long leaf_calls = 0;
  bool leaves_by_mask = false;        // count the last level from candidate sets, as the kernels do
  std::vector<problem::AssignStart> starts;  // each explorer's, one per level, as the kernels keep them
  explicit World(unsigned long long t)
      : T(t), I(t), V(L * t), last(L * t), M(L * t), ends(t), best(0), starts(problem::kAssignStart ? L * t : 0) {}
  pj_ivm::layout::Explorers view() {
    return pj_ivm::layout::Explorers{I.data(), V.data(), M.data(), last.data(), ends.data(), T};
  }
};

// Which one-end steal the rounds run: steal_row (the kernels' default) or, when set,
// steal_half (the seed's, which the kernels run under -DPJ_IVM_STEAL_HALF).
inline bool steal_halves = false;
// How victims qualify and how many select-and-steal passes a phase makes, as
// runtime/ivm/ivm_device.cpp's balance() runs them (IvmBalance): above the mean of all
// lengths, or above the geometric mean of those with work.
inline bool victims_above_log = false;
inline int balance_passes = 1;

inline bool is_pruned(const Node& n, int best) {
  if constexpr (kGoal == pj::Goal::minimize) return problem::staged_bound(n, best) >= best;
  else if constexpr (kGoal == pj::Goal::maximize) return problem::staged_bound(n, best) <= best;
  else return false;
}

// The thief's steal (one end), as pj_ivm_steal and pj_ivm_export run it.
inline bool steal_one_end(const pj_ivm::Ref& thief, const pj_ivm::Ref& victim, int best) {
  if (steal_halves) return pj_ivm::steal_half(thief, victim, [best](const Node& n) { return is_pruned(n, best); });
  return pj_ivm::steal_row(thief, victim);
}

// Each explorer stops after `budget` children per round: many suspensions, many steals.
struct Hooks {
  static constexpr unsigned kPeriod = 1;
  int best;
  long long budget;
  std::map<std::string, int>* visits;
  World* world;
  bool poll() { return --budget < 0; }
  problem::AssignStart* starts;  // this explorer's (null: none)
  bool pruned(const Node& n) const { return is_pruned(n, best); }
  // As the kernels ask it (templates/gpu_ivm.cuh): the child's assign() starts from its
  // parent's AssignStart, and leaves its own a level below.
  bool pruned_child(const Node& n, int level) const {
    if constexpr (kGoal != pj::Goal::count && problem::kAssignStart) {
      const int b = problem::staged_bound_from(n, problem::bound(n), best, &starts[level], &starts[level + 1]);
      return kGoal == pj::Goal::minimize ? b >= best : b <= best;
    }
    return pruned(n);
  }
  // Leaves counted from candidate sets (as the kernels count): visits are not recorded.
  bool leaves_by_mask() const { return kGoal == pj::Goal::count && world->leaves_by_mask; }
  bool leaf(const Node& n, const int* vals, pj_ivm::Counters& c) {
    if (world->refuse_every && ++world->leaf_calls % world->refuse_every == 0) return false;  // the next round has it
    ++(*visits)[std::string(vals, vals + L)];
    if constexpr (kGoal == pj::Goal::count) {
      c.solutions += problem::leaf_weight(n);
    } else {
      int v = problem::objective(n);
      if (kGoal == pj::Goal::minimize ? v < best : v > best) best = v;
    }
    return true;
  }
};

// World w holds explorers [from, from + T) of a split among `total` explorers (one GPU's
// share when several GPUs split the leaves); with two ends the root goes to explorer 0
// of the world that `root` says.
inline void start_part(World& w, int initial_best, unsigned long long from, unsigned long long total, bool root) {
  w.best = initial_best;
  w.c = pj_ivm::Counters{};
  if (root) w.c.expanded = 1;  // the root
  pj_ivm::layout::Explorers e = w.view();
  pj_ivm::Digit first[L], last[L];
  for (unsigned long long i = 0; i < w.T; ++i) {
    pj_ivm::Ref x{e, i};
    const bool empty = !pj_ivm::part_of(from + i, total, first, last, L);
    for (int l = 0; l < L; ++l) x.last(l) = last[l];
    if constexpr (kTwoEnds) {  // the whole tree to explorer 0 (templates/ivm_two_ends.h)
      if (root && i == 0) pj_ivm::enter_root(x, w.best, w.c);
      else pj_ivm::set_empty(x);
    } else if (empty) {
      pj_ivm::set_empty(x);
    } else {
      const int best = w.best;
      pj_ivm::enter(x, first, [best](const Node& n) { return is_pruned(n, best); });
    }
  }
}

inline void start(World& w, int initial_best) { start_part(w, initial_best, 0, w.T, true); }

// Both backtracks of the kernels (shared rows jump, local rows pop), explorer by
// explorer: the counts must not depend on them.
template <bool kLeavesByMask>
void explore_either(unsigned long long i, pj_ivm::Ref x, pj_ivm::layout::Level* stack, Hooks& h, pj_ivm::Counters& c) {
  if (i % 2 == 0) {
    pj_ivm::explore_popping(x, stack, 1, h, c);  // polls before each child
  } else {
    --h.budget;  // polls after each child: `budget` children all the same
    pj_ivm::explore_jumping<kLeavesByMask>(x, stack, 1, h, c);
  }
}

// One round: explore, measure, select victims, steal. False once nothing is left.
inline bool round(World& w, long long budget) {
  pj_ivm::layout::Explorers e = w.view();
  pj_ivm::layout::Level stack[L];
  std::vector<double> lengths(w.T);
  double total = 0, log_total = 0;
  unsigned long long active = 0;
  ++w.rounds;
  for (unsigned long long i = 0; i < w.T; ++i) {
    pj_ivm::Ref x{e, i};
    Hooks h{w.best, budget, &w.visits, &w, problem::kAssignStart ? &w.starts[i * L] : nullptr};
    if constexpr (kTwoEnds) pj_ivm::explore_two_ends(x, stack, 1, h, w.c);
    else if (h.leaves_by_mask()) explore_either<kGoal == pj::Goal::count>(i, x, stack, h, w.c);
    else explore_either<false>(i, x, stack, h, w.c);
    w.best = h.best;
    lengths[i] = pj_ivm::remaining(x);
    total += lengths[i];
    if (lengths[i] > 0) log_total += std::log2(lengths[i]), ++active;
  }
  if (total == 0) return false;
  const double threshold = victims_above_log ? std::exp2(log_total / static_cast<double>(active)) : total / w.T;
  unsigned p = 4;
  int dims = 1;
  for (unsigned long long reach = p; reach < w.T; reach *= p) ++dims;
  for (int pass = 0; pass < balance_passes; ++pass) {
    std::vector<int> claimed(w.T, 0);
    std::vector<long long> victim(w.T, -1);
    const unsigned long long salt = w.rounds * static_cast<unsigned long long>(balance_passes) + pass;
    for (unsigned long long i = 0; i < w.T; ++i)
      if (lengths[i] == 0)
        victim[i] = pj_ivm::pick_victim(i, w.T, p, dims, lengths.data(), threshold, salt, [&](unsigned long long v) {
          if (claimed[v]) return false;
          return claimed[v] = 1, true;
        });
    for (unsigned long long i = 0; i < w.T; ++i) {
      if (victim[i] < 0) continue;
      const int best = w.best;
      const unsigned long long v = static_cast<unsigned long long>(victim[i]);
      const pj_ivm::Ref thief{e, i}, robbed{e, v};
      bool stolen = false;
      if constexpr (kTwoEnds) stolen = pj_ivm::steal_row_two_ends(thief, robbed);
      else stolen = steal_one_end(thief, robbed, best);
      if (stolen) {
        ++w.steals;
        lengths[i] = pj_ivm::remaining(thief);  // as pj_ivm_steal does, for the next pass
        lengths[v] = pj_ivm::remaining(robbed);
      }
    }
  }
  return true;
}

}  // namespace ivm_sim

struct PjIvmSimResult {
  unsigned long long expanded, evaluated, solutions, rounds, steals;
  int best;
  unsigned long long leaves_reached;  // distinct leaves
  int most_visits;                    // of one leaf: 1 unless a leaf was searched twice
};

// Solves with T explorers and `budget` children per explorer and round. With
// restore_round > 0 the world is copied after that round, run three rounds on, and put
// back -- a crash and a resume from the copy -- before running to the end. `climb`
// moves the incumbent by that much after every round, towards better (as leaves found
// elsewhere would): the explorers must stay exact for any incumbent that only improves.
// `refuse_every` refuses a leaf now and then, as the GPU's full solution buffer does:
// the explorer stops before it, and takes it again next round. `by_mask` counts the
// last level from candidate sets, as the counting kernels do (no leaf is visited then).
// The steal the next simulations run: nonzero, steal_half; zero, steal_row.
extern "C" void pj_ivm_sim_steal_halves(int halves) { ivm_sim::steal_halves = halves != 0; }
// The victims' rule (nonzero: above the geometric mean) and the passes of the next simulations.
extern "C" void pj_ivm_sim_balance(int log_rule, int passes) {
  ivm_sim::victims_above_log = log_rule != 0;
  ivm_sim::balance_passes = passes;
}

extern "C" PjIvmSimResult pj_ivm_sim(unsigned long long T, long long budget, int initial_best, int restore_round,
                                     int climb, int refuse_every, int by_mask) {
  ivm_sim::World w(T);
  w.refuse_every = refuse_every;
  w.leaves_by_mask = by_mask != 0;
  ivm_sim::start(w, initial_best);
  bool more = true;
  while (more) {
    more = ivm_sim::round(w, budget);
    if (climb) w.best = ivm_sim::kGoal == pj::Goal::maximize ? w.best + climb : w.best - climb;
    if (more && restore_round > 0 && static_cast<long long>(w.rounds) == restore_round) {
      ivm_sim::World saved = w;
      for (int k = 0; k < 3 && more; ++k) more = ivm_sim::round(w, budget);
      w = saved;
      restore_round = 0;
      more = true;
    }
  }
  int most = 0;
  for (const auto& [leaf, n] : w.visits) most = n > most ? n : most;
  return PjIvmSimResult{w.c.expanded, w.c.evaluated, w.c.solutions, w.rounds, w.steals, w.best, w.visits.size(), most};
}

// Several GPUs, each a world of T explorers, as runtime/ivm/ivm_device.cpp runs them: the
// leaves cut among all G*T explorers (one end) or the root given to world 0 (two ends);
// a world with fewer than half its explorers busy merges an export of the world with the
// most left into its empty explorers -- explorer i of the export takes what a thief of
// explorer i would take, as pj_ivm_export does; what does not fit waits in a pool --
// and the incumbent is shared after every round. Returns the summed counts.
extern "C" PjIvmSimResult pj_ivm_sim_gpus(unsigned long long T, long long budget, int initial_best, int gpus,
                                          int by_mask) {
  using namespace ivm_sim;
  std::vector<World> worlds;
  for (int g = 0; g < gpus; ++g) worlds.emplace_back(T);
  for (World& w : worlds) w.leaves_by_mask = by_mask != 0;
  for (int g = 0; g < gpus; ++g)
    start_part(worlds[static_cast<size_t>(g)], initial_best, static_cast<unsigned long long>(g) * T,
               T * static_cast<unsigned long long>(gpus), g == 0);
  auto left = [](World& w) {
    pj_ivm::layout::Explorers e = w.view();
    double s = 0;
    for (unsigned long long i = 0; i < w.T; ++i) s += pj_ivm::remaining(pj_ivm::Ref{e, i});
    return s;
  };
  // Explorers with work; a world with fewer than half busy is hungry (it asks before it
  // runs dry), one with none dry.
  auto busy = [](World& w) {
    pj_ivm::layout::Explorers e = w.view();
    unsigned long long n = 0;
    for (unsigned long long i = 0; i < w.T; ++i) n += !pj_ivm::is_empty(pj_ivm::Ref{e, i});
    return n;
  };
  // pj_ivm_merge: img's explorers into w's empty ones, any of them; true when some did
  // not fit (they stay in img, which goes back to the pool).
  auto merge_into = [](World& w, World& img) {
    pj_ivm::layout::Explorers to = w.view(), from = img.view();
    unsigned long long j = 0;
    bool left = false;
    for (unsigned long long i = 0; i < img.T; ++i) {
      const pj_ivm::Ref f{from, i};
      if (pj_ivm::is_empty(f)) continue;
      while (j < w.T && !pj_ivm::is_empty(pj_ivm::Ref{to, j})) ++j;
      if (j == w.T) {
        left = true;
        continue;
      }
      const pj_ivm::Ref t{to, j};
      t.I() = f.I();
      t.ends() = f.ends();
      for (int l = 0; l < L; ++l) t.V(l) = f.V(l), t.M(l) = f.M(l), t.last(l) = f.last(l);
      pj_ivm::set_empty(f);
    }
    return left;
  };
  std::vector<World> pool;
  unsigned long long exports = 0;
  for (;;) {
    bool any = false;
    for (World& w : worlds)
      if (left(w) > 0) any = round(w, budget) || any;
    int best = initial_best;
    for (World& w : worlds)
      if (kGoal == pj::Goal::minimize ? w.best < best : w.best > best) best = w.best;
    for (World& w : worlds) w.best = best;
    if (!any && pool.empty()) break;
    for (World& w : worlds) {
      const unsigned long long active = busy(w);
      const bool dry = active == 0;
      if (!dry && active >= T / 2) continue;
      if (!pool.empty()) {
        World img = std::move(pool.back());
        pool.pop_back();
        if (merge_into(w, img)) pool.push_back(std::move(img));
        continue;
      }
      // The victim: the most left; a hungry thief robs no hungry world.
      World* victim = nullptr;
      double most = 0;
      for (World& v : worlds) {
        const double l = left(v);
        if (&v != &w && l >= 2 && l > most && (dry || busy(v) >= T / 2)) most = l, victim = &v;
      }
      if (!victim) continue;
      World img(T);
      pj_ivm::layout::Explorers to = img.view(), from = victim->view();
      for (unsigned long long i = 0; i < T; ++i) {  // pj_ivm_export
        const pj_ivm::Ref taker{to, i}, robbed{from, i};
        pj_ivm::set_empty(taker);
        if constexpr (kTwoEnds) pj_ivm::steal_row_two_ends(taker, robbed);
        else steal_one_end(taker, robbed, best);
      }
      ++exports;
      if (merge_into(w, img)) pool.push_back(std::move(img));
    }
  }
  PjIvmSimResult r{0, 0, 0, 0, exports, worlds[0].best, 0, 0};
  std::map<std::string, int> visits;
  for (World& w : worlds) {
    r.expanded += w.c.expanded;
    r.evaluated += w.c.evaluated;
    r.solutions += w.c.solutions;
    r.rounds += w.rounds;
    for (const auto& [leaf, n] : w.visits) visits[leaf] += n;
  }
  r.leaves_reached = visits.size();
  for (const auto& [leaf, n] : visits) r.most_visits = n > r.most_visits ? n : r.most_visits;
  return r;
}

// A search stopped after `stop_round` rounds, and what it left open (templates/ivm_open_work.h,
// docs/reliability.md "Partial answers"): the open children in the explorers' rows, their
// least sort key, the root's bound, the incumbent at the stop; then the search goes on
// from the stop with no incumbent, to the best leaf of the work that was left.
struct PjIvmOpenSimResult {
  unsigned long long open;  // open children at the stop
  long long key;            // their least bound, negated when maximising (pj_ivm::kNoKey: none)
  long long root_bound;
  int best_at_stop;         // the incumbent when the search stopped
  int best_after;           // the best leaf of what was left, searched with no incumbent
  int stopped;              // whether work was left at the stop
};

namespace ivm_sim {
// The bound the kernels' pj_ivm_open_bound takes (templates/gpu_ivm_open.cuh, BoundFor):
// the first bound, refined unless it prunes.
struct BoundFor {
  int best;
  long long operator()(const Node& n) const {
    return static_cast<long long>(problem::staged_bound_from(n, problem::bound(n), best));
  }
};
}  // namespace ivm_sim

extern "C" PjIvmOpenSimResult pj_ivm_sim_open(unsigned long long T, long long budget, int initial_best, int stop_round) {
  using namespace ivm_sim;
  World w(T);
  start(w, initial_best);
  bool more = true;
  while (more && static_cast<long long>(w.rounds) < stop_round) more = round(w, budget);
  PjIvmOpenSimResult r{0, pj_ivm::kNoKey, 0, w.best, w.best, more ? 1 : 0};
  pj_ivm::OpenWork open;
  pj_ivm::layout::Explorers e = w.view();
  for (unsigned long long i = 0; i < w.T; ++i) pj_ivm::add_open_work(pj_ivm::Ref{e, i}, w.best, BoundFor{w.best}, open);
  r.open = open.subtrees;
  r.key = open.key;
  const int none = kGoal == pj::Goal::maximize ? INT_MIN : INT_MAX;
  Node root;
  problem::root(root);
  r.root_bound = BoundFor{none}(root);
  w.best = none;
  while (more) more = round(w, budget);
  r.best_after = w.best;
  return r;
}

// The same stop, its open work refined (templates/ivm_open_work.h, add_refined_work)
// against target keys plain + 1, + 2, + 4, ... + 64 at depths 1, 2, 4 and 8: each pass's
// least key is a proof, passed or not. Returns the highest, the plain least key, the
// number of passes that passed, and as pj_ivm_sim_open the incumbent at the stop and the
// best leaf of the work left.
struct PjIvmRefineSimResult {
  long long plain_key;   // the least open key (pj_ivm::kNoKey: none open)
  long long refined_key; // the highest least key of the refined passes
  long long lowest_pass_key;  // the lowest least key of a pass (none is below the plain key)
  int passed;            // passes in which every open child reached the target
  int best_at_stop;
  int best_after;
  int stopped;
};

extern "C" PjIvmRefineSimResult pj_ivm_sim_refine(unsigned long long T, long long budget, int initial_best,
                                                  int stop_round) {
  using namespace ivm_sim;
  World w(T);
  start(w, initial_best);
  bool more = true;
  while (more && static_cast<long long>(w.rounds) < stop_round) more = round(w, budget);
  PjIvmRefineSimResult r{pj_ivm::kNoKey, pj_ivm::kNoKey, pj_ivm::kNoKey, 0, w.best, w.best, more ? 1 : 0};
  pj_ivm::layout::Explorers e = w.view();
  pj_ivm::OpenWork open;
  for (unsigned long long i = 0; i < w.T; ++i) pj_ivm::add_open_work(pj_ivm::Ref{e, i}, w.best, BoundFor{w.best}, open);
  r.plain_key = open.key;
  r.refined_key = open.key;
  constexpr bool kMax = kGoal == pj::Goal::maximize;
  if (kGoal != pj::Goal::count && open.subtrees > 0) {
    const long long best_key = kMax ? -static_cast<long long>(w.best) : w.best;
    for (long long step : {1ll, 2ll, 4ll, 8ll, 16ll, 32ll, 64ll})
      for (int depth : {1, 2, 4, 8}) {
        const long long t = open.key + step;
        const long long tv = kMax ? -t : t;
        const int t_bound = tv > INT_MAX ? INT_MAX : tv < INT_MIN ? INT_MIN : static_cast<int>(tv);
        auto key_of = [t_bound](const Node& n, int level) -> long long {
          const long long b = level == L ? static_cast<long long>(problem::objective(n)) : BoundFor{t_bound}(n);
          return kMax ? -b : b;
        };
        pj_ivm::RefinedWork rw;
        for (unsigned long long i = 0; i < w.T; ++i)
          pj_ivm::add_refined_work(pj_ivm::Ref{e, i}, best_key, t, depth, key_of, [] { return false; }, rw);
        if (rw.failed == 0) ++r.passed;
        if (rw.key > r.refined_key) r.refined_key = rw.key;
        if (rw.key < r.lowest_pass_key) r.lowest_pass_key = rw.key;
      }
  }
  const int none = kMax ? INT_MIN : INT_MAX;
  w.best = none;
  while (more) more = round(w, budget);
  r.best_after = w.best;
  return r;
}
