#pragma once
#include <string>

#include "dsl/load_spec.hpp"

namespace permjit {

struct EmitOptions {
  LoadOptions load;
  std::string stage = "source";  // spec | source | cpu | cuda | ptx | sass | resources
  std::string arch = "sm_90";
  std::string skeleton;          // for cuda/ptx/sass/resources: dfs (empty), ivm, cdp, rec or probe
};

// Prints the stage to stdout; returns the process exit code.
int emit_command(const EmitOptions& opts);

}  // namespace permjit
