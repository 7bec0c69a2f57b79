// The border test of a declared symmetry group ([symmetry] generators; docs/decisions.md,
// "Symmetry groups"), the same for every spec that declares one: it precedes the problem
// source in such a spec's units (generator/generate.cpp lists it in
// ProblemSource::headers), and the generated code calls it with its size, its node and
// its tables (generator/emit_symmetry.cpp; dsl/symmetry_group.hpp, BorderTable, computes
// them). A spec without a group has none of it.
//
// A node knows of its permutation's border b = (p[0], position of 0, position of n-1,
// p[n-1]) p[0] (`border_p0`, fixed below the root), its block (`border_block`, fixed too:
// where p[0]'s codes lie) and the code of the positions of 0 and n-1 placed (`border`).
// A child is a candidate while its border can still be the least of its images; a leaf
// counts for the size of its border's orbit. The test is the same few instructions at
// every level below the root: the row of (p[0], slot) gives the depths at which each
// kind of child (placing 0, n-1 or another value) may be placed, and the code's mask the
// values p[n-1] may take, one of which must be free. With one value left that mask is
// the exact test of the complete border, so no level tests apart.
namespace pj {

// The depths (bit d: the child at position d) at which a child of a node with one
// (p[0], slot) may place another value, 0, or n-1 (dsl BorderDepths).
template <class Mask>
struct alignas(4 * sizeof(Mask)) BorderKinds {
  Mask other, zero, top;
};
// A code's orbit exponents: a complete border whose last value is w has an orbit of
// |group| >> (bit w of half + 2 * bit w of quarter) borders.
template <class Mask>
struct alignas(2 * sizeof(Mask)) BorderOrbit {
  Mask half, quarter;
};

// A node's block (dsl BorderBlock): the first of its codes in the masks, the first
// position 0 and n-1 may take, and how many they may take.
PJ_HD constexpr unsigned border_block(unsigned base, unsigned lo, unsigned width) { return base << 13 | lo << 7 | width; }
PJ_HD constexpr unsigned border_block_base(unsigned block) { return block >> 13; }
PJ_HD constexpr unsigned border_block_lo(unsigned block) { return (block >> 7) & 63u; }
PJ_HD constexpr unsigned border_block_width(unsigned block) { return block & 127u; }
// A leaf's `border`: its code in the low bits (so that candidates() of a leaf, which has
// none, reads inside the tables) and its last value in the top six: the complete border.
// Bits that high never reach a stack row (kept above the n values of a 32-bit free word,
// they would be shifted out; a leaf is never kept anyway) nor the tables' indices, so
// where leaves are never placed (ivm counting them from their parent's candidates) the
// compiler drops their computation.
constexpr int kBorderLeafShift = 26;
constexpr unsigned kBorderCodeMask = (1u << kBorderLeafShift) - 1;

// The code after placing the value vb at position d on a node of code c: 1 + z once 0 is
// placed at z, 1 + n + t once n-1 is at t, 2n + 1 + (z - lo) * width + (t - lo) once both
// are; c itself for any other value. Selects, not branches: a warp's lanes place children
// of every kind at once. A child the table cuts may get any code: it is never placed.
template <int kSize, class Mask>
PJ_HD unsigned border_next_code(unsigned c, unsigned d, Mask vb, unsigned block) {
  const unsigned both = 2u * kSize + 1u, lo = border_block_lo(block), width = border_block_width(block);
  const bool zero = (vb & Mask(1)) != 0;
  const unsigned z = zero ? d : c - 1u, t = zero ? c - 1u - kSize : d;  // once both are placed
  const unsigned first = zero ? 1u + d : 1u + kSize + d;               // the first of the two
  const unsigned end = c == 0 ? first : both + (z - lo) * width + (t - lo);
  return (vb & (Mask(1) | pj::bit<Mask>(kSize - 1))) != 0 ? end : c;
}

// The `border` of the child of p that places v (vb: bit(v)): its code, and a leaf's last
// value above it.
template <int kSize, class Node, class Mask>
PJ_HD unsigned border_child(const Node& p, unsigned block, int v, Mask vb) {
  const unsigned leaf = p.free == vb ? unsigned(v) << kBorderLeafShift : 0u;
#if !defined(__CUDA_ARCH__)
  // A host thread predicts a branch (most children place neither end) better than it
  // computes both codes: one thread, no warp to keep together.
  if ((vb & (Mask(1) | pj::bit<Mask>(kSize - 1))) == 0) return leaf | p.border;
#endif
  // The position v takes, from the child's free set (which its candidates count too).
  const unsigned d = unsigned(kSize - 1 - pj::popcount(p.free & ~vb));
  return leaf | border_next_code<kSize>(p.border, d, vb, block);
}

// The values of m whose child of s, not the root, can still be the least of its border's
// orbit: its kind may be placed at its depth, and one of s's free values is a p[n-1] of a
// least border (at the last level, the one left is).
template <int kSize, class Node, class Mask>
PJ_HD Mask border_candidates_below_root(const Node& s, Mask m, const BorderKinds<Mask>* kinds, const Mask* least) {
  const int d = kSize - pj::popcount(s.free), slots = 2 * kSize + 2;
  const unsigned c = s.border & kBorderCodeMask;
  const BorderKinds<Mask> row = kinds[s.border_p0 * slots + int(pj::min(c, 2u * kSize + 1u))];
  const Mask last = least[border_block_base(s.border_block) + c];
  const Mask ends = Mask(1) | pj::bit<Mask>(kSize - 1);
  const Mask keep = (pj::test(row.other, d) ? ~ends : Mask(0)) | (pj::test(row.zero, d) ? Mask(1) : Mask(0)) |
                    (pj::test(row.top, d) ? pj::bit<Mask>(kSize - 1) : Mask(0));
  return (s.free & last) != 0 ? m & keep : Mask(0);
}

// The orbit's size of the complete border of code c (a node's whose one value left is w, or
// a leaf's) in the block `block`, 0 where it is not the least.
template <class Mask>
PJ_HD int border_orbit_size(int order, unsigned block, unsigned c, int w, const Mask* least, const BorderOrbit<Mask>* orbit) {
  const unsigned at = border_block_base(block) + (c & kBorderCodeMask);  // a leaf's value above it
  const BorderOrbit<Mask> o = orbit[at];
  return pj::test(least[at], w) ? order >> (int(pj::test(o.half, w)) + 2 * int(pj::test(o.quarter, w))) : 0;
}

}  // namespace pj
