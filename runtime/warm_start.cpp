#include "runtime/core/warm_start.hpp"

#include <chrono>
#include <exception>

#include "runtime/core/problem_order.hpp"
#include "runtime/solve.hpp"

namespace permjit {

bool WarmStart::wanted(const SolveOptions& opts, const ProblemSpec& spec, bool gpu_skeleton) {
  const bool optimise = spec.goal == Goal::minimize || spec.goal == Goal::maximize;
  // --ub gives the incumbent; a resumed search has its own.
  return gpu_skeleton && optimise && !opts.ub && opts.resume.empty() && opts.warm_start_seconds() > 0;
}

WarmStart::WarmStart(const SolveOptions& opts, const ProblemSpec& spec) {
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
  thread_ = std::thread([this, fresh, &spec] {
    auto t0 = std::chrono::steady_clock::now();
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
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
}

WarmStart::~WarmStart() {
  if (thread_.joinable()) thread_.join();
}

const std::optional<WarmIncumbent>& WarmStart::wait() {
  if (!joined_) {
    auto t0 = std::chrono::steady_clock::now();
    thread_.join();
    waited_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    joined_ = true;
  }
  return best_;
}

}  // namespace permjit
