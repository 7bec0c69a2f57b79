#include "dsl/checker.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "dsl/builtins.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c == name) continue;  // never suggest what was typed
    std::vector<size_t> row(c.size() + 1);
    for (size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= name.size(); ++i) {
      size_t prev = row[0];
      row[0] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        size_t cur = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (name[i - 1] == c[j - 1] ? 0 : 1)});
        prev = cur;
      }
    }
    if (row[c.size()] < best_d) {
      best_d = row[c.size()];
      best = c;
    }
  }
  return best.empty() ? "" : "did you mean '" + best + "'?";
}

namespace {

class Checker {
 public:
  Checker(ProblemSpec& s, const CheckContext& c, Diagnostics& d) : spec_(s), ctx_(c), diags_(d) {}

  Type expr(Expr& e) {
    e.type = compute(e);
    return e.type;
  }

  void block(Block& b) {
    size_t mark = scope_.size();
    for (auto& s : b) stmt(*s);
    scope_.resize(mark);
  }

  // The prelude's locals stay visible to the value.
  Type value(Block& prelude, Expr& v) {
    size_t mark = scope_.size();
    for (auto& s : prelude) stmt(*s);
    Type t = expr(v);
    scope_.resize(mark);
    return t;
  }

  // The same, with an int local `name` visible to the prelude and the value.
  Type value_with_local(Block& prelude, Expr& v, const std::string& name, const Symbol** local) {
    size_t mark = scope_.size();
    *local = bind_local(name, Type::int_, v.loc);
    Type t = value(prelude, v);
    scope_.resize(mark);
    return t;
  }

  std::vector<const Symbol*> with_indices(Expr& e, const std::vector<std::string>& names, Type& got) {
    std::vector<const Symbol*> syms;
    size_t mark = scope_.size();
    for (const auto& n : names) syms.push_back(bind_local(n, Type::int_, e.loc));
    got = expr(e);
    scope_.resize(mark);
    return syms;
  }

 private:
  ProblemSpec& spec_;
  const CheckContext& ctx_;
  Diagnostics& diags_;
  std::vector<std::pair<std::string, Symbol*>> scope_;  // locals, innermost last

  Type err(const Loc& loc, std::string msg, std::string hint = {}) {
    diags_.error(loc, std::move(msg), std::move(hint));
    return Type::error;
  }

  Symbol* bind_local(const std::string& name, Type t, const Loc& loc) {
    auto sym = std::make_unique<Symbol>();
    sym->kind = Symbol::Kind::local;
    sym->name = name;
    sym->type = t;
    sym->loc = loc;
    Symbol* raw = sym.get();
    spec_.locals.push_back(std::move(sym));
    scope_.push_back({name, raw});
    return raw;
  }

  std::vector<std::string> visible_names() const {
    std::vector<std::string> names;
    for (const auto& [n, s] : scope_) names.push_back(n);
    for (const auto& [n, s] : spec_.symbols) names.push_back(n);
    return names;
  }

  const Symbol* lookup(const Expr& e) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == e.text) return it->second;
    auto it = spec_.symbols.find(e.text);
    if (it == spec_.symbols.end()) {
      err(e.loc, "unknown name '" + e.text + "' in " + ctx_.where, did_you_mean(e.text, visible_names()));
      return nullptr;
    }
    const Symbol& s = it->second;
    if (s.kind == Symbol::Kind::builtin) {
      const BuiltinInfo& b = builtin_info(s.builtin);
      if (ctx_.path && !b.in_path) {
        err(e.loc, "'" + s.name + "' belongs to placement problems and is not defined in " + ctx_.where,
            "a path problem's node is its permutation `perm` and its state variables");
        return nullptr;
      }
      spec_.used_builtins.insert(b.id);
      const std::string undefined = "'" + s.name + "' (" + b.meaning + ") is not defined in " + ctx_.where;
      if (b.needs_value && !ctx_.value) {
        err(e.loc, undefined, "'v' exists in branch.filter and branch.place only");
        return nullptr;
      }
      if (b.at_node && !ctx_.node) {
        err(e.loc, undefined, "this expression is evaluated once, before the search, not at a node");
        return nullptr;
      }
    }
    if (s.kind == Symbol::Kind::state && !ctx_.node) {
      err(e.loc, "state variable '" + e.text + "' cannot be used in " + ctx_.where,
          "this expression is evaluated once, before the search, not at a node");
      return nullptr;
    }
    return &s;
  }

  Type want(Expr& e, Type t, const char* role) {
    Type got = expr(e);
    if (got == Type::error || got == t) return got;
    return err(e.loc, std::string(role) + " must be " + type_name(t) + ", found " + type_name(got));
  }

  Type compute(Expr& e) {
    switch (e.kind) {
      case Expr::Kind::int_lit: return Type::int_;
      case Expr::Kind::bool_lit: return Type::bool_;
      case Expr::Kind::name: {
        const Symbol* s = lookup(e);
        if (!s) return Type::error;
        e.sym = s;
        if (s->is_array())
          return err(e.loc, "'" + e.text + "' is an array of " + std::to_string(s->dims.size()) +
                                " dimension(s); index it, e.g. " + e.text + "[i]");
        return s->type;
      }
      case Expr::Kind::unary: {
        Type t = expr(*e.args[0]);
        if (t == Type::error) return t;
        if (e.text == "-" && t == Type::int_) return t;
        if (e.text == "!" && t == Type::bool_) return t;
        if (e.text == "~" && (t == Type::int_ || t == Type::bits)) return t;
        return err(e.loc, "operator '" + e.text + "' cannot apply to " + type_name(t));
      }
      case Expr::Kind::binary: return binary(e);
      case Expr::Kind::cond: {
        Type c = want(*e.args[0], Type::bool_, "the condition of '?:'");
        Type a = expr(*e.args[1]);
        Type b = expr(*e.args[2]);
        if (c == Type::error || a == Type::error || b == Type::error) return Type::error;
        if (a != b)
          return err(e.loc, std::string("the arms of '?:' have different types: ") + type_name(a) + " and " + type_name(b));
        return a;
      }
      case Expr::Kind::call: return call(e);
      case Expr::Kind::index: return index(e);
      case Expr::Kind::reduce: return reduce(e);
      case Expr::Kind::argsort: return argsort(e);
      case Expr::Kind::pair_reduce: return pair_reduce(e);
      case Expr::Kind::let: {
        Type v = expr(*e.args[0]);
        size_t mark = scope_.size();
        e.sym = bind_local(e.var, v, e.loc);
        Type body = expr(*e.args[1]);
        scope_.resize(mark);
        return v == Type::error ? Type::error : body;
      }
    }
    return Type::error;
  }

  Type binary(Expr& e) {
    Type l = expr(*e.args[0]);
    Type r = expr(*e.args[1]);
    if (l == Type::error || r == Type::error) return Type::error;
    const std::string& op = e.text;
    auto mismatch = [&] {
      return err(e.loc, "operator '" + op + "' cannot apply to " + type_name(l) + " and " + type_name(r));
    };
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%")
      return l == Type::int_ && r == Type::int_ ? Type::int_ : mismatch();
    if (op == "<<" || op == ">>")
      return (l == Type::int_ || l == Type::bits) && r == Type::int_ ? l : mismatch();
    if (op == "&" || op == "|" || op == "^") return l == r ? l : mismatch();
    if (op == "&&" || op == "||") return l == Type::bool_ && r == Type::bool_ ? Type::bool_ : mismatch();
    if (op == "<" || op == "<=" || op == ">" || op == ">=")
      return l == Type::int_ && r == Type::int_ ? Type::bool_ : mismatch();
    if (op == "==" || op == "!=") return l == r ? Type::bool_ : mismatch();
    return err(e.loc, "unknown operator '" + op + "'");
  }

  // A function call, resolved here once (e.builtin); its arity and argument types come
  // from the builtins table.
  Type call(Expr& e) {
    const std::string& f = e.text;
    const BuiltinInfo* b = builtin_named(f, BuiltinForm::call);
    if (!b) {
      for (auto& a : e.args) expr(*a);
      std::vector<std::string> callable;
      for (const BuiltinInfo& c : builtins())
        if (c.form != BuiltinForm::name) callable.emplace_back(c.name);
      return err(e.loc, "unknown function '" + f + "'", did_you_mean(f, callable));
    }
    e.builtin = b->id;
    const size_t lo = b->min_args, hi = b->max_args == kAnyCount ? SIZE_MAX : b->max_args;
    if (e.args.size() < lo || e.args.size() > hi) {
      std::string want = lo == hi ? std::to_string(lo) : (hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                           : std::to_string(lo) + " to " + std::to_string(hi));
      return err(e.loc, f + "() takes " + want + " argument(s), given " + std::to_string(e.args.size()));
    }
    bool ok = true;
    for (size_t i = 0; i < e.args.size(); ++i) {
      static const char* const kOrdinal[] = {"first", "second", "third", "fourth"};
      const std::string role = hi == 1 || hi == SIZE_MAX ? f + "() argument"
                               : i < std::size(kOrdinal) ? std::string("the ") + kOrdinal[i] + " argument of " + f + "()"
                                                         : "argument " + std::to_string(i + 1) + " of " + f + "()";
      ok &= want(*e.args[i], b->arg_types[std::min<size_t>(i, b->arg_types.size() - 1)], role.c_str()) != Type::error;
    }
    return ok ? b->type : Type::error;
  }

  Type index(Expr& e) {
    Expr& base = *e.args[0];
    if (base.kind != Expr::Kind::name) return err(base.loc, "only a named array can be indexed");
    const Symbol* s = lookup(base);
    if (!s) {
      for (size_t i = 1; i < e.args.size(); ++i) expr(*e.args[i]);
      return Type::error;
    }
    base.sym = s;
    e.sym = s;
    bool ok = true;
    for (size_t i = 1; i < e.args.size(); ++i) ok &= want(*e.args[i], Type::int_, "an index") != Type::error;
    if (!s->is_array()) return err(base.loc, "'" + base.text + "' is a scalar and cannot be indexed");
    size_t given = e.args.size() - 1;
    if (given != s->dims.size())
      return err(e.loc, "'" + base.text + "' has " + std::to_string(s->dims.size()) + " dimension(s), indexed with " +
                            std::to_string(given));
    return ok ? s->type : Type::error;
  }

  Type reduce(Expr& e) {
    const BuiltinInfo* r = builtin_named(e.text, BuiltinForm::reduce);
    PJ_INTERNAL_ASSERT(r, "the parser made a reduction of '" + e.text + "'");
    e.builtin = r->id;
    bool ok = true;
    if (e.over_range) {
      ok &= want(*e.args[0], Type::int_, "the start of a range") != Type::error;
      ok &= want(*e.args[1], Type::int_, "the end of a range") != Type::error;
    } else {
      ok &= want(*e.args[0], Type::bits, std::string("the set of " + e.text + "(" + e.var + " in set: ...)").c_str()) !=
            Type::error;
    }
    size_t mark = scope_.size();
    e.sym = bind_local(e.var, Type::int_, e.loc);
    Type body = expr(*e.args.back());
    scope_.resize(mark);
    if (!ok || body == Type::error) return Type::error;
    const Type need = r->body;
    if (body != need)
      return err(e.args.back()->loc, "the body of " + e.text + "() must be " + type_name(need) + ", found " + type_name(body));
    return r->type;
  }

  // argsort(x in lo..hi: keys...)[position]: the position-th value of lo..hi in the
  // order of its keys (compared left to right), ties by increasing value.
  Type argsort(Expr& e) {
    bool ok = true;
    ok &= want(*e.args[0], Type::int_, "the start of argsort's range") != Type::error;
    ok &= want(*e.args[1], Type::int_, "the end of argsort's range") != Type::error;
    ok &= want(*e.args[2], Type::int_, "the position taken from argsort") != Type::error;
    size_t mark = scope_.size();
    e.sym = bind_local(e.var, Type::int_, e.loc);
    for (size_t i = 3; i < e.args.size(); ++i) ok &= want(*e.args[i], Type::int_, "a key of argsort") != Type::error;
    scope_.resize(mark);
    if (!ok) return Type::error;
    if (!ctx_.host)
      return err(e.loc, "argsort() is computed once on the host; it is not available in " + std::string(ctx_.where),
                 "compute the order in a [derived] table and read it here");
    return Type::int_;
  }

  // assign(i in S, j in T: cost), arborescence(...) and minprod(x in S: a, y in T: b):
  // each side a set or a range of ints; a cost sees both names, each of minprod's
  // values its own.
  Type pair_reduce(Expr& e) {
    const BuiltinInfo& op = builtin_info(e.builtin);
    const bool assign = op.cost_matrix;
    const size_t b = side_b(e), body = first_body(e);
    bool ok = true;
    auto side = [&](size_t at, bool range, const std::string& var) {
      if (range) {
        ok &= want(*e.args[at], Type::int_, "the start of a range") != Type::error;
        ok &= want(*e.args[at + 1], Type::int_, "the end of a range") != Type::error;
      } else {
        ok &= want(*e.args[at], Type::bits, ("the set of '" + var + "' in " + e.text + "()").c_str()) != Type::error;
      }
    };
    side(0, e.over_range, e.var);
    side(b, e.over_range2, e.var2);
    size_t mark = scope_.size();
    e.sym = bind_local(e.var, Type::int_, e.loc);
    if (!assign) {  // minprod's first value sees only its own name
      ok &= want(*e.args[body], Type::int_, "the first value of minprod()") != Type::error;
      scope_.resize(mark);
    }
    e.sym2 = bind_local(e.var2, Type::int_, e.loc);
    if (op.pair_cost) {  // the cost sees i, j; the pair cost i, j, k, l; the rounds none
      ok &= want(*e.args[body], Type::int_, ("the cost of " + e.text + "()").c_str()) != Type::error;
      e.sym3 = bind_local(e.var3, Type::int_, e.loc);
      e.sym4 = bind_local(e.var4, Type::int_, e.loc);
      ok &= want(*e.args[body + 1], Type::int_, ("the pair cost of " + e.text + "()").c_str()) != Type::error;
      scope_.resize(mark);
      ok &= want(*e.args[body + 2], Type::int_, ("the number of rounds of " + e.text + "()").c_str()) != Type::error;
    } else {
      ok &= want(*e.args.back(), Type::int_, (assign ? "the cost of " + e.text + "()" : std::string("the second value of minprod()")).c_str()) != Type::error;
    }
    scope_.resize(mark);
    if (!ok) return Type::error;
    if (op.node_only && ctx_.host)
      return err(e.loc, e.text + "() is a bound computed at each node; it is not available in " + std::string(ctx_.where),
                 "use it in branch.bound or branch.refine");
    if (!ctx_.solver)
      return err(e.loc, e.text + "() is not available in " + std::string(ctx_.where),
                 "use it in branch.bound, branch.refine, branch.objective or a [derived] value");
    if (e.chained && !chain(e)) return Type::error;
    return Type::int_;
  }

  // How `op` is written with its `then`: "write assign(i in S, j in T: cost then arborescence)".
  static std::string chain_hint(const BuiltinInfo& op) {
    return "write " + std::string(op.name) + "(i in S, j in T: cost then " + std::string(builtin_info(op.then).name) + ")";
  }

  // `assign(... then arborescence [steps K])` (docs/spec-language.md, "Additive and
  // Lagrangian bounds"): the table says which reduction has reduced costs to hand on
  // (assign) and which one adds to it (an arborescence; an assignment of its own reduced
  // costs is 0); K is a constant, since it sizes the code's work per node.
  bool chain(Expr& e) {
    const BuiltinInfo& op = builtin_info(e.builtin);
    if (op.then == Builtin::none) {
      const BuiltinInfo* first = nullptr;  // the one that does, for the message
      for (const BuiltinInfo& b : builtins())
        if (!first && b.then != Builtin::none) first = &b;
      PJ_INTERNAL_ASSERT(first, "no builtin takes 'then', yet the parser read one");
      return err(e.loc, e.text + "() has no reduced costs to hand on with 'then'; only " + std::string(first->name) +
                            "() has",
                 chain_hint(*first)) != Type::error;
    }
    const std::string chained = e.text + "() then " + std::string(builtin_info(op.then).name);
    if (e.then != op.then)
      return err(e.loc, e.text + "() then " + std::string(builtin_info(e.then).name) + "() adds nothing: only " +
                            std::string(builtin_info(op.then).name) + " can follow " + e.text + "() with 'then'",
                 chain_hint(op)) != Type::error;
    if (ctx_.host && !e.multiplier_expr)
      return err(e.loc, chained + " is solved in the search's code, not in " + std::string(ctx_.where),
                 "use " + e.text + "() and " + std::string(builtin_info(op.then).name) +
                     "() apart in [derived], or end it with `multiplier x` for the multipliers of one matrix") !=
             Type::error;
    if (!ctx_.host && e.multiplier_expr)
      return err(e.multiplier_expr->loc,
                 "`multiplier` gives a multiplier computed once before the search; it is not available in " +
                     std::string(ctx_.where),
                 "compute the multipliers in a [derived] table and start the search's steps from it with `from table[" +
                     e.var + "]`") != Type::error;
    const int64_t most = e.multiplier_expr ? kMaxRootLagrangeSteps : kMaxLagrangeSteps;
    if (e.steps_expr) {
      if (want(*e.steps_expr, Type::int_, ("the steps of " + chained).c_str()) == Type::error) return false;
      auto k = eval_static(*e.steps_expr);
      if (!k)
        return err(e.steps_expr->loc, "the steps of " + chained + " must be known before the search",
                   "write a number, or a [params] value") != Type::error;
      if (*k < 0 || *k > most)
        return err(e.steps_expr->loc, "steps " + std::to_string(*k) + " is outside 0.." + std::to_string(most)) !=
               Type::error;
      e.steps = *k;
    }
    if (e.multiplier_expr && want(*e.multiplier_expr, Type::int_, ("the element of " + chained + " multiplier").c_str()) ==
                                 Type::error)
      return false;
    return !e.from_expr || chain_start(e, chained);
  }

  // `... from E`: E gives each element of side A (its name bound) its first multiplier.
  // It must read only that name, parameters and data (tables, [derived] ones included),
  // so that the multipliers, and with them the bound, are a function of the node alone.
  bool chain_start(Expr& e, const std::string& chained) {
    const size_t mark = scope_.size();
    scope_.push_back({e.var, const_cast<Symbol*>(e.sym)});
    const Type t = want(*e.from_expr, Type::int_, ("the start of " + chained + "'s multipliers").c_str());
    scope_.resize(mark);
    if (t == Type::error) return false;
    std::set<const Symbol*> own{e.sym};  // names bound inside E, and side A's
    const Expr* bad = nullptr;
    std::function<void(const Expr&)> walk = [&](const Expr& x) {
      if (x.kind == Expr::Kind::let || x.kind == Expr::Kind::reduce || x.kind == Expr::Kind::argsort ||
          x.kind == Expr::Kind::pair_reduce)
        for (const Symbol* s : {x.sym, x.sym2, x.sym3, x.sym4}) own.insert(s);
      const bool name = x.kind == Expr::Kind::name || x.kind == Expr::Kind::index;
      if (name && x.sym && !bad) {
        const auto k = x.sym->kind;
        const bool fixed = k == Symbol::Kind::param || k == Symbol::Kind::data || own.count(x.sym);
        if (!fixed) bad = &x;
      }
      for (const auto& a : x.args) walk(*a);
    };
    walk(*e.from_expr);
    if (bad)
      return err(bad->loc, "the start of " + chained + "'s multipliers reads '" + bad->sym->name +
                               "', which the search changes; it may read only '" + e.var + "', parameters and data",
                 "a table computed before the search, e.g. [derived] pi = ... multiplier c, read as `from pi[" + e.var +
                     "]`") != Type::error;
    return true;
  }

  // A var's dimensions must be known before the search (they size a local array).
  void var_dims(Stmt& s, Symbol& sym) {
    int64_t elements = 1;
    for (auto& d : s.dims) {
      if (want(*d, Type::int_, "an array dimension") == Type::error) continue;
      auto v = eval_static(*d);
      if (v && (*v < 1 || *v > 4096)) err(d->loc, "local array dimension " + std::to_string(*v) + " is outside 1..4096");
      else if (v && elements * *v > 4096)  // it lives in registers or on the stack
        err(d->loc, "local array '" + s.var + "' would hold " + std::to_string(elements * *v) +
                        " elements; a local array holds at most 4096");
      else if (v) elements *= *v;
      sym.dims.push_back(v.value_or(0));  // 0: not known yet (checked without an instance)
    }
  }

  void stmt(Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::var: {
        Type t = expr(*s.value);
        if (t == Type::bool_ && !s.dims.empty()) err(s.value->loc, "a local array holds int or bits, not bool");
        Symbol* sym = bind_local(s.var, t, s.loc);
        sym->assignable = true;
        var_dims(s, *sym);
        s.sym = sym;
        return;
      }
      case Stmt::Kind::if_: {
        want(*s.value, Type::bool_, "the condition of 'if'");
        block(s.body);
        block(s.else_body);
        return;
      }
      case Stmt::Kind::let: {
        Type t = expr(*s.value);
        s.sym = bind_local(s.var, t, s.loc);
        return;
      }
      case Stmt::Kind::for_: {
        want(*s.lo, Type::int_, "the start of a loop range");
        want(*s.hi, Type::int_, "the end of a loop range");
        size_t mark = scope_.size();
        s.sym = bind_local(s.var, Type::int_, s.loc);
        block(s.body);
        scope_.resize(mark);
        return;
      }
      case Stmt::Kind::assign: {
        Expr& t = *s.target;
        Expr& name = t.kind == Expr::Kind::index ? *t.args[0] : t;
        if (name.kind == Expr::Kind::name) {
          auto it = spec_.symbols.find(name.text);
          const Symbol* local = nullptr;
          for (auto l = scope_.rbegin(); l != scope_.rend() && !local; ++l)
            if (l->first == name.text) local = l->second;
          bool state = !local && it != spec_.symbols.end() && it->second.kind == Symbol::Kind::state;
          if (local ? !local->assignable : !state) {
            err(name.loc, "only state variables and var locals can be assigned; '" + name.text + "' is " +
                              (local ? "a let or loop name" : it == spec_.symbols.end() ? "not defined" : "not a state variable"),
                local ? "declare it with 'var " + name.text + " = ...' to change it"
                      : it == spec_.symbols.end() ? did_you_mean(name.text, visible_names()) : "");
            expr(*s.value);
            return;
          }
          if (state && !ctx_.writable) {
            err(name.loc, "state variable '" + name.text + "' is read-only in " + ctx_.where,
                "only branch.place changes the state; use a var local here");
            expr(*s.value);
            return;
          }
        }
        Type lt = expr(t);
        Type rt = expr(*s.value);
        if (lt != Type::error && rt != Type::error && lt != rt)
          err(s.value->loc, "cannot assign " + std::string(type_name(rt)) + " to '" + to_string(t) + "' of type " +
                                type_name(lt));
        return;
      }
    }
  }
};

}  // namespace

Type check_expression(Expr& e, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags) {
  return Checker(spec, ctx, diags).expr(e);
}

void check_block(Block& b, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags) {
  Checker(spec, ctx, diags).block(b);
}

bool check_value(Block& prelude, Expr& value, Type want, ProblemSpec& spec, const CheckContext& ctx,
                 Diagnostics& diags) {
  Type got = Checker(spec, ctx, diags).value(prelude, value);
  if (got == Type::error) return false;
  if (got != want) {
    diags.error(value.loc, std::string(ctx.where) + " must be " + type_name(want) + ", found " + type_name(got));
    return false;
  }
  return true;
}

bool check_value_with_local(Block& prelude, Expr& value, Type want, const std::string& name, const Symbol** local,
                            ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags) {
  Type got = Checker(spec, ctx, diags).value_with_local(prelude, value, name, local);
  if (got == Type::error) return false;
  if (got != want) {
    diags.error(value.loc, std::string(ctx.where) + " must be " + type_name(want) + ", found " + type_name(got));
    return false;
  }
  return true;
}

std::vector<const Symbol*> check_with_indices(Expr& e, const std::vector<std::string>& names, Type want,
                                              ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags) {
  Type got = Type::error;
  auto syms = Checker(spec, ctx, diags).with_indices(e, names, got);
  if (got != Type::error && got != want)
    diags.error(e.loc, std::string(ctx.where) + " must be " + type_name(want) + ", found " + type_name(got));
  return syms;
}

bool check_typed(Expr& e, Type want, ProblemSpec& spec, const CheckContext& ctx, Diagnostics& diags) {
  Type got = check_expression(e, spec, ctx, diags);
  if (got == Type::error) return false;
  if (got != want) {
    diags.error(e.loc, std::string(ctx.where) + " must be " + type_name(want) + ", found " + type_name(got));
    return false;
  }
  return true;
}

}  // namespace permjit
