#include "runtime/ida_split.hpp"

#include <climits>
#include <cmath>
#include <algorithm>
#include <cstring>

namespace permjit {

namespace {
constexpr double kMaxPieces = 16384;  // per root: the split stays a small part of the host's work
constexpr size_t kMaxExpansions = 1 << 16;  // per root

struct Frontier {
  std::vector<unsigned char> nodes;
  std::vector<int> g, last;
  size_t size() const { return g.size(); }
};
}  // namespace

IdaItems split_roots(const IdaModule& module, const PjIdaRoots& roots, int moves, const std::vector<unsigned>& live,
                     const std::vector<double>& expected, double share, int limit, double growth) {
  IdaItems items;
  const int nb = items.node_bytes = roots.node_bytes;
  items.split.next_limit = INT_MAX;
  items.split_expanded.assign(roots.count, 0);
  const auto* root_nodes = static_cast<const unsigned char*>(roots.nodes);
  auto add = [&](unsigned r, const unsigned char* node, int g, int last, double work) {
    items.nodes.insert(items.nodes.end(), node, node + nb);
    items.g.push_back(g);
    items.last.push_back(last);
    items.root.push_back(r);
    items.expected.push_back(work);
  };
  // A piece's expected share of its root: growth^(limit - f), f = g + h.
  std::vector<unsigned char> kids(static_cast<size_t>(moves) * nb);
  std::vector<int> kid_g(moves), kid_last(moves), kid_h(moves);
  struct Piece {
    double weight;
    size_t at;  // into the pool
    bool operator<(const Piece& o) const { return weight < o.weight; }
  };
  Frontier pool;
  std::vector<double> pool_weight;
  std::vector<Piece> heap;
  for (unsigned r : live) {
    const double pieces = std::min(kMaxPieces, std::floor(expected[r] / share));
    if (pieces < 2) {
      add(r, root_nodes + static_cast<size_t>(r) * nb, roots.g[r], roots.last[r], expected[r]);
      continue;
    }
    // Best first: the heaviest piece is expanded until there are enough of them.
    pool.nodes.assign(root_nodes + static_cast<size_t>(r) * nb, root_nodes + static_cast<size_t>(r + 1) * nb);
    pool.g.assign(1, roots.g[r]);
    pool.last.assign(1, roots.last[r]);
    heap.assign(1, Piece{1.0, 0});
    size_t expansions = 0;
    while (!heap.empty() && static_cast<double>(heap.size()) < pieces && expansions < kMaxExpansions) {
      std::pop_heap(heap.begin(), heap.end());
      const Piece p = heap.back();
      heap.pop_back();
      const unsigned long long solutions_before = items.split.solutions;
      const int kept = module.expand(pool.nodes.data() + p.at * nb, pool.g[p.at], pool.last[p.at], limit, kids.data(),
                                     kid_g.data(), kid_last.data(), kid_h.data(), items.split);
      ++items.split_expanded[r];
      ++expansions;
      if (items.split.solutions > solutions_before && items.goal_root < 0) items.goal_root = r;
      for (int k = 0; k < kept; ++k) {
        const int f = kid_g[k] + kid_h[k];
        heap.push_back(Piece{std::pow(growth, static_cast<double>(limit - f)), pool.size()});
        std::push_heap(heap.begin(), heap.end());
        pool.nodes.insert(pool.nodes.end(), kids.begin() + static_cast<size_t>(k) * nb,
                          kids.begin() + static_cast<size_t>(k + 1) * nb);
        pool.g.push_back(kid_g[k]);
        pool.last.push_back(kid_last[k]);
      }
    }
    double total = 0;
    for (const Piece& p : heap) total += p.weight;
    for (const Piece& p : heap)
      add(r, pool.nodes.data() + p.at * nb, pool.g[p.at], pool.last[p.at], expected[r] * p.weight / total);
  }
  return items;
}

}  // namespace permjit
