// Under test: dsl/load_spec.cpp + checker: every user error names its exact place.
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// Lines 1..11 of a minimize spec; [branch] is line 12, so `branch` starts on line 13.
std::string minimize_spec(const std::string& branch) {
  return "[problem]\n"                                            // 1
         "name = \"t\"\n"                                         // 2
         "goal = \"minimize\"\n"                                  // 3
         "size = \"n\"\n"                                         // 4
         "\n"                                                     // 5
         "[params]\n"                                             // 6
         "n = { type = \"int\", default = 4, range = [1, 10] }\n"  // 7
         "\n"                                                     // 8
         "[state]\n"                                              // 9
         "cost = { type = \"int\", init = \"0\" }\n"              // 10
         "\n"                                                     // 11
         "[branch]\n" +                                           // 12
         branch;
}

const std::string kGoodBranch = "place = { cost = \"cost + v\" }\nbound = \"cost\"\nobjective = \"cost\"\n";

}  // namespace

TEST_CASE("the base spec of these tests loads", "[load_spec]") {
  TempFile f("ok.toml", minimize_spec(kGoodBranch));
  LoadOptions o;
  o.spec_path = f.path();
  ProblemSpec s = load_spec(o);
  CHECK(s.size == 4);
  CHECK(s.goal == Goal::minimize);
  REQUIRE(s.params.size() == 1);
  CHECK(s.params[0].value == 4);
}

TEST_CASE("TOML syntax error: place of the bad token", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"t\"\ngoal = = \"count\"\n");
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 3, 8, "TOML syntax");
}

TEST_CASE("unknown key in [branch], with a suggestion", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec(kGoodBranch + "candidatse = \"free\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 16, 1, "unknown key 'candidatse' in [branch]");
  CHECK(d.all()[0].hint == "did you mean 'candidates'?");
}

TEST_CASE("unknown key far from every known one lists the known keys", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec(kGoodBranch + "zzzzzzzzzzzzzzz = 1\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 16, 1, "unknown key 'zzzzzzzzzzzzzzz'");
  CHECK_THAT(d.all()[0].hint, Catch::Contains("known keys: candidates, filter, ends, place, place_back, bound, objective"));
}

TEST_CASE("unknown section", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec(kGoodBranch + "\n[brnch]\nx = 1\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 17, 2, "unknown key 'brnch' in the spec");
  CHECK(d.all()[0].hint == "did you mean 'branch'?");
}

TEST_CASE("wrong TOML type for an expression", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"t\"\ngoal = \"count\"\nsize = [1]\n[branch]\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 4, 8, "problem.size must be an expression in a string, found a TOML array");
}

TEST_CASE("undefined name inside a single-line string: column inside the string", "[load_spec][errors]") {
  // bound = "cost + foo": the quote is column 9, `foo` is at offset 7 of the string.
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"cost + foo\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 9 + 1 + 7, "unknown name 'foo' in bound");
}

TEST_CASE("undefined name inside an inline table's string", "[load_spec][errors]") {
  // place = { cost = "cost + w" }: the quote is column 18, `w` at offset 7.
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + w\" }\nbound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 13, 18 + 1 + 7, "unknown name 'w'");
}

TEST_CASE("undefined name on the 3rd line of a multi-line string", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\n"
                                     "bound = '''\n"  // 14; the newline after ''' is trimmed
                                     "cost +\n"       // 15: line 1 of the string
                                     "  0 +\n"        // 16: line 2
                                     "    nope\n"     // 17: line 3
                                     "'''\n"
                                     "objective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 17, 5, "unknown name 'nope'");
}

TEST_CASE("an error after escapes in a basic string", "[load_spec][errors]") {
  // objective = "\u0063ost + \"": the escape is 6 bytes in the file but one in the string.
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"cost\"\nobjective = \"\\u0063ost + q\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 15, 13 + 1 + 6 + 3 + 3, "unknown name 'q'");
}

TEST_CASE("type error: bound must be int", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"free\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 10, "bound must be int, found bits");
}

TEST_CASE("v is not defined in bound", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"cost + v\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 17, "'v' (the value being placed) is not defined in bound");
  CHECK_THAT(d.all()[0].hint, Catch::Contains("branch.filter and branch.place"));
}

TEST_CASE("option --param out of range is placed on the command line", "[load_spec][errors][params]") {
  auto d = spec_errors(minimize_spec(kGoodBranch), {"n=99"});
  REQUIRE(d.error_count() == 1);
  const Diagnostic& e = d.all()[0];
  REQUIRE(e.loc.file);
  CHECK(e.loc.file->path == "<command line>");
  check_at(e, 1, 11, "parameter n=99 is outside its range [1, 10]");  // "--param n=99": the value
  // A note shows where the range is declared.
  REQUIRE(d.all().size() == 2);
  CHECK(d.all()[1].kind == Diagnostic::Kind::note);
  CHECK(d.all()[1].loc.line == 7);
}

TEST_CASE("option --param with an unknown name", "[load_spec][errors][params]") {
  auto d = spec_errors(minimize_spec(kGoodBranch), {"m=3"});
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].loc.file->path == "<command line>");
  check_at(d.all()[0], 1, 9, "the spec has no parameter 'm'");
  CHECK(d.all()[0].hint == "did you mean 'n'?");
}

TEST_CASE("option --param that is not name=integer", "[load_spec][errors][params]") {
  auto d = spec_errors(minimize_spec(kGoodBranch), {"n=abc", "n"});
  REQUIRE(d.error_count() == 2);
  check_at(d.all()[0], 1, 11, "parameter 'n' takes an integer, found 'abc'");
  check_at(d.all()[1], 1, 9, "--param takes name=value");
}

TEST_CASE("option --param in range sets the value", "[load_spec][params]") {
  TempFile f("p.toml", minimize_spec(kGoodBranch));
  LoadOptions o;
  o.spec_path = f.path();
  o.params = {"n=7"};
  ProblemSpec s = load_spec(o);
  CHECK(s.size == 7);
  CHECK(s.params[0].value == 7);
  CHECK(s.params[0].def == 4);
}

TEST_CASE("several errors of one spec are reported together", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"cost + foo\"\nobjective = \"bar\"\n"));
  REQUIRE(d.error_count() == 2);
  check_at(d.all()[0], 14, 17, "unknown name 'foo'");
  check_at(d.all()[1], 15, 14, "unknown name 'bar'");
}

TEST_CASE("assigning to a non-state name in a place block", "[load_spec][errors][checker]") {
  auto d = spec_errors(minimize_spec("place = '''\ncost = cost + v\nn = 1\n'''\nbound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 15, 1, "only state variables and var locals can be assigned; 'n' is not a state variable");
}

TEST_CASE("a non-state name in a simultaneous place table", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cots = \"v\" }\nbound = \"cost\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 13, 11, "'cots' is not a state variable");
  CHECK(d.all()[0].hint == "did you mean 'cost'?");
}

TEST_CASE("wrong arity: min(1)", "[load_spec][errors][checker]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nbound = \"cost + min(1)\"\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 14, 17, "min() takes at least 2 argument(s), given 1");
}

TEST_CASE("a count problem must not have a bound", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"c\"\ngoal = \"count\"\nsize = 3\n[branch]\nbound = \"0\"\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 6, 9, "branch.bound is only for minimize and maximize goals");
}

TEST_CASE("a minimize problem needs a bound", "[load_spec][errors]") {
  auto d = spec_errors(minimize_spec("place = { cost = \"cost + v\" }\nobjective = \"cost\"\n"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 12, 1, "a minimize problem needs branch.bound");
}

TEST_CASE("unknown goal and missing sections", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"g\"\ngoal = \"minimise\"\nsize = 3\n");
  REQUIRE(d.error_count() == 2);
  check_at(d.all()[0], 3, 8, "unknown goal 'minimise'");
  check_at(d.all()[1], 1, 1, "missing section [branch]");
}

// Before, the branch of an optimisation spec with a misspelt goal was judged as a count
// problem's: one error for the goal, then one for each of bound, objective, stages and
// refine.
TEST_CASE("a misspelt goal is one error: the rest is checked as the goal its keys suggest", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"g\"\ngoal = \"minimise\"\nsize = 3\n[state]\ncost = { type = \"int\", init = \"0\" }\n"
                       "[branch]\nplace = { cost = \"cost + v\" }\nbound = \"cost\"\nobjective = \"cost\"\n"
                       "stages = 2\nrefine = \"bound\"\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 3, 8, "unknown goal 'minimise'");
  // A count spec's keys are still judged as a count spec's.
  auto c = spec_errors("[problem]\nname = \"g\"\ngoal = \"cuont\"\nsize = 3\n[branch]\ncandidates = \"free\"\n");
  REQUIRE(c.error_count() == 1);
  check_at(c.all()[0], 3, 8, "unknown goal 'cuont'");
  // Still an error of its own, inside a spec that has one.
  auto both = spec_errors("[problem]\nname = \"g\"\ngoal = \"cuont\"\nsize = 3\n[branch]\ncandidates = \"fre\"\n");
  REQUIRE(both.error_count() == 2);
  check_at(both.all()[1], 6, 15, "unknown name 'fre'");
}

TEST_CASE("a reserved name cannot be a parameter", "[load_spec][errors]") {
  auto d = spec_errors("[problem]\nname = \"r\"\ngoal = \"count\"\nsize = 3\n[params]\nfree = 2\n[branch]\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 6, 1, "'free' is a reserved name");
}

TEST_CASE("a parameter outside the 32-bit range is refused at its place", "[load_spec][params]") {
  auto d = spec_errors("[problem]\nname = \"p\"\ngoal = \"count\"\nsize = 3\n[params]\nbig = 5000000000\n"
                       "[branch]\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 6, 1, "does not fit in a 32-bit int");
}
