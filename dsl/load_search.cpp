#include "dsl/load_search.hpp"

#include "dsl/checker.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

constexpr const char* kHint = "gpu_skeleton = { name = \"offload\", when = \"lb >= 6\" } (when is optional)";

// `when`: a bool of the parameters and literals, known before the search.
std::optional<bool> evaluate_when(const toml::node& n, ProblemSpec& spec, Diagnostics& d, const TomlReading& r) {
  ExprPtr e = r.expr_of(n, "search.gpu_skeleton.when");
  if (!e) return std::nullopt;
  CheckContext ctx{.where = "search.gpu_skeleton.when", .node = false};
  if (!check_typed(*e, Type::bool_, spec, ctx, d)) return std::nullopt;
  const std::optional<int64_t> v = eval_static(*e, &d);
  if (!v) {
    d.error(r.at(n), "search.gpu_skeleton.when must be known before the search (literals and parameters)");
    return std::nullopt;
  }
  return *v != 0;
}

}  // namespace

void read_search(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r) {
  const toml::node* section = root.get("search");
  if (!section) return;
  const toml::table* t = section->as_table();
  if (!t) {
    d.error(r.at(*section), "'search' must be a table ([search])");
    return;
  }
  r.check_keys(*t, {"gpu_skeleton"}, "[search]");
  const toml::node* g = t->get("gpu_skeleton");
  if (!g) return;
  ProblemSpec::PreferredSkeleton p;
  p.loc = r.at(*g);
  if (const auto* name = g->as_string()) {  // gpu_skeleton = "offload": always
    p.name = name->get();
  } else if (const toml::table* gt = g->as_table()) {
    r.check_keys(*gt, {"name", "when"}, "search.gpu_skeleton");
    const toml::node* name = gt->get("name");
    if (!name || !name->is_string()) {
      d.error(name ? r.at(*name) : p.loc, "search.gpu_skeleton needs a name: the skeleton, a string", kHint);
      return;
    }
    p.name = name->as_string()->get();
    p.loc = r.at(*name);
    if (const toml::node* when = gt->get("when")) {
      const std::optional<bool> applies = evaluate_when(*when, spec, d, r);
      if (!applies) return;
      p.applies = *applies;
    }
  } else {
    d.error(p.loc, "search.gpu_skeleton is a skeleton's name or a table { name, when }", kHint);
    return;
  }
  spec.gpu_skeleton = p;
}

}  // namespace permjit
