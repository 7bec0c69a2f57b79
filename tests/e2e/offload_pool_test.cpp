// The offload skeleton's host side (templates/cpu_offload.hpp: pool, hybrid selection,
// batches in flight, pruning) driven by a device that does its work on the host, so the
// pool logic is checked without a GPU: with --ub at the optimum it explores the cpu
// skeleton's tree (same totals) in both modes and for any pool, batch and slot sizes;
// from scratch it finds the optimum.
#include <catch2/catch.hpp>

#include "dsl/load_spec.hpp"
#include "flowshop_support.hpp"
#include "generator/generate.hpp"
#include "runtime/offload_module.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

PjCpuResult offload_on_host(const std::string& spec_path, const std::string& inst, std::vector<std::string> params,
                            OffloadOptions o) {
  LoadOptions lo;
  lo.spec_path = spec_path;
  lo.instance_path = inst;
  lo.params = std::move(params);
  ProblemSpec spec = load_spec(lo);
  OffloadModule m(generate_problem(spec), ModuleCache(cache_dir()));
  HostOffloadDevice dev(m, o.in_flight);
  PjOffloadStats stats{};
  PjCpuResult r = m.search(o, dev.device(), stats);
  CHECK(stats.batches > 0);
  return r;
}

}  // namespace

TEST_CASE("offload pool search: the cpu skeleton's totals at the optimum, any mode and size", "[e2e][offload]") {
  Matrix d = random_matrix(9, 1, 40, 21);
  std::string atsp = temp_file("offload_atsp.atsp", tsplib_text(d));
  struct Case {
    std::string spec, inst;
    std::vector<std::string> params;
  };
  for (const Case& c : {Case{problem("flowshop.toml"), instance("flowshop/ta003.txt"), {"lb=2"}},
                        Case{problem("flowshop.toml"), instance("flowshop/ta009.txt"), {"lb=1"}},
                        Case{problem("atsp.toml"), atsp, {}}}) {
    SolveResult scratch = run(c.spec, c.inst, c.params);
    REQUIRE(scratch.found);
    SolveResult cpu = run(c.spec, c.inst, c.params, 2, scratch.objective);
    for (bool branch : {false, true})
      for (auto [pool_max, pool_min, batch, slots] : {std::tuple{1000000ull, 200000ull, 4096ull, 4},
                                                      std::tuple{500ull, 100ull, 64ull, 3},
                                                      std::tuple{50ull, 10ull, 1ull, 1}}) {
        OffloadOptions o;
        o.branch_on_device = branch;
        o.pool_max = pool_max;
        o.pool_min = pool_min;
        o.batch = batch;
        o.in_flight = slots;
        o.ub = scratch.objective;
        if (batch == 1 && c.inst.find("ta0") != std::string::npos) continue;  // one node at a time: too slow here
        PjCpuResult r = offload_on_host(c.spec, c.inst, c.params, o);
        INFO(c.spec << " " << (branch ? "branch" : "bound") << " pool " << pool_max << "/" << pool_min << " batch "
                    << batch << " slots " << slots);
        CHECK(r.found == 0);
        CHECK(r.expanded == cpu.expanded);
        CHECK(r.evaluated == cpu.evaluated);
      }
    // From scratch: the optimum, with a permutation of that cost.
    OffloadOptions o;
    o.batch = 256;
    PjCpuResult r = offload_on_host(c.spec, c.inst, c.params, o);
    REQUIRE(r.found == 1);
    CHECK(r.best == scratch.objective);
    if (c.spec == problem("flowshop.toml"))
      CHECK(makespan(read_taillard(c.inst), std::vector<int>(r.perm, r.perm + r.size)) == r.best);
    else
      CHECK(tour_cost(d, std::vector<int>(r.perm, r.perm + r.size)) == r.best);
  }
}
