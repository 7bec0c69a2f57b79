// Under test: branch.stages and branch.refine (dsl/load_spec.cpp, "Staged bounds" in
// docs/spec-language.md): their located errors, `bound` in refine's scope, and what the
// generator emits for one and two stages (generator/emit_branch.cpp).
#include <catch2/catch.hpp>
#include <regex>

#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// Lines 1..12 of a spec with a parameter `st` and two state variables; [branch] is
// line 13, so `branch` starts on line 14.
std::string spec_with(const std::string& branch, const std::string& goal = "minimize") {
  return "[problem]\n"                                             // 1
         "name = \"t\"\n"                                          // 2
         "goal = \"" + goal + "\"\n"                               // 3
         "size = \"4\"\n"                                          // 4
         "\n"                                                      // 5
         "[params]\n"                                              // 6
         "st = { type = \"int\", default = 1, range = [0, 3] }\n"  // 7
         "\n"                                                      // 8
         "[state]\n"                                               // 9
         "cost = \"int\"\n"                                        // 10
         "extra = \"int\"\n"                                       // 11
         "\n"                                                      // 12
         "[branch]\n" +                                            // 13
         branch;
}

// `extra` is read by refine only.
const std::string kBranch =
    "place = { cost = \"cost + v\", extra = \"extra + 2 * v\" }\n"  // 14
    "bound = \"cost\"\n"                                            // 15
    "stages = \"st\"\n"                                             // 16
    "refine = \"max(bound, cost + extra)\"\n"                       // 17
    "objective = \"cost\"\n";                                       // 18

ProblemSpec load_with(const std::string& toml, std::vector<std::string> params) {
  TempFile f("spec.toml", toml);
  LoadOptions o;
  o.spec_path = f.path();
  o.params = std::move(params);
  return load_ok(o);
}

}  // namespace

TEST_CASE("branch.stages from a parameter; refine alone means two stages", "[load_spec][stages]") {
  CHECK(load_with(spec_with(kBranch), {}).branch.stages == 1);
  ProblemSpec two = load_with(spec_with(kBranch), {"st=2"});
  CHECK(two.branch.stages == 2);
  REQUIRE(two.branch.refine);
  CHECK(two.branch.refine_bound);
  ProblemSpec implied = load_with(spec_with("place = { cost = \"cost + v\" }\nbound = \"cost\"\n"
                                            "refine = \"bound + 1\"\nobjective = \"cost\"\n"),
                                  {});
  CHECK(implied.branch.stages == 2);
}

TEST_CASE("branch.stages outside 1..2 is an error at its value", "[load_spec][errors][stages]") {
  auto d = spec_errors(spec_with(kBranch), {"st=3"});
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 16, 10, "branch.stages is 3; it must be 1 or 2");
}

TEST_CASE("branch.stages must be known before the search", "[load_spec][errors][stages]") {
  auto d = spec_errors(spec_with("bound = \"cost\"\nstages = \"cost\"\nrefine = \"bound\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 15, 11, "state variable 'cost' cannot be used in branch.stages");
}

TEST_CASE("branch.stages = 2 without refine is an error at stages", "[load_spec][errors][stages]") {
  auto d = spec_errors(spec_with("bound = \"cost\"\nstages = 2\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 15, 10, "branch.stages = 2 needs branch.refine");
}

TEST_CASE("stages and refine in a count problem are errors at each key", "[load_spec][errors][stages]") {
  auto d = spec_errors(spec_with("stages = 1\nrefine = \"1\"\n", "count"));
  REQUIRE(d.error_count() == 2);
  check_at(d.all()[0], 14, 10, "branch.stages is only for minimize and maximize goals");
  check_at(d.all()[1], 15, 10, "branch.refine is only for minimize and maximize goals");
}

TEST_CASE("refine is checked with one stage too", "[load_spec][errors][stages]") {
  // An unknown name inside a multi-line refine, at its column.
  auto d = spec_errors(spec_with("bound = \"cost\"\nstages = 1\nrefine = '''\nvar r = bound\nreturn r + cosst\n'''\n"
                                 "objective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 18, 12, "unknown name 'cosst' in branch.refine");
  // A refine that is not an int.
  auto t = spec_errors(spec_with("bound = \"cost\"\nstages = 1\nrefine = \"bound > 1\"\nobjective = \"cost\"\n"));
  REQUIRE(t.error_count() == 1);
  check_at(t.all()[0], 16, 17, "branch.refine must be int, found bool");
}

TEST_CASE("`bound` is refine's own: not visible in bound, not assignable in refine", "[load_spec][errors][stages]") {
  auto d = spec_errors(spec_with("bound = \"cost + bound\"\nrefine = \"bound\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 17, "unknown name 'bound' in bound");
  auto a = spec_errors(spec_with("bound = \"cost\"\nrefine = '''\nbound = 1\nreturn bound\n'''\nobjective = \"cost\"\n"));
  REQUIRE(a.error_count() == 1);
  check_at(a.all()[0], 16, 1, "only state variables and var locals can be assigned; 'bound'");
}

TEST_CASE("generate: one stage, refine returns its argument and refine's state is not stored",
          "[generator][stages]") {
  std::string one = generate_problem(load_with(spec_with(kBranch), {})).text;
  CHECK_THAT(one, Catch::Contains("constexpr int kStages = 1;"));
  CHECK_THAT(one, Catch::Contains("PJ_HD int refine(const Node& s, int bound) {"));
  CHECK_THAT(one, Catch::Contains("return bound;"));
  // The staged bound itself is the same for every spec: a template part after the source.
  CHECK_THAT(one, !Catch::Contains("staged_bound("));
  CHECK(generate_problem(load_with(spec_with(kBranch), {})).templates == std::vector<std::string>{"staged_bound.h"});
  CHECK_THAT(one, !Catch::Contains("st_extra"));
}

TEST_CASE("generate: two stages, refine is the spec's, out of line on the device", "[generator][stages]") {
  std::string two = generate_problem(load_with(spec_with(kBranch), {"st=2"})).text;
  CHECK_THAT(two, Catch::Contains("constexpr int kStages = 2;"));
  // regex_search, not Catch::Matches over "(.|\n)*": libstdc++'s matcher recurses once
  // per character of such a pattern, and the generated text overflowed the stack under
  // AddressSanitizer (scripts/sanitize.sh).
  CHECK(std::regex_search(two, std::regex("PJ_HEAVY int refine\\(const Node& s, int bound_[0-9]+\\) \\{")));
  CHECK_THAT(two, Catch::Contains("int st_extra;"));
  CHECK_THAT(two, !Catch::Contains("refined_bound("));  // templates/staged_bound.h's
}
