// What the GPU skeletons share: the goal's comparisons, publishing a better leaf, and
// summing per-thread counters. Included after the problem and templates/gpu_abi.h.
#pragma once

// How many expansions between re-reads of the shared incumbent.
#ifndef PJ_INCUMBENT_PERIOD
#define PJ_INCUMBENT_PERIOD 64
#endif

namespace pj_gpu {

constexpr pj::Goal kGoal = problem::kGoal;
constexpr bool kOptimise = kGoal != pj::Goal::count;

__device__ __forceinline__ bool pruned(int bound, int best) {
  return kGoal == pj::Goal::minimize ? bound >= best : bound <= best;
}
__device__ __forceinline__ bool improves(int value, int best) {
  return kGoal == pj::Goal::minimize ? value < best : value > best;
}
__device__ __forceinline__ int read_best(PjGpuResults* r) { return *reinterpret_cast<volatile int*>(&r->best); }

// Publishes a better leaf: the incumbent first (so other threads prune at once), then
// the permutation under a lock, kept only if still the best recorded. The permutation
// is prefix[0..prefix_len) followed by vals[0..depth_below).
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

// Sums a per-thread value over the block (every thread of the block calls it), then
// one atomic per block.
template <class T>
__device__ __forceinline__ void add_block_total(T v, T* shared_slot, T* global) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(shared_slot, v);
  __syncthreads();
  if (threadIdx.x == 0 && *shared_slot) atomicAdd(global, *shared_slot);
}

}  // namespace pj_gpu
