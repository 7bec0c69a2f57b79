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
  const long long most = 2LL * n + static_cast<long long>(n) * n;  // both placed, width n
  while ((1LL << c.bits) <= most) ++c.bits;
  return c;
}

bool border_code_in_free(int n) { return n + border_code(n).bits <= (n <= 32 ? 32 : 64); }

int border_code_of(int n, const BorderBlock& block, int z, int t) {
  if (z >= 0 && t >= 0) return 2 * n + 1 + (z - block.lo) * block.width + (t - block.lo);
  return border_slot(n, z, t);
}

namespace {
std::vector<BorderMap> border_maps(std::span<const int> group) {
  std::vector<BorderMap> maps;
  for (int code : group) maps.push_back(border_map(code));
  return maps;
}
std::array<int, 4> border_image(const BorderMap& m, int n, const std::array<int, 4>& b) {
  std::array<int, 4> image{};
  for (size_t j = 0; j < 4; ++j) {
    const int x = b[static_cast<size_t>(m.source[j])];
    image[j] = m.reflected[j] ? n - 1 - x : x;
  }
  return image;
}
bool least_under(std::span<const BorderMap> maps, int n, const std::array<int, 4>& b) {
  for (const BorderMap& m : maps)
    if (border_image(m, n, b) < b) return false;
  return true;
}
int fixing_under(std::span<const BorderMap> maps, int n, const std::array<int, 4>& b) {
  int fixing = 0;
  for (const BorderMap& m : maps) fixing += border_image(m, n, b) == b;
  return fixing;
}
}  // namespace

bool border_is_least(std::span<const int> group, int n, const std::array<int, 4>& b) {
  return least_under(border_maps(group), n, b);
}

int border_fixing_count(std::span<const int> group, int n, const std::array<int, 4>& b) {
  return fixing_under(border_maps(group), n, b);
}

bool border_possible(int n, const std::array<int, 4>& b) {
  const std::array<std::array<int, 2>, 4> pairs{{{0, b[0]}, {b[1], 0}, {b[2], n - 1}, {n - 1, b[3]}}};
  for (const auto& x : pairs) {
    if (x[0] < 0 || x[0] >= n || x[1] < 0 || x[1] >= n) return false;
    for (const auto& y : pairs)
      if ((x[0] == y[0]) != (x[1] == y[1])) return false;
  }
  return true;
}

BorderTable border_depth_table(std::span<const int> group, int n) {
  BorderTable table;
  // The first position: a = v, and v = 0 or n-1 places its position.
  for (int v = 0; v < n; ++v) {
    const int last = n == 1 ? v : 0, top = n - 1;  // with n = 1 the border is known
    const std::array<int, 4> lo{v, v == 0 ? 0 : 1, v == top ? 0 : 1, n == 1 ? last : 0};
    const std::array<int, 4> hi{v, v == 0 ? 0 : top, v == top ? 0 : top, n == 1 ? last : top};
    if (border_may_be_least(group, n, lo, hi)) table.root |= 1ull << v;
  }
  const int slots = border_slots(n);
  table.rows.assign(static_cast<size_t>(n * slots), {});
  for (int a = 0; a < n; ++a)
    for (int slot = 0; slot < slots; ++slot) {
      BorderDepths& row = table.rows[static_cast<size_t>(a * slots + slot)];
      if (slot == 2 * n + 1) {  // both placed: a child changes nothing the test reads
        row.other = ~0ull;
        continue;
      }
      const int z = slot >= 1 && slot <= n ? slot - 1 : -1, t = slot > n ? slot - 1 - n : -1;
      for (int d = 1; d < n; ++d) {
        // The child at depth d: a part placed at it is d, one not placed yet lies below.
        auto may = [&](int zl, int zh, int tl, int th) {
          return border_may_be_least(group, n, {a, zl, tl, 0}, {a, zh, th, n - 1});
        };
        const int zl = z >= 0 ? z : std::min(d + 1, n - 1), zh = z >= 0 ? z : n - 1;
        const int tl = t >= 0 ? t : std::min(d + 1, n - 1), th = t >= 0 ? t : n - 1;
        if (d + 1 == n && z < 0 && t < 0) continue;  // n-1 positions placed, 0 and n-1 both free: none
        if (may(zl, zh, tl, th)) row.other |= 1ull << d;
        if (z < 0 && may(d, d, tl, th)) row.zero |= 1ull << d;
        if (t < 0 && may(zl, zh, d, d)) row.top |= 1ull << d;
      }
    }
  // The blocks: the positions the rows let 0 and n-1 take (and position 0 where a is one
  // of them), then the codes' values of w.
  table.blocks.assign(static_cast<size_t>(n), {});
  int base = 0;
  for (int a = 0; a < n; ++a) {
    if (((table.root >> a) & 1) == 0) continue;
    int lo = n, hi = -1;
    auto allow = [&](int pos) {
      lo = std::min(lo, pos);
      hi = std::max(hi, pos);
    };
    if (a == 0 || a == n - 1) allow(0);
    for (int slot = 0; slot < 2 * n + 1; ++slot) {
      const BorderDepths& row = table.rows[static_cast<size_t>(a * slots + slot)];
      for (int d = 1; d < n; ++d)
        if (((row.zero | row.top) >> d) & 1) allow(d);
    }
    BorderBlock& block = table.blocks[static_cast<size_t>(a)];
    block.base = base;
    block.lo = hi >= lo ? lo : 0;
    block.width = hi >= lo ? hi - lo + 1 : 0;
    base += border_block_codes(n, block);
  }
  table.least.assign(static_cast<size_t>(base), 0);
  table.half.assign(static_cast<size_t>(base), 0);
  table.quarter.assign(static_cast<size_t>(base), 0);
  const std::vector<BorderMap> maps = border_maps(group);
  for (int a = 0; a < n; ++a) {
    if (((table.root >> a) & 1) == 0) continue;
    const BorderBlock& block = table.blocks[static_cast<size_t>(a)];
    // Every code's (z, t), -1 where not placed.
    std::vector<std::array<int, 2>> known(static_cast<size_t>(border_block_codes(n, block)), {-1, -1});
    for (int p = 0; p < n; ++p) {
      known[static_cast<size_t>(border_code_of(n, block, p, -1))] = {p, -1};
      known[static_cast<size_t>(border_code_of(n, block, -1, p))] = {-1, p};
    }
    for (int z = block.lo; z < block.lo + block.width; ++z)
      for (int t = block.lo; t < block.lo + block.width; ++t) known[static_cast<size_t>(border_code_of(n, block, z, t))] = {z, t};
    for (size_t c = 0; c < known.size(); ++c) {
      const size_t at = static_cast<size_t>(block.base) + c;
      for (int w = 0; w < n; ++w) {
        // The open ends: w = 0 puts 0 at n-1 (w = n-1, n-1), any other w leaves it anywhere.
        auto ends = [&](int placed, int end) {
          std::vector<int> at_;
          if (placed >= 0) at_.push_back(placed);
          else if (w == end) at_.push_back(n - 1);
          else
            for (int p = 0; p < n; ++p) at_.push_back(p);
          return at_;
        };
        const std::vector<int> zs = ends(known[c][0], 0), ts = ends(known[c][1], n - 1);
        for (int z : zs)
          for (int t : ts) {
            const std::array<int, 4> b{a, z, t, w};
            if (!border_possible(n, b) || !least_under(maps, n, b)) continue;
            table.least[at] |= 1ull << w;
            if (zs.size() == 1 && ts.size() == 1) {
              const int k = __builtin_ctz(static_cast<unsigned>(fixing_under(maps, n, b)));
              if (k & 1) table.half[at] |= 1ull << w;
              if (k & 2) table.quarter[at] |= 1ull << w;
            }
          }
      }
    }
  }
  return table;
}

}  // namespace permjit
