#include "runtime/core/symmetry_orbit.hpp"

#include "dsl/symmetry_group.hpp"

namespace permjit {

SymmetryExpansion symmetry_expansion(const ProblemSpec& spec) {
  if (spec.symmetry_group) {
    std::vector<int> group = spec.symmetry_group->elements;
    return [group](std::span<const int> p) { return border_orbit(group, p); };
  }
  if (spec.narrows_positions()) {
    // The search kept the permutations whose value at position 0 is the least of the
    // orbit's (generator/emit_symmetry.cpp); each stands for one image per member x of
    // the orbit, p after an automorphism that takes x to 0, whose least is at x.
    std::vector<std::vector<int>> to_first = spec.position_symmetry->to_first;
    return [to_first](std::span<const int> p) {
      std::vector<std::vector<int>> out{std::vector<int>(p.begin(), p.end())};
      for (size_t k = 1; k < to_first.size(); ++k) {
        std::vector<int> image(p.size());
        for (size_t i = 0; i < p.size(); ++i) image[i] = p[static_cast<size_t>(to_first[k][i])];
        out.push_back(std::move(image));
      }
      return out;
    };
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
