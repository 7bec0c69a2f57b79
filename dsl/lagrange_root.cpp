#include "dsl/lagrange_root.hpp"
#include "dsl/pair_solvers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace permjit {
namespace {

// The rows' potentials u of an optimal assignment of the square matrix `cost`: with the
// columns' v, cost - u - v >= 0 and sum(u) + sum(v) is the assignment's cost.
std::vector<int64_t> row_potentials(const std::vector<std::vector<int64_t>>& cost) {
  std::vector<int64_t> u;
  min_cost_assignment(cost, &u);
  return u;
}

}  // namespace

bool arborescence_out_degrees(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                              const std::vector<std::vector<int64_t>>& cost, int64_t& total, std::vector<int>& deg) {
  deg.assign(s.size(), 0);
  total = 0;
  // Nodes: 0 stands for every root (S's elements outside T), b + 1 for t[b]. Every arc
  // keeps its index through the contractions, so that the arcs chosen can be expanded
  // back level by level (Chu-Liu/Edmonds with the standard recovery).
  struct Arc {
    size_t from, to;
    int64_t w;
  };
  std::vector<Arc> arcs;
  std::vector<size_t> tail;  // the row of S each arc leaves
  bool rooted = false;
  for (size_t a = 0; a < s.size(); ++a) {
    const auto in_t = std::find(t.begin(), t.end(), s[a]);
    const size_t from = in_t == t.end() ? 0 : size_t(in_t - t.begin()) + 1;
    rooted |= from == 0;
    for (size_t b = 0; b < t.size(); ++b)
      if (from != b + 1) arcs.push_back({from, b + 1, cost[a][b]}), tail.push_back(a);
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
    const int64_t none = std::numeric_limits<int64_t>::max();
    std::vector<int64_t> in(nodes, none);
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
    total += cost[tail[k]][levels[0].to[k] - 1];
  }
  return true;
}

std::vector<int64_t> root_multipliers(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                                      const std::vector<std::vector<int64_t>>& cost, int64_t steps, int64_t& bound) {
  const size_t n = s.size();
  std::vector<int64_t> zero(n, 0);
  bound = 0;
  if (n == 0 || n != t.size()) return zero;
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (const auto& row : cost)
    for (int64_t c : row) lo = std::min(lo, c), hi = std::max(hi, c);
  // The multipliers' reach: twice the largest cost's magnitude (the potentials lie within it).
  const int64_t spread = 2 * std::max(std::abs(lo), std::abs(hi));
  // L(mu) over integer multipliers, and the out-degrees of its forest.
  std::vector<std::vector<int64_t>> shifted(cost);
  std::vector<int> deg;
  auto lagrangian = [&](const std::vector<int64_t>& mu, int64_t& value) {
    int64_t sum = 0;
    for (size_t a = 0; a < n; ++a) {
      sum += mu[a];
      for (size_t b = 0; b < n; ++b) shifted[a][b] = cost[a][b] + mu[a];
    }
    int64_t total = 0;
    if (!arborescence_out_degrees(s, t, shifted, total, deg)) return false;
    value = total - sum;
    return true;
  };
  int64_t best = 0;
  if (!lagrangian(zero, best)) return zero;
  std::vector<int64_t> best_mu = zero;
  std::vector<int64_t> u = row_potentials(cost);
  for (int64_t& x : u) x = std::clamp(-x, -spread, spread);
  int64_t additive = 0;
  if (lagrangian(u, additive) && additive > best) best = additive, best_mu = u;
  // The gap: a completion's likely excess over the start, the sum of the rows' median
  // costs (a random completion's cost, unmoved by a few prohibitive entries) less the
  // best bound; at least 1.
  double typical = 0;
  for (size_t a = 0; a < n; ++a) {
    std::vector<int64_t> row;
    for (size_t b = 0; b < n; ++b)
      if (s[a] != t[b]) row.push_back(cost[a][b]);
    if (row.empty()) continue;
    std::nth_element(row.begin(), row.begin() + row.size() / 2, row.end());
    typical += double(row[row.size() / 2]);
  }
  double gap = std::max(1.0, typical - double(best));
  std::vector<double> x(best_mu.begin(), best_mu.end());
  std::vector<int64_t> mu = best_mu;
  int stale = 0;
  constexpr int kPatience = 20;  // steps without progress before the gap halves
  for (int64_t k = 0; k < steps && gap >= 1.0; ++k) {
    int64_t value = 0;
    lagrangian(mu, value);
    if (value > best) {
      best = value, best_mu = mu, stale = 0;
    } else if (++stale >= kPatience) {
      gap /= 2, stale = 0;
      x.assign(best_mu.begin(), best_mu.end());
      mu = best_mu;
      continue;
    }
    double norm = 0;
    for (int d : deg) norm += double(d - 1) * double(d - 1);
    if (norm == 0) break;  // every element leaves once: the forest is a completion
    const double step = (double(best) + gap - double(value)) / norm;
    for (size_t a = 0; a < n; ++a) {
      x[a] = std::clamp(x[a] + step * double(deg[a] - 1), -double(spread), double(spread));
      mu[a] = std::llround(x[a]);
    }
  }
  bound = best;
  return best_mu;
}

std::vector<int64_t> root_multipliers(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                                      const std::vector<std::vector<int64_t>>& cost, int64_t steps) {
  int64_t bound = 0;
  return root_multipliers(s, t, cost, steps, bound);
}

}  // namespace permjit
