#include "runtime/skeletons.hpp"

namespace permjit {

namespace {
const Skeleton kSkeletons[] = {
    {"cpu", "cpu", "multi-threaded depth-first search (IDA* for path problems) on the host; the oracle",
     run_cpu_skeleton, false, true, true, open_cpu_ida, true},
    {"dfs", "gpu", "BP-DFS: CPU search to d_cpu, one GPU thread per frontier node (seed 000)", run_gpu_dfs_skeleton},
    {"ivm", "gpu", "IVM explorers with work stealing on the GPU, factoradic intervals (seed 001)", run_gpu_ivm_skeleton},
    {"cdp", "gpu", "CDP-BP: GPU search d_cpu to d_gpu, final search in child grids launched from the device (seed 000)",
     run_gpu_cdp_skeleton, true},
    {"rec", "gpu", "REC-CDP: the cdp searches, both launched from the host (seed 000)", run_gpu_rec_skeleton, true},
    {"offload", "gpu", "CPU pool (hybrid best/depth-first), GPU bounds or branches+bounds one child per thread (seeds 002, 004)",
     run_gpu_offload_skeleton},
    {"ida", "gpu", "BPIDA*: IDA* with a warp per subtree and a shared-memory stack (seed 003)", run_gpu_ida_skeleton,
     false, false, true, open_gpu_ida},
    {"ida-thread", "gpu", "PStaticLB: IDA* with a thread per subtree, balanced between iterations (seed 003)",
     run_gpu_ida_thread_skeleton, false, false, true, open_gpu_ida_thread},
};
}  // namespace

std::span<const Skeleton> skeletons() { return kSkeletons; }

const Skeleton* find_skeleton(std::string_view name) {
  for (const auto& s : kSkeletons)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace permjit
