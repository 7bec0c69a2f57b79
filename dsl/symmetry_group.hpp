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

// Whether a border known as intervals lo[j]..hi[j] (a known part: lo == hi) may still be
// the least of its images under `group`, whatever its unknown parts become: false when
// some element maps it below itself for every value of them. Each element is compared
// part by part, an interval against an interval, as far as the comparison is decided.
bool border_may_be_least(std::span<const int> group, int n, const std::array<int, 4>& lo,
                         const std::array<int, 4>& hi);

// Whether the border b is the least of its images under `group` (each compared as a
// sequence of four numbers), and how many elements map it to itself (its stabiliser's
// order: the orbit has |group| / that many borders).
bool border_is_least(std::span<const int> group, int n, const std::array<int, 4>& b);
int border_fixing_count(std::span<const int> group, int n, const std::array<int, 4>& b);
// Whether some permutation of n has the border b: its four (position, value) pairs agree
// (one position, one value).
bool border_possible(int n, const std::array<int, 4>& b);

// The search's border test, tabulated (the generated code reads it through
// templates/symmetry_border.h). Between the first and the last level a node knows
// p[0] = a and, of the positions of 0 and n-1, those already placed; a child places 0,
// places n-1, or places another value (which leaves the border as it is), so whether it
// may still be the least depends on a, the placed positions, its kind and its depth d,
// taking p[n-1] to be any value. A row holds, for one (a, slot), a bit d (1..n-1) set
// where the child of each kind may be placed at depth d.
struct BorderDepths {
  unsigned long long other = 0, zero = 0, top = 0;
};
// The slot of what is known of the positions z of 0 and t of n-1 (-1: not placed).
int border_slot(int n, int z, int t);
inline int border_slots(int n) { return 2 * n + 2; }  // slots: neither, z, t, both
// The positions of 0 and n-1 a node with p[0] = a may hold (lo..hi: those its rows let a
// child place them at), and where its codes start in BorderTable::least. A node's code
// (its `border`): its slot while at most one of 0 and n-1 is placed, 2n + 1 + (z - lo) *
// width + (t - lo) once both are; a block holds 2n + 1 + width^2 codes.
struct BorderBlock {
  int base = 0, lo = 0, width = 0;
};
int border_code_of(int n, const BorderBlock& block, int z, int t);
inline int border_block_codes(int n, const BorderBlock& block) { return 2 * n + 1 + block.width * block.width; }
// The bits a code needs, whatever the group (width n at most).
struct BorderCode {
  int bits = 0;
};
BorderCode border_code(int n);
// Whether the code fits above the n values in the free set's word (32 bits up to n = 32,
// else 64), where a stack row keeps it: n = 22 at most with 32 bits.
bool border_code_in_free(int n);
struct BorderTable {
  unsigned long long root = 0;      // the values the first position may take
  std::vector<BorderDepths> rows;  // row a * border_slots(n) + slot
  std::vector<BorderBlock> blocks;  // per a (width 0 where a is not in root)
  // Per code (block.base + code): the values w that p[n-1] may take with the least
  // border, over every placement of the ends the code leaves open (a placed end where it
  // is, one not placed anywhere it may still go; w = 0 puts 0 at n-1, w = n-1 puts n-1
  // there). Where w settles every open end -- a node with w its one value left -- the
  // bit is the exact test of the complete border, and half and quarter give its orbit:
  // |group| >> (half + 2 * quarter).
  std::vector<unsigned long long> least, half, quarter;
};
BorderTable border_depth_table(std::span<const int> group, int n);

}  // namespace permjit
