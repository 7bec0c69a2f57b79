#include "generator/state_liveness.hpp"

#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

// The statements of an `if` that run: one part when the condition is known.
std::vector<const Block*> parts_run(const Stmt& s) {
  if (auto c = eval_static(*s.value)) return {*c ? &s.body : &s.else_body};
  return {&s.body, &s.else_body};
}

const Symbol* written(const Stmt& s) {
  if (s.kind == Stmt::Kind::assign)
    return s.target->kind == Expr::Kind::index ? s.target->args[0]->sym : s.target->sym;
  if (s.kind == Stmt::Kind::var || s.kind == Stmt::Kind::let) return s.sym;
  return nullptr;
}

// Adds what a statement reads to `out` when it has a live effect; `all` adds every read
// (value blocks, whose locals all feed the returned value).
void block_reads(const Block& b, const std::set<const Symbol*>& live, bool all, std::set<const Symbol*>& out) {
  for (const auto& sp : b) {
    const Stmt& s = *sp;
    if (!all && !has_live_effect(s, live)) continue;
    switch (s.kind) {
      case Stmt::Kind::assign:
        for (const auto& a : s.target->args) static_reads(*a, out);
        static_reads(*s.value, out);
        break;
      case Stmt::Kind::let:
      case Stmt::Kind::var:
        static_reads(*s.value, out);
        for (const auto& d : s.dims) static_reads(*d, out);
        break;
      case Stmt::Kind::for_:
        static_reads(*s.lo, out);
        static_reads(*s.hi, out);
        block_reads(s.body, live, all, out);
        break;
      case Stmt::Kind::if_:
        if (!eval_static(*s.value)) static_reads(*s.value, out);
        for (const Block* part : parts_run(s)) block_reads(*part, live, all, out);
        break;
    }
  }
}

}  // namespace

void static_reads(const Expr& e, std::set<const Symbol*>& out) {
  if (e.kind == Expr::Kind::cond)
    if (auto c = eval_static(*e.args[0])) {
      static_reads(*e.args[*c ? 1 : 2], out);
      return;
    }
  if (e.sym) out.insert(e.sym);
  for (const auto& a : e.args) static_reads(*a, out);
  for (const Expr* x : chain_parts(e)) static_reads(*x, out);
}

void static_reads(const Block& b, std::set<const Symbol*>& out) { block_reads(b, {}, true, out); }

std::vector<std::pair<const Block*, const Expr*>> values_in_use(const Branch& b) {
  std::vector<std::pair<const Block*, const Expr*>> out = {{&b.candidates_prelude, b.candidates.get()},
                                                           {&b.filter_prelude, b.filter.get()},
                                                           {&b.bound_prelude, b.bound.get()},
                                                           {&b.objective_prelude, b.objective.get()}};
  if (b.stages == 2) out.push_back({&b.refine_prelude, b.refine.get()});
  return out;
}

std::vector<const Placement*> placements_in_use(const Branch& b) {
  if (b.ends == 2) return {&b.place, &b.place_back};
  return {&b.place};
}

bool has_live_effect(const Stmt& s, const std::set<const Symbol*>& live) {
  if (const Symbol* w = written(s)) return live.count(w) > 0;
  if (s.kind == Stmt::Kind::for_) {
    for (const auto& b : s.body)
      if (has_live_effect(*b, live)) return true;
    return false;
  }
  for (const Block* part : parts_run(s))
    for (const auto& b : *part)
      if (has_live_effect(*b, live)) return true;
  return false;
}

std::set<const Symbol*> live_symbols(const ProblemSpec& s) {
  std::set<const Symbol*> live;
  if (s.goal == Goal::path) {
    for (const auto& v : s.state)
      if (auto it = s.symbols.find(v.name); it != s.symbols.end()) live.insert(&it->second);
    return live;
  }
  const Branch& b = s.branch;
  for (auto [prelude, e] : values_in_use(b)) {
    if (e) static_reads(*e, live);
    block_reads(*prelude, live, true, live);
  }
  // The updates: a symbol is live when a live symbol's update reads it; to a fixpoint.
  const std::vector<const Placement*> placements = placements_in_use(b);
  for (size_t before = 0; before != live.size();) {
    before = live.size();
    std::set<const Symbol*> more;
    for (const Placement* p : placements) {
      block_reads(p->block, live, false, more);
      for (const auto& [name, e] : p->simultaneous)
        if (auto it = s.symbols.find(name); it != s.symbols.end() && live.count(&it->second)) static_reads(*e, more);
    }
    live.insert(more.begin(), more.end());
  }
  return live;
}

bool is_stored(const std::set<const Symbol*>& live, const ProblemSpec& s, const StateVar& v) {
  auto it = s.symbols.find(v.name);
  return it != s.symbols.end() && live.count(&it->second) > 0;
}

}  // namespace permjit
