#include "runtime/distributed/range_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/gpu_host.hpp"  // host_threads
#include "runtime/compile/host_compiler.hpp"
#include "runtime/core/partial_bound.hpp"
#include "runtime/core/skeleton_run.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/core/version.hpp"
#include "runtime/device/kernel_interrupter.hpp"
#include "runtime/distributed/checkpoint_fields.hpp"  // source_identity, data_identity
#include "templates/host_deadline.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

bool improves(Goal goal, long long value, long long best) {
  return goal == Goal::maximize ? value > best : value < best;
}

// Subtrees per worker thread in a fresh frontier: many more subtrees than threads, so
// that ranges shrink to a few subtrees at the end and the last ones finish together.
constexpr unsigned long long kSubtreesPerThread = 128;
}  // namespace

CpuRunOptions range_options(int threads, std::optional<long long> incumbent, double time_left,
                            const volatile int* stop_request) {
  CpuRunOptions o;
  o.threads = threads;
  o.ub = incumbent;
  // A limit already passed still stops the range at once: a tiny positive one.
  o.time_limit_s = time_left == 0 ? 0 : std::max(time_left, 1e-6);
  o.stop_request = stop_request;
  return o;
}

RangeCoordinator::RangeCoordinator(SkeletonRun& run, int workers, int threads)
    : run_(run), workers_(workers), threads_(threads), started_(clock_type::now()) {
  const SolveOptions& opts = run.opts;
  const Decision& d = run.decision;
  // The ranges search counts and optima only: check_decision_options (runtime/decision.cpp)
  // refused lists, finds and targets with a checkpoint or over MPI ranks.
  PJ_INTERNAL_ASSERT(!d.list && d.solution_limit == 0 && !d.fixed_incumbent,
                     "a run range by range was asked to record solutions");
  std::optional<long long> start = run.opts.ub;
  id_ = {kPermjitVersion, run.spec.name, opts.load.spec_path, run.spec.instance_path,
         source_identity(run.source.text) + data_identity(run.source.data), goal_name(run.spec.goal),
         start ? std::to_string(*start) : "none", 0, 0};
  if (!opts.resume.empty()) {
    const std::string shown = "--resume " + opts.resume;
    RangeCheckpoint saved;
    try {
      saved = read_range_checkpoint(opts.resume);
    } catch (const std::runtime_error& e) {
      command_line_error(shown, 10, e.what());
    }
    if (!opts.ub) id_.ub = saved.id.ub;  // the start incumbent is the checkpoint's
    std::string why = range_resume_mismatch(saved.id, id_);
    if (!why.empty()) command_line_error(shown, 10, "cannot resume from " + opts.resume + ":\n" + why);
    id_.split_depth = saved.id.split_depth;
    id_.frontier_nodes = saved.id.frontier_nodes;
    resumed_ = saved;
  }
  // A test hook: stop (as at a time limit) after this many ranges are finished, so that
  // a test can interrupt a run at a chosen point and resume it.
  if (const char* s = std::getenv("PERMJIT_STOP_AFTER_RANGES")) stop_after_ = std::strtoull(s, nullptr, 10);
}

FrontierPlan RangeCoordinator::plan() const {
  FrontierPlan p;
  p.depth = id_.split_depth;
  p.has_ub = id_.ub != "none";
  p.ub = p.has_ub ? std::stoll(id_.ub) : 0;
  return p;
}

unsigned long long RangeCoordinator::min_nodes() const {
  return kSubtreesPerThread * static_cast<unsigned long long>(workers_) * static_cast<unsigned long long>(threads_);
}

void RangeCoordinator::start(const PjCpuResult& frontier) {
  frontier_depth_ = frontier.frontier_depth;
  frontier_nodes_ = frontier.frontier_nodes;
  if (resumed_) {
    // The checkpoint's own fields, checksum and all, may still disagree with what its
    // run identity rebuilds: a file edited and summed again is input, not our bug.
    const std::string shown = "--resume " + run_.opts.resume;
    const std::string damaged = run_.opts.resume + ": damaged checkpoint: ";
    if (frontier.frontier_depth != resumed_->id.split_depth || frontier.frontier_nodes != resumed_->id.frontier_nodes)
      command_line_error(shown, 10,
                         damaged + "its frontier (depth " + std::to_string(resumed_->id.split_depth) + ", " +
                             std::to_string(resumed_->id.frontier_nodes) + " nodes) is not the one its run builds (depth " +
                             std::to_string(frontier.frontier_depth) + ", " + std::to_string(frontier.frontier_nodes) +
                             " nodes)");
    if (resumed_->found) {
      std::vector<int> seen(run_.spec.size, 0);
      bool ok = resumed_->perm.size() == static_cast<size_t>(run_.spec.size);
      for (int v : resumed_->perm) ok = ok && v >= 0 && v < run_.spec.size && !seen[v]++;
      if (!ok) command_line_error(shown, 10, damaged + "its best leaf is not a permutation of 0.." +
                                                 std::to_string(run_.spec.size - 1));
    }
    expanded_ = resumed_->expanded;
    evaluated_ = resumed_->evaluated;
    solutions_ = resumed_->solutions;
    found_ = resumed_->found;
    best_ = resumed_->best;
    perm_ = resumed_->perm;
    elapsed_before_ = resumed_->elapsed;
    schedule_.emplace(frontier.frontier_nodes, resumed_->done, workers_);
  } else {
    id_.split_depth = frontier.frontier_depth;
    id_.frontier_nodes = frontier.frontier_nodes;
    expanded_ = frontier.expanded;
    evaluated_ = frontier.evaluated;
    solutions_ = frontier.solutions;
    found_ = frontier.found != 0;
    best_ = frontier.best;
    perm_.assign(frontier.perm, frontier.perm + (found_ ? frontier.size : 0));
    schedule_.emplace(frontier.frontier_nodes, std::vector<Range>{}, workers_);
  }
  started_ = clock_type::now();
  next_save_ = pj::deadline_after<clock_type>(started_, run_.opts.seconds_between_checkpoints());
}

bool RangeCoordinator::stopping() const {
  return stop_ || StopSignals::requested() || (run_.opts.time_limit > 0 && time_left() < 0);
}

std::optional<Range> RangeCoordinator::next() {
  if (stopping()) return std::nullopt;
  return schedule_->next();
}

void RangeCoordinator::report(Range r, const PjCpuResult& out) {
  if (out.found && (!incumbent() || improves(run_.spec.goal, out.best, *incumbent()))) {
    found_ = true;
    best_ = out.best;
    perm_.assign(out.perm, out.perm + out.size);
  }
  donations_ += out.donations;
  if (out.stopped) {
    stop_ = true;  // a time limit or a signal stopped it: the range is searched again on resume
  } else {
    expanded_ += out.expanded;
    evaluated_ += out.evaluated;
    solutions_ += out.solutions;
    schedule_->finish(r);
    ++ranges_;
    if (stop_after_ && ranges_ >= *stop_after_) stop_ = true;
  }
  if (!run_.opts.checkpoint.empty() && clock_type::now() >= next_save_) {
    save();
    next_save_ = pj::deadline_after<clock_type>(clock_type::now(), run_.opts.seconds_between_checkpoints());
  }
}

std::optional<long long> RangeCoordinator::incumbent() const {
  if (found_) return best_;
  const FrontierPlan p = plan();
  if (p.has_ub) return p.ub;
  return std::nullopt;
}

double RangeCoordinator::time_left() const {
  if (run_.opts.time_limit <= 0) return 0;
  const double left = run_.opts.time_limit - since(started_);
  return left == 0 ? -1e-9 : left;
}

void RangeCoordinator::save() {
  RangeCheckpoint c;
  c.id = id_;
  c.elapsed = elapsed_before_ + since(started_);
  c.expanded = expanded_;
  c.evaluated = evaluated_;
  c.solutions = solutions_;
  c.found = found_;
  c.best = best_;
  c.perm = perm_;
  c.done = schedule_->done();
  write_range_checkpoint(run_.opts.checkpoint, c);
}

void RangeCoordinator::finish(SolveResult& r, int ranks, const CpuRanges& frontier) {
  if (!run_.opts.checkpoint.empty()) save();
  r.ranks = ranks;
  r.ranges = ranges_;
  r.resumed_subtrees = resumed_ ? RangeSchedule(frontier_nodes_, resumed_->done, 1).finished() : 0;
  r.device = "host CPU";
  r.threads = threads_;
  r.frontier_depth = frontier_depth_;
  r.frontier_nodes = frontier_nodes_;
  r.expanded = expanded_;
  r.evaluated = evaluated_;
  r.solutions = solutions_;
  r.found = found_;
  r.objective = found_ ? best_ : (incumbent() ? *incumbent() : 0);
  if (found_) r.permutation = perm_;
  r.donations = donations_;
  r.time_limit = run_.opts.time_limit;
  r.stopped = !schedule_->all_finished();
  // What the stopped run proves: every subtree of a range not finished is open (a range
  // a stop cut short is searched again on resume, so it counts whole).
  if (r.stopped) {
    PjCpuResult open{};
    for (const Range& left : ranges_left(schedule_->size(), schedule_->done())) {
      const PjCpuResult part = frontier.open_work(left.begin, left.end, incumbent());
      if (part.open_subtrees == 0) continue;
      open.open_bound = !open.open_subtrees ? part.open_bound
                        : run_.spec.goal == Goal::maximize ? std::max(open.open_bound, part.open_bound)
                                                           : std::min(open.open_bound, part.open_bound);
      open.open_bound_known = (!open.open_subtrees || open.open_bound_known) && part.open_bound_known;
      open.open_subtrees += part.open_subtrees;
      open.root_bound = part.root_bound;
    }
    set_partial_bound(r, open, incumbent());
  }
  // A signal stops the run as a time limit does: the partial result is printed (exit
  // 128 + N), and stderr says where the search continues.
  if (StopSignals::requested()) {
    r.interrupted = StopSignals::signal_number();
    if (!run_.opts.checkpoint.empty())
      std::fprintf(stderr, "permjit: interrupted by signal %d; the checkpoint %s holds the search: continue it with --resume %s\n",
                   r.interrupted, run_.opts.checkpoint.c_str(), run_.opts.checkpoint.c_str());
  }
}

void run_cpu_ranges(SkeletonRun& run) {
  const auto t0 = clock_type::now();
  SolveResult& r = run.result;
  const int threads = host_threads(run.opts);
  RangeCoordinator coordinator(run, 1, threads);
  HostModule compiled = compile_host_module(*run.units.host, run.cache());
  CpuModule module(compiled);
  const auto t1 = clock_type::now();
  r.cache_hit = compiled.cache_hit;
  r.compile.host = compiled.seconds;
  r.t_compile = std::chrono::duration<double>(t1 - t0).count();

  // SIGINT and SIGTERM stop the search and leave the checkpoint (only when one is written).
  std::optional<StopSignals> signals;
  if (!run.opts.checkpoint.empty()) signals.emplace();
  const FrontierPlan plan = coordinator.plan();
  CpuRunOptions fo;
  fo.threads = threads;
  fo.split_depth = run.opts.split_depth;
  if (plan.has_ub) fo.ub = plan.ub;
  // A signal during a deep frontier's build ends the run there: no range has started,
  // so the checkpoint, if one exists already, stays as it was.
  fo.stop_request = signals ? StopSignals::flag() : nullptr;
  std::optional<CpuRanges> built;
  try {
    built.emplace(module, fo, plan.depth, coordinator.min_nodes());
  } catch (const FrontierStopped&) {
    throw SearchInterrupted("interrupted by signal " + std::to_string(StopSignals::signal_number()) +
                                " while the frontier was built; nothing was searched and " +
                                (run.opts.resume.empty() ? std::string("no checkpoint was written")
                                                         : "the checkpoint " + run.opts.resume + " is unchanged"),
                            StopSignals::signal_number());
  }
  CpuRanges& ranges = *built;
  coordinator.start(ranges.frontier());
  while (std::optional<Range> next = coordinator.next()) {
    CpuRunOptions o = range_options(threads, coordinator.incumbent(), coordinator.time_left(),
                                    signals ? StopSignals::flag() : nullptr);
    coordinator.report(*next, ranges.search(next->begin, next->end, o));
  }
  r.t_search = since(t1);
  coordinator.finish(r, 1, ranges);
}

}  // namespace permjit
