// assign() and minprod() through the generated CPU code (templates/pair_reductions.h,
// generator/emit_pair_reduce.cpp) against brute force on random matrices of sizes 0..9,
// square and rectangular, over sets and over ranges known only at the node; and the
// static evaluator's reference (dsl/pair_solvers.hpp) on the same matrices, through
// the probe spec of reduction_probe.hpp.
#include <climits>

#include "dsl/pair_solvers.hpp"
#include "reduction_probe.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// objective: form 0 assign over sets, 1 assign over ranges, 2 minprod over sets; 3 and
// 4 assign with a Gilmore-Lawler-like minprod cost, whose lists follow the row and the
// column (sorted once per row and column) or not (form 4: the second reads the row too).
// dims: rows, columns.
const char* kObjective = R"(form == 0 ? assign(i in ~(all << dims[0]), j in ~(all << dims[1]): c[i][j]) :
form == 1 ? assign(i in 0..dims[0], j in 0..dims[1]: c[i][j]) :
form == 2 ? minprod(x in ~(all << dims[0]): c[0][x], y in ~(all << dims[1]): c[1][y]) :
form == 3 ?
  assign(i in ~(all << dims[0]), j in ~(all << dims[1]):
         minprod(x in ~(all << dims[0]) & ~bit(i): c[i][x], y in ~(all << dims[1]) & ~bit(j): c[j][y])) :
  assign(i in ~(all << dims[0]), j in ~(all << dims[1]):
         minprod(x in ~(all << dims[0]) & ~bit(i): c[i][x], y in ~(all << dims[1]) & ~bit(j): c[j][y] + i))
)";

long long probe(int form, int rows, int cols, const Matrix& c) {
  static const std::string spec =
      temp_file("assign_probe.toml", reduction_probe_spec("assign_probe", 5, 3, kObjective));
  return solve_reduction_probe(spec, form, {rows, cols}, c);
}

// The cheapest sum of value(a, b) over injections of the smaller side into the larger
// (a in 0..rows, b in 0..cols): a dynamic program over the used subsets of the larger.
template <class Value>
long long best_injection(int rows, int cols, Value value) {
  const bool flip = rows > cols;
  const int small = flip ? cols : rows, large = flip ? rows : cols;
  std::vector<long long> best(size_t(1) << large, LLONG_MAX);
  best[0] = 0;
  long long answer = small == 0 ? 0 : LLONG_MAX;
  for (unsigned used = 0; used < best.size(); ++used) {
    if (best[used] == LLONG_MAX) continue;
    const int k = __builtin_popcount(used);  // the next element of the smaller side
    if (k == small) {
      answer = std::min(answer, best[used]);
      continue;
    }
    for (int t = 0; t < large; ++t) {
      if (used & (1u << t)) continue;
      const long long v = best[used] + (flip ? value(t, k) : value(k, t));
      best[used | (1u << t)] = std::min(best[used | (1u << t)], v);
    }
  }
  return answer;
}

std::vector<std::vector<int64_t>> sub_matrix(const Matrix& c, int rows, int cols) {
  std::vector<std::vector<int64_t>> m(rows, std::vector<int64_t>(cols));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m[i][j] = c[i][j];
  return m;
}

}  // namespace

TEST_CASE("assign() equals brute force on random square and rectangular matrices", "[e2e][assign]") {
  std::vector<std::pair<int, int>> sizes;
  for (int k = 1; k <= 9; ++k) sizes.push_back({k, k});
  for (auto rc : {std::pair{0, 3}, std::pair{3, 0}, std::pair{2, 7}, std::pair{7, 2}, std::pair{5, 9}, std::pair{9, 4}})
    sizes.push_back(rc);
  unsigned seed = 100;
  for (auto [rows, cols] : sizes) {
    // Negative costs too: the solver shifts them by their minimum.
    ++seed;  // a statement of its own: also an argument of the same call
    const Matrix c = random_matrix(kProbeShape, seed % 2 ? -50 : 0, 50, seed);
    INFO(rows << " x " << cols << ", seed " << seed);
    const long long want = best_injection(rows, cols, [&](int a, int b) { return c[a][b]; });
    CHECK(probe(0, rows, cols, c) == want);
    CHECK(probe(1, rows, cols, c) == want);
    CHECK(min_cost_assignment(sub_matrix(c, rows, cols)) == want);
  }
}

TEST_CASE("minprod() equals the cheapest pairing of two lists", "[e2e][assign]") {
  unsigned seed = 200;
  for (auto [na, nb] : {std::pair{1, 1}, std::pair{4, 4}, std::pair{9, 9}, std::pair{3, 8}, std::pair{8, 5},
                        std::pair{0, 6}}) {
    // Equal lengths: any signs (the rearrangement inequality). Unequal: non-negative
    // values, where keeping the smallest of the longer list is the cheapest choice.
    const Matrix c = random_matrix(kProbeShape, na == nb ? -40 : 0, 40, ++seed);
    INFO(na << " and " << nb << " values, seed " << seed);
    const long long want = best_injection(na, nb, [&](int a, int b) { return (long long)c[0][a] * c[1][b]; });
    CHECK(probe(2, na, nb, c) == want);
    std::vector<int64_t> a(c[0].begin(), c[0].begin() + na), b(c[1].begin(), c[1].begin() + nb);
    CHECK(min_scalar_product(a, b) == want);
  }
}

TEST_CASE("assign() over minprod() costs, sorted per row and column or per pair", "[e2e][assign]") {
  unsigned seed = 300;
  for (int k = 1; k <= 7; ++k) {
    const Matrix c = random_matrix(kProbeShape, 0, 20, ++seed);
    INFO(k << " x " << k << ", seed " << seed);
    // The cheapest pairing of row i's values off i with row j's values off j (plus
    // `shift` on the second list's values).
    auto cost = [&](int i, int j, int shift) {
      std::vector<int> xs, ys;
      for (int x = 0; x < k; ++x)
        if (x != i) xs.push_back(c[i][x]);
      for (int y = 0; y < k; ++y)
        if (y != j) ys.push_back(c[j][y] + shift);
      return best_injection(k - 1, k - 1, [&](int a, int b) { return (long long)xs[a] * ys[b]; });
    };
    CHECK(probe(3, k, k, c) == best_injection(k, k, [&](int i, int j) { return cost(i, j, 0); }));
    CHECK(probe(4, k, k, c) == best_injection(k, k, [&](int i, int j) { return cost(i, j, i); }));
  }
}
