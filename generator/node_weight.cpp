#include "generator/node_weight.hpp"

#include "dsl/static_eval.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

namespace {

bool solves(const Block& b);

bool solves(const Expr& e) {
  if (e.kind == Expr::Kind::cond)
    if (auto c = eval_static(*e.args[0])) return solves(*e.args[*c ? 1 : 2]);
  if (e.kind == Expr::Kind::pair_reduce && (e.pair == PairOp::assign || e.pair == PairOp::arborescence)) return true;
  for (const auto& a : e.args)
    if (solves(*a)) return true;
  return false;
}

bool solves(const Stmt& s) {
  for (const Expr* e : {s.target.get(), s.value.get(), s.lo.get(), s.hi.get()})
    if (e && s.kind != Stmt::Kind::if_ && solves(*e)) return true;
  if (s.kind == Stmt::Kind::if_) {
    if (auto c = eval_static(*s.value)) return solves(*c ? s.body : s.else_body);
    return solves(*s.value) || solves(s.body) || solves(s.else_body);
  }
  return solves(s.body);
}

bool solves(const Block& b) {
  for (const auto& s : b)
    if (solves(*s)) return true;
  return false;
}

}  // namespace

bool solves_matching(const ProblemSpec& s) {
  const Branch& b = s.branch;
  for (auto [prelude, e] : values_in_use(b))
    if (solves(*prelude) || (e && solves(*e))) return true;
  for (const Placement* p : placements_in_use(b)) {
    if (solves(p->block)) return true;
    for (const auto& [name, e] : p->simultaneous)
      if (solves(*e)) return true;
  }
  return false;
}

}  // namespace permjit
