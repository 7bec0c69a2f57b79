// The root bound of problems/atsp.toml lb = 8 before any node's steps: the Held-Karp
// value of the multipliers `root_pi` holds (dsl/lagrange_root.hpp, root_multipliers, on
// the matrix atsp.toml gives it: the path 0 -> every city -> 0, the diagonal `big`), and
// how long they take. Build and run (docs/performance.md, issue 45):
//   g++ -O2 -std=c++20 -I. bench/cpu/atsp_root_bound.cpp dsl/lagrange_root.cpp -o /tmp/atsp_root_bound
//   /tmp/atsp_root_bound INSTANCE.atsp [STEPS=2000]
// Prints one JSON line: instance, n, steps, bound, seconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "dsl/lagrange_root.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::ifstream f(argv[1]);
  std::string tok;
  int n = 0;
  while (f >> tok) {  // TSPLIB, EXPLICIT FULL_MATRIX
    if (tok == "DIMENSION:") f >> n;
    else if (tok.rfind("DIMENSION:", 0) == 0) n = std::stoi(tok.substr(10));
    else if (tok == "DIMENSION") f >> tok >> n;
    if (tok == "EDGE_WEIGHT_SECTION") break;
  }
  std::vector<std::vector<int64_t>> d(static_cast<size_t>(n), std::vector<int64_t>(static_cast<size_t>(n)));
  for (auto& row : d)
    for (auto& x : row) f >> x;
  // REVERSE=1: the transposed matrix (lb = 9: the forest of arcs leaving every city, into `first`).
  if (const char* rv = std::getenv("REVERSE"); rv && std::string(rv) == "1")
    for (int r = 0; r < n; ++r)
      for (int c = r + 1; c < n; ++c) std::swap(d[size_t(r)][size_t(c)], d[size_t(c)][size_t(r)]);
  int64_t big = 1;  // atsp.toml's `arc` diagonal
  for (int r = 0; r < n; ++r) {
    int64_t m = 0;
    for (int c = 0; c < n; ++c) m = r == c ? m : std::max(m, d[size_t(r)][size_t(c)]);
    big += m;
  }
  big = std::min<int64_t>(big, 2147483647);
  std::vector<int64_t> s, t;
  for (int i = 0; i < n; ++i) s.push_back(i), t.push_back(i + 1);
  std::vector<std::vector<int64_t>> c(static_cast<size_t>(n), std::vector<int64_t>(static_cast<size_t>(n)));
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < n; ++b) {
      const int j = b + 1 == n ? 0 : b + 1;
      c[size_t(i)][size_t(b)] = i == j ? big : d[size_t(i)][size_t(j)];
    }
  const long steps = argc > 2 ? std::stol(argv[2]) : 2000;
  const auto t0 = std::chrono::steady_clock::now();
  int64_t bound = 0;
  permjit::root_multipliers(s, t, c, steps, bound);
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"instance\": \"%s\", \"n\": %d, \"steps\": %ld, \"bound\": %lld, \"seconds\": %.4f}\n", argv[1], n,
              steps, static_cast<long long>(bound), dt);
}
