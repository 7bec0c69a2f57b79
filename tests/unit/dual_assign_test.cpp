// Under test: dualassign() (templates/pair_dual.h; dsl/parser.cpp, dsl/checker.cpp,
// generator/emit_dual_assign.cpp, generator/int_width.cpp): the solver's bound against
// brute force and against Gilmore-Lawler's on random pair costs, its misuse reported
// at its place, and the generated call.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <numeric>
#include <random>

#include "generator/generate.hpp"
#include "templates/prelude.h"
#include "templates/pair_reductions.h"
#include "templates/pair_dual.h"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

constexpr int K = 9;  // up to 9 elements a side: 9! bijections by brute force

// Costs c[i][j] and pair costs q[i][j][k][l] over m elements; `product` draws them as
// a quadratic assignment's (c the facility's own pair, q = a[i][k] * b[j][l]), which
// Gilmore-Lawler bounds, else any ints.
struct Costs {
  int m = 0;
  long long c[K][K];
  long long q[K][K][K][K];
  long long a[K][K], b[K][K];
};

Costs random_costs(int m, bool product, std::mt19937& rng) {
  Costs x;
  x.m = m;
  std::uniform_int_distribution<int> small(0, 9), any(-30, 60);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      x.a[i][j] = small(rng);
      x.b[i][j] = small(rng);
    }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      x.c[i][j] = product ? x.a[i][i] * x.b[j][j] + any(rng) : any(rng);
      for (int k = 0; k < m; ++k)
        for (int l = 0; l < m; ++l) x.q[i][j][k][l] = product ? x.a[i][k] * x.b[j][l] : any(rng);
    }
  return x;
}

long long brute_force(const Costs& x) {
  std::vector<int> p(x.m);
  std::iota(p.begin(), p.end(), 0);
  long long best = LLONG_MAX;
  do {
    long long s = 0;
    for (int i = 0; i < x.m; ++i) {
      s += x.c[i][p[i]];
      for (int k = 0; k < x.m; ++k)
        if (k != i) s += x.q[i][p[i]][k][p[k]];
    }
    best = std::min(best, s);
  } while (std::next_permutation(p.begin(), p.end()));
  return x.m == 0 ? 0 : best;
}

template <class T>
T bound(const Costs& x, int rounds) {
  static T c[K][K], q[K][K][K][K];  // 52 KiB: off the test's stack
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      c[i][j] = T(x.c[i][j]);
      for (int k = 0; k < K; ++k)
        for (int l = 0; l < K; ++l) q[i][j][k][l] = T(x.q[i][j][k][l]);
    }
  return pj::dual_assign_bound<T, K>(c, q, x.m, rounds);
}

// Gilmore-Lawler's bound of a product-form instance: the costs plus, for i at j, the
// minimal scalar product of a[i][.] off i with b[j][.] off j, then an assignment.
long long gilmore_lawler(const Costs& x) {
  long long g[K][K];
  for (int i = 0; i < x.m; ++i)
    for (int j = 0; j < x.m; ++j) {
      long long ra[K], rb[K];
      int n = 0, nb = 0;
      for (int k = 0; k < x.m; ++k)
        if (k != i) ra[n++] = x.a[i][k];
      for (int l = 0; l < x.m; ++l)
        if (l != j) rb[nb++] = x.b[j][l];
      g[i][j] = x.c[i][j] + pj::min_product<long long>(ra, n, rb, nb);
    }
  return pj::assign_min<long long, K, K>(g, x.m, x.m);
}

}  // namespace

TEST_CASE("dualassign's bound never exceeds the optimum and never falls with more rounds", "[dualassign]") {
  std::mt19937 rng(47);
  for (int trial = 0; trial < 60; ++trial) {
    const int m = 1 + trial % 8;  // 1..8; one 9 below
    const bool product = trial % 2 == 0;
    const Costs x = random_costs(m, product, rng);
    const long long best = brute_force(x);
    INFO("trial " << trial << ", m " << m << (product ? ", product form" : ", any pair costs"));
    long long last = LLONG_MIN;
    for (int rounds : {0, 1, 3, 8}) {
      const long long b = bound<long long>(x, rounds);
      CHECK(b <= best);
      CHECK(b >= last);
      last = b;
      CHECK(bound<int>(x, rounds) == b);  // the same in 32 bits where the values fit
    }
  }
  const Costs nine = random_costs(9, true, rng);
  CHECK(bound<long long>(nine, 4) <= brute_force(nine));
}

TEST_CASE("dualassign's round 0 is Gilmore-Lawler's bound, and every round at least that", "[dualassign]") {
  std::mt19937 rng(48);
  for (int trial = 0; trial < 40; ++trial) {
    const int m = 2 + trial % 7;
    const Costs x = random_costs(m, true, rng);
    const long long gl = gilmore_lawler(x);
    INFO("trial " << trial << ", m " << m);
    CHECK(bound<long long>(x, 0) == gl);
    CHECK(bound<long long>(x, 2) >= gl);
    CHECK(bound<long long>(x, 6) >= gl);
  }
}

TEST_CASE("dualassign of no element is 0, of one its cost, and negative rounds count as none", "[dualassign]") {
  std::mt19937 rng(49);
  Costs x = random_costs(3, false, rng);
  x.m = 0;
  CHECK(bound<long long>(x, 3) == 0);
  x.m = 1;
  CHECK(bound<long long>(x, 3) == x.c[0][0]);
  x.m = 3;
  CHECK(bound<long long>(x, -5) == bound<long long>(x, 0));
}

TEST_CASE("misused dualassign is an error at its place", "[dualassign][errors]") {
  SECTION("in [derived]: a bound computed at each node") {
    auto d = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: 1, k, l: 1, 2)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 6, "dualassign() is a bound computed at each node; it is not available in");
  }
  SECTION("without its pair cost") {
    auto d = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: 1)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 40, "expected ',' before the pair cost's names of dualassign(");
  }
  SECTION("without its rounds") {
    auto d = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: 1, k, l: 1)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 49, "expected ',' before the number of rounds of dualassign(");
  }
  SECTION("the cost cannot see the pair cost's names, the rounds no name of the call") {
    auto d = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: k, k, l: 1, 2)\"\n"));
    REQUIRE(d.error_count() >= 1);
    check_at(d.all()[0], 8, 39, "unknown name 'k'");
    auto e = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: 1, k, l: 1, i)\"\n"));
    REQUIRE(e.error_count() >= 1);
    check_at(e.all()[0], 8, 51, "unknown name 'i'");
  }
  SECTION("a pair cost that is not an int") {
    auto d = spec_errors(spec_with_derived("t = \"dualassign(i in 0..3, j in 0..3: 1, k, l: k == l, 2)\"\n"));
    REQUIRE(d.error_count() >= 1);
    check_at(d.all()[0], 8, 50, "the pair cost of dualassign() must be int, found bool");
  }
  SECTION("the name is reserved") {
    auto d = spec_errors(spec_with_derived("dualassign = \"1\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 1, "'dualassign' is a reserved name");
  }
}

namespace {
std::string sized(int size, const std::string& bound) {
  return "[problem]\nname = \"b\"\ngoal = \"minimize\"\nsize = " + std::to_string(size) +
         "\n[branch]\nobjective = \"0\"\nbound = \"" + bound + "\"\n";  // bound on line 7
}
}  // namespace

TEST_CASE("dualassign's pair table has a size limit, reported at the call", "[dualassign][errors]") {
  const std::string call = "dualassign(i in free, j in free: i, k, l: i * k + j * l, 2)";
  // 24^4 ints (1296 KiB) are allowed; 32^4 (4 MiB) are not.
  CHECK(generate_problem(load_text(sized(24, call))).text.find("pj::dual_assign_bound<int, 24>") != std::string::npos);
  try {
    generate_problem(load_text(sized(32, call)));
    FAIL("no error");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.error_count() == 1);
    check_at(e.diags.all()[0], 7, 10, "needs a pair table of 4096 KiB per node; at most 2048 KiB");
  }
}
