// The proven bound of a stopped `ivm` search (templates/ivm_open_work.h, runtime/ivm/ivm_open_bound.hpp),
// run on the host over the explorer code the kernels run (tests/ivm/ivm_host_sim.hpp):
// searches stopped after every few rounds, in many shapes, on small ATSPs (one end, with
// and without the assignment bound), a QAP and a flowshop (two ends). At each stop the
// proven bound (set_partial_bound over the open children's least bound, the root's bound
// and the incumbent, as `permjit solve` computes it) must be at most the optimum, from
// brute force, which shares no code with permjit; and the least open bound at most every
// leaf of the work left (the search goes on from the stop with no incumbent and finds
// the best of them).
#include <catch2/catch.hpp>
#include <climits>
#include <tuple>

#include "e2e_support.hpp"
#include "flowshop_support.hpp"
#include "host_harness.hpp"
#include "runtime/core/partial_bound.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct PjIvmOpenSimResult {
  unsigned long long open;
  long long key;
  long long root_bound;
  int best_at_stop;
  int best_after;
  int stopped;
};
using OpenFn = PjIvmOpenSimResult (*)(unsigned long long, long long, int, int);
constexpr long long kNoKey = LLONG_MAX;  // pj_ivm::kNoKey

struct Tally {
  int stops = 0;       // searches stopped with work left
  int from_open = 0;   // whose proven bound is the open children's, above the root's
};

// Stops the search of `spec` on `inst` after 1, 2, 3, 5, 8, ... rounds in several
// shapes, from scratch and from a start incumbent above the optimum, and checks each stop.
void check_stops(const std::string& spec, const std::string& inst, std::vector<std::string> params, long long optimum,
                 Tally& t) {
  HostHarness module(spec, inst, std::move(params), "tests/ivm/ivm_host_sim.hpp",
                     {"ivm_interval.h", "ivm_explorer.h", "ivm_two_ends.h", "ivm_open_work.h"}, true);
  auto open_after = module.function<OpenFn>("pj_ivm_sim_open");
  for (int start : {INT_MAX, static_cast<int>(optimum) + 5})
    for (unsigned long long T : {1ull, 7ull, 64ull})
      for (long long budget : {1ll, 4ll})
        for (int stop : {1, 2, 3, 5, 8, 13, 21, 34, 55, 89}) {
          const PjIvmOpenSimResult s = open_after(T, budget, start, stop);
          INFO("start " << start << ", " << T << " explorers, budget " << budget << ", stopped after round " << stop);
          // The search from the stop on finds the optimum, or the incumbent had it.
          CHECK(std::min(s.best_at_stop, s.best_after) == optimum);
          if (!s.stopped) continue;
          ++t.stops;
          // The least open bound is at most every leaf left (those of pruned children are
          // no better than the incumbent).
          if (s.open > 0) CHECK(std::min<long long>(s.key, s.best_at_stop) <= s.best_after);
          // The proof, as run_ivm makes it.
          SolveResult r;
          r.goal = Goal::minimize;
          PjCpuResult open{};
          open.open_subtrees = s.open;
          open.open_bound_known = s.open > 0 && s.key != kNoKey;
          open.open_bound = open.open_bound_known ? s.key : 0;
          open.root_bound = s.root_bound;
          std::optional<long long> incumbent;
          if (s.best_at_stop != INT_MAX) incumbent = s.best_at_stop;
          set_partial_bound(r, open, incumbent);
          REQUIRE(r.proven_bound);
          CHECK(*r.proven_bound <= optimum);
          CHECK(*r.proven_bound >= std::min<long long>(s.root_bound, incumbent.value_or(LLONG_MAX)));
          if (r.bound_from.find("open subtrees") != std::string::npos && *r.proven_bound > s.root_bound) ++t.from_open;
        }
}

}  // namespace

TEST_CASE("a stopped ivm search proves a bound at most the brute-force optimum", "[e2e][ivm][partial]") {
  Tally t;
  for (unsigned seed : {3u, 4u}) {
    INFO("seed " << seed);
    const Matrix d = random_matrix(9, 20, 60, seed);
    const std::string atsp = temp_file("ivm_open_" + std::to_string(seed) + ".atsp", tsplib_text(d));
    const long long tour = brute_force_min(9, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    check_stops(problem("atsp.toml"), atsp, {"lb=0"}, tour, t);
    check_stops(problem("atsp.toml"), atsp, {"lb=1"}, tour, t);  // the assignment as a second stage
  }
  const Matrix a = random_matrix(7, 0, 9, 33), b = random_matrix(7, 0, 9, 34);
  const std::string qap = temp_file("ivm_open.dat", qaplib_text(a, b));
  check_stops(problem("qap.toml"), qap, {"lb=1"},
              brute_force_min(7, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); }), t);
  // Two ends (flowshop.toml's default): the rows' children sit at the end their node chose.
  const FlowshopInstance f = random_flowshop(8, 4, 5u);
  const std::string fs = temp_file("ivm_open_flowshop.txt", taillard_text(f));
  check_stops(problem("flowshop.toml"), fs, {},
              brute_force_min(8, false, [&](const std::vector<int>& p) { return makespan(f, p); }), t);
  // The stops left work, and some proofs rest on the open children's bounds, above the
  // root's: else this test checked little.
  CHECK(t.stops > 100);
  CHECK(t.from_open > 0);
}

namespace {

struct PjIvmRefineSimResult {
  long long plain_key, refined_key, lowest_pass_key;
  int passed, best_at_stop, best_after, stopped;
};
using RefineFn = PjIvmRefineSimResult (*)(unsigned long long, long long, int, int);

struct RefineTally {
  int stops = 0;
  int raised = 0;  // stops whose refined key is above the plain one (and below the incumbent)
  int passed = 0;
};

// The refinement of the open work (templates/ivm_open_work.h, add_refined_work) at the
// stops of check_stops: every pass's least key is a proof -- at most every leaf left
// (below the incumbent) -- whether it reached its target or not, never below the plain
// least key; and the proof made from it is at most the brute-force optimum.
void check_refined(const std::string& spec, const std::string& inst, std::vector<std::string> params, long long optimum,
                   RefineTally& t) {
  HostHarness module(spec, inst, std::move(params), "tests/ivm/ivm_host_sim.hpp",
                     {"ivm_interval.h", "ivm_explorer.h", "ivm_two_ends.h", "ivm_open_work.h"}, true);
  auto refined_after = module.function<RefineFn>("pj_ivm_sim_refine");
  for (int start : {INT_MAX, static_cast<int>(optimum) + 5})
    for (unsigned long long T : {1ull, 7ull, 64ull})
      for (int stop : {1, 2, 3, 5, 8, 13, 21, 34}) {
        const PjIvmRefineSimResult s = refined_after(T, 1, start, stop);
        INFO("start " << start << ", " << T << " explorers, stopped after round " << stop);
        CHECK(std::min(s.best_at_stop, s.best_after) == optimum);
        if (!s.stopped || s.plain_key == kNoKey) continue;
        ++t.stops;
        CHECK(s.lowest_pass_key >= s.plain_key);
        // Every leaf left is at least the refined key, or at least the incumbent.
        CHECK(std::min<long long>(s.refined_key, s.best_at_stop) <= s.best_after);
        SolveResult r;
        r.goal = Goal::minimize;
        PjCpuResult open{};
        open.open_subtrees = 1;
        open.open_bound_known = 1;
        open.open_bound = s.refined_key;
        open.root_bound = LLONG_MIN / 2;
        std::optional<long long> incumbent;
        if (s.best_at_stop != INT_MAX) incumbent = s.best_at_stop;
        set_partial_bound(r, open, incumbent);
        REQUIRE(r.proven_bound);
        CHECK(*r.proven_bound <= optimum);
        if (s.refined_key > s.plain_key && s.plain_key < s.best_at_stop) ++t.raised;
        t.passed += s.passed;
      }
}

}  // namespace

TEST_CASE("the refined bound of a stopped ivm search stays at most the brute-force optimum", "[e2e][ivm][partial]") {
  RefineTally t;
  const Matrix d = random_matrix(9, 20, 60, 3u);
  const std::string atsp = temp_file("ivm_refine.atsp", tsplib_text(d));
  const long long tour = brute_force_min(9, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  check_refined(problem("atsp.toml"), atsp, {"lb=0"}, tour, t);
  check_refined(problem("atsp.toml"), atsp, {"lb=1"}, tour, t);  // staged: the assignment below the target only
  const Matrix a = random_matrix(7, 0, 9, 33), b = random_matrix(7, 0, 9, 34);
  const std::string qap = temp_file("ivm_refine.dat", qaplib_text(a, b));
  check_refined(problem("qap.toml"), qap, {"lb=1"},
                brute_force_min(7, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); }), t);
  // Two ends: the refinement picks an end per node, either of which covers its leaves.
  const FlowshopInstance f = random_flowshop(8, 4, 5u);
  const std::string fs = temp_file("ivm_refine_flowshop.txt", taillard_text(f));
  check_refined(problem("flowshop.toml"), fs, {},
                brute_force_min(8, false, [&](const std::vector<int>& p) { return makespan(f, p); }), t);
  // The refinement raised some bounds and some passes reached their target: else this
  // test checked little.
  CHECK(t.stops > 50);
  CHECK(t.raised > 0);
  CHECK(t.passed > 0);
}
