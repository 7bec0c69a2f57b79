// IDA* on path problems (the cpu skeleton): the 8-puzzle against a breadth-first search
// over all 9!/2 reachable boards that shares no code with permjit, the returned path
// replayed on the board, node counts independent of threads and roots, the incremental
// heuristic against the full one, and two of Korf's 15-puzzle instances.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "e2e_support.hpp"

using namespace permjit;

namespace {

using Board = std::string;  // one char per position, '0' + tile

// Blank moves: up, down, left, right on a 3x3 board.
bool slide(Board& b, const std::string& move) {
  int z = static_cast<int>(b.find('0')), r = z / 3, c = z % 3, t = -1;
  if (move == "up" && r > 0) t = z - 3;
  if (move == "down" && r < 2) t = z + 3;
  if (move == "left" && c > 0) t = z - 1;
  if (move == "right" && c < 2) t = z + 1;
  if (t < 0) return false;
  std::swap(b[z], b[t]);
  return true;
}

// Distance to the goal "012345678" of every board reachable from it.
const std::map<Board, int>& distances() {
  static const std::map<Board, int> dist = [] {
    std::map<Board, int> d{{"012345678", 0}};
    std::vector<Board> level{"012345678"};
    for (int k = 1; !level.empty(); ++k) {
      std::vector<Board> next;
      for (const auto& b : level)
        for (const char* m : {"up", "down", "left", "right"}) {
          Board c = b;
          if (slide(c, m) && d.emplace(c, k).second) next.push_back(c);
        }
      level.swap(next);
    }
    return d;
  }();
  return dist;
}

std::string instance_file(const Board& b, const std::string& name) {
  std::string text;
  for (char c : b) text += std::string(1, c) + " ";
  return test::temp_file(name, text + "\n");
}

SolveResult solve_path(const std::string& spec, const std::string& instance, std::vector<std::string> params,
                       int threads, bool all, unsigned long long roots = 0, int record = 0) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.instance_path = instance;
  o.load.instance_record = record;
  o.load.params = std::move(params);
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = threads;
  o.all_solutions = all;
  o.roots = roots;
  o.cache_dir = test::cache_dir();
  return solve(o);
}

// Boards at random from the reachable ones, with distances spread over 0..31.
std::vector<Board> sample_boards() {
  std::vector<Board> all;
  for (const auto& [b, d] : distances()) all.push_back(b);
  std::mt19937 rng(7);
  std::vector<Board> out;
  for (int k = 0; k < 6; ++k) out.push_back(all[rng() % all.size()]);
  out.push_back("867254301");  // among the farthest
  return out;
}

}  // namespace

TEST_CASE("8-puzzle: IDA* finds the breadth-first distance and a path that reaches the goal", "[e2e][path]") {
  REQUIRE(distances().size() == 181440);
  int k = 0;
  for (const Board& b : sample_boards()) {
    SolveResult r = solve_path(test::problem("puzzle15.toml"), instance_file(b, "p8_" + std::to_string(k++) + ".txt"),
                               {"w=3"}, 2, true);
    INFO("board " << b);
    REQUIRE(r.found);
    CHECK(r.objective == distances().at(b));
    Board at = b;
    for (const auto& m : r.path) REQUIRE(slide(at, m));
    CHECK(at == "012345678");
    CHECK(static_cast<int>(r.path.size()) == r.objective);
    CHECK(r.solutions >= 1);
    CHECK(r.iterations.back().limit == r.objective);
  }
}

TEST_CASE("8-puzzle: node counts per iteration do not depend on threads or roots", "[e2e][path]") {
  std::string inst = instance_file("867254301", "p8_counts.txt");
  SolveResult one = solve_path(test::problem("puzzle15.toml"), inst, {"w=3"}, 1, true, 4);
  SolveResult two = solve_path(test::problem("puzzle15.toml"), inst, {"w=3"}, 2, true, 500);
  SolveResult first = solve_path(test::problem("puzzle15.toml"), inst, {"w=3"}, 2, false);
  test::same_iterations(one, two);
  REQUIRE(one.iterations.size() == first.iterations.size());
  // Stopping at the first goal changes only the last iteration.
  for (size_t i = 0; i + 1 < one.iterations.size(); ++i) CHECK(first.iterations[i].expanded == one.iterations[i].expanded);
  CHECK(first.iterations.back().expanded <= one.iterations.back().expanded);
  CHECK(first.objective == one.objective);
}

TEST_CASE("the per-position heuristic, updated incrementally, counts as the full one", "[e2e][path]") {
  std::ifstream in(test::problem("puzzle15.toml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string spec = text.str();
  const std::string per = "per_position = \"";
  size_t at = spec.find(per);
  REQUIRE(at != std::string::npos);
  size_t end = spec.find('"', at + per.size());
  std::string term = spec.substr(at + per.size(), end - at - per.size());
  spec.replace(at, end + 1 - at, "h = \"sum(pos in 0..w * w: " + term + ")\"");
  std::string full = test::temp_file("puzzle_full_h.toml", spec);
  std::string inst = instance_file("867254301", "p8_full.txt");
  SolveResult inc = solve_path(test::problem("puzzle15.toml"), inst, {"w=3"}, 2, true);
  SolveResult whole = solve_path(full, inst, {"w=3"}, 2, true);
  REQUIRE(inc.iterations.size() == whole.iterations.size());
  for (size_t i = 0; i < inc.iterations.size(); ++i) CHECK(inc.iterations[i].expanded == whole.iterations[i].expanded);
  CHECK(inc.objective == whole.objective);
}

TEST_CASE("15-puzzle: Korf instances 9 and 79 have their known optimal lengths", "[e2e][path]") {
  std::vector<int> optimal;
  std::ifstream in(test::instance("15puzzle/korf100_optimal.txt"));
  for (int x; in >> x;) optimal.push_back(x);
  REQUIRE(optimal.size() == 100);
  for (int k : {9, 79}) {
    // Manhattan alone: the default pattern databases' tables take minutes to build
    // (tests/e2e/pattern_db_test.cpp covers them with small patterns).
    SolveResult r =
        solve_path(test::problem("puzzle15.toml"), test::instance("15puzzle/korf100.txt"), {"pdb=0"}, 2, true, 0, k);
    INFO("instance " << k);
    CHECK(r.objective == optimal[k - 1]);
    CHECK(static_cast<int>(r.path.size()) == optimal[k - 1]);
  }
}
