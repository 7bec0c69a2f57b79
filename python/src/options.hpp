// The keyword arguments of permjit.solve/emit/check as the CLI's option structs: solve's are
// the rows of the option table (runtime/option_table.hpp), by their Python names (the
// long option with '_' for '-'), emit and check's few are declared in options.cpp.
#pragma once
#include <nanobind/nanobind.h>

#include "runtime/solve.hpp"
#include "tools/permjit/commands.hpp"

namespace permjit::py {

// `load` as permjit/__init__.py builds it: spec_path, spec_text (str | None), params
// (["name=value"]), instance (str, "" for none), values ([(name, dims, row-major ints)]).
LoadOptions load_options(const nanobind::dict& load);

// Set the fields named in `kw`; an unknown keyword or a value of the wrong type raises
// TypeError naming the function `fn`.
void apply(SolveOptions& o, const nanobind::dict& kw, const char* fn);
void apply(EmitOptions& o, const nanobind::dict& kw, const char* fn);
void apply(CheckOptions& o, const nanobind::dict& kw, const char* fn);

}  // namespace permjit::py
