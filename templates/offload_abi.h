// The interface between permjit and the host side of the `offload` skeleton, which
// lives in the compiled CPU module (it runs the generated problem: candidates, place,
// objective) and calls back into permjit for the device work. Both sides include it.
#pragma once

#define PJ_OFFLOAD_ABI 1

extern "C" {

struct PjOffloadArgs {
  int has_ub;
  long long ub;
  int branch_on_device;           // 0 (--offload bound): the host branches, the device bounds each child
                                  // 1 (--offload branch): the device branches, one child per thread
  unsigned long long pool_max;    // hybrid selection: best-first until the pool holds this many nodes,
  unsigned long long pool_min;    // then depth-first until it holds this few
  unsigned long long batch;       // parents taken from the pool per offload
  int in_flight;                  // batches on the device at once (slots)
};

// The device, as permjit gives it. A batch goes to a slot; its bounds come back in the
// order of the children: the parents in batch order, each one's candidates lowest first.
struct PjOffloadDevice {
  void* ctx;
  // bound mode: `nodes` holds `children` child nodes; branch mode: `count` parents, and
  // offsets[count + 1] where parent i's children are offsets[i]..offsets[i+1]-1.
  int (*submit)(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                unsigned long long children);
  // Waits for the slot and copies one bound per child into `bounds`.
  int (*finish)(void* ctx, int slot, int* bounds);
};

struct PjOffloadStats {
  unsigned long long batches;          // offloads
  unsigned long long device_children;  // children bounded on the device
  unsigned long long max_pool;         // the largest the pool grew
};

typedef int (*PjOffloadAbiFn)(void);
typedef int (*PjOffloadSearchFn)(const PjOffloadArgs*, const PjOffloadDevice*, PjCpuResult*, PjOffloadStats*);
// The device's work done on the host, with the same inputs and outputs as submit +
// finish: for tests of the pool logic on machines without a GPU.
typedef void (*PjOffloadHostBoundsFn)(int branch_on_device, const void* nodes, unsigned long long count,
                                      const unsigned* offsets, unsigned long long children, int* bounds);
}
