// Under test: 64-bit ints where a value may pass 32 bits (generator/int_width.cpp), on
// the CPU backend. An ATSP whose tours are longer than 2^31 - 1 reported a wrong
// minimum, and a flowshop whose makespan passes 2^31 a negative one: both sums
// overflowed a 32-bit int.
#include "dsl/diagnostics.hpp"
#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("an ATSP whose tours pass 2^31 - 1 gets the right minimum", "[e2e][int_width]") {
  // tests/e2e/inputs/atsp_long_tour.atsp: 6 cities, arcs of 0.9e9 to 2e9.
  const std::string file = source_dir() + "/tests/e2e/inputs/atsp_long_tour.atsp";
  std::ifstream in(file);
  std::string word;
  while (in >> word && word != "EDGE_WEIGHT_SECTION") {
  }
  Matrix d(6, std::vector<int>(6));
  for (auto& row : d)
    for (auto& x : row) in >> x;
  const long long best = brute_force_min(6, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
  REQUIRE(best > 2147483647LL);
  SolveResult r = run(problem("atsp.toml"), file);
  REQUIRE(r.found);
  CHECK(r.objective == best);
  CHECK(tour_cost(d, r.permutation) == best);
}

TEST_CASE("a flowshop whose makespan passes 2^31 gets the right makespan", "[e2e][int_width]") {
  FlowshopInstance f;
  f.jobs = 5;
  f.machines = 3;
  f.p = {{536870000, 500000000, 520000000, 480000000, 536870911},
         {499999999, 500000001, 450000000, 536870000, 400000000},
         {520000000, 390000000, 500000000, 470000000, 536870911}};
  std::vector<int> order = {0, 1, 2, 3, 4};
  long long best = LLONG_MAX;
  do best = std::min(best, makespan(f, order));
  while (std::next_permutation(order.begin(), order.end()));
  REQUIRE(best > 2147483647LL);
  const std::string inst = temp_file("flowshop_2_29.txt", taillard_text(f));
  for (const char* variant : {"lb=1", "lb=2", "branching=2"}) {
    INFO(variant);
    SolveResult r = run(problem("flowshop.toml"), inst, {variant});
    REQUIRE(r.found);
    CHECK(r.objective == best);
  }
}

TEST_CASE("a flowshop with times near 2^31 is refused at a place, not answered wrong", "[e2e][int_width]") {
  FlowshopInstance f;
  f.jobs = 4;
  f.machines = 3;
  f.p = {{2147483647, 2000000000, 2100000000, 1800000000},
         {1999999999, 2000000001, 1700000000, 2147483000},
         {2100000000, 1500000000, 2000000000, 1900000000}};
  const std::string inst = temp_file("flowshop_2_31.txt", taillard_text(f));
  try {
    run(problem("flowshop.toml"), inst);
    FAIL("a makespan near 2^33 was answered");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.error_count() >= 1);
    const Diagnostic& d = e.diags.all()[0];
    CHECK(d.loc.file->path == problem("flowshop.toml"));
    CHECK(d.loc.line > 0);
    CHECK_THAT(d.message, Catch::Contains("does not fit in a 32-bit int"));
  }
}

// The GPU skeletons compute in 32 bits: a spec generated with 64-bit ints is refused at
// the place that may pass 32 bits, before any compile (it was an #error of NVRTC's).
TEST_CASE("a GPU skeleton refuses a spec whose ints pass 32 bits, at the place", "[e2e][int_width]") {
  SolveOptions o;
  o.load.spec_path = problem("atsp.toml");
  o.load.instance_path = source_dir() + "/tests/e2e/inputs/atsp_long_tour.atsp";
  o.cache_dir = cache_dir();
  for (const char* name : {"dfs", "ivm", "cdp", "rec", "offload"}) {
    INFO(name);
    o.skeleton = name;
    const Diagnostic d = first_user_error([&] { prepare_solve(o); });
    CHECK(d.loc.file->path == o.load.spec_path);
    CHECK(d.loc.line > 0);
    CHECK_THAT(d.message, Catch::Contains("past 32 bits") && Catch::Contains("skeleton '" + std::string(name) + "'"));
  }
  o.skeleton = "cpu";
  CHECK_NOTHROW(prepare_solve(o));
}
