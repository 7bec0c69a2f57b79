#include "runtime/option_table.hpp"

#include <climits>
#include <string>

#include "dsl/diagnostics.hpp"
#include "runtime/core/decision.hpp"
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"

namespace permjit {

void check_decision_options(const SolveOptions& opts, const ProblemSpec& spec, const Skeleton& sk) {
  const std::string problem = "'" + spec.name + "' is a " + goal_name(spec.goal) + " problem";
  if (spec.goal == Goal::find && !takes(sk, solve_option(&SolveOptions::target))) {
    Diagnostics d;
    d.error(spec.goal_loc,
            "goal = \"find\" stops the search at its first solution; skeleton '" + std::string(sk.name) +
                "' does not stop at a solution",
            "skeletons that do: " +
                skeleton_names([](const Skeleton& k) { return k.run && takes(k, solve_option(&SolveOptions::target)); }));
    throw UserErrors(std::move(d));
  }
  if (opts.target) {
    const std::string shown = "--target " + std::to_string(*opts.target);
    if (!optimises(spec.goal))
      command_line_error(shown, 1, "--target applies to minimize and maximize problems; " + problem,
                         spec.goal == Goal::count ? "goal = \"find\" stops a count at its first solution" : "");
    // One past the target is the incumbent the skeleton starts from: it must exist.
    if (*opts.target == LLONG_MAX || *opts.target == LLONG_MIN)
      command_line_error(shown, 10, "--target " + std::to_string(*opts.target) + " has no value one past it",
                         "every permutation's objective fits well inside 64 bits");
    if (sk.int32_only && (*opts.target <= INT_MIN || *opts.target >= INT_MAX))
      command_line_error(shown, 10, "--target " + std::to_string(*opts.target) +
                                        " does not fit the 32-bit incumbent of skeleton '" + std::string(sk.name) + "'",
                         "the cpu skeleton keeps a 64-bit incumbent");
    if (opts.all_optimal) command_line_error(shown, 1, "--target and --all-optimal ask different questions: give one");
  }
  if (opts.all_optimal && !optimises(spec.goal))
    command_line_error("--all-optimal", 1, "--all-optimal applies to minimize and maximize problems; " + problem,
                       "--list writes every solution of a count");
  if (opts.list && optimises(spec.goal) && !opts.all_optimal)
    command_line_error("--list " + std::to_string(*opts.list), 1,
                       "--list writes the solutions of a count or find problem; " + problem,
                       "--all-optimal lists every optimal permutation (--list N with it: the first N)");
  const bool listing = opts.list.has_value() || opts.all_optimal;
  // Under a declared [symmetry] a listed solution brings its images along
  // (runtime/core/symmetry_orbit.hpp): every solution is listed.
  // A checkpoint holds the search, not what was listed or how many were taken; and the
  // cpu skeleton over MPI ranks searches ranges in many processes, with no one order to
  // record solutions in (runtime/distributed/range_run.hpp).
  const bool stops = spec.goal == Goal::find || opts.target || listing;
  if (stops && (!opts.checkpoint.empty() || !opts.resume.empty())) {
    const std::string flag = opts.checkpoint.empty() ? "--resume" : "--checkpoint";
    command_line_error(flag + " " + (opts.checkpoint.empty() ? opts.resume : opts.checkpoint), 1,
                       flag + " keeps a search to prove or count; it does not keep the solutions a run has listed "
                              "or taken (goal find, --target, --list, --all-optimal)");
  }
  if (stops && sk.backend == Backend::cpu && launched_as_mpi_ranks())
    command_line_error("mpirun", 1,
                       "the cpu skeleton over MPI ranks counts and optimises; it does not list, find or stop at a "
                       "target",
                       "run it in one process");
  if (!opts.list_out.empty() && !listing)
    command_line_error("--out " + opts.list_out, 1, "--out is where --list or --all-optimal write the solutions",
                       "add --list");
  if (opts.list_buffer && !opts.list && spec.goal != Goal::find)
    command_line_error("--list-buffer " + std::to_string(opts.list_buffer), 1,
                       "--list-buffer sizes the device buffer of --list and goal = \"find\"", "add --list");
  if (!opts.list_format.empty()) {
    const std::string shown = "--list-format " + opts.list_format;
    if (opts.list_format != "lines" && opts.list_format != "json")
      command_line_error(shown, 15, "unknown value '" + opts.list_format + "' of --list-format",
                         "--list-format is lines or json");
    if (!listing) command_line_error(shown, 1, "--list-format applies to --list and --all-optimal", "add --list");
  }
}

}  // namespace permjit
