// What the GPU differential tests share: a problem run, solving it with a skeleton and
// its GPU options, and the comparison of two solves' trees.
#pragma once
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../e2e/e2e_support.hpp"

namespace permjit::test {

// puzzle15.toml with 8-puzzle tables (tiles 1-4 and 5-8 with the blank, and the
// reflection), written to the temporary file `name`.
inline std::string puzzle8_pdb_spec(const std::string& name) {
  std::ifstream in(problem("puzzle15.toml"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string spec = ss.str();
  for (const auto& [key, line] : {std::pair<std::string, std::string>{"when = ", "when = \"pdb == 1\""},
                                  {"additive = ", "additive = [[1, 2, 3, 4], [5, 6, 7, 8]]"}}) {
    const size_t at = spec.find("\n" + key);
    REQUIRE(at != std::string::npos);
    spec.replace(at + 1, spec.find('\n', at + 1) - at - 1, line);
  }
  return temp_file(name, spec);
}

struct Run {
  std::string spec, inst;
  std::vector<std::string> params;
  std::optional<long long> ub;
};

// The options of a solve of `r` with `skeleton`; a test changes the GPU fields it varies.
inline SolveOptions options_for(const Run& r, const std::string& skeleton) {
  SolveOptions o;
  o.load.spec_path = r.spec;
  o.load.instance_path = r.inst;
  o.load.params = r.params;
  o.skeleton = skeleton;
  o.ub = r.ub;
  if (skeleton != "cpu") o.warm_start = 0;  // the GPU search alone: the warm start's tests turn it on
  o.cache_dir = cache_dir();
  return o;
}

inline SolveResult solve_with(const Run& r, const std::string& skeleton, int dcpu = 0,
                              unsigned long long max_chunk = 0) {
  SolveOptions o = options_for(r, skeleton);
  o.dcpu = dcpu;
  o.max_chunk = max_chunk;
  return solve(o);
}

// Small optimisation instances: random ATSP of sizes 10 and 11 (one per seed) and one
// random QAP of size 9 under both bounds; `tag` keeps each test's files apart.
inline std::vector<Run> atsp_qap_runs(const std::string& tag, const std::vector<unsigned>& atsp_seeds) {
  std::vector<Run> runs;
  for (unsigned seed : atsp_seeds) {
    Matrix d = random_matrix(10 + static_cast<int>(seed % 2), 1, 60, seed);
    runs.push_back({problem("atsp.toml"), temp_file(tag + "_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d)), {"lb=0"}, {}});
  }
  Matrix a = random_matrix(9, 0, 9, 51), b = random_matrix(9, 0, 9, 52);
  std::string qap = temp_file(tag + "_qap9.dat", qaplib_text(a, b));
  runs.push_back({problem("qap.toml"), qap, {"lb=0"}, {}});
  runs.push_back({problem("qap.toml"), qap, {"lb=1"}, {}});
  return runs;
}

// The same tree: count, objective and node totals (`gpu` ran `skeleton`).
inline void same_tree(const SolveResult& cpu, const SolveResult& gpu, const std::string& skeleton = "dfs") {
  CHECK(gpu.skeleton == skeleton);
  CHECK(gpu.solutions == cpu.solutions);
  CHECK(gpu.found == cpu.found);
  if (cpu.found) CHECK(gpu.objective == cpu.objective);
  CHECK(gpu.expanded == cpu.expanded);
  CHECK(gpu.evaluated == cpu.evaluated);
}

// A minimisation stopped by `o`'s --time-limit, from scratch with the warm start on:
// it ends within 2 s of the limit and reports a leaf and a proven bound on either side
// of `optimum`.
inline void check_stops_near_limit(SolveOptions o, double limit, long long optimum) {
  o.warm_start = 0.3;
  o.time_limit = limit;
  const SolveResult cut = solve(o);
  CHECK(cut.stopped);
  CHECK(cut.t_search < limit + 2.0);
  REQUIRE(cut.found);
  CHECK(cut.objective >= optimum);
  REQUIRE(cut.proven_bound);
  CHECK(*cut.proven_bound <= optimum);
}

// Runs `search` (which returns its SolveResult) and raises SIGINT `ms` milliseconds into
// it unless it has returned (`before_signal` runs first, e.g. to copy a periodic
// checkpoint). The result when the signal stopped the search (SolveResult::interrupted:
// the partial result is returned as after a time limit), else none.
template <class Search>
std::optional<SolveResult> interrupted_after(int ms, Search&& search, const std::function<void()>& before_signal = {}) {
  std::atomic<bool> done{false};
  std::thread poker([&] {
    auto t0 = std::chrono::steady_clock::now();
    while (!done && std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(ms))
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (before_signal) before_signal();
    if (!done) std::raise(SIGINT);
  });
  SolveResult r = search();
  done = true;
  poker.join();
  if (r.interrupted != SIGINT) return std::nullopt;
  CHECK(r.stopped);
  return r;
}

}  // namespace permjit::test
