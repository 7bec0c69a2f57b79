// The interface between permjit and the host side of the `offload` skeleton, which
// lives in the compiled CPU module (it runs the generated problem: candidates, place,
// objective) and calls back into permjit for the device work. Both sides include it.
#pragma once

#define PJ_OFFLOAD_ABI 4

extern "C" {

// Pool sizes and batches are each host thread's own: permjit divides the totals the user
// gave by `threads` (OffloadOptions::per_thread).
struct PjOffloadArgs {
  int has_ub;
  long long ub;
  int branch_on_device;           // 0 (--offload bound): the host branches, the device bounds each child
                                  // 1 (--offload branch): the device branches, one child per thread
  unsigned long long pool_max;    // hybrid selection: best-first until a thread's pool holds this many nodes,
  unsigned long long pool_min;    // then depth-first until it holds this few
  unsigned long long batch;       // parents taken from the pool per offload
  int in_flight;                  // batches on the device at once, per host thread (slots)
  int threads;                    // host threads; thread t owns slots t * in_flight .. (t + 1) * in_flight - 1
};

// The device, as permjit gives it. A batch goes to a slot; its bounds come back in the
// order of the children: the parents in batch order, each one's candidates lowest first.
// Each host thread calls only with its own slots, so calls of different threads may
// run at once. A nonzero return ends the search (every thread), which returns that code.
struct PjOffloadDevice {
  void* ctx;
  // Called by each host thread before its first submit (the GPU makes its context
  // current in the calling thread).
  int (*attach)(void* ctx);
  // bound mode: `nodes` holds `children` child nodes; branch mode: `count` parents, and
  // offsets[count + 1] where parent i's children are offsets[i]..offsets[i+1]-1.
  // `best` is the incumbent when the batch is sent: with two stages of bound
  // (problem::kStages), a child whose cheap bound prunes against it is not refined.
  int (*submit)(void* ctx, int slot, const void* nodes, unsigned long long count, const unsigned* offsets,
                unsigned long long children, int best);
  // Waits for the slot and copies one bound per child into `bounds`.
  int (*finish)(void* ctx, int slot, int* bounds);
  // A leaf found outside the search (the local search beside it) better than `best`: its
  // value and permutation (the problem's size, in the search's order) written, 1
  // returned; else 0. Called by each host thread before it selects a batch. May be null.
  int (*outside)(void* ctx, long long best, long long* value, int* perm);
  // Each leaf that improves the incumbent (the search's own or an outside one), for the
  // local search beside the search to start from. May be null.
  void (*found)(void* ctx, long long value, const int* perm);
};

struct PjOffloadStats {
  unsigned long long batches;          // offloads
  unsigned long long device_children;  // children bounded on the device
  unsigned long long max_pool;         // the most nodes the pools held together (seen after a batch)
  unsigned long long steals;           // times a thread with no work took half of another's pool
};

typedef int (*PjOffloadAbiFn)(void);
// 0 when the search is complete, else the device's nonzero return that ended it (the
// counts and incumbent are then those reached so far).
typedef int (*PjOffloadSearchFn)(const PjOffloadArgs*, const PjOffloadDevice*, PjCpuResult*, PjOffloadStats*);
// The device's work done on the host, with the same inputs and outputs as submit +
// finish: for tests of the pool logic on machines without a GPU.
typedef void (*PjOffloadHostBoundsFn)(int branch_on_device, const void* nodes, unsigned long long count,
                                      const unsigned* offsets, unsigned long long children, int best, int* bounds);
}
