// The IVM layout of a problem (Carneiro Pessoa et al. 2016 §3.1), what the spec decides
// of it: the number of levels below the fixed prefix and the narrowest integer type
// that holds a value, a digit and the depth. It follows the problem source in the `ivm`
// skeleton's translation unit; the rows and explorers built on it (I, V, M) are the
// same for every spec and live in templates/ivm_explorer.h.
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
  out.line("// Generated; do not edit. The rows and explorers built on it are templates/ivm_explorer.h's.");
  out.line("namespace pj_ivm::layout {");
  out.line("");
  out.line("constexpr int kLevels = " + L + ";  // problem::kSize - problem::kPrefixLength");
  out.line("// Values (< " + std::to_string(spec.size) + "), factoradic digits (< " + L + ") and the depth I (< " + L +
           ") fit this type.");
  out.line("using Digit = " + narrowest_unsigned(std::max(spec.size, levels)) + ";");
  out.line("");
  out.line("}  // namespace pj_ivm::layout");
}

}  // namespace permjit
