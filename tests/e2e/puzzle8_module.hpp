// An 8-puzzle board compiled as a path-problem module, for tests of the GPU IDA*
// skeletons' host side (split, donation) that need no GPU.
#pragma once
#include <vector>

#include "dsl/start_data.hpp"
#include "e2e_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/ida_module.hpp"
#include "runtime/skeletons.hpp"

namespace permjit::test {

// The 8-puzzle board of the split tests (27 moves: several iterations), compiled.
struct Puzzle8 {
  ProblemSpec spec;
  HostModule mod;
  Puzzle8() : spec(load()), mod(compile()) {}
  static ProblemSpec load() {
    LoadOptions lo;
    lo.spec_path = problem("puzzle15.toml");
    lo.instance_path = temp_file("split8.txt", "8 6 7 2 5 4 3 0 1\n");
    lo.params = {"w=3"};
    return load_spec(lo);
  }
  HostModule compile() const {
    ModuleCache cache(cache_dir());
    return compile_host_module(units_of("cpu", spec, generate_problem(spec)).host.value(), cache);
  }
};

// The CPU oracle's search from `from`, every iteration counted: it finds the goal, after
// enough iterations for a test of each to mean something.
inline PjIdaResult ida_oracle(const IdaModule& ida, const IdaStart& from) {
  PjIdaArgs args{from.get(), 1, 1, 16};
  PjIdaResult oracle = ida.search(args);
  REQUIRE(oracle.found == 1);
  REQUIRE(oracle.iterations >= 5);
  return oracle;
}

// The roots an iteration's upper tree left alive.
inline std::vector<unsigned> live_roots(const std::vector<unsigned char>& alive) {
  std::vector<unsigned> live;
  for (size_t i = 0; i < alive.size(); ++i)
    if (alive[i]) live.push_back(static_cast<unsigned>(i));
  return live;
}

// Expands below `node` (nb bytes) within `limit` into c, by a plain recursion over the
// module's one-node expansion (pj_ida_expand); returns the nodes expanded.
inline unsigned long long search_below(const IdaModule& m, const unsigned char* node, size_t nb, int g, int last,
                                       int limit, int moves, PjIdaCounts& c) {
  std::vector<unsigned char> kids(moves * nb);
  std::vector<int> kg(moves), kl(moves);
  const unsigned long long before = c.expanded;
  const int kept = m.expand(node, g, last, limit, kids.data(), kg.data(), kl.data(), c);
  for (int k = 0; k < kept; ++k) search_below(m, kids.data() + k * nb, nb, kg[k], kl[k], limit, moves, c);
  return c.expanded - before;
}

}  // namespace permjit::test
