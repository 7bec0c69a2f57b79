#include "dsl/toml_depth.hpp"

#include <algorithm>

namespace permjit {

std::optional<Loc> find_deep_key(const SourceRef& file) {
  const std::string_view s = file->text;
  int line = 1, col = 1, dots = 0;
  size_t i = 0;
  // Skips to just past `close`, honouring backslash escapes when `escapes`; strings
  // that span lines count them.
  auto skip_to = [&](std::string_view close, bool escapes) {
    while (i < s.size() && s.substr(i, close.size()) != close) {
      if (s[i] == '\n') {
        if (close.size() == 1) return;  // a one-line string ends with its line
        ++line;
        col = 1;
        ++i;
        continue;
      }
      const int step = escapes && s[i] == '\\' && i + 1 < s.size() && s[i + 1] != '\n' ? 2 : 1;
      i += step;
      col += step;
    }
    i = std::min(s.size(), i + close.size());
    col += static_cast<int>(close.size());
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      col = 1;
      dots = 0;
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      const bool multi = s.substr(i, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''");
      const std::string_view close = multi ? s.substr(i, 3) : s.substr(i, 1);
      i += close.size();
      col += static_cast<int>(close.size());
      skip_to(close, c == '"');
      continue;
    }
    if (c == '.' && ++dots > kMaxKeyDots) return Loc{file, line, col};
    ++i;
    ++col;
  }
  return std::nullopt;
}

}  // namespace permjit
