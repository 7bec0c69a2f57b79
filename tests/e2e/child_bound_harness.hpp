// Compiled by tests/e2e/child_bound_test.cpp after a generated problem: walks random
// paths from the root and, at each node, compares child_bound(child, prep, v) with
// bound(child) for every child at each end (generator/emit_child_bound.cpp).
#include <cstdint>

namespace child_bound_check {

// A small deterministic generator: the same nodes on every run.
inline uint64_t next(uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

}  // namespace child_bound_check

// Children compared, and how many of them differed (the first difference in *bad_*).
extern "C" void pj_child_bound_check(unsigned long long seed, int paths, unsigned long long* compared,
                                     unsigned long long* differed, long long* bad_bound, long long* bad_child) {
  using namespace child_bound_check;
  uint64_t x = seed | 1;
  *compared = *differed = 0;
  const int ends = problem::kEnds;
  for (int p = 0; p < paths; ++p) {
    problem::Node cur;
    problem::root(cur);
    // Every depth whose children are not leaves: d + 1 < kSize.
    for (int depth = problem::kPrefixLength; depth + 1 < problem::kSize; ++depth) {
      problem::ParentReductions prep;
      problem::prepare_children(cur, prep);
      for (problem::Mask rem = cur.free; rem; rem &= rem - 1) {
        const int v = pj::lowest(rem);
        for (int e = 0; e < ends; ++e) {
          problem::Node child;
          problem::place_at(cur, v, e, child);
          const long long want = problem::bound(child), got = problem::child_bound(child, prep, v);
          ++*compared;
          if (want != got && (*differed)++ == 0) {
            *bad_bound = want;
            *bad_child = got;
          }
        }
      }
      // Down to a random child at a random end.
      const int k = static_cast<int>(next(x) % static_cast<uint64_t>(pj::popcount(cur.free)));
      problem::Mask rem = cur.free;
      for (int i = 0; i < k; ++i) rem &= rem - 1;
      problem::Node child;
      problem::place_at(cur, pj::lowest(rem), static_cast<int>(next(x) % static_cast<uint64_t>(ends)), child);
      cur = child;
    }
  }
}
