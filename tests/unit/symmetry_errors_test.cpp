// Under test: dsl/load_symmetry.cpp: a [symmetry] that cannot be a value symmetry is
// refused at its place; one that can is read into its map.
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A count of size n = 6; [symmetry] starts on line 10, its value on line 11.
std::string count_spec(const std::string& value, const std::string& problem_extra = "",
                       const std::string& branch = "") {
  return "[problem]\n"                                            // 1
         "name = \"t\"\n"                                         // 2
         "goal = \"count\"\n"                                     // 3
         "size = \"n\"\n" +                                       // 4
         problem_extra +                                          // (one line, or none)
         "[params]\n"                                             // 5
         "n = { type = \"int\", default = 6, range = [1, 10] }\n"  // 6
         "\n"                                                     // 7
         "[branch]\n" +                                           // 8
         branch +                                                 // (empty, or lines)
         "\n"                                                     // 9
         "[symmetry]\n"                                           // 10
         "value = \"" + value + "\"\n";                           // 11
}

}  // namespace

TEST_CASE("a mirror map is read into its table", "[load_spec][symmetry]") {
  TempFile f("sym-ok.toml", count_spec("n - 1 - v"));
  LoadOptions o;
  o.spec_path = f.path();
  ProblemSpec s = load_spec(o);
  REQUIRE(s.symmetry);
  CHECK(s.symmetry->map == std::vector<int>{5, 4, 3, 2, 1, 0});
  o.ignore_symmetry = true;  // read and checked, then left out
  CHECK(!load_spec(o).symmetry);
}

TEST_CASE("a symmetry that is not its own inverse is refused at its value", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(count_spec("(v + 1) % n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 11, 9, "a mirror must be its own inverse");
}

TEST_CASE("a symmetry that maps a value outside 0..size-1 is refused", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(count_spec("n - v"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 11, 9, "maps 0 to 6, outside the values 0..5");
}

TEST_CASE("a symmetry that reads the node is refused: it is a map of values alone", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(count_spec("d"));
  REQUIRE(!d.all().empty());
  CHECK(d.all()[0].loc.line == 11);
}

TEST_CASE("a symmetry that moves a fixed prefix value is refused at the prefix", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(count_spec("n - 1 - v", "fixed_prefix = [0]\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 5, 16, "the fixed prefix places 0, which [symmetry] maps to 5");
}

TEST_CASE("a symmetry on a two-ended spec is refused", "[load_spec][symmetry][errors]") {
  auto d = spec_errors(count_spec("n - 1 - v", "", "ends = 2\nplace_back = {}\n"));
  bool said = false;
  for (const Diagnostic& e : d.all()) said = said || e.message.find("this one has branch.ends = 2") != std::string::npos;
  CHECK(said);
}
