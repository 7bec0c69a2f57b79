// The data side of a problem source: constants, instance arrays, the node struct.
#include <numeric>

#include "generator/emit_expr.hpp"
#include "generator/emit_parts.hpp"

namespace permjit {

void emit_header(GenContext& g) {
  const ProblemSpec& s = g.spec;
  g.out.line("// permjit problem source: " + s.name + ", from " + s.file->path +
             (s.instance_path.empty() ? "" : ", instance " + s.instance_path));
  g.out.line("// Generated; do not edit. Sizes and instance data are compile-time constants.");
  g.out.line("namespace problem {");
  g.out.line("");
}

void emit_constants(GenContext& g) {
  const ProblemSpec& s = g.spec;
  g.out.line("constexpr int kSize = " + std::to_string(s.size) + ";  // values 0..kSize-1");
  g.out.line(std::string("constexpr pj::Goal kGoal = pj::Goal::") + goal_name(s.goal) + ";");
  // One machine word holds a set of values; the narrowest one that fits.
  g.out.line(std::string("using Mask = ") + (s.size <= 32 ? "unsigned int" : "unsigned long long") + ";");
  g.out.line(s.size == 32 || s.size == 64 ? "constexpr Mask kAll = ~Mask(0);"
                                          : "constexpr Mask kAll = (Mask(1) << kSize) - 1;");
  g.out.line("constexpr int kPrefixLength = " + std::to_string(s.fixed_prefix.size()) + ";");
  if (!s.params.empty()) g.out.line("// parameters");
  for (const auto& p : s.params) g.out.line("constexpr int " + ExprEmitter::param_name(p.name) + " = " + std::to_string(p.value) + ";");
  for (auto [items, what] : {std::pair{&s.data, "instance scalars"}, std::pair{&s.derived, "derived scalars"}}) {
    bool any = false;
    for (const auto& d : *items) {
      if (!d.dim_exprs.empty()) continue;
      if (!any) g.out.line(std::string("// ") + what);
      any = true;
      g.out.line("constexpr int " + ExprEmitter::data_name(d.name) + " = " + std::to_string(d.values.at(0)) + ";");
    }
  }
  g.out.line("");
}

void emit_data(GenContext& g) {
  for (auto [items, from] : {std::pair{&g.spec.data, "from the instance"}, std::pair{&g.spec.derived, "derived"}}) {
    for (const auto& d : *items) {
      if (d.dim_exprs.empty()) continue;
      std::string dims;
      for (auto n : d.dims) dims += "[" + std::to_string(n) + "]";
      g.out.line("// " + d.name + ", " + from);
      g.out.line("PJ_DATA int " + ExprEmitter::data_name(d.name) + dims + " = {");
      size_t row = d.dims.back() > 0 ? static_cast<size_t>(d.dims.back()) : 1;
      for (size_t i = 0; i < d.values.size(); i += row) {
        std::string line;
        for (size_t j = i; j < std::min(i + row, d.values.size()); ++j) line += std::to_string(d.values[j]) + ", ";
        g.out.line("    " + line);
      }
      g.out.line("};");
    }
  }
  g.out.line("");
}

void emit_node(GenContext& g) {
  g.out.line("// A node of the search tree: the problem's state and the placement so far.");
  g.out.line("struct Node {");
  g.out.indent();
  for (const auto& v : g.spec.state) {
    std::string dims;
    for (auto n : v.dims) dims += "[" + std::to_string(n) + "]";
    g.out.line(ExprEmitter::cxx_type(v.type) + " " + ExprEmitter::state_name(v.name) + dims + ";  // state '" +
               v.name + "', line " + std::to_string(v.loc.line));
  }
  g.out.line("Mask free;  // values not yet placed");
  if (g.spec.used_builtins.count("d")) g.out.line("int d;      // number of values placed");
  // Only what the spec reads: every field is stored per level of a search stack.
  if (g.spec.used_builtins.count("first")) g.out.line("int first;  // value placed first (0 at the root)");
  if (g.spec.used_builtins.count("last")) g.out.line("int last;   // value placed last (0 at the root)");
  g.out.dedent();
  g.out.line("};");
  g.out.line("");
}

void emit_footer(GenContext& g) { g.out.line("}  // namespace problem"); }

}  // namespace permjit
