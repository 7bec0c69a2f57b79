#include "generator/generate.hpp"

#include <cstdlib>

#include "dsl/diagnostics.hpp"
#include "dsl/run_time_data.hpp"
#include "generator/emit_parts.hpp"
#include "generator/state_liveness.hpp"

namespace permjit {

namespace {
// The unroll budget and the size from which functions are called rather than inlined
// (generator/code_writer.hpp): the defaults, or environment variables for measuring
// others (they change the source, so the cache key).
int64_t tuning(const char* variable, int64_t fallback) {
  const char* env = std::getenv(variable);
  if (!env || !*env) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(env, &end, 10);
  return end && *end == '\0' && v >= 0 ? v : fallback;
}

// Unrolling a loop over instance data lets the compiler fold the values it reads into
// immediates; with the data read at run time it saves only the loop's own instructions
// and costs NVRTC time for every copy of the body. Flowshop's defaults on ta022 (H100,
// ivm, run-time data): budget 8192 compiled in 4.6 s and searched in 0.39 s, budget 256
// in 2.8 s and 0.30 s (the refinement's machine loop rolled: a smaller kernel), budget 0
// in 1.3 s and 0.50 s. Loops that index the node's registers unroll whatever the budget.
int64_t unroll_budget_for(const ProblemSpec& spec) {
  for (const std::string& name : instance_arrays(spec))
    if (spec.symbols.at(name).run_time_range) return CodeWriter::kRunTimeDataUnrollBudget;
  return CodeWriter::kDefaultUnrollBudget;
}
}  // namespace

// The generator reads top to bottom: each step writes one part of the source. The
// order is C++'s: a part may call only what stands above it, and root() places the
// fixed prefix with place(), so emit_root comes after emit_place. emit_node_weight
// reports what the node code above it calls, so it comes after all of it.
ProblemSource generate_problem(const ProblemSpec& spec) {
  PJ_INTERNAL_ASSERT(spec.size > 0, "generate_problem needs a spec whose size is known");
  PJ_INTERNAL_ASSERT(!spec.data_auto, "generate_problem needs the data mode settled (settle_data)");
  GenContext g(spec, spec.name + ".problem.inc");
  g.out.set_unroll_budget(tuning("PERMJIT_UNROLL_BUDGET", unroll_budget_for(spec)));
  g.out.set_heavy_from(tuning("PERMJIT_HEAVY_FROM", CodeWriter::kDefaultHeavyFrom));
  g.live = live_symbols(spec);
  g.width = int_width(spec);
  emit_header(g);
  emit_constants(g);
  emit_data(g);
  if (spec.goal == Goal::path) {
    emit_path_node(g);
    emit_path_search(g);
  } else {
    emit_symmetry(g);  // before the node: candidates() and place() read its constants
    emit_node(g);
    emit_stack_node(g);
    emit_candidates(g);
    emit_place(g);
    emit_root(g);
    emit_leaf_weight(g);
    emit_evaluation(g);
    emit_child_bound(g);  // child_bound() falls back on bound()
  }
  emit_node_weight(g);
  emit_footer(g);
  // A placement problem's staged bound (bound() and refine() combined) is spec-independent.
  std::vector<std::string> after;
  if (spec.goal != Goal::path) after.push_back("staged_bound.h");
  // A symmetry group's border test is spec-independent, over the tables the text defines.
  std::vector<std::string> before;
  if (spec.symmetry_group && spec.goal != Goal::path) before.push_back("symmetry_border.h");
  ProblemSource source{g.out.generated_name(), g.out.text(), std::move(after), g.width, std::move(g.data),
                       g.out.unrolled_run_time_reads(), g.out.index_sites()};
  source.headers = std::move(before);
  return source;
}

// The second entry point: the IVM layout, which the ivm skeleton's unit places after
// the problem source (it names problem::Node and problem::Mask).
ProblemSource generate_ivm_layout(const ProblemSpec& spec) {
  PJ_INTERNAL_ASSERT(spec.size > 0, "the IVM layout needs a spec whose size is known");
  GenContext g(spec, spec.name + ".ivm.inc");
  emit_ivm_layout(g);
  return ProblemSource{g.out.generated_name(), g.out.text(), {}};
}

}  // namespace permjit
