// The additive and Lagrangian bounds (problems/atsp.toml lb = 5, 6, 8 and 9,
// templates/lagrange_bounds.h) on the GPU against the CPU oracle: with --ub at the
// optimum, dfs and ivm explore the cpu skeleton's tree (same node totals), and from
// scratch they reach its optimum. The bound is a function of the node alone (the
// assignment solved from scratch, the multipliers started from 0 or from the root's
// table, computed once on the host, integer steps), so any
// difference here is a device-only mistake in the solver or its arrays.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "gpu_support.hpp"
#include "runtime/solve.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("additive and Lagrangian bounds: dfs and ivm prove the optimum with the CPU's node totals",
          "[gpu][lagrange]") {
  for (unsigned seed : {171u, 172u}) {
    Matrix d = random_matrix(11, 1, 60, seed);  // one shape: the runs share their modules
    const std::string inst = temp_file("gpu_lagrange_atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    for (const char* lb : {"lb=5", "lb=6", "lb=8", "lb=9"}) {
      INFO("seed " << seed << " " << lb);
      Run r{problem("atsp.toml"), inst, {lb}, {}};
      SolveResult cpu = solve_with(r, "cpu");
      REQUIRE(cpu.found);
      for (const char* skeleton : {"dfs", "ivm"}) {
        INFO(skeleton);
        SolveResult gpu = solve_with(r, skeleton);
        REQUIRE(gpu.found);
        CHECK(gpu.objective == cpu.objective);
      }
      r.ub = cpu.objective;
      SolveResult cpu_ub = solve_with(r, "cpu");
      for (const char* skeleton : {"dfs", "ivm"}) same_tree(cpu_ub, solve_with(r, skeleton), skeleton);
    }
  }
}

TEST_CASE("br17 with the Lagrangian bound at --ub 39: dfs and ivm explore the cpu's tree", "[gpu][lagrange]") {
  Run r{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=6"}, 39};
  SolveResult cpu = solve_with(r, "cpu");
  CHECK_FALSE(cpu.found);
  for (const char* skeleton : {"dfs", "ivm"}) same_tree(cpu, solve_with(r, skeleton), skeleton);
}

TEST_CASE("br17 with the root's multipliers at --ub 39: dfs and ivm explore the cpu's tree", "[gpu][lagrange]") {
  for (const char* lb : {"lb=8", "lb=9"}) {  // forward, and on the reversed arcs
    INFO(lb);
    Run r{problem("atsp.toml"), instance("atsp/br17.atsp"), {lb}, 39};
    SolveResult cpu = solve_with(r, "cpu");
    CHECK_FALSE(cpu.found);
    for (const char* skeleton : {"dfs", "ivm"}) same_tree(cpu, solve_with(r, skeleton), skeleton);
  }
}

// atsp.toml's [search] gpu_skeleton: with no --skeleton, a GPU solve of lb >= 6 (lb = 9,
// the default) runs offload, and of lb = 5 the GPU's default, ivm; both the cpu's optimum.
// Under mpirun the preference yields to ivm.
TEST_CASE("atsp.toml with no --skeleton: offload for the Lagrangian bounds, ivm below", "[gpu][lagrange][search]") {
  const std::string inst = temp_file("gpu_search_atsp.atsp", tsplib_text(random_matrix(11, 1, 60, 173)));
  const SolveResult cpu = solve_with(Run{problem("atsp.toml"), inst, {}, {}}, "cpu");
  REQUIRE(cpu.found);
  for (auto [params, skeleton] : {std::pair<std::vector<std::string>, const char*>{{}, "offload"},
                                  {{"lb=5"}, "ivm"}}) {
    INFO(skeleton);
    SolveOptions o = options_for(Run{problem("atsp.toml"), inst, params, {}}, "");
    o.backend = "gpu";
    const SolveResult r = solve(o);
    CHECK(r.skeleton == skeleton);
    INFO(r.backend_reason);
    CHECK((r.backend_reason.find("search.gpu_skeleton") != std::string::npos) == params.empty());
    REQUIRE(r.found);
    CHECK(r.objective == cpu.objective);
  }
  // As one of mpirun's ranks the preference, which searches in one process, yields to
  // ivm, which shares the search among them (prepare_solve only: no MPI here).
  struct AsRank {
    AsRank() { setenv("OMPI_COMM_WORLD_SIZE", "2", 1); }
    ~AsRank() { unsetenv("OMPI_COMM_WORLD_SIZE"); }
  };
  SolveOptions o = options_for(Run{problem("atsp.toml"), inst, {}, {}}, "");
  o.backend = "gpu";
  const PreparedSolve p = [&] {
    AsRank rank;
    return prepare_solve(o);
  }();
  CHECK(std::string(p.skeleton->name) == "ivm");
  CHECK_THAT(p.header.backend_reason, Catch::Contains("not the spec's search.gpu_skeleton, offload"));
}

// At 100 cities a batch of Lagrangian bounds on offload takes seconds: at --time-limit
// the bound and branch kernels' threads that have not started leave their child
// (pj_offload_stop, read where node code solves a matching), so the search ends near the
// limit. Before, kro124p ran 65 s past a limit of 60 s, and only the refine kernel read
// the flag.
TEST_CASE("offload --time-limit with the Lagrangian bound at 100 cities: stops near the limit",
          "[gpu][lagrange][offload][time_limit]") {
  check_stops_near_limit(options_for(Run{problem("atsp.toml"), instance("atsp/kro124p.atsp"), {}, {}}, "offload"), 5,
                         36230);  // TSPLIB's optimum
}
