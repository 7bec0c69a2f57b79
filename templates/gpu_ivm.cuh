// The `ivm` skeleton: GPU backtracking with IVM explorers and work stealing on the GPU
// (Carneiro Pessoa et al. 2016 §3, Algorithms 1-2). T explorers each own an interval of the factoradic
// numbers of the leaves (templates/ivm_interval.h) and explore it depth-first
// (templates/ivm_explorer.h). The host alternates:
//   pj_ivm_explore   every explorer works until `trigger` of them have found their
//                   interval empty (TreeExplore), then measures what it has left;
//   pj_ivm_select   each empty explorer picks a victim on the virtual hypercube among
//                   those with more than the mean left, claimed with atomicCAS so that
//                   no victim is picked twice (trySelect), else one of a few probed
//                   anywhere (pick_victim);
//   pj_ivm_steal    each thief takes the right part of its victim's interval, cut
//                   at a node boundary (stealWork; steal_row);
// until no explorer has work left. No node travels between host and device.
// A stopped search's open work is bounded by kernels in a unit of their own
// (templates/gpu_ivm_open.cuh), compiled only when first needed; what the two units
// share is templates/gpu_ivm_common.cuh, which comes before this file.

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif
// Children generated between looks at the trigger counter and the incumbent.
#ifndef PJ_IVM_POLL_PERIOD
#define PJ_IVM_POLL_PERIOD 64
#endif
// Expansions between looks with two ends (templates/ivm_two_ends.h).
#ifndef PJ_IVM_POLL_PERIOD_TWO_ENDS
#define PJ_IVM_POLL_PERIOD_TWO_ENDS 4
#endif
// Children between looks where node code solves an assignment or arborescence
// (problem::kSolvesMatching): a child costs microseconds there, and a round lasts at
// least one period of the busiest explorers, so a long period leaves a small tree's work
// in few explorers between steals, and a short one pays a round's fixed cost (launches,
// copies, the steal kernels) more often. On the H100 at their optima (search seconds;
// docs/performance.md, "Heavy nodes on ivm"): br17 with the default bound 0.13 at 64,
// 0.029 at 4, 0.026 at 3, 0.025 at 2; nug15 0.041 / 0.038 / 0.036 at 4 / 3 / 2; ftv33
// 5.4 / 5.8 / 6.8 s at 4 / 3 / 2 (7,800 to 16,000 rounds).
#ifndef PJ_IVM_POLL_PERIOD_HEAVY
#define PJ_IVM_POLL_PERIOD_HEAVY 3
#endif

// (templates/gpu_ivm_common.cuh brings gpu_search, L, Ref and Node into this namespace.)
namespace pj_ivm::device {

// The fixed prefix as bytes, the start of every recorded permutation.
struct Prefix {
  unsigned char v[problem::kPrefixLength > 0 ? problem::kPrefixLength : 1];
  __device__ Prefix() {
    int p[problem::kSize];
    problem::prefix_values(p);
    for (int j = 0; j < problem::kPrefixLength; ++j) v[j] = static_cast<unsigned char>(p[j]);
  }
};

// Whether a node is pruned against the incumbent `best` (never when counting): the
// question enter(), steal_half() and explore() ask.
// Where the explorers keep AssignStarts (kKeepStarts), it asks refine_from<true> with nothing to start
// from or keep: the module's one copy of refine (compiling refine_from<false> beside it
// took NVRTC from 2.7 to 5.2 s on br17 with lb=1).
struct PrunedBy {
  int best;
  __device__ bool operator()(const Node& n) const {
    if constexpr (kOptimise && kKeepStarts) {
      problem::AssignStart* none = nullptr;
      return gpu_search::pruned(problem::staged_bound_from(n, problem::bound(n), best, none, none), best);
    }
    if constexpr (kOptimise) return gpu_search::pruned(problem::staged_bound(n, best), best);
    return false;
  }
};

// What templates/ivm_explorer.h asks of its caller, on the device.
struct Hooks {
  // With two ends a pop is an expansion (both ends bounded), and a heavy node's child
  // solves a matching: look far more often.
  static constexpr unsigned kPeriod = problem::kEnds == 2        ? PJ_IVM_POLL_PERIOD_TWO_ENDS
                                      : problem::kSolvesMatching ? PJ_IVM_POLL_PERIOD_HEAVY
                                                                 : PJ_IVM_POLL_PERIOD;
  int best;
  PjGpuResults* r;
  const PjIvmControl* ctl;
  unsigned trigger, round;
  Prefix prefix;
  PjGpuSolutions* sol;  // decision and enumeration (null: none): solutions taken, the stop
  problem::AssignStart* starts;  // this explorer's, one per level (problem::kAssignStart)

  __device__ bool poll() {
    if constexpr (kOptimise) best = read_volatile(&r->best);
    const volatile PjIvmControl* c = ctl;
    return c->empty >= trigger || c->stop_round >= round || (sol && search_stopped(sol));
  }
  __device__ bool pruned(const Node& n) const { return PrunedBy{best}(n); }
  // A child of the node at `level` (explore_popping), its assign() started from the
  // node's AssignStart and leaving its own at level + 1 (kKeepStarts).
  __device__ bool pruned_child(const Node& n, int level) const {
    if constexpr (kOptimise && kKeepStarts)
      return gpu_search::pruned(problem::staged_bound_from(n, problem::bound(n), best, &starts[level], &starts[level + 1]),
                                best);
    return pruned(n);
  }
  // Counting, with no solution to record: the last level is counted from its candidate set.
  __device__ bool leaves_by_mask() const { return !kOptimise && !sol; }
  // False when a solution is not taken (the buffer is full, or the limit was reached):
  // the explorer stops before the leaf, and the next round takes it.
  __device__ bool leaf(const Node& n, const int* vals, pj_ivm::Counters& c) {
    if constexpr (kOptimise) {
      int value = problem::objective(n);
      if (improves(value, best)) {
        best = record_leaf(value, prefix.v, problem::kPrefixLength, vals, L, r);
        if (sol && sol->limit) stop_search(sol);  // --target: the start was one past it
      }
    } else {
      if (!sol) {
        c.solutions += problem::leaf_weight(n);  // with its mirror image under [symmetry]
      } else {
        if (!take_solution(sol, prefix.v, problem::kPrefixLength, vals, L)) return false;
        ++c.solutions;  // one permutation recorded
      }
    }
    return true;
  }
};

// What a thief takes from its victim (pj_ivm_steal, and pj_ivm_export for another GPU):
// with two ends the upper half of the victim's shallowest row (templates/ivm_two_ends.h);
// with one end the same at a node boundary (steal_row), or under -DPJ_IVM_STEAL_HALF,
// for measuring, the seed's halving of the leaves, whose thief checks its walk against
// the incumbent.
__device__ __forceinline__ bool steal(Ref thief, Ref victim, [[maybe_unused]] PjGpuResults* r) {
  if constexpr (problem::kEnds == 2) {
    return pj_ivm::steal_row_two_ends(thief, victim);
  } else {
#ifdef PJ_IVM_STEAL_HALF
    return pj_ivm::steal_half(thief, victim, PrunedBy{read_volatile(&r->best)});
#else
    return pj_ivm::steal_row(thief, victim);
#endif
  }
}

}  // namespace pj_ivm::device

// The start of a fresh run. One end: explorer i of this GPU is explorer `offset + i` of
// the `parts` among which the leaves are cut (every GPU's explorers, in GPU order), and
// starts on its part (part_of: near-equal intervals that start at node boundaries; seed
// 001 Algorithm 1, line 2), or has nothing when the part holds no leaf. Each thread
// computes its own part: cut on the host, 152,064 explorers of 16 levels took 15-35 ms
// and their digits a copy, in every run. Two ends (`root`): explorer 0 starts with every leaf, the
// others with nothing (templates/ivm_two_ends.h says why).
extern "C" __global__ void pj_ivm_init(pj_ivm::layout::Explorers e, unsigned long long offset,
                                       unsigned long long parts, int root, PjGpuResults* r) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T) return;
  Ref x{e, i};
  const int best = read_volatile(&r->best);  // nothing is found during this kernel
  if constexpr (problem::kEnds == 2) {  // the whole tree to explorer 0 (templates/ivm_two_ends.h)
    if (i != 0 || !root) {
      pj_ivm::set_empty(x);
      return;
    }
    pj_ivm::Counters counted;
    pj_ivm::enter_root(x, best, counted);
    atomicAdd(&r->evaluated, counted.evaluated);
    return;
  }
  pj_ivm::Digit first[L], last[L];
  if (!pj_ivm::part_of(offset + i, parts, first, last, L)) {
    pj_ivm::set_empty(x);
    return;
  }
  for (int l = 0; l < L; ++l) x.last(l) = last[l];
  pj_ivm::enter(x, first, PrunedBy{best});
}

// TreeExplore: every explorer works on its interval until `trigger` explorers are
// empty (or the host asks this round to stop); then each writes what it has left to
// lengths[i] and the block totals go to the control block and the results. `stack`
// holds this thread's rows, entry k at stack[k * stride]; kJumpBack: how a backtrack
// finds its row (pj_ivm::explore_jumping, else explore_popping).
template <bool kJumpBack>
__device__ __forceinline__ void explore_round(pj_ivm::layout::Explorers e, PjIvmControl* ctl, PjGpuResults* r, double* lengths,
                                              unsigned round, PjGpuSolutions* sol, problem::AssignStart* starts,
                                              pj_ivm::layout::Level* stack, int stride) {
  PJ_TEST_FAULT_POINT();
  using namespace pj_ivm::device;
  __shared__ unsigned long long totals[3];
  __shared__ double left_total, log_total;
  __shared__ unsigned active_total, busy_total;
  // The idle share's measure: the block's start, kept here rather than in a register
  // that would live through the exploration.
  __shared__ unsigned long long block_start, busy_ns_total;
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    left_total = 0;
    log_total = 0;
    active_total = 0;
    busy_total = 0;
    busy_ns_total = 0;
    block_start = global_ns();
  }
  __syncthreads();

  pj_ivm::Counters c;
  double left = 0, log_left = 0;
  unsigned active = 0, busy = 0;
  unsigned long long busy_ns = 0;
  const unsigned long long i = thread_index();
  if (i < e.T) {
    Ref x{e, i};
    busy = !pj_ivm::is_empty(x);
    Hooks h{kOptimise ? read_volatile(&r->best) : 0, r, ctl, ctl->trigger, round, Prefix(), sol,
            kKeepStarts ? starts + i * L : nullptr};
    bool empty = false;
    if constexpr (problem::kEnds == 2) empty = pj_ivm::explore_two_ends(x, stack, stride, h, c);
    else if constexpr (!kJumpBack) empty = pj_ivm::explore_popping(x, stack, stride, h, c);
    else if (h.leaves_by_mask()) empty = pj_ivm::explore_jumping<!kOptimise>(x, stack, stride, h, c);
    else empty = pj_ivm::explore_jumping<false>(x, stack, stride, h, c);
    if (empty) atomicAdd(&ctl->empty, 1u);
    if (busy) busy_ns = global_ns() - block_start;
    left = pj_ivm::remaining(x);
    active = left > 0;
    if (active) log_left = log2(left);
    lengths[i] = left;
  }
  add_block_total(c.expanded, &totals[0], &r->expanded);
  add_block_total(c.evaluated, &totals[1], &r->evaluated);
  add_block_total(c.solutions, &totals[2], &r->solutions);
  add_block_total(left, &left_total, &ctl->remaining);
  add_block_total(log_left, &log_total, &ctl->log_remaining);
  add_block_total(active, &active_total, &ctl->active);
  add_block_total(busy, &busy_total, &ctl->busy_start);
  add_block_total(busy_ns, &busy_ns_total, &ctl->busy_ns);
  note_exit(sol);
}

// PJ_IVM_MIN_BLOCKS (PERMJIT_IVM_MIN_BLOCKS, for measuring): blocks per SM the explore
// kernels must fit, which caps their registers.
#ifdef PJ_IVM_MIN_BLOCKS
#define PJ_IVM_EXPLORE_BOUNDS __launch_bounds__(PJ_BLOCK, PJ_IVM_MIN_BLOCKS)
#else
#define PJ_IVM_EXPLORE_BOUNDS __launch_bounds__(PJ_BLOCK)
#endif

// The rows where they are placed (docs/skeletons.md, "Where the rows live"): in
// per-thread local memory, or in the block's dynamic shared memory, interleaved so that
// a warp's accesses to one level are consecutive. PJ_IVM_ROWS is --ivm-rows (1 local,
// 2 shared); without it, shared while a block's rows take at most 64 KiB (past that so
// few blocks fit an SM that local rows won; N-Queens 17 on the H100 ran 2.4x faster in
// shared rows) and the nodes are light. Where node code solves an assignment or
// arborescence, the rows' traffic is a small part of a node's time and local rows, with
// more threads resident, won (ATSP br17 at its optimum on the H100: 0.80 s against 1.35 s
// with the assignment, 0.15 s against 0.22 s with the default bound). Only the placement
// chosen is compiled: the explore kernel is most of NVRTC's time, and compiling both
// doubled it. The host reads the choice from pj_ivm_shared_rows.
#ifndef PJ_IVM_ROWS
#define PJ_IVM_ROWS 0
#endif
namespace pj_ivm::device {
constexpr unsigned long kBlockRowBytes = sizeof(pj_ivm::layout::Level) * pj_ivm::L * PJ_BLOCK;
constexpr bool kSharedRows =
    PJ_IVM_ROWS == 2 || (PJ_IVM_ROWS == 0 && !problem::kSolvesMatching && kBlockRowBytes <= 64 * 1024);
}  // namespace pj_ivm::device
extern "C" __constant__ int pj_ivm_shared_rows = pj_ivm::device::kSharedRows;

extern "C" __global__ void PJ_IVM_EXPLORE_BOUNDS
pj_ivm_explore(pj_ivm::layout::Explorers e, PjIvmControl* ctl, PjGpuResults* r, double* lengths, unsigned round,
               PjGpuSolutions* sol, problem::AssignStart* starts) {
  if constexpr (pj_ivm::device::kSharedRows) {
    extern __shared__ __align__(16) unsigned char pj_ivm_rows[];
    pj_ivm::layout::Level* rows = reinterpret_cast<pj_ivm::layout::Level*>(pj_ivm_rows);
    // Each warp's rows together, its 32 lanes' entries of one level side by side: a
    // warp's accesses to a level are consecutive, and the stride (32, whatever the
    // block: --block-size is a multiple of 32) is known here, so a row's address is a
    // shift (the block's width was read from blockDim in every pop).
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    explore_round<true>(e, ctl, r, lengths, round, sol, starts, rows + warp * (32 * pj_ivm::L) + lane, 32);
  } else {
    pj_ivm::layout::Level rows[pj_ivm::L];
    explore_round<false>(e, ctl, r, lengths, round, sol, starts, rows, 1);
  }
}

// trySelect, one kernel: each empty explorer walks its hypercube neighbours in order and
// claims the first with more than `threshold` left (the host's: runtime/ivm/ivm_device.cpp,
// victim_threshold) that nobody has claimed; without one, it probes a few explorers
// anywhere, other ones each pass (`salt`: templates/ivm_explorer.h).
extern "C" __global__ void pj_ivm_select(pj_ivm::layout::Explorers e, const double* __restrict__ lengths, long long* victim,
                                         int* claimed, double threshold, unsigned p, int dims, unsigned salt) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T) return;
  victim[i] = -1;
  if (lengths[i] != 0) return;
  victim[i] = pj_ivm::pick_victim(i, e.T, p, dims, lengths, threshold, salt,
                                  [claimed](unsigned long long v) { return atomicCAS(&claimed[v], 0, 1) == 0; });
}

// stealWork: each thief takes the right part of its victim's interval (steal, above). A
// victim has one thief, and thieves are empty, so every explorer's state has one writer.
// Both lengths are brought up to date, for the next pass of the same phase
// (runtime/ivm/ivm_device.cpp, balance()).
extern "C" __global__ void pj_ivm_steal(pj_ivm::layout::Explorers e, const long long* __restrict__ victim, int* claimed,
                                        PjIvmControl* ctl, PjGpuResults* r, double* lengths) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T) return;
  const long long v = victim[i];
  if (v < 0) return;
  claimed[v] = 0;
  const Ref thief{e, i}, robbed{e, static_cast<unsigned long long>(v)};
  if (steal(thief, robbed, r)) {
    atomicAdd(&ctl->steals, 1u);
    lengths[i] = pj_ivm::remaining(thief);
    lengths[v] = pj_ivm::remaining(robbed);
  }
}

// Work for another GPU (runtime/ivm/ivm_exchange.hpp): explorer i of `out` takes what a
// thief of explorer i would take (steal, above), so a dry GPU that loads `out` holds
// about half of this one's work, spread over as many explorers. `given` counts the
// explorers that got some. Every node keeps one owner, so the counts stay exact (templates/ivm_explorer.h).
extern "C" __global__ void pj_ivm_export(pj_ivm::layout::Explorers e, pj_ivm::layout::Explorers out,
                                         unsigned* given, PjGpuResults* r) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T) return;
  const Ref taker{out, i}, robbed{e, i};
  pj_ivm::set_empty(taker);
  if (steal(taker, robbed, r)) atomicAdd(given, 1u);
}

// Work from another GPU (runtime/ivm/ivm_exchange.hpp) into this one's empty explorers, in
// two kernels: pj_ivm_free_slots lists the empty explorers (counts[0] of them, in any
// order), then pj_ivm_merge moves each explorer of `in` that has work into the next
// listed one (counts[1] hands them out); those that find none stay in `in` (counted in
// counts[2]) and go back to the pool. Moved whole, a state keeps every node's owner, so
// the counts stay exact. lengths[] is updated: the work-stealing phase that may follow
// takes an explorer of length 0 for a thief, and a thief's state is overwritten.
extern "C" __global__ void pj_ivm_free_slots(pj_ivm::layout::Explorers e, unsigned long long* slots, unsigned* counts) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T || !pj_ivm::is_empty(Ref{e, i})) return;
  slots[atomicAdd(&counts[0], 1u)] = i;
}

extern "C" __global__ void pj_ivm_merge(pj_ivm::layout::Explorers e, pj_ivm::layout::Explorers in,
                                        const unsigned long long* __restrict__ slots, unsigned* counts,
                                        double* lengths) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if (i >= e.T) return;
  const Ref from{in, i};
  if (pj_ivm::is_empty(from)) return;
  const unsigned k = atomicAdd(&counts[1], 1u);
  if (k >= counts[0]) {
    atomicAdd(&counts[2], 1u);
    return;
  }
  const unsigned long long j = slots[k];
  const Ref to{e, j};
  to.I() = from.I();
  to.ends() = from.ends();
  for (int l = 0; l < pj_ivm::L; ++l) {
    to.V(l) = from.V(l);
    to.M(l) = from.M(l);
    to.last(l) = from.last(l);
  }
  pj_ivm::set_empty(from);
  lengths[j] = pj_ivm::remaining(to);
}
