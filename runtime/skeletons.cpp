#include "runtime/skeletons.hpp"

#include <vector>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/cache_dir_option.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {
// The cpu row searches both shapes: placement problems by backtracking, path problems
// by IDA* (the two wings do not know of each other).
void run_cpu_row(SkeletonRun& run) {
  if (run.spec.goal == Goal::path)
    run_cpu_ida_skeleton(run);
  else
    run_cpu_skeleton(run);
}

const Skeleton kSkeletons[] = {
    {.id = SkeletonId::cpu,
     .name = "cpu",
     .backend = Backend::cpu,
     .summary = "multi-threaded depth-first search (IDA* for path problems) on the host; the oracle",
     .run = run_cpu_row,
     .units = cpu_units,
     .open_path = open_cpu_ida,
     .path = true,
     .two_ends = true,
     .over_mpi = true,
     .default_placement = true,
     .default_path = true},
    {.id = SkeletonId::dfs,
     .name = "dfs",
     .summary = "BP-DFS: CPU search to d_cpu, one GPU thread per frontier node (Carneiro Pessoa et al. 2018)",
     .run = run_dfs_skeleton,
     .units = dfs_units,
     .emit_default = true,
     .int32_only = true},
    {.id = SkeletonId::ivm,
     .name = "ivm",
     .summary = "IVM explorers with work stealing on the GPU, factoradic intervals (Carneiro Pessoa et al. 2016)",
     .run = run_ivm_skeleton,
     .units = ivm_units,
     .two_ends = true,
     .over_mpi = true,
     .default_placement = true,  // the fastest GPU skeleton measured (docs/performance.md)
     .int32_only = true,
     .outside_leaves = true},
    {.id = SkeletonId::cdp,
     .name = "cdp",
     .summary = "CDP-BP: GPU search d_cpu to d_gpu, final search in child grids launched from the device (Carneiro Pessoa et al. 2018)",
     .run = run_cdp_skeleton,
     .units = cdp_units,
     .int32_only = true},
    {.id = SkeletonId::rec,
     .name = "rec",
     .summary = "REC-CDP: the cdp searches, both launched from the host (Carneiro Pessoa et al. 2018)",
     .run = run_rec_skeleton,
     .units = rec_units,
     .int32_only = true},
    {.id = SkeletonId::offload,
     .name = "offload",
     .summary = "CPU pool (hybrid best/depth-first), GPU bounds or branches+bounds one child per thread (Chakroun et al. 2013; Melab et al. 2019)",
     .run = run_offload_skeleton,
     .units = offload_units,
     .bounds_only = true,
     .int32_only = true,
     .outside_leaves = true},
    {.id = SkeletonId::ida,
     .name = "ida",
     .summary = "BPIDA*: IDA* with a warp per subtree and a shared-memory stack (Horie and Fukunaga 2017)",
     .run = run_ida_skeleton,
     .units = ida_units,
     .open_path = open_gpu_ida,
     .placement = false,
     .path = true,
     .default_path = true,
     .emit_default = true},
    {.id = SkeletonId::ida_thread,
     .name = "ida-thread",
     .summary = "PStaticLB: IDA* with a thread per subtree, balanced between iterations (Horie and Fukunaga 2017)",
     .run = run_ida_thread_skeleton,
     .units = ida_units,
     .open_path = open_gpu_ida_thread,
     .placement = false,
     .path = true},
    {.id = SkeletonId::probe,
     .name = "probe",
     .summary = "emit only: a kernel that calls every function of the problem once, to read its device code",
     .units = probe_units,
     .two_ends = true},  // it dives from the root: no end to choose
};
}  // namespace

SkeletonUnits probe_units(const UnitInputs& in) { return {std::nullopt, device_unit(in, {"probe.cuh"}, {})}; }

std::optional<long long> SkeletonRun::start_bound() const {
  if (opts.ub) return opts.ub;
  if (warm) {
    const std::optional<WarmIncumbent>& found = warm->wait();
    if (found) return found->value;
  }
  return std::nullopt;
}

ModuleCache SkeletonRun::cache() const { return open_module_cache(opts.cache_dir); }

const char* backend_name(Backend b) { return b == Backend::cpu ? "cpu" : "gpu"; }

std::span<const Skeleton> skeletons() { return kSkeletons; }

const Skeleton* find_skeleton(std::string_view name) {
  for (const auto& s : kSkeletons)
    if (s.name == name) return &s;
  return nullptr;
}

const Skeleton& default_skeleton(Backend b, bool path) {
  for (const auto& s : kSkeletons)
    if (s.backend == b && (path ? s.default_path : s.default_placement)) return s;
  PJ_INTERNAL_ASSERT(false, std::string("no default skeleton for the ") + backend_name(b) + " backend");
  return kSkeletons[0];
}

const Skeleton* preferred_gpu_skeleton(const ProblemSpec& spec) {
  if (!spec.gpu_skeleton) return nullptr;
  const ProblemSpec::PreferredSkeleton& p = *spec.gpu_skeleton;
  const Skeleton* s = find_skeleton(p.name);
  auto refuse = [&](const std::string& why, const std::string& hint) {
    Diagnostics d;
    d.error(p.loc, why, hint);
    throw UserErrors(std::move(d));
  };
  const bool path = spec.goal == Goal::path;
  // A GPU row that searches the spec's shape and goal (two ends are judged below).
  auto fits = [&](const Skeleton& k) {
    return k.backend == Backend::gpu && k.run && k.searches(spec) && !(k.bounds_only && counts_leaves(spec.goal));
  };
  std::string fitting;
  for (const Skeleton& k : kSkeletons)
    if (fits(k)) fitting += (fitting.empty() ? "" : ", ") + std::string(k.name);
  const std::string hint = "GPU skeletons for this spec: " + fitting;
  if (!s || !s->run || s->backend != Backend::gpu)
    refuse("search.gpu_skeleton names '" + p.name + "', which is not a GPU skeleton of this build", hint);
  if (!s->searches(spec))
    refuse("search.gpu_skeleton names '" + p.name + "', which searches " + (path ? "placement" : "path") +
               " problems; '" + spec.name + "' is a " + (path ? "path" : goal_name(spec.goal)) + " problem",
           hint);
  if (!fits(*s))
    refuse("search.gpu_skeleton names '" + p.name + "', which bounds nodes; '" + spec.name + "' is a " +
               goal_name(spec.goal) + " problem, with no bound",
           hint);
  if (p.applies && !path && spec.branch.ends == 2 && !s->two_ends)
    refuse("search.gpu_skeleton names '" + p.name + "', which places values from the left only; this spec has "
               "branch.ends = 2 where `when` holds",
           "add a condition to `when` that excludes two ends, e.g. `" +
               (spec.branch.ends_param.empty() ? std::string("...") : spec.branch.ends_param) + " == 1`");
  return p.applies ? s : nullptr;
}

const Skeleton& emit_default_skeleton(bool path) {
  for (const auto& s : kSkeletons)
    if (s.emit_default && (path ? s.path : s.placement)) return s;
  PJ_INTERNAL_ASSERT(false, "no skeleton whose device code emit shows by default");
  return kSkeletons[0];
}

std::string skeleton_names(bool (*keep)(const Skeleton&)) {
  std::vector<std::string_view> names;
  for (const auto& s : kSkeletons)
    if (keep(s)) names.push_back(s.name);
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + std::string(names[i]);
  return list;
}

}  // namespace permjit
