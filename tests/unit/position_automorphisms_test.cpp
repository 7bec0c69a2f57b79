// Under test: dsl/position_automorphisms.cpp (the first position's orbit under the
// automorphisms of tables) and its reading in dsl/load_symmetry.cpp
// ([symmetry] position_automorphisms): the orbit and the maps that list a solution's
// images, and each mistake refused at its place.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>

#include "dsl/position_automorphisms.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// Manhattan distances between the cells of a rows x cols grid, cell r * cols + c.
std::vector<int64_t> grid_distances(int rows, int cols) {
  const int n = rows * cols;
  std::vector<int64_t> m(static_cast<size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[static_cast<size_t>(i * n + j)] = std::abs(i / cols - j / cols) + std::abs(i % cols - j % cols);
  return m;
}

// Whether t is a permutation that leaves the square table m unchanged.
bool is_automorphism(const std::vector<int>& t, const std::vector<int64_t>& m, int n) {
  std::vector<int> seen(static_cast<size_t>(n), 0);
  for (int x : t)
    if (x < 0 || x >= n || seen[static_cast<size_t>(x)]++) return false;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (m[static_cast<size_t>(t[static_cast<size_t>(i)] * n + t[static_cast<size_t>(j)])] !=
          m[static_cast<size_t>(i * n + j)])
        return false;
  return true;
}

void check_orbit_maps(const FirstPositionOrbit& o, const std::vector<int64_t>& m, int n) {
  REQUIRE(o.to_first.size() == o.orbit.size());
  for (size_t k = 0; k < o.orbit.size(); ++k) {
    INFO("member " << o.orbit[k]);
    CHECK(o.to_first[k][static_cast<size_t>(o.orbit[k])] == 0);
    CHECK(is_automorphism(o.to_first[k], m, n));
  }
}

// A count of size 6 whose positions carry `table` ([derived], line 7); [symmetry] on
// line 9, its array on line 10.
std::string spec_with(const std::string& table_type, const std::string& table_value, const std::string& automorphisms,
                      const std::string& problem_extra = "", const std::string& symmetry_extra = "") {
  return "[problem]\n"                                                  // 1
         "name = \"t\"\n"                                               // 2
         "goal = \"count\"\n"                                           // 3
         "size = \"6\"\n" +                                             // 4
         problem_extra +                                                // (one line, or none)
         "[derived]\n"                                                  // 5
         "line = { type = \"int[6][6]\", index = [\"i\", \"j\"], value = \"abs(i - j)\" }\n"  // 6
         "other = { type = \"" + table_type + "\", index = [\"i\", \"j\"], value = \"" + table_value + "\" }\n"  // 7
         "[branch]\n"                                                   // 8
         "[symmetry]\n"                                                 // 9
         "position_automorphisms = " + automorphisms + "\n" +           // 10
         symmetry_extra;                                                // 11
}

}  // namespace

TEST_CASE("a grid's reflections move a corner onto every corner", "[symmetry][position_automorphisms]") {
  // 3 x 4: the reflections and the half turn (a 4-element group); no quarter turn.
  const std::vector<int64_t> m = grid_distances(3, 4);
  const AutomorphismTable t{m, 2};
  const FirstPositionOrbit o = first_position_orbit({&t, 1}, 12);
  CHECK(o.orbit == std::vector<int>{0, 3, 8, 11});
  CHECK(o.complete);
  CHECK(o.generators == 2);  // one found for 3, one for 8; 11 is their product
  check_orbit_maps(o, m, 12);
  // A square grid has the quarter turns too: still the four corners.
  const std::vector<int64_t> sq = grid_distances(3, 3);
  const AutomorphismTable ts{sq, 2};
  const FirstPositionOrbit q = first_position_orbit({&ts, 1}, 9);
  CHECK(q.orbit == std::vector<int>{0, 2, 6, 8});
  check_orbit_maps(q, sq, 9);
}

TEST_CASE("every table must be left unchanged: a second table shrinks the orbit", "[symmetry][position_automorphisms]") {
  const std::vector<int64_t> m = grid_distances(3, 4);
  // The row of each cell: only the reflection of the columns keeps it.
  std::vector<int64_t> row(12);
  for (int i = 0; i < 12; ++i) row[static_cast<size_t>(i)] = i / 4;
  const AutomorphismTable both[] = {{m, 2}, {row, 1}};
  const FirstPositionOrbit o = first_position_orbit(both, 12);
  CHECK(o.orbit == std::vector<int>{0, 3});
  check_orbit_maps(o, m, 12);
  for (const auto& t : o.to_first)
    for (int i = 0; i < 12; ++i) CHECK(row[static_cast<size_t>(t[static_cast<size_t>(i)])] == row[static_cast<size_t>(i)]);
}

TEST_CASE("a table without symmetry leaves the first position alone; a constant one moves it anywhere",
          "[symmetry][position_automorphisms]") {
  std::mt19937 rng(5);
  std::vector<int64_t> m(64);
  for (auto& x : m) x = rng() % 1000;
  const AutomorphismTable t{m, 2};
  const FirstPositionOrbit o = first_position_orbit({&t, 1}, 8);
  CHECK(o.orbit == std::vector<int>{0});
  CHECK(o.generators == 0);
  const std::vector<int64_t> zero(64, 0);
  const AutomorphismTable z{zero, 2};
  const FirstPositionOrbit all = first_position_orbit({&z, 1}, 8);
  CHECK(all.orbit == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  check_orbit_maps(all, zero, 8);
}

TEST_CASE("a search that runs out of steps keeps an orbit of what it found", "[symmetry][position_automorphisms]") {
  const std::vector<int64_t> m = grid_distances(3, 4);
  const AutomorphismTable t{m, 2};
  const FirstPositionOrbit none = first_position_orbit({&t, 1}, 12, 0);
  CHECK(!none.complete);
  CHECK(none.orbit == std::vector<int>{0});
  // Enough for the first automorphism (0 -> 3), not for the second: {0, 3} is the orbit
  // of the group the first generates, so still exact for it.
  for (long long budget = 1; budget < 2000; budget *= 2) {
    const FirstPositionOrbit o = first_position_orbit({&t, 1}, 12, budget);
    INFO("budget " << budget);
    CHECK((o.orbit == std::vector<int>{0} || o.orbit == std::vector<int>{0, 3} ||
           o.orbit == std::vector<int>{0, 3, 8, 11}));
    check_orbit_maps(o, m, 12);
  }
}

TEST_CASE("position_automorphisms reads the orbit from a derived table", "[load_spec][symmetry][position_automorphisms]") {
  TempFile f("posaut-ok.toml", spec_with("int[6][6]", "0", "[\"line\"]"));
  LoadOptions o;
  o.spec_path = f.path();
  ProblemSpec s = load_spec(o);
  REQUIRE(s.position_symmetry);
  CHECK(s.position_symmetry->orbit == std::vector<int>{0, 5});  // i -> 5 - i
  CHECK(s.narrows_positions());
  CHECK(s.used_builtins.count(Builtin::first) == 1);  // the later member compares with it
  o.ignore_symmetry = true;                            // read and checked, then left out
  CHECK(!load_spec(o).position_symmetry);
}

TEST_CASE("position_automorphisms: each mistake at its place", "[load_spec][symmetry][position_automorphisms][errors]") {
  SECTION("not a table") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[\"line\", \"nothing\"]"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 10, 35, "names 'nothing', which is not a [data] or [derived] table");
  }
  SECTION("named twice") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[\"line\", \"line\"]"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 10, 35, "names 'line' twice");
  }
  SECTION("a dimension that is not the size") {
    auto d = spec_errors(spec_with("int[6][5]", "0", "[\"other\"]"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 10, 27, "has a dimension of 5; each must be the problem's size, 6");
  }
  SECTION("not a string") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[\"line\", 3]"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 10, 35, "is named by a string");
  }
  SECTION("an empty array") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[]"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 10, 26, "non-empty array of table names");
  }
  SECTION("beside a value map") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[\"line\"]", "", "value = \"5 - v\"\n"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 11, 9, "takes one of value, generators and position_automorphisms");
  }
  SECTION("with a fixed prefix") {
    auto d = spec_errors(spec_with("int[6][6]", "0", "[\"line\"]", "fixed_prefix = [2]\n"));
    REQUIRE(d.all().size() == 1);
    check_at(d.all()[0], 5, 16, "needs a spec without a fixed prefix");
  }
}
