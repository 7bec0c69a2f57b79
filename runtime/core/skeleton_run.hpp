// What a skeleton's search is handed (SkeletonRun): the spec, its generated source and
// compiled units, the options and the result to fill. The registry (runtime/skeletons.hpp)
// names each skeleton's run function; the wings that implement them see only this.
#pragma once
#include <optional>

#include "dsl/spec.hpp"
#include "generator/generate.hpp"
#include "runtime/core/decision.hpp"
#include "runtime/core/result.hpp"

namespace permjit {

struct SolveOptions;
struct SkeletonUnits;
class ModuleCache;
class WarmStart;

enum class Backend { cpu, gpu };
const char* backend_name(Backend b);

struct SkeletonRun {
  const ProblemSpec& spec;
  const ProblemSource& source;
  const SkeletonUnits& units;  // built by the row's `units`: what the run compiles
  const SolveOptions& opts;
  SolveResult& result;  // fill nodes, objective, times of compile and search
  WarmStart* warm = nullptr;  // the incumbent found before the search, when there is one
  Decision decision = {};     // solutions to record, list or stop at (runtime/core/decision.hpp)
  ModuleCache cache() const;  // --cache-dir, else the default
  // The incumbent the search starts from: --ub, else the warm start's (waiting for it;
  // call it once the module is compiled, so that both run at once), else none.
  std::optional<long long> start_bound() const;
};

}  // namespace permjit
