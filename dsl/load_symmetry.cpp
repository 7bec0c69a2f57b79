#include "dsl/load_symmetry.hpp"

#include <map>
#include <string>

#include "dsl/checker.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

// map[v] for every value, or a located error: a value outside 0..size-1, or a map that
// is not its own inverse (the mirror of a mirror is the value itself).
bool evaluate_map(ProblemSpec& spec, ProblemSpec::ValueSymmetry& sym, Diagnostics& d) {
  const Symbol* v = &spec.symbols.at("v");
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

}  // namespace

void read_symmetry(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r, bool ignore) {
  const toml::node* n = root.get("symmetry");
  if (!n) return;
  if (!n->is_table()) {
    d.error(r.at(*n), "'symmetry' must be a table ([symmetry])");
    return;
  }
  const toml::table& t = *n->as_table();
  r.check_keys(t, {"value"}, "[symmetry]");
  if (spec.goal == Goal::path) {
    d.error(r.at(*n), "[symmetry] is for placement problems; a path problem's moves have no value map");
    return;
  }
  const toml::node* value = t.get("value");
  if (!value) {
    d.error(r.at(*n), "[symmetry] needs value = \"<int expression of v>\": the mirror of value v");
    return;
  }
  ProblemSpec::ValueSymmetry sym;
  sym.loc = r.at(*value);
  sym.value = r.expr_of(*value, "symmetry.value");
  if (!sym.value) return;
  if (!check_typed(*sym.value, Type::int_, spec, CheckContext{.where = "symmetry.value", .node = false, .value = true}, d))
    return;
  if (spec.branch.ends == 2) {
    d.error(sym.loc, "[symmetry] applies to specs that place values from the left; this one has branch.ends = 2",
            "solve it with --no-symmetry, or with the parameters for one end");
    return;
  }
  if (spec.size > 0 && !evaluate_map(spec, sym, d)) return;
  if (!ignore) spec.symmetry = std::move(sym);
}

}  // namespace permjit
