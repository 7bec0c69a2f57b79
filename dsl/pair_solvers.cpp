#include "dsl/pair_solvers.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace permjit {
namespace {

// Weights in 128 bits: a [derived] value may be any int64 until it is checked.
using W = __int128;

// Chu-Liu/Edmonds over the arcs S -> T (min_cost_arborescence's forest), with the arcs it
// chooses recovered level by level: the forest's cost in `total`, and how many of its arcs
// leave each element of S in `deg`. False when S has no root.
bool cheapest_forest(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                     const std::vector<std::vector<int64_t>>& cost, W& total, std::vector<int>& deg) {
  deg.assign(s.size(), 0);
  total = 0;
  // Nodes: 0 stands for every root (S's elements outside T), b + 1 for t[b]. Every arc
  // keeps its index through the contractions, so that the arcs chosen can be expanded
  // back level by level (Chu-Liu/Edmonds with the standard recovery).
  struct Arc {
    size_t from, to;
    W w;
  };
  std::vector<Arc> arcs;
  std::vector<size_t> tail;  // the row of S each arc leaves
  bool rooted = false;
  for (size_t a = 0; a < s.size(); ++a) {
    const auto in_t = std::find(t.begin(), t.end(), s[a]);
    const size_t from = in_t == t.end() ? 0 : size_t(in_t - t.begin()) + 1;
    rooted |= from == 0;
    for (size_t b = 0; b < t.size(); ++b)
      if (from != b + 1) arcs.push_back({from, b + 1, W(cost[a][b])}), tail.push_back(a);
  }
  if (!rooted) return false;
  if (t.empty()) return true;
  struct Level {
    size_t nodes, root;
    std::vector<size_t> in_arc;  // the arc chosen into each node
    std::vector<size_t> id;      // each node's node at the next level
    std::vector<bool> cycle;     // the next level's node is a contracted cycle
    std::vector<size_t> to;      // each arc's head at this level
  };
  std::vector<Level> levels;
  size_t nodes = t.size() + 1, root = 0;
  for (;;) {
    Level l;
    l.nodes = nodes;
    l.root = root;
    l.to.resize(arcs.size());
    for (size_t k = 0; k < arcs.size(); ++k) l.to[k] = arcs[k].to;
    const W none = std::numeric_limits<W>::max();
    std::vector<W> in(nodes, none);
    std::vector<size_t> pre(nodes, 0);
    l.in_arc.assign(nodes, SIZE_MAX);
    for (size_t k = 0; k < arcs.size(); ++k) {
      const Arc& e = arcs[k];
      if (e.from != e.to && e.to != root && e.w < in[e.to]) in[e.to] = e.w, pre[e.to] = e.from, l.in_arc[e.to] = k;
    }
    std::vector<size_t> id(nodes, SIZE_MAX), seen(nodes, SIZE_MAX);
    size_t cycles = 0;
    in[root] = 0;
    for (size_t v = 0; v < nodes; ++v) {
      size_t x = v;
      while (seen[x] != v && id[x] == SIZE_MAX && x != root) seen[x] = v, x = pre[x];
      if (x != root && id[x] == SIZE_MAX) {  // x is on a cycle first met from v
        for (size_t y = pre[x]; y != x; y = pre[y]) id[y] = cycles;
        id[x] = cycles++;
      }
    }
    l.cycle.assign(cycles, true);
    for (size_t v = 0; v < nodes; ++v)
      if (id[v] == SIZE_MAX) id[v] = cycles++, l.cycle.push_back(false);
    l.id = id;
    levels.push_back(std::move(l));
    if (levels.back().cycle.size() == nodes) break;  // no cycle: every node kept
    for (Arc& e : arcs) {
      const size_t to = e.to;
      e.from = id[e.from];
      e.to = id[e.to];
      if (e.from != e.to) e.w -= in[to];
    }
    nodes = cycles;
    root = id[root];
  }
  // Expand: the last level's choices stand; a level below keeps, in each contracted
  // cycle, every member's own arc but the one of the member the cycle's entering arc
  // reaches, which takes that arc.
  std::vector<size_t> chosen = levels.back().in_arc;
  for (size_t lv = levels.size() - 1; lv-- > 0;) {
    const Level& l = levels[lv];
    std::vector<size_t> below(l.nodes, SIZE_MAX);
    for (size_t x = 0; x < l.nodes; ++x) {
      if (x == l.root) continue;
      const size_t up = chosen[l.id[x]];
      below[x] = l.cycle[l.id[x]] && l.to[up] != x ? l.in_arc[x] : up;
    }
    chosen = std::move(below);
  }
  for (size_t v = 1; v <= t.size(); ++v) {
    const size_t k = chosen[v];
    ++deg[tail[k]];
    total += W(cost[tail[k]][levels[0].to[k] - 1]);
  }
  return true;
}

}  // namespace

int64_t min_cost_assignment(const std::vector<std::vector<int64_t>>& cost, std::vector<int64_t>* row_potentials) {
  const size_t na = cost.size(), nb = na ? cost[0].size() : 0;
  if (row_potentials) row_potentials->clear();
  if (na == 0 || nb == 0) return 0;
  const bool flip = na > nb;  // rows are the smaller side
  const size_t rows = flip ? nb : na, cols = flip ? na : nb;
  auto c = [&](size_t r, size_t j) { return flip ? cost[j][r] : cost[r][j]; };
  const W inf = std::numeric_limits<int64_t>::max() * W(4);
  std::vector<W> u(rows + 1), v(cols + 1), minv(cols + 1);
  std::vector<size_t> match(cols + 1), way(cols + 1);
  std::vector<bool> used(cols + 1);
  for (size_t r = 1; r <= rows; ++r) {
    match[0] = r;
    size_t j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), false);
    do {
      used[j0] = true;
      const size_t r0 = match[j0];
      W delta = inf;
      size_t j1 = 0;
      for (size_t j = 1; j <= cols; ++j) {
        if (used[j]) continue;
        const W cur = W(c(r0 - 1, j - 1)) - u[r0] - v[j];
        if (cur < minv[j]) minv[j] = cur, way[j] = j0;
        if (minv[j] < delta) delta = minv[j], j1 = j;
      }
      for (size_t j = 0; j <= cols; ++j) {
        if (used[j]) u[match[j]] += delta, v[j] -= delta;
        else minv[j] -= delta;
      }
      j0 = j1;
    } while (match[j0] != 0);
    do {
      const size_t j1 = way[j0];
      match[j0] = match[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  if (row_potentials && !flip)
    for (size_t r = 1; r <= rows; ++r) row_potentials->push_back(static_cast<int64_t>(u[r]));
  return static_cast<int64_t>(-v[0]);
}

int64_t min_cost_arborescence(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                              const std::vector<std::vector<int64_t>>& cost) {
  W total = 0;
  std::vector<int> deg;
  return cheapest_forest(s, t, cost, total, deg) ? static_cast<int64_t>(total) : 0;
}

bool arborescence_out_degrees(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                              const std::vector<std::vector<int64_t>>& cost, int64_t& total, std::vector<int>& deg) {
  W wide = 0;
  const bool rooted = cheapest_forest(s, t, cost, wide, deg);
  total = static_cast<int64_t>(wide);
  return rooted;
}

int64_t min_scalar_product(std::vector<int64_t> a, std::vector<int64_t> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const size_t m = std::min(a.size(), b.size());
  uint64_t s = 0;  // wraps, as the static evaluator's other sums
  for (size_t t = 0; t < m; ++t) s += static_cast<uint64_t>(a[t]) * static_cast<uint64_t>(b[m - 1 - t]);
  return static_cast<int64_t>(s);
}

}  // namespace permjit
