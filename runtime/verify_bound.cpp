#include "runtime/verify_bound.hpp"

#include <stdexcept>

#include "dsl/diagnostics.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/cache_dir_option.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/host_library.hpp"
#include "templates/verify_abi.h"

namespace permjit {

BoundReport verify_bound(const ProblemSpec& spec, const VerifyBoundOptions& opts) {
  PJ_INTERNAL_ASSERT(spec.goal == Goal::minimize || spec.goal == Goal::maximize, "verify_bound needs a bound");
  PJ_INTERNAL_ASSERT(spec.size > 0, "verify_bound needs the size");
  const ProblemSource source = generate_problem(spec);
  const std::string unit = assemble_unit(source, {"verify_abi.h", "host_rng.h", "cpu_verify_bound.hpp"});
  HostModule mod = compile_host_module(unit, open_module_cache(opts.cache_dir));
  mod.data = source.data;  // the source's run-time arrays, written before the run
  const HostLibrary module(mod, "", "pj_verify_abi", PJ_VERIFY_ABI);
  const auto bound_check = module.entry<PjVerifyBoundFn>("pj_verify_bound");
  const PjVerifyArgs args{opts.below, opts.samples, opts.seed};
  PjVerifyResult out{};
  PJ_INTERNAL_ASSERT(bound_check(&args, &out) == 0, "the bound check refused an optimisation spec");
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
