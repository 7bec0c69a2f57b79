// Host side of the `cpu` skeleton on a path problem: compile prelude + problem +
// templates/cpu_ida.hpp into a shared object (cached), load it, run IDA*.
#include <chrono>

#include "runtime/cache.hpp"
#include "runtime/gpu_host.hpp"
#include "runtime/ida_module.hpp"
#include "runtime/ida_report.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "runtime/unit.hpp"

namespace permjit {

std::vector<std::string> cpu_ida_templates() { return {"ida_abi.h", "cpu_ida.hpp"}; }

void run_cpu_ida_skeleton(SkeletonRun& run) {
  using clock = std::chrono::steady_clock;
  SolveResult& r = run.result;
  auto t0 = clock::now();
  ModuleCache cache(run.opts.cache_dir.empty() ? default_cache_dir() : run.opts.cache_dir);
  HostModule mod = compile_host_module(assemble_unit(run.source, cpu_ida_templates()), cache);
  auto t1 = clock::now();
  IdaModule ida(mod.path);
  PjIdaArgs args{host_threads(run.opts), run.opts.all_solutions ? 1 : 0, run.opts.roots};
  PjIdaResult out = ida.search(args);
  auto t2 = clock::now();

  r.device = "host CPU";
  r.threads = args.threads;
  r.cache_hit = mod.cache_hit;
  r.t_compile = std::chrono::duration<double>(t1 - t0).count();
  r.t_search = std::chrono::duration<double>(t2 - t1).count();
  r.frontier_depth = out.root_depth;
  r.frontier_nodes = out.roots;
  r.start_h = out.start_h;
  if (out.stopped)
    throw std::runtime_error("IDA* stopped after " + std::to_string(PJ_IDA_MAX_ITERATIONS) + " iterations without a goal");
  for (int i = 0; i < out.iterations; ++i)
    add_iteration(r, out.limits[i], out.per_iteration[i], PjIdaCounts{}, 0, 0);
  std::vector<int> moves(out.moves, out.moves + out.path_moves);
  finish_path(r, out.found != 0, out.cost, moves, [&](int m) { return ida.move_name(m); });
}

}  // namespace permjit
