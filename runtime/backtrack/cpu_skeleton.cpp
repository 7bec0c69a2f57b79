// Host side of the `cpu` skeleton: compile prelude + problem + templates/cpu_dfs.hpp
// (templates/cpu_ida.hpp for a path problem) into a shared object (cached), load it,
// search.
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "dsl/diagnostics.hpp"

#include "runtime/backtrack/backtrack_skeletons.hpp"
#include "runtime/backtrack/cpu_mpi.hpp"
#include "runtime/core/partial_bound.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/cpu_module.hpp"
#include "runtime/compile/gpu_host.hpp"  // host_threads
#include "runtime/compile/host_compiler.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/distributed/range_run.hpp"

namespace permjit {

SkeletonUnits cpu_units(const UnitInputs& in) {
  const bool path = in.spec.goal == Goal::path;
  CompileUnit unit = host_unit(in, path ? cpu_ida_templates() : cpu_search_templates());
  // --check-indices: the checked build of templates/prelude.h's PJ_INDEX. A define in
  // the text rather than a compiler flag: the text is the cache key, and emit shows it.
  if (in.opts.check_indices) unit.text = "#define PJ_CHECK_INDICES 1\n" + unit.text;
  return {std::move(unit), std::nullopt};
}

namespace {

// --check-indices: the first clamped index read that counted, as a user error at its
// place in the spec. The answer of such a search is not the spec's: none is printed.
void report_index_fault(const CpuModule& module, const SkeletonRun& run) {
  const std::optional<CpuModule::IndexFault> f = module.index_fault();
  if (!f) return;
  PJ_INTERNAL_ASSERT(f->site >= 0 && static_cast<size_t>(f->site) < run.source.index_sites.size(),
                     "an index site the generator did not number");
  const IndexSite& site = run.source.index_sites[f->site];
  Diagnostics d;
  d.error(site.loc,
          "index " + std::to_string(f->value) + " is outside '" + site.array + "', whose indices are 0.." +
              std::to_string(site.dim - 1) + " (found by --check-indices at a node of the search)",
          "the value read there counted: without --check-indices the index is clamped and the answer is wrong");
  throw UserErrors(std::move(d));
}

// Local search from the leaf `leaf` for `seconds` on `threads` threads: `leaf` becomes the
// best leaf found (itself when nothing is better); the report says where it started.
SolveResult::ImproveReport improve_leaf(const CpuModule& module, double seconds, int threads, WarmIncumbent& leaf) {
  ImproveOptions io;
  io.threads = threads;
  io.seconds = seconds;
  PjImproveResult m = module.improve(leaf.permutation, leaf.value, io);
  SolveResult::ImproveReport report{leaf.value, m.seconds, m.iterations, m.evaluations, m.optimal != 0};
  if (m.found) {
    leaf.value = m.best;
    leaf.permutation.assign(m.perm, m.perm + m.size);
  }
  return report;
}

// Local search from the greedy leaf, for a search that met no leaf: `leaf` becomes the
// best found; false (and no report) where the greedy dive met a dead end.
std::optional<SolveResult::ImproveReport> improve_greedy(const CpuModule& module, double seconds, int threads,
                                                         WarmIncumbent& leaf) {
  ImproveOptions io;
  io.threads = threads;
  io.seconds = seconds;
  const std::optional<PjImproveResult> m = module.improve_greedy(io);
  if (!m) return std::nullopt;
  leaf.value = m->best;
  leaf.permutation.assign(m->perm, m->perm + m->size);
  return SolveResult::ImproveReport{m->start, m->seconds, m->iterations, m->evaluations, m->optimal != 0, true};
}

// --improve: the result's best leaf improved; where the search met none (and no --ub
// stands for one), the greedy leaf's.
void improve_best_leaf(const CpuModule& module, double seconds, int threads, std::optional<long long> ub,
                       SolveResult& r) {
  if (r.found) {
    WarmIncumbent leaf{r.objective, r.permutation};
    r.improve = improve_leaf(module, seconds, threads, leaf);
    r.objective = leaf.value;
    r.permutation = std::move(leaf.permutation);
  } else if (!ub) {
    WarmIncumbent leaf;
    r.improve = improve_greedy(module, seconds, threads, leaf);
    if (!r.improve) return;
    r.found = true;
    r.objective = leaf.value;
    r.permutation = std::move(leaf.permutation);
  }
}

// The cpu skeleton's warm start, the GPU skeletons' (runtime/core/warm_start.hpp) in one
// process: for a search from scratch of a problem that minimises or maximises, and no
// other stopping rule (--improve needs --time-limit, so it is excluded too).
bool wants_warm_start(const SkeletonRun& run) {
  const SolveOptions& o = run.opts;
  const bool optimise = run.spec.goal == Goal::minimize || run.spec.goal == Goal::maximize;
  return optimise && !o.ub && o.time_limit <= 0 && run.decision.solution_limit == 0 &&
         !run.decision.fixed_incumbent && !run.decision.list && o.warm_start_seconds() > 0;
}

// Searches for `seconds`; a search that finishes is the answer (returned). Otherwise its
// best leaf, improved by local search for as long again, becomes `warm` (the incumbent
// the search starts over from), and r.warm_start reports both. The first search's nodes
// are not counted, as a GPU skeleton does not count its warm start's.
std::optional<PjCpuResult> warm_start(const CpuModule& module, const CpuRunOptions& o, double seconds,
                                      std::optional<WarmIncumbent>& warm, SolveResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  CpuRunOptions first = o;
  first.time_limit_s = seconds;
  PjCpuResult head = module.search(first);
  if (head.stopped == 0) return head;
  SolveResult::WarmStartReport report;
  // Not after SIGINT/SIGTERM stopped the first search: the user asked the run to end.
  if (head.found) {
    WarmIncumbent w{head.best, std::vector<int>(head.perm, head.perm + head.size)};
    if (!StopSignals::requested()) report.improve = improve_leaf(module, seconds, o.threads, w);
    report.objective = w.value;
    warm = std::move(w);
  } else if (!StopSignals::requested()) {
    // No leaf in its seconds (a heavy bound on many threads): the greedy leaf, improved.
    WarmIncumbent w;
    report.improve = improve_greedy(module, seconds, o.threads, w);
    if (report.improve) {
      report.objective = w.value;
      warm = std::move(w);
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.warm_start = report;
  return std::nullopt;
}
}  // namespace

void run_cpu_skeleton(SkeletonRun& run) {
  // Several processes, or one checkpoint: the frontier is searched range by range
  // (runtime/distributed/range_run.hpp). A plain run takes the path below, unchanged.
  if (launched_as_mpi_ranks() && !run.opts.one_process) {
    if (run.opts.improve)
      command_line_error(fmt::format("--improve {}", *run.opts.improve), 1,
                         "--improve runs in one process: the MPI ranks of a search do not combine with it");
    run_cpu_mpi(run);
    return;
  }
  if (!run.opts.checkpoint.empty() || !run.opts.resume.empty()) {
    run_cpu_ranges(run);  // --check-indices is refused with checkpoints (the ranges load their own module)
    return;
  }
  using clock = std::chrono::steady_clock;
  SolveResult& r = run.result;
  auto t0 = clock::now();
  HostModule mod = compile_host_module(*run.units.host, run.cache());
  auto t1 = clock::now();

  CpuRunOptions o;
  o.threads = host_threads(run.opts);
  o.split_depth = run.opts.split_depth;
  o.ub = run.opts.ub;
  o.time_limit_s = run.opts.time_limit;
  o.solution_limit = run.decision.solution_limit;
  o.fixed_incumbent = run.decision.fixed_incumbent;
  o.list = run.decision.list;
  CpuModule module(mod);
  auto t_search = clock::now();
  std::optional<WarmIncumbent> warm;
  std::optional<PjCpuResult> done;
  int signal = 0;
  {
    // SIGINT and SIGTERM stop the search as its time limit does: the user gets what it
    // found so far, marked partial, instead of a process killed with its incumbent. Only
    // while searching: before, the default action ends a compile at once.
    StopSignals signals;
    o.stop_request = StopSignals::flag();
    done = wants_warm_start(run) ? warm_start(module, o, run.opts.warm_start_seconds(), warm, r) : std::nullopt;
    if (!done) {
      if (warm) o.ub = warm->value;
      if (r.warm_start) t_search = clock::now();  // the warm start is reported apart
      if (!StopSignals::requested()) done = module.search(o);
    }
    signal = StopSignals::signal_number();  // read before `signals` resets it
  }
  // A signal counts where it stopped something: not one after the search had ended.
  r.interrupted = !done || done->stopped ? signal : 0;
  // Interrupted during the warm start: its leaf is the answer so far, no search ran after it.
  if (!done) done = PjCpuResult{};
  const PjCpuResult& out = *done;
  auto t2 = clock::now();

  r.device = "host CPU";
  r.threads = o.threads;
  r.cache_hit = mod.cache_hit;
  r.compile.host = mod.seconds;
  r.t_compile = std::chrono::duration<double>(t1 - t0).count();
  r.t_search = std::chrono::duration<double>(t2 - t_search).count();
  r.expanded = out.expanded;
  r.evaluated = out.evaluated;
  r.solutions = out.solutions;
  r.found = out.found != 0;
  r.objective = out.best;
  r.frontier_depth = out.frontier_depth;
  r.frontier_nodes = out.frontier_nodes;
  r.time_limit = run.opts.time_limit;
  // Stopped at the solution limit, the search answered its question; at the time
  // limit, it did not.
  r.reached_limit = out.reached_limit != 0;
  r.find_to_exit = out.find_to_exit_s;
  r.stopped = (out.stopped != 0 && !r.reached_limit) || r.interrupted != 0;
  r.donations = out.donations;
  if (r.found) r.permutation.assign(out.perm, out.perm + out.size);
  if (run.opts.check_indices) report_index_fault(module, run);
  // Nothing better than the warm start's leaf: it is optimal if the search finished, the
  // best found if a signal stopped it.
  if (warm && !r.found) {
    r.found = true;
    r.objective = warm->value;
    r.permutation = warm->permutation;
  }
  // What the stopped search proves (optimisation without a decision's fixed incumbent).
  if (r.stopped && out.stopped && !run.decision.fixed_incumbent && run.decision.solution_limit == 0) {
    std::optional<long long> incumbent;
    if (r.found) incumbent = r.objective;
    else if (o.ub) incumbent = *o.ub;
    set_partial_bound(r, out, incumbent);
  }
  // --improve: local search from the best leaf of a search its time limit stopped (a
  // complete search proved its answer), or from the greedy leaf where it met none.
  // Not after a signal: the user asked the run to end.
  if (run.opts.improve && r.stopped && !r.interrupted) improve_best_leaf(module, *run.opts.improve, o.threads, o.ub, r);
}

}  // namespace permjit
