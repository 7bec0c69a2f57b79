// A command line CLI11 could not parse, as a user error at its place: CLI11's own exit
// statuses (104-114) and its message without a place broke the promise of
// docs/reliability.md that every user error exits 1 and says where.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace permjit {

// Throws UserErrors at `<command line>:1:COL`, where the shown line is `args` (the
// arguments after the program's name) and COL points at the value that did not convert,
// the argument that was not expected, or the end of the line for what is missing.
[[noreturn]] void parse_error_at_place(const CLI::ParseError& e, const std::vector<std::string>& args,
                                       const std::string& command);

}  // namespace permjit
