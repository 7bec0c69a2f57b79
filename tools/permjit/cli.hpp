// The permjit command line: its commands and their options, built the same way by the
// program (main.cpp) and by the fuzz harness of option parsing (tests/fuzz), so that
// what the fuzzer parses is what a user's shell hands to permjit.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tools/permjit/commands.hpp"
#include "tools/permjit/option_flags.hpp"
#include "tools/permjit/solve_command.hpp"

namespace permjit {

struct Cli {
  CLI::App app{"permjit: exact search over permutations, generated from a TOML spec"};
  bool json = false;  // --json (solve), also read before the parse: asks_for_json
  SolveCommand solve;
  CheckOptions check;
  CLI::App* check_cmd = nullptr;
  EmitOptions emit;
  OptionFlags emit_flags;
  CLI::App* emit_cmd = nullptr;

  Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  // Parses the arguments after the program's name. --help prints and throws CLI::Success;
  // a line CLI11 cannot parse is a UserErrors at its place (parse_error_place.hpp). On
  // return the options given are in their fields (optional ones included).
  void parse(const std::vector<std::string>& args);
};

// Whether the command line asks for --json, read before it is parsed: an error of the
// parse itself is reported as JSON too.
bool asks_for_json(const std::vector<std::string>& args);

}  // namespace permjit
