// A declared value symmetry ([symmetry], docs/spec-language.md "Symmetry") in the
// problem source. The first searched level keeps one value of each mirrored pair (the
// smaller, or a value that is its own mirror): candidates() narrows it there, so every
// skeleton searches the same smaller tree. Each node carries the weight of its leaves:
// 2 below a value whose mirror was left out (each of its solutions stands for its
// mirror image too), 1 below a value that is its own mirror; leaf_weight() tells the
// skeletons how many solutions a leaf counts for. Without a symmetry the weight is the
// constant 1 and the generated code is what it was.
#include <string>

#include "generator/emit_parts.hpp"

namespace permjit {

namespace {
std::string mask_literal(unsigned long long m) { return "Mask(" + std::to_string(m) + "ull)"; }
}  // namespace

void emit_symmetry(GenContext& g) {
  const ProblemSpec& s = g.spec;
  if (!s.symmetry) {
    g.out.line("constexpr bool kSymmetry = false;  // no [symmetry]: every value is searched at every level");
    g.out.line("");
    return;
  }
  const std::vector<int>& map = s.symmetry->map;
  unsigned long long root_free = s.size == 64 ? ~0ull : (1ull << s.size) - 1, representatives = 0, self = 0;
  for (int64_t x : s.fixed_prefix) root_free &= ~(1ull << x);
  std::string table;
  for (int v = 0; v < s.size; ++v) {
    if (v <= map[static_cast<size_t>(v)]) representatives |= 1ull << v;
    if (v == map[static_cast<size_t>(v)]) self |= 1ull << v;
    table += (v ? ", " : "") + std::to_string(map[static_cast<size_t>(v)]);
  }
  g.out.line("// [symmetry], line " + std::to_string(s.symmetry->loc.line) +
             ": the problem is the same under v -> mirror(v).");
  g.out.line("// mirror(v) for v = 0, 1, ...: " + table);
  g.out.line("constexpr bool kSymmetry = true;");
  g.out.line("constexpr Mask kRootFree = " + mask_literal(root_free) + ";  // free at the first searched level");
  g.out.line("constexpr Mask kRepresentatives = " + mask_literal(representatives) + ";  // v <= mirror(v): searched there");
  g.out.line("constexpr Mask kSelfMirrored = " + mask_literal(self) + ";  // v == mirror(v): weight 1");
  g.out.line("");
}

void emit_leaf_weight(GenContext& g) {
  g.out.line("// The solutions a leaf counts for: itself, and its mirror image when the first level");
  g.out.line("// left that out ([symmetry]).");
  if (g.spec.symmetry) {
    g.out.line("PJ_HD int leaf_weight(const Node& s) { return s.weight; }");
  } else {
    g.out.line("PJ_HD constexpr int leaf_weight(const Node&) { return 1; }");
  }
  g.out.line("");
  // A counted leaf needs nothing of its own state: it counts leaf_weight(), which place()
  // sets from the parent alone. So the leaves below a node with one value left can be
  // counted from its candidate set, without placing them (the kernels' last level).
  g.out.line("// The solutions that the children `leaves` of s count for when they are leaves: the sum");
  g.out.line("// of leaf_weight(place(s, v)) over v in leaves, without placing them.");
  if (g.spec.symmetry) {
    g.out.line("PJ_HD unsigned long long leaf_children_weight(const Node& s, Mask leaves) {");
    g.out.line("  const unsigned long long n = pj::popcount(leaves);");
    g.out.line("  // As place() weighs a child: at the first searched level by its value, below by s.");
    g.out.line("  return pj::select<unsigned long long>(s.free == kRootFree, 2 * n - pj::popcount(leaves & kSelfMirrored),");
    g.out.line("                                        n * static_cast<unsigned long long>(s.weight));");
    g.out.line("}");
  } else {
    g.out.line("PJ_HD unsigned long long leaf_children_weight(const Node&, Mask leaves) { return pj::popcount(leaves); }");
  }
  g.out.line("// leaf_children_weight(s, leaves) of a node s that is not the root (a node place() made).");
  if (g.spec.symmetry) {
    g.out.line("PJ_HD unsigned long long leaf_children_weight_below_root(const Node& s, Mask leaves) {");
    g.out.line("  return pj::popcount(leaves) * static_cast<unsigned long long>(s.weight);");
    g.out.line("}");
  } else {
    g.out.line("PJ_HD unsigned long long leaf_children_weight_below_root(const Node&, Mask leaves) { return pj::popcount(leaves); }");
  }
  g.out.line("");
}

}  // namespace permjit
