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

// The index of node s in pattern k's table: the positions q_0.. of its kept values as a
// k-permutation of the size positions, in mixed radix (q_i counted among the positions
// not taken by q_0..q_{i-1}). templates/cpu_pdb.hpp ranks and unranks the same way.
void emit_index(GenContext& g, int k, const std::vector<int>& values) {
  const int n = g.spec.size;
  g.out.line("PJ_HD unsigned pdb_index_" + std::to_string(k) + "(const Node& s) {");
  g.out.indent();
  g.out.line("unsigned long long used = 0;");
  g.out.line("unsigned idx = 0;");
  g.out.line("int q;");
  for (size_t i = 0; i < values.size(); ++i) {
    g.out.line("q = s.perm.find(" + std::to_string(values[i]) + ");");
    if (i == 0) g.out.line("idx = static_cast<unsigned>(q);");
    else
      g.out.line("idx = idx * " + std::to_string(n - static_cast<int>(i)) +
                 "u + static_cast<unsigned>(q - pj::popcount(used & ((1ull << q) - 1ull)));");
    if (i + 1 < values.size()) g.out.line("used |= 1ull << q;");
  }
  g.out.line("return idx;");
  g.out.dedent();
  g.out.line("}");
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
  g.out.line("#endif");
  g.out.line("");
  if (n == 0) return;
  g.out.line("// The tables, built or loaded at run time and written here by the loader (a byte per");
  g.out.line("// abstract state: its cost to the goal's, counting the pattern's own moves).");
  g.out.line("extern \"C\" { PJ_RUN_TIME_DATA const unsigned char* pj_pdb_tables[" + std::to_string(n) + "]; }");
  g.out.line("");
  for (int k = 0; k < n; ++k) emit_index(g, k, kept_values(p, p.patterns[k]));
  g.out.line("");
  g.out.line("// The pattern databases' estimate: the largest over the groups of the sum of their tables.");
  g.out.line("PJ_HD int pdb_heuristic(const Node& s) {");
  g.out.indent();
  g.out.line("int best = 0;");
  for (int grp = 0; grp < p.groups; ++grp) {
    std::vector<std::string> terms;
    for (int k = 0; k < n; ++k)
      if (p.patterns[k].group == grp)
        terms.push_back("static_cast<int>(pj::run_time_value(pj_pdb_tables[" + std::to_string(k) + "][pdb_index_" +
                        std::to_string(k) + "(s)]))");
    std::string sum;
    for (const auto& t : terms) sum += (sum.empty() ? "" : " + ") + t;
    g.out.line("best = pj::max(best, " + sum + ");");
  }
  g.out.line("return best;");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

}  // namespace permjit
