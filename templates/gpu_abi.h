// What the GPU kernels and permjit's host side share: the blocks they exchange in device
// memory. Plain types of fixed layout, the same under the host compiler and NVRTC.
#pragma once

#define PJ_GPU_ABI 4

// The largest permutation (dsl/spec.hpp's kMaxSize; the runtime asserts they agree).
#ifndef PJ_MAX_SIZE
#define PJ_MAX_SIZE 128
#endif

struct PjGpuResults {
  unsigned long long expanded;   // nodes whose children were generated
  unsigned long long evaluated;  // children generated (bounded, or tested as leaves)
  unsigned long long solutions;  // count goal: complete permutations
  int best;                      // the incumbent (atomicMin / atomicMax)
  int recorded;                  // the objective of `perm`
  int found;                     // 1 once `perm` holds a solution better than the start
  int lock;                      // guards recorded/found/perm
  unsigned char perm[PJ_MAX_SIZE];  // the best permutation found on the device
};

// Decision and enumeration on the device (runtime/device/device_solutions.hpp): the solutions
// recorded into a buffer that the host drains between launches, and the flag that stops
// every kernel once the run's solution limit is reached. A solution that finds the
// buffer full is not taken: `ivm` leaves it for the next round, `dfs` searches the chunk
// again with a larger buffer; so nothing is lost or listed twice.
struct PjGpuSolutions {
  unsigned long long limit;     // > 0: stop once `drained + taken` reaches it
  unsigned long long drained;   // solutions taken by earlier launches (the host's count)
  unsigned long long capacity;  // permutations `perms` holds
  unsigned long long count;     // slots handed out since the last drain (atomicAdd; may pass capacity)
  unsigned char* perms;         // capacity * size bytes, the values at each position
  int stop;                     // 1: the limit was reached: every kernel returns
  int full;                     // 1: a solution found the buffer full and was not taken
  unsigned long long found_ns;  // %globaltimer when `stop` was set
  unsigned long long exit_ns;   // the last block's return after it
};

// The `ivm` skeleton's control block (templates/gpu_ivm.cuh), in device memory.
struct PjIvmControl {
  unsigned int empty;    // explorers found empty in this exploration kernel (the trigger)
  unsigned int trigger;  // the exploration kernel returns once `empty` reaches it
  unsigned int active;   // explorers with work left, after the kernel
  double remaining;      // the leaves left in all intervals, approximately
  // Of the explorers with work after the kernel: the sum of log2 of what each has left
  // (the victims' threshold under the `log` rule, runtime/ivm/ivm_device.cpp).
  double log_remaining;
  // The idle share's measure (runtime/ivm/ivm_device.cpp): the explorers with work when
  // the kernel started, and the nanoseconds (%globaltimer) from their block's start to
  // their return, summed.
  unsigned int busy_start;
  unsigned long long busy_ns;
  unsigned int steals;   // steals made since the start (the host resets the fields above)
  // Written only from the host while a kernel runs (runtime/kernel_interrupter): the
  // exploration kernel of round r returns early once stop_round >= r. Rounds only
  // grow, so a request that arrives late never stops a later round.
  unsigned int stop_round;
};

// What a stopped `ivm` search left open (pj_ivm_open_bound, templates/ivm_open_work.h),
// summed over the explorers of one image.
struct PjIvmOpen {
  unsigned long long subtrees;  // children in the explorers' rows that the incumbent does not prune
  long long key;                // the least bound among them, negated when maximising (LLONG_MAX: none)
  long long root_bound;         // the root's bound
};

// One pass of the open work's refinement against a target key (pj_ivm_open_refine,
// templates/ivm_open_work.h, refine_key), summed over the explorers of one image.
struct PjIvmRefine {
  unsigned long long subtrees;  // open children, as PjIvmOpen's
  long long key;                // the least key of the refined cut (LLONG_MAX: none)
  unsigned long long failed;    // open children not shown to reach the target
  unsigned long long nodes;     // children bounded by the refinement
};

// The `cdp` and `rec` skeletons' control data (Carneiro Pessoa et al. 2018 §3.7): what the intermediate
// search stored and launched, and the first device-side launch error, by the device
// runtime's own name. Zeroed by the host before each chunk.
struct PjCdpControl {
  unsigned long long stored;     // nodes put in the active sets A_gpu
  unsigned long long launches;   // child grids launched from the device
  unsigned long long failed;     // device-side launches that returned an error
  unsigned int max_block_load;   // the fullest block active set
  int overflow;                  // a block's active set would have overflowed (a broken invariant)
  int error;                     // the first failed launch's cudaError_t, 0 if none
  int error_block;               // the block that saw it
  char error_name[64];           // cudaGetErrorName of it, on the device
  char error_text[128];          // cudaGetErrorString of it
};
