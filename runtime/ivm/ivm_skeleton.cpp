// Host side of the `ivm` skeleton (Carneiro Pessoa et al. 2016 Algorithm 1) on one GPU or several: compile,
// size the explorers, cut [0, L!) among them, then run each GPU's rounds on a thread of
// its own (runtime/ivm/ivm_device.hpp) while this thread shows progress and takes the
// checkpoints; the GPUs pass work through runtime/ivm/ivm_exchange.hpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <thread>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/deferred_module.hpp"
#include "runtime/compile/gpu_compile.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/core/partial_bound.hpp"
#include "runtime/core/progress.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/core/version.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/device/device_solutions.hpp"
#include "runtime/device/gpu_list.hpp"
#include "runtime/device/kernel_interrupter.hpp"
#include "runtime/device/run_time_data.hpp"
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/ivm/ivm_checkpoint.hpp"
#include "runtime/ivm/ivm_device.hpp"
#include "runtime/ivm/ivm_exchange.hpp"
#include "runtime/ivm/ivm_open_bound.hpp"
#include "runtime/ivm/ivm_ranks.hpp"
#include "runtime/ivm/ivm_skeleton.hpp"
#include "templates/gpu_abi.h"
#include "templates/prelude.h"  // before ivm_interval.h, which it defines PJ_HD for
#include "templates/ivm_interval.h"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

struct RowPlacement {
  bool shared = false;
  size_t shared_bytes = 0;  // dynamic shared memory per block
  std::string describe() const {
    return shared ? "shared (" + std::to_string(shared_bytes / 1024) + " KiB per block)" : "local";
  }
};

// The explore kernel is compiled for one placement (templates/gpu_ivm.cuh: --ivm-rows,
// else shared while a block's rows take at most 64 KiB); `shared` is the module's. Whether
// shared rows fit depends on the device, so that error comes after the compile, still at
// the option's place. `static_bytes` is the shared memory the kernel declares itself; the
// rows come on top.
RowPlacement place_rows(const std::string& choice, bool shared, int row_bytes_per_thread, int block,
                        size_t static_bytes, const cuda::Device& dev) {
  if (!shared) return {};
  const size_t need = static_cast<size_t>(row_bytes_per_thread) * static_cast<size_t>(block);
  if (static_bytes + need > static_cast<size_t>(dev.max_shared_per_block))
    command_line_error("--ivm-rows " + (choice.empty() ? std::string("auto") : choice), 12,
                       "a block's rows need " + std::to_string(need) + " bytes of shared memory beside the kernel's " +
                           std::to_string(static_bytes) + ", the device gives " +
                           std::to_string(dev.max_shared_per_block) + " per block",
                       "use a smaller --block-size, or --ivm-rows local");
  return {true, need};
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

// The open-work unit's name among the units: "<spec>.ivm-open.cu".
constexpr std::string_view kOpenUnitName = "ivm-open";

SkeletonUnits ivm_units(const UnitInputs& in) {
  if (ivm_levels(in.spec) < 1) {
    Diagnostics d;
    d.error(in.spec.fixed_prefix.empty() ? in.spec.size_expr->loc : in.spec.fixed_prefix_loc, "the ivm skeleton needs at least one position below the fixed prefix",
            "with every position fixed there is nothing to search: use --skeleton cpu");
    throw UserErrors(std::move(d));
  }
  // Up to 64 levels: an explorer keeps the end of each level in one 64-bit word
  // (templates/ivm_two_ends.h), and above 64 levels explorers that steal from each other
  // stalled on the H200 (one explorer, and the host simulation of the same explorer code
  // with up to 1,024, searched the tree; docs/decisions.md, "Sizes up to 128").
  if (ivm_levels(in.spec) > 64) {
    Diagnostics d;
    d.error(in.spec.fixed_prefix.empty() ? in.spec.size_expr->loc : in.spec.fixed_prefix_loc,
            "the ivm skeleton takes up to 64 levels below the fixed prefix; this search has " +
                std::to_string(ivm_levels(in.spec)),
            "--skeleton offload, dfs or cpu search sizes up to 128");
    throw UserErrors(std::move(d));
  }
  std::vector<std::string> options{"-DPJ_BLOCK=" + std::to_string(in.opts.block())};
  // NVRTC optimises the unit's functions on every host thread: flowshop's defaults on
  // ta022 compiled in 2.8 s instead of 4.2 s on the H100 machine's 16 cores, and searched
  // as fast (N-Queens 17 too). Not for every skeleton: the ida kernel searched Korf's 100
  // 28% slower so (docs/performance.md, "One compile per shape").
  options.push_back("--split-compile=0");
  // --ivm-rows decides which explore kernel is compiled (templates/gpu_ivm.cuh).
  if (in.opts.ivm_rows == "local" || in.opts.ivm_rows == "shared")
    options.push_back(std::string("-DPJ_IVM_ROWS=") + (in.opts.ivm_rows == "local" ? "1" : "2"));
  // For measuring: blocks per SM the explore kernels must fit (__launch_bounds__' second
  // argument, which caps their registers). Part of the options, so of the cache key.
  if (const char* b = std::getenv("PERMJIT_IVM_MIN_BLOCKS"); b && std::atoi(b) > 0)
    options.push_back("-DPJ_IVM_MIN_BLOCKS=" + std::to_string(std::atoi(b)));
  // Two device units on one IVM layout: the search's, and the open work's of a stopped
  // search (and of the progress line's bound), compiled only when a run first needs it
  // (docs/decisions.md, "The open-work kernels in a unit of their own"). The same
  // options, so the same layout; the host checks both modules' sizes.
  const ProblemSource layout = generate_ivm_layout(in.spec);
  const std::vector<std::string> common{"gpu_abi.h", "gpu_search.cuh", "ivm_interval.h", "ivm_explorer.h",
                                        "ivm_two_ends.h"};
  std::vector<std::string> search = common, open = common;
  search.insert(search.end(), {"gpu_ivm_common.cuh", "gpu_ivm.cuh"});
  open.insert(open.end(), {"ivm_open_work.h", "gpu_ivm_common.cuh", "gpu_ivm_open.cuh"});
  SkeletonUnits units{std::nullopt, device_unit(in, std::move(search), options, {layout}), std::nullopt};
  units.deferred = device_unit(UnitInputs{kOpenUnitName, in.spec, in.source, in.opts}, std::move(open),
                               std::move(options), {layout});
  return units;
}

namespace {
// A GPU's round is cut after this long, one GPU or several. Uncut, a round lasts until
// a quarter of the explorers are empty: on forward ta021 at the optimum (H100) rounds of
// 0.5 to 3 s, in which the explorers that ran dry waited, 15% of the explorers' kernel
// time idle and 7.5e8 nodes/s; cut every 0.05 s, 3.3% idle, 1.1e9 nodes/s, 31.8 s of
// search against 45.9 s (docs/performance.md, "Idle explorers"; 0.1 s: 32.4 s). With
// several GPUs each also reports its incumbent and its length this often; a GPU asked
// for work is interrupted at once (IvmPeers::when_asked), so this bounds only how stale
// the others' view of it is. Progress lines, --time-limit and checkpoints are looked at
// between rounds, so this often at least.
constexpr double kRoundSlice = 0.05;
// What one GPU's rounds were cut at before, for progress lines, checkpoints and
// --time-limit only (PERMJIT_IVM_BALANCE=slice=0, for measuring).
constexpr double kUncutSlice = 1.0;
// The share of a stopped search's seconds (all its runs') that the refinement of its
// proven bound may take after the stop (docs/reliability.md, "Partial answers"): 60 s
// of search, 3 s more.
constexpr double kRefineShare = 0.05;
// Seconds between the proven bounds of the progress line (IvmRun::sample_bound).
constexpr double kBoundSampleEvery = 10.0;
// The open-work unit's compile starts this long into the search (or at a quarter of
// --time-limit, if sooner), not with it: NVRTC cannot be cancelled, so a compile started
// at once made a search that ended early wait for it (the H100, atsp.toml lb = 9 with
// --time-limit 15: br17 searched in 0.09 s, then waited 7 s for a unit it never needed).
constexpr double kOpenUnitDelay = 1.0;

// A fresh run's first results block on GPU w: the start incumbent everywhere, the root's
// expansion and the warm start's solution on GPU 0 only (counted once).
PjGpuResults first_results(int w, int start_best, const SkeletonRun& run) {
  PjGpuResults init{};
  init.best = start_best;
  init.recorded = start_best;
  if (w != 0) return init;
  // The warm start's solution is the answer unless the search finds a better one, and
  // travels in the results so that a checkpoint keeps it.
  if (!run.opts.ub && run.warm && run.warm->wait()) {
    const WarmIncumbent& wi = *run.warm->wait();
    init.found = 1;
    for (size_t j = 0; j < wi.permutation.size(); ++j) init.perm[j] = static_cast<unsigned char>(wi.permutation[j]);
  }
  init.expanded = 1;  // the root, whose children the explorers' first rows hold
  return init;
}

// The images a checkpoint's state holds, each `bytes` long (none: a finished search).
std::vector<std::string> images_of(const std::string& state, size_t bytes) {
  std::vector<std::string> out;
  for (size_t at = 0; at + bytes <= state.size(); at += bytes) out.push_back(state.substr(at, bytes));
  return out;
}
}  // namespace

void run_ivm_skeleton(SkeletonRun& run) {
  if (launched_as_mpi_ranks()) {
    run_ivm_mpi(run);
    return;
  }
  IvmRanks one_process;
  run_ivm(run, one_process);
}

namespace {
// One run of the ivm skeleton in this process (rank): run_ivm()'s steps, each a member
// function, in the order run_ivm() calls them. What one step leaves for the next is a
// member, with the name it had as a local of the single function this was; members are
// declared in the order the steps make them, so they are destroyed as those locals were
// (the worker threads before the exchange they use, the devices' buffers before their
// contexts).
struct IvmRun {
  IvmRun(SkeletonRun& sr, IvmRanks& rk) : run(sr), ranks(rk), opts(sr.opts), r(sr.result), spec(sr.spec) {}

  // A checkpoint to resume from is read and checked before any compile: the run's
  // identity, with the options left unset taken from it.
  void read_resume() {
    id = IvmRunIdentity{kPermjitVersion, spec.name, opts.load.spec_path, spec.instance_path,
                        source_identity(run.source.text + generate_ivm_layout(spec).text) + data_identity(run.source.data), L,
                        0, 0,
                        goal_name(spec.goal), ub_text(opts)};
    if (!opts.resume.empty() && coordinator) saved = checked_resume(opts, id);
  }

  // The GPUs: the first, or those --gpus names; each has its context, made current on
  // the thread that runs it.
  // Over MPI a rank runs one GPU, and the run's workers are its ranks.
  void open_gpus() {
    dev = open_device(r.skeleton, r);
    // (--gpus under mpirun was refused with the options.)
    ordinals = ranks.size() > 1 ? std::vector<int>{ranks.local_gpu(cuda::device_count(nullptr))}
                                : parse_gpu_list(opts.gpus, cuda::device_count(nullptr));
    G = static_cast<int>(ordinals.size());        // this process's GPUs
    workers = ranks.size() > 1 ? ranks.size() : G;  // the run's
    first_worker = ranks.size() > 1 ? ranks.rank() : 0;
    if (workers > 1 && run.decision.records())
      command_line_error(ranks.size() > 1 ? "mpirun" : "--gpus " + opts.gpus, 1,
                         "the ivm skeleton lists, finds and stops at a target on one GPU; on several it proves and counts",
                         ranks.size() > 1 ? "run it in one process" : "leave out --gpus");
    for (int o : ordinals) devices.push_back(cuda::describe_device(o));
    for (const cuda::Device& d : devices)
      if (d.arch() != devices[0].arch() || d.sm_count != devices[0].sm_count)
        command_line_error("--gpus " + opts.gpus, 8,
                           "the GPUs differ (" + devices[0].name + ", " + d.name + "); the ivm skeleton runs on GPUs of one kind",
                           "name GPUs of one kind, e.g. --gpus 0,1");
    dev = devices[0];
    if (workers > 1) r.device = std::to_string(workers) + " x " + r.device;
    for (int w = G - 1; w >= 0; --w) contexts.insert(contexts.begin(), std::make_unique<cuda::Context>(devices[static_cast<size_t>(w)]));
    // GPU 0's context is current here: the probe module below is its worker's.
  }

  // Compile. Rows in shared memory are a measured alternative (docs/skeletons.md).
  void compile() {
    block = opts.block();
    image = compile_gpu_module(run.units.device.value(), dev.arch(), run.cache());
    const auto t_load = clock_type::now();
    module = std::make_unique<cuda::Module>(image.cubin);
    add_compile_stages(r, nullptr, &image, since(t_load));
    r.cache_hit = image.cache_hit;
    r.t_compile = since(t0);
    mask_bytes = module->read_int("pj_ivm_mask_bytes");
    const int explorer_bytes = 1 + L * (2 + mask_bytes) + 8;
    PJ_INTERNAL_ASSERT(module->read_int("pj_ivm_explorer_bytes") == explorer_bytes,
                       "the IVM layout differs between the host and the device");
    // The open-work unit: read from the cache now when it is there, else compiled when
    // first needed (start_open_unit). Only rank 0 bounds open work.
    if (coordinator) open_unit.emplace(run.units.deferred.value(), dev.arch(), run.cache());
  }

  // Where the rows live, then as many explorers as the device runs at once (all must be
  // resident for the trigger to stop them), unless --explorers.
  void size_explorers() {
    // The warm start's incumbent, waited for before the search's clock starts.
    // Over MPI only rank 0's counts: another rank's warm start found a solution nobody records.
    start = coordinator ? run.start_bound() : std::nullopt;
    t1 = clock_type::now();
    CUfunction k_explore = module->function("pj_ivm_explore");
    const int row_bytes = L * module->read_int("pj_ivm_level_bytes");
    rows = place_rows(opts.ivm_rows, module->read_int("pj_ivm_shared_rows") != 0, row_bytes, block,
                      cuda::static_shared_bytes(k_explore), dev);
    if (rows.shared) cuda::allow_dynamic_shared(k_explore, rows.shared_bytes, "pj_ivm_explore");
    // Launched in blocks of `launch_block` threads, at most the compiled block (its
    // __launch_bounds__). With shared rows and no --block-size, the one that keeps the
    // most explorers resident: rows pack an SM's shared memory better in small blocks
    // (N-Queens 19 on the H100, 19 rows of 16 bytes: 5 blocks of 128 or 11 of 64 per SM,
    // searched in 2.31 s and 2.14 s).
    launch_block = block;
    if (rows.shared && opts.block_size == 0) {
      int most = 0;
      for (int b = 32; b <= block; b += 32) {
        int blocks = 0;
        cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_explore, b,
                                                                          static_cast<size_t>(row_bytes) * b),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor");
        if (blocks * b >= most) most = blocks * b, launch_block = b;  // a tie goes to the larger block
      }
      rows.shared_bytes = static_cast<size_t>(row_bytes) * static_cast<size_t>(launch_block);
    }
    // Assigned, not emplace()d: clang 14 (the fuzz build) sees the nested struct with
    // member initialisers as not default-constructible inside std::optional.
    r.ivm = SolveResult::Ivm{};
    SolveResult::Ivm& stats = *r.ivm;
    stats.rows = rows.describe();
    stats.gpus = workers;
    int blocks_per_sm = 0;
    cuda::check(cuda::api().OccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, k_explore, launch_block,
                                                                      rows.shared_bytes),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    // The same generated code (checked above) lays sets out in the same bytes.
    PJ_INTERNAL_ASSERT(opts.resume.empty() || !coordinator || saved.id.mask_bytes == mask_bytes,
                       "a checkpoint of the same generated code has other set sizes");
    id.mask_bytes = mask_bytes;
    if (!opts.resume.empty()) {
      stats.resumed_from = opts.resume;
    } else if (coordinator) {
      id.explorers = opts.explorers ? opts.explorers
                                    : static_cast<unsigned long long>(std::max(1, blocks_per_sm)) * launch_block *
                                          dev.sm_count;
    }
  }

  // What every rank's GPUs start from (rank 0 decides: the start incumbent, or a
  // resume's saved one), and the shape of their explorers and rounds.
  void share_start() {
    show = opts.progress == SolveOptions::Progress::on ||
           (opts.progress == SolveOptions::Progress::automatic && (stderr_is_terminal() || opts.on_progress));
    checkpoints = !opts.checkpoint.empty();
    // What a fresh run's GPUs start from: the start incumbent; a resume's, the saved one.
    if (!opts.resume.empty() && coordinator) {
      if (saved.results.size() != sizeof(PjGpuResults))
        command_line_error("--resume " + opts.resume, 10, opts.resume + ": damaged checkpoint: its results block has another size");
      std::memcpy(&resumed, saved.results.data(), sizeof resumed);
    }
    // How idle explorers take work between rounds: the defaults, or for measuring
    // PERMJIT_IVM_BALANCE (runtime/ivm/ivm_device.hpp).
    IvmBalance balance;
    if (const char* b = std::getenv("PERMJIT_IVM_BALANCE"); b && *b) balance = parse_ivm_balance(b);
    if (coordinator) {
      shared.explorers = id.explorers;
      // A quarter: the sweep of docs/performance.md found 10-50% of T best on the H100
      // (Carneiro Pessoa et al. 2016 settled on about 10% on a GTX 980); below, rounds are too short.
      shared.trigger = opts.trigger ? opts.trigger : std::max<unsigned long long>(1, id.explorers / 4);
      if (!opts.trigger && balance.trigger > 0)
        shared.trigger = std::max<unsigned long long>(
            1, static_cast<unsigned long long>(balance.trigger * static_cast<double>(id.explorers)));
      shared.start_best = !opts.resume.empty() ? resumed.best
                          : static_cast<int>(start ? *start : (spec.goal == Goal::maximize ? INT_MIN : INT_MAX));
      shared.ok = 1;
    }
    ranks.share(shared);
    id.explorers = shared.explorers;
    shape.T = shared.explorers;
    shape.trigger = shared.trigger;
    shape.levels = L;
    shape.mask_bytes = mask_bytes;
    shape.block = launch_block;
    shape.shared_rows = rows.shared;
    shape.shared_bytes = rows.shared_bytes;
    shape.optimise = optimise;
    shape.assign_start_bytes = static_cast<size_t>(module->read_int("pj_ivm_assign_start_bytes"));
    shape.slice = kRoundSlice;
    if (balance.slice)  // for measuring: another slice, or 0 for one GPU's rounds as they were
      shape.slice = *balance.slice > 0 ? *balance.slice
                    : workers > 1 ? kRoundSlice
                    : (show || checkpoints || opts.time_limit > 0) ? kUncutSlice : 0;
    if (checkpoints) shape.slice = std::min(shape.slice, opts.seconds_between_checkpoints());
    shape.balance = balance;
    r.ivm->balance = shape.balance.describe();
    r.ivm->explorers = shape.T;
    r.ivm->trigger = shape.trigger;
    r.block_size = launch_block;
  }

  // What each GPU starts from: a resume's images go to the pool and every GPU asks for
  // one; a fresh run cuts the leaves among all GPUs' explorers (one end) or gives the
  // root to GPU 0 (two ends: the others ask it for work).
  void open_exchange() {
    const size_t image_bytes = ExplorerArrays::bytes_for(shape.T, L, mask_bytes);
    start_best = shared.start_best;
    two_ends = spec.branch.ends == 2;
    std::vector<std::string> saved_images;
    if (!opts.resume.empty() && coordinator) {
      if (saved.state.size() % image_bytes != 0)
        command_line_error("--resume " + opts.resume, 10,
                           opts.resume + ": damaged checkpoint: its arrays do not fit " + std::to_string(shape.T) +
                               " explorers of " + std::to_string(L) + " levels");
      saved_images = images_of(saved.state, image_bytes);
      elapsed_before = saved.elapsed;
      r.ivm->rounds = saved.rounds;
      r.ivm->resumed_floor = saved.open_floor;
    }
    exchange.emplace(workers, optimise, spec.goal == Goal::maximize, start_best);
    exchange->add_to_pool(std::move(saved_images));
    // The local search beside the search (runtime/core/warm_start.hpp) lowers the
    // incumbent; its leaf is not in the workers' results, and solve() answers with it
    // where it is better (a checkpoint would keep only theirs, so solve() starts no local
    // search beside a search that writes one).
    if (run.warm && coordinator && optimise && opts.checkpoint.empty())
      exchange->take_outside_leaves([warm = run.warm](int best) -> std::optional<int> {
        const std::optional<WarmIncumbent> leaf = warm->better_than(best);
        return leaf ? std::optional<int>(static_cast<int>(leaf->value)) : std::nullopt;
      });
    // Rank 0's exchange answers for all; another rank's workers ask it through the client.
    peers = coordinator ? static_cast<IvmPeers*>(&*exchange) : ranks.client();
    r.t_host += since(t1);

    // Decision and enumeration (one GPU): the solution buffer, drained after every round.
    if (run.decision.records()) solutions.emplace(run.decision, spec.size);

    // SIGINT and SIGTERM stop the search as --time-limit does: the workers stop at a
    // checkpoint (written when one is asked for) and the result so far is printed, partial.
    // mpirun passes them to every rank; rank 0 stops them all.
    signals.emplace();
  }

  // One thread per GPU; this one shows progress and takes the checkpoints.
  void start_workers() {
    search_start = clock_type::now();
    finals.resize(static_cast<size_t>(G));
    device_stats.resize(static_cast<size_t>(G));
    if (coordinator) ranks.serve(*exchange);
    running = G;
    for (int w = 0; w < G; ++w) {
      std::unique_ptr<cuda::Module> own = w == 0 ? std::move(module) : nullptr;
      threads.emplace_back([this, w, own = std::move(own)]() mutable { work(w, std::move(own)); });
    }
  }

  // Whether a stop bounds the open work (bound_open_work): not a decision run's, which
  // stops at its target or its solution limit.
  bool stop_bounds() const { return !run.decision.fixed_incumbent && run.decision.solution_limit == 0; }

  // The open-work unit compiled beside the search (from kOpenUnitDelay on), on a thread
  // of its own, where the run may need it: a stop it expects (--time-limit; --checkpoint,
  // whose runs are stopped by signals), or the progress line's bound samples. A signal alone compiles it at the
  // stop (docs/reliability.md, "Partial answers": the stop's delay).
  void start_open_unit() {
    if (!open_unit) return;
    const bool samples = show && optimise;
    if (samples || ((opts.time_limit > 0 || checkpoints) && stop_bounds())) open_unit->start();
  }

  // The open-work unit's image, waited for or compiled now.
  const std::string& open_cubin() {
    PJ_INTERNAL_ASSERT(open_unit.has_value(), "only rank 0 bounds the open work");
    return open_unit->get().cubin;
  }

  // The end of the run: a compile started ahead and not needed is waited for (its image
  // is cached for the next run), and what the unit cost goes to r.
  void finish_open_unit() {
    if (!open_unit) return;
    const auto tw = clock_type::now();
    open_unit->wait();
    SolveResult::Ivm& stats = *r.ivm;
    stats.open_unit = deferred_how_name(open_unit->how());
    stats.t_open_compile = open_unit->compile_s();
    stats.t_open_wait = open_unit->waited_s() + since(tw);
  }

  // Another rank: its worker has ended; rank 0 reports.
  void finish_other_rank() {
    for (std::thread& t : threads) t.join();
    if (error) std::rethrow_exception(error);
    ranks.done(finals[0], device_stats[0]);
    r.silent = true;
  }

  // Rank 0: progress lines, checkpoints, --time-limit and the stop signals while the
  // workers search; returns when they have ended.
  void supervise() {
    ProgressMeter meter = show && opts.on_progress ? ProgressMeter(r.skeleton, opts.on_progress) : ProgressMeter(r.skeleton, show);
    meter.start(elapsed_before);
    const double space = pj_ivm::space_size(L);
    const bool maximise = spec.goal == Goal::maximize;
    double next_checkpoint = elapsed() + opts.seconds_between_checkpoints();
    double next_bound_sample = elapsed() + kBoundSampleEvery;
    last_bound_sample = elapsed();
    if (saved.open_floor) sampled_bound = saved.open_floor;
    unsigned long long idle_shown_busy = 0, idle_shown_whole = 0;  // at the last progress line
    try {
      // Looks at least every 0.1 s, and when a checkpoint is due (--checkpoint-every may
      // ask for one after every round: the GPUs deposit at their next round's end).
      auto wait = [&] { return checkpoints ? std::clamp(next_checkpoint - elapsed(), 0.0, 0.1) : 0.1; };
      const double open_unit_at = opts.time_limit > 0 ? std::min(kOpenUnitDelay, opts.time_limit / 4) : kOpenUnitDelay;
      bool open_unit_started = false;
      while (!exchange->wait_finished(wait()) && running > 0 && !exchange->aborted()) {
        const double now = elapsed();
        if (!open_unit_started && since(search_start) >= open_unit_at) {
          start_open_unit();
          open_unit_started = true;
        }
        if (meter.due(now)) {
          ProgressSample s{now, 1.0 - exchange->remaining_leaves() / space, exchange->evaluated(), std::nullopt};
          // The incumbent from the start: a warm start's or a resume's is a solution the
          // result reports, and --ub's the value the result's gap is measured from.
          if (optimise && exchange->best() != (maximise ? INT_MIN : INT_MAX)) s.incumbent = exchange->best();
          // The idle share since the previous line, of this process's GPUs.
          const unsigned long long busy = idle_totals.busy_ns, whole = idle_totals.explorer_ns;
          // (Two counters read apart: a round may be in one and not yet in the other.)
          if (whole > idle_shown_whole && busy >= idle_shown_busy) {
            const double busy_share =
                static_cast<double>(busy - idle_shown_busy) / static_cast<double>(whole - idle_shown_whole);
            s.idle = std::clamp(1.0 - busy_share, 0.0, 1.0);
          }
          idle_shown_busy = busy;
          idle_shown_whole = whole;
          if (sampled_bound) s.bound = sampled_bound;
          meter.print(s);
        }
        // The proven bound on the progress line: every kBoundSampleEvery seconds the open
        // work is bounded and refined as at a stop (sample_bound).
        // The first waits for the open-work unit, compiled since the search started.
        if (meter.enabled() && optimise && now >= next_bound_sample && open_unit->ready()) {
          sample_bound(now);
          next_bound_sample = elapsed() + kBoundSampleEvery;
        }
        // --time-limit: checked here, between rounds (a round is cut at its time slice);
        // the workers stop at a checkpoint, written when one is asked for.
        timed_out = opts.time_limit > 0 && since(search_start) >= opts.time_limit;
        const bool signalled = StopSignals::requested();
        const bool stop = signalled || timed_out;
        if (checkpoints && (now >= next_checkpoint || stop)) {
          save(stop);
          next_checkpoint = now + opts.seconds_between_checkpoints();
        } else if (stop) {
          stopped_at = exchange->take_checkpoint();  // every worker deposits its state at its round's end
          exchange->release(true);                    // and stops
        }
        if (stop) {
          interrupted = signalled;
          break;
        }
      }
    } catch (...) {
      exchange->abort();
      for (std::thread& t : threads) t.join();
      throw;
    }
    for (std::thread& t : threads) t.join();
    meter.finish();
    if (error) std::rethrow_exception(error);
  }

  // The whole run's answer: every rank's and GPU's results merged into r.
  void report() {
    SolveResult::Ivm& stats = *r.ivm;
    ranks.collect(finals, device_stats);  // the other ranks' workers, over MPI (they have ended too)
    stats.ranks = ranks.size() > 1 ? ranks.size() : 0;
    stats.messages = ranks.messages();
    stats.coordinator_busy = ranks.busy_seconds();
    if (interrupted) {
      r.interrupted = StopSignals::signal_number();
      if (checkpoints)
        std::fprintf(stderr, "permjit: interrupted by signal %d after %.1f s; the checkpoint %s holds the search: "
                     "continue it with --resume %s\n", r.interrupted, elapsed(), opts.checkpoint.c_str(),
                     opts.checkpoint.c_str());
    }

    PjGpuResults out = finals[0];
    for (size_t i = 1; i < finals.size(); ++i) merge_results(out, finals[i], spec.goal == Goal::maximize);
    for (const IvmDeviceStats& d : device_stats) {
      stats.rounds += d.rounds;
      stats.steals += d.steals;
      stats.t_balance += d.t_balance;
      const IvmIdleSample& i = d.idle;
      IvmIdleSample& t = stats.idle.total;
      t.t = std::max(t.t, i.t);
      t.wall_s = std::max(t.wall_s, i.wall_s);
      t.rounds += i.rounds;
      t.steals += i.steals;
      t.evaluated += i.evaluated;
      t.explorer_s += i.explorer_s;
      t.busy_s += i.busy_s;
      t.busy_start += i.busy_start;
      r.t_kernels = std::max(r.t_kernels, d.t_kernels);  // the busiest GPU's
    }
    stats.idle.samples = std::move(first_gpu_idle.samples);
    stats.transfers = exchange->transfers();
    const bool stopped = timed_out || interrupted;
    if (checkpoints && !stopped) save(false);  // the finished search: resuming it reports the result at once
    // Stopped at --time-limit or by a signal: the result so far, partial, with what the
    // open work proves (docs/reliability.md, "Partial answers").
    r.time_limit = opts.time_limit;
    r.stopped = stopped;
    r.expanded = out.expanded;
    r.evaluated = out.evaluated;
    r.solutions = out.solutions;
    if (out.found) {
      r.found = true;
      r.objective = out.recorded;
      r.permutation.assign(out.perm, out.perm + spec.size);
    }
    if (solutions) solutions->report(r, optimise);
    if (stopped && stopped_at && stop_bounds()) bound_open_work(out.best);
    // The search's seconds: not the wait for the open-work unit's compile (r.ivm's).
    r.t_search = since(t1) - open_unit->waited_s();
  }

  // A stopped search's proven bound: what the open work the stop took (stopped_at) can
  // still hold, below `best`, the incumbent every worker ended with (the start's, if none
  // improved it).
  //
  // The least open bound is then refined (IDA* over the open work, runtime/ivm/
  // ivm_open_bound.hpp) for a share of the run's search seconds, all runs of it
  // (kRefineShare), from the floor the checkpoint resumed from: the longer a run, resumed
  // or not, the higher its bound can go. A stopped run with --checkpoint writes its
  // checkpoint again with the bound as its floor.
  void bound_open_work(int best) {
    const bool maximise = spec.goal == Goal::maximize;
    IvmRefineAsk ask;
    ask.budget_s = refine_share() * elapsed();  // the search's seconds: not the wait below
    if (sampled_bound) ask.floor_key = maximise ? -*sampled_bound : *sampled_bound;  // the checkpoint's floor at least
    const std::string& cubin = open_cubin();
    const auto tb = clock_type::now();
    IvmRefineDone done;
    const PjCpuResult open = ivm_open_work(cubin, run.units.deferred.value().data, shape, stopped_at->images, best,
                                           optimise, maximise, ask, &done);
    std::optional<long long> incumbent;
    if (r.found) incumbent = r.objective;
    else if (optimise && best != (maximise ? INT_MIN : INT_MAX)) incumbent = best;
    set_partial_bound(r, open, incumbent);
    r.ivm->t_refine = done.seconds;
    r.ivm->refine_passes = done.passes;
    r.ivm->refine_depth = done.depth;
    r.ivm->refine_nodes = done.nodes;
    if (done.proved_key != LLONG_MIN) r.ivm->refine_proved = maximise ? -done.proved_key : done.proved_key;
    r.ivm->t_open_bound = since(tb);
    // The floor: every leaf the stop left is at least the proven bound.
    // (The proven bound is one: every leaf is at least the root's bound.)
    if (stopped_checkpoint && r.proven_bound) {
      stopped_checkpoint->open_floor = *r.proven_bound;
      write_checkpoint(opts.checkpoint, *stopped_checkpoint);
    }
  }

  // A proven bound while the search runs, for the progress line: every worker deposits
  // its explorers at its round's end, as for a checkpoint, and waits while the images
  // are bounded and refined on GPU 0 for kRefineShare of the seconds since the last
  // sample, from the last sample's bound; then they go on. The work left only shrinks,
  // so every sample's bound holds for the rest of the run: the stop's refinement starts
  // from the last (sampled_bound). The workers wait because nothing of this may run
  // beside a round: a round ends when the interrupter's copy reaches its kernel, and an
  // allocation or a copy on the default stream on another thread waits for that kernel
  // (launched beside a round, the first sample of ta051 on the H100 never returned).
  void sample_bound(double now) {
    const auto ts = clock_type::now();
    IvmExchange::Snapshot snap = exchange->take_checkpoint();
    struct Release {  // the workers go on however this ends
      IvmExchange& x;
      ~Release() { x.release(false); }
    } release{*exchange};
    if (exchange->aborted() || snap.images.empty()) return;
    cuda::check(cuda::api().CtxSetCurrent(contexts[0]->handle()), "cuCtxSetCurrent (ivm bound sample)");
    const bool maximise = spec.goal == Goal::maximize;
    IvmRefineAsk ask;
    ask.budget_s = refine_share() * std::max(0.0, now - last_bound_sample);
    if (sampled_bound) ask.floor_key = maximise ? -*sampled_bound : *sampled_bound;
    const int best = snap.results.best;
    const PjCpuResult open = ivm_open_work(open_cubin(), run.units.deferred.value().data, shape, snap.images, best,
                                           optimise, maximise, ask);
    SolveResult scratch;
    scratch.goal = spec.goal;
    std::optional<long long> incumbent;
    if (snap.results.found) incumbent = snap.results.recorded;
    else if (best != (maximise ? INT_MIN : INT_MAX)) incumbent = best;
    set_partial_bound(scratch, open, incumbent);
    if (scratch.proven_bound)
      sampled_bound = !sampled_bound ? *scratch.proven_bound
                      : maximise     ? std::min(*sampled_bound, *scratch.proven_bound)
                                     : std::max(*sampled_bound, *scratch.proven_bound);
    last_bound_sample = now;
    ++r.ivm->bound_samples;
    r.ivm->t_bound_samples += since(ts);
  }

  // The share of the search's seconds the refinement of a stopped search's bound takes
  // (PERMJIT_IVM_REFINE, for measuring; 0: none).
  static double refine_share() {
    if (const char* s = std::getenv("PERMJIT_IVM_REFINE"); s && *s) return std::max(0.0, std::atof(s));
    return kRefineShare;
  }

  // GPU w's thread: its context, its device state from the start, then its rounds.
  void work(int w, std::unique_ptr<cuda::Module> own) {
    const int worker = first_worker + w;  // its number among the run's workers
    try {
      const size_t i = static_cast<size_t>(w);
      cuda::check(cuda::api().CtxSetCurrent(contexts[i]->handle()), "cuCtxSetCurrent (ivm worker)");
      IvmDevice d(contexts[i]->handle(), std::move(own), image.cubin, shape, run.units.device.value().data);
      if (!opts.resume.empty()) {
        PjGpuResults mine{};
        mine.best = mine.recorded = start_best;
        d.start_results(worker == 0 ? resumed : mine);
      } else if (two_ends) {
        d.start(first_results(worker, start_best, run), 0, 0, worker == 0);
      } else {
        const unsigned long long parts = shape.T * static_cast<unsigned long long>(workers);
        d.start(first_results(worker, start_best, run), shape.T * static_cast<unsigned long long>(worker), parts,
                false);
      }
      if (solutions) d.attach(&*solutions);
      d.report_idle_to(&idle_totals);
      std::shared_ptr<void> asked = d.interruptible_by(*peers, worker);
      run_ivm_worker(*peers, worker, d, optimise);
      finals[i] = d.results();
      device_stats[i] = d.stats();
      if (w == 0) first_gpu_idle = d.idle();
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_m);
      if (!error) error = std::current_exception();
      exchange->abort();
    }
    --running;
  }

  double elapsed() const { return elapsed_before + since(search_start); }

  // A checkpoint of every worker's state (they deposit it at their round's end); `stop`:
  // they stop after it.
  void save(bool stop) {
    auto ts = clock_type::now();
    IvmExchange::Snapshot snap = exchange->take_checkpoint();
    if (!exchange->aborted()) {
      IvmCheckpoint c{id, elapsed(), r.ivm->rounds, std::string(sizeof(PjGpuResults), '\0'), {}};
      std::memcpy(c.results.data(), &snap.results, sizeof snap.results);
      for (const std::string& img : snap.images) c.state += img;
      write_checkpoint(opts.checkpoint, c);
      if (stop) stopped_checkpoint = std::move(c);  // written again with the bound's floor (bound_open_work)
    }
    exchange->release(stop);
    r.t_transfers += since(ts);
    if (stop) stopped_at = std::move(snap);
  }

  SkeletonRun& run;
  IvmRanks& ranks;
  const bool coordinator = ranks.rank() == 0;  // supervises, reads and writes checkpoints, reports
  const SolveOptions& opts;
  SolveResult& r;
  const ProblemSpec& spec;
  const bool optimise = optimises(spec.goal);
  const int L = ivm_levels(spec);
  const clock_type::time_point t0 = clock_type::now();
  // read_resume()
  IvmRunIdentity id;
  IvmCheckpoint saved;
  // open_gpus()
  cuda::Device dev;
  std::vector<int> ordinals;
  int G = 0;             // this process's GPUs
  int workers = 0;       // the run's
  int first_worker = 0;  // this process's first among them
  std::vector<cuda::Device> devices;
  std::vector<std::unique_ptr<cuda::Context>> contexts;
  // compile()
  int block = 0;
  GpuModuleImage image;
  std::unique_ptr<cuda::Module> module;
  int mask_bytes = 0;
  std::optional<DeferredGpuModule> open_unit;  // rank 0's: the open-work kernels
  // size_explorers()
  std::optional<long long> start;
  clock_type::time_point t1;
  RowPlacement rows;
  int launch_block = 0;
  // share_start()
  bool show = false;
  bool checkpoints = false;
  PjGpuResults resumed{};
  IvmShared shared;
  IvmShape shape;
  // open_exchange()
  int start_best = 0;
  bool two_ends = false;
  double elapsed_before = 0;
  std::optional<IvmExchange> exchange;
  IvmPeers* peers = nullptr;
  std::optional<DeviceSolutions> solutions;
  std::optional<StopSignals> signals;
  // start_workers()
  clock_type::time_point search_start;
  std::vector<PjGpuResults> finals;
  std::vector<IvmDeviceStats> device_stats;
  IvmIdleTotals idle_totals;  // this process's GPUs, for the progress lines
  IvmIdleSummary first_gpu_idle;
  std::exception_ptr error;
  std::mutex error_m;
  std::atomic<int> running{0};
  std::vector<std::thread> threads;
  // supervise()
  // The images and results the stop took: the open work a stopped search bounds.
  std::optional<IvmExchange::Snapshot> stopped_at;
  std::optional<IvmCheckpoint> stopped_checkpoint;  // the stop's checkpoint, when one was asked for
  // The highest bound proven so far on the work left (the checkpoint's floor, then the
  // progress line's samples), and when it was last sampled.
  std::optional<long long> sampled_bound;
  double last_bound_sample = 0;
  bool interrupted = false, timed_out = false;
};
}  // namespace

void run_ivm(SkeletonRun& run, IvmRanks& ranks) {
  IvmRun ivm(run, ranks);
  ivm.read_resume();
  ivm.open_gpus();
  ivm.compile();
  ivm.size_explorers();
  ivm.share_start();
  ivm.open_exchange();
  ivm.start_workers();
  if (!ivm.coordinator) {
    ivm.finish_other_rank();
    return;
  }
  ivm.supervise();
  ivm.report();
  ivm.finish_open_unit();
}


}  // namespace permjit
