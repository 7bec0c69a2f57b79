#include "runtime/ida/ida_split.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <thread>

namespace permjit {

namespace {
constexpr double kMaxPieces = 16384;  // per root: the split stays a small part of the host's work
constexpr int kMaxSplitLevels = 24;
constexpr double kPieceCost = 30;  // making a piece against copying a root, in host time (about)

// One level of a root's breadth-first split; each node knows its parent in the level
// above (the moves to a piece are read back from the parents at the end).
struct Level {
  std::vector<unsigned char> nodes;
  std::vector<int> g, last;
  std::vector<unsigned> parent;
  size_t size() const { return g.size(); }
  void clear() {
    nodes.clear();
    g.clear();
    last.clear();
    parent.clear();
  }
};

// The pieces of the live roots [begin, end) into `out` (split_expanded is shared: each
// root is written by one thread).
void split_range(const IdaModule& module, const PjIdaRoots& roots, int moves, const unsigned* begin,
                 const unsigned* end, const std::vector<double>& expected, const std::vector<double>& skew,
                 double share, int limit, IdaItems& out,
                 std::vector<unsigned long long>& split_expanded) {
  const int nb = out.node_bytes = roots.node_bytes;
  out.split.next_limit = INT_MAX;
  const auto* root_nodes = static_cast<const unsigned char*>(roots.nodes);
  auto add = [&](unsigned r, const unsigned char* node, int g, int last, double work) {
    out.nodes.insert(out.nodes.end(), node, node + nb);
    out.g.push_back(g);
    out.last.push_back(last);
    out.root.push_back(r);
    out.expected.push_back(work);
  };
  std::vector<unsigned char> kids(static_cast<size_t>(moves) * nb);
  std::vector<int> kid_g(moves), kid_last(moves), via;
  std::vector<Level> levels(kMaxSplitLevels + 1);  // reused from root to root
  for (const unsigned* it = begin; it != end; ++it) {
    const unsigned r = *it;
    const double pieces = std::min(kMaxPieces, std::floor(expected[r] * skew[r] / share));
    if (pieces < 2) {
      add(r, root_nodes + static_cast<size_t>(r) * nb, roots.g[r], roots.last[r], expected[r]);
      out.via_begin.push_back(static_cast<unsigned>(out.via.size()));
      continue;
    }
    Level& top = levels[0];
    top.clear();
    top.nodes.assign(root_nodes + static_cast<size_t>(r) * nb, root_nodes + static_cast<size_t>(r + 1) * nb);
    top.g.push_back(roots.g[r]);
    top.last.push_back(roots.last[r]);
    top.parent.push_back(0);
    int depth = 0;
    while (depth < kMaxSplitLevels && levels[depth].size() > 0 && levels[depth].size() < pieces) {
      const Level& level = levels[depth];
      Level& next = levels[depth + 1];
      next.clear();
      const unsigned long long solutions_before = out.split.solutions;
      for (size_t i = 0; i < level.size(); ++i) {
        int kept = module.expand(level.nodes.data() + i * nb, level.g[i], level.last[i], limit, kids.data(),
                                 kid_g.data(), kid_last.data(), out.split);
        ++split_expanded[r];
        next.nodes.insert(next.nodes.end(), kids.begin(), kids.begin() + static_cast<size_t>(kept) * nb);
        next.g.insert(next.g.end(), kid_g.begin(), kid_g.begin() + kept);
        next.last.insert(next.last.end(), kid_last.begin(), kid_last.begin() + kept);
        next.parent.insert(next.parent.end(), static_cast<size_t>(kept), static_cast<unsigned>(i));
      }
      if (out.split.solutions > solutions_before && out.goal_root < 0) out.goal_root = r;
      ++depth;
    }
    const Level& last = levels[depth];
    for (size_t i = 0; i < last.size(); ++i) {
      add(r, last.nodes.data() + i * nb, last.g[i], last.last[i], expected[r] / static_cast<double>(last.size()));
      via.assign(static_cast<size_t>(depth), 0);  // the moves from the root: up through the parents
      for (int d = depth, k = static_cast<int>(i); d > 0; k = static_cast<int>(levels[d].parent[k]), --d)
        via[d - 1] = levels[d].last[k];
      out.via.insert(out.via.end(), via.begin(), via.end());
      out.via_begin.push_back(static_cast<unsigned>(out.via.size()));
    }
  }
}
}  // namespace

IdaItems split_roots(const IdaModule& module, const PjIdaRoots& roots, int moves, const std::vector<unsigned>& live,
                     const std::vector<double>& expected, const std::vector<double>& skew, double share,
                     double max_pieces, int limit, int threads) {
  IdaItems items;
  items.node_bytes = roots.node_bytes;
  items.split.next_limit = INT_MAX;
  items.split_expanded.assign(roots.count, 0);
  // Chunks of the live roots, taken by the threads from a counter and joined in order,
  // so that the items stay in root order. A chunk ends where it holds its share of the
  // pieces to make (a root's split is most of the work, and the large roots cluster),
  // so that the threads get about the same work.
  // No more than max_pieces in all: the share grows until they fit.
  double wanted = 0;
  for (unsigned r : live) {
    const double p = std::min(kMaxPieces, std::floor(expected[r] * skew[r] / share));
    if (p >= 2) wanted += p;
  }
  if (wanted > max_pieces) share *= wanted / max_pieces;
  std::vector<double> cost(live.size());
  double total = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    const unsigned r = live[i];
    cost[i] = 1.0 + std::min(kMaxPieces, std::floor(expected[r] * skew[r] / share)) * kPieceCost;
    total += cost[i];
  }
  if (total < 2.0 * static_cast<double>(live.size())) threads = 1;  // little to split: no threads to start
  const size_t want = static_cast<size_t>(std::max(1, threads)) * 8;
  std::vector<size_t> bounds{0};
  double acc = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    acc += cost[i];
    if (acc >= total * static_cast<double>(bounds.size()) / static_cast<double>(want) && i + 1 < live.size())
      bounds.push_back(i + 1);
  }
  bounds.push_back(live.size());
  const size_t chunks = bounds.size() - 1;
  std::vector<IdaItems> part(chunks);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t c; (c = next.fetch_add(1)) < chunks;)
      split_range(module, roots, moves, live.data() + bounds[c], live.data() + bounds[c + 1], expected, skew, share,
                  limit, part[c], items.split_expanded);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && static_cast<size_t>(t) < chunks; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (IdaItems& p : part) {
    items.nodes.insert(items.nodes.end(), p.nodes.begin(), p.nodes.end());
    items.g.insert(items.g.end(), p.g.begin(), p.g.end());
    items.last.insert(items.last.end(), p.last.begin(), p.last.end());
    items.root.insert(items.root.end(), p.root.begin(), p.root.end());
    items.expected.insert(items.expected.end(), p.expected.begin(), p.expected.end());
    const unsigned base = static_cast<unsigned>(items.via.size());
    items.via.insert(items.via.end(), p.via.begin(), p.via.end());
    for (size_t k = 1; k < p.via_begin.size(); ++k) items.via_begin.push_back(base + p.via_begin[k]);
    items.split.expanded += p.split.expanded;
    items.split.evaluated += p.split.evaluated;
    items.split.solutions += p.split.solutions;
    items.split.next_limit = std::min(items.split.next_limit, p.split.next_limit);
    if (items.goal_root < 0) items.goal_root = p.goal_root;
  }
  return items;
}

}  // namespace permjit
