// The search side of a problem source: the functions a skeleton calls at each node.
#include "dsl/diagnostics.hpp"
#include "generator/assign_start.hpp"
#include "generator/emit_expr.hpp"
#include "generator/emit_parts.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

namespace {
// Writes `return <e>;` for a node-level value of `s` (its prelude first).
void emit_return(GenContext& g, const Block& prelude, const Expr& e, const NodeNames& names) {
  ExprEmitter x(g.spec, g.out, names, g.local_ids, g.width.wide);
  g.out.user_place(e.loc);
  std::string v = x.emit_value(prelude, e);
  g.out.line("return " + v + ";");
  g.out.generated_place();
}
}  // namespace

namespace {
// `name(s)`: the free values narrowed by the spec's candidates and filter, and at the
// root by the [symmetry] when `root_symmetry`.
void emit_candidates_function(GenContext& g, const std::string& name, bool root_symmetry) {
  const Branch& b = g.spec.branch;
  g.out.line("PJ_HD Mask " + name + "(const Node& s) {");
  g.out.indent();
  g.out.line("Mask m = s.free;");
  NodeNames names{"s.", "s.", 0, g.spec.size - 1};  // the parent: never a leaf
  if (b.candidates) {
    ExprEmitter x(g.spec, g.out, names, g.local_ids, g.width.wide);
    g.out.user_place(b.candidates->loc);
    std::string c = x.emit_value(b.candidates_prelude, *b.candidates);
    g.out.line("m &= " + c + ";");
    g.out.generated_place();
  }
  if (b.filter) {
    // One bit per value; every value is tested, so the loop has a constant trip count.
    g.out.line("Mask allowed = 0;");
    g.out.open_loop(g.spec.size);
    g.out.line("for (int v = 0; v < kSize; ++v) {");
    g.out.indent();
    ExprEmitter x(g.spec, g.out, names, g.local_ids, g.width.wide);
    g.out.user_place(b.filter->loc);
    std::string f = x.emit_value(b.filter_prelude, *b.filter);
    g.out.line("allowed |= Mask(" + f + ") << v;");
    g.out.generated_place();
    g.out.dedent();
    g.out.line("}");
    g.out.close_loop();
    g.out.line("m &= allowed;");
  }
  if (root_symmetry && g.spec.symmetry)
    g.out.line("m &= pj::select<Mask>(s.free == kRootFree, kRepresentatives, kAll);  // [symmetry]");
  // The first position's orbit: its later members take values above the first's (at the
  // root the depth is 0, never one of them, and `first` is not set yet).
  if (g.spec.narrows_positions())
    g.out.line("m &= pj::select<Mask>(pj::test(kOrbitLater, kSize - pj::popcount(s.free)), ~((Mask(2) << s.first) - "
               "Mask(1)), kAll);  // [symmetry] position_automorphisms");
  // A group's test applies at every level; below the root it needs no test for the root.
  if (g.spec.symmetry_group)
    g.out.line(root_symmetry ? "m = border_candidates(s, m);  // [symmetry] generators"
                             : "m = border_candidates_below_root(s, m);  // [symmetry] generators");
  g.out.line("return m;");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}
}  // namespace

void emit_candidates(GenContext& g) {
  g.out.line("// The values a node may place next: free values, narrowed by the spec.");
  const bool root_test = g.spec.symmetry.has_value() || g.spec.symmetry_group.has_value();
  emit_candidates_function(g, "candidates", root_test);
  // The symmetry narrows the root's candidates only (a group's, differently from the
  // levels below): a loop that asks for a child's candidates (a node place() made) needs
  // no test for the root.
  g.out.line("// candidates(s) of a node that is not the root (any node place() made).");
  if (root_test) {
    emit_candidates_function(g, "candidates_below_root", false);
  } else {
    g.out.line("PJ_HD Mask candidates_below_root(const Node& s) { return candidates(s); }");
    g.out.line("");
  }
}

namespace {
// `name(p, v, c)`: the child of p with v placed by `how`, at the position `where` says.
// below_root: p is not the search's root (a node place() made), so what place() sets
// differently for the root's children is taken from p.
//
// name(p, v, vb, c) with vb = bit(v), which the spec's bit(v) and test(s, v) read (a
// loop that takes v as the lowest value of a set has the bit without the index: N-Queens
// then needs no index at all), and, except below_root (the ivm explorer's only), the
// overload name(p, v, c) that computes the bit.
void emit_placement(GenContext& g, const char* name, const Placement& how, const std::string& where,
                    bool below_root = false) {
  g.out.line("// The child of p that places value v (vb: bit(v)) at " + where + (below_root ? ", p not the root." : "."));
  g.out.line(std::string("PJ_HD void ") + name + "(const Node& p, int v, Mask vb, Node& c) {");
  g.out.indent();
  g.out.line("(void)v;");
  g.out.line("c = p;");
  if (how.is_block) {
    // Sequential: each statement sees the assignments before it.
    ExprEmitter x(g.spec, g.out, NodeNames{"p.", "c.", 0, g.spec.size - 1}, g.local_ids, g.width.wide);
    x.skip_dead(&g.live);
    x.placed_value_bit("vb");
    x.emit_block(how.block, "c.");
    g.out.generated_place();
  } else {
    // Simultaneous: every right-hand side reads the parent.
    ExprEmitter x(g.spec, g.out, NodeNames{"p.", "p.", 0, g.spec.size - 1}, g.local_ids, g.width.wide);
    x.placed_value_bit("vb");
    for (const auto& [var, e] : how.simultaneous) {
      if (const StateVar* sv = g.spec.find_state(var); sv && !is_stored(g.live, g.spec, *sv)) continue;
      g.out.user_place(e->loc);
      std::string v = x.emit(*e);
      g.out.line("c." + ExprEmitter::state_name(var) + " = " + v + ";");
    }
    g.out.generated_place();
  }
  g.out.line("c.free = p.free & ~vb;");
  if (g.spec.used_builtins.count(Builtin::d)) g.out.line("c.d = p.d + 1;");
  // c = p already holds what below_root takes from p.
  if (g.spec.used_builtins.count(Builtin::first) && !below_root)
    g.out.line("c.first = pj::select<int>(p.free == kAll, v, p.first);  // the root has all values free");
  if (g.spec.used_builtins.count(Builtin::last)) g.out.line("c.last = v;");
  if (g.spec.symmetry && !below_root)  // leaf_children_weight() (generator/emit_symmetry.cpp) sums this rule
    g.out.line("c.weight = pj::select<int>(p.free == kRootFree, 2 - int((kSelfMirrored & vb) != 0), p.weight);");
  if (g.spec.symmetry_group && !below_root)
    g.out.line("c.border_p0 = pj::select<int>(p.free == kAll, v, p.border_p0);  // the root has all values free");
  if (g.spec.symmetry_group && !below_root)
    g.out.line("c.border_block = p.free == kAll ? kBorderBlocks[v] : p.border_block;");
  if (g.spec.symmetry_group) g.out.line("c.border = child_border(p, c.border_block, v, vb);");
  g.out.dedent();
  g.out.line("}");
  if (!below_root)
    g.out.line(std::string("PJ_HD void ") + name + "(const Node& p, int v, Node& c) { " + name +
               "(p, v, pj::bit<Mask>(v), c); }");
  g.out.line("");
}
}  // namespace

void emit_place(GenContext& g) {
  const Branch& b = g.spec.branch;
  if (b.ends == 1) {
    emit_placement(g, "place", b.place, "the next position");
  } else {
    emit_placement(g, "place", b.place, "the front: the first free position from the left");
    emit_placement(g, "place_back", b.place_back, "the back: the first free position from the right");
  }
  // place() of a node that is not the root: without the root's tests where place() has
  // some (the first value, the symmetry's weight), which a loop that places below the
  // root (the ivm explorer) would otherwise run for every child.
  const bool root_differs = g.spec.used_builtins.count(Builtin::first) || g.spec.symmetry || g.spec.symmetry_group;
  g.out.line(std::string("constexpr bool kRootPlaceDiffers = ") + (root_differs ? "true" : "false") +
             ";  // place_below_root() is not place()");
  if (root_differs) {
    emit_placement(g, "place_below_root", b.place, "the front (the next position with one end)", true);
  } else {
    g.out.line("// place() of a node p that is not the root (place() has no test for the root).");
    g.out.line("PJ_HD void place_below_root(const Node& p, int v, Mask vb, Node& c) { place(p, v, vb, c); }");
    g.out.line("");
  }
  // One entry for skeletons that place at either end (the same code for one end or two).
  g.out.line("// The child c of p with v at `end` (0: the front, 1: the back; one end: the front).");
  g.out.line("PJ_HD void place_at(const Node& p, int v, int end, Node& c) {");
  g.out.indent();
  if (b.ends == 1) {
    g.out.line("(void)end;");
    g.out.line("place(p, v, c);");
  } else {
    g.out.line("if (end) place_back(p, v, c);");
    g.out.line("else place(p, v, c);");
  }
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

void emit_root(GenContext& g) {
  const ProblemSpec& s = g.spec;
  g.out.line("// The root: initial state, then the fixed prefix placed in order.");
  g.out.line("PJ_HD void root(Node& s) {");
  g.out.indent();
  g.out.line("s.free = kAll;");
  if (s.used_builtins.count(Builtin::d)) g.out.line("s.d = 0;");
  if (s.used_builtins.count(Builtin::first)) g.out.line("s.first = 0;");
  if (s.used_builtins.count(Builtin::last)) g.out.line("s.last = 0;");
  if (s.symmetry) g.out.line("s.weight = 1;");
  if (s.symmetry_group) {
    g.out.line("s.border = 0;  // neither 0 nor n-1 placed");
    g.out.line("s.border_p0 = 0;");
    g.out.line("s.border_block = 0;");
  }
  ExprEmitter x(s, g.out, NodeNames{"s.", "s.", 0, 0}, g.local_ids, g.width.wide);
  for (const auto& v : s.state) {
    if (!is_stored(g.live, s, v)) continue;
    std::string init = "0";
    if (v.init) {
      g.out.user_place(v.init->loc);
      init = x.emit(*v.init);
    }
    std::string target = "s." + ExprEmitter::state_name(v.name);
    if (v.dims.empty()) {
      g.out.line(target + " = " + init + ";");
    } else {
      // Every element gets the init value.
      std::string idx;
      for (size_t k = 0; k < v.dims.size(); ++k) {
        std::string i = "i" + std::to_string(k);
        g.out.line("for (int " + i + " = 0; " + i + " < " + std::to_string(v.dims[k]) + "; ++" + i + ")");
        idx += "[" + i + "]";
      }
      g.out.line("  " + target + idx + " = " + init + ";");
    }
    g.out.generated_place();
  }
  for (int64_t p : s.fixed_prefix) g.out.line("{ Node t; place(s, " + std::to_string(p) + ", t); s = t; }");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
  g.out.line("// The values of the fixed prefix, position by position.");
  g.out.line("PJ_HD void prefix_values(int* perm) {");
  g.out.indent();
  if (s.fixed_prefix.empty()) g.out.line("(void)perm;");
  for (size_t i = 0; i < s.fixed_prefix.size(); ++i)
    g.out.line("perm[" + std::to_string(i) + "] = " + std::to_string(s.fixed_prefix[i]) + ";");
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
}

namespace {
// `PJ_HD int name(const Node& s)` returning `e`, or 0 when the spec has none (count).
void emit_int_function(GenContext& g, const char* comment, const char* name, const Expr* e, const Block& prelude,
                       const NodeNames& names) {
  g.out.line(std::string("// ") + comment);
  g.out.open_function();
  g.out.line("PJ_HD " + ExprEmitter::cxx_type(Type::int_, g.width.wide) + " " + name + "(const Node& s) {");
  g.out.indent();
  if (e) emit_return(g, prelude, *e, names);
  else g.out.line(std::string("(void)s; return 0;  // count: no ") + name);
  g.out.dedent();
  g.out.line("}");
  g.out.close_function();
  g.out.line("");
}
}  // namespace

namespace {
// refine_block<kUnused>(s, bound, scratch): refine(s, bound) computed by every thread of a
// CUDA block together, where refine holds a dualassign() (its O(m^5) rounds spread over
// the threads, its tables in `scratch`, the block's global memory: ExprEmitter's block
// mode). The `offload` skeleton bounds its children's second stage with it
// (templates/gpu_offload.cuh); kBlockScratchBytes is what one block's scratch takes.
// Device code only, and a template so that only a kernel that calls it compiles it.
// Not where refine's assign() starts from its parent's (kAssignStart): the offload
// skeleton keeps no start.
void emit_refine_block(GenContext& g, bool started) {
  const Branch& b = g.spec.branch;
  int64_t bytes = 0;
  if (b.stages == 2 && !started && has_dual_assign(b)) {
    const std::string t = ExprEmitter::cxx_type(Type::int_, g.width.wide);
    ExprEmitter x(g.spec, g.out, NodeNames{"s.", "s.", 1, g.spec.size - 1}, g.local_ids, g.width.wide);
    x.block_scratch("scratch");
    const std::string bound = x.name_of_local(b.refine_bound);
    g.out.line("#if defined(__CUDACC__)");
    g.out.line("// refine(s, bound) computed by every thread of a block together (the same value).");
    g.out.line("template <int kUnused>");
    g.out.line("__device__ " + t + " refine_block(const Node& s, " + t + " " + bound + ", char* scratch) {");
    g.out.indent();
    g.out.user_place(b.refine->loc);
    g.out.open_called_function();
    std::string v = x.emit_value(b.refine_prelude, *b.refine);
    g.out.close_called_function();
    g.out.line("return " + v + ";");
    g.out.generated_place();
    g.out.dedent();
    g.out.line("}");
    g.out.line("#endif");
    bytes = x.block_scratch_bytes();
    PJ_INTERNAL_ASSERT(bytes > 0, "refine_block holds a dualassign() but took no scratch");
  }
  if (bytes == 0) {
    // Declared, never defined: templates/gpu_offload.cuh names it in a branch that is then
    // never compiled (a name it looks up must exist where the template is defined).
    const std::string t = ExprEmitter::cxx_type(Type::int_, g.width.wide);
    g.out.line("#if defined(__CUDACC__)");
    g.out.line("template <int kUnused>");
    g.out.line("__device__ " + t + " refine_block(const Node& s, " + t + " bound, char* scratch);");
    g.out.line("#endif");
  }
  g.out.line("// Whether refine_block exists (refine holds a dualassign()), and its scratch per block.");
  g.out.line(std::string("constexpr bool kBlockRefine = ") + (bytes > 0 ? "true" : "false") + ";");
  g.out.line("constexpr unsigned long long kBlockScratchBytes = " + std::to_string(bytes) + "ull;");
  g.out.line("");
}

// refine(s, bound): the second stage of the bound, and staged_bound(s, best), what the
// skeletons compare with their incumbent (docs/spec-language.md, "Staged bounds").
// With two stages refine is __noinline__ on the device (PJ_HEAVY): one call, under the
// branch on the cheap bound, instead of its body inlined beside the cheap bound's.
//
// Where refine holds an assign() (generator/assign_start.hpp), its body is a template,
// refine_from<kStarted>: with kStarted the assign starts from a parent's AssignStart and
// leaves the node's, and refine(s, bound) is refine_from<false>, so a skeleton that keeps
// no AssignStart compiles the plain solver only. refined_bound and staged_bound_from,
// the same for every spec, are templates/staged_bound.h's, which follows this source
// (ProblemSource::templates); they take the two pointers in every spec (an empty
// AssignStart where there is nothing to keep), so that skeletons are written once.
void emit_refine(GenContext& g) {
  const Branch& b = g.spec.branch;
  const std::string t = ExprEmitter::cxx_type(Type::int_, g.width.wide);
  const Expr* started = started_assign(b);
  if (started) {
    g.out.line("// What refine()'s assign() hands to a child's: the columns' potentials and the matching");
    g.out.line("// (templates/pair_reductions.h, assign_min_from). A skeleton keeps one per node on its path.");
    g.out.line("using AssignStart = pj::AssignStart<" + t + ", kSize>;");
    g.out.line("constexpr bool kAssignStart = true;");
  } else {
    g.out.line("struct AssignStart {};  // refine() solves no assign(): nothing for a child to start from");
    g.out.line("constexpr bool kAssignStart = false;");
  }
  g.out.line("");
  if (b.stages == 2) {
    g.out.line("// The second stage of the bound, on a child s whose bound() (the argument) does not prune it.");
    ExprEmitter x(g.spec, g.out, NodeNames{"s.", "s.", 1, g.spec.size - 1}, g.local_ids, g.width.wide);
    const std::string bound = x.name_of_local(b.refine_bound);
    if (started) {
      g.out.line("// kStarted: its assign() starts from `from` (a parent's; null: none) and leaves the node's");
      g.out.line("// in `to` (null: not kept).");
      g.out.line("template <bool kStarted>");
      g.out.line("PJ_HEAVY " + t + " refine_from(const Node& s, " + t + " " + bound +
                 ", const AssignStart* from, AssignStart* to) {");
      g.out.indent();
      g.out.line("(void)from;");
      g.out.line("(void)to;");
      x.start_assign(started, "from", "to");
    } else {
      g.out.line("PJ_HEAVY " + t + " refine(const Node& s, " + t + " " + bound + ") {");
      g.out.indent();
    }
    g.out.user_place(b.refine->loc);
    g.out.open_called_function();  // its loops may roll (generator/code_writer.hpp)
    std::string v = x.emit_value(b.refine_prelude, *b.refine);
    g.out.close_called_function();
    g.out.line("return " + v + ";");
    g.out.generated_place();
    if (started) {
      g.out.dedent();
      g.out.line("}");
      g.out.line("PJ_HD " + t + " refine(const Node& s, " + t + " bound) {");
      g.out.indent();
      g.out.line("return refine_from<false>(s, bound, nullptr, nullptr);");
    }
  } else {
    g.out.line("// One stage (branch.stages = 1): bound() is final.");
    g.out.line("PJ_HD " + t + " refine(const Node& s, " + t + " bound) {");
    g.out.indent();
    g.out.line("(void)s;");
    g.out.line("return bound;");
  }
  g.out.dedent();
  g.out.line("}");
  g.out.line("");
  emit_refine_block(g, started != nullptr);
}
}  // namespace

void emit_evaluation(GenContext& g) {
  const Branch& b = g.spec.branch;
  int n = g.spec.size;
  emit_int_function(g, "A lower bound (minimize) or upper bound (maximize) on every leaf below s.", "bound",
                    b.bound.get(), b.bound_prelude, NodeNames{"s.", "s.", 1, n - 1});  // a child that is not a leaf
  emit_refine(g);
  emit_int_function(g, "The objective of a complete permutation.", "objective", b.objective.get(),
                    b.objective_prelude, NodeNames{"s.", "s.", n, n});
}

}  // namespace permjit
