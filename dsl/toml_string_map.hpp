// Maps each byte of a decoded TOML string back to its place in the file, so that an
// error inside an expression string (even a multi-line one, or one with escapes) points
// at the exact line and column of the .toml.
#pragma once
#include <string_view>
#include <vector>

#include "dsl/source.hpp"

namespace permjit {

// `start` is where the string's opening quote is (toml++'s node source). The result has
// decoded.size() + 1 entries; the last one is the place just after the final character.
// If the raw text cannot be matched to `decoded`, every entry is `start`.
std::vector<Loc> map_toml_string(const Loc& start, std::string_view decoded);

}  // namespace permjit
