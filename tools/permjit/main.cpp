// permjit: exact search over permutations, from a TOML spec to generated code.
#include <CLI/CLI.hpp>
#include <iostream>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/option_table.hpp"
#include "runtime/skeletons.hpp"
#include "tools/permjit/commands.hpp"
#include "tools/permjit/error_report.hpp"
#include "tools/permjit/option_flags.hpp"
#include "tools/permjit/parse_error_place.hpp"
#include "tools/permjit/solve_command.hpp"
#include "tools/permjit/spec_options.hpp"

namespace {

// Whether the command line asks for --json, read before it is parsed: an error of the
// parse itself is reported as JSON too.
bool asks_for_json(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace permjit;
  CLI::App app{"permjit: exact search over permutations, generated from a TOML spec"};
  app.require_subcommand(1);

  bool json = false;
  SolveCommand solve;
  add_solve_command(app, solve, json);

  CheckOptions check_opts;
  CLI::App* check_cmd = app.add_subcommand("check", "check a spec (and an instance); print every error");
  add_spec_options(check_cmd, check_opts.load);
  check_cmd->add_flag("--verify-bound", check_opts.verify_bound,
                      "compare the bound with the best leaf below sampled nodes, found by brute force "
                      "(needs the instance; nodes at depth size-8)");
  check_cmd->add_flag("--verify-symmetry", check_opts.verify_symmetry,
                      "solve with the spec's [symmetry] and without it (cpu skeleton) and compare the answers; "
                      "use small parameters");
  check_cmd->add_option("--samples", check_opts.verify.samples, "--verify-bound: random nodes to sample (default 64)");
  check_cmd->add_option("--seed", check_opts.verify.seed, "--verify-bound: the sampling's seed (default 1)");

  EmitOptions emit_opts;
  OptionFlags emit_flags;
  CLI::App* emit_cmd =
      app.add_subcommand("emit", "print a stage of the pipeline: spec | source | cpu | cuda | ptx | sass | resources");
  add_spec_options(emit_cmd, emit_opts.load);
  emit_cmd->add_option("--stage", emit_opts.stage, "spec | source | cpu | cuda | ptx | sass | resources (default source)");
  emit_cmd->add_option("--arch", emit_opts.arch, "GPU architecture for GPU stages (default sm_90)");
  emit_cmd->add_option("--skeleton", emit_opts.skeleton, "the skeleton whose code to show (see `permjit skeletons`; default: cpu for the cpu stage, else dfs, or ida for a path problem)");
  // The solve options that change the compiled code: what `emit` shows is what runs.
  for (const SolveOption& row : solve_option_table())
    if (row.changes_code) emit_flags.add(emit_cmd, row, emit_opts.solve);

  app.add_subcommand("skeletons", "list the search skeletons of this build");

  const std::vector<std::string> args(argv + 1, argv + argc);
  json = asks_for_json(args);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::string command;
      for (CLI::App* sub : app.get_subcommands()) command = sub->get_name();
      parse_error_at_place(e, args, command);
    }
    if (*solve.cmd) return run_solve_command(solve, json);
    if (*check_cmd) return check_command(check_opts);
    if (*emit_cmd) {
      emit_flags.apply();
      return emit_command(emit_opts);
    }
    for (const auto& s : skeletons())
      std::cout << s.name << "\t" << (s.run ? backend_name(s.backend) : "emit") << "\t" << s.summary << '\n';
    return 0;
  } catch (const UserErrors& e) {
    return report_user_errors(e, json);
  } catch (const SearchInterrupted& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), 128 + e.signal, json);
  } catch (const CompileError& e) {
    std::string text = "permjit: error: " + std::string(e.what()) + "\n";
    if (!e.log.empty()) text += e.log + "\n";
    if (!e.saved_source.empty()) text += "the failing source is saved at " + e.saved_source + "\n";
    return report_failure(text, e.what(), kExitOtherError, json);
  } catch (const InternalError& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), kExitInternalError, json);
  } catch (const std::exception& e) {
    return report_failure("permjit: error: " + std::string(e.what()) + "\n", e.what(), kExitOtherError, json);
  }
}
