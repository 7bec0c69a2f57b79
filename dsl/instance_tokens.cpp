#include "dsl/instance_tokens.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>

namespace permjit {

std::vector<InstanceToken> split_tokens(const SourceRef& file, size_t from) {
  std::vector<InstanceToken> out;
  const std::string& s = file->text;
  int line = 1, col = 1;
  for (size_t i = 0; i < from && i < s.size(); ++i) {
    if (s[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  size_t i = from;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (c == '\n') { ++line; col = 1; } else { ++col; }
      ++i;
      continue;
    }
    size_t b = i;
    int bcol = col;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) { ++i; ++col; }
    out.push_back({std::string_view(s).substr(b, i - b), Loc{file, line, bcol}});
  }
  return out;
}

Loc end_of(const SourceRef& file) {
  int n = file->line_count();
  if (n == 0) return Loc{file, 1, 1};
  return Loc{file, n, static_cast<int>(file->line(n).size()) + 1};
}

std::optional<int64_t> to_int(const InstanceToken& t, Diagnostics& diags, std::string_view what) {
  int64_t v = 0;
  const char* b = t.text.data();
  const char* e = b + t.text.size();
  if (b != e && *b == '+') ++b;
  auto [end, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || end != e) {
    diags.error(t.loc, "expected an integer for " + std::string(what) + ", found '" + std::string(t.text) + "'");
    return std::nullopt;
  }
  if (v < INT32_MIN || v > INT32_MAX) {
    diags.error(t.loc, "value " + std::string(t.text) + " of " + std::string(what) + " does not fit in a 32-bit int");
    return std::nullopt;
  }
  return v;
}

}  // namespace permjit
