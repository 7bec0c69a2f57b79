// The front of the pipeline: spec.toml (+ --param, + instance) -> checked ProblemSpec.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "dsl/instance_values.hpp"
#include "dsl/spec.hpp"

namespace permjit {

struct LoadOptions {
  std::string spec_path;
  std::vector<std::string> params;  // "name=value", as typed after --param
  std::string instance_path;        // empty: none given
  int instance_record = 0;          // > 0: the file holds one instance per line; read this line
  // false for `check` without --instance: types are checked, sizes that come from the
  // instance stay unknown. true: a spec with data needs an instance.
  bool need_instance = true;
  // --data: "run-time" has code read the values of instance arrays at run time, so one
  // module serves every instance of a shape (dsl/run_time_data.hpp); "compiled" compiles
  // them into the source (measured in docs/performance.md); "auto" (the command line's
  // default) loads them compiled in and leaves the choice to settle_data
  // (generator/choose_data.hpp), which must run before the source is generated.
  std::string data = "run-time";
  // --no-symmetry: read [symmetry] (its errors are reported) but search the whole tree.
  bool ignore_symmetry = false;
  // For programs that embed permjit (last, so that aggregate initialisations of the
  // fields above stay as they are):
  // The spec's text, when a program holds it rather than a file: spec_path is then only
  // the name its diagnostics show (e.g. "<string>").
  std::optional<std::string> spec_text;
  // The instance as named values instead of a file (dsl/instance_values.hpp); not both.
  std::vector<InstanceValue> instance_values;
  // `check --verify-symmetry`: >= 0 keeps only this one of [symmetry]'s generators (its
  // index in the array), so that each is checked on its own.
  int symmetry_generator = -1;
  // Tests only: every set in a 128-bit word whatever the size, so that the code of sizes
  // above 64 is checked against the narrow words' trees at sizes brute force reaches.
  bool wide_sets = false;
};

// Reads, checks and loads everything it can, collecting every error; throws UserErrors
// with all of them if there was any.
ProblemSpec load_spec(const LoadOptions& opts);

}  // namespace permjit
