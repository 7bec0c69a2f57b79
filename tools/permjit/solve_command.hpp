// `permjit solve`: its command line (every row of the option table, runtime/option_table.hpp,
// and how the result is printed) and its run.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "runtime/core/solve_options.hpp"
#include "tools/permjit/option_flags.hpp"

namespace permjit {

struct SolveCommand {
  CLI::App* cmd = nullptr;
  SolveOptions opts;
  OptionFlags flags;
  std::string records;  // --records LIST (path problems)
  bool progress = false, quiet = false;
};

// Adds `solve` to `app`; its options land in `c`, and --json in `json` (the caller reads
// it before the parse too, so that an error of the parse is reported as JSON).
void add_solve_command(CLI::App& app, SolveCommand& c, bool& json);
// After the parse: what the command line's presentation options ask of the solve
// options (progress), and their combinations that cannot be (a located user error).
void settle_solve_command(SolveCommand& c, bool json);
// After the parse, when `solve` was given: settles, solves and prints; returns the exit
// status.
int run_solve_command(SolveCommand& c, bool json);

}  // namespace permjit
