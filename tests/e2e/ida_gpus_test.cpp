// `ida --gpus N` on the host, without a GPU: each iteration's live roots shared among N
// simulated GPUs (share_roots, by the work each root took in the last iteration), each
// share split on its own (split_roots) and searched below by a plain recursion over the
// module's one-node expansion, the parts combined (combine_parts): the CPU oracle's
// counts and next limit in every iteration, for any number of GPUs.
#include <catch2/catch.hpp>
#include <climits>

#include "e2e_support.hpp"
#include "puzzle8_module.hpp"
#include "runtime/ida/ida_gpus.hpp"
#include "runtime/ida/ida_split.hpp"

using namespace permjit;
using namespace permjit::test;

TEST_CASE("ida --gpus: the GPUs' shares of every iteration add up to the oracle's counts", "[e2e][ida][gpus]") {
  Puzzle8 p8;
  IdaModule ida(p8.mod);
  const int moves = static_cast<int>(p8.spec.path.moves.size());
  IdaStart from(start_values(p8.spec));
  const PjIdaResult oracle = ida_oracle(ida, from);
  IdaModule::Roots roots(ida, from, 24);
  const PjIdaRoots& rt = roots.get();
  for (int gpus : {1, 2, 3, 5}) {
    for (double share : {1e9, 20.0}) {  // roots searched whole; large roots split on each GPU
      CAPTURE(gpus, share);
      std::vector<double> expected(rt.count, 1.0), skew(rt.count, 1.0);
      for (int it = 0; it < oracle.iterations; ++it) {
        const int limit = oracle.limits[it];
        CAPTURE(limit);
        std::vector<unsigned char> alive;
        long long upper_goal = -1;
        const PjIdaCounts upper = roots.upper(limit, alive, upper_goal);
        const std::vector<unsigned> live = live_roots(alive);
        const auto shares = share_roots(live, expected, gpus);
        std::vector<IdaGpuPart> parts(static_cast<size_t>(gpus));
        for (size_t k = 0; k < shares.size(); ++k) {
          if (shares[k].empty()) continue;
          IdaItems items = split_roots(ida, rt, moves, shares[k], expected, skew, share, 1e9, limit, 1);
          PjIdaCounts c = items.split;
          std::vector<double> work(rt.count, 0.0);
          for (unsigned r : shares[k]) work[r] = static_cast<double>(items.split_expanded[r]);
          for (size_t i = 0; i < items.size(); ++i)
            work[items.root[i]] += static_cast<double>(search_below(ida, items.nodes.data() + i * items.node_bytes,
                                                                    static_cast<size_t>(items.node_bytes), items.g[i],
                                                                    items.last[i], limit, moves, c));
          for (unsigned r : shares[k]) {
            CHECK(std::find(items.root.begin(), items.root.end(), r) != items.root.end());  // each root searched
            expected[r] = std::max(1.0, work[r]);
          }
          parts[k].below = c;
          parts[k].searched = true;
          parts[k].work = c.expanded;
          parts[k].workers = 1;
        }
        const IdaCombined all = combine_parts(parts);
        const PjIdaCounts& want = oracle.per_iteration[it];
        CHECK(upper.expanded + all.below.expanded == want.expanded);
        CHECK(upper.evaluated + all.below.evaluated == want.evaluated);
        CHECK(upper.solutions + all.below.solutions == want.solutions);
        CHECK(std::min(upper.next_limit, all.below.next_limit) == want.next_limit);
        if (all.below.solutions > 0) CHECK(parts.at(static_cast<size_t>(all.solved_gpu)).below.solutions > 0);
      }
    }
  }
}
