#include "runtime/offload_module.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>

#include "runtime/host_compiler.hpp"
#include "runtime/run_time_data.hpp"

namespace permjit {

OffloadModule::OffloadModule(const CompileUnit& host_unit, const ModuleCache& cache) {
  HostModule mod = compile_host_module(host_unit, cache);
  compiled_ = mod;
  handle_ = dlopen(mod.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error("cannot load the compiled module " + mod.path + ": " + dlerror());
  auto abi = reinterpret_cast<PjOffloadAbiFn>(dlsym(handle_, "pj_offload_abi"));
  search_ = reinterpret_cast<PjOffloadSearchFn>(dlsym(handle_, "pj_offload_search"));
  host_bounds_ = reinterpret_cast<PjOffloadHostBoundsFn>(dlsym(handle_, "pj_offload_host_bounds"));
  if (!abi || !search_ || !host_bounds_ || abi() != PJ_OFFLOAD_ABI) {
    dlclose(handle_);
    throw std::runtime_error("the compiled module " + mod.path + " does not match this permjit (offload ABI)");
  }
  fill_host_data(mod.data, handle_, mod.path);
}

OffloadModule::~OffloadModule() { dlclose(handle_); }

PjOffloadArgs OffloadOptions::per_thread() const {
  int t = std::max(1, threads);
  return PjOffloadArgs{ub.has_value(), ub.value_or(0), branch_on_device ? 1 : 0,
                       std::max<unsigned long long>(1, pool_max / t), pool_min / t,
                       std::max<unsigned long long>(1, batch / t), std::max(1, in_flight), t};
}

OffloadOutcome OffloadModule::search(const OffloadOptions& o, const PjOffloadDevice& device) const {
  PjOffloadArgs args = o.per_thread();
  OffloadOutcome out;
  out.device_rc = search_(&args, &device, &out.result, &out.stats);
  return out;
}

HostOffloadDevice::HostOffloadDevice(const OffloadModule& m, int slots)
    : fn_(m.host_bounds()), slots_(std::max(1, slots)), dev_{this, &attach, &submit, &finish} {}

int HostOffloadDevice::submit(void* ctx, int slot, const void* nodes, unsigned long long count,
                              const unsigned* offsets, unsigned long long children, int best) {
  auto* self = static_cast<HostOffloadDevice*>(ctx);
  auto& s = self->slots_.at(slot);
  s.bounds.assign(children, 0);
  self->fn_(offsets != nullptr, nodes, count, offsets, children, best, s.bounds.data());
  return 0;
}

int HostOffloadDevice::finish(void* ctx, int slot, int* bounds) {
  auto& s = static_cast<HostOffloadDevice*>(ctx)->slots_.at(slot);
  std::copy(s.bounds.begin(), s.bounds.end(), bounds);
  return 0;
}

}  // namespace permjit
