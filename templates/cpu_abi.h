// The interface between permjit and a compiled CPU search module (a shared object).
// Both sides include this file; bump kPjCpuAbi when a struct changes.
#pragma once

#define PJ_CPU_ABI 5

extern "C" {

// A solution handed to the host (--list, goal find): the values at each position, and
// the objective (0 when counting). Returns 0 to take it, 1 when the host's list is full:
// the solution is then not counted and the search stops.
typedef int (*PjSolutionFn)(void* ctx, const int* perm, int size, long long value);

struct PjCpuArgs {
  int threads;        // worker threads
  int split_depth;    // frontier depth below the root; <= 0 chooses one
  int has_ub;         // 1: `ub` is the initial incumbent (prune bound >= ub when minimizing)
  long long ub;
  double time_limit_s;  // > 0: stop the search after this many seconds (pj_cpu_search)
  // Decision and enumeration (pj_cpu_search; zero for a plain search):
  unsigned long long solution_limit;  // > 0: stop once this many solutions are recorded
  int fixed_incumbent;  // 1: leaves better than `ub` are solutions; the incumbent never tightens
  PjSolutionFn on_solution;  // non-null: every solution recorded is handed to it
  void* solution_ctx;
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
  int stopped;                   // 1: the search ended before it was complete (time or solution limit)
  int reached_limit;             // 1: it stopped at its solution limit
  double find_to_exit_s;         // then: seconds from the solution that reached it to the return
  unsigned long long donations;  // subtrees a busy thread split off for an idle one (cpu skeleton)
};

// The frontier of a search split at a depth, for a GPU skeleton: the nodes (as the
// generated struct Node, node_bytes each), the values placed in each (size bytes per
// node, only when `with_prefix`), and the counts and best leaf met while building it.
struct PjFrontier {
  unsigned long long count;
  int depth;           // absolute: values placed in every frontier node
  int node_bytes;
  void* nodes;         // count * node_bytes
  unsigned char* prefix;  // count * size, or null
  PjCpuResult counts;  // expanded/evaluated/solutions/found/best/perm so far
};

typedef int (*PjCpuSearchFn)(const PjCpuArgs*, PjCpuResult*);
typedef int (*PjCpuAbiFn)(void);
// Splits at `depth` (absolute), or, if depth <= 0, at the first depth with at least
// min_nodes nodes (never below size-2). Returns 0 on success.
typedef int (*PjCpuFrontierFn)(const PjCpuArgs*, int depth, unsigned long long min_nodes, int with_prefix,
                               PjFrontier*);
typedef void (*PjCpuFrontierFreeFn)(PjFrontier*);
}
