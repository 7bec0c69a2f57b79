// The solvers behind the spec language's two-set reductions (docs/spec-language.md,
// "Reductions"): `assign(i in S, j in T: c)`, a minimum-cost assignment,
// `arborescence(i in S, j in T: c)`, a minimum-cost forest entering every element of T,
// and `minprod(x in S: a, y in T: b)`, a minimal scalar product. The generator gathers the
// elements and the costs into fixed-size local arrays sized by the shape and calls
// these; the same text compiles for the host and for the device. No recursion, no
// heap. Unlike the rest of the node code their loops have data-dependent trip counts
// (the set sizes, the augmenting paths): a search for a perfect matching cannot be
// straight-line code. Their arrays live in local memory on the GPU.
#pragma once

namespace pj {

// One step of the Hungarian method (Jonker-Volgenant's form) for assign_min and
// assign_min_from: matches row r, free, along a shortest augmenting path of reduced
// costs `cost(row, column) - u[row] - v[column]` (1-based; column 0 is the search's
// root), keeping the potentials feasible and the matched pairs tight. `inf` lies above
// every reduced cost. O(cols) per column reached.
template <class T, int K, class Cost>
PJ_HD void augment_row(const Cost& cost, int r, int cols, T inf, T (&u)[K], T (&v)[K], int (&match)[K]) {
  T minv[K];
  int way[K];  // the path back
  bool used[K];
  for (int j = 0; j <= cols; ++j) {  // way[j] is written before a path can reach j
    minv[j] = inf;
    used[j] = false;
  }
  match[0] = r;
  int j0 = 0;
  do {  // grow the tree of tight edges until it reaches a free column
    used[j0] = true;
    const int r0 = match[j0];
    T delta = inf;
    int j1 = 0;
    for (int j = 1; j <= cols; ++j) {
      if (used[j]) continue;
      const T cur = cost(r0, j) - u[r0] - v[j];
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
  auto cost = [&](int r, int j) { return (flip ? c[j - 1][r - 1] : c[r - 1][j - 1]) - low; };
  T u[K], v[K];
  int match[K];  // match[j]: the row on column j (0: none)
  for (int j = 0; j < K; ++j) {
    u[j] = v[j] = T(0);
    match[j] = 0;
  }
  for (int r = 1; r <= rows; ++r) augment_row(cost, r, cols, inf, u, v, match);
  return -v[0] + T(rows) * low;
}

// What a node's assign() hands to its children's (assign_min_from): each column's
// potential and the row matched to it, by element value, against the node's costs less
// their minimum. Any content is a safe start: the solver clamps the potentials and
// keeps a pair only where both elements are present and the pair is tight, so what it
// cannot use costs augmenting paths, never exactness.
template <class T, int K>
struct AssignStart {
  static constexpr unsigned char kNone = 0xff;  // no row on the column (K < 255: sizes up to 128)
  T v[K];
  unsigned char row_on[K];
};

// assign_min started from `from` (a parent's solution, or any content; null: from
// scratch) and leaving its own in `to` (null: not kept); la and lb hold the elements'
// values. A child's problem is its parent's less a row and a column (ATSP), or with
// costs that moved (QAP): the parent's column potentials, with each row's potential the
// largest they allow, keep most matched pairs tight, so a few augmenting paths (O(k^2)
// each) finish it, against k from scratch. The value is the optimum, which is unique:
// the same as assign_min's, bit for bit.
//
// Why the ints stay in range: costs are shifted into [0, W] and the start's column
// potentials clamped into [-W, 0], so each row's potential starts in [0, 2W]. An
// augmenting path is no longer than the direct pair of its free row and a free column
// (at most 2W: free columns keep their potential), so after m paths every potential
// lies within 2(m + 1)W of 0 and every reduced cost too: below the "infinite" while
// 4(k + 1)W is, which is checked here. Where it is not, or where the sides differ in
// size or an element is outside 0..K-1, it solves from scratch exactly as assign_min
// does, with its own cost reads (calling assign_min would put a second solver in the
// module: it doubled NVRTC's time), and leaves `to` as it was (still a safe start).
template <class T, int KA, int KB, int LA, int LB, int K>
PJ_HD T assign_min_from(const T (&c)[KA][KB], int na, int nb, const int (&la)[LA], const int (&lb)[LB],
                        const AssignStart<T, K>* from, AssignStart<T, K>* to) {
  static_assert(K < AssignStart<T, K>::kNone, "row_on holds element values in a byte");
  constexpr int N = (KA > KB ? KA : KB) + 1;  // 1-based, column 0 is the search's root
  const bool flip = na > nb;                  // rows are the smaller side
  const int rows = flip ? nb : na, cols = flip ? na : nb;
  if (rows == 0) return T(0);
  T low = c[0][0], high = c[0][0];
  for (int a = 0; a < na; ++a)
    for (int b = 0; b < nb; ++b) {
      low = c[a][b] < low ? c[a][b] : low;
      high = c[a][b] > high ? c[a][b] : high;
    }
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);  // above 2W: int_width keeps 4W inside T
  const T spread = high - low;
  bool started = na == nb && spread <= inf / (T(4) * T(rows + 1));
  for (int t = 0; started && t < rows; ++t) started = la[t] >= 0 && la[t] < K && lb[t] >= 0 && lb[t] < K;
  // Row r's cost on column j (1-based), one load whichever side the rows are: a select
  // between c[r][j] and c[j][r] loaded both (ftv38 on the H100: 7% slower).
  const T* const c0 = &c[0][0];
  const int row_stride = flip ? 1 : KB, column_stride = flip ? KB : 1;
  auto cost = [&](int r, int j) { return c0[(r - 1) * row_stride + (j - 1) * column_stride] - low; };
  T u[N], v[N];
  int match[N];  // match[j]: the row on column j (0: none)
  bool taken[N];
  for (int j = 0; j < N; ++j) {
    u[j] = v[j] = T(0);
    match[j] = 0;
    taken[j] = false;
  }
  if (started) {
    for (int j = 1; j <= cols; ++j) {
      const T start = from ? from->v[lb[j - 1]] : T(0);
      v[j] = start > T(0) ? T(0) : start < -spread ? -spread : start;
    }
    for (int r = 1; r <= rows; ++r) {  // the largest potential the columns allow: feasible
      T least = inf;
      for (int j = 1; j <= cols; ++j) least = cost(r, j) - v[j] < least ? cost(r, j) - v[j] : least;
      u[r] = least;
    }
  }
  if (started && from) {  // the start's pairs that are here and still tight
    int row_at[K];        // the row (1-based) of an element value, 0: not a row
    for (int x = 0; x < K; ++x) row_at[x] = 0;
    for (int r = 1; r <= rows; ++r) row_at[la[r - 1]] = r;
    for (int j = 1; j <= cols; ++j) {
      const int x = from->row_on[lb[j - 1]];
      const int r = x < K ? row_at[x] : 0;
      if (r == 0 || taken[r] || cost(r, j) - u[r] - v[j] != T(0)) continue;
      match[j] = r;
      taken[r] = true;
    }
  }
  for (int r = 1; r <= rows; ++r)
    if (!taken[r]) augment_row(cost, r, cols, inf, u, v, match);
  T total = T(0);
  for (int j = 1; j <= cols; ++j) total += match[j] != 0 ? cost(match[j], j) : T(0);
  if (started && to) {
    for (int j = 1; j <= cols; ++j) {
      to->v[lb[j - 1]] = v[j];
      to->row_on[lb[j - 1]] = static_cast<unsigned char>(la[match[j] - 1]);
    }
  }
  return total + T(rows) * low;
}

// The minimum cost of entering every element of side B once, from an element of side
// A with another value, without a cycle: a forest whose roots are A's elements that are
// not in B (`arborescence(i in S, j in T: cost)`; c[a][b] is the cost of the arc from
// the a-th element of A, value sa[a], to the b-th of B, value tb[b]). 0 when B is empty
// or when every element of A is in B (no root, so no such forest).
//
// Chu-Liu/Edmonds on a dense matrix over 1 + nb nodes: node 0 stands for all the roots
// (they need no arc in, and the cheapest of their arcs to a node is the one a forest
// would use), node b + 1 for tb[b]. Each node takes its cheapest arc in; a cycle among
// those arcs is contracted into one of its nodes, whose arcs in cost what entering the
// cycle there saves and whose arcs out leave from any member. Only the contracted
// node's arc in must be chosen again: a node entered from a member is entered as cheaply
// from the contracted node. The cycles are found by walking the chosen arcs back from
// each node once, again after a contraction on its walk: O(nb^2) to build and choose,
// O(nb * |cycle|) per contraction.
// Costs are shifted by their minimum, so every weight and reduced weight lies in
// [0, W] and the total in [0, nb * W] (generator/int_width.cpp relies on it).
template <class T, int KA, int KB, int LA, int LB>
PJ_HD T arborescence_min(const T (&c)[KA][KB], const int (&sa)[LA], int na, const int (&tb)[LB], int nb) {
  constexpr int N = KB + 1;
  if (nb == 0) return T(0);
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);  // no arc; above W: int_width keeps 4W inside T
  int source[N];  // node b + 1's row of c: the a with sa[a] == tb[b], or -1; node 0's unused
  int node_of[KA];  // A's a-th element's node: 0 (a root) or b + 1
  for (int b = 0; b < nb; ++b) source[b + 1] = -1;
  bool rooted = false;
  T low = inf;
  for (int a = 0; a < na; ++a) {
    int node = 0;
    for (int b = 0; b < nb; ++b) node = sa[a] == tb[b] ? b + 1 : node;
    rooted |= node == 0;
    node_of[a] = node;
    if (node != 0) source[node] = a;
    for (int b = 0; b < nb; ++b) low = node != b + 1 && c[a][b] < low ? c[a][b] : low;
  }
  if (!rooted) return T(0);
  // w[x][y]: the arc x -> y less `low`, inf where there is none. Row 0: the roots' cheapest.
  T w[N][N];
  for (int y = 0; y <= nb; ++y) w[0][y] = inf;
  for (int a = 0; a < na; ++a) {
    if (node_of[a] != 0) continue;
    for (int b = 0; b < nb; ++b) w[0][b + 1] = c[a][b] - low < w[0][b + 1] ? c[a][b] - low : w[0][b + 1];
  }
  for (int x = 1; x <= nb; ++x) {
    const int a = source[x];
    w[x][0] = inf;
    for (int y = 1; y <= nb; ++y) w[x][y] = a >= 0 && y != x ? c[a][y - 1] - low : inf;
  }
  T in[N], total = T(0);
  int pre[N], seen[N], member[N];
  bool alive[N], on_cycle[N];
  // The cheapest arc into v from a live node (the roots' node reaches every node).
  auto choose_in = [&](int v) {
    T best = inf;
    int from = 0;
    for (int u = 0; u <= nb; ++u) {
      const bool better = alive[u] && w[u][v] < best;  // w[v][v] is inf
      best = better ? w[u][v] : best;
      from = better ? u : from;
    }
    in[v] = best;
    pre[v] = from;
  };
  for (int x = 0; x <= nb; ++x) {
    alive[x] = true;
    on_cycle[x] = false;
    seen[x] = 0;
  }
  for (int v = 1; v <= nb; ++v) {  // every node live: choose_in for all of them, row by row
    in[v] = inf;
    pre[v] = 0;
  }
  for (int u = 0; u <= nb; ++u)
    for (int v = 1; v <= nb; ++v) {
      const bool better = w[u][v] < in[v];
      in[v] = better ? w[u][v] : in[v];
      pre[v] = better ? u : pre[v];
    }
  // seen[x] > 0: x was met by walk number seen[x]; reaches_root: known to lead to node 0.
  bool reaches_root[N];
  for (int x = 0; x <= nb; ++x) reaches_root[x] = x == 0;
  int walk = 0;
  for (int v = 1; v <= nb; ++v) {
    while (alive[v] && !reaches_root[v]) {
      // Follow the chosen arcs back from v until a node known to reach the root, or a
      // node met on this walk: a cycle.
      ++walk;
      int x = v;
      while (!reaches_root[x] && seen[x] != walk) {
        seen[x] = walk;
        x = pre[x];
      }
      if (reaches_root[x]) {
        for (int y = v; !reaches_root[y]; y = pre[y]) reaches_root[y] = true;
        break;
      }
      // Contract the cycle through x into x: an arc into it replaces the arc in of the
      // member it enters (cost less that member's `in`), an arc out leaves from any
      // member. Then walk from v again: the nodes before the cycle now lead to x.
      int members = 0, y = x;
      do {
        member[members++] = y;
        on_cycle[y] = true;
        total += in[y];
        y = pre[y];
      } while (y != x);
      for (int u = 0; u <= nb; ++u) {
        if (!alive[u] || on_cycle[u]) continue;
        T into = inf, out = inf;
        for (int m = 0; m < members; ++m) {
          const int z = member[m];
          const T reduced = w[u][z] < inf ? w[u][z] - in[z] : inf;
          into = reduced < into ? reduced : into;
          out = w[z][u] < out ? w[z][u] : out;
        }
        w[u][x] = into;
        w[x][u] = out;
        if (u != 0 && on_cycle[pre[u]]) pre[u] = x;  // in[u] stays: w[x][u] == in[u]
      }
      for (int m = 0; m < members; ++m) {
        alive[member[m]] = member[m] == x;
        on_cycle[member[m]] = false;
      }
      w[x][x] = inf;
      choose_in(x);
    }
  }
  for (int v = 1; v <= nb; ++v) total += alive[v] ? in[v] : T(0);
  return total + T(nb) * low;
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
