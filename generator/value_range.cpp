#include "generator/value_range.hpp"

#include <algorithm>

namespace permjit {

namespace {

ValueRange unknown() { return {}; }

ValueRange combine(const ValueRange& a, const ValueRange& b, int64_t (*f)(int64_t, int64_t)) {
  if (!a.known || !b.known) return unknown();
  int64_t c[4] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  return ValueRange::between(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}

ValueRange hull(const ValueRange& a, const ValueRange& b) {
  if (!a.known || !b.known) return unknown();
  return ValueRange::between(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

// Values beyond this are treated as unknown, so products cannot overflow.
bool sane(const ValueRange& r) { return r.known && r.lo > -(int64_t(1) << 31) && r.hi < (int64_t(1) << 31); }

}  // namespace

ValueRange value_range(const Expr& e, const RangeEnv& env) {
  using K = Expr::Kind;
  auto sub = [&](size_t i) { return value_range(*e.args[i], env); };
  ValueRange r;
  switch (e.kind) {
    case K::int_lit: return ValueRange::exact(e.value);
    case K::bool_lit: return ValueRange::between(0, 1);
    case K::name: {
      const Symbol* s = e.sym;
      if (!s) return unknown();
      if (auto it = env.locals.find(s); it != env.locals.end()) return it->second;
      if ((s->kind == Symbol::Kind::param || s->kind == Symbol::Kind::data) && s->value) return ValueRange::exact(*s->value);
      switch (s->builtin) {
        case Builtin::d: return ValueRange::between(env.depth_lo, env.depth_hi);
        case Builtin::v:
        case Builtin::last:
        case Builtin::first: return ValueRange::between(0, env.size - 1);
        default: break;
      }
      return unknown();
    }
    case K::unary:
      if (e.type != Type::int_) return e.type == Type::bool_ ? ValueRange::between(0, 1) : unknown();
      r = sub(0);
      if (e.text == "-" && r.known) return ValueRange::between(-r.hi, -r.lo);
      return unknown();
    case K::binary: {
      if (e.type == Type::bool_) return ValueRange::between(0, 1);
      if (e.type != Type::int_) return unknown();
      ValueRange a = sub(0), b = sub(1);
      if (e.text == "+") r = combine(a, b, [](int64_t x, int64_t y) { return x + y; });
      else if (e.text == "-") r = combine(a, b, [](int64_t x, int64_t y) { return x - y; });
      else if (e.text == "*") r = combine(a, b, [](int64_t x, int64_t y) { return x * y; });
      else if (e.text == "/" && b.known && b.lo == b.hi && b.lo > 0 && a.known)
        r = ValueRange::between(a.lo / b.lo, a.hi / b.lo);
      else if (e.text == "%" && b.known && b.lo == b.hi && b.lo > 0 && a.known)
        r = a.lo >= 0 ? ValueRange::between(0, std::min(a.hi, b.lo - 1)) : ValueRange::between(-(b.lo - 1), b.lo - 1);
      else r = unknown();
      return sane(r) ? r : unknown();
    }
    case K::cond: return hull(sub(1), sub(2));
    case K::call: {
      switch (e.builtin) {
        case Builtin::popcount: return ValueRange::between(0, env.size);
        case Builtin::lowest: return ValueRange::between(-1, env.size - 1);
        case Builtin::test: return ValueRange::between(0, 1);
        case Builtin::abs: {
          r = sub(0);
          if (!r.known) return r;
          int64_t m = std::max(std::abs(r.lo), std::abs(r.hi));
          return ValueRange::between(r.lo >= 0 ? r.lo : r.hi <= 0 ? -r.hi : 0, m);
        }
        case Builtin::min:
        case Builtin::max:
          r = sub(0);
          for (size_t i = 1; i < e.args.size(); ++i) {
            ValueRange b = sub(i);
            if (!r.known || !b.known) return unknown();
            r = e.builtin == Builtin::min ? ValueRange::between(std::min(r.lo, b.lo), std::min(r.hi, b.hi))
                                          : ValueRange::between(std::max(r.lo, b.lo), std::max(r.hi, b.hi));
          }
          return r;
        default: return unknown();  // bit: a set, not a number
      }
    }
    case K::index: {
      const Symbol* s = e.sym;
      if (s && s->kind == Symbol::Kind::data && s->values && !s->values->empty()) {
        auto [lo, hi] = std::minmax_element(s->values->begin(), s->values->end());
        return ValueRange::between(*lo, *hi);
      }
      if (s && s->run_time_range) return ValueRange::between(s->run_time_range->first, s->run_time_range->second);
      if (s && s->builtin == Builtin::perm) return ValueRange::between(0, env.size - 1);
      return unknown();
    }
    case K::reduce: {
      if (e.builtin == Builtin::count) return ValueRange::between(0, env.size);
      if (e.builtin == Builtin::sum) return unknown();
      RangeEnv inner = env;
      inner.locals[e.sym] = ValueRange::between(0, env.size - 1);  // a safe cover for the body's variable
      if (e.over_range) {
        ValueRange lo = sub(0), hi = sub(1);
        inner.locals[e.sym] = lo.known && hi.known ? ValueRange::between(lo.lo, std::max(lo.lo, hi.hi - 1)) : unknown();
      }
      r = value_range(*e.args.back(), inner);
      return r.known ? hull(r, ValueRange::exact(0)) : r;  // an empty min or max is 0
    }
    case K::argsort: {  // one of lo..hi-1
      ValueRange lo = sub(0), hi = sub(1);
      return lo.known && hi.known ? ValueRange::between(lo.lo, std::max(lo.lo, hi.hi - 1)) : unknown();
    }
    case K::pair_reduce: {
      // k terms, each a cost (assign, arborescence) or a product (minprod): the
      // result lies between k times the smallest and k times the largest, k >= 0.
      RangeEnv inner = env;
      int64_t count[2];
      const Symbol* syms[2] = {e.sym, e.sym2};
      const size_t at[2] = {0, side_b(e)};
      const bool range[2] = {e.over_range, e.over_range2};
      for (int s = 0; s < 2; ++s) {
        inner.locals[syms[s]] = ValueRange::between(0, env.size - 1);
        count[s] = env.size;
        if (!range[s]) continue;
        ValueRange lo = sub(at[s]), hi = sub(at[s] + 1);
        if (!lo.known || !hi.known) return unknown();
        inner.locals[syms[s]] = ValueRange::between(lo.lo, std::max(lo.lo, hi.hi - 1));
        count[s] = std::max<int64_t>(0, hi.hi - lo.lo);
      }
      const size_t body = first_body(e);
      ValueRange term = value_range(*e.args[body], inner);
      if (e.builtin == Builtin::dualassign) {
        // A bound on the cheapest of m = max(|A|, |B|) costs and m (m - 1) pair costs
        // (templates/pair_dual.h pads the smaller side with zeros): within m times the
        // costs' range plus m (m - 1) times the pair costs', 0 included.
        inner.locals[e.sym3] = inner.locals[e.sym];
        inner.locals[e.sym4] = inner.locals[e.sym2];
        ValueRange pair = value_range(*e.args[body + 1], inner);
        if (!sane(term) || !sane(pair)) return unknown();
        const int64_t m = std::max(count[0], count[1]);
        r = ValueRange::between(std::min<int64_t>(0, m * term.lo + m * (m - 1) * pair.lo),
                                std::max<int64_t>(0, m * term.hi + m * (m - 1) * pair.hi));
        return sane(r) ? r : unknown();
      }
      if (e.builtin == Builtin::minprod)
        term = combine(term, value_range(*e.args[body + 1], inner), [](int64_t x, int64_t y) { return x * y; });
      if (!sane(term)) return unknown();
      // assign and minprod: min(|A|, |B|) terms; arborescence: an arc into each of B.
      const int64_t k = e.builtin == Builtin::arborescence ? count[1] : std::min(count[0], count[1]);
      // `then arborescence` adds at most 8k times the costs' spread (templates/lagrange_bounds.h).
      const int64_t extra = e.chained ? 8 * k * (term.hi - term.lo) : 0;
      r = ValueRange::between(std::min<int64_t>(0, k * term.lo), std::max<int64_t>(0, k * term.hi + extra));
      return sane(r) ? r : unknown();
    }
    case K::let: {
      RangeEnv inner = env;
      inner.locals[e.sym] = sub(0);
      return value_range(*e.args[1], inner);
    }
  }
  return unknown();
}

}  // namespace permjit
