// The solver behind `assign(i in S, j in T: cost then arborescence [steps K])`
// (docs/spec-language.md, "Additive and Lagrangian bounds"): additive bounding
// (Fischetti and Toth) and, with K > 0, a Lagrangian bound on top of it.
//
// Why it is a bound. The spec's `assign(...)` and `arborescence(...)` each promise that
// every completion of the node is, over the cost matrix, both a perfect matching of A
// and B (each element of A leaves once, each of B is entered once) and a forest of arcs
// A -> B entering each element of B once, rooted at the elements of A outside B. The
// assignment's potentials u (rows) and v (columns) satisfy r = c - u - v >= 0 and
// sum(u) + sum(v) = AP, so a completion P costs AP + r(P), and r(P) is at least the
// cheapest arborescence of r: AP + arb(r) is a bound (additive bounding). For any
// integers pi over A, a completion also costs AP + sum over P of (r + pi[tail]) - sum(pi),
// since it leaves each element of A exactly once: AP + arb(r + pi) - sum(pi) is a bound
// too, whatever pi is (the Lagrangian relaxation of "each element of A leaves once",
// Held-Karp style). pi = 0 is the additive bound; the subgradient steps move pi towards
// arborescences that leave each element once and keep the largest bound met. So the
// steps, their sizes and any overflow clamp change how tight the bound is, never whether
// it is valid.
//
// Why it is a function of the node alone (every skeleton must count the same nodes at a
// fixed incumbent): the assignment is solved from scratch here, not started from a
// parent's (its optimum is unique, its potentials are not), the multipliers start from 0
// at every node, and the steps use integers only (no rounding that could differ between
// the host and the device).
#pragma once

namespace pj {

// The assignment of a square n x n matrix from scratch (assign_min's solver), leaving
// the reduced costs c - low - u - v (all >= 0, at most 2W with W the spread of c) in r
// and the rows' potentials u in row; returns the assignment's cost.
template <class T, int KA, int KB>
PJ_HD T assign_reduced(const T (&c)[KA][KB], int n, T (&r)[KA][KB], T (&row)[KA]) {
  constexpr int K = (KA > KB ? KA : KB) + 1;
  T low = c[0][0];
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) low = c[a][b] < low ? c[a][b] : low;
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);
  auto cost = [&](int row, int j) { return c[row - 1][j - 1] - low; };
  T u[K], v[K];
  int match[K];
  for (int j = 0; j < K; ++j) {
    u[j] = v[j] = T(0);
    match[j] = 0;
  }
  for (int row = 1; row <= n; ++row) augment_row(cost, row, n, inf, u, v, match);
  for (int a = 0; a < n; ++a) {
    row[a] = u[a + 1];
    for (int b = 0; b < n; ++b) r[a][b] = c[a][b] - low - u[a + 1] - v[b + 1];
  }
  return -v[0] + T(n) * low;
}

// The cheapest arborescence of arborescence_min (pair_reductions.h) over the costs
// c[a][b] + pi[a], and which arcs it takes: deg[a] counts the arcs that leave the a-th
// element of A. Returns false when A has no element outside B (no root, no forest).
//
// Chu-Liu/Edmonds on a dense matrix, as arborescence_min, keeping for every entry of the
// (contracted) matrix the original arc it stands for: its row of A (`tail`) and the node
// it enters (`head`, 1 + its column of B). A contracted cycle gets a fresh id, its
// members' ids point to it (`parent`), and each member remembers its arc on the cycle;
// at the end the ids are expanded from the last: a cycle entered at node h keeps every
// member's cycle arc except the one of the member holding h, which takes the arc in.
// O(nb^2) per contraction, O(nb^3) in all.
template <class T, int KA, int KB, int LA, int LB>
PJ_HD bool arborescence_tails(const T (&c)[KA][KB], const T (&pi)[KA], const int (&sa)[LA], int na,
                              const int (&tb)[LB], int nb, T& total, int (&deg)[KA]) {
  static_assert(KA < 256 && KB < 255, "arc ends are kept in bytes");
  constexpr int N = KB + 1, Ids = 2 * N;
  const T inf = T(1) << (8 * int(sizeof(T)) - 2);
  int source[N];    // node b + 1's row of c: the a with sa[a] == tb[b], or -1
  bool root[KA];    // A's a-th element is not in B
  for (int b = 0; b <= nb; ++b) source[b] = -1;
  bool rooted = false;
  T low = inf;
  for (int a = 0; a < na; ++a) {
    int node = 0;
    for (int b = 0; b < nb; ++b) node = sa[a] == tb[b] ? b + 1 : node;
    root[a] = node == 0;
    rooted |= node == 0;
    if (node != 0) source[node] = a;
    deg[a] = 0;
    for (int b = 0; b < nb; ++b) low = node != b + 1 && c[a][b] + pi[a] < low ? c[a][b] + pi[a] : low;
  }
  total = T(0);
  if (!rooted) return false;
  if (nb == 0) return true;
  T w[N][N];
  unsigned char tail[N][N], head[N][N];
  for (int y = 0; y <= nb; ++y) {
    w[0][y] = inf;
    tail[0][y] = 0;
    head[0][y] = static_cast<unsigned char>(y);
  }
  for (int a = 0; a < na; ++a) {  // node 0: every root, each arc from the cheapest
    if (!root[a]) continue;
    for (int b = 0; b < nb; ++b) {
      const T x = c[a][b] + pi[a] - low;
      if (x < w[0][b + 1]) {
        w[0][b + 1] = x;
        tail[0][b + 1] = static_cast<unsigned char>(a);
      }
    }
  }
  for (int x = 1; x <= nb; ++x) {
    const int a = source[x];
    for (int y = 0; y <= nb; ++y) {
      w[x][y] = a >= 0 && y != x && y != 0 ? c[a][y - 1] + pi[a] - low : inf;
      tail[x][y] = static_cast<unsigned char>(a < 0 ? 0 : a);
      head[x][y] = static_cast<unsigned char>(y);
    }
  }
  T in[N];
  int pre[N], id_of[N], mark[N], member[N];
  bool alive[N], on_cycle[N];
  int parent[Ids];
  unsigned char cycle_tail[Ids], cycle_head[Ids], enter_tail[Ids], enter_head[Ids];
  for (int i = 0; i < Ids; ++i) {
    parent[i] = -1;
    cycle_tail[i] = cycle_head[i] = enter_tail[i] = enter_head[i] = 0;
  }
  auto choose_in = [&](int v) {
    T best = inf;
    int from = 0;
    for (int u = 0; u <= nb; ++u) {
      const bool better = alive[u] && u != v && w[u][v] < best;
      best = better ? w[u][v] : best;
      from = better ? u : from;
    }
    in[v] = best;
    pre[v] = from;
  };
  for (int x = 0; x <= nb; ++x) {
    alive[x] = true;
    on_cycle[x] = false;
    id_of[x] = x;
  }
  for (int v = 1; v <= nb; ++v) choose_in(v);
  int next_id = nb + 1;
  for (;;) {
    // A cycle of chosen arcs: walk back from every live node, marking the walk; a walk
    // that meets its own mark has found one (node 0 ends every other walk).
    for (int x = 0; x <= nb; ++x) mark[x] = 0;
    int cycle_at = -1;
    for (int v = 1; v <= nb && cycle_at < 0; ++v) {
      if (!alive[v] || mark[v] != 0) continue;
      int x = v;
      while (x != 0 && mark[x] == 0) {
        mark[x] = v;
        x = pre[x];
      }
      if (x != 0 && mark[x] == v) cycle_at = x;
    }
    if (cycle_at < 0) break;
    const int x = cycle_at, id = next_id++;
    int members = 0, y = x;
    do {
      member[members++] = y;
      on_cycle[y] = true;
      parent[id_of[y]] = id;
      cycle_tail[id_of[y]] = tail[pre[y]][y];
      cycle_head[id_of[y]] = head[pre[y]][y];
      y = pre[y];
    } while (y != x);
    for (int u = 0; u <= nb; ++u) {
      if (!alive[u] || on_cycle[u]) continue;
      T into = inf, out = inf;
      int into_from = x, out_from = x;
      for (int k = 0; k < members; ++k) {
        const int z = member[k];
        const T reduced = w[u][z] < inf ? w[u][z] - in[z] : inf;
        if (reduced < into) into = reduced, into_from = z;
        if (w[z][u] < out) out = w[z][u], out_from = z;
      }
      w[u][x] = into;
      tail[u][x] = tail[u][into_from];
      head[u][x] = head[u][into_from];
      w[x][u] = out;
      tail[x][u] = tail[out_from][u];
      head[x][u] = head[out_from][u];
      if (u != 0 && on_cycle[pre[u]]) pre[u] = x;  // in[u] stays: w[x][u] == in[u]
    }
    for (int k = 0; k < members; ++k) {
      alive[member[k]] = member[k] == x;
      on_cycle[member[k]] = false;
    }
    id_of[x] = id;
    w[x][x] = inf;
    choose_in(x);
  }
  for (int v = 1; v <= nb; ++v) {
    if (!alive[v]) continue;
    enter_tail[id_of[v]] = tail[pre[v]][v];
    enter_head[id_of[v]] = head[pre[v]][v];
  }
  for (int s = next_id - 1; s > nb; --s) {  // expand the cycles, the last contracted first
    int held = enter_head[s];                 // the member that holds the node entered
    while (held >= 0 && parent[held] != s) held = parent[held];
    for (int m = 0; m < s; ++m) {
      if (parent[m] != s) continue;
      enter_tail[m] = m == held ? enter_tail[s] : cycle_tail[m];
      enter_head[m] = m == held ? enter_head[s] : cycle_head[m];
    }
  }
  for (int v = 1; v <= nb; ++v) {
    const int a = enter_tail[v];
    ++deg[a];
    total += c[a][v - 1] + pi[a];
  }
  return true;
}

// assign(i in S, j in T: c then arborescence steps K [from E]): the assignment, plus the
// Lagrangian bound over its reduced costs after K subgradient steps (K = 0: additive
// bounding alone), the largest bound met. la and lb hold the elements' values. Where the
// sides differ in size (no perfect matching) or A has no root, the assignment alone.
//
// `from` (start, one per listed element of A; null: none) gives multipliers mu over the
// costs c themselves (the Held-Karp multipliers of `... multiplier x` in [derived],
// dsl/lagrange_root.hpp), so the steps start at pi = mu + u, u the rows' potentials:
// over r + pi = c + mu - (low + v), whose column terms every forest pays once, the first
// bound is arborescence(c + mu) - sum(mu), the same at every node whatever potentials
// its assignment found. Each start is clamped as the steps' multipliers are. The
// target then starts 1/64 of the best bound above it instead of a quarter: the steps
// begin near an optimum, not at 0.
//
// The step rule (Polyak's, with a target instead of an incumbent, which would make the
// bound depend on the search's timing): the target lies above the best bound by a
// quarter of it, shrinking by a quarter per step; the step moves each multiplier by
// t * (out-degree - 1), t = max(1, (target - bound) / |g|^2). Multipliers stay within
// +-(the largest reduced cost), and a step is at most that long, which keeps every sum
// within the range generator/int_width checks for (every cost and reduced cost within
// 6W, bounds, targets and multiplier sums within 16kW + 4k times the largest cost).
template <class T, int KA, int KB, int LA, int LB>
PJ_HD T assign_then_arborescence(const T (&c)[KA][KB], const int (&la)[LA], int na, const int (&lb)[LB], int nb,
                                 int steps, const T* start = nullptr) {
  if (na != nb || na == 0) return assign_min<T, KA, KB>(c, na, nb);
  T r[KA][KB], u[KA];
  const T ap = assign_reduced(c, na, r, u);
  T top = T(0);
  for (int a = 0; a < na; ++a)
    for (int b = 0; b < nb; ++b) top = r[a][b] > top ? r[a][b] : top;
  T pi[KA];
  int deg[KA];
  for (int a = 0; a < KA; ++a) pi[a] = T(0);
  auto clamp = [&](T x) { return x > top ? top : x < -top ? -top : x; };
  if (start != nullptr)
    for (int a = 0; a < na; ++a) pi[a] = clamp(clamp(start[a]) + u[a]);
  T best = ap;
  T share = start != nullptr ? T(16) : T(256);  // the target's excess over the best bound, in 1/1024ths of it
  for (int k = 0;; ++k) {
    T arb;
    if (!arborescence_tails(r, pi, la, na, lb, nb, arb, deg)) return ap;
    T sum_pi = T(0);
    for (int a = 0; a < na; ++a) sum_pi += pi[a];
#ifdef PJ_TEST_LAGRANGE_DROP_MULTIPLIERS  // a broken bound for tests/e2e: forgets -sum(pi)
    sum_pi = T(0);
#endif
    const T bound = ap + arb - sum_pi;
    best = bound > best ? bound : best;
    if (k == steps) break;
    T norm = T(0);
    for (int a = 0; a < na; ++a) norm += T(deg[a] - 1) * T(deg[a] - 1);
    if (norm == T(0)) break;  // every element leaves once: a completion, bound == its cost
    const T excess = (best > T(0) ? best / T(1024) * share + best % T(1024) * share / T(1024) : T(0)) + T(1);
    T t = (best + excess - bound) / norm;
    t = t < T(1) ? T(1) : t > top ? top : t;  // a longer step is clamped below anyway
    for (int a = 0; a < na; ++a) {
      pi[a] = clamp(pi[a] + t * T(deg[a] - 1));
    }
    share = share * T(3) / T(4);
  }
  return best;
}

}  // namespace pj
