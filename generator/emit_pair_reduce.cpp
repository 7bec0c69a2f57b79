// assign(i in S, j in T: cost), arborescence(i in S, j in T: cost) and minprod(x in S:
// a, y in T: b) lowered to the solvers of templates/pair_reductions.h. Each side is listed into a local array sized
// by its capacity (the shape's size for a set, the proven width of a range), with a
// branch-free compaction; assign then fills a cost matrix over the listed elements,
// looping over the actual counts (cost expressions are not evaluated for elements that
// do not exist: Gilmore-Lawler's costs are a reduction each), and calls the solver.
// Arrays: 2 lists and a capacity_A x capacity_B matrix, plus the solver's 5 arrays of
// max(capacity) + 1; on the GPU they are local memory (docs/spec-language.md).
#include "dsl/diagnostics.hpp"
#include "generator/emit_expr.hpp"
#include "generator/minprod_hoisting.hpp"

namespace permjit {
namespace {

// The structure of `x` with the reduction's own names as $A and $B and every other name
// as its symbol: equal keys read the same values. False (no key) when `x` reads a `var`
// local, which may change between two reductions.
bool structure(const Expr& x, const Expr& reduction, std::string& key) {
  auto name = [&](const Symbol* s) -> std::string {
    if (!s) return "-";
    if (s == reduction.sym) return "$A";
    if (s == reduction.sym2) return "$B";
    return std::to_string(reinterpret_cast<uintptr_t>(s));
  };
  if ((x.sym && x.sym->assignable) || (x.sym2 && x.sym2->assignable)) return false;
  key += "(" + std::to_string(int(x.kind)) + " " + x.text + " " + std::to_string(x.value) + " " + name(x.sym) + " " +
         name(x.sym2) + " " + std::to_string(x.over_range) + std::to_string(x.over_range2);
  for (const auto& a : x.args)
    if (!structure(*a, reduction, key)) return false;
  key += ")";
  return true;
}

// The key of an assign() or arborescence(): its sides and its cost (not which of the two
// it is), or empty when it has none.
std::string pair_reduce_key(const Expr& e) {
  std::string key = std::to_string(e.over_range) + std::to_string(e.over_range2);
  for (size_t i = 0; i <= first_body(e); ++i)
    if (!structure(*e.args[i], e, key)) return "";
  return key;
}

}  // namespace

int64_t ExprEmitter::side_capacity(const Expr& e, size_t at, bool range) {
  int64_t capacity = spec_.size;
  if (range) {
    ValueRange lo = value_range(*e.args[at], env_), hi = value_range(*e.args[at + 1], env_);
    if (lo.known && hi.known) capacity = std::max<int64_t>(0, hi.hi - lo.lo);
  }
  return std::max<int64_t>(capacity, 1);  // a C array has at least one element
}

int64_t ExprEmitter::gather_side(const Expr& e, size_t at, bool range, const Symbol* var, std::string& list,
                                 std::string& count, const Expr* value, std::string* values) {
  const std::string loop_var = local_name(var);
  list = tmp(e.text + "_list");
  count = tmp(e.text + "_count");
  std::string guard;
  const int64_t capacity = side_capacity(e, at, range);
  std::string set;
  if (!range) {
    set = tmp("set");
    out_.line("const Mask " + set + " = " + emit(*e.args[at]) + ";");
  }
  const std::string elem = value ? cxx_type(Type::int_, wide_) : "int";
  // One spare element: the compaction writes every candidate at the count, members or not.
  out_.line(elem + " " + list + "[" + std::to_string(capacity + 1) + "];");
  out_.line("int " + count + " = 0;");
  if (range) {
    open_range(*e.args[at], *e.args[at + 1], var, guard);  // throws when a bound has no limit
  } else {
    out_.open_loop(spec_.size);
    out_.line("for (int " + loop_var + " = 0; " + loop_var + " < kSize; ++" + loop_var + ") {");
    guard = "pj::test(" + set + ", " + loop_var + ")";
    env_.locals[var] = ValueRange::between(0, spec_.size - 1);
  }
  out_.indent();
  std::string item = loop_var;
  if (value) {
    Taken t(*this, guard);
    item = emit(*value);
  }
  out_.line(list + "[" + count + "] = " + item + ";");
  out_.line(count + " += " + (guard.empty() ? "1" : "int(" + guard + ")") + ";");
  out_.dedent();
  out_.line("}");
  out_.close_loop();
  if (values) *values = list;
  return capacity;
}

std::string ExprEmitter::pair_reduce(const Expr& e) {
  const size_t b_at = side_b(e), body = first_body(e);
  const std::string type = cxx_type(Type::int_, wide_);
  std::string la, na, lb, nb;
  if (e.builtin == Builtin::dualassign) return dual_assign(e);
  if (e.builtin == Builtin::minprod) {
    const std::string acc = tmp(e.text);
    std::string va, vb;
    gather_side(e, 0, e.over_range, e.sym, la, na, e.args[body].get(), &va);
    gather_side(e, b_at, e.over_range2, e.sym2, lb, nb, e.args[body + 1].get(), &vb);
    out_.line("const " + type + " " + acc + " = pj::min_product<" + type + ">(" + va + ", " + na + ", " + vb + ", " +
              nb + ");");
    return acc;
  }
  const std::string key = pair_reduce_key(e);
  for (const CostMatrix& m : matrices_)
    if (!key.empty() && m.key == key && out_.is_open(m.block)) return solve_pair(e, m);
  CostMatrix m;
  m.key = key;
  m.block = out_.block();
  const int64_t ca = m.ca = gather_side(e, 0, e.over_range, e.sym, la, na);
  const int64_t cb = m.cb = gather_side(e, b_at, e.over_range2, e.sym2, lb, nb);
  const std::string a = tmp("a"), b = tmp("b");
  // minprod calls whose lists follow the row or the column alone: sorted once per row
  // and once per column, then one pass per pair (generator/minprod_hoisting.hpp).
  const std::vector<HoistedMinprod> hoisted = hoistable_minprods(e);
  for (const HoistedMinprod& h : hoisted) {
    const Expr& m = *h.minprod;
    std::string lists[2], counts[2];
    for (int by_column = 0; by_column < 2; ++by_column) {
      const bool first = (by_column == 0) == h.first_per_row;  // which list of m
      const size_t at = first ? 0 : side_b(m);
      const bool range = first ? m.over_range : m.over_range2;
      const std::string idx = by_column ? b : a, n = by_column ? nb : na, src = by_column ? lb : la;
      const int64_t cap = side_capacity(m, at, range);
      lists[by_column] = tmp("minprod_sorted");
      counts[by_column] = tmp("minprod_sorted_count");
      out_.line(type + " " + lists[by_column] + "[" + std::to_string(by_column ? cb : ca) + "][" +
                std::to_string(cap + 1) + "];");
      out_.line("int " + counts[by_column] + "[" + std::to_string(by_column ? cb : ca) + "];");
      out_.line("for (int " + idx + " = 0; " + idx + " < " + n + "; ++" + idx + ") {");
      out_.indent();
      out_.line("const int " + local_name(by_column ? e.sym2 : e.sym) + " = " + src + "[" + idx + "];");
      std::string list, count, values;
      gather_side(m, at, range, first ? m.sym : m.sym2, list, count, m.args[first_body(m) + (first ? 0 : 1)].get(),
                  &values);
      out_.line("pj::sort_prefix(" + values + ", " + count + ");");
      const std::string t = tmp("t");
      out_.line("for (int " + t + " = 0; " + t + " < " + count + "; ++" + t + ") " + lists[by_column] + "[" + idx +
                "][" + t + "] = " + values + "[" + t + "];");
      out_.line(counts[by_column] + "[" + idx + "] = " + count + ";");
      out_.dedent();
      out_.line("}");
    }
    hoisted_[&m] = "pj::sorted_min_product<" + type + ">(" + lists[0] + "[" + a + "], " + counts[0] + "[" + a + "], " +
                   lists[1] + "[" + b + "], " + counts[1] + "[" + b + "])";
  }
  const std::string cost = tmp("cost");
  out_.line(type + " " + cost + "[" + std::to_string(ca) + "][" + std::to_string(cb) + "];");
  // The listed values keep the ranges the gathering loops proved for them.
  out_.line("for (int " + a + " = 0; " + a + " < " + na + "; ++" + a + ") {");
  out_.indent();
  out_.line("const int " + local_name(e.sym) + " = " + la + "[" + a + "];");
  out_.line("for (int " + b + " = 0; " + b + " < " + nb + "; ++" + b + ") {");
  out_.indent();
  out_.line("const int " + local_name(e.sym2) + " = " + lb + "[" + b + "];");
  const std::string c = emit(*e.args[body]);
  out_.line(cost + "[" + a + "][" + b + "] = " + c + ";");
  for (const HoistedMinprod& h : hoisted) hoisted_.erase(h.minprod);
  out_.dedent();
  out_.line("}");
  out_.dedent();
  out_.line("}");
  m.la = la, m.na = na, m.lb = lb, m.nb = nb, m.cost = cost;
  if (!key.empty()) matrices_.push_back(m);
  return solve_pair(e, m);
}

std::string ExprEmitter::solve_pair(const Expr& e, const CostMatrix& m) {
  const std::string type = cxx_type(Type::int_, wide_);
  const std::string acc = tmp(e.text);
  const std::string sizes = "<" + type + ", " + std::to_string(m.ca) + ", " + std::to_string(m.cb) + ">";
  out_.require_call();
  const std::string start = e.chained ? chain_start(e, m) : "";  // its loop before the call
  if (e.chained)  // additive and Lagrangian bounds (templates/lagrange_bounds.h)
    out_.line("const " + type + " " + acc + " = pj::assign_then_arborescence" + sizes + "(" + m.cost + ", " + m.la +
              ", " + m.na + ", " + m.lb + ", " + m.nb + ", " + std::to_string(e.steps) + start + ");");
  else if (e.builtin == Builtin::arborescence)  // which elements of A are elements of B: their values
    out_.line("const " + type + " " + acc + " = pj::arborescence_min" + sizes + "(" + m.cost + ", " + m.la + ", " + m.na +
              ", " + m.lb + ", " + m.nb + ");");
  else if (&e != started_)
    out_.line("const " + type + " " + acc + " = pj::assign_min" + sizes + "(" + m.cost + ", " + m.na + ", " + m.nb + ");");
  else {  // only the instance that runs compiles its solver (generator/assign_start.hpp)
    out_.line(type + " " + acc + ";");
    out_.line("if constexpr (kStarted) " + acc + " = pj::assign_min_from" + sizes + "(" + m.cost + ", " + m.na + ", " +
              m.nb + ", " + m.la + ", " + m.lb + ", " + started_from_ + ", " + started_to_ + ");");
    out_.line("else " + acc + " = pj::assign_min" + sizes + "(" + m.cost + ", " + m.na + ", " + m.nb + ");");
  }
  return acc;
}

// `... from E`: E for each listed element of side A, in a local array handed to the
// solver after the steps; empty without `from`. E reads only side A's name, parameters
// and data (the checker), so any block may hold it.
std::string ExprEmitter::chain_start(const Expr& e, const CostMatrix& m) {
  if (!e.from_expr) return "";
  const std::string type = cxx_type(Type::int_, wide_);
  const std::string start = tmp("start"), a = tmp("a");
  ValueRange range = ValueRange::between(0, spec_.size - 1);
  if (e.over_range) {
    const ValueRange lo = value_range(*e.args[0], env_), hi = value_range(*e.args[1], env_);
    range = lo.known && hi.known ? ValueRange::between(lo.lo, std::max(lo.lo, hi.hi - 1)) : ValueRange{};
  }
  env_.locals[e.sym] = range;
  out_.line(type + " " + start + "[" + std::to_string(m.ca) + "];");
  out_.line("for (int " + a + " = 0; " + a + " < " + m.na + "; ++" + a + ") {");
  out_.indent();
  out_.line("const int " + local_name(e.sym) + " = " + m.la + "[" + a + "];");
  out_.line(start + "[" + a + "] = " + emit(*e.from_expr) + ";");
  out_.dedent();
  out_.line("}");
  return ", " + start;
}

}  // namespace permjit
