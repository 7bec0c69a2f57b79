// An 8-puzzle board compiled as a path-problem module, for tests of the GPU IDA*
// skeletons' host side (split, donation) that need no GPU.
#pragma once
#include "dsl/start_data.hpp"
#include "e2e_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/host_compiler.hpp"
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

}  // namespace permjit::test
