// The interface between permjit and a compiled CPU search module (a shared object).
// Both sides include this file; bump kPjCpuAbi when a struct changes.
#pragma once

#define PJ_CPU_ABI 11

// The largest permutation (dsl/spec.hpp's kMaxSize; the runtime asserts they agree).
#ifndef PJ_MAX_SIZE
#define PJ_MAX_SIZE 128
#endif

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
  // Non-null: the search stops, as at its time limit, once *stop_request is nonzero (read
  // every few milliseconds: a signal handler or another thread of the host sets it).
  const volatile int* stop_request;
};

struct PjCpuResult {
  unsigned long long expanded;   // nodes whose children were generated
  unsigned long long evaluated;  // children generated (bounded, or tested as leaves)
  unsigned long long solutions;  // count goal: complete permutations
  int found;                     // optimisation goals: 1 if a solution beats the start
  long long best;                // its objective
  int size;
  int perm[PJ_MAX_SIZE];         // the solution: value at each position
  int frontier_depth;            // where the work was split between threads
  unsigned long long frontier_nodes;
  int stopped;                   // 1: the search ended before it was complete (time or solution limit)
  int reached_limit;             // 1: it stopped at its solution limit
  double find_to_exit_s;         // then: seconds from the solution that reached it to the return
  unsigned long long donations;  // subtrees a busy thread split off for an idle one (cpu skeleton)
  // A stopped search's open work (docs/reliability.md, "Partial answers"): the subtrees
  // it left (never taken, or children left on a thread's stack when it returned), not
  // counting those the incumbent prunes; optimisation, the least bound over them when
  // every one had its bound computed (open_bound_known), and the root's bound.
  unsigned long long open_subtrees;
  int open_bound_known;
  long long open_bound;
  long long root_bound;
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

// Local search from a leaf (templates/cpu_improve.hpp): `threads` chains, each seeded
// with seed + its index, run for `seconds` from `perm` (the value at each position,
// `size` of them), whose objective is `value`; with `no_start`, from the greedy leaf
// instead (each position takes the candidate whose child has the best first-stage
// bound), `perm` and `value` unread.
struct PjImproveArgs {
  int threads;
  double seconds;
  unsigned long long seed;
  int size;
  int perm[PJ_MAX_SIZE];
  long long value;
  int no_start;
  // Beside a search (runtime/core/warm_start.hpp): the local search also ends once *stop
  // is nonzero, and each leaf better than every one before it is handed to
  // on_better(ctx, perm, size, value) as it is found, from the chain's thread (calls are
  // serialised). Both may be null.
  const volatile int* stop;
  void* ctx;
  void (*on_better)(void* ctx, const int* perm, int size, long long value);
};

struct PjImproveResult {
  int found;      // 1: `best` is better than the start's value (no_start: a leaf was found)
  long long start;  // the start's value (no_start: the greedy leaf's)
  long long best;
  int size;
  int perm[PJ_MAX_SIZE];
  int optimal;    // 1: `best` reaches the root's bound: nothing is better
  unsigned long long iterations;   // kicks followed by a local search, all chains
  unsigned long long evaluations;  // complete permutations evaluated, all chains
  double seconds;
};
// Returns 0 on success, 2 for a permutation of another size, 3 for a spec that does not
// minimise or maximise, 4 for no_start where the greedy dive met a node without
// candidates (no leaf to start from).
typedef int (*PjCpuImproveFn)(const PjImproveArgs*, PjImproveResult*);

typedef int (*PjCpuSearchFn)(const PjCpuArgs*, PjCpuResult*);
typedef int (*PjCpuAbiFn)(void);
// Splits at `depth` (absolute), or, if depth <= 0, at the first depth with at least
// min_nodes nodes (never below size-2). Returns 0 on success.
typedef int (*PjCpuFrontierFn)(const PjCpuArgs*, int depth, unsigned long long min_nodes, int with_prefix,
                               PjFrontier*);
typedef void (*PjCpuFrontierFreeFn)(PjFrontier*);

// Ranges of one frontier, searched one after another (many processes, checkpoints:
// runtime/distributed/range_schedule.hpp). pj_cpu_ranges_open builds the frontier at `depth`
// (absolute) if it is above 0, else as pj_cpu_search does (args->split_depth below the
// root, else the first depth with min_nodes nodes),
// keeps it in the module, and writes its counts, depth and size to `frontier`; the
// frontier depends only on the start incumbent (has_ub, ub) and the depth, so every
// process that opens it with those gets the same sequence. pj_cpu_ranges_search
// searches subtrees [begin, end) with args->threads threads, from the incumbent in
// args, and writes that range's counts alone (its `stopped`: the range was left
// unfinished). Return 0 on success; pj_cpu_ranges_open returns kStoppedCode
// (host_threads.hpp) and keeps nothing when args->stop_request was raised during the build.
typedef int (*PjCpuRangesOpenFn)(const PjCpuArgs*, int depth, unsigned long long min_nodes, void** handle, PjCpuResult* frontier);
typedef int (*PjCpuRangesSearchFn)(void* handle, const PjCpuArgs*, unsigned long long begin, unsigned long long end,
                                   PjCpuResult*);
typedef void (*PjCpuRangesCloseFn)(void* handle);
// The open work of subtrees [begin, end) of the frontier kept by pj_cpu_ranges_open,
// as a stopped search reports its own (PjCpuResult's open_* and root_bound): those the
// incumbent (has_ub, ub) does not prune. A coordinator's ranges left unsearched.
typedef int (*PjCpuRangesOpenWorkFn)(void* handle, int has_ub, long long ub, unsigned long long begin,
                                     unsigned long long end, PjCpuResult* out);
}
