#include "dsl/load_symmetry.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <string>

#include "dsl/builtins.hpp"
#include "dsl/checker.hpp"
#include "dsl/position_automorphisms.hpp"
#include "dsl/static_eval.hpp"
#include "dsl/symmetry_group.hpp"

namespace permjit {

namespace {

// map[v] for every value, or a located error: a value outside 0..size-1, or a map that
// is not its own inverse (the mirror of a mirror is the value itself).
bool evaluate_map(ProblemSpec& spec, ProblemSpec::ValueSymmetry& sym, Diagnostics& d) {
  const Symbol* v = &spec.symbols.at(std::string(builtin_info(Builtin::v).name));
  sym.map.assign(static_cast<size_t>(spec.size), 0);
  for (int x = 0; x < spec.size; ++x) {
    std::optional<int64_t> y = eval_static(*sym.value, {{v, x}}, &d);
    if (!y) {
      d.error(sym.loc, "symmetry.value must be known before the search: an expression of v, parameters and data");
      return false;
    }
    if (*y < 0 || *y >= spec.size) {
      d.error(sym.loc, "symmetry.value maps " + std::to_string(x) + " to " + std::to_string(*y) +
                           ", outside the values 0.." + std::to_string(spec.size - 1));
      return false;
    }
    sym.map[static_cast<size_t>(x)] = static_cast<int>(*y);
  }
  for (int x = 0; x < spec.size; ++x) {
    const int y = sym.map[static_cast<size_t>(x)];
    if (sym.map[static_cast<size_t>(y)] != x) {
      d.error(sym.loc,
              "symmetry.value maps " + std::to_string(x) + " to " + std::to_string(y) + " but " + std::to_string(y) +
                  " to " + std::to_string(sym.map[static_cast<size_t>(y)]) + ": a mirror must be its own inverse",
              "e.g. value = \"n - 1 - v\"");
      return false;
    }
  }
  for (int64_t x : spec.fixed_prefix)
    if (x >= 0 && x < spec.size && sym.map[static_cast<size_t>(x)] != x) {
      d.error(spec.fixed_prefix_loc,
              "the fixed prefix places " + std::to_string(x) + ", which [symmetry] maps to " +
                  std::to_string(sym.map[static_cast<size_t>(x)]) + ": the mirrored permutations would not start with it",
              "a prefix value must be its own mirror");
      return false;
    }
  return true;
}

// A symmetry the search applies while it places values from the left: refused, at `at`,
// for a path problem (moves, no placement) and for two ends.
bool placed_from_left(const ProblemSpec& spec, const Loc& at, Diagnostics& d) {
  if (spec.goal == Goal::path) {
    d.error(at, "[symmetry] is for placement problems; a path problem's moves have no value map");
    return false;
  }
  if (spec.branch.ends == 2) {
    d.error(at, "[symmetry] applies to specs that place values from the left; this one has branch.ends = 2",
            "solve it with --no-symmetry, or with the parameters for one end");
    return false;
  }
  return true;
}

// [symmetry] generators = ["reverse-positions", "reflect-values", "invert"]: the names,
// each once, each at its place; `only` >= 0 keeps one of them.
void read_generators(const toml::node& node, const toml::table& t, ProblemSpec& spec, Diagnostics& d,
                     const TomlReading& r, bool ignore, int only) {
  const char* const hint = "generators = [\"reverse-positions\", \"reflect-values\", \"invert\"] (any of them)";
  if (t.get("value")) {
    d.error(r.at(*t.get("value")), "[symmetry] takes either value (a map of the values) or generators, not both",
            "\"reflect-values\" among the generators is the value map n - 1 - v");
    return;
  }
  const toml::array* a = node.as_array();
  if (!a || a->empty()) {
    d.error(r.at(node), "symmetry.generators must be a non-empty array of names", hint);
    return;
  }
  ProblemSpec::SymmetryGroup group;
  group.loc = r.at(node);
  bool ok = true;
  for (const toml::node& e : *a) {
    const std::optional<std::string> name = e.value<std::string>();
    int code = 0;
    if (name == "reverse-positions") code = kReversePositions;
    else if (name == "reflect-values") code = kReflectValues;
    else if (name == "invert") code = kInvert;
    if (!code) {
      d.error(r.at(e), name ? "unknown symmetry generator '" + *name + "'" : "a symmetry generator is a string",
              hint);
      ok = false;
      continue;
    }
    for (const auto& g : group.generators)
      if (g.code == code) {
        d.error(r.at(e), "symmetry generator '" + *name + "' is named twice");
        ok = false;
      }
    group.generators.push_back({code, r.at(e)});
  }
  if (!ok || !placed_from_left(spec, group.loc, d)) return;
  // The search decides the border (p[0], p[n-1] and the positions of 0 and n-1) up to
  // the group: a prefix fixed in advance would have to be its own image.
  if (!spec.fixed_prefix.empty()) {
    d.error(spec.fixed_prefix_loc, "symmetry generators need a spec without a fixed prefix",
            "the symmetries move position 0; solve it with --no-symmetry");
    return;
  }
  if (spec.size > 63) {
    d.error(group.loc, "symmetry generators take sizes up to 63; this size is " + std::to_string(spec.size));
    return;
  }
  if (only >= 0) {
    if (only >= static_cast<int>(group.generators.size())) return;
    group.generators = {group.generators[static_cast<size_t>(only)]};
  }
  std::vector<int> codes;
  for (const auto& g : group.generators) codes.push_back(g.code);
  group.elements = symmetry_closure(codes);
  if (!ignore) spec.symmetry_group = std::move(group);
}

// [symmetry] position_automorphisms = ["t", ...]: tables over the positions, each of one
// dimension (size) or two (size x size), each named once; with the instance loaded, the
// first searched position's orbit under their automorphisms.
void read_position_automorphisms(const toml::node& node, ProblemSpec& spec, Diagnostics& d, const TomlReading& r,
                                 bool ignore) {
  const char* const hint = "position_automorphisms = [\"t\"] with t a [data] or [derived] table of int[n][n] or int[n]";
  const toml::array* a = node.as_array();
  ProblemSpec::PositionAutomorphisms sym;
  sym.loc = r.at(node);
  if (!a || a->empty()) {
    d.error(sym.loc, "symmetry.position_automorphisms must be a non-empty array of table names", hint);
    return;
  }
  if (!placed_from_left(spec, sym.loc, d)) return;
  // The orbit is that of the first position the search fills, whose value every later
  // member of the orbit is compared with: a prefix fixed in advance would have to be
  // left in place by every automorphism.
  if (!spec.fixed_prefix.empty()) {
    d.error(spec.fixed_prefix_loc, "symmetry.position_automorphisms needs a spec without a fixed prefix",
            "the automorphisms move the first position; solve it with --no-symmetry");
    return;
  }
  std::vector<AutomorphismTable> tables;
  bool ok = true, loaded = true;
  for (const toml::node& e : *a) {
    const std::optional<std::string> name = e.value<std::string>();
    if (!name) {
      d.error(r.at(e), "a table of symmetry.position_automorphisms is named by a string", hint);
      ok = false;
      continue;
    }
    if (std::find(sym.tables.begin(), sym.tables.end(), *name) != sym.tables.end()) {
      d.error(r.at(e), "symmetry.position_automorphisms names '" + *name + "' twice");
      ok = false;
      continue;
    }
    const DataItem* item = nullptr;
    for (const std::vector<DataItem>* items : {&spec.data, &spec.derived})
      for (const DataItem& x : *items)
        if (x.name == *name) item = &x;
    if (!item) {
      d.error(r.at(e), "symmetry.position_automorphisms names '" + *name + "', which is not a [data] or [derived] table",
              hint);
      ok = false;
      continue;
    }
    const size_t dims = item->dim_exprs.size();
    if (dims != 1 && dims != 2) {
      d.error(r.at(e), "symmetry.position_automorphisms: '" + *name + "' has " + std::to_string(dims) +
                           " dimensions; a table over the positions has 1 or 2", hint);
      ok = false;
      continue;
    }
    if (spec.size > 0 && item->dims.size() == dims)
      for (int64_t n : item->dims)
        if (n != spec.size) {
          d.error(r.at(e), "symmetry.position_automorphisms: '" + *name + "' has a dimension of " + std::to_string(n) +
                               "; each must be the problem's size, " + std::to_string(spec.size), hint);
          ok = false;
          break;
        }
    sym.tables.push_back(*name);
    if (item->values.empty() || spec.size <= 0) loaded = false;
    else tables.push_back({std::span<const int64_t>(item->values), static_cast<int>(dims)});
  }
  if (!ok) return;
  if (spec.size > kMaxNarrowSize) {
    d.error(sym.loc, "symmetry.position_automorphisms takes sizes up to " + std::to_string(kMaxNarrowSize) +
                         "; this size is " + std::to_string(spec.size));
    return;
  }
  // Without the instance (`check` alone) only the names and shapes are checked.
  if (loaded) {
    FirstPositionOrbit o = first_position_orbit(tables, spec.size);
    sym.orbit = std::move(o.orbit);
    sym.to_first = std::move(o.to_first);
    sym.generators = o.generators;
    sym.complete = o.complete;
  }
  if (ignore) return;
  spec.position_symmetry = std::move(sym);
  // The later members of the orbit compare their values with the first placed.
  if (spec.narrows_positions()) spec.used_builtins.insert(Builtin::first);
}

}  // namespace

void read_symmetry(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r, bool ignore,
                   int only) {
  const toml::node* n = root.get("symmetry");
  if (!n) return;
  if (!n->is_table()) {
    d.error(r.at(*n), "'symmetry' must be a table ([symmetry])");
    return;
  }
  const toml::table& t = *n->as_table();
  r.check_keys(t, {"value", "generators", "position_automorphisms"}, "[symmetry]");
  if (const toml::node* autos = t.get("position_automorphisms")) {
    for (const char* other : {"value", "generators"})
      if (const toml::node* o = t.get(other)) {
        d.error(r.at(*o), std::string("[symmetry] takes one of value, generators and position_automorphisms; this one "
                                      "has position_automorphisms and ") + other);
        return;
      }
    read_position_automorphisms(*autos, spec, d, r, ignore);
    return;
  }
  if (const toml::node* gens = t.get("generators")) {
    read_generators(*gens, t, spec, d, r, ignore, only);
    return;
  }
  if (spec.goal == Goal::path) {
    d.error(r.at(*n), "[symmetry] is for placement problems; a path problem's moves have no value map");
    return;
  }
  const toml::node* value = t.get("value");
  if (!value) {
    d.error(r.at(*n), "[symmetry] needs value = \"<int expression of v>\" (the mirror of value v) or generators",
            "generators = [\"reverse-positions\", \"reflect-values\", \"invert\"] (any of them)");
    return;
  }
  ProblemSpec::ValueSymmetry sym;
  sym.loc = r.at(*value);
  sym.value = r.expr_of(*value, "symmetry.value");
  if (!sym.value) return;
  if (!check_typed(*sym.value, Type::int_, spec, CheckContext{.where = "symmetry.value", .node = false, .value = true}, d))
    return;
  if (!placed_from_left(spec, sym.loc, d)) return;  // a path problem was refused above, at the table
  // The first level's representatives are one 64-bit word (generator/emit_symmetry.cpp).
  if (spec.size > kMaxNarrowSize) {
    d.error(sym.loc, "symmetry.value takes sizes up to " + std::to_string(kMaxNarrowSize) + "; this size is " +
                         std::to_string(spec.size));
    return;
  }
  if (spec.size > 0 && !evaluate_map(spec, sym, d)) return;
  if (!ignore) spec.symmetry = std::move(sym);
}

}  // namespace permjit
