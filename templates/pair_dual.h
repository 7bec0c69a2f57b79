// The solver behind `dualassign(i in S, j in T: cost, k, l: pair cost, rounds)`
// (docs/spec-language.md, "dualassign"): a lower bound on the cheapest bijection p of m
// elements onto m whose cost is sum_i c[i][p(i)] + sum_{i != k} q[i][p(i)][k][p(k)], by
// dual ascent on the level-1 reformulation-linearisation (RLT1) of that problem, in the
// form of Hahn and Grant (1998). Appended after templates/pair_reductions.h, whose
// augment_row it uses; the same text compiles for the host and for the device.
//
// Why any number of rounds gives a valid bound: the procedure only applies equivalent
// transformations, each of which leaves every bijection's cost equal to `bound` plus the
// entries of c and q the bijection uses, and keeps every entry >= 0; so `bound` is at
// most every bijection's cost at every moment. The transformations:
//  - a leader's sub-problem: when p(i) = j, the pairs q[i][j][k][p(k)] (k != i) are an
//    assignment of the other rows onto the other columns, so subtracting that
//    assignment's optimal potentials from q[i][j][.][.] and adding their sum to c[i][j]
//    changes no bijection's cost (Gilmore-Lawler's step, with an exact assignment);
//  - the leaders: the same on c, the sum going to `bound`;
//  - spreading c[i][j] back over the rows k != i of q[i][j] (each row's share is paid
//    exactly once by a bijection with p(i) = j);
//  - balancing a complementary pair: q[i][j][k][l] and q[k][l][i][j] are both paid or
//    both not, so only their sum matters.
// All in integers, in a fixed order: the host and the device compute the same value,
// bit for bit. `bound` never decreases (each leader step adds an optimum over entries
// >= 0), so round 0 alone is Gilmore-Lawler's bound with exact sub-problems, and each
// further round is at least as strong.
#pragma once

namespace pj {

// The optimal assignment of the first m x m entries of `a`, every entry in [0, W], which
// it then reduces by the optimal potentials: every entry stays >= 0 and those of an
// optimal matching become 0. Returns the optimum.
//
// `warm`: started as Jonker and Volgenant do, from the columns' minima, the rows' least
// reduced costs (feasible potentials) and each row matched to a free tight column where
// it has one; a shortest augmenting path then matches each row left. Most rows of a
// matrix reduced in an earlier round find their column at the start. Its ints: a free
// row and a free column keep their starting potentials (in [0, W]), so a path is no
// longer than their direct pair (W), and each of the at most m paths moves a potential
// by at most W: every potential and reduced cost stays within (2m + 2) W, which the
// caller keeps below the "infinite" 2^(bits - 2). Not warm: from zero potentials, whose
// rows stay in [0, W] and columns in [-W, 0] (pair_reductions.h's assign_min), within
// the 4W that generator/int_width.cpp keeps inside T.
template <class T, int N>
PJ_HD T reduce_by_assignment(T (&a)[N][N], int m, bool warm) {
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);
  T u[N + 1], v[N + 1];
  int match[N + 1];
  bool taken[N + 1];
  for (int j = 0; j <= m; ++j) {
    u[j] = v[j] = T(0);
    match[j] = 0;
    taken[j] = false;
  }
  for (int j = 1; warm && j <= m; ++j) {
    T least = a[0][j - 1];
    for (int r = 1; r < m; ++r) least = a[r][j - 1] < least ? a[r][j - 1] : least;
    v[j] = least;
  }
  for (int r = 1; warm && r <= m; ++r) {
    T least = a[r - 1][0] - v[1];
    for (int j = 2; j <= m; ++j) least = a[r - 1][j - 1] - v[j] < least ? a[r - 1][j - 1] - v[j] : least;
    u[r] = least;
    for (int j = 1; j <= m; ++j)
      if (match[j] == 0 && a[r - 1][j - 1] - v[j] == least) {
        match[j] = r;
        taken[r] = true;
        break;
      }
  }
  auto cost = [&](int r, int j) { return a[r - 1][j - 1]; };
  for (int r = 1; r <= m; ++r)
    if (!taken[r]) augment_row(cost, r, m, inf, u, v, match);
  T total = T(0);
  for (int r = 1; r <= m; ++r) total += u[r] + v[r];
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < m; ++j) a[r][j] -= u[r + 1] + v[j + 1];
  return total;
}

// The bound over the first m rows and columns of c (the costs) and q (the pair costs:
// q[i][j][k][l], read only for k != i and l != j), which it overwrites. rounds < 0 counts
// as 0. O(m^5) per round (m^2 assignments of m - 1 rows), O(m^4) to spread and balance.
template <class T, int K>
PJ_HD T dual_assign_bound(T (&c)[K][K], T (&q)[K][K][K][K], int m, int rounds) {
  if (m <= 0) return T(0);
  if (m == 1) return c[0][0];  // one element: no pairs
  // Shifted so that every entry is >= 0: each bijection pays m costs and m (m - 1) pairs.
  T low = c[0][0], low2 = q[0][0][1][1];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      low = c[i][j] < low ? c[i][j] : low;
      for (int k = 0; k < m; ++k)
        for (int l = 0; l < m; ++l)
          if (k != i && l != j) low2 = q[i][j][k][l] < low2 ? q[i][j][k][l] : low2;
    }
  T high = T(0), high2 = T(0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      c[i][j] -= low;
      high = c[i][j] > high ? c[i][j] : high;
      for (int k = 0; k < m; ++k)
        for (int l = 0; l < m; ++l) {
          q[i][j][k][l] -= low2;
          if (k != i && l != j) high2 = q[i][j][k][l] > high2 ? q[i][j][k][l] : high2;
        }
    }
  // Scaled up: spreading divides by m - 1 and balancing by 2, and in units of 1 the
  // remainders stall the ascent (nug12's root: 495 in units of 1, 511 in units of 4096,
  // after 50 rounds). Every entry stays within U = m high + m (m - 1) high2 (the header
  // says why) times the scale; the warm-started solver's values within (2m + 2) times
  // that, below its "infinite" 2^(bits - 2). The scale is the largest power of two up
  // to 4096 that keeps them there; where even 1 does not, the solver starts cold, within
  // the 4U that generator/int_width.cpp keeps inside T.
  const T most = T(1) << (8 * int(sizeof(T)) - 2);
  const T u_max = T(m) * high + T(m) * T(m - 1) * high2;
  const T reach = T(2 * m + 2);
  const bool warm = u_max <= most / reach;
  T scale = T(1);
  while (warm && scale < T(4096) && u_max <= most / (reach * scale * T(2))) scale *= T(2);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      c[i][j] *= scale;
      for (int k = 0; k < m; ++k)
        for (int l = 0; l < m; ++l) q[i][j][k][l] *= scale;
    }
  const T base = T(m) * low + T(m) * T(m - 1) * low2;
  T bound = T(0);  // in units of 1 / scale
  const int last = rounds > 0 ? rounds : 0;
  for (int round = 0; round <= last; ++round) {
    if (round > 0) {
      // Spread each leader over its sub-problem's rows, the remainder to the first ones.
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const T share = c[i][j] / T(m - 1), extra = c[i][j] % T(m - 1);
          c[i][j] = T(0);
          int t = 0;
          for (int k = 0; k < m; ++k) {
            if (k == i) continue;
            const T add = share + (T(t++) < extra ? T(1) : T(0));
            for (int l = 0; l < m; ++l)
              if (l != j) q[i][j][k][l] += add;
          }
        }
      // Balance each complementary pair: half each, the odd unit to the second.
      for (int i = 0; i < m; ++i)
        for (int k = i + 1; k < m; ++k)
          for (int j = 0; j < m; ++j)
            for (int l = 0; l < m; ++l) {
              if (l == j) continue;
              const T sum = q[i][j][k][l] + q[k][l][i][j], half = sum / T(2);
              q[i][j][k][l] = half;
              q[k][l][i][j] = sum - half;
            }
    }
    // Each leader's sub-problem: rows k != i, columns l != j.
    // Each copied into a dense matrix: the solver's loops then read it directly.
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        T sub[K][K];
        for (int r = 0; r + 1 < m; ++r)
          for (int t = 0; t + 1 < m; ++t) sub[r][t] = q[i][j][r < i ? r : r + 1][t < j ? t : t + 1];
        c[i][j] += reduce_by_assignment(sub, m - 1, warm);
        for (int r = 0; r + 1 < m; ++r)
          for (int t = 0; t + 1 < m; ++t) q[i][j][r < i ? r : r + 1][t < j ? t : t + 1] = sub[r][t];
      }
    bound += reduce_by_assignment(c, m, warm);
  }
  // Every bijection's cost, an integer, is at least bound / scale: so at least its ceiling.
  return base + (bound + scale - T(1)) / scale;
}

}  // namespace pj
