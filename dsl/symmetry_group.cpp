#include "dsl/symmetry_group.hpp"

#include <algorithm>
#include <set>

namespace permjit {

std::vector<int> apply_symmetry(int code, std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::vector<int> a(p.begin(), p.end()), b(a.size());
  if (code & kInvert) {
    for (int i = 0; i < n; ++i) b[static_cast<size_t>(a[static_cast<size_t>(i)])] = i;
    a = b;
  }
  if (code & kReversePositions) std::reverse(a.begin(), a.end());
  if (code & kReflectValues)
    for (int& x : a) x = n - 1 - x;
  return a;
}

namespace {
// A permutation that no element other than the identity fixes, and on which the eight
// act differently: an element is known by its image of it.
const std::vector<int>& witness() {
  static const std::vector<int> w{1, 3, 0, 4, 2, 6, 5};  // no symmetry of the square fixes it
  return w;
}
int code_of(const std::vector<int>& image) {
  for (int c = 0; c < 8; ++c)
    if (apply_symmetry(c, witness()) == image) return c;
  return -1;  // unreachable: the eight codes are the whole group
}
}  // namespace

std::vector<int> symmetry_closure(std::span<const int> generators) {
  std::set<int> seen{0};
  std::vector<int> todo{0};
  while (!todo.empty()) {
    const int e = todo.back();
    todo.pop_back();
    for (int gen : generators) {
      const int c = code_of(apply_symmetry(gen, apply_symmetry(e, witness())));
      if (seen.insert(c).second) todo.push_back(c);
    }
  }
  return {seen.begin(), seen.end()};
}

std::array<int, 4> permutation_border(std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::array<int, 4> b{p[0], 0, 0, p[static_cast<size_t>(n - 1)]};
  for (int i = 0; i < n; ++i) {
    if (p[static_cast<size_t>(i)] == 0) b[1] = i;
    if (p[static_cast<size_t>(i)] == n - 1) b[2] = i;
  }
  return b;
}

BorderMap border_map(int code) {
  // A permutation of 11 whose border (1, 2, 3, 4) and its reflection (9, 8, 7, 6) are
  // eight different numbers: each number of the image's border names its source.
  const std::vector<int> p{1, 5, 0, 10, 6, 7, 8, 9, 2, 3, 4};
  const std::array<int, 4> b = permutation_border(p), image = permutation_border(apply_symmetry(code, p));
  BorderMap m;
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) {
      if (image[static_cast<size_t>(j)] == b[static_cast<size_t>(k)]) m.source[static_cast<size_t>(j)] = k;
      if (image[static_cast<size_t>(j)] == 10 - b[static_cast<size_t>(k)]) {
        m.source[static_cast<size_t>(j)] = k;
        m.reflected[static_cast<size_t>(j)] = true;
      }
    }
  return m;
}

std::vector<std::vector<int>> border_orbit(std::span<const int> group, std::span<const int> p) {
  std::vector<std::vector<int>> out;
  std::set<std::array<int, 4>> borders;
  for (int g : group) {  // the identity first
    std::vector<int> q = apply_symmetry(g, p);
    if (borders.insert(permutation_border(q)).second) out.push_back(std::move(q));
  }
  return out;
}

}  // namespace permjit
