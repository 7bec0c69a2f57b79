// `solve --records` and run-time start data (dsl/start_data.hpp, runtime/solve_records.cpp):
// two Korf records generate the same source and the second one's module is a cache hit;
// a file of 8-puzzle boards solved in one process gives every record what its own
// `--record K` run gives; and the mistakes of --records are user errors with a place.
#include <catch2/catch.hpp>
#include <filesystem>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"
#include "e2e_support.hpp"
#include "generator/generate.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
// 8-puzzle boards, one per line (a blank line between them is not a record).
const char* kBoards =
    "8 6 7 2 5 4 3 0 1\n"
    "1 2 0 3 4 5 6 7 8\n"
    "\n"
    "3 1 2 6 4 5 0 7 8\n"
    "7 2 4 5 0 6 8 3 1\n"
    "0 1 2 3 4 5 6 7 8\n";

SolveOptions puzzle8(const std::string& inst) {
  SolveOptions o;
  o.load.spec_path = problem("puzzle15.toml");
  o.load.instance_path = inst;
  o.load.params = {"w=3"};
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = 2;
  o.all_solutions = true;
  o.cache_dir = cache_dir();
  return o;
}

std::vector<SolveResult> solve_list(const SolveOptions& o, const std::string& list) {
  std::vector<SolveResult> out;
  solve_records(o, list, [&](const SolveResult& r) { out.push_back(r); });
  return out;
}

// The first user error of a --records solve: where it points, and what it says.
Diagnostic records_error(const SolveOptions& o, const std::string& list) {
  try {
    solve_list(o, list);
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.has_errors());
    return e.diags.all().front();
  }
  FAIL("no user error");
  return {};
}
}  // namespace

TEST_CASE("two Korf records generate the same source, and the second solve is a cache hit", "[e2e][path][cache]") {
  auto source_of = [](int record) {
    LoadOptions l;
    l.spec_path = problem("puzzle15.toml");
    l.instance_path = instance("15puzzle/korf100.txt");
    l.instance_record = record;
    return generate_problem(load_spec(l)).text;
  };
  std::string one = source_of(9), two = source_of(79);
  CHECK(one == two);
  CHECK(one.find("PJ_DATA") == std::string::npos);  // no instance table compiled in
  CHECK(one.find("korf100") == std::string::npos);  // nor the instance's name

  std::string dir = cache_dir() + "-records";
  std::filesystem::remove_all(dir);
  SolveOptions o = puzzle8("");
  o.load.instance_path = instance("15puzzle/korf100.txt");
  o.load.params = {"pdb=0"};  // the default tables would be built first (minutes)
  o.cache_dir = dir;
  o.load.instance_record = 9;
  SolveResult first = solve(o);
  CHECK_FALSE(first.cache_hit);
  o.load.instance_record = 79;
  SolveResult second = solve(o);
  CHECK(second.cache_hit);
  CHECK(first.objective != second.objective);  // 45 and 42 moves: each solve searched its own start
}

TEST_CASE("records solved in one process each get what their own --record run gets", "[e2e][path][records]") {
  std::string inst = temp_file("p8_records.txt", kBoards);
  std::vector<SolveResult> batch = solve_list(puzzle8(inst), "all");
  const std::vector<int> lines = {1, 2, 4, 5, 6};
  REQUIRE(batch.size() == lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    SolveOptions o = puzzle8(inst);
    o.load.instance_record = lines[i];
    SolveResult alone = solve(o);
    const SolveResult& r = batch[i];
    INFO("record " << lines[i]);
    CHECK(r.record == lines[i]);
    REQUIRE(r.found == alone.found);
    CHECK(r.objective == alone.objective);
    CHECK(r.path.size() == alone.path.size());
    CHECK(r.solutions == alone.solutions);
    same_iterations(r, alone);
  }
  CHECK(batch.back().objective == 0);  // the goal itself
  // A list in another order, with a range: the results follow the list.
  std::vector<SolveResult> some = solve_list(puzzle8(inst), "5,1-2");
  REQUIRE(some.size() == 3);
  CHECK(some[0].record == 5);
  CHECK(some[0].objective == batch[3].objective);
  CHECK(some[2].record == 2);
}

TEST_CASE("mistakes in --records are refused before any search, with their place", "[e2e][options][records]") {
  std::string inst = temp_file("p8_records_err.txt", kBoards);
  struct Case {
    std::string list;
    int col;  // on "--records LIST"
    std::string message;
  };
  const Case cases[] = {
      {"", 11, "--records needs a list"},
      {"1,x", 13, "'x' is not a record number"},
      {"4-2", 11, "the range 4-2 is empty"},
      {"0", 11, "records are numbered from 1"},
      {"1,3", 13, "has no record 3"},  // line 3 is blank
      {"5-9", 11, "has no record 7"},
      {"2,1-2", 13, "record 2 is named twice"},
  };
  for (const Case& c : cases) {
    INFO("--records " << c.list);
    Diagnostic d = records_error(puzzle8(inst), c.list);
    CHECK(d.loc.file->path == "<command line>");
    CHECK(d.loc.file->text == "--records " + c.list);
    CHECK(d.loc.col == c.col);
    CHECK_THAT(d.message, Catch::Contains(c.message));
  }

  SolveOptions both = puzzle8(inst);
  both.load.instance_record = 2;
  Diagnostic d = records_error(both, "1-2");
  CHECK(d.loc.file->path == "<command line>");
  CHECK(d.loc.col == 1);
  CHECK_THAT(d.message, Catch::Contains("--records and --record exclude each other"));

  d = records_error(puzzle8(""), "all");
  CHECK(d.loc.col == 1);
  CHECK_THAT(d.message, Catch::Contains("no --instance was given"));

  SolveOptions queens;
  queens.load.spec_path = problem("nqueens.toml");
  queens.load.instance_path = inst;  // read for its records before the spec says it reads none
  queens.backend = "cpu";
  queens.cache_dir = cache_dir();
  d = records_error(queens, "1");
  CHECK(d.loc.file->path == "<command line>");
  CHECK_THAT(d.message, Catch::Contains("--records applies to path problems; 'nqueens' is a count problem"));
}

TEST_CASE("a record that is not a start is refused at its line before any search", "[e2e][path][records]") {
  std::string inst = temp_file("p8_records_bad.txt", "8 6 7 2 5 4 3 0 1\n1 2 0 3 4 5 6 7 7\n");
  Diagnostic d = records_error(puzzle8(inst), "1-2");
  CHECK(d.loc.file->path == inst);
  CHECK(d.loc.line == 2);
  CHECK_THAT(d.message, Catch::Contains("is not a permutation of 0..8"));
  d = records_error(puzzle8(temp_file("p8_records_short.txt", "8 6 7 2 5 4 3 0 1\n1 2 0 3\n")), "all");
  CHECK(d.loc.file->path.find("p8_records_short.txt") != std::string::npos);
  CHECK_THAT(d.message, Catch::Contains("the file ends too early"));
}
