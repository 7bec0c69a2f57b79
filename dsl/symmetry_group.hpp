// The symmetries of a permutation's matrix that a spec may declare ([symmetry]
// generators, docs/spec-language.md "Symmetry groups"): reversing the positions
// (i -> n-1-i), reflecting the values (v -> n-1-v) and inverting the permutation (the
// transpose of its matrix). They generate a subgroup of the eight symmetries of the
// square. An element is a code of three bits: applied to p it inverts p (kInvert),
// then reverses its positions (kReversePositions), then reflects its values
// (kReflectValues); every one of the eight is exactly one code.
//
// The search counts by the permutation's border (generator/emit_symmetry.cpp): the
// four numbers b = (p[0], the position of value 0, the position of value n-1,
// p[n-1]), which every element maps to the border of the image, each number to one of
// the four or its reflection n-1-x. Counting each border orbit once, weighted by its
// size, counts every solution once.
#pragma once
#include <array>
#include <span>
#include <vector>

namespace permjit {

inline constexpr int kReflectValues = 1;
inline constexpr int kReversePositions = 2;
inline constexpr int kInvert = 4;

// g(p) for the element `code`.
std::vector<int> apply_symmetry(int code, std::span<const int> p);
// The elements that `generators` generate, identity (0) first, then in increasing code.
std::vector<int> symmetry_closure(std::span<const int> generators);

// The border of p: p[0], the position of 0, the position of n-1, p[n-1].
std::array<int, 4> permutation_border(std::span<const int> p);
// How `code` maps a border: component j of the image's border is component
// source[j] of the original's, reflected (n-1-x) where reflected[j].
struct BorderMap {
  std::array<int, 4> source{};
  std::array<bool, 4> reflected{};
};
BorderMap border_map(int code);

// Every permutation that a found p stands for in a search over canonical borders: p
// itself first, then g(p) for one g of each other image of p's border under `group`
// (their number is the orbit's size, the weight the search counted p with).
std::vector<std::vector<int>> border_orbit(std::span<const int> group, std::span<const int> p);

}  // namespace permjit
