// [pattern_databases] of a path spec (docs/spec-language.md §18b): read, and checked so
// that every table the run time builds is well defined: the values exist, the patterns
// of a group are disjoint (their tables add up), the moves do not read the values a
// pattern forgets, and no table is larger than an index of 32 bits.
#include "dsl/load_pattern_db.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "dsl/checker.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

// The largest table: entries are indexed by 32-bit numbers (and a byte each).
constexpr uint64_t kMaxEntries = 4294967295ull;

bool reads_perm(const Expr* e) {
  if (!e) return false;
  if (e->sym && e->sym->kind == Symbol::Kind::builtin && e->sym->builtin == Builtin::perm) return true;
  for (const auto& a : e->args)
    if (reads_perm(a.get())) return true;
  return false;
}

class DatabaseReader {
 public:
  DatabaseReader(ProblemSpec& s, Diagnostics& d, const TomlReading& r) : spec_(s), d_(d), r_(r) {}

  void run(const toml::node& n) {
    const toml::table* t = n.as_table();
    PatternDatabases& p = spec_.path.databases;
    p.loc = r_.at(n);
    if (!t) {
      d_.error(p.loc, "'pattern_databases' must be a table ([pattern_databases])");
      return;
    }
    r_.check_keys(*t, {"when", "goal", "track", "additive", "groups", "reflect"}, "[pattern_databases]");
    if (const toml::node* w = t->get("when"); w && !enabled(*w)) return;
    p.on = true;
    read_goal(t->get("goal"), *t);
    if (const toml::node* tr = t->get("track")) read_track(*tr);
    const toml::node* add = t->get("additive");
    const toml::node* groups = t->get("groups");
    if (!add && !groups) {
      d_.error(p.loc, "[pattern_databases] needs additive = [[values], ...] or groups = [[[values], ...], ...]",
               "a pattern is a list of values; the patterns of a group are disjoint and their tables add up");
      return;
    }
    if (add) read_group(*add);
    if (groups) {
      const toml::array* a = groups->as_array();
      if (!a || a->empty()) d_.error(r_.at(*groups), "groups must be a non-empty array of groups, each [[values], ...]");
      else
        for (const auto& g : *a) read_group(g);
    }
    if (const toml::node* rf = t->get("reflect")) read_reflection(*rf);
    check_moves();
  }

 private:
  ProblemSpec& spec_;
  Diagnostics& d_;
  const TomlReading& r_;

  // `when`: a bool of the parameters; false leaves the spec with its [heuristic] alone.
  bool enabled(const toml::node& w) {
    ExprPtr e = r_.expr_of(w, "pattern_databases.when");
    if (!e) return false;
    CheckContext ctx{.where = "pattern_databases.when (known before the search)", .node = false, .path = true};
    if (!check_typed(*e, Type::bool_, spec_, ctx, d_)) return false;
    auto v = eval_static(*e, &d_);
    if (!v) {
      d_.error(e->loc, "pattern_databases.when must be known before the search (parameters, data)");
      return false;
    }
    return *v != 0;
  }

  void read_goal(const toml::node* g, const toml::table& t) {
    PatternDatabases& p = spec_.path.databases;
    if (!g || !g->is_string()) {
      d_.error(g ? r_.at(*g) : r_.at(t), "[pattern_databases] needs goal = \"<data item holding the goal permutation>\"",
               "the tables hold costs to this permutation: e.g. a [derived] int[size] with value = \"p\"");
      return;
    }
    p.goal_item = g->as_string()->get();
    p.goal_loc = r_.at(*g);
    const DataItem* item = spec_.find_data(p.goal_item);
    if (!item) {
      std::vector<std::string> names;
      for (const auto& i : spec_.data) names.push_back(i.name);
      for (const auto& i : spec_.derived) names.push_back(i.name);
      d_.error(p.goal_loc, "'" + p.goal_item + "' is not a data item", did_you_mean(p.goal_item, names));
      return;
    }
    if (item->dim_exprs.size() != 1) {
      d_.error(p.goal_loc, "the goal permutation '" + p.goal_item + "' must be a vector, int[size]");
      return;
    }
    if (item->values.empty()) return;  // instance data without an instance: checked when there is one
    std::set<int64_t> seen;
    bool ok = static_cast<int>(item->values.size()) == spec_.size;
    for (int64_t v : item->values) ok = ok && v >= 0 && v < spec_.size && seen.insert(v).second;
    if (!ok) {
      d_.error(p.goal_loc, "the goal '" + p.goal_item + "' is not a permutation of 0.." + std::to_string(spec_.size - 1));
      return;
    }
    for (int64_t v : item->values) p.goal.push_back(static_cast<int>(v));
  }

  // A data item int[size] holding a permutation, its values; empty after an error (or
  // when the values are not known: no instance).
  std::vector<int> permutation_item(const toml::node* n, const Loc& where, const std::string& what) {
    if (!n || !n->is_string()) {
      d_.error(where, what + " names a data item holding a permutation, e.g. \"mirror\"");
      return {};
    }
    const std::string name = n->as_string()->get();
    const DataItem* item = spec_.find_data(name);
    if (!item) {
      std::vector<std::string> names;
      for (const auto& i : spec_.data) names.push_back(i.name);
      for (const auto& i : spec_.derived) names.push_back(i.name);
      d_.error(r_.at(*n), "'" + name + "' is not a data item", did_you_mean(name, names));
      return {};
    }
    if (item->dim_exprs.size() != 1) {
      d_.error(r_.at(*n), "'" + name + "' must be a vector, int[size]");
      return {};
    }
    if (item->values.empty()) return {};
    std::set<int64_t> seen;
    bool ok = static_cast<int>(item->values.size()) == spec_.size;
    for (int64_t v : item->values) ok = ok && v >= 0 && v < spec_.size && seen.insert(v).second;
    if (!ok) {
      d_.error(r_.at(*n), "'" + name + "' is not a permutation of 0.." + std::to_string(spec_.size - 1));
      return {};
    }
    return std::vector<int>(item->values.begin(), item->values.end());
  }

  // reflect = { positions = "item", values = "item" }: it must map the goal to itself
  // (that it maps the moves to moves is checked on sampled nodes when the tables are built).
  void read_reflection(const toml::node& n) {
    PatternDatabases& p = spec_.path.databases;
    p.reflect_loc = r_.at(n);
    const toml::table* t = n.as_table();
    if (!t) {
      d_.error(p.reflect_loc, "reflect = { positions = \"<item>\", values = \"<item>\" }",
               "the reflected node has values[v] at positions[p] where the node has v at p");
      return;
    }
    r_.check_keys(*t, {"positions", "values"}, "reflect");
    std::vector<int> pos = permutation_item(t->get("positions"), p.reflect_loc, "reflect.positions");
    std::vector<int> val = permutation_item(t->get("values"), p.reflect_loc, "reflect.values");
    if (pos.empty() || val.empty()) return;
    if (!p.goal.empty())
      for (int q = 0; q < spec_.size; ++q)
        if (p.goal[static_cast<size_t>(pos[static_cast<size_t>(q)])] != val[static_cast<size_t>(p.goal[static_cast<size_t>(q)])]) {
          d_.error(p.reflect_loc, "the reflection does not map the goal '" + p.goal_item + "' to itself (position " +
                                      std::to_string(q) + ")",
                   "a reflection must be a symmetry of the problem: goal and moves alike");
          return;
        }
    p.reflect_positions = std::move(pos);
    p.reflect_values = std::move(val);
  }

  // A value of a pattern or of track, at its place; -1 if it is not one.
  int value_at(const toml::node& n, const char* what) {
    const auto* i = n.as_integer();
    if (!i) {
      d_.error(r_.at(n), std::string(what) + " lists values: integers 0..size-1");
      return -1;
    }
    const int64_t v = i->get();
    if (spec_.size > 0 && (v < 0 || v >= spec_.size)) {
      d_.error(r_.at(n), "value " + std::to_string(v) + " is outside 0.." + std::to_string(spec_.size - 1),
               "the problem's size is " + std::to_string(spec_.size));
      return -1;
    }
    return static_cast<int>(v);
  }

  void read_track(const toml::node& n) {
    PatternDatabases& p = spec_.path.databases;
    p.track_loc = r_.at(n);
    const toml::array* a = n.as_array();
    if (!a) {
      d_.error(p.track_loc, "track lists the values every pattern keeps, e.g. track = [0]");
      return;
    }
    for (const auto& e : *a) {
      int v = value_at(e, "track");
      if (v < 0) continue;
      if (std::find(p.track.begin(), p.track.end(), v) != p.track.end()) d_.error(r_.at(e), "value " + std::to_string(v) + " is tracked twice");
      else p.track.push_back(v);
    }
  }

  // One additive group: [[values], [values], ...], disjoint from each other and from track.
  void read_group(const toml::node& n) {
    PatternDatabases& p = spec_.path.databases;
    const toml::array* a = n.as_array();
    if (!a || a->empty()) {
      d_.error(r_.at(n), "an additive group is a non-empty array of patterns, e.g. [[1, 2, 3], [4, 5, 6]]");
      return;
    }
    const int group = p.groups++;
    std::set<int> in_group;
    for (const auto& pn : *a) {
      const toml::array* pa = pn.as_array();
      if (!pa || pa->empty()) {
        d_.error(r_.at(pn), "a pattern is a non-empty array of values, e.g. [1, 2, 3]");
        continue;
      }
      Pattern pat;
      pat.loc = r_.at(pn);
      pat.group = group;
      for (const auto& e : *pa) {
        int v = value_at(e, "a pattern");
        if (v < 0) continue;
        if (std::find(p.track.begin(), p.track.end(), v) != p.track.end()) {
          d_.error(r_.at(e), "value " + std::to_string(v) + " is tracked: every pattern keeps it already",
                   "a tracked value's moves cost nothing in the tables; drop it from the pattern");
          continue;
        }
        if (!in_group.insert(v).second) {
          d_.error(r_.at(e), "value " + std::to_string(v) + " is in two patterns of one additive group",
                   "the patterns of a group must be disjoint: their tables add up");
          continue;
        }
        pat.values.push_back(v);
      }
      if (spec_.size > 0) {
        const int k = static_cast<int>(pat.values.size() + p.track.size());
        pat.entries = placements(spec_.size, k);
        if (spec_.size > kMaxNarrowSize)
          d_.error(pat.loc, "pattern databases take problems of size at most " + std::to_string(kMaxNarrowSize) +
                                " (this one is " +
                                std::to_string(spec_.size) + ")");
        else if (pat.entries > kMaxEntries)
          d_.error(pat.loc,
                   "this pattern has " + (pat.entries == UINT64_MAX ? std::string("more than 2^63")
                                                                    : std::to_string(pat.entries)) +
                       " abstract states (" + std::to_string(k) + " values with the tracked ones on " +
                       std::to_string(spec_.size) + " positions); a table holds at most " + std::to_string(kMaxEntries),
                   "split it into smaller patterns");
      }
      p.patterns.push_back(std::move(pat));
    }
  }

  // The tables see only the positions of a pattern's and the tracked values: a move that
  // reads perm would read values the abstraction forgets.
  void check_moves() {
    for (const auto& m : spec_.path.moves) {
      std::vector<const Expr*> parts{m.when.get(), m.swap_a.get(), m.swap_b.get()};
      for (const auto& [name, e] : m.set) parts.push_back(e.get());
      for (const Expr* e : parts)
        if (reads_perm(e)) {
          d_.error(e->loc, "move '" + m.name + "' reads perm: pattern databases need moves decided by the state alone",
                   "keep the positions the moves need in state variables (e.g. the blank's position)");
          break;
        }
    }
  }
};

}  // namespace

uint64_t placements(int n, int k) {
  uint64_t r = 1;
  for (int i = 0; i < k; ++i) {
    const uint64_t f = static_cast<uint64_t>(n - i);
    if (f == 0) return 0;
    if (r > (1ull << 63) / f) return UINT64_MAX;
    r *= f;
  }
  return r;
}

void read_pattern_databases(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r) {
  if (const toml::node* n = root.get("pattern_databases")) DatabaseReader(spec, d, r).run(*n);
}

void check_pattern_database_start(const ProblemSpec& spec, Diagnostics& d) {
  const PatternDatabases& p = spec.path.databases;
  if (!p.on) return;
  for (const auto& name : spec.path.start_data)
    if (name != spec.path.start_item) {
      d.error(p.loc, "pattern databases build the abstract states from the permutation alone, but the start also "
                     "reads '" + name + "'",
              "let [state] init read only the start permutation '" + spec.path.start_item + "'");
      return;
    }
}

std::string describe_pattern_databases(const PatternDatabases& p, int size) {
  if (!p.on) return {};
  std::string o = "pattern databases: " + std::to_string(p.patterns.size()) + " pattern(s) in " +
                  std::to_string(p.groups) + " additive group(s), goal '" + p.goal_item + "'";
  if (!p.track.empty()) {
    o += ", tracking";
    for (int v : p.track) o += " " + std::to_string(v);
  }
  if (!p.reflect_positions.empty()) o += ", and the max with their reflection";
  o += "\n";
  for (int g = 0; g < p.groups; ++g) {
    uint64_t entries = 0;
    std::set<int> covered(p.track.begin(), p.track.end());
    std::string sizes;
    for (const auto& pat : p.patterns) {
      if (pat.group != g) continue;
      entries += pat.entries;
      covered.insert(pat.values.begin(), pat.values.end());
      sizes += (sizes.empty() ? "" : " + ") + std::to_string(pat.values.size());
    }
    std::string missing;
    for (int v = 0; v < size; ++v)
      if (!covered.count(v)) missing += " " + std::to_string(v);
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f", static_cast<double>(entries) / 1048576.0);
    o += "  group " + std::to_string(g + 1) + ": patterns of " + sizes + " values, " + std::to_string(entries) +
         " entries (" + mib + " MiB, a byte each); not covered:" + (missing.empty() ? " none" : missing) + "\n";
  }
  return o;
}

}  // namespace permjit
