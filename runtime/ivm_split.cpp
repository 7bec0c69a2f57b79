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
  std::vector<unsigned char> start(L), next(L);
  pj_ivm::split_point(0, explorers, start.data(), levels);
  for (unsigned long long i = 0; i < explorers; ++i) {
    // This interval ends one before the next one starts; the last ends at L! - 1.
    std::vector<unsigned char> last(L);
    if (i + 1 < explorers) {
      pj_ivm::split_point(i + 1, explorers, next.data(), levels);
      s.empty[i] = pj_ivm::compare(start.data(), next.data(), levels) == 0;
      last = next;
      if (!s.empty[i]) pj_ivm::step(last.data(), -1, levels);
    } else {
      pj_ivm::set_max(last.data(), levels);
    }
    for (std::size_t l = 0; l < L; ++l) {
      s.first[l * explorers + i] = start[l];
      s.last[l * explorers + i] = last[l];
    }
    start = next;
  }
  return s;
}

}  // namespace permjit
