// The solvers behind the spec language's two-set reductions (docs/spec-language.md,
// "Reductions"): `assign(i in S, j in T: c)`, a minimum-cost assignment, and
// `minprod(x in S: a, y in T: b)`, a minimal scalar product. The generator gathers the
// elements and the costs into fixed-size local arrays sized by the shape and calls
// these; the same text compiles for the host and for the device. No recursion, no
// heap. Unlike the rest of the node code their loops have data-dependent trip counts
// (the set sizes, the augmenting paths): a search for a perfect matching cannot be
// straight-line code. Their arrays live in local memory on the GPU.
#pragma once

namespace pj {

// The minimum cost of matching every element of the smaller side to a distinct element
// of the other: c[a][b] is the cost of the a-th element of side A with the b-th of
// side B; `na` and `nb` say how many there are. Shortest augmenting paths with
// potentials (the Hungarian method in Jonker-Volgenant's form), O(k^2 * max(na, nb)).
//
// Costs are shifted by their minimum first, so the solver sees costs in [0, W] with W
// the spread of the entries: then the rows' potentials lie in [0, W], the columns' in
// [-W, 0], every reduced cost in [0, 2W] and the running total -v[0] in [0, k*W]
// (generator/int_width.cpp relies on it), and the "infinite" start of a search is
// never added to anything.
template <class T, int KA, int KB>
PJ_HD T assign_min(const T (&c)[KA][KB], int na, int nb) {
  constexpr int K = (KA > KB ? KA : KB) + 1;  // 1-based, column 0 is the search's root
  const bool flip = na > nb;                  // rows are the smaller side
  const int rows = flip ? nb : na, cols = flip ? na : nb;
  if (rows == 0) return T(0);
  T low = c[0][0];
  for (int a = 0; a < na; ++a)
    for (int b = 0; b < nb; ++b) low = c[a][b] < low ? c[a][b] : low;
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);  // above 2W: int_width keeps 4W inside T
  T u[K], v[K], minv[K];
  int match[K], way[K];  // match[j]: the row on column j (0: none); way: the path back
  bool used[K];
  for (int j = 0; j < K; ++j) {
    u[j] = v[j] = T(0);
    match[j] = way[j] = 0;
  }
  for (int r = 1; r <= rows; ++r) {
    match[0] = r;
    int j0 = 0;
    for (int j = 0; j <= cols; ++j) {
      minv[j] = inf;
      used[j] = false;
    }
    do {  // grow the tree of tight edges until it reaches a free column
      used[j0] = true;
      const int r0 = match[j0];
      T delta = inf;
      int j1 = 0;
      for (int j = 1; j <= cols; ++j) {
        if (used[j]) continue;
        const T cost = (flip ? c[j - 1][r0 - 1] : c[r0 - 1][j - 1]) - low;
        const T cur = cost - u[r0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= cols; ++j) {
        if (used[j]) {
          u[match[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (match[j0] != 0);
    do {  // augment along the path
      const int j1 = way[j0];
      match[j0] = match[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  return -v[0] + T(rows) * low;
}

// Sorts the first n elements of a ascending (insertion sort: n is small).
template <class T, int K>
PJ_HD void sort_prefix(T (&a)[K], int n) {
  for (int i = 1; i < n; ++i) {
    const T x = a[i];
    int j = i - 1;
    for (; j >= 0 && a[j] > x; --j) a[j + 1] = a[j];
    a[j + 1] = x;
  }
}

// The minimal scalar product of two lists already sorted ascending: the m = min(na, nb)
// smallest of each, one ascending against the other descending (the rearrangement
// inequality).
template <class T, int KA, int KB>
PJ_HD T sorted_min_product(const T (&a)[KA], int na, const T (&b)[KB], int nb) {
  const int m = na < nb ? na : nb;
  T s = T(0);
  for (int t = 0; t < m; ++t) s += a[t] * b[m - 1 - t];
  return s;
}

// The same for the first na values of a and the first nb of b, in any order: sorts
// both arrays in place.
template <class T, int KA, int KB>
PJ_HD T min_product(T (&a)[KA], int na, T (&b)[KB], int nb) {
  sort_prefix(a, na);
  sort_prefix(b, nb);
  return sorted_min_product<T>(a, na, b, nb);
}

}  // namespace pj
