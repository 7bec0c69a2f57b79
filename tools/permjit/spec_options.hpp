// The options of every command that reads a spec (solve, check, emit).
#pragma once
#include <CLI/CLI.hpp>

#include "dsl/load_spec.hpp"

namespace permjit {

void add_spec_options(CLI::App* cmd, LoadOptions& load);

}  // namespace permjit
