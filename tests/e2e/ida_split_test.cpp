// The host split of large IDA* roots (runtime/ida/ida_split.cpp), which the GPU skeletons
// use to balance an iteration: whatever roots are split and however deep, the split's
// own counts plus a search below each item must give the CPU oracle's counts for every
// iteration. The search below an item here is a plain recursion over pj_ida_expand,
// the module's one-node expansion, so the expansion is checked at the same time.
#include <catch2/catch.hpp>
#include <climits>

#include "e2e_support.hpp"
#include "dsl/diagnostics.hpp"
#include "puzzle8_module.hpp"
#include "runtime/ida/ida_split.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("ida split: split counts plus the items' subtrees equal the oracle's counts, every iteration") {
  Puzzle8 p8;
  const ProblemSpec& spec = p8.spec;
  IdaModule ida(p8.mod);
  const int moves = static_cast<int>(spec.path.moves.size());

  IdaStart from(start_values(spec));
  const PjIdaResult oracle = ida_oracle(ida, from);

  IdaModule::Roots roots(ida, from, 16);
  const PjIdaRoots& rt = roots.get();
  REQUIRE(rt.count >= 16);
  struct Case {
    double share, max_pieces;
    int threads;
  };
  // No split; some roots split; most split deep; shared by threads; capped pieces.
  for (auto [share, max_pieces, threads] : {Case{1e9, 1e9, 1}, {50.0, 1e9, 1}, {3.0, 1e9, 1}, {50.0, 1e9, 3},
                                            {3.0, 1e9, 7}, {3.0, 10.0, 2}}) {
    CAPTURE(share, max_pieces, threads);
    std::vector<double> expected(rt.count);
    for (size_t i = 0; i < rt.count; ++i) expected[i] = i % 3 == 0 ? 1000.0 : 1.0 + static_cast<double>(i % 5);
    for (int it = 0; it < oracle.iterations; ++it) {
      const int limit = oracle.limits[it];
      CAPTURE(limit);
      std::vector<unsigned char> alive;
      long long upper_goal = -1;
      PjIdaCounts total = roots.upper(limit, alive, upper_goal);
      const std::vector<unsigned> live = live_roots(alive);
      std::vector<double> skew(rt.count, 1.0);
      for (size_t i = 0; i < rt.count; i += 4) skew[i] = 3.0;  // some roots cut finer
      IdaItems items = split_roots(ida, rt, moves, live, expected, skew, share, max_pieces, limit, threads);
      REQUIRE(std::is_sorted(items.root.begin(), items.root.end()));
      PjIdaCounts c = items.split;
      for (size_t k = 0; k < items.size(); ++k)
        search_below(ida, items.nodes.data() + k * items.node_bytes, static_cast<size_t>(items.node_bytes), items.g[k],
                     items.last[k], limit, moves, c);
      if (it + 1 == oracle.iterations && c.solutions > items.split.solutions) {
        // Some item has a goal below it: the path through it has the optimal length.
        int paths = 0;
        for (size_t k = 0; k < items.size() && paths == 0; ++k) {
          try {
            std::vector<int> p = roots.path_via(items.root[k], items.moves_to(k),
                                                items.nodes.data() + k * items.node_bytes, items.g[k], items.last[k],
                                                limit);
            CHECK(static_cast<int>(p.size()) == oracle.cost);
            ++paths;
          } catch (const InternalError&) {  // no goal below this item (a search would not have asked)
          }
        }
        CHECK(paths == 1);
      }
      const PjIdaCounts& want = oracle.per_iteration[it];
      CHECK(total.expanded + c.expanded == want.expanded);
      CHECK(total.evaluated + c.evaluated == want.evaluated);
      CHECK(total.solutions + c.solutions == want.solutions);
      CHECK(std::min(total.next_limit, c.next_limit) == want.next_limit);
      const bool heavy = std::any_of(live.begin(), live.end(), [](unsigned r) { return r % 3 == 0; });
      if (share < 1e9 && max_pieces >= 1e9 && heavy) CHECK(items.split.expanded > 0);  // the split happened
      if (share >= 1e9) CHECK(items.size() == live.size());
      if (items.goal_root >= 0) CHECK(alive.at(static_cast<size_t>(items.goal_root)) == 1);
    }
  }
}
