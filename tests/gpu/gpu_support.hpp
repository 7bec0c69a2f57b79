// What the GPU tests share: solving one case with a chosen skeleton, and the check that
// two runs explored the same tree.
#pragma once
#include <catch2/catch.hpp>
#include <functional>

#include "../e2e/e2e_support.hpp"

namespace permjit::test {

struct Run {
  std::string spec, inst;
  std::vector<std::string> params;
  std::optional<long long> ub;
};

inline SolveResult solve_with(const Run& r, const std::string& skeleton, int dcpu = 0, unsigned long long max_chunk = 0,
                              const std::function<void(SolveOptions&)>& more = {}) {
  SolveOptions o;
  o.load.spec_path = r.spec;
  o.load.instance_path = r.inst;
  o.load.params = r.params;
  o.skeleton = skeleton;
  o.ub = r.ub;
  o.dcpu = dcpu;
  o.max_chunk = max_chunk;
  o.cache_dir = cache_dir();
  o.progress = SolveOptions::Progress::off;
  if (more) more(o);
  return solve(o);
}

inline void same_tree(const std::string& skeleton, const SolveResult& oracle, const SolveResult& gpu) {
  CHECK(gpu.skeleton == skeleton);
  CHECK(gpu.solutions == oracle.solutions);
  CHECK(gpu.found == oracle.found);
  if (oracle.found) CHECK(gpu.objective == oracle.objective);
  CHECK(gpu.expanded == oracle.expanded);
  CHECK(gpu.evaluated == oracle.evaluated);
}

}  // namespace permjit::test
