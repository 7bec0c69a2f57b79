#include "runtime/compile/offload_module.hpp"

#include <algorithm>
#include <stdexcept>

#include "runtime/compile/host_compiler.hpp"

namespace permjit {

OffloadModule::OffloadModule(const CompileUnit& host_unit, const ModuleCache& cache)
    : compiled_(compile_host_module(host_unit, cache)),
      lib_(compiled_, "offload", "pj_offload_abi", PJ_OFFLOAD_ABI),
      search_(lib_.entry<PjOffloadSearchFn>("pj_offload_search")),
      host_bounds_(lib_.entry<PjOffloadHostBoundsFn>("pj_offload_host_bounds")) {}

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

HostOffloadDevice::HostOffloadDevice(const OffloadModule& m, int slots, unsigned long long batches)
    : budget_(batches), fn_(m.host_bounds()), slots_(std::max(1, slots)), dev_{this, &attach, &submit, &finish, nullptr} {}

int HostOffloadDevice::submit(void* ctx, int slot, const void* nodes, unsigned long long count,
                              const unsigned* offsets, unsigned long long children, int best) {
  auto* self = static_cast<HostOffloadDevice*>(ctx);
  if (self->budget_ && self->sent_.fetch_add(1) >= self->budget_) return kStopped;
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
