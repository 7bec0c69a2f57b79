// Under test: branch.ends and branch.place_back (dsl/load_spec.cpp), and the state a
// generated Node leaves out when nothing reads it (generator/state_liveness.cpp).
#include <catch2/catch.hpp>

#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// Lines 1..12 of a minimize spec with a parameter `ends` and two state variables;
// [branch] is line 13, so `branch` starts on line 14.
std::string spec_with(const std::string& branch) {
  return "[problem]\n"                                               // 1
         "name = \"t\"\n"                                            // 2
         "goal = \"minimize\"\n"                                     // 3
         "size = \"4\"\n"                                            // 4
         "\n"                                                        // 5
         "[params]\n"                                                // 6
         "ends = { type = \"int\", default = 1, range = [1, 3] }\n"  // 7
         "\n"                                                        // 8
         "[state]\n"                                                 // 9
         "cost = \"int\"\n"                                          // 10
         "tail = \"int\"\n"                                          // 11
         "\n"                                                        // 12
         "[branch]\n" +                                              // 13
         branch;
}

// Both ends; `tail` is read only when ends == 2.
const std::string kBranch =
    "ends = \"ends\"\n"                                                   // 14
    "place = { cost = \"cost + v\" }\n"                                   // 15
    "place_back = { tail = \"tail + v\" }\n"                              // 16
    "bound = \"ends == 2 ? cost + tail : cost\"\n"                       // 17
    "objective = \"ends == 2 ? cost + tail : cost\"\n";                  // 18

ProblemSpec load_with(const std::string& toml, std::vector<std::string> params) {
  TempFile f("spec.toml", toml);
  LoadOptions o;
  o.spec_path = f.path();
  o.params = std::move(params);
  return load_ok(o);
}

}  // namespace

TEST_CASE("branch.ends from a parameter: 1 or 2, and place_back goes with it", "[load_spec][two_ends]") {
  CHECK(load_with(spec_with(kBranch), {}).branch.ends == 1);
  ProblemSpec two = load_with(spec_with(kBranch), {"ends=2"});
  CHECK(two.branch.ends == 2);
  CHECK(two.branch.place_back.given);
}

TEST_CASE("branch.ends outside 1..2 is an error at its value", "[load_spec][errors][two_ends]") {
  auto d = spec_errors(spec_with(kBranch), {"ends=3"});
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 8, "branch.ends is 3; it must be 1 or 2");
}

TEST_CASE("branch.ends = 2 without place_back is an error at ends", "[load_spec][errors][two_ends]") {
  auto d = spec_errors(spec_with("ends = 2\nplace = { cost = \"cost + v\" }\nbound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 8, "branch.ends = 2 needs branch.place_back");
}

TEST_CASE("place_back without branch.ends is an error at place_back", "[load_spec][errors][two_ends]") {
  auto d = spec_errors(spec_with("place_back = { tail = \"tail + v\" }\nbound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 14, "branch.place_back needs branch.ends = 2");
}

TEST_CASE("last is not defined with two ends", "[load_spec][errors][two_ends]") {
  auto d = spec_errors(spec_with("ends = 2\nplace = { cost = \"cost + last\" }\nplace_back = { tail = \"tail\" }\n"
                                 "bound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 8, "'last' is not defined when values are placed at both ends");
}

TEST_CASE("generate: state that nothing reads for these parameters is not stored", "[generator][two_ends]") {
  std::string one = generate_problem(load_with(spec_with(kBranch), {})).text;
  CHECK_THAT(one, Catch::Contains("constexpr int kEnds = 1;"));
  CHECK_THAT(one, Catch::Contains("// state 'tail', line 11: not stored"));
  CHECK_THAT(one, !Catch::Contains("st_tail"));
  CHECK_THAT(one, !Catch::Contains("place_back"));
  std::string two = generate_problem(load_with(spec_with(kBranch), {"ends=2"})).text;
  CHECK_THAT(two, Catch::Contains("constexpr int kEnds = 2;"));
  CHECK_THAT(two, Catch::Contains("int st_tail;"));
  CHECK_THAT(two, Catch::Contains("PJ_HD void place_back(const Node& p, int v, Node& c) {"));
}

TEST_CASE("generate: an update that feeds stored state keeps what it reads", "[generator][two_ends]") {
  // `cost` reads `tail` in place: tail is stored although no bound reads it.
  std::string t = generate_problem(load_with(spec_with("place = '''\ntail = tail + 1\ncost = cost + tail * v\n'''\n"
                                                       "bound = \"cost\"\nobjective = \"cost\"\n"),
                                             {}))
                      .text;
  CHECK_THAT(t, Catch::Contains("int st_tail;"));
  CHECK_THAT(t, Catch::Contains("c.st_tail = "));
}
