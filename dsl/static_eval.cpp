#include "dsl/static_eval.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <tuple>

#include "dsl/builtins.hpp"
#include "dsl/lagrange_root.hpp"
#include "dsl/pair_solvers.hpp"

namespace permjit {
namespace {

// root_multipliers, kept per (sides, costs, steps): a [derived] table of n multipliers
// asks n times for the same matrix's. Kept for the process's life (a few matrices of at
// most 64 x 64 per spec loaded).
const std::vector<int64_t>& root_multipliers_of(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                                                const std::vector<std::vector<int64_t>>& cost, int64_t steps) {
  using Key = std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::vector<std::vector<int64_t>>, int64_t>;
  static std::mutex lock;
  static std::map<Key, std::vector<int64_t>> kept;
  std::lock_guard<std::mutex> hold(lock);
  Key key{s, t, cost, steps};
  auto it = kept.find(key);
  if (it == kept.end()) it = kept.emplace(std::move(key), root_multipliers(s, t, cost, steps)).first;
  return it->second;
}

class Eval {
 public:
  explicit Eval(Diagnostics* d, std::map<const Symbol*, int64_t> locals = {}) : diags_(d), locals_(std::move(locals)) {}

  std::optional<int64_t> run(const Expr& e) {
    using K = Expr::Kind;
    switch (e.kind) {
      case K::int_lit:
      case K::bool_lit: return e.value;
      case K::name: {
        if (!e.sym) return std::nullopt;
        if (auto it = locals_.find(e.sym); it != locals_.end()) return it->second;
        if (e.sym->kind == Symbol::Kind::param || e.sym->kind == Symbol::Kind::data) return e.sym->value;
        return std::nullopt;
      }
      case K::unary: {
        auto x = run(*e.args[0]);
        if (!x) return x;
        if (e.text == "-") return static_cast<int64_t>(0 - static_cast<uint64_t>(*x));
        if (e.text == "!") return !*x;
        return ~*x;
      }
      case K::binary: return binary(e);
      case K::cond: {
        // Only the arm taken is evaluated: `m == 0 ? 4 : 12 / m` is 4 when m is 0.
        auto c = run(*e.args[0]);
        if (!c) return c;
        return run(*e.args[*c ? 1 : 2]);
      }
      case K::call: {
        std::vector<int64_t> v;
        for (auto& a : e.args) {
          auto x = run(*a);
          if (!x) return x;
          v.push_back(*x);
        }
        if (e.builtin == Builtin::none) return std::nullopt;  // not checked (yet)
        return builtin_info(e.builtin).eval(v);
      }
      case K::index: {
        const Symbol* s = e.sym;
        if (!s || s->kind != Symbol::Kind::data || !s->values) return std::nullopt;
        int64_t flat = 0;
        for (size_t i = 1; i < e.args.size(); ++i) {
          auto x = run(*e.args[i]);
          if (!x) return x;
          int64_t dim = s->dims[i - 1];
          if (*x < 0 || *x >= dim) {
            if (diags_)
              diags_->error(e.args[i]->loc, "index " + std::to_string(*x) + " is out of range for dimension " +
                                                std::to_string(i) + " of '" + s->name + "' (size " + std::to_string(dim) + ")");
            return std::nullopt;
          }
          flat = flat * dim + *x;
        }
        return (*s->values)[flat];
      }
      case K::reduce: {
        // The elements are visited one by one, never listed: a range may be long.
        int64_t lo = 0, hi = 64;
        std::optional<uint64_t> set;
        if (e.over_range) {
          auto l = run(*e.args[0]), h = run(*e.args[1]);
          if (!l || !h) return std::nullopt;
          lo = *l;
          hi = *h;
        } else {
          auto s = run(*e.args[0]);
          if (!s) return s;
          set = static_cast<uint64_t>(*s);
        }
        // Empty sums, counts, minima and maxima are 0 (see docs/spec-language.md).
        if (e.builtin == Builtin::none) return std::nullopt;  // not checked (yet)
        const BuiltinInfo& r = builtin_info(e.builtin);
        std::optional<int64_t> acc;
        for (int64_t x = lo; x < hi; ++x) {
          if (set && !((*set >> x) & 1)) continue;
          locals_[e.sym] = x;
          auto b = run(*e.args.back());
          if (!b) return b;
          const int64_t term = r.body == Type::bool_ ? int64_t(*b != 0) : *b;
          acc = acc ? r.fold(*acc, term) : term;
        }
        locals_.erase(e.sym);
        return acc.value_or(0);
      }
      case K::argsort: return argsort(e);
      case K::pair_reduce: return pair_reduce(e);
      case K::let: {
        auto v = run(*e.args[0]);
        if (!v) return v;
        locals_[e.sym] = *v;
        auto r = run(*e.args[1]);
        locals_.erase(e.sym);
        return r;
      }
    }
    return std::nullopt;
  }

 private:
  Diagnostics* diags_;
  std::map<const Symbol*, int64_t> locals_;

  // The position-th value of lo..hi ordered by its keys (left to right), ties by value.
  std::optional<int64_t> argsort(const Expr& e) {
    auto lo = run(*e.args[0]), hi = run(*e.args[1]), pos = run(*e.args[2]);
    if (!lo || !hi || !pos) return std::nullopt;
    int64_t count = std::max<int64_t>(0, *hi - *lo);
    if (*pos < 0 || *pos >= count) {
      if (diags_)
        diags_->error(e.args[2]->loc, "position " + std::to_string(*pos) + " is outside argsort's range of " +
                                          std::to_string(count) + " value(s)");
      return std::nullopt;
    }
    std::vector<std::pair<std::vector<int64_t>, int64_t>> keyed;
    for (int64_t x = *lo; x < *hi; ++x) {
      locals_[e.sym] = x;
      std::vector<int64_t> keys;
      for (size_t i = 3; i < e.args.size(); ++i) {
        auto k = run(*e.args[i]);
        if (!k) return k;
        keys.push_back(*k);
      }
      keyed.push_back({std::move(keys), x});
    }
    locals_.erase(e.sym);
    // Keys, then the value: a strict order, so the result does not depend on the sort.
    std::nth_element(keyed.begin(), keyed.begin() + *pos, keyed.end());
    return keyed[*pos].second;
  }

  // The values of one side of a pair reduction (a set's elements, or lo..hi-1).
  std::optional<std::vector<int64_t>> side(const Expr& e, size_t at, bool range) {
    std::vector<int64_t> out;
    if (!range) {
      auto s = run(*e.args[at]);
      if (!s) return std::nullopt;
      for (int x = 0; x < 64; ++x)
        if ((static_cast<uint64_t>(*s) >> x) & 1) out.push_back(x);
      return out;
    }
    auto lo = run(*e.args[at]), hi = run(*e.args[at + 1]);
    if (!lo || !hi) return std::nullopt;
    if (*hi - *lo > kMaxSide) {
      if (diags_)
        diags_->error(e.args[at]->loc, "this range of " + e.text + "() holds " + std::to_string(*hi - *lo) +
                                           " values; at most " + std::to_string(kMaxSide) + " are allowed");
      return std::nullopt;
    }
    for (int64_t x = *lo; x < *hi; ++x) out.push_back(x);
    return out;
  }

  // assign(i in S, j in T: cost): the cheapest matching of the smaller side into the
  // other; minprod(x in S: a, y in T: b): the minimal scalar product.
  std::optional<int64_t> pair_reduce(const Expr& e) {
    // The checker keeps the node-only ones (dualassign()) out of the host's contexts.
    PJ_INTERNAL_ASSERT(!builtin_info(e.builtin).node_only, e.text + "() reached the static evaluator");
    // A chain is solved only in the search's code (the checker says so), but for
    // `multiplier x`: one multiplier of the matrix's optimised multipliers.
    if (e.chained && !e.multiplier_expr) return std::nullopt;
    auto as = side(e, 0, e.over_range), bs = side(e, side_b(e), e.over_range2);
    if (!as || !bs) return std::nullopt;
    const size_t body = first_body(e);
    if (builtin_info(e.builtin).cost_matrix) {
      std::vector<std::vector<int64_t>> cost(as->size(), std::vector<int64_t>(bs->size()));
      for (size_t a = 0; a < as->size(); ++a)
        for (size_t b = 0; b < bs->size(); ++b) {
          locals_[e.sym] = (*as)[a];
          locals_[e.sym2] = (*bs)[b];
          auto c = run(*e.args[body]);
          if (!c) return c;
          cost[a][b] = *c;
        }
      locals_.erase(e.sym);
      locals_.erase(e.sym2);
      if (e.chained) return multiplier(e, *as, *bs, cost);
      if (e.builtin == Builtin::arborescence) return min_cost_arborescence(*as, *bs, cost);
      return min_cost_assignment(cost);
    }
    std::vector<int64_t> va, vb;
    for (int64_t x : *as) {
      locals_[e.sym] = x;
      auto v = run(*e.args[body]);
      if (!v) return v;
      va.push_back(*v);
    }
    locals_.erase(e.sym);
    for (int64_t y : *bs) {
      locals_[e.sym2] = y;
      auto v = run(*e.args[body + 1]);
      if (!v) return v;
      vb.push_back(*v);
    }
    locals_.erase(e.sym2);
    return min_scalar_product(std::move(va), std::move(vb));
  }
  // `assign(i in S, j in T: cost then arborescence steps K multiplier x)`: the multiplier
  // of S's element x (0 where x is not in S) among those root_multipliers optimises.
  // A [derived] table reads one per element, so the multipliers of one matrix are
  // computed once and kept (root_multipliers_of).
  std::optional<int64_t> multiplier(const Expr& e, const std::vector<int64_t>& as, const std::vector<int64_t>& bs,
                                    const std::vector<std::vector<int64_t>>& cost) {
    auto x = run(*e.multiplier_expr);
    if (!x) return x;
    for (const auto& row : cost)
      for (int64_t c : row)
        if (c < INT32_MIN || c > INT32_MAX) {
          if (diags_)
            diags_->error(e.args[first_body(e)]->loc, "a cost of " + e.text + "() then arborescence = " +
                                                          std::to_string(c) + " does not fit in a 32-bit int");
          return std::nullopt;
        }
    const std::vector<int64_t>& mu = root_multipliers_of(as, bs, cost, e.steps);
    for (size_t a = 0; a < as.size(); ++a)
      if (as[a] == *x) return mu[a];
    return 0;
  }

  static constexpr int64_t kMaxSide = 4096;  // a side's values: the cost matrix is their square

  // Shifts by a count outside the word give 0 (and `>>` of an int its sign), as
  // pj::shl, pj::shr, pj::shl_bits, pj::shr_bits. An int shifts within 0..31 as the
  // generated code's 32-bit int does, arithmetically to the right; a set is the
  // 64-bit word, shifted logically.
  static int64_t shift(const Expr& e, int64_t a, int64_t b) {
    const bool left = e.text == "<<";
    if (e.type == Type::bits) {
      if (b < 0 || b >= 64) return 0;
      const auto w = static_cast<uint64_t>(a);
      return static_cast<int64_t>(left ? w << b : w >> b);
    }
    if (b < 0 || b >= 32) return left ? 0 : (a < 0 ? -1 : 0);
    return left ? static_cast<int64_t>(static_cast<uint64_t>(a) << b) : a >> b;
  }

  std::optional<int64_t> binary(const Expr& e) {
    if (e.text == "&&" || e.text == "||") {  // short-circuit, as a guard is meant
      auto l = run(*e.args[0]);
      if (!l) return l;
      if ((e.text == "&&") != (*l != 0)) return int64_t(*l != 0);
      auto r = run(*e.args[1]);
      if (!r) return r;
      return int64_t(*r != 0);
    }
    auto l = run(*e.args[0]);
    auto r = run(*e.args[1]);
    if (!l || !r) return std::nullopt;
    int64_t a = *l, b = *r;
    const std::string& op = e.text;
    // Wrapping, as two's complement: 64-bit overflow must not be undefined here.
    auto wrap = [](uint64_t x) { return static_cast<int64_t>(x); };
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (op == "+") return wrap(ua + ub);
    if (op == "-") return wrap(ua - ub);
    if (op == "*") return wrap(ua * ub);
    // The defined results of docs/reliability.md, as the generated code's pj::div,
    // pj::rem: x / 0 == 0, x % 0 == x, x / -1 == -x (wrapping), x % -1 == 0.
    if (op == "/") return b == 0 ? 0 : b == -1 ? wrap(0 - ua) : a / b;
    if (op == "%") return b == 0 ? a : b == -1 ? 0 : a % b;
    if (op == "<<" || op == ">>") return shift(e, a, b);
    if (op == "&") return a & b;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&&") return a && b;
    if (op == "||") return a || b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    return std::nullopt;
  }
};

}  // namespace

std::optional<int64_t> eval_static(const Expr& e, Diagnostics* diags) { return Eval(diags).run(e); }

std::optional<int64_t> eval_static(const Expr& e, const std::map<const Symbol*, int64_t>& locals, Diagnostics* diags) {
  return Eval(diags, locals).run(e);
}

}  // namespace permjit
