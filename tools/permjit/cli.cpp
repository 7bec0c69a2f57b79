#include "tools/permjit/cli.hpp"

#include <algorithm>

#include "runtime/option_table.hpp"
#include "tools/permjit/parse_error_place.hpp"
#include "tools/permjit/spec_options.hpp"

namespace permjit {

Cli::Cli() {
  app.require_subcommand(1);
  add_solve_command(app, solve, json);

  check_cmd = app.add_subcommand("check", "check a spec (and an instance); print every error");
  add_spec_options(check_cmd, check.load);
  check_cmd->add_flag("--verify-bound", check.verify_bound,
                      "compare the bound with the best leaf below sampled nodes, found by brute force "
                      "(needs the instance; nodes at depth size-8)");
  check_cmd->add_flag("--verify-symmetry", check.verify_symmetry,
                      "solve with the spec's [symmetry] and without it (cpu skeleton) and compare the answers; "
                      "use small parameters");
  check_cmd->add_option("--samples", check.verify.samples, "--verify-bound: random nodes to sample (default 64)");
  check_cmd->add_option("--seed", check.verify.seed, "--verify-bound: the sampling's seed (default 1)");

  emit_cmd =
      app.add_subcommand("emit", "print a stage of the pipeline: spec | source | cpu | cuda | ptx | sass | resources");
  add_spec_options(emit_cmd, emit.load);
  emit_cmd->add_option("--stage", emit.stage, "spec | source | cpu | cuda | ptx | sass | resources (default source)");
  emit_cmd->add_option("--arch", emit.arch, "GPU architecture for GPU stages (default sm_90)");
  emit_cmd->add_option("--skeleton", emit.skeleton,
                       "the skeleton whose code to show (see `permjit skeletons`; default: cpu for the cpu stage, "
                       "else dfs, or ida for a path problem)");
  emit_cmd->add_option("--unit", emit.unit,
                       "main | deferred: for the device stages, the unit every run compiles (default), or the one "
                       "compiled only when a run first needs it (ivm: the open-work kernels of a stop)");
  // The solve options that change the compiled code: what `emit` shows is what runs.
  for (const SolveOption& row : solve_option_table())
    if (row.changes_code) emit_flags.add(emit_cmd, row, emit.solve);

  app.add_subcommand("skeletons", "list the search skeletons of this build");
}

void Cli::parse(const std::vector<std::string>& args) {
  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::Success&) {
    throw;
  } catch (const CLI::ParseError& e) {
    std::string command;
    for (CLI::App* sub : app.get_subcommands()) command = sub->get_name();
    parse_error_at_place(e, args, command);
  }
  solve.flags.apply();
  emit_flags.apply();
}

bool asks_for_json(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

}  // namespace permjit
