// The module cache: a second solve of the same spec is a cache hit; a corrupted entry
// is detected by its content hash and recompiled, never loaded.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("the module cache hits, and recompiles a corrupt entry", "[e2e][cache]") {
  std::string dir = cache_dir() + "-isolated";
  std::filesystem::remove_all(dir);
  SolveOptions o;
  o.load.spec_path = problem("nqueens.toml");
  o.load.params = {"n=6"};
  o.backend = "cpu";
  o.threads = 1;
  o.cache_dir = dir;
  SolveResult first = solve(o);
  CHECK_FALSE(first.cache_hit);
  SolveResult second = solve(o);
  CHECK(second.cache_hit);
  CHECK(second.solutions == 4);

  // Damage every module in the cache.
  int damaged = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".so") continue;
    std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << "not a shared object";
    ++damaged;
  }
  REQUIRE(damaged == 1);
  SolveResult third = solve(o);
  CHECK_FALSE(third.cache_hit);
  CHECK(third.solutions == 4);
}
