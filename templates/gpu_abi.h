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

// The `ivm` skeleton's control block (templates/gpu_ivm.cuh), in device memory.
struct PjIvmControl {
  unsigned int empty;    // explorers found empty in this exploration kernel (the trigger)
  unsigned int trigger;  // the exploration kernel returns once `empty` reaches it
  unsigned int active;   // explorers with work left, after the kernel
  double remaining;      // the leaves left in all intervals, approximately
  unsigned int steals;   // steals made since the start (the host resets the fields above)
  // Written only from the host while a kernel runs (runtime/kernel_interrupter): the
  // exploration kernel of round r returns early once stop_round >= r. Rounds only
  // grow, so a request that arrives late never stops a later round.
  unsigned int stop_round;
};
