// Resolves names and checks types of expressions and update blocks, filling each node's
// `type` and `sym`. Reports every error it finds with the place inside the expression.
#pragma once
#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// Which names an expression may use besides params, data and state.
// Build it with designated initializers (`{.where = ..., .path = true}`): the flags are
// all bools, and a positional list silently sets the wrong one when a flag is added.
struct CheckContext {
  const char* where = "";   // "bound", "place", ... for messages
  bool node = true;         // d, last, first, free, all and state variables
  bool value = false;       // v, the value being placed
  bool writable = false;    // assignments to state variables (update blocks)
  bool host = false;        // computed once on the host ([derived]): argsort() allowed
  bool path = false;        // a move-based problem: `perm` instead of d, last, first, free, v
  bool solver = false;      // bound, refine, objective, [derived]: assign() and minprod() allowed
};

// Returns the expression's type, Type::error after reporting.
Type check_expression(Expr& e, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags);
void check_block(Block& b, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags);
// A value block: `prelude` then `value` in the prelude's scope; `value` must be `want`.
bool check_value(Block& prelude, Expr& value, Type want, ProblemSpec& spec, const CheckContext& ctx,
                 Diagnostics& diags);
// check_value with one more int local, `name`, in scope (refine's `bound`); its
// symbol (owned by spec.locals) goes to `*local`.
bool check_value_with_local(Block& prelude, Expr& value, Type want, const std::string& name, const Symbol** local,
                            ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags);
// An expression that sees int locals `names` (a derived table's indices), bound to the
// returned symbols (owned by spec.locals), in order.
std::vector<const Symbol*> check_with_indices(Expr& e, const std::vector<std::string>& names, Type want,
                                              ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags);

// Checks and requires a type: reports "`where` must be an int expression, found bool".
bool check_typed(Expr& e, Type want, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags);

// Edit-distance suggestion among `candidates`, or empty.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace permjit
