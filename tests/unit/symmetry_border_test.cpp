// Under test: the border test of a symmetry group as the generated code runs it --
// templates/symmetry_border.h over the tables of dsl border_depth_table -- against the
// exact test of the complete border (dsl border_is_least, border_fixing_count) on every
// permutation of up to 8 under every subgroup: a permutation is reached, through every
// level, exactly when its border is the least of its orbit, and it counts for the orbit's
// size, whether its leaf is placed (leaf_weight) or counted from its parent
// (leaf_children_weight).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "dsl/symmetry_group.hpp"
#include "templates/prelude.h"
#include "templates/symmetry_border.h"

using namespace permjit;

namespace {
using Mask = unsigned;  // the generated code's below n = 33

struct Node {  // the fields the header reads
  Mask free = 0;
  unsigned border = 0;
  int border_p0 = 0;
  unsigned border_block = 0;
};

// The tables as the generator writes them (generator/emit_symmetry.cpp).
struct Tables {
  std::vector<pj::BorderKinds<Mask>> kinds;
  std::vector<Mask> least;
  std::vector<pj::BorderOrbit<Mask>> orbit;
  std::vector<unsigned> blocks;
  Mask root = 0;
};
Tables tables_of(const BorderTable& t, int n) {
  Tables x;
  for (const BorderDepths& r : t.rows) x.kinds.push_back({Mask(r.other), Mask(r.zero), Mask(r.top)});
  for (size_t i = 0; i < t.least.size(); ++i) {
    x.least.push_back(Mask(t.least[i]));
    x.orbit.push_back({Mask(t.half[i]), Mask(t.quarter[i])});
  }
  for (const BorderBlock& b : t.blocks)
    x.blocks.push_back(pj::border_block(unsigned(b.base), unsigned(b.lo), unsigned(b.width)));
  x.root = Mask(t.root & ((1ull << n) - 1));
  return x;
}

// place() of the generated code: the border's part of it.
template <int kSize>
Node place(const Node& p, int v, const Tables& x) {
  Node c = p;
  const Mask vb = Mask(1) << v;
  const bool root = p.free == (Mask(1) << kSize) - 1;
  c.border_p0 = root ? v : p.border_p0;
  c.border_block = root ? x.blocks[static_cast<size_t>(v)] : p.border_block;
  c.border = pj::border_child<kSize>(p, c.border_block, v, vb);
  c.free = p.free & ~vb;
  return c;
}

template <int kSize>
void check_group(const std::vector<int>& group) {
  constexpr int n = kSize;
  const BorderTable table = border_depth_table(group, n);
  const Tables x = tables_of(table, n);
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  long reached = 0, least = 0, counted = 0, all = 0;
  do {
    ++all;
    const std::array<int, 4> b = permutation_border(p);
    const bool is_least = border_is_least(group, n, b);
    Node s;
    s.free = (Mask(1) << n) - 1;
    bool kept = ((x.root >> p[0]) & 1) != 0;  // the root's test
    for (int d = 0; d < n && kept; ++d) {
      if (d > 0) kept = pj::border_candidates_below_root<kSize>(s, Mask(1) << p[static_cast<size_t>(d)], x.kinds.data(),
                                                                   x.least.data()) != 0;
      if (!kept) break;
      if (d + 1 == n && is_least) {  // the last level counted from the parent's candidates
        const int w = p[static_cast<size_t>(d)];
        CHECK(pj::border_orbit_size(int(group.size()), s.border_block, s.border & pj::kBorderCodeMask, w, x.least.data(),
                                    x.orbit.data()) == int(group.size()) / border_fixing_count(group, n, b));
      }
      s = place<kSize>(s, p[static_cast<size_t>(d)], x);
    }
    INFO("n = " << n << ", group of " << group.size() << ", p = " << ::Catch::Detail::stringify(p));
    CHECK(kept == is_least);  // every level passed exactly when the border is the least
    if (kept) {              // the leaf placed: its code and last value
      const int weight = pj::border_orbit_size(int(group.size()), s.border_block, s.border & pj::kBorderCodeMask,
                                               int(s.border >> pj::kBorderLeafShift), x.least.data(), x.orbit.data());
      CHECK(weight == int(group.size()) / border_fixing_count(group, n, b));
      counted += weight;
    }
    reached += kept;
    least += is_least;
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(reached == least);
  CHECK(counted == all);  // each permutation once, through its orbit's least border
}

template <int kSize>
void check_all_groups() {
  for (int gens = 1; gens < 8; ++gens) {
    std::vector<int> generators;
    for (int code : {kReflectValues, kReversePositions, kInvert})
      if (gens & code) generators.push_back(code);
    check_group<kSize>(symmetry_closure(generators));
  }
}
}  // namespace

TEST_CASE("the border test reaches a permutation exactly when its border is the least, and counts its orbit",
          "[symmetry]") {
  check_all_groups<1>();
  check_all_groups<2>();
  check_all_groups<3>();
  check_all_groups<4>();
  check_all_groups<5>();
  check_all_groups<6>();
  check_all_groups<7>();
  check_all_groups<8>();
}

TEST_CASE("a node's border code is the table's index of its block", "[symmetry]") {
  // The code border_child computes equals dsl border_code_of for the positions placed, and
  // every code of a kept node lies inside its block (a read of the masks stays in it).
  const std::vector<int> group = symmetry_closure(std::vector<int>{kReflectValues, kReversePositions, kInvert});
  constexpr int n = 9;
  const BorderTable table = border_depth_table(group, n);
  const Tables x = tables_of(table, n);
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  long nodes = 0;
  do {
    if (((x.root >> p[0]) & 1) == 0) continue;
    Node s;
    s.free = (Mask(1) << n) - 1;
    int z = -1, t = -1;
    for (int d = 0; d + 1 < n; ++d) {
      if (d > 0 && pj::border_candidates_below_root<n>(s, Mask(1) << p[static_cast<size_t>(d)], x.kinds.data(),
                                                       x.least.data()) == 0)
        break;
      s = place<n>(s, p[static_cast<size_t>(d)], x);
      if (p[static_cast<size_t>(d)] == 0) z = d;
      if (p[static_cast<size_t>(d)] == n - 1) t = d;
      const BorderBlock& block = table.blocks[static_cast<size_t>(p[0])];
      REQUIRE(int(s.border) == border_code_of(n, block, z, t));
      REQUIRE(int(s.border) < border_block_codes(n, block));
      // The device's code, without the host's branch: a value other than 0 and n-1
      // leaves the code as it is.
      for (int v = 1; v + 1 < n; ++v)
        CHECK(pj::border_next_code<n>(s.border, unsigned(d + 1), Mask(1) << v, s.border_block) == s.border);
      ++nodes;
    }
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(nodes > 0);
}
