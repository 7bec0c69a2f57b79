// Reads [search] (docs/spec-language.md, "The skeleton a spec prefers"): the GPU
// skeleton a spec is searched with when the command line names none, and the condition
// on the parameters under which it applies. The dsl only reads and evaluates it; which
// names are skeletons, and whether one searches this spec, the runtime's registry says
// (runtime/skeletons.hpp, preferred_gpu_skeleton), so that nothing here lists them.
#pragma once
#include <toml++/toml.h>

#include "dsl/diagnostics.hpp"
#include "dsl/load_path.hpp"  // TomlReading
#include "dsl/spec.hpp"

namespace permjit {

// After [params] and their overrides: `when` is evaluated from them.
void read_search(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r);

}  // namespace permjit
