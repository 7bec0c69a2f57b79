// Two-ended expansions bounded across a warp (templates/ivm_two_ends.h's Group). Each of
// the warp's explorers that expands a node needs the first bound of its children at both
// ends: 2 x its candidates, a number that differs from lane to lane. Bounded by each
// lane on its own, the warp ran the bound as many times as its busiest lane needed while
// the others idled (H100, ta029: 6 of 32 lanes active per instruction). Here the
// children of all the warp's expansions form one list of tasks, taken 32 at a time, one
// per lane: a lane bounds a child of another lane's node, fetched with shuffles, and the
// results go back to the node's lane. Same children, bounds, kept sets and ends as
// children_two_ends (the key sums are sums; the order does not matter), so the tree and
// the counts do not change.
#pragma once

namespace pj_ivm {

struct WarpExpansion {
  static constexpr unsigned kAll = 0xffffffffu;

  __device__ static bool any(bool running) { return __any_sync(kAll, running); }

  // A value of lane `from`, every lane naming its own.
  template <class T>
  __device__ static T fetch(const T& value, int from) {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    unsigned words[kWords] = {};
    memcpy(words, &value, sizeof(T));
#pragma unroll
    for (int w = 0; w < kWords; ++w) words[w] = __shfl_sync(kAll, words[w], from);
    T out;
    memcpy(&out, words, sizeof(T));
    return out;
  }

  template <class N>
  __device__ static Mask children(bool mine, const N& parent, Mask cand, int best, int& end) {
    end = 0;
    if constexpr (problem::kGoal == pj::Goal::count) {  // nothing is bounded
      return mine ? children_two_ends(parent, cand, best, end) : Mask(0);
    } else {
      const int lane = static_cast<int>(threadIdx.x & 31u);
      const int tasks = mine ? 2 * pj::popcount(cand) : 0;  // task 2r + e: the rank-r candidate at end e
      int upto = tasks;                                      // the tasks of lanes 0..lane
#pragma unroll
      for (int o = 1; o < 32; o <<= 1) {
        const int below = __shfl_up_sync(kAll, upto, o);
        if (lane >= o) upto += below;
      }
      const int total = __shfl_sync(kAll, upto, 31);
      Mask kept[2] = {0, 0};
      int count[2] = {0, 0};
      long long key_sum[2] = {0, 0};
      for (int base = 0; base < total; base += 32) {
        const int t = base + lane;
        // The lane whose tasks hold t: the first whose running total passes it.
        int owner = 0;
#pragma unroll
        for (int step = 16; step > 0; step >>= 1) {
          const int probe = owner + step - 1;
          if (__shfl_sync(kAll, upto, probe) <= t) owner += step;
        }
        owner = owner < 31 ? owner : 31;
        const N node = fetch(parent, owner);
        const Mask owner_cand = fetch(cand, owner);
        const int owner_best = __shfl_sync(kAll, best, owner);
        const int first = __shfl_sync(kAll, upto - tasks, owner);
        int v = -1, e = 0;
        bool keep = false;
        long long key = 0;
        if (t < total) {
          const int task = t - first;
          e = task & 1;
          v = value_of_rank(owner_cand, task >> 1);
          Node child;
          place_at(node, v, e, child);
          const int b = bound_of(child);
          key = problem::kGoal == pj::Goal::maximize ? -static_cast<long long>(b) : b;
          keep = !prunes(b, owner_best);
        }
        // Back to the owners: lane j's result belongs to lane owner_j.
        const int last = total - base < 32 ? total - base : 32;
        for (int j = 0; j < last; ++j) {
          const int to = __shfl_sync(kAll, owner, j);
          const int ve = __shfl_sync(kAll, (v << 2) | (e << 1) | (keep ? 1 : 0), j);
          const long long k = __shfl_sync(kAll, key, j);
          if (to == lane) {
            const int je = (ve >> 1) & 1;
            key_sum[je] += k;
            if (ve & 1) {
              kept[je] |= pj::bit<Mask>(ve >> 2);
              ++count[je];
            }
          }
        }
      }
      if (!mine) return 0;
      end = count[1] < count[0] || (count[1] == count[0] && key_sum[1] > key_sum[0]) ? 1 : 0;
      return kept[end];
    }
  }
};

}  // namespace pj_ivm
