// Under test: dsl/instance_values.cpp (an instance given as named values) and
// LoadOptions::spec_text (a spec given as text).
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

const char* kSpec =
    "[problem]\nname = \"l\"\ngoal = \"minimize\"\nsize = \"n\"\n"  // 1-4
    "[data]\nn = \"int\"\nm = \"int\"\na = \"int[m][n]\"\n"           // 5-8
    "[instance]\nformat = \"layout\"\nread = [\"n\", \"m\", \"a\"]\n"  // 9-11
    "[state]\ncost = { type = \"int\", init = \"0\" }\n"
    "[branch]\nplace = { cost = \"cost + a[0][v]\" }\nbound = \"cost\"\nobjective = \"cost\"\n";

LoadOptions with_values(std::vector<InstanceValue> values) {
  LoadOptions o;
  o.spec_path = "<string>";
  o.spec_text = kSpec;
  o.data = "compiled";  // the values stay published to their symbols
  o.instance_values = std::move(values);
  return o;
}

}  // namespace

TEST_CASE("instance values fill the data items as a file would", "[instance][values]") {
  ProblemSpec s = load_ok(with_values({{"a", {2, 3}, {1, 2, 3, 4, 5, 6}}, {"n", {}, {3}}, {"m", {}, {2}}}));
  CHECK(s.file->path == "<string>");
  CHECK(s.size == 3);
  const DataItem* a = s.find_data("a");
  REQUIRE(a);
  CHECK(a->dims == std::vector<int64_t>{2, 3});
  CHECK(a->values == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(s.instance_path.empty());
}

TEST_CASE("instance values: a wrong shape is reported at the value", "[instance][values]") {
  Diagnostics d = load_errors(with_values({{"n", {}, {3}}, {"m", {}, {2}}, {"a", {3, 2}, {1, 2, 3, 4, 5, 6}}}));
  REQUIRE(errors_of(d).size() == 1);
  const Diagnostic e = errors_of(d)[0];  // a copy: errors_of returns a new vector
  CHECK(e.loc.file->path == "<instance values>");
  check_at(e, 1, 13, "'a' is int[3][2]; the spec declares it int[2][3]");
}

TEST_CASE("instance values: unknown, missing, twice and too large", "[instance][values]") {
  Diagnostics d = load_errors(with_values({{"n", {}, {3}}, {"b", {}, {1}}, {"n", {}, {4}}}));
  REQUIRE(find_error(d, "'b' is not a data item"));
  check_at(*find_error(d, "'b' is not a data item"), 1, 7, "'b'");
  REQUIRE(find_error(d, "'n' is given twice"));
  REQUIRE(find_error(d, "data item 'm' has no value"));
  check_at(*find_error(d, "data item 'm' has no value"), 7, 1, "'m'");
  Diagnostics big = load_errors(with_values({{"n", {}, {1}}, {"m", {}, {1}}, {"a", {1, 1}, {int64_t{1} << 40}}}));
  REQUIRE(find_error(big, "does not fit in a 32-bit int"));
}

TEST_CASE("instance values and an instance file are not both taken", "[instance][values]") {
  LoadOptions o = with_values({{"n", {}, {1}}, {"m", {}, {1}}, {"a", {1, 1}, {0}}});
  o.instance_path = "x.txt";
  REQUIRE(find_error(load_errors(o), "the instance is given twice"));
}
