// Under test: value blocks (bound, objective, candidates, filter written as statements
// ending in `return`), `var` locals and `if`/`else`: parsing, checking, places of errors,
// and the generator's lowering of `if` to selects.
#include <catch2/catch.hpp>

#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// Lines 1..9; the bound starts on line 10 (inside a ''' string opened on line 9).
std::string spec_with_bound(const std::string& bound) {
  return "[problem]\n"                            // 1
         "name = \"t\"\n"                         // 2
         "goal = \"minimize\"\n"                  // 3
         "size = 5\n"                             // 4
         "[state]\n"                              // 5
         "cost = \"int\"\n"                       // 6
         "[branch]\n"                             // 7
         "place = { cost = \"cost + v\" }\n"      // 8
         "bound = '''\n" +                        // 9
         bound + "'''\nobjective = \"cost\"\n";
}

}  // namespace

TEST_CASE("a bound written as statements: var, for, if/else, return", "[value_block]") {
  ProblemSpec s = load_text(spec_with_bound("var best = 0\n"
                                            "var seen[5] = 0\n"
                                            "for j in 0..5 {\n"
                                            "  if test(free, j) { best = max(best, j) } else { seen[j] = 1 }\n"
                                            "}\n"
                                            "return cost + best + seen[0]\n"));
  REQUIRE(s.branch.bound_prelude.size() == 3);
  CHECK(s.branch.bound->type == Type::int_);
  const std::string all = generate_problem(s).text;
  const size_t from = all.find("int bound(const Node& s) {");
  REQUIRE(from != std::string::npos);
  const std::string text = all.substr(from, all.find("\n}\n", from) - from);
  // The if is two guarded parts, each assignment a select (a blend: prelude.h); no C++
  // `if` is generated in bound() (staged_bound's branch on the cheap bound, after it, is
  // the one on purpose: docs/generated-code.md).
  CHECK(text.find("const bool cond_t") != std::string::npos);
  CHECK(text.find("pj::blend<int>(cond_t") != std::string::npos);
  CHECK(text.find(" if (") == std::string::npos);
}

TEST_CASE("an if whose condition is known before the search keeps one part", "[value_block]") {
  ProblemSpec s = load_text(spec_with_bound("var x = 1\nif 2 > 3 { x = 7 } else { x = 9 }\nreturn cost + x\n"));
  std::string text = generate_problem(s).text;
  CHECK(text.find("= 9;") != std::string::npos);
  CHECK(text.find("= 7;") == std::string::npos);
}

TEST_CASE("a one-line bound stays an expression", "[value_block]") {
  ProblemSpec s = load_text(spec_with_bound("cost +\n  1\n"));
  CHECK(s.branch.bound_prelude.empty());
}

TEST_CASE("value block errors name their place", "[value_block][errors]") {
  SECTION("statements without return") {
    auto d = spec_errors(spec_with_bound("var x = 1\nx = 2\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 1, "ends with 'return <expression>'");
  }
  SECTION("return before the end") {
    auto d = spec_errors(spec_with_bound("return cost\nvar x = 1\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 11, 1, "'return' must be the last statement");
  }
  SECTION("return inside a loop") {
    auto d = spec_errors(spec_with_bound("for i in 0..2 { return i }\nreturn cost\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 10, 17, "cannot be nested");
  }
  SECTION("state is read-only in a bound") {
    auto d = spec_errors(spec_with_bound("cost = 1\nreturn cost\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 10, 1, "state variable 'cost' is read-only in bound");
  }
  SECTION("a let name is not assignable") {
    auto d = spec_errors(spec_with_bound("let y = 1\ny = 2\nreturn y\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 11, 1, "'y' is a let or loop name");
    CHECK(d.all()[0].hint == "declare it with 'var y = ...' to change it");
  }
  SECTION("the condition of if is a bool") {
    auto d = spec_errors(spec_with_bound("var x = 0\nif cost { x = 1 }\nreturn x\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 11, 4, "the condition of 'if' must be bool, found int");
  }
  SECTION("a var is visible in its block only") {
    auto d = spec_errors(spec_with_bound("for i in 0..2 { var t = i }\nreturn t\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 11, 8, "unknown name 't' in bound");
  }
}
