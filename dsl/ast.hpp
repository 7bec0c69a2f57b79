// The expression and statement trees of the spec language. The parser fills the shape
// and the places; the checker fills `type` and `sym`.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/source.hpp"

namespace permjit {

// Scalar types of the language. Arrays are symbols with dimensions; an indexed array
// element has its element type.
enum class Type : uint8_t { error, int_, bool_, bits };
const char* type_name(Type t);

struct Symbol;

// The builtins of the language, in the order of their table (dsl/builtins.hpp, which
// also says how to add one). The checker resolves each builtin name, call and
// reduction to one of these; later stages switch on it.
enum class Builtin : uint8_t {
  none,
  // Names: values of the node (Symbol::Kind::builtin).
  d, last, first, free, all, v, perm,
  // Functions: f(a, ...) (Expr::Kind::call).
  min, max, abs, bit, test, popcount, lowest,
  // Reductions: f(x in S: body) or f(x in lo..hi: body) (Expr::Kind::reduce).
  sum, count, min_of, max_of,
  // Two-set reductions: f(i in S, j in T: cost) (Expr::Kind::pair_reduce).
  assign, arborescence, minprod, dualassign,
  // argsort(x in lo..hi: key, ...)[k] (Expr::Kind::argsort).
  argsort,
};

struct Expr {
  enum class Kind { int_lit, bool_lit, name, unary, binary, cond, call, index, reduce, let, argsort, pair_reduce };
  Kind kind;
  Loc loc;
  std::string text;  // name, operator, function, reduction (sum|min|max|count)
  int64_t value = 0;  // int_lit / bool_lit
  // unary: [x]; binary: [l, r]; cond: [c, a, b]; call: arguments; index: [array, i...];
  // reduce: [set, body] or [lo, hi, body]; let: [value, body];
  // argsort: [lo, hi, position, key...] (the position-th value of lo..hi by its keys)
  // pair_reduce (`builtin`, text its name): [side A..., side B..., body...], each side a
  // set or lo, hi (see side_b / first_body); assign and arborescence have one body (the
  // cost of var, var2), minprod two (the value of var, the value of var2), dualassign
  // three (the cost of var, var2; the pair cost of var, var2, var3, var4; the rounds).
  std::vector<std::unique_ptr<Expr>> args;
  std::string var;          // the bound name of reduce / let / argsort / side A of pair_reduce
  bool over_range = false;  // reduce (or side A) over lo..hi instead of a set
  std::string var2;          // pair_reduce: the bound name of side B
  bool over_range2 = false;  // pair_reduce: side B over lo..hi
  // call, reduce: which builtin, filled by the checker; pair_reduce, argsort: filled by
  // the parser (their syntax is their own).
  Builtin builtin = Builtin::none;
  std::string var3, var4;  // a pair_reduce with a pair cost (dualassign): the second element of side A, of side B
  // pair_reduce with `then` (additive bounding, docs/spec-language.md "Additive and
  // Lagrangian bounds"): the reduction solved on this one's reduced costs, and how many
  // subgradient steps move the multipliers of side A (`steps`, a constant; 0: none).
  bool chained = false;
  Builtin then = Builtin::none;
  std::unique_ptr<Expr> steps_expr;  // null: no `steps`
  int64_t steps = 0;                 // its value, set by the checker
  // `... steps K from E`: side A's multipliers start at E (of side A's name, known before
  // the search) instead of 0; `... steps K multiplier X` ([derived] only): the value is
  // the multiplier of side A's element X after K steps at this one matrix (the root's).
  std::unique_ptr<Expr> from_expr;        // null: start from 0
  std::unique_ptr<Expr> multiplier_expr;  // null: the value is the bound

  Type type = Type::error;
  const Symbol* sym = nullptr;  // name, index base; the bound variable of reduce / let
  const Symbol* sym2 = nullptr;  // pair_reduce: the bound variable of side B
  const Symbol* sym3 = nullptr;  // dualassign: the pair cost's second element of side A
  const Symbol* sym4 = nullptr;  //   and of side B

  Expr(Kind k, Loc l) : kind(k), loc(std::move(l)) {}
};
using ExprPtr = std::unique_ptr<Expr>;

// A chain's expressions outside `args` (`steps K`, `from E`, `multiplier X`): a walk over
// what an expression reads visits these too.
inline std::vector<const Expr*> chain_parts(const Expr& e) {
  std::vector<const Expr*> out;
  for (const Expr* x : {e.steps_expr.get(), e.from_expr.get(), e.multiplier_expr.get()})
    if (x) out.push_back(x);
  return out;
}

// Where a pair_reduce's side B and its bodies start in `args`.
inline size_t side_b(const Expr& e) { return e.over_range ? 2 : 1; }
inline size_t first_body(const Expr& e) { return side_b(e) + (e.over_range2 ? 2 : 1); }

struct Stmt {
  // var: a mutable local (scalar, or an array with `dims`); if_: `value` is the
  // condition, `body` the then-part, `else_body` the else-part (lowered to selects).
  enum class Kind { assign, for_, let, var, if_ };
  Kind kind;
  Loc loc;
  ExprPtr target;  // assign: a name or an index of a state variable or a var local
  ExprPtr value;   // assign, let, var (the initial value of every element), if_ (condition)
  std::string var;  // let, for, var
  ExprPtr lo, hi;   // for
  std::vector<ExprPtr> dims;  // var arrays
  std::vector<std::unique_ptr<Stmt>> body;       // for, if_
  std::vector<std::unique_ptr<Stmt>> else_body;  // if_
  const Symbol* sym = nullptr;  // let / for / var variable, filled by the checker

  Stmt(Kind k, Loc l) : kind(k), loc(std::move(l)) {}
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// Readable one-line rendering, used by `emit --stage spec` and in messages.
std::string to_string(const Expr& e);
std::string to_string(const Block& b, int indent = 0);

}  // namespace permjit
