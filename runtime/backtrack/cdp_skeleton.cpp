// Host side of the `cdp` and `rec` skeletons (CDP-BP and REC-CDP, Carneiro Pessoa et al. 2018 §3 and §4.1):
// the CPU search to d_cpu (Algorithm 2), the memory analysis (Algorithm 3,
// runtime/backtrack/cdp_memory_plan.cpp), then per chunk of d_cpu nodes (Algorithm 4) the
// intermediate search to d_gpu, which launches the final search from the device (cdp),
// or after which the host launches it (rec). Device-side launch errors come back in the
// control block and are reported by name (§3.7).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "dsl/diagnostics.hpp"
#include "runtime/backtrack/backtrack_skeletons.hpp"
#include "runtime/backtrack/cdp_memory_plan.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/device_solutions.hpp"
#include "templates/gpu_abi.h"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// The options given are on one command line: an error points at the first.
[[noreturn]] void option_error(const std::string& shown, const std::string& msg, const std::string& hint = {}) {
  command_line_error(shown, 1, msg, hint);
}

// Block sizes the kernels' warp reductions accept (--block-size is checked with the
// options of every skeleton: runtime/option_table.cpp).
void check_block_option(const std::string& name, int value) {
  if (value % 32 != 0 || value < 32 || value > 1024)
    option_error(name + " " + std::to_string(value), name + " must be a multiple of 32 from 32 to 1024");
}

constexpr int kDefaultChildBlock = 128;  // --child-block-size
constexpr int kDefaultChildGrids = 2;    // --child-grids

struct CdpSettings {
  bool device_launch;  // cdp: the intermediate search launches the final search
  int block, child_block, child_grids;
};

CdpSettings settings(const SolveOptions& o, bool device_launch, int size) {
  for (const auto& [name, value] : {std::pair<const char*, int>{"--dgpu", o.dgpu},
                                    {"--child-block-size", o.child_block_size},
                                    {"--child-grids", o.child_grids}})
    if (value < 0) option_error(std::string(name) + " " + std::to_string(value), std::string(name) + " must be positive");
  CdpSettings s{device_launch, o.block(), o.child_block_size > 0 ? o.child_block_size : kDefaultChildBlock,
                o.child_grids > 0 ? o.child_grids : kDefaultChildGrids};
  check_block_option("--child-block-size", s.child_block);
  if (s.child_grids > s.block)
    option_error("--child-grids " + std::to_string(s.child_grids),
                 "--child-grids must be at most the block size (" + std::to_string(s.block) + ")");
  if (o.dgpu > 0 && o.dgpu >= size)
    option_error("--dgpu " + std::to_string(o.dgpu), "--dgpu must be below the size " + std::to_string(size) +
                 " (the leaves' depth)", "the deepest cut is " + std::to_string(size - 1));
  if (o.dgpu > 0 && o.dcpu > 0 && o.dgpu <= o.dcpu)
    option_error("--dcpu " + std::to_string(o.dcpu) + " --dgpu " + std::to_string(o.dgpu),
                 "--dgpu must be deeper than --dcpu", "the paper's choice is d_gpu = d_cpu + 2");
  return s;
}

// d_gpu for a frontier at `dcpu`: --dgpu, else two levels deeper (Carneiro Pessoa et al. 2018 §4.2 found
// d_gpu = d_cpu + 2 best), never past size - 1 (the last level whose nodes have children).
int choose_dgpu(const SolveOptions& o, int dcpu, int size, std::string& reason) {
  if (o.dgpu > 0) {
    if (o.dgpu <= dcpu)
      option_error("--dgpu " + std::to_string(o.dgpu),
                   "--dgpu must be deeper than d_cpu = " + std::to_string(dcpu) + " (chosen for this device)",
                   "give --dcpu too");
    reason = "--dgpu";
    return o.dgpu;
  }
  if (dcpu + 2 <= size - 1) {
    reason = "d_cpu + 2";
    return dcpu + 2;
  }
  reason = "size - 1: the frontier is within two levels of the leaves";
  return std::max(dcpu, size - 1);
}

// The d_cpu nodes a launch of the intermediate search covers: every SM's threads once,
// since each intermediate thread multiplies its node by the levels down to d_gpu.
unsigned long long default_frontier_nodes(const cuda::Device& d) {
  return static_cast<unsigned long long>(d.sm_count) * static_cast<unsigned long long>(d.max_threads_per_sm);
}

// Sizes the device runtime's pending-launch buffer: `exact` launches when given
// (--pending-launches), else at least what one chunk may launch, since a launch beyond
// it fails (cudaErrorLaunchPendingCountExceeded). Returns the limit in force.
size_t reserve_pending_launches(unsigned long long needed, unsigned long long exact) {
  const char* what = "CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT";
  size_t current = 0;
  cuda::check(cuda::api().CtxGetLimit(&current, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT),
              std::string("cuCtxGetLimit(") + what + ")");
  size_t want = exact > 0 ? exact : std::max<size_t>(current, needed);
  if (want == current) return current;
  cuda::check(cuda::api().CtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, want),
              std::string("cuCtxSetLimit(") + what + ", " + std::to_string(want) + ")");
  cuda::check(cuda::api().CtxGetLimit(&current, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT),
              std::string("cuCtxGetLimit(") + what + ")");
  return current;
}

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

// The memory analysis in words, for the report.
std::string describe_plan(const CdpMemoryPlan& p, unsigned long long survivors) {
  return fmt::format("max_cpu {:.3g}, max_gpu {:.3g}, at most {} d_gpu nodes per d_cpu node; chunk {} of {} d_cpu "
                     "nodes, A_gpu {} nodes, r_cdp {} of {} (70% of free)",
                     p.max_cpu, p.max_gpu, p.expected_children, p.chunk, survivors, p.a_gpu_nodes,
                     gib(static_cast<double>(p.bytes)), gib(static_cast<double>(p.budget)));
}

size_t free_memory() {
  size_t free_b = 0, total_b = 0;
  cuda::check(cuda::api().MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
  return free_b;
}

std::string describe_device_error(const PjCdpControl& c) {
  std::string name(c.error_name, strnlen(c.error_name, sizeof c.error_name));
  std::string text(c.error_text, strnlen(c.error_text, sizeof c.error_text));
  std::string s = "a device-side launch of the final search pj_cdp_final failed in block " +
                  std::to_string(c.error_block) + ": " + (name.empty() ? "cudaError " + std::to_string(c.error) : name) +
                  (text.empty() ? "" : " (" + text + ")") + "; " + std::to_string(c.failed) + " of " +
                  std::to_string(c.failed + c.launches) + " launches failed, so the search is incomplete";
  if (name == "cudaErrorLaunchPendingCountExceeded" || name == "cudaErrorLaunchOutOfResources")
    s += "; a larger --pending-launches (or none: the default covers a chunk), fewer --child-grids or a smaller "
         "--max-chunk";
  return s;
}

// Waits for the timed kernels and every grid they launched; a failure names them. The
// whole context is synchronised before the stop event is recorded, so neither the
// counters read next nor the time depend on how a stream waits for device-launched grids.
double finish(cuda::EventTimer& timer, const std::string& what) {
  try {
    cuda::check(cuda::api().CtxSynchronize(), "cuCtxSynchronize");
    return timer.stop_seconds();
  } catch (const cuda::Error& e) {
    throw cuda::Error(what + " failed: " + e.what());
  }
}

void launch(CUfunction f, unsigned long long grid, int block, void** args, const char* name) {
  cuda::check(cuda::api().LaunchKernel(f, static_cast<unsigned>(grid), 1, 1, static_cast<unsigned>(block), 1, 1, 0,
                                       nullptr, args, nullptr),
              std::string("launching ") + name);
}

void run_cdp(SkeletonRun& run, bool device_launch) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  const bool optimise = optimises(spec.goal);
  // Decision and enumeration: the final search's record kernels, and the values placed
  // kept with every node (a solution's first values).
  const bool records = run.decision.records();
  const bool with_prefix = optimise || records;
  const CdpSettings cs = settings(opts, device_launch, spec.size);
  GpuStart g(run);
  CUfunction intermediate = g.module.function("pj_cdp_intermediate");
  CUfunction rec_final = g.module.function(records ? "pj_rec_final_record" : "pj_rec_final");

  // Algorithm 2: the CPU search to d_cpu.
  // The warm start's incumbent, waited for before the search's clock starts.
  const std::optional<long long> start = run.start_bound();
  auto t1 = clock_type::now();
  GpuFrontier f(g.host, opts, start, with_prefix, default_frontier_nodes(g.dev), "SMs x threads/SM",
                spec.size, r);
  f.check_layout(g.module);
  const int dcpu = f.depth();
  const int dgpu = choose_dgpu(opts, dcpu, spec.size, r.dgpu_reason);
  // The intermediate search records no solution: its cut must stay above the leaves.
  if (records && dgpu >= spec.size)
    option_error("--dgpu " + std::to_string(dgpu),
                 "goal find, --target and --list record solutions in the final search: --dgpu must be below the size (" +
                     std::to_string(spec.size) + ")");
  const size_t words = f.words();
  const size_t prefix_bytes = with_prefix ? static_cast<size_t>(spec.size) : 0;

  // Algorithm 3: the memory analysis; the pending-launch buffer the plan needs is
  // reserved first, and the plan made again with what that reservation left.
  CdpMemoryInput in;
  in.size = spec.size;
  in.prefix_length = static_cast<int>(spec.fixed_prefix.size());
  in.dcpu = dcpu;
  in.dgpu = dgpu;
  in.survivors = f.count();
  in.node_bytes = words * 4;
  in.prefix_bytes = prefix_bytes;
  in.block = cs.block;
  in.child_grids = device_launch ? cs.child_grids : 0;
  in.max_chunk = opts.max_chunk;
  CdpMemoryPlan plan;
  try {
    in.free_bytes = free_memory();
    plan = plan_cdp_memory(in);
    if (device_launch) {
      r.pending_launch_limit = reserve_pending_launches(plan.pending_launches, opts.pending_launches);
      in.free_bytes = free_memory();
      plan = plan_cdp_memory(in);  // a chunk no larger: the reservation still covers it
    }
  } catch (const CdpMemoryError& e) {
    option_error("--dcpu " + std::to_string(dcpu) + " --dgpu " + std::to_string(dgpu), e.what());
  }

  r.memory_plan = describe_plan(plan, f.count());

  PjGpuResults init{};
  init.best = f.start_incumbent(spec.goal);
  init.recorded = init.best;
  cuda::Buffer results(sizeof(PjGpuResults));
  results.upload(&init, sizeof init);
  cuda::Buffer control(sizeof(PjCdpControl));
  cuda::Buffer nodes(plan.chunk * words * 4);
  cuda::Buffer prefix(plan.chunk * prefix_bytes);
  cuda::Buffer a_nodes(plan.a_gpu_nodes * words * 4);
  cuda::Buffer a_prefix(plan.a_gpu_nodes * prefix_bytes);
  cuda::Buffer loads(plan.blocks * sizeof(unsigned));
  cuda::Buffer offsets(device_launch ? 0 : (plan.blocks + 1) * sizeof(unsigned long long));
  r.t_host += since(t1);

  std::optional<DeviceSolutions> solutions;
  if (records) solutions.emplace(run.decision, spec.size);
  CUdeviceptr solutions_p = solutions ? solutions->block() : 0;

  std::vector<unsigned> block_loads;
  std::vector<unsigned long long> block_offsets;
  cuda::EventTimer timer;
  unsigned long long chunk = plan.chunk;  // halved when one chunk's solutions do not fit the buffer
  for (unsigned long long first = 0; first < f.count();) {
    const unsigned long long n = std::min(chunk, f.count() - first);
    f.upload(first, n, nodes, prefix, r);
    control.zero();
    PjGpuResults before{};  // a chunk searched again starts from the same counts
    if (solutions) {
      results.download(&before, sizeof before);
      solutions->arm();
    }

    // Algorithm 4, line 9: the intermediate search (and, for cdp, everything it launches).
    CUdeviceptr nodes_p = nodes.ptr(), prefix_p = prefix.ptr(), a_nodes_p = a_nodes.ptr(),
                a_prefix_p = a_prefix.ptr(), loads_p = loads.ptr(), control_p = control.ptr(),
                results_p = results.ptr();
    unsigned long long count = n, stride = n, a_stride = plan.a_gpu_nodes;
    int depth = dcpu, cut = dgpu;
    unsigned per_thread = static_cast<unsigned>(plan.expected_children);
    void* args[] = {&nodes_p,    &prefix_p, &count,      &stride,  &depth,     &cut,       &a_nodes_p,
                    &a_prefix_p, &a_stride, &per_thread, &loads_p, &control_p, &results_p, &solutions_p};
    const unsigned long long blocks = (n + cs.block - 1) / cs.block;
    timer.start();
    launch(intermediate, blocks, cs.block, args, "the intermediate search pj_cdp_intermediate");
    r.t_kernels += finish(timer, device_launch ? "the intermediate search pj_cdp_intermediate or a final-search grid "
                                                 "pj_cdp_final it launched"
                                               : "the intermediate search pj_cdp_intermediate");
    PjCdpControl ctl{};
    auto tt = clock_type::now();
    control.download(&ctl, sizeof ctl);
    r.t_transfers += since(tt);
    if (ctl.overflow) throw InternalError("a block's active set overflowed its " +
                                          std::to_string(cs.block * plan.expected_children) + " slots");
    if (ctl.error != 0 || ctl.failed != 0) throw std::runtime_error(describe_device_error(ctl));
    unsigned long long launches = ctl.launches;

    if (!device_launch && ctl.stored > 0) {
      // REC-CDP: the host reads the block loads and launches the final search itself.
      tt = clock_type::now();
      block_loads.resize(blocks);
      loads.download(block_loads.data(), blocks * sizeof(unsigned));
      block_offsets.assign(blocks + 1, 0);
      for (unsigned long long b = 0; b < blocks; ++b) block_offsets[b + 1] = block_offsets[b] + block_loads[b];
      offsets.upload(block_offsets.data(), (blocks + 1) * sizeof(unsigned long long));
      r.t_transfers += since(tt);
      CUdeviceptr offsets_p = offsets.ptr();
      unsigned nblocks = static_cast<unsigned>(blocks);
      unsigned long long per_block = static_cast<unsigned long long>(cs.block) * plan.expected_children;
      unsigned long long total = block_offsets[blocks];
      void* fargs[] = {&a_nodes_p, &a_prefix_p, &a_stride, &cut,      &offsets_p,
                       &nblocks,   &per_block,  &total,    &results_p, &solutions_p};
      timer.start();
      launch(rec_final, (total + cs.child_block - 1) / cs.child_block, cs.child_block, fargs, "the final search pj_rec_final");
      r.t_kernels += finish(timer, "the final search pj_rec_final");
      ++launches;
    }
    ++r.chunks;
    if (solutions && solutions->after_chunk(results, before, n, chunk)) continue;  // the buffer filled: the chunk again
    r.gpu_frontier_nodes += ctl.stored;
    r.child_launches += launches;
    r.max_block_load = std::max<uint64_t>(r.max_block_load, ctl.max_block_load);
    first += n;
    if (solutions && solutions->stopped()) break;  // the limit was reached: the question is answered
  }
  PjGpuResults out{};
  auto tt = clock_type::now();
  results.download(&out, sizeof out);
  r.t_transfers += since(tt);

  r.block_size = cs.block;
  r.dgpu = dgpu;
  r.child_block_size = cs.child_block;
  r.child_grids = device_launch ? cs.child_grids : 0;
  f.merge(out, r);
  if (solutions) solutions->report(r, optimise);
  r.t_search = since(t1);
}

// cdp's kernels launch kernels: relocatable device code, linked with the device runtime.
SkeletonUnits cdp_units_of(const UnitInputs& in, bool device_launch) {
  const CdpSettings cs = settings(in.opts, device_launch, in.spec.size);
  std::vector<std::string> options = {"-DPJ_BLOCK=" + std::to_string(cs.block),
                                      "-DPJ_CHILD_BLOCK=" + std::to_string(cs.child_block),
                                      "-DPJ_CHILD_GRIDS=" + std::to_string(cs.child_grids),
                                      std::string("-DPJ_CDP=") + (device_launch ? "1" : "0")};
  if (device_launch) options.push_back("-rdc=true");
  CompileUnit device = device_unit(in, {"gpu_abi.h", "gpu_search.cuh", "gpu_cdp.cuh"}, std::move(options));
  device.device_runtime = device_launch;
  return {host_unit(in, cpu_search_templates()), std::move(device)};
}

}  // namespace

SkeletonUnits cdp_units(const UnitInputs& in) { return cdp_units_of(in, true); }
SkeletonUnits rec_units(const UnitInputs& in) { return cdp_units_of(in, false); }
void run_cdp_skeleton(SkeletonRun& run) { run_cdp(run, true); }
void run_rec_skeleton(SkeletonRun& run) { run_cdp(run, false); }

}  // namespace permjit
