#include "runtime/ivm_split.hpp"

#include <cstddef>

#include "templates/prelude.h"
#include "templates/ivm_interval.h"

namespace permjit {

IvmSplit split_leaves(unsigned long long explorers, int levels) {
  IvmSplit s;
  s.explorers = explorers;
  s.levels = levels;
  const std::size_t L = static_cast<size_t>(levels);
  s.first.assign(L * explorers, 0);
  s.last.assign(L * explorers, 0);
  s.empty.assign(explorers, 0);
  std::vector<unsigned char> first(L), last(L);
  for (unsigned long long i = 0; i < explorers; ++i) {
    s.empty[i] = !pj_ivm::part_of(i, explorers, first.data(), last.data(), levels);
    for (std::size_t l = 0; l < L; ++l) {
      s.first[l * explorers + i] = first[l];
      s.last[l * explorers + i] = last[l];
    }
  }
  return s;
}

IvmSplit slice_of(const IvmSplit& all, unsigned long long from, unsigned long long count) {
  IvmSplit s;
  s.explorers = count;
  s.levels = all.levels;
  const std::size_t L = static_cast<size_t>(all.levels);
  s.first.assign(L * count, 0);
  s.last.assign(L * count, 0);
  s.empty.assign(all.empty.begin() + static_cast<std::ptrdiff_t>(from),
                 all.empty.begin() + static_cast<std::ptrdiff_t>(from + count));
  for (std::size_t l = 0; l < L; ++l)
    for (unsigned long long i = 0; i < count; ++i) {
      s.first[l * count + i] = all.first[l * all.explorers + from + i];
      s.last[l * count + i] = all.last[l * all.explorers + from + i];
    }
  return s;
}

}  // namespace permjit
