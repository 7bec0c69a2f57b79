#include "runtime/core/problem_order.hpp"

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {

void check_length(const std::vector<int>& order, size_t size) {
  PJ_INTERNAL_ASSERT(order.size() == size, "branch.positions holds " + std::to_string(order.size()) +
                                               " positions for a permutation of " + std::to_string(size));
}

std::vector<int> reorder(const std::vector<int>& order, std::span<const int> searched) {
  std::vector<int> out(searched.begin(), searched.end());
  check_length(order, searched.size());
  for (size_t d = 0; d < order.size(); ++d) out[static_cast<size_t>(order[d])] = searched[d];
  return out;
}

}  // namespace

std::vector<int> in_problem_order(const ProblemSpec& spec, std::span<const int> searched) {
  if (!spec.positions || searched.empty()) return std::vector<int>(searched.begin(), searched.end());
  return reorder(spec.positions->order, searched);
}

std::vector<int> in_search_order(const ProblemSpec& spec, std::span<const int> problem) {
  if (!spec.positions || problem.empty()) return std::vector<int>(problem.begin(), problem.end());
  const std::vector<int>& order = spec.positions->order;
  check_length(order, problem.size());
  std::vector<int> out(problem.size());
  for (size_t d = 0; d < order.size(); ++d) out[d] = problem[static_cast<size_t>(order[d])];
  return out;
}

SymmetryExpansion listed_expansion(const ProblemSpec& spec) {
  if (!spec.positions) return symmetry_expansion(spec);
  PJ_INTERNAL_ASSERT(!spec.symmetry && !spec.symmetry_group,
                     "branch.positions with a [symmetry] of the problem's positions passed the loader");
  // The automorphisms of the positions act in the search's order: the images first, then
  // each put in the problem's order.
  return [order = spec.positions->order, images = symmetry_expansion(spec)](std::span<const int> p) {
    std::vector<std::vector<int>> out = images ? images(p) : std::vector<std::vector<int>>{{p.begin(), p.end()}};
    for (std::vector<int>& q : out) q = reorder(order, q);
    return out;
  };
}

}  // namespace permjit
