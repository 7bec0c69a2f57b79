// Tokens of the expression language.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "dsl/parser.hpp"

namespace permjit {

struct Token {
  enum class Kind { end, newline, integer, ident, keyword, punct };
  Kind kind = Kind::end;
  std::string text;
  int64_t value = 0;
  Loc loc;
};

// Newlines become tokens only outside parentheses and brackets, and only when
// `keep_newlines` (statement blocks); a `#` starts a comment to the end of the line.
bool lex(const ExprSource& src, bool keep_newlines, std::vector<Token>& out, Diagnostics& diags);

}  // namespace permjit
