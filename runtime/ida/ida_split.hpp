// The work of one GPU IDA* iteration: the alive roots of the upper tree, with each root
// expected to take more than a share of the iteration split on the host into its
// descendants. Static load balancing alone cannot divide one root, and one root can be
// most of an iteration: on Korf's instance 88 the busiest warp had 10x the mean work.
#pragma once
#include <vector>

#include "runtime/compile/ida_module.hpp"
#include "templates/ida_abi.h"

namespace permjit {

struct IdaItems {
  int node_bytes = 0;
  std::vector<unsigned char> nodes;  // node_bytes per item
  std::vector<int> g, last;
  std::vector<unsigned> root;        // the root an item descends from; items are in root order
  std::vector<double> expected;      // the work an item is expected to take
  std::vector<int> via;              // the moves from its root to each item, item k's at
  std::vector<unsigned> via_begin{0};  // via[via_begin[k] .. via_begin[k + 1])
  PjIdaCounts split{};               // what the host expanded while splitting (counted as IDA* counts)
  std::vector<unsigned long long> split_expanded;  // of it, per root (indexed like the roots)
  long long goal_root = -1;          // the smallest root below which the split met a goal
  size_t size() const { return root.size(); }
  std::vector<int> moves_to(size_t k) const { return {via.begin() + via_begin[k], via.begin() + via_begin[k + 1]}; }
};

// Items for the alive roots `live` (in increasing order) at `limit`: a root whose
// expected work times its skew (how uneven its pieces were last time: largest / mean,
// 1 if not split) is above `share` is expanded breadth-first until it has about
// expected * skew / share descendants, each expected to take an equal part of its
// work; at most about `max_pieces` pieces in all (the share is raised to fit). `threads`
// host threads share the roots.
IdaItems split_roots(const IdaModule& module, const PjIdaRoots& roots, int moves, const std::vector<unsigned>& live,
                     const std::vector<double>& expected, const std::vector<double>& skew, double share,
                     double max_pieces, int limit, int threads);

}  // namespace permjit
