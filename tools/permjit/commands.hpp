#pragma once
#include <string>

#include "dsl/load_spec.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/verify_bound.hpp"

namespace permjit {

struct EmitOptions {
  LoadOptions load;
  std::string stage = "source";  // spec | source | cpu | cuda | ptx | sass | resources
  std::string arch = "sm_90";
  std::string skeleton;          // for cuda/ptx/sass/resources: dfs (empty), ivm, cdp, rec or probe
  // For cuda/ptx/sass/resources: "main", the device unit every run compiles, or
  // "deferred", the one compiled only when a run first needs it (SkeletonUnits::deferred).
  std::string unit = "main";
  // The solve options that change the compiled code (runtime/option_table.hpp, changes_code).
  SolveOptions solve;
};

// Prints the stage to stdout; returns the process exit code.
int emit_command(const EmitOptions& opts);

struct CheckOptions {
  LoadOptions load;
  bool verify_bound = false;  // --verify-bound
  bool verify_symmetry = false;  // --verify-symmetry (runtime/verify_symmetry.hpp)
  VerifyBoundOptions verify;
};

// Checks the spec (and the instance), prints what it is; with --verify-bound also
// compares its bound with brute force (runtime/verify_bound.hpp). Returns the exit code.
int check_command(CheckOptions opts);

}  // namespace permjit
