// The module cache: a second solve of the same spec is a cache hit; a corrupted entry
// is detected by its content hash and recompiled, never loaded.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "e2e_support.hpp"
#include "runtime/compile/cache.hpp"  // file_digest

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

// Before: the module, cut to half and its checksum written for the half, passed the
// cache's check; dlopen mapped pages past the end of the file and the process died of
// SIGBUS. A module whose ELF headers name bytes it does not hold is compiled again.
TEST_CASE("the module cache recompiles a truncated module whose checksum matches", "[e2e][cache]") {
  const std::string dir = own_scratch_dir() + "/truncated-cache";
  SolveOptions o;
  o.load.spec_path = problem("nqueens.toml");
  o.load.params = {"n=7"};
  o.backend = "cpu";
  o.threads = 1;
  o.cache_dir = dir;
  REQUIRE_FALSE(solve(o).cache_hit);
  int cut = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".so") continue;
    const std::string so = e.path().string();
    std::filesystem::resize_file(so, std::filesystem::file_size(so) / 2);
    std::ofstream(so + ".xxh") << file_digest(so) << "\n";
    ++cut;
  }
  REQUIRE(cut == 1);
  SolveResult again = solve(o);
  CHECK_FALSE(again.cache_hit);
  CHECK(again.solutions == 40);
  CHECK(solve(o).cache_hit);  // and the new entry is whole
}
