// A guard in front of tomlplusplus: it limits nested arrays and inline tables
// (TOML_MAX_NESTED_VALUES) but not dotted keys, and `a.a.a....` with some ten thousand
// dots makes tables nested so deep that reading them exhausts the stack.
#pragma once
#include <optional>
#include <string_view>

#include "dsl/source.hpp"

namespace permjit {

// Most dots a key path may hold (a spec needs two or three).
inline constexpr int kMaxKeyDots = 256;

// The place of the first dot past kMaxKeyDots on one line, outside strings and
// comments (a key path, or a table header, lies on one line), or nullopt.
std::optional<Loc> find_deep_key(const SourceRef& file);

}  // namespace permjit
