// The module cache a run asked for, checked before anything is compiled into it: a
// folder that cannot be made or written is the user's choice (--cache-dir, or the
// environment that chose the default), so it is a user error at that place with the
// OS's reason. It was an exit-2 error with no place that ended "the failing source is
// saved at " and nothing.
#pragma once
#include <string>

#include "runtime/compile/cache.hpp"

namespace permjit {

// `option`: the value of --cache-dir; empty for default_cache_dir().
ModuleCache open_module_cache(const std::string& option);

}  // namespace permjit
