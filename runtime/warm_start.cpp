#include "runtime/core/warm_start.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "runtime/compile/cpu_module.hpp"
#include "runtime/compile/cache_dir_option.hpp"
#include "runtime/compile/gpu_host.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/core/problem_order.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }
}  // namespace

bool WarmStart::wanted(const SolveOptions& opts, const ProblemSpec& spec, bool gpu_skeleton) {
  const bool optimise = spec.goal == Goal::minimize || spec.goal == Goal::maximize;
  // --ub gives the incumbent; a resumed search has its own.
  return gpu_skeleton && optimise && !opts.ub && opts.resume.empty() && opts.warm_start_seconds() > 0;
}

int WarmStart::beside_threads(const SolveOptions& opts) { return std::max(1, host_threads(opts) / 4); }

WarmStart::WarmStart(const SolveOptions& opts, const ProblemSpec& spec, bool beside) : goal_(spec.goal) {
  // A solve of its own: the GPU skeletons' options do not apply to the cpu skeleton.
  SolveOptions fresh;
  fresh.load = opts.load;
  fresh.backend = "cpu";
  fresh.skeleton = "cpu";
  fresh.threads = opts.threads;
  fresh.time_limit = opts.warm_start_seconds();
  // Then as long again of local search from its best leaf, if the search did not finish.
  fresh.improve = opts.warm_start_seconds();
  fresh.cache_dir = opts.cache_dir;
  fresh.one_process = true;  // under mpirun too: rank 0's GPU search takes its incumbent
  fresh.progress = SolveOptions::Progress::off;
  const int threads = beside ? beside_threads(opts) : 0;
  thread_ = std::thread([this, fresh, threads, &spec] {
    auto t0 = clock_type::now();
    try {
      SolveResult r = solve(fresh);
      // solve() answers in the problem's order of the positions; the skeletons take the
      // incumbent in the search's (runtime/core/problem_order.hpp).
      if (r.found) best_ = WarmIncumbent{r.objective, in_search_order(spec, r.permutation)};
      improve_ = r.improve;
      complete_ = !r.stopped;
    } catch (const std::exception& e) {
      failure_ = e.what();
    }
    seconds_ = since(t0);
    {
      std::lock_guard<std::mutex> g(lock_);
      latest_ = best_;
      ready_ = true;
    }
    ready_cv_.notify_all();
    // Nothing to improve on: the search proved its leaf optimal, or found none.
    if (threads > 0 && best_ && !complete_ && !(improve_ && improve_->optimal)) {
      try {
        search_beside(fresh, threads);
      } catch (const std::exception& e) {
        if (failure_.empty()) failure_ = std::string("local search beside the search: ") + e.what();
      }
    }
  });
}

// The local search from the first phase's leaf until finish(), with the module the first
// phase compiled (the module cache has it: no second compile).
void WarmStart::search_beside(const SolveOptions& fresh, int threads) {
  const auto t0 = clock_type::now();
  const PreparedSolve p = prepare_solve(fresh);
  HostModule mod = compile_host_module(*p.units.host, open_module_cache(fresh.cache_dir));
  CpuModule module(mod);
  SolveResult::BesideReport report;
  report.threads = threads;
  ImproveOptions io;
  io.threads = threads;
  io.seconds = 1e9;      // until finish() or restart_from()
  io.seed = 0x5eed;      // other chains than the first phase's
  io.stop = &restart_;   // finish() sets it too
  io.on_better = [&](std::span<const int> perm, long long value) {
    {
      std::lock_guard<std::mutex> g(lock_);
      if (!offer_locked(perm, value)) return;
    }
    ++report.improvements;
    report.best = value;
  };
  for (;;) {
    WarmIncumbent start;
    {
      // stop_ read and restart_ cleared under the lock finish() writes both under: a
      // finish() after this sees its restart_ kept, and the chains end.
      std::lock_guard<std::mutex> g(lock_);
      if (stop_) break;
      restart_ = 0;
      start = *latest_;
    }
    const PjImproveResult m = module.improve(start.permutation, start.value, io);
    report.iterations += m.iterations;
    ++report.starts;
    ++io.seed;
    if (m.optimal) break;  // a leaf at the root's bound: nothing is better
  }
  report.seconds = since(t0);
  beside_ = report;
}

bool WarmStart::offer_locked(std::span<const int> perm, long long value) {
  if (latest_ && !better(value, latest_->value)) return false;
  latest_ = WarmIncumbent{value, std::vector<int>(perm.begin(), perm.end())};
  return true;
}

void WarmStart::restart_from(std::span<const int> perm, long long value) {
  std::lock_guard<std::mutex> g(lock_);
  if (offer_locked(perm, value)) restart_ = 1;
}

WarmStart::~WarmStart() { finish(); }

const std::optional<WarmIncumbent>& WarmStart::wait() {
  std::unique_lock<std::mutex> l(lock_);
  if (!waited_once_) {
    auto t0 = clock_type::now();
    ready_cv_.wait(l, [this] { return ready_; });
    waited_ = since(t0);
    waited_once_ = true;
  }
  return best_;
}

std::optional<WarmIncumbent> WarmStart::better_than(long long value) const {
  std::lock_guard<std::mutex> g(lock_);
  if (!ready_ || !latest_ || !better(latest_->value, value)) return std::nullopt;
  return latest_;
}

std::optional<WarmIncumbent> WarmStart::best_known() const {
  std::lock_guard<std::mutex> g(lock_);
  return ready_ ? latest_ : std::nullopt;
}

void WarmStart::finish() {
  {
    std::lock_guard<std::mutex> g(lock_);
    stop_ = 1;
    restart_ = 1;
  }
  if (thread_.joinable()) thread_.join();
}

}  // namespace permjit
