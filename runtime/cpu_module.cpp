#include "runtime/cpu_module.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace permjit {

PjCpuResult run_cpu_module(const std::string& so_path, const CpuRunOptions& opts) {
  void* h = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error("cannot load the compiled module " + so_path + ": " + dlerror());
  auto abi = reinterpret_cast<PjCpuAbiFn>(dlsym(h, "pj_cpu_abi"));
  auto search = reinterpret_cast<PjCpuSearchFn>(dlsym(h, "pj_cpu_search"));
  if (!abi || !search || abi() != PJ_CPU_ABI) {
    dlclose(h);
    throw std::runtime_error("the compiled module " + so_path + " does not match this permjit (ABI)");
  }
  PjCpuArgs args{opts.threads, opts.split_depth, opts.ub.has_value(), opts.ub.value_or(0)};
  PjCpuResult r{};
  int rc = search(&args, &r);
  dlclose(h);
  if (rc != 0) throw std::runtime_error("the CPU search failed (code " + std::to_string(rc) + ")");
  return r;
}

}  // namespace permjit
