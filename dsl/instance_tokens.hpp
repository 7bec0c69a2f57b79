// Whitespace-separated tokens of an instance file, each with its place.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dsl/diagnostics.hpp"

namespace permjit {

struct InstanceToken {
  std::string_view text;
  Loc loc;
};

// Tokens from byte `from` on.
std::vector<InstanceToken> split_tokens(const SourceRef& file, size_t from = 0);
// The place just after the last character of the file.
Loc end_of(const SourceRef& file);
// An integer that fits the generated code's int (32 bits); reports and returns nullopt.
std::optional<int64_t> to_int(const InstanceToken& t, Diagnostics& diags, std::string_view what);

}  // namespace permjit
