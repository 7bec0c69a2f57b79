// `permjit solve`: spec -> generated source -> compiled module -> search -> result.
#pragma once
#include <optional>
#include <string>

#include "dsl/load_spec.hpp"
#include "runtime/result.hpp"

namespace permjit {

struct SolveOptions {
  LoadOptions load;
  std::string backend = "auto";  // auto | cpu | gpu
  std::string skeleton;          // empty: the backend's default
  int threads = 0;               // 0: all hardware threads
  int split_depth = 0;           // 0: chosen from the thread count
  int dcpu = 0;                  // GPU: cutoff depth of the CPU search; 0: chosen from the device
  int block_size = 128;          // GPU: threads per block
  unsigned long long max_chunk = 0;  // GPU: most frontier nodes per launch; 0: what fits in memory
  std::string offload;            // offload skeleton: bound (default) | branch
  unsigned long long pool_max = 0, pool_min = 0, batch = 0;  // offload: 0 chooses
  int in_flight = 0;             // offload: batches on the device at once; 0 chooses
  std::optional<long long> ub;
  std::string cache_dir;         // empty: default_cache_dir()
};

// Throws UserErrors (spec, instance, options), CompileError, or std::runtime_error.
SolveResult solve(const SolveOptions& opts);

}  // namespace permjit
