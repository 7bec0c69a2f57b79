// NVRTC compile of a GPU translation unit for one architecture, through the module
// cache: the key names the unit, the options, NVRTC's version, the arch and permjit's
// version (and, for kernels that launch kernels, nvJitLink's version and the device
// runtime library's digest). A failed compile or link raises CompileError with the log
// (places are #line-mapped into the spec) and the saved source.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"

namespace permjit {

struct GpuModuleImage {
  std::string cubin;
  bool cache_hit = false;
  std::string log;  // NVRTC's messages, including ptxas's resource report when asked
  double nvrtc_s = 0;  // the cache lookup and, on a miss, NVRTC
  double link_s = 0;   // nvJitLink with the device runtime (a miss of a unit that links it)
};

// A unit with `device_runtime` is relocatable device code (its options hold
// -rdc=true), linked with libcudadevrt.a (runtime/compile/device_link.hpp): dynamic parallelism.
GpuModuleImage compile_gpu_module(const CompileUnit& unit, const std::string& arch, const ModuleCache& cache);
// The cache's image of the unit, as compile_gpu_module would return it on a hit; none
// when it would compile.
std::optional<GpuModuleImage> cached_gpu_module(const CompileUnit& unit, const std::string& arch,
                                                const ModuleCache& cache);

}  // namespace permjit
