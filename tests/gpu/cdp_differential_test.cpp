// The cdp and rec skeletons against the CPU oracle: the same count, the same objective,
// and with --ub at the optimum the same node totals, at many (d_cpu, d_gpu) pairs, chunk
// sizes, child grids and block sizes; and a failing device-side launch reported by name.
#include <catch2/catch.hpp>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct Cut {
  int dcpu = 0, dgpu = 0;  // 0: chosen by the skeleton
  unsigned long long max_chunk = 0;
  int child_grids = 0, child_block = 0;
};

SolveResult solve_cut(const Run& r, const std::string& skeleton, const Cut& c) {
  SolveOptions o = options_for(r, skeleton);
  o.dcpu = c.dcpu;
  o.dgpu = c.dgpu;
  o.max_chunk = c.max_chunk;
  o.child_grids = c.child_grids;
  o.child_block_size = c.child_block;
  return solve(o);
}

// Same tree as the CPU, and the intermediate search really ran to its cut.
void same_tree_cut(const SolveResult& cpu, const Run& r, const std::string& skeleton, const Cut& c) {
  INFO(skeleton << " dcpu " << c.dcpu << " dgpu " << c.dgpu << " max_chunk " << c.max_chunk << " child_grids "
                << c.child_grids << " child_block " << c.child_block);
  SolveResult gpu = solve_cut(r, skeleton, c);
  same_tree(cpu, gpu, skeleton);
  CHECK(gpu.dgpu >= gpu.frontier_depth);
  if (c.dgpu > 0) CHECK(gpu.dgpu == c.dgpu);
  if (gpu.gpu_frontier_nodes > 0) CHECK(gpu.child_launches > 0);
  if (skeleton == "rec") CHECK(gpu.child_launches <= static_cast<uint64_t>(gpu.chunks));
}

const std::vector<std::string> kSkeletons = {"cdp", "rec"};

}  // namespace

TEST_CASE("cdp and rec count N-Queens like the CPU at every (d_cpu, d_gpu)", "[gpu][cdp][nqueens]") {
  for (int n : {4, 6, 8, 10, 12}) {
    Run r{problem("nqueens.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    for (const auto& sk : kSkeletons) {
      same_tree_cut(cpu, r, sk, {});  // d_cpu from the device, d_gpu = d_cpu + 2 or the last level
      for (auto [dcpu, dgpu] : std::vector<std::pair<int, int>>{{1, 2}, {1, 3}, {2, 4}, {3, 5}, {3, n - 1}, {n - 2, n - 1}})
        if (dcpu < dgpu && dgpu <= n - 1) same_tree_cut(cpu, r, sk, {dcpu, dgpu});
    }
  }
}

TEST_CASE("cdp and rec count N-Queens 12 in many chunks, child grids and block sizes", "[gpu][cdp][nqueens]") {
  Run r{problem("nqueens.toml"), "", {"n=12"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  for (const auto& sk : kSkeletons) {
    same_tree_cut(cpu, r, sk, {3, 5, 7});    // many small launches of the intermediate search
    same_tree_cut(cpu, r, sk, {2, 6, 300});  // deep cut: large active sets
    same_tree_cut(cpu, r, sk, {3, 5, 0, 0, 32});
    same_tree_cut(cpu, r, sk, {4, 6, 0, 0, 256});
  }
  same_tree_cut(cpu, r, "cdp", {3, 5, 0, 1});
  same_tree_cut(cpu, r, "cdp", {3, 5, 0, 4, 64});
}

TEST_CASE("cdp and rec prove ATSP and QAP optima with the CPU's node totals", "[gpu][cdp][atsp][qap]") {
  for (Run r : atsp_qap_runs("cdp", {41u, 42u})) {
    INFO(r.spec << " " << r.inst << (r.params.empty() ? "" : " " + r.params[0]));
    SolveResult cpu = solve_with(r, "cpu");
    REQUIRE(cpu.found);
    for (const auto& sk : kSkeletons) {
      SolveResult gpu = solve_cut(r, sk, {3, 5});  // from scratch: the same optimum
      REQUIRE(gpu.found);
      CHECK(gpu.objective == cpu.objective);
    }
    r.ub = cpu.objective;  // at the optimum: the same tree
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (const auto& sk : kSkeletons) {
      for (Cut c : {Cut{}, Cut{2, 3}, Cut{2, 4}, Cut{3, 5}, Cut{3, 6}}) same_tree_cut(cpu_ub, r, sk, c);
      same_tree_cut(cpu_ub, r, sk, {2, 4, 5});
    }
  }
}

TEST_CASE("cdp and rec report an optimal permutation whose cost is the optimum", "[gpu][cdp][atsp]") {
  Matrix d = random_matrix(11, 1, 99, 77);
  std::string inst = temp_file("cdp_atsp_perm.atsp", tsplib_text(d));
  long long best = brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  for (const auto& sk : kSkeletons) {
    for (Cut c : {Cut{2, 4}, Cut{4, 7}}) {
      INFO(sk << " dcpu " << c.dcpu << " dgpu " << c.dgpu);
      SolveResult gpu = solve_cut({problem("atsp.toml"), inst, {"lb=0"}, {}}, sk, c);
      REQUIRE(gpu.found);
      REQUIRE(gpu.permutation.size() == 11);
      CHECK(tour_cost(d, gpu.permutation) == gpu.objective);
      CHECK(gpu.objective == best);
    }
  }
}

TEST_CASE("cdp and rec on the shared instances: br17 with --ub 39, nug12 = 578", "[gpu][cdp][slow]") {
  Run at_opt{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=0"}, 39};
  SolveResult cpu = solve_with(at_opt, "cpu");
  for (const auto& sk : kSkeletons) {
    same_tree_cut(cpu, at_opt, sk, {5, 7});
    SolveResult nug = solve_cut({problem("qap.toml"), instance("qap/nug12.dat"), {"lb=1"}, {}}, sk, {});
    REQUIRE(nug.found);
    CHECK(nug.objective == 578);
  }
}

TEST_CASE("a device-side launch that fails is reported by name, never as a result", "[gpu][cdp][errors]") {
  // A pending-launch buffer of 2 against 4 grids per block of a few hundred blocks: the
  // device runtime may refuse launches (CDP2 fails them with
  // cudaErrorLaunchPendingCountExceeded). Either every launch ran and the counts are the
  // CPU's, or the solve fails and says which device error stopped it.
  Run r{problem("nqueens.toml"), "", {"n=12"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  SolveOptions o = options_for(r, "cdp");
  o.dcpu = 4;
  o.dgpu = 6;
  o.child_grids = 4;
  o.child_block_size = 32;
  o.pending_launches = 2;
  try {
    SolveResult gpu = solve(o);
    INFO("the device ran every launch within a buffer of " << gpu.pending_launch_limit);
    same_tree(cpu, gpu, "cdp");
    CHECK(gpu.pending_launch_limit > 0);  // the driver may round the 2 up
  } catch (const std::runtime_error& e) {
    INFO(e.what());
    CHECK_THAT(e.what(), Catch::Contains("a device-side launch of the final search pj_cdp_final failed"));
    CHECK_THAT(e.what(), Catch::Contains("cudaError"));
    CHECK_THAT(e.what(), Catch::Contains("the search is incomplete"));
  }
}
