// Under test: templates/lagrange_bounds.h, behind `assign(... then arborescence steps K)`.
// arborescence_tails must find arborescence_min's value and report arcs that form such
// a forest at that cost; assign_reduced's reduced costs must price every perfect
// matching exactly (cost = AP + its reduced costs); and assign_then_arborescence must
// lie between the assignment and the cheapest path through the sides, brute-forced, for
// every number of steps, on random matrices with negative costs too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <vector>

#include "templates/prelude.h"
#include "templates/pair_reductions.h"
#include "templates/lagrange_bounds.h"

namespace {

constexpr int K = 9;

struct Sides {
  int sa[K + 1], tb[K + 1];
  int na = 0, nb = 0;
  long long c[K][K];
};

// A random matrix over A = {0..na-1} and B = {offset..offset+nb-1} (element values).
Sides random_sides(std::mt19937& rng, int na, int nb, int offset, int lo, int hi) {
  Sides s;
  s.na = na;
  s.nb = nb;
  for (int a = 0; a < na; ++a) s.sa[a] = a;
  for (int b = 0; b < nb; ++b) s.tb[b] = offset + b;
  std::uniform_int_distribution<int> cost(lo, hi);
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b) s.c[a][b] = cost(rng);
  return s;
}

// The arcs (tail a -> the b-th of B) of a parent choice form a forest rooted outside B.
bool is_forest(const Sides& s, const std::vector<int>& parent_row) {
  for (int start = 0; start < s.nb; ++start) {
    int b = start;
    for (int steps = 0;; ++steps) {
      const int value = s.sa[parent_row[size_t(b)]];
      const int* in_b = std::find(s.tb, s.tb + s.nb, value);
      if (in_b == s.tb + s.nb) break;  // reached a root
      if (steps > s.nb) return false;   // came round
      b = int(in_b - s.tb);
    }
  }
  return true;
}

// The cheapest forest by brute force over every parent choice (arcs a -> b with
// sa[a] != tb[b]); LLONG_MAX when there is none.
long long brute_forest(const Sides& s, const long long (&pi)[K]) {
  std::vector<int> parent(size_t(s.nb), 0);
  long long best = LLONG_MAX;
  for (;;) {
    bool ok = true;
    long long cost = 0;
    for (int b = 0; b < s.nb && ok; ++b) {
      ok = s.sa[parent[size_t(b)]] != s.tb[b];
      cost += s.c[parent[size_t(b)]][b] + pi[parent[size_t(b)]];
    }
    if (ok && is_forest(s, parent)) best = std::min(best, cost);
    int b = 0;
    while (b < s.nb && ++parent[size_t(b)] == s.na) parent[size_t(b++)] = 0;
    if (b == s.nb) break;
  }
  return best;
}


// The cheapest path root -> the x inner elements in some order -> sink, by brute force,
// over sides A = {0 (the root), 1..x} and B = {1..x, x + 1 (the sink)}.
long long cheapest_path(const Sides& s, int x) {
  const int n = x + 1;
  std::vector<int> order(static_cast<size_t>(x));
  for (int k = 0; k < x; ++k) order[size_t(k)] = k + 1;
  long long best = LLONG_MAX;
  do {
    long long cost = 0;
    int from = 0;
    for (int v : order) {
      cost += s.c[from][v - 1];
      from = v;
    }
    best = std::min(best, cost + s.c[from][n - 1]);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}
}  // namespace

TEST_CASE("arborescence_tails finds arborescence_min's value, with multipliers, and arcs that are such a forest",
          "[lagrange]") {
  std::mt19937 rng(7);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int na = 1 + int(rng() % 6), nb = int(rng() % 6), offset = int(rng() % 3);
    const bool negative = trial % 3 == 0;
    Sides s = random_sides(rng, na, nb, offset, negative ? -20 : 0, 40);
    long long pi[K] = {};
    if (trial % 2)
      for (int a = 0; a < K; ++a) pi[a] = int(rng() % 31) - 15;
    long long plus[K][K];
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b) plus[a][b] = s.c[a][b] + pi[a];
    INFO("trial " << trial << ": " << na << " x " << nb << " from " << offset);
    long long total = -1;
    int deg[K];
    const bool rooted = pj::arborescence_tails<long long, K, K>(s.c, pi, s.sa, na, s.tb, nb, total, deg);
    const long long want = pj::arborescence_min<long long, K, K>(plus, s.sa, na, s.tb, nb);
    const long long brute = brute_forest(s, pi);
    if (!rooted) {
      CHECK(want == 0);
      CHECK((nb == 0 || brute == LLONG_MAX));
      continue;
    }
    CHECK(total == want);
    if (nb > 0) CHECK(total == brute);
    int arcs = 0;
    for (int a = 0; a < na; ++a) arcs += deg[a];
    CHECK(arcs == nb);
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE("assign_reduced prices every perfect matching as the assignment plus its reduced costs", "[lagrange]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + int(rng() % 6);
    Sides s = random_sides(rng, n, n, 0, trial % 2 ? -30 : 0, 50);
    long long r[K][K], u[K];
    const long long ap = pj::assign_reduced<long long, K, K>(s.c, n, r, u);
    CHECK(ap == pj::assign_min<long long, K, K>(s.c, n, n));
    std::vector<int> p(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) p[size_t(k)] = k;
    do {
      long long cost = 0, reduced = 0;
      for (int a = 0; a < n; ++a) {
        cost += s.c[a][p[size_t(a)]];
        reduced += r[a][p[size_t(a)]];
        CHECK(r[a][p[size_t(a)]] >= 0);
      }
      CHECK(cost == ap + reduced);
      long long columns = 0;  // the rows' potentials are u: c - r - u is the columns' alone
      for (int b = 0; b < n; ++b) columns = b == 0 ? s.c[0][0] - r[0][0] - u[0] : columns;
      for (int a = 0; a < n; ++a) CHECK(s.c[a][0] - r[a][0] - u[a] == columns);
    } while (std::next_permutation(p.begin(), p.end()));
  }
}

TEST_CASE("assign_then_arborescence lies between the assignment and the cheapest path, at every step count",
          "[lagrange]") {
  // A = {root} + X, B = X + {sink}: the structures that are both a perfect matching and
  // a forest rooted at `root` are the paths root -> X in some order -> sink.
  std::mt19937 rng(13);
  int tighter = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int x = int(rng() % 6);
    const int n = x + 1;  // |A| = |B|
    Sides s = random_sides(rng, n, n, 1, trial % 4 == 0 ? -25 : 0, 60);
    const long long best = cheapest_path(s, x);
    const long long ap = pj::assign_min<long long, K, K>(s.c, n, n);
    INFO("trial " << trial << ", " << x << " inner elements, path " << best << ", assignment " << ap);
    long long previous = LLONG_MIN;
    for (int steps : {0, 1, 3, 10, 40}) {
      const long long b = pj::assign_then_arborescence<long long, K, K>(s.c, s.sa, n, s.tb, n, steps);
      INFO(steps << " steps: " << b);
      CHECK(b >= ap);
      CHECK(b <= best);
      CHECK(b >= previous);  // the largest bound met, and the steps' path is the same
      previous = b;
    }
    tighter += previous > ap;
  }
  CHECK(tighter > 20);  // the steps do tighten the assignment on these matrices
}

TEST_CASE("assign_then_arborescence is the assignment where the sides differ in size", "[lagrange]") {
  std::mt19937 rng(17);
  Sides s = random_sides(rng, 4, 6, 2, 0, 30);
  CHECK(pj::assign_then_arborescence<long long, K, K>(s.c, s.sa, 4, s.tb, 6, 5) ==
        pj::assign_min<long long, K, K>(s.c, 4, 6));
}

// `... from E` (templates/lagrange_bounds.h): any start multipliers give a bound between
// the assignment and the cheapest path, however large (they are clamped); and a start
// of Held-Karp multipliers mu over the costs gives, before any step, exactly
// arborescence(c + mu) - sum(mu) where that passes the assignment, whatever potentials
// the assignment found (the start is mu + u).
TEST_CASE("assign_then_arborescence from any start multipliers stays a bound, and starts at their Held-Karp value",
          "[lagrange]") {
  std::mt19937 rng(19);
  int above = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int x = int(rng() % 6);
    const int n = x + 1;
    Sides s = random_sides(rng, n, n, 1, trial % 4 == 0 ? -25 : 0, 60);
    const long long best = cheapest_path(s, x);
    const long long ap = pj::assign_min<long long, K, K>(s.c, n, n);
    // Far outside the clamp; or near -u, the rows' potentials (where the Held-Karp value
    // is the additive bound, above the assignment), moved a little.
    long long start[K], r0[K][K], u0[K] = {};
    pj::assign_reduced<long long, K, K>(s.c, n, r0, u0);
    const int scale = trial % 3 == 0 ? 1000000 : 3;
    for (int a = 0; a < K; ++a) start[a] = int(rng() % (2 * scale + 1)) - scale - (scale == 3 ? u0[a] : 0);
    INFO("trial " << trial << ", path " << best << ", assignment " << ap);
    for (int steps : {0, 1, 5, 30}) {
      const long long b = pj::assign_then_arborescence<long long, K, K>(s.c, s.sa, n, s.tb, n, steps, start);
      INFO(steps << " steps: " << b);
      CHECK(b >= ap);
      CHECK(b <= best);
    }
    if (scale == 1000000) continue;
    long long shifted[K][K], zero[K] = {}, total = 0;
    int deg[K];
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b) shifted[a][b] = s.c[a][b] + start[a];
    long long sum = 0;
    for (int a = 0; a < n; ++a) sum += start[a];
    REQUIRE(pj::arborescence_tails(shifted, zero, s.sa, n, s.tb, n, total, deg));
    const long long held_karp = total - sum;
    // Within the clamp (the reduced costs' largest entry) the start is taken as given.
    long long r[K][K], u[K], top = 0;
    pj::assign_reduced<long long, K, K>(s.c, n, r, u);
    bool clamped = false;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) top = std::max(top, r[a][b]);
    for (int a = 0; a < n; ++a) clamped |= std::abs(start[a]) > top || std::abs(start[a] + u[a]) > top;
    if (clamped) continue;
    CHECK(pj::assign_then_arborescence<long long, K, K>(s.c, s.sa, n, s.tb, n, 0, start) == std::max(ap, held_karp));
    above += held_karp > ap;
  }
  CHECK(above > 5);
}
