// The `cdp` and `rec` skeletons: CDP-BP and REC-CDP (Carneiro Pessoa et al. 2018 §3.5-3.6, Algorithms 5-7,
// and §4.1). Each thread of the intermediate search takes one d_cpu node from the host
// and searches it down to d_gpu; the nodes it reaches there go into its block's active
// set A_gpu^b, at a slot taken from the block's shared `block_load` counter. The final
// search (one thread per A_gpu node, down to the leaves, with a block incumbent) is
// launched from the device by the intermediate search's blocks (cdp, PJ_CDP=1), or from
// the host once the intermediate search is over (rec, PJ_CDP=0).
//
// CUDA 12 removed device-side cudaDeviceSynchronize (CDP2), which Algorithm 6 used to
// wait for each child and read its error: here children go to the fire-and-forget
// stream, each launch's status is read with cudaGetLastError at once, and the host reads
// the counters after the parent grid, which completes only when all its children have
// (docs/skeletons.md).
//
// A_gpu layout: structure of arrays with stride `a_stride` (its capacity); block b's
// active set is the entries [b * per_block, (b + 1) * per_block), per_block = blockDim.x
// * per_thread, where per_thread bounds the d_gpu descendants of one d_cpu node (the
// host's memory analysis, §3.3).

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif
// Threads per block of the final search's grids.
#ifndef PJ_CHILD_BLOCK
#define PJ_CHILD_BLOCK 128
#endif
// Child grids per block of the intermediate search (the paper's number_of_kernels).
#ifndef PJ_CHILD_GRIDS
#define PJ_CHILD_GRIDS 2
#endif
#ifndef PJ_CDP
#define PJ_CDP 1
#endif

namespace gpu_cdp {

using namespace gpu_search;

// The final search (Algorithm 7) from A_gpu entry j, when `active`; every thread of the
// block calls it. The block incumbent starts from the global one. kRecord: the search
// of a run that records solutions or stops at one (templates/gpu_search.cuh), in
// kernels of their own so that the plain final search carries nothing of it.
template <bool kRecord>
__device__ __forceinline__ void final_search(bool active, unsigned long long j, const unsigned* __restrict__ a_nodes,
                                             const unsigned char* __restrict__ a_prefix, unsigned long long a_stride,
                                             int depth, PjGpuResults* r, PjGpuSolutions* sol) {
  __shared__ unsigned long long totals[3];
  __shared__ int block_best;
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  if (threadIdx.x == 0) block_best = read_volatile(&r->best);
  __syncthreads();
  Counts c;
  if (active && !(kRecord && search_stopped(sol))) {
    BlockIncumbent inc{&block_best, r};
    search_subtree<false, kRecord>(load_node(a_nodes, a_stride, j), depth, problem::kSize,
                                   a_prefix + j * problem::kSize, inc, r, c, [](const Node&, const int*, int) {}, sol);
  }
  add_block_totals(c, totals, r);
  if constexpr (kRecord) note_exit(sol);
}

#if PJ_CDP
// Records a failed device-side launch; the first one also leaves its name and text.
__device__ void note_launch_error(PjCdpControl* ctl, cudaError_t e) {
  atomicAdd(&ctl->failed, 1ull);
  if (atomicCAS(&ctl->error, 0, static_cast<int>(e)) != 0) return;
  ctl->error_block = static_cast<int>(blockIdx.x);
  const char* name = cudaGetErrorName(e);
  const char* text = cudaGetErrorString(e);
  int k = 0;
  for (; name && name[k] && k < 63; ++k) ctl->error_name[k] = name[k];
  ctl->error_name[k] = 0;
  for (k = 0; text && text[k] && k < 127; ++k) ctl->error_text[k] = text[k];
  ctl->error_text[k] = 0;
}
#endif

}  // namespace gpu_cdp

// The final search over `count` entries of A_gpu from `first`, launched from the device
// (pj_cdp_final_record: for a run with `sol`).
extern "C" __global__ void __launch_bounds__(PJ_CHILD_BLOCK)
pj_cdp_final(const unsigned* __restrict__ a_nodes, const unsigned char* __restrict__ a_prefix,
             unsigned long long first, unsigned long long count, unsigned long long a_stride, int depth,
             PjGpuResults* r) {
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  gpu_cdp::final_search<false>(i < count, first + i, a_nodes, a_prefix, a_stride, depth, r, nullptr);
}
extern "C" __global__ void __launch_bounds__(PJ_CHILD_BLOCK)
pj_cdp_final_record(const unsigned* __restrict__ a_nodes, const unsigned char* __restrict__ a_prefix,
                    unsigned long long first, unsigned long long count, unsigned long long a_stride, int depth,
                    PjGpuResults* r, PjGpuSolutions* sol) {
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  gpu_cdp::final_search<true>(i < count, first + i, a_nodes, a_prefix, a_stride, depth, r, sol);
}

// The A_gpu entry of thread i of the final search launched from the host: offsets[b] is
// the number of nodes in the active sets of blocks before b, so thread i takes the node
// of the block b with offsets[b] <= i < offsets[b + 1].
__device__ __forceinline__ unsigned long long rec_entry(unsigned long long i, const unsigned long long* offsets,
                                                        unsigned blocks, unsigned long long per_block) {
  unsigned lo = 0, hi = blocks;  // offsets[lo] <= i < offsets[hi] (offsets[blocks] = total)
  while (hi - lo > 1) {
    unsigned mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= i) lo = mid;
    else hi = mid;
  }
  return lo * per_block + (i - offsets[lo]);
}

// The final search over every node the intermediate search stored, launched from the
// host (pj_rec_final_record: for a run with `sol`).
extern "C" __global__ void __launch_bounds__(PJ_CHILD_BLOCK)
pj_rec_final(const unsigned* __restrict__ a_nodes, const unsigned char* __restrict__ a_prefix,
             unsigned long long a_stride, int depth, const unsigned long long* __restrict__ offsets, unsigned blocks,
             unsigned long long per_block, unsigned long long total, PjGpuResults* r) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long j = i < total ? rec_entry(i, offsets, blocks, per_block) : 0;
  gpu_cdp::final_search<false>(i < total, j, a_nodes, a_prefix, a_stride, depth, r, nullptr);
}
extern "C" __global__ void __launch_bounds__(PJ_CHILD_BLOCK)
pj_rec_final_record(const unsigned* __restrict__ a_nodes, const unsigned char* __restrict__ a_prefix,
                    unsigned long long a_stride, int depth, const unsigned long long* __restrict__ offsets,
                    unsigned blocks, unsigned long long per_block, unsigned long long total, PjGpuResults* r,
                    PjGpuSolutions* sol) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long j = i < total ? rec_entry(i, offsets, blocks, per_block) : 0;
  gpu_cdp::final_search<true>(i < total, j, a_nodes, a_prefix, a_stride, depth, r, sol);
}

// The intermediate search (Algorithm 5) and, with PJ_CDP, the launch of the final search
// (Algorithm 6). `depth` is d_cpu, `dgpu` the cut; a root already at d_gpu is stored as
// it is. block_loads[b] receives block b's load, for the host (rec) and its statistics.
extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_cdp_intermediate(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix,
                    unsigned long long count, unsigned long long stride, int depth, int dgpu,
                    unsigned* __restrict__ a_nodes, unsigned char* __restrict__ a_prefix, unsigned long long a_stride,
                    unsigned per_thread, unsigned* __restrict__ block_loads, PjCdpControl* ctl, PjGpuResults* r,
                    PjGpuSolutions* sol) {
  PJ_TEST_FAULT_POINT();
  using namespace gpu_search;
  __shared__ unsigned long long totals[3];
  __shared__ unsigned block_load;
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  if (threadIdx.x == 0) block_load = 0;
  __syncthreads();

  const unsigned per_block = blockDim.x * per_thread;
  const unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * per_block;
  Counts c;
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    const unsigned char* pre = prefix + i * problem::kSize;
    auto store = [&](const Node& n, const int* vals, int levels) {
      const unsigned slot = atomicAdd(&block_load, 1u);
      if (slot >= per_block) {  // per_thread bounds every node's descendants: never
        ctl->overflow = 1;
        return;
      }
      const unsigned long long j = base + slot;
      store_node(a_nodes, a_stride, j, n);
      if (kOptimise || sol) {  // the values placed: for the best leaf, or every solution recorded
        unsigned char* out = a_prefix + j * problem::kSize;
        for (int t = 0; t < depth; ++t) out[t] = pre[t];
        for (int k = 0; k < levels; ++k) out[depth + k] = static_cast<unsigned char>(vals[k]);
      }
    };
    const Node root = load_node(nodes, stride, i);
    if (depth == dgpu) {
      store(root, nullptr, 0);
    } else {
      GridIncumbent inc{r};
      search_subtree<true>(root, depth, dgpu, pre, inc, r, c, store);
    }
  }
  // This thread's stores reach global memory before the barrier, so the block's children
  // (launched after it) see every node of the active set.
  __threadfence();
  add_block_totals(c, totals, r);  // synchronises the block: Algorithm 5, line 14
  const unsigned load = block_load < per_block ? block_load : per_block;
  if (threadIdx.x == 0) {
    block_loads[blockIdx.x] = load;
    if (load) {
      atomicAdd(&ctl->stored, static_cast<unsigned long long>(load));
      atomicMax(&ctl->max_block_load, load);
    }
  }
#if PJ_CDP
  // Algorithm 6: up to PJ_CHILD_GRIDS threads each launch a grid over a slice of the
  // active set. A load that fits one child block gets one grid: more would only add
  // launches with idle lanes.
  const unsigned fill = (load + PJ_CHILD_BLOCK - 1) / PJ_CHILD_BLOCK;
  const unsigned grids = fill < PJ_CHILD_GRIDS ? fill : PJ_CHILD_GRIDS;
  if (threadIdx.x < grids) {
    const unsigned share = (load + grids - 1) / grids;
    const unsigned first = threadIdx.x * share;
    if (first < load) {
      const unsigned n = load - first < share ? load - first : share;
      const unsigned child_blocks = (n + PJ_CHILD_BLOCK - 1) / PJ_CHILD_BLOCK;
      if (sol)
        pj_cdp_final_record<<<child_blocks, PJ_CHILD_BLOCK, 0, cudaStreamFireAndForget>>>(
            a_nodes, a_prefix, base + first, n, a_stride, dgpu, r, sol);
      else
        pj_cdp_final<<<child_blocks, PJ_CHILD_BLOCK, 0, cudaStreamFireAndForget>>>(a_nodes, a_prefix, base + first, n,
                                                                                  a_stride, dgpu, r);
      const cudaError_t e = cudaGetLastError();
      if (e == cudaSuccess) atomicAdd(&ctl->launches, 1ull);
      else gpu_cdp::note_launch_error(ctl, e);
    }
  }
#endif
}
