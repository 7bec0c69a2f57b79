// child_bound(s, prep, v): bound() of a child s = place(parent, v) or place_back(parent,
// v), with the reductions over its free values that read nothing of the node taken from
// its parent. A child's free values are its parent's less v, so such a reduction, e.g.
// flowshop's min(j in free: tail[k][j]) or sum(j in free: p[k][j]) for each machine k,
// is known for every child once it is known for the parent: a sum less v's term, a
// count less v's, a minimum (maximum) the parent's unless v held it, then the runner-up.
// prepare_children(parent, prep) computes them once per expansion; each child's bound
// then reads them instead of scanning its free values again (20 x 20 x 3 terms per
// child on a 20x20 flowshop with two ends, where the rest of LB1 is 20 maxima).
//
// Which reductions: over `free` itself (the node's), min, max, sum or count, whose term
// reads only the reduction's variable, data, parameters, literals and the variables of
// enclosing loops of constant range (their values index the slot). Anything else is
// emitted in place, as in bound(). Both functions are bound()'s text emitted again with
// the reductions replaced, so the value is bound()'s exactly; prepare_children keeps
// only the stores (the rest of its body is dead and the compilers drop it).
// Tests: tests/lit/child-bound.test (what is split), tests/e2e/child_bound_test.cpp
// (child_bound equals bound on every child of random nodes).
#include <algorithm>

#include "dsl/diagnostics.hpp"
#include "generator/emit_expr.hpp"
#include "generator/emit_parts.hpp"

namespace permjit {

namespace {
// Statements a loop nest of prepare_children may unroll to: a scan over the values (20
// terms of a 20x20 flowshop) unrolls, the loop over machines around it does not.
constexpr int64_t kPrepareUnrollBudget = 256;
}  // namespace

bool ExprEmitter::reads_only_fixed(const Expr& e, const Symbol* var) const {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::int_lit:
    case K::bool_lit: return true;
    case K::name: {
      const Symbol* s = e.sym;
      if (!s) return false;
      switch (s->kind) {
        case Symbol::Kind::param:
        case Symbol::Kind::data: return true;
        case Symbol::Kind::state: return false;
        case Symbol::Kind::builtin: return s->builtin == Builtin::all;
        case Symbol::Kind::local:
          if (s == var) return true;
          for (const auto& loop : loops_)
            if (loop.first == s) return true;
          return false;
      }
      return false;
    }
    case K::unary:
    case K::binary:
    case K::cond:
    case K::call:
    case K::index:
      for (const auto& a : e.args)
        if (!reads_only_fixed(*a, var)) return false;
      return true;
    case K::reduce:
    case K::let:
    case K::argsort:
    case K::pair_reduce: return false;
  }
  return false;
}

bool ExprEmitter::from_parent_eligible(const Expr& e) const {
  if (e.kind != Expr::Kind::reduce || e.over_range) return false;
  switch (e.builtin) {
    case Builtin::min_of:
    case Builtin::max_of:
    case Builtin::sum:
    case Builtin::count: break;
    default: return false;  // a reduction without a split form
  }
  const Expr& set = *e.args[0];
  if (set.kind != Expr::Kind::name || !set.sym || set.sym->builtin != Builtin::free) return false;
  return reads_only_fixed(*e.args.back(), e.sym);
}

std::string ExprEmitter::parent_slot_index(std::string* dims) {
  std::string index;
  for (const auto& [sym, range] : loops_) {
    PJ_INTERNAL_ASSERT(range.known, "a loop around a split reduction has no constant range");
    index += "[" + local_name(sym) + " - (" + std::to_string(range.lo) + ")]";
    if (dims) *dims += "[" + std::to_string(range.hi - range.lo + 1) + "]";
  }
  return index;
}

std::string ExprEmitter::prepare_reduction(const Expr& e) {
  const std::string member = "r" + std::to_string(next_parent_slot_++);
  std::string dims;
  const std::string index = parent_slot_index(&dims);
  const std::string t = cxx_type(Type::int_, wide_);
  const std::string& op = e.text;
  const bool extreme = e.builtin == Builtin::min_of || e.builtin == Builtin::max_of;
  const std::string acc = tmp(op), second = acc + "_second", arg = acc + "_arg";
  const std::string any = acc + "_any", any2 = acc + "_any2";
  const std::string var = local_name(e.sym), set = tmp("set");
  out_.line(t + " " + acc + " = 0;");
  if (extreme) {
    // The winner (the first value that holds the extreme) and the extreme of the others:
    // 0 when there are none, as an empty min or max is.
    out_.line(t + " " + second + " = 0;");
    out_.line("int " + arg + " = -1;");
    out_.line("bool " + any + " = false, " + any2 + " = false;");
  }
  out_.line("const Mask " + set + " = " + emit(*e.args[0]) + ";");
  out_.open_loop(spec_.size);
  out_.line("for (int " + var + " = 0; " + var + " < kSize; ++" + var + ") {");
  out_.indent();
  env_.locals[e.sym] = ValueRange::between(0, spec_.size - 1);
  const std::string in = "pj::test(" + set + ", " + var + ")";
  std::string body;
  {
    Taken t(*this, in);
    body = emit(*e.args.back());
  }
  if (e.builtin == Builtin::sum) {
    out_.line(acc + " += " + select(Type::int_, in, body, "0", wide_) + ";");
  } else if (e.builtin == Builtin::count) {
    out_.line(acc + " += int(bool(" + in + " & " + body + "));");
  } else {
    const std::string cmp = e.builtin == Builtin::min_of ? " < " : " > ";
    const std::string term = tmp("term"), better = tmp("better"), better2 = tmp("better2");
    out_.line("const " + t + " " + term + " = " + body + ";");
    out_.line("const bool " + better + " = bool(" + in + " & (!" + any + " | (" + term + cmp + acc + ")));");
    out_.line("const bool " + better2 + " = bool(" + in + " & !" + better + " & (!" + any2 + " | (" + term + cmp +
              second + ")));");
    out_.line(second + " = " + select(Type::int_, better, acc, select(Type::int_, better2, term, second, wide_), wide_) +
              ";");
    out_.line(any2 + " = bool((" + better + " & " + any + ") | (!" + better + " & (" + any2 + " | " + better2 + ")));");
    out_.line(acc + " = " + select(Type::int_, better, term, acc, wide_) + ";");
    out_.line(arg + " = pj::select<int>(" + better + ", " + var + ", " + arg + ");");
    out_.line(any + " = bool(" + any + " | " + in + ");");
  }
  out_.dedent();
  out_.line("}");
  out_.close_loop();
  out_.line("prep." + member + index + " = " + acc + ";");
  parent_members_.push_back(t + " " + member + dims + ";  // " + op + " over the parent's free values");
  if (extreme) {
    out_.line("prep." + member + "_second" + index + " = " + second + ";");
    out_.line("prep." + member + "_arg" + index + " = " + arg + ";");
    parent_members_.push_back(t + " " + member + "_second" + dims + ";  // the same without its winner");
    parent_members_.push_back("int " + member + "_arg" + dims + ";  // the winner (-1: no free value)");
  }
  return acc;
}

std::string ExprEmitter::reduction_from_parent(const Expr& e) {
  const std::string member = "prep.r" + std::to_string(next_parent_slot_++);
  const std::string index = parent_slot_index(nullptr);
  if (e.builtin == Builtin::min_of || e.builtin == Builtin::max_of)
    return select(Type::int_, "bool(v_placed == " + member + "_arg" + index + ")", member + "_second" + index,
                  member + index, wide_);
  // The parent's sum or count less the term of the value the child placed.
  const std::string var = local_name(e.sym);
  out_.line("const int " + var + " = v_placed;");
  env_.locals[e.sym] = ValueRange::between(0, spec_.size - 1);
  const std::string body = emit(*e.args.back());
  if (e.builtin == Builtin::sum) return "(" + member + index + " - " + body + ")";
  return "(" + member + index + " - int(bool(" + body + ")))";
}

void emit_child_bound(GenContext& g) {
  const Branch& b = g.spec.branch;
  const int n = g.spec.size;
  const std::string t = ExprEmitter::cxx_type(Type::int_, g.width.wide);
  const NodeNames names{"s.", "s.", 1, n - 1};  // as bound(): a child that is not a leaf
  std::vector<std::string> members;
  int reductions = 0;
  if (b.bound) {  // a dry run lists the members the struct must declare before the functions
    CodeWriter scratch("scratch");
    std::map<const Symbol*, int> ids = g.local_ids;
    ExprEmitter x(g.spec, scratch, names, ids, g.width.wide);
    x.free_reductions(ExprEmitter::FreeReductions::prepare);
    x.emit_value(b.bound_prelude, *b.bound);
    members = x.parent_members();
    reductions = x.parent_reductions();
  }
  g.out.line("// What the children's bounds take from their parent (generator/emit_child_bound.cpp):");
  g.out.line("// reductions over the parent's free values that read nothing of the node.");
  g.out.line("struct ParentReductions {");
  g.out.indent();
  for (const auto& m : members) g.out.line(m);
  g.out.dedent();
  g.out.line("};");
  g.out.line("constexpr int kParentReductions = " + std::to_string(reductions) + ";  // reductions split");
  g.out.line("");
  if (members.empty()) {
    g.out.line("// No reduction to take from the parent: a child's bound is bound().");
    g.out.line("PJ_HD void prepare_children(const Node&, ParentReductions&) {}");
    g.out.line("PJ_HD " + t + " child_bound(const Node& s, const ParentReductions&, int) { return bound(s); }");
    g.out.line("");
    return;
  }
  const int64_t budget = g.out.unroll_budget();
  for (const auto mode : {ExprEmitter::FreeReductions::prepare, ExprEmitter::FreeReductions::from_parent}) {
    const bool prepare = mode == ExprEmitter::FreeReductions::prepare;
    ExprEmitter x(g.spec, g.out, names, g.local_ids, g.width.wide);
    x.free_reductions(mode);
    g.out.line(prepare ? "// The reductions of the parent s that child_bound reads."
                       : "// bound(s) of the child s that placed v_placed, prep filled from its parent.");
    g.out.open_function();
    g.out.line(prepare ? "PJ_HD void prepare_children(const Node& s, ParentReductions& prep) {"
                       : "PJ_HD " + t + " child_bound(const Node& s, const ParentReductions& prep, int v_placed) {");
    g.out.indent();
    // prepare_children runs once per expansion and stores to memory: its loops unroll
    // within a small budget only, whatever they index (a scan over the values, not the
    // loops around it). Unrolled like bound(), it doubled NVRTC's time for a 20x20
    // flowshop (ta022 ivm `emit --stage ptx`: 2.8 -> 6.5 s).
    if (prepare) {
      g.out.open_called_function();
      g.out.set_unroll_budget(std::min<int64_t>(budget, kPrepareUnrollBudget));
    }
    g.out.user_place(b.bound->loc);
    const std::string v = x.emit_value(b.bound_prelude, *b.bound);
    g.out.line(prepare ? "(void)(" + v + ");  // only the stores to prep are kept" : "return " + v + ";");
    g.out.generated_place();
    if (prepare) {
      g.out.set_unroll_budget(budget);
      g.out.close_called_function();
    }
    g.out.dedent();
    g.out.line("}");
    g.out.close_function();
    g.out.line("");
  }
}

}  // namespace permjit
