// The ida and ida-thread skeletons against the CPU IDA* oracle: the same optimal cost,
// a path of that length, and in "all optimal solutions" mode the same node counts in
// every iteration, the last one included (8-puzzle boards, Korf 15-puzzle instances),
// with static, dynamic and donating balance, and with a stack that forces narrow pops.
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "gpu_support.hpp"
#include "puzzle_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult solve_path(const std::string& inst, int record, std::vector<std::string> params,
                       const std::string& skeleton, bool all, unsigned long long roots = 0,
                       const std::string& balance = "", unsigned stack = 0) {
  SolveOptions o;
  o.load.spec_path = problem("puzzle15.toml");
  o.load.instance_path = inst;
  o.load.instance_record = record;
  o.load.params = std::move(params);
  o.skeleton = skeleton;
  o.threads = skeleton == "cpu" ? 2 : 0;
  o.all_solutions = all;
  o.roots = roots;
  o.ida_balance = balance;
  o.ida_stack = stack;
  o.cache_dir = cache_dir();
  return solve(o);
}

// The same answer as the oracle, and the same counts in every iteration.
void same_search(const SolveResult& cpu, const SolveResult& gpu) {
  REQUIRE(gpu.found == cpu.found);
  CHECK(gpu.objective == cpu.objective);
  CHECK(gpu.path.size() == cpu.path.size());
  test::same_iterations(cpu, gpu);
}
}  // namespace

TEST_CASE("ida and ida-thread count 8-puzzle iterations like the CPU", "[gpu][ida]") {
  const char* boards[] = {"8 6 7 2 5 4 3 0 1", "1 2 0 3 4 5 6 7 8", "3 1 2 6 4 5 0 7 8", "7 2 4 5 0 6 8 3 1"};
  int k = 0;
  for (const char* b : boards) {
    std::string inst = temp_file("ida_p8_" + std::to_string(k++) + ".txt", std::string(b) + "\n");
    SolveResult cpu = solve_path(inst, 0, {"w=3"}, "cpu", true);
    INFO("board " << b);
    for (const char* sk : {"ida", "ida-thread"}) {
      INFO(sk);
      SolveResult all = solve_path(inst, 0, {"w=3"}, sk, true);
      same_search(cpu, all);
      CHECK(reaches_goal(read_board(inst, 0), 3, all.path));
      same_search(cpu, solve_path(inst, 0, {"w=3"}, sk, true, 50));  // few roots: deep subtrees
      same_search(cpu, solve_path(inst, 0, {"w=3"}, sk, true, 50, "static"));
      same_search(cpu, solve_path(inst, 0, {"w=3"}, sk, true, 50, "dynamic"));
      // A stack just deep enough for one-node pops: the width is cut back all the time.
      if (std::string(sk) == "ida") {
        same_search(cpu, solve_path(inst, 0, {"w=3"}, sk, true, 50, "", 96));
        // Donation: few roots, so that warps give nodes to each other; the path of a goal
        // found below a donated node is retraced through its donors.
        SolveResult donated = solve_path(inst, 0, {"w=3"}, sk, true, 50, "donate");
        same_search(cpu, donated);
        CHECK(reaches_goal(read_board(inst, 0), 3, donated.path));
        same_search(cpu, solve_path(inst, 0, {"w=3"}, sk, true, 50, "donate", 96));
        CHECK(solve_path(inst, 0, {"w=3"}, sk, false, 50, "donate").objective == cpu.objective);
      }
      SolveResult first = solve_path(inst, 0, {"w=3"}, sk, false);
      CHECK(first.objective == cpu.objective);
    }
  }
}

// With pattern databases ida takes fewer roots than workers (the host computes h of
// the upper tree's nodes with the tables), and keeps its device buffers from record to
// record: 8-puzzle tables (tiles 1-4 and 5-8 with the blank, and the reflection), four
// boards in one call, the CPU's counts in every iteration of each.
TEST_CASE("ida with pattern databases counts like the CPU, record after record", "[gpu][ida][pdb]") {
  const std::string spec_file = puzzle8_pdb_spec("ida_pdb_p8.toml");
  const std::string boards = temp_file("ida_pdb_p8.txt", "8 6 7 2 5 4 3 0 1\n1 2 0 3 4 5 6 7 8\n"
                                                         "3 1 2 6 4 5 0 7 8\n7 2 4 5 0 6 8 3 1\n");
  SolveOptions o;
  o.load.spec_path = spec_file;
  o.load.instance_path = boards;
  o.load.params = {"w=3"};
  o.all_solutions = true;
  o.cache_dir = cache_dir();
  auto run = [&](const std::string& skeleton) {
    o.skeleton = skeleton;
    o.threads = skeleton == "cpu" ? 2 : 0;
    std::vector<SolveResult> got;
    const RecordsSummary sum = solve_records(o, "1-4", [&](const SolveResult& r) { got.push_back(r); });
    REQUIRE(sum.pattern_dbs.has_value());  // the tables were in use
    CHECK(sum.pattern_dbs->patterns == 2);
    return got;
  };
  const std::vector<SolveResult> cpu = run("cpu"), ida = run("ida");
  REQUIRE(cpu.size() == 4);
  REQUIRE(ida.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    INFO("record " << k + 1);
    same_search(cpu[k], ida[k]);
    CHECK(reaches_goal(read_board(boards, static_cast<int>(k) + 1), 3, ida[k].path));
  }
}

TEST_CASE("ida and ida-thread solve Korf instances with the CPU's counts", "[gpu][ida]") {
  std::vector<int> optimal;
  std::ifstream in(instance("15puzzle/korf100_optimal.txt"));
  for (int x; in >> x;) optimal.push_back(x);
  for (int k : {9, 79, 12, 42}) {
    std::string inst = instance("15puzzle/korf100.txt");
    SolveResult cpu = solve_path(inst, k, {}, "cpu", true);
    INFO("instance " << k);
    CHECK(cpu.objective == optimal[k - 1]);
    for (const char* sk : {"ida", "ida-thread"}) {
      INFO(sk);
      SolveResult all = solve_path(inst, k, {}, sk, true);
      same_search(cpu, all);
      CHECK(reaches_goal(read_board(inst, k), 4, all.path));
      same_search(cpu, solve_path(inst, k, {}, sk, true, 0, "static"));
      same_search(cpu, solve_path(inst, k, {}, sk, true, 0, "dynamic"));  // ida's default is donate
    }
    // Donation, with many roots and with few (most of the work then moves between warps,
    // and the path runs through chains of donated nodes). With Manhattan alone (pdb=0):
    // the pattern databases leave trees so small that no warp runs long enough to give.
    const SolveResult manhattan = solve_path(inst, k, {"pdb=0"}, "cpu", true);
    for (unsigned long long roots : {0ull, 20ull}) {
      INFO("donate, roots " << roots);
      SolveResult donated = solve_path(inst, k, {"pdb=0"}, "ida", true, roots, "donate");
      same_search(manhattan, donated);
      CHECK(reaches_goal(read_board(inst, k), 4, donated.path));
      if (roots > 0) {  // 20 roots for 132 x 32 warps: most of the work must be given
        uint64_t given = 0;
        for (const auto& it : donated.iterations) given += it.donated;
        CHECK(given > 0);
      }
      SolveResult first = solve_path(inst, k, {"pdb=0"}, "ida", false, roots, "donate");
      CHECK(first.objective == cpu.objective);
      CHECK(reaches_goal(read_board(inst, k), 4, first.path));
    }
  }
}

TEST_CASE("ida and ida-thread solve several Korf records in one call, with one compile", "[gpu][ida][records]") {
  std::vector<int> optimal;
  std::ifstream in(instance("15puzzle/korf100_optimal.txt"));
  for (int x; in >> x;) optimal.push_back(x);
  REQUIRE(optimal.size() == 100);
  for (const char* sk : {"ida", "ida-thread"}) {
    INFO(sk);
    SolveOptions o;
    o.load.spec_path = problem("puzzle15.toml");
    o.load.instance_path = instance("15puzzle/korf100.txt");
    o.skeleton = sk;
    o.all_solutions = true;
    o.cache_dir = cache_dir();
    std::vector<SolveResult> got;
    RecordsSummary sum = solve_records(o, "9,12,42,79", [&](const SolveResult& r) { got.push_back(r); });
    REQUIRE(got.size() == 4);
    CHECK(sum.records == 4);
    CHECK(sum.skeleton == sk);
    for (const SolveResult& r : got) {
      INFO("record " << r.record);
      REQUIRE(r.found);
      CHECK(r.objective == optimal[r.record - 1]);
      CHECK(static_cast<int>(r.path.size()) == optimal[r.record - 1]);
      CHECK(r.iterations.back().limit == r.objective);
    }
    // The records' counts are those of a solve of each alone (record 42, the last but one).
    o.load.instance_record = 42;
    same_search(solve(o), got[2]);
  }
}

// --time-limit, checked between iterations and inside one: a board of the wrong parity
// has no path and would search forever; stopped, it proves the next limit, or the limit
// of the iteration it stopped (docs/reliability.md, "Partial answers"), and the
// iterations it finished count what the CPU's count.
TEST_CASE("ida with a time limit: an unsolvable 8-puzzle ends partial at the limit reached", "[gpu][ida][time_limit]") {
  const std::string inst = temp_file("ida_p8_unsolvable.txt", "1 2 3 4 5 6 8 7 0\n");
  SolveOptions o;
  o.load.spec_path = problem("puzzle15.toml");
  o.load.instance_path = inst;
  o.load.params = {"w=3"};
  o.skeleton = "ida";
  o.time_limit = 0.5;
  o.cache_dir = cache_dir();
  SolveResult gpu = solve(o);
  REQUIRE(gpu.stopped);
  CHECK_FALSE(gpu.found);
  REQUIRE(gpu.proven_bound);
  REQUIRE_FALSE(gpu.iterations.empty());
  // Stopped before the next iteration (the bound is its limit), or inside the last one
  // (the bound is that one's limit, and its counts are partial).
  const bool inside = *gpu.proven_bound == gpu.iterations.back().limit;
  if (!inside) CHECK(*gpu.proven_bound > gpu.iterations.back().limit);
  CHECK(gpu.t_search < o.time_limit + 1.0);  // an iteration is not waited for to its end
  o.skeleton = "cpu";
  o.threads = 2;
  SolveResult cpu = solve(o);
  REQUIRE(cpu.stopped);
  const size_t both = std::min(gpu.iterations.size() - (inside ? 1 : 0), cpu.iterations.size() - 1);  // the CPU's last is partial
  for (size_t k = 0; k < both; ++k) {
    INFO("iteration at limit " << gpu.iterations[k].limit);
    CHECK(gpu.iterations[k].limit == cpu.iterations[k].limit);
    CHECK(gpu.iterations[k].expanded == cpu.iterations[k].expanded);
  }
}
