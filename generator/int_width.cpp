#include "generator/int_width.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "dsl/diagnostics.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {
namespace {

// Bounds are kept within ±2^64 (past 64 bits, so that passing 64 bits is seen), so
// that the product of two stays inside __int128.
using Wide = __int128;
constexpr Wide kCap = Wide(1) << 64;
// Statement runs the analysis allows itself before it stops trying (a loop nest of
// millions of trips whose values never settle).
constexpr long kBudget = 20'000'000;

struct Span {
  Wide lo = 0, hi = 0;
  bool operator==(const Span& o) const { return lo == o.lo && hi == o.hi; }
};
constexpr Span kInt32{INT32_MIN, INT32_MAX};

Span exact(Wide v) { return {v, v}; }
Span hull(Span a, Span b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
Wide cap(Wide v) { return std::clamp(v, -kCap, kCap); }
Span capped(Wide lo, Wide hi) { return {cap(lo), cap(hi)}; }
Wide magnitude(Span s) { return std::max(-s.lo, s.hi); }

std::string decimal(Wide v) {
  if (v > INT64_MAX) return "more than 2^63";
  if (v < INT64_MIN) return "less than -2^63";
  return std::to_string(static_cast<long long>(v));
}

class Analysis {
 public:
  explicit Analysis(const ProblemSpec& s) : spec_(s) {}

  IntWidth run() {
    const int n = spec_.size;
    for (const auto& sv : spec_.state)
      vars_[&spec_.symbols.at(sv.name)] = sv.init ? expr(*sv.init) : exact(0);
    // Every depth's state: the updates applied to the hull of the states before them,
    // once per position (the fixed prefix included), or until nothing grows.
    d_ = {0, n - 1};
    for (int k = 0; k < n; ++k) {
      auto before = vars_;
      placement(spec_.branch.place);
      if (spec_.branch.ends == 2) placement(spec_.branch.place_back);
      if (vars_ == before) break;
    }
    const Branch& b = spec_.branch;
    block(b.candidates_prelude);
    if (b.candidates) expr(*b.candidates);
    block(b.filter_prelude);
    if (b.filter) expr(*b.filter);
    d_ = {1, n};
    block(b.bound_prelude);
    if (b.bound) expr(*b.bound);
    if (b.stages == 2 && b.refine) {
      // refine's `bound` is the value just computed.
      vars_[b.refine_bound] = b.bound ? expr(*b.bound) : exact(0);
      block(b.refine_prelude);
      expr(*b.refine);
    }
    block(b.objective_prelude);
    if (b.objective) expr(*b.objective);
    return result_;
  }

 private:
  const ProblemSpec& spec_;
  std::map<const Symbol*, Span> vars_;  // state (at every node) and locals: the hull of their values
  Span d_;                              // what `d` can be where the code runs
  IntWidth result_;
  long work_ = 0;

  // A value computed at `loc`: the first that may pass 32 bits makes ints 64-bit; one
  // that may pass 64 bits is an error there.
  Span checked(Span s, const Loc& loc) {
    if (s.lo < INT64_MIN || s.hi > INT64_MAX) {
      Diagnostics d;
      d.error(loc, "this int value may reach " + decimal(s.hi > INT64_MAX ? s.hi : s.lo) +
                       ", past 64 bits, for this instance's data and the spec's ranges",
              "permjit computes ints in 64 bits at most: bound the value (min, max) or scale the data down");
      throw UserErrors(std::move(d));
    }
    if ((s.lo < INT32_MIN || s.hi > INT32_MAX) && !result_.wide) {
      result_.wide = true;
      result_.why = loc;
      result_.reach = static_cast<long long>(s.hi > INT32_MAX ? s.hi : s.lo);
    }
    return s;
  }

  void placement(const Placement& p) {
    if (p.is_block) {
      block(p.block);
      return;
    }
    std::vector<std::pair<const Symbol*, Span>> values;  // every right side reads the parent
    for (const auto& [var, e] : p.simultaneous) values.push_back({&spec_.symbols.at(var), expr(*e)});
    for (const auto& [s, v] : values) assign(s, v);
  }

  // A variable keeps the hull of every value it is given: sound for `if` (both parts
  // run), for loops and across depths.
  void assign(const Symbol* s, Span v) {
    auto it = vars_.find(s);
    vars_[s] = it == vars_.end() ? v : hull(it->second, v);
  }

  void block(const Block& b) {
    for (const auto& s : b) stmt(*s);
  }

  void stmt(const Stmt& s) {
    if (++work_ > kBudget) {
      Diagnostics d;
      d.error(s.loc, "permjit cannot bound the int values of these loops in reasonable time",
              "loops whose values keep growing over millions of iterations; bound them with min()");
      throw UserErrors(std::move(d));
    }
    switch (s.kind) {
      case Stmt::Kind::let: vars_[s.sym] = expr(*s.value); return;
      case Stmt::Kind::var:
        for (const auto& d : s.dims) expr(*d);
        vars_[s.sym] = expr(*s.value);  // a fresh variable each time it is declared
        return;
      case Stmt::Kind::assign: {
        Span v = expr(*s.value);
        const Expr& t = *s.target;
        for (size_t k = 1; t.kind == Expr::Kind::index && k < t.args.size(); ++k) expr(*t.args[k]);
        assign(t.kind == Expr::Kind::index ? t.args[0]->sym : t.sym, v);
        return;
      }
      case Stmt::Kind::if_:
        expr(*s.value);
        block(s.body);
        block(s.else_body);
        return;
      case Stmt::Kind::for_: {
        Span lo = expr(*s.lo), hi = expr(*s.hi);
        vars_[s.sym] = {lo.lo, std::max(lo.lo, hi.hi - 1)};
        // One run of the body per trip, or until the values settle.
        for (Wide k = 0; k < hi.hi - lo.lo; ++k) {
          auto before = vars_;
          block(s.body);
          if (vars_ == before) break;
        }
        return;
      }
    }
  }

  Span name(const Expr& e) {
    const Symbol* s = e.sym;
    if (!s) return kInt32;
    if (auto it = vars_.find(s); it != vars_.end()) return it->second;
    if ((s->kind == Symbol::Kind::param || s->kind == Symbol::Kind::data) && s->value) return exact(*s->value);
    switch (s->builtin) {
      case Builtin::d: return d_;
      case Builtin::v:
      case Builtin::last:
      case Builtin::first: return {0, spec_.size - 1};
      default: break;
    }
    return kInt32;
  }

  Span expr(const Expr& e) {
    using K = Expr::Kind;
    switch (e.kind) {
      case K::int_lit: return checked(exact(e.value), e.loc);  // a literal may pass 32 bits itself
      case K::bool_lit: return {0, 1};
      case K::name: return name(e);
      case K::unary: {
        Span x = expr(*e.args[0]);
        if (e.type != Type::int_) return {0, 1};
        if (e.text == "-") return checked({-x.hi, -x.lo}, e.loc);
        return {-x.hi - 1, -x.lo - 1};  // ~x == -x - 1: it fits wherever x does
      }
      case K::binary: return binary(e);
      case K::cond: {
        // A condition known before the search: the emitter writes the branch it picks
        // alone (emit_expr.cpp), so the other's values are never computed.
        if (auto c = eval_static(*e.args[0])) return expr(*e.args[*c ? 1 : 2]);
        expr(*e.args[0]);
        Span a = expr(*e.args[1]);
        return hull(a, expr(*e.args[2]));
      }
      case K::call: return call(e);
      case K::index: {
        for (size_t k = 1; k < e.args.size(); ++k) expr(*e.args[k]);
        const Symbol* s = e.args[0]->sym;
        if (!s) return kInt32;
        if (auto it = vars_.find(s); it != vars_.end()) return it->second;
        if (s->kind == Symbol::Kind::data && s->values && !s->values->empty()) {
          auto [lo, hi] = std::minmax_element(s->values->begin(), s->values->end());
          return {*lo, *hi};
        }
        if (s->run_time_range) return {s->run_time_range->first, s->run_time_range->second};
        return kInt32;
      }
      case K::reduce: return reduce(e);
      case K::let:
        vars_[e.sym] = expr(*e.args[0]);
        return expr(*e.args[1]);
      case K::argsort: return kInt32;  // [derived] only, computed on the host
      case K::pair_reduce: return pair_reduce(e);
    }
    return kInt32;
  }

  Span call(const Expr& e) {
    std::vector<Span> a;
    for (const auto& x : e.args) a.push_back(expr(*x));
    switch (e.builtin) {
      case Builtin::min:
      case Builtin::max: {
        Span r = a[0];
        for (size_t i = 1; i < a.size(); ++i)
          r = e.builtin == Builtin::min ? Span{std::min(r.lo, a[i].lo), std::min(r.hi, a[i].hi)}
                                        : Span{std::max(r.lo, a[i].lo), std::max(r.hi, a[i].hi)};
        return r;
      }
      case Builtin::abs: return checked({a[0].lo >= 0 ? a[0].lo : a[0].hi <= 0 ? -a[0].hi : 0, magnitude(a[0])}, e.loc);
      case Builtin::popcount: return {0, 64};
      case Builtin::lowest: return {-1, 63};
      default: break;
    }
    // Without a rule of its own, a builtin's int result may be any int32 (bit, test: not ints).
    return e.type == Type::int_ ? kInt32 : Span{0, 1};
  }

  Span reduce(const Expr& e) {
    Span var{0, spec_.size - 1};
    Wide count = spec_.size;
    if (e.over_range) {
      Span lo = expr(*e.args[0]), hi = expr(*e.args[1]);
      var = {lo.lo, std::max(lo.lo, hi.hi - 1)};
      count = std::clamp<Wide>(hi.hi - lo.lo, 0, Wide(1) << 60);
    } else {
      expr(*e.args[0]);
    }
    vars_[e.sym] = var;
    Span body = expr(*e.args.back());
    if (e.builtin == Builtin::count) return {0, count};
    if (e.builtin == Builtin::sum) return checked(capped(std::min<Wide>(0, count * body.lo), std::max<Wide>(0, count * body.hi)), e.loc);
    return hull(body, exact(0));  // an empty min or max is 0
  }

  // assign() and minprod() (templates/pair_reductions.h): k = min(|A|, |B|) terms.
  Span pair_reduce(const Expr& e) {
    Wide count[2];
    const Symbol* syms[2] = {e.sym, e.sym2};
    const size_t at[2] = {0, side_b(e)};
    const bool range[2] = {e.over_range, e.over_range2};
    for (int s = 0; s < 2; ++s) {
      vars_[syms[s]] = {0, spec_.size - 1};
      count[s] = spec_.size;
      if (!range[s]) {
        expr(*e.args[at[s]]);
        continue;
      }
      Span lo = expr(*e.args[at[s]]), hi = expr(*e.args[at[s] + 1]);
      vars_[syms[s]] = {lo.lo, std::max(lo.lo, hi.hi - 1)};
      count[s] = std::clamp<Wide>(hi.hi - lo.lo, 0, Wide(1) << 60);
    }
    // assign and minprod: min(|A|, |B|) terms; arborescence: an arc into each of B.
    const Wide k = e.builtin == Builtin::arborescence ? count[1] : std::min(count[0], count[1]);
    const size_t body = first_body(e);
    Span term = expr(*e.args[body]);
    if (e.builtin == Builtin::dualassign) return dual_assign(e, term, std::max(count[0], count[1]));
    if (e.builtin == Builtin::minprod) {
      Span b = expr(*e.args[body + 1]);
      Wide c[4] = {term.lo * b.lo, term.lo * b.hi, term.hi * b.lo, term.hi * b.hi};
      term = checked(capped(*std::min_element(c, c + 4), *std::max_element(c, c + 4)), e.loc);
    } else {
      // The solvers work on costs shifted by their minimum, in [0, W]: assign's
      // potentials and reduced costs stay within 2W, arborescence's reduced costs within
      // W, and the "infinite" of each is a quarter of the type's range above them
      // (templates/pair_reductions.h).
      checked(capped(0, 4 * (term.hi - term.lo)), e.loc);
      checked(capped(0, k * (term.hi - term.lo)), e.loc);
      // `then arborescence`: costs plus multipliers within 6W, shifted, under a quarter
      // of the range; bounds, targets and multiplier sums within 16kW past 4k times the
      // largest cost (templates/lagrange_bounds.h).
      if (e.chained) {
        if (e.from_expr) checked(expr(*e.from_expr), e.loc);  // each start, before its clamp
        const Wide span = term.hi - term.lo, top = std::max<Wide>(magnitude(term), span);
        checked(capped(0, 32 * span), e.loc);
        checked(capped(0, 16 * k * span + 4 * k * top), e.loc);
        return checked(capped(std::min<Wide>(0, k * term.lo), std::max<Wide>(0, k * term.hi + 8 * k * span)), e.loc);
      }
    }
    return checked(capped(std::min<Wide>(0, k * term.lo), std::max<Wide>(0, k * term.hi)), e.loc);
  }

  // dualassign() (templates/pair_dual.h): m = max(|A|, |B|) costs and m (m - 1) pair
  // costs, zeros padding the smaller side. Every entry the procedure holds, shifted by its
  // minimum, lies in [0, U] with U = m W + m (m - 1) W2 (W, W2 the spreads of the costs and
  // of the pair costs, 0 included): each is part of some assignment's cost, which is at
  // most U. Its Hungarian steps stay within 2U and its "infinite" is a quarter of the
  // type's range above them, so 4U must fit, as must the result.
  Span dual_assign(const Expr& e, Span term, Wide m) {
    const size_t body = first_body(e);
    m = std::min<Wide>(m, Wide(1) << 20);  // a side's capacity; larger ones fail in the generator, no overflow here
    vars_[e.sym3] = vars_[e.sym];
    vars_[e.sym4] = vars_[e.sym2];
    Span pair = expr(*e.args[body + 1]);
    expr(*e.args[body + 2]);  // the rounds: an int like any other
    term = hull(term, exact(0));
    pair = hull(pair, exact(0));
    const Wide u = m * (term.hi - term.lo) + m * std::max<Wide>(0, m - 1) * (pair.hi - pair.lo);
    checked(capped(0, 4 * u), e.loc);
    return checked(capped(m * term.lo + m * std::max<Wide>(0, m - 1) * pair.lo,
                          m * term.hi + m * std::max<Wide>(0, m - 1) * pair.hi),
                   e.loc);
  }

  Span binary(const Expr& e) {
    Span a = expr(*e.args[0]), b = expr(*e.args[1]);
    if (e.type != Type::int_) return {0, 1};
    const std::string& op = e.text;
    if (op == "+") return checked(capped(a.lo + b.lo, a.hi + b.hi), e.loc);
    if (op == "-") return checked(capped(a.lo - b.hi, a.hi - b.lo), e.loc);
    if (op == "*") {
      Wide c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      return checked(capped(*std::min_element(c, c + 4), *std::max_element(c, c + 4)), e.loc);
    }
    // |x / y| <= |x| (x / 0 == 0); INT_MIN / -1 passes 32 bits, and is exact in 64.
    if (op == "/") return checked(a.lo >= 0 && b.lo >= 0 ? Span{0, a.hi} : Span{-magnitude(a), magnitude(a)}, e.loc);
    if (op == "%") {  // |x % y| <= |x| (x % 0 == x), and < |y|
      Wide r = b.lo > 0 || b.hi < 0 ? std::min(magnitude(a), magnitude(b) - 1) : magnitude(a);
      return {a.lo >= 0 ? 0 : -r, a.hi <= 0 ? 0 : r};
    }
    const bool fits32 = a.lo >= INT32_MIN && a.hi <= INT32_MAX;
    if (op == "<<") {  // 32-bit shifts: the result is an int32, exact when nothing is shifted out
      if (a.lo >= 0 && b.lo >= 0 && b.hi <= 31 && (a.hi << b.hi) <= INT32_MAX) return {a.lo << b.lo, a.hi << b.hi};
      return kInt32;
    }
    if (op == ">>") return fits32 ? Span{std::min<Wide>(a.lo, 0), std::max<Wide>(a.hi, 0)} : kInt32;
    // & | ^: the result needs no more bits than its operands.
    if (op == "&" && a.lo >= 0 && b.lo >= 0) return {0, std::min(a.hi, b.hi)};
    Wide m = std::max(magnitude(a), magnitude(b)), p = 1;
    while (p <= m) p <<= 1;
    return a.lo >= 0 && b.lo >= 0 ? Span{0, p - 1} : Span{-p, p - 1};
  }
};

}  // namespace

IntWidth int_width(const ProblemSpec& spec) {
  if (spec.goal == Goal::path) return {};
  return Analysis(spec).run();
}

}  // namespace permjit
