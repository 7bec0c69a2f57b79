// Every option of a solve, declared once: its flag, help, where its value lives in
// SolveOptions, the problems it applies to, its named values, the skeletons that take it
// and its check. The command line (tools/permjit/solve_command.cpp), `emit` (the options
// that change the compiled code), the Python module (python/src/options.cpp) and the
// registry's checks (check_skeleton_options, before any compile) all read this table, so
// a new option is a field of SolveOptions and a row in option_table.cpp, nothing else.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "runtime/core/solve_options.hpp"
#include "runtime/skeletons.hpp"

namespace permjit {

struct ProblemSpec;

// Which specs an option applies to: any, placement problems, path problems, or placement
// problems that minimise or maximise.
enum class OptionShape { any, placement, path, optimise };

// Where an option's value lives: one alternative per type of field.
using OptionField =
    std::variant<bool SolveOptions::*, int SolveOptions::*, unsigned SolveOptions::*,
                 unsigned long long SolveOptions::*, double SolveOptions::*, std::string SolveOptions::*,
                 std::optional<long long> SolveOptions::*, std::optional<unsigned> SolveOptions::*,
                 std::optional<unsigned long long> SolveOptions::*, std::optional<double> SolveOptions::*>;

struct SolveOption {
  std::string_view flag;  // "--time-limit"; Python's keyword is python_name(flag)
  OptionField field;
  std::string_view help;
  OptionShape shape = OptionShape::any;
  std::string_view values = {};  // an option with named values: all of them ("bound branch")
  // The skeletons that take it; every skeleton when empty (a general option, never refused).
  SkeletonSet taken_by = {};
  // Skeletons of taken_by that accept only some of the named values, and those values.
  SkeletonSet narrowed_for = {};
  std::string_view narrowed_values = {};
  bool changes_code = false;    // the units depend on it: `emit` takes it too
  bool value_optional = false;  // the flag alone is the value 0 (--list: every solution)
  // Why the value is out of range, or empty; called only when the option was given.
  std::string (*invalid)(const SolveOptions&) = nullptr;
};

// In the order of `solve --help`; check_skeleton_options reports the first mistake found
// in this order.
std::span<const SolveOption> solve_option_table();
// The row whose value lives in `field`: the options' names in code, never their flags.
const SolveOption& solve_option(OptionField field);
// "--time-limit" -> "time_limit": the option's keyword in Python.
std::string python_name(const SolveOption& o);
// The value as typed when the option differs from its default ("" for a flag or a
// value_optional option given alone), else nullopt.
std::optional<std::string> given_value(const SolveOption& o, const SolveOptions& opts);
// Whether skeleton `sk` takes option `o` (with `value`, when it names one).
bool takes(const Skeleton& sk, const SolveOption& o, std::string_view value = {});

// Every option given that `sk` does not take, that the spec's shape does not take, or
// whose value is out of range, is a user error located on the command line.
void check_skeleton_options(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec);

// The decision options (runtime/core/decision.hpp) against the spec's goal and the
// skeleton's row; located user errors, before any compile (decision_options.cpp).
void check_decision_options(const SolveOptions& opts, const ProblemSpec& spec, const Skeleton& sk);

}  // namespace permjit
