#include "runtime/ivm/ivm_open_bound.hpp"

#include <climits>

#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/run_time_data.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

namespace {
// The kernel's view of the explorers (pj_ivm::layout::Explorers), as ivm_device.cpp
// passes it.
struct ExplorersArg {
  CUdeviceptr I, V, M, last, ends;
  unsigned long long T;
};
}  // namespace

PjCpuResult ivm_open_work(const std::string& cubin, const std::vector<RunTimeArray>& data, const IvmShape& shape,
                          const std::vector<std::string>& images, int best, bool optimise, bool maximise) {
  // A module of its own: the workers' are gone with their threads, and loading one is a
  // fraction of a second against the seconds a stopped search ran.
  cuda::Module module(cubin);
  upload_data(data, module);
  CUfunction k = module.function("pj_ivm_open_bound");
  ExplorerArrays arrays(shape.T, shape.levels, shape.mask_bytes);
  cuda::Buffer out(sizeof(PjIvmOpen));
  PjCpuResult r{};
  bool any_key = false;
  long long key = LLONG_MAX;
  // With no image (nothing open) one launch over no explorer still gives the root's bound.
  const size_t launches = images.empty() ? 1 : images.size();
  for (size_t n = 0; n < launches; ++n) {
    ExplorersArg e{arrays.I.ptr(), arrays.V.ptr(), arrays.M.ptr(), arrays.last.ptr(), arrays.ends.ptr(), shape.T};
    if (images.empty()) e.T = 0;
    else arrays.upload(images[n]);
    PjIvmOpen zero{0, LLONG_MAX, 0};
    out.upload(&zero, sizeof zero);
    CUdeviceptr out_p = out.ptr();
    void* args[] = {&e, &best, &out_p};
    const unsigned long long threads = e.T ? e.T : 1;
    const unsigned grid = static_cast<unsigned>((threads + shape.block - 1) / shape.block);
    cuda::check(cuda::api().LaunchKernel(k, grid, 1, 1, shape.block, 1, 1, 0, nullptr, args, nullptr),
                "launching ivm kernel pj_ivm_open_bound");
    PjIvmOpen got{};
    out.download(&got, sizeof got);  // synchronises: a fault surfaces here
    r.open_subtrees += got.subtrees;
    r.root_bound = got.root_bound;
    if (got.subtrees && got.key < key) key = got.key, any_key = true;
  }
  r.open_bound_known = optimise && any_key ? 1 : 0;
  r.open_bound = r.open_bound_known ? (maximise ? -key : key) : 0;
  return r;
}

}  // namespace permjit
