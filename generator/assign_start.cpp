#include "generator/assign_start.hpp"

namespace permjit {
namespace {

const Expr* first_assign(const Expr* e);
bool holds_dual_assign(const Expr* e);

bool holds_dual_assign(const Block& block) {
  for (const StmtPtr& s : block) {
    for (const Expr* x : {s->target.get(), s->value.get(), s->lo.get(), s->hi.get()})
      if (holds_dual_assign(x)) return true;
    for (const ExprPtr& d : s->dims)
      if (holds_dual_assign(d.get())) return true;
    if (holds_dual_assign(s->body) || holds_dual_assign(s->else_body)) return true;
  }
  return false;
}

bool holds_dual_assign(const Expr* e) {
  if (!e) return false;
  if (e->kind == Expr::Kind::pair_reduce && e->builtin == Builtin::dualassign) return true;
  for (const ExprPtr& a : e->args)
    if (holds_dual_assign(a.get())) return true;
  return false;
}

const Expr* first_assign(const Block& block) {
  for (const StmtPtr& s : block) {
    for (const Expr* x : {s->target.get(), s->value.get(), s->lo.get(), s->hi.get()})
      if (const Expr* found = first_assign(x)) return found;
    for (const ExprPtr& d : s->dims)
      if (const Expr* found = first_assign(d.get())) return found;
    if (const Expr* found = first_assign(s->body)) return found;
    if (const Expr* found = first_assign(s->else_body)) return found;
  }
  return nullptr;
}

// Depth first, arguments in order: a prelude's `let` before the value that reads it.
const Expr* first_assign(const Expr* e) {
  if (!e) return nullptr;
  // A chained assign() (`then`) is solved from scratch: its reduced costs feed the next
  // bound, and a started solve's potentials depend on the start, which would make the
  // bound depend on the skeleton's path rather than on the node alone.
  if (e->kind == Expr::Kind::pair_reduce && e->builtin == Builtin::assign && !e->chained) return e;
  for (const ExprPtr& a : e->args)
    if (const Expr* found = first_assign(a.get())) return found;
  return nullptr;
}

}  // namespace

const Expr* started_assign(const Branch& b) {
  if (b.stages != 2 || !b.refine) return nullptr;
  if (const Expr* found = first_assign(b.refine_prelude)) return found;
  return first_assign(b.refine.get());
}

bool has_dual_assign(const Branch& b) {
  return b.stages == 2 && b.refine && (holds_dual_assign(b.refine_prelude) || holds_dual_assign(b.refine.get()));
}

}  // namespace permjit
