// The `ivm` skeleton's explorer code (templates/ivm_explorer.h) run on the host by
// tests/ivm/ivm_host_sim.hpp: whatever the number of explorers, the work per round and
// the steals, and across a simulated crash and resume, the node totals must equal the
// `cpu` skeleton's (counting, or --ub at the optimum). The kernels run the same lines.
#include <catch2/catch.hpp>
#include <climits>
#include <tuple>

#include "e2e_support.hpp"
#include "flowshop_support.hpp"
#include "host_harness.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct PjIvmSimResult {
  unsigned long long expanded, evaluated, solutions, rounds, steals;
  int best;
  unsigned long long leaves_reached;
  int most_visits;
};
using SimFn = PjIvmSimResult (*)(unsigned long long, long long, int, int, int, int, int);
using SimGpusFn = PjIvmSimResult (*)(unsigned long long, long long, int, int, int);
using StealFn = void (*)(int);
using BalanceFn = void (*)(int, int);

// The simulation compiled with one problem, loaded.
class Simulation {
 public:
  Simulation(const std::string& spec_path, const std::string& instance, std::vector<std::string> params)
      : module_(spec_path, instance, std::move(params), "tests/ivm/ivm_host_sim.hpp",
                {"ivm_interval.h", "ivm_explorer.h", "ivm_two_ends.h", "ivm_open_work.h"}, true),
        fn_(module_.function<SimFn>("pj_ivm_sim")),
        gpus_fn_(module_.function<SimGpusFn>("pj_ivm_sim_gpus")),
        steal_fn_(module_.function<StealFn>("pj_ivm_sim_steal_halves")),
        balance_fn_(module_.function<BalanceFn>("pj_ivm_sim_balance")) {}
  // The one-end steal of the runs that follow: the seed's interval halving (steal_half)
  // or, by default, the kernels' steal at a node boundary (steal_row).
  void steal_halves(bool halves) const { steal_fn_(halves ? 1 : 0); }
  // How victims qualify (above the geometric mean of those with work, or the mean) and
  // the select-and-steal passes of a phase, as PERMJIT_IVM_BALANCE sets them.
  void balance(bool log_rule, int passes) const { balance_fn_(log_rule ? 1 : 0, passes); }
  // `by_mask`: the last level counted from candidate sets, as the counting kernels do
  // (counting specs only; no leaf is visited, so leaves_reached stays 0).
  PjIvmSimResult run(unsigned long long T, long long budget, int best, int restore_round = 0, int climb = 0,
                     int refuse_every = 0, bool by_mask = false) const {
    return fn_(T, budget, best, restore_round, climb, refuse_every, by_mask);
  }
  // `gpus` worlds of T explorers that pass exports between them (`steals`: exports).
  PjIvmSimResult run_gpus(unsigned long long T, long long budget, int best, int gpus, bool by_mask = false) const {
    return gpus_fn_(T, budget, best, gpus, by_mask);
  }

 private:
  HostHarness module_;
  SimFn fn_ = nullptr;
  SimGpusFn gpus_fn_ = nullptr;
  StealFn steal_fn_ = nullptr;
  BalanceFn balance_fn_ = nullptr;
};

// Several GPUs passing exports (pj_ivm_export's steps) must count as one: every shape
// of worlds, explorers and round lengths against the cpu skeleton. `leaves`: the
// distinct leaves reached when known (then each once).
void check_gpus_against_cpu(const Simulation& sim, const SolveResult& cpu, int best, unsigned long long leaves = 0,
                            bool by_mask = false) {
  unsigned long long exports = 0;
  for (int gpus : {2, 3})
    for (unsigned long long T : {1ull, 7ull, 64ull})
      for (long long budget : {1ll, 3ll, 17ll}) {
        PjIvmSimResult r = sim.run_gpus(T, budget, best, gpus, by_mask);
        INFO(gpus << " GPUs of " << T << " explorers, budget " << budget << ": " << r.steals << " exports"
                  << (by_mask ? ", leaves counted by mask" : ""));
        CHECK(r.expanded == cpu.expanded);
        CHECK(r.evaluated == cpu.evaluated);
        CHECK(r.solutions == cpu.solutions);
        if (leaves && !by_mask) {
          CHECK(r.leaves_reached == leaves);
          CHECK(r.most_visits == 1);
        }
        exports += r.steals;
      }
  CHECK(exports > 0);  // work did move between the worlds
}

struct Shape {
  unsigned long long T;
  long long budget;
  int restore_round;
  bool steals;  // whether work must move between explorers
};
// One explorer alone; three, each with a third of the tree in one round (the even
// explorers of the simulation run one explorer, the odd ones the other:
// ivm_host_sim.hpp); a few with tiny rounds (steals everywhere); more explorers than the
// 8! leaves (one leaf or none each: nothing to steal); a crash and resume. 300
// explorers of 17 children a round may end a small tree in two rounds with nothing
// stolen: a thief takes values of rows its victim has expanded (steal_row), and a victim
// whose work is one subtree it has not yet entered has none to give.
const Shape kShapes[] = {{1, 1 << 30, 0, false}, {3, 1 << 30, 0, false}, {7, 3, 0, true},  {64, 1, 0, true},
                         {300, 17, 0, false},    {50000, 5, 0, false},   {64, 2, 4, true}, {9, 1, 20, true}};

// `steals`: whether the shapes that move work must have stolen (a small tree may end in
// the first round).
void check_against_cpu(const Simulation& sim, const SolveResult& cpu, int best, bool steals = true,
                       bool by_mask = false) {
  for (const Shape& s : kShapes) {
    PjIvmSimResult r = sim.run(s.T, s.budget, best, s.restore_round, 0, 0, by_mask);
    INFO("explorers " << s.T << ", budget " << s.budget << ", restore after round " << s.restore_round << ": "
                      << r.rounds << " rounds, " << r.steals << " steals" << (by_mask ? ", leaves counted by mask" : ""));
    CHECK(r.expanded == cpu.expanded);
    CHECK(r.evaluated == cpu.evaluated);
    CHECK(r.solutions == cpu.solutions);
    if (s.steals && steals) CHECK(r.steals > 0);
  }
}

}  // namespace

TEST_CASE("IVM explorers count N-Queens exactly as the cpu skeleton", "[e2e][ivm]") {
  Simulation sim(problem("nqueens.toml"), "", {"n=8"});
  SolveResult cpu = run(problem("nqueens.toml"), "", {"n=8"});
  REQUIRE(cpu.solutions == 92);
  check_against_cpu(sim, cpu, 0);
  check_against_cpu(sim, cpu, 0, true, true);  // the last level counted from candidate sets, as the kernels do
  SECTION("with the seed's steal, which halves the leaves (-DPJ_IVM_STEAL_HALF)") {
    sim.steal_halves(true);  // the module may be shared with the next test: set back below
    check_against_cpu(sim, cpu, 0);
    check_gpus_against_cpu(sim, cpu, 0, 46);
    sim.steal_halves(false);
  }
  SECTION("with victims above the geometric mean and several passes a phase (PERMJIT_IVM_BALANCE)") {
    for (const auto& [log_rule, passes] : {std::pair{true, 1}, std::pair{false, 4}, std::pair{true, 4}}) {
      INFO((log_rule ? "victims=log" : "victims=mean") << ",passes=" << passes);
      sim.balance(log_rule, passes);  // set back below: the module may be shared
      check_against_cpu(sim, cpu, 0);
      check_against_cpu(sim, cpu, 0, true, true);
      check_gpus_against_cpu(sim, cpu, 0, 46);
    }
    sim.balance(false, 1);
  }
}

// An odd size has a middle column, mirrored onto itself: the subtrees below the first
// level weigh 2 or 1, and an explorer that moves from one to the next changes weight.
TEST_CASE("IVM explorers count N-Queens of an odd size exactly as the cpu skeleton", "[e2e][ivm]") {
  Simulation sim(problem("nqueens.toml"), "", {"n=7"});
  SolveResult cpu = run(problem("nqueens.toml"), "", {"n=7"});
  REQUIRE(cpu.solutions == 40);  // OEIS A000170
  check_against_cpu(sim, cpu, 0, false);
  check_against_cpu(sim, cpu, 0, false, true);
}

// Stack rows leave out what is fixed along a path (`first`, the symmetry's weight) and
// copy arrays element by element (problem::StackNode): a spec with all three.
TEST_CASE("IVM explorers count a spec with an array, `first` and a symmetry as the cpu skeleton", "[e2e][ivm]") {
  const std::string spec = source_dir() + "/tests/lit/Inputs/history_queens.toml";
  Simulation sim(spec, "", {"n=8"});
  SolveResult cpu = run(spec, "", {"n=8"});
  REQUIRE(cpu.solutions == 92);  // OEIS A000170
  check_against_cpu(sim, cpu, 0);
  check_against_cpu(sim, cpu, 0, true, true);
}

TEST_CASE("IVM explorers on several GPUs count N-Queens exactly as the cpu skeleton", "[e2e][ivm][gpus]") {
  Simulation sim(problem("nqueens.toml"), "", {"n=8"});
  SolveResult cpu = run(problem("nqueens.toml"), "", {"n=8"});
  check_gpus_against_cpu(sim, cpu, 0, 46);
  check_gpus_against_cpu(sim, cpu, 0, 0, true);
}

// Under a symmetry group (nqueens_symmetries.toml) a node's border changes along its
// path: it is kept in the stack rows, and the explorers reach each canonical leaf once.
TEST_CASE("IVM explorers count N-Queens under its eight symmetries exactly as the cpu skeleton", "[e2e][ivm][symmetry]") {
  for (const char* n : {"n=7", "n=8"}) {
    INFO(n);
    Simulation sim(problem("nqueens_symmetries.toml"), "", {n});
    SolveResult cpu = run(problem("nqueens_symmetries.toml"), "", {n});
    check_against_cpu(sim, cpu, 0, false);
    check_against_cpu(sim, cpu, 0, false, true);
  }
}

TEST_CASE("IVM explorers whose leaves are refused now and then (a full solution buffer) still reach each once",
          "[e2e][ivm][decision]") {
  Simulation sim(problem("nqueens.toml"), "", {"n=8"});
  SolveResult cpu = run(problem("nqueens.toml"), "", {"n=8"});
  for (int refuse_every : {2, 3, 7})
    for (const Shape& s : kShapes) {
      PjIvmSimResult r = sim.run(s.T, s.budget, 0, s.restore_round, 0, refuse_every);
      INFO("refuse every " << refuse_every << ", explorers " << s.T << ", budget " << s.budget);
      CHECK(r.solutions == 92);
      CHECK(r.leaves_reached == 46);  // one of each mirrored pair: nqueens.toml declares its symmetry
      CHECK(r.most_visits == 1);
      CHECK(r.expanded == cpu.expanded);
      CHECK(r.evaluated == cpu.evaluated);
    }
}

TEST_CASE("IVM explorers agree with the cpu skeleton on ATSP and QAP at the optimum", "[e2e][ivm]") {
  Matrix d = random_matrix(9, 1, 40, 21);
  std::string atsp = temp_file("ivm_sim.atsp", tsplib_text(d));
  Matrix a = random_matrix(7, 0, 9, 31), b = random_matrix(7, 0, 9, 32);
  std::string qap = temp_file("ivm_sim.dat", qaplib_text(a, b));
  // lb=1: ATSP's assignment as a second stage, each explorer's assign() started from its
  // parent's (problem::AssignStart), whose entries steals and resumes leave stale; more
  // cities, for a tree that needs steals.
  std::string atsp_assign = temp_file("ivm_sim_assign.atsp", tsplib_text(random_matrix(12, 1, 40, 22)));
  // The bounds before the assignment bounds: their trees are large enough to need steals.
  for (const auto& [spec, inst, lb] : {std::tuple{problem("atsp.toml"), atsp, "lb=0"},
                                       std::tuple{problem("atsp.toml"), atsp_assign, "lb=1"},
                                       std::tuple{problem("qap.toml"), qap, "lb=1"}}) {
    INFO(spec);
    SolveResult scratch = run(spec, inst, {lb});
    REQUIRE(scratch.found);
    SolveResult cpu = run(spec, inst, {lb}, 2, scratch.objective);
    Simulation sim(spec, inst, {lb});
    check_against_cpu(sim, cpu, static_cast<int>(scratch.objective));
    check_gpus_against_cpu(sim, cpu, static_cast<int>(scratch.objective));
    sim.steal_halves(true);  // the seed's steal (-DPJ_IVM_STEAL_HALF)
    check_against_cpu(sim, cpu, static_cast<int>(scratch.objective));
    sim.steal_halves(false);
    sim.balance(true, 4);  // victims above the geometric mean, four passes a phase
    check_against_cpu(sim, cpu, static_cast<int>(scratch.objective));
    sim.balance(false, 1);
    // From scratch the simulation finds the same optimum.
    PjIvmSimResult free_run = sim.run(16, 5, INT_MAX);
    CHECK(free_run.best == scratch.objective);
  }
}

// Two ends: the ends of the nodes that intervals share travel with the intervals
// (templates/ivm_two_ends.h). A bound that never prunes and sums differently at the two
// ends makes the nodes choose both ends (by the tie-break on bound sums); every one of
// the 7! leaves must be reached exactly once however the intervals are cut, stolen and
// resumed, and the counts equal the cpu skeleton's.
TEST_CASE("IVM explorers over two ends reach every leaf once", "[e2e][ivm][two_ends]") {
  std::string spec = temp_file("ivm_two_ends_probe.toml", R"toml(
[problem]
name = "two_ends_probe"
goal = "maximize"
size = "7"

[state]
score = "int"

[branch]
ends = 2
place = { score = "score + v * (d + 1)" }
place_back = { score = "score + (7 - v) * (d + 3)" }
bound = "1000 + score % 11"
objective = "0"
)toml");
  SolveResult cpu = run(spec);
  REQUIRE(cpu.found);
  Simulation sim(spec, "", {});
  for (const Shape& s : kShapes)
    for (int refuse_every : {0, 3}) {  // 3: leaves refused now and then, as a full solution buffer does
      PjIvmSimResult r = sim.run(s.T, s.budget, INT_MIN, s.restore_round, 0, refuse_every);
      INFO("explorers " << s.T << ", budget " << s.budget << ", restore after round " << s.restore_round
                        << ", refuse every " << refuse_every);
      CHECK(r.leaves_reached == 5040);
      CHECK(r.most_visits == 1);
      CHECK(r.expanded == cpu.expanded);
      CHECK(r.evaluated == cpu.evaluated);
    }
  // On several GPUs: an export hands over whole subtrees with the ends above them.
  check_gpus_against_cpu(sim, cpu, INT_MIN, 5040);
  // Victims above the geometric mean, four passes a phase: a subtree may move again in
  // the pass after it moved, with the ends above it.
  sim.balance(true, 4);
  for (const Shape& s : kShapes) {
    PjIvmSimResult r = sim.run(s.T, s.budget, INT_MIN, s.restore_round);
    INFO("victims=log,passes=4: explorers " << s.T << ", budget " << s.budget);
    CHECK(r.leaves_reached == 5040);
    CHECK(r.most_visits == 1);
    CHECK(r.expanded == cpu.expanded);
    CHECK(r.evaluated == cpu.evaluated);
  }
  sim.balance(false, 1);
}

// Ends that change with the incumbent. The bound scatters nodes by a hash of their path
// and no leaf improves the incumbent (every objective is 0); instead the incumbent is
// made to climb through the bounds, round after round, as leaves found elsewhere would
// make it. Which end keeps fewer children, and so the end a node takes, changes with it:
// explorers that each decided the ends of the nodes they share would disagree, and
// leaves would be searched twice or not at all.
TEST_CASE("IVM explorers over two ends share the ends the incumbent chose", "[e2e][ivm][two_ends]") {
  std::string spec = temp_file("ivm_two_ends_drift.toml", R"toml(
[problem]
name = "two_ends_drift"
goal = "maximize"
size = "8"

[state]
score = "int"

[branch]
ends = 2
place = { score = "(score * 31 + v * 7 + d * 13) % 10007" }
place_back = { score = "(score * 37 + v * 11 + d * 3) % 10007" }
bound = "score % 1000"
objective = "0"
)toml");
  Simulation sim(spec, "", {});
  for (const Shape& s : kShapes) {
    for (int climb : {1, 4}) {
      PjIvmSimResult r = sim.run(s.T, s.budget, -1, s.restore_round, climb);
      INFO("explorers " << s.T << ", budget " << s.budget << ", restore after round " << s.restore_round
                        << ", the incumbent climbing by " << climb << " a round: " << r.leaves_reached << " leaves, "
                        << r.steals << " steals, " << r.rounds << " rounds");
      CHECK(r.most_visits <= 1);
    }
  }
}

// Two-ended flowshops: from scratch (the incumbent, and with it the ends nodes choose,
// changes while explorers steal) the optimum is brute force's and no leaf is searched
// twice; at the optimum the counts equal the cpu skeleton's.
TEST_CASE("IVM explorers over two-ended flowshops: optimum and counts", "[e2e][ivm][two_ends][flowshop]") {
  for (auto [jobs, machines, seed] : {std::tuple{7, 3, 5u}, std::tuple{8, 4, 6u}}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed);
    std::string inst = temp_file("ivm_two_ends_" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (const char* lb : {"lb=1", "lb=2", "lb=3"}) {
      INFO(jobs << "x" << machines << ", " << lb);
      std::vector<std::string> params{"branching=2", lb};
      Simulation sim(problem("flowshop.toml"), inst, params);
      unsigned long long steals = 0;
      for (const Shape& s : kShapes) {
        PjIvmSimResult r = sim.run(s.T, s.budget, INT_MAX, s.restore_round);
        INFO("explorers " << s.T << ", budget " << s.budget);
        CHECK(r.best == best);
        CHECK(r.most_visits <= 1);
        steals += r.steals;
      }
      CHECK(steals > 0);
      // At the optimum these trees are small: work need not move.
      SolveResult cpu = run(problem("flowshop.toml"), inst, params, 2, best);
      check_against_cpu(sim, cpu, static_cast<int>(best), false);
    }
  }
}

// The explorer code above 64 levels on the host: the device refuses it for now, since its
// explorers stalled once they stole from each other (runtime/ivm/ivm_skeleton.cpp); what
// the host simulation runs here is the shared code that searches right.
TEST_CASE("IVM explorers over 70 cities (128-bit sets) find the one tour of unit arcs", "[e2e][ivm][wide]") {
  const int n = 70;
  Matrix d = random_matrix(n, 2, 99, 87);
  for (int i = 0; i < n; ++i) d[i][(i + 1) % n] = 1;
  const std::string inst = temp_file("ivm_sim_unit70.atsp", tsplib_text(d));
  Simulation sim(problem("atsp.toml"), inst, {"lb=1"});
  for (unsigned long long T : {1ull, 64ull, 1024ull}) {
    INFO(T << " explorers");
    const PjIvmSimResult r = sim.run(T, 2, n + 1);
    CHECK(r.best == n);
    CHECK(r.expanded < 10000);
  }
}
