// dualassign() computed by a whole thread block (docs/spec-language.md, "Pair costs";
// the `offload` skeleton's refine kernel, templates/gpu_offload.cuh): the same
// procedure as templates/pair_dual.h's dual_assign_bound, whose comments say why it is
// valid, with its O(m^4) steps spread over the block's threads and its m^2 sub-problems
// solved one per thread. The tables are the block's own, in global memory (a K^4 table
// is 640 KiB at K = 20: more than a thread's local memory may hold or a block's shared
// memory).
//
// Bit for bit the value of dual_assign_bound: every step reads and writes the same
// entries with the same integer operations. The shift and the spreads are a minimum
// and a maximum (any order gives the same); spreading writes each entry of q once from
// c, which it only reads; balancing touches each complementary pair once; the
// sub-problems are disjoint; the leaders' assignment is one thread's, in the serial
// order. Only the order in which independent entries are written differs.
//
// Every thread of the block must call it with the same arguments (the same node), and
// blockDim.x must be a multiple of 32 (the warp reductions use whole warps).
#pragma once

#if defined(__CUDACC__)
namespace pj {

// The least (kMax: the largest) of every thread's `x`, returned to every thread.
template <class T, bool kMax>
__device__ T block_extreme(T x) {
  __shared__ T part[32];
  for (int o = 16; o > 0; o >>= 1) {
    const T y = __shfl_down_sync(0xffffffffu, x, o);
    x = kMax ? (y > x ? y : x) : (y < x ? y : x);
  }
  __syncthreads();  // part[] may still be read from the last call
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = x;
  __syncthreads();
  T r = part[0];
  for (int w = 1; w < int(blockDim.x >> 5); ++w) r = kMax ? (part[w] > r ? part[w] : r) : (part[w] < r ? part[w] : r);
  return r;
}

// dual_assign_bound(c, q, m, rounds) by the calling block; c and q in memory that every
// thread of the block sees (global or shared), filled before the call and visible
// (__syncthreads). Returns the bound to every thread.
template <class T, int K>
__device__ T dual_assign_bound_block(T (&c)[K][K], T (&q)[K][K][K][K], int m, int rounds) {
  if (m <= 0) return T(0);
  if (m == 1) return c[0][0];
  const int first = int(threadIdx.x), step = int(blockDim.x);
  const int mm = m * m, cells = mm * mm;  // K <= 26 (the generator's limit): no overflow
  // (i, j, k, l) of cell x: l fastest, so that neighbouring threads touch neighbouring entries.
  auto split = [m](int x, int& i, int& j, int& k, int& l) {
    l = x % m;
    x /= m;
    k = x % m;
    x /= m;
    j = x % m;
    i = x / m;
  };
  T low = c[0][0], low2 = q[0][0][1][1];
  for (int x = first; x < mm; x += step) low = c[x / m][x % m] < low ? c[x / m][x % m] : low;
  for (int x = first; x < cells; x += step) {
    int i, j, k, l;
    split(x, i, j, k, l);
    if (k != i && l != j) low2 = q[i][j][k][l] < low2 ? q[i][j][k][l] : low2;
  }
  low = block_extreme<T, false>(low);
  low2 = block_extreme<T, false>(low2);
  T high = T(0), high2 = T(0);
  for (int x = first; x < mm; x += step) {
    T& e = c[x / m][x % m];
    e -= low;
    high = e > high ? e : high;
  }
  for (int x = first; x < cells; x += step) {
    int i, j, k, l;
    split(x, i, j, k, l);
    q[i][j][k][l] -= low2;
    if (k != i && l != j) high2 = q[i][j][k][l] > high2 ? q[i][j][k][l] : high2;
  }
  high = block_extreme<T, true>(high);
  high2 = block_extreme<T, true>(high2);
  // The scale, as dual_assign_bound chooses it.
  const T most = T(1) << (8 * int(sizeof(T)) - 2);
  const T u_max = T(m) * high + T(m) * T(m - 1) * high2;
  const T reach = T(2 * m + 2);
  const bool warm = u_max <= most / reach;
  T scale = T(1);
  while (warm && scale < T(4096) && u_max <= most / (reach * scale * T(2))) scale *= T(2);
  for (int x = first; x < mm; x += step) c[x / m][x % m] *= scale;
  for (int x = first; x < cells; x += step) {
    int i, j, k, l;
    split(x, i, j, k, l);
    q[i][j][k][l] *= scale;
  }
  __syncthreads();
  const T base = T(m) * low + T(m) * T(m - 1) * low2;
  T bound = T(0);  // thread 0's, in units of 1 / scale
  const int last = rounds > 0 ? rounds : 0;
  for (int round = 0; round <= last; ++round) {
    if (round > 0) {
      // Spread: each entry of row k != i of q[i][j] gets its share of c[i][j] (read
      // only here; set to 0 with the sub-problems below). Row k is the t-th row after
      // the leader's, and the first `extra` rows take one unit more.
      for (int x = first; x < cells; x += step) {
        int i, j, k, l;
        split(x, i, j, k, l);
        if (k == i || l == j) continue;
        const T share = c[i][j] / T(m - 1), extra = c[i][j] % T(m - 1);
        const int t = k < i ? k : k - 1;
        q[i][j][k][l] += share + (T(t) < extra ? T(1) : T(0));
      }
      __syncthreads();
      // Balance each complementary pair once: (i, j, k, l) with i < k.
      for (int x = first; x < cells; x += step) {
        int i, j, k, l;
        split(x, i, j, k, l);
        if (k <= i || l == j) continue;
        const T sum = q[i][j][k][l] + q[k][l][i][j], half = sum / T(2);
        q[i][j][k][l] = half;
        q[k][l][i][j] = sum - half;
      }
      __syncthreads();
    }
    // The leaders' sub-problems, one per thread, each copied into the thread's dense
    // matrix as dual_assign_bound does.
    for (int x = first; x < mm; x += step) {
      const int i = x / m, j = x % m;
      T sub[K][K];
      for (int r = 0; r + 1 < m; ++r)
        for (int t = 0; t + 1 < m; ++t) sub[r][t] = q[i][j][r < i ? r : r + 1][t < j ? t : t + 1];
      const T gained = reduce_by_assignment(sub, m - 1, warm);
      c[i][j] = (round > 0 ? T(0) : c[i][j]) + gained;
      for (int r = 0; r + 1 < m; ++r)
        for (int t = 0; t + 1 < m; ++t) q[i][j][r < i ? r : r + 1][t < j ? t : t + 1] = sub[r][t];
    }
    __syncthreads();
    if (threadIdx.x == 0) bound += reduce_by_assignment(c, m, warm);
    __syncthreads();
  }
  __shared__ T result;
  if (threadIdx.x == 0) result = base + (bound + scale - T(1)) / scale;
  __syncthreads();
  const T value = result;
  __syncthreads();  // `result` is free for the next call once every thread has read it
  return value;
}

}  // namespace pj
#endif
