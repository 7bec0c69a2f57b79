// child_bound(child, prep, v) (generator/emit_child_bound.cpp), with the reductions over
// free values taken from the parent, must equal bound(child) on every child: compared
// on every child of random paths, at both ends, for flowshop's bounds and for a spec
// with each kind of reduction (tests/lit/Inputs/free_reductions.toml).
#include <catch2/catch.hpp>
#include <sstream>

#include "e2e_support.hpp"
#include "flowshop_support.hpp"
#include "host_harness.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

using CheckFn = void (*)(unsigned long long, int, unsigned long long*, unsigned long long*, long long*, long long*);

struct Outcome {
  unsigned long long compared = 0, differed = 0;
  long long bound = 0, child_bound = 0;  // the first difference
  int reductions = 0;                    // kParentReductions of the generated source
};

Outcome check(const std::string& spec_path, const std::string& instance, std::vector<std::string> params) {
  HostHarness module(spec_path, instance, std::move(params), "tests/e2e/child_bound_harness.hpp", {});
  Outcome o;
  module.function<CheckFn>("pj_child_bound_check")(12345, 40, &o.compared, &o.differed, &o.bound, &o.child_bound);
  const std::string key = "constexpr int kParentReductions = ";
  const size_t at = module.problem_text().find(key);
  REQUIRE(at != std::string::npos);
  o.reductions = std::stoi(module.problem_text().substr(at + key.size()));
  return o;
}

void require_equal(const Outcome& o) {
  INFO(o.differed << " of " << o.compared << " children differ; first: bound " << o.bound << ", child_bound "
                  << o.child_bound);
  CHECK(o.compared > 0);
  CHECK(o.differed == 0);
}

}  // namespace

TEST_CASE("child_bound equals bound on flowshop's children, both ends and forward", "[e2e][child_bound][flowshop]") {
  const std::string spec = source_dir() + "/problems/flowshop.toml";
  for (unsigned seed : {3u, 8u}) {
    const FlowshopInstance f = random_flowshop(11, 5, seed);
    const std::string inst = temp_file("child_bound_" + std::to_string(seed) + ".txt", taillard_text(f));
    for (const auto& params : std::vector<std::vector<std::string>>{{"branching=2", "lb=0"},
                                                                    {"branching=2", "lb=2"},
                                                                    {"branching=2", "lb=1", "tails=2"},
                                                                    {"branching=1", "lb=2"}}) {
      INFO("seed " << seed << ", " << params[0] << " " << params[1]);
      const Outcome o = check(spec, inst, params);
      // tails = 2 reads no minimum over free jobs: only the sums are split.
      CHECK(o.reductions == (params.size() == 3 ? 1 : params[0] == "branching=2" ? 3 : 2));
      require_equal(o);
    }
  }
}

TEST_CASE("child_bound equals bound with min, max, sum and count over free values", "[e2e][child_bound]") {
  const std::string spec = source_dir() + "/tests/lit/Inputs/free_reductions.toml";
  for (unsigned seed : {1u, 2u, 5u}) {
    const Matrix w = random_matrix(9, 0, 99, seed);
    std::ostringstream text;
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 9; ++j) text << w[k][j] << ' ';
      text << '\n';
    }
    const std::string inst = temp_file("free_reductions_" + std::to_string(seed) + ".txt", text.str());
    INFO("seed " << seed);
    const Outcome o = check(spec, inst, {"n=9"});
    CHECK(o.reductions == 6);  // the loop's min and max, the range's min, the count, the sum, the nested max
    require_equal(o);
  }
}
