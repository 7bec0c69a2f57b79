// Rank 0 is the coordinator only: it answers each request at once (a coordinator that
// also searched would answer only between its own ranges, and every worker would wait
// on it). Its threads idle; on a host it shares with workers, the CPU goes to them.
// Messages are fixed-size structs sent as bytes: every rank runs the same binary.
#include "runtime/distributed/mpi_session.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>

#include "dsl/diagnostics.hpp"
#include "runtime/backtrack/cpu_mpi.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/gpu_host.hpp"  // host_threads
#include "runtime/compile/host_compiler.hpp"
#include "runtime/core/skeleton_run.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/kernel_interrupter.hpp"
#include "runtime/distributed/range_run.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

enum Tag { kTagReport = 1, kTagAssign = 2 };

// Worker to coordinator: the range it searched and its counts and incumbent; an empty
// range is a first request.
struct Report {
  unsigned long long begin = 0, end = 0;
  PjCpuResult out{};
};

// Coordinator to worker: the next range and the incumbent to search it from, or stop.
struct Assignment {
  unsigned long long begin = 0, end = 0;
  int stop = 0;
  int has_incumbent = 0;
  long long incumbent = 0;
  double time_left = 0;  // seconds of --time-limit left (0: none)
};

// Broadcast by rank 0 once its frontier is built (or it failed before).
struct Start {
  int ok = 0;
  FrontierPlan plan;
};

void coordinate(SkeletonRun& run, MpiSession& mpi) {
  SolveResult& r = run.result;
  const auto t0 = clock_type::now();
  const int threads = host_threads(run.opts);
  Start start;
  std::optional<RangeCoordinator> coordinator;
  std::optional<HostModule> compiled;
  std::optional<CpuModule> module;
  std::optional<CpuRanges> ranges;
  try {
    // Workers search; the coordinator does not (above).
    coordinator.emplace(run, mpi.size - 1, threads);
    // Compiled here first: the other ranks of this host then find it in the cache.
    compiled.emplace(compile_host_module(*run.units.host, run.cache()));
    module.emplace(*compiled);
    start.plan = coordinator->plan();
    CpuRunOptions fo;
    fo.threads = threads;
    fo.split_depth = run.opts.split_depth;
    if (start.plan.has_ub) fo.ub = start.plan.ub;
    ranges.emplace(*module, fo, start.plan.depth, coordinator->min_nodes());
    coordinator->start(ranges->frontier());
    start.plan.depth = ranges->frontier().frontier_depth;
    start.plan.nodes = ranges->frontier().frontier_nodes;
    start.ok = 1;
  } catch (...) {
    MPI_Bcast(&start, sizeof start, MPI_BYTE, 0, MPI_COMM_WORLD);
    throw;
  }
  MPI_Bcast(&start, sizeof start, MPI_BYTE, 0, MPI_COMM_WORLD);
  r.cache_hit = compiled->cache_hit;
  r.compile.host = compiled->seconds;
  r.t_compile = since(t0);

  std::optional<StopSignals> signals;
  if (!run.opts.checkpoint.empty()) signals.emplace();
  const auto t1 = clock_type::now();
  double busy = 0;
  uint64_t messages = 0;
  for (int active = mpi.size - 1; active > 0;) {
    Report rep;
    MPI_Status st;
    MPI_Recv(&rep, sizeof rep, MPI_BYTE, MPI_ANY_SOURCE, kTagReport, MPI_COMM_WORLD, &st);
    const auto t = clock_type::now();
    if (rep.end > rep.begin) coordinator->report({rep.begin, rep.end}, rep.out);
    Assignment a;
    if (std::optional<Range> next = coordinator->next()) {
      a.begin = next->begin;
      a.end = next->end;
      std::optional<long long> inc = coordinator->incumbent();
      a.has_incumbent = inc.has_value();
      a.incumbent = inc.value_or(0);
      a.time_left = coordinator->time_left();
    } else {
      a.stop = 1;
      --active;
    }
    MPI_Send(&a, sizeof a, MPI_BYTE, st.MPI_SOURCE, kTagAssign, MPI_COMM_WORLD);
    messages += 2;
    busy += since(t);
  }
  r.t_search = since(t1);
  r.messages = messages;
  r.coordinator_busy = busy;
  coordinator->finish(r, mpi.size, *ranges);
}

void work(SkeletonRun& run, MpiSession& mpi) {
  run.result.silent = true;
  Start start;
  MPI_Bcast(&start, sizeof start, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (!start.ok) return;  // rank 0 reports why
  try {
    const int threads = host_threads(run.opts);
    HostModule compiled = compile_host_module(*run.units.host, run.cache());
    CpuModule module(compiled);
    CpuRunOptions fo;
    fo.threads = threads;
    if (start.plan.has_ub) fo.ub = start.plan.ub;
    CpuRanges ranges(module, fo, start.plan.depth, 0);
    PJ_INTERNAL_ASSERT(ranges.frontier().frontier_nodes == start.plan.nodes,
                       "a rank built another frontier than rank 0's");
    // mpirun passes SIGINT and SIGTERM to every rank: each stops its range, rank 0
    // writes the checkpoint.
    std::optional<StopSignals> signals;
    if (!run.opts.checkpoint.empty()) signals.emplace();
    Report rep;
    for (;;) {
      MPI_Send(&rep, sizeof rep, MPI_BYTE, 0, kTagReport, MPI_COMM_WORLD);
      Assignment a;
      MPI_Recv(&a, sizeof a, MPI_BYTE, 0, kTagAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (a.stop) break;
      std::optional<long long> inc;
      if (a.has_incumbent) inc = a.incumbent;
      CpuRunOptions o = range_options(threads, inc, a.time_left, signals ? StopSignals::flag() : nullptr);
      rep.begin = a.begin;
      rep.end = a.end;
      rep.out = ranges.search(a.begin, a.end, o);
    }
  } catch (const std::exception& e) {
    // Rank 0 waits for this rank's requests: the job cannot go on without it.
    std::fprintf(stderr, "permjit (rank %d): error: %s\n", mpi.rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}
}  // namespace

void run_cpu_mpi(SkeletonRun& run) {
  // Only the thread that calls the search talks to MPI; the module's threads never do.
  MpiSession mpi(MPI_THREAD_FUNNELED);
  if (mpi.rank == 0) coordinate(run, mpi);
  else work(run, mpi);
}

}  // namespace permjit
