#include "generator/minprod_hoisting.hpp"

#include <set>

namespace permjit {
namespace {

void names_read(const Expr& e, std::set<const Symbol*>& out) {
  if (e.kind == Expr::Kind::name && e.sym) out.insert(e.sym);
  for (const auto& a : e.args) names_read(*a, out);
}

void names_bound(const Expr& e, std::set<const Symbol*>& out) {
  if (e.kind == Expr::Kind::reduce || e.kind == Expr::Kind::let || e.kind == Expr::Kind::argsort ||
      e.kind == Expr::Kind::pair_reduce)
    out.insert(e.sym);
  if (e.kind == Expr::Kind::pair_reduce) out.insert(e.sym2);
  for (const auto& a : e.args) names_bound(*a, out);
}

void minprods(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::pair_reduce && e.builtin != Builtin::minprod) return;  // its own hoisting
  if (e.kind == Expr::Kind::pair_reduce) {
    out.push_back(&e);
    return;
  }
  for (const auto& a : e.args) minprods(*a, out);
}

// The locals of the cost that one list of `m` reads from outside itself: its set or
// range and its value, less the names they bind.
std::set<const Symbol*> outside_reads(const Expr& m, bool first, const std::set<const Symbol*>& cost_locals) {
  const size_t b = side_b(m), body = first_body(m);
  std::vector<const Expr*> parts;
  for (size_t k = first ? 0 : b; k < (first ? b : body); ++k) parts.push_back(m.args[k].get());
  parts.push_back(m.args[body + (first ? 0 : 1)].get());
  std::set<const Symbol*> read, bound{first ? m.sym : m.sym2};
  for (const Expr* p : parts) {
    names_read(*p, read);
    names_bound(*p, bound);
  }
  std::set<const Symbol*> out;
  for (const Symbol* s : read)
    if (!bound.count(s) && cost_locals.count(s)) out.insert(s);
  return out;
}

}  // namespace

std::vector<HoistedMinprod> hoistable_minprods(const Expr& assign) {
  const Expr& cost = *assign.args[first_body(assign)];
  std::set<const Symbol*> cost_locals{assign.sym, assign.sym2};
  names_bound(cost, cost_locals);
  std::vector<const Expr*> found;
  minprods(cost, found);
  std::vector<HoistedMinprod> out;
  auto only = [](const std::set<const Symbol*>& s, const Symbol* allowed) {
    return s.empty() || (s.size() == 1 && *s.begin() == allowed);
  };
  for (const Expr* m : found) {
    const auto first = outside_reads(*m, true, cost_locals), second = outside_reads(*m, false, cost_locals);
    if (only(first, assign.sym) && only(second, assign.sym2)) out.push_back({m, true});
    else if (only(first, assign.sym2) && only(second, assign.sym)) out.push_back({m, false});
  }
  return out;
}

}  // namespace permjit
