// Under test: dsl/parser.cpp's nesting limit (kMaxNesting). Deep or long inputs are
// refused with the place where they pass the limit, never a crash; inputs at the limit
// go through the checker, the printer and the generator. Also tomlplusplus's own limit
// on nested TOML arrays and inline tables.
#include <catch2/catch.hpp>

#include "dsl/parser.hpp"
#include "dsl/toml_depth.hpp"
#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A count spec whose filter is `expr` (line 9, the string's text starts at column 11).
std::string count_spec(const std::string& filter) {
  return "[problem]\n"          // 1
         "name = \"t\"\n"       // 2
         "goal = \"count\"\n"   // 3
         "size = 4\n"           // 4
         "\n"                   // 5
         "[state]\n"            // 6
         "x = \"int\"\n"        // 7
         "[branch]\n"           // 8
         "filter = '" + filter + "'\n";  // 9
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

constexpr int kCol = 11;  // the column of the filter's first character

}  // namespace

TEST_CASE("deep parentheses are refused at the one past the limit", "[nesting][errors]") {
  const int n = 100000;
  auto d = spec_errors(count_spec(repeat("(", n) + "v == 1" + repeat(")", n)));
  REQUIRE(d.error_count() == 1);
  // The filter itself is level 1; the k-th '(' opens level k + 1.
  check_at(d.all()[0], 9, kCol + kMaxNesting, "nests more than 256 levels deep");
}

TEST_CASE("a long run of '!' is refused at the operator past the limit", "[nesting][errors]") {
  auto d = spec_errors(count_spec(repeat("!", 100000) + "true"));
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 9, kCol + kMaxNesting - 1, "nests more than 256 levels deep");
}

TEST_CASE("a long && chain is refused at the operator that passes the limit", "[nesting][errors]") {
  // `v == 1 && v == 1 && ...`: the k-th && builds a node of height k + 1.
  std::string chain = "v == 1";
  for (int i = 0; i < 100000; ++i) chain += " && v == 1";
  auto d = spec_errors(count_spec(chain));
  REQUIRE(d.error_count() == 1);
  const int op = kMaxNesting - 1;  // the first && whose node is deeper than the limit
  check_at(d.all()[0], 9, kCol + 6 + (op - 1) * 10 + 1, "nests more than 256 levels deep");
}

TEST_CASE("a long + chain of ints is refused too", "[nesting][errors]") {
  auto d = spec_errors(count_spec("v" + repeat(" + 1", 5000) + " > 0"));
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].loc.line == 9);
  CHECK_THAT(d.all()[0].message, Catch::Contains("nests more than"));
}

TEST_CASE("deeply nested statements are refused at the statement past the limit", "[nesting][errors]") {
  std::string block = repeat("if v > 0 {\n", 100000) + "x = 1\n" + repeat("}\n", 100000);
  auto d = spec_errors(count_spec("true") + "place = '''\n" + block + "'''\n");
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].loc.line == 11 + kMaxNesting - 1);  // '''\n then one `if` a line
  CHECK_THAT(d.all()[0].message, Catch::Contains("nests more than"));
}

TEST_CASE("an expression just under the limit is checked, printed and generated", "[nesting]") {
  const int k = kMaxNesting - 8;
  std::string deep = repeat("(", k) + "v == 1" + repeat(")", k);
  std::string chain = "v == 1";
  for (int i = 0; i < k; ++i) chain += " && v == 1";
  for (const auto& e : {deep, chain, repeat("!", k) + "true"}) {
    ProblemSpec s = load_text(count_spec(e));
    ProblemSource src = generate_problem(s);
    CHECK_FALSE(src.text.empty());
  }
}

TEST_CASE("deeply nested TOML arrays and inline tables are refused by the TOML reader", "[nesting][errors]") {
  const int n = 100000;
  auto arrays = spec_errors(count_spec("true") + "x = " + repeat("[", n) + repeat("]", n) + "\n");
  REQUIRE(arrays.error_count() == 1);
  CHECK(arrays.all()[0].loc.line == 10);
  CHECK_THAT(arrays.all()[0].message, Catch::Contains("TOML syntax"));
  auto tables = spec_errors(count_spec("true") + "x = " + repeat("{a = ", n) + "1" + repeat("}", n) + "\n");
  REQUIRE(tables.error_count() == 1);
  CHECK(tables.all()[0].loc.line == 10);
}

TEST_CASE("a long dotted key or table header is refused before the TOML reader", "[nesting][errors]") {
  // tomlplusplus nests a table per dot without a limit; 100000 of them exhausted the stack.
  std::string key = "a";
  for (int i = 0; i < 100000; ++i) key += ".a";
  auto d = spec_errors(count_spec("true") + key + " = 1\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 10, 2 * (kMaxKeyDots + 1), "a key path with more than 256 dots");
  auto h = spec_errors(count_spec("true") + "[" + key + "]\n");
  REQUIRE(h.error_count() == 1);
  check_at(h.all()[0], 10, 1 + 2 * (kMaxKeyDots + 1), "a key path with more than 256 dots");
}

TEST_CASE("dots inside strings and comments are not key dots", "[nesting]") {
  std::string ranges;  // `sum(i in 0..1: 0) +`, two dots each, in a multi-line string
  for (int i = 0; i < 200; ++i) ranges += "sum(i in 0..1: 0) +\n";
  ProblemSpec s = load_text(count_spec("v >= 0") + "# " + std::string(600, '.') + "\nplace = '''\nx = (" + ranges +
                            "0)\n'''\n[params]\np = 1  # \"" + std::string(400, '.') + "\n");
  CHECK(s.size == 4);
  std::string escaped = "\\\"" + std::string(300, '.');  // an escaped quote does not end the string
  load_text(count_spec("v >= 0") + "[params]\nq = { type = \"int\", default = 1 }\n# \"" + escaped + "\n");
}
