// The GPU skeletons (dfs, offload) against the CPU oracle: the same count, the same objective, and
// with --ub at the optimum the same node totals (nothing better exists, so the tree
// cannot depend on search order). Also across cutoff depths and chunk sizes.
#include <catch2/catch.hpp>

#include "../e2e/flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct Run {
  std::string spec, inst;
  std::vector<std::string> params;
  std::optional<long long> ub;
};

SolveResult solve_with(const Run& r, const std::string& skeleton, int dcpu = 0, unsigned long long max_chunk = 0) {
  SolveOptions o;
  o.load.spec_path = r.spec;
  o.load.instance_path = r.inst;
  o.load.params = r.params;
  o.skeleton = skeleton;
  o.ub = r.ub;
  o.dcpu = dcpu;
  o.max_chunk = max_chunk;
  o.cache_dir = cache_dir();
  return solve(o);
}

SolveResult solve_offload(const Run& r, const std::string& mode, unsigned long long pool_max = 0,
                          unsigned long long pool_min = 0, unsigned long long batch = 0) {
  SolveOptions o;
  o.load.spec_path = r.spec;
  o.load.instance_path = r.inst;
  o.load.params = r.params;
  o.skeleton = "offload";
  o.offload = mode;
  o.pool_max = pool_max;
  o.pool_min = pool_min;
  o.batch = batch;
  o.ub = r.ub;
  o.cache_dir = cache_dir();
  return solve(o);
}

void same_tree(const SolveResult& cpu, const SolveResult& gpu) {
  CHECK(gpu.backend == "gpu");
  CHECK(gpu.solutions == cpu.solutions);
  CHECK(gpu.found == cpu.found);
  if (cpu.found) CHECK(gpu.objective == cpu.objective);
  CHECK(gpu.expanded == cpu.expanded);
  CHECK(gpu.evaluated == cpu.evaluated);
}

}  // namespace

TEST_CASE("dfs counts N-Queens like the CPU, at every cutoff depth and chunk size", "[gpu][nqueens]") {
  for (int n : {4, 6, 8, 10, 12}) {
    Run r{problem("nqueens.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    same_tree(cpu, solve_with(r, "dfs"));
    for (int dcpu : {1, 2, 3}) {
      INFO("dcpu " << dcpu);
      same_tree(cpu, solve_with(r, "dfs", dcpu));
    }
    same_tree(cpu, solve_with(r, "dfs", 3, 7));  // many small launches
  }
}

TEST_CASE("dfs proves ATSP and QAP optima with the CPU's node totals", "[gpu][atsp][qap]") {
  std::vector<Run> runs;
  for (unsigned seed : {41u, 42u, 43u}) {
    Matrix d = random_matrix(10 + static_cast<int>(seed % 2), 1, 60, seed);
    runs.push_back({problem("atsp.toml"), temp_file("gpu_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d)), {}, {}});
  }
  Matrix a = random_matrix(9, 0, 9, 51), b = random_matrix(9, 0, 9, 52);
  std::string qap = temp_file("gpu_qap9.dat", qaplib_text(a, b));
  runs.push_back({problem("qap.toml"), qap, {"lb=0"}, {}});
  runs.push_back({problem("qap.toml"), qap, {"lb=1"}, {}});
  for (Run r : runs) {
    INFO(r.spec << " " << r.inst << (r.params.empty() ? "" : " " + r.params[0]));
    SolveResult cpu = solve_with(r, "cpu");
    SolveResult gpu = solve_with(r, "dfs");
    REQUIRE(cpu.found);
    REQUIRE(gpu.found);
    CHECK(gpu.objective == cpu.objective);  // from scratch: the same optimum
    // The permutation the GPU reports has that cost (recomputed by the CPU spec path).
    r.ub = cpu.objective;  // at the optimum: the same tree
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (int dcpu : {0, 2, 3}) {
      INFO("dcpu " << dcpu);
      same_tree(cpu_ub, solve_with(r, "dfs", dcpu));
    }
    same_tree(cpu_ub, solve_with(r, "dfs", 2, 5));
  }
}

TEST_CASE("dfs reports an optimal permutation whose cost is the optimum", "[gpu][atsp]") {
  Matrix d = random_matrix(11, 1, 99, 77);
  std::string inst = temp_file("gpu_atsp_perm.atsp", tsplib_text(d));
  SolveResult gpu = solve_with({problem("atsp.toml"), inst, {}, {}}, "dfs");
  REQUIRE(gpu.found);
  REQUIRE(gpu.permutation.size() == 11);
  CHECK(tour_cost(d, gpu.permutation) == gpu.objective);
  CHECK(gpu.objective == brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); }));
}

TEST_CASE("dfs on the shared instances: nug12 = 578 and br17 = 39", "[gpu][slow]") {
  SolveResult nug = solve_with({problem("qap.toml"), instance("qap/nug12.dat"), {}, {}}, "dfs");
  REQUIRE(nug.found);
  CHECK(nug.objective == 578);
  SolveResult br = solve_with({problem("atsp.toml"), instance("atsp/br17.atsp"), {}, {}}, "dfs");
  REQUIRE(br.found);
  CHECK(br.objective == 39);
  // With the bound at the optimum, CPU and GPU explore the same tree.
  Run at_opt{problem("atsp.toml"), instance("atsp/br17.atsp"), {}, 39};
  same_tree(solve_with(at_opt, "cpu"), solve_with(at_opt, "dfs"));
}

TEST_CASE("flowshop: dfs and offload (bound, branch) prove the optimum with the CPU's totals", "[gpu][flowshop]") {
  for (const char* name : {"ta001", "ta003", "ta004", "ta007", "ta009"}) {
    std::string inst = instance(std::string("flowshop/") + name + ".txt");
    for (const char* lb : {"lb=1", "lb=2"}) {
      if (std::string(lb) == "lb=1" && std::string(name) != "ta003") continue;  // LB1 proofs are long
      Run r{problem("flowshop.toml"), inst, {lb}, taillard_optimum(name)};
      INFO(name << " " << lb);
      SolveResult cpu = solve_with(r, "cpu");
      CHECK_FALSE(cpu.found);
      same_tree(cpu, solve_with(r, "dfs"));
      for (const char* mode : {"bound", "branch"}) {
        INFO("offload " << mode);
        same_tree(cpu, solve_offload(r, mode));
        same_tree(cpu, solve_offload(r, mode, 512, 64, 100));  // small pools and batches: many round trips
      }
    }
  }
}

TEST_CASE("flowshop from scratch on the GPU: ta002 and ta007 reach their optima", "[gpu][flowshop]") {
  for (const char* name : {"ta002", "ta007"}) {
    std::string inst = instance(std::string("flowshop/") + name + ".txt");
    Run r{problem("flowshop.toml"), inst, {"lb=2"}, {}};
    long long opt = taillard_optimum(name);
    FlowshopInstance f = read_taillard(inst);
    for (SolveResult g : {solve_with(r, "dfs"), solve_offload(r, "bound"), solve_offload(r, "branch")}) {
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
  for (Run r : {Run{problem("atsp.toml"), temp_file("gpu_off_atsp.atsp", tsplib_text(d)), {}, {}},
                Run{problem("qap.toml"), temp_file("gpu_off_qap9.dat", qaplib_text(a, b)), {"lb=1"}, {}}}) {
    SolveResult cpu = solve_with(r, "cpu");
    REQUIRE(cpu.found);
    for (const char* mode : {"bound", "branch"}) CHECK(solve_offload(r, mode).objective == cpu.objective);
    r.ub = cpu.objective;
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (const char* mode : {"bound", "branch"}) {
      INFO(r.spec << " offload " << mode);
      same_tree(cpu_ub, solve_offload(r, mode));
    }
  }
}
