// Device side of the `offload` skeleton (Chakroun et al. 2013 §5, Melab et al. 2019 §3.3): the host keeps
// the pool; a kernel bounds one child per thread. In bound mode the host generated the
// children; in branch mode the thread finds its parent (offsets: parent i's children
// are offsets[i]..offsets[i+1]-1), takes its k-th candidate, places it and bounds the
// child. Nodes travel as the generated struct Node, one after another. `best` is the
// incumbent when the batch was sent: with two stages of bound, a child whose cheap bound
// prunes against it is not refined (problem::staged_bound).

#ifndef PJ_BLOCK
#define PJ_BLOCK 128
#endif

// The host checks that it lays nodes out as this compiler does.
extern "C" __constant__ int pj_node_bytes = sizeof(problem::Node);

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_offload_bound(const problem::Node* __restrict__ children, unsigned long long count, int best,
                 int* __restrict__ bounds) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) bounds[i] = problem::staged_bound(children[i], best);
}

extern "C" __global__ void __launch_bounds__(PJ_BLOCK)
pj_offload_branch(const problem::Node* __restrict__ parents, const unsigned* __restrict__ offsets,
                  unsigned long long parent_count, unsigned long long count, int best, int* __restrict__ bounds) {
  PJ_TEST_FAULT_POINT();
  const unsigned long long t = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  // The parent: the last one whose first child is at or before t.
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
  bounds[t] = problem::staged_bound(child, best);
}
