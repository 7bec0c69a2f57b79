// The IVM layout of a problem (Carneiro Pessoa et al. 2016 §3.1): the integer I, the vector V and the
// triangular matrix M of one explorer, sized for the problem's levels below the fixed
// prefix, with the narrowest integer type that holds them. It follows the problem
// source in the `ivm` skeleton's translation unit (templates/gpu_ivm.cuh reads it).
#include "generator/generate.hpp"

#include <algorithm>
#include <string>

#include "dsl/diagnostics.hpp"
#include "generator/code_writer.hpp"
#include "generator/emit_parts.hpp"

namespace permjit {

namespace {
// The narrowest unsigned type that holds 0..n.
std::string narrowest_unsigned(int n) {
  if (n <= 0xff) return "unsigned char";
  if (n <= 0xffff) return "unsigned short";
  return "unsigned int";
}
}  // namespace

int ivm_levels(const ProblemSpec& spec) { return spec.size - static_cast<int>(spec.fixed_prefix.size()); }

void emit_ivm_layout(GenContext& g) {
  const ProblemSpec& spec = g.spec;
  CodeWriter& out = g.out;
  const int levels = ivm_levels(spec);
  PJ_INTERNAL_ASSERT(levels >= 1, "the IVM layout needs at least one level below the fixed prefix");
  const std::string L = std::to_string(levels);
  out.line("// permjit IVM layout: " + spec.name + ", " + L + " levels below the fixed prefix (Carneiro Pessoa et al. 2016 3.1).");
  out.line("// Generated; do not edit. Read by templates/gpu_ivm.cuh.");
  out.line("namespace pj_ivm::layout {");
  out.line("");
  out.line("constexpr int kLevels = " + L + ";  // problem::kSize - problem::kPrefixLength");
  out.line("// Values (< " + std::to_string(spec.size) + "), factoradic digits (< " + L + ") and the depth I (< " + L +
           ") fit this type.");
  out.line("using Digit = " + narrowest_unsigned(std::max(spec.size, levels)) + ";");
  out.line("");
  out.line("// Row l of an explorer while it runs: the node at level l (as a stack keeps it:");
  out.line("// problem::from_stack) and row l of M, the values still to try there, as a bitset");
  out.line("// (the row of the paper's triangular byte matrix holds the same set; a bitset makes");
  out.line("// the next value one find-first-set).");
  out.line("struct LevelFields {");
  out.line("  problem::StackNode node;");
  out.line("  problem::Mask rem;");
  out.line("};");
  out.line("// Aligned to the largest of 16 and 8 bytes that divides its size, so that a push or pop");
  out.line("// is vector accesses without padding: padding a 20-byte row to 32 took the rows of");
  out.line("// N-Queens 19 with its symmetry out of shared memory, and its search 2x slower.");
  out.line("constexpr unsigned long kLevelAlign = sizeof(LevelFields) % 16 == 0  ? 16");
  out.line("                                      : sizeof(LevelFields) % 8 == 0 ? 8");
  out.line("                                                                     : alignof(LevelFields);");
  out.line("struct alignas(kLevelAlign) Level : LevelFields {};");
  out.line("static_assert(sizeof(Level) == sizeof(LevelFields), \"a row without padding\");");
  out.line("");
  out.line("// The T explorers' IVMs between kernels, structure of arrays: entry l of explorer");
  out.line("// i is at [l * T + i], so a warp saving or restoring one entry is coalesced.");
  out.line("struct Explorers {");
  out.line("  Digit* I;          // [T]: the level of the deepest row");
  out.line("  Digit* V;          // [kLevels][T]: the value placed at each level of the current path");
  out.line("  problem::Mask* M;  // [kLevels][T]: row l, the values still to try at level l");
  out.line("  Digit* last;       // [kLevels][T]: the factoradic digits of the interval's last leaf");
  out.line("  unsigned long long* ends;  // [T]: two ends (templates/ivm_two_ends.h; unused with one end),");
  out.line("                            // bit l the end (1: back) of the node at level l of the path");
  out.line("  unsigned long long T;");
  out.line("};");
  out.line("constexpr int kExplorerBytes =");
  out.line("    1 + kLevels * (2 * int(sizeof(Digit)) + int(sizeof(problem::Mask))) + 8;");
  out.line("");
  out.line("}  // namespace pj_ivm::layout");
}

}  // namespace permjit
