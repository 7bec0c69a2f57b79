// The options of `solve` that some skeletons take and others do not. A registry row
// (runtime/skeletons.cpp) lists the ones it takes; one loop checks a run's options
// against its row, before any compile (check_skeleton_options).
#pragma once
#include <string_view>

namespace permjit {

struct ProblemSpec;
struct Skeleton;
struct SolveOptions;

enum class SkeletonOption {
  time_limit, split_depth, all_solutions, roots,                   // the host searches
  improve, check_indices,                                           // cpu
  warm_start,                                                       // GPU, optimisation
  dcpu, block_size, max_chunk,                                      // GPU frontier and kernels
  dgpu, child_block_size, child_grids, pending_launches,            // cdp, rec
  offload, pool_max, pool_min, batch, in_flight,                    // offload
  balance, donate_after, ida_stack,                                 // ida, ida-thread
  explorers, trigger, ivm_rows, gpus, checkpoint, checkpoint_every, resume,  // ivm
  // Decision and enumeration (runtime/core/decision.hpp). `target` stands for stopping at a
  // solution: a row that takes it also searches goal = "find".
  target, list, all_optimal, list_buffer,
};

// An option a skeleton takes; for an option with named values, those it accepts
// ("static dynamic"; empty: all of them).
struct Takes {
  SkeletonOption option;
  std::string_view values = {};
};

// Every option given that `sk` does not take, that the spec's shape does not take, or
// whose value is out of range, is a user error located on the command line.
void check_skeleton_options(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec);

// The decision options (runtime/core/decision.hpp) against the spec's goal and the
// skeleton's row; located user errors, before any compile (decision_options.cpp).
void check_decision_options(const SolveOptions& opts, const ProblemSpec& spec, const Skeleton& sk);

}  // namespace permjit
