// Under test: dsl/load_pattern_db.cpp: [pattern_databases] loads (patterns, groups,
// entries), and each mistake in it is an error at its exact place.
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// The 8-puzzle (3x3); [pattern_databases] is line 26, its keys follow.
std::string spec_with(const std::string& databases, const std::string& moves_extra = "") {
  return "[problem]\n"                                                                          // 1
         "name = \"p\"\n"                                                                       // 2
         "goal = \"path\"\n"                                                                    // 3
         "size = 9\n"                                                                           // 4
         "[data]\n"                                                                             // 5
         "tiles = \"int[9]\"\n"                                                                 // 6
         "[instance]\n"                                                                         // 7
         "format = \"layout\"\n"                                                                // 8
         "read = [\"tiles\"]\n"                                                                 // 9
         "[derived]\n"                                                                          // 10
         "solved = { type = \"int[9]\", index = [\"p\"], value = \"p\" }\n"                     // 11
         "[state]\n"                                                                            // 12
         "blank = { type = \"int\", init = \"sum(p in 0..9: tiles[p] == 0 ? p : 0)\" }\n"        // 13
         "[path]\n"                                                                             // 14
         "start = \"tiles\"\n"                                                                  // 15
         "goal = \"count(p in 0..9: perm[p] != p) == 0\"\n"                                     // 16
         "[moves]\n"                                                                            // 17
         "up = { when = \"blank >= 3\", swap = [\"blank\", \"blank - 3\"], set = { blank = \"blank - 3\" } }\n"  // 18
         "down = { when = \"blank < 6\", swap = [\"blank\", \"blank + 3\"], set = { blank = \"blank + 3\" } }\n" +  // 19
         moves_extra +                                                                          // 20 (or nothing)
         "[heuristic]\n"
         "h = \"0\"\n"
         "\n"
         "\n"
         "\n"
         "\n"
         "[pattern_databases]\n" +  // 26
         databases;
}

constexpr int kFirst = 27;  // the line after [pattern_databases]
const std::string kGoalTrack = "goal = \"solved\"\ntrack = [0]\n";  // lines 27, 28

}  // namespace

TEST_CASE("pattern databases load: groups, values, entries", "[pattern_db]") {
  TempFile spec("p.toml", spec_with(kGoalTrack + "additive = [[1, 2, 3, 4], [5, 6, 7, 8]]\ngroups = [[[1, 2]]]\n"));
  TempFile inst("p.txt", "1 0 2 3 4 5 6 7 8\n");
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  ProblemSpec s = load_ok(o);
  const PatternDatabases& p = s.path.databases;
  REQUIRE(p.on);
  CHECK(p.groups == 2);
  REQUIRE(p.patterns.size() == 3);
  CHECK(p.patterns[0].values == std::vector<int>{1, 2, 3, 4});
  CHECK(p.patterns[1].group == 0);
  CHECK(p.patterns[2].group == 1);
  CHECK(p.patterns[0].entries == 9ull * 8 * 7 * 6 * 5);  // 4 values and the blank on 9 positions
  CHECK(p.goal == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(p.track == std::vector<int>{0});
  const std::string d = describe_pattern_databases(p, 9);
  CHECK_THAT(d, Catch::Contains("group 2: patterns of 2 values"));
  CHECK_THAT(d, Catch::Contains("not covered: 3 4 5 6 7 8"));
  CHECK(p.reflect_positions.empty());
}

TEST_CASE("a reflection loads when it maps the goal to itself", "[pattern_db]") {
  // The 3x3 board's main diagonal: position and tile (r, c) -> (c, r).
  std::string text = spec_with(kGoalTrack + "additive = [[1, 2]]\nreflect = { positions = \"mirror\", values = \"mirror\" }\n");
  text.replace(text.find("[state]"), 7,
               "mirror = { type = \"int[9]\", index = [\"p\"], value = \"(p % 3) * 3 + p / 3\" }\n[state]");
  TempFile spec("p.toml", text);
  TempFile inst("p.txt", "1 0 2 3 4 5 6 7 8\n");
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  ProblemSpec s = load_ok(o);
  CHECK(s.path.databases.reflect_positions == std::vector<int>{0, 3, 6, 1, 4, 7, 2, 5, 8});
  CHECK_THAT(describe_pattern_databases(s.path.databases, 9), Catch::Contains("the max with their reflection"));
}

TEST_CASE("pattern databases are off when `when` is false", "[pattern_db]") {
  TempFile spec("p.toml", spec_with("when = \"1 > 2\"\n" + kGoalTrack + "additive = [[1, 2, 30]]\n"));
  TempFile inst("p.txt", "1 0 2 3 4 5 6 7 8\n");
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  CHECK_FALSE(load_ok(o).path.databases.on);
}

TEST_CASE("pattern database errors are located", "[pattern_db]") {
  const std::string inst = "1 0 2 3 4 5 6 7 8\n";
  SECTION("a value out of range") {
    Diagnostics d = spec_errors(spec_with(kGoalTrack + "additive = [[1, 2, 9]]\n"), {}, inst);
    check_at(errors_of(d).at(0), kFirst + 2, 20, "value 9 is outside 0..8");
  }
  SECTION("two patterns of an additive group overlap") {
    Diagnostics d = spec_errors(spec_with(kGoalTrack + "additive = [[1, 2], [3, 2]]\n"), {}, inst);
    check_at(errors_of(d).at(0), kFirst + 2, 25, "value 2 is in two patterns of one additive group");
  }
  SECTION("a tracked value in a pattern") {
    Diagnostics d = spec_errors(spec_with(kGoalTrack + "additive = [[0, 1]]\n"), {}, inst);
    check_at(errors_of(d).at(0), kFirst + 2, 14, "value 0 is tracked");
  }
  SECTION("an unknown goal item") {
    Diagnostics d = spec_errors(spec_with("goal = \"solve\"\nadditive = [[1]]\n"), {}, inst);
    check_at(errors_of(d).at(0), kFirst, 8, "'solve' is not a data item");
  }
  SECTION("a goal that is not a permutation") {
    std::string text = spec_with(kGoalTrack + "additive = [[1]]\n");
    const std::string good = "value = \"p\" }";
    text.replace(text.find(good), good.size(), "value = \"p / 2\" }");
    Diagnostics d = spec_errors(text, {}, inst);
    check_at(errors_of(d).at(0), kFirst, 8, "the goal 'solved' is not a permutation of 0..8");
  }
  SECTION("no patterns") {
    Diagnostics d = spec_errors(spec_with(kGoalTrack), {}, inst);
    REQUIRE(find_error(d, "needs additive = [[values], ...] or groups"));
  }
  SECTION("a move that reads perm") {
    Diagnostics d = spec_errors(
        spec_with(kGoalTrack + "additive = [[1]]\n",
                  "left = { when = \"perm[blank] == 0\", swap = [\"blank\", \"blank - 1\"], set = { blank = \"blank - 1\" } }\n"),
        {}, inst);
    check_at(errors_of(d).at(0), 20, 30, "move 'left' reads perm");  // at the expression that reads it
  }
  SECTION("an unknown key") {
    Diagnostics d = spec_errors(spec_with(kGoalTrack + "additive = [[1]]\nmirror = 1\n"), {}, inst);
    REQUIRE(find_error(d, "mirror"));
  }
  SECTION("a reflection that moves the goal") {
    // positions reversed, values kept: tile 1 would stand at position 7.
    std::string text = spec_with(kGoalTrack + "additive = [[1]]\nreflect = { positions = \"back\", values = \"solved\" }\n");
    text.replace(text.find("[state]"), 7, "back = { type = \"int[9]\", index = [\"p\"], value = \"8 - p\" }\n[state]");
    Diagnostics d = spec_errors(text, {}, inst);
    check_at(errors_of(d).at(0), kFirst + 4, 11, "the reflection does not map the goal 'solved' to itself");
  }
  SECTION("a reflection item that is not a permutation") {
    Diagnostics d = spec_errors(
        spec_with(kGoalTrack + "additive = [[1]]\nreflect = { positions = \"tiles\", values = \"solvd\" }\n"), {},
        "1 1 2 3 4 5 6 7 8\n");
    REQUIRE(find_error(d, "'solvd' is not a data item"));
  }
}

TEST_CASE("a pattern table past 2^32 entries is an error at the pattern", "[pattern_db]") {
  // 64 positions, 6 values: 64!/58! = 5.4e10 entries.
  std::string spec =
      "[problem]\nname = \"p\"\ngoal = \"path\"\nsize = 64\n[data]\ntiles = \"int[64]\"\n[instance]\n"
      "format = \"layout\"\nread = [\"tiles\"]\n[derived]\nsolved = { type = \"int[64]\", index = [\"p\"], value = \"p\" }\n"
      "[state]\nblank = { type = \"int\", init = \"0\" }\n[path]\nstart = \"tiles\"\ngoal = \"perm[0] == 0\"\n"
      "[moves]\nr = { when = \"blank < 63\", swap = [\"blank\", \"blank + 1\"], set = { blank = \"blank + 1\" } }\n"
      "[heuristic]\nh = \"0\"\n[pattern_databases]\ngoal = \"solved\"\nadditive = [[1, 2, 3, 4, 5, 6]]\n";
  std::string inst;
  for (int i = 0; i < 64; ++i) inst += std::to_string(i) + " ";
  Diagnostics d = spec_errors(spec, {}, inst + "\n");
  check_at(errors_of(d).at(0), 23, 13, "abstract states");
}

TEST_CASE("a pattern of a problem above 64 values is an error at the pattern", "[pattern_db]") {
  // 81 positions: a pattern's index packs positions in 64 bits (dsl/load_pattern_db.cpp).
  std::string spec =
      "[problem]\nname = \"p\"\ngoal = \"path\"\nsize = 81\n[data]\ntiles = \"int[81]\"\n[instance]\n"
      "format = \"layout\"\nread = [\"tiles\"]\n[derived]\nsolved = { type = \"int[81]\", index = [\"p\"], value = \"p\" }\n"
      "[state]\nblank = { type = \"int\", init = \"0\" }\n[path]\nstart = \"tiles\"\ngoal = \"perm[0] == 0\"\n"
      "[moves]\nr = { when = \"blank < 80\", swap = [\"blank\", \"blank + 1\"], set = { blank = \"blank + 1\" } }\n"
      "[heuristic]\nh = \"0\"\n[pattern_databases]\ngoal = \"solved\"\nadditive = [[1, 2]]\n";
  std::string inst;
  for (int i = 0; i < 81; ++i) inst += std::to_string(i) + " ";
  Diagnostics d = spec_errors(spec, {}, inst + "\n");
  check_at(errors_of(d).at(0), 23, 13, "pattern databases take problems of size at most 64 (this one is 81)");
}
