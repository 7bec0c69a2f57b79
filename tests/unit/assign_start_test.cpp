// Under test: pj::assign_min_from (templates/pair_reductions.h), assign() started from
// a parent's solution. Its value must be assign_min's whatever it starts from: the
// parent's solution along chains of ATSP- and QAP-like children, any bytes at all, or
// nothing; and where its ints could leave their range it must solve from scratch.
#include <catch2/catch.hpp>

#include <climits>
#include <cstring>
#include <random>

#include "templates/prelude.h"
#include "templates/pair_reductions.h"

namespace {

constexpr int K = 12;  // element values 0..K-1, as a shape of size 12
using Start = pj::AssignStart<int, K>;

// A problem over the listed rows and columns (element values) of a K x K table.
struct Problem {
  int rows[K + 1], cols[K + 1];
  int n = 0;
  int c[K][K];
  void fill(const int (&table)[K][K]) {
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) c[a][b] = table[rows[a]][cols[b]];
  }
};

int from_scratch(const Problem& p) { return pj::assign_min<int, K, K>(p.c, p.n, p.n); }

int started(const Problem& p, const Start* from, Start* to) {
  return pj::assign_min_from<int, K, K, K + 1, K + 1, K>(p.c, p.n, p.n, p.rows, p.cols, from, to);
}

}  // namespace

TEST_CASE("assign_min_from: a chain of children, each started from its parent, equals assign_min", "[assign]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int table[K][K];
    const int spread = trial % 3 == 0 ? 3 : 1000;  // few distinct costs: many ties
    for (auto& row : table)
      for (int& x : row) x = int(rng() % spread) - (trial % 5 == 0 ? spread / 2 : 0);
    // ATSP's shape: rows {last} + free, columns free + {first}; a child places v.
    Problem p;
    int free[K], nfree = 0, last = 0;
    for (int x = 1; x < K; ++x) free[nfree++] = x;
    Start s[2];
    std::memset(&s, 0, sizeof s);
    const Start* from = nullptr;  // the root: nothing to start from
    for (int depth = 0; nfree > 0; ++depth) {
      p.n = nfree + 1;
      p.rows[0] = last;
      p.cols[nfree] = 0;
      for (int t = 0; t < nfree; ++t) p.rows[t + 1] = p.cols[t] = free[t];
      p.fill(table);
      if (trial % 2) p.c[0][nfree] += 7 * depth;  // a pair whose cost moves (last -> first)
      Start& to = s[depth % 2];
      REQUIRE(started(p, from, &to) == from_scratch(p));
      from = &to;
      const int at = int(rng() % unsigned(nfree));
      last = free[at];
      free[at] = free[--nfree];
    }
  }
}

TEST_CASE("assign_min_from: costs that all move (QAP's Gilmore-Lawler) still give assign_min's value", "[assign]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    Problem p;
    p.n = 1 + int(rng() % K);
    for (int t = 0; t < p.n; ++t) p.rows[t] = p.cols[t] = t;
    int table[K][K];
    for (auto& row : table)
      for (int& x : row) x = int(rng() % 500);
    p.fill(table);
    Start parent, child;
    started(p, nullptr, &parent);
    for (int a = 0; a < p.n; ++a)
      for (int b = 0; b < p.n; ++b) p.c[a][b] += int(rng() % 60);
    CHECK(started(p, &parent, &child) == from_scratch(p));
  }
}

TEST_CASE("assign_min_from: any bytes to start from give assign_min's value", "[assign]") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    Start junk;
    unsigned char* bytes = reinterpret_cast<unsigned char*>(&junk);
    for (size_t i = 0; i < sizeof junk; ++i) bytes[i] = static_cast<unsigned char>(rng());
    Problem p;
    p.n = int(rng() % (K + 1));
    int perm[K];
    for (int x = 0; x < K; ++x) perm[x] = x;
    std::shuffle(perm, perm + K, rng);
    for (int t = 0; t < p.n; ++t) p.rows[t] = perm[t];
    std::shuffle(perm, perm + K, rng);
    for (int t = 0; t < p.n; ++t) p.cols[t] = perm[t];
    for (int a = 0; a < p.n; ++a)
      for (int b = 0; b < p.n; ++b) p.c[a][b] = int(rng() % 100);
    Start out;
    CHECK(started(p, &junk, &out) == from_scratch(p));
    CHECK(started(p, &junk, nullptr) == from_scratch(p));
  }
}

TEST_CASE("assign_min_from: sides of different sizes and costs too spread out are solved from scratch", "[assign]") {
  // Two rows into three columns: assign_min's rule (the smaller side matched fully).
  int c[K][K] = {};
  int rows[K + 1] = {0, 1}, cols[K + 1] = {0, 1, 2};
  c[0][0] = 5, c[0][1] = 1, c[0][2] = 9, c[1][0] = 2, c[1][1] = 3, c[1][2] = 4;
  Start to;
  to.v[0] = 123;
  CHECK(pj::assign_min_from<int, K, K, K + 1, K + 1, K>(c, 2, 3, rows, cols, nullptr, &to) == 3);
  CHECK(to.v[0] == 123);  // left as it was
  // And three rows into two columns (the other side matched fully), against assign_min
  // on random costs of both shapes.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int na = 1 + int(rng() % K), nb = 1 + int(rng() % K);
    int r[K][K];
    for (auto& row : r)
      for (int& x : row) x = int(rng() % 50);
    int all[K + 1];
    for (int x = 0; x <= K; ++x) all[x] = x < K ? x : 0;
    Start out;
    CHECK(pj::assign_min_from<int, K, K, K + 1, K + 1, K>(r, na, nb, all, all, nullptr, &out) ==
          pj::assign_min<int, K, K>(r, na, nb));
  }
  // A spread past 2^30 / (4 (k + 1)): the warm start could overflow 32 bits.
  int d[K][K] = {};
  d[0][0] = 0, d[0][1] = 1 << 27, d[1][0] = 1 << 27, d[1][1] = 5;
  CHECK(pj::assign_min_from<int, K, K, K + 1, K + 1, K>(d, 2, 2, rows, cols, nullptr, &to) == 5);
  CHECK(to.v[0] == 123);
}
