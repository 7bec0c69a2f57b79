// Under test: dsl/lagrange_root.hpp, the host's multipliers behind
// `assign(... then arborescence steps K multiplier x)`: arborescence_out_degrees finds
// min_cost_arborescence's value with arcs that leave the elements as it counts them, and
// root_multipliers' bound is its multipliers' own Lagrangian value, at least both
// starts (the arborescence, the additive bound), never above the cheapest path
// (brute force), on random matrices with negative costs too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <fstream>
#include <random>

#include "dsl/lagrange_root.hpp"
#include "dsl/pair_solvers.hpp"
#include "test_paths.hpp"

using namespace permjit;

namespace {

using Matrix = std::vector<std::vector<int64_t>>;

Matrix random_costs(std::mt19937& rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> cost(lo, hi);
  Matrix c(n, std::vector<int64_t>(n));
  for (auto& row : c)
    for (auto& x : row) x = cost(rng);
  return c;
}

// The Lagrangian value of mu: arborescence(c + mu[tail]) - sum(mu).
int64_t lagrangian(const std::vector<int64_t>& s, const std::vector<int64_t>& t, Matrix c,
                   const std::vector<int64_t>& mu) {
  int64_t sum = 0;
  for (size_t a = 0; a < s.size(); ++a) {
    sum += mu[a];
    for (auto& x : c[a]) x += mu[a];
  }
  return min_cost_arborescence(s, t, c) - sum;
}

}  // namespace

TEST_CASE("arborescence_out_degrees finds min_cost_arborescence's value, one arc into each element of T",
          "[lagrange]") {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t n = 1 + rng() % 8;
    std::vector<int64_t> s, t;
    for (size_t a = 0; a < n; ++a) s.push_back(int64_t(a));
    for (size_t b = 0; b < n; ++b) t.push_back(int64_t(b) + 1 + (trial % 3 == 0 ? int64_t(rng() % 2) : 0));
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    const Matrix c = random_costs(rng, n, trial % 4 == 0 ? -20 : 0, 40);
    Matrix ct(n, std::vector<int64_t>(t.size()));
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < t.size(); ++b) ct[a][b] = c[a][b];
    int64_t total = 0;
    std::vector<int> deg;
    INFO("trial " << trial);
    REQUIRE(arborescence_out_degrees(s, t, ct, total, deg));
    CHECK(total == min_cost_arborescence(s, t, ct));
    int arcs = 0;
    for (int d : deg) arcs += d;
    CHECK(arcs == int(t.size()));
  }
  std::vector<int64_t> same{0, 1, 2};
  int64_t total = 0;
  std::vector<int> deg;
  CHECK_FALSE(arborescence_out_degrees(same, same, Matrix(3, std::vector<int64_t>(3, 1)), total, deg));  // no root
}

TEST_CASE("root_multipliers' bound is its multipliers' value, past both starts, at most the cheapest path",
          "[lagrange]") {
  std::mt19937 rng(29);
  int tighter = 0;
  for (int trial = 0; trial < 150; ++trial) {
    // A = {0} + X, B = X + {sink}: the forests that are perfect matchings are the paths.
    const size_t x = rng() % 7, n = x + 1;
    std::vector<int64_t> s, t;
    for (size_t a = 0; a < n; ++a) s.push_back(int64_t(a));
    for (size_t b = 1; b <= n; ++b) t.push_back(int64_t(b));
    const Matrix c = random_costs(rng, n, trial % 4 == 0 ? -25 : 0, 60);
    std::vector<size_t> order;
    for (size_t k = 1; k <= x; ++k) order.push_back(k);
    int64_t best = INT64_MAX;
    do {
      int64_t cost = 0;
      size_t from = 0;
      for (size_t v : order) cost += c[from][v - 1], from = v;
      best = std::min(best, cost + c[from][n - 1]);
    } while (std::next_permutation(order.begin(), order.end()));
    const int64_t additive = min_cost_assignment(c);  // the additive bound is at least this
    const int64_t arborescence = min_cost_arborescence(s, t, c);
    INFO("trial " << trial << ", path " << best);
    int64_t previous = INT64_MIN;
    for (int64_t steps : {0, 10, 200}) {
      int64_t bound = 0;
      const std::vector<int64_t> mu = root_multipliers(s, t, c, steps, bound);
      REQUIRE(mu.size() == n);
      CHECK(bound == lagrangian(s, t, c, mu));
      CHECK(bound >= arborescence);
      CHECK(bound >= additive);
      CHECK(bound <= best);
      CHECK(bound >= previous);
      previous = bound;
    }
    tighter += previous > std::max(arborescence, additive);
  }
  CHECK(tighter > 10);
  SECTION("sides of different sizes: all 0") {
    const Matrix c = random_costs(rng, 3, 0, 9);
    CHECK(root_multipliers({0, 1, 2}, {1, 2}, {{1, 2}, {3, 4}, {5, 6}}, 50) == std::vector<int64_t>{0, 0, 0});
  }
}

// TSPLIB's p43, reversed (atsp.toml lb = 9's root): every arc out of the cluster
// {38..42} costs 5008-5160, the others 0-446, so every tour pays one dear arc, and the
// rows' median costs (of the reversed matrix: the columns) lie far below the start's
// bound. A target gap taken from the medians alone (at least 1) ended the steps at
// 5196, and 20 steps of patience at 5306; the optimum is 5620.
TEST_CASE("root_multipliers climbs on p43 reversed, where the rows' medians lie below the start", "[lagrange]") {
  std::ifstream f(permjit::test::instance("atsp/p43.atsp"));
  REQUIRE(f);
  std::string word;
  while (f >> word && word != "EDGE_WEIGHT_SECTION") {
  }
  const size_t n = 43;
  Matrix d(n, std::vector<int64_t>(n));
  for (auto& row : d)
    for (auto& x : row) REQUIRE(f >> x);
  int64_t big = 1;  // atsp.toml's `arc` diagonal: each row's dearest arc, summed
  for (size_t r = 0; r < n; ++r) {
    int64_t m = 0;
    for (size_t k = 0; k < n; ++k) m = r == k ? m : std::max(m, d[k][r]);
    big += m;
  }
  // Element a leaves city a in the reversed graph (enters it on the tour), element b + 1
  // is entered (left on the tour), element n being city 0 again: the path's arc b -> a.
  std::vector<int64_t> s, t;
  Matrix c(n, std::vector<int64_t>(n));
  for (size_t a = 0; a < n; ++a) {
    s.push_back(int64_t(a)), t.push_back(int64_t(a) + 1);
    for (size_t b = 0; b < n; ++b) {
      const size_t j = b + 1 == n ? 0 : b + 1;
      c[a][b] = a == j ? big : d[j][a];
    }
  }
  int64_t start = 0, climbed = 0;
  root_multipliers(s, t, c, 0, start);
  root_multipliers(s, t, c, 2000, climbed);
  INFO("start " << start << ", after 2000 steps " << climbed);
  CHECK(climbed >= 5600);
  CHECK(climbed <= 5620);
}
