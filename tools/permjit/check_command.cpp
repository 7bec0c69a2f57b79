// `permjit check`: the spec and instance loaded and checked, the source generated when
// every size is known, and with --verify-bound the bound compared with brute force.
#include <iostream>

#include "dsl/diagnostics.hpp"
#include "generator/choose_data.hpp"
#include "generator/generate.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/verify_symmetry.hpp"
#include "tools/permjit/commands.hpp"

namespace permjit {

int check_command(CheckOptions opts) {
  if (opts.verify.samples < 1)
    command_line_error("--samples " + std::to_string(opts.verify.samples), 11, "--samples takes a count from 1");
  opts.load.need_instance = !opts.load.instance_path.empty();
  ProblemSpec spec = load_spec(opts.load);
  settle_data(spec, DataTarget::host);  // what is checked does not depend on it
  preferred_gpu_skeleton(spec);         // a name the registry does not know, at its place
  // With every size known, generating the source checks what only the generator can
  // (e.g. that each range has bounded limits).
  if (spec.size > 0) generate_problem(spec);
  std::string ok = opts.load.spec_path + ": ok (" + spec.name + ", " + goal_name(spec.goal);
  if (spec.size) ok += ", size " + std::to_string(spec.size);
  ok += ")\n";
  ok += describe_pattern_databases(spec.path.databases, spec.size);
  if (opts.verify_symmetry) {
    if (!spec.has_symmetry())
      command_line_error("--verify-symmetry", 1,
                         opts.load.ignore_symmetry ? "--verify-symmetry compares with and without [symmetry]: drop "
                                                     "--no-symmetry"
                                                   : "'" + opts.load.spec_path + "' declares no [symmetry] to verify");
    if (spec.size == 0)
      command_line_error("--verify-symmetry", 1, "--verify-symmetry solves the spec: it needs the instance",
                         "add --instance FILE (a small one)");
    const SymmetryReport r = verify_symmetry(opts.load);
    if (!r.agrees) wrong_symmetry_error(spec, r);
    std::cout << ok << format_symmetry_report(r);
    if (!opts.verify_bound) return 0;
  }
  if (!opts.verify_bound || counts_leaves(spec.goal) || spec.goal == Goal::path)
    if (!opts.verify_symmetry) std::cout << ok;
  if (!opts.verify_bound) return 0;
  if (counts_leaves(spec.goal)) {
    std::cout << "bound: none to verify (the spec counts its solutions; nothing is pruned)\n";
    return 0;
  }
  if (spec.goal == Goal::path) {
    std::cout << "bound: --verify-bound checks the bound of a placement problem; a path problem's "
                 "heuristic is not checked\n";
    return 0;
  }
  if (spec.size == 0)
    command_line_error("--verify-bound", 1, "--verify-bound needs the instance: it searches below nodes by brute force",
                       "add --instance FILE (a small one does: nodes are sampled at depth size-8)");
  BoundReport r = verify_bound(spec, opts.verify);
  // Not `ok` when the bound is wrong: the spec is not.
  if (r.bad) invalid_bound_error(spec, r);
  std::cout << (opts.verify_symmetry ? "" : ok) << format_bound_report(r);
  return 0;
}

}  // namespace permjit
