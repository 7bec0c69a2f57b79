// The interface between permjit and a compiled path-problem module (templates/cpu_ida.hpp):
// the CPU IDA* search, and the upper tree a GPU IDA* skeleton starts from. Both sides
// include this file; bump PJ_IDA_ABI when a struct changes.
#pragma once

#define PJ_IDA_ABI 5
#define PJ_IDA_MAX_ITERATIONS 256
#define PJ_IDA_MAX_PATH 1024

extern "C" {

// The start data that the module's root() takes (the generated kStartItems arrays):
// one row-major int array per item. A call whose items or lengths differ from the
// module's returns PJ_IDA_BAD_START.
struct PjIdaStart {
  int items;
  const int* const* data;
  const int* lengths;
};
#define PJ_IDA_BAD_START 3

struct PjIdaArgs {
  PjIdaStart start;
  int threads;
  int all_solutions;             // 1: finish the last iteration, counting every optimal path
  unsigned long long min_roots;  // roots the upper tree should hold at least (0: 64 per thread)
  double time_limit_s;           // > 0: stop after this many seconds (PjIdaResult::interrupted)
  // Non-null: the search stops, as at its time limit, once *stop_request is nonzero (a
  // signal handler sets it; read every few milliseconds).
  const volatile int* stop_request;
};

// One f-limited iteration, or the part of one above or below the roots.
struct PjIdaCounts {
  unsigned long long expanded;   // nodes whose children were generated
  unsigned long long evaluated;  // children generated (their heuristic computed)
  unsigned long long solutions;  // goals reached within the limit (paths of cost = limit)
  int next_limit;                // the smallest f above the limit met; 2^31-1 if none
};

struct PjIdaResult {
  int found;                     // 1: a path was found; its cost is the last limit
  int cost;
  int path_moves;                // the moves of one optimal path, by number
  int moves[PJ_IDA_MAX_PATH];
  int iterations;
  int limits[PJ_IDA_MAX_ITERATIONS];
  PjIdaCounts per_iteration[PJ_IDA_MAX_ITERATIONS];
  int start_h;
  int root_depth;                // where the upper tree hands its roots to the threads
  unsigned long long roots;
  int stopped;                   // 1: the iteration limit was reached before a goal
  // 1: the time limit or a stop request ended the search inside iteration `iterations`
  // (its limit is limits[iterations], its counts so far per_iteration[iterations]);
  // no iteration below it met a goal, so no path costs less than that limit.
  int interrupted;
};

// The upper tree: every path of `depth` moves from the start (the inverse of a move never
// right after it), built breadth-first; its last level is the roots. `tree` is the module's.
struct PjIdaRoots {
  unsigned long long count;
  int depth;
  int node_bytes;
  void* nodes;       // count * node_bytes: the generated struct Node of each root
  int* g;            // the cost of the path to each root
  int* last;         // the move that reached each root, -1 for the start
  int start_h;       // the heuristic of the start: the first limit
  void* tree;
};

// What the GPU IDA* kernels (templates/gpu_ida.cuh) add up in device memory, per iteration.
#define PJ_IDA_DONATED 0x80000000u  // a source that is a donated node's queue slot, not an item
struct PjIdaDeviceCounts {
  unsigned long long expanded, evaluated, solutions;
  // The smallest source with a goal below it, ~0 if none: an item (its index), or with
  // donation, PJ_IDA_DONATED | the queue slot of a donated node.
  unsigned long long solved_root;
  int next_limit;                  // atomicMin; 2^31-1 if nothing was above the limit
  int stop;                        // warps return: a goal was found (first-solution mode), or the host asks
  int overflow;                    // a stack would have overflowed (the results are void)
  unsigned next_item;              // dynamic balancing: the next item a worker takes (atomicAdd)
  // Donation (ida, --balance donate): the next ticket a waiting warp takes and the next
  // slot a donor fills; the work held (the host sets it to the number of blocks; see
  // templates/gpu_ida.cuh).
  unsigned queue_head, queue_tail;
  int active;
  unsigned long long donated;      // nodes given to the queue
};

typedef int (*PjIdaAbiFn)(void);
typedef int (*PjIdaSearchFn)(const PjIdaArgs*, PjIdaResult*);
typedef int (*PjIdaRootsFn)(const PjIdaStart*, unsigned long long min_roots, PjIdaRoots*);
// The iteration at `limit` above the roots: its counts (a root's own expansion is not
// among them), and alive[i] = 1 for each root to be expanded below. upper_goal: the
// first goal above the roots' expansion within the limit, or -1.
typedef int (*PjIdaUpperFn)(const PjIdaRoots*, int limit, PjIdaCounts*, unsigned char* alive, long long* upper_goal);
// One path of cost `limit` to a goal: through root `root`, or to the upper-tree goal
// `upper_goal` when root < 0. Returns 0 and the moves, or 1 if there is none.
typedef int (*PjIdaPathFn)(const PjIdaRoots*, long long root, long long upper_goal, int limit, int* moves, int* n);
// One path of cost `limit` through root `root`, then the moves `via` from it to `node`
// (g, last: its cost and the move that reached it), then below `node`. Returns 0 and the
// moves, or 1 if there is none below `node`.
typedef int (*PjIdaPathViaFn)(const PjIdaRoots*, long long root, const int* via, int via_moves, const void* node,
                              int g, int last, int limit, int* moves, int* n);
typedef void (*PjIdaRootsFreeFn)(PjIdaRoots*);
// Expands one node within `limit` as IDA* counts it (one expanded, each child evaluated,
// a goal a solution, the smallest f above the limit into next_limit), adding to
// *counts; the children to search below (within the limit, not goals) are written to
// children / child_g / child_last (kMoves of room each), their number to *kept. The GPU
// skeletons split a large subtree with it.
typedef int (*PjIdaExpandFn)(const void* node, int g, int last, int limit, void* children, int* child_g,
                             int* child_last, int* kept, PjIdaCounts* counts);
// The moves from `from` (cost g, reached by `last`) to a node equal to `to` of cost
// to_g, through nodes within `limit` that are not goals: how a node handed from warp to
// warp on the GPU is reached. Returns 0 and the moves, or 1 if there is no such path.
typedef int (*PjIdaMovesToFn)(const void* from, int g, int last, const void* to, int to_g, int limit, int* moves,
                              int* n);
typedef const char* (*PjIdaMoveNameFn)(int);

// Pattern databases (templates/cpu_pdb.hpp): how many tables the module reads, the
// entries of table k, and its build from the goal permutation by a breadth-first search
// of the abstract space (costs counted on the pattern's own moves), a byte per entry.
#define PJ_PDB_OK 0
#define PJ_PDB_NOT_GOAL 1     // the goal permutation fails the spec's goal test
#define PJ_PDB_STATE 2        // after `move`, the state is not decided by the kept positions
#define PJ_PDB_FAR 3          // an abstract cost passes 254
#define PJ_PDB_SHARED_MOVE 4  // `move` exchanges a pattern value with an untracked one (additive groups)
#define PJ_PDB_NO_MEMORY 5
#define PJ_PDB_NOT_SYMMETRIC 6  // reflect: a sampled node's children, reflected, are not its reflection's
struct PjPdbBuildInfo {
  int move;                   // the move a failure is about, or -1
  unsigned long long reached; // abstract states reached from the goal's
  int max_cost;               // the largest entry reached
};
typedef int (*PjPdbCountFn)(void);
typedef unsigned long long (*PjPdbEntriesFn)(int k);
typedef int (*PjPdbBuildFn)(int k, const int* goal, unsigned char* table, int threads, PjPdbBuildInfo* info);
// reflect: along a random walk of `steps` moves from the goal, each node's children,
// reflected, are its reflection's children (same costs). PJ_PDB_OK or PJ_PDB_NOT_SYMMETRIC.
typedef int (*PjPdbCheckReflectionFn)(const int* goal, int steps, PjPdbBuildInfo* info);
}
