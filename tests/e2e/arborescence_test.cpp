// arborescence() through the generated CPU code (templates/pair_reductions.h,
// generator/emit_pair_reduce.cpp) and the static evaluator's reference
// (dsl/pair_solvers.hpp) against brute force on random matrices: sides that overlap
// (an element of both is one node), that are disjoint, that nest, over sets and over
// ranges known only at the node, with negative costs too, through the probe spec of
// reduction_probe.hpp.
#include <climits>
#include <functional>

#include "dsl/pair_solvers.hpp"
#include "reduction_probe.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// S = 0..rows-1, T = offset..offset+cols-1; the arc i -> j costs c[i][j]. Form 2 puts
// assign() and arborescence() of one cost matrix side by side (the generator builds it
// once): their difference, scaled, and the arborescence. dims: rows, columns, offset.
const char* kObjective = R"(form == 0 ? arborescence(i in ~(all << dims[0]), j in ~(all << dims[1]) << dims[2]: c[i][j]) :
form == 1 ? arborescence(i in 0..dims[0], j in dims[2]..dims[2] + dims[1]: c[i][j]) :
  1000 * (assign(i in ~(all << dims[0]), j in ~(all << dims[1]) << dims[2]: c[i][j]) + 500) +
  arborescence(i in ~(all << dims[0]), j in ~(all << dims[1]) << dims[2]: c[i][j]) + 500
)";

long long probe(int form, int rows, int cols, int offset, const Matrix& c) {
  static const std::string spec =
      temp_file("arborescence_probe.toml", reduction_probe_spec("arborescence_probe", 3, 4, kObjective));
  return solve_reduction_probe(spec, form, {rows, cols, offset}, c);
}

// Every way to give each element of T a parent in S other than itself, kept when no
// element's chain of parents comes back to it; the cheapest, or 0 when there is none.
long long brute_arborescence(const std::vector<int>& s, const std::vector<int>& t, const Matrix& c) {
  if (t.empty()) return 0;
  std::vector<int> parent(t.size());
  long long best = LLONG_MAX;
  std::function<void(size_t, long long)> choose = [&](size_t k, long long cost) {
    if (k == t.size()) {
      for (size_t start = 0; start < t.size(); ++start) {
        int x = t[start];
        for (size_t steps = 0;; ++steps) {
          auto in_t = std::find(t.begin(), t.end(), x);
          if (in_t == t.end()) break;  // a root
          if (steps > t.size()) return;  // came round: a cycle
          x = parent[size_t(in_t - t.begin())];
        }
      }
      best = std::min(best, cost);
      return;
    }
    for (int i : s)
      if (i != t[k]) {
        parent[k] = i;
        choose(k + 1, cost + c[i][t[k]]);
      }
  };
  choose(0, 0);
  return best == LLONG_MAX ? 0 : best;
}

long long brute_assignment(const std::vector<int>& s, const std::vector<int>& t, const Matrix& c) {
  // Sides of equal size in the cases below: the cheapest permutation.
  std::vector<int> p(t.size());
  for (size_t k = 0; k < p.size(); ++k) p[k] = int(k);
  long long best = LLONG_MAX;
  do {
    long long cost = 0;
    for (size_t k = 0; k < s.size(); ++k) cost += c[s[k]][t[size_t(p[k])]];
    best = std::min(best, cost);
  } while (std::next_permutation(p.begin(), p.end()));
  return s.empty() ? 0 : best;
}

}  // namespace

TEST_CASE("arborescence() equals brute force on overlapping, disjoint and nested sides", "[e2e][assign]") {
  struct Case {
    int rows, cols, offset;
  };
  // (1,1,0) and (4,4,0): no root, 0. (3,0,0): T empty, 0. (3,6,3): disjoint sides.
  // (5,3,0): T inside S. The rest overlap.
  const Case cases[] = {{1, 1, 0}, {3, 0, 0}, {4, 4, 0}, {2, 2, 1}, {3, 6, 3}, {5, 3, 0},
                        {5, 5, 1}, {6, 5, 2}, {4, 6, 2}, {6, 6, 1}, {7, 5, 3}, {2, 6, 1}};
  unsigned seed = 400;
  for (const Case& k : cases) {
    ++seed;
    const Matrix c = random_matrix(kProbeShape, seed % 2 ? -30 : 0, 40, seed);
    INFO(k.rows << " x " << k.cols << " from " << k.offset << ", seed " << seed);
    std::vector<int> s, t;
    for (int i = 0; i < k.rows; ++i) s.push_back(i);
    for (int j = k.offset; j < k.offset + k.cols; ++j) t.push_back(j);
    const long long want = brute_arborescence(s, t, c);
    CHECK(probe(0, k.rows, k.cols, k.offset, c) == want);
    CHECK(probe(1, k.rows, k.cols, k.offset, c) == want);
    std::vector<int64_t> s64(s.begin(), s.end()), t64(t.begin(), t.end());
    std::vector<std::vector<int64_t>> cost(s.size(), std::vector<int64_t>(t.size()));
    for (size_t a = 0; a < s.size(); ++a)
      for (size_t b = 0; b < t.size(); ++b) cost[a][b] = c[s[a]][t[b]];
    CHECK(min_cost_arborescence(s64, t64, cost) == want);
  }
}

TEST_CASE("assign() and arborescence() of one cost matrix keep their own values", "[e2e][assign]") {
  unsigned seed = 500;
  for (auto [rows, offset] : {std::pair{3, 1}, std::pair{5, 2}, std::pair{6, 1}}) {
    const Matrix c = random_matrix(kProbeShape, 0, 40, ++seed);
    INFO(rows << " from " << offset << ", seed " << seed);
    std::vector<int> s, t;
    for (int i = 0; i < rows; ++i) s.push_back(i);
    for (int j = offset; j < offset + rows; ++j) t.push_back(j);
    const long long want = 1000 * (brute_assignment(s, t, c) + 500) + brute_arborescence(s, t, c) + 500;
    CHECK(probe(2, rows, rows, offset, c) == want);
  }
}
