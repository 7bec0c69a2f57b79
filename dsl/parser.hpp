// Parses the expression language and update blocks out of TOML strings. Input is the
// decoded string plus the place of each of its bytes (map_toml_string), so every node
// and every error names the exact spot in the .toml.
#pragma once
#include <string_view>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace permjit {

// How deep an expression or a block may nest: parentheses, unary operators, arguments,
// nested statements, and the operators of a chain (`a && b && c` is a tree as deep as
// its length). Every pass after the parser walks the tree recursively; refusing deeper
// trees here, at the place that passes the limit, bounds them all.
inline constexpr int kMaxNesting = 256;

struct ExprSource {
  std::string_view text;
  const std::vector<Loc>* places;  // text.size() + 1 entries
};

// Returns nullptr after reporting errors.
ExprPtr parse_expression(const ExprSource& src, Diagnostics& diags);
// A value (bound, objective, candidates, filter): one expression, or, when the text
// starts with var / for / if or holds `return`, a block of statements whose last one is
// `return <expression>`. The statements go to `prelude`; returns the final expression,
// nullptr after reporting errors.
ExprPtr parse_value(const ExprSource& src, Block& prelude, Diagnostics& diags);
// An update block: statements separated by newlines or `;`:
//   target = expr | target[i]... = expr | let x = expr | for i in lo..hi: stmt
//   | for i in lo..hi { stmts }
// Returns false after reporting errors.
//   Statements also: var x = e | var a[dim]... = e | if cond { stmts } else { stmts }
bool parse_block(const ExprSource& src, Block& out, Diagnostics& diags);

}  // namespace permjit
