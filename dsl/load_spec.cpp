#include "dsl/load_spec.hpp"
#include "dsl/run_time_data.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <tuple>
#include <set>

#include "dsl/checker.hpp"
#include "dsl/derived.hpp"
#include "dsl/load_pattern_db.hpp"
#include "dsl/start_data.hpp"
#include "dsl/instance.hpp"
#include "dsl/load_path.hpp"
#include "dsl/load_positions.hpp"
#include "dsl/load_search.hpp"
#include "dsl/load_symmetry.hpp"
#include "dsl/builtins.hpp"
#include "dsl/parser.hpp"
#include "dsl/static_eval.hpp"
#include "dsl/toml_depth.hpp"
#include "dsl/toml_string_map.hpp"

namespace permjit {
namespace {

// Names the language reserves besides the builtins' (dsl/builtins.hpp): keywords, type
// names and `pos`, a path heuristic's position.
const std::set<std::string> kReserved = {"pos", "int", "bits", "bool", "in",   "let",    "for",
                                         "true", "false", "var", "if", "else", "return"};

bool reserved(const std::string& name) {
  if (kReserved.count(name)) return true;
  for (const BuiltinInfo& b : builtins())
    if (b.name == name) return true;
  return false;
}

class Reader {
 public:
  Reader(ProblemSpec& spec, Diagnostics& d, const LoadOptions& o) : spec_(spec), d_(d), opts_(o) {}

  void run(const toml::table& root) {
    check_keys(root,
               {"problem", "params", "data", "instance", "derived", "state", "branch", "symmetry", "path", "moves",
                "heuristic", "pattern_databases", "search"},
               "the spec");
    const toml::table* problem = section(root, "problem", true);
    if (problem) read_problem_header(*problem);
    if (!goal_known_) spec_.goal = likely_goal(root);
    read_params(section(root, "params", false));
    apply_param_overrides();
    add_builtins();
    read_data(section(root, "data", false));
    read_instance_section(section(root, "instance", false));
    read_derived(section(root, "derived", false));
    if (problem) read_problem_shape(*problem);
    read_state(section(root, "state", false));
    if (spec_.goal == Goal::path) read_path_shape(root);
    else read_branch_shape(root);
    read_symmetry(root, spec_, d_, reading(), opts_.ignore_symmetry, opts_.symmetry_generator);  // after the branch: it needs branch.ends
    read_search(root, spec_, d_, reading());  // after the parameters' overrides: `when` reads them
    if (spec_.goal != Goal::path) read_positions(root, spec_, d_, reading());  // after [derived], the size and [symmetry]
  }

 private:
  ProblemSpec& spec_;
  Diagnostics& d_;
  const LoadOptions& opts_;
  // Follow-on errors of one mistake are not reported, as a compiler does not report
  // every use of an undeclared name: an instance file that could not be read leaves the
  // size and the dimensions unknown (one error, not one per dimension); a goal that is
  // not known leaves the branch's keys unjudged by it.
  bool instance_failed_ = false;
  bool goal_known_ = true;

  Loc loc(const toml::source_region& r) const {
    return Loc{spec_.file, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }
  Loc loc(const toml::node& n) const { return loc(n.source()); }
  Loc loc(const toml::key& k) const { return loc(k.source()); }

  void check_keys(const toml::table& t, std::initializer_list<const char*> allowed, const std::string& where) {
    std::vector<std::string> names(allowed.begin(), allowed.end());
    for (auto&& [k, v] : t) {
      std::string key(k.str());
      if (std::find(names.begin(), names.end(), key) != names.end()) continue;
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      std::string hint = did_you_mean(key, names);
      d_.error(loc(k), "unknown key '" + key + "' in " + where, hint.empty() ? "known keys: " + list : hint);
    }
  }

  const toml::table* section(const toml::table& root, const char* name, bool required) {
    const toml::node* n = root.get(name);
    if (!n) {
      if (required) d_.error(Loc{spec_.file, 1, 1}, std::string("missing section [") + name + "]");
      return nullptr;
    }
    if (!n->is_table()) {
      d_.error(loc(*n), std::string("'") + name + "' must be a table ([" + name + "])");
      return nullptr;
    }
    return n->as_table();
  }

  // Parses a TOML string (or integer) node as an expression.
  ExprPtr expr_of(const toml::node& n, const std::string& what) {
    if (auto i = n.as_integer()) {
      auto e = std::make_unique<Expr>(Expr::Kind::int_lit, loc(n));
      e->value = i->get();
      return e;
    }
    if (auto b = n.as_boolean()) {
      auto e = std::make_unique<Expr>(Expr::Kind::bool_lit, loc(n));
      e->value = b->get();
      return e;
    }
    const std::string* s = n.is_string() ? &n.as_string()->get() : nullptr;
    if (!s) {
      d_.error(loc(n), what + " must be an expression in a string, found a TOML " + std::string(type_word(n)));
      return nullptr;
    }
    std::vector<Loc> m = map_toml_string(loc(n), *s);  // the place of each byte, for the parser
    return parse_expression(ExprSource{*s, &m}, d_);
  }

  // A value key of [branch]: an expression, or statements ending in `return`.
  ExprPtr value_of(const toml::node& n, const std::string& what, Block& prelude) {
    const std::string* s = n.is_string() ? &n.as_string()->get() : nullptr;
    if (!s) return expr_of(n, what);
    std::vector<Loc> m = map_toml_string(loc(n), *s);
    return parse_value(ExprSource{*s, &m}, prelude, d_);
  }

  static const char* type_word(const toml::node& n) {
    switch (n.type()) {
      case toml::node_type::table: return "table";
      case toml::node_type::array: return "array";
      case toml::node_type::string: return "string";
      case toml::node_type::integer: return "integer";
      case toml::node_type::floating_point: return "float";
      case toml::node_type::boolean: return "boolean";
      default: return "date/time";
    }
  }

  bool declare(Symbol sym) {
    if (reserved(sym.name)) {
      d_.error(sym.loc, "'" + sym.name + "' is a reserved name of the spec language", "choose another name");
      return false;
    }
    auto [it, fresh] = spec_.symbols.emplace(sym.name, sym);
    if (!fresh) {
      d_.error(sym.loc, "'" + sym.name + "' is already defined");
      d_.note(it->second.loc, "'" + sym.name + "' was defined here");
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- [problem]
  void read_problem_header(const toml::table& t) {
    check_keys(t, {"name", "goal", "size", "fixed_prefix"}, "[problem]");
    if (auto n = t.get("name"); n && n->is_string()) spec_.name = n->as_string()->get();
    else d_.error(n ? loc(*n) : loc(t), "[problem] needs name = \"...\" (a string)");
    if (auto g = t.get("goal"); g && g->is_string()) {
      const std::string& s = g->as_string()->get();
      spec_.goal_loc = loc(*g);
      if (s == "count") spec_.goal = Goal::count;
      else if (s == "find") spec_.goal = Goal::find;
      else if (s == "minimize") spec_.goal = Goal::minimize;
      else if (s == "maximize") spec_.goal = Goal::maximize;
      else if (s == "path") spec_.goal = Goal::path;
      else {
        d_.error(loc(*g), "unknown goal '" + s + "'", "goal is one of: count, find, minimize, maximize, path");
        goal_known_ = false;
      }
    } else {
      goal_known_ = false;
      d_.error(g ? loc(*g) : loc(t), "[problem] needs goal = \"count\" | \"find\" | \"minimize\" | \"maximize\" | \"path\"");
    }
  }

  void read_problem_shape(const toml::table& t) {
    const toml::node* s = t.get("size");
    if (!s) {
      d_.error(loc(t), "[problem] needs size = an expression of parameters or instance data (e.g. \"n\")");
      return;
    }
    spec_.size_expr = expr_of(*s, "problem.size");
    if (!spec_.size_expr) return;
    CheckContext ctx{.where = "problem.size", .node = false};
    if (!check_typed(*spec_.size_expr, Type::int_, spec_, ctx, d_)) return;
    auto v = eval_static(*spec_.size_expr, &d_);
    if (!v) {
      if (opts_.need_instance && !instance_failed_)
        d_.error(spec_.size_expr->loc, "the size cannot be computed before the search");
      return;
    }
    if (*v < 1 || *v > kMaxSize) {
      d_.error(spec_.size_expr->loc, "size is " + std::to_string(*v) + "; permjit handles sizes 1.." +
                                         std::to_string(kMaxSize));
      return;
    }
    spec_.size = static_cast<int>(*v);
    spec_.set_bits = opts_.wide_sets ? 128 : set_word_bits(spec_.size);
    if (spec_.size > kMaxNarrowSize) refuse_derived_sets();
    if (auto fp = t.get("fixed_prefix")) read_fixed_prefix(*fp);
  }

  // [derived] is computed before the search with a set in one 64-bit word
  // (dsl/static_eval.cpp), where node code above 64 values holds 128 bits: a set there
  // could drop values that the search keeps, so such sizes take no sets in [derived].
  static const Expr* first_set(const Expr& e) {
    if (e.type == Type::bits) return &e;
    for (const auto& a : e.args)
      if (const Expr* x = first_set(*a)) return x;
    for (const Expr* part : chain_parts(e))
      if (const Expr* x = first_set(*part)) return x;
    return nullptr;
  }
  void refuse_derived_sets() {
    for (const auto& item : spec_.derived)
      if (const Expr* set = item.value ? first_set(*item.value) : nullptr)
        d_.error(set->loc, "a set in [derived] holds the values 0.." + std::to_string(kMaxNarrowSize - 1) +
                               "; this size is " + std::to_string(spec_.size),
                 "compute the value in node code, where a set holds every value of the size");
  }

  void read_fixed_prefix(const toml::node& n) {
    spec_.fixed_prefix_loc = loc(n);
    const toml::array* a = n.as_array();
    if (!a) {
      d_.error(loc(n), "fixed_prefix must be an array of values, e.g. [0]");
      return;
    }
    std::set<int64_t> seen;
    for (const auto& e : *a) {
      auto i = e.as_integer();
      if (!i) {
        d_.error(loc(e), "fixed_prefix values must be integers");
        continue;
      }
      int64_t v = i->get();
      if (v < 0 || v >= spec_.size)
        d_.error(loc(e), "value " + std::to_string(v) + " is outside 0.." + std::to_string(spec_.size - 1));
      else if (!seen.insert(v).second)
        d_.error(loc(e), "value " + std::to_string(v) + " appears twice in fixed_prefix");
      spec_.fixed_prefix.push_back(v);
    }
    if (static_cast<int>(spec_.fixed_prefix.size()) >= spec_.size && spec_.size > 0)
      d_.error(loc(n), "fixed_prefix must leave at least one position to search");
  }

  // ---------------------------------------------------------------- [params]
  void read_params(const toml::table* t) {
    if (!t) return;
    for (auto&& [k, v] : *t) {
      Param p;
      p.name = std::string(k.str());
      p.loc = loc(k);
      if (auto i = v.as_integer()) {
        p.def = p.value = i->get();
      } else if (auto tb = v.as_table()) {
        check_keys(*tb, {"type", "default", "range"}, "parameter '" + p.name + "'");
        if (auto ty = tb->get("type"); ty && !(ty->is_string() && ty->as_string()->get() == "int"))
          d_.error(loc(*ty), "parameters are of type \"int\"");
        auto def = tb->get("default");
        if (!def || !def->is_integer()) {
          d_.error(def ? loc(*def) : loc(k), "parameter '" + p.name + "' needs an integer default");
          continue;
        }
        p.def = p.value = def->as_integer()->get();
        if (auto r = tb->get("range")) {
          auto arr = r->as_array();
          if (!arr || arr->size() != 2 || !(*arr)[0].is_integer() || !(*arr)[1].is_integer()) {
            d_.error(loc(*r), "range must be [lowest, highest], two integers");
          } else {
            p.lo = (*arr)[0].as_integer()->get();
            p.hi = (*arr)[1].as_integer()->get();
            if (p.def < p.lo || p.def > p.hi)
              d_.error(loc(*def), "default " + std::to_string(p.def) + " is outside the range [" +
                                      std::to_string(p.lo) + ", " + std::to_string(p.hi) + "]");
          }
          p.loc = loc(*r);
        }
      } else {
        d_.error(loc(v), "parameter '" + p.name + "' must be an integer or { type = \"int\", default = ..., range = [lo, hi] }");
        continue;
      }
      if (p.value < INT32_MIN || p.value > INT32_MAX) {
        d_.error(p.loc, "parameter '" + p.name + "' = " + std::to_string(p.value) + " does not fit in a 32-bit int");
        continue;
      }
      spec_.params.push_back(p);
    }
  }

  void apply_param_overrides() {
    for (const auto& text : opts_.params) {
      // Place errors on the command line itself, shown like a one-line file.
      SourceRef cl = make_source("<command line>", "--param " + text);
      size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 0) {
        d_.error(Loc{cl, 1, 9}, "--param takes name=value, found '" + text + "'");
        continue;
      }
      std::string name = text.substr(0, eq), value = text.substr(eq + 1);
      auto it = std::find_if(spec_.params.begin(), spec_.params.end(), [&](auto& p) { return p.name == name; });
      if (it == spec_.params.end()) {
        std::vector<std::string> names;
        for (auto& p : spec_.params) names.push_back(p.name);
        d_.error(Loc{cl, 1, 9}, "the spec has no parameter '" + name + "'", did_you_mean(name, names));
        continue;
      }
      int64_t v = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size()) {
        d_.error(Loc{cl, 1, static_cast<int>(10 + eq)}, "parameter '" + name + "' takes an integer, found '" + value + "'");
        continue;
      }
      if (v < it->lo || v > it->hi) {
        d_.error(Loc{cl, 1, static_cast<int>(10 + eq)}, "parameter " + name + "=" + value + " is outside its range [" +
                                                            std::to_string(it->lo) + ", " + std::to_string(it->hi) + "]");
        d_.note(it->loc, "the range of '" + name + "' is declared here");
        continue;
      }
      it->value = v;
    }
    for (const auto& p : spec_.params) {
      Symbol s{Symbol::Kind::param, p.name, Type::int_, {}, p.value, nullptr, p.loc};
      declare(s);
    }
  }

  void add_builtins() {
    for (const BuiltinInfo& b : builtins()) {
      if (b.form != BuiltinForm::name || (b.path_only && spec_.goal != Goal::path)) continue;
      // An array's dimensions (a path problem's `perm`) are set once the size is known.
      Symbol s{Symbol::Kind::builtin, std::string(b.name), b.type, std::vector<int64_t>(b.dims, 0), std::nullopt, nullptr, {}};
      s.builtin = b.id;
      spec_.symbols.emplace(s.name, std::move(s));
    }
  }

  // A type string: "int", "bits", "int[n][m]". Returns false after reporting.
  bool read_type(const toml::node& n, const std::string& what, Type& base, std::vector<ExprPtr>& dims,
                 bool allow_bits) {
    ExprPtr e = expr_of(n, what);
    if (!e) return false;
    Expr* head = e.get();
    if (e->kind == Expr::Kind::index) {
      head = e->args[0].get();
      for (size_t i = 1; i < e->args.size(); ++i) dims.push_back(std::move(e->args[i]));
    }
    if (head->kind != Expr::Kind::name || (head->text != "int" && head->text != "bits")) {
      d_.error(head->loc, what + " has an unknown type '" + to_string(*head) + "'",
               allow_bits ? "types are int, bits, int[dim]..., bits[dim]..." : "types are int and int[dim]...");
      return false;
    }
    if (head->text == "bits" && !allow_bits) {
      d_.error(head->loc, what + ": data are integers (int or int[dim]...)");
      return false;
    }
    base = head->text == "int" ? Type::int_ : Type::bits;
    return true;
  }

  // Dimensions may name parameters and instance scalars (declared before any is checked).
  bool check_dims(std::vector<ExprPtr>& dims) {
    CheckContext ctx{.where = "an array dimension", .node = false};
    bool ok = true;
    for (auto& dim : dims) ok &= check_typed(*dim, Type::int_, spec_, ctx, d_);
    return ok;
  }

  // ---------------------------------------------------------------- [data]
  void read_data(const toml::table* t) {
    if (!t) return;
    for (auto&& [k, v] : *t) {
      DataItem item;
      item.name = std::string(k.str());
      item.loc = loc(k);
      Type base;
      if (!read_type(v, "data '" + item.name + "'", base, item.dim_exprs, false)) continue;
      item.dims.assign(item.dim_exprs.size(), 0);
      spec_.data.push_back(std::move(item));
    }
    for (auto& item : spec_.data)
      declare(Symbol{Symbol::Kind::data, item.name, Type::int_, item.dims, std::nullopt, nullptr, item.loc});
    for (auto& item : spec_.data) {
      if (!check_dims(item.dim_exprs)) continue;
      // A dimension the parameters fix (`int[w * w]`) is known before any instance, so
      // that `check` without one judges indices against it; one that depends on the
      // instance's scalars stays 0 (unknown) until the instance is read, which sets
      // every dimension again.
      std::vector<int64_t> known;
      for (auto& de : item.dim_exprs)
        if (auto v = eval_static(*de); v && *v >= 1 && *v <= (1 << 24)) known.push_back(*v);
      if (known.size() != item.dim_exprs.size()) continue;
      item.dims = known;
      spec_.symbols.at(item.name).dims = known;
    }
  }

  // ---------------------------------------------------------------- [instance]
  void read_instance_section(const toml::table* t) {
    if (!t) {
      if (!spec_.data.empty())
        d_.error(spec_.data.front().loc, "data items need an [instance] section saying how to read them");
      else if (!opts_.instance_values.empty())  // each is reported as no data item of the spec
        load_instance_values(spec_, opts_.instance_values, d_);
      return;
    }
    auto fmt = t->get("format");
    spec_.instance.loc = loc(*t);
    if (!fmt || !fmt->is_string()) {
      d_.error(fmt ? loc(*fmt) : loc(*t), "[instance] needs format = \"tsplib\" | \"layout\"");
      return;
    }
    const std::string& f = fmt->as_string()->get();
    std::set<std::string> covered;
    auto data_name = [&](const toml::node* n, const char* key, size_t rank) -> std::string {
      if (!n || !n->is_string()) {
        d_.error(n ? loc(*n) : loc(*t), std::string("[instance] needs ") + key + " = \"<name of a data item>\"");
        return {};
      }
      std::string name = n->as_string()->get();
      const DataItem* item = spec_.find_data(name);
      if (!item) {
        std::vector<std::string> names;
        for (auto& i : spec_.data) names.push_back(i.name);
        d_.error(loc(*n), "'" + name + "' is not a data item", did_you_mean(name, names));
        return {};
      }
      if (item->dim_exprs.size() != rank) {
        d_.error(loc(*n), "'" + name + "' must be " + (rank == 0 ? "a scalar (int)" : "a matrix (int[n][n])") +
                              " to receive " + key);
        return {};
      }
      covered.insert(name);
      return name;
    };
    if (f == "tsplib") {
      spec_.instance.kind = InstanceFormat::Kind::tsplib;
      check_keys(*t, {"format", "dimension", "weights"}, "[instance] (tsplib)");
      spec_.instance.dimension_item = data_name(t->get("dimension"), "dimension", 0);
      spec_.instance.weights_item = data_name(t->get("weights"), "weights", 2);
    } else if (f == "layout") {
      spec_.instance.kind = InstanceFormat::Kind::layout;
      check_keys(*t, {"format", "read"}, "[instance] (layout)");
      const toml::node* r = t->get("read");
      if (!r || !r->is_array()) {
        d_.error(r ? loc(*r) : loc(*t), "[instance] layout needs read = [\"item\", ...], the data items in file order");
        return;
      }
      for (const auto& e : *r->as_array()) {
        if (!e.is_string()) {
          d_.error(loc(e), "read lists data item names (strings)");
          continue;
        }
        std::string name = e.as_string()->get();
        if (covered.count(name)) {
          d_.error(loc(e), "'" + name + "' is read twice");
          continue;
        }
        const DataItem* item = spec_.find_data(name);
        if (!item) {
          std::vector<std::string> names;
          for (auto& i : spec_.data) names.push_back(i.name);
          d_.error(loc(e), "'" + name + "' is not a data item", did_you_mean(name, names));
          continue;
        }
        covered.insert(name);
        spec_.instance.read_order.push_back({name, loc(e)});
      }
    } else {
      d_.error(loc(*fmt), "unknown instance format '" + f + "'", "format is \"tsplib\" or \"layout\"");
      return;
    }
    for (const auto& item : spec_.data)
      if (!covered.count(item.name)) d_.error(item.loc, "data item '" + item.name + "' is not read by [instance]");
    if (d_.has_errors()) return;
    if (!opts_.instance_values.empty()) {
      if (!opts_.instance_path.empty())
        d_.error(Loc{make_source("<command line>", "--instance " + opts_.instance_path), 1, 12},
                 "the instance is given twice: as a file and as named values", "give one of them");
      else
        load_instance_values(spec_, opts_.instance_values, d_);
      return;
    }
    if (opts_.instance_path.empty()) {
      if (opts_.need_instance)
        d_.error(spec_.instance.loc, "this spec reads its data from an instance file; give one with --instance FILE");
      return;
    }
    spec_.instance_path = opts_.instance_path;
    spec_.instance_record = opts_.instance_record;
    if (!load_instance(spec_, d_)) instance_failed_ = true;
  }

  // ---------------------------------------------------------------- [derived]
  // name = "expr" (an int scalar), or
  // name = { type = "int[D]...", index = ["i", ...], value = "expr of the indices" }.
  void read_derived(const toml::table* t) {
    if (t) {
      for (auto&& [k, v] : *t) read_derived_item(std::string(k.str()), loc(k), v);
      for (auto& item : spec_.derived)
        declare(Symbol{Symbol::Kind::data, item.name, Type::int_, item.dims, std::nullopt, nullptr, item.loc});
      CheckContext ctx{.where = "a [derived] value (computed once on the host)", .node = false, .host = true, .solver = true};
      for (auto& item : spec_.derived) {
        check_dims(item.dim_exprs);
        item.index_syms = check_with_indices(*item.value, item.index_names, Type::int_, spec_, ctx, d_);
      }
    }
    if (d_.has_errors() || spec_.derived.empty()) return;
    // Without the instance (`check` alone) the types are checked, nothing is computed.
    for (const auto& item : spec_.data)
      if (!item.loaded) return;
    compute_derived(spec_, d_);
  }

  void read_derived_item(const std::string& name, const Loc& where, const toml::node& v) {
    DataItem item;
    item.name = name;
    item.loc = where;
    const toml::node* value = &v;
    if (auto tb = v.as_table()) {
      check_keys(*tb, {"type", "index", "value"}, "derived '" + name + "'");
      value = tb->get("value");
      if (!value) {
        d_.error(loc(v), "derived '" + name + "' needs value = \"an expression\"");
        return;
      }
      Type base = Type::int_;
      if (auto ty = tb->get("type"); ty && !read_type(*ty, "derived '" + name + "'", base, item.dim_exprs, false))
        return;
      const toml::node* index = tb->get("index");
      if (index && !read_index_names(*index, name, item.index_names)) return;
      if (item.index_names.size() != item.dim_exprs.size()) {
        d_.error(index ? loc(*index) : loc(v),
                 "derived '" + name + "' has " + std::to_string(item.dim_exprs.size()) + " dimension(s) and " +
                     std::to_string(item.index_names.size()) + " index name(s)",
                 "name one index per dimension: index = [\"i\", \"j\"] for int[..][..]");
        return;
      }
    }
    item.value = expr_of(*value, "derived '" + name + "'");
    if (!item.value) return;
    item.dims.assign(item.dim_exprs.size(), 0);
    spec_.derived.push_back(std::move(item));
  }

  bool read_index_names(const toml::node& n, const std::string& item, std::vector<std::string>& out) {
    const toml::array* a = n.as_array();
    if (!a) {
      d_.error(loc(n), "index of derived '" + item + "' must be an array of names, e.g. [\"i\", \"j\"]");
      return false;
    }
    for (const auto& e : *a) {
      const std::string* s = e.is_string() ? &e.as_string()->get() : nullptr;
      bool ident = s && !s->empty() && (std::isalpha(static_cast<unsigned char>((*s)[0])) || (*s)[0] == '_') &&
                   std::all_of(s->begin(), s->end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      if (!ident) {
        d_.error(loc(e), "an index of derived '" + item + "' must be a name (a string such as \"i\")");
        return false;
      }
      if (std::find(out.begin(), out.end(), *s) != out.end()) {
        d_.error(loc(e), "index name '" + *s + "' appears twice");
        return false;
      }
      out.push_back(*s);
    }
    return true;
  }

  // ---------------------------------------------------------------- [state]
  void read_state(const toml::table* t) {
    if (!t) return;
    for (auto&& [k, v] : *t) {
      StateVar sv;
      sv.name = std::string(k.str());
      sv.loc = loc(k);
      const toml::node* type_node = &v;
      const toml::node* init_node = nullptr;
      if (auto tb = v.as_table()) {
        check_keys(*tb, {"type", "init"}, "state '" + sv.name + "'");
        type_node = tb->get("type");
        init_node = tb->get("init");
        if (!type_node) {
          d_.error(loc(v), "state '" + sv.name + "' needs a type");
          continue;
        }
      }
      if (!read_type(*type_node, "state '" + sv.name + "'", sv.type, sv.dim_exprs, true)) continue;
      if (!check_dims(sv.dim_exprs)) continue;
      int64_t elements = 1;
      for (auto& de : sv.dim_exprs) {
        // Without an instance a dimension may be unknown: `check` still checks types.
        auto val = eval_static(*de, &d_);
        if (!val && (opts_.need_instance || !spec_.instance_path.empty()) && !instance_failed_)
          d_.error(de->loc, "a state dimension must be known before the search");
        else if (val && (*val < 1 || *val > 4096))
          d_.error(de->loc, "state dimension " + std::to_string(*val) + " is outside 1..4096");
        else if (val && elements * *val > 4096)  // every node holds a copy
          d_.error(de->loc, "state '" + sv.name + "' would hold " + std::to_string(elements * *val) +
                                " elements; a state array holds at most 4096");
        else if (val) elements *= *val;
        sv.dims.push_back(val.value_or(1));
      }
      if (init_node) {
        sv.init = expr_of(*init_node, "state '" + sv.name + "' init");
        if (sv.init) {
          CheckContext ctx{.where = "a state's init (evaluated once at the root)", .node = false};
          check_typed(*sv.init, sv.type, spec_, ctx, d_);
        }
      }
      spec_.state.push_back(std::move(sv));
    }
    for (auto& sv : spec_.state)
      declare(Symbol{Symbol::Kind::state, sv.name, sv.type, sv.dims, std::nullopt, nullptr, sv.loc});
  }

  // A path problem (dsl/load_path.cpp) has moves instead of [branch].
  void read_path_shape(const toml::table& root) {
    if (const toml::node* b = root.get("branch"))
      d_.error(loc(*b), "a path problem has [moves], not [branch]", "[branch] builds permutations: count, minimize, maximize");
    if (!spec_.fixed_prefix.empty())
      d_.error(spec_.fixed_prefix_loc, "fixed_prefix is for placement problems; a path problem starts from [path] start");
    read_path_sections(root, spec_, d_, reading());
  }

  // What the readers of other files (load_path, load_symmetry) borrow from this one.
  TomlReading reading() {
    return TomlReading{[this](const toml::node& n) { return loc(n); }, [this](const toml::key& k) { return loc(k); },
                       [this](const toml::node& n, const std::string& what) { return expr_of(n, what); },
                       [this](const toml::table& t, std::initializer_list<const char*> keys, const std::string& where) {
                         check_keys(t, keys, where);
                       }};
  }

  void read_branch_shape(const toml::table& root) {
    for (const char* key : {"path", "moves", "heuristic", "pattern_databases"})
      if (const toml::node* n = root.get(key))
        d_.error(loc(*n), std::string("[") + key + "] belongs to path problems", "set goal = \"path\" in [problem]");
    read_branch(section(root, "branch", false));
  }

  // The goal a spec whose goal is misspelt or missing was most likely written for, so that
  // the rest is checked as that goal's spec and only the goal is reported.
  static Goal likely_goal(const toml::table& root) {
    for (const char* key : {"path", "moves", "heuristic"})
      if (root.get(key)) return Goal::path;
    if (const toml::table* b = root.get_as<toml::table>("branch"); b && (b->get("bound") || b->get("objective")))
      return Goal::minimize;
    return Goal::count;
  }

  // ---------------------------------------------------------------- [branch]
  void read_branch(const toml::table* t) {
    if (!t) {
      d_.error(Loc{spec_.file, 1, 1}, "missing section [branch]");
      return;
    }
    check_keys(*t,
               {"candidates", "filter", "ends", "place", "place_back", "bound", "objective", "stages", "refine",
                "positions"},
               "[branch]");
    Branch& b = spec_.branch;
    if (auto n = t->get("ends")) read_ends(*n);
    if (auto n = t->get("candidates")) {
      b.candidates = value_of(*n, "branch.candidates", b.candidates_prelude);
      if (b.candidates)
        check_value(b.candidates_prelude, *b.candidates, Type::bits, spec_, {"branch.candidates", true, false, false}, d_);
    }
    if (auto n = t->get("filter")) {
      b.filter = value_of(*n, "branch.filter", b.filter_prelude);
      if (b.filter) check_value(b.filter_prelude, *b.filter, Type::bool_, spec_, {"branch.filter", true, true, false}, d_);
    }
    if (auto n = t->get("place")) read_place(*n, "place", b.place);
    if (auto n = t->get("place_back")) read_place(*n, "place_back", b.place_back);
    bool optimise = !counts_leaves(spec_.goal);
    for (auto [key, slot, prelude] : {std::tuple{"bound", &b.bound, &b.bound_prelude},
                                      std::tuple{"objective", &b.objective, &b.objective_prelude}}) {
      const toml::node* n = t->get(key);
      if (!n) {
        if (optimise) d_.error(loc(*t), std::string("a ") + goal_name(spec_.goal) + " problem needs branch." + key);
        continue;
      }
      if (!optimise) {
        d_.error(loc(*n), std::string("branch.") + key + " is only for minimize and maximize goals",
                 std::string("a ") + goal_name(spec_.goal) +
                     " problem takes every complete permutation that the candidates allow");
        continue;
      }
      *slot = value_of(*n, std::string("branch.") + key, *prelude);
      if (*slot)
        check_value(*prelude, **slot, Type::int_, spec_, {.where = key, .solver = true}, d_);
    }
    check_ends();
    read_stages(*t);
  }

  // branch.stages and branch.refine (docs/spec-language.md, "Staged bounds"): stages is
  // 1 or 2, known from the parameters; refine without stages means 2.
  void read_stages(const toml::table& t) {
    Branch& b = spec_.branch;
    const toml::node* stages = t.get("stages");
    const toml::node* refine = t.get("refine");
    if (counts_leaves(spec_.goal)) {
      for (auto [key, n] : {std::pair{"stages", stages}, std::pair{"refine", refine}})
        if (n)
          d_.error(loc(*n), std::string("branch.") + key + " is only for minimize and maximize goals",
                   "a count problem has no bound to refine");
      return;
    }
    if (refine) {
      b.refine = value_of(*refine, "branch.refine", b.refine_prelude);
      if (b.refine)
        check_value_with_local(b.refine_prelude, *b.refine, Type::int_, "bound", &b.refine_bound, spec_,
                               {.where = "branch.refine", .solver = true}, d_);
    }
    if (!stages) {
      b.stages = refine ? 2 : 1;
      return;
    }
    b.stages_loc = loc(*stages);
    ExprPtr e = expr_of(*stages, "branch.stages");
    if (!e) return;
    CheckContext ctx{.where = "branch.stages", .node = false};
    if (!check_typed(*e, Type::int_, spec_, ctx, d_)) return;
    auto v = eval_static(*e, &d_);
    if (!v) {
      d_.error(b.stages_loc, "branch.stages must be known before the search (literals and parameters)");
      return;
    }
    if (*v != 1 && *v != 2) {
      d_.error(b.stages_loc, "branch.stages is " + std::to_string(*v) + "; it must be 1 or 2",
               "1: the bound alone; 2: the bound, then branch.refine on the children it does not prune");
      return;
    }
    b.stages = static_cast<int>(*v);
    if (b.stages == 2 && !refine)
      d_.error(b.stages_loc, "branch.stages = 2 needs branch.refine: the second stage of the bound",
               "add refine = \"...\" to [branch], or set stages = 1");
  }

  // branch.ends: 1 or 2, known from the parameters (the generated code depends on it).
  void read_ends(const toml::node& n) {
    Branch& b = spec_.branch;
    b.ends_loc = loc(n);
    ExprPtr e = expr_of(n, "branch.ends");
    if (!e) return;
    CheckContext ctx{.where = "branch.ends", .node = false};
    if (!check_typed(*e, Type::int_, spec_, ctx, d_)) return;
    auto v = eval_static(*e, &d_);
    if (!v) {
      d_.error(b.ends_loc, "branch.ends must be known before the search (literals and parameters)");
      return;
    }
    if (*v != 1 && *v != 2) {
      d_.error(b.ends_loc, "branch.ends is " + std::to_string(*v) + "; it must be 1 or 2",
               "1: values fill the positions from the left; 2: from either end, chosen at each node");
      return;
    }
    b.ends = static_cast<int>(*v);
    // A parameter alone (problems/flowshop.toml: ends = "branching"): a skeleton that
    // places values from the left can name the --param that sets one end.
    if (e->kind == Expr::Kind::name) b.ends_param = e->text;
  }

  // ends = 2 needs place_back, and place_back needs ends; first and last are defined
  // only when the values are placed in order.
  void check_ends() {
    const Branch& b = spec_.branch;
    if (b.ends == 2 && !b.place_back.given)
      d_.error(b.ends_loc, "branch.ends = 2 needs branch.place_back: how the state changes when v is placed at the back");
    // With ends set (to 1 here, say by a parameter) place_back is checked but not used.
    if (b.place_back.given && b.ends_loc.line == 0)
      d_.error(b.place_back.loc, "branch.place_back needs branch.ends = 2 (values placed at both ends)",
               "add ends = 2 to [branch]");
    if (b.ends == 2)
      for (Builtin one_end : {Builtin::first, Builtin::last})
        if (spec_.used_builtins.count(one_end))
          d_.error(b.ends_loc, "'" + std::string(builtin_info(one_end).name) +
                                   "' is not defined when values are placed at both ends (ends = 2)");
  }

  void read_place(const toml::node& n, const std::string& key, Placement& p) {
    p.loc = loc(n);
    p.given = true;
    const std::string what = "branch." + key;
    const char* where = key == "place" ? "branch.place" : "branch.place_back";  // outlives the check
    const CheckContext update{.where = where, .value = true, .writable = true};
    if (auto s = n.as_string()) {
      p.is_block = true;
      std::vector<Loc> m = map_toml_string(loc(n), s->get());
      if (parse_block(ExprSource{s->get(), &m}, p.block, d_)) check_block(p.block, spec_, update, d_);
      return;
    }
    auto tb = n.as_table();
    if (!tb) {
      d_.error(loc(n), what + " must be a table { var = \"expr\", ... } or an update block in a string");
      return;
    }
    for (auto&& [k, v] : *tb) {
      std::string name(k.str());
      const StateVar* sv = spec_.find_state(name);
      if (!sv) {
        std::vector<std::string> names;
        for (auto& s : spec_.state) names.push_back(s.name);
        d_.error(loc(k), "'" + name + "' is not a state variable", did_you_mean(name, names));
        continue;
      }
      if (!sv->dims.empty()) {
        d_.error(loc(k), "array state '" + name + "' is updated element by element; write " + what + " as a block",
                 key + " = '''\n  " + name + "[d] = v\n'''");
        continue;
      }
      ExprPtr e = expr_of(v, what + "." + name);
      if (!e) continue;
      if (check_typed(*e, sv->type, spec_, {.where = where, .value = true}, d_)) p.simultaneous.push_back({name, std::move(e)});
    }
  }
};

}  // namespace

const char* goal_name(Goal g) {
  switch (g) {
    case Goal::count: return "count";
    case Goal::find: return "find";
    case Goal::minimize: return "minimize";
    case Goal::maximize: return "maximize";
    case Goal::path: return "path";
  }
  return "?";
}

const StateVar* ProblemSpec::find_state(const std::string& n) const {
  for (const auto& s : state)
    if (s.name == n) return &s;
  return nullptr;
}

const DataItem* ProblemSpec::find_data(const std::string& n) const {
  for (const auto* items : {&data, &derived})
    for (const auto& s : *items)
      if (s.name == n) return &s;
  return nullptr;
}

ProblemSpec load_spec(const LoadOptions& opts) {
  if (opts.data != "compiled" && opts.data != "run-time" && opts.data != "auto")
    command_line_error("--data " + opts.data, 8, "unknown value '" + opts.data + "' of --data",
                       "--data is auto, compiled (the instance's values in the code) or run-time (one module per "
                       "shape)");
  Diagnostics d;
  ProblemSpec spec;
  spec.file = opts.spec_text ? make_source(opts.spec_path, *opts.spec_text) : read_source(opts.spec_path);
  if (!spec.file) {
    d.error(Loc{make_source(opts.spec_path, ""), 0, 0}, "cannot read the spec file: " + unreadable_reason(opts.spec_path));
    throw UserErrors(std::move(d));
  }
  if (auto deep = find_deep_key(spec.file)) {
    d.error(*deep, "TOML syntax: a key path with more than " + std::to_string(kMaxKeyDots) + " dots",
            "a spec's keys have two or three parts");
    throw UserErrors(std::move(d));
  }
  toml::table root;
  try {
    root = toml::parse(spec.file->text, spec.file->path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    d.error(Loc{spec.file, static_cast<int>(b.line), static_cast<int>(b.column)},
            "TOML syntax: " + std::string(e.description()));
    throw UserErrors(std::move(d));
  }
  Reader(spec, d, opts).run(root);
  if (d.has_errors()) throw UserErrors(std::move(d));
  mark_start_data(spec);
  check_pattern_database_start(spec, d);
  if (d.has_errors()) throw UserErrors(std::move(d));
  if (opts.data == "run-time") keep_data_at_run_time(spec);
  spec.data_auto = opts.data == "auto";
  return spec;
}

}  // namespace permjit
