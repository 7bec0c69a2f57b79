// The interface between `permjit check --verify-bound` and its compiled module
// (templates/cpu_verify_bound.hpp). Both sides include this file; bump PJ_VERIFY_ABI
// when a struct changes.
#pragma once

#define PJ_VERIFY_ABI 3

// The largest permutation (dsl/spec.hpp's kMaxSize; the runtime asserts they agree).
#ifndef PJ_MAX_SIZE
#define PJ_MAX_SIZE 128
#endif

extern "C" {

struct PjVerifyArgs {
  int below;               // levels searched exhaustively below each sampled node
  int samples;             // random nodes to sample
  unsigned long long seed;
};

struct PjVerifyResult {
  int sample_depth;             // values placed in a sampled node
  int whole_tree;               // 1: the tree is no deeper than `below`: every node was checked
  unsigned long long sampled;   // nodes sampled (walks that reached sample_depth)
  unsigned long long checked;   // nodes whose bound was compared with their best completion
  int bad;                      // 1: a node whose bound is not a valid bound
  int depth;                    // that node's values placed
  int placed[PJ_MAX_SIZE];      // its value at each position, -1 where none is placed yet
  long long bound, best;        // its bound, and the best objective of a leaf below it
  int stage;                    // 1: bound() passes `best`; 2: bound() does not, its refinement does
  int size;
};

typedef int (*PjVerifyBoundFn)(const PjVerifyArgs*, PjVerifyResult*);
typedef int (*PjVerifyAbiFn)(void);
}
