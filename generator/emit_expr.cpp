#include "generator/emit_expr.hpp"

#include <map>

#include "dsl/diagnostics.hpp"
#include "dsl/static_eval.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

std::string ExprEmitter::select(Type t, const std::string& c, const std::string& a, const std::string& b,
                                bool wide_int) {
  return "pj::select<" + cxx_type(t, wide_int) + ">(" + c + ", " + a + ", " + b + ")";
}

std::string ExprEmitter::cxx_type(Type t, bool wide_int) {
  switch (t) {
    case Type::int_: return wide_int ? "Int" : "int";
    case Type::bool_: return "bool";
    case Type::bits: return "Mask";
    case Type::error: break;
  }
  PJ_INTERNAL_ASSERT(false, "no C++ type for an unchecked expression");
}

std::string ExprEmitter::local_name(const Symbol* s) {
  // Locals get a number so that shadowing and C++ keywords cannot collide.
  auto it = ids_.find(s);
  if (it == ids_.end()) it = ids_.emplace(s, static_cast<int>(ids_.size())).first;
  return s->name + "_" + std::to_string(it->second);
}

void ExprEmitter::bind_local(const Symbol* s, const std::string& value, int64_t lo, int64_t hi) {
  out_.line("const int " + local_name(s) + " = " + value + ";");
  env_.locals[s] = ValueRange::between(lo, hi);
}

std::string ExprEmitter::name(const Expr& e) {
  const Symbol* s = e.sym;
  PJ_INTERNAL_ASSERT(s, "unresolved name " + e.text);
  switch (s->kind) {
    case Symbol::Kind::param: return param_name(s->name);
    case Symbol::Kind::data: return data_name(s->name);
    case Symbol::Kind::state: return names_.state + state_name(s->name);
    case Symbol::Kind::local: return local_name(s);
    case Symbol::Kind::builtin:
      switch (s->builtin) {
        case Builtin::v: return "v";
        case Builtin::all: return "kAll";
        default: return names_.builtins + s->name;  // a member of Node: s.d, p.free, ...
      }
  }
  return "?";
}

// `a & ~b` of sets, one side a complement: every set value lies within kAll, so the
// other side keeps the result there and the complement needs no mask of its own (on
// the host one `andn`; `~a & ~b` is ~(a | b) and keeps its masks).
std::optional<std::string> ExprEmitter::and_not(const Expr& e) {
  if (e.type != Type::bits || e.text != "&") return std::nullopt;
  auto complement = [](const Expr& x) { return x.kind == Expr::Kind::unary && x.type == Type::bits; };
  const bool l_not = complement(*e.args[0]), r_not = complement(*e.args[1]);
  if (l_not == r_not) return std::nullopt;
  // Emitted left to right, as any binary operator (emitting may write hoisted lines).
  std::string l = l_not ? "~" + emit(*e.args[0]->args[0]) : emit(*e.args[0]);
  std::string r = r_not ? "~" + emit(*e.args[1]->args[0]) : emit(*e.args[1]);
  return "(" + l + " & " + r + ")";
}

std::string ExprEmitter::emit(const Expr& e) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::int_lit: return std::to_string(e.value);
    case K::bool_lit: return e.value ? "true" : "false";
    case K::name: return name(e);
    case K::unary: {
      std::string x = emit(*e.args[0]);
      // A set holds values 0..size-1 only: the complement is taken within kAll.
      if (e.type == Type::bits) return "(~" + x + " & kAll)";
      if (wide_ && e.type == Type::int_ && e.text == "-") return "(-Int(" + x + "))";
      return "(" + e.text + x + ")";
    }
    case K::binary: {
      if (auto masked = and_not(e)) return *masked;
      std::string l = emit(*e.args[0]);
      const bool logic = e.text == "&&" || e.text == "||";
      std::string r;
      {  // the right side of && counts where the left holds; of || where it does not
        Taken t(*this, !logic ? std::string() : e.text == "&&" ? "bool(" + l + ")" : "!bool(" + l + ")");
        r = emit(*e.args[1]);
      }
      if (wide_ && e.type == Type::int_ && std::string("+-*/%").find(e.text) != std::string::npos) {
        l = "Int(" + l + ")";
        if (e.text == "/" || e.text == "%") r = "Int(" + r + ")";  // pj::div(Int, Int)
      }
      // && and || compute both sides (they were hoisted anyway): no short-circuit branch.
      if (e.text == "&&" || e.text == "||")
        return "bool(" + l + (e.text == "&&" ? " & " : " | ") + r + ")";
      if (auto guarded = defined_arith(e, l, r)) return *guarded;
      std::string s = "(" + l + " " + e.text + " " + r + ")";
      // Values shifted past size-1 leave the set (Mask is unsigned: no promotion).
      if (e.type == Type::bits && e.text == "<<") return "(" + s + " & kAll)";
      if (e.type == Type::bool_ && (e.text == "&" || e.text == "|" || e.text == "^")) return "bool" + s;
      return s;
    }
    case K::cond: {
      // A condition known before the search (parameters, instance data) keeps only
      // the arm it takes; the other one is not generated at all.
      if (auto c = eval_static(*e.args[0])) return emit(*e.args[*c ? 1 : 2]);
      std::string c = emit(*e.args[0]);
      std::string a, b;
      {
        Taken t(*this, "bool(" + c + ")");
        a = emit(*e.args[1]);
      }
      {
        Taken t(*this, "!bool(" + c + ")");
        b = emit(*e.args[2]);
      }
      return select(e.type, c, a, b, wide_);
    }
    case K::call: return call(e);
    case K::index: {
      // Data tables may be stored narrower than int (emit_data): reads widen to int.
      // Arrays uploaded at run time are read through pj::run_time_value (templates/prelude.h).
      std::string x = indexed(e, nullptr);
      const Symbol* s = e.args[0]->sym;
      if (s->kind != Symbol::Kind::data) return x;
      return cxx_type(Type::int_, wide_) + "(" + (s->run_time_range ? "pj::run_time_value(" + x + ")" : x) + ")";
    }
    case K::reduce: return reduce(e);
    case K::argsort: PJ_INTERNAL_ASSERT(false, "argsort outside [derived] passed the checker");
    case K::pair_reduce:
      if (auto it = hoisted_.find(&e); it != hoisted_.end()) return it->second;
      return pair_reduce(e);
    case K::let: {
      std::string v = emit(*e.args[0]);
      out_.line("const " + cxx_type(e.args[0]->type, wide_) + " " + local_name(e.sym) + " = " + v + ";");
      env_.locals[e.sym] = value_range(*e.args[0], env_);
      return emit(*e.args[1]);
    }
  }
  PJ_INTERNAL_ASSERT(false, "unknown expression kind");
}

std::string ExprEmitter::call(const Expr& e) {
  std::vector<std::string> a;
  for (const auto& x : e.args) a.push_back(emit(*x));
  switch (e.builtin) {
    case Builtin::min:
    case Builtin::max: {
      const std::string f = e.builtin == Builtin::min ? "pj::min" : "pj::max";
      std::string s = a[0];
      for (size_t i = 1; i < a.size(); ++i) s = f + (wide_ ? "<Int>(" : "(") + s + ", " + a[i] + ")";
      return s;
    }
    case Builtin::abs: return wide_ ? "pj::abs(Int(" + a[0] + "))" : "pj::abs(" + a[0] + ")";
    // An index the generator cannot prove inside the word gets the defined form.
    case Builtin::bit:
      if (!placed_bit_.empty() && is_placed_value(*e.args[0])) return placed_bit_;
      return (in_word(*e.args[0]) ? "pj::bit<Mask>(" : "pj::bit_any<Mask>(") + a[0] + ")";
    case Builtin::test:
      if (!placed_bit_.empty() && is_placed_value(*e.args[1])) return "((" + a[0] + " & " + placed_bit_ + ") != 0)";
      return (in_word(*e.args[1]) ? "pj::test(" : "pj::test_any(") + a[0] + ", " + a[1] + ")";
    case Builtin::popcount: return "pj::popcount(" + a[0] + ")";
    case Builtin::lowest: return "pj::lowest(" + a[0] + ")";
    default: break;
  }
  PJ_INTERNAL_ASSERT(false, "a call of '" + e.text + "' that the checker did not resolve to a function");
  return {};
}

bool ExprEmitter::is_placed_value(const Expr& e) const {
  return e.kind == Expr::Kind::name && e.sym && e.sym->builtin == Builtin::v;
}

void ExprEmitter::open_range(const Expr& lo, const Expr& hi, const Symbol* sym, std::string& guard) {
  std::string var = local_name(sym);
  ValueRange rlo = value_range(lo, env_), rhi = value_range(hi, env_);
  if (rlo.known && rhi.known && rlo.lo == rlo.hi && rhi.lo == rhi.hi) {  // constant bounds
    out_.open_loop(rhi.lo - rlo.lo);
    out_.line("for (int " + var + " = " + std::to_string(rlo.lo) + "; " + var + " < " + std::to_string(rhi.lo) +
              "; ++" + var + ") {");
    guard.clear();
    env_.locals[sym] = ValueRange::between(rlo.lo, std::max(rlo.lo, rhi.lo - 1));
    if (rhi.lo <= rlo.lo) empty_loops_.insert(sym);
    return;
  }
  if (!rlo.known || !rhi.known) {
    Diagnostics d;
    d.error((rlo.known ? hi : lo).loc, "this range bound has no limit known before the search",
            "range bounds are built from parameters, instance data, d, v, last, first, popcount or lowest, so "
            "that the loop gets a constant trip count; clamp it with min()/max() if it reads state");
    throw UserErrors(std::move(d));
  }
  std::string l = emit(lo), h = emit(hi);
  // Bounds known only at the node: the loop covers every value they can take and a
  // select keeps the iterations inside [lo, hi), so the trip count stays a constant.
  out_.open_loop(rhi.hi - rlo.lo);
  out_.line("for (int " + var + " = " + std::to_string(rlo.lo) + "; " + var + " < " + std::to_string(rhi.hi) + "; ++" +
            var + ") {");
  guard = "bool((" + var + " >= " + l + ") & (" + var + " < " + h + "))";
  env_.locals[sym] = ValueRange::between(rlo.lo, std::max(rlo.lo, rhi.hi - 1));
}

namespace {
// Whether `e` reads one of `syms`.
bool mentions_any(const Expr& e, const std::set<const Symbol*>& syms) {
  if (syms.empty()) return false;
  if (e.sym && syms.count(e.sym)) return true;
  for (const auto& a : e.args)
    if (a && mentions_any(*a, syms)) return true;
  return false;
}
}  // namespace

std::string ExprEmitter::taken() const {
  if (taken_.empty()) return "true";
  std::string s;
  for (const std::string& c : taken_) s += (s.empty() ? "" : " & ") + c;
  return taken_.size() == 1 ? s : "bool(" + s + ")";
}

std::string ExprEmitter::indexed(const Expr& e, std::string* in_bounds) {
  const Symbol* s = e.args[0]->sym;
  PJ_INTERNAL_ASSERT(s && s->dims.size() == e.args.size() - 1, "index arity");
  std::string text = name(*e.args[0]);
  std::string ok;
  const bool in_registers = s->kind == Symbol::Kind::state || s->kind == Symbol::Kind::local;
  for (size_t k = 1; k < e.args.size(); ++k) {
    std::string i = emit(*e.args[k]);
    int64_t dim = s->dims[k - 1];
    const ValueRange r = value_range(*e.args[k], env_);
    if (in_registers && !(r.known && r.lo == r.hi)) out_.require_unroll();
    if (r.within(0, dim - 1)) {
      text += "[" + i + "]";
      continue;
    }
    if (r.known && (r.hi < 0 || r.lo > dim - 1) && !mentions_any(*e.args[k], empty_loops_)) {
      const std::string which = s->dims.size() > 1 ? " in its dimension " + std::to_string(k) : "";
      Diagnostics d;
      d.error(e.args[k]->loc,
              (r.lo == r.hi ? "index " + std::to_string(r.lo) + " is" : "this index lies in " + std::to_string(r.lo) +
                                                                              ".." + std::to_string(r.hi) + ", always") +
                  " outside '" + s->name + "'" + which + ", whose indices are 0.." + std::to_string(dim - 1),
              "the generated code would read a clamped index and give a wrong answer without a word");
      throw UserErrors(std::move(d));
    }
    const int site = out_.index_site(IndexSite{e.args[k]->loc, s->name, dim});
    text += "[PJ_INDEX(" + i + ", " + std::to_string(dim) + ", " + std::to_string(site) + ", " + taken() + ")]";
    ok += (ok.empty() ? "" : " & ") + std::string("pj::in_range(") + i + ", " + std::to_string(dim) + ")";
  }
  if (in_bounds) *in_bounds = ok;
  return text;
}

std::string ExprEmitter::reduce(const Expr& e) {
  if (free_mode_ != FreeReductions::in_place && from_parent_eligible(e))
    return free_mode_ == FreeReductions::prepare ? prepare_reduction(e) : reduction_from_parent(e);
  std::string acc = tmp(e.text);
  std::string var = local_name(e.sym);
  std::string any = acc + "_any";
  const std::string& op = e.text;
  const bool extreme = e.builtin == Builtin::min_of || e.builtin == Builtin::max_of;
  // A min or max starts at the type's extreme and takes every term, the terms of values
  // outside the set replaced by that extreme: one select and one min per value. Empty,
  // it is 0 (below): `any` says whether a value was seen.
  const std::string limit = e.builtin == Builtin::min_of ? (wide_ ? "9223372036854775807LL" : "2147483647")
                                        : (wide_ ? "(-9223372036854775807LL - 1)" : "(-2147483647 - 1)");
  out_.line(cxx_type(Type::int_, wide_) + " " + acc + " = " + (extreme ? limit : "0") + ";");
  std::string guard, set;
  if (extreme && e.over_range) out_.line("bool " + any + " = false;");
  if (e.over_range) {
    open_range(*e.args[0], *e.args[1], e.sym, guard);
    loops_.emplace_back(e.sym, env_.locals[e.sym]);
  } else {
    set = tmp("set");
    out_.line("const Mask " + set + " = " + emit(*e.args[0]) + ";");
    out_.open_loop(spec_.size);
    out_.line("for (int " + var + " = 0; " + var + " < kSize; ++" + var + ") {");
    guard = "pj::test(" + set + ", " + var + ")";
    env_.locals[e.sym] = ValueRange::between(0, spec_.size - 1);
  }
  out_.indent();
  std::string body;
  {
    Taken t(*this, guard);
    body = emit(*e.args.back());
  }
  std::string in = guard.empty() ? "true" : guard;
  if (e.builtin == Builtin::sum) {
    out_.line(acc + " += " + (guard.empty() ? body : select(Type::int_, in, body, "0", wide_)) + ";");
  } else if (e.builtin == Builtin::count) {
    out_.line(acc + " += int(bool(" + in + " & " + body + "));");
  } else {
    const std::string term = guard.empty() ? body : select(Type::int_, in, body, limit, wide_);
    out_.line(acc + " = pj::" + op + (wide_ ? "<Int>(" : "(") + acc + ", " + term + ");");
    if (e.over_range) out_.line(any + " = bool(" + any + " | " + in + ");");
  }
  out_.dedent();
  out_.line("}");
  out_.close_loop();
  if (e.over_range) loops_.pop_back();
  if (extreme) {
    // Whether a value was taken: the set is not empty, or the range's guard held once.
    if (!e.over_range) out_.line("const bool " + any + " = " + set + " != 0;");
    out_.line(acc + " = " + select(Type::int_, any, acc, "0", wide_) + ";");
  }
  return acc;
}

void ExprEmitter::emit_block(const Block& b, const std::string& target) {
  for (const auto& s : b) stmt(*s, target, "");
}

std::string ExprEmitter::emit_value(const Block& prelude, const Expr& value) {
  emit_block(prelude, "");  // a value block assigns var locals only
  out_.user_place(value.loc);
  return emit(value);
}

void ExprEmitter::stmt(const Stmt& s, const std::string& target, const std::string& guard) {
  if (live_ && !has_live_effect(s, *live_)) return;
  out_.user_place(s.loc);
  Taken taken_here(*this, guard);
  switch (s.kind) {
    case Stmt::Kind::let: {
      std::string v = emit(*s.value);
      out_.line("const " + cxx_type(s.value->type, wide_) + " " + local_name(s.sym) + " = " + v + ";");
      env_.locals[s.sym] = value_range(*s.value, env_);
      return;
    }
    case Stmt::Kind::var: {
      std::string v = emit(*s.value);
      std::string n = local_name(s.sym);
      if (s.sym->dims.empty()) {
        out_.line(cxx_type(s.value->type, wide_) + " " + n + " = " + v + ";");
        return;
      }
      // Every element starts at the value; loops of constant trip count.
      std::string dims, idx;
      for (size_t k = 0; k < s.sym->dims.size(); ++k) {
        int64_t dim = s.sym->dims[k];
        if (dim < 1) {
          Diagnostics d;
          d.error(s.dims[k]->loc, "a local array's dimension must be known before the search",
                  "use literals, parameters, instance scalars or [derived] scalars");
          throw UserErrors(std::move(d));
        }
        dims += "[" + std::to_string(dim) + "]";
      }
      out_.line(cxx_type(s.value->type, wide_) + " " + n + dims + ";");
      out_.line("{");
      out_.indent();
      std::string init = tmp("init");
      out_.line("const " + cxx_type(s.value->type, wide_) + " " + init + " = " + v + ";");
      for (size_t k = 0; k < s.sym->dims.size(); ++k) {
        std::string i = tmp("i");
        out_.open_loop(s.sym->dims[k]);
        out_.line("for (int " + i + " = 0; " + i + " < " + std::to_string(s.sym->dims[k]) + "; ++" + i + ")");
        idx += "[" + i + "]";
      }
      out_.line("  " + n + idx + " = " + init + ";");
      out_.require_unroll();  // the array is indexed by the loop variables
      for (size_t k = 0; k < s.sym->dims.size(); ++k) out_.close_loop();
      out_.dedent();
      out_.line("}");
      return;
    }
    case Stmt::Kind::if_: {
      // A condition known before the search (parameters, data) keeps only its part.
      if (auto known = eval_static(*s.value)) {
        out_.line("{");
        out_.indent();
        for (const auto& b : *known ? s.body : s.else_body) stmt(*b, target, guard);
        out_.dedent();
        out_.line("}");
        return;
      }
      // Both parts run; each assignment keeps the old value where its part is not taken.
      std::string c = tmp("cond");
      out_.line("const bool " + c + " = " + emit(*s.value) + ";");
      std::string then_guard = guard.empty() ? c : "bool(" + guard + " & " + c + ")";
      std::string else_guard = guard.empty() ? "!" + c : "bool(" + guard + " & !" + c + ")";
      out_.line("{");
      out_.indent();
      for (const auto& b : s.body) stmt(*b, target, then_guard);
      out_.dedent();
      out_.line("}");
      if (s.else_body.empty()) return;
      out_.line("{");
      out_.indent();
      for (const auto& b : s.else_body) stmt(*b, target, else_guard);
      out_.dedent();
      out_.line("}");
      return;
    }
    case Stmt::Kind::assign: {
      std::string value = emit(*s.value);
      const Expr& t = *s.target;
      const Symbol* base = t.kind == Expr::Kind::index ? t.args[0]->sym : t.sym;
      const bool local = base->kind == Symbol::Kind::local;
      std::string lhs = local ? local_name(base) : target + state_name(base->name);
      std::string in_bounds;
      if (t.kind == Expr::Kind::index) {
        // Written through the target object, read with the same (clamped) indices.
        NodeNames saved = names_;
        names_.state = target;
        lhs = indexed(t, &in_bounds);
        names_ = saved;
      }
      // Inside a loop whose range is known only at the node, or with an index not
      // provably in bounds, an assignment that must not happen keeps the old value
      // (a select, not a branch).
      std::string cond = guard;
      if (!in_bounds.empty()) cond = cond.empty() ? "bool(" + in_bounds + ")" : "bool(" + cond + " & " + in_bounds + ")";
      Type lt = base->type;
      out_.line(lhs + " = " + (cond.empty() ? value : "pj::blend<" + cxx_type(lt, wide_) + ">(" + cond + ", " + value + ", " + lhs + ")") + ";");
      return;
    }
    case Stmt::Kind::for_: {
      std::string inner;
      open_range(*s.lo, *s.hi, s.sym, inner);
      loops_.emplace_back(s.sym, env_.locals[s.sym]);
      out_.indent();
      std::string g = guard.empty() ? inner : inner.empty() ? guard : "bool(" + guard + " & " + inner + ")";
      for (const auto& b : s.body) stmt(*b, target, g);
      loops_.pop_back();
      out_.dedent();
      out_.line("}");
      out_.close_loop();
      return;
    }
  }
}

}  // namespace permjit
