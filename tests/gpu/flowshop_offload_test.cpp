// Flowshop on the GPU skeletons, and the offload skeleton on every optimisation
// problem, against the CPU oracle: the same optimum (with a permutation of that
// makespan) and, with --ub at the optimum, the same node totals.
#include "../e2e/flowshop_support.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult solve_offload(const Run& r, const std::string& mode, unsigned long long pool_max = 0,
                          unsigned long long pool_min = 0, unsigned long long batch = 0, int threads = 0) {
  SolveOptions o = options_for(r, "offload");
  o.offload = mode;
  o.pool_max = pool_max;
  o.pool_min = pool_min;
  o.batch = batch;
  o.threads = threads;
  return solve(o);
}
}  // namespace

TEST_CASE("flowshop: dfs, ivm and offload (bound, branch) prove the optimum with the CPU's totals",
          "[gpu][flowshop]") {
  for (const char* name : {"ta001", "ta003", "ta004", "ta007", "ta009"}) {
    std::string inst = instance(std::string("flowshop/") + name + ".txt");
    for (const char* lb : {"lb=1", "lb=2"}) {
      if (std::string(lb) == "lb=1" && std::string(name) != "ta003") continue;  // LB1 proofs are long
      Run r{problem("flowshop.toml"), inst, {"branching=1", lb}, taillard_optimum(name)};
      INFO(name << " " << lb);
      SolveResult cpu = solve_with(r, "cpu");
      CHECK_FALSE(cpu.found);
      same_tree(cpu, solve_with(r, "dfs"));
      same_tree(cpu, solve_with(r, "ivm"), "ivm");
      for (const char* mode : {"bound", "branch"}) {
        INFO("offload " << mode);
        same_tree(cpu, solve_offload(r, mode), "offload");
        same_tree(cpu, solve_offload(r, mode, 512, 64, 100), "offload");  // small pools and batches
        for (int threads : {1, 3, 8}) {  // host threads that steal from each other, each with its slots
          INFO("host threads " << threads);
          SolveResult g = solve_offload(r, mode, 4096, 512, 1024, threads);
          CHECK(g.threads == threads);
          same_tree(cpu, g, "offload");
        }
      }
    }
  }
}

// Two stages of bound (lb=3: LB1, then LB2 on the children LB1 does not prune): the
// skeletons that call problem::staged_bound search the CPU's tree.
TEST_CASE("flowshop lb=3: dfs, cdp and offload prove the optimum with the CPU's totals", "[gpu][flowshop][stages]") {
  for (const char* name : {"ta003", "ta009"}) {
    Run r{problem("flowshop.toml"), instance(std::string("flowshop/") + name + ".txt"), {"branching=1", "lb=3"},
          taillard_optimum(name)};
    INFO(name << " lb=3");
    SolveResult cpu = solve_with(r, "cpu");
    CHECK_FALSE(cpu.found);
    same_tree(cpu, solve_with(r, "dfs"));
    same_tree(cpu, solve_with(r, "cdp"), "cdp");
    for (const char* mode : {"bound", "branch"}) {
      INFO("offload " << mode);
      same_tree(cpu, solve_offload(r, mode), "offload");
    }
  }
}

TEST_CASE("flowshop from scratch on the GPU: ta002 and ta007 reach their optima", "[gpu][flowshop]") {
  for (const char* name : {"ta002", "ta007"}) {
    std::string inst = instance(std::string("flowshop/") + name + ".txt");
    Run r{problem("flowshop.toml"), inst, {"branching=1", "lb=2"}, {}};
    long long opt = taillard_optimum(name);
    FlowshopInstance f = read_taillard(inst);
    for (SolveResult g : {solve_with(r, "dfs"), solve_with(r, "ivm"), solve_offload(r, "bound"),
                          solve_offload(r, "branch"), solve_offload(r, "branch", 0, 0, 0, 4)}) {
      INFO(name << " " << g.skeleton << " " << g.offload_mode);
      REQUIRE(g.found);
      CHECK(g.objective == opt);
      CHECK(makespan(f, g.permutation) == opt);
    }
  }
}

TEST_CASE("offload proves ATSP and QAP optima with the CPU's totals", "[gpu][atsp][qap]") {
  Matrix d = random_matrix(10, 1, 60, 44);
  Matrix a = random_matrix(9, 0, 9, 53), b = random_matrix(9, 0, 9, 54);
  for (Run r : {Run{problem("atsp.toml"), temp_file("gpu_off_atsp.atsp", tsplib_text(d)), {"lb=0"}, {}},
                Run{problem("qap.toml"), temp_file("gpu_off_qap9.dat", qaplib_text(a, b)), {"lb=1"}, {}}}) {
    SolveResult cpu = solve_with(r, "cpu");
    REQUIRE(cpu.found);
    for (const char* mode : {"bound", "branch"}) CHECK(solve_offload(r, mode).objective == cpu.objective);
    r.ub = cpu.objective;
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (const char* mode : {"bound", "branch"}) {
      INFO(r.spec << " offload " << mode);
      same_tree(cpu_ub, solve_offload(r, mode), "offload");
    }
  }
}

// offload checks --time-limit before each batch: a limit already past stops before the
// first (partial: no batch bounded); one the search stays under changes nothing.
TEST_CASE("offload --time-limit: stopped before a batch, or complete with the CPU's totals",
          "[gpu][flowshop][time_limit][offload]") {
  Run r{problem("flowshop.toml"), instance("flowshop/ta003.txt"), {"branching=1", "lb=2"}, taillard_optimum("ta003")};
  SolveOptions o = options_for(r, "offload");
  o.time_limit = 1e-9;
  SolveResult cut = solve(o);
  CHECK(cut.stopped);
  CHECK(cut.chunks == 0);
  CHECK_THAT(format_json(cut), Catch::Contains("\"complete\":false"));
  o.time_limit = 600;
  SolveResult whole = solve(o);
  CHECK_FALSE(whole.stopped);
  same_tree(solve_with(r, "cpu"), whole, "offload");
}

// dfs checks --time-limit between its launches: a limit already past when the frontier
// is built stops before the first launch (partial: the frontier's counts only); a
// limit the search stays under changes nothing (the cpu's totals at the optimum).
TEST_CASE("dfs --time-limit: stopped before a launch, or complete with the CPU's totals", "[gpu][flowshop][time_limit]") {
  Run r{problem("flowshop.toml"), instance("flowshop/ta003.txt"), {"branching=1", "lb=2"}, taillard_optimum("ta003")};
  SolveOptions o = options_for(r, "dfs");
  o.dcpu = 3;  // a frontier of subtrees for the GPU (at its default depth the CPU finishes this small tree)
  o.time_limit = 1e-9;
  SolveResult cut = solve(o);
  CHECK(cut.stopped);
  CHECK(cut.chunks == 0);
  CHECK_THAT(format_json(cut), Catch::Contains("\"complete\":false"));
  o.time_limit = 600;
  SolveResult whole = solve(o);
  CHECK_FALSE(whole.stopped);
  CHECK(whole.chunks > 1);  // the frontier in several launches, for the checks
  same_tree(solve_with(r, "cpu"), whole);
}
