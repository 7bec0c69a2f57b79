// Under test: assign() and minprod() in the language (dsl/parser.cpp, dsl/checker.cpp,
// dsl/static_eval.cpp with dsl/pair_solvers.cpp, generator/value_range.cpp,
// generator/int_width.cpp): their values in [derived], their misuse reported at its
// place, and the width of the ints the generated solver computes with.
#include <catch2/catch.hpp>

#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

int64_t derived_value(const std::string& expr) {
  ProblemSpec s = load_text(spec_with_derived("t = \"" + expr + "\"\n"));
  return s.find_data("t")->values.at(0);
}

// A minimize spec over 0..5 whose bound is `bound` (line 11), with data `w` whose
// values are `scale` and 0.
std::string bounded(const std::string& bound) {
  return "[problem]\n"                      // 1
         "name = \"b\"\n"                   // 2
         "goal = \"minimize\"\n"            // 3
         "size = 6\n"                       // 4
         "[params]\n"                       // 5
         "scale = 1\n"                      // 6
         "[derived]\n"                      // 7
         "w = { type = \"int[6][6]\", index = [\"i\", \"j\"], value = \"(i + j) % 2 * scale\" }\n"  // 8
         "[branch]\n"                       // 9
         "objective = \"0\"\n"              // 10
         "bound = \"" + bound + "\"\n";     // 11
}

std::string source_with(const std::string& bound, const std::string& scale) {
  TempFile f("spec.toml", bounded(bound));
  LoadOptions o;
  o.spec_path = f.path();
  o.params = {"scale=" + scale};
  return generate_problem(load_ok(o)).text;
}

}  // namespace

TEST_CASE("assign and minprod in [derived]: the static evaluator's values", "[assign]") {
  // A cheapest matching avoids the diagonal of 5s: three 1s.
  CHECK(derived_value("assign(i in 0..3, j in 0..3: i == j ? 5 : 1)") == 3);
  // Two rows into four columns: each matching of rows 0, 1 into distinct columns costs 10 + the columns.
  CHECK(derived_value("assign(i in 0..2, j in 0..4: i * 10 + j)") == 11);
  CHECK(derived_value("assign(i in 0..4, j in 0..2: j * 10 + i)") == 11);
  // Over sets: the smaller side {1, 3} matched fully into {0, 1, 2, 3}; an empty side.
  CHECK(derived_value("assign(i in bit(1) | bit(3), j in bit(0) | bit(1) | bit(2) | bit(3): i == j ? 0 : 7)") == 0);
  CHECK(derived_value("assign(i in bit(1) | bit(3), j in bit(0) | bit(2): i == j ? 0 : 7)") == 14);
  CHECK(derived_value("assign(i in bit(1) & bit(2), j in bit(0): 7)") == 0);
  // arborescence: 0 -> 1 costs 1, 1 -> 2 costs 1, 0 -> 2 costs 5: the chain 0 -> 1 -> 2
  // (2), where the assignment of {0, 1} to {1, 2} may take 0 -> 1 and 1 -> 2 too.
  CHECK(derived_value("arborescence(i in 0..2, j in 1..3: i + 1 == j ? 1 : 5)") == 2);
  // {1, 2} enter each other at 0, the root 0 enters either at 9: one arc from the root
  // and one of the pair's (the cycle broken), 9 + 0.
  CHECK(derived_value("arborescence(i in 0..3, j in 1..3: i == 0 ? 9 : 0)") == 9);
  // No root (every element of S is in T) and T empty: 0.
  CHECK(derived_value("arborescence(i in 1..3, j in 1..3: 1)") == 0);
  CHECK(derived_value("arborescence(i in 0..3, j in 0..0: 1)") == 0);
  // 1 * 3 + 2 * 2 + 3 * 1.
  CHECK(derived_value("minprod(x in 0..3: x + 1, y in 0..3: y + 1)") == 10);
  // The two smallest of {5, 6, 7, 8} against {1, 2}: 1 * 6 + 2 * 5.
  CHECK(derived_value("minprod(x in 0..2: x + 1, y in 0..4: y + 5)") == 16);
}

TEST_CASE("misused assign and minprod are errors at their place", "[assign][errors]") {
  SECTION("outside bound, refine, objective and [derived]") {
    auto d = spec_errors("[problem]\nname = \"t\"\ngoal = \"count\"\nsize = 4\n[branch]\n"
                         "filter = \"assign(i in all, j in all: 1) == 0\"\n");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 6, 11, "assign() is not available in branch.filter");
  }
  SECTION("one set only") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 0..3: i)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 22, "expected ',' between the two sets of assign(i in S, j in T: cost)");
  }
  SECTION("a cost that is not an int") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 0..3, j in 0..3: i == j)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 37, "the cost of assign() must be int, found bool");
  }
  SECTION("a side that is neither a set nor a range") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 3, j in all: 1)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 18, "the set of 'i' in assign() must be bits, found int");
  }
  SECTION("minprod's first value cannot see the second name") {
    auto d = spec_errors(spec_with_derived("t = \"minprod(x in 0..3: y, y in 0..3: y)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 25, "unknown name 'y'");
  }
  SECTION("a range too long for a cost matrix") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 0..5000, j in 0..2: 0)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 18, "holds 5000 values; at most 4096");
  }
  SECTION("the names are reserved") {
    auto d = spec_errors(spec_with_derived("assign = \"1\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 1, "assign");
    auto e = spec_errors(spec_with_derived("arborescence = \"1\"\n"));
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 8, 1, "'arborescence' is a reserved name");
  }
  SECTION("arborescence's cost that is not an int, and its shape") {
    auto d = spec_errors(spec_with_derived("t = \"arborescence(i in 0..3, j in 0..3: i == j)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 43, "the cost of arborescence() must be int, found bool");
    auto e = spec_errors(spec_with_derived("t = \"arborescence(i in 0..3: i)\"\n"));
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 8, 28, "expected ',' between the two sets of arborescence(i in S, j in T: cost)");
  }
}

TEST_CASE("the solver computes in 32 bits while four times the cost spread fits", "[assign][int_width]") {
  const std::string bound = "assign(i in free, j in 0..2: w[i][j])";
  std::string small = source_with(bound, "1000");
  CHECK(small.find("using Int") == std::string::npos);
  CHECK(small.find("pj::assign_min<int, 6, 2>") != std::string::npos);
  // Costs 0 and 6e8, two of them at most: the value fits (1.2e9) and so do the
  // potentials and reduced costs (within 2 * 6e8), but the solver's "infinite" start
  // needs 4 * 6e8, past 2^31.
  std::string wide = source_with(bound, "600000000");
  CHECK(wide.find("using Int = long long;") != std::string::npos);
  CHECK(wide.find("pj::assign_min<Int, 6, 2>") != std::string::npos);
}

TEST_CASE("arborescence's value counts an arc into each element of the second side", "[assign][int_width]") {
  // Six arcs into free, each at most 6e8: 3.6e9 passes 32 bits, where assign's
  // min(|free|, 2) = 2 terms would not.
  const std::string bound = "arborescence(i in 0..2, j in free: w[i][j])";
  std::string wide = source_with(bound, "600000000");
  CHECK(wide.find("using Int = long long;") != std::string::npos);
  CHECK(wide.find("pj::arborescence_min<Int, 2, 6>") != std::string::npos);
  std::string small = source_with(bound, "1000");
  CHECK(small.find("pj::arborescence_min<int, 2, 6>") != std::string::npos);
}
