// The registry of search skeletons: one row per skeleton, naming what it searches, the
// options it takes and the translation units it compiles. Every choice by name goes
// through it (find_skeleton, default_skeleton); nothing else compares skeleton names.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "dsl/spec.hpp"
#include "generator/generate.hpp"
#include "runtime/cache.hpp"
#include "runtime/compile_unit.hpp"
#include "runtime/decision.hpp"
#include "runtime/path_solver.hpp"
#include "runtime/result.hpp"
#include "runtime/skeleton_options.hpp"

namespace permjit {

struct SolveOptions;
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
  Decision decision = {};     // solutions to record, list or stop at (runtime/decision.hpp)
  ModuleCache cache() const;  // --cache-dir, else the default
  // The incumbent the search starts from: --ub, else the warm start's (waiting for it;
  // call it once the module is compiled, so that both run at once), else none.
  std::optional<long long> start_bound() const;
};

struct Skeleton {
  std::string_view name;
  Backend backend = Backend::gpu;
  std::string_view summary;
  // Searches one solve; null for a row that only `emit` shows (probe).
  void (*run)(SkeletonRun&) = nullptr;
  // The units it compiles, from the spec, its source and the options; `solve` and
  // `emit` both call it. May raise located user errors (option values it reads).
  SkeletonUnits (*units)(const UnitInputs&) = nullptr;
  // Path skeletons: opened once, then solved from start after start (solve --records).
  OpenPathSolver open_path = nullptr;
  // The problem shapes it searches: placement (count, minimize, maximize) and/or path.
  bool placement = true;
  bool path = false;
  bool two_ends = false;  // places values at either end (branch.ends = 2)
  // Shares one search among the ranks mpirun starts (docs/scale.md); the others would
  // run one search per rank, so they are refused under mpirun.
  bool over_mpi = false;
  // What --backend picks for its backend when no --skeleton is given.
  bool default_placement = false, default_path = false;
  // Whose device code `emit` shows without --skeleton (the smallest kernel that searches).
  bool emit_default = false;
  // The GPU skeletons compute ints and keep the incumbent in 32 bits: a --ub outside
  // them, or a spec whose ints may pass them (generator/int_width.hpp), is refused
  // before any compile.
  bool int32_only = false;
  // The options of runtime/skeleton_options.hpp that it takes.
  std::span<const Takes> takes;

  bool searches(const ProblemSpec& spec) const { return spec.goal == Goal::path ? path : placement; }
  const Takes* find_option(SkeletonOption o) const;
};

std::span<const Skeleton> skeletons();
const Skeleton* find_skeleton(std::string_view name);
// The row --backend picks for a spec of this shape, with no --skeleton given.
const Skeleton& default_skeleton(Backend b, bool path);
// The row whose device code `emit` shows for a spec of this shape, with no --skeleton.
const Skeleton& emit_default_skeleton(bool path);
// "a, b and c": the names of the rows that `keep` accepts (for messages).
std::string skeleton_names(bool (*keep)(const Skeleton&));

// Each skeleton's search (runtime/<skeleton>_skeleton.cpp) and its units.
void run_cpu_skeleton(SkeletonRun& run);
SkeletonUnits cpu_units(const UnitInputs& in);
void run_cpu_ida_skeleton(SkeletonRun& run);  // the cpu skeleton on a path problem
void run_dfs_skeleton(SkeletonRun& run);
SkeletonUnits dfs_units(const UnitInputs& in);
void run_ivm_skeleton(SkeletonRun& run);
SkeletonUnits ivm_units(const UnitInputs& in);
void run_cdp_skeleton(SkeletonRun& run);
SkeletonUnits cdp_units(const UnitInputs& in);
void run_rec_skeleton(SkeletonRun& run);
SkeletonUnits rec_units(const UnitInputs& in);
void run_offload_skeleton(SkeletonRun& run);
SkeletonUnits offload_units(const UnitInputs& in);
void run_ida_skeleton(SkeletonRun& run);
void run_ida_thread_skeleton(SkeletonRun& run);
SkeletonUnits ida_units(const UnitInputs& in);  // one module holds both IDA* kernels
SkeletonUnits probe_units(const UnitInputs& in);

}  // namespace permjit
