#include "runtime/ida_split.hpp"

#include <climits>
#include <cmath>
#include <cstring>

namespace permjit {

namespace {
constexpr double kMaxPieces = 16384;  // per root: the split stays a small part of the host's work
constexpr int kMaxSplitLevels = 24;

struct Frontier {
  std::vector<unsigned char> nodes;
  std::vector<int> g, last;
  size_t size() const { return g.size(); }
};
}  // namespace

IdaItems split_roots(const IdaModule& module, const PjIdaRoots& roots, int moves, const std::vector<unsigned>& live,
                     const std::vector<double>& expected, double share, int limit) {
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
  std::vector<unsigned char> kids(static_cast<size_t>(moves) * nb);
  std::vector<int> kid_g(moves), kid_last(moves);
  for (unsigned r : live) {
    const double pieces = std::min(kMaxPieces, std::floor(expected[r] / share));
    if (pieces < 2) {
      add(r, root_nodes + static_cast<size_t>(r) * nb, roots.g[r], roots.last[r], expected[r]);
      continue;
    }
    Frontier level;
    level.nodes.assign(root_nodes + static_cast<size_t>(r) * nb, root_nodes + static_cast<size_t>(r + 1) * nb);
    level.g.push_back(roots.g[r]);
    level.last.push_back(roots.last[r]);
    for (int depth = 0; depth < kMaxSplitLevels && level.size() > 0 && level.size() < pieces; ++depth) {
      Frontier next;
      const unsigned long long solutions_before = items.split.solutions;
      for (size_t i = 0; i < level.size(); ++i) {
        int kept = module.expand(level.nodes.data() + i * nb, level.g[i], level.last[i], limit, kids.data(),
                                 kid_g.data(), kid_last.data(), items.split);
        ++items.split_expanded[r];
        next.nodes.insert(next.nodes.end(), kids.begin(), kids.begin() + static_cast<size_t>(kept) * nb);
        next.g.insert(next.g.end(), kid_g.begin(), kid_g.begin() + kept);
        next.last.insert(next.last.end(), kid_last.begin(), kid_last.begin() + kept);
      }
      if (items.split.solutions > solutions_before && items.goal_root < 0) items.goal_root = r;
      level = std::move(next);
    }
    for (size_t i = 0; i < level.size(); ++i)
      add(r, level.nodes.data() + i * nb, level.g[i], level.last[i], expected[r] / static_cast<double>(level.size()));
  }
  return items;
}

}  // namespace permjit
