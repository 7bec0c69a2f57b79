#include "generator/generate.hpp"

#include "dsl/diagnostics.hpp"
#include "generator/emit_parts.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

// The generator reads top to bottom: each step writes one part of the source.
ProblemSource generate_problem(const ProblemSpec& spec) {
  PJ_INTERNAL_ASSERT(spec.size > 0, "generate_problem needs a spec whose size is known");
  GenContext g(spec, spec.name + ".problem.inc");
  g.live = live_symbols(spec);
  g.width = int_width(spec);
  emit_header(g);
  emit_constants(g);
  emit_data(g);
  if (spec.goal == Goal::path) {
    emit_path_node(g);
    emit_path_search(g);
  } else {
    emit_node(g);
    emit_candidates(g);
    emit_place(g);
    emit_root(g);
    emit_evaluation(g);
  }
  emit_footer(g);
  return ProblemSource{g.out.generated_name(), g.out.text()};
}

}  // namespace permjit
