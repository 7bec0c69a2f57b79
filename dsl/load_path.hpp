// Reads the sections of a move-based (`goal = "path"`) spec: [path], [moves] and
// [heuristic] (docs/spec-language.md, "Path problems"). Called by load_spec once the
// size, data and state are known; reports every error at its place in the .toml.
#pragma once
#include <toml++/toml.h>

#include <functional>
#include <initializer_list>
#include <string>

#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// What the spec reader lends: TOML places and expression parsing.
struct TomlReading {
  std::function<Loc(const toml::node&)> at;
  std::function<Loc(const toml::key&)> at_key;
  std::function<ExprPtr(const toml::node&, const std::string& what)> expr_of;
  std::function<void(const toml::table&, std::initializer_list<const char*>, const std::string& where)> check_keys;
};

void read_path_sections(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r);

}  // namespace permjit
