// The `dfs` skeleton: BP-DFS (seed 000 §2.2, Algorithm 1; seed 001 §2.3-2.4).
// The host searches to the cutoff depth d_cpu and hands the frontier over; each thread
// takes one frontier node and searches its subtree depth-first (templates/gpu_search.cuh).

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_dfs(const unsigned* __restrict__ nodes, const unsigned char* __restrict__ prefix, unsigned long long count,
       unsigned long long stride, int depth, PjGpuResults* r) {
  using namespace gpu_search;
  __shared__ unsigned long long totals[3];
  if (threadIdx.x < 3) totals[threadIdx.x] = 0;
  __syncthreads();

  Counts c;
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    GridIncumbent inc{r};
    search_subtree<false>(load_node(nodes, stride, i), depth, problem::kSize, prefix + i * problem::kSize, inc, r, c,
                          [](const Node&, const int*, int) {});
  }
  add_block_totals(c, totals, r);
}
