#include "dsl/symmetry_group.hpp"

#include <algorithm>
#include <set>

namespace permjit {

std::vector<int> apply_symmetry(int code, std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::vector<int> a(p.begin(), p.end()), b(a.size());
  if (code & kInvert) {
    for (int i = 0; i < n; ++i) b[static_cast<size_t>(a[static_cast<size_t>(i)])] = i;
    a = b;
  }
  if (code & kReversePositions) std::reverse(a.begin(), a.end());
  if (code & kReflectValues)
    for (int& x : a) x = n - 1 - x;
  return a;
}

namespace {
// A permutation that no element other than the identity fixes, and on which the eight
// act differently: an element is known by its image of it.
const std::vector<int>& witness() {
  static const std::vector<int> w{1, 3, 0, 4, 2, 6, 5};  // no symmetry of the square fixes it
  return w;
}
int code_of(const std::vector<int>& image) {
  for (int c = 0; c < 8; ++c)
    if (apply_symmetry(c, witness()) == image) return c;
  return -1;  // unreachable: the eight codes are the whole group
}
}  // namespace

std::vector<int> symmetry_closure(std::span<const int> generators) {
  std::set<int> seen{0};
  std::vector<int> todo{0};
  while (!todo.empty()) {
    const int e = todo.back();
    todo.pop_back();
    for (int gen : generators) {
      const int c = code_of(apply_symmetry(gen, apply_symmetry(e, witness())));
      if (seen.insert(c).second) todo.push_back(c);
    }
  }
  return {seen.begin(), seen.end()};
}

std::array<int, 4> permutation_border(std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::array<int, 4> b{p[0], 0, 0, p[static_cast<size_t>(n - 1)]};
  for (int i = 0; i < n; ++i) {
    if (p[static_cast<size_t>(i)] == 0) b[1] = i;
    if (p[static_cast<size_t>(i)] == n - 1) b[2] = i;
  }
  return b;
}

BorderMap border_map(int code) {
  // A permutation of 11 whose border (1, 2, 3, 4) and its reflection (9, 8, 7, 6) are
  // eight different numbers: each number of the image's border names its source.
  const std::vector<int> p{1, 5, 0, 10, 6, 7, 8, 9, 2, 3, 4};
  const std::array<int, 4> b = permutation_border(p), image = permutation_border(apply_symmetry(code, p));
  BorderMap m;
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) {
      if (image[static_cast<size_t>(j)] == b[static_cast<size_t>(k)]) m.source[static_cast<size_t>(j)] = k;
      if (image[static_cast<size_t>(j)] == 10 - b[static_cast<size_t>(k)]) {
        m.source[static_cast<size_t>(j)] = k;
        m.reflected[static_cast<size_t>(j)] = true;
      }
    }
  return m;
}

std::vector<std::vector<int>> border_orbit(std::span<const int> group, std::span<const int> p) {
  std::vector<std::vector<int>> out;
  std::set<std::array<int, 4>> borders;
  for (int g : group) {  // the identity first
    std::vector<int> q = apply_symmetry(g, p);
    if (borders.insert(permutation_border(q)).second) out.push_back(std::move(q));
  }
  return out;
}

namespace {
// [al, ah] against [bl, bh]: 0 equal (both known), 1 less, 2 greater (for every value of
// each), 3 not decided yet.
int border_step(int al, int ah, int bl, int bh) { return ah < bl ? 1 : al > bh ? 2 : (al == ah && bl == bh) ? 0 : 3; }
}  // namespace

bool border_may_be_least(std::span<const int> group, int n, const std::array<int, 4>& lo,
                         const std::array<int, 4>& hi) {
  for (int code : group) {
    if (code == 0) continue;
    const BorderMap m = border_map(code);
    int s = 0;
    for (size_t j = 0; j < 4 && s == 0; ++j) {
      const size_t k = static_cast<size_t>(m.source[j]);
      const int bl = m.reflected[j] ? n - 1 - hi[k] : lo[k], bh = m.reflected[j] ? n - 1 - lo[k] : hi[k];
      s = border_step(lo[j], hi[j], bl, bh);
    }
    if (s == 2) return false;
  }
  return true;
}

int border_slot(int n, int z, int t) {
  if (z >= 0 && t >= 0) return 2 * n + 1;
  if (z >= 0) return 1 + z;
  if (t >= 0) return 1 + n + t;
  return 0;
}

BorderCode border_code(int n) {
  BorderCode c;
  while ((1 << c.pos_bits) < n) ++c.pos_bits;
  const long long most = 2LL * n + 1 + ((static_cast<long long>(n - 1) << c.pos_bits) | (n - 1));
  while ((1LL << c.bits) <= most) ++c.bits;
  return c;
}

bool border_code_in_free(int n) { return n + border_code(n).bits <= (n <= 32 ? 32 : 64); }

BorderTable border_depth_table(std::span<const int> group, int n) {
  BorderTable table;
  // The first position: a = v, and v = 0 or n-1 places its position.
  for (int v = 0; v < n; ++v) {
    const int last = n == 1 ? v : 0, top = n - 1;  // with n = 1 the border is known
    const std::array<int, 4> lo{v, v == 0 ? 0 : 1, v == top ? 0 : 1, n == 1 ? last : 0};
    const std::array<int, 4> hi{v, v == 0 ? 0 : top, v == top ? 0 : top, n == 1 ? last : top};
    if (border_may_be_least(group, n, lo, hi)) table.root |= 1ull << v;
  }
  table.last.assign(static_cast<size_t>(n), 0);
  for (int a = 0; a < n; ++a)
    for (int e = 0; e < n; ++e) {
      bool may = true;
      for (int code : group) {
        const BorderMap m = border_map(code);
        if (code != 0 && m.source[0] == 3) may = may && a <= (m.reflected[0] ? n - 1 - e : e);
      }
      if (may) table.last[static_cast<size_t>(a)] |= 1ull << e;
    }
  const int slots = border_slots(n);
  table.rows.assign(static_cast<size_t>(n * slots), {});
  for (int a = 0; a < n; ++a)
    for (int slot = 0; slot < slots; ++slot) {
      BorderDepths& row = table.rows[static_cast<size_t>(a * slots + slot)];
      if (slot == 2 * n + 1) {  // both placed: a child changes nothing the test reads
        row.other = row.zero = row.top = ~0ull;
        continue;
      }
      const int z = slot >= 1 && slot <= n ? slot - 1 : -1, t = slot > n ? slot - 1 - n : -1;
      for (int d = 1; d + 1 < n; ++d) {
        // The child at depth d: a part placed at it is d, one not placed yet lies below.
        auto may = [&](int zl, int zh, int tl, int th) {
          return border_may_be_least(group, n, {a, zl, tl, 0}, {a, zh, th, n - 1});
        };
        const int zl = z >= 0 ? z : d + 1, zh = z >= 0 ? z : n - 1;
        const int tl = t >= 0 ? t : d + 1, th = t >= 0 ? t : n - 1;
        if (may(zl, zh, tl, th)) row.other |= 1ull << d;
        if (z < 0 && may(d, d, tl, th)) row.zero |= 1ull << d;
        if (t < 0 && may(zl, zh, d, d)) row.top |= 1ull << d;
      }
    }
  return table;
}

}  // namespace permjit
