// A group of symmetries of the permutation's matrix ([symmetry] generators,
// docs/spec-language.md "Symmetry"), tested through the border a node carries: the part
// that is the same for every spec. A node keeps what it knows of its permutation's
// border b = (p[0], position of 0, position of n-1, p[n-1]) in `border`, 7 bits a part.
// A child is a candidate while its border can still be the least, lexicographically, of
// its images under the group, whatever the unknown parts become; a leaf counts for the
// size of its border's orbit (the group's order over the elements that fix the border).
// Each orbit of borders is then searched once, below its least member, and every
// solution is counted once: a border's images hold as many solutions as it does.
//
// This part precedes the generated problem source (generator/emit_symmetry.cpp lists it
// in ProblemSource::headers), inside its namespace. What the spec decides is the
// source's `SymmetryGroup`: the group's order (kOrder), the size (kSize) and fixing(lo,
// hi), the elements that fix a border known as intervals (one test per element of the
// group). The functions below name it only as the default of a template argument, so
// that it is looked up where the source calls them, after it is defined; the calls in
// the source (candidates(), place(), leaf_weight()) stay plain calls.
namespace problem {

struct SymmetryGroup;  // generated: kOrder, kSize, fixing(lo, hi)

constexpr int kBorderUnknown = 127;  // a part of the border not known yet
constexpr int kBorderRoot = 127 | 127 << 7 | 127 << 14 | 127 << 21;
PJ_HD int border_part(int b, int j) { return (b >> (7 * j)) & 127; }
// [al, ah] against [bl, bh]: 0 equal (both known), 1 less, 2 greater (for every value of
// each), 3 not decided yet. SymmetryGroup::fixing() chains one per part of the border.
PJ_HD int border_step(int al, int ah, int bl, int bh) {
  return ah < bl ? 1 : al > bh ? 2 : (al == ah && bl == bh) ? 0 : 3;
}
// The orbit's size from SymmetryGroup::fixing() (a stabiliser's order: a power of two
// dividing the group's), 0 for 0.
template <class G = SymmetryGroup>
PJ_HD int border_orbit_size(int fixing) { return fixing ? G::kOrder >> pj::highest(unsigned(fixing)) : 0; }
// SymmetryGroup::fixing() of the child of s (d values placed) that places v (v = -1: a
// value other than 0 and n-1, below the first level and above the last). The positions
// of 0 and n-1 not yet placed lie below the child; p[n-1] is a value free in s.
template <class N, class G = SymmetryGroup>
PJ_HD int child_border_fixing(const N& s, int d, int v) {
  int lo[4], hi[4];
  lo[0] = hi[0] = d == 0 ? v : border_part(s.border, 0);
  const int zero = border_part(s.border, 1), top = border_part(s.border, 2);
  lo[1] = zero != kBorderUnknown ? zero : v == 0 ? d : d + 1;
  hi[1] = zero != kBorderUnknown ? zero : v == 0 ? d : G::kSize - 1;
  lo[2] = top != kBorderUnknown ? top : v == G::kSize - 1 ? d : d + 1;
  hi[2] = top != kBorderUnknown ? top : v == G::kSize - 1 ? d : G::kSize - 1;
  lo[3] = d == G::kSize - 1 ? v : pj::lowest(s.free);
  hi[3] = d == G::kSize - 1 ? v : pj::highest(s.free);
  return G::fixing(lo, hi);
}
// The values of m whose child of s can still be the least of its border's orbit.
template <class N, class Mask, class G = SymmetryGroup>
PJ_HD Mask border_candidates(const N& s, Mask m) {
  const int d = G::kSize - pj::popcount(s.free);
  if (d == 0 || d == G::kSize - 1) {  // the value decides p[0] or p[n-1]: each is tested
    Mask keep = 0;
    for (Mask r = m; r; r &= r - 1)
      if (child_border_fixing<N, G>(s, d, pj::lowest(r))) keep |= r & (~r + 1);
    return keep;
  }
  // Between them, 0 and n-1 each fix a position; every other value leaves the border as is.
  const Mask ends = pj::bit<Mask>(0) | pj::bit<Mask>(G::kSize - 1);
  Mask keep = 0;
  if ((m & ~ends) && child_border_fixing<N, G>(s, d, -1)) keep |= ~ends;
  if ((m & pj::bit<Mask>(0)) && child_border_fixing<N, G>(s, d, 0)) keep |= pj::bit<Mask>(0);
  if ((m & pj::bit<Mask>(G::kSize - 1)) && child_border_fixing<N, G>(s, d, G::kSize - 1)) keep |= pj::bit<Mask>(G::kSize - 1);
  return m & keep;
}
// The border of the child that places v after the d values of p's.
template <class G = SymmetryGroup>
PJ_HD int child_border(int b, int d, int v) {
  if (d == 0) b = (b & ~127) | v;
  if (v == 0) b = (b & ~(127 << 7)) | d << 7;
  if (v == G::kSize - 1) b = (b & ~(127 << 14)) | d << 14;
  if (d == G::kSize - 1) b = (b & ~(127 << 21)) | v << 21;
  return b;
}
// The solutions a leaf counts for: the size of its border's orbit.
template <class N, class G = SymmetryGroup>
PJ_HD int border_leaf_weight(const N& s) {
  int lo[4], hi[4];
  for (int j = 0; j < 4; ++j) lo[j] = hi[j] = border_part(s.border, j);
  return border_orbit_size<G>(G::fixing(lo, hi));
}
// The solutions that the children `leaves` of s count for when they are leaves.
template <class N, class Mask, class G = SymmetryGroup>
PJ_HD unsigned long long border_leaf_children_weight(const N& s, Mask leaves) {
  unsigned long long w = 0;
  for (Mask r = leaves; r; r &= r - 1) w += border_orbit_size<G>(child_border_fixing<N, G>(s, G::kSize - 1, pj::lowest(r)));
  return w;
}

}  // namespace problem
