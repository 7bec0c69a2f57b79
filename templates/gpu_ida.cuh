// GPU IDA* over the roots of the upper tree (seed 003): one f-limited iteration per
// launch. The host assigns the alive roots to blocks (pj_ida_warp) or threads
// (pj_ida_thread) from the previous iteration's work per root, and reduces the next
// limit; the counting rules are those of templates/cpu_ida.hpp.
//
// pj_ida_warp, BPIDA* (§5, Appendix A.1): a block is one warp; it searches its roots one
// after another with a stack of nodes in shared memory. Each step pops k <= 32 / kMoves
// nodes (parallelPop); lane l applies move l % kMoves to popped node l / kMoves, and the
// children kept are put on the stack (atomicPut). Since Volta a warp's lanes are
// scheduled independently, so nothing may rest on lock-step execution
// (docs/skeletons.md, "ida: how the stack stays consistent"): the top of the stack is a
// register every lane holds with the same value, the put is warp-aggregated (a ballot
// gives each keeping lane its slot above the top, the popcount the new top), and one
// __syncwarp separates the step's reads of the stack from its writes, another its
// writes from the next step's reads.
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

}  // namespace gpu_ida

// The host sizes the ida stack from the entry as this compiler lays it out.
extern "C" __constant__ int pj_ida_entry_bytes = sizeof(gpu_ida::Entry);

namespace gpu_ida {

__device__ __forceinline__ bool skip(int m, int last) { return last >= 0 && m == problem::inverse_move(last); }

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(kFull, x, o);
  return x;
}
__device__ __forceinline__ int warp_min(int x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_down_sync(kFull, x, o));
  return x;
}
// The minimum, in every lane (one instruction from sm_80 on).
__device__ __forceinline__ int warp_min_all(int x) {
#if __CUDA_ARCH__ >= 800
  return __reduce_min_sync(kFull, x);
#else
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(kFull, x, o));
  return x;
#endif
}

// The items a worker (a warp or a thread) searches, as positions in `order`. Static
// balancing (seed 003's PStaticLB): begin[w]..begin[w+1]-1, assigned by the host.
// Dynamic (begin == nullptr): the next position of a shared counter whenever the worker
// is free; the host puts the largest expected items first.
struct Items {
  static constexpr unsigned kNone = 0xffffffffu;
  const unsigned* begin;
  unsigned count, worker;
  unsigned* counter;
  __device__ Items(const unsigned* b, unsigned n, unsigned w, unsigned* c)
      : begin(b), count(n), worker(w), counter(c) {}
  __device__ unsigned checked(unsigned k, unsigned end) const { return k < end ? k : kNone; }
  __device__ unsigned take() const { return checked(atomicAdd(counter, 1u), count); }
  // One thread.
  __device__ unsigned first() const { return begin ? checked(begin[worker], begin[worker + 1]) : take(); }
  __device__ unsigned next(unsigned k) const { return begin ? checked(k + 1, begin[worker + 1]) : take(); }
  // A warp: lane 0 takes, every lane gets the same position.
  __device__ unsigned first_of_warp(int lane) const {
    if (begin) return checked(begin[worker], begin[worker + 1]);
    return __shfl_sync(kFull, lane == 0 ? take() : 0u, 0);
  }
  __device__ unsigned next_of_warp(int lane, unsigned k) const {
    if (begin) return checked(k + 1, begin[worker + 1]);
    return __shfl_sync(kFull, lane == 0 ? take() : 0u, 0);
  }
};

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
                const unsigned* __restrict__ block_begin, unsigned items, int limit, int all_solutions, int capacity,
                unsigned long long* __restrict__ work, unsigned long long* __restrict__ worker_work,
                PjIdaDeviceCounts* out) {
  using namespace gpu_ida;
  extern __shared__ __align__(16) unsigned char stack_bytes[];
  Entry* stack = reinterpret_cast<Entry*>(stack_bytes);
  const int lane = threadIdx.x;
  const int mine = lane / kMoves, m = lane % kMoves;
  const unsigned below_me = (1u << lane) - 1;
  // The cheapest move bounds the levels left below a node of cost g: (limit - g) / cheapest.
  int cheapest = kNoLimit;
  for (int k = 0; k < kMoves; ++k) cheapest = min(cheapest, problem::move_cost(k));
  unsigned long long evaluated = 0, solutions = 0, expanded_total = 0;
  int next = kNoLimit;
  Items mine_list(block_begin, items, blockIdx.x, &out->next_item);
  for (unsigned k = mine_list.first_of_warp(lane); k != Items::kNone; k = mine_list.next_of_warp(lane, k)) {
    const unsigned root = order[k];
    unsigned long long popped = 0;
    if (lane == 0) stack[0] = Entry{roots[root], root_g[root], root_last[root]};
    int top = 1;  // the same in every lane
    unsigned steps = 0;
    __syncwarp();
    while (top > 0) {
      // First-solution mode: another warp's goal ends the search (read now and then).
      if (!all_solutions && (++steps & 63) == 0) {
        int stop = lane == 0 ? *reinterpret_cast<volatile int*>(&out->stop) : 0;
        if (__shfl_sync(kFull, stop, 0)) break;
      }
      // How many to pop. A one-node pop must always fit later, so a wide pop is taken
      // only if, afterwards, a depth-first descent from every entry still fits: entry i
      // (from the bottom) with r levels left below it needs i + 1 + (kMoves - 1) * r
      // slots, and a pop of k nodes with at most r_max levels left pushes at most
      // k * (kMoves - 1) children with fewer (docs/skeletons.md). r is bounded by
      // (limit - g) / the cheapest move; with free moves there is no bound, and the
      // kernel flags an overflow rather than give a wrong count.
      const int can = min(top, kPop);
      Entry e;
      if (mine < can) e = stack[top - 1 - mine];  // parallelPop, read ahead of the choice of k
      const int g_min = warp_min_all(mine < can ? e.g : kNoLimit);
      const int r_max = cheapest > 0 ? (limit - g_min) / cheapest : 0;
      const int room = (capacity - top - (kMoves - 1) * r_max) / (kMoves > 1 ? kMoves - 1 : 1);
      const int take = max(1, min(can, room));
      if (top - 1 + kMoves > capacity) {  // not even one pop fits: the results would be void
        if (lane == 0) atomicExch(&out->overflow, 1);
        break;
      }
      const bool active = mine < take;
      popped += active && m == 0;
      top -= take;
      bool keep = false;
      Entry c;
      if (active && problem::applicable(e.node, m) && !skip(m, e.last)) {
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
          keep = true;
        }
      }
      const unsigned kept = __ballot_sync(kFull, keep);
      __syncwarp();  // every popped entry is read before a put may overwrite its slot
      if (keep) stack[top + __popc(kept & below_me)] = c;  // atomicPut, aggregated
      top += __popc(kept);
      __syncwarp();  // the puts are visible to the next step's pops
    }
    popped = warp_sum(popped);
    if (lane == 0) work[root] = popped;
    expanded_total += popped;
    __syncwarp();
  }
  evaluated = warp_sum(evaluated);
  solutions = warp_sum(solutions);
  next = warp_min(next);
  if (lane == 0) {
    worker_work[blockIdx.x] = expanded_total;
    publish(expanded_total, evaluated, solutions, next, out);
  }
}

// PStaticLB: one thread per group of roots, each searched depth-first with the path's
// nodes on a per-thread stack (local memory).
extern "C" __global__ void pj_ida_thread(const problem::Node* __restrict__ roots, const int* __restrict__ root_g,
                                         const int* __restrict__ root_last, const unsigned* __restrict__ order,
                                         const unsigned* __restrict__ thread_begin, unsigned items, unsigned threads,
                                         int limit, int all_solutions, unsigned long long* __restrict__ work,
                                         unsigned long long* __restrict__ worker_work, PjIdaDeviceCounts* out) {
  using namespace gpu_ida;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  Node path[PJ_IDA_MAX_LEVELS + 1];
  int g[PJ_IDA_MAX_LEVELS + 1], last[PJ_IDA_MAX_LEVELS + 1], next_move[PJ_IDA_MAX_LEVELS + 1];
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  int next = kNoLimit;
  Items mine_list(thread_begin, items, t, &out->next_item);
  for (unsigned k = mine_list.first(); k != Items::kNone; k = mine_list.next(k)) {
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
  worker_work[t] = expanded;
  publish(expanded, evaluated, solutions, next, out);
}
