// GPU IDA* over the roots of the upper tree (seed 003): one f-limited iteration per
// launch. The host assigns the alive roots to blocks (pj_ida_warp) or threads
// (pj_ida_thread) from the previous iteration's work per root, and reduces the next
// limit; the counting rules are those of templates/cpu_ida.hpp.
//
// pj_ida_warp, BPIDA* (§5, Appendix A.1): a block is one warp; it searches its roots one
// after another with a stack of nodes in shared memory. Each step pops k = 32 / kMoves
// nodes (parallelPop); lane l applies move l % kMoves to popped node l / kMoves, and
// pushes the child it keeps with an atomicAdd on the top (atomicPut). Since Volta a
// warp's lanes are scheduled independently, so the steps are separated by __syncwarp
// (docs/skeletons.md, "ida: how the stack stays consistent"):
//   1. every lane reads `top` (nobody writes it between the barrier before and 3);
//   2. __syncwarp; popped lanes read their entry;  3. __syncwarp; lane 0 lowers `top`;
//   4. __syncwarp; lanes push with atomicAdd(&top) into slots at or above the new top,
//      which no lane reads in this step;  5. __syncwarp: the pushes are visible to 1.
#ifndef PJ_IDA_MAX_LEVELS
#define PJ_IDA_MAX_LEVELS 128  // ida-thread: the deepest path below a root (one node per level)
#endif

namespace gpu_ida {

using problem::Node;
constexpr int kMoves = problem::kMoves;
constexpr int kPop = 32 / kMoves > 0 ? 32 / kMoves : 1;
constexpr unsigned kFull = 0xffffffffu;
constexpr int kNoLimit = 0x7fffffff;  // no f above the limit was met (INT_MAX; NVRTC has no <climits>)

struct Entry {
  Node node;
  int g;
  int last;
};

__device__ __forceinline__ bool skip(int m, int last) { return last >= 0 && m == problem::inverse_move(last); }

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(kFull, x, o);
  return x;
}
__device__ __forceinline__ int warp_min(int x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_down_sync(kFull, x, o));
  return x;
}

// The thread's totals into the iteration's counts.
__device__ void publish(unsigned long long expanded, unsigned long long evaluated, unsigned long long solutions,
                        int next, PjIdaDeviceCounts* out) {
  if (expanded) atomicAdd(&out->expanded, expanded);
  if (evaluated) atomicAdd(&out->evaluated, evaluated);
  if (solutions) atomicAdd(&out->solutions, solutions);
  if (next != kNoLimit) atomicMin(&out->next_limit, next);
}

}  // namespace gpu_ida

extern "C" __global__ void __launch_bounds__(32)
    pj_ida_warp(const problem::Node* __restrict__ roots, const int* __restrict__ root_g,
                const int* __restrict__ root_last, const unsigned* __restrict__ order,
                const unsigned* __restrict__ block_begin, int limit, int all_solutions, int capacity,
                unsigned long long* __restrict__ work, PjIdaDeviceCounts* out) {
  using namespace gpu_ida;
  extern __shared__ __align__(16) unsigned char stack_bytes[];
  Entry* stack = reinterpret_cast<Entry*>(stack_bytes);
  __shared__ int top;
  volatile int* vtop = &top;
  const int lane = threadIdx.x;
  const int mine = lane / kMoves, m = lane % kMoves;
  unsigned long long evaluated = 0, solutions = 0, expanded_total = 0;
  int next = kNoLimit;
  for (unsigned k = block_begin[blockIdx.x]; k < block_begin[blockIdx.x + 1]; ++k) {
    const unsigned root = order[k];
    unsigned long long popped = 0;
    if (lane == 0) {
      stack[0] = Entry{roots[root], root_g[root], root_last[root]};
      *vtop = 1;
    }
    __syncwarp();
    for (;;) {
      const int n = *vtop;  // 1
      int stop = lane == 0 && !all_solutions ? *reinterpret_cast<volatile int*>(&out->stop) : 0;
      stop = __shfl_sync(kFull, stop, 0);  // one decision for the warp
      __syncwarp();
      if (n == 0 || stop) break;
      const int room = kMoves > 1 ? (capacity - n) / (kMoves - 1) : kPop;  // each pop nets at most kMoves-1
      const int take = min(min(n, kPop), room);
      if (take <= 0) {
        if (lane == 0) atomicExch(&out->overflow, 1);
        break;
      }
      const bool active = mine < take;
      Entry e;
      if (active) e = stack[n - 1 - mine];  // 2: parallelPop
      __syncwarp();
      if (lane == 0) *vtop = n - take;  // 3
      __syncwarp();
      if (active) {  // 4
        popped += m == 0;
        if (problem::applicable(e.node, m) && !skip(m, e.last)) {
          Entry c;
          problem::apply_move(e.node, m, c.node);
          ++evaluated;
          c.g = e.g + problem::move_cost(m);
          c.last = m;
          const int f = c.g + c.node.h;
          if (f > limit) {
            next = min(next, f);
          } else if (problem::is_goal(c.node)) {
            ++solutions;
            atomicMin(&out->solved_root, static_cast<unsigned long long>(root));
            if (!all_solutions) atomicExch(&out->stop, 1);
          } else {
            stack[atomicAdd(&top, 1)] = c;  // atomicPut
          }
        }
      }
      __syncwarp();  // 5
    }
    popped = warp_sum(popped);
    if (lane == 0) work[root] = popped;
    expanded_total += popped;
    __syncwarp();
  }
  evaluated = warp_sum(evaluated);
  solutions = warp_sum(solutions);
  next = warp_min(next);
  if (lane == 0) publish(expanded_total, evaluated, solutions, next, out);
}

// PStaticLB: one thread per group of roots, each searched depth-first with the path's
// nodes on a per-thread stack (local memory).
extern "C" __global__ void pj_ida_thread(const problem::Node* __restrict__ roots, const int* __restrict__ root_g,
                                         const int* __restrict__ root_last, const unsigned* __restrict__ order,
                                         const unsigned* __restrict__ thread_begin, unsigned threads, int limit,
                                         int all_solutions, unsigned long long* __restrict__ work,
                                         PjIdaDeviceCounts* out) {
  using namespace gpu_ida;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  Node path[PJ_IDA_MAX_LEVELS + 1];
  int g[PJ_IDA_MAX_LEVELS + 1], last[PJ_IDA_MAX_LEVELS + 1], next_move[PJ_IDA_MAX_LEVELS + 1];
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  int next = kNoLimit;
  for (unsigned k = thread_begin[t]; k < thread_begin[t + 1]; ++k) {
    const unsigned root = order[k];
    if (!all_solutions && *reinterpret_cast<volatile int*>(&out->stop)) break;
    unsigned long long before = expanded;
    path[0] = roots[root];
    g[0] = root_g[root];
    last[0] = root_last[root];
    next_move[0] = 0;
    ++expanded;
    int depth = 0;
    while (depth >= 0) {
      if (next_move[depth] == kMoves) {
        --depth;
        continue;
      }
      const int m = next_move[depth]++;
      if (!problem::applicable(path[depth], m) || skip(m, last[depth])) continue;
      Node c;
      problem::apply_move(path[depth], m, c);
      ++evaluated;
      const int cg = g[depth] + problem::move_cost(m);
      const int f = cg + c.h;
      if (f > limit) {
        next = min(next, f);
        continue;
      }
      if (problem::is_goal(c)) {
        ++solutions;
        atomicMin(&out->solved_root, static_cast<unsigned long long>(root));
        if (!all_solutions) {
          atomicExch(&out->stop, 1);
          depth = -1;
        }
        continue;
      }
      if (depth + 1 > PJ_IDA_MAX_LEVELS) {
        atomicExch(&out->overflow, 1);
        continue;
      }
      ++depth;
      path[depth] = c;
      g[depth] = cg;
      last[depth] = m;
      next_move[depth] = 0;
      ++expanded;
    }
    work[root] = expanded - before;
  }
  publish(expanded, evaluated, solutions, next, out);
}
