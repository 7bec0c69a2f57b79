// Reads [pattern_databases] of a path spec (dsl/pattern_db.hpp); called by the path
// reader once the moves are known. Every error is located in the .toml.
#pragma once
#include <toml++/toml.h>

#include "dsl/diagnostics.hpp"
#include "dsl/load_path.hpp"
#include "dsl/spec.hpp"

namespace permjit {

void read_pattern_databases(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r);
// After the start data are known (dsl/start_data.hpp): the tables' builder makes
// abstract states with root(), which must need nothing but the permutation.
void check_pattern_database_start(const ProblemSpec& spec, Diagnostics& d);

}  // namespace permjit
