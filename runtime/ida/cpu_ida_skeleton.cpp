// Host side of the `cpu` skeleton on a path problem: compile prelude + problem +
// templates/cpu_ida.hpp into a shared object (cached), load it, run IDA* from each start.
#include <chrono>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/compile/ida_module.hpp"
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals
#include "runtime/ida/ida_report.hpp"
#include "runtime/ida/ida_skeleton.hpp"
#include "runtime/ida/pattern_db.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;

class CpuIdaSolver : public PathSolver {
 public:
  CpuIdaSolver(const HostModule& compiled, SkeletonRun& run)
      : ida_(compiled),
        opts_(run.opts),
        tables_(run.spec, ida_, run.units.host->text, run.cache(), host_threads(run.opts)) {
    if (!tables_.empty()) run.result.pattern_dbs = tables_.stage();
  }

  void solve(const StartValues& start, SolveResult& r) override {
    auto t0 = clock_type::now();
    IdaStart from(start);
    PjIdaArgs args{from.get(), host_threads(opts_), opts_.all_solutions ? 1 : 0, opts_.roots, opts_.time_limit,
                   nullptr};
    PjIdaResult out;
    {
      // SIGINT and SIGTERM stop the search as its time limit does (only while it runs).
      StopSignals signals;
      args.stop_request = StopSignals::flag();
      out = ida_.search(args);
      r.interrupted = out.interrupted ? StopSignals::signal_number() : 0;
    }
    r.device = "host CPU";
    r.threads = args.threads;
    r.t_search = std::chrono::duration<double>(clock_type::now() - t0).count();
    r.frontier_depth = out.root_depth;
    r.frontier_nodes = out.roots;
    r.start_h = out.start_h;
    if (out.stopped)
      throw std::runtime_error("IDA* stopped after " + std::to_string(PJ_IDA_MAX_ITERATIONS) +
                               " iterations without a goal");
    r.iterations.clear();
    for (int i = 0; i < out.iterations; ++i)
      add_iteration(r, out.limits[i], out.per_iteration[i], PjIdaCounts{}, 0, 0);
    std::vector<int> moves(out.moves, out.moves + out.path_moves);
    finish_path(r, out.found != 0, out.cost, moves, [&](int m) { return ida_.move_name(m); });
    r.time_limit = opts_.time_limit;
    r.stopped = out.interrupted != 0;
    if (r.stopped) stopped_in_iteration(r);
  }

 private:
  IdaModule ida_;
  const SolveOptions& opts_;
  PatternTables tables_;  // read by ida_'s heuristic
};
}  // namespace

std::unique_ptr<PathSolver> open_cpu_ida(SkeletonRun& run) {
  auto t0 = clock_type::now();
  HostModule mod = compile_host_module(*run.units.host, run.cache());
  run.result.cache_hit = mod.cache_hit;
  run.result.compile.host = mod.seconds;
  run.result.t_compile = std::chrono::duration<double>(clock_type::now() - t0).count();
  auto solver = std::make_unique<CpuIdaSolver>(mod, run);  // loads or builds the pattern databases
  run.result.device = "host CPU";
  return solver;
}

void run_cpu_ida_skeleton(SkeletonRun& run) {
  const SolveOptions& o = run.opts;
  if (!o.checkpoint.empty() || !o.resume.empty())
    command_line_error(!o.checkpoint.empty() ? "--checkpoint " + o.checkpoint : "--resume " + o.resume, 1,
                       "the cpu skeleton writes and resumes checkpoints of placement problems only, not of IDA*");
  if (launched_as_mpi_ranks() && !run.opts.one_process)
    throw std::runtime_error("IDA* (goal = \"path\") does not run over MPI ranks yet: run it in one process");
  run_path_once(open_cpu_ida, run);
}

}  // namespace permjit
