// The data side of a problem source: constants, instance arrays, the node struct.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>

#include "generator/emit_expr.hpp"
#include "generator/emit_parts.hpp"
#include "dsl/run_time_data.hpp"
#include "dsl/symmetry_group.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

namespace {
std::vector<const DataItem*> compiled_data(const ProblemSpec& s);

// The unsigned word of a set (ProblemSpec::set_bits): for 128 bits the integer GCC and
// NVRTC both have, so set code is the same text at every size.
const char* mask_type(int bits) { return bits == 32 ? "unsigned int" : bits == 64 ? "unsigned long long" : "unsigned __int128"; }
}  // namespace

void emit_header(GenContext& g) {
  const ProblemSpec& s = g.spec;
  // A source that holds no instance data does not name the instance: its text, and so
  // the module cache key, is the same for every start (dsl/start_data.hpp).
  // Run-time arrays (dsl/run_time_data.hpp) and scalars (sizes) do not count.
  bool holds_instance = false;
  for (const std::string& name : instance_arrays(s)) {
    const Symbol& sym = s.symbols.at(name);
    if (!sym.run_time_range && sym.values) holds_instance = true;
  }
  g.out.line("// permjit problem source: " + s.name + ", from " + s.file->path +
             (holds_instance && !s.instance_path.empty() ? ", instance " + s.instance_path : ""));
  if (s.path.start_data.empty())
    g.out.line(std::string("// Generated; do not edit. Sizes") + (holds_instance ? " and instance data" : "") +
               " are compile-time constants" + (holds_instance ? "." : "; instance data are read at run time."));
  else
    g.out.line(std::string("// Generated; do not edit. Sizes") + (holds_instance ? " and instance data" : "") +
               " are compile-time constants; the start data is a run-time input of root().");
  g.out.line("namespace problem {");
  g.out.line("");
}

void emit_constants(GenContext& g) {
  const ProblemSpec& s = g.spec;
  g.out.line("constexpr int kSize = " + std::to_string(s.size) + ";  // values 0..kSize-1");
  // A find problem is searched as a count that the run stops at its first solution:
  // the generated code, and so the compiled module, is a count problem's.
  const Goal searched = s.goal == Goal::find ? Goal::count : s.goal;
  g.out.line(std::string("constexpr pj::Goal kGoal = pj::Goal::") + goal_name(searched) + ";");
  // One machine word holds a set of values; the narrowest one that fits.
  g.out.line(std::string("using Mask = ") + mask_type(s.set_bits) + ";");
  g.out.line(s.size == s.set_bits ? "constexpr Mask kAll = ~Mask(0);" : "constexpr Mask kAll = (Mask(1) << kSize) - 1;");
  g.out.line("constexpr int kPrefixLength = " + std::to_string(s.fixed_prefix.size()) + ";");
  if (g.width.wide) {
    // Some int may pass 32 bits (generator/int_width.hpp): node code computes in 64.
    // The GPU skeletons keep bounds and incumbents in 32 bits, so a device compile
    // stops here, at the place in the spec.
    g.out.line("using Int = long long;  // ints are 64-bit: a value may reach " + std::to_string(g.width.reach));
    g.out.line("#if defined(__CUDACC__)");
    g.out.user_place(g.width.why);
    g.out.line("#error \"this int may pass 32 bits, so permjit computes ints in 64 bits, which only the cpu "
               "skeleton does (docs/reliability.md): solve with --backend cpu\"");
    g.out.generated_place();
    g.out.line("#endif");
  }
  if (s.goal != Goal::path) {
    if (s.branch.ends == 2) {
      g.out.line("constexpr int kEnds = 2;  // a value goes to the next free position at either end");
      g.out.line("#define PJ_TWO_ENDS 1     // skeleton code that calls place_back");
    } else {
      g.out.line("constexpr int kEnds = 1;  // values fill the positions from the left");
    }
    if (s.branch.stages == 2)
      g.out.line("constexpr int kStages = 2;  // refine() on the children that bound() does not prune");
    else
      g.out.line("constexpr int kStages = 1;  // bound() alone");
  }
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

namespace {

size_t element_bytes(const char* type) { return type[0] == 'u' ? 1 : type[0] == 's' ? 2 : 4; }

// The symbols that node code (state init, candidates, filter, place, bound, refine, objective)
// reads: derived tables that only feed other derived tables are not emitted, nor those
// read only where a condition known before the search leaves code out.
std::set<const Symbol*> node_reads(const ProblemSpec& s) {
  std::set<const Symbol*> out;
  const Branch& b = s.branch;
  for (auto [prelude, e] : values_in_use(b)) {
    if (e) static_reads(*e, out);
    static_reads(*prelude, out);
  }
  for (const Placement* p : placements_in_use(b)) {
    static_reads(p->block, out);
    for (const auto& [n, e] : p->simultaneous) static_reads(*e, out);
  }
  for (const auto& v : s.state)
    if (v.init) static_reads(*v.init, out);
  const PathSpec& p = s.path;
  for (const Expr* e : {p.goal.get(), p.heuristic.get()})
    if (e) static_reads(*e, out);
  for (const auto& m : p.moves) {
    for (const Expr* e : {m.when.get(), m.swap_a.get(), m.swap_b.get()})
      if (e) static_reads(*e, out);
    for (const auto& [n, e] : m.set) static_reads(*e, out);
  }
  if (const DataItem* start = s.find_data(p.start_item))
    if (auto it = s.symbols.find(start->name); it != s.symbols.end()) out.insert(&it->second);
  return out;
}

bool is_start_data(const ProblemSpec& s, const std::string& name) {
  for (const auto& n : s.path.start_data)
    if (n == name) return true;
  return false;
}

// The narrowest element type that holds every value in [lo, hi]: data tables are
// read-only, so a smaller element keeps more of them in constant memory and caches
// (reads widen to int).
const char* element_type(int64_t lo, int64_t hi) {
  if (lo >= 0 && hi <= 255) return "unsigned char";
  if (lo >= -32768 && hi <= 32767) return "short";
  return "int";
}

const char* element_type(const std::vector<int64_t>& values) {
  if (values.empty()) return "int";
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return element_type(*lo, *hi);
}

// The elements as an array of `type` lays them out (little-endian, as host and device are).
std::string element_bytes_of(const std::vector<int64_t>& values, const char* type) {
  const size_t w = element_bytes(type);
  std::string out(values.size() * w, '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = static_cast<uint64_t>(values[i]);
    for (size_t b = 0; b < w; ++b) out[i * w + b] = static_cast<char>((v >> (8 * b)) & 0xff);
  }
  return out;
}



// The instance and derived items the source holds: every scalar (emit_constants) and
// every array some node code reads, less the start data root() takes at run time.
std::vector<const DataItem*> compiled_data(const ProblemSpec& s) {
  std::set<const Symbol*> used = node_reads(s);
  std::vector<const DataItem*> out;
  for (const auto* items : {&s.data, &s.derived})
    for (const auto& d : *items) {
      auto it = s.symbols.find(d.name);
      if (is_start_data(s, d.name)) continue;
      if (d.dim_exprs.empty() || (it != s.symbols.end() && used.count(&it->second))) out.push_back(&d);
    }
  return out;
}

// A path problem's start data: not constants, but what root() takes (emit_path.cpp),
// one row-major int array per item; the CPU module checks the lengths it is given.
void emit_start_data(GenContext& g) {
  const auto& items = g.spec.path.start_data;
  g.out.line("// Start data, a run-time input: root(s, start) reads item k from start[k].");
  g.out.line("constexpr int kStartItems = " + std::to_string(items.size()) + ";");
  std::string lengths, names;
  for (const auto& n : items) {
    const DataItem* d = g.spec.find_data(n);
    int64_t count = 1;
    for (auto k : d->dims) count *= k;
    lengths += (lengths.empty() ? "" : ", ") + std::to_string(count);
    names += (names.empty() ? "" : ", ") + n;
  }
  g.out.line("constexpr int kStartLengths[] = {" + (lengths.empty() ? std::string("0") : lengths) + "};" +
             (names.empty() ? "  // none" : "  // " + names));
  g.out.line("");
}

}  // namespace

void emit_data(GenContext& g) {
  if (g.spec.goal == Goal::path) emit_start_data(g);
  std::vector<const DataItem*> compiled = compiled_data(g.spec);
  // Constant memory holds 64 KiB; tables past that budget go to global memory.
  size_t constant_left = 60 * 1024;
  // Arrays read at run time go to global memory, read through the read-only cache
  // (pj::run_time_value). Flowshop's two-ended search on ta022 (H100, ivm, at the
  // optimum): 0.414 s from global memory against 0.537 s from constant memory and 0.568 s
  // from constant memory as ints (docs/performance.md, "One compile per shape"). Values
  // compiled in are immediates, and stay in constant memory. PERMJIT_RUN_TIME_ARRAYS=constant
  // puts run-time arrays in constant memory, for measuring.
  const char* how = std::getenv("PERMJIT_RUN_TIME_ARRAYS");
  const bool run_time_constant = how && std::string(how) == "constant";
  for (auto [items, from] : {std::pair{&g.spec.data, "from the instance"}, std::pair{&g.spec.derived, "derived"}}) {
    for (const auto& d : *items) {
      if (d.dim_exprs.empty()) continue;
      if (std::find(compiled.begin(), compiled.end(), &d) == compiled.end()) continue;
      std::string dims;
      for (auto n : d.dims) dims += "[" + std::to_string(n) + "]";
      const Symbol& sym = g.spec.symbols.at(d.name);
      const char* type = sym.run_time_range ? element_type(sym.run_time_range->first, sym.run_time_range->second)
                                            : element_type(d.values);
      size_t bytes = d.values.size() * element_bytes(type);
      const bool constant = bytes <= constant_left && (!sym.run_time_range || run_time_constant);
      if (constant) constant_left -= bytes;
      if (sym.run_time_range) {
        // Declared with C linkage, so the loader finds it by name; its values come then.
        const std::string name = ExprEmitter::data_name(d.name);
        g.out.line("// " + d.name + ", " + from + ": values in [" + std::to_string(sym.run_time_range->first) + ", " +
                   std::to_string(sym.run_time_range->second) + "], uploaded when the module loads");
        // (The braces make it a definition, not an extern declaration.)
        g.out.line(std::string("extern \"C\" { ") + (constant ? "PJ_RUN_TIME_DATA " : "PJ_RUN_TIME_DATA_GLOBAL ") +
                   type + " " + name + dims + "; }");
        g.data.push_back(RunTimeArray{name, element_bytes_of(d.values, type), sym.run_time_range->first,
                                      sym.run_time_range->second, d.values});
        continue;
      }
      const char* where = constant ? "PJ_DATA" : "PJ_DATA_GLOBAL";
      g.out.line("// " + d.name + ", " + from);
      g.out.line(std::string(where) + " " + type + " " + ExprEmitter::data_name(d.name) + dims + " = {");
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

namespace {
// A field of the node, in the order struct Node declares them. `decl` is empty for a
// state variable that is not stored (Node shows `note` in its place); `fixed` marks what
// place() sets at the root's children only and copies below (`first`, the weight).
struct NodeField {
  std::string decl, note, name;
  std::vector<int64_t> dims;
  bool fixed = false;
};

std::vector<NodeField> node_fields(const GenContext& g) {
  std::vector<NodeField> fields;
  for (const auto& v : g.spec.state) {
    const std::string where = "state '" + v.name + "', line " + std::to_string(v.loc.line);
    if (!is_stored(g.live, g.spec, v)) {
      fields.push_back({"", "// " + where + ": not stored, nothing reads it with these parameters", "", {}});
      continue;
    }
    std::string dims;
    for (auto n : v.dims) dims += "[" + std::to_string(n) + "]";
    const std::string name = ExprEmitter::state_name(v.name);
    fields.push_back({ExprEmitter::cxx_type(v.type, g.width.wide) + " " + name + dims + ";", "  // " + where, name,
                      std::vector<int64_t>(v.dims.begin(), v.dims.end())});
  }
  fields.push_back({"Mask free;", "  // values not yet placed", "free", {}});
  // Only what the spec reads: every field is stored per level of a search stack.
  if (g.spec.used_builtins.count(Builtin::d)) fields.push_back({"int d;", "      // number of values placed", "d", {}});
  if (g.spec.used_builtins.count(Builtin::first))
    fields.push_back({"int first;", "  // value placed first (0 at the root)", "first", {}, true});
  if (g.spec.used_builtins.count(Builtin::last)) fields.push_back({"int last;", "   // value placed last (0 at the root)", "last", {}});
  if (g.spec.symmetry)
    fields.push_back({"int weight;", "  // [symmetry]: solutions each leaf below counts for (1 or 2)", "weight", {}, true});
  if (g.spec.symmetry_group) {
    fields.push_back({"unsigned border;", "  // [symmetry] generators: the positions of 0 and n-1 placed (a code)", "border", {}});
    fields.push_back({"int border_p0;", "  // [symmetry] generators: p[0] (0 at the root)", "border_p0", {}, true});
    fields.push_back({"unsigned border_block;", "  // [symmetry] generators: p[0]'s block of codes", "border_block", {}, true});
  }
  return fields;
}
}  // namespace

void emit_node(GenContext& g) {
  g.out.line("// A node of the search tree: the problem's state and the placement so far.");
  g.out.line("struct Node {");
  g.out.indent();
  for (const NodeField& f : node_fields(g)) g.out.line(f.decl + f.note);
  g.out.dedent();
  g.out.line("};");
  g.out.line("");
}

// A node as a search stack keeps it. `first`, the [symmetry] weight and a group's p[0]
// are set when the root's child is placed and copied unchanged below it, so every node of
// a path below the root holds the same ones: a stack row need not. A group's border code
// rides above kAll in the row's free word where it fits (dsl border_code_in_free). Without
// them the row is the node. (N-Queens 19 with its mirror: rows of 16 bytes instead of 20
// are one vector access each, and more of them fit an SM's shared memory.) stack_free(r)
// is a row's free set, whatever else its word holds.
void emit_stack_node(GenContext& g) {
  std::vector<NodeField> kept, fixed;
  const bool border_in_free = g.spec.symmetry_group && border_code_in_free(g.spec.size);
  for (NodeField& f : node_fields(g)) {
    if (f.decl.empty() || (border_in_free && f.name == "border")) continue;
    (f.fixed ? fixed : kept).push_back(std::move(f));
  }
  g.out.line("// A node as a search stack keeps it. from_stack(row, path) gives it back: `path` is the");
  g.out.line("// root for the root's row, else any node below the row's node on the same path.");
  if (fixed.empty()) {
    g.out.line("using StackNode = Node;  // nothing is fixed along a path");
    g.out.line("PJ_HD const StackNode& stack_node(const Node& s) { return s; }");
    g.out.line("PJ_HD const Node& from_stack(const StackNode& r, const Node&) { return r; }");
    g.out.line("PJ_HD Mask stack_free(const StackNode& r) { return r.free; }");
    g.out.line("");
    return;
  }
  std::string fixed_names;
  for (const NodeField& f : fixed) fixed_names += " " + f.name;
  g.out.line("// Fixed below the root, and kept by the path's deeper nodes:" + fixed_names + ".");
  g.out.line("struct StackNode {");
  g.out.indent();
  for (const NodeField& f : kept) g.out.line(f.decl);
  g.out.dedent();
  g.out.line("};");
  // to.name = from.name, element by element for arrays.
  auto copy = [&](const NodeField& f, const std::string& to, const std::string& from) {
    std::string index;
    for (size_t k = 0; k < f.dims.size(); ++k) {
      const std::string i = "i" + std::to_string(k);
      g.out.open_loop(f.dims[k]);
      g.out.line("for (int " + i + " = 0; " + i + " < " + std::to_string(f.dims[k]) + "; ++" + i + ") {");
      g.out.indent();
      index += "[" + i + "]";
    }
    g.out.line(to + "." + f.name + index + " = " + from + "." + f.name + index + ";");
    for (size_t k = 0; k < f.dims.size(); ++k) {
      g.out.dedent();
      g.out.line("}");
      g.out.close_loop();
    }
  };
  if (border_in_free)
    g.out.line("// The border code is kept in free's word, above kAll (kBorderInFree): a leaf's complete");
  if (border_in_free) g.out.line("// border is never kept (a leaf has nothing left to try).");
  g.out.line("PJ_HD StackNode stack_node(const Node& s) {");
  g.out.indent();
  g.out.line("StackNode r;");
  for (const NodeField& f : kept) copy(f, "r", "s");
  if (border_in_free) g.out.line("r.free = s.free | Mask(s.border) << kSize;");
  g.out.line("return r;");
  g.out.dedent();
  g.out.line("}");
  g.out.line("PJ_HD Node from_stack(const StackNode& r, const Node& path) {");
  g.out.indent();
  g.out.line("Node s;");
  for (const NodeField& f : kept) copy(f, "s", "r");
  if (border_in_free) {
    g.out.line("s.free = r.free & kAll;");
    g.out.line("s.border = unsigned(r.free >> kSize);");
  }
  for (const NodeField& f : fixed) g.out.line("s." + f.name + " = path." + f.name + ";");
  g.out.line("return s;");
  g.out.dedent();
  g.out.line("}");
  g.out.line(border_in_free ? "PJ_HD Mask stack_free(const StackNode& r) { return r.free & kAll; }"
                            : "PJ_HD Mask stack_free(const StackNode& r) { return r.free; }");
  g.out.line("");
}

void emit_node_weight(GenContext& g) {
  // Read by the ivm kernels to place their rows (templates/gpu_ivm.cuh). The functions
  // above are the node code with the parameters' choices folded: what they call is what
  // runs.
  if (g.out.solves_matching())
    g.out.line("constexpr bool kSolvesMatching = true;  // node code solves an assignment or arborescence: O(k^3)");
  else
    g.out.line("constexpr bool kSolvesMatching = false;  // no assignment or arborescence in node code");
}

void emit_footer(GenContext& g) { g.out.line("}  // namespace problem"); }

}  // namespace permjit
