#include "runtime/skeletons.hpp"

namespace permjit {

namespace {
const Skeleton kSkeletons[] = {
    {"cpu", "cpu", "multi-threaded depth-first search on the host; the oracle", run_cpu_skeleton},
    {"dfs", "gpu", "BP-DFS: CPU search to d_cpu, one GPU thread per frontier node (seed 000)", run_gpu_dfs_skeleton},
    {"offload", "gpu", "CPU pool (hybrid best/depth-first), GPU bounds or branches+bounds one child per thread (seeds 002, 004)",
     run_gpu_offload_skeleton},
};
}  // namespace

std::span<const Skeleton> skeletons() { return kSkeletons; }

const Skeleton* find_skeleton(std::string_view name) {
  for (const auto& s : kSkeletons)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace permjit
