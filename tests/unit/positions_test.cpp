// Under test: dsl/load_positions.cpp and runtime/core/problem_order.cpp: [branch]
// positions names a [derived] table that is a permutation of the positions; a found
// permutation is put back in the problem's order; every wrong table is refused at the key.
#include <catch2/catch.hpp>

#include "runtime/core/problem_order.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A count of size n (4 by default) over params only; `derived` is the table's TOML line
// (line 8), branch.positions is on line 10 (its value at column 13).
std::string spec_with_positions(const std::string& derived, const std::string& positions = "\"order\"",
                                const std::string& more = "") {
  return "[problem]\n"                                            // 1
         "name = \"t\"\n"                                         // 2
         "goal = \"count\"\n"                                     // 3
         "size = \"n\"\n"                                         // 4
         "[params]\n"                                             // 5
         "n = { type = \"int\", default = 4, range = [1, 10] }\n"  // 6
         "[derived]\n"                                            // 7
         + derived + "\n"                                         // 8
         "[branch]\n"                                             // 9
         "positions = " + positions + "\n"                        // 10
         + more;
}

}  // namespace

TEST_CASE("branch.positions holds the derived order; a permutation goes back to the problem's order",
          "[load_spec][positions]") {
  const ProblemSpec s =
      load_text(spec_with_positions("order = { type = \"int[n]\", index = [\"i\"], value = \"(i + 1) % n\" }"));
  REQUIRE(s.positions);
  CHECK(s.positions->table == "order");
  CHECK(s.positions->loc.line == 10);
  CHECK(s.positions->order == std::vector<int>{1, 2, 3, 0});
  // Depth d filled position order[d] with searched[d].
  const std::vector<int> searched{7, 8, 9, 6};
  CHECK(in_problem_order(s, searched) == std::vector<int>{6, 7, 8, 9});
  // A listed solution is that one permutation.
  const SymmetryExpansion e = listed_expansion(s);
  REQUIRE(e);
  CHECK(e(searched) == std::vector<std::vector<int>>{{6, 7, 8, 9}});

  const ProblemSpec none = load_text("[problem]\nname = \"t\"\ngoal = \"count\"\nsize = \"4\"\n[branch]\n");
  CHECK(!none.positions);
  CHECK(in_problem_order(none, searched) == searched);
  CHECK(!listed_expansion(none));
}

TEST_CASE("branch.positions refuses what is not an order of the positions, at the key",
          "[load_spec][positions][errors]") {
  const std::string row = "order = { type = \"int[n]\", index = [\"i\"], value = ";
  SECTION("a repeated position, naming both elements") {
    auto d = spec_errors(spec_with_positions(row + "\"i / 2\" }"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "order[1] = 0 repeats order[0]");
  }
  SECTION("a value that is not a position") {
    auto d = spec_errors(spec_with_positions(row + "\"i + 1\" }"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "order[3] = 4 is not a position (0..3)");
  }
  SECTION("a table of another length than the size") {
    auto d = spec_errors(spec_with_positions("order = { type = \"int[5]\", index = [\"i\"], value = \"4 - i\" }"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "has 5 elements; the problem's size is 4");
  }
  SECTION("a table of two dimensions") {
    auto d = spec_errors(
        spec_with_positions("order = { type = \"int[n][n]\", index = [\"i\", \"j\"], value = \"i\" }"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "must have one dimension");
  }
  SECTION("a name that is not a derived table") {
    auto d = spec_errors(spec_with_positions(row + "\"i\" }", "\"n\""));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "names 'n', which is not a [derived] table");
  }
  SECTION("not a string") {
    auto d = spec_errors(spec_with_positions(row + "\"i\" }", "3"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "must name a [derived] table, in a string");
  }
  SECTION("together with a declared symmetry") {
    auto d = spec_errors(spec_with_positions(row + "\"n - 1 - i\" }", "\"order\"", "[symmetry]\nvalue = \"n - 1 - v\"\n"));
    REQUIRE(errors_of(d).size() == 1);
    check_at(errors_of(d)[0], 10, 13, "cannot be used together");
  }
}
