// Under test: instance data at run time (--data run-time, dsl/run_time_data.hpp).
// Instances of one shape (the same sizes and value classes) generate one source, so the
// module compiled for the first serves the next (a cache hit), with the next one's data
// uploaded when it loads; its answers are the brute-force ones. --data compiled (the
// default) compiles the values in.
#include <filesystem>

#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
// A fresh cache, so that the first solve compiles and the second can only hit.
std::string fresh_cache(const std::string& name) {
  const std::string dir = own_scratch_dir() + "/one-shape-" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

// `threads`: 1 where node counts are compared (from scratch, two threads find their
// incumbents in an order that timing decides, and so expand more or fewer nodes).
SolveResult solve_with(const std::string& spec, const std::string& instance, const std::string& cache,
                       const std::string& data = "run-time", int threads = 2, std::vector<std::string> params = {}) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.params = std::move(params);
  o.load.instance_path = instance;
  o.load.data = data;
  o.skeleton = "cpu";
  o.threads = threads;
  o.cache_dir = cache;
  return solve(o);
}

// Times 1..99, and job 0 takes 99 on every machine: each table then reaches the same
// largest value in every instance (99 for p, 3 x 99 for the tails, ...), so every
// instance has the same value classes, and so one shape.
FlowshopInstance one_shape_flowshop(int jobs, int machines, unsigned seed) {
  Matrix square = random_matrix(std::max(jobs, machines), 1, 99, seed);
  FlowshopInstance f;
  f.jobs = jobs;
  f.machines = machines;
  for (int k = 0; k < machines; ++k) {
    f.p.emplace_back(square[k].begin(), square[k].begin() + jobs);
    f.p.back()[0] = 99;
  }
  return f;
}
}  // namespace

TEST_CASE("flowshops of one shape share a module and get their own optima", "[e2e][one_shape]") {
  const std::string cache = fresh_cache("flowshop");
  for (unsigned seed : {1u, 2u, 3u}) {
    FlowshopInstance f = one_shape_flowshop(7, 4, seed);
    const std::string file = temp_file("shape7x4_" + std::to_string(seed) + ".txt", taillard_text(f));
    const long long best = brute_force_min(7, false, [&](const std::vector<int>& p) { return makespan(f, p); });
    SolveResult r = solve_with(problem("flowshop.toml"), file, cache);
    INFO("seed " << seed);
    CHECK(r.cache_hit == (seed != 1u));  // the first compiles, the others hit its module
    REQUIRE(r.found);
    CHECK(r.objective == best);
    CHECK(makespan(f, r.permutation) == best);
  }
}

TEST_CASE("ATSPs of one shape share a module and get their own optima", "[e2e][one_shape]") {
  const std::string cache = fresh_cache("atsp");
  for (unsigned seed : {4u, 5u}) {
    Matrix d = random_matrix(8, 10, 99, seed);  // one value class, [0, 127]
    const std::string file = temp_file("shape8_" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long best = brute_force_min(8, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    // lb = 7: no table derived from the instance's values (lb = 9's root multipliers
    // are such a table, and their value class may differ between two instances).
    SolveResult r = solve_with(problem("atsp.toml"), file, cache, "run-time", 2, {"lb=7"});
    INFO("seed " << seed);
    CHECK(r.cache_hit == (seed != 4u));
    REQUIRE(r.found);
    CHECK(r.objective == best);
  }
}

TEST_CASE("another value class is another shape: its own module, its own optimum", "[e2e][one_shape]") {
  const std::string cache = fresh_cache("classes");
  Matrix small = random_matrix(7, 10, 99, 6), large = random_matrix(7, 1000, 4000, 7);
  SolveResult a = solve_with(problem("atsp.toml"), temp_file("class_a.atsp", tsplib_text(small)), cache);
  SolveResult b = solve_with(problem("atsp.toml"), temp_file("class_b.atsp", tsplib_text(large)), cache);
  CHECK_FALSE(a.cache_hit);
  CHECK_FALSE(b.cache_hit);  // values up to 4000 need a wider element: another source
  CHECK(b.objective == brute_force_min(7, true, [&](const std::vector<int>& p) { return tour_cost(large, p); }));
}

TEST_CASE("compiled data: one module per instance, the same answers as run-time data", "[e2e][one_shape]") {
  const std::string cache = fresh_cache("specialize");
  Matrix d1 = random_matrix(7, 10, 99, 8), d2 = random_matrix(7, 10, 99, 9);
  SolveResult a = solve_with(problem("atsp.toml"), temp_file("spec_a.atsp", tsplib_text(d1)), cache, "compiled", 1);
  SolveResult b = solve_with(problem("atsp.toml"), temp_file("spec_b.atsp", tsplib_text(d2)), cache, "compiled");
  CHECK_FALSE(b.cache_hit);
  CHECK(a.objective == brute_force_min(7, true, [&](const std::vector<int>& p) { return tour_cost(d1, p); }));
  CHECK(b.objective == brute_force_min(7, true, [&](const std::vector<int>& p) { return tour_cost(d2, p); }));
  SolveResult c = solve_with(problem("atsp.toml"), temp_file("spec_a.atsp", tsplib_text(d1)), cache, "run-time", 1);
  CHECK(c.objective == a.objective);
  CHECK(c.expanded == a.expanded);  // the same tree, data compiled in or read at run time
}

TEST_CASE("the data option takes compiled or run-time, refused at its value", "[e2e][one_shape][options]") {
  SolveOptions o;
  o.load.spec_path = problem("nqueens.toml");
  o.load.data = "everything";
  o.cache_dir = cache_dir();
  check_command_line_error([&] { solve(o); }, 8, "unknown value 'everything' of --data");
}
