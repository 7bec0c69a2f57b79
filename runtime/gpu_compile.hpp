// NVRTC compile of a GPU translation unit for one architecture, through the module
// cache: the key names the unit, the options, NVRTC's version, the arch and permjit's
// version (and, for kernels that launch kernels, nvJitLink's version and the device
// runtime library's digest). A failed compile or link raises CompileError with the log
// (places are #line-mapped into the spec) and the saved source.
#pragma once
#include <string>
#include <vector>

#include "runtime/cache.hpp"

namespace permjit {

struct GpuModuleImage {
  std::string cubin;
  bool cache_hit = false;
  std::string log;  // NVRTC's messages, including ptxas's resource report when asked
};

// With `device_runtime`, the unit is compiled as relocatable device code (-rdc=true)
// and linked with libcudadevrt.a (runtime/device_link.hpp): dynamic parallelism.
GpuModuleImage compile_gpu_module(const std::string& unit, const std::string& name, const std::string& arch,
                                  const std::vector<std::string>& defines, const ModuleCache& cache,
                                  bool device_runtime = false);

}  // namespace permjit
