// --improve: local search from the best leaf of a search its time limit stopped
// (templates/cpu_improve.hpp); and the cpu skeleton's warm start, which runs it before a
// search from scratch that does not finish in its first moments. What it returns must be a feasible permutation whose
// objective is the one reported, recomputed here by code that shares nothing with
// permjit, and never worse than where it started.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

#include "flowshop_support.hpp"
#include "runtime/core/warm_start.hpp"
#include "runtime/solve.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

SolveOptions stopped_then_improved(const std::string& spec, const std::string& inst, double limit, double improve) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.instance_path = inst;
  o.backend = "cpu";
  o.threads = 2;
  o.time_limit = limit;
  o.improve = improve;
  o.cache_dir = cache_dir();
  return o;
}

std::string taillard(const std::string& name) { return instance("flowshop/" + name + ".txt"); }

bool is_permutation_of_size(const std::vector<int>& p, int n) {
  std::vector<int> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> want(n);
  std::iota(want.begin(), want.end(), 0);
  return sorted == want;
}

// A spec with a rule on the order (value d not at position d, value last + 1 never right
// after last): moves that break it must never be taken.
const char* kOrderedCost = R"spec(
[problem]
name = "ordered_cost"
goal = "GOAL"
size = "n"

[params]
n = { type = "int", default = 12, range = [2, 16] }

[state]
cost = "int"

[branch]
candidates = "free & ~bit(d) & (d == 0 ? all : ~bit(last + 1))"
place = { cost = "cost + (d + 1) * ((v * 7 + 3) % 13)" }
bound = "BOUND"
objective = "cost"
)spec";

std::string ordered_spec(bool maximize) {
  std::string s = kOrderedCost;
  s.replace(s.find("GOAL"), 4, maximize ? "maximize" : "minimize");
  // Maximising, each position still to fill adds at most n * 12.
  s.replace(s.find("BOUND"), 5, maximize ? "cost + (n - d) * n * 12" : "cost");
  return s;
}

long long ordered_cost(const std::vector<int>& p) {
  long long c = 0;
  for (size_t d = 0; d < p.size(); ++d) c += static_cast<long long>(d + 1) * ((p[d] * 7 + 3) % 13);
  return c;
}

bool ordered_feasible(const std::vector<int>& p) {
  for (size_t d = 0; d < p.size(); ++d) {
    if (p[d] == static_cast<int>(d)) return false;
    if (d > 0 && p[d] == p[d - 1] + 1) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("local search improves a stopped flowshop search to a real schedule", "[e2e][improve][flowshop]") {
  // ta021 (20x20): 0.05 s of depth-first search ends well above the optimum.
  const std::string inst = taillard("ta021");
  SolveOptions o = stopped_then_improved(problem("flowshop.toml"), inst, 0.05, 0.3);
  o.load.params = {"branching=1"};  // forward: its first leaves are far from the optimum
  SolveResult r = solve(o);
  REQUIRE(r.stopped);
  REQUIRE(r.found);
  REQUIRE(r.improve);
  CHECK(r.improve->iterations > 0);
  CHECK(r.improve->seconds > 0);
  CHECK(r.objective < r.improve->from);
  CHECK(r.objective >= taillard_optimum("ta021"));
  REQUIRE(is_permutation_of_size(r.permutation, 20));
  CHECK(makespan(read_taillard(inst), r.permutation) == r.objective);
  CHECK_THAT(format_json(r), Catch::Contains("\"improve\":{\"from\":" + std::to_string(r.improve->from)));
  CHECK_THAT(format_human(r), Catch::Contains("improved    from " + std::to_string(r.improve->from)));
}

TEST_CASE("local search keeps the spec's rules, minimising and maximising", "[e2e][improve]") {
  for (bool maximize : {false, true}) {
    CAPTURE(maximize);
    const std::string spec = temp_file(maximize ? "ordered_gain.toml" : "ordered_cost.toml", ordered_spec(maximize));
    SolveResult r = solve(stopped_then_improved(spec, "", 0.01, 0.2));
    REQUIRE(r.stopped);
    REQUIRE(r.found);
    REQUIRE(r.improve);
    REQUIRE(is_permutation_of_size(r.permutation, 12));
    CHECK(ordered_feasible(r.permutation));
    CHECK(ordered_cost(r.permutation) == r.objective);
    CHECK((maximize ? r.objective >= r.improve->from : r.objective <= r.improve->from));
  }
}

TEST_CASE("a search that finishes is not followed by local search", "[e2e][improve]") {
  // ta001 with jobs at both ends proves its optimum in well under the limit.
  SolveOptions o = stopped_then_improved(problem("flowshop.toml"), taillard("ta001"), 600, 1);
  o.load.params = {"branching=2"};
  SolveResult r = solve(o);
  CHECK_FALSE(r.stopped);
  CHECK_FALSE(r.improve);
  CHECK(r.objective == taillard_optimum("ta001"));
  CHECK_THAT(format_json(r), Catch::Contains("\"improve\":null"));
}

TEST_CASE("the improve option: cpu, optimisation, after a time limit, seconds above 0", "[e2e][improve][options]") {
  SolveOptions o = stopped_then_improved(problem("flowshop.toml"), taillard("ta001"), 1, 0.5);
  o.time_limit = 0;
  check_command_line_error([&] { solve(o); }, 11, "--improve runs after a search stopped by --time-limit");
  o.time_limit = 1;
  o.improve = 0;
  check_command_line_error([&] { solve(o); }, 11, "--improve takes a number of seconds above 0");
  o.improve = 0.5;
  o.target = 1300;
  check_command_line_error([&] { solve(o); }, 11, "--improve does not combine with --target");
  o.target.reset();
  o.backend = "auto";
  o.skeleton = "ivm";
  o.time_limit = 0;  // then --improve is refused for its skeleton before its missing time limit
  check_command_line_error([&] { solve(o); }, 1, "--improve applies to the cpu skeleton");
  SolveOptions count;
  count.load.spec_path = problem("nqueens.toml");
  count.backend = "cpu";
  count.time_limit = 1;
  count.improve = 0.5;
  count.cache_dir = cache_dir();
  check_command_line_error([&] { solve(count); }, 1,
                           "--improve applies to problems that minimize or maximize; 'nqueens' is a count problem");
}

TEST_CASE("the cpu skeleton's warm start: a search that does not finish in time starts over from a better leaf",
          "[e2e][improve][warm_start][flowshop]") {
  // ta011 (20x10, both ends) takes a second or two from scratch on two threads.
  const std::string inst = taillard("ta011");
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = inst;
  o.backend = "cpu";
  o.threads = 2;
  o.warm_start = 0.05;
  o.cache_dir = cache_dir();
  SolveResult warm = solve(o);
  REQUIRE(warm.warm_start);
  REQUIRE(warm.warm_start->objective);
  REQUIRE(warm.warm_start->improve);
  CHECK(*warm.warm_start->objective <= warm.warm_start->improve->from);
  CHECK_FALSE(warm.stopped);
  REQUIRE(warm.found);
  CHECK(warm.objective == taillard_optimum("ta011"));
  CHECK(makespan(read_taillard(inst), warm.permutation) == warm.objective);
  CHECK_THAT(format_human(warm), Catch::Contains("warm start  " + std::to_string(*warm.warm_start->objective)));
  o.warm_start = 0;
  SolveResult cold = solve(o);
  CHECK_FALSE(cold.warm_start);
  CHECK(cold.objective == warm.objective);
  // A search that finishes within the warm start's time is the answer: no second search.
  o.load.instance_path = taillard("ta001");
  o.warm_start = 5;
  SolveResult quick = solve(o);
  CHECK_FALSE(quick.warm_start);
  CHECK(quick.objective == taillard_optimum("ta001"));
}

// A search stopped before it met any leaf (a heavy bound on many threads; here a time
// limit the first check already passed): local search starts from the greedy leaf, each
// position taking the child with the best first-stage bound. For atsp.toml that bound is
// the partial cost, so the greedy leaf is the nearest-neighbour tour from city 0, which
// the test computes itself. Before, --improve gave nothing and a GPU skeleton's warm
// start no incumbent.
TEST_CASE("local search after a search that met no leaf starts from the greedy leaf", "[e2e][improve]") {
  const Matrix d = random_matrix(40, 1, 90, 101);
  const std::string inst = temp_file("improve_greedy.atsp", tsplib_text(d));
  SolveOptions o = stopped_then_improved(problem("atsp.toml"), inst, 1e-6, 0.2);
  o.load.params = {"lb=9"};
  const SolveResult r = solve(o);
  // The limit passes at the first look at the clock, a few levels below the root of a
  // tree 40 levels deep: no leaf was met.
  REQUIRE(r.stopped);
  REQUIRE(r.found);
  REQUIRE(r.improve);
  CHECK(r.improve->greedy);
  // The nearest-neighbour tour: from city 0, the cheapest arc to an unvisited city (ties
  // to the smaller city), then back to 0.
  std::vector<int> nn{0};
  std::vector<bool> seen(40, false);
  seen[0] = true;
  for (int k = 1; k < 40; ++k) {
    int next = -1;
    for (int c = 0; c < 40; ++c)
      if (!seen[size_t(c)] && (next < 0 || d[size_t(nn.back())][size_t(c)] < d[size_t(nn.back())][size_t(next)])) next = c;
    seen[size_t(next)] = true;
    nn.push_back(next);
  }
  CHECK(r.improve->from == tour_cost(d, nn));
  REQUIRE(is_permutation_of_size(r.permutation, 40));
  CHECK(tour_cost(d, r.permutation) == r.objective);
  CHECK(r.objective <= r.improve->from);
}

namespace {
// A warm start of atsp.toml on `d` (2 threads, 0.05 s) whose local search goes on beside
// the search: `lb=0`, the partial cost alone, so that the cpu search meets leaves at
// once; 60 cities, so that neither it nor its local search finishes in 0.05 s.
SolveOptions beside_options(const Matrix& d, const std::string& name) {
  SolveOptions o;
  o.load.spec_path = problem("atsp.toml");
  o.load.instance_path = temp_file(name, tsplib_text(d));
  o.load.params = {"lb=0"};
  o.threads = 2;
  o.warm_start = 0.05;
  o.cache_dir = cache_dir();
  return o;
}
}  // namespace

// The local search beside a search (runtime/core/warm_start.hpp), as offload's host
// threads see it: after the warm start's first phase, better_than() offers only leaves
// better than the value asked about, each a real leaf (its tour costs its value), and
// finish() ends it promptly and reports it.
TEST_CASE("the local search beside a search offers better leaves until finish()", "[e2e][improve][warm_start]") {
  const Matrix d = random_matrix(60, 1, 1000, 7);
  const SolveOptions o = beside_options(d, "improve_beside.atsp");
  const PreparedSolve p = prepare_solve(o);
  WarmStart warm(o, p.spec, true);
  const std::optional<WarmIncumbent> first = warm.wait();
  REQUIRE(first);
  REQUIRE_FALSE(warm.complete());
  CHECK(tour_cost(d, first->permutation) == first->value);
  CHECK_FALSE(warm.better_than(first->value - 1'000'000));  // nothing is that good
  // A random 60-city tour after 0.1 s of local search is far from optimal: a second of
  // it improves on it.
  std::optional<WarmIncumbent> better;
  for (int i = 0; i < 100 && !better; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    better = warm.better_than(first->value);
  }
  REQUIRE(better);
  CHECK(better->value < first->value);
  CHECK(tour_cost(d, better->permutation) == better->value);
  const auto t0 = std::chrono::steady_clock::now();
  warm.finish();
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
  REQUIRE(warm.beside());
  CHECK(warm.beside()->threads == 1);  // a quarter of 2 host threads, at least one
  CHECK(warm.beside()->improvements >= 1);
  REQUIRE(warm.beside()->best);
  const std::optional<WarmIncumbent> last = warm.best_known();
  REQUIRE(last);
  CHECK(*warm.beside()->best == last->value);
  CHECK(last->value <= better->value);
  CHECK(tour_cost(d, last->permutation) == last->value);
  CHECK(warm.beside()->starts == 1);
}

// offload hands the local search each leaf it finds that improves the incumbent
// (PjOffloadDevice::found): a leaf better than every one known becomes the best known,
// and the local search starts over from it; one no better changes nothing. (The value is
// taken on trust, as the search's own; here a leaf is given one below its cost, so that
// it is the best known whatever the local search has found.)
TEST_CASE("the local search beside a search starts over from the search's better leaves",
          "[e2e][improve][warm_start]") {
  const Matrix d = random_matrix(60, 1, 1000, 7);
  const SolveOptions o = beside_options(d, "improve_beside_restart.atsp");
  const PreparedSolve p = prepare_solve(o);
  WarmStart warm(o, p.spec, true);
  const std::optional<WarmIncumbent> first = warm.wait();
  REQUIRE(first);
  warm.restart_from(first->permutation, first->value + 1);  // no better: ignored
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  warm.restart_from(first->permutation, 1);  // better than any tour of 60 arcs of cost >= 1
  const std::optional<WarmIncumbent> known = warm.best_known();
  REQUIRE(known);
  CHECK(known->value == 1);
  CHECK(known->permutation == first->permutation);
  CHECK_FALSE(warm.better_than(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  warm.finish();
  REQUIRE(warm.beside());
  CHECK(warm.beside()->starts == 2);
}
