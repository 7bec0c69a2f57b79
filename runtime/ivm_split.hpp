// The initial work units of the `ivm` skeleton: [0, L!) cut into T near-equal intervals
// of leaves (seed 001 Algorithm 1, line 2), as the digit arrays the device reads.
#pragma once
#include <vector>

namespace permjit {

struct IvmSplit {
  unsigned long long explorers = 0;
  int levels = 0;
  // Structure of arrays, digit l of explorer i at [l * explorers + i].
  std::vector<unsigned char> first, last;
  std::vector<unsigned char> empty;  // [explorers]: 1 when the interval has no leaf
};

// Explorer i gets [floor(i L! / T), floor((i+1) L! / T) - 1]; when T > L! some get none.
IvmSplit split_leaves(unsigned long long explorers, int levels);
// Explorers [from, from + count) of `all`, as a split of their own (one GPU's share of a
// split made for every GPU's explorers).
IvmSplit slice_of(const IvmSplit& all, unsigned long long from, unsigned long long count);

}  // namespace permjit
