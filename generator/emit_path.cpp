// A path problem's source: the node (a whole permutation, its state and its heuristic
// value) and what IDA* calls on it: heuristic, is_goal, root, applicable, apply_move.
// A move is picked by its number m; every move's expressions are computed and the one
// of m is selected, so threads of one warp applying different moves do not diverge.
#include "dsl/diagnostics.hpp"
#include "generator/emit_expr.hpp"
#include "generator/emit_parts.hpp"
#include "generator/emit_pattern_db.hpp"

namespace permjit {

namespace {
// `m == 0 ? v[0] : m == 1 ? v[1] : ...` as a chain of selects.
std::string select_by_move(Type t, const std::vector<std::string>& v) {
  std::string r = v.back();
  for (size_t k = v.size() - 1; k-- > 0;)
    r = ExprEmitter::select(t, "m == " + std::to_string(k), v[k], r);
  return r;
}

// Emits `e` on node `obj` ("s." or "p.") and returns the C++ value.
std::string value_on(GenContext& g, const Expr& e, const std::string& obj) {
  ExprEmitter x(g.spec, g.out, NodeNames{obj, obj, 0, 0}, g.local_ids);
  g.out.user_place(e.loc);
  std::string v = x.emit(e);
  g.out.generated_place();
  return v;
}

void open_function(GenContext& g, const std::string& comment, const std::string& signature) {
  g.out.line("// " + comment);
  g.out.line("PJ_HD " + signature + " {");
  g.out.indent();
}

void close_function(GenContext& g) {
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

void emit_heuristic(GenContext& g) {
  const PathSpec& p = g.spec.path;
  open_function(g, "The admissible estimate of the cost from s to a goal.", "int heuristic(const Node& s)");
  g.out.line("return " + value_on(g, *p.heuristic, "s.") + ";");
  close_function(g);
  if (!p.position_term) return;
  open_function(g, "One position's share of the heuristic: a move changes two of them.",
                "int position_term(const Node& s, int pos)");
  ExprEmitter x(g.spec, g.out, NodeNames{"s.", "s.", 0, 0}, g.local_ids);
  x.bind_local(p.position_var, "pos", 0, g.spec.size - 1);
  g.out.user_place(p.position_term->loc);
  std::string v = x.emit(*p.position_term);
  g.out.line("return " + v + ";");
  g.out.generated_place();
  close_function(g);
}

// The start data (kStartItems, emit_data) under the names the init expressions use:
// item k is start[k], row-major, viewed with the item's dimensions.
void bind_start_data(GenContext& g) {
  const auto& items = g.spec.path.start_data;
  if (items.empty()) g.out.line("(void)start;  // no start data: the start is compiled in");
  for (size_t k = 0; k < items.size(); ++k) {
    const DataItem* d = g.spec.find_data(items[k]);
    std::string name = ExprEmitter::data_name(d->name), inner;
    for (size_t i = 1; i < d->dims.size(); ++i) inner += "[" + std::to_string(d->dims[i]) + "]";
    std::string at = "start[" + std::to_string(k) + "]";
    if (inner.empty())
      g.out.line("const int* " + name + " = " + at + ";  // '" + d->name + "', a run-time input");
    else
      g.out.line("const int (*" + name + ")" + inner + " = reinterpret_cast<const int (*)" + inner + ">(" + at +
                 ");  // '" + d->name + "', a run-time input");
  }
}

void emit_goal_and_root(GenContext& g) {
  const ProblemSpec& s = g.spec;
  open_function(g, "The spec's goal test.", "bool goal_test(const Node& s)");
  g.out.line("return " + value_on(g, *s.path.goal, "s.") + ";");
  close_function(g);
  open_function(g, "The goal test.", "bool is_goal(const Node& s)");
  // An admissible heuristic is at most 0 at a goal (the cost left is 0): most nodes are
  // told apart by h alone, and the spec's test, over the whole board, runs on the rest.
  g.out.line("if (s.h > 0) return false;");
  g.out.line("return goal_test(s);");
  close_function(g);
  open_function(g, "The start: the instance's permutation and the state's init values (no heuristic).",
                "void root_state(Node& s, const int* const* start)");
  bind_start_data(g);
  g.out.line("for (int i = 0; i < kSize; ++i) s.perm.set(i, " + ExprEmitter::data_name(s.path.start_item) +
             "[i]);");
  for (const auto& v : s.state) {
    std::string init = v.init ? value_on(g, *v.init, "s.") : "0";
    g.out.line("s." + ExprEmitter::state_name(v.name) + " = " + init + ";");
  }
  close_function(g);
  open_function(g, "The start: the instance's permutation, the state's init values, its heuristic.",
                "void root(Node& s, const int* const* start)");
  g.out.line("root_state(s, start);");
  if (s.path.databases.on) {
    g.out.line("s.hs = heuristic(s);");
    g.out.line("s.h = pj::max(s.hs, pdb_heuristic(s));");
  } else {
    g.out.line("s.h = heuristic(s);");
  }
  close_function(g);
  // The same state variables (the pattern databases' builder checks that an abstract
  // state decides them).
  std::string same = "true";
  for (const auto& v : s.state) {
    const std::string f = ExprEmitter::state_name(v.name);
    same += " && a." + f + " == b." + f;
  }
  open_function(g, "The same state variables.", "bool same_state(const Node& a, const Node& b)");
  g.out.line("return " + same + ";");
  close_function(g);
}

void emit_move_tables(GenContext& g) {
  const auto& moves = g.spec.path.moves;
  std::vector<std::string> costs, inverses;
  std::string names;
  for (const auto& m : moves) {
    costs.push_back(std::to_string(m.cost));
    inverses.push_back(std::to_string(m.inverse));
    names += "\"" + m.name + "\", ";
  }
  open_function(g, "The cost of move m (known before the search).", "int move_cost(int m)");
  g.out.line("return " + select_by_move(Type::int_, costs) + ";");
  close_function(g);
  open_function(g, "The move that undoes m, never applied right after it; -1 for none.", "int inverse_move(int m)");
  g.out.line("return " + select_by_move(Type::int_, inverses) + ";");
  close_function(g);
  g.out.line("#if !defined(__CUDACC__)");
  g.out.line("static const char* const kMoveNames[kMoves] = {" + names + "};");
  g.out.line("#endif");
  g.out.line("");
}

void emit_applicable(GenContext& g) {
  open_function(g, "Whether move m applies to s.", "bool applicable(const Node& s, int m)");
  std::vector<std::string> when;
  for (const auto& m : g.spec.path.moves) when.push_back(m.when ? value_on(g, *m.when, "s.") : "true");
  g.out.line("return " + select_by_move(Type::bool_, when) + ";");
  close_function(g);
}

void emit_apply(GenContext& g) {
  const ProblemSpec& s = g.spec;
  const auto& moves = s.path.moves;
  open_function(g, "The child of p by move m (applicable to p) without its heuristic; a, b: the positions swapped.",
                "void apply_state(const Node& p, int m, Node& c, int& a, int& b)");
  g.out.line("c = p;");
  std::vector<std::string> a, b;
  for (const auto& m : moves) {
    a.push_back(value_on(g, *m.swap_a, "p."));
    b.push_back(value_on(g, *m.swap_b, "p."));
  }
  // Clamped: a spec whose swap leaves the permutation cannot write outside it.
  g.out.line("a = pj::clamp_index(" + select_by_move(Type::int_, a) + ", kSize);");
  g.out.line("b = pj::clamp_index(" + select_by_move(Type::int_, b) + ", kSize);");
  for (const auto& v : s.state) {
    std::vector<std::string> next;
    bool any = false;
    std::string keep = "p." + ExprEmitter::state_name(v.name);
    for (const auto& m : moves) {
      std::string val = keep;
      for (const auto& [name, e] : m.set)
        if (name == v.name) {
          val = value_on(g, *e, "p.");
          any = true;
        }
      next.push_back(val);
    }
    if (any) g.out.line("c." + ExprEmitter::state_name(v.name) + " = " + select_by_move(v.type, next) + ";");
  }
  g.out.line("c.perm.swap(a, b);");
  close_function(g);
  open_function(g, "The child of p by move m (applicable to p).", "void apply_move(const Node& p, int m, Node& c)");
  g.out.line("int a, b;");
  g.out.line("apply_state(p, m, c, a, b);");
  // With pattern databases the spec's heuristic is kept apart (hs), so that its
  // incremental form still starts from the parent's value.
  const bool db = s.path.databases.on;
  const std::string base = db ? "hs" : "h";
  if (s.path.position_term)
    g.out.line("c." + base + " = p." + base +
               " - position_term(p, a) - position_term(p, b) + position_term(c, a) + position_term(c, b);");
  else
    g.out.line("c." + base + " = heuristic(c);");
  if (db) g.out.line("c.h = pj::max(c.hs, pdb_heuristic(c));");
  close_function(g);
}

// Bits per value of a permutation of 0..size-1.
int value_bits(int size) {
  int b = 1;
  while ((1 << b) < size) ++b;
  return b;
}
}  // namespace

void emit_path_node(GenContext& g) {
  const ProblemSpec& s = g.spec;
  PJ_INTERNAL_ASSERT(s.size <= 255, "a path problem's values fit a byte");
  const int bits = value_bits(s.size);
  g.out.line("constexpr int kMoves = " + std::to_string(s.path.moves.size()) + ";");
  g.out.line(std::string("constexpr bool kIncrementalHeuristic = ") + (s.path.position_term ? "true" : "false") + ";");
  g.out.line("");
  g.out.line("// A node of the search: a whole permutation, the state, and the heuristic of both.");
  g.out.line("struct Node {");
  g.out.indent();
  for (const auto& v : s.state)
    g.out.line(ExprEmitter::cxx_type(v.type) + " " + ExprEmitter::state_name(v.name) + ";  // state '" + v.name +
               "', line " + std::to_string(v.loc.line));
  if (s.path.databases.on) {
    g.out.line("int h;   // the larger of hs and the pattern databases' estimate");
    g.out.line("int hs;  // heuristic(*this), the spec's [heuristic]");
  } else {
    g.out.line("int h;  // heuristic(*this)");
  }
  if (s.size * bits <= 64)
    g.out.line("pj::PackedPerm<kSize, " + std::to_string(bits) + "> perm;  // the value at each position, " +
               std::to_string(bits) + " bits each");
  else
    g.out.line("pj::BytePerm<kSize> perm;  // the value at each position");
  g.out.dedent();
  g.out.line("};");
  g.out.line("");
  // Field by field: a node's bytes may hold padding, which no two copies need agree on.
  g.out.line("// The same board and state (h follows from them).");
  g.out.line("PJ_HD bool same_node(const Node& a, const Node& b) {");
  g.out.indent();
  std::string same = "a.perm == b.perm";
  for (const auto& v : s.state) {
    const std::string f = ExprEmitter::state_name(v.name);
    same += " && a." + f + " == b." + f;
  }
  g.out.line("return " + same + ";");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

void emit_path_search(GenContext& g) {
  emit_heuristic(g);
  emit_pattern_databases(g);
  emit_goal_and_root(g);
  emit_move_tables(g);
  emit_applicable(g);
  emit_apply(g);
}

}  // namespace permjit
