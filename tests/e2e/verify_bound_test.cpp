// `check --verify-bound` (runtime/verify_bound.hpp): the bound of every optimisation
// spec of problems/ holds at every node checked on small instances, and a flowshop
// bound that overestimates by one is caught at a node whose best completion the test
// computes itself.
#include <algorithm>

#include "dsl/load_spec.hpp"
#include "e2e_support.hpp"
#include "flowshop_support.hpp"
#include "runtime/verify_bound.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
VerifyBoundOptions options(int samples) {
  VerifyBoundOptions o;
  o.samples = samples;
  o.cache_dir = cache_dir();
  return o;
}

std::string flowshop_8x3() { return source_dir() + "/tests/e2e/inputs/flowshop_8x3.txt"; }
}  // namespace

TEST_CASE("the flowshop bounds hold at every node of an 8x3 instance", "[verify-bound]") {
  for (const char* lb : {"lb=1", "lb=2"}) {
    INFO(lb);
    BoundReport r = verify_bound(load(problem("flowshop.toml"), flowshop_8x3(), {"branching=1", lb}), options(64));
    CHECK_FALSE(r.bad);
    CHECK(r.whole_tree);
    CHECK(r.checked == 69280);  // every node between the root and the leaves: 8!/7! + 8!/6! + ... + 8!/1!
  }
}

TEST_CASE("the two-ended flowshop bound holds below sampled nodes placed at either end", "[verify-bound]") {
  const std::string inst = temp_file("verify_flowshop_10x3.txt", taillard_text(random_flowshop(10, 3, 7, 20)));
  BoundReport r = verify_bound(load(problem("flowshop.toml"), inst, {"branching=2"}), options(12));
  CHECK_FALSE(r.bad);
  CHECK_FALSE(r.whole_tree);
  CHECK(r.sample_depth == 2);
  CHECK(r.sampled == 12);
}

TEST_CASE("the atsp and qap bounds hold below sampled nodes", "[verify-bound]") {
  const std::string atsp = temp_file("verify_atsp10.atsp", tsplib_text(random_matrix(10, 1, 50, 3)));
  BoundReport a = verify_bound(load(problem("atsp.toml"), atsp), options(16));
  CHECK_FALSE(a.bad);
  CHECK(a.sample_depth == 2);
  CHECK(a.sampled == 16);
  const std::string qap =
      temp_file("verify_qap9.dat", qaplib_text(random_matrix(9, 0, 9, 4), random_matrix(9, 0, 9, 5)));
  BoundReport q = verify_bound(load(problem("qap.toml"), qap), options(16));
  CHECK_FALSE(q.bad);
  CHECK(q.sampled == 16);
}

TEST_CASE("a flowshop bound one above the makespan is caught with its node and values", "[verify-bound]") {
  const std::string spec_path = source_dir() + "/tests/e2e/inputs/flowshop_overestimate.toml";
  ProblemSpec spec = load(spec_path, flowshop_8x3());
  BoundReport r = verify_bound(spec, options(64));
  REQUIRE(r.bad);
  CHECK(r.bound > r.best);
  // The node's best completion, by the test's own brute force over its free jobs.
  const FlowshopInstance f = read_taillard(flowshop_8x3());
  std::vector<int> free_jobs, prefix;
  for (int j = 0; j < f.jobs; ++j)
    if (std::find(r.placed.begin(), r.placed.end(), j) == r.placed.end()) free_jobs.push_back(j);
  for (int i = 0; i < r.depth; ++i) prefix.push_back(r.placed[i]);
  REQUIRE(static_cast<int>(prefix.size() + free_jobs.size()) == f.jobs);
  long long best = LLONG_MAX;
  do {
    std::vector<int> order = prefix;
    order.insert(order.end(), free_jobs.begin(), free_jobs.end());
    best = std::min(best, makespan(f, order));
  } while (std::next_permutation(free_jobs.begin(), free_jobs.end()));
  CHECK(r.best == best);
  CHECK(r.bound == best + 1);
  // The user error points at the bound's return expression in the spec.
  try {
    invalid_bound_error(spec, r);
    FAIL("no error");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.all().size() == 1);
    const Diagnostic& d = e.diags.all()[0];
    CHECK(d.loc.file->path == spec_path);
    CHECK(d.loc.line == 128);
    CHECK_THAT(d.message, Catch::Contains("not a valid bound") && Catch::Contains(std::to_string(r.best)));
  }
}
