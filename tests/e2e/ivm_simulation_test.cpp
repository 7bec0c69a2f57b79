// The `ivm` skeleton's explorer code (templates/ivm_explorer.h) run on the host by
// tests/ivm/ivm_host_sim.hpp: whatever the number of explorers, the work per round and
// the steals, and across a simulated crash and resume, the node totals must equal the
// `cpu` skeleton's (counting, or --ub at the optimum). The kernels run the same lines.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <climits>
#include <fstream>
#include <sstream>

#include "e2e_support.hpp"
#include "generator/generate.hpp"
#include "runtime/cache.hpp"
#include "runtime/host_compiler.hpp"
#include "runtime/compile_unit.hpp"
#include "runtime/run_time_data.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct PjIvmSimResult {
  unsigned long long expanded, evaluated, solutions, rounds, steals;
  int best;
};
using SimFn = PjIvmSimResult (*)(unsigned long long, long long, int, int);

// The simulation compiled with one problem, loaded.
class Simulation {
 public:
  Simulation(const std::string& spec_path, const std::string& instance, std::vector<std::string> params) {
    LoadOptions load;
    load.spec_path = spec_path;
    load.instance_path = instance;
    load.params = std::move(params);
    ProblemSpec spec = load_spec(load);
    std::ifstream in(source_dir() + "/tests/ivm/ivm_host_sim.hpp");
    std::stringstream sim;
    sim << in.rdbuf();
    REQUIRE(!sim.str().empty());
    const ProblemSource problem = generate_problem(spec);
    std::string unit = assemble_unit(problem, {"ivm_interval.h", "ivm_explorer.h"}, {generate_ivm_layout(spec)});
    unit += "#line 1 \"tests/ivm/ivm_host_sim.hpp\"\n" + sim.str();
    HostModule m = compile_host_module(unit, ModuleCache(cache_dir()));
    handle_ = dlopen(m.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle_ != nullptr);
    fn_ = reinterpret_cast<SimFn>(dlsym(handle_, "pj_ivm_sim"));
    REQUIRE(fn_ != nullptr);
    fill_host_data(problem.data, handle_, m.path);  // the instance's values, read at run time
  }
  ~Simulation() {
    if (handle_) dlclose(handle_);
  }
  PjIvmSimResult run(unsigned long long T, long long budget, int best, int restore_round = 0) const {
    return fn_(T, budget, best, restore_round);
  }

 private:
  void* handle_ = nullptr;
  SimFn fn_ = nullptr;
};

struct Shape {
  unsigned long long T;
  long long budget;
  int restore_round;
  bool steals;  // whether work must move between explorers
};
// One explorer alone; a few with tiny rounds (steals everywhere); more explorers than
// the 8! leaves (one leaf or none each: nothing to steal); a crash and resume.
const Shape kShapes[] = {{1, 1 << 30, 0, false}, {7, 3, 0, true},  {64, 1, 0, true}, {300, 17, 0, true},
                         {50000, 5, 0, false},   {64, 2, 4, true}, {9, 1, 20, true}};

void check_against_cpu(const Simulation& sim, const SolveResult& cpu, int best) {
  for (const Shape& s : kShapes) {
    PjIvmSimResult r = sim.run(s.T, s.budget, best, s.restore_round);
    INFO("explorers " << s.T << ", budget " << s.budget << ", restore after round " << s.restore_round << ": "
                      << r.rounds << " rounds, " << r.steals << " steals");
    CHECK(r.expanded == cpu.expanded);
    CHECK(r.evaluated == cpu.evaluated);
    CHECK(r.solutions == cpu.solutions);
    if (s.steals) CHECK(r.steals > 0);
  }
}

}  // namespace

TEST_CASE("IVM explorers count N-Queens exactly as the cpu skeleton", "[e2e][ivm]") {
  Simulation sim(problem("nqueens.toml"), "", {"n=8"});
  SolveResult cpu = run(problem("nqueens.toml"), "", {"n=8"});
  REQUIRE(cpu.solutions == 92);
  check_against_cpu(sim, cpu, 0);
}

TEST_CASE("IVM explorers agree with the cpu skeleton on ATSP and QAP at the optimum", "[e2e][ivm]") {
  Matrix d = random_matrix(9, 1, 40, 21);
  std::string atsp = temp_file("ivm_sim.atsp", tsplib_text(d));
  Matrix a = random_matrix(7, 0, 9, 31), b = random_matrix(7, 0, 9, 32);
  std::string qap = temp_file("ivm_sim.dat", qaplib_text(a, b));
  for (const auto& [spec, inst] : {std::pair{problem("atsp.toml"), atsp}, std::pair{problem("qap.toml"), qap}}) {
    INFO(spec);
    SolveResult scratch = run(spec, inst);
    REQUIRE(scratch.found);
    SolveResult cpu = run(spec, inst, {}, 2, scratch.objective);
    Simulation sim(spec, inst, {});
    check_against_cpu(sim, cpu, static_cast<int>(scratch.objective));
    // From scratch the simulation finds the same optimum.
    PjIvmSimResult free_run = sim.run(16, 5, INT_MAX);
    CHECK(free_run.best == scratch.objective);
  }
}
