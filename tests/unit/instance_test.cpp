// Under test: dsl/instance.cpp (layout reader) and dsl/instance_tsplib.cpp (TSPLIB reader).
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

std::string layout_spec(const std::string& read = "[\"n\", \"a\"]") {
  return "[problem]\nname = \"l\"\ngoal = \"minimize\"\nsize = \"n\"\n"  // 1-4
         "[data]\nn = \"int\"\na = \"int[n][n]\"\n"                      // 5-7
         "[instance]\nformat = \"layout\"\nread = " + read + "\n"       // 8-10
         "[state]\ncost = { type = \"int\", init = \"0\" }\n"
         "[branch]\nplace = { cost = \"cost + a[d][v]\" }\nbound = \"cost\"\nobjective = \"cost\"\n";
}

std::string tsplib_spec(const std::string& dist_type = "int[n][n]") {
  return "[problem]\nname = \"t\"\ngoal = \"minimize\"\nsize = \"n\"\nfixed_prefix = [0]\n"  // 1-5
         "[data]\nn = \"int\"\ndist = \"" + dist_type + "\"\n"                            // 6-8
         "[instance]\nformat = \"tsplib\"\ndimension = \"n\"\nweights = \"dist\"\n"        // 9-12
         "[state]\ncost = { type = \"int\", init = \"0\" }\n"
         "[branch]\nplace = { cost = \"d == 0 ? 0 : cost + dist[last][v]\" }\n"
         "bound = \"cost\"\nobjective = \"cost + dist[last][first]\"\n";
}

std::string tsplib(const std::string& type, int n, const std::string& format, const std::string& weights) {
  return "NAME: x\nTYPE: " + type + "\nCOMMENT: a test : with colons\nDIMENSION: " + std::to_string(n) +
         "\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: " + format + "\nEDGE_WEIGHT_SECTION\n" + weights;
}

// Loads spec + instance, which must succeed.
ProblemSpec load_with(const std::string& spec_text, const std::string& instance_text) {
  TempFile spec("spec.toml", spec_text);
  TempFile inst("inst.txt", instance_text);
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  // The values stay published to their symbols, as --data compiled leaves them (the
  // default, run-time, hides them from the generator: dsl/run_time_data.hpp).
  o.data = "compiled";
  return load_ok(o);
}

}  // namespace

TEST_CASE("layout: items are read in order and published to their symbols", "[instance][layout]") {
  ProblemSpec s = load_with(layout_spec(), "2\n1 2\n3 -4\n");
  CHECK(s.size == 2);
  const DataItem* a = s.find_data("a");
  REQUIRE(a);
  CHECK(a->loaded);
  CHECK(a->dims == std::vector<int64_t>{2, 2});
  CHECK(a->values == std::vector<int64_t>{1, 2, 3, -4});
  CHECK(s.symbols.at("n").value == 2);
  CHECK(s.symbols.at("a").values == &a->values);
  CHECK(s.symbols.at("a").dims == std::vector<int64_t>{2, 2});
}

TEST_CASE("layout: too few numbers is reported at the end of the file", "[instance][layout][errors]") {
  auto d = spec_errors(layout_spec(), {}, "2\n1 2 3\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 2, 6, "the file ends too early: 'a' (int[2][2]) needs 4 number(s), 3 left");
  CHECK_THAT(d.all()[0].loc.file->path, Catch::EndsWith("inst.txt") || Catch::EndsWith("instance.txt"));
}

TEST_CASE("layout: a token that is not a number", "[instance][layout][errors]") {
  auto d = spec_errors(layout_spec(), {}, "2\n1 x 3 4\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 2, 3, "expected an integer for 'a', found 'x'");
}

TEST_CASE("layout: a number too large for 32 bits", "[instance][layout][errors]") {
  auto d = spec_errors(layout_spec(), {}, "2\n1 2\n3   4294967296\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 3, 5, "does not fit in a 32-bit int");
}

TEST_CASE("layout: extra numbers are reported at the first extra one", "[instance][layout][errors]") {
  auto d = spec_errors(layout_spec(), {}, "2\n1 2\n3 4  5 6\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 3, 6, "2 number(s) left over after the last item 'a'");
}

TEST_CASE("layout: an item read before the items its dimensions use", "[instance][layout][errors]") {
  auto d = spec_errors(layout_spec("[\"a\", \"n\"]"), {}, "1 2 3 4 2\n");
  REQUIRE(d.error_count() >= 1);
  // a = "int[n][n]": the quote is column 5, the first `n` at offset 4.
  check_at(d.all()[0], 7, 10, "dimension of 'a' is not known when it is read");
}

TEST_CASE("layout: a data item that [instance] does not read", "[instance][errors]") {
  auto d = spec_errors(layout_spec("[\"n\"]"), {}, "2\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 7, 1, "data item 'a' is not read by [instance]");
}

TEST_CASE("tsplib: FULL_MATRIX", "[instance][tsplib]") {
  ProblemSpec s = load_with(tsplib_spec(), tsplib("ATSP", 3, "FULL_MATRIX", "0 1 2\n3 0 4\n5 6 0\nEOF\n"));
  CHECK(s.size == 3);
  CHECK(s.symbols.at("n").value == 3);
  const DataItem* dist = s.find_data("dist");
  REQUIRE(dist);
  CHECK(dist->dims == std::vector<int64_t>{3, 3});
  CHECK(dist->values == std::vector<int64_t>{0, 1, 2, 3, 0, 4, 5, 6, 0});
  CHECK(s.symbols.at("dist").values == &dist->values);
}

TEST_CASE("tsplib: UPPER_ROW fills both triangles", "[instance][tsplib]") {
  ProblemSpec s = load_with(tsplib_spec(), tsplib("TSP", 4, "UPPER_ROW", "1 2 3\n4 5\n6\n"));
  const DataItem* dist = s.find_data("dist");
  REQUIRE(dist);
  CHECK(dist->values == std::vector<int64_t>{0, 1, 2, 3,  //
                                             1, 0, 4, 5,  //
                                             2, 4, 0, 6,  //
                                             3, 5, 6, 0});
}

TEST_CASE("tsplib: LOWER_DIAG_ROW and UPPER_COL", "[instance][tsplib]") {
  ProblemSpec lower = load_with(tsplib_spec(), tsplib("TSP", 3, "LOWER_DIAG_ROW", "0\n1 0\n2 3 0\n"));
  CHECK(lower.find_data("dist")->values == std::vector<int64_t>{0, 1, 2, 1, 0, 3, 2, 3, 0});
  // UPPER_COL lists column by column: (0,1), (0,2), (1,2).
  ProblemSpec upper = load_with(tsplib_spec(), tsplib("TSP", 3, "UPPER_COL", "7 8 9\n"));
  CHECK(upper.find_data("dist")->values == std::vector<int64_t>{0, 7, 8, 7, 0, 9, 8, 9, 0});
}

TEST_CASE("tsplib: too few weights", "[instance][tsplib][errors]") {
  SECTION("followed by EOF: placed at the keyword") {
    auto d = spec_errors(tsplib_spec(), {}, tsplib("ATSP", 3, "FULL_MATRIX", "0 1 2\n3 0 4\n5 6\nEOF\n"));
    REQUIRE(d.error_count() >= 1);
    check_at(d.all()[0], 11, 1, "EDGE_WEIGHT_SECTION (FULL_MATRIX, DIMENSION 3) needs 9 numbers, found 8");
  }
  SECTION("at the end of the file") {
    auto d = spec_errors(tsplib_spec(), {}, tsplib("ATSP", 3, "FULL_MATRIX", "0 1 2\n3 0 4\n5 6"));
    REQUIRE(d.error_count() >= 1);
    check_at(d.all()[0], 10, 4, "needs 9 numbers, found 8");
  }
}

TEST_CASE("tsplib: too many weights, at the first extra one", "[instance][tsplib][errors]") {
  auto d = spec_errors(tsplib_spec(), {}, tsplib("TSP", 3, "UPPER_ROW", "1 2\n3 4\nEOF\n"));
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 9, 3, "1 number(s) more than EDGE_WEIGHT_SECTION (UPPER_ROW, DIMENSION 3) holds");
}

TEST_CASE("tsplib: a weight that is not an integer", "[instance][tsplib][errors]") {
  auto d = spec_errors(tsplib_spec(), {}, tsplib("ATSP", 2, "FULL_MATRIX", "0 1\n2.5 0\n"));
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 9, 1, "expected an integer for an edge weight, found '2.5'");
}

TEST_CASE("tsplib: header errors", "[instance][tsplib][errors]") {
  SECTION("unsupported TYPE") {
    auto d = spec_errors(tsplib_spec(), {}, tsplib("CVRP", 2, "FULL_MATRIX", "0 1\n1 0\n"));
    check_at(d.all()[0], 2, 1, "TSPLIB TYPE 'CVRP' is not supported");
  }
  SECTION("unknown EDGE_WEIGHT_FORMAT") {
    auto d = spec_errors(tsplib_spec(), {}, tsplib("TSP", 2, "DIAGONAL", "0 1\n1 0\n"));
    check_at(d.all()[0], 6, 1, "unknown EDGE_WEIGHT_FORMAT 'DIAGONAL'");
  }
  SECTION("a line without a colon") {
    auto d = spec_errors(tsplib_spec(), {}, "NAME: x\n  TYPE ATSP\n");
    check_at(d.all()[0], 2, 3, "expected 'KEY : VALUE' in the TSPLIB header");
  }
  SECTION("no EDGE_WEIGHT_SECTION") {
    auto d = spec_errors(tsplib_spec(), {}, "TYPE: ATSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\n");
    check_at(d.all()[0], 3, 27, "the file has no EDGE_WEIGHT_SECTION");
  }
}

TEST_CASE("tsplib: declared dimensions must agree with DIMENSION", "[instance][tsplib][errors]") {
  auto d = spec_errors(tsplib_spec("int[4][4]"), {}, tsplib("ATSP", 2, "FULL_MATRIX", "0 1\n1 0\n"));
  REQUIRE(d.error_count() >= 2);
  // dist = "int[4][4]": the quote is column 8; the dimensions are at offsets 4 and 7.
  check_at(d.all()[0], 8, 13, "'dist' is declared with dimension 4 but the instance has DIMENSION 2");
  check_at(d.all()[1], 8, 16, "declared with dimension 4");
}

// BUG (dsl/instance.cpp:81): with `read = []` (no data items) and an instance file that
// holds any number, read_layout calls read_order.back() on an empty vector (undefined
// behaviour; a segfault here). Expected: the "left over" error at 1:1. Hidden ([.]) since
// a crash would stop the whole run; run it with `permjit_unit_tests "[layout-empty-read]"`.
TEST_CASE("layout: numbers in the file when read lists nothing", "[instance][layout]") {
  auto d = spec_errors("[problem]\nname = \"e\"\ngoal = \"count\"\nsize = 3\n"
                       "[instance]\nformat = \"layout\"\nread = []\n[branch]\n",
                       {}, "1 2 3\n");
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 1, 1, "3 number(s) left over");
}

// BUG (dsl/instance_tsplib.cpp:95, std::stoi): `DIMENSION: 2x` is read as 2 without an
// error; expected "DIMENSION must be a positive integer, found '2x'" at 4:1.
TEST_CASE("tsplib: a DIMENSION with trailing garbage is rejected", "[instance][tsplib]") {
  TempFile spec("spec.toml", tsplib_spec());
  std::string text = tsplib("ATSP", 2, "FULL_MATRIX", "0 1\n1 0\n");
  text.replace(text.find("DIMENSION: 2") + 11, 1, "2x");
  TempFile inst("inst.txt", text);
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  auto d = load_errors(o);
  REQUIRE(d.error_count() >= 1);
  check_at(d.all()[0], 4, 1, "DIMENSION must be a positive integer, found '2x'");
}

TEST_CASE("tsplib: a DIMENSION too large is refused at its line before anything is allocated", "[instance][tsplib][errors]") {
  auto d = spec_errors(tsplib_spec(), {}, tsplib("ATSP", 2000000000, "FULL_MATRIX", "1 2\n"));
  REQUIRE(d.error_count() >= 1);  // the first; what needs the data follows
  check_at(d.all()[0], 4, 1, "DIMENSION 2000000000 is more than 4096");
}

TEST_CASE("layout: dimensions whose product is too large are refused at the dimension", "[instance][layout][errors]") {
  std::string spec = layout_spec("[\"n\", \"a\"]");
  auto d = spec_errors(spec, {}, "16777216\n1 2 3\n");
  REQUIRE(d.error_count() >= 1);  // the first; what needs the data follows
  check_at(d.all()[0], 7, 13, "'a' would hold more than 16777216 numbers");
}

TEST_CASE("state and local arrays hold at most 4096 elements", "[instance][errors]") {
  const std::string head = "[problem]\nname = \"s\"\ngoal = \"count\"\nsize = 4\n[state]\n";  // 1-5
  auto d = spec_errors(head + "x = \"int[64][65]\"\n[branch]\n");
  REQUIRE(d.error_count() == 1);
  check_at(d.all()[0], 6, 14, "state 'x' would hold 4160 elements");
  auto l = spec_errors(head + "x = \"int\"\n[branch]\nplace = '''\nvar a[4096][2] = 0\nx = a[0][0]\n'''\n");
  REQUIRE(l.error_count() == 1);
  check_at(l.all()[0], 9, 13, "local array 'a' would hold 8192 elements");
}

// Before: "cannot read the instance file" at [instance] with no reason, then one error
// for the size and one for each state dimension that the instance would have given.
TEST_CASE("an instance file that cannot be read is one error at --instance, with the OS's reason",
          "[instance][errors]") {
  TempFile spec("spec.toml", "[problem]\nname = \"l\"\ngoal = \"minimize\"\nsize = \"n\"\n"
                             "[data]\nn = \"int\"\nm = \"int\"\na = \"int[n][m]\"\n"
                             "[instance]\nformat = \"layout\"\nread = [\"n\", \"m\", \"a\"]\n"
                             "[state]\ncost = { type = \"int\", init = \"0\" }\nfront = { type = \"int[m]\", init = \"0\" }\n"
                             "back = { type = \"int[m]\", init = \"0\" }\n"
                             "[branch]\nplace = { cost = \"cost + a[v][0]\" }\nbound = \"cost\"\nobjective = \"cost\"\n");
  for (const std::string& missing : {spec.path() + ".absent", std::filesystem::temp_directory_path().string()}) {
    LoadOptions o;
    o.spec_path = spec.path();
    o.instance_path = missing;
    Diagnostics d = load_errors(o);
    INFO(d.render());
    REQUIRE(d.error_count() == 1);
    const Diagnostic& e = d.all()[0];
    CHECK(e.loc.file->path == "<command line>");
    CHECK(e.loc.file->text == "--instance " + missing);
    CHECK(e.loc.col == 12);
    CHECK_THAT(e.message, Catch::Contains("cannot read the instance file '" + missing + "': "));
    CHECK_THAT(e.message, Catch::EndsWith(missing == spec.path() + ".absent" ? "No such file or directory"
                                                                              : "Is a directory"));
    REQUIRE(d.all().size() == 2);  // and a note at [instance]
    CHECK(d.all()[1].kind == Diagnostic::Kind::note);
    CHECK(d.all()[1].loc.line == 9);
  }
}
