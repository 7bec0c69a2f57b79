// Factoradic numbers: the work units of the `ivm` skeleton (Carneiro Pessoa et al. 2016 §3.1).
//
// Below the fixed prefix a search has L levels; the leaves of the full permutation tree
// are numbered 0 .. L!-1 by the digits d[0..L-1] of the factorial number system: d[l]
// is the rank, among the values still free at level l, of the value placed there, so
// 0 <= d[l] < L - l and d[l] weighs (L-1-l)!. Explorers own intervals [first, last] of
// these numbers (inclusive ends: every interval, the whole space included, fits L
// digits). L! overflows 64 bits past L = 20, so the arithmetic works digit by digit;
// lengths are doubles, for means and progress only, never for decisions that must be
// exact.
//
// Plain functions over digit arrays: the same code runs in the kernels and on the host
// (initial split, progress, checkpoints, tests).
#pragma once

namespace pj_ivm {

using Digit = unsigned char;

// The base of digit l: how many values are free at level l.
PJ_HD int base_of(int l, int L) { return L - l; }

// -1, 0, 1 as a <, ==, > b.
PJ_HD int compare(const Digit* a, const Digit* b, int L) {
  for (int l = 0; l < L; ++l)
    if (a[l] != b[l]) return a[l] < b[l] ? -1 : 1;
  return 0;
}

PJ_HD bool is_zero_from(const Digit* a, int from, int L) {
  for (int l = from; l < L; ++l)
    if (a[l] != 0) return false;
  return true;
}

// out = a - b (a >= b). out may alias a or b.
PJ_HD void subtract(const Digit* a, const Digit* b, Digit* out, int L) {
  int borrow = 0;
  for (int l = L - 1; l >= 0; --l) {
    int d = int(a[l]) - int(b[l]) - borrow;
    borrow = d < 0;
    out[l] = Digit(d < 0 ? d + base_of(l, L) : d);
  }
}

// out = a + b; the caller knows the sum stays below L!. out may alias a or b.
PJ_HD void add(const Digit* a, const Digit* b, Digit* out, int L) {
  int carry = 0;
  for (int l = L - 1; l >= 0; --l) {
    int s = int(a[l]) + int(b[l]) + carry;
    carry = s >= base_of(l, L);
    out[l] = Digit(carry ? s - base_of(l, L) : s);
  }
}

// a += delta (0 or 1 in practice), or a -= 1 for delta = -1; stays within [0, L!).
PJ_HD void step(Digit* a, int delta, int L) {
  for (int l = L - 1; l >= 0 && delta != 0; --l) {
    int s = int(a[l]) + delta;
    if (s >= base_of(l, L)) {
      a[l] = Digit(s - base_of(l, L));
      delta = 1;
    } else if (s < 0) {
      a[l] = Digit(s + base_of(l, L));
      delta = -1;
    } else {
      a[l] = Digit(s);
      delta = 0;
    }
  }
}

// out = floor(a / 2); returns a mod 2. out may alias a.
PJ_HD int halve(const Digit* a, Digit* out, int L) {
  int rem = 0;
  for (int l = 0; l < L; ++l) {
    int cur = rem * base_of(l, L) + a[l];
    out[l] = Digit(cur / 2);
    rem = cur % 2;
  }
  return rem;
}

// The start of the right half of [first, last] (first < last): mid = first +
// floor(len / 2) with len = last - first + 1, so [first, mid - 1] keeps floor(len / 2)
// leaves and [mid, last] the rest, both at least one. Computed as first + ceil((last -
// first) / 2) so that no intermediate reaches L! (len may equal L!).
PJ_HD void split_half(const Digit* first, const Digit* last, Digit* mid, int L) {
  subtract(last, first, mid, L);
  if (halve(mid, mid, L)) step(mid, 1, L);
  add(first, mid, mid, L);
}

// The value of a, approximately (exact below 2^53).
PJ_HD double value_of(const Digit* a, int L) {
  double v = 0;
  for (int l = 0; l < L; ++l) v = v * base_of(l, L) + a[l];
  return v;
}

// L!, approximately: the number of leaves below the root.
PJ_HD double space_size(int L) {
  double v = 1;
  for (int k = 2; k <= L; ++k) v *= k;
  return v;
}

// floor(i * L! / parts), exactly: the digits of the fraction i / parts in the factorial
// number system, truncated. Used to cut [0, L!) into `parts` near-equal intervals.
PJ_HD void split_point(unsigned long long i, unsigned long long parts, Digit* out, int L) {
  unsigned long long num = i;  // the fraction still to expand is num / parts (< 1)
  for (int l = 0; l < L; ++l) {
    unsigned long long scaled = num * static_cast<unsigned long long>(base_of(l, L));
    out[l] = Digit(scaled / parts);
    num = scaled % parts;
  }
}

// The largest number, L! - 1: every digit at its base minus one.
PJ_HD void set_max(Digit* out, int L) {
  for (int l = 0; l < L; ++l) out[l] = Digit(base_of(l, L) - 1);
}

// The shallowest depth with at least `parts` nodes (L! / (L-d)! of them), at most L:
// where the initial split cuts (part_of).
PJ_HD int split_depth(unsigned long long parts, int L) {
  unsigned long long nodes = 1;
  int d = 0;
  while (d < L && nodes < parts) nodes *= static_cast<unsigned long long>(base_of(d++, L));
  return d;
}

// Rounds a up to the first leaf of a node at depth d (digits d.. zero). False when that
// passes L! - 1 (a stays unchanged then).
PJ_HD bool round_up_to_depth(Digit* a, int d, int L) {
  if (is_zero_from(a, d, L)) return true;
  int l = d - 1;
  while (l >= 0 && a[l] + 1 == base_of(l, L)) --l;
  if (l < 0) return false;
  ++a[l];
  for (int k = l + 1; k < L; ++k) a[k] = 0;
  return true;
}

// Part i of [0, L!) cut into `parts` near-equal intervals that start at nodes of depth
// split_depth(parts): [r(i), r(i+1) - 1] with r(i) = floor(i L! / parts) rounded up to
// such a node's first leaf (and r(parts) = L!). False when it holds no leaf (parts >
// L!, or the rounding passed the end). An explorer that starts at a node's first leaf
// walks down to it without evaluating it (templates/ivm_explorer.h, enter()) and
// evaluates the bounds of the levels above only: cut anywhere, each walked L levels,
// and with an arborescence per bound (br17's default) the first kernel took 2.6 ms.
// Since a depth with at least `parts` nodes has nodes no larger than L! / parts leaves,
// the rounded points stay apart: every part has a leaf while parts <= L!.
PJ_HD bool part_of(unsigned long long i, unsigned long long parts, Digit* first, Digit* last, int L) {
  const int d = split_depth(parts, L);
  split_point(i, parts, first, L);
  if (!round_up_to_depth(first, d, L)) return false;
  if (i + 1 == parts) {
    set_max(last, L);
    return true;
  }
  split_point(i + 1, parts, last, L);
  if (!round_up_to_depth(last, d, L)) {
    set_max(last, L);
    return true;
  }
  if (compare(first, last, L) >= 0) return false;
  step(last, -1, L);
  return true;
}

// last - first + 1, approximately (first <= last), to a double's relative precision
// whatever the interval: the difference is taken digit by digit, from the lowest with its
// borrow, and summed with the digits' weights (digit l weighs (L-1-l)!). As value_of(last)
// - value_of(first), two numbers near L!, it lost every interval under about L! / 2^53
// leaves: with 50 levels (3e64 leaves) every interval below 1e48 -- an explorer's open
// rows 12 levels down or deeper -- read 1, never a victim (pick_victim asks for 2), and
// Taillard's ta042 ran its last 15 of 20 seconds on one explorer, nothing stolen
// (docs/performance.md, "Idle explorers").
PJ_HD double length_of(const Digit* first, const Digit* last, int L) {
  double v = 1.0, weight = 1.0;
  int borrow = 0;
  for (int l = L - 1; l >= 0; --l) {
    int d = int(last[l]) - int(first[l]) - borrow;
    borrow = d < 0;
    if (d < 0) d += base_of(l, L);
    v += d * weight;
    weight *= base_of(l, L);
  }
  return v;
}

}  // namespace pj_ivm
