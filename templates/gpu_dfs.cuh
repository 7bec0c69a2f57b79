// The `dfs` skeleton: BP-DFS (seed 000 §2.2, Algorithm 1; seed 001 §2.3-2.4).
// The host searches depth-first to the cutoff depth d_cpu and hands the frontier over;
// each thread takes one frontier node and searches its subtree depth-first, with the
// per-level nodes and remaining-candidate sets in its own stack. Counting follows the
// CPU skeleton exactly (templates/cpu_dfs.hpp), so the node totals of both agree.
//
// Frontier layout: structure of arrays. Node i is kNodeWords 32-bit words; word k is at
// nodes[k * stride + i], so a warp's loads of one word are coalesced. For optimisation
// goals the placed values of node i are prefix[i * kSize + j] (bytes).

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif
// How many expansions between re-reads of the shared incumbent.
#ifndef PJ_INCUMBENT_PERIOD
#define PJ_INCUMBENT_PERIOD 64
#endif

namespace gpu_dfs {

using problem::Mask;
using problem::Node;
constexpr pj::Goal kGoal = problem::kGoal;
constexpr int kNodeWords = sizeof(Node) / 4;
static_assert(sizeof(Node) % 4 == 0, "a node is a whole number of 32-bit words");
constexpr bool kOptimise = kGoal != pj::Goal::count;

__device__ __forceinline__ bool pruned(int bound, int best) {
  return kGoal == pj::Goal::minimize ? bound >= best : bound <= best;
}
__device__ __forceinline__ bool improves(int value, int best) {
  return kGoal == pj::Goal::minimize ? value < best : value > best;
}

// Publishes a better leaf: the incumbent first (so other threads prune at once), then
// the permutation under a lock, kept only if still the best recorded.
__device__ void record_leaf(int value, int& best, const unsigned char* prefix, int prefix_len, const int* vals,
                            int depth_below, PjGpuResults* r) {
  int old = kGoal == pj::Goal::minimize ? atomicMin(&r->best, value) : atomicMax(&r->best, value);
  best = improves(value, old) ? value : old;
  if (!improves(value, old)) return;
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
}

// Sums a per-thread counter over the block, then one atomic per block.
__device__ __forceinline__ void add_block_total(unsigned long long v, unsigned long long* shared_slot,
                                                unsigned long long* global) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(shared_slot, v);
  __syncthreads();
  if (threadIdx.x == 0 && *shared_slot) atomicAdd(global, *shared_slot);
}

}  // namespace gpu_dfs

// The host checks that it lays nodes out as this compiler does.
extern "C" __constant__ int pj_node_bytes = sizeof(problem::Node);

// One level of a thread's stack: an ancestor and the candidates it has left. Aligned
// to 16 bytes so that a push and a pop are vector accesses (one for 16 bytes).
struct alignas(16) StackEntry {
  problem::Node node;
  problem::Mask rem;
};

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_dfs(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix, unsigned long long count,
       unsigned long long stride, int depth, PjGpuResults* r) {
  using namespace gpu_dfs;
  __shared__ unsigned long long totals[3];
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  __syncthreads();

  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    // The node being expanded and its remaining candidates stay in registers; the
    // stack holds only the ancestors, written when the search descends and read when
    // it backtracks. Depth is `depth + top`: the node does not need to carry it.
    Node cur;
    {
      unsigned* w = reinterpret_cast<unsigned*>(&cur);
#pragma unroll
      for (int k = 0; k < kNodeWords; ++k) w[k] = nodes[k * stride + i];
    }
    StackEntry stack[problem::kSize];
    int vals[kOptimise ? problem::kSize : 1];
    int best = 0;
    if constexpr (kOptimise) best = *reinterpret_cast<volatile int*>(&r->best);
    Mask rem = problem::candidates(cur);
    ++expanded;
    int top = 0;  // ancestors on the stack
    unsigned since_refresh = 0;
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
      ++evaluated;
      if constexpr (kOptimise) vals[top] = v;
      if (depth + top + 1 == problem::kSize) {
        if constexpr (kOptimise) {
          int value = problem::objective(child);
          if (improves(value, best)) record_leaf(value, best, prefix + i * problem::kSize, depth, vals, top + 1, r);
        } else {
          ++solutions;
        }
        continue;
      }
      if constexpr (kOptimise) {
        if (++since_refresh == PJ_INCUMBENT_PERIOD) {
          since_refresh = 0;
          best = *reinterpret_cast<volatile int*>(&r->best);
        }
        if (pruned(problem::bound(child), best)) continue;
      }
      ++expanded;
      stack[top].node = cur;
      stack[top].rem = rem;
      ++top;
      cur = child;
      rem = problem::candidates(child);
    }
  }
  add_block_total(expanded, &totals[0], &r->expanded);
  add_block_total(evaluated, &totals[1], &r->evaluated);
  add_block_total(solutions, &totals[2], &r->solutions);
}
