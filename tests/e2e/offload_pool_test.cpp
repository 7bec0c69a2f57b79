// The offload skeleton's host side (templates/cpu_offload.hpp: pool, hybrid selection,
// batches in flight, pruning, host threads stealing from each other) driven by a device
// that does its work on the host, so the pool logic is checked without a GPU: with --ub
// at the optimum it explores the cpu skeleton's tree (same totals) in both modes and for
// any pool, batch, slot and thread count; from scratch it finds the optimum.
#include <catch2/catch.hpp>

#include "dsl/load_spec.hpp"
#include "flowshop_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/offload_module.hpp"
#include "runtime/core/partial_bound.hpp"

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
  OffloadModule m(units_of("offload", spec, generate_problem(spec)).host.value(), ModuleCache(cache_dir()));
  HostOffloadDevice dev(m, o.slots());
  OffloadOutcome out = m.search(o, dev.device());
  CHECK(out.device_rc == 0);
  CHECK(out.stats.batches > 0);
  if (o.threads == 1) CHECK(out.stats.steals == 0);
  return out.result;
}

// The pool options of a run at `ub`: sizes, batch, slots per thread, threads.
struct PoolSizes {
  unsigned long long pool_max, pool_min, batch;
  int slots;
};
OffloadOptions at_bound(bool branch, const PoolSizes& p, long long ub, int threads = 1) {
  OffloadOptions o;
  o.branch_on_device = branch;
  o.pool_max = p.pool_max;
  o.pool_min = p.pool_min;
  o.batch = p.batch;
  o.in_flight = p.slots;
  o.threads = threads;
  o.ub = ub;
  return o;
}

}  // namespace

TEST_CASE("offload pool search: the cpu skeleton's totals at the optimum, any mode and size", "[e2e][offload]") {
  Matrix d = random_matrix(9, 1, 40, 21);
  std::string atsp = temp_file("offload_atsp.atsp", tsplib_text(d));
  struct Case {
    std::string spec, inst;
    std::vector<std::string> params;
  };
  for (const Case& c : {Case{problem("flowshop.toml"), instance("flowshop/ta003.txt"), {"branching=1", "lb=2"}},
                        Case{problem("flowshop.toml"), instance("flowshop/ta009.txt"), {"branching=1", "lb=1"}},
                        Case{problem("atsp.toml"), atsp, {}}}) {
    SolveResult scratch = run(c.spec, c.inst, c.params);
    REQUIRE(scratch.found);
    SolveResult cpu = run(c.spec, c.inst, c.params, 2, scratch.objective);
    for (bool branch : {false, true})
      for (const PoolSizes& p : {PoolSizes{1000000, 200000, 4096, 4}, {500, 100, 64, 3}, {50, 10, 1, 1}}) {
        if (p.batch == 1 && c.inst.find("ta0") != std::string::npos) continue;  // one node at a time: too slow here
        PjCpuResult r = offload_on_host(c.spec, c.inst, c.params, at_bound(branch, p, scratch.objective));
        INFO(c.spec << " " << (branch ? "branch" : "bound") << " pool " << p.pool_max << "/" << p.pool_min
                    << " batch " << p.batch << " slots " << p.slots);
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

TEST_CASE("offload pool search with several host threads: the cpu totals at the optimum, the optimum from scratch",
          "[e2e][offload]") {
  struct Case {
    const char* name;
    std::string lb;
  };
  for (const Case& c : {Case{"ta003", "lb=2"}, Case{"ta009", "lb=1"}}) {
    std::string inst = instance(std::string("flowshop/") + c.name + ".txt");
    long long opt = taillard_optimum(c.name);
    SolveResult cpu = run(problem("flowshop.toml"), inst, {"branching=1", c.lb}, 2, opt);
    for (int threads : {1, 2, 3, 7})
      for (bool branch : {false, true})
        // Tiny pools and batches: threads run dry often and steal from each other.
        for (const PoolSizes& p : {PoolSizes{100000, 20000, 512, 2}, {70, 14, 14, 1}}) {
          INFO(c.name << " " << c.lb << " " << (branch ? "branch" : "bound") << " threads " << threads << " pool "
                      << p.pool_max << "/" << p.pool_min << " batch " << p.batch << " slots " << p.slots);
          OffloadOptions o = at_bound(branch, p, opt, threads);
          PjCpuResult r = offload_on_host(problem("flowshop.toml"), inst, {"branching=1", c.lb}, o);
          CHECK(r.found == 0);
          CHECK(r.expanded == cpu.expanded);
          CHECK(r.evaluated == cpu.evaluated);
        }
  }
  // From scratch: small pools, so that depth-first soon reaches leaves.
  std::string inst = instance("flowshop/ta003.txt");
  for (int threads : {2, 7}) {
    OffloadOptions o;
    o.pool_max = 2000;
    o.pool_min = 500;
    o.batch = 64;
    o.threads = threads;
    INFO("ta003 from scratch, threads " << threads);
    PjCpuResult r = offload_on_host(problem("flowshop.toml"), inst, {"branching=1", "lb=2"}, o);
    REQUIRE(r.found == 1);
    CHECK(r.best == taillard_optimum("ta003"));
    CHECK(makespan(read_taillard(inst), std::vector<int>(r.perm, r.perm + r.size)) == r.best);
  }
}

// A stopped offload search (the device refuses a batch, as the GPU does at the time limit)
// leaves its pools and the parents of its unfinished batches open: their least bound is
// reported, and it never passes the optimum. Before the open work was noted, a stopped
// offload search reported no open subtree and no bound.
TEST_CASE("offload pool search stopped: the least bound over its open work, never past the optimum",
          "[e2e][offload]") {
  std::string inst = instance("flowshop/ta003.txt");
  const std::vector<std::string> params{"branching=1", "lb=2"};
  const long long opt = taillard_optimum("ta003");
  LoadOptions lo;
  lo.spec_path = problem("flowshop.toml");
  lo.instance_path = inst;
  lo.params = params;
  ProblemSpec spec = load_spec(lo);
  OffloadModule m(units_of("offload", spec, generate_problem(spec)).host.value(), ModuleCache(cache_dir()));
  for (unsigned long long batches : {1ull, 5ull, 40ull})
    for (int threads : {1, 3})
      for (bool branch : {false, true}) {
        INFO("stopped after " << batches << " batches, threads " << threads << (branch ? " branch" : " bound"));
        OffloadOptions o;
        o.branch_on_device = branch;
        o.batch = 8;
        o.in_flight = 2;
        o.threads = threads;
        HostOffloadDevice dev(m, o.slots(), batches);
        OffloadOutcome out = m.search(o, dev.device());
        REQUIRE(out.device_rc == HostOffloadDevice::kStopped);
        const PjCpuResult& r = out.result;
        CHECK(r.open_subtrees > 0);
        REQUIRE(r.open_bound_known == 1);
        CHECK(r.open_bound <= opt);
        CHECK(r.root_bound <= opt);
        SolveResult sr;
        sr.goal = Goal::minimize;
        std::optional<long long> incumbent;
        if (r.found) incumbent = r.best;
        set_partial_bound(sr, r, incumbent);
        REQUIRE(sr.proven_bound.has_value());
        CHECK(*sr.proven_bound <= opt);
        CHECK(*sr.proven_bound >= r.root_bound);
        if (r.found) CHECK(r.best >= opt);
      }
}
