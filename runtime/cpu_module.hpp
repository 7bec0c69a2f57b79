// Loads a compiled CPU search module and runs it.
#pragma once
#include <optional>
#include <string>

#include "templates/cpu_abi.h"

namespace permjit {

struct CpuRunOptions {
  int threads = 1;
  int split_depth = 0;  // 0: the module chooses
  std::optional<long long> ub;
};

PjCpuResult run_cpu_module(const std::string& so_path, const CpuRunOptions& opts);

}  // namespace permjit
