#pragma once
#include <string>

#include "dsl/load_spec.hpp"

namespace permjit {

struct EmitOptions {
  LoadOptions load;
  std::string stage = "source";  // spec | source | cpu | ptx
  std::string arch = "sm_90";
};

// Prints the stage to stdout; returns the process exit code.
int emit_command(const EmitOptions& opts);

}  // namespace permjit
