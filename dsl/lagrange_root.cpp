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
  // best bound, and at least an eighth of the bound's magnitude: where a few dear arcs
  // must be in every completion (TSPLIB's p43: the arcs out of a cluster cost 5000, the
  // others 0-446) the medians lie below the start, and a gap of 1 ended the steps there.
  double typical = 0;
  for (size_t a = 0; a < n; ++a) {
    std::vector<int64_t> row;
    for (size_t b = 0; b < n; ++b)
      if (s[a] != t[b]) row.push_back(cost[a][b]);
    if (row.empty()) continue;
    std::nth_element(row.begin(), row.begin() + row.size() / 2, row.end());
    typical += double(row[row.size() / 2]);
  }
  double gap = std::max({1.0, typical - double(best), std::abs(double(best)) / 8});
  std::vector<double> x(best_mu.begin(), best_mu.end());
  std::vector<int64_t> mu = best_mu;
  int stale = 0;
  // Steps without progress before the gap halves. On degenerate forests (ties between
  // identical rows) the bound rises in bursts: with 20, p43's reversed root stopped at
  // 5306, with 100 it reaches 5608 (optimum 5620) in 2000 steps; ftv33-ftv55 and ry48p
  // end within 2 of the same value either way (docs/performance.md, issue 45).
  constexpr int kPatience = 100;
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
