// Device side of the `offload` skeleton (Chakroun et al. 2013 §5, Melab et al. 2019 §3.3): the host keeps
// the pool; a kernel bounds one child per thread. In bound mode the host generated the
// children; in branch mode the thread finds its parent (offsets: parent i's children
// are offsets[i]..offsets[i+1]-1), takes its k-th candidate, places it and bounds the
// child. Nodes travel as the generated struct Node, one after another. `best` is the
// incumbent when the batch was sent: with two stages of bound, a child whose cheap bound
// prunes against it is not refined (problem::staged_bound).
//
// Where the second stage has a block form (problem::kBlockRefine: refine holds a
// dualassign(), O(m^5) per node with a K^4 table), the kernels above store the first
// stage alone and pj_offload_refine then computes the second for each child the first
// does not prune, one child per block at a time (problem::refine_block), each block with
// its own kBlockScratchBytes of `scratch`; the value is the one staged_bound gives.

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif

// The host checks that it lays nodes out as this compiler does.
extern "C" __constant__ int pj_node_bytes = sizeof(problem::Node);

// The refine kernel's block: PJ_BLOCK rounded up to whole warps (templates/pair_dual_block.h).
#define PJ_REFINE_BLOCK ((PJ_BLOCK + 31) / 32 * 32 < 1024 ? (PJ_BLOCK + 31) / 32 * 32 : 1024)

// The host reads these: the block refine's scratch per block (0: none), its block size.
extern "C" __constant__ int pj_refine_scratch_bytes = problem::kBlockRefine ? int(problem::kBlockScratchBytes) : 0;
extern "C" __constant__ int pj_refine_block = PJ_REFINE_BLOCK;

namespace pj_offload {
// What the bound kernels store for a child: staged_bound, or with a block form the first
// stage alone (pj_offload_refine does the rest).
__device__ __forceinline__ int first_bound(const problem::Node& child, int best) {
  if constexpr (problem::kBlockRefine) {
    (void)best;
    return problem::bound(child);
  } else {
    return problem::staged_bound(child, best);
  }
}

// Child t of a branch-mode batch: the parent is the last one whose first child is at or
// before t; the child places its (t - offsets[parent])-th candidate, lowest first.
__device__ __forceinline__ problem::Node branch_child(const problem::Node* __restrict__ parents,
                                                      const unsigned* __restrict__ offsets,
                                                      unsigned long long parent_count, unsigned long long t) {
  unsigned long long lo = 0, hi = parent_count;
  while (hi - lo > 1) {
    unsigned long long mid = (lo + hi) / 2;
    if (offsets[mid] <= t) lo = mid;
    else hi = mid;
  }
  const problem::Node parent = parents[lo];
  problem::Mask m = problem::candidates(parent);
  for (unsigned k = static_cast<unsigned>(t) - offsets[lo]; k > 0; --k) m &= m - 1;
  problem::Node child;
  problem::place(parent, pj::lowest(m), child);
  return child;
}

// Host memory the device reads (zero-copy), set to 1 by the host when the time limit
// passes (runtime/backtrack/offload_skeleton.cpp, stop_now): the refine kernel's blocks
// leave the children they have not started, so do the bound kernels' threads where node
// code solves a matching (stopped(), below), and the host does not take that batch back
// (its parents stay open). A second stage can take seconds a batch; without this the
// search ran far past --time-limit. Not a device global written by a copy: the copy's
// stream would share a hardware queue with the kernels it should stop, and wait for them.
extern "C" __device__ const volatile int* pj_offload_stop = nullptr;

// The second stage of every child whose first (in bounds[]) does not prune: block b takes
// children b, b + gridDim.x, ... A template, so that a spec without a block form compiles
// no refine_block.
template <bool kOn>
__device__ void refine_children(const problem::Node* __restrict__ nodes, const unsigned* __restrict__ offsets,
                                unsigned long long parent_count, unsigned long long count, int branch, int best,
                                int* __restrict__ bounds, char* __restrict__ scratch) {
  if constexpr (kOn) {
    char* mine = scratch + static_cast<unsigned long long>(blockIdx.x) * problem::kBlockScratchBytes;
    __shared__ int stop;
    for (unsigned long long t = blockIdx.x; t < count; t += gridDim.x) {
      // One read for the block, so that all its threads leave together; the second
      // barrier keeps thread 0's next write after every thread's read.
      if (threadIdx.x == 0) stop = pj_offload_stop ? *pj_offload_stop : 0;
      __syncthreads();
      const bool leave = stop != 0;
      __syncthreads();
      if (leave) break;
      const int cheap = bounds[t];  // read by every thread before any writes it
      if (problem::kStages == 1 || pj::prunes<problem::kGoal>(cheap, best)) continue;  // the same for the block
      const problem::Node child = branch ? branch_child(nodes, offsets, parent_count, t) : nodes[t];
      const int refined = problem::refine_block<0>(child, cheap, mine);
      __syncthreads();  // every thread has read bounds[t]
      if (threadIdx.x == 0) bounds[t] = pj::tighter<problem::kGoal>(cheap, refined);
    }
  } else {
    (void)nodes, (void)offsets, (void)parent_count, (void)count, (void)branch, (void)best, (void)bounds, (void)scratch;
  }
}
// Whether a bound kernel's thread should leave its child unbounded: the time limit has
// passed (pj_offload_stop). Only where node code solves a matching: a batch of such bounds
// can take tens of seconds (a Lagrangian arborescence at 100 cities), where a cheap
// bound's batch ends in microseconds and should not pay a read across the bus. What the
// thread leaves in bounds[] does not matter: the host takes no batch back once stopping.
__device__ __forceinline__ bool stopped() {
  if constexpr (problem::kSolvesMatching) return pj_offload_stop && *pj_offload_stop;
  else return false;
}
}  // namespace pj_offload

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_offload_bound(const problem::Node* __restrict__ children, unsigned long long count, int best,
                 int* __restrict__ bounds) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count && !pj_offload::stopped()) bounds[i] = pj_offload::first_bound(children[i], best);
}

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_offload_branch(const problem::Node* __restrict__ parents, const unsigned* __restrict__ offsets,
                  unsigned long long parent_count, unsigned long long count, int best, int* __restrict__ bounds) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long t = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count || pj_offload::stopped()) return;
  bounds[t] = pj_offload::first_bound(pj_offload::branch_child(parents, offsets, parent_count, t), best);
}

// `nodes` and `offsets` as the kernel before it (branch != 0: pj_offload_branch's).
// At least 1024 threads per multiprocessor (64 registers each): the solver waits on memory
// and diverges, so more warps hide more of it. -DPJ_REFINE_MIN_BLOCKS=N (through
// PERMJIT_NVRTC_OPTIONS) measures other choices.
#ifndef PJ_REFINE_MIN_BLOCKS
#define PJ_REFINE_MIN_BLOCKS (1024 / PJ_REFINE_BLOCK)
#endif
extern "C" __global__ void __launch_bounds__(PJ_REFINE_BLOCK, PJ_REFINE_MIN_BLOCKS)
pj_offload_refine(const problem::Node* __restrict__ nodes, const unsigned* __restrict__ offsets,
                  unsigned long long parent_count, unsigned long long count, int branch, int best,
                  int* __restrict__ bounds, char* __restrict__ scratch) {
  PJ_TEST_FAULT_POINT();
  pj_offload::refine_children<problem::kBlockRefine>(nodes, offsets, parent_count, count, branch, best, bounds,
                                                       scratch);
}
