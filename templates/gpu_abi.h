// What the `dfs` kernel and permjit's host side share: the results block in device
// memory. Plain types of fixed layout, the same under the host compiler and NVRTC.
#pragma once

#define PJ_GPU_ABI 1

struct PjGpuResults {
  unsigned long long expanded;   // nodes whose children were generated
  unsigned long long evaluated;  // children generated (bounded, or tested as leaves)
  unsigned long long solutions;  // count goal: complete permutations
  int best;                      // the incumbent (atomicMin / atomicMax)
  int recorded;                  // the objective of `perm`
  int found;                     // 1 once `perm` holds a solution better than the start
  int lock;                      // guards recorded/found/perm
  unsigned char perm[64];        // the best permutation found on the device
};
