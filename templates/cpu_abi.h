// The interface between permjit and a compiled CPU search module (a shared object).
// Both sides include this file; bump kPjCpuAbi when a struct changes.
#pragma once

#define PJ_CPU_ABI 1

extern "C" {

struct PjCpuArgs {
  int threads;        // worker threads
  int split_depth;    // frontier depth below the root; <= 0 chooses one
  int has_ub;         // 1: `ub` is the initial incumbent (prune bound >= ub when minimizing)
  long long ub;
};

struct PjCpuResult {
  unsigned long long expanded;   // nodes whose children were generated
  unsigned long long evaluated;  // children generated (bounded, or tested as leaves)
  unsigned long long solutions;  // count goal: complete permutations
  int found;                     // optimisation goals: 1 if a solution beats the start
  long long best;                // its objective
  int size;
  int perm[64];                  // the solution: value at each position
  int frontier_depth;            // where the work was split between threads
  unsigned long long frontier_nodes;
};

typedef int (*PjCpuSearchFn)(const PjCpuArgs*, PjCpuResult*);
typedef int (*PjCpuAbiFn)(void);
}
