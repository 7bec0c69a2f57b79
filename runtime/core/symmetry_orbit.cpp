#include "runtime/core/symmetry_orbit.hpp"

#include "dsl/symmetry_group.hpp"

namespace permjit {

SymmetryExpansion symmetry_expansion(const ProblemSpec& spec) {
  if (spec.symmetry_group) {
    std::vector<int> group = spec.symmetry_group->elements;
    return [group](std::span<const int> p) { return border_orbit(group, p); };
  }
  if (spec.symmetry) {
    // The value map acts at the first position below the fixed prefix: a value there
    // that is not its own mirror was counted twice (generator/emit_symmetry.cpp).
    std::vector<int> map = spec.symmetry->map;
    const size_t first = spec.fixed_prefix.size();
    return [map, first](std::span<const int> p) {
      std::vector<std::vector<int>> out{std::vector<int>(p.begin(), p.end())};
      if (first < p.size() && map[static_cast<size_t>(p[first])] != p[first]) {
        std::vector<int> mirror;
        for (int x : p) mirror.push_back(map[static_cast<size_t>(x)]);
        out.push_back(std::move(mirror));
      }
      return out;
    };
  }
  return {};
}

}  // namespace permjit
