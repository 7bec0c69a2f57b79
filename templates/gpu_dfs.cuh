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
namespace gpu_dfs {
using namespace pj_gpu;
using problem::Mask;
using problem::Node;
constexpr int kNodeWords = sizeof(Node) / 4;
static_assert(sizeof(Node) % 4 == 0, "a node is a whole number of 32-bit words");
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
    if constexpr (kOptimise) best = read_best(r);
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
          best = read_best(r);
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
