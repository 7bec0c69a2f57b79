// Under test: [derived] (dsl/derived.cpp, the checker's argsort and index locals):
// tables computed once on the host, in dependency order, and every error at its place.
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

TEST_CASE("derived items are computed in dependency order, whatever the key order", "[derived]") {
  // `a` reads `b` and `total`; TOML lists keys alphabetically, so `a` comes first.
  ProblemSpec s = load_text(spec_with_derived("a = { type = \"int[n]\", index = [\"i\"], value = \"b[i] * total\" }\n"
                                      "b = { type = \"int[n]\", index = [\"i\"], value = \"i + 1\" }\n"
                                      "total = \"sum(i in 0..n: b[i])\"\n"));
  CHECK(s.find_data("total")->values == std::vector<int64_t>{10});
  CHECK(s.find_data("a")->values == std::vector<int64_t>{10, 20, 30, 40});
}

TEST_CASE("a derived item's dimensions may read derived scalars", "[derived]") {
  ProblemSpec s = load_text(spec_with_derived("half = \"n / 2\"\n"
                                      "t = { type = \"int[half][n]\", index = [\"i\", \"j\"], value = \"10 * i + j\" }\n"));
  const DataItem* t = s.find_data("t");
  CHECK(t->dims == std::vector<int64_t>{2, 4});
  CHECK(t->values == std::vector<int64_t>{0, 1, 2, 3, 10, 11, 12, 13});
}

TEST_CASE("argsort: the position-th value by its keys, ties by value", "[derived]") {
  // keys of 0..4: 3 1 3 0 -> order 3, 1, 0, 2 (0 and 2 tie on the key: by value)
  ProblemSpec s = load_text(spec_with_derived(
      "key = { type = \"int[n]\", index = [\"j\"], value = \"j == 3 ? 0 : j == 1 ? 1 : 3\" }\n"
      "order = { type = \"int[n]\", index = [\"i\"], value = \"argsort(j in 0..n: key[j])[i]\" }\n"
      "two_keys = { type = \"int[n]\", index = [\"i\"], value = \"argsort(j in 0..n: key[j], -j)[i]\" }\n"));
  CHECK(s.find_data("order")->values == std::vector<int64_t>{3, 1, 0, 2});
  CHECK(s.find_data("two_keys")->values == std::vector<int64_t>{3, 1, 2, 0});
}

TEST_CASE("a derived table from parameters alone (a Manhattan distance)", "[derived]") {
  ProblemSpec s = load_text(spec_with_derived(
      "md = { type = \"int[4][4]\", index = [\"a\", \"b\"], value = \"abs(a / 2 - b / 2) + abs(a % 2 - b % 2)\" }\n"));
  CHECK(s.find_data("md")->values ==
        std::vector<int64_t>{0, 1, 1, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2, 1, 1, 0});
}

TEST_CASE("derived errors name their place", "[derived][errors]") {
  SECTION("a cycle") {
    auto d = spec_errors(spec_with_derived("a = \"b + 1\"\nb = \"a + 1\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 1, "derived 'a' depends on itself: a -> b -> a");
  }
  SECTION("index names and dimensions disagree") {
    auto d = spec_errors(spec_with_derived("t = { type = \"int[n][n]\", index = [\"i\"], value = \"i\" }\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 35, "has 2 dimension(s) and 1 index name(s)");
  }
  SECTION("argsort outside [derived]") {
    auto d = spec_errors("[problem]\nname = \"t\"\ngoal = \"count\"\nsize = 4\n[branch]\n"
                         "filter = \"argsort(j in 0..4: j)[v] == 0\"\n");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 6, 11, "argsort() is computed once on the host");
  }
  SECTION("argsort without a position") {
    auto d = spec_errors(spec_with_derived("t = \"argsort(j in 0..n: j)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 27, "argsort(...) is a sequence");
  }
  SECTION("a position outside the range") {
    auto d = spec_errors(spec_with_derived("t = { type = \"int[n]\", index = [\"i\"], value = \"argsort(j in 0..2: j)[i]\" }\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 70, "position 2 is outside argsort's range of 2 value(s)");
  }
  SECTION("a value that does not fit 32 bits") {
    auto d = spec_errors(spec_with_derived("big = \"65536 * 65536\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 14, "derived 'big' = 4294967296 does not fit in a 32-bit int");
  }
  SECTION("a value that reads the node") {
    auto d = spec_errors(spec_with_derived("t = \"d + 1\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 6, "'d' (depth: the number of values placed) is not defined in a [derived] value");
  }
}

TEST_CASE("a long chain of derived items is computed without deep recursion", "[derived]") {
  // Each item reads the one before: the order used to be found by a recursive walk.
  const int n = 50000;
  std::string spec = "[problem]\nname = \"c\"\ngoal = \"count\"\nsize = 3\n[derived]\nd0 = \"1\"\n";
  for (int k = 1; k < n; ++k) spec += "d" + std::to_string(k) + " = \"d" + std::to_string(k - 1) + " + 1\"\n";
  spec += "[branch]\n";
  ProblemSpec s = permjit::unit::load_text(spec);
  CHECK(s.symbols.at("d" + std::to_string(n - 1)).value == std::optional<int64_t>(n));
}
