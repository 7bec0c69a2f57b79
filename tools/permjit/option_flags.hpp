// Rows of the option table (runtime/option_table.hpp) as CLI11 options: `solve` takes
// every row, `emit` the rows that change the compiled code. Plain fields are bound
// directly; an optional field is parsed into scratch storage and written after the parse
// only when it was given, so "not given" stays distinguishable from any value.
#pragma once
#include <CLI/CLI.hpp>

#include <deque>
#include <functional>
#include <variant>
#include <vector>

#include "runtime/option_table.hpp"

namespace permjit {

class OptionFlags {
 public:
  // Adds `row` to `cmd`; its value lands in `target` (at once, or at apply()).
  void add(CLI::App* cmd, const SolveOption& row, SolveOptions& target);
  // After the parse: writes the optional values that were given.
  void apply() const;

 private:
  std::deque<std::variant<long long, unsigned, unsigned long long, double>> scratch_;  // stable addresses
  std::vector<std::function<void()>> apply_;
};

}  // namespace permjit
