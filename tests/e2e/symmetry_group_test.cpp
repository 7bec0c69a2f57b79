// Symmetry groups ([symmetry] generators, generator/emit_symmetry.cpp): every subgroup
// counts exactly (all permutations: n!, and Hertzsprung's problem), optimisation keeps
// its optimum, and `check --verify-symmetry` names the generator that is wrong.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "dsl/symmetry_group.hpp"
#include "e2e_support.hpp"
#include "runtime/verify_symmetry.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
const char* const kNames[] = {"reflect-values", "reverse-positions", "invert"};

// A count of size n with `branch` and the generators of the bits of `subset`.
std::string spec_text(const std::string& name, const std::string& branch, int subset) {
  std::string gens;
  for (int k = 0; k < 3; ++k)
    if (subset >> k & 1) gens += std::string(gens.empty() ? "" : ", ") + "\"" + kNames[k] + "\"";
  return "[problem]\nname = \"" + name +
         "\"\ngoal = \"count\"\nsize = \"n\"\n[params]\n"
         "n = { type = \"int\", default = 5, range = [1, 10] }\n[branch]\n" +
         branch + "\n[symmetry]\ngenerators = [" + gens + "]\n";
}

SolveResult count(const std::string& spec, int n, bool ignore = false) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.params = {"n=" + std::to_string(n)};
  o.load.ignore_symmetry = ignore;
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = 2;
  o.cache_dir = cache_dir();
  return solve(o);
}
}  // namespace

// Each module is compiled for its size: the subgroups are tried at one size, the whole
// group at several (the test's time is its compiles).
TEST_CASE("every subgroup counts all permutations exactly: n!", "[e2e][symmetry]") {
  for (int subset = 1; subset < 8; ++subset) {
    const std::string spec = temp_file("perms" + std::to_string(subset) + ".toml", spec_text("perms", "", subset));
    for (int n : subset == 7 ? std::vector<int>{1, 2, 3, 5} : std::vector<int>{5}) {
      INFO("generators " << subset << ", n = " << n);
      unsigned long long factorial = 1;
      for (int k = 2; k <= n; ++k) factorial *= static_cast<unsigned long long>(k);
      const SolveResult r = count(spec, n);
      CHECK(r.solutions == factorial);
      if (n == 5) CHECK(r.evaluated < 325);  // the whole tree: 5 + 20 + 60 + 120 + 120
    }
  }
}

TEST_CASE("Hertzsprung's problem under every subgroup: OEIS A002464", "[e2e][symmetry]") {
  // No two values placed next to each other differ by one (kings on distinct rows and
  // columns that do not touch): the same under the eight symmetries of the square.
  const unsigned long long expect[] = {1, 0, 0, 2, 14, 90, 646, 5242, 47622};  // n = 1, 2, ...
  for (int subset = 1; subset < 8; ++subset) {
    const std::string spec = temp_file("kings" + std::to_string(subset) + ".toml",
                                       spec_text("kings", "filter = \"d == 0 || abs(v - last) != 1\"", subset));
    for (int n : subset == 7 ? std::vector<int>{1, 4, 5, 6, 7} : std::vector<int>{6}) {
      INFO("generators " << subset << ", n = " << n);
      CHECK(count(spec, n).solutions == expect[n - 1]);
    }
  }
}

TEST_CASE("a minimisation and a find under a group keep their answers", "[e2e][symmetry]") {
  // Pairs of neighbouring positions whose values are neighbours too: the same count in
  // each of the eight images of a permutation. Maximised, the answer is n - 1 (0 1 2 ...).
  const std::string text = R"spec([problem]
name = "touching"
goal = "maximize"
size = "n"
[params]
n = { type = "int", default = 6, range = [2, 9] }
[state]
touch = { type = "int", init = "0" }
[branch]
place = { touch = "d == 0 ? 0 : touch + (abs(v - last) == 1 ? 1 : 0)" }
bound = "touch + (n - d)"
objective = "touch"
[symmetry]
generators = ["invert", "reverse-positions", "reflect-values"]
)spec";
  const std::string spec = temp_file("touching.toml", text);
  for (const char* n : {"n=6"}) {
    INFO(n);
    const SymmetryReport r = verify_symmetry(LoadOptions{spec, {n}}, cache_dir());
    CHECK(r.agrees);
    CHECK(r.without == std::stoi(std::string(n).substr(2)) - 1);
    CHECK(r.checks.size() == 4);  // each generator, then the group
  }
  // find: whether a permutation exists (Hertzsprung's: none for n = 3, some for 5).
  for (const char* n : {"n=3", "n=5"}) {
    INFO(n);
    std::string text_find = spec_text("kings", "filter = \"d == 0 || abs(v - last) != 1\"", 4);  // invert
    text_find.replace(text_find.find("\"count\""), 7, "\"find\"");
    const std::string f = temp_file("kings_find.toml", text_find);
    const SymmetryReport r = verify_symmetry(LoadOptions{f, {n}}, cache_dir());
    CHECK(r.agrees);
    CHECK(r.found_without == (std::string(n) != "n=3"));
  }
}

TEST_CASE("check --verify-symmetry names the generator that is wrong, at its place", "[e2e][symmetry]") {
  // Derangements (no value at its own position): inverting keeps one, reversing the
  // positions does not.
  const std::string spec = temp_file("derange_gens.toml", R"([problem]
name = "derange"
goal = "count"
size = "n"
[params]
n = { type = "int", default = 6, range = [1, 9] }
[branch]
filter = "v != d"
[symmetry]
generators = ["invert", "reverse-positions"]
)");
  LoadOptions load{spec, {"n=6"}};
  const SymmetryReport r = verify_symmetry(load, cache_dir());
  CHECK(!r.agrees);
  CHECK(r.without == 265);  // the derangements of 6
  REQUIRE(r.checks.size() == 2);
  CHECK(r.checks[0].agrees);  // invert
  CHECK(!r.checks[1].agrees);
  try {
    wrong_symmetry_error(load_spec(load), r);
    FAIL("no error");
  } catch (const UserErrors& e) {
    const Diagnostic& d = e.diags.all().front();
    CHECK(d.loc.line == 10);
    CHECK(d.loc.col == 25);
    CHECK_THAT(d.message, Catch::Contains("with generator 'reverse-positions' the search finds"));
    CHECK_THAT(d.message, Catch::Contains("without it 265 solutions"));
  }
}
