// SIGINT or SIGTERM during a plain `cpu` search (no checkpoint): the search stops as at a
// time limit and the result says so, with what was found, instead of the process dying
// with its incumbent. The signal is raised in this process, once permjit has put its
// handler in place (before that, the default action would end the test run).
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "e2e_support.hpp"
#include "flowshop_support.hpp"
#include "runtime/core/result.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals

using namespace permjit;
using namespace permjit::test;

namespace {

using Handler = void (*)(int);
Handler handler_of(int sig) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler;
}

// Solves `o`, raising `sig` `after` into the search: once permjit handles the signal as
// a request to stop (only while it searches: StopSignals::listening(); while the module
// compiles, a signal ends the compile and the run), then after the delay, unless the
// solve has returned. `raised` says whether the signal went out.
SolveResult solve_interrupted(const SolveOptions& o, int sig, std::chrono::milliseconds after, bool& raised) {
  std::atomic<bool> done{false};
  raised = false;
  auto handler_installed = [] { return StopSignals::listening(); };
  std::thread poker([&] {
    // Compiling comes first (a cold host compile takes seconds); a permjit that never
    // handles the signal gets it anyway, late, and the test fails on it.
    const auto wait_from = std::chrono::steady_clock::now();
    while (!done && !handler_installed() && std::chrono::steady_clock::now() - wait_from < std::chrono::seconds(120))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto t0 = std::chrono::steady_clock::now();
    while (!done && std::chrono::steady_clock::now() - t0 < after)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!done) {
      raised = true;
      std::raise(sig);
    }
  });
  SolveResult r;
  try {
    r = solve(o);
  } catch (...) {
    done = true;
    poker.join();
    throw;
  }
  done = true;
  poker.join();
  return r;
}

// A cpu search of `spec` with `params` on `threads` threads, from this test run's cache.
SolveOptions cpu_search(const std::string& spec, std::vector<std::string> params, int threads) {
  SolveOptions o;
  o.load.spec_path = problem(spec);
  o.load.params = std::move(params);
  o.backend = "cpu";
  o.threads = threads;
  o.cache_dir = cache_dir();
  return o;
}

// A checkpoint path of this test run's own, with no file there yet.
std::string fresh_checkpoint(const std::string& name) {
  const auto path = std::filesystem::path(own_scratch_dir()) / name;
  std::filesystem::remove(path);
  return path.string();
}

}  // namespace

TEST_CASE("SIGINT stops a cpu count and reports the partial count", "[e2e][interrupt]") {
  // 95,815,104 solutions: many seconds on two threads.
  SolveOptions o = cpu_search("nqueens.toml", {"n=17"}, 2);
  const Handler framework_handler = handler_of(SIGINT);
  bool raised = false;
  SolveResult r = solve_interrupted(o, SIGINT, std::chrono::milliseconds(200), raised);
  REQUIRE(raised);
  CHECK(r.interrupted == SIGINT);
  CHECK(r.stopped);
  CHECK(r.solutions < 95815104ull);
  CHECK(r.evaluated > 0);
  CHECK_THAT(format_human(r), Catch::Contains("stopped     by signal 2 (SIGINT): not complete"));
  CHECK_THAT(format_json(r), Catch::Contains("\"complete\":false"));
  CHECK_THAT(format_json(r), Catch::Contains("\"interrupted_by_signal\":2"));

  // The handler from before is back and the flag cleared: the next search runs to its end.
  CHECK(handler_of(SIGINT) == framework_handler);

  o.load.params = {"n=8"};
  SolveResult next = solve(o);
  CHECK_FALSE(next.stopped);
  CHECK(next.interrupted == 0);
  CHECK(next.solutions == 92);
  CHECK_THAT(format_json(next), Catch::Contains("\"interrupted_by_signal\":null"));
}

TEST_CASE("SIGTERM stops a cpu optimisation with its best schedule so far", "[e2e][interrupt]") {
  // Forward, 20 jobs x 20 machines: minutes on two threads.
  SolveOptions o = cpu_search("flowshop.toml", {"branching=1"}, 2);
  o.load.instance_path = instance("flowshop/ta021.txt");
  // With the default warm start (a first search, then local search from its best leaf)
  // and without it (--ub), the signal lands in different searches of the run.
  for (bool warm : {true, false}) {
    DYNAMIC_SECTION((warm ? "warm start" : "from a given upper bound")) {
      if (!warm) o.ub = 100000;  // any schedule: the search meets one at once
      bool raised = false;
      SolveResult r = solve_interrupted(o, SIGTERM, std::chrono::milliseconds(300), raised);
      REQUIRE(raised);
      CHECK(r.interrupted == SIGTERM);
      CHECK(r.stopped);
      REQUIRE(r.found);
      CHECK(r.objective >= taillard_optimum("ta021"));
      CHECK(makespan(read_taillard(instance("flowshop/ta021.txt")), r.permutation) == r.objective);
      CHECK_THAT(format_human(r), Catch::Contains("stopped     by signal 15 (SIGTERM)"));
      CHECK_THAT(format_human(r), Catch::Contains("best found  "));
    }
  }
}

TEST_CASE("SIGTERM while a checkpointed run builds a deep frontier ends it there, writing nothing",
          "[e2e][interrupt]") {
  // With --checkpoint the frontier is built whole (its ranges are numbered in it): split
  // 11 levels down, N-Queens 17's would take minutes and more memory than the host has.
  // The signal ends the build; no range has started, so no checkpoint is written.
  SolveOptions o = cpu_search("nqueens.toml", {"n=17"}, 2);
  o.split_depth = 11;
  o.checkpoint = fresh_checkpoint("deep_frontier_signal.ckpt");
  bool raised = false;
  try {
    solve_interrupted(o, SIGTERM, std::chrono::milliseconds(300), raised);
    FAIL("the run was not interrupted");
  } catch (const SearchInterrupted& e) {
    CHECK(e.signal == SIGTERM);
    CHECK_THAT(e.what(), Catch::Contains("while the frontier was built; nothing was searched and no checkpoint"));
  }
  CHECK(raised);
  CHECK_FALSE(std::ifstream(o.checkpoint).good());
}

TEST_CASE("SIGINT stops a checkpointed cpu count with its partial result, and the resume completes it",
          "[e2e][interrupt]") {
  // With --checkpoint the cpu skeleton searches frontier ranges; a signal used to end the
  // run with the checkpoint and no result. Now it prints what a time limit prints.
  // 2,279,184 solutions: a few seconds on one thread.
  SolveOptions o = cpu_search("nqueens.toml", {"n=15"}, 1);
  o.checkpoint = fresh_checkpoint("signalled_ranges.ckpt");
  bool raised = false;
  SolveResult r = solve_interrupted(o, SIGINT, std::chrono::milliseconds(200), raised);
  REQUIRE(raised);
  CHECK(r.interrupted == SIGINT);
  REQUIRE(r.stopped);
  CHECK(r.solutions < 2279184ull);
  CHECK(r.open_subtrees > 0);
  CHECK_THAT(format_human(r), Catch::Contains("stopped     by signal 2 (SIGINT): not complete"));
  CHECK_THAT(format_json(r), Catch::Contains("\"interrupted_by_signal\":2"));

  SolveOptions again = o;
  again.resume = o.checkpoint;
  SolveResult done = solve(again);
  CHECK_FALSE(done.stopped);
  CHECK(done.solutions == 2279184ull);
}
