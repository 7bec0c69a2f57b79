// The registry of search skeletons: one row per skeleton, naming what it searches and
// the translation units it compiles (the options each takes are the option table's,
// runtime/option_table.hpp). Every choice by name goes through it (find_skeleton,
// default_skeleton); nothing else compares skeleton names.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "dsl/spec.hpp"
#include "generator/generate.hpp"
#include "runtime/backtrack/backtrack_skeletons.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/core/decision.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/result.hpp"
#include "runtime/core/skeleton_run.hpp"
#include "runtime/ida/ida_skeleton.hpp"
#include "runtime/ivm/ivm_skeleton.hpp"

namespace permjit {

// The registry's rows in code: the option table (runtime/option_table.hpp) names the
// skeletons that take an option by these, never by their names.
enum class SkeletonId : unsigned { cpu, dfs, ivm, cdp, rec, offload, ida, ida_thread, probe };

// A set of rows: `SkeletonId::cpu | SkeletonId::dfs`.
struct SkeletonSet {
  unsigned bits = 0;
  constexpr SkeletonSet() = default;
  constexpr SkeletonSet(SkeletonId id) : bits(1u << static_cast<unsigned>(id)) {}
  constexpr SkeletonSet operator|(SkeletonSet o) const {
    SkeletonSet s;
    s.bits = bits | o.bits;
    return s;
  }
  constexpr bool has(SkeletonId id) const { return (bits >> static_cast<unsigned>(id)) & 1u; }
  constexpr bool empty() const { return bits == 0; }
};
constexpr SkeletonSet operator|(SkeletonId a, SkeletonId b) { return SkeletonSet(a) | SkeletonSet(b); }

struct Skeleton {
  SkeletonId id;
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
  // Searches only problems with an objective (minimize, maximize): it offloads bounds,
  // and a count or a find has none (its units refuse such a spec with their reason).
  bool bounds_only = false;
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
  // Takes leaves found outside it while it runs (WarmStart::better_than: the local search
  // beside the search, runtime/core/warm_start.hpp) as its incumbent.
  bool outside_leaves = false;

  bool searches(const ProblemSpec& spec) const { return spec.goal == Goal::path ? path : placement; }
};

std::span<const Skeleton> skeletons();
const Skeleton* find_skeleton(std::string_view name);
// The row --backend picks for a spec of this shape, with no --skeleton given.
const Skeleton& default_skeleton(Backend b, bool path);
// The spec's [search] gpu_skeleton, judged here (the dsl reads names only): its row
// when it applies, null when the spec names none or its `when` is false. A name that is
// no GPU skeleton of this build, or one that cannot search the spec (its shape, two
// ends), is the spec's error at the name's place, whether or not a GPU is present.
const Skeleton* preferred_gpu_skeleton(const ProblemSpec& spec);
// The row whose device code `emit` shows for a spec of this shape, with no --skeleton.
const Skeleton& emit_default_skeleton(bool path);
// "a, b and c": the names of the rows that `keep` accepts (for messages).
std::string skeleton_names(bool (*keep)(const Skeleton&));

// The units of the row that only `emit` shows.
SkeletonUnits probe_units(const UnitInputs& in);

}  // namespace permjit
