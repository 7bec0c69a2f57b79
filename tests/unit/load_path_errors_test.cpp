// Under test: dsl/load_path.cpp: a path spec loads, and each user error in [path],
// [moves] and [heuristic] names its exact place.
#include <catch2/catch.hpp>

#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A 2x2 sliding puzzle; `moves` starts on line 17, `heuristic` follows it.
std::string path_spec(const std::string& moves, const std::string& heuristic = "h = \"0\"\n") {
  return "[problem]\n"                                                  // 1
         "name = \"p\"\n"                                               // 2
         "goal = \"path\"\n"                                            // 3
         "size = 4\n"                                                   // 4
         "[data]\n"                                                     // 5
         "tiles = \"int[4]\"\n"                                         // 6
         "[instance]\n"                                                 // 7
         "format = \"layout\"\n"                                        // 8
         "read = [\"tiles\"]\n"                                         // 9
         "[state]\n"                                                    // 10
         "blank = { type = \"int\", init = \"0\" }\n"                   // 11
         "[path]\n"                                                     // 12
         "start = \"tiles\"\n"                                          // 13
         "goal = \"perm[0] == 0\"\n"                                    // 14
         "\n"                                                           // 15
         "[moves]\n" +                                                  // 16
         moves + "[heuristic]\n" + heuristic;
}

const std::string kRight = "right = { when = \"blank % 2 == 0\", swap = [\"blank\", \"blank + 1\"], "
                           "set = { blank = \"blank + 1\" }, inverse = \"left\" }\n";
const std::string kLeft = "left = { when = \"blank % 2 == 1\", swap = [\"blank\", \"blank - 1\"], "
                          "set = { blank = \"blank - 1\" }, inverse = \"right\" }\n";

}  // namespace

TEST_CASE("a path spec loads: moves, inverses, the heuristic", "[load_path]") {
  TempFile spec("p.toml", path_spec(kRight + kLeft, "per_position = \"perm[pos] == pos ? 0 : 1\"\n"));
  TempFile inst("p.txt", "0 1 2 3\n");
  LoadOptions o;
  o.spec_path = spec.path();
  o.instance_path = inst.path();
  ProblemSpec s = load_spec(o);
  CHECK(s.goal == Goal::path);
  REQUIRE(s.path.moves.size() == 2);
  CHECK(s.path.moves[0].inverse == 1);
  CHECK(s.path.moves[1].inverse == 0);
  CHECK(s.path.position_term != nullptr);
}

TEST_CASE("path spec errors are located", "[load_path]") {
  SECTION("an unknown inverse") {
    Diagnostics d = spec_errors(path_spec(kRight + "left = { swap = [\"blank\", \"blank\"], inverse = \"rigth\" }\n"),
                                {}, "0 1 2 3\n");
    check_at(errors_of(d).at(0), 18, 47, "'rigth' is not a move");
  }
  SECTION("a placement builtin in a move") {
    Diagnostics d = spec_errors(path_spec("up = { when = \"free == 0\", swap = [\"0\", \"1\"] }\n"), {}, "0 1 2 3\n");
    check_at(errors_of(d).at(0), 17, 16, "'free' belongs to placement problems");
  }
  SECTION("a swap that is not two positions") {
    Diagnostics d = spec_errors(path_spec("up = { swap = [\"0\"] }\n"), {}, "0 1 2 3\n");
    check_at(errors_of(d).at(0), 17, 15, "needs swap = ");
  }
  SECTION("a cost below 1") {
    Diagnostics d = spec_errors(path_spec("up = { swap = [\"0\", \"1\"], cost = 0 }\n"), {}, "0 1 2 3\n");
    check_at(errors_of(d).at(0), 17, 34, "costs are 1..1000000");
  }
  SECTION("a start that is not a permutation") {
    Diagnostics d = spec_errors(path_spec(kRight), {}, "0 1 1 3\n");
    check_at(errors_of(d).at(0), 13, 9, "is not a permutation");
  }
  SECTION("both forms of the heuristic") {
    Diagnostics d = spec_errors(path_spec(kRight + kLeft, "h = \"0\"\nper_position = \"0\"\n"), {}, "0 1 2 3\n");
    check_at(errors_of(d).at(0), 21, 16, "h or per_position, not both");
  }
  SECTION("[branch] in a path problem") {
    Diagnostics d = spec_errors(path_spec(kRight) + "[branch]\nbound = \"0\"\n", {}, "0 1 2 3\n");
    REQUIRE(find_error(d, "has [moves], not [branch]"));
  }
}
