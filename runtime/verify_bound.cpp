#include "runtime/verify_bound.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include "dsl/diagnostics.hpp"
#include "generator/generate.hpp"
#include "runtime/cache.hpp"
#include "runtime/cache_dir_option.hpp"
#include "runtime/compile_unit.hpp"
#include "runtime/host_compiler.hpp"
#include "runtime/run_time_data.hpp"
#include "templates/verify_abi.h"

namespace permjit {

namespace {
// The module's one entry point, with its ABI checked; closed with the object.
class VerifyModule {
 public:
  // `data`: the source's run-time arrays (dsl/run_time_data.hpp), written before the run.
  VerifyModule(const std::string& path, const std::vector<RunTimeArray>& data)
      : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) throw std::runtime_error("cannot load the compiled module " + path + ": " + dlerror());
    auto abi = reinterpret_cast<PjVerifyAbiFn>(dlsym(handle_, "pj_verify_abi"));
    run_ = reinterpret_cast<PjVerifyBoundFn>(dlsym(handle_, "pj_verify_bound"));
    if (!abi || !run_ || abi() != PJ_VERIFY_ABI) {
      dlclose(handle_);
      throw std::runtime_error("the compiled module " + path + " does not match this permjit (ABI)");
    }
    try {
      fill_host_data(data, handle_, path);
    } catch (...) {
      dlclose(handle_);
      throw;
    }
  }
  ~VerifyModule() { dlclose(handle_); }
  VerifyModule(const VerifyModule&) = delete;
  VerifyModule& operator=(const VerifyModule&) = delete;
  PjVerifyBoundFn run() const { return run_; }

 private:
  void* handle_;
  PjVerifyBoundFn run_ = nullptr;
};
}  // namespace

BoundReport verify_bound(const ProblemSpec& spec, const VerifyBoundOptions& opts) {
  PJ_INTERNAL_ASSERT(spec.goal == Goal::minimize || spec.goal == Goal::maximize, "verify_bound needs a bound");
  PJ_INTERNAL_ASSERT(spec.size > 0, "verify_bound needs the size");
  const ProblemSource source = generate_problem(spec);
  const std::string unit = assemble_unit(source, {"verify_abi.h", "host_rng.h", "cpu_verify_bound.hpp"});
  const HostModule mod = compile_host_module(unit, open_module_cache(opts.cache_dir));
  VerifyModule module(mod.path, source.data);
  const PjVerifyArgs args{opts.below, opts.samples, opts.seed};
  PjVerifyResult out{};
  PJ_INTERNAL_ASSERT(module.run()(&args, &out) == 0, "the bound check refused an optimisation spec");
  BoundReport r;
  r.sample_depth = out.sample_depth;
  r.whole_tree = out.whole_tree != 0;
  r.sampled = out.sampled;
  r.checked = out.checked;
  r.bad = out.bad != 0;
  if (r.bad) {
    r.depth = out.depth;
    r.placed.assign(out.placed, out.placed + out.size);
    r.bound = out.bound;
    r.best = out.best;
    r.stage = out.stage;
  }
  return r;
}

namespace {
std::string checked_where(const BoundReport& r) {
  if (r.whole_tree) return "every node of the tree";
  return std::to_string(r.sampled) + " sampled nodes at depth " + std::to_string(r.sample_depth) +
         " and every node below them";
}
}  // namespace

std::string format_bound_report(const BoundReport& r) {
  return "bound: valid at " + std::to_string(r.checked) + " nodes (" + checked_where(r) + ")\n";
}

void invalid_bound_error(const ProblemSpec& spec, const BoundReport& r) {
  std::string placed;
  for (int v : r.placed) placed += (placed.empty() ? "" : " ") + (v < 0 ? std::string("_") : std::to_string(v));
  const bool min = spec.goal == Goal::minimize;
  Diagnostics d;
  const bool refined = r.stage == 2;
  d.error(refined ? spec.branch.refine->loc : spec.branch.bound->loc,
          std::string(refined ? "not a valid refinement of the bound" : "not a valid bound") + ": at the node [" +
              placed + "] (" + std::to_string(r.depth) + " values placed, _ free) it is " + std::to_string(r.bound) +
              (refined ? std::string(" (the ") + (min ? "larger" : "smaller") + " of bound and refine)" : "") +
              ", but the " +
              (min ? "smallest" : "largest") + " objective of a leaf below that node is " + std::to_string(r.best),
          std::string("a search prunes a node whose bound is ") + (min ? "at or above" : "at or below") +
              " the incumbent, so it would miss that leaf; the bound must never " +
              (min ? "exceed" : "fall below") + " the objective of a leaf below its node");
  throw UserErrors(std::move(d));
}

}  // namespace permjit
