// Whether a child's assignment bound would be cheaper re-solved from its parent's
// solution than from scratch (issue 21, item 2), measured on the solver alone.
//
// ATSP's assignment bound (problems/atsp.toml, lb=1) matches {last} + unvisited to
// unvisited + {first}. A child that places city v removes row `last` and column v: its
// problem is the parent's less one row and one column. From scratch the generated code
// gathers the k x k costs into a local array and calls pj::assign_min
// (templates/pair_reductions.h), O(k^3). From the parent's optimal duals and matching,
// the child keeps every pair but the two removed ones and re-augments one row along a
// shortest path of reduced costs, O(k^2), after copying the parent's state (the duals
// and the matching, three arrays of n + 1 ints, which would travel in every node).
//
//   g++ -O3 -march=native -std=c++17 -I. -o /tmp/assign_incremental bench/cpu/assign_incremental.cpp
//   /tmp/assign_incremental            # one JSON line per size
//
// The costs are uniform in [1, 1000] (ftv-like); each size solves 2,000 random parents and
// one random child of each, both ways, checks that the two values agree, and reports the
// nanoseconds per child.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

#include "templates/prelude.h"
#include "templates/pair_reductions.h"

namespace {

constexpr int N = 48;  // cities at most (ry48p)

struct Instance {
  int n;
  int d[N][N];
};

// The state a node would carry: potentials by city (rows u, columns v), the row on each
// column (a city, -1: none).
struct Duals {
  int u[N + 1], v[N + 1], row_on[N + 1];
};

// A parent's problem: rows `rows`, columns `cols` (cities), solved from scratch with the
// duals kept (the Hungarian method of pj::assign_min, by city rather than by index).
long long solve_with_duals(const Instance& in, const int* rows, const int* cols, int k, Duals& s) {
  // 1-based positions as in assign_min; p[j]: the row (position) on column j.
  int u[N + 2] = {}, v[N + 2] = {}, p[N + 2] = {}, way[N + 2] = {};
  int minv[N + 2];
  bool used[N + 2];
  const int inf = 1 << 29;
  for (int r = 1; r <= k; ++r) {
    p[0] = r;
    int j0 = 0;
    for (int j = 0; j <= k; ++j) minv[j] = inf, used[j] = false;
    do {
      used[j0] = true;
      const int r0 = p[j0];
      int delta = inf, j1 = 0;
      for (int j = 1; j <= k; ++j) {
        if (used[j]) continue;
        const int cur = in.d[rows[r0 - 1]][cols[j - 1]] - u[r0] - v[j];
        if (cur < minv[j]) minv[j] = cur, way[j] = j0;
        if (minv[j] < delta) delta = minv[j], j1 = j;
      }
      for (int j = 0; j <= k; ++j) {
        if (used[j]) u[p[j]] += delta, v[j] -= delta;
        else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  for (int c = 0; c <= N; ++c) s.u[c] = s.v[c] = 0, s.row_on[c] = -1;
  long long total = 0;
  for (int j = 1; j <= k; ++j) {
    s.v[cols[j - 1]] = v[j];
    s.row_on[cols[j - 1]] = rows[p[j] - 1];
    total += in.d[rows[p[j] - 1]][cols[j - 1]];
  }
  for (int r = 1; r <= k; ++r) s.u[rows[r - 1]] = u[r];
  return total;
}

// The child's value from the parent's state: row `gone_row` and column `gone_col`
// removed from the parent's problem (rows/cols without them, k - 1 of each).
long long resolve_child(const Instance& in, const Duals& parent, const int* rows, const int* cols, int k,
                        int gone_row, int gone_col) {
  Duals s;
  std::memcpy(&s, &parent, sizeof s);  // what placing the child copies
  int free_row = -1;                   // the row that lost its column
  for (int j = 0; j < k; ++j)
    if (s.row_on[cols[j]] == gone_row) s.row_on[cols[j]] = -1;  // gone_row's column is free
  if (s.row_on[gone_col] != gone_row) free_row = s.row_on[gone_col];
  s.row_on[gone_col] = -1;
  if (free_row >= 0) {
    // One phase of the Hungarian method from free_row: Dijkstra over reduced costs from
    // the row to a free column, then augment. Columns by position 0..k-1; `virtual` root.
    const int inf = 1 << 29;
    int minv[N], way[N];
    bool used[N];
    for (int j = 0; j < k; ++j) minv[j] = inf, used[j] = cols[j] == gone_col, way[j] = -1;  // the column that went
    int cur_row = free_row, j0 = -1, u_root_delta = 0;
    int used_list[N], nused = 0;
    int j_end = -1;
    for (;;) {
      int delta = inf, j1 = -1;
      for (int j = 0; j < k; ++j) {
        if (used[j]) continue;
        const int red = in.d[cur_row][cols[j]] - s.u[cur_row] - s.v[cols[j]];
        if (red < minv[j]) minv[j] = red, way[j] = j0;
        if (minv[j] < delta) delta = minv[j], j1 = j;
      }
      // Potentials: the root row and the rows of used columns rise by delta, the used
      // columns fall by delta.
      u_root_delta += delta;
      for (int t = 0; t < nused; ++t) {
        const int j = used_list[t];
        s.u[s.row_on[cols[j]]] += delta;
        s.v[cols[j]] -= delta;
      }
      for (int j = 0; j < k; ++j)
        if (!used[j]) minv[j] -= delta;
      used[j1] = true;
      used_list[nused++] = j1;
      if (s.row_on[cols[j1]] < 0) {
        j_end = j1;
        break;
      }
      cur_row = s.row_on[cols[j1]];
      j0 = j1;
    }
    s.u[free_row] += u_root_delta;
    // Augment: walk back along `way`, shifting rows one column along the path.
    for (int j = j_end; j >= 0;) {
      const int prev = way[j];
      s.row_on[cols[j]] = prev >= 0 ? s.row_on[cols[prev]] : free_row;
      j = prev;
    }
  }
  long long total = 0;
  for (int j = 0; j < k; ++j) {
    if (cols[j] == gone_col) continue;
    total += in.d[s.row_on[cols[j]]][cols[j]];
  }
  (void)rows;
  return total;
}

// From scratch as the generated code does it: gather the costs, then assign_min.
long long child_from_scratch(const Instance& in, const int* rows, const int* cols, int k) {
  int c[N][N];
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) c[a][b] = in.d[rows[a]][cols[b]];
  return pj::assign_min(c, k, k);
}

}  // namespace

int main() {
  std::mt19937 rng(20261124);
  for (int n : {17, 33, 48}) {
    Instance in{};
    in.n = n;
    std::uniform_int_distribution<int> cost(1, 1000);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) in.d[i][j] = i == j ? 1 << 20 : cost(rng);
    const int kSamples = 2000;
    double scratch_ns = 0, incremental_ns = 0, parent_ns = 0;
    long long check = 0;
    int mismatches = 0;
    for (int s = 0; s < kSamples; ++s) {
      // A node of a tour from city 0: a random prefix; rows {last} + unvisited, columns
      // unvisited + {first}.
      int order[N];
      for (int i = 0; i < n; ++i) order[i] = i;
      std::shuffle(order + 1, order + n, rng);
      const int depth = 1 + static_cast<int>(rng() % static_cast<unsigned>(n - 3));  // cities placed, 3+ left
      const int last = order[depth - 1];
      int unvisited[N], m = 0;
      for (int i = depth; i < n; ++i) unvisited[m++] = order[i];
      int rows[N], cols[N];
      rows[0] = last;
      for (int i = 0; i < m; ++i) rows[1 + i] = unvisited[i], cols[i] = unvisited[i];
      cols[m] = 0;
      const int k = m + 1;
      Duals parent;
      auto t0 = std::chrono::steady_clock::now();
      const long long pv = solve_with_duals(in, rows, cols, k, parent);
      auto t1 = std::chrono::steady_clock::now();
      parent_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
      // The child places v: row `last` and column v go; v becomes the new last.
      const int v = unvisited[rng() % static_cast<unsigned>(m)];
      int crows[N], ccols[N], ck = 0;
      crows[ck] = v;
      for (int i = 0, a = 1; i < m; ++i)
        if (unvisited[i] != v) crows[a++] = unvisited[i];
      for (int i = 0; i < m; ++i)
        if (unvisited[i] != v) ccols[ck++] = unvisited[i];
      ccols[ck++] = 0;
      t0 = std::chrono::steady_clock::now();
      const long long a = child_from_scratch(in, crows, ccols, ck);
      t1 = std::chrono::steady_clock::now();
      const long long b = resolve_child(in, parent, rows, cols, k, last, v);
      auto t2 = std::chrono::steady_clock::now();
      scratch_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
      incremental_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
      mismatches += a != b;
      check += pv + a;
    }
    std::printf(
        "{\"cities\": %d, \"children\": %d, \"parent_from_scratch_ns\": %.0f, \"child_from_scratch_ns\": %.0f, "
        "\"child_from_parent_ns\": %.0f, \"state_bytes\": %zu, \"mismatches\": %d, \"check\": %lld}\n",
        n, kSamples, parent_ns / kSamples, scratch_ns / kSamples, incremental_ns / kSamples, sizeof(Duals), mismatches,
        check);
  }
  return 0;
}
