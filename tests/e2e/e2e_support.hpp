// Helpers for end-to-end tests: temporary instance files, solving through the library,
// and brute-force oracles that share no code with permjit.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "test_paths.hpp"

namespace permjit::test {

using Matrix = std::vector<std::vector<int>>;

// The units the registry's row `skeleton` builds for this spec (default options).
inline SkeletonUnits units_of(std::string_view skeleton, const ProblemSpec& spec, const ProblemSource& source,
                              const SolveOptions& opts = {}) {
  const Skeleton* sk = find_skeleton(skeleton);
  REQUIRE(sk != nullptr);
  return sk->units(UnitInputs{sk->name, spec, source, opts});
}

// The first diagnostic of the user error `f` raises (a test fails if it raises none).
template <class F>
Diagnostic first_user_error(F&& f) {
  try {
    f();
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.has_errors());
    return e.diags.all().front();
  }
  FAIL("no user error");
  return {};
}

// That `f` raises a user error whose first diagnostic is at column `col` of the command
// line and says `message`.
template <class F>
void check_command_line_error(F&& f, int col, const std::string& message) {
  const Diagnostic d = first_user_error(std::forward<F>(f));
  CHECK(d.loc.file->path == "<command line>");
  CHECK(d.loc.col == col);
  CHECK_THAT(d.message, Catch::Contains(message));
}

inline std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::path(own_scratch_dir()) / name;
  std::ofstream(path) << text;
  return path.string();
}

inline Matrix random_matrix(int n, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  Matrix m(n, std::vector<int>(n));
  for (auto& row : m)
    for (auto& x : row) x = dist(rng);
  return m;
}

inline std::string tsplib_text(const Matrix& d) {
  std::string s = "NAME: random\nTYPE: ATSP\nDIMENSION: " + std::to_string(d.size()) +
                  "\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n";
  for (const auto& row : d) {
    for (int x : row) s += std::to_string(x) + " ";
    s += "\n";
  }
  return s + "EOF\n";
}

inline std::string qaplib_text(const Matrix& a, const Matrix& b) {
  std::string s = std::to_string(a.size()) + "\n\n";
  for (const auto* m : {&a, &b}) {
    for (const auto& row : *m) {
      for (int x : row) s += std::to_string(x) + " ";
      s += "\n";
    }
    s += "\n";
  }
  return s;
}

inline long long tour_cost(const Matrix& d, const std::vector<int>& p) {
  long long c = 0;
  for (size_t i = 0; i < p.size(); ++i) c += d[p[i]][p[(i + 1) % p.size()]];
  return c;
}

// The Manhattan distances between the cells of a rows x cols grid, cell r * cols + c: a
// table whose automorphisms include the grid's reflections.
inline Matrix grid_distances(int rows, int cols) {
  const int n = rows * cols;
  Matrix m(n, std::vector<int>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i][j] = std::abs(i / cols - j / cols) + std::abs(i % cols - j % cols);
  return m;
}

inline long long qap_cost(const Matrix& a, const Matrix& b, const std::vector<int>& p) {
  long long c = 0;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = 0; j < p.size(); ++j) c += static_cast<long long>(a[i][j]) * b[p[i]][p[j]];
  return c;
}

// Smallest cost over all permutations (with p[0] = 0 when fix_first).
template <class Cost>
long long brute_force_min(int n, bool fix_first, Cost cost) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  long long best = LLONG_MAX;
  do {
    if (!fix_first || p[0] == 0) best = std::min(best, cost(p));
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

// The spec at `spec` loaded with an instance and parameters, as a solve would load it.
inline ProblemSpec load(const std::string& spec, const std::string& instance, std::vector<std::string> params = {}) {
  LoadOptions o;
  o.spec_path = spec;
  o.instance_path = instance;
  o.params = std::move(params);
  return load_spec(o);
}

// `data`: --data (empty: the default, compiled in; "run-time": one module per shape).
inline SolveResult run(const std::string& spec, const std::string& instance = "",
                       std::vector<std::string> params = {}, int threads = 2, std::optional<long long> ub = {},
                       int split_depth = 0, const std::string& data = "") {
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.instance_path = instance;
  o.load.params = std::move(params);
  if (!data.empty()) o.load.data = data;
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = threads;
  o.ub = ub;
  o.split_depth = split_depth;
  o.cache_dir = cache_dir();
  return solve(o);
}

// Two IDA* runs count the same in every iteration (path problems).
inline void same_iterations(const SolveResult& a, const SolveResult& b) {
  REQUIRE(a.iterations.size() == b.iterations.size());
  for (size_t k = 0; k < a.iterations.size(); ++k) {
    INFO("iteration at limit " << a.iterations[k].limit);
    CHECK(a.iterations[k].limit == b.iterations[k].limit);
    CHECK(a.iterations[k].expanded == b.iterations[k].expanded);
    CHECK(a.iterations[k].evaluated == b.iterations[k].evaluated);
    CHECK(a.iterations[k].solutions == b.iterations[k].solutions);
  }
}

// A stopped minimising search's proven bound (docs/reliability.md, "Partial answers"):
// at least the root's bound, at most the optimum where it is known, and at most the
// incumbent, which is at least the optimum.
inline void check_proven_bound(const SolveResult& r, std::optional<long long> optimum = std::nullopt) {
  REQUIRE(r.proven_bound);
  REQUIRE(r.root_bound);
  CHECK(*r.proven_bound >= *r.root_bound);
  if (optimum) CHECK(*r.proven_bound <= *optimum);
  if (r.found) {
    if (optimum) CHECK(r.objective >= *optimum);
    CHECK(*r.proven_bound <= r.objective);
  }
}

}  // namespace permjit::test
