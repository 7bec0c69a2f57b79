// Factoradic arithmetic (templates/ivm_interval.h) against plain 64-bit integers, and
// the initial split of the leaves among explorers (part_of, which pj_ivm_init runs).
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "templates/prelude.h"
#include "templates/ivm_interval.h"

namespace {
using Digits = std::vector<unsigned char>;

unsigned long long factorial(int n) {
  unsigned long long f = 1;
  for (int k = 2; k <= n; ++k) f *= static_cast<unsigned long long>(k);
  return f;
}
Digits digits_of(unsigned long long v, int L) {
  Digits d(static_cast<size_t>(L));
  for (int l = L - 1; l >= 0; --l) {
    const unsigned long long base = static_cast<unsigned long long>(L - l);
    d[static_cast<size_t>(l)] = static_cast<unsigned char>(v % base);
    v /= base;
  }
  return d;
}
unsigned long long number_of(const Digits& d) {
  unsigned long long v = 0;
  const int L = static_cast<int>(d.size());
  for (int l = 0; l < L; ++l) v = v * static_cast<unsigned long long>(L - l) + d[static_cast<size_t>(l)];
  return v;
}
}  // namespace

TEST_CASE("factoradic digits round-trip and order like the numbers", "[ivm]") {
  const int L = 6;  // 720 numbers: all of them
  for (unsigned long long a = 0; a < factorial(L); a += 7) {
    Digits da = digits_of(a, L);
    CHECK(number_of(da) == a);
    CHECK(pj_ivm::value_of(da.data(), L) == static_cast<double>(a));
    for (unsigned long long b : {0ull, a / 2, a, a + 1, factorial(L) - 1}) {
      Digits db = digits_of(b, L);
      int expect = a < b ? -1 : (a == b ? 0 : 1);
      CHECK(pj_ivm::compare(da.data(), db.data(), L) == expect);
    }
  }
}

TEST_CASE("factoradic add, subtract, step, halve and split_half", "[ivm]") {
  std::mt19937_64 rng(7);
  for (int L : {1, 2, 5, 12, 20}) {
    const unsigned long long n = factorial(L);
    for (int k = 0; k < 300; ++k) {
      unsigned long long a = rng() % n, b = rng() % n;
      if (a < b) std::swap(a, b);
      Digits da = digits_of(a, L), db = digits_of(b, L), out(static_cast<size_t>(L));
      INFO("L " << L << ", a " << a << ", b " << b);
      pj_ivm::subtract(da.data(), db.data(), out.data(), L);
      CHECK(number_of(out) == a - b);
      pj_ivm::add(out.data(), db.data(), out.data(), L);
      CHECK(number_of(out) == a);
      int odd = pj_ivm::halve(da.data(), out.data(), L);
      CHECK(number_of(out) == a / 2);
      CHECK(odd == static_cast<int>(a % 2));
      if (a + 1 < n) {
        out = da;
        pj_ivm::step(out.data(), 1, L);
        CHECK(number_of(out) == a + 1);
      }
      if (a > 0) {
        out = da;
        pj_ivm::step(out.data(), -1, L);
        CHECK(number_of(out) == a - 1);
      }
      if (b < a) {  // [b, a]: the thief starts at b + floor(len / 2)
        pj_ivm::split_half(db.data(), da.data(), out.data(), L);
        CHECK(number_of(out) == b + (a - b + 1) / 2);
      }
    }
  }
  // The whole space: len = L! itself, which no digit array holds.
  const int L = 20;
  Digits first(L, 0), last(L), mid(L);
  pj_ivm::set_max(last.data(), L);
  pj_ivm::split_half(first.data(), last.data(), mid.data(), L);
  CHECK(number_of(mid) == factorial(L) / 2);
}

TEST_CASE("an interval's length is exact below 2^53 and keeps its precision near L!", "[ivm]") {
  std::mt19937_64 rng(11);
  for (int L : {1, 5, 12, 18}) {  // L! < 2^53: exact
    const unsigned long long n = factorial(L);
    for (int k = 0; k < 300; ++k) {
      unsigned long long a = rng() % n, b = rng() % n;
      if (a < b) std::swap(a, b);
      Digits da = digits_of(a, L), db = digits_of(b, L);
      INFO("L " << L << ", [" << b << ", " << a << "]");
      CHECK(pj_ivm::length_of(db.data(), da.data(), L) == static_cast<double>(a - b + 1));
    }
  }
  // 50 levels, intervals of 1 to 37! leaves placed near the end of 50! (about 3e64): each
  // length to a double's precision. As the difference of the ends' values every one
  // read 1 (ta042: nothing was stolen once the work lay 12 levels down or deeper).
  const int L = 50;
  for (int depth : {49, 40, 30, 20, 13}) {
    Digits last(L), first(L);
    pj_ivm::set_max(last.data(), L);
    first = last;
    // first: last with the digits below `depth` zeroed, so last - first + 1 = (L - depth)!
    double expect = 1;
    for (int l = depth; l < L; ++l) first[static_cast<size_t>(l)] = 0;
    for (int k = 2; k <= L - depth; ++k) expect *= k;
    INFO("an interval of (" << L - depth << ")! leaves");
    CHECK(pj_ivm::length_of(first.data(), last.data(), L) == Approx(expect).epsilon(1e-12));
    CHECK(pj_ivm::length_of(last.data(), last.data(), L) == 1.0);
  }
}

TEST_CASE("split_point is floor(i * L! / parts)", "[ivm]") {
  for (int L : {3, 10, 20}) {
    const unsigned long long n = factorial(L);
    for (unsigned long long parts : {1ull, 3ull, 7ull, 32768ull, 270336ull}) {
      for (unsigned long long i : {0ull, 1ull, parts / 3, parts - 1}) {
        Digits d(static_cast<size_t>(L));
        pj_ivm::split_point(i, parts, d.data(), L);
        const unsigned __int128 expect = static_cast<unsigned __int128>(i) * n / parts;
        CHECK(number_of(d) == static_cast<unsigned long long>(expect));
      }
    }
  }
}

TEST_CASE("the initial split covers every leaf once, in order", "[ivm]") {
  for (auto [T, L] : {std::pair{1ull, 4}, std::pair{5ull, 4}, std::pair{7ull, 4}, std::pair{24ull, 4},
                      std::pair{100ull, 4}, std::pair{1000ull, 9}, std::pair{4096ull, 12}, std::pair{152064ull, 16}}) {
    unsigned long long next = 0, nonempty = 0;
    for (unsigned long long i = 0; i < T; ++i) {
      Digits f(static_cast<size_t>(L)), l(static_cast<size_t>(L));
      INFO("T " << T << ", L " << L << ", explorer " << i);
      if (!pj_ivm::part_of(i, T, f.data(), l.data(), L)) continue;
      ++nonempty;
      CHECK(number_of(f) == next);
      // Each part starts at a node of the split's depth: the digits below it are zero.
      CHECK(pj_ivm::is_zero_from(f.data(), pj_ivm::split_depth(T, L), L));
      CHECK(number_of(l) >= number_of(f));
      next = number_of(l) + 1;
    }
    CHECK(next == factorial(L));
    CHECK(nonempty == std::min<unsigned long long>(T, factorial(L)));
  }
}
