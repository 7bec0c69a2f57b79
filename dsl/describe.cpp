#include "dsl/describe.hpp"

#include <sstream>
#include <string>
#include <tuple>

namespace permjit {

namespace {
std::string dims_text(const std::vector<int64_t>& dims) {
  std::string s;
  for (auto d : dims) s += "[" + std::to_string(d) + "]";
  return s;
}
std::string typed(const Expr& e) { return std::string(type_name(e.type)) + " = " + to_string(e); }
}  // namespace

std::string describe_spec(const ProblemSpec& s) {
  std::ostringstream o;
  o << "problem " << s.name << " (" << s.file->path << ")\n";
  o << "  goal " << goal_name(s.goal) << ", size " << (s.size ? std::to_string(s.size) : "unknown");
  if (s.size_expr) o << " (" << to_string(*s.size_expr) << ")";
  o << '\n';
  if (!s.fixed_prefix.empty()) {
    o << "  fixed prefix";
    for (auto v : s.fixed_prefix) o << ' ' << v;
    o << '\n';
  }
  if (!s.params.empty()) o << "params\n";
  for (const auto& p : s.params) {
    o << "  " << p.name << " = " << p.value << "  (default " << p.def;
    if (p.lo != INT64_MIN) o << ", range " << p.lo << ".." << p.hi;
    o << ")\n";
  }
  if (!s.data.empty()) o << "data" << (s.instance_path.empty() ? " (no instance loaded)" : " from " + s.instance_path) << "\n";
  for (const auto& d : s.data) {
    o << "  " << d.name << " : int";
    if (d.loaded) {
      o << dims_text(d.dims);
      if (d.dims.empty()) o << " = " << d.values.at(0);
    } else {
      for (const auto& e : d.dim_exprs) o << "[" << to_string(*e) << "]";
    }
    o << '\n';
  }
  if (!s.derived.empty()) o << "derived\n";
  for (const auto& d : s.derived) {
    o << "  " << d.name << " : int";
    if (d.loaded) o << dims_text(d.dims);
    else
      for (const auto& e : d.dim_exprs) o << "[" << to_string(*e) << "]";
    std::string idx;
    for (const auto& i : d.index_names) idx += "[" + i + "]";
    o << ", " << d.name << idx << " = " << to_string(*d.value);
    if (d.loaded && d.dims.empty()) o << " = " << d.values.at(0);
    o << '\n';
  }
  if (!s.state.empty()) o << "state\n";
  for (const auto& v : s.state) {
    o << "  " << v.name << " : " << type_name(v.type) << dims_text(v.dims);
    o << " = " << (v.init ? to_string(*v.init) : "0") << " at the root\n";
  }
  o << "branch\n";
  const Branch& b = s.branch;
  if (b.candidates) o << "  candidates : " << typed(*b.candidates) << "  (and free)\n";
  if (b.filter) o << "  filter     : " << typed(*b.filter) << '\n';
  if (b.ends == 2) o << "  ends       : 2 (values placed at either end, chosen per node)\n";
  if (s.positions)
    o << "  positions  : " << s.positions->table << " (depth d fills position " << s.positions->table
      << "[d]; permutations reported in the problem's order)\n";
  if (const auto& a = s.position_symmetry) {
    std::string tables, orbit;
    for (const std::string& t : a->tables) tables += (tables.empty() ? "" : ", ") + t;
    for (int x : a->orbit) orbit += (orbit.empty() ? "" : ", ") + std::to_string(x);
    o << "  symmetry   : automorphisms of " << tables << "; the first position's orbit: "
      << (a->orbit.empty() ? std::string("not known without the instance") : orbit)
      << (a->orbit.size() > 1 ? " (the later ones take values above the first's)" : "") << '\n';
  }
  for (auto [name, p] : {std::pair{"place", &b.place}, std::pair{"place_back", &b.place_back}}) {
    if (p->is_block) {
      o << "  " << name << " (in order):\n" << to_string(p->block, 4);
    } else if (!p->simultaneous.empty()) {
      o << "  " << name << " (simultaneous):\n";
      for (const auto& [n, e] : p->simultaneous) o << "    " << n << " : " << typed(*e) << '\n';
    }
  }
  if (b.stages == 2) o << "  stages     : 2 (refine computed on the children that bound does not prune)\n";
  for (auto [name, prelude, value] : {std::tuple{"bound      : ", &b.bound_prelude, b.bound.get()},
                                      std::tuple{"refine     : ", &b.refine_prelude, b.refine.get()},
                                      std::tuple{"objective  : ", &b.objective_prelude, b.objective.get()}}) {
    if (!value) continue;
    o << "  " << name;
    if (!prelude->empty()) o << "(in order)\n" << to_string(*prelude, 4) << "    return ";
    o << typed(*value) << '\n';
  }
  return o.str();
}

}  // namespace permjit
