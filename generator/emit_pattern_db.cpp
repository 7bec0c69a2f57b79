#include "generator/emit_pattern_db.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace permjit {

namespace {
std::string list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// A pattern's values, then the tracked ones: the order of an abstract state's positions.
std::vector<int> kept_values(const PatternDatabases& p, const Pattern& pat) {
  std::vector<int> v = pat.values;
  v.insert(v.end(), p.track.begin(), p.track.end());
  return v;
}

// The position a reflected node holds at position q's image (reflect.positions[q]):
// from a packed word where the map fits 64 bits, else from a table.
void emit_reflect_position(GenContext& g, const std::vector<int>& map) {
  int bits = 1;
  while ((1 << bits) < g.spec.size) ++bits;
  g.out.line("// reflect.positions[q]: where position q goes in the reflected node.");
  g.out.line("PJ_HD int pdb_reflect_position(int q) {");
  g.out.indent();
  if (g.spec.size * bits <= 64) {
    unsigned long long word = 0;
    for (size_t q = 0; q < map.size(); ++q) word |= static_cast<unsigned long long>(map[q]) << (bits * q);
    g.out.line("return static_cast<int>((" + std::to_string(word) + "ull >> (" + std::to_string(bits) + " * q)) & " +
               std::to_string((1 << bits) - 1) + "ull);");
  } else {
    std::vector<std::string> cells;
    for (int v : map) cells.push_back(std::to_string(v));
    g.out.line("constexpr unsigned char kMap[kSize] = {" + list(cells) + "};");
    g.out.line("return kMap[q];");
  }
  g.out.dedent();
  g.out.line("}");
}

// The body of an index function: the positions q_0.. of the kept values (`position_of`
// gives q_i's expression) ranked as a k-permutation of the size positions, in mixed
// radix (q_i counted among the positions not taken by q_0..q_{i-1}).
// templates/cpu_pdb.hpp ranks and unranks the same way.
template <class PositionOf>
void emit_rank(GenContext& g, const std::string& name, size_t kept, PositionOf position_of) {
  const int n = g.spec.size;
  g.out.line("PJ_HD unsigned " + name + "(const Node& s) {");
  g.out.indent();
  g.out.line("unsigned long long used = 0;");
  g.out.line("unsigned idx = 0;");
  g.out.line("int q;");
  for (size_t i = 0; i < kept; ++i) {
    g.out.line("q = " + position_of(i) + ";");
    if (i == 0) g.out.line("idx = static_cast<unsigned>(q);");
    else
      g.out.line("idx = idx * " + std::to_string(n - static_cast<int>(i)) +
                 "u + static_cast<unsigned>(q - pj::popcount(used & ((1ull << q) - 1ull)));");
    if (i + 1 < kept) g.out.line("used |= 1ull << q;");
  }
  g.out.line("return idx;");
  g.out.dedent();
  g.out.line("}");
}

// The index in pattern k's table of the reflected node of s: a kept value u sits there
// at reflect.positions[the position of w in s], w the value that reflect.values maps to u.
void emit_reflected_index(GenContext& g, int k, const std::vector<int>& values, const std::vector<int>& vmap) {
  std::vector<int> inverse(vmap.size());
  for (size_t w = 0; w < vmap.size(); ++w) inverse[static_cast<size_t>(vmap[w])] = static_cast<int>(w);
  emit_rank(g, "pdb_reflected_index_" + std::to_string(k), values.size(), [&](size_t i) {
    return "pdb_reflect_position(s.perm.find(" + std::to_string(inverse[static_cast<size_t>(values[i])]) + "))";
  });
}

// The index of node s in pattern k's table: the positions of its kept values, ranked.
void emit_index(GenContext& g, int k, const std::vector<int>& values) {
  emit_rank(g, "pdb_index_" + std::to_string(k), values.size(),
            [&](size_t i) { return "s.perm.find(" + std::to_string(values[i]) + ")"; });
}
}  // namespace

void emit_pattern_databases(GenContext& g) {
  const PatternDatabases& p = g.spec.path.databases;
  const int n = p.on ? static_cast<int>(p.patterns.size()) : 0;
  g.out.line("constexpr int kPdbPatterns = " + std::to_string(n) + ";  // pattern databases ([pattern_databases])");
  // The builder's view of each pattern (host only); one dummy row when there is none.
  std::vector<std::string> rows, kept, own, group, group_size;
  for (const auto& pat : p.patterns) {
    if (!p.on) break;
    std::vector<int> v = kept_values(p, pat);
    std::vector<std::string> cells;
    for (int i = 0; i < g.spec.size; ++i) cells.push_back(std::to_string(i < static_cast<int>(v.size()) ? v[i] : -1));
    rows.push_back("{" + list(cells) + "}");
    kept.push_back(std::to_string(v.size()));
    own.push_back(std::to_string(pat.values.size()));
    group.push_back(std::to_string(pat.group));
    group_size.push_back(std::to_string(std::count_if(p.patterns.begin(), p.patterns.end(),
                                                      [&](const Pattern& o) { return o.group == pat.group; })));
  }
  if (rows.empty()) {
    rows.push_back("{0}");
    kept = own = group = group_size = {"0"};
  }
  g.out.line("#if !defined(__CUDACC__)");
  g.out.line("// Per pattern: its values then the tracked ones (-1 beyond), how many there are, how many");
  g.out.line("// are its own, its group and the number of patterns in that group.");
  g.out.line("static const int kPdbValues[][kSize] = {" + list(rows) + "};");
  g.out.line("static const int kPdbKept[] = {" + list(kept) + "};");
  g.out.line("static const int kPdbOwn[] = {" + list(own) + "};");
  g.out.line("static const int kPdbGroup[] = {" + list(group) + "};");
  g.out.line("static const int kPdbGroupSize[] = {" + list(group_size) + "};");
  // The reflection (reflect.positions, reflect.values) the builder checks is a symmetry.
  const bool reflect = p.on && !p.reflect_positions.empty();
  std::vector<std::string> rpos, rval;
  for (int q = 0; q < g.spec.size; ++q) {
    rpos.push_back(std::to_string(reflect ? p.reflect_positions[static_cast<size_t>(q)] : q));
    rval.push_back(std::to_string(reflect ? p.reflect_values[static_cast<size_t>(q)] : q));
  }
  g.out.line(std::string("static const bool kPdbReflect = ") + (reflect ? "true" : "false") + ";");
  g.out.line("static const int kPdbReflectPositions[kSize] = {" + list(rpos) + "};");
  g.out.line("static const int kPdbReflectValues[kSize] = {" + list(rval) + "};");
  g.out.line("#endif");
  g.out.line("");
  if (n == 0) return;
  g.out.line("// The tables, built or loaded at run time and written here by the loader (a byte per");
  g.out.line("// abstract state: its cost to the goal's, counting the pattern's own moves).");
  g.out.line("extern \"C\" { PJ_RUN_TIME_DATA const unsigned char* pj_pdb_tables[" + std::to_string(n) + "]; }");
  g.out.line("");
  for (int k = 0; k < n; ++k) emit_index(g, k, kept_values(p, p.patterns[k]));
  if (reflect) {
    emit_reflect_position(g, p.reflect_positions);
    for (int k = 0; k < n; ++k) emit_reflected_index(g, k, kept_values(p, p.patterns[k]), p.reflect_values);
  }
  g.out.line("");
  g.out.line(reflect ? "// The pattern databases' estimate: the largest over the groups, on the node and on its"
                     : "// The pattern databases' estimate: the largest over the groups of the sum of their tables.");
  if (reflect) g.out.line("// reflection, of the sum of their tables.");
  g.out.line("PJ_HD int pdb_heuristic(const Node& s) {");
  g.out.indent();
  g.out.line("int best = 0;");
  for (const char* index : {"pdb_index_", "pdb_reflected_index_"}) {
    if (!reflect && std::string(index) == "pdb_reflected_index_") break;
    for (int grp = 0; grp < p.groups; ++grp) {
      std::string sum;
      for (int k = 0; k < n; ++k)
        if (p.patterns[k].group == grp)
          sum += (sum.empty() ? "" : " + ") + std::string("static_cast<int>(pj::run_time_value(pj_pdb_tables[") +
                 std::to_string(k) + "][" + index + std::to_string(k) + "(s)]))";
      g.out.line("best = pj::max(best, " + sum + ");");
    }
  }
  g.out.line("return best;");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

}  // namespace permjit
