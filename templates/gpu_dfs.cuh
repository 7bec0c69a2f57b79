// The `dfs` skeleton: BP-DFS (Carneiro Pessoa et al. 2018 §2.2, Algorithm 1; Carneiro Pessoa et al. 2016 §2.3-2.4).
// The host searches to the cutoff depth d_cpu and hands the frontier over; each thread
// takes one frontier node and searches its subtree depth-first (templates/gpu_search.cuh).

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif

// pj_dfs, and pj_dfs_record for the runs that record solutions or stop at one (goal
// find, --list, --target): two kernels, so that the plain search's loop carries nothing
// of the other.
template <bool kRecord>
__device__ __forceinline__ void dfs_chunk(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix,
                                          unsigned long long count, unsigned long long stride, int depth,
                                          PjGpuResults* r, PjGpuSolutions* sol) {
  using namespace gpu_search;
  __shared__ unsigned long long totals[3];
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  __syncthreads();

  Counts c;
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count && !(kRecord && search_stopped(sol))) {
    GridIncumbent inc{r};
    search_subtree<false, kRecord>(load_node(nodes, stride, i), depth, problem::kSize, prefix + i * problem::kSize, inc,
                                   r, c, [](const Node&, const int*, int) {}, sol);
  }
  add_block_totals(c, totals, r);
  if constexpr (kRecord) note_exit(sol);
}

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_dfs(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix, unsigned long long count,
       unsigned long long stride, int depth, PjGpuResults* r) {
  PJ_TEST_FAULT_POINT();
  dfs_chunk<false>(nodes, prefix, count, stride, depth, r, nullptr);
}

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_dfs_record(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix, unsigned long long count,
              unsigned long long stride, int depth, PjGpuResults* r, PjGpuSolutions* sol) {
  PJ_TEST_FAULT_POINT();
  dfs_chunk<true>(nodes, prefix, count, stride, depth, r, sol);
}
