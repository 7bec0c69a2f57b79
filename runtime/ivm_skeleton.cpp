// Host side of the `ivm` skeleton (seed 001 Algorithm 1): cut [0, L!) among the
// explorers, then alternate exploration kernels and work-stealing phases on the device
// until no explorer has work; between rounds, progress lines and checkpoints.
#include <array>
#include <chrono>
#include <climits>
#include <optional>
#include <cstddef>
#include <cstring>

#include "dsl/diagnostics.hpp"
#include "runtime/cache.hpp"
#include "runtime/cuda_driver.hpp"
#include "runtime/device_solutions.hpp"
#include "runtime/gpu_compile.hpp"
#include "runtime/gpu_host.hpp"
#include "runtime/run_time_data.hpp"
#include "runtime/ivm_checkpoint.hpp"
#include "runtime/ivm_split.hpp"
#include "runtime/kernel_interrupter.hpp"
#include "runtime/progress.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "runtime/version.hpp"
#include "runtime/warm_start.hpp"
#include "templates/gpu_abi.h"
#include "templates/prelude.h"
#include "templates/ivm_interval.h"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// The kernels' view of the explorers (pj_ivm::layout::Explorers in the generated layout).
struct ExplorersArg {
  CUdeviceptr I, V, M, last, ends;
  unsigned long long T;
};

// The device arrays of T explorers with L levels and sets of mask_bytes.
struct ExplorerArrays {
  unsigned long long T;
  size_t L, mask_bytes;
  cuda::Buffer I, V, M, last, ends;
  ExplorerArrays(unsigned long long t, int levels, int mb)
      : T(t), L(static_cast<size_t>(levels)), mask_bytes(static_cast<size_t>(mb)), I(T), V(L * T),
        M(L * T * mask_bytes), last(L * T), ends(T * 8) {}
  ExplorersArg arg() const {
    return {I.ptr(), V.ptr(), M.ptr(), last.ptr(), ends.ptr(), T};
  }
  // Every array, in the checkpoint's order.
  std::array<cuda::Buffer*, 5> all() { return {&I, &V, &M, &last, &ends}; }
  std::array<const cuda::Buffer*, 5> all() const { return {&I, &V, &M, &last, &ends}; }
  // The checkpoint's byte image: the arrays one after the other.
  std::string download() const {
    std::string s(bytes(), '\0');
    size_t at = 0;
    for (const cuda::Buffer* b : all()) {
      b->download(s.data() + at, b->bytes());
      at += b->bytes();
    }
    return s;
  }
  void upload(const std::string& s) {
    size_t at = 0;
    for (cuda::Buffer* b : all()) {
      b->upload(s.data() + at, b->bytes());
      at += b->bytes();
    }
  }
  size_t bytes() const {
    size_t n = 0;
    for (const cuda::Buffer* b : all()) n += b->bytes();
    return n;
  }
};

void launch(CUfunction f, unsigned long long threads, int block, void** args, const char* name, size_t shared = 0) {
  unsigned grid = static_cast<unsigned>((threads + block - 1) / block);
  cuda::check(cuda::api().LaunchKernel(f, grid, 1, 1, block, 1, 1, static_cast<unsigned>(shared), nullptr, args, nullptr),
              std::string("launching ivm kernel ") + name);
}

// Rows in shared memory ran N-Queens 17 2.4x faster than in local memory on the H100
// (docs/skeletons.md): local rows of every resident thread overflow L1 into L2. A block
// whose rows need more than this keeps so few blocks per SM that local memory wins.
constexpr size_t kSharedRowsLimit = 64 * 1024;

struct RowPlacement {
  bool shared = false;
  size_t shared_bytes = 0;  // dynamic shared memory per block
  std::string describe() const {
    return shared ? "shared (" + std::to_string(shared_bytes / 1024) + " KiB per block)" : "local";
  }
};

// `choice` is --ivm-rows (empty: auto). Whether shared rows fit depends on the device,
// so that error comes after the compile, still at the option's place.
// `static_bytes` is the shared memory the kernel declares itself; the rows come on top.
RowPlacement place_rows(const std::string& choice, int row_bytes_per_thread, int block, size_t static_bytes,
                        const cuda::Device& dev) {
  const size_t need = static_cast<size_t>(row_bytes_per_thread) * static_cast<size_t>(block);
  const bool automatic = choice.empty() || choice == "auto";
  if (choice == "local" || (automatic && need > kSharedRowsLimit)) return {};
  if (static_bytes + need > static_cast<size_t>(dev.max_shared_per_block))
    command_line_error("--ivm-rows " + choice, 12,
                       "a block's rows need " + std::to_string(need) + " bytes of shared memory beside the kernel's " +
                           std::to_string(static_bytes) + ", the device gives " +
                           std::to_string(dev.max_shared_per_block) + " per block",
                       "use a smaller --block-size, or --ivm-rows local");
  return {true, need};
}

// Runs launches on the default stream between two events and returns their seconds; a
// failure names the kernel.
template <class Launches>
double timed(cuda::EventTimer& timer, const char* what, Launches&& launches) {
  timer.start();
  launches();
  try {
    return timer.stop_seconds();
  } catch (const cuda::Error& e) {
    throw cuda::Error(std::string("the ivm ") + what + " failed: " + e.what());
  }
}

// Hypercube digits for T explorers in base p: the fewest with p^dims >= T.
int hypercube_dims(unsigned long long T, unsigned p) {
  int dims = 0;
  for (unsigned long long reach = 1; reach < T; reach *= p) ++dims;
  return std::max(dims, 1);
}

std::string ub_text(const SolveOptions& o) { return o.ub ? std::to_string(*o.ub) : "none"; }

// The checkpoint of --resume, read and matched against the run `id`: options the run
// left unset take the checkpoint's values, set ones must agree. A file that cannot be
// read, is damaged or belongs to another run is the user's error, at --resume.
IvmCheckpoint checked_resume(const SolveOptions& opts, IvmRunIdentity& id) {
  const std::string shown = "--resume " + opts.resume;
  IvmCheckpoint saved;
  try {
    saved = read_checkpoint(opts.resume);
  } catch (const std::runtime_error& e) {
    command_line_error(shown, 10, e.what());
  }
  if (!opts.ub) id.ub = saved.id.ub;
  id.explorers = opts.explorers ? opts.explorers : saved.id.explorers;
  id.mask_bytes = saved.id.mask_bytes;  // not known before the compile: the source decides it
  std::string why = resume_mismatch(saved.id, id);
  if (!why.empty()) command_line_error(shown, 10, "cannot resume from " + opts.resume + ":\n" + why);
  return saved;
}
}  // namespace

SkeletonUnits ivm_units(const UnitInputs& in) {
  if (ivm_levels(in.spec) < 1) {
    Diagnostics d;
    d.error(in.spec.fixed_prefix.empty() ? in.spec.size_expr->loc : in.spec.fixed_prefix_loc, "the ivm skeleton needs at least one position below the fixed prefix",
            "with every position fixed there is nothing to search: use --skeleton cpu");
    throw UserErrors(std::move(d));
  }
  return {std::nullopt, device_unit(in, {"gpu_abi.h", "gpu_search.cuh", "ivm_interval.h", "ivm_explorer.h", "ivm_two_ends.h",
                                                                   "gpu_ivm.cuh"},
                                    {"-DPJ_BLOCK=" + std::to_string(in.opts.block())}, {generate_ivm_layout(in.spec)})};
}

void run_ivm_skeleton(SkeletonRun& run) {
  const SolveOptions& opts = run.opts;
  SolveResult& r = run.result;
  const ProblemSpec& spec = run.spec;
  const bool optimise = optimises(spec.goal);
  const int L = ivm_levels(spec);
  auto t0 = clock_type::now();

  // A checkpoint to resume from is read and checked before any compile: the run's
  // identity, with the options left unset taken from it.
  IvmRunIdentity id{kPermjitVersion, spec.name, opts.load.spec_path, spec.instance_path,
                    source_identity(run.source.text + generate_ivm_layout(spec).text) + data_identity(run.source.data), L,
                    0, 0,
                    goal_name(spec.goal), ub_text(opts)};
  IvmCheckpoint saved;
  if (!opts.resume.empty()) saved = checked_resume(opts, id);

  cuda::Device dev = open_device(r.skeleton, r);
  cuda::Context context(dev);

  // Compile. Rows in shared memory are a measured alternative (docs/skeletons.md).
  const int block = opts.block();
  GpuModuleImage image = compile_gpu_module(run.units.device.value(), dev.arch(), run.cache());
  const auto t_load = clock_type::now();
  cuda::Module module(image.cubin);
  upload_data(run.units.device.value().data, module);
  add_compile_stages(r, nullptr, &image, since(t_load));
  CUfunction k_init = module.function("pj_ivm_init");
  CUfunction k_select = module.function("pj_ivm_select");
  CUfunction k_steal = module.function("pj_ivm_steal");
  r.cache_hit = image.cache_hit;
  r.t_compile = since(t0);
  const int mask_bytes = module.read_int("pj_ivm_mask_bytes");
  const int explorer_bytes = 1 + L * (2 + mask_bytes) + 8;
  PJ_INTERNAL_ASSERT(module.read_int("pj_ivm_explorer_bytes") == explorer_bytes,
                     "the IVM layout differs between the host and the device");

  // Where the rows live, then as many explorers as the device runs at once (all must be
  // resident for the trigger to stop them), unless --explorers.
  // The warm start's incumbent, waited for before the search's clock starts.
  const std::optional<long long> start = run.start_bound();
  auto t1 = clock_type::now();
  CUfunction k_explore_shared = module.function("pj_ivm_explore_shared");
  const RowPlacement rows = place_rows(opts.ivm_rows, L * module.read_int("pj_ivm_level_bytes"), block,
                                       cuda::static_shared_bytes(k_explore_shared), dev);
  CUfunction k_explore = rows.shared ? k_explore_shared : module.function("pj_ivm_explore_local");
  if (rows.shared) cuda::allow_dynamic_shared(k_explore, rows.shared_bytes, "pj_ivm_explore_shared");
  // Assigned, not emplace()d: clang 14 (the fuzz build) sees the nested struct with
  // member initialisers as not default-constructible inside std::optional.
  r.ivm = SolveResult::Ivm{};
  SolveResult::Ivm& stats = *r.ivm;
  stats.rows = rows.describe();
  int blocks_per_sm = 0;
  cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, k_explore, block, rows.shared_bytes),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  // The same generated code (checked above) lays sets out in the same bytes.
  PJ_INTERNAL_ASSERT(opts.resume.empty() || saved.id.mask_bytes == mask_bytes,
                     "a checkpoint of the same generated code has other set sizes");
  id.mask_bytes = mask_bytes;
  if (!opts.resume.empty()) {
    stats.resumed_from = opts.resume;
  } else {
    id.explorers = opts.explorers ? opts.explorers
                                  : static_cast<unsigned long long>(std::max(1, blocks_per_sm)) * block * dev.sm_count;
  }
  const unsigned long long T = id.explorers;
  // A quarter: the sweep of docs/performance.md found 10-50% of T best on the H100
  // (seed 001 settled on about 10% on a GTX 980); below, rounds are too short.
  const unsigned long long trigger = opts.trigger ? opts.trigger : std::max<unsigned long long>(1, T / 4);
  const unsigned p = 8;
  const int dims = hypercube_dims(T, p);
  stats.explorers = T;
  stats.trigger = trigger;
  r.block_size = block;

  ExplorerArrays ex(T, L, mask_bytes);
  cuda::Buffer results(sizeof(PjGpuResults)), control(sizeof(PjIvmControl));
  cuda::Buffer lengths(T * sizeof(double)), victim(T * sizeof(long long)), claimed(T * sizeof(int));
  claimed.zero();
  control.zero();
  cuda::EventTimer timer;
  ExplorersArg e = ex.arg();
  CUdeviceptr results_p = results.ptr(), control_p = control.ptr(), lengths_p = lengths.ptr(),
              victim_p = victim.ptr(), claimed_p = claimed.ptr();

  double elapsed_before = 0;
  if (!opts.resume.empty()) {
    if (saved.state.size() != ex.bytes() || saved.results.size() != sizeof(PjGpuResults))
      command_line_error("--resume " + opts.resume, 10,
                         opts.resume + ": damaged checkpoint: its arrays do not fit " + std::to_string(T) +
                             " explorers of " + std::to_string(L) + " levels");
    ex.upload(saved.state);
    results.upload(saved.results.data(), sizeof(PjGpuResults));
    elapsed_before = saved.elapsed;
    stats.rounds = saved.rounds;
  } else {
    PjGpuResults init{};
    // prepare_solve refused a --ub outside the 32-bit incumbent.
    const std::optional<long long>& ub = start;
    init.best = static_cast<int>(ub ? *ub : (spec.goal == Goal::maximize ? INT_MIN : INT_MAX));
    init.recorded = init.best;
    // The warm start's solution is the answer unless the search finds a better one, and
    // travels in the results so that a checkpoint keeps it.
    if (!opts.ub && run.warm && run.warm->wait()) {
      const WarmIncumbent& w = *run.warm->wait();
      init.found = 1;
      for (size_t j = 0; j < w.permutation.size(); ++j) init.perm[j] = static_cast<unsigned char>(w.permutation[j]);
    }
    init.expanded = 1;  // the root, whose children the explorers' first rows hold
    results.upload(&init, sizeof init);
    IvmSplit split = split_leaves(T, L);
    cuda::Buffer first(split.first.size()), empty(T);
    ex.last.upload(split.last.data(), split.last.size());
    first.upload(split.first.data(), split.first.size());
    empty.upload(split.empty.data(), split.empty.size());
    CUdeviceptr first_p = first.ptr(), empty_p = empty.ptr();
    void* args[] = {&e, &first_p, &empty_p, &results_p};
    stats.t_balance += timed(timer, "init kernel pj_ivm_init", [&] { launch(k_init, T, block, args, "pj_ivm_init"); });
  }
  r.t_host += since(t1);

  // Progress and checkpoints interrupt long rounds; without them nothing runs beside.
  const bool show = opts.progress == SolveOptions::Progress::on ||
                    (opts.progress == SolveOptions::Progress::automatic && stderr_is_terminal());
  ProgressMeter meter(r.skeleton, show);
  meter.start(elapsed_before);
  const bool checkpoints = !opts.checkpoint.empty();
  std::optional<StopSignals> signals;
  if (checkpoints) signals.emplace();
  std::optional<KernelInterrupter> interrupter;
  if (show || checkpoints) interrupter.emplace(context.handle(), control_p + offsetof(PjIvmControl, stop_round));
  const double space = pj_ivm::space_size(L);
  auto search_start = clock_type::now();
  auto elapsed = [&] { return elapsed_before + since(search_start); };
  double next_checkpoint = elapsed() + opts.seconds_between_checkpoints();
  auto schedule = [&] {
    double next = meter.enabled() ? meter.next_due() : 1e300;
    if (checkpoints) next = std::min(next, next_checkpoint);
    if (interrupter && next < 1e299)
      interrupter->stop_at(search_start + std::chrono::duration_cast<clock_type::duration>(
                                              std::chrono::duration<double>(next - elapsed_before)));
  };
  auto save = [&] {
    auto ts = clock_type::now();
    IvmCheckpoint c{id, elapsed(), stats.rounds, std::string(sizeof(PjGpuResults), '\0'), ex.download()};
    results.download(c.results.data(), sizeof(PjGpuResults));
    write_checkpoint(opts.checkpoint, c);
    r.t_transfers += since(ts);
  };
  schedule();

  // Decision and enumeration: the solution buffer, drained after every round.
  std::optional<DeviceSolutions> solutions;
  if (run.decision.records()) solutions.emplace(run.decision, spec.size);
  CUdeviceptr solutions_p = solutions ? solutions->block() : 0;

  PjIvmControl ctl{};
  while (true) {
    ++stats.rounds;
    if (interrupter) interrupter->begin_round(static_cast<unsigned>(stats.rounds));
    PjIvmControl reset{};
    reset.trigger = static_cast<unsigned>(std::min<unsigned long long>(trigger, UINT_MAX));
    // The steal count runs on, and the stop word is the interrupter's.
    control.upload(&reset, offsetof(PjIvmControl, steals));
    unsigned round = static_cast<unsigned>(stats.rounds);
    void* explore_args[] = {&e, &control_p, &results_p, &lengths_p, &round, &solutions_p};
    if (solutions) solutions->arm();
    r.t_kernels += timed(timer, "exploration kernel pj_ivm_explore",
                         [&] { launch(k_explore, T, block, explore_args, "pj_ivm_explore", rows.shared_bytes); });
    if (interrupter) interrupter->rethrow_error();
    control.download(&ctl, sizeof ctl);
    if (solutions) {
      solutions->after_round();
      if (solutions->stopped()) break;  // the limit was reached: the question is answered
    }

    const double now = elapsed();
    if (meter.due(now)) {
      PjGpuResults snap{};
      results.download(&snap, sizeof snap);
      ProgressSample s{now, 1.0 - ctl.remaining / space, snap.evaluated, std::nullopt};
      if (optimise && (snap.found || opts.ub)) s.incumbent = snap.best;
      meter.print(s);
    }
    const bool stop = signals && StopSignals::requested();  // only while this search listens
    if (checkpoints && (now >= next_checkpoint || stop)) {
      save();
      next_checkpoint = now + opts.seconds_between_checkpoints();
    }
    if (stop) {
      meter.finish();
      const int sig = StopSignals::signal_number();
      throw SearchInterrupted("interrupted by signal " + std::to_string(sig) + " after " + std::to_string(now) +
                                  " s; the checkpoint " + opts.checkpoint + " holds the search: continue it with --resume " +
                                  opts.checkpoint,
                              sig);
    }
    schedule();
    if (ctl.active == 0) break;

    unsigned base = p;
    int digits = dims;
    void* select_args[] = {&e, &lengths_p, &victim_p, &claimed_p, &control_p, &base, &digits};
    void* steal_args[] = {&e, &victim_p, &claimed_p, &control_p, &results_p};
    stats.t_balance += timed(timer, "work-stealing kernels pj_ivm_select/pj_ivm_steal", [&] {
      launch(k_select, T, block, select_args, "pj_ivm_select");
      launch(k_steal, T, block, steal_args, "pj_ivm_steal");
    });
  }
  meter.finish();
  if (checkpoints) save();  // the finished search: resuming it reports the result at once

  PjGpuResults out{};
  control.download(&ctl, sizeof ctl);
  results.download(&out, sizeof out);
  stats.steals = ctl.steals;
  r.expanded = out.expanded;
  r.evaluated = out.evaluated;
  r.solutions = out.solutions;
  if (out.found) {
    r.found = true;
    r.objective = out.recorded;
    r.permutation.assign(out.perm, out.perm + spec.size);
  }
  if (solutions) solutions->report(r, optimise);
  r.t_search = since(t1);
}

}  // namespace permjit
