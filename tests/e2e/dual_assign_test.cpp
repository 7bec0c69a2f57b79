// dualassign() through the generated CPU code (generator/emit_dual_assign.cpp,
// templates/pair_dual.h) on random costs of sizes 0..7, square and rectangular (the
// smaller side padded), over sets and over ranges known only at the node: never above
// the brute-force optimum; over product-form pair costs, round 0 equal to Gilmore-Lawler's
// assign() + minprod() bound and later rounds at least that. Through the probe spec of
// reduction_probe.hpp.
#include <climits>
#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "reduction_probe.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// dims: rows, columns, rounds. Forms 0 and 1: any pair costs (sets, ranges); 2:
// Gilmore-Lawler over product-form pair costs c[i][k] * c[j][l]; 3: dualassign over them.
const char* kObjective = R"(form == 0 ?
  dualassign(i in ~(all << dims[0]), j in ~(all << dims[1]): c[i][j], k, l: c[i][k] - c[l][j] + 2 * c[k][l], dims[2]) :
form == 1 ?
  dualassign(i in 0..dims[0], j in 0..dims[1]: c[i][j], k, l: c[i][k] - c[l][j] + 2 * c[k][l], dims[2]) :
form == 2 ?
  assign(i in ~(all << dims[0]), j in ~(all << dims[1]):
         c[i][j] + minprod(x in ~(all << dims[0]) & ~bit(i): c[i][x], y in ~(all << dims[1]) & ~bit(j): c[j][y])) :
  dualassign(i in ~(all << dims[0]), j in ~(all << dims[1]): c[i][j], k, l: c[i][k] * c[j][l], dims[2])
)";

long long probe(int form, int rows, int cols, int rounds, const Matrix& c) {
  static const std::string spec =
      temp_file("dualassign_probe.toml", reduction_probe_spec("dualassign_probe", 4, 4, kObjective));
  return solve_reduction_probe(spec, form, {rows, cols, rounds}, c);
}

// The cheapest injection of the smaller side into the larger, paying cost(i, j) for each
// matched pair and pair(i, j, k, l) for each two matched pairs (i, j) != (k, l), in
// both orders: every injection, by brute force.
long long best(int rows, int cols, const std::function<long long(int, int)>& cost,
               const std::function<long long(int, int, int, int)>& pair) {
  std::vector<std::pair<int, int>> chosen;
  std::vector<bool> used(std::max(rows, cols), false);
  const bool flip = rows > cols;
  const int small = flip ? cols : rows, large = flip ? rows : cols;
  long long answer = LLONG_MAX;
  std::function<void(int)> go = [&](int at) {
    if (at == small) {
      long long s = 0;
      for (auto [i, j] : chosen) {
        s += cost(i, j);
        for (auto [k, l] : chosen)
          if (k != i) s += pair(i, j, k, l);
      }
      answer = std::min(answer, s);
      return;
    }
    for (int t = 0; t < large; ++t) {
      if (used[t]) continue;
      used[t] = true;
      chosen.push_back(flip ? std::pair{t, at} : std::pair{at, t});
      go(at + 1);
      chosen.pop_back();
      used[t] = false;
    }
  };
  go(0);
  return answer;
}

}  // namespace

TEST_CASE("dualassign() never exceeds the cheapest injection, over sets and over ranges", "[e2e][dualassign]") {
  std::vector<std::pair<int, int>> sizes;
  for (int k = 1; k <= 7; ++k) sizes.push_back({k, k});
  for (auto rc : {std::pair{0, 4}, std::pair{4, 0}, std::pair{3, 6}, std::pair{6, 3}, std::pair{2, 5}})
    sizes.push_back(rc);
  unsigned seed = 470;
  for (auto [rows, cols] : sizes) {
    ++seed;
    const Matrix c = random_matrix(kProbeShape, -20, 40, seed);
    INFO(rows << " x " << cols << ", seed " << seed);
    const long long want = best(
        rows, cols, [&](int i, int j) { return c[i][j]; },
        [&](int i, int j, int k, int l) { return (long long)c[i][k] - c[l][j] + 2 * c[k][l]; });
    const long long got = probe(0, rows, cols, 3, c);
    CHECK(got <= want);
    CHECK(probe(1, rows, cols, 3, c) == got);
    CHECK(probe(0, rows, cols, 0, c) <= got);
  }
}

TEST_CASE("dualassign() over product-form pair costs starts at Gilmore-Lawler's bound and rises", "[e2e][dualassign]") {
  unsigned seed = 480;
  for (int k = 2; k <= 7; ++k) {
    const Matrix c = random_matrix(kProbeShape, 0, 9, ++seed);
    INFO(k << " x " << k << ", seed " << seed);
    const long long want = best(
        k, k, [&](int i, int j) { return c[i][j]; },
        [&](int i, int j, int x, int y) { return (long long)c[i][x] * c[j][y]; });
    const long long gl = probe(2, k, k, 0, c);
    CHECK(probe(3, k, k, 0, c) == gl);
    const long long raised = probe(3, k, k, 4, c);
    CHECK(raised >= gl);
    CHECK(raised <= want);
  }
}

TEST_CASE("QAP with the dual-ascent bound (qap.toml lb = 3): the optimum, and inside Gilmore-Lawler's tree",
          "[e2e][dualassign]") {
  for (unsigned seed : {491u, 492u}) {
    const int n = 8;
    const Matrix a = random_matrix(n, 0, 9, seed), b = random_matrix(n, 0, 9, seed + 100);
    INFO("seed " << seed);
    std::vector<int> p(n);
    std::iota(p.begin(), p.end(), 0);
    long long want = LLONG_MAX;
    do {
      long long s = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) s += (long long)a[i][j] * b[p[i]][p[j]];
      want = std::min(want, s);
    } while (std::next_permutation(p.begin(), p.end()));
    const std::string inst = temp_file("dualassign_qap" + std::to_string(seed) + ".dat", qaplib_text(a, b));
    auto run = [&](std::vector<std::string> params, std::optional<long long> ub, int threads) {
      SolveOptions o;
      o.load.spec_path = problem("qap.toml");
      o.load.instance_path = inst;
      o.load.params = std::move(params);
      o.backend = "cpu";
      o.skeleton = "cpu";
      o.threads = threads;
      o.ub = ub;
      o.cache_dir = cache_dir();
      return solve(o);
    };
    SolveResult scratch = run({"lb=3", "rounds=2"}, std::nullopt, 2);
    REQUIRE(scratch.found);
    CHECK(scratch.objective == want);
    // At the optimum: the same tree on one thread and on two, and no node that
    // Gilmore-Lawler prunes is evaluated (the bound is at least its value everywhere).
    SolveResult one = run({"lb=3", "rounds=2"}, want, 1), two = run({"lb=3", "rounds=2"}, want, 2);
    CHECK(one.evaluated == two.evaluated);
    CHECK(one.expanded == two.expanded);
    SolveResult gl = run({"lb=2"}, want, 1);
    CHECK(one.evaluated <= gl.evaluated);
  }
}
