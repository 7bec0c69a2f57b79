#include "runtime/solve.hpp"

#include <chrono>
#include <climits>

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "dsl/run_time_data.hpp"
#include "generator/choose_data.hpp"
#include "generator/generate.hpp"
#include "runtime/core/problem_order.hpp"
#include "runtime/core/solution_list.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/option_table.hpp"
#include "runtime/skeletons.hpp"

namespace permjit {

namespace {

// Picks the skeleton from --backend and --skeleton; says why in `reason`. Without
// --skeleton the backend's default row for the spec's shape is taken (fit_shape).
const Skeleton& choose_skeleton(const SolveOptions& opts, std::string& reason) {
  const std::string shown = "--backend " + opts.backend + " --skeleton " + opts.skeleton;
  if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "gpu")
    command_line_error(shown, 11, "unknown backend '" + opts.backend + "'", "backend is auto, cpu or gpu");
  if (!opts.skeleton.empty()) {
    const Skeleton* s = find_skeleton(opts.skeleton);
    if (!s || !s->run)
      command_line_error(shown, static_cast<int>(opts.backend.size()) + 23,
                   "skeleton '" + opts.skeleton + "' is not available in this build",
                   "available: " + skeleton_names([](const Skeleton& k) { return k.run != nullptr; }));
    if (opts.backend != "auto" && backend_name(s->backend) != opts.backend)
      command_line_error(shown, 11,
                   "skeleton '" + opts.skeleton + "' runs on the " + backend_name(s->backend) + " backend, not " +
                       opts.backend);
    reason = "chosen with --skeleton";
    return *s;
  }
  if (opts.backend == "cpu") {
    reason = "chosen with --backend";
    return default_skeleton(Backend::cpu, false);
  }
  std::string why;
  cuda::Device dev;
  bool gpu = cuda::first_device(dev, &why);
  if (opts.backend == "gpu" && !gpu) command_line_error(shown, 11, "no GPU to run on: " + why, "use --backend cpu (or auto)");
  if (!gpu) {
    reason = "auto: " + why;
    return default_skeleton(Backend::cpu, false);
  }
  reason = opts.backend == "gpu" ? "chosen with --backend" : "auto: found " + dev.name;
  return default_skeleton(Backend::gpu, false);
}

// The skeleton for the spec's shape: without --skeleton, the backend's default for the
// shape; a skeleton named on the command line for the other shape is an error.
const Skeleton& fit_shape(const Skeleton& sk, const ProblemSpec& spec, const SolveOptions& opts) {
  const bool path = spec.goal == Goal::path;
  if (sk.searches(spec)) return sk;
  if (opts.skeleton.empty()) return default_skeleton(sk.backend, path);
  command_line_error("--skeleton " + std::string(sk.name), 12,
               "skeleton '" + std::string(sk.name) + "' searches " + (path ? "placement" : "path") + " problems; '" +
                   spec.name + "' is a " + (path ? "path" : goal_name(spec.goal)) + " problem",
               "skeletons for it: " + (path ? skeleton_names([](const Skeleton& k) { return k.path && k.run; })
                                            : skeleton_names([](const Skeleton& k) { return k.placement && k.run; })));
}

// A spec with branch.ends = 2 runs on the skeletons that place values at both ends; the
// automatic choice falls back to the CPU's default and says so.
const Skeleton& fit_ends(const Skeleton& sk, const ProblemSpec& spec, const SolveOptions& opts, std::string& reason) {
  if (spec.goal == Goal::path || spec.branch.ends == 1 || sk.two_ends) return sk;
  const std::string fits = skeleton_names([](const Skeleton& k) { return k.two_ends && k.run; });
  if (opts.skeleton.empty() && opts.backend == "auto") {
    reason = "auto: branch.ends = 2 runs on " + fits;
    return default_skeleton(Backend::cpu, false);
  }
  Diagnostics d;
  d.error(spec.branch.ends_loc,
          "branch.ends = 2 places values at both ends; skeleton '" + std::string(sk.name) +
              "' places them from the left only",
          spec.branch.ends_param.empty()
              ? "skeletons for two ends: " + fits + " (or set the spec's parameters for one end)"
              : "add --param " + spec.branch.ends_param + "=1 for one end, or use a skeleton for two ends: " + fits);
  throw UserErrors(std::move(d));
}

// --ub: for problems with an objective, within what the skeleton's incumbent holds.
void check_ub(const SolveOptions& opts, const ProblemSpec& spec, const Skeleton& sk) {
  if (!opts.ub) return;
  const std::string shown = "--ub " + std::to_string(*opts.ub);
  if (spec.goal == Goal::path)
    command_line_error(shown, 1, "--ub applies to placement problems; '" + spec.name + "' is a path problem");
  if (counts_leaves(spec.goal))
    command_line_error(shown, 1, "--ub applies to minimize and maximize problems; '" + spec.name + "' is a " +
                                     goal_name(spec.goal) + " problem");
  if (sk.int32_only && (*opts.ub < INT_MIN || *opts.ub > INT_MAX))
    command_line_error(shown, 6,
                 "--ub " + std::to_string(*opts.ub) + " does not fit the 32-bit incumbent of skeleton '" +
                     std::string(sk.name) + "'",
                 "the cpu skeleton keeps a 64-bit incumbent");
}

// A spec whose ints may pass 32 bits is generated with 64-bit ints, which the GPU
// skeletons do not compute: refused at the place that may overflow.
void check_int_width(const ProblemSource& source, const Skeleton& sk) {
  if (!sk.int32_only || !source.width.wide) return;
  Diagnostics d;
  d.error(source.width.why,
          "this value may reach " + std::to_string(source.width.reach) +
              ", past 32 bits: permjit computes the spec's ints in 64 bits, and skeleton '" + std::string(sk.name) +
              "' computes in 32",
          "solve with --skeleton cpu (docs/reliability.md)");
  throw UserErrors(std::move(d));
}

// The units a skeleton compiles for this run; emit shows the same (emit_units).
SkeletonUnits units_for(const Skeleton& sk, const ProblemSpec& spec, const ProblemSource& source,
                        const SolveOptions& opts) {
  PJ_INTERNAL_ASSERT(sk.units, "skeleton '" + std::string(sk.name) + "' has no units");
  return sk.units(UnitInputs{sk.name, spec, source, opts});
}

// Counts that start at 1; 0, as when the option is left out, lets permjit choose. A
// negative count was taken as "choose" without a word.
void check_counts(const SolveOptions& opts) {
  if (opts.threads < 0)
    command_line_error("--threads " + std::to_string(opts.threads), 11,
                       "--threads takes a number of threads from 1 (leave it out for one per hardware thread)");
  if (opts.split_depth < 0)
    command_line_error("--split-depth " + std::to_string(opts.split_depth), 15,
                       "--split-depth takes a number of levels from 1 (leave it out to let the search choose)");
}

}  // namespace

void require_runnable(const Skeleton& sk, const SolveOptions& opts) {
  if (!sk.over_mpi && !opts.one_process && launched_as_mpi_ranks())
    command_line_error("--skeleton " + std::string(sk.name), 12,
                       "the " + std::string(sk.name) + " skeleton runs in one process: under mpirun every rank would search alone",
                       "use --skeleton ivm (or cpu) over MPI ranks, or run it without mpirun");
  if (sk.backend != Backend::gpu) return;
  std::string why;
  cuda::Device dev;
  if (!cuda::first_device(dev, &why))
    command_line_error("--skeleton " + std::string(sk.name), 12, "skeleton '" + std::string(sk.name) + "' needs a GPU: " + why,
                 opts.skeleton.empty() ? "use --backend cpu" : "use --skeleton cpu");
}

PreparedSolve prepare_solve(const SolveOptions& opts) {
  using clock = std::chrono::steady_clock;
  PreparedSolve p{clock::now(), {}, nullptr, {}, {}, {}};
  SolveResult& r = p.header;
  check_counts(opts);
  const Skeleton* chosen = &choose_skeleton(opts, r.backend_reason);  // may initialise the driver
  auto t0 = clock::now();
  p.spec = load_spec(opts.load);
  // The spec's preferred GPU skeleton replaces the GPU's default, never a --skeleton or
  // the CPU: judged before the choice, so that a wrong name fails on every machine.
  // Under mpirun a preference that searches in one process yields to the default, which
  // shares the search among the ranks (a --skeleton of one process is refused there).
  if (const Skeleton* preferred = preferred_gpu_skeleton(p.spec);
      preferred && opts.skeleton.empty() && chosen->backend == Backend::gpu) {
    const std::string name(preferred->name);
    if (preferred->over_mpi || opts.one_process || !launched_as_mpi_ranks()) {
      chosen = preferred;
      r.backend_reason += "; " + name + ": the spec's search.gpu_skeleton";
    } else {
      r.backend_reason += "; not the spec's search.gpu_skeleton, " + name + ", which runs in one process";
    }
  }
  const DataChoice data =
      settle_data(p.spec, chosen->backend == Backend::gpu ? DataTarget::device : DataTarget::host);
  const ProblemSpec& spec = p.spec;
  const Skeleton& sk = fit_ends(fit_shape(*chosen, spec, opts), spec, opts, r.backend_reason);
  p.skeleton = &sk;
  check_skeleton_options(opts, sk, spec);
  check_ub(opts, spec, sk);
  check_decision_options(opts, spec, sk);
  p.source = generate_problem(spec);
  check_int_width(p.source, sk);
  p.units = units_for(sk, spec, p.source, opts);
  auto t1 = clock::now();

  r.problem = spec.name;
  if (!instance_arrays(spec).empty()) {
    r.data_mode = data.compiled ? "compiled" : "run-time";
    r.data_reason = describe(data);
  }
  r.spec_path = opts.load.spec_path;
  r.instance_path = spec.instance_path;
  for (const auto& q : spec.params) r.params.push_back({q.name, q.value});
  r.goal = spec.goal;
  r.size = spec.size;
  r.backend = backend_name(sk.backend);
  r.skeleton = std::string(sk.name);
  r.all_solutions = opts.all_solutions;
  r.has_ub = opts.ub.has_value();
  r.ub = opts.ub.value_or(0);
  r.target = opts.target;
  r.all_optimal = opts.all_optimal;
  r.t_generate = std::chrono::duration<double>(t1 - t0).count();
  return p;
}

SkeletonUnits emit_units(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec,
                         const ProblemSource& source) {
  std::string reason;
  const Skeleton& fitted = fit_ends(fit_shape(sk, spec, opts), spec, opts, reason);
  check_skeleton_options(opts, fitted, spec);
  check_int_width(source, fitted);
  return units_for(fitted, spec, source, opts);
}

namespace {

// --all-optimal's second search, after the first found the optimum: the incumbent stays
// one past it, so every leaf the search meets is optimal and listed. Its nodes and
// times are added to the first's.
void list_all_optimal(const PreparedSolve& p, const SolveOptions& opts, SolutionList& list, SolveResult& r) {
  if (!r.found || r.stopped) return;  // nothing optimal known to list
  SolveOptions again = opts;
  again.ub = r.goal == Goal::minimize ? r.objective + 1 : r.objective - 1;
  SolveResult second = p.header;
  SkeletonRun run{p.spec, p.source, p.units, again, second, nullptr,
                  Decision{solution_limit(opts, p.spec.goal), true, &list}};
  p.skeleton->run(run);
  r.expanded += second.expanded;
  r.evaluated += second.evaluated;
  r.t_compile += second.t_compile;
  r.t_search += second.t_search;
  r.stopped = second.stopped;
  r.reached_limit = second.reached_limit;
  r.find_to_exit = second.find_to_exit;
}

}  // namespace

SolveResult solve(const SolveOptions& given) {
  PreparedSolve p = prepare_solve(given);
  require_runnable(*p.skeleton, given);
  SolveResult r = p.header;
  // --target is an incumbent one past it (runtime/core/decision.hpp).
  SolveOptions opts = given;
  opts.ub = start_incumbent(given, p.spec.goal);
  // Opened once every user error is known: a wrong option leaves no file behind.
  std::optional<SolutionList> list;
  if ((opts.list || opts.all_optimal) && opts.list_sink)
    list.emplace(opts.list_sink, opts.list.value_or(0), optimises(p.spec.goal));
  else if (opts.list || opts.all_optimal)
    list.emplace(opts.list_out, opts.list_format == "json" ? ListFormat::json : ListFormat::lines,
                 opts.list.value_or(0), optimises(p.spec.goal));
  // Under a declared symmetry each found solution stands for its images: listed with it;
  // under a declared order of the positions it is listed in the problem's order.
  if (list) list->set_expansion(listed_expansion(p.spec));
  // --all-optimal: a plain search first, for the optimum (list_all_optimal lists).
  Decision decision;
  if (!opts.all_optimal)
    decision = Decision{solution_limit(opts, p.spec.goal), false, list ? &*list : nullptr, opts.list_buffer};
  // Started before the skeleton compiles its module: the two run at once.
  std::optional<WarmStart> warm;
  if (WarmStart::wanted(opts, p.spec, p.skeleton->backend == Backend::gpu))
    // Local search beside the search where the skeleton takes its leaves, no checkpoint
    // is written (it keeps only the leaves the search recorded), and one process
    // searches (under mpirun every rank runs a warm start, and only rank 0's counts).
    warm.emplace(opts, p.spec,
                 p.skeleton->outside_leaves && opts.checkpoint.empty() && !launched_as_mpi_ranks());
  SkeletonRun run{p.spec, p.source, p.units, opts, r, warm ? &*warm : nullptr, decision};
  p.skeleton->run(run);
  if (warm) {
    const std::optional<WarmIncumbent>& found = warm->wait();
    warm->finish();
    r.warm_start = SolveResult::WarmStartReport{found ? std::optional<long long>(found->value) : std::nullopt,
                                                warm->seconds(), warm->complete(), warm->failure(),
                                                warm->improve(), warm->waited(), warm->beside()};
    // The search found nothing better: the warm start's solution is the optimum, or the
    // best found when the search stopped (a time limit, a signal) before it finished.
    // The local search beside the search may have found a better leaf after the search
    // last took one: the better of the two is the answer.
    const std::optional<WarmIncumbent> outside = r.found ? warm->better_than(r.objective) : warm->best_known();
    if (outside) {
      r.found = true;
      r.objective = outside->value;
      r.permutation = outside->permutation;
    }
  }
  // Every skeleton and the warm start report in the search's order of the positions.
  if (r.found) r.permutation = in_problem_order(p.spec, r.permutation);
  if (opts.all_optimal) list_all_optimal(p, opts, *list, r);
  if (list) {
    list->finish();
    r.listed = list->taken();
    // The search counted each listed member of an orbit once per recorded leaf; the
    // list holds the orbits: its length is the count (as without a symmetry).
    if (p.spec.has_symmetry() && r.goal == Goal::count) r.solutions = *r.listed;
    if (list->truncated()) r.reached_limit = true;
    r.listed_to = list->destination();
  }
  r.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.start).count();
  return r;
}

}  // namespace permjit
