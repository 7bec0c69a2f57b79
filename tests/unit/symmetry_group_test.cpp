// Under test: dsl/symmetry_group.cpp (the eight symmetries of a permutation's matrix,
// the groups their generators make, how each maps a border) and the reading of
// [symmetry] generators in dsl/load_symmetry.cpp, with every error at its place.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>

#include "dsl/symmetry_group.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

TEST_CASE("the generators make the subgroups of the square's symmetries", "[symmetry]") {
  CHECK(symmetry_closure(std::vector<int>{kReflectValues}) == std::vector<int>{0, kReflectValues});
  CHECK(symmetry_closure(std::vector<int>{kInvert}).size() == 2);
  CHECK(symmetry_closure(std::vector<int>{kReflectValues, kReversePositions}).size() == 4);
  CHECK(symmetry_closure(std::vector<int>{kReflectValues, kInvert}).size() == 8);
  CHECK(symmetry_closure(std::vector<int>{kReversePositions, kInvert}).size() == 8);
  CHECK(symmetry_closure(std::vector<int>{kReflectValues, kReversePositions, kInvert}).size() == 8);
}

TEST_CASE("each element maps a border as border_map says, on every permutation of 5", "[symmetry]") {
  std::vector<int> p(5);
  std::iota(p.begin(), p.end(), 0);
  do {
    std::set<std::vector<int>> images;
    for (int code = 0; code < 8; ++code) {
      const std::vector<int> q = apply_symmetry(code, p);
      images.insert(q);
      const BorderMap m = border_map(code);
      const auto b = permutation_border(p), c = permutation_border(q);
      for (int j = 0; j < 4; ++j) {
        const int from = b[static_cast<size_t>(m.source[static_cast<size_t>(j)])];
        CHECK(c[static_cast<size_t>(j)] == (m.reflected[static_cast<size_t>(j)] ? 4 - from : from));
      }
    }
    // An orbit expanded by border: as many permutations as borders, all different.
    const auto orbit = border_orbit(symmetry_closure(std::vector<int>{kReflectValues, kInvert}), p);
    CHECK(orbit.front() == p);
    CHECK(std::set<std::vector<int>>(orbit.begin(), orbit.end()).size() == orbit.size());
    CHECK(orbit.size() <= images.size());
  } while (std::next_permutation(p.begin(), p.end()));
}

namespace {
// A count of size n = 6; [symmetry] on line 9, its generators on line 10.
std::string group_spec(const std::string& symmetry_lines, const std::string& problem_extra = "") {
  return "[problem]\n"                                             // 1
         "name = \"t\"\n"                                          // 2
         "goal = \"count\"\n"                                      // 3
         "size = \"n\"\n" +                                        // 4
         problem_extra +                                           // (one line, or none)
         "[params]\n"                                              // 5
         "n = { type = \"int\", default = 6, range = [1, 10] }\n"  // 6
         "[branch]\n"                                              // 7
         "\n"                                                      // 8
         "[symmetry]\n" +                                          // 9
         symmetry_lines;                                           // 10...
}
}  // namespace

TEST_CASE("symmetry generators are read into their group", "[load_spec][symmetry]") {
  TempFile f("gens-ok.toml", group_spec("generators = [\"invert\", \"reflect-values\"]\n"));
  LoadOptions o;
  o.spec_path = f.path();
  ProblemSpec s = load_spec(o);
  REQUIRE(s.symmetry_group);
  CHECK(s.symmetry_group->elements.size() == 8);
  CHECK(s.symmetry_group->generators.size() == 2);
  o.symmetry_generator = 1;  // reflect-values alone
  CHECK(load_spec(o).symmetry_group->elements == std::vector<int>{0, kReflectValues});
  o.ignore_symmetry = true;
  CHECK(!load_spec(o).symmetry_group);
}

TEST_CASE("a symmetry generator that does not exist is refused at its name", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(group_spec("generators = [\"invert\", \"rotate\"]\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 10, 25, "unknown symmetry generator 'rotate'");
}

TEST_CASE("a symmetry generator named twice is refused at the second", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(group_spec("generators = [\"invert\", \"invert\"]\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 10, 25, "named twice");
}

TEST_CASE("symmetry generators and a value map are not both taken", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(group_spec("generators = [\"invert\"]\nvalue = \"n - 1 - v\"\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 11, 9, "either value");
}

TEST_CASE("symmetry generators are refused with an empty list and with a fixed prefix",
          "[load_spec][symmetry][errors]") {
  auto empty = spec_errors(group_spec("generators = []\n"));
  REQUIRE(empty.all().size() == 1);
  check_at(empty.all()[0], 10, 14, "non-empty array");
  auto prefix = spec_errors(group_spec("generators = [\"invert\"]\n", "fixed_prefix = [0]\n"));
  REQUIRE(prefix.all().size() == 1);
  check_at(prefix.all()[0], 5, 16, "need a spec without a fixed prefix");
}

namespace {
// Whether p's border is the least of its images under `group` (the border of each orbit
// that the search keeps).
bool least_border(std::span<const int> group, const std::vector<int>& p) {
  const auto b = permutation_border(p);
  for (int g : group)
    if (permutation_border(apply_symmetry(g, p)) < b) return false;
  return true;
}
}  // namespace

TEST_CASE("the exact border test agrees with the borders of a permutation's images", "[symmetry]") {
  // border_is_least and border_fixing_count (which the tables are computed from) work on
  // the border alone; here against the images of whole permutations of 6, every group.
  for (int gens = 1; gens < 8; ++gens) {
    std::vector<int> generators;
    for (int code : {kReflectValues, kReversePositions, kInvert})
      if (gens & code) generators.push_back(code);
    const std::vector<int> group = symmetry_closure(generators);
    std::vector<int> p(6);
    std::iota(p.begin(), p.end(), 0);
    do {
      const auto b = permutation_border(p);
      CHECK(border_possible(6, b));
      CHECK(border_is_least(group, 6, b) == least_border(group, p));
      int fixing = 0;
      for (int g : group) fixing += permutation_border(apply_symmetry(g, p)) == b;
      CHECK(border_fixing_count(group, 6, b) == fixing);
    } while (std::next_permutation(p.begin(), p.end()));
  }
  CHECK_FALSE(border_possible(6, {0, 1, 5, 2}));  // p[0] = 0 but 0 at position 1
  CHECK_FALSE(border_possible(6, {2, 3, 3, 1}));  // 0 and 5 at one position
}

// The tables themselves, through the code that reads them: tests/unit/symmetry_border_test.cpp.

TEST_CASE("a node's border code fits above the values in the free set's word up to n = 22 (32 bits)",
          "[symmetry]") {
  // The code (dsl/symmetry_group.hpp, BorderBlock): the slot while at most one of 0 and
  // n-1 is placed, 2n+1 + (z - lo) * width + (t - lo) once both are, width n at most. Its
  // largest value must fit its bits, and with the n values in a stack row's free word.
  for (int n = 1; n <= 63; ++n) {
    INFO("n = " << n);
    const BorderCode c = border_code(n);
    const BorderBlock widest{0, 0, n};
    const long long most = border_code_of(n, widest, n - 1, n - 1);
    CHECK(most < (1LL << c.bits));
    CHECK((most >> (c.bits - 1)) == 1);  // no bit to spare
    CHECK(border_code_in_free(n) == (n + c.bits <= (n <= 32 ? 32 : 64)));
  }
  CHECK(border_code(21).bits == 9);
  CHECK(border_code(22).bits == 10);
  CHECK(border_code_in_free(22));
  CHECK_FALSE(border_code_in_free(23));
  CHECK(border_code_in_free(33));  // 64-bit sets
  CHECK_FALSE(border_code_in_free(63));
}
