// `permjit solve`: spec -> generated source -> compiled module -> search -> result.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/core/progress.hpp"
#include "runtime/core/result.hpp"
#include "runtime/core/solution_list.hpp"
#include "runtime/core/solve_options.hpp"

namespace permjit {

struct Skeleton;

// What a solve has made before its search: options checked, the spec loaded, the
// skeleton chosen for its shape, the source generated, the units built, and the
// result's header fields. Every user error that needs no device is raised here.
struct PreparedSolve {
  std::chrono::steady_clock::time_point start;
  ProblemSpec spec;
  const Skeleton* skeleton = nullptr;
  ProblemSource source;
  SkeletonUnits units;  // what the skeleton compiles (the same that `emit` shows)
  SolveResult header;
};
PreparedSolve prepare_solve(const SolveOptions& opts);

// What the skeleton needs of how it was started, checked before any compile (solve and
// solve_records call it after prepare_solve): a GPU for a GPU skeleton, and one process
// unless it shares one search among MPI ranks (Skeleton::over_mpi). Either is a user
// error at --skeleton.
void require_runnable(const Skeleton& sk, const SolveOptions& opts);

// The units `--skeleton sk` compiles for this spec and these options: what `emit`
// prints. The same as prepare_solve(opts).units when opts names sk (tested).
SkeletonUnits emit_units(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec,
                         const ProblemSource& source);

// Throws UserErrors (spec, instance, options), CompileError, or std::runtime_error.
SolveResult solve(const SolveOptions& opts);

// `solve --records LIST` (runtime/core/record_list.hpp) on a path problem: the spec is read,
// the source generated and the skeleton opened once; then every record's start is
// searched, in LIST's order, and `each` receives its result (r.record says which).
// Every record is read and checked before the first search.
RecordsSummary solve_records(const SolveOptions& opts, const std::string& records,
                             const std::function<void(const SolveResult&)>& each);

}  // namespace permjit
