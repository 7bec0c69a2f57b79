// permjit: exact search over permutations, from a TOML spec to generated code.
#include <iostream>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/skeletons.hpp"
#include "tools/permjit/cli.hpp"
#include "tools/permjit/error_report.hpp"

int main(int argc, char** argv) {
  using namespace permjit;
  Cli cli;
  const std::vector<std::string> args(argv + 1, argv + argc);
  cli.json = asks_for_json(args);
  try {
    try {
      cli.parse(args);
    } catch (const CLI::Success& e) {  // --help
      return cli.app.exit(e);
    }
    if (*cli.solve.cmd) return run_solve_command(cli.solve, cli.json);
    if (*cli.check_cmd) return check_command(cli.check);
    if (*cli.emit_cmd) return emit_command(cli.emit);
    for (const auto& s : skeletons())
      std::cout << s.name << "\t" << (s.run ? backend_name(s.backend) : "emit") << "\t" << s.summary << '\n';
    return 0;
  } catch (const UserErrors& e) {
    return report_user_errors(e, cli.json);
  } catch (const SearchInterrupted& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), 128 + e.signal, cli.json);
  } catch (const CompileError& e) {
    std::string text = "permjit: error: " + std::string(e.what()) + "\n";
    if (!e.log.empty()) text += e.log + "\n";
    if (!e.saved_source.empty()) text += "the failing source is saved at " + e.saved_source + "\n";
    return report_failure(text, e.what(), kExitOtherError, cli.json);
  } catch (const InternalError& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), kExitInternalError, cli.json);
  } catch (const std::exception& e) {
    return report_failure("permjit: error: " + std::string(e.what()) + "\n", e.what(), kExitOtherError, cli.json);
  }
}
