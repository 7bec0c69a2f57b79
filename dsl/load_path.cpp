#include "dsl/load_path.hpp"


#include "dsl/builtins.hpp"
#include "dsl/checker.hpp"
#include "dsl/load_pattern_db.hpp"
#include "dsl/start_data.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {
namespace {

class PathReader {
 public:
  PathReader(ProblemSpec& s, Diagnostics& d, const TomlReading& r) : spec_(s), d_(d), r_(r) {}

  void run(const toml::table& root) {
    auto perm = spec_.symbols.find(std::string(builtin_info(Builtin::perm).name));
    PJ_INTERNAL_ASSERT(perm != spec_.symbols.end(), "path specs declare the builtin perm");
    perm->second.dims = {spec_.size};
    for (const auto& v : spec_.state)
      if (!v.dims.empty()) d_.error(v.loc, "state '" + v.name + "': a path problem's state variables are scalars");
    if (spec_.size > 255) d_.error(Loc{spec_.file, 1, 1}, "a path problem's size is at most 255");
    read_path(table(root, "path"));
    read_moves(table(root, "moves"));
    read_heuristic(table(root, "heuristic"));
    read_pattern_databases(root, spec_, d_, r_);
  }

 private:
  ProblemSpec& spec_;
  Diagnostics& d_;
  const TomlReading& r_;

  CheckContext node_ctx(const char* where) const { return CheckContext{.where = where, .node = true, .path = true}; }

  const toml::table* table(const toml::table& root, const char* name) {
    const toml::node* n = root.get(name);
    if (!n) {
      d_.error(Loc{spec_.file, 1, 1}, std::string("a path problem needs a section [") + name + "]");
      return nullptr;
    }
    if (!n->is_table()) {
      d_.error(r_.at(*n), std::string("'") + name + "' must be a table ([" + name + "])");
      return nullptr;
    }
    return n->as_table();
  }

  ExprPtr typed(const toml::node& n, const std::string& what, Type t, const CheckContext& ctx) {
    ExprPtr e = r_.expr_of(n, what);
    if (e && !check_typed(*e, t, spec_, ctx, d_)) return nullptr;
    return e;
  }

  // [path]: where the start permutation comes from, and the goal test.
  void read_path(const toml::table* t) {
    if (!t) return;
    r_.check_keys(*t, {"start", "goal"}, "[path]");
    PathSpec& p = spec_.path;
    const toml::node* start = t->get("start");
    if (!start || !start->is_string()) {
      d_.error(start ? r_.at(*start) : r_.at(*t), "[path] needs start = \"<data item holding the start permutation>\"");
    } else {
      p.start_item = start->as_string()->get();
      p.start_loc = r_.at(*start);
      const DataItem* item = spec_.find_data(p.start_item);
      if (!item) {
        std::vector<std::string> names;
        for (const auto& i : spec_.data) names.push_back(i.name);
        d_.error(r_.at(*start), "'" + p.start_item + "' is not a data item", did_you_mean(p.start_item, names));
      } else if (item->dim_exprs.size() != 1) {
        d_.error(r_.at(*start), "the start permutation '" + p.start_item + "' must be a vector, int[size]");
      } else if (item->loaded) {
        check_start_permutation(spec_, *item, r_.at(*start), d_);
      }
    }
    if (const toml::node* g = t->get("goal")) p.goal = typed(*g, "path.goal", Type::bool_, node_ctx("path.goal"));
    else d_.error(r_.at(*t), "[path] needs goal = \"<bool expression of perm and the state>\"");
  }

  // [moves]: name = { when, swap = [a, b], set = { var = expr }, cost, inverse }.
  void read_moves(const toml::table* t) {
    if (!t) return;
    std::vector<std::pair<const toml::node*, std::string>> inverses;
    for (auto&& [k, v] : *t) {
      Move m;
      m.name = std::string(k.str());
      m.loc = r_.at_key(k);
      const toml::table* mt = v.as_table();
      if (!mt) {
        d_.error(r_.at(v), "move '" + m.name + "' must be a table { when = ..., swap = [a, b], ... }");
        continue;
      }
      r_.check_keys(*mt, {"when", "swap", "set", "cost", "inverse"}, "move '" + m.name + "'");
      std::string where = "move '" + m.name + "'";
      if (const toml::node* w = mt->get("when"))
        m.when = typed(*w, where + " when", Type::bool_, node_ctx("a move's when"));
      read_swap(mt->get("swap"), *mt, m);
      if (const toml::node* s = mt->get("set")) read_set(*s, m);
      if (const toml::node* c = mt->get("cost")) read_cost(*c, m);
      if (const toml::node* inv = mt->get("inverse")) inverses.push_back({inv, m.name});
      else inverses.push_back({nullptr, m.name});
      spec_.path.moves.push_back(std::move(m));
    }
    if (spec_.path.moves.empty()) d_.error(r_.at(*t), "[moves] declares no move");
    if (spec_.path.moves.size() > 32)
      d_.error(r_.at(*t), "[moves] declares " + std::to_string(spec_.path.moves.size()) + " moves; at most 32");
    for (size_t i = 0; i < inverses.size() && i < spec_.path.moves.size(); ++i) {
      const toml::node* inv = inverses[i].first;
      if (!inv) continue;
      if (!inv->is_string()) {
        d_.error(r_.at(*inv), "inverse names another move, e.g. inverse = \"down\"");
        continue;
      }
      std::string name = inv->as_string()->get();
      std::vector<std::string> names;
      int found = -1;
      for (size_t j = 0; j < spec_.path.moves.size(); ++j) {
        names.push_back(spec_.path.moves[j].name);
        if (spec_.path.moves[j].name == name) found = static_cast<int>(j);
      }
      if (found < 0) d_.error(r_.at(*inv), "'" + name + "' is not a move", did_you_mean(name, names));
      spec_.path.moves[i].inverse = found;
    }
  }

  void read_swap(const toml::node* n, const toml::table& mt, Move& m) {
    const toml::array* a = n ? n->as_array() : nullptr;
    if (!a || a->size() != 2) {
      d_.error(n ? r_.at(*n) : r_.at(mt), "move '" + m.name + "' needs swap = [\"<position>\", \"<position>\"]",
               "the values at the two positions of perm are exchanged");
      return;
    }
    CheckContext ctx = node_ctx("a move's swap position");
    m.swap_a = typed((*a)[0], "swap position", Type::int_, ctx);
    m.swap_b = typed((*a)[1], "swap position", Type::int_, ctx);
  }

  void read_set(const toml::node& n, Move& m) {
    const toml::table* t = n.as_table();
    if (!t) {
      d_.error(r_.at(n), "set must be a table { var = \"expr\", ... } of state variables");
      return;
    }
    for (auto&& [k, v] : *t) {
      std::string name(k.str());
      const StateVar* sv = spec_.find_state(name);
      if (!sv || !sv->dims.empty()) {
        std::vector<std::string> names;
        for (const auto& s : spec_.state) names.push_back(s.name);
        d_.error(r_.at_key(k), "'" + name + "' is not a scalar state variable", did_you_mean(name, names));
        continue;
      }
      if (ExprPtr e = typed(v, "set." + name, sv->type, node_ctx("a move's set"))) m.set.push_back({name, std::move(e)});
    }
  }

  void read_cost(const toml::node& n, Move& m) {
    CheckContext ctx{.where = "a move's cost (known before the search)", .node = false, .path = true};
    ExprPtr e = typed(n, "cost", Type::int_, ctx);
    if (!e) return;
    auto v = eval_static(*e, &d_);
    if (!v) {
      d_.error(e->loc, "a move's cost must be known before the search");
      return;
    }
    if (*v < 1 || *v > 1000000) {
      d_.error(e->loc, "a move's cost is " + std::to_string(*v) + "; costs are 1..1000000",
               "IDA* needs positive costs so that every path is finite");
      return;
    }
    m.cost = *v;
  }

  // [heuristic]: h = "<int of the node>", or per_position = "<int of pos and perm>",
  // summed over the positions and updated on the two swapped positions only.
  void read_heuristic(const toml::table* t) {
    if (!t) return;
    r_.check_keys(*t, {"h", "per_position"}, "[heuristic]");
    const toml::node* h = t->get("h");
    const toml::node* per = t->get("per_position");
    if (h && per) {
      d_.error(r_.at(*per), "[heuristic] takes h or per_position, not both");
      return;
    }
    if (h) {
      spec_.path.heuristic = typed(*h, "heuristic.h", Type::int_, node_ctx("heuristic.h"));
      return;
    }
    if (!per) {
      d_.error(r_.at(*t), "[heuristic] needs h = \"<int expression>\" or per_position = \"<int expression of pos>\"",
               "the heuristic must never overestimate the cost to reach the goal");
      return;
    }
    ExprPtr term = r_.expr_of(*per, "heuristic.per_position");
    if (!term) return;
    // h = sum(pos in 0..size: term): the checker binds `pos`, the generator reuses it.
    Loc at = term->loc;
    auto sum = std::make_unique<Expr>(Expr::Kind::reduce, at);
    sum->text = builtin_info(Builtin::sum).name;
    sum->var = "pos";
    sum->over_range = true;
    auto lo = std::make_unique<Expr>(Expr::Kind::int_lit, at);
    auto hi = std::make_unique<Expr>(Expr::Kind::int_lit, at);
    hi->value = spec_.size;
    sum->args.push_back(std::move(lo));
    sum->args.push_back(std::move(hi));
    sum->args.push_back(std::move(term));
    if (!check_typed(*sum, Type::int_, spec_, node_ctx("heuristic.per_position"), d_)) return;
    spec_.path.position_term = sum->args.back().get();
    spec_.path.position_var = sum->sym;
    spec_.path.heuristic = std::move(sum);
  }
};

}  // namespace

void read_path_sections(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r) {
  PathReader(spec, d, r).run(root);
}

}  // namespace permjit
