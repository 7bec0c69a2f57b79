// Mistakes on the command line are user errors with a place, refused before any work.
#include <catch2/catch.hpp>

#include "dsl/diagnostics.hpp"
#include "runtime/cuda_driver.hpp"
#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
std::string first_error(SolveOptions o) {
  try {
    solve(o);
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.has_errors());
    const Diagnostic& d = e.diags.all().front();
    CHECK(d.loc.file->path == "<command line>");
    return d.message;
  }
  FAIL("no user error");
  return "";
}

SolveOptions nqueens() {
  SolveOptions o;
  o.load.spec_path = problem("nqueens.toml");
  o.cache_dir = cache_dir();
  return o;
}
}  // namespace

TEST_CASE("option --ub on a counting problem is refused", "[e2e][options]") {
  SolveOptions o = nqueens();
  o.ub = 10;
  CHECK_THAT(first_error(o), Catch::Contains("--ub applies to minimize and maximize"));
}

TEST_CASE("an unknown skeleton or backend is refused", "[e2e][options]") {
  SolveOptions o = nqueens();
  o.skeleton = "bfs";
  CHECK_THAT(first_error(o), Catch::Contains("skeleton 'bfs' is not available"));
  o = nqueens();
  o.backend = "tpu";
  CHECK_THAT(first_error(o), Catch::Contains("unknown backend 'tpu'"));
}

TEST_CASE("asking for the GPU backend without a GPU says why", "[e2e][options]") {
  std::string why;
  cuda::Device dev;
  if (cuda::first_device(dev, &why)) return;  // this machine has one: nothing to refuse
  SolveOptions o = nqueens();
  o.backend = "gpu";
  CHECK_THAT(first_error(o), Catch::Contains("no GPU to run on: " + why));
}
