// What every GPU skeleton's kernels share: one thread's depth-first search of a subtree
// (optionally cut at a depth, where the nodes are handed to the caller instead of being
// expanded), the incumbent it prunes against, the recording of a better leaf, and the
// per-block reduction of the node counters. Counting follows the CPU skeleton exactly
// (templates/cpu_dfs.hpp, `visit`), so the node totals of every skeleton agree.
//
// Frontier layout: structure of arrays. Node i is kNodeWords 32-bit words; word k is at
// nodes[k * stride + i], so a warp's loads of one word are coalesced. For optimisation
// goals the placed values of node i are prefix[i * kSize + j] (bytes).

// How many expansions between re-reads of the shared incumbent.
#ifndef PJ_INCUMBENT_PERIOD
#define PJ_INCUMBENT_PERIOD 64
#endif

namespace gpu_search {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;
constexpr int kNodeWords = sizeof(Node) / 4;
static_assert(sizeof(Node) % 4 == 0, "a node is a whole number of 32-bit words");
constexpr bool kOptimise = kGoal != pj::Goal::count;

__device__ __forceinline__ bool pruned(int bound, int best) { return pj::prunes<kGoal>(bound, best); }
__device__ __forceinline__ bool improves(int value, int best) { return pj::improves<kGoal>(value, best); }
// atomicMin when minimising, atomicMax when maximising; returns the old value.
__device__ __forceinline__ int atomic_improve(int* slot, int value) {
  return kGoal == pj::Goal::minimize ? atomicMin(slot, value) : atomicMax(slot, value);
}
__device__ __forceinline__ int read_volatile(const int* p) { return *reinterpret_cast<const volatile int*>(p); }

struct Counts {
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
};

// Publishes a better leaf: the incumbent first (so other threads prune at once), then
// the permutation under a lock, kept only if still the best recorded. Returns the
// incumbent as it now stands.
__device__ int record_leaf(int value, const unsigned char* prefix, int prefix_len, const int* vals, int depth_below,
                           PjGpuResults* r) {
  int old = atomic_improve(&r->best, value);
  if (!improves(value, old)) return old;
  while (atomicCAS(&r->lock, 0, 1) != 0) {
  }
  __threadfence();
  volatile PjGpuResults* vr = r;
  if (!vr->found || improves(value, vr->recorded)) {
    vr->recorded = value;
    vr->found = 1;
    for (int j = 0; j < prefix_len; ++j) vr->perm[j] = prefix[j];
    for (int k = 0; k < depth_below; ++k) vr->perm[prefix_len + k] = static_cast<unsigned char>(vals[k]);
  }
  __threadfence();
  atomicExch(&r->lock, 0);
  return value;
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The run's solution limit was reached: every kernel returns at its next look.
__device__ __forceinline__ void stop_search(PjGpuSolutions* s) {
  if (atomicExch(&s->stop, 1) == 0) s->found_ns = global_ns();
}
__device__ __forceinline__ bool search_stopped(const PjGpuSolutions* s) {
  return read_volatile(&s->stop) != 0 || read_volatile(&s->full) != 0;
}

// Takes one solution into the buffer (templates/gpu_abi.h, PjGpuSolutions): the values
// of prefix[0..prefix_len) then vals[0..below). False when it is not taken: the buffer
// is full (s->full is set) or the limit was reached before it. The slots below
// min(count, capacity, limit - drained) are exactly the solutions taken.
__device__ bool take_solution(PjGpuSolutions* s, const unsigned char* prefix, int prefix_len, const int* vals,
                              int below) {
  const unsigned long long i = atomicAdd(&s->count, 1ull);
  if (s->limit && s->drained + i >= s->limit) {
    stop_search(s);
    return false;
  }
  if (i >= s->capacity) {
    atomicExch(&s->full, 1);
    return false;
  }
  unsigned char* out = s->perms + i * problem::kSize;
  for (int j = 0; j < prefix_len; ++j) out[j] = prefix[j];
  for (int k = 0; k < below; ++k) out[prefix_len + k] = static_cast<unsigned char>(vals[k]);
  if (s->limit && s->drained + i + 1 == s->limit) stop_search(s);
  return true;
}

// At a kernel's end, once per block: when the search was stopped, the time it returns.
__device__ __forceinline__ void note_exit(PjGpuSolutions* s) {
  if (s && threadIdx.x == 0 && read_volatile(&s->stop)) atomicMax(&s->exit_ns, global_ns());
}

// The incumbent of the whole grid: the global slot, re-read every PJ_INCUMBENT_PERIOD
// expansions (one L2 read; a better leaf anywhere reaches every thread soon).
struct GridIncumbent {
  PjGpuResults* r;
  __device__ int start() const { return read_volatile(&r->best); }
  __device__ int refresh() { return read_volatile(&r->best); }
  __device__ void improved(int) {}
};

// The block incumbent of Carneiro Pessoa et al. 2018's final search (Algorithm 7, bl_sol): a shared-memory
// copy that the block's threads prune against and improve at once, merged with the
// global slot every eighth refresh, so global traffic is an eighth of the grid form's.
struct BlockIncumbent {
  int* shared;  // initialised from r->best by the block before the search
  PjGpuResults* r;
  unsigned refreshes = 0;
  __device__ int start() const { return read_volatile(shared); }
  __device__ int refresh() {
    if ((++refreshes & 7u) == 0) atomic_improve(shared, read_volatile(&r->best));
    return read_volatile(shared);
  }
  __device__ void improved(int value) { atomic_improve(shared, value); }
};

// One level of a thread's stack: an ancestor and the candidates it has left. Aligned
// to 16 bytes so that a push and a pop are vector accesses (one for 16 bytes).
struct alignas(16) StackEntry {
  Node node;
  Mask rem;
};

__device__ __forceinline__ Node load_node(const unsigned* __restrict__ nodes, unsigned long long stride,
                                          unsigned long long i) {
  Node n;
  unsigned* w = reinterpret_cast<unsigned*>(&n);
#pragma unroll
  for (int k = 0; k < kNodeWords; ++k) w[k] = nodes[k * stride + i];
  return n;
}

__device__ __forceinline__ void store_node(unsigned* __restrict__ nodes, unsigned long long stride,
                                           unsigned long long i, const Node& n) {
  const unsigned* w = reinterpret_cast<const unsigned*>(&n);
#pragma unroll
  for (int k = 0; k < kNodeWords; ++k) nodes[k * stride + i] = w[k];
}

// Depth-first search of the subtree below `cur`, which has `depth` values placed and
// was evaluated by whoever made it: here it is expanded. With kCut, a child that would
// be expanded at depth `cut` is handed to at_cut(child, vals, levels) instead (vals[0..
// levels) are the values placed below `cur`); the counts stay those of a search that
// expands it later. `prefix` holds the values placed in `cur` (optimisation goals).
//
// The node being expanded and its remaining candidates stay in registers; the stack
// holds only the ancestors, written when the search descends and read when it
// backtracks. Depth is `depth + top`: the node does not need to carry it. A child
// without candidates is counted expanded and never pushed; when counting, the leaves
// below a child at the last level but one are counted from its candidate set
// (problem::leaf_children_weight), not placed: the counts are the plain search's.
//
// kRecord (decision and enumeration, `sol`): counted leaves are taken into the solution
// buffer, a better leaf stops the search when the run has a limit (--target), and the
// search returns once `sol` says stop (or full: the caller searches again).
template <bool kCut, bool kRecord = false, class Incumbent, class AtCut>
__device__ __forceinline__ void search_subtree(Node cur, int depth, int cut, const unsigned char* prefix,
                                               Incumbent& inc, PjGpuResults* r, Counts& c, AtCut&& at_cut,
                                               PjGpuSolutions* sol = nullptr) {
  StackEntry stack[problem::kSize];
  int vals[kOptimise || kCut || kRecord ? problem::kSize : 1];
  int best = 0;
  if constexpr (kOptimise) best = inc.start();
  Mask rem = problem::candidates(cur);
  ++c.expanded;
  int top = 0;  // ancestors on the stack
  unsigned since_refresh = 0;
  // A pop takes a turn of its own here. The ivm explorer backtracks in the turn that
  // finds nothing to push (templates/ivm_explorer.h); the same loop here, with the stack
  // in local memory, made N-Queens 19 slower on the H100 (dfs 11.1 s against 14.2 s).
  while (true) {
    if (rem == 0) {
      if (top == 0) break;
      --top;
      cur = stack[top].node;
      rem = stack[top].rem;
      continue;
    }
    const int v = pj::lowest(rem);
    rem &= rem - 1;
    Node child;
    problem::place(cur, v, child);
    ++c.evaluated;
    if constexpr (kOptimise || kCut || kRecord) vals[top] = v;
    if (depth + top + 1 == problem::kSize) {
      if constexpr (kOptimise) {
        int value = problem::objective(child);
        if (improves(value, best)) {
          inc.improved(value);
          best = record_leaf(value, prefix, depth, vals, top + 1, r);
          if constexpr (kRecord) {
            if (sol->limit) stop_search(sol);  // --target: the start was one past it
          }
        }
      } else if constexpr (kRecord) {
        if (!take_solution(sol, prefix, depth, vals, top + 1)) break;
        ++c.solutions;  // one permutation recorded
      } else {
        c.solutions += problem::leaf_weight(child);  // with its mirror image under [symmetry]
      }
      continue;
    }
    if constexpr (kOptimise || kRecord) {
      if (++since_refresh == PJ_INCUMBENT_PERIOD) {
        since_refresh = 0;
        if constexpr (kRecord) {
          if (search_stopped(sol)) break;
        }
        if constexpr (kOptimise) best = inc.refresh();
      }
    }
    if constexpr (kOptimise) {
      // Two stages: refine() runs only where the cheap bound does not prune.
      if (pruned(problem::staged_bound(child, best), best)) continue;
    }
    if constexpr (kCut) {
      if (depth + top + 1 == cut) {
        at_cut(child, vals, top + 1);
        continue;
      }
    }
    ++c.expanded;
    const Mask child_rem = problem::candidates(child);
    if constexpr (!kOptimise && !kRecord) {
      if (depth + top + 2 == problem::kSize) {  // the child's children are leaves: count them
        c.evaluated += static_cast<unsigned long long>(pj::popcount(child_rem));
        c.solutions += problem::leaf_children_weight(child, child_rem);
        continue;
      }
    }
    if (child_rem == 0) continue;  // expanded, and nothing below: no push, no pop
    stack[top].node = cur;
    stack[top].rem = rem;
    ++top;
    cur = child;
    rem = child_rem;
  }
}

// Sums a per-thread counter over the block, then one atomic per block. Every thread of
// the block calls it (it synchronises the block).
template <class T>
__device__ __forceinline__ void add_block_total(T v, T* shared_slot, T* global) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(shared_slot, v);
  __syncthreads();
  if (threadIdx.x == 0 && *shared_slot) atomicAdd(global, *shared_slot);
}

// `totals` is the block's three shared slots, zeroed before the search.
__device__ __forceinline__ void add_block_totals(const Counts& c, unsigned long long* totals, PjGpuResults* r) {
  add_block_total(c.expanded, &totals[0], &r->expanded);
  add_block_total(c.evaluated, &totals[1], &r->evaluated);
  add_block_total(c.solutions, &totals[2], &r->solutions);
}

}  // namespace gpu_search

// The host checks that it lays nodes out as this compiler does.
extern "C" __constant__ int pj_node_bytes = sizeof(problem::Node);
