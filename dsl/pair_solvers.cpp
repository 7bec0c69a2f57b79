#include "dsl/pair_solvers.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace permjit {

int64_t min_cost_assignment(const std::vector<std::vector<int64_t>>& cost, std::vector<int64_t>* row_potentials) {
  const size_t na = cost.size(), nb = na ? cost[0].size() : 0;
  if (row_potentials) row_potentials->clear();
  if (na == 0 || nb == 0) return 0;
  const bool flip = na > nb;  // rows are the smaller side
  const size_t rows = flip ? nb : na, cols = flip ? na : nb;
  auto c = [&](size_t r, size_t j) { return flip ? cost[j][r] : cost[r][j]; };
  // Computed in 128 bits: a [derived] value may be any int64 until it is checked.
  using W = __int128;
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
  if (t.empty()) return 0;
  // Nodes: 0 stands for every root (S's elements outside T), b + 1 for t[b]. Arcs as a
  // list, each (from, to, weight); the list shrinks its ends onto contracted cycles.
  using W = __int128;
  struct Arc {
    size_t from, to;
    W w;
  };
  std::vector<Arc> arcs;
  bool rooted = false;
  for (size_t a = 0; a < s.size(); ++a) {
    const auto in_t = std::find(t.begin(), t.end(), s[a]);
    const size_t from = in_t == t.end() ? 0 : size_t(in_t - t.begin()) + 1;
    rooted |= from == 0;
    for (size_t b = 0; b < t.size(); ++b)
      if (from != b + 1) arcs.push_back({from, b + 1, W(cost[a][b])});
  }
  if (!rooted) return 0;
  size_t nodes = t.size() + 1, root = 0;
  W total = 0;
  for (;;) {
    const W none = std::numeric_limits<W>::max();
    std::vector<W> in(nodes, none);
    std::vector<size_t> pre(nodes, 0);
    for (const Arc& e : arcs)
      if (e.from != e.to && e.w < in[e.to]) in[e.to] = e.w, pre[e.to] = e.from;
    // Every node is entered: the root reaches every element of T directly.
    std::vector<size_t> id(nodes, SIZE_MAX), seen(nodes, SIZE_MAX);
    size_t cycles = 0;
    in[root] = 0;
    for (size_t v = 0; v < nodes; ++v) {
      total += in[v];
      size_t x = v;
      while (seen[x] != v && id[x] == SIZE_MAX && x != root) seen[x] = v, x = pre[x];
      if (x != root && id[x] == SIZE_MAX) {  // x is on a cycle first met from v
        for (size_t y = pre[x]; y != x; y = pre[y]) id[y] = cycles;
        id[x] = cycles++;
      }
    }
    if (cycles == 0) break;
    for (size_t v = 0; v < nodes; ++v)
      if (id[v] == SIZE_MAX) id[v] = cycles++;
    for (Arc& e : arcs) {
      const size_t to = e.to;
      e.from = id[e.from];
      e.to = id[e.to];
      if (e.from != e.to) e.w -= in[to];
    }
    nodes = cycles;
    root = id[root];
  }
  return static_cast<int64_t>(total);
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
