// Known answers on the CPU backend: N-Queens against OEIS, ATSP and QAP against brute
// force over all permutations, nug12 against QAPLIB, and a maximisation spec.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("N-Queens n=1..12 counts equal OEIS A000170", "[e2e][nqueens]") {
  std::ifstream csv(instance("nqueens/nqueens_counts.csv"));
  REQUIRE(csv);
  std::string line;
  std::getline(csv, line);  // header
  std::map<int, unsigned long long> known;
  while (std::getline(csv, line)) {
    std::istringstream ss(line);
    int n;
    char comma;
    unsigned long long count;
    ss >> n >> comma >> count;
    known[n] = count;
  }
  for (int n = 1; n <= 12; ++n) {
    SolveResult r = run(problem("nqueens.toml"), "", {"n=" + std::to_string(n)});
    INFO("n = " << n);
    CHECK(r.solutions == known.at(n));
  }
}

TEST_CASE("ATSP optimum equals brute force on random instances", "[e2e][atsp]") {
  for (unsigned seed : {1u, 2u, 3u}) {
    int n = 7 + static_cast<int>(seed % 2);
    Matrix d = random_matrix(n, 1, 50, seed);
    std::string inst = temp_file("atsp" + std::to_string(seed) + ".atsp", tsplib_text(d));
    long long best = brute_force_min(n, true, [&](const std::vector<int>& p) { return tour_cost(d, p); });
    SolveResult r = run(problem("atsp.toml"), inst);
    INFO("seed " << seed);
    REQUIRE(r.found);
    CHECK(r.objective == best);
    CHECK(r.permutation[0] == 0);
    CHECK(tour_cost(d, r.permutation) == best);
  }
}

TEST_CASE("QAP optimum equals brute force with both bounds", "[e2e][qap]") {
  int n = 7;
  Matrix a = random_matrix(n, 0, 9, 11), b = random_matrix(n, 0, 9, 12);
  std::string inst = temp_file("qap7.dat", qaplib_text(a, b));
  long long best = brute_force_min(n, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
  for (const char* lb : {"lb=0", "lb=1"}) {
    SolveResult r = run(problem("qap.toml"), inst, {lb});
    INFO(lb);
    REQUIRE(r.found);
    CHECK(r.objective == best);
    CHECK(qap_cost(a, b, r.permutation) == best);
  }
}

TEST_CASE("QAPLIB nug12 has optimum 578", "[e2e][qap][slow]") {
  SolveResult r = run(problem("qap.toml"), instance("qap/nug12.dat"));
  REQUIRE(r.found);
  CHECK(r.objective == 578);
}

TEST_CASE("a maximisation spec agrees with brute force", "[e2e][maximize]") {
  // Assign position d the value v for weight w[d][v]; maximise the total.
  std::string spec = temp_file("assign_max.toml", R"TOML(
[problem]
name = "assign_max"
goal = "maximize"
size = "n"
[data]
n = "int"
w = "int[n][n]"
[instance]
format = "layout"
read = ["n", "w"]
[state]
total = "int"
[branch]
place = { total = "total + w[d][v]" }
bound = "total + sum(r in d..n: max(c in free: w[r][c]))"
objective = "total"
)TOML");
  int n = 7;
  Matrix w = random_matrix(n, 0, 30, 5);
  std::string data = std::to_string(n) + "\n";
  for (const auto& row : w)
    for (int x : row) data += std::to_string(x) + " ";
  std::string inst = temp_file("assign_max.dat", data);
  long long best = -brute_force_min(n, false, [&](const std::vector<int>& p) {
    long long s = 0;
    for (int i = 0; i < n; ++i) s += w[i][p[i]];
    return -s;
  });
  SolveResult r = run(spec, inst);
  REQUIRE(r.found);
  CHECK(r.objective == best);
}

TEST_CASE("a set's complement stays within 0..size-1", "[e2e][bits]") {
  // ~free holds exactly the d placed values, so every permutation passes the filter:
  // 5! = 120. (When ~ complemented the whole word the count was 0.) `all` in init.
  std::string spec = temp_file("complement.toml", R"TOML(
[problem]
name = "complement"
goal = "count"
size = 5
[state]
seen = { type = "bits", init = "all & ~all" }
[branch]
filter = "popcount(~free) == d && popcount(seen << 4) <= 1"
place = { seen = "seen | bit(v)" }
)TOML");
  SolveResult r = run(spec);
  CHECK(r.solutions == 120);
}
